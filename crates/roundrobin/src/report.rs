//! The result of [`crate::analyze`]: `accesses`, `coalescing`, `competing_sms`, `segments`,
//! the cache results and `wcet.cycles`, plus the Gantt data and the per-warp traces. Plain
//! Rust: the facade's `views::rr_parts` decides how the report writes it.

use crate::coalescing::CoalescingStats;
use crate::code_segments::{Estimates, InstClass};
use crate::competing::CompetingStats;
use crate::config::Mode;
use crate::launch::Dim3;
use crate::schedule::Interval;
use caches::{AccessKind, LlcMethod, MemoryLevel, SmBypass};
use isa::Diagnostic;

/// One global warp instruction instance: block, warp, instruction and its coalesced
/// 128-byte segments (the analyzer output of §4.4.4).
#[derive(Debug, Clone, PartialEq)]
pub struct AccessEntry {
    /// Linear block index.
    pub block: u32,
    pub block_index: [u32; 3],
    /// Warp index within the block.
    pub warp: u32,
    pub sm: u32,
    pub pc: u64,
    /// Source line of the instruction.
    pub line: u32,
    /// `L` or `S`.
    pub kind: AccessKind,
    /// Segment base addresses in first-touch order.
    pub segments: Vec<u64>,
    /// Bytes used in each segment.
    pub used_bytes: Vec<u32>,
    /// Load utilisation (§3.3.1).
    pub utilization: f64,
    /// Memory level (when caches are modelled).
    pub level: Option<MemoryLevel>,
    /// Transactions whose address the analyzer does not know, costed one per thread
    /// (uncoalesced) on top of `segments`.
    pub unknown_transactions: u32,
}

/// What was paid for in the worst case because it depends on unknown data
/// ([`crate::config::UnknownData::Pessimistic`], [`crate::both_sides`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AssumptionKind {
    /// A branch on unknown data: both sides paid, possibly divergent.
    BothSides,
    /// A `ret`/`exit` on unknown data: the threads keep running.
    GuardedExit,
    /// A global access whose guard is unknown: counted as executed.
    GuardedAccess,
    /// A global address the analyzer does not know: one transaction per thread.
    UncoalescedAddress,
}

impl AssumptionKind {
    /// What the analyzer assumed, as the report's note says it.
    pub fn message(self) -> &'static str {
        match self {
            AssumptionKind::BothSides => {
                "branch on data the analyzer does not know: both outcomes are possible and the \
                 warp may diverge, so it pays for both sides (the threads whose way is unknown \
                 active on each; registers they write become unknown where the sides differ)"
            }
            AssumptionKind::GuardedExit => {
                "exit on data the analyzer does not know: the threads it may end are assumed \
                 to keep running"
            }
            AssumptionKind::GuardedAccess => {
                "global access whose guard depends on data the analyzer does not know: counted \
                 as made by those threads"
            }
            AssumptionKind::UncoalescedAddress => {
                "global address that depends on data the analyzer does not know: costed as \
                 uncoalesced, one memory transaction per thread (one for a module variable)"
            }
        }
    }
}

/// One place where unknown data was paid for in the worst case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assumption {
    pub kind: AssumptionKind,
    /// Instruction index and program counter.
    pub inst: usize,
    pub pc: u64,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

/// A loop bound applied to a loop that exits on unknown data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopBoundUse {
    /// The header's label (the key of `loop_bounds`).
    pub label: String,
    /// Line of the label.
    pub line: u32,
    /// The header runs at most this many times per entry.
    pub bound: u64,
    /// `loop_bounds` (the request's), `default_loop_bound`, or `inferred` (from the code).
    pub source: String,
}

/// The values actually used in Eq. 5.4–5.6, and which of them were overridden.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EstimatesUsed {
    pub values: Estimates,
    pub n_coal_overridden: bool,
    pub competing_sms_overridden: bool,
    pub active_warps_overridden: bool,
}

/// One static code segment with its latencies (Eq. 5.4–5.7, evaluated with L_base) and the
/// issue times T of its executions, per warp.
#[derive(Debug, Clone, PartialEq)]
pub struct SegmentRow {
    pub id: usize,
    /// Mnemonics of its instructions (`ld.global.f32 + sub.s32`).
    pub opcode: String,
    pub line: u32,
    /// Instruction indices `start..end`.
    pub start: usize,
    pub end: usize,
    pub classes: Vec<InstClass>,
    /// Σ LI_inst of its instructions.
    pub li_inst: u64,
    /// max LE_inst of its instructions.
    pub le_inst: u64,
    /// LI (Eq. 5.7).
    pub li: u64,
    /// LE (Eq. 5.7).
    pub le: u64,
    /// Issue times T of this segment per warp, for the warps that execute it (one entry
    /// per execution; several in loops). Sparse so that big launches stay proportional
    /// to the work actually scheduled.
    pub t: Vec<WarpTimes>,
}

/// The issue times of one segment by one warp.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarpTimes {
    /// Index into `gantt` / `traces`.
    pub warp: usize,
    pub times: Vec<u64>,
}

/// L1 results of one SM (§4.4.6).
#[derive(Debug, Clone, PartialEq)]
pub struct L1Summary {
    pub sm: u32,
    pub load_lines: u64,
    pub load_hits: u64,
    pub load_misses: u64,
    pub store_lines: u64,
    pub load_miss_rate: f64,
}

/// Shared-LLC results (§6.4).
#[derive(Debug, Clone, PartialEq)]
pub struct LlcSummary {
    pub method: LlcMethod,
    pub accesses: u64,
    pub misses: u64,
    pub miss_rate: f64,
}

/// Everything the cache models found.
#[derive(Debug, Clone, PartialEq)]
pub struct CacheReport {
    pub l1: Vec<L1Summary>,
    pub llc: LlcSummary,
    /// Eq. 3.1 per SM.
    pub bypass: Vec<SmBypass>,
    /// How many warp accesses were served from each level.
    pub l1_hit_accesses: u64,
    pub l2_hit_accesses: u64,
    pub l2_miss_accesses: u64,
}

/// The model's WCET (Eq. 5.3 per SM wave, summed over waves, max over SMs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wcet {
    pub cycles: u64,
    /// Finishing time of each SM.
    pub per_sm: Vec<u64>,
    /// True in `max` mode without overrides: a safe bound under the model's assumptions.
    pub safe: bool,
    /// What the bound does not guarantee, when something: with unknown data paid for in the
    /// worst case on an SM running several warps at once, strict round robin's scheduling
    /// anomalies ([`crate::both_sides`]).
    pub caveat: Option<String>,
}

/// Gantt data of one warp: its segment instances as [start, issue_end, end).
#[derive(Debug, Clone, PartialEq)]
pub struct GanttRow {
    pub block: u32,
    pub warp: u32,
    pub sm: u32,
    /// Which consecutive set of co-resident blocks on the SM this warp ran in.
    pub wave: u32,
    pub intervals: Vec<Interval>,
    pub end: u64,
}

/// Alg. 4's warp execution trace, compactly.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceSummary {
    pub block: u32,
    pub block_index: [u32; 3],
    pub warp: u32,
    pub sm: u32,
    pub threads: u32,
    /// `WarpExecutionOrder`: basic blocks in execution order.
    pub basic_blocks: Vec<usize>,
    /// Instruction index of every executed warp instruction.
    pub steps: Vec<usize>,
    /// Active threads at every step.
    pub active: Vec<u32>,
}

/// The `rr` object.
#[derive(Debug, Clone, PartialEq)]
pub struct RrResult {
    pub mode: Mode,
    pub mode_label: String,
    pub grid: Dim3,
    pub block: Dim3,
    pub warps_per_block: u64,
    /// `LDSTPCList` (Alg. 1): program counters of the global loads/stores.
    pub pc_address: Vec<u64>,
    pub accesses: Vec<AccessEntry>,
    pub coalescing: CoalescingStats,
    pub competing_sms: CompetingStats,
    pub estimates: EstimatesUsed,
    pub segments: Vec<SegmentRow>,
    pub caches: Option<CacheReport>,
    pub wcet: Wcet,
    pub gantt: Vec<GanttRow>,
    pub traces: Vec<TraceSummary>,
    pub notes: Vec<Diagnostic>,
    /// Where unknown data was paid for in the worst case (`unknown_data = pessimistic`).
    pub assumptions: Vec<Assumption>,
    /// Loop bounds applied to loops that exit on unknown data.
    pub loop_bounds: Vec<LoopBoundUse>,
}
