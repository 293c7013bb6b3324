//! The wire form of a Sim-D execution (`details.simd.execution` with `simulate=true`, the
//! `phases::execution` run: Spliet & Mullins §4, Fig. 4, Fig. 7): the scheduler and path
//! choice, the observed time against its bound, the lanes' use, the raw schedule, refresh and
//! upload, and how path=launch chose the work-groups' edges. Owned here as
//! [`super::simd_parts`] is; the JSON is the one schema version 3 wrote.

use super::simd_parts::SimdScheduleView;
use super::wire_view::wire_view;
use serde::Serialize;
use ts_rs::TS;

wire_view! {
    /// One execution (the page's "Execution" table and utilisation table).
    #[derive(Debug, Clone, PartialEq, Serialize, TS)]
    pub struct SimdExecutionRun from phases::execution::Execution as e {
        scheduler: SimdScheduler = e.scheduler.into(),
        path: SimdPathChoice = e.path.into(),
        /// Observed kernel time in compute cycles: program upload, every work-group, refresh.
        cycles: u64,
        /// The bound the run is checked against: the policy's WCET for `sp-as-access` and
        /// `sp-as-compute`, WCET^U (Eq. 10) otherwise (which the paper proves only for
        /// serialisations of the policies).
        bound: u64,
        within_bound: bool,
        work_groups: u64,
        phase_instances: u64,
        refreshes: u64,
        utilisation: Vec<SimdLaneUseView> = e.utilisation.iter().map(Into::into).collect(),
        /// The first `schedule_work_groups` work-groups as Gantt data, the WCET schedule's shape
        /// (times include the program upload, as `cycles` does).
        schedule: SimdScheduleView = (&e.schedule).into(),
        /// Refreshes within the shown part, `[start, end)` on the `dram` lane.
        refresh_intervals: Vec<(u64, u64)>,
        /// The program upload, `[0, end)` on the `dram` lane.
        upload: (u64, u64),
        /// DRAM controller runs at actual addresses (distinct command streams).
        controller_runs: u64,
        /// Requests that cost more at their address than their WCET cost (should be none):
        /// `[block, work_group, observed, wcet]`, at most 64.
        requests_above_wcet: Vec<(usize, u64, u64, u64)>,
        /// How path=launch chose the work-groups' edges (`null` for the other path choices).
        decisions: Option<SimdDecisionsView> = e.decisions.as_ref().map(Into::into),
    }
}

/// The four work-group schedulers of the paper's evaluation (§4.2, §6.2, Fig. 7), by the
/// names the `scheduler` parameter takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum SimdScheduler {
    /// Greedy on every resource instance; the slots drift apart (Fig. 4 (b)).
    Unconstrained,
    /// Greedy, plus §4.2's pairwise-work-group constraint only (Fig. 4 (c)).
    Pairwise,
    /// §4.2 scratchpad as access: two resources, compute and access (DRAM or scratchpad).
    SpAsAccess,
    /// §4.2 scratchpad as compute: scratchpad transfers are part of the compute phase.
    SpAsCompute,
}

impl SimdScheduler {
    /// The name, as the `scheduler` parameter and the JSON spell it.
    pub fn name(self) -> &'static str {
        match self {
            SimdScheduler::Unconstrained => "unconstrained",
            SimdScheduler::Pairwise => "pairwise",
            SimdScheduler::SpAsAccess => "sp-as-access",
            SimdScheduler::SpAsCompute => "sp-as-compute",
        }
    }
}

impl From<phases::execution::Scheduler> for SimdScheduler {
    fn from(s: phases::execution::Scheduler) -> Self {
        use phases::execution::Scheduler as S;
        match s {
            S::Unconstrained => SimdScheduler::Unconstrained,
            S::Pairwise => SimdScheduler::Pairwise,
            S::SpAsAccess => SimdScheduler::SpAsAccess,
            S::SpAsCompute => SimdScheduler::SpAsCompute,
        }
    }
}

/// How each work-group's path was chosen (the `path` parameter; tagged by `kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SimdPathChoice {
    /// Every work-group takes the critical path of §5.5: the longest path, as the WCET
    /// assumes.
    Worst,
    /// Every work-group walks the DAG taking each out-edge with equal probability (seeded by
    /// `seed` and the work-group id): loop counts at or below their bounds.
    Random { seed: u64 },
    /// Every work-group takes the path its branch conditions select, decided from its id and
    /// the launch where they can be, `fallback` elsewhere.
    FromLaunch { fallback: SimdFallback },
}

impl From<phases::execution::PathChoice> for SimdPathChoice {
    fn from(p: phases::execution::PathChoice) -> Self {
        use phases::execution::PathChoice as P;
        match p {
            P::Worst => SimdPathChoice::Worst,
            P::Random { seed } => SimdPathChoice::Random { seed },
            P::FromLaunch { fallback } => SimdPathChoice::FromLaunch {
                fallback: fallback.into(),
            },
        }
    }
}

/// The choice at a node whose edge the interpreter cannot decide (the `fallback`
/// parameter; tagged by `kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SimdFallback {
    /// The critical path's edge (§5.5), or the out-edge starting the longest remaining path.
    Worst,
    /// An out-edge at random (seeded by `seed` and the work-group id).
    Random { seed: u64 },
}

impl From<phases::execution::Fallback> for SimdFallback {
    fn from(f: phases::execution::Fallback) -> Self {
        match f {
            phases::execution::Fallback::Worst => SimdFallback::Worst,
            phases::execution::Fallback::Random { seed } => SimdFallback::Random { seed },
        }
    }
}

wire_view! {
    /// Busy time of one lane (a row of the page's utilisation table).
    #[derive(Debug, Clone, PartialEq, Serialize, TS)]
    pub struct SimdLaneUseView from phases::execution::LaneUse as u {
        lane: String,
        /// Cycles the lane holds a phase (and, for `dram`, a refresh).
        busy: u64,
        /// `busy / cycles · 100`.
        percent: f64,
    }
}

wire_view! {
    /// How the path=launch walks chose their edges, summed over the work-groups.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
    pub struct SimdDecisionsView from phases::execution::path::Decisions as d {
        /// Choices the interpreter decided (at nodes with several out-edges, and early exits).
        decided: u64,
        /// Choices made by the fallback (including `capped`).
        fallback: u64,
        /// Of `fallback`: decided edges the DAG does not offer (a loop counted past its bound).
        capped: u64,
        /// Nodes with a single out-edge out of a block that could go more than one way, where
        /// the interpreter decided that edge too: a check of the annotations.
        confirmed: u64,
        /// Work-groups that ended before the end of the program (every work-item exited).
        early_exits: u64,
        /// Work-groups with no fallback choice.
        work_groups_all_decided: u64,
        /// Per work-group, for the first `schedule_work_groups`: `[decided, fallback]`.
        shown: Vec<(u64, u64)>,
    }
}
