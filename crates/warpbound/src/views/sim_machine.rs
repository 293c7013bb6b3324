//! The wire form of the machine a simulator run used (`report.simulation.machine`, the `sim`
//! crate's [`sim::Machine`]): how its warps issue, its units, its timing. The names are the
//! ones the report has always carried (`scheduler: "greedy_then_oldest"`, latency tables
//! keyed by timing class), owned here so a rename inside `sim` or `cfg` cannot change them.

use super::sim_parts::UnitName;
use cfg::TimingClass;
use serde::Serialize;
use std::collections::BTreeMap;
use ts_rs::TS;

/// One SM as the simulator modelled it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct MachineView {
    /// Threads per warp, and warps resident at once.
    pub warp_size: u32,
    pub warps_per_sm: u32,
    /// Which ready warp issues next, and the order a diverged warp's paths issue in.
    pub scheduler: SchedulerView,
    pub thread_scheduling: ThreadSchedulingView,
    /// Warp-instructions issued per cycle.
    pub issue_width: u32,
    /// Stall counts and scoreboard barriers taken from the SASS control bits.
    pub control_bits: bool,
    /// Lanes of each unit kind, and the unit each timing class runs on.
    pub cores: u32,
    pub ls_units: u32,
    pub sfu_units: u32,
    pub unit_of: BTreeMap<String, UnitName>,
    /// Cycles per timing class: until a result is ready, and between two issues.
    pub latency: LatencyView,
    /// Extra cycles per memory transaction beyond the first.
    pub transaction_cycles: u32,
    pub l1: Option<L1CacheView>,
    /// GCN3 wavefront splitting (PWS §3, §4.1).
    pub splitting: SplittingView,
}

impl From<&sim::Machine> for MachineView {
    fn from(m: &sim::Machine) -> Self {
        let by_class = |table: &BTreeMap<TimingClass, u32>| {
            table.iter().map(|(&c, &v)| (class_key(c), v)).collect()
        };
        MachineView {
            warp_size: m.warp_size,
            warps_per_sm: m.warps_per_sm,
            scheduler: m.scheduler.into(),
            thread_scheduling: m.thread_scheduling.into(),
            issue_width: m.issue_width,
            control_bits: m.control_bits,
            cores: m.cores,
            ls_units: m.ls_units,
            sfu_units: m.sfu_units,
            unit_of: m
                .unit_of
                .iter()
                .map(|(&c, &u)| (class_key(c), u.into()))
                .collect(),
            latency: LatencyView {
                latency: by_class(&m.latency.latency),
                interval: by_class(&m.latency.interval),
            },
            transaction_cycles: m.transaction_cycles,
            l1: m.l1.map(|c| L1CacheView {
                sets: c.sets,
                ways: c.ways,
                line_bytes: c.line_bytes,
                hit_latency: c.hit_latency,
            }),
            splitting: m.splitting.into(),
        }
    }
}

/// A timing class as the report's tables key it (`double_precision`, not the parameter
/// names' `dp`).
fn class_key(c: TimingClass) -> String {
    match c {
        TimingClass::DoublePrecision => "double_precision".to_string(),
        other => other.name().to_string(),
    }
}

/// Latency and issue interval of each timing class, in cycles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct LatencyView {
    pub latency: BTreeMap<String, u32>,
    pub interval: BTreeMap<String, u32>,
}

/// The L1 data cache: geometry and hit latency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct L1CacheView {
    pub sets: u32,
    pub ways: u32,
    pub line_bytes: u32,
    pub hit_latency: u32,
}

/// Which ready warp issues next (`{"random": seed}` for the seeded random choice).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum SchedulerView {
    LooseRoundRobin,
    GreedyThenOldest,
    PureRoundRobin,
    GreedyThenRoundRobin,
    Random(u64),
}

impl From<sim::Scheduler> for SchedulerView {
    fn from(s: sim::Scheduler) -> Self {
        use sim::Scheduler as S;
        match s {
            S::LooseRoundRobin => Self::LooseRoundRobin,
            S::GreedyThenOldest => Self::GreedyThenOldest,
            S::PureRoundRobin => Self::PureRoundRobin,
            S::GreedyThenRoundRobin => Self::GreedyThenRoundRobin,
            S::Random(seed) => Self::Random(seed),
        }
    }
}

/// The order a diverged warp's paths issue in: the activation stack's, or one of the
/// independent-thread-scheduling choices (`{"random": seed}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ThreadSchedulingView {
    StackOrder,
    RoundRobin,
    Newest,
    Random(u64),
}

impl From<sim::ThreadScheduling> for ThreadSchedulingView {
    fn from(t: sim::ThreadScheduling) -> Self {
        use sim::ThreadScheduling as T;
        match t {
            T::StackOrder => Self::StackOrder,
            T::RoundRobin => Self::RoundRobin,
            T::Newest => Self::Newest,
            T::Random(seed) => Self::Random(seed),
        }
    }
}

/// Wavefront splitting: none, or DWS/PWS with their costs (`{"kind": "pws", "s": 2, …}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SplittingView {
    None,
    Dws(SplitCostsView),
    Pws(SplitCostsView),
}

/// `S` (split contexts per wavefront), `e_s` and `e_m` (cycles of a split and of a merge).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct SplitCostsView {
    pub s: u32,
    pub e_s: u64,
    pub e_m: u64,
}

impl From<sim::Splitting> for SplittingView {
    fn from(s: sim::Splitting) -> Self {
        let costs = |c: sim::SplitCosts| SplitCostsView {
            s: c.s,
            e_s: c.e_s,
            e_m: c.e_m,
        };
        match s {
            sim::Splitting::None => Self::None,
            sim::Splitting::Dws(c) => Self::Dws(costs(c)),
            sim::Splitting::Pws(c) => Self::Pws(costs(c)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitting_is_written_with_a_kind_tag() {
        let pws = sim::Splitting::Pws(sim::SplitCosts {
            s: 2,
            e_s: 3,
            e_m: 4,
        });
        let json = |s: sim::Splitting| serde_json::to_string(&SplittingView::from(s));
        assert_eq!(
            json(pws).ok().as_deref(),
            Some(r#"{"kind":"pws","s":2,"e_s":3,"e_m":4}"#)
        );
        assert_eq!(
            json(sim::Splitting::None).ok().as_deref(),
            Some(r#"{"kind":"none"}"#)
        );
    }

    #[test]
    fn schedulers_keep_their_report_names() {
        let json = |s: sim::Scheduler| serde_json::to_value(SchedulerView::from(s)).ok();
        assert_eq!(
            json(sim::Scheduler::GreedyThenOldest),
            Some(serde_json::json!("greedy_then_oldest"))
        );
        assert_eq!(
            json(sim::Scheduler::Random(7)),
            Some(serde_json::json!({"random": 7}))
        );
    }
}
