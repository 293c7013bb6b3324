//! Matching a concrete divergence stack against an abstract one of the warp-level CFG,
//! shared by `cfg`'s soundness checks (the concrete executor's pending entries) and `sim`'s
//! (the simulator's), which includes this file by path.

use cfg::{Entry, Tag};

/// Whether the concrete pending entries `conc` (bottom first, each as its next instruction
/// and tag) can be an expansion of the abstract stack `abs`: a `repeated` entry stands for
/// one or more consecutive entries drawn from its points, "any" for any sequence.
pub fn stack_matches(abs: &[Entry], conc: &[(usize, Tag)]) -> bool {
    // reach[j]: the abstract entries so far can produce the first j concrete ones.
    let mut reach = vec![false; conc.len() + 1];
    reach[0] = true;
    for a in abs {
        let mut next = vec![false; conc.len() + 1];
        for j in (0..=conc.len()).filter(|&j| reach[j]) {
            if a.is_any() {
                next[j..].iter_mut().for_each(|r| *r = true);
                continue;
            }
            let mut k = j;
            while k < conc.len() && a.contains(conc[k].0, conc[k].1) {
                k += 1;
                next[k] = true;
                if !a.repeated {
                    break;
                }
            }
        }
        reach = next;
    }
    reach[conc.len()]
}
