//! The architecture configuration the model is evaluated for, the analysis mode, what-if
//! overrides and budgets.

use caches::{AccessOrder, CacheGeometry, LevelLatencies, LlcMethod, StorePolicy};
use std::collections::BTreeMap;

/// Which estimates of N_coal and N_CompetingSM feed Eq. 5.5–5.6 (Huangfu §5.3.2, §5.4:
/// "For hard real-time applications, the maximal estimated values of these two metrics
/// should be used, while for soft real-time applications, the average values can be used").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Maximal coalesced accesses and active SMs − 1 competing SMs: the safe bound.
    #[default]
    Max,
    /// Average coalesced accesses and the heuristic average of competing SMs (Alg. 6): an
    /// estimate for soft real-time use, *not* a safe bound (§5.3.3.3).
    Avg,
}

impl Mode {
    /// The label the report shows next to the WCET.
    pub fn label(self) -> &'static str {
        match self {
            Mode::Max => "max: safe WCET bound (hard real-time)",
            Mode::Avg => "avg: average-case estimate (soft real-time), not a safe bound",
        }
    }
}

/// How PTX code is cut into code segments (§5.3.1–5.3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Segmentation {
    /// Consecutive instructions of a basic block share a segment until one reads or
    /// rewrites a register written earlier in the segment. This is the reading of Fig. 24
    /// under which the thesis's numbers hold: `ld.global` and the independent `sub` after it
    /// form one segment with LI = 59 (2 + 1 + 56) and LE = 480 ("there is no dependency
    /// between code segment 1 and code segment 2, in which case the LE of code segment 1
    /// is 0").
    #[default]
    Dependency,
    /// One instruction per segment (§5.3.1: "segments, each of which has one instruction"),
    /// with every segment's LE charged: more pessimistic, still safe.
    PerInstruction,
}

/// Latency parameters of Eq. 5.4–5.7 (§5.3.2). Names follow the thesis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimingParams {
    /// C_pipeline of the SP pipeline: how many arithmetic warp instructions it buffers
    /// before issue stalls (Eq. 5.4).
    pub sp_pipeline_capacity: u32,
    /// C_pipeline of the SFU pipeline.
    pub sfu_pipeline_capacity: u32,
    /// C_pipeline of the load/store pipeline.
    pub mem_pipeline_capacity: u32,
    /// L_initial: the stall of an arithmetic instruction when the pipeline is full
    /// (LI_Stall_Arithmetic, Eq. 5.5).
    pub l_initial: u64,
    /// L_initiation (Eq. 5.6).
    pub l_initiation: u64,
    /// L_execution (Eq. 5.6).
    pub l_execution: u64,
    /// Length_pipeline of the SP pipeline (Eq. 5.6).
    pub sp_pipeline_length: u64,
    /// Length_pipeline of the SFU pipeline (transcendentals, §2.1).
    pub sfu_pipeline_length: u64,
    /// Length_pipeline of the memory pipeline (Eq. 5.6).
    pub mem_pipeline_length: u64,
    /// L_base: the latency every global memory access takes (Eq. 5.6).
    pub l_base: u64,
    /// Latency of a shared-memory access (not in the thesis's equations, which only model
    /// global memory; used as L_base with N_coal = 1 and no competing SMs).
    pub l_shared: u64,
}

/// Caches between the SMs and DRAM (Ch. 4 and Ch. 6). When present, LE_inst of each global
/// access uses the latency of the level it is classified into instead of L_base (§6.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheConfig {
    /// Per-SM L1 data cache.
    pub l1: CacheGeometry,
    /// Shared L2 / last-level data cache.
    pub l2: CacheGeometry,
    pub latencies: LevelLatencies,
    pub llc_method: LlcMethod,
    pub stores: StorePolicy,
    /// The L1 access order (§4.4.5).
    pub order: AccessOrder,
}

/// What the analyzer does when a branch, an exit or an address depends on a value it does
/// not know (loaded from memory, or computed by an instruction it does not model).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UnknownData {
    /// Reject the kernel with a located error, as the thesis's analyzer does (§4.4.6.1:
    /// "GPU kernels with input-dependent branches and input-dependent data references
    /// cannot be analyzed").
    #[default]
    Refuse,
    /// Pay for every outcome: both sides of such a branch, bounded loops, one memory
    /// transaction per thread for such an address (see [`crate::both_sides`]).
    Pessimistic,
}

/// Bounds for loops whose exit depends on unknown data (used with
/// [`UnknownData::Pessimistic`]). A bound `N` means the loop header runs at most `N` times
/// per entry into the loop, as in the `warp-cfg` mode's `loop_bounds`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LoopBounds {
    /// By the label of the loop header (PTX names a loop by the label its back edge
    /// targets, e.g. `$L__BB0_3`).
    pub per_label: BTreeMap<String, u64>,
    /// The bound of every other such loop; `None` makes one an error naming the loop.
    pub default: Option<u64>,
    /// Labels whose `per_label` bound the code gives (inferred by the caller from the loop's
    /// induction variable): applied without calling it an assumption.
    pub from_code: std::collections::BTreeSet<String>,
}

/// Budgets: hitting one is an error naming it and how to raise it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budgets {
    /// Most warp instructions executed by the analyzer over all warps (`max_warp_steps`).
    /// It is the analyzer's time budget in a deterministic currency: natively about a million
    /// warp steps per second where many threads follow both sides of branches on unknown
    /// data (Rodinia myocyte `solver_2`, whose runs stop at the budget), nearer two million
    /// elsewhere (`docs/performance.md`). The default of 1.8 million ends such a kernel
    /// within 2 s, while the longest real kernel the sweep bounds (Parboil mri-gridding
    /// `gridding_GPU`, between 1.6 and 1.75 million steps, 1.1 s) still finishes.
    pub max_warp_steps: u64,
    /// Most warps in the launch (`max_warps`).
    pub max_warps: u64,
    /// Most code-segment instances scheduled (`max_segments`).
    pub max_segments: u64,
    /// Most cache line accesses / window entries examined (`max_cache_accesses`).
    pub max_cache_accesses: u64,
    /// Most register values kept at once for the branches on unknown data whose two sides
    /// are being followed (`max_fork_values`): each such branch keeps a copy of the
    /// registers of the threads whose way is unknown until both sides have run.
    pub max_fork_values: u64,
}

fn default_fork_values() -> u64 {
    4_000_000
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets {
            max_warp_steps: 1_800_000,
            max_warps: 65_536,
            max_segments: 4_000_000,
            max_cache_accesses: 20_000_000,
            max_fork_values: default_fork_values(),
        }
    }
}

/// Everything the model needs besides the kernel and its launch.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub warp_size: u32,
    /// Number of SMs; block b runs on SM b mod `sms` (round-robin block distribution).
    pub sms: u32,
    /// Number of memory partitions (Alg. 6).
    pub memory_partitions: u32,
    /// Address → partition mapping: partition = (address / interleave) mod partitions.
    pub partition_interleave_bytes: u64,
    pub max_warps_per_sm: u32,
    pub max_blocks_per_sm: u32,
    /// Coalescing granularity: 128-byte segments (§3.3.1, §5.3.2).
    pub segment_bytes: u64,
    pub timing: TimingParams,
    /// T_CompetingSM (§5.3.3.3).
    pub t_competing_sm: f64,
    /// T_D2Center (§5.3.3.3).
    pub t_d2center: f64,
    pub mode: Mode,
    pub segmentation: Segmentation,
    pub caches: Option<CacheConfig>,
    pub budgets: Budgets,
    /// Refuse unknown data (the thesis) or pay for every outcome.
    pub unknown_data: UnknownData,
    /// Loop bounds for loops whose exit depends on unknown data.
    pub loop_bounds: LoopBounds,
}

/// What-if overrides: each replaces the analyzer's estimate with the user's value, to see how
/// much the bound depends on that estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Overrides {
    /// N_coal in Eq. 5.5–5.6.
    pub n_coal: Option<u32>,
    /// N_CompetingSM in Eq. 5.5–5.6.
    pub competing_sms: Option<u32>,
    /// N (active warps) in Eq. 5.4.
    pub active_warps: Option<u32>,
}
