//! Wavefront splitting on GCN3 (issue #7 item 3): no splitting, dynamic wavefront splitting
//! (DWS) and predictable wavefront splitting (PWS) — Klashtorny et al., *Predictable
//! Wavefront Splitting* (/work/shared/papers/000_eb257801a01834ca.txt).
//!
//! Our reading of the paper, which the GCN engine (`crate::gcn`) implements:
//! - **Split-wavefronts (SWFs)** (§3 "Dynamic wavefront splitting", §4.1 "SWF contexts"): a
//!   split turns one (split-)wavefront into two that share the vector register file (their
//!   work-items are disjoint) and each get a copy of the scalar register file (SRF). Each
//!   SWF has a *split mask* (SpM); "a work-item is active if the bits in the execute mask and
//!   split mask are both set" (§4.1), so an SWF's active lanes are `exec & SpM` and its
//!   `s_cbranch_execz`/`execnz` test that product.
//! - **Split** (§4.1, Fig. 5b): SWF1 keeps the original context with `SpM ∧ M`, the new SWF2
//!   gets `SpM ∧ ¬M`. Both continue at the next instruction after `e_s` cycles (input 5 of
//!   §5: the worst-case delay of one split). The parent stays on its SIMD; the child runs on
//!   a dedicated SpSIMD unit (Solution 2 of §3, §4.1 "SpSIMD units"), so the two execute in
//!   parallel; a wavefront may be split at most `S` times at once (one SpSIMD per split,
//!   "We permit each wavefront to split up to a maximum of S times").
//! - **Merge** (§4.1): an SWF at its merge point stalls "until the other SWF reaches the
//!   merge point"; then the parent continues with `SpM₁ ∨ SpM₂`, keeping its own SRF
//!   ("Scalar registers are used for wavefront status, so there is no need to copy these
//!   register contents"), `e_m` cycles after the later arrival, and the child's context is
//!   freed for a later split. A parent with children merges with the top of its child stack.
//! - **PWS** (§4.1): splits only at a `split sA, sB` instruction, with
//!   `M = sA | sB << 32` (Fig. 3: "we use each bit to indicate whether a work-item is active
//!   ... in the resulting SWFs"; two 32-bit registers cover 64 work-items), and merges at the
//!   `merge` instruction. With no free context the split is skipped (Select, Alg. 1, only
//!   marks as many nested splits as there are contexts, so a selected split always finds
//!   one).
//! - **DWS** (§3): the hardware decides at run time. We split at the instruction that
//!   narrows `exec` for a divergent branch (`s_and_saveexec_b64` and the other
//!   [`isa::gcn::ExecEffect::Narrow`] forms — the branch nodes of the `pws` crate) when the
//!   narrowed mask is a non-empty proper subset of the active lanes and a context is free:
//!   `M` = the narrowed `exec`. The SWFs merge at the reconvergence point, the first
//!   instruction that restores `exec` ([`isa::gcn::ExecEffect::Restore`],
//!   `s_or_b64 exec, exec, sX`) from the register pair the narrowing instruction saved into;
//!   the restore then executes once, on the merged wavefront. `split`/`merge` instructions
//!   are ignored (zero time) under DWS and without splitting.

/// Which splitting model the GCN engine uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Splitting {
    /// The baseline GCN3: divergent paths are serialised by the exec mask (PWS §2).
    #[default]
    None,
    /// Dynamic wavefront splitting at every divergent branch while a context is free (§3).
    Dws(SplitCosts),
    /// Predictable wavefront splitting at `split` instructions only (§4.1).
    Pws(SplitCosts),
}

/// `S`, `e_s` and `e_m` (PWS Table 1 and §5 input 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitCosts {
    /// `S`: SpSIMD units (SWF contexts) per wavefront — how many splits may be live at once.
    pub s: u32,
    /// `e_s`: cycles one split takes.
    pub e_s: u64,
    /// `e_m`: cycles one merge takes.
    pub e_m: u64,
}

impl Splitting {
    /// The costs, unless there is no splitting.
    pub fn costs(&self) -> Option<SplitCosts> {
        match *self {
            Splitting::None => None,
            Splitting::Dws(c) | Splitting::Pws(c) => Some(c),
        }
    }

    /// Short name for reports: `none`, `dws`, `pws`.
    pub fn name(&self) -> &'static str {
        match self {
            Splitting::None => "none",
            Splitting::Dws(_) => "dws",
            Splitting::Pws(_) => "pws",
        }
    }
}

/// The two split masks of Fig. 5b: `(SpM ∧ M, SpM ∧ ¬M)` for SWF1 (the parent, first path)
/// and SWF2 (the child).
pub fn split_masks(spm: u64, m: u64) -> (u64, u64) {
    (spm & m, spm & !m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fig5_split_and_merge_masks() {
        // Fig. 5a/5b (4 work-items): SWF1 with SpM 1101 splits by 1100 into 1100 and 0001,
        // and the merge ORs them back: 1100 ∨ 0001 = 1101.
        let (a, b) = split_masks(0b1101, 0b1100);
        assert_eq!((a & 0xf, b & 0xf), (0b1100, 0b0001));
        assert_eq!(a | b, 0b1101);
    }
}
