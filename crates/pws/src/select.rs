//! Algorithm 1 of PWS §4.2: Select split-point branches from the programmer's marks.

use std::collections::BTreeSet;

use crate::structure::Structure;

/// `Select(C_BSB, S)` (Alg. 1, PWS §4.2).
///
/// Walks the marked branch nodes `P` in topological order. A node is selected when a
/// node with the same `Parent` is already selected (line 6–7: branches in sequence reuse
/// the SWF context freed at the earlier branch's merge), or else while fewer than `S`
/// contexts have been allocated (lines 8–10). Marked nodes that are not splittable
/// divergent branches are ignored (a `split` that is not before a divergent branch is
/// removed by the compiler, §4.1).
///
/// Note that the counter never decreases, so branches nested inside two *different*
/// sequential branches each take a new context although they could share one: Select is
/// safe but not optimal; [`crate::optimal`] is exact.
pub fn select(structure: &Structure, marked: &BTreeSet<usize>, s: u32) -> BTreeSet<usize> {
    let mut p: Vec<usize> = marked
        .iter()
        .copied()
        .filter(|u| structure.shapes.contains_key(u))
        .collect();
    p.sort_by_key(|&u| structure.position.get(u).copied().unwrap_or(usize::MAX));
    let mut swf_count: u32 = 0;
    let mut sb = BTreeSet::new();
    for u in p {
        let parent_u = structure.parent.get(&u).copied().flatten();
        let shares_parent = sb
            .iter()
            .any(|v| structure.parent.get(v).copied().flatten() == parent_u);
        if shares_parent {
            sb.insert(u); // Alg. 1 line 7
        } else if swf_count < s {
            sb.insert(u); // line 9
            swf_count += 1; // line 10
        }
    }
    sb
}
