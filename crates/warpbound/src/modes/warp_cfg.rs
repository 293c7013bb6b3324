//! The `warp-cfg` mode: the warp-level CFG by abstract interpretation (crate `cfg`), then
//! IPET (crate `ipet`) for a WCET bound, as in Jeanmougin et al. §4.1. With `simulate=true`
//! the simulator runs the kernel in the analysis's own setting (one warp in isolation, the
//! cost model's latencies) and the report says whether the bound holds for that run.

mod indirect;
mod ipet_bound;
pub(super) use loop_bounds::{infer_sass, observe_bounds, raise_defaults_to_observed};
mod its;
mod loop_bounds;
mod ptx;
mod shared_loops;

use crate::catalog::{ModeInfo, ParamInfo, PresetInfo};
use crate::kernel_text::{self, Sass};
use crate::loop_inference;
use crate::mode::{Mode, ModeDetails, ModeInput, ModeOutput};
use crate::observed_loops;
use crate::params::limits::{self, budget};
use crate::params::{LoopBounds, Params};
use crate::report::{CfgNode, SimulationReport};
use crate::simulator::{self, SimRequest, SimRun};
use crate::views::graph::block_node;
use cfg::{Tag, TimingClass};
use ipet_bound::{BoundRequest, Listing};
use isa::{BlockGraph, Diagnostic, Dialect, Kernel, Span};
use std::collections::BTreeMap;
use web_time::Instant;

/// The mode.
pub const MODE: Mode = Mode {
    name: "warp-cfg",
    aliases: &[],
    describe,
    run,
};

/// The classes whose initiation interval the `latency` cost model takes as a parameter (the
/// others issue back to back).
const PIPELINED: [TimingClass; 2] = [TimingClass::DoublePrecision, TimingClass::Sfu];

fn describe() -> ModeInfo {
    ModeInfo {
        name: String::new(),
        aliases: Vec::new(),
        title: "Warp-level CFG and WCET (Jeanmougin et al.)".into(),
        description: "Builds the warp-level control-flow graph by abstract interpretation \
                      of the SIMT activation stack (stack graph, thread groups, agreement), \
                      with an edge wherever thread divergence can take the warp, then bounds \
                      the WCET by IPET (ILP solved with branch and bound). PTX (beyond the \
                      paper): a divergence analysis finds the branches lanes can disagree on, \
                      the post-dominator stack (GPGPU-Sim) gives the reconvergence points, \
                      every PTX instruction costs one cycle (cost=unit)."
            .into(),
        dialects: vec!["sass".into(), "ptx".into()],
        params: params(),
        presets: presets(),
        default_presets: BTreeMap::new(),
    }
}

/// The mode's parameters (the `block` mode reads the same ones, plus its own).
pub(super) fn params() -> Vec<ParamInfo> {
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
             block ends (conservative across blocks)",
            &["unit", "latency"],
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
    params.push(its::param());
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
pub(super) fn presets() -> Vec<PresetInfo> {
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
pub(super) enum Cost {
    /// §4.1: every instruction one cycle.
    Unit,
    /// In-order issue with these latencies, drained at block ends (`cfg::latency`).
    Latency(cfg::LatencyTable),
    /// The `block` mode's unit machine (Berezovskyi et al. §3): a memory instruction costs
    /// `load_store` cycles (its load/store-unit occupancy), any other `core`.
    Units { load_store: u64, core: u64 },
}

impl Cost {
    pub(super) fn name(&self) -> &'static str {
        match self {
            Cost::Unit => "unit",
            Cost::Latency(_) => "latency",
            Cost::Units { .. } => "units",
        }
    }
}

/// The mode's parameters, decoded once.
pub(super) struct WarpCfgParams {
    pub(super) loop_bounds: LoopBounds,
    pub(super) cost: Cost,
    pub(super) analysis: cfg::Options,
    pub(super) budget: ipet::Budget,
    pub(super) simulate: SimRequest,
    /// Candidate targets of indirect calls and branches (SASS).
    indirect: indirect::IndirectTargets,
    /// The scheduler of an extra run under independent thread scheduling (SASS), if any.
    pub(super) its: Option<cfg::interleaving::Scheduler>,
    /// `loop_bounds=observed` (SASS): loops without a bound of the request's are bounded by
    /// the iterations the simulation observed ([`crate::observed_loops`]).
    pub(super) observed: bool,
}

impl WarpCfgParams {
    pub(super) fn decode(input: &ModeInput) -> Result<Self, Diagnostic> {
        let p = input.params;
        let table = latency_table(p)?;
        let cost = match p.text("cost")? {
            "latency" => Cost::Latency(table),
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

fn run(input: &ModeInput) -> ModeOutput {
    let p = match WarpCfgParams::decode(input) {
        Ok(p) => p,
        Err(d) => return ModeOutput::failed([d]),
    };
    let mut out = ModeOutput::default();
    if input.request.dialect == Dialect::Ptx {
        if !p.indirect.is_empty() {
            out.diagnostics.push(Diagnostic::global(
                isa::Severity::Warning,
                "indirect_targets is read for SASS only: PTX indirect calls take their \
                 candidates from `.calltargets` or the call's prototype",
            ));
        }
        if p.observed {
            out.diagnostics.push(Diagnostic::global(
                isa::Severity::Warning,
                "loop_bounds=observed is read for SASS only: PTX loops keep the request's \
                 bounds (the rr mode bounds PTX loops from the data it is given)",
            ));
        }
        if p.its.is_some() {
            out.diagnostics.push(Diagnostic::global(
                isa::Severity::Warning,
                "its is read for SASS only: the PTX warp-level CFG follows the post-dominator \
                 stack, which has no independent thread scheduling",
            ));
        }
        ptx::run(input, &p, &mut out);
        return out;
    }
    let Some(ParsedSass {
        sass,
        functions,
        listed,
    }) = parse_sass(input, &p, &mut out)
    else {
        return out;
    };
    let mut p = p;
    let launch = loop_inference::Launch::of(input.params);
    let inference = infer_sass(&sass, launch.as_ref(), &mut p.loop_bounds, &mut out);
    // The run comes first when its loop counts are the bounds.
    let mut sim = None;
    if let Some(run) = p.simulate.run(&mut out.diagnostics) {
        let t = Instant::now();
        sim = simulate(
            listed.as_ref().unwrap_or(&sass.kernel),
            &run.watching(observed_loops::watch(&sass.graph)),
            &p.cost,
            p.its,
            input.progress,
            &mut out,
        );
        out.time("simulate", t);
    }
    let loops = sim
        .as_ref()
        .map(|s| observed_loops::of_run(&sass.kernel, &sass.graph, s))
        .unwrap_or_default();
    if sim
        .as_ref()
        .is_some_and(|s| loop_inference::same_launch(s, launch.as_ref(), 32))
    {
        out.diagnostics
            .extend(loop_inference::check_observed(&inference, &loops));
    }
    if p.observed {
        if !observe_bounds(&loops, sim.is_some(), input, &mut p.loop_bounds, &mut out) {
            return out;
        }
    } else {
        raise_defaults_to_observed(&loops, &mut p.loop_bounds, &mut out);
    }
    out.loop_bounds = loop_inference::rows(&inference, &p.loop_bounds);
    let t = Instant::now();
    bound(&sass, &p, input, &functions, &mut out);
    out.time("warp_cfg+ipet", t);
    if let Some(scheduler) = p.its {
        let view = its::run(&sass.kernel, &sass.graph, scheduler, &mut out.diagnostics);
        if let ModeDetails::WarpCfg(d) = &mut out.details {
            d.interleaving = Some(view);
        }
    }
    if let Some(sim) = sim {
        against_bound(
            sim,
            "the warp-cfg bound: one warp in isolation, the cost model's latencies",
            &mut out,
        );
        if let Some(s) = &mut out.simulation {
            s.loop_iterations = loops;
        }
    }
    out
}

/// A SASS kernel as the analysis reads it (indirect targets annotated), the names of its
/// functions, and the kernel as listed when the annotation changed it (what the simulator
/// runs: it does not take the annotation's word for where an indirect branch goes).
pub(super) struct ParsedSass {
    pub sass: Sass,
    pub functions: Vec<String>,
    pub listed: Option<Kernel>,
}

impl ParsedSass {
    /// The kernel the simulator runs.
    pub(super) fn runnable(&self) -> &Kernel {
        self.listed.as_ref().unwrap_or(&self.sass.kernel)
    }
}

/// Parses the request's SASS for the analysis ([`ParsedSass`]).
pub(super) fn parse_sass(
    input: &ModeInput,
    p: &WarpCfgParams,
    out: &mut ModeOutput,
) -> Option<ParsedSass> {
    let mut functions = Vec::new();
    let mut listed = None;
    let sass = kernel_text::sass_with(input, out, |k, names, d| {
        functions = names.to_vec();
        if !p.indirect.is_empty() {
            listed = Some(k.clone());
        }
        indirect::annotate(k, &p.indirect, names, true, d);
    })?;
    Some(ParsedSass {
        sass,
        functions,
        listed,
    })
}

/// Runs the kernel in the analysis's own setting: one warp in isolation, in-order issue with
/// the cost model's latencies (all 1 for cost=unit), no contention — so for a launch of one
/// warp the observed time can never exceed the bound.
/// With `its` set the warp's diverged paths interleave under that scheduler instead of the
/// stack order (the bound is meant to hold for both, see `cfg::barriers`).
fn simulate(
    kernel: &Kernel,
    run: &SimRun,
    cost: &Cost,
    its: Option<cfg::interleaving::Scheduler>,
    progress: isa::Observer,
    out: &mut ModeOutput,
) -> Option<sim::Simulation> {
    let mut machine = simulator::preset_machine(Some("unit-cost"))?;
    machine.latency = match cost {
        Cost::Latency(table) => table.clone(),
        Cost::Unit | Cost::Units { .. } => cfg::LatencyTable::unit(),
    };
    machine.transaction_cycles = 0;
    machine.thread_scheduling = crate::params::its::thread_scheduling(its);
    simulator::run_kernel(
        kernel,
        run,
        &machine,
        &mut out.diagnostics,
        &mut out.arguments,
        progress,
    )
}

/// Puts a run next to the mode's bound: compared when the launch is the one warp the bound
/// is for, otherwise shown with the reason it is not compared.
pub(super) fn against_bound(sim: sim::Simulation, what: &str, out: &mut ModeOutput) {
    let bound = out.wcet.as_ref().map(|w| w.cycles);
    out.simulation = Some(match (bound, sim.warps.len()) {
        (Some(b), 1) => SimulationReport::against(sim, Some(b), what),
        (Some(_), n) => SimulationReport::against(
            sim,
            None,
            format!("the warp-cfg bound is for one warp in isolation; this launch has {n} warps"),
        ),
        (None, _) => SimulationReport::against(
            sim,
            None,
            "there is no WCET bound to compare with (see the errors)",
        ),
    });
}

fn context(kernel: &Kernel, stack: &[cfg::Entry]) -> String {
    stack
        .iter()
        .rev()
        .map(|e| {
            if e.is_any() {
                return "…any".to_string();
            }
            let points: Vec<String> = e
                .points
                .iter()
                .map(|p| {
                    let tag = match p.tag {
                        Tag::Nil => "NIL".to_string(),
                        Tag::Sync => "SYNC".to_string(),
                        Tag::Brk => "BRK".to_string(),
                        Tag::Cont => "CONT".to_string(),
                        Tag::Call => "CALL".to_string(),
                        Tag::Barrier(b) => format!("B{b}"),
                        Tag::WarpSync => "WARP".to_string(),
                        Tag::Any => "ANY".to_string(),
                        Tag::Path => "PATH".to_string(),
                        Tag::Ipdom { .. } => "IPDOM".to_string(),
                        Tag::Rpc => "RPC".to_string(),
                    };
                    let addr = kernel.instructions.get(p.pc).map_or(0, |i| i.address);
                    format!("{tag}@{addr:#06x}")
                })
                .collect();
            let body = if points.len() > 1 {
                format!("({})", points.join("|"))
            } else {
                points.concat()
            };
            format!("{body}{}", if e.repeated { "+" } else { "" })
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Cost of one execution of block `b` under `cost`.
fn block_cost(kernel: &Kernel, graph: &BlockGraph, b: usize, cost: &Cost) -> u64 {
    let block = &graph.blocks[b];
    let instrs = kernel
        .instructions
        .get(block.first..=block.last)
        .unwrap_or(&[]);
    match cost {
        Cost::Latency(t) => cfg::latency::block_cycles(instrs, t),
        Cost::Unit => cfg::latency::unit_cycles(instrs),
        Cost::Units { load_store, core } => instrs
            .iter()
            .map(|i| if is_memory(i) { *load_store } else { *core })
            .sum(),
    }
}

/// Whether `i` runs on the load/store units in the makespan model (the `L` of the L/C
/// reduction: global, shared, local, constant and texture accesses).
pub(super) fn is_memory(i: &isa::Instruction) -> bool {
    use isa::ResourceClass as R;
    matches!(
        i.class,
        R::LoadStoreGlobal | R::LoadStoreShared | R::LoadStoreLocal | R::Constant | R::Texture
    )
}

/// A SASS kernel's blocks as the IPET bound sees them.
struct SassListing<'a> {
    sass: &'a Sass,
    cost: &'a Cost,
    /// Cost of a block beyond its instructions: the candidates of the indirect call it ends
    /// with (`indirect`).
    extra: BTreeMap<usize, u64>,
}

impl Listing for SassListing<'_> {
    fn cost(&self, b: usize) -> u64 {
        block_cost(&self.sass.kernel, &self.sass.graph, b, self.cost)
            .saturating_add(self.extra.get(&b).copied().unwrap_or(0))
    }

    fn node(&self, id: usize, b: usize, stack: &[cfg::Entry]) -> CfgNode {
        let kernel = &self.sass.kernel;
        block_node(kernel, &self.sass.graph, id, b, context(kernel, stack))
    }

    fn address(&self, b: usize) -> u64 {
        self.sass.kernel.instructions[self.sass.graph.blocks[b].first].address
    }

    fn span(&self, b: usize) -> Span {
        self.sass.kernel.instructions[self.sass.graph.blocks[b].first].span
    }

    fn labels(&self, _: usize) -> Vec<String> {
        Vec::new()
    }

    fn accepts_labels(&self) -> bool {
        false
    }
}

/// Builds the SASS warp-level CFG by abstract interpretation (§3) and bounds it.
fn bound(
    sass: &Sass,
    p: &WarpCfgParams,
    input: &ModeInput,
    functions: &[String],
    out: &mut ModeOutput,
) {
    bound_with_extras(sass, p, input, functions, &[], out);
}

/// [`bound`] under `p.cost`, and the IPET bound of the same warp-level CFG under each cost
/// model of `extra` (the `block` mode's issue count and per-unit work). `None` when there is
/// no bound (see the diagnostics).
pub(super) fn bound_with_extras(
    sass: &Sass,
    p: &WarpCfgParams,
    input: &ModeInput,
    functions: &[String],
    extras: &[Cost],
    out: &mut ModeOutput,
) -> Option<(u64, Vec<u64>)> {
    let extra = indirect::extra_costs(sass, p, input, functions, out)?;
    let warp = match cfg::build_observed(&sass.kernel, &sass.graph, &p.analysis, input.progress) {
        Ok(w) => w,
        Err(d) => {
            out.diagnostics.push(d);
            return None;
        }
    };
    let a = &p.analysis;
    let components = BTreeMap::from([
        ("agreement".to_string(), a.agreement),
        ("pending_agreement".to_string(), a.pending_agreement),
        ("groups".to_string(), a.groups),
        ("cyclic_stacks".to_string(), a.cyclic_stacks),
    ]);
    let shared = sass_shared_bounds(sass, &warp, &p.loop_bounds);
    let request = |cost: &Cost| BoundRequest {
        loop_bounds: &p.loop_bounds,
        budget: &p.budget,
        cost_model: cost.name(),
        components: components.clone(),
        progress: input.progress,
        shared: shared.clone(),
    };
    let listing = SassListing {
        sass,
        cost: &p.cost,
        extra: extra.clone(),
    };
    ipet_bound::bound(&warp, &listing, &request(&p.cost), out);
    let main = out.wcet.as_ref()?.cycles;
    let mut values = Vec::with_capacity(extras.len());
    for cost in extras {
        // The indirect candidates' extra stays in the main cost model's cycles: at least
        // their instructions, so still a bound on what is counted here.
        let listing = SassListing {
            sass,
            cost,
            extra: extra.clone(),
        };
        let mut scratch = ModeOutput::default();
        ipet_bound::bound(&warp, &listing, &request(cost), &mut scratch);
        values.push(scratch.wcet?.cycles);
    }
    Some((main, values))
}

/// The shared loop bounds ([`shared_loops`]) of a SASS warp-level CFG: loops of the
/// thread-level block graph, bounds by header address.
fn sass_shared_bounds(sass: &Sass, warp: &cfg::WarpCfg, lb: &LoopBounds) -> Vec<ipet::SharedBound> {
    let g = &sass.graph;
    let thread = ipet::Cfg {
        costs: vec![0; g.blocks.len()],
        edges: g
            .edges()
            .iter()
            .filter(|e| !matches!(e.2, isa::EdgeKind::Call | isa::EdgeKind::Return))
            .map(|&(from, to, _)| (from, to))
            .collect(),
        entry: 0,
        exits: Vec::new(),
    };
    let halts_into = |l: &ipet::Loop| {
        let inside = |b: usize| l.body.binary_search(&b).is_ok();
        g.edges().iter().any(|&(from, to, kind)| {
            !matches!(kind, isa::EdgeKind::Fallthrough | isa::EdgeKind::Taken)
                && !inside(from)
                && inside(to)
        })
    };
    shared_loops::shared_bounds(
        &thread,
        warp,
        |h| {
            let address = sass.kernel.instructions[g.blocks[h].first].address;
            lb.per_address.get(&address).copied().or(lb.default)
        },
        halts_into,
    )
}
