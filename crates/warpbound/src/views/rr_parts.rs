//! The wire form of the `roundrobin` crate's result (Huangfu's analyzer and timing model,
//! with the `caches` crate's results): the estimates the WCET was evaluated with, coalescing
//! and competing SMs, code segments with LI and LE, the global accesses, the cache levels,
//! the Gantt rows and the warp traces. Owned here so a rename inside the method crates
//! cannot change what the page reads; every kind name is written out below.
//!
//! A warp is named the same way everywhere here ([`WarpAt`]: linear block, warp in the
//! block, SM). The analyzer's notes are not repeated: the mode puts them in the report's
//! `diagnostics`.

use serde::Serialize;
use ts_rs::TS;

/// `details.rr`: what the page's round-robin summary shows.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct RrView {
    /// `max` (the safe bound) or `avg` (an estimate), and the label shown next to the WCET.
    pub mode: &'static str,
    pub mode_label: String,
    pub grid: Dim3View,
    pub block: Dim3View,
    pub warps_per_block: u64,
    pub wcet: RrWcetView,
    /// N, N_coal and N_CompetingSM as Eq. 5.4–5.6 used them.
    pub estimates: EstimatesView,
    pub coalescing: CoalescingView,
    pub competing_sms: CompetingView,
    pub segments: Vec<SegmentView>,
    /// `LDSTPCList` (Alg. 1): program counters of the global loads and stores.
    pub pc_address: Vec<u64>,
    pub accesses: Vec<AccessView>,
    /// With `caches=true`: the L1, the shared LLC and the bypass heuristic.
    pub caches: Option<CachesView>,
    pub gantt: Vec<GanttRowView>,
    pub traces: Vec<TraceView>,
    /// Where unknown data was paid for in the worst case (`unknown_data=pessimistic`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assumptions: Vec<AssumptionView>,
    /// The bounds of the loops that exit on unknown data, which the page lets the user edit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub loop_bounds: Vec<RrLoopBoundView>,
}

/// `dim3(x, y, z)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct Dim3View {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

/// A warp of the launch: its block (linear index), its index in the block and its SM.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct WarpAt {
    pub block: u32,
    pub warp: u32,
    pub sm: u32,
}

/// The model's bound: the last SM to finish, each SM's finish, whether it is safe (`max`
/// without overrides) and what it does not guarantee.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct RrWcetView {
    pub cycles: u64,
    pub per_sm: Vec<u64>,
    pub safe: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caveat: Option<String>,
}

/// Each estimate with whether the request overrode it (the page marks "(overridden)").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct EstimatesView {
    pub active_warps: u32,
    pub active_warps_overridden: bool,
    pub n_coal: u32,
    pub n_coal_overridden: bool,
    pub competing_sms: u32,
    pub competing_sms_overridden: bool,
}

/// Alg. 5: transactions per global warp instruction — the largest, the mean rounded up,
/// the exact mean, and how many instructions were counted.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
pub struct CoalescingView {
    pub max: u32,
    pub avg: u32,
    pub mean: f64,
    pub count: u64,
}

/// Alg. 6: competing SMs (active SMs − 1 at most; the heuristic average) and each
/// instruction's distribution.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct CompetingView {
    pub max: u32,
    pub avg: u32,
    pub mean: f64,
    pub active_sms: u32,
    pub instructions: Vec<CompetitionView>,
}

/// One instruction on one SM in Alg. 6, the verdict first: whether the thresholds let it
/// count, the competing SMs it counts for, then what they come from (`Distance2Center` and
/// the accesses per partition).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct CompetitionView {
    pub pc: u64,
    pub sm: u32,
    pub counted: bool,
    pub competing: f64,
    pub d2center: f64,
    pub distribution: Vec<u64>,
}

/// One code segment (instructions `start..end`) with its classes, LI and LE (Eq. 5.4–5.7)
/// and the issue times `T` of its executions per warp (`t[].warp` indexes `gantt`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct SegmentView {
    pub id: usize,
    pub opcode: String,
    pub line: u32,
    pub start: usize,
    pub end: usize,
    /// `arithmetic`, `sfu`, `global_memory`, `shared_memory` or `barrier`.
    pub classes: Vec<&'static str>,
    pub li_inst: u64,
    pub le_inst: u64,
    pub li: u64,
    pub le: u64,
    pub t: Vec<IssueTimesView>,
}

/// The issue times of one segment by one warp.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct IssueTimesView {
    pub warp: usize,
    pub times: Vec<u64>,
}

/// One global warp instruction instance with its coalesced 128-byte segments (§4.4.4).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct AccessView {
    #[serde(flatten)]
    pub at: WarpAt,
    pub block_index: [u32; 3],
    pub pc: u64,
    pub line: u32,
    /// `L` (load) or `S` (store), the thesis's letters.
    pub kind: &'static str,
    /// Segment base addresses in first-touch order, and the bytes used in each.
    pub segments: Vec<u64>,
    pub used_bytes: Vec<u32>,
    /// Load utilisation (§3.3.1).
    pub utilization: f64,
    /// With caches: `l1_hit`, `l2_hit` or `l2_miss`.
    pub level: Option<&'static str>,
    /// Transactions at addresses the analyzer does not know, one per thread.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unknown_transactions: u32,
}

fn is_zero(x: &u32) -> bool {
    *x == 0
}

/// What the cache models found: accesses per level, each SM's L1, the shared LLC and the
/// bypass heuristic (Eq. 3.1) per SM.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct CachesView {
    pub l1_hit_accesses: u64,
    pub l2_hit_accesses: u64,
    pub l2_miss_accesses: u64,
    pub l1: Vec<L1View>,
    pub llc: LlcView,
    pub bypass: Vec<BypassView>,
}

/// One SM's L1 (§4.4.6).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct L1View {
    pub sm: u32,
    pub load_lines: u64,
    pub load_hits: u64,
    pub load_misses: u64,
    pub load_miss_rate: f64,
    pub store_lines: u64,
}

/// The shared LLC (§6.4): `simple`, or `access_interval` with its quota.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct LlcView {
    pub method: &'static str,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quota: Option<u32>,
    pub accesses: u64,
    pub misses: u64,
    pub miss_rate: f64,
}

/// The bypass heuristic on one SM: each line's U, R and U × (1 + R), and the lines it
/// bypasses.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct BypassView {
    pub sm: u32,
    pub lines: Vec<LineUseView>,
    pub bypassed: Vec<u64>,
}

/// One cache line's use (§3.3), the score first: `product` = U × (1 + R), the bypass
/// heuristic's ranking, then U, R and the counts they come from.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct LineUseView {
    pub address: u64,
    pub product: f64,
    pub utilization: f64,
    pub reuse: f64,
    pub loads: u64,
    pub fills: u64,
}

/// One warp's segment instances as `[start, issue_end, end)`, and its end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct GanttRowView {
    #[serde(flatten)]
    pub at: WarpAt,
    /// Which set of co-resident blocks on the SM the warp ran in.
    pub wave: u32,
    pub intervals: Vec<SegmentRunView>,
    pub end: u64,
}

/// One execution of a segment: issued from `start` to `issue_end`, done at `end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct SegmentRunView {
    pub segment: usize,
    pub start: u64,
    pub issue_end: u64,
    pub end: u64,
}

/// Alg. 4's trace of one warp: basic blocks in execution order, the instruction of every
/// step and the threads active at it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct TraceView {
    #[serde(flatten)]
    pub at: WarpAt,
    pub block_index: [u32; 3],
    pub threads: u32,
    pub basic_blocks: Vec<usize>,
    pub steps: Vec<usize>,
    pub active: Vec<u32>,
}

/// One place where unknown data was paid for: `both_sides`, `guarded_exit`,
/// `guarded_access` or `uncoalesced_address`, at instruction `inst`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct AssumptionView {
    pub kind: &'static str,
    pub inst: usize,
    pub pc: u64,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

/// A bound applied to a loop exiting on unknown data: its header label, line, the bound and
/// where it came from (`loop_bounds`, `default_loop_bound` or `inferred`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct RrLoopBoundView {
    pub label: String,
    pub line: u32,
    pub bound: u64,
    pub source: String,
}

fn dim3(d: roundrobin::Dim3) -> Dim3View {
    Dim3View {
        x: d.x,
        y: d.y,
        z: d.z,
    }
}

/// The wire name of an instruction class (also how the opcode tables name it, with spaces).
pub(crate) fn class_name(c: roundrobin::code_segments::InstClass) -> &'static str {
    use roundrobin::code_segments::InstClass as C;
    match c {
        C::Arithmetic => "arithmetic",
        C::Sfu => "sfu",
        C::GlobalMemory => "global_memory",
        C::SharedMemory => "shared_memory",
        C::Barrier => "barrier",
    }
}

/// The wire name of a memory level.
fn level(l: caches::MemoryLevel) -> &'static str {
    match l {
        caches::MemoryLevel::L1Hit => "l1_hit",
        caches::MemoryLevel::L2Hit => "l2_hit",
        caches::MemoryLevel::L2Miss => "l2_miss",
    }
}

/// The wire name of an assumption.
fn assumption(k: roundrobin::report::AssumptionKind) -> &'static str {
    use roundrobin::report::AssumptionKind as A;
    match k {
        A::BothSides => "both_sides",
        A::GuardedExit => "guarded_exit",
        A::GuardedAccess => "guarded_access",
        A::UncoalescedAddress => "uncoalesced_address",
    }
}

impl From<&roundrobin::RrResult> for RrView {
    fn from(r: &roundrobin::RrResult) -> Self {
        let e = &r.estimates;
        Self {
            mode: match r.mode {
                roundrobin::Mode::Max => "max",
                roundrobin::Mode::Avg => "avg",
            },
            mode_label: r.mode_label.clone(),
            grid: dim3(r.grid),
            block: dim3(r.block),
            warps_per_block: r.warps_per_block,
            wcet: RrWcetView {
                cycles: r.wcet.cycles,
                per_sm: r.wcet.per_sm.clone(),
                safe: r.wcet.safe,
                caveat: r.wcet.caveat.clone(),
            },
            estimates: EstimatesView {
                active_warps: e.values.active_warps,
                active_warps_overridden: e.active_warps_overridden,
                n_coal: e.values.n_coal,
                n_coal_overridden: e.n_coal_overridden,
                competing_sms: e.values.competing_sms,
                competing_sms_overridden: e.competing_sms_overridden,
            },
            coalescing: CoalescingView {
                max: r.coalescing.max,
                avg: r.coalescing.avg,
                mean: r.coalescing.mean,
                count: r.coalescing.count,
            },
            competing_sms: competing(&r.competing_sms),
            segments: r.segments.iter().map(segment).collect(),
            pc_address: r.pc_address.clone(),
            accesses: r.accesses.iter().map(access).collect(),
            caches: r.caches.as_ref().map(caches_view),
            gantt: r.gantt.iter().map(gantt_row).collect(),
            traces: r.traces.iter().map(trace).collect(),
            assumptions: r
                .assumptions
                .iter()
                .map(|a| AssumptionView {
                    kind: assumption(a.kind),
                    inst: a.inst,
                    pc: a.pc,
                    line: a.line,
                    column: a.column,
                    message: a.message.clone(),
                })
                .collect(),
            loop_bounds: r
                .loop_bounds
                .iter()
                .map(|u| RrLoopBoundView {
                    label: u.label.clone(),
                    line: u.line,
                    bound: u.bound,
                    source: u.source.clone(),
                })
                .collect(),
        }
    }
}

fn competing(c: &roundrobin::competing::CompetingStats) -> CompetingView {
    CompetingView {
        max: c.max,
        avg: c.avg,
        mean: c.mean,
        active_sms: c.active_sms,
        instructions: c
            .instructions
            .iter()
            .map(|i| CompetitionView {
                pc: i.pc,
                sm: i.sm,
                counted: i.counted,
                competing: i.competing,
                d2center: i.d2center,
                distribution: i.distribution.clone(),
            })
            .collect(),
    }
}

fn segment(s: &roundrobin::report::SegmentRow) -> SegmentView {
    SegmentView {
        id: s.id,
        opcode: s.opcode.clone(),
        line: s.line,
        start: s.start,
        end: s.end,
        classes: s.classes.iter().map(|c| class_name(*c)).collect(),
        li_inst: s.li_inst,
        le_inst: s.le_inst,
        li: s.li,
        le: s.le,
        t: s.t
            .iter()
            .map(|w| IssueTimesView {
                warp: w.warp,
                times: w.times.clone(),
            })
            .collect(),
    }
}

fn access(a: &roundrobin::report::AccessEntry) -> AccessView {
    AccessView {
        at: WarpAt {
            block: a.block,
            warp: a.warp,
            sm: a.sm,
        },
        block_index: a.block_index,
        pc: a.pc,
        line: a.line,
        kind: match a.kind {
            caches::AccessKind::Load => "L",
            caches::AccessKind::Store => "S",
        },
        segments: a.segments.clone(),
        used_bytes: a.used_bytes.clone(),
        utilization: a.utilization,
        level: a.level.map(level),
        unknown_transactions: a.unknown_transactions,
    }
}

fn caches_view(c: &roundrobin::report::CacheReport) -> CachesView {
    CachesView {
        l1_hit_accesses: c.l1_hit_accesses,
        l2_hit_accesses: c.l2_hit_accesses,
        l2_miss_accesses: c.l2_miss_accesses,
        l1: c
            .l1
            .iter()
            .map(|l| L1View {
                sm: l.sm,
                load_lines: l.load_lines,
                load_hits: l.load_hits,
                load_misses: l.load_misses,
                load_miss_rate: l.load_miss_rate,
                store_lines: l.store_lines,
            })
            .collect(),
        llc: LlcView {
            method: match c.llc.method {
                caches::LlcMethod::Simple => "simple",
                caches::LlcMethod::AccessInterval { .. } => "access_interval",
            },
            quota: match c.llc.method {
                caches::LlcMethod::Simple => None,
                caches::LlcMethod::AccessInterval { quota } => Some(quota),
            },
            accesses: c.llc.accesses,
            misses: c.llc.misses,
            miss_rate: c.llc.miss_rate,
        },
        bypass: c
            .bypass
            .iter()
            .map(|b| BypassView {
                sm: b.sm,
                lines: b
                    .lines
                    .iter()
                    .map(|l| LineUseView {
                        address: l.address,
                        product: l.product,
                        utilization: l.utilization,
                        reuse: l.reuse,
                        loads: l.loads,
                        fills: l.fills,
                    })
                    .collect(),
                bypassed: b.bypassed.clone(),
            })
            .collect(),
    }
}

fn gantt_row(g: &roundrobin::report::GanttRow) -> GanttRowView {
    GanttRowView {
        at: WarpAt {
            block: g.block,
            warp: g.warp,
            sm: g.sm,
        },
        wave: g.wave,
        intervals: g
            .intervals
            .iter()
            .map(|i| SegmentRunView {
                segment: i.segment,
                start: i.start,
                issue_end: i.issue_end,
                end: i.end,
            })
            .collect(),
        end: g.end,
    }
}

fn trace(t: &roundrobin::report::TraceSummary) -> TraceView {
    TraceView {
        at: WarpAt {
            block: t.block,
            warp: t.warp,
            sm: t.sm,
        },
        block_index: t.block_index,
        threads: t.threads,
        basic_blocks: t.basic_blocks.clone(),
        steps: t.steps.clone(),
        active: t.active.clone(),
    }
}
