//! The parameters of the warp-level analysis, shared by the `warp-cfg` mode and the `block`
//! mode (which adds its own): their catalogue entries and presets, the block cost model
//! ([`Cost`]) and their decoding ([`WarpCfgParams`]).

use super::indirect;
use crate::catalog::{ParamInfo, PresetInfo};
use crate::mode::ModeInput;
use crate::params::limits::{self, budget};
use crate::params::{LoopBounds, Params};
use crate::simulator::{self, SimRequest, SimRun};
use cfg::TimingClass;
use isa::Diagnostic;
use std::collections::BTreeMap;

/// The classes whose initiation interval the `latency` cost model takes as a parameter (the
/// others issue back to back).
const PIPELINED: [TimingClass; 2] = [TimingClass::DoublePrecision, TimingClass::Sfu];

/// The `warp-cfg` mode's parameters (the `block` mode reads the same ones, plus its own).
pub(crate) fn params() -> Vec<ParamInfo> {
    let d = cfg::Options::default();
    let b = ipet::Budget::default();
    let mut params = vec![
        ParamInfo::number(
            "default_loop_bound",
            "bound for loops neither the code (an induction variable and its exit, inferred for \
             the launch) nor loop_bounds bounds: the header runs at most N times per entry into \
             the loop (0: every such loop is an error); each loop it bounds is reported as an \
             assumption (a warning, wcet.assumed_loop_bounds); 10 as in §4.1",
            "iterations",
            0.0,
            1e6,
            10.0,
        ),
        ParamInfo::choice(
            "cost",
            "block cost model: unit = every instruction 1 cycle (the paper's evaluation, §4.1); \
             latency = in-order issue with the per-class latencies below, pipeline drained at \
             block ends (conservative across blocks); control = the stall counts and \
             scoreboard barriers ptxas wrote in the listing's encodings (SASS listed with its \
             encodings, sm_50 to sm_90), a barrier released the latency below after its \
             setter issued, pending barriers carried along paths (issue #42)",
            &["unit", "latency", "control"],
            "unit",
        ),
    ];
    params.extend(latency_params());
    params.extend([
        ParamInfo::flag(
            "agreement",
            "agreement analysis (§3.3); off: every guarded branch may diverge",
            d.agreement,
        ),
        ParamInfo::flag(
            "pending_agreement",
            "track agreement for pending groups too; off: only for active (§4.2)",
            d.pending_agreement,
        ),
        ParamInfo::flag(
            "groups",
            "thread-group relations (§3.2); off: no relation between groups is known",
            d.groups,
        ),
        ParamInfo::flag(
            "cyclic_stacks",
            "cyclic activation-stack graphs (§3.1); off: limitation to acyclic graphs",
            d.cyclic_stacks,
        ),
        budget(
            "max_states",
            "most abstract states (warp-CFG nodes)",
            "states",
            1e7,
            d.max_states,
        ),
        budget(
            "max_stack_depth",
            "deepest activation stack followed",
            "entries",
            1e4,
            d.max_stack_depth,
        ),
        budget(
            "max_ilp_variables",
            "most ILP variables",
            "variables",
            1e7,
            b.max_variables,
        ),
        budget(
            "max_ilp_constraints",
            "most ILP constraints",
            "constraints",
            1e7,
            b.max_constraints,
        ),
        budget(
            "max_lp_size",
            "largest independent part of the ILP handed to the LP solver (variables plus constraints): an LP solve cannot be interrupted, its size bounds its time",
            "variables + constraints",
            1e7,
            b.max_lp_size,
        ),
        budget(
            "max_bb_nodes",
            "most branch-and-bound nodes (LP solves; a solve on a part of more than 256 variables and constraints counts one more per further 256)",
            "nodes",
            1e7,
            b.max_bb_nodes,
        ),
    ]);
    params.extend(simulator::simulate_params(
        "also run the simulator in the analysis's setting (one warp in isolation, the cost model's latencies) and show observed vs bound",
    ));
    params.extend(limits::params());
    params.push(indirect::param());
    params.push(its_param());
    params.push(ParamInfo::choice(
        "loop_bounds",
        "SASS: `observed` bounds every loop neither the request nor the code bounds by the most \
         iterations one thread made per entry in the simulation (simulation.loop_iterations; \
         the run is made even with simulate off, a loop no thread entered gets 1): the bound \
         of the run just watched; counts above an inferred bound are reported as errors. \
         `given`: the request's loop bounds, the code's, and default_loop_bound.",
        &["given", "observed"],
        "given",
    ));
    params
}

/// `latency_<class>` and `interval_<class>` parameters of the `latency` cost model, with the
/// Pascal GP102 table as defaults (see `cfg::LatencyTable::pascal_gp102` for the sources).
fn latency_params() -> Vec<ParamInfo> {
    let t = cfg::LatencyTable::pascal_gp102();
    let latencies = TimingClass::ALL.into_iter().map(|c| {
        ParamInfo::number(
            &format!("latency_{}", c.name()),
            &format!(
                "cost=latency: cycles from issue to write-back of a {} instruction",
                class_meaning(c)
            ),
            "cycles",
            1.0,
            1e5,
            t.latency_of(c) as f64,
        )
    });
    let intervals = PIPELINED.into_iter().map(|c| {
        ParamInfo::number(
            &format!("interval_{}", c.name()),
            &format!(
                "cost=latency: initiation interval of the {} unit (cycles between two of the warp's instructions)",
                class_meaning(c)
            ),
            "cycles",
            1.0,
            1e4,
            t.interval_of(c) as f64,
        )
    });
    latencies
        .chain(intervals)
        .map(|p| p.in_group("latencies"))
        .collect()
}

fn class_meaning(c: TimingClass) -> &'static str {
    use cfg::TimingClass as T;
    match c {
        T::Alu => "integer/FP32 ALU",
        T::DoublePrecision => "double-precision (DADD/DMUL/DFMA…)",
        T::Sfu => "special-function (MUFU)",
        T::Shared => "shared-memory",
        T::Global => "global-memory",
        T::Local => "local-memory",
        T::Constant => "constant-cache load (LDC)",
        T::Texture => "texture/surface",
        T::Control => "control",
    }
}

/// Named settings: the paper's unit costs, and per-architecture latencies (read from the
/// `cfg::LatencyTable` constructors, whose docs cite the files and commits they come from).
pub(crate) fn presets() -> Vec<PresetInfo> {
    vec![
        PresetInfo {
            name: "paper-unit".into(),
            source: "Jeanmougin et al. §4.1: every instruction costs one cycle".into(),
            values: BTreeMap::from([("cost".to_string(), serde_json::json!("unit"))]),
        },
        latency_preset(
            "pascal-gp102",
            "Pascal GP102 (TITAN X, cc 6.1), one warp in isolation: ALU 6 cycles \
             (NVIDIA Volta Tuning Guide §1.4.3: dependent FMA issue latency six cycles on \
             Pascal); FP64 8/8, SFU 20/4, shared 24, L1 82 + L2/ROP 120 + DRAM 100 = 302 \
             for global/local/constant/texture (GPGPU-Sim tested config SM6_TITANX)",
            cfg::LatencyTable::pascal_gp102(),
        ),
        latency_preset(
            "volta-qv100",
            "Volta GV100 (Quadro V100, cc 7.0), one warp in isolation, Accel-Sim GPGPU-Sim \
             tested config SM7_QV100/gpgpusim.config (accel-sim/gpgpu-sim_distribution dev \
             667834cf): ALU 5 = MAD of -ptx_opcode_latency_int/fp 4,13,4,5 (above the Volta \
             Tuning Guide's 4-cycle dependent FMA latency, the larger taken); FP64 8 / interval \
             4 (-ptx_opcode_latency_dp 8,19,8,8, -ptx_opcode_initiation_dp 4,4,4,4); SFU 100 / \
             interval 8 (-ptx_opcode_latency_sfu, -ptx_opcode_initiation_sfu); shared 20 \
             (-gpgpu_smem_latency); global/local/constant/texture L1 20 + L2/ROP 160 + DRAM \
             100 = 280 (-gpgpu_l1_latency, -gpgpu_l2_rop_latency, -dram_latency); control 1",
            cfg::LatencyTable::volta_qv100(),
        ),
        latency_preset(
            "turing-rtx2060",
            "Turing (GeForce RTX 2060, cc 7.5), one warp in isolation, Accel-Sim GPGPU-Sim \
             tested config SM75_RTX2060/gpgpusim.config (accel-sim/gpgpu-sim_distribution dev \
             667834cf): ALU 4 (-ptx_opcode_latency_int/fp 4,4,4,4); FP64 64 / interval 64 \
             (-ptx_opcode_latency_dp, -ptx_opcode_initiation_dp 64,64,64,64); SFU 21 / \
             interval 8 (-ptx_opcode_latency_sfu, -ptx_opcode_initiation_sfu); shared 30 \
             (-gpgpu_smem_latency); global/local/constant/texture L1 32 + L2/ROP 194 + DRAM 96 \
             = 322 (-gpgpu_l1_latency, -gpgpu_l2_rop_latency, -dram_latency); control 1",
            cfg::LatencyTable::turing_rtx2060(),
        ),
        latency_preset(
            "ampere-rtx3070",
            "Ampere (GeForce RTX 3070, cc 8.6), one warp in isolation, Accel-Sim GPGPU-Sim \
             tested config SM86_RTX3070/gpgpusim.config (accel-sim/gpgpu-sim_distribution dev \
             667834cf): ALU 4 (-ptx_opcode_latency_int/fp 4,4,4,4); FP64 64 / interval 64 \
             (-ptx_opcode_latency_dp, -ptx_opcode_initiation_dp 64,64,64,64); SFU 21 / \
             interval 8 (-ptx_opcode_latency_sfu, -ptx_opcode_initiation_sfu); shared 29 \
             (-gpgpu_smem_latency); global/local/constant/texture L1 39 + L2/ROP 187 + DRAM 254 \
             = 480 (-gpgpu_l1_latency, -gpgpu_l2_rop_latency, -dram_latency); control 1",
            cfg::LatencyTable::ampere_rtx3070(),
        ),
        latency_preset(
            "hopper-h100",
            "Hopper GH100 (H100 SXM5, cc 9.0), one warp in isolation, Accel-Sim GPGPU-Sim \
             config SM90_H100/gpgpusim.config (accel-sim/gpgpu-sim_distribution h100-test \
             fa235ebc), whose latencies are taken unchanged from V100 (\"base config were taken \
             from v100 and modified\": SM and channel counts, L1D/L2 sizes), so not a Hopper \
             calibration: ALU 5 = MAD of -ptx_opcode_latency_int/fp 4,13,4,5; FP64 8 / interval \
             4 (-ptx_opcode_latency_dp 8,19,8,8, -ptx_opcode_initiation_dp 4,4,4,4); SFU 100 / \
             interval 8 (-ptx_opcode_latency_sfu, -ptx_opcode_initiation_sfu); shared 20 \
             (-gpgpu_smem_latency); global/local/constant/texture L1 20 + L2/ROP 160 + DRAM \
             100 = 280 (-gpgpu_l1_latency, -gpgpu_l2_rop_latency, -dram_latency); control 1",
            cfg::LatencyTable::hopper_h100(),
        ),
    ]
}

/// A `cost=latency` preset setting every `latency_<class>` and `interval_<class>` parameter
/// from `t`.
fn latency_preset(name: &str, source: &str, t: cfg::LatencyTable) -> PresetInfo {
    let mut values: BTreeMap<String, serde_json::Value> =
        BTreeMap::from([("cost".to_string(), serde_json::json!("latency"))]);
    for c in TimingClass::ALL {
        values.insert(
            format!("latency_{}", c.name()),
            serde_json::json!(t.latency_of(c)),
        );
    }
    for c in PIPELINED {
        values.insert(
            format!("interval_{}", c.name()),
            serde_json::json!(t.interval_of(c)),
        );
    }
    PresetInfo {
        name: name.into(),
        source: source.into(),
        values,
    }
}

/// The block cost model.
#[derive(Clone)]
pub(crate) enum Cost {
    /// §4.1: every instruction one cycle.
    Unit,
    /// In-order issue with these latencies, drained at block ends (`cfg::latency`).
    Latency(cfg::LatencyTable),
    /// The compiler's schedule (`cfg::control`): stall counts and scoreboard barriers from
    /// the control bits, a barrier's setter completing the class latency of this table after
    /// it issued.
    Control(cfg::LatencyTable),
    /// The `block` mode's unit machine (Berezovskyi et al. §3): a memory instruction costs
    /// `load_store` cycles (its load/store-unit occupancy), any other `core`.
    Units { load_store: u64, core: u64 },
}

impl Cost {
    /// The simulator's SM in the bound's own setting: one instruction per cycle, the cost
    /// model's latencies (all 1 for `unit`), no memory transactions beyond the latency,
    /// and under `control` issue by the control bits — the per-class intervals are then 1,
    /// since the stall counts are how ptxas spaces a pipelined unit's instructions.
    pub(crate) fn machine(
        &self,
        its: Option<cfg::interleaving::Scheduler>,
    ) -> Option<sim::Machine> {
        let mut machine = crate::simulator::preset_machine(Some("unit-cost"))?;
        machine.latency = match self {
            Cost::Latency(table) => table.clone(),
            Cost::Control(table) => {
                machine.control_bits = true;
                cfg::LatencyTable {
                    latency: table.latency.clone(),
                    interval: cfg::LatencyTable::unit().interval,
                }
            }
            Cost::Unit | Cost::Units { .. } => cfg::LatencyTable::unit(),
        };
        machine.issue_width = 1;
        machine.transaction_cycles = 0;
        machine.thread_scheduling = crate::params::its::thread_scheduling(its);
        Some(machine)
    }

    pub(crate) fn name(&self) -> &'static str {
        match self {
            Cost::Unit => "unit",
            Cost::Latency(_) => "latency",
            Cost::Control(_) => "control",
            Cost::Units { .. } => "units",
        }
    }
}

/// The `warp-cfg` mode's parameters (also the `block` mode's), decoded once.
pub(crate) struct WarpCfgParams {
    pub(crate) loop_bounds: LoopBounds,
    pub(crate) cost: Cost,
    pub(crate) analysis: cfg::Options,
    pub(crate) budget: ipet::Budget,
    pub(crate) simulate: SimRequest,
    /// Candidate targets of indirect calls and branches (SASS).
    pub(crate) indirect: indirect::IndirectTargets,
    /// The scheduler of an extra run under independent thread scheduling (SASS), if any.
    pub(crate) its: Option<cfg::interleaving::Scheduler>,
    /// `loop_bounds=observed` (SASS): loops without a bound of the request's are bounded by
    /// the iterations the simulation observed ([`crate::observed_loops`]).
    pub(crate) observed: bool,
}

impl WarpCfgParams {
    pub(crate) fn decode(input: &ModeInput) -> Result<Self, Diagnostic> {
        let p = input.params;
        let table = latency_table(p)?;
        let cost = match p.text("cost")? {
            "latency" => Cost::Latency(table),
            "control" => Cost::Control(table),
            _ => Cost::Unit,
        };
        let observed = p.text("loop_bounds")? == "observed";
        Ok(WarpCfgParams {
            loop_bounds: LoopBounds::decode(
                &input.request.loop_bounds,
                p.u64("default_loop_bound")?,
            ),
            cost,
            analysis: cfg::Options {
                agreement: p.flag("agreement")?,
                pending_agreement: p.flag("pending_agreement")?,
                groups: p.flag("groups")?,
                cyclic_stacks: p.flag("cyclic_stacks")?,
                max_states: p.usize("max_states")?,
                max_stack_depth: p.usize("max_stack_depth")?,
            },
            budget: ipet::Budget {
                max_variables: p.usize("max_ilp_variables")?,
                max_constraints: p.usize("max_ilp_constraints")?,
                max_lp_size: p.usize("max_lp_size")?,
                max_bb_nodes: p.usize("max_bb_nodes")?,
            },
            simulate: SimRequest::decode_or_force(
                p,
                input.request.memory.as_ref(),
                SimRun::decode,
                observed,
            )?,
            indirect: indirect::IndirectTargets::decode(p.text("indirect_targets")?)?,
            its: crate::params::its::decode(p.text("its")?)?,
            observed,
        })
    }
}

/// The latency table of the `latency` cost model from the parameters.
fn latency_table(p: &Params) -> Result<cfg::LatencyTable, Diagnostic> {
    let mut t = cfg::LatencyTable::pascal_gp102();
    for c in TimingClass::ALL {
        let v = p.u32(&format!("latency_{}", c.name()))?;
        t.latency.insert(c, v.max(1));
    }
    for c in PIPELINED {
        let v = p.u32(&format!("interval_{}", c.name()))?;
        t.interval.insert(c, v.max(1));
    }
    Ok(t)
}

/// The catalogue entry of `its`.
fn its_param() -> ParamInfo {
    ParamInfo::text(
        "its",
        "SASS, sm_70 and later: also run one warp of 32 threads under independent thread \
         scheduling with this scheduler — round-robin (one instruction of each ready group in \
         turn), newest (depth first, close to the stack order) or random:SEED — next to the \
         stack order the warp-level CFG follows, and report both issue orders and where they \
         part (warp-cfg.interleaving). With simulate on, the simulator runs the warp under \
         the same scheduler and the stepper shows its thread groups and barrier registers. \
         Empty: off.",
        "",
    )
    .suggesting(&crate::params::its::SUGGESTED)
}
