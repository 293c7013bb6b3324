//! The wire form of a simulator run (`report.simulation`: [`SimulationReport`], the `sim`
//! crate's [`sim::Simulation`] with the bound it is checked against): the headline numbers, the machine it ran on, each warp's timeline,
//! the units' occupancy, the memory traffic and final memory, and the stepper's warp. Owned
//! here so a change inside the simulator cannot change what the page reads; the JSON is the
//! one the page has always read (schema version 3 wrote `sim`'s own serde output).
//!
//! A long run records millions of issues, so the per-issue types stay as compact as the
//! simulator's (masks as bits, unit names as one-byte enums), and a stepper's stacks and
//! thread groups stay shared between consecutive steps as they are in the run.

use super::sim_machine::MachineView;
use super::sim_stepper::StepperView;
use crate::report::OutsideAccess;
use serde::{Deserialize, Serialize, Serializer};
use ts_rs::TS;

/// A simulator run as the report carries it: the run itself (its fields at the top level,
/// as before this was typed), the bound it is compared with, and whether it stayed within.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct SimulationReport {
    #[serde(flatten)]
    #[ts(flatten)]
    pub run: SimRunView,
    /// The bound the mode checks this run against, or why there is none to compare with;
    /// absent for a plain `simulate` run, which has no bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<SimBound>,
    /// `run.cycles <= bound.cycles`: whether the bound holds for this execution; absent when
    /// there is no bound to compare with. A `false` is a soundness bug to report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holds: Option<bool>,
    /// Traced runs (SASS, PTX, GCN3): per loop header, the most iterations one thread made per
    /// entry ([`crate::observed_loops`]); what `loop_bounds=observed` bounds with, and what
    /// every inferred bound is checked against.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub loop_iterations: Vec<crate::observed_loops::ObservedLoop>,
}

impl SimulationReport {
    /// A run with no bound to compare with (the `simulate` mode).
    pub fn alone(run: sim::Simulation) -> Self {
        SimulationReport {
            run: run.into(),
            bound: None,
            holds: None,
            loop_iterations: Vec::new(),
        }
    }

    /// A run next to `bound` (`None`: not comparable, and `what` says why).
    pub fn against(run: sim::Simulation, bound: Option<u64>, what: impl Into<String>) -> Self {
        let holds = bound.map(|b| run.cycles <= b);
        SimulationReport {
            run: run.into(),
            bound: Some(SimBound {
                cycles: bound,
                what: what.into(),
            }),
            holds,
            loop_iterations: Vec::new(),
        }
    }
}

/// What a simulation is checked against.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SimBound {
    /// The bound in cycles, or `null` when this run has no comparable bound.
    pub cycles: Option<u64>,
    /// What the bound is (e.g. `E_WF without splitting (one wavefront)`), or why there is none.
    pub what: String,
}

/// A finished run: what it took, where, and what every warp, unit and memory did.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct SimRunView {
    /// Observed cycles: the latest completion of any issued instruction.
    pub cycles: u64,
    /// Warp-instructions issued over all warps.
    pub issued: u64,
    /// The trace (timelines, occupancy, memory transactions) stopped at the budget
    /// `max_timeline_entries`; the run itself went on to its end.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub timeline_truncated: bool,
    pub machine: MachineView,
    /// L1 hits and misses over the run (`null` without an L1).
    pub l1: Option<CacheStatsView>,
    pub warps: Vec<WarpView>,
    /// Each lane of each unit kind with its busy intervals.
    pub occupancy: Vec<UnitLaneView>,
    pub transactions: Vec<TransactionView>,
    /// Every array of global memory as the run left it.
    pub memory: Vec<FinalArrayView>,
    /// Accesses outside every array of open memory (absent when the memory is closed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outside: Option<OutsideLogView>,
    pub stepper: StepperView,
    /// A run on several SMs (the `launch` mode): per block, in block order, the SM it ran
    /// on; absent on one SM.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub block_sms: Vec<u32>,
}

impl From<sim::Simulation> for SimRunView {
    fn from(s: sim::Simulation) -> Self {
        let outside = (!s.outside.is_empty()).then(|| OutsideLogView {
            total: s.outside.total,
            created_words: s.outside.created_words,
            sites: s.outside.sites.iter().map(OutsideSiteView::from).collect(),
        });
        SimRunView {
            cycles: s.cycles,
            issued: s.issued,
            timeline_truncated: s.timeline_truncated,
            machine: MachineView::from(&s.machine),
            l1: s.l1.map(|c| CacheStatsView {
                hits: c.hits,
                misses: c.misses,
            }),
            warps: s.warps.into_iter().map(WarpView::from).collect(),
            occupancy: s.occupancy.into_iter().map(UnitLaneView::from).collect(),
            transactions: s.transactions.iter().map(TransactionView::from).collect(),
            memory: s.memory.into_iter().map(FinalArrayView::from).collect(),
            outside,
            stepper: StepperView::from(s.stepper),
            block_sms: s.block_sms,
        }
    }
}

/// A set of lanes of a warp, written as one character per lane, lane 0 first (`"1101"`:
/// lanes 0, 1 and 3): a 64-lane mask does not fit a JavaScript number exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, TS)]
#[ts(type = "string")]
pub struct Lanes {
    pub bits: u64,
    pub count: u8,
}

impl Serialize for Lanes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let text: String = (0..self.count)
            .map(|l| if self.bits >> l & 1 == 1 { '1' } else { '0' })
            .collect();
        s.serialize_str(&text)
    }
}

impl From<sim::LaneMask> for Lanes {
    fn from(m: sim::LaneMask) -> Self {
        Lanes {
            bits: m.bits,
            count: m.lanes,
        }
    }
}

/// A kind of functional unit, as the occupancy and each issue name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum UnitName {
    Core,
    LoadStore,
    Sfu,
}

impl From<sim::Unit> for UnitName {
    fn from(u: sim::Unit) -> Self {
        match u {
            sim::Unit::Core => UnitName::Core,
            sim::Unit::LoadStore => UnitName::LoadStore,
            sim::Unit::Sfu => UnitName::Sfu,
        }
    }
}

/// L1 statistics over the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct CacheStatsView {
    pub hits: u64,
    pub misses: u64,
}

/// Everything one warp did: when its block came and it finished, each instruction it
/// issued, and its activation stack's depth over time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct WarpView {
    /// Global warp id: block-major (blocks in x, y, z order), then warp within the block.
    pub warp: u32,
    pub block: u32,
    pub warp_in_block: u32,
    /// Cycle its block was dispatched to the SM, and completion of its last instruction.
    pub dispatched: u64,
    pub finished: u64,
    pub issues: Vec<WarpIssueView>,
    /// The stack depth from each `cycle` on.
    pub stack_depth: Vec<DepthView>,
}

impl From<sim::WarpTimeline> for WarpView {
    fn from(w: sim::WarpTimeline) -> Self {
        WarpView {
            warp: w.warp,
            block: w.block,
            warp_in_block: w.warp_in_block,
            dispatched: w.dispatched,
            finished: w.finished,
            issues: w.issues.iter().map(WarpIssueView::from).collect(),
            stack_depth: w
                .stack_depth
                .iter()
                .map(|d| DepthView {
                    cycle: d.cycle,
                    depth: d.depth,
                })
                .collect(),
        }
    }
}

/// The activation stack depth of a warp from `cycle` on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct DepthView {
    pub cycle: u64,
    pub depth: usize,
}

/// One issued warp-instruction: which, when, by which lanes, on which unit lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct WarpIssueView {
    /// Instruction index in the kernel, and its source line.
    pub index: u32,
    pub line: u32,
    /// Cycle it issued (from 0) and cycle its result is available.
    pub issue: u64,
    pub complete: u64,
    /// Lanes of the executing stack entry, and those of them whose guard held.
    pub active: Lanes,
    pub executed: Lanes,
    /// The unit and the lane of it the instruction occupied.
    pub unit: UnitName,
    pub lane: u16,
}

impl From<&sim::Issue> for WarpIssueView {
    fn from(i: &sim::Issue) -> Self {
        WarpIssueView {
            index: i.index,
            line: i.line,
            issue: i.issue,
            complete: i.complete,
            active: i.active_mask().into(),
            executed: i.executed_mask().into(),
            unit: i.unit.into(),
            lane: i.lane,
        }
    }
}

/// One lane of a unit kind and the cycles `start..end` it was busy (back-to-back
/// warp-instructions merged).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct UnitLaneView {
    pub unit: UnitName,
    pub lane: u32,
    pub busy: Vec<BusyView>,
}

/// Cycles `start..end` of one unit lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct BusyView {
    pub start: u64,
    pub end: u64,
}

impl From<sim::UnitLane> for UnitLaneView {
    fn from(u: sim::UnitLane) -> Self {
        let busy = u.busy.iter();
        UnitLaneView {
            unit: u.unit.into(),
            lane: u.lane,
            busy: busy
                .map(|b| BusyView {
                    start: b.start,
                    end: b.end,
                })
                .collect(),
        }
    }
}

/// The memory side of one warp-instruction: who accessed what, at which lane addresses,
/// and the 128-byte segments (transactions) they coalesce into.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct TransactionView {
    /// The cycle it issued, the warp, and the instruction's index.
    pub cycle: u64,
    pub warp: u32,
    pub index: usize,
    /// `global`, `shared`, `local` or `texture` (a texture fetch or surface access), a load
    /// or a store, of `bytes` per lane.
    pub space: &'static str,
    pub store: bool,
    pub bytes: u64,
    /// What it cost: the base addresses of the distinct segments of a global access (empty
    /// for shared memory), and how many hit in the L1 (loads with an L1 configured).
    pub segments: Vec<u64>,
    pub l1_hits: Option<u32>,
    /// The executing lanes and their addresses: the first lane's, and when the `k`-th
    /// executing lane accesses `first + k·stride`, the stride (`addresses` then empty);
    /// otherwise `null` and each executing lane's address.
    pub lanes: Lanes,
    pub first: u64,
    pub stride: Option<i64>,
    pub addresses: Vec<u64>,
}

impl From<&sim::Transaction> for TransactionView {
    fn from(t: &sim::Transaction) -> Self {
        TransactionView {
            cycle: t.cycle,
            warp: t.warp,
            index: t.index,
            space: t.space,
            store: t.store,
            bytes: t.bytes,
            segments: t.segments.clone(),
            l1_hits: t.l1_hits,
            lanes: t.lanes.into(),
            first: t.first,
            stride: t.stride,
            addresses: t.addresses.clone(),
        }
    }
}

/// One array of global memory after the run: its words from `address` on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct FinalArrayView {
    pub name: String,
    pub address: u64,
    pub words: Vec<u32>,
}

impl From<sim::FinalArray> for FinalArrayView {
    fn from(a: sim::FinalArray) -> Self {
        FinalArrayView {
            address: a.address,
            name: a.name,
            words: a.words,
        }
    }
}

/// What the run did outside every array of open memory: the instructions that reached
/// there (at most `sim::MAX_OUTSIDE_SITES`), all such accesses, and the words stores made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct OutsideLogView {
    pub sites: Vec<OutsideSiteView>,
    pub total: u64,
    pub created_words: u64,
}

/// One instruction's accesses outside the arrays, as the automatic launch reports them,
/// with the first address it reached there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct OutsideSiteView {
    #[serde(flatten)]
    #[ts(flatten)]
    pub access: OutsideAccess,
    pub first_address: u64,
}

impl From<&sim::memory::OutsideAccess> for OutsideSiteView {
    fn from(o: &sim::memory::OutsideAccess) -> Self {
        OutsideSiteView {
            access: OutsideAccess::from(o),
            first_address: o.first_address,
        }
    }
}

impl From<&sim::memory::OutsideAccess> for OutsideAccess {
    fn from(o: &sim::memory::OutsideAccess) -> Self {
        OutsideAccess {
            line: o.line,
            instruction_address: o.instruction_address,
            lowest: o.lowest,
            end: o.end,
            count: o.count,
            bytes: o.bytes,
            write: o.write,
            misaligned: o.misaligned,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_are_written_lane_0_first() {
        let lanes = Lanes::from(sim::LaneMask::new(0xfc00, 16));
        assert_eq!(
            serde_json::to_value(lanes).ok(),
            Some(serde_json::json!("0000000000111111"))
        );
        let low = Lanes::from(sim::LaneMask::new(0b1011, 4));
        assert_eq!(
            serde_json::to_value(low).ok(),
            Some(serde_json::json!("1101"))
        );
    }
}
