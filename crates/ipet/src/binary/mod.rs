//! Exact branch and bound for pure 0/1 programs with integer coefficients: propagation at
//! every node, a cache of solved residual subproblems, and the LP relaxation (through the
//! LP seam [`crate::lp`]) as the root bound.
//!
//! [`crate::branch_and_bound`] solves an LP at every node and branches on fractional
//! values: the right tool when the relaxation is nearly integral (IPET). Time-indexed
//! scheduling models are the opposite case. Their relaxation is weak (for the makespan ILP
//! of Berezovskyi et al., §5, the root LP bound equals the horizon), so LP-driven search
//! visits millions of nodes, while their rows propagate strongly once the set-partitioning
//! rows are read as exactly-one choices. This solver is built for that case:
//!
//! * [`compiled`]: rows normalised to `Σ a·x ≤ b` over integers, exactly-one groups found
//!   from `Σ x = 1` rows;
//! * [`domains`]: group-aware activity propagation and redundancy detection;
//! * [`search`]: depth-first search in the caller's branching order, pruning by the
//!   objective's largest reachable value, and the residual-program cache (exact keys).
//!
//! It is exact: every pruning step and every cache answer is a proof, so the returned
//! solution is optimal. It is deterministic and allocation-bounded by [`BinaryLimits`].

mod compiled;
mod domains;
mod search;

use crate::branch_and_bound::IntegerProgram;
use crate::lp::LpError;

/// Limits on the work of [`maximize_binary`]; exceeding one is [`BinaryError::Budget`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BinaryLimits {
    /// Most search nodes (each a propagation of one branching decision).
    pub max_nodes: usize,
    /// Most residual programs kept in the cache (each holds its key: the free-variable bit
    /// set plus two words per live row).
    pub max_cache_entries: usize,
    /// Solve the LP relaxation at the root ([`crate::lp`]): its optimum caps the search,
    /// which stops as soon as a solution reaches it.
    pub root_lp: bool,
}

impl Default for BinaryLimits {
    fn default() -> Self {
        BinaryLimits {
            max_nodes: 1_000_000,
            max_cache_entries: 200_000,
            root_lp: true,
        }
    }
}

/// An optimal solution and what it took to prove it.
#[derive(Debug, Clone, PartialEq)]
pub struct BinaryOutcome {
    /// The value of every variable.
    pub values: Vec<bool>,
    /// The optimal objective.
    pub objective: i64,
    /// The root LP relaxation's optimum, when it was solved.
    pub lp_bound: Option<f64>,
    /// Search nodes visited (including children found infeasible by propagation).
    pub nodes: usize,
    /// Nodes answered or bounded by the residual-program cache.
    pub cache_hits: usize,
    /// Residual programs in the cache at the end.
    pub cache_entries: usize,
}

/// Why [`maximize_binary`] gave no solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BinaryError {
    /// No 0/1 assignment satisfies every row.
    Infeasible,
    /// A limit of [`BinaryLimits`] was reached; `what` names the field.
    Budget {
        /// The field of [`BinaryLimits`].
        what: &'static str,
        /// Its value.
        limit: usize,
    },
    /// A coefficient or right-hand side is not an integer (of at most 2^40 in magnitude),
    /// or a row names a variable that does not exist.
    Invalid(String),
    /// The LP solver failed on the root relaxation (see [`LpError`]).
    Lp(LpError),
}

impl std::fmt::Display for BinaryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BinaryError::Infeasible => f.write_str("the 0/1 program is infeasible"),
            BinaryError::Budget { what, limit } => {
                write!(f, "the 0/1 search exceeded {what} = {limit}")
            }
            BinaryError::Invalid(m) => write!(f, "invalid 0/1 program: {m}"),
            BinaryError::Lp(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for BinaryError {}

/// Maximises `program`'s objective over 0/1 values of every variable.
///
/// `order` lists variables in the order to branch on them, each with the value to try
/// first; variables not listed come after, in index order, 1 first. A good order decides
/// variables in the order their consequences unfold (for a time-indexed model: cycle by
/// cycle), so that propagation settles the rest and equal residual programs recur.
///
/// # Errors
/// [`BinaryError::Infeasible`], [`BinaryError::Budget`] or [`BinaryError::Invalid`];
/// [`BinaryError::Lp`] when the root LP fails (only with [`BinaryLimits::root_lp`]).
pub fn maximize_binary(
    program: &IntegerProgram,
    order: &[(usize, bool)],
    limits: &BinaryLimits,
) -> Result<BinaryOutcome, BinaryError> {
    search::run(program, order, limits, &isa::progress::silent)
}

/// [`maximize_binary`], telling `observer` every 1 024 search nodes how many nodes the search
/// has visited (of `max_nodes`), the best objective found so far (a lower bound on the
/// optimum that rises to it) and the root LP's cap ([`isa::Task::BinaryBranchAndBound`]). The
/// result does not depend on the observer.
///
/// # Errors
/// As [`maximize_binary`].
pub fn maximize_binary_observed(
    program: &IntegerProgram,
    order: &[(usize, bool)],
    limits: &BinaryLimits,
    observer: isa::Observer,
) -> Result<BinaryOutcome, BinaryError> {
    search::run(program, order, limits, observer)
}
