//! The result of a run (issue #7 items 5 and 6), plain data: the facade writes it as the
//! report's `simulation` (`warpbound::views::sim_parts`).

use crate::machine::{Machine, Unit};
use crate::memory::{FinalArray, OutsideLog};
use cfg::Tag;
use std::sync::Arc;

/// A set of lanes of a warp: bit `l` of `bits` for lane `l`, in a warp of `lanes` lanes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaneMask {
    pub bits: u64,
    pub lanes: u8,
}

impl LaneMask {
    /// The lanes `bits` of a warp of `lanes` lanes.
    pub fn new(bits: u64, lanes: u8) -> Self {
        LaneMask { bits, lanes }
    }

    pub fn is_set(&self, lane: usize) -> bool {
        lane < self.lanes as usize && self.bits >> lane & 1 == 1
    }

    pub fn count(&self) -> u32 {
        self.bits.count_ones()
    }
}

/// One issued warp-instruction. Kept compact (48 bytes: a long run records millions): the
/// masks as bits, their width once ([`Issue::active_mask`], [`Issue::executed_mask`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Issue {
    /// Instruction index in the kernel.
    pub index: u32,
    pub line: u32,
    /// Cycle it issued (from 0).
    pub issue: u64,
    /// Cycle its result is available (for the last instruction of a run: the run's end).
    pub complete: u64,
    /// Lanes of the executing stack entry.
    pub active: u64,
    /// Active lanes whose guard held (those whose data effect took place).
    pub executed: u64,
    /// Lanes in the warp (the masks' width).
    pub lanes: u8,
    /// The unit and the lane of it the instruction occupied (`issue..issue + k`).
    pub unit: Unit,
    pub lane: u16,
}

impl Issue {
    pub fn active_mask(&self) -> LaneMask {
        LaneMask {
            bits: self.active,
            lanes: self.lanes,
        }
    }

    pub fn executed_mask(&self) -> LaneMask {
        LaneMask {
            bits: self.executed,
            lanes: self.lanes,
        }
    }
}

/// The activation stack depth of a warp from `cycle` on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DepthChange {
    pub cycle: u64,
    pub depth: usize,
}

/// Everything one warp did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarpTimeline {
    /// Global warp id: block-major (blocks in x, y, z order), then warp within the block.
    pub warp: u32,
    pub block: u32,
    pub warp_in_block: u32,
    /// Cycle its block was dispatched to the SM.
    pub dispatched: u64,
    /// Completion cycle of its last instruction.
    pub finished: u64,
    pub issues: Vec<Issue>,
    pub stack_depth: Vec<DepthChange>,
}

/// A unit lane busy for cycles `start..end` (back-to-back warp-instructions merged; which
/// warp ran what is in the timelines, whose entries name their unit and lane).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Busy {
    pub start: u64,
    pub end: u64,
}

/// The occupancy of one lane of a unit kind (σ lanes per kind, Berezovskyi et al. §3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitLane {
    pub unit: Unit,
    pub lane: u32,
    pub busy: Vec<Busy>,
}

/// The memory side of one warp-instruction: lane addresses and the 128-byte segments
/// (transactions) they coalesce into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transaction {
    pub warp: u32,
    pub index: usize,
    pub cycle: u64,
    /// `global`, `shared`, `local` or `texture` (a texture fetch or surface access).
    pub space: &'static str,
    pub store: bool,
    /// Bytes per lane.
    pub bytes: u64,
    /// The executing lanes.
    pub lanes: LaneMask,
    /// The address of the first executing lane.
    pub first: u64,
    /// When the `k`-th executing lane accesses `first + k·stride` (the common, affine
    /// case), the stride — and `addresses` is left empty to keep long traces small.
    pub stride: Option<i64>,
    /// Otherwise the address of each executing lane, in lane order.
    pub addresses: Vec<u64>,
    /// Base addresses of the distinct 128-byte segments of a global access (empty for
    /// shared memory, which is banked rather than accessed in segments).
    pub segments: Vec<u64>,
    /// Segments that hit in the L1 (loads with an L1 configured), else `None`.
    pub l1_hits: Option<u32>,
}

/// One entry of the activation stack as the stepper shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StackView {
    pub tag: Tag,
    /// Next instruction index of the entry.
    pub pc: usize,
    /// Its address (0 past the end of the kernel).
    pub address: u64,
    /// PTX (post-dominator reconvergence): the address at which the entry is popped — its
    /// immediate post-dominator — when that is not the kernel's exit. SASS entries name
    /// their reconvergence point through the SSY/PBK target instead, GCN3 has no stack.
    pub reconverges_at: Option<u64>,
    pub mask: LaneMask,
}

/// One step of the stepper's warp: the state *before* the instruction executes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub cycle: u64,
    pub index: usize,
    pub address: u64,
    pub line: u32,
    /// Shared by every step of the same instruction.
    pub text: Arc<str>,
    /// Each lane's active bit (the executing entry's mask).
    pub active: LaneMask,
    /// Active lanes whose guard holds.
    pub executed: LaneMask,
    /// The activation stack, bottom first; the last entry is the executing one. Shared
    /// with the previous step when unchanged. Empty under independent thread scheduling,
    /// which has no stack: see `groups`.
    pub stack: Arc<[StackView]>,
    /// Under independent thread scheduling (SASS sm_70+, [`crate::ThreadScheduling`]): the
    /// warp's thread groups and barrier registers before the instruction.
    pub groups: Option<Arc<GroupsView>>,
    /// SASS: each lane's value of the registers the instruction reads (before it) and
    /// writes (after it), at most [`MAX_STEP_REGISTERS`] of each (issue #25: the stepper
    /// shows what every lane computes), for the first [`MAX_STEPS_WITH_REGISTERS`] steps
    /// (about 330 bytes of report per step: a 20 000-step run would carry 6 MB). Empty for
    /// PTX and GCN3 steps.
    pub registers: Vec<RegisterValues>,
}

/// Most registers a step records of those an instruction reads, and of those it writes.
pub const MAX_STEP_REGISTERS: usize = 6;

/// Steps that carry register values ([`Step::registers`]); later ones carry none.
pub const MAX_STEPS_WITH_REGISTERS: usize = 4096;

/// One register's value in every lane of the stepper's warp at a step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegisterValues {
    /// As the listing names it: `R4`, `P0`, `UR6`, `CC`.
    pub name: String,
    /// Written by the instruction (its value after it); else read (its value before it).
    pub written: bool,
    /// Lane 0 first; predicates and the carry flag as 0 or 1.
    pub values: Vec<u32>,
}

/// A warp under independent thread scheduling, as the stepper shows it: the thread groups
/// that issue independently, and the convergence-barrier registers they reconverge by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupsView {
    /// Oldest first; exactly one has `issuing` set.
    pub groups: Vec<GroupView>,
    /// The barrier registers that record threads, by number.
    pub barriers: Vec<BarrierView>,
}

/// One thread group under independent thread scheduling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupView {
    /// Its next instruction (index and address), or the one it waits at.
    pub pc: usize,
    pub address: u64,
    pub mask: LaneMask,
    /// What it waits for (`BSYNC B0`, `WARPSYNC`); absent when it can run.
    pub waiting: Option<String>,
    /// The scheduler chose it for this step.
    pub issuing: bool,
}

/// A convergence-barrier register `Bn` and the threads it records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BarrierView {
    pub barrier: u8,
    pub mask: LaneMask,
}

/// The stepper data for one warp (issue #7 item 6): steps forward/back are indices here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stepper {
    pub warp: u32,
    pub steps: Vec<Step>,
    /// The warp issued more than `max_stepper_steps` instructions: `steps` holds the first
    /// ones, and the run went on without recording the rest.
    pub truncated: bool,
}

/// L1 statistics over the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheStats {
    pub hits: u64,
    pub misses: u64,
}

impl Transaction {
    /// The address of each executing lane, in lane order, whichever form was stored.
    pub fn lane_addresses(&self) -> Vec<u64> {
        match self.stride {
            Some(d) => (0..u64::from(self.lanes.count()))
                .map(|k| self.first.wrapping_add_signed(d.wrapping_mul(k as i64)))
                .collect(),
            None => self.addresses.clone(),
        }
    }
}

/// A finished run.
#[derive(Debug, Clone, PartialEq)]
pub struct Simulation {
    /// Observed cycles: the latest completion of any issued instruction.
    pub cycles: u64,
    /// Warp-instructions issued over all warps.
    pub issued: u64,
    pub machine: Machine,
    pub warps: Vec<WarpTimeline>,
    pub occupancy: Vec<UnitLane>,
    pub transactions: Vec<Transaction>,
    pub memory: Vec<FinalArray>,
    /// Accesses outside every array of open memory (empty when the memory is closed).
    pub outside: OutsideLog,
    /// Per loop of `Launch::loops`, in that order: the most times one thread ran its header
    /// in one entry into the loop (0: nobody entered it). Counted as the run went, whole
    /// even when the trace was cut. The facade reports them per loop header
    /// (`simulation.loop_iterations`).
    pub loop_counts: Vec<u64>,
    /// The trace (timelines, occupancy, memory transactions) stopped at the budget
    /// `max_timeline_entries`; the run itself went on to its end.
    pub timeline_truncated: bool,
    pub stepper: Stepper,
    pub l1: Option<CacheStats>,
    /// A run on several SMs ([`crate::Gpu`]): per block, in block order, the SM it ran on
    /// (empty on one SM, and then not serialised).
    pub block_sms: Vec<u32>,
}

/// The unit lanes of a run in [`Unit::ALL`] order, each with its busy intervals, from the
/// per-unit lists an engine kept (`busy(unit)`: one list per lane). Shared by the engines.
pub(crate) fn unit_lanes(mut busy: impl FnMut(Unit) -> Vec<Vec<Busy>>) -> Vec<UnitLane> {
    Unit::ALL
        .into_iter()
        .flat_map(|unit| {
            busy(unit)
                .into_iter()
                .enumerate()
                .map(move |(lane, busy)| UnitLane {
                    unit,
                    lane: lane as u32,
                    busy,
                })
        })
        .collect()
}
