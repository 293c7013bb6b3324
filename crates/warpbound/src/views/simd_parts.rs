//! The wire form of the `phases` crate's result (Sim-D, Spliet & Mullins §4–5): the launch
//! and hardware analysed, the basic blocks with their worst-case costs and requests, the
//! control-stack-annotated edges, the loops, both scheduling policies' phase lists, critical
//! paths and worst-case schedules, and the bounds WCET^U and WCET^L. Owned here so a rename
//! inside the method crate cannot change what the page reads; the JSON is the one the page
//! has always read (schema version 3 wrote the crate's own serde output), names of kinds and
//! presets written out below, not taken from the Rust variants. The execution of
//! `simulate=true` is in [`super::simd_run`].

use super::diagnostics::Diagnostic;
use super::simd_code::{SimdBlockView, SimdEdgeView, SimdLoopView, SimdResource};
use super::wire_view::wire_view;
use serde::Serialize;
use ts_rs::TS;

/// `details.simd` without the execution: what the page's Sim-D summary shows (the two
/// policies' WCETs and pair costs, WCET^U and WCET^L, the launch, DRAM, pipeline, upload and
/// DAG size, the better policy's phase list), with the blocks, edges and loops the graph is
/// drawn from.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct SimdAnalysis {
    pub launch: SimdLaunchView,
    pub config: SimdConfigView,
    pub dram: SimdDramView,
    /// Program upload (§5.7, Eq. 18's tID_R(b)).
    pub upload: SimdUploadView,
    /// The basic blocks of §5.1 with their costs (§5.3).
    pub blocks: Vec<SimdBlockView>,
    /// The CFG edges of §5.2 with their stack annotations and penalties (§5.3).
    pub edges: Vec<SimdEdgeView>,
    /// The loops unrolled into the DAG (§5.4).
    pub loops: Vec<SimdLoopView>,
    pub dag: SimdDagView,
    /// The two scheduling policies of §4.2.
    pub sp_as_access: SimdPolicyView,
    pub sp_as_compute: SimdPolicyView,
    /// WCET^U (Eq. 10) from the scratchpad-as-access phase list, + upload, inflated (Eq. 19).
    pub wcet_upper: u64,
    /// WCET^L (Eq. 14) from the scratchpad-as-access phase list.
    pub wcet_lower: u64,
    pub lower_bounds: SimdLowerBoundsView,
    /// The analysis's non-fatal findings (also in the report's `diagnostics`).
    pub diagnostics: Vec<Diagnostic>,
}

impl From<&phases::SimdResult> for SimdAnalysis {
    fn from(r: &phases::SimdResult) -> Self {
        SimdAnalysis {
            launch: (&r.launch).into(),
            config: (&r.config).into(),
            dram: (&r.dram).into(),
            upload: (&r.upload).into(),
            blocks: r.blocks.iter().map(Into::into).collect(),
            edges: r.edges.iter().map(Into::into).collect(),
            loops: r.loops.iter().map(Into::into).collect(),
            dag: SimdDagView {
                nodes: r.dag.nodes,
                edges: r.dag.edges,
            },
            sp_as_access: (&r.sp_as_access).into(),
            sp_as_compute: (&r.sp_as_compute).into(),
            wcet_upper: r.wcet_upper,
            wcet_lower: r.wcet_lower,
            lower_bounds: SimdLowerBoundsView {
                l1: r.lower_bounds.l1,
                l2: r.lower_bounds.l2,
            },
            diagnostics: r.diagnostics.iter().map(Diagnostic::from).collect(),
        }
    }
}

/// The launch as analysed (§3): the NDRange, the work-group's width and height, and `w`, the
/// number of work-groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct SimdLaunchView {
    pub nd_range: [u64; 2],
    pub wg_width: u64,
    pub wg_height: u64,
    /// w: number of work-groups.
    pub work_groups: u64,
}

impl From<&phases::LaunchInfo> for SimdLaunchView {
    fn from(l: &phases::LaunchInfo) -> Self {
        SimdLaunchView {
            nd_range: l.nd_range,
            wg_width: l.wg_width,
            wg_height: l.wg_height,
            work_groups: l.work_groups,
        }
    }
}

wire_view! {
    /// Everything the equations used besides the program and the launch: the hardware of
    /// Table 3 and the analysis's budgets.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
    pub struct SimdConfigView from phases::Config as c {
        /// DRAM configuration (Table 1 / Table 3).
        dram: SimdDramPreset = c.dram.into(),
        pipeline: SimdPipelineView = (&c.pipeline).into(),
        /// Compute clock in MHz (Table 3: 1 GHz). Converts DRAM cycles to compute cycles.
        compute_clock_mhz: u64,
        /// Work-items per work-group (§3: 1024).
        work_items: u64,
        /// SP-units (Table 3: 128): a vector instruction is issued work_items / sp_units times,
        /// once per sub-vector (§5.3).
        sp_units: u64,
        /// RCP-units (Table 3: 32, one per four SP-units, §5.3).
        rcp_units: u64,
        /// Scratchpad bus width in 32-bit words per cycle (Table 3: 4–32; the reference build
        /// uses 4).
        sp_bus_words: u64,
        /// Latency of the non-pipelined radix-16 scalar integer divider, in cycles (§3.1: 8).
        divider_cycles: u64,
        /// DRAM controller pipeline delay added to a closed-form LID, in DRAM cycles (the
        /// reference tool: 3).
        dram_pipeline_cycles: u64,
        /// How many work-groups the schedule (Gantt) shows, from the start of the kernel.
        schedule_work_groups: u64,
        budget: SimdBudgetView = (&c.budget).into(),
        /// Budget: most DRAM controller steps simulated for one stride request over all its
        /// start offsets.
        max_dram_sim_steps: u64,
    }
}

wire_view! {
    /// The in-order compute pipeline of §3.1 (the page's "pipeline" row).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
    pub struct SimdPipelineView from phases::PipelineConfig as p {
        /// Decode/operand-fetch stages: 1 (reference implementation), or 3 (§3.1).
        decode_stages: u32,
        /// Execute stages: 3 (reference implementation) or 5 (§3.1).
        execute_stages: u32,
    }
}

wire_view! {
    /// The budgets that keep the analysis bounded (the mode's `max_…` parameters).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
    pub struct SimdBudgetView from phases::Budget as b {
        /// Most DAG nodes created while unrolling loops (§5.4), over all loop DAGs.
        max_dag_nodes: u64,
        /// Most simulated pipeline cycles (cold and warm runs together, §5.3).
        max_pipeline_cycles: u64,
        /// Most periods of one DRAM stride request examined (§3.2.1).
        max_stride_periods: u64,
        /// Most words walked for one scratchpad stride request (§3.3).
        max_sp_stride_words: u64,
        /// Most intervals in the schedule (Gantt) data.
        max_schedule_intervals: u64,
    }
}

/// The DRAM configurations of the paper (Table 1 and Table 3), by the names the `dram`
/// parameter takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub enum SimdDramPreset {
    /// DDR4-3200AA, x16, 2 bank groups (Table 1 column 1).
    #[serde(rename = "ddr4-3200aa-2bg")]
    Ddr4_3200aa2bg,
    /// DDR4-3200AA, x8, 4 bank groups (Table 1 column 2).
    #[serde(rename = "ddr4-3200aa-4bg")]
    Ddr4_3200aa4bg,
    /// DDR4-1866M (Table 3), with Ramulator's timings as the reference tool uses them.
    #[serde(rename = "ddr4-1866m")]
    Ddr4_1866m,
}

impl From<phases::DramPreset> for SimdDramPreset {
    fn from(p: phases::DramPreset) -> Self {
        match p {
            phases::DramPreset::Ddr4_3200aa2bg => SimdDramPreset::Ddr4_3200aa2bg,
            phases::DramPreset::Ddr4_3200aa4bg => SimdDramPreset::Ddr4_3200aa4bg,
            phases::DramPreset::Ddr4_1866m => SimdDramPreset::Ddr4_1866m,
        }
    }
}

/// The DRAM configuration used (the page's "DRAM" row): its preset, where its numbers come
/// from, and the timing of Table 1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct SimdDramView {
    pub preset: SimdDramPreset,
    pub source: String,
    pub timing: SimdDramTimingView,
}

impl From<&phases::DramInfo> for SimdDramView {
    fn from(d: &phases::DramInfo) -> Self {
        SimdDramView {
            preset: d.preset.into(),
            source: d.source.clone(),
            timing: (&d.timing).into(),
        }
    }
}

wire_view! {
    /// One DDR4 configuration: organisation and the timing parameters of Table 1, in DRAM clock
    /// cycles (`tCK`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
    pub struct SimdDramTimingView from phases::dram::DramTiming as t {
        /// nB: banks per rank.
        banks: u64,
        /// nBG: bank groups per rank.
        bank_groups: u64,
        /// nR: rows per bank.
        rows: u64,
        /// nC: columns per row.
        columns: u64,
        /// nBW: 32-bit words per burst.
        words_per_burst: u64,
        /// Effective data-bus width in bytes.
        bus_bytes: u64,
        /// DRAM command clock in MHz.
        clock_mhz: u64,
        /// nRCD: row-activate to CAS delay.
        n_rcd: u64,
        /// nCAS: read to first burst.
        n_cas: u64,
        /// nCWD: write to first burst.
        n_cwd: u64,
        /// nRP: row precharge.
        n_rp: u64,
        /// nBURST: cycles per burst.
        n_burst: u64,
        /// nRAS: row activate strobe.
        n_ras: u64,
        /// nRTP: read to precharge.
        n_rtp: u64,
        /// nWR: write recovery.
        n_wr: u64,
        /// nRFC: refresh cycle time (Eq. 19).
        n_rfc: u64,
        /// nREFI: refresh interval (Eq. 19).
        n_refi: u64,
        /// nCCD_S: column to column, different bank group.
        n_ccd_s: u64,
        /// nCCD_L: column to column, same bank group.
        n_ccd_l: u64,
        /// nRRD_S: activate to activate, different bank group.
        n_rrd_s: u64,
        /// nRRD_L: activate to activate, same bank group.
        n_rrd_l: u64,
        /// nFAW: four-activate window (not in Table 1: the reference tool's and Ramulator's).
        n_faw: u64,
        /// nWTR_S / nWTR_L: write-to-read turnaround, other / same bank group (Ramulator's).
        n_wtr_s: u64,
        n_wtr_l: u64,
    }
}

/// Program upload time (§5.7, Eq. 18's tID_R(b)): the binary, 8 bytes per instruction, read
/// as one burst-aligned request (the page's "program upload" row).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct SimdUploadView {
    pub instructions: u64,
    pub bytes: u64,
    pub bursts: u64,
    pub dram_cycles: u64,
    /// In compute cycles.
    pub cycles: u64,
}

impl From<&phases::UploadCost> for SimdUploadView {
    fn from(u: &phases::UploadCost) -> Self {
        SimdUploadView {
            instructions: u.instructions,
            bytes: u.bytes,
            bursts: u.bursts,
            dram_cycles: u.dram_cycles,
            cycles: u.cycles,
        }
    }
}

/// Size of the unrolled DAG (§5.4; the page's "unrolled DAG" row).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct SimdDagView {
    pub nodes: usize,
    pub edges: usize,
}

/// The components of WCET^L (Eq. 14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct SimdLowerBoundsView {
    /// Eq. 11: w · max over resources of C(K, r) (+ upload; the DRAM sum refresh-inflated).
    pub l1: u64,
    /// Eq. 13: ⌈w/2⌉ · Σ c_i, inflated (+ upload).
    pub l2: u64,
}

/// The two work-group scheduling policies of §4.2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum SimdPolicy {
    /// Scratchpad transfers are access phases (they alternate with compute).
    SpAsAccess,
    /// Scratchpad transfers are part of the surrounding compute phase.
    SpAsCompute,
}

/// The result for one scheduling policy (a row of the page's policy table, and its phase
/// list): the kernel WCET (Eq. 17–19), the phases of §5.6, the critical path of §5.5 and the
/// worst-case schedule of §4.3.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct SimdPolicyView {
    pub policy: SimdPolicy,
    /// Kernel WCET in compute cycles: Eq. 18 inflated by Eq. 19.
    pub wcet: u64,
    /// Eq. 18 before refresh inflation.
    pub wcet_before_refresh: u64,
    pub phase_count: usize,
    pub phases: Vec<SimdPhaseView>,
    pub pair: SimdPairCostView,
    /// The critical path through the DAG (§5.5) under this policy's weights.
    pub critical_path: Vec<SimdPathStepView>,
    /// Its length: the sum of its edge weights and accesses.
    pub critical_path_cycles: u64,
    pub schedule: SimdScheduleView,
}

impl From<&phases::PolicyResult> for SimdPolicyView {
    fn from(p: &phases::PolicyResult) -> Self {
        SimdPolicyView {
            policy: match p.policy {
                phases::Policy::SpAsAccess => SimdPolicy::SpAsAccess,
                phases::Policy::SpAsCompute => SimdPolicy::SpAsCompute,
            },
            wcet: p.wcet,
            wcet_before_refresh: p.wcet_before_refresh,
            phase_count: p.phase_count,
            phases: p.phases.iter().map(Into::into).collect(),
            pair: SimdPairCostView {
                c_1wg: p.pair.c_1wg,
                c_2wg: p.pair.c_2wg,
                c_edge: p.pair.c_edge,
                schedule: p.pair.schedule,
            },
            critical_path: p
                .critical_path
                .iter()
                .map(|s| SimdPathStepView {
                    node: s.node,
                    block: s.block,
                    weight: s.weight,
                    access: s.access.map(|a| SimdNodeAccessView {
                        resource: a.resource.into(),
                        cycles: a.cycles,
                    }),
                })
                .collect(),
            critical_path_cycles: p.critical_path_cycles,
            schedule: (&p.schedule).into(),
        }
    }
}

/// A phase Φ_i = (ρ_i, c_i) of the program model (§4.1; a row of the page's phase list).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct SimdPhaseView {
    /// Position in the list (0-based; the paper counts from 1).
    pub index: usize,
    /// ρ_i: the resource type.
    pub resource: SimdResource,
    /// c_i: worst-case cost in compute cycles.
    pub cycles: u64,
    /// The block whose request ends (compute phase) or is (access phase) this phase.
    pub block: usize,
}

impl From<&phases::Phase> for SimdPhaseView {
    fn from(p: &phases::Phase) -> Self {
        SimdPhaseView {
            index: p.index,
            resource: p.resource.into(),
            cycles: p.cycles,
            block: p.block,
        }
    }
}

/// The cost terms of §5.7 for one phase list (the page's c_1wg, c_2wg, c_edge columns).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct SimdPairCostView {
    /// c_1wg = Σ c_i: one work-group alone.
    pub c_1wg: u64,
    /// c_2wg: a pair of work-groups alternating resources.
    pub c_2wg: u64,
    /// Eq. 17: min(c_1, c_n) for an even number of work-groups, c_1wg for an odd number.
    pub c_edge: u64,
    /// ⌊w/2⌋ · c_2wg + c_edge: Eq. 18 without the program upload.
    pub schedule: u64,
}

/// One step of the critical path (§5.5): a DAG node and the weight of the edge to the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct SimdPathStepView {
    pub node: usize,
    pub block: usize,
    /// Weight of the edge to the next step (0 for the last), including the scratchpad cost
    /// under the scratchpad-as-compute policy.
    pub weight: u64,
    /// The access at this step as the policy sees it.
    pub access: Option<SimdNodeAccessView>,
}

/// The access a DAG node performs: its resource and cost in compute cycles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct SimdNodeAccessView {
    pub resource: SimdResource,
    pub cycles: u64,
}

wire_view! {
    /// A schedule of the two work-group slots as Gantt data (§4.2–4.3): lanes × intervals. The
    /// report's `schedule` draws the better policy's; this is the raw form.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
    pub struct SimdScheduleView from phases::Schedule as s {
        /// The resource instances of §4.1: `compute`, `dram`, `sp0`, `sp1`.
        lanes: Vec<String>,
        intervals: Vec<SimdIntervalView> = s.intervals.iter().map(Into::into).collect(),
        /// Work-groups shown (from the start of the kernel).
        work_groups: u64,
        /// Whether the kernel has more work-groups than shown, or the interval budget cut the
        /// schedule short.
        truncated: bool,
        /// t_end of the schedule shown (Definition 1).
        makespan: u64,
    }
}

wire_view! {
    /// One reservation σ = (φ, w, r, z, [start, end)) (§4.3), half-open, in compute cycles.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
    pub struct SimdIntervalView from phases::schedule::Interval as i {
        /// Lane (resource instance): `compute`, `dram`, `sp0`, `sp1`.
        lane: String,
        start: u64,
        end: u64,
        /// Phase index in the phase list.
        phase: usize,
        work_group: u64,
        /// Work-group slot z ∈ {0, 1}.
        slot: u8,
        label: String,
    }
}
