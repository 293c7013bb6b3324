//! The wire form of the `makespan` crate's results (Berezovskyi et al.): the estimate
//! `T(W, x)` of Eq. 42, the witness schedule's slots and what the ILP of Fig. 3 took. Owned
//! here so a rename inside the method crate cannot change what the page reads.

use serde::Serialize;
use ts_rs::TS;

/// The estimate `T(W, x) = min over y of ⌈W/y⌉·T(y)` (Eq. 42) and its terms.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct EstimateView {
    /// The largest group size allowed.
    pub x: u32,
    /// `T(W, x)`.
    pub value: u64,
    /// The group size that attains it.
    pub best_y: u32,
    /// `[y, T(y), ⌈W/y⌉·T(y)]` for each group size tried.
    pub terms: Vec<(u32, u64, u64)>,
}

impl From<&makespan::Estimate> for EstimateView {
    fn from(e: &makespan::Estimate) -> Self {
        Self {
            x: e.x,
            value: e.value,
            best_y: e.best_y,
            terms: e.terms.clone(),
        }
    }
}

/// One cell of the witness schedule's Gantt chart: warp `warp` runs instruction `instr` of
/// the transformed string on lane `lane` of unit `unit` (`"L"` or `"C"`) in cycle `cycle`
/// (from 1, as in the ILP's `t = 1..T`, §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct SlotView {
    pub cycle: u64,
    pub unit: &'static str,
    pub lane: u32,
    pub warp: u32,
    pub instr: usize,
}

impl From<&makespan::Slot> for SlotView {
    fn from(s: &makespan::Slot) -> Self {
        Self {
            cycle: s.cycle,
            unit: match s.unit {
                isa::lc::LcOp::L => "L",
                isa::lc::LcOp::C => "C",
            },
            lane: s.lane,
            warp: s.warp,
            instr: s.instr,
        }
    }
}

/// What solving the binary ILP of Fig. 3 took: the branch and bound used (`"propagation"`
/// or `"lp-branch-and-bound"`), its nodes and cache hits, the root LP bound and the model's
/// size.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct IlpSolveView {
    pub solver: &'static str,
    pub nodes: usize,
    pub cache_hits: usize,
    pub lp_bound: Option<f64>,
    pub variables: usize,
    pub constraints: usize,
}

impl From<&makespan::IlpStats> for IlpSolveView {
    fn from(s: &makespan::IlpStats) -> Self {
        Self {
            solver: match s.solver {
                makespan::IlpSolver::Propagation => "propagation",
                makespan::IlpSolver::LpBranchAndBound => "lp-branch-and-bound",
            },
            nodes: s.nodes,
            cache_hits: s.cache_hits,
            lp_bound: s.lp_bound,
            variables: s.variables,
            constraints: s.constraints,
        }
    }
}
