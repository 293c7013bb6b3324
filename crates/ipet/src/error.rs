//! Everything that can go wrong in [`solve`](crate::solve), as data a UI can render.

use crate::lp::LpError;

/// Why no WCET could be computed. Every variant is a recoverable, reportable condition:
/// the crate never panics on bad input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The maximised flow can grow without limit around a cycle. With every loop and
    /// irreducible region bounded this cannot happen, so it signals a solver or analysis
    /// defect rather than a user mistake; `header` is a node on such a cycle.
    Unbounded {
        /// A node on a cycle the constraints failed to bound.
        header: usize,
    },
    /// A loop (or irreducible region) reachable from the entry has neither a per-header
    /// bound nor a default, so its iteration count, and the WCET, would be unbounded.
    NoBound {
        /// The loop header (for a region: its smallest entry node) that needs a bound.
        header: usize,
    },
    /// No execution can end: no exit is reachable from the entry, or the loop bounds (a
    /// bound of 0 on a loop every path must enter) forbid every path to an exit.
    NoPath,
    /// The problem exceeds a [`Budget`](crate::Budget) limit.
    Budget {
        /// Which limit: `"max_variables"`, `"max_constraints"` or `"max_bb_nodes"`.
        what: &'static str,
        /// The configured limit.
        limit: usize,
        /// What the problem needed (for `max_bb_nodes`: more than `limit`, reported as
        /// `limit + 1`, since the search was stopped before it found an integer path).
        needed: usize,
    },
    /// Branch and bound ran out of [`Budget::max_bb_nodes`](crate::Budget) before it found
    /// any integer solution. The LP relaxation's optimum is still a safe bound on the WCET
    /// (it bounds every integer solution); [`Error::safe_bound`] gives it rounded down.
    NoIntegerSolution {
        /// The LP optimum (the entry's cost included) rounded down after a small allowance
        /// for the solver's tolerance, as [`Solution::safe_bound`](crate::Solution::safe_bound)
        /// does: a safe bound on the WCET.
        bound: u64,
        /// The configured `max_bb_nodes`.
        limit: usize,
    },
    /// The integer solution does not check out exactly against the graph (numerical
    /// trouble in the LP, e.g. from huge costs or bounds), or the WCET overflows.
    Solver(String),
    /// The LP solver failed: a numerical breakdown, or an optimum that fails our check
    /// (see [`LpError`]). The analysis reports it instead of a bound.
    Lp(LpError),
    /// The graph itself is malformed (index out of range, no nodes).
    InvalidGraph(String),
}

impl Error {
    /// For [`Error::NoIntegerSolution`]: its safe bound; `None` for other errors.
    pub fn safe_bound(&self) -> Option<u64> {
        match self {
            Error::NoIntegerSolution { bound, .. } => Some(*bound),
            _ => None,
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Unbounded { header } => write!(
                f,
                "the execution count around node {header} is unbounded (a cycle is not limited by any loop bound)"
            ),
            Error::NoBound { header } => write!(
                f,
                "the loop with header node {header} has no bound and there is no default bound"
            ),
            Error::NoPath => f.write_str("no path from the entry to an exit"),
            Error::Budget { what, limit, needed } => write!(
                f,
                "budget {what} exceeded: the problem needs {needed} but the limit is {limit}"
            ),
            Error::NoIntegerSolution { bound, limit } => write!(
                f,
                "branch and bound found no integer solution within {limit} nodes (LP optimum {bound})"
            ),
            Error::Solver(msg) => write!(f, "LP solver failure: {msg}"),
            Error::Lp(e) => e.fmt(f),
            Error::InvalidGraph(msg) => write!(f, "invalid graph: {msg}"),
        }
    }
}

impl std::error::Error for Error {}
