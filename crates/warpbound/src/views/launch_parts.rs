//! The wire form of the `launch` mode's results (crate `launch`): the bound's parts named for
//! what the page shows, so that a rename inside the crate cannot change the JSON.

use super::wire_view::wire_view;
use serde::Serialize;
use ts_rs::TS;

/// What the `launch` mode found (`details.launch`).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct LaunchDetails {
    /// The launch's bound (= `wcet.cycles`).
    pub wcet: u64,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Blocks in the grid (`n`).
    pub blocks: u64,
    pub threads_per_block: u64,
    /// `W`.
    pub warps_per_block: u64,
    /// The GPU preset (`gpu` parameter or the listing's architecture) and its SM count's
    /// source.
    pub gpu: String,
    pub gpu_title: String,
    pub gpu_source: String,
    /// Why this GPU: `parameter`, `listing` (its architecture) or `assumed`.
    pub gpu_from: String,
    /// `S`, and whether it is the preset's or the `sms` parameter's.
    pub sms: u64,
    pub sms_from: String,
    /// `m`: blocks one SM holds (the occupancy, `report.occupancy`).
    pub blocks_per_sm: u64,
    /// `C`: one warp's warp-CFG bound under the cost model.
    pub warp_wcet: u64,
    /// `I`: one warp's warp-instructions at most.
    pub warp_issues: u64,
    /// `σ`: one warp's cycles blocked on its own latencies at most (0 under cost `unit`).
    pub warp_stall: u64,
    pub barriers: bool,
    pub bound: LaunchBoundView,
    /// Memory contention between SMs, when the bound accounts for it (cost `latency` or
    /// `control` with `memory_contention=round-robin`): what every memory access's latency
    /// in `C` was grown by (crate `launch::contention`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contention: Option<ContentionView>,
    /// What the bound assumes beyond the warp analysis (memory between SMs, schedulers).
    pub assumptions: Vec<String>,
    /// One entry per simulated scheduler (`simulate=true`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<LaunchRun>,
    /// The one-warp analysis, as `warp-cfg` reports it.
    #[serde(rename = "warp-cfg", default, skip_serializing_if = "Option::is_none")]
    pub warp_cfg: Option<Box<crate::report::WarpCfgDetails>>,
}

wire_view! {
    /// The bound and its breakdown (`launch::LaunchBound`).
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
    pub struct LaunchBoundView from launch::LaunchBound as b {
        cycles: u64,
        /// `S·m`.
        slots: u64,
        /// `⌈n / (S·m)⌉`.
        waves: u64,
        /// `q = ⌊(n − 1)/S⌋` (0 with one wave).
        blocks_before_last: u64,
        /// `q·W·I`.
        dispatch_issues: u64,
        /// `⌊q/m⌋·σ_β`.
        dispatch_stalls: u64,
        /// `σ_β`.
        block_stall: u64,
        /// The bound on the last block's dispatch: `dispatch_issues + dispatch_stalls`.
        last_dispatch: u64,
        /// `r = min(m, n)`.
        final_blocks: u64,
        /// `C_r` and the block crate's rule for it.
        final_phase: u64 = b.final_phase.cycles,
        final_rule: &'static str =
            crate::views::block_parts::BlockBoundView::from(&b.final_phase).rule,
    }
}

wire_view! {
    /// The contention term `Δ = ⌈A·k·32 B / (B/f)⌉` (Huangfu's competing SMs at the DRAM's
    /// peak bandwidth, `launch::contention`) and its parts.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
    pub struct ContentionView from launch::contention::Contention as c {
        /// `Δ`: cycles added to the latency of every global, local, texture and constant access.
        cycles_per_access: u64,
        /// `A`: SMs holding blocks of the launch (`min(S, n)`).
        active_sms: u64,
        /// `k`: sectors of 32 bytes one warp access touches at most (`sectors_per_access`).
        sectors_per_access: u64,
        /// The GPU's peak DRAM bandwidth (GB/s) and SM boost clock (MHz), and their source.
        bandwidth_gb_per_s: u32 = c.memory.bandwidth_gb_per_s,
        boost_clock_mhz: u32 = c.memory.boost_clock_mhz,
        source: String = c.memory.source.into(),
    }
}

/// One simulated launch on the GPU's SMs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct LaunchRun {
    pub scheduler: String,
    pub cycles: u64,
    /// SMs that ran at least one block.
    pub sms_used: u64,
    /// The most blocks one SM ran one after another or side by side.
    pub most_blocks_on_one_sm: u64,
    pub holds: bool,
}
