//! Size limits, so that a hostile or huge graph yields an error instead of exhausting the
//! memory or the time of the (single-threaded, WebAssembly) caller.

/// Limits on the problem handed to the LP solver and on branch-and-bound.
///
/// Exceeding `max_variables`, `max_constraints` or `max_lp_size` is an
/// [`Error::Budget`](crate::Error::Budget). Exhausting `max_bb_nodes` is *not* an error
/// when an integer solution was found: [`solve`](crate::solve) returns it with
/// [`Solution::integral`](crate::Solution::integral) set to `false` and the still-safe LP
/// bound in [`Solution::lp_bound`](crate::Solution::lp_bound).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Most LP variables allowed (one per useful edge plus one per reachable exit node).
    pub max_variables: usize,
    /// Most LP constraints allowed (one flow-conservation row per useful node, two for a
    /// node every execution passes exactly once, plus one row per bounded loop or region).
    pub max_constraints: usize,
    /// Largest independent part of the problem given to the LP solver, in variables plus
    /// constraints (the problem splits into parts that share no variable; each is solved on
    /// its own).
    pub max_lp_size: usize,
    /// Most branching LP solves in branch-and-bound, shared by the independent parts of
    /// the problem; a solve on a part of more than 256 variables and rows counts one more
    /// per further 256 (its cost grows with the size), so 1 000 is at most about a second of
    /// work (a PTX warp-level CFG of 1 404 nodes whose LP has no integral optimum took 1.9 s
    /// for 2 000; issue #37 item 3). Root relaxations are not counted: they are always solved, even
    /// with a limit of 0, so the LP bound is always available.
    pub max_bb_nodes: usize,
}

impl Default for Budget {
    /// 20 000 variables, 40 000 constraints, 12 000 in the largest LP part, 1 000 branching
    /// solves. Simplex time grows faster than linearly with the size of the largest
    /// independent part of the problem (the code between two nodes every execution passes
    /// exactly once), and an LP solve cannot be interrupted deterministically, so
    /// `max_lp_size` is what keeps the root relaxation within the browser's second: the
    /// largest default-flag part of the corpus (sm_86 `multi_warp_cg_reduce`, 4 154 variables
    /// and 3 029 rows) takes 0.7 s natively in all, while an ablation run (6 000 abstract
    /// states without the agreement analysis, a 13 574-variable part) took 15 s for its root
    /// LP alone. The totals bound memory: a 10 000-block chain splits into parts that need no
    /// LP at all.
    fn default() -> Self {
        Self {
            max_variables: 20_000,
            max_constraints: 40_000,
            max_lp_size: 12_000,
            max_bb_nodes: 1_000,
        }
    }
}
