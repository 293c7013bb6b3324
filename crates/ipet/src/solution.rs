//! The result of [`solve`](crate::solve): the worst-case path as execution counts.

use crate::loops::Loop;

/// The worst-case execution found by IPET, as counts per node and edge.
///
/// When [`Solution::integral`] is `true`, `wcet` is the exact optimum of the IPET integer
/// program: a safe upper bound on the cost of any execution that respects the loop bounds.
///
/// When it is `false` the branch-and-bound budget ran out: the counts describe the best
/// *feasible* execution found, so `wcet` may **under**-estimate the optimum and is not by
/// itself a safe bound. The LP relaxation bound [`Solution::lp_bound`] is still safe; use
/// [`Solution::safe_bound`] to get the right number either way. The caller decides whether
/// an inexact answer is acceptable.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// `Σ cost(n) · count(n)` over the reported counts, computed exactly in integers.
    pub wcet: u64,
    /// Execution count of each node (0 for nodes no complete execution can visit).
    pub node_counts: Vec<u64>,
    /// Count of each [`Cfg::edges`](crate::Cfg::edges) entry, by index.
    pub edge_counts: Vec<u64>,
    /// `(exit node, times execution ends there)` for every exit node reachable from the
    /// entry, ascending by node; the counts sum to 1.
    pub exit_counts: Vec<(usize, u64)>,
    /// Every loop and irreducible region (as [`find_loops`](crate::find_loops) reports
    /// them) with the bound that was applied.
    pub loops: Vec<Loop>,
    /// Optimum of the LP relaxation (including the entry's cost): an upper bound on every
    /// execution's cost, and `>= wcet` up to floating-point tolerance.
    pub lp_bound: f64,
    /// `false` when the branch-and-bound budget ran out before optimality was proven.
    pub integral: bool,
    /// LP solves performed: the root relaxation of each independent part that needed an LP
    /// (parts with a single variable need none) plus the branching solves.
    pub bb_nodes: usize,
    /// Number of LP variables (useful edges plus reachable exits).
    pub variables: usize,
    /// Number of LP constraints (flow rows plus loop rows; a node every execution passes
    /// exactly once gets an in-flow and an out-flow row, which splits the problem into
    /// independent parts).
    pub constraints: usize,
}

impl Solution {
    /// A bound that is safe whether or not branch-and-bound finished: `wcet` when the
    /// solution is integral, otherwise the LP bound rounded down (IPET objectives are
    /// integers), never less than `wcet`. Saturates at `u64::MAX`.
    pub fn safe_bound(&self) -> u64 {
        if self.integral {
            return self.wcet;
        }
        lp_floor(self.lp_bound).max(self.wcet)
    }
}

/// An LP optimum as a safe integer bound: rounded down after a small allowance for the
/// solver's tolerance (IPET objectives are integers). Saturates at `u64::MAX`.
pub(crate) fn lp_floor(lp_bound: f64) -> u64 {
    let slack = 1e-6 + 1e-12 * lp_bound.abs();
    let lp = (lp_bound + slack).floor();
    // `as` saturates for out-of-range floats, which is the safe direction here.
    if lp.is_finite() {
        lp as u64
    } else {
        u64::MAX
    }
}
