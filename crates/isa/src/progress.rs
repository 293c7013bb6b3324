//! Progress of long work: what a search, a branch and bound or a simulation has done so far,
//! handed to an observer every so many units of work so a caller can show it (the page's
//! progress bar, a CLI status line).
//!
//! What it *is*: plain data ([`Progress`]) and the observer's type ([`Observer`]). The analysis
//! crates count work they already count for their budgets and, every few thousand units, call
//! the observer; they never read a clock (elapsed time is the caller's: the wasm module reads
//! `performance.now()`).
//!
//! What it is *not*: an influence on any result. An observer sees values, it cannot stop or
//! steer the work, and a report is the same with or without one (tests check this).
//!
//! It lives in `isa`, like [`crate::Limits`] and [`crate::Diagnostic`], because every
//! analysis crate already depends on it.

/// Which work a [`Progress`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    /// The exact worst-case makespan search (`makespan` crate): `done` counts search steps
    /// (`max_search_steps`); `best_bound` is the longest schedule found so far.
    MakespanSearch,
    /// The propagating 0/1 branch and bound (`ipet::binary`, behind the makespan paper's ILP):
    /// `done` counts search nodes (`max_bb_nodes`); `best_bound` is the best objective found so
    /// far (for the makespan ILP, the longest schedule), `upper_bound` the root LP's cap.
    BinaryBranchAndBound,
    /// IPET's LP branch and bound (`ipet::branch_and_bound`): `done` counts branching LP
    /// solves in budget units (`max_bb_nodes`); `best_bound` is the best integer objective
    /// found so far in the part being searched, `upper_bound` that part's LP bound.
    IpetBranchAndBound,
    /// The warp-level CFG's fixpoint (`cfg`, abstract interpretation): `done` counts abstract
    /// states explored (`max_states`); no bound.
    WarpCfg,
    /// The cycle-level simulator (`sim`): `done` counts warp-instructions issued
    /// (`max_steps`); `best_bound` is the cycle reached so far.
    Simulation,
    /// The warp-level CFG of a PTX function under the post-dominator stack (`cfg::ptx`, a
    /// breadth-first exploration of stack shapes): `done` counts abstract states found
    /// (`max_states`); no bound.
    PtxWarpCfg,
    /// The `T(W, x)` curve of the makespan paper (Figs. 6–7, Eq. 42–43,
    /// `makespan::estimate_curve_partial`): the exact searches for `T(1)`, `T(2)`, … share
    /// one step budget, so `done` counts their steps together (`max_search_steps`; the
    /// makespan mode gives its curve half of it, and `budget` is that half); no bound (the
    /// `T(y)` differ, none is the final value).
    MakespanCurve,
    /// The `T(W, x)` estimate for one `x` (`makespan::estimate`, the makespan mode's
    /// `estimate_x`): as [`Task::MakespanCurve`], for `T(1)` to `T(x)` with the whole
    /// `max_search_steps`.
    MakespanEstimate,
    /// Huangfu's kernel analyzer (`roundrobin`, Alg. 4): `done` counts warp instructions
    /// executed over all warps (`max_warp_steps`); no bound (the WCET comes from the
    /// schedule of the finished traces).
    RoundRobinAnalyzer,
    /// Loop unrolling of a PWS wavefront CFG (`pws::unroll`): `done` counts the nodes of the
    /// graph as loops are copied (`max_unrolled_nodes`); no bound.
    PwsUnroll,
    /// The optimal split selection of PWS (`pws::optimal`, a dynamic programme over the
    /// branch tree): `done` counts Pareto points created (`max_pareto_points`); no bound.
    PwsSplitSelection,
    /// One Sim-D execution of a launch (`phases::execution`): `done` counts phase instances
    /// scheduled (`max_sim_phases`); `best_bound` is the latest end of a phase so far, the
    /// cycle the execution has reached.
    SimdExecution,
}

impl Task {
    /// Every task, in a fixed order (for tests and documentation).
    pub const ALL: [Task; 12] = [
        Task::MakespanSearch,
        Task::BinaryBranchAndBound,
        Task::IpetBranchAndBound,
        Task::WarpCfg,
        Task::Simulation,
        Task::PtxWarpCfg,
        Task::MakespanCurve,
        Task::MakespanEstimate,
        Task::RoundRobinAnalyzer,
        Task::PwsUnroll,
        Task::PwsSplitSelection,
        Task::SimdExecution,
    ];

    /// The task's key, as the page's progress messages name it (`makespan-search`,
    /// `ipet-branch-and-bound`, `warp-cfg`): the variant's name in kebab case.
    pub fn key(self) -> &'static str {
        match self {
            Task::MakespanSearch => "makespan-search",
            Task::BinaryBranchAndBound => "binary-branch-and-bound",
            Task::IpetBranchAndBound => "ipet-branch-and-bound",
            Task::WarpCfg => "warp-cfg",
            Task::Simulation => "simulation",
            Task::PtxWarpCfg => "ptx-warp-cfg",
            Task::MakespanCurve => "makespan-curve",
            Task::MakespanEstimate => "makespan-estimate",
            Task::RoundRobinAnalyzer => "round-robin-analyzer",
            Task::PwsUnroll => "pws-unroll",
            Task::PwsSplitSelection => "pws-split-selection",
            Task::SimdExecution => "simd-execution",
        }
    }

    /// A short title ("exact makespan search").
    pub fn label(self) -> &'static str {
        match self {
            Task::MakespanSearch => "exact makespan search",
            Task::BinaryBranchAndBound => "0/1 branch and bound (ILP)",
            Task::IpetBranchAndBound => "IPET branch and bound",
            Task::WarpCfg => "warp-level CFG",
            Task::Simulation => "simulation",
            Task::PtxWarpCfg => "warp-level CFG (PTX, post-dominator stack)",
            Task::MakespanCurve => "T(W, x) curve (exact T(y) for y = 1, 2, …)",
            Task::MakespanEstimate => "T(W, x) estimate (exact T(y) for y ≤ x)",
            Task::RoundRobinAnalyzer => "round-robin analyzer (warp traces)",
            Task::PwsUnroll => "loop unrolling",
            Task::PwsSplitSelection => "optimal split selection",
            Task::SimdExecution => "Sim-D execution",
        }
    }

    /// What [`Progress::done`] counts.
    pub fn unit(self) -> &'static str {
        match self {
            Task::MakespanSearch => "search steps",
            Task::BinaryBranchAndBound => "nodes",
            Task::IpetBranchAndBound => "LP solves",
            Task::WarpCfg | Task::PtxWarpCfg => "abstract states",
            Task::Simulation => "warp-instructions",
            Task::MakespanCurve | Task::MakespanEstimate => "search steps",
            Task::RoundRobinAnalyzer => "warp instructions",
            Task::PwsUnroll => "nodes",
            Task::PwsSplitSelection => "Pareto points",
            Task::SimdExecution => "phase instances",
        }
    }

    /// The request parameter that is [`Progress::budget`].
    pub fn parameter(self) -> &'static str {
        match self {
            Task::MakespanSearch | Task::MakespanCurve | Task::MakespanEstimate => {
                "max_search_steps"
            }
            Task::BinaryBranchAndBound | Task::IpetBranchAndBound => "max_bb_nodes",
            Task::WarpCfg | Task::PtxWarpCfg => "max_states",
            Task::Simulation => "max_steps",
            Task::RoundRobinAnalyzer => "max_warp_steps",
            Task::PwsUnroll => "max_unrolled_nodes",
            Task::PwsSplitSelection => "max_pareto_points",
            Task::SimdExecution => "max_sim_phases",
        }
    }

    /// What [`Progress::best_bound`] is, when the task has one.
    pub fn bound_label(self) -> Option<&'static str> {
        match self {
            Task::MakespanSearch => Some("longest schedule so far"),
            Task::BinaryBranchAndBound | Task::IpetBranchAndBound => {
                Some("best integer solution so far")
            }
            Task::WarpCfg
            | Task::PtxWarpCfg
            | Task::MakespanCurve
            | Task::MakespanEstimate
            | Task::RoundRobinAnalyzer
            | Task::PwsUnroll
            | Task::PwsSplitSelection => None,
            Task::Simulation | Task::SimdExecution => Some("cycle"),
        }
    }
}

/// One report of progress.
///
/// Every value sought here is a maximum (a worst-case makespan, a longest path, the cycles
/// of a run), so `best_bound` is a *lower* bound on the task's final value that rises
/// towards it: never above the final value, never falling between two reports of one task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub task: Task,
    /// Units of work done so far in this task (never falling between two reports of one
    /// task; see [`Task::unit`]).
    pub done: u64,
    /// The budget that would stop the task ([`Task::parameter`]): `done` never exceeds it, and
    /// most work ends well before it, so `done / budget` is how much of the budget is used,
    /// not an estimate of the time left.
    pub budget: u64,
    /// The value sought as far as known: a lower bound on the final value (see above).
    pub best_bound: Option<u64>,
    /// An upper bound on the final value, when the task knows one.
    pub upper_bound: Option<u64>,
}

/// Receives progress reports. `Fn`, not `FnMut`, so that it can be shared by reference
/// through the `&`-borrowed inputs of every mode (a caller that keeps state uses a `Cell`).
pub type Observer<'a> = &'a dyn Fn(&Progress);

/// The observer that ignores every report.
pub fn silent(_: &Progress) {}

/// A countdown for the hot loops: `tick(n)` adds `n` units and says whether a report is due
/// (every `every` units, a power of two, so the test is one subtraction and one comparison).
#[derive(Debug, Clone, Copy)]
pub struct Every {
    left: u64,
    every: u64,
}

impl Every {
    /// A report due after each `every` units.
    pub fn new(every: u64) -> Self {
        let every = every.max(1);
        Every { left: every, every }
    }

    /// Counts `n` units; true when a report is due (then the countdown restarts).
    #[inline(always)]
    pub fn tick(&mut self, n: u64) -> bool {
        if n < self.left {
            self.left -= n;
            false
        } else {
            self.left = self.every;
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fires_once_per_period() {
        let mut e = Every::new(4);
        let fired: Vec<bool> = (0..9).map(|_| e.tick(1)).collect();
        assert_eq!(
            fired,
            [false, false, false, true, false, false, false, true, false]
        );
        let mut e = Every::new(10);
        assert!(!e.tick(9));
        assert!(e.tick(7), "a large step passes the period");
        assert!(!e.tick(9));
    }

    #[test]
    fn every_task_names_its_budget_parameter() {
        for t in Task::ALL {
            assert!(t.parameter().starts_with("max_"), "{t:?}");
            assert!(!t.label().is_empty() && !t.unit().is_empty());
        }
    }

    #[test]
    fn every_key_is_its_variant_in_kebab_case() {
        for t in Task::ALL {
            let mut kebab = String::new();
            for (i, c) in format!("{t:?}").chars().enumerate() {
                if c.is_ascii_uppercase() && i > 0 {
                    kebab.push('-');
                }
                kebab.push(c.to_ascii_lowercase());
            }
            assert_eq!(t.key(), kebab);
        }
    }
}
