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

/// Everything the equations used besides the program and the launch: the hardware of
/// Table 3 and the analysis's budgets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct SimdConfigView {
    /// DRAM configuration (Table 1 / Table 3).
    pub dram: SimdDramPreset,
    pub pipeline: SimdPipelineView,
    /// Compute clock in MHz (Table 3: 1 GHz). Converts DRAM cycles to compute cycles.
    pub compute_clock_mhz: u64,
    /// Work-items per work-group (§3: 1024).
    pub work_items: u64,
    /// SP-units (Table 3: 128): a vector instruction is issued work_items / sp_units times,
    /// once per sub-vector (§5.3).
    pub sp_units: u64,
    /// RCP-units (Table 3: 32, one per four SP-units, §5.3).
    pub rcp_units: u64,
    /// Scratchpad bus width in 32-bit words per cycle (Table 3: 4–32; the reference build
    /// uses 4).
    pub sp_bus_words: u64,
    /// Latency of the non-pipelined radix-16 scalar integer divider, in cycles (§3.1: 8).
    pub divider_cycles: u64,
    /// DRAM controller pipeline delay added to a closed-form LID, in DRAM cycles (the
    /// reference tool: 3).
    pub dram_pipeline_cycles: u64,
    /// How many work-groups the schedule (Gantt) shows, from the start of the kernel.
    pub schedule_work_groups: u64,
    pub budget: SimdBudgetView,
    /// Budget: most DRAM controller steps simulated for one stride request over all its
    /// start offsets.
    pub max_dram_sim_steps: u64,
}

impl From<&phases::Config> for SimdConfigView {
    fn from(c: &phases::Config) -> Self {
        let b = &c.budget;
        SimdConfigView {
            dram: c.dram.into(),
            pipeline: SimdPipelineView {
                decode_stages: c.pipeline.decode_stages,
                execute_stages: c.pipeline.execute_stages,
            },
            compute_clock_mhz: c.compute_clock_mhz,
            work_items: c.work_items,
            sp_units: c.sp_units,
            rcp_units: c.rcp_units,
            sp_bus_words: c.sp_bus_words,
            divider_cycles: c.divider_cycles,
            dram_pipeline_cycles: c.dram_pipeline_cycles,
            schedule_work_groups: c.schedule_work_groups,
            budget: SimdBudgetView {
                max_dag_nodes: b.max_dag_nodes,
                max_pipeline_cycles: b.max_pipeline_cycles,
                max_stride_periods: b.max_stride_periods,
                max_sp_stride_words: b.max_sp_stride_words,
                max_schedule_intervals: b.max_schedule_intervals,
            },
            max_dram_sim_steps: c.max_dram_sim_steps,
        }
    }
}

/// The in-order compute pipeline of §3.1 (the page's "pipeline" row).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct SimdPipelineView {
    /// Decode/operand-fetch stages: 1 (reference implementation), or 3 (§3.1).
    pub decode_stages: u32,
    /// Execute stages: 3 (reference implementation) or 5 (§3.1).
    pub execute_stages: u32,
}

/// The budgets that keep the analysis bounded (the mode's `max_…` parameters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct SimdBudgetView {
    /// Most DAG nodes created while unrolling loops (§5.4), over all loop DAGs.
    pub max_dag_nodes: u64,
    /// Most simulated pipeline cycles (cold and warm runs together, §5.3).
    pub max_pipeline_cycles: u64,
    /// Most periods of one DRAM stride request examined (§3.2.1).
    pub max_stride_periods: u64,
    /// Most words walked for one scratchpad stride request (§3.3).
    pub max_sp_stride_words: u64,
    /// Most intervals in the schedule (Gantt) data.
    pub max_schedule_intervals: u64,
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
        let t = &d.timing;
        SimdDramView {
            preset: d.preset.into(),
            source: d.source.clone(),
            timing: SimdDramTimingView {
                banks: t.banks,
                bank_groups: t.bank_groups,
                rows: t.rows,
                columns: t.columns,
                words_per_burst: t.words_per_burst,
                bus_bytes: t.bus_bytes,
                clock_mhz: t.clock_mhz,
                n_rcd: t.n_rcd,
                n_cas: t.n_cas,
                n_cwd: t.n_cwd,
                n_rp: t.n_rp,
                n_burst: t.n_burst,
                n_ras: t.n_ras,
                n_rtp: t.n_rtp,
                n_wr: t.n_wr,
                n_rfc: t.n_rfc,
                n_refi: t.n_refi,
                n_ccd_s: t.n_ccd_s,
                n_ccd_l: t.n_ccd_l,
                n_rrd_s: t.n_rrd_s,
                n_rrd_l: t.n_rrd_l,
                n_faw: t.n_faw,
                n_wtr_s: t.n_wtr_s,
                n_wtr_l: t.n_wtr_l,
            },
        }
    }
}

/// One DDR4 configuration: organisation and the timing parameters of Table 1, in DRAM clock
/// cycles (`tCK`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct SimdDramTimingView {
    /// nB: banks per rank.
    pub banks: u64,
    /// nBG: bank groups per rank.
    pub bank_groups: u64,
    /// nR: rows per bank.
    pub rows: u64,
    /// nC: columns per row.
    pub columns: u64,
    /// nBW: 32-bit words per burst.
    pub words_per_burst: u64,
    /// Effective data-bus width in bytes.
    pub bus_bytes: u64,
    /// DRAM command clock in MHz.
    pub clock_mhz: u64,
    /// nRCD: row-activate to CAS delay.
    pub n_rcd: u64,
    /// nCAS: read to first burst.
    pub n_cas: u64,
    /// nCWD: write to first burst.
    pub n_cwd: u64,
    /// nRP: row precharge.
    pub n_rp: u64,
    /// nBURST: cycles per burst.
    pub n_burst: u64,
    /// nRAS: row activate strobe.
    pub n_ras: u64,
    /// nRTP: read to precharge.
    pub n_rtp: u64,
    /// nWR: write recovery.
    pub n_wr: u64,
    /// nRFC: refresh cycle time (Eq. 19).
    pub n_rfc: u64,
    /// nREFI: refresh interval (Eq. 19).
    pub n_refi: u64,
    /// nCCD_S: column to column, different bank group.
    pub n_ccd_s: u64,
    /// nCCD_L: column to column, same bank group.
    pub n_ccd_l: u64,
    /// nRRD_S: activate to activate, different bank group.
    pub n_rrd_s: u64,
    /// nRRD_L: activate to activate, same bank group.
    pub n_rrd_l: u64,
    /// nFAW: four-activate window (not in Table 1: the reference tool's and Ramulator's).
    pub n_faw: u64,
    /// nWTR_S / nWTR_L: write-to-read turnaround, other / same bank group (Ramulator's).
    pub n_wtr_s: u64,
    pub n_wtr_l: u64,
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

/// A schedule of the two work-group slots as Gantt data (§4.2–4.3): lanes × intervals. The
/// report's `schedule` draws the better policy's; this is the raw form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct SimdScheduleView {
    /// The resource instances of §4.1: `compute`, `dram`, `sp0`, `sp1`.
    pub lanes: Vec<String>,
    pub intervals: Vec<SimdIntervalView>,
    /// Work-groups shown (from the start of the kernel).
    pub work_groups: u64,
    /// Whether the kernel has more work-groups than shown, or the interval budget cut the
    /// schedule short.
    pub truncated: bool,
    /// t_end of the schedule shown (Definition 1).
    pub makespan: u64,
}

impl From<&phases::Schedule> for SimdScheduleView {
    fn from(s: &phases::Schedule) -> Self {
        SimdScheduleView {
            lanes: s.lanes.clone(),
            intervals: s
                .intervals
                .iter()
                .map(|i| SimdIntervalView {
                    lane: i.lane.clone(),
                    start: i.start,
                    end: i.end,
                    phase: i.phase,
                    work_group: i.work_group,
                    slot: i.slot,
                    label: i.label.clone(),
                })
                .collect(),
            work_groups: s.work_groups,
            truncated: s.truncated,
            makespan: s.makespan,
        }
    }
}

/// One reservation σ = (φ, w, r, z, [start, end)) (§4.3), half-open, in compute cycles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct SimdIntervalView {
    /// Lane (resource instance): `compute`, `dram`, `sp0`, `sp1`.
    pub lane: String,
    pub start: u64,
    pub end: u64,
    /// Phase index in the phase list.
    pub phase: usize,
    pub work_group: u64,
    /// Work-group slot z ∈ {0, 1}.
    pub slot: u8,
    pub label: String,
}
