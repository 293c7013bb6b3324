//! Size limits, so that a hostile or huge graph yields an error instead of exhausting the
//! memory or the time of the (single-threaded, WebAssembly) caller.

use serde::{Deserialize, Serialize};

/// Limits on the problem handed to the LP solver and on branch-and-bound.
///
/// Exceeding `max_variables` or `max_constraints` is an
/// [`Error::Budget`](crate::Error::Budget). Exhausting `max_bb_nodes` is *not* an error
/// when an integer solution was found: [`solve`](crate::solve) returns it with
/// [`Solution::integral`](crate::Solution::integral) set to `false` and the still-safe LP
/// bound in [`Solution::lp_bound`](crate::Solution::lp_bound).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budget {
    /// Most LP variables allowed (one per useful edge plus one per reachable exit node).
    pub max_variables: usize,
    /// Most LP constraints allowed (one flow-conservation row per useful node, two for a
    /// node every execution passes exactly once, plus one row per bounded loop or region).
    pub max_constraints: usize,
    /// Most branching LP solves in branch-and-bound, shared by the independent parts of
    /// the problem. Root relaxations are not counted: they are always solved, even with a
    /// limit of 0, so the LP bound is always available.
    pub max_bb_nodes: usize,
}

impl Default for Budget {
    /// 20 000 variables, 40 000 constraints, 2 000 branching solves: comfortably above the
    /// Rodinia kernels of the paper. Simplex time grows faster than linearly with the size
    /// of the largest independent part of the problem (the code between two nodes every
    /// execution passes exactly once), so a graph near these limits answers quickly only if
    /// it splits into many such parts.
    fn default() -> Self {
        Self {
            max_variables: 20_000,
            max_constraints: 40_000,
            max_bb_nodes: 2_000,
        }
    }
}
