//! The `warp-cfg` mode: the warp-level CFG by abstract interpretation (crate `cfg`), then
//! IPET (crate `ipet`) for a WCET bound, as in Jeanmougin et al. §4.1. With `simulate=true`
//! the simulator runs the kernel in the analysis's own setting (one warp in isolation, the
//! cost model's latencies) and the report says whether the bound holds for that run.

use crate::catalog::{ModeInfo, ParamInfo, PresetInfo};
use crate::kernel_text::{self, Sass};
use crate::mode::{Mode, ModeDetails, ModeInput, ModeOutput};
use crate::params::limits::{self, budget};
use crate::params::{LoopBounds, Params};
use crate::report::{CfgEdge, CostTerm, LoopView, SimulationReport, WarpCfgDetails, Wcet};
use crate::simulator::{self, SimRequest, SimRun};
use crate::views::graph::{block_node, draw, exit_node};
use cfg::{Tag, TimingClass, WarpEdgeKind};
use isa::{BlockGraph, Diagnostic, Kernel, Severity};
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
    let d = cfg::Options::default();
    let b = ipet::Budget::default();
    let mut params = vec![
        ParamInfo::number(
            "default_loop_bound",
            "bound for loops not listed in loop_bounds: the header runs at most N times per \
             entry into the loop (0: every loop needs its own bound); 10 as in §4.1",
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
    ModeInfo {
        name: String::new(),
        aliases: Vec::new(),
        title: "Warp-level CFG and WCET (Jeanmougin et al.)".into(),
        description: "Builds the warp-level control-flow graph by abstract interpretation \
                      of the SIMT activation stack (stack graph, thread groups, agreement), \
                      with an edge wherever thread divergence can take the warp, then bounds \
                      the WCET by IPET (ILP solved with branch and bound)."
            .into(),
        dialects: vec!["sass".into()],
        params,
        presets: presets(),
        default_presets: BTreeMap::new(),
    }
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
fn presets() -> Vec<PresetInfo> {
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
enum Cost {
    /// §4.1: every instruction one cycle.
    Unit,
    /// In-order issue with these latencies, drained at block ends (`cfg::latency`).
    Latency(cfg::LatencyTable),
}

impl Cost {
    fn name(&self) -> &'static str {
        match self {
            Cost::Unit => "unit",
            Cost::Latency(_) => "latency",
        }
    }
}

/// The mode's parameters, decoded once.
struct WarpCfgParams {
    loop_bounds: LoopBounds,
    cost: Cost,
    analysis: cfg::Options,
    budget: ipet::Budget,
    simulate: SimRequest,
}

impl WarpCfgParams {
    fn decode(input: &ModeInput) -> Result<Self, Diagnostic> {
        let p = input.params;
        let table = latency_table(p)?;
        let cost = match p.text("cost")? {
            "latency" => Cost::Latency(table),
            _ => Cost::Unit,
        };
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
            simulate: SimRequest::decode(p, input.request.memory.as_ref(), SimRun::decode)?,
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
    let Some(sass) = kernel_text::sass(input, &mut out) else {
        return out;
    };
    let t = Instant::now();
    bound(&sass, &p, &mut out);
    out.time("warp_cfg+ipet", t);
    if let Some(run) = p.simulate.run(&mut out.diagnostics) {
        let t = Instant::now();
        simulate(&sass.kernel, run, &p.cost, &mut out);
        out.time("simulate", t);
    }
    out
}

/// Runs the kernel in the analysis's own setting: one warp in isolation, in-order issue with
/// the cost model's latencies (all 1 for cost=unit), no contention — so for a launch of one
/// warp the observed time can never exceed the bound.
fn simulate(kernel: &Kernel, run: &SimRun, cost: &Cost, out: &mut ModeOutput) {
    let Some(mut machine) = simulator::preset_machine(Some("unit-cost")) else {
        return;
    };
    machine.latency = match cost {
        Cost::Latency(table) => table.clone(),
        Cost::Unit => cfg::LatencyTable::unit(),
    };
    machine.transaction_cycles = 0;
    let sim = match simulator::run_kernel(kernel, run, &machine) {
        Ok(s) => s,
        Err(d) => {
            out.diagnostics.extend(d);
            return;
        }
    };
    let bound = out.wcet.as_ref().map(|w| w.cycles);
    out.simulation = Some(match (bound, sim.warps.len()) {
        (Some(b), 1) => SimulationReport::against(
            sim,
            Some(b),
            "the warp-cfg bound: one warp in isolation, the cost model's latencies",
        ),
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
    }
}

/// Nodes reachable from the entry from which the exit is unreachable, in id order.
fn never_finishing(warp: &cfg::WarpCfg) -> Vec<usize> {
    let n = warp.nodes.len();
    let mut succ = vec![Vec::new(); n];
    let mut pred = vec![Vec::new(); n];
    for e in &warp.edges {
        succ[e.from].push(e.to);
        pred[e.to].push(e.from);
    }
    let reach = |start: usize, adj: &[Vec<usize>]| {
        let mut seen = vec![false; n];
        let mut stack = vec![start];
        seen[start] = true;
        while let Some(v) = stack.pop() {
            for &w in &adj[v] {
                if !seen[w] {
                    seen[w] = true;
                    stack.push(w);
                }
            }
        }
        seen
    };
    let fwd = reach(warp.entry, &succ);
    let bwd = reach(warp.exit, &pred);
    (0..n).filter(|&v| fwd[v] && !bwd[v]).collect()
}

/// Builds the warp-level CFG and bounds it: `out.graph`, `out.wcet` and the details.
fn bound(sass: &Sass, p: &WarpCfgParams, out: &mut ModeOutput) {
    let (kernel, graph) = (&sass.kernel, &sass.graph);
    let warp = match cfg::build(kernel, graph, &p.analysis) {
        Ok(w) => w,
        Err(d) => {
            out.diagnostics.push(d);
            return;
        }
    };
    let costs: Vec<u64> = warp
        .nodes
        .iter()
        .map(|n| n.block.map_or(0, |b| block_cost(kernel, graph, b, &p.cost)))
        .collect();
    let ipet_cfg = ipet::Cfg {
        costs: costs.clone(),
        edges: warp.edges.iter().map(|e| (e.from, e.to)).collect(),
        entry: warp.entry,
        exits: vec![warp.exit],
    };
    // SASS has no labels: a loop is named by its header's address.
    for key in p.loop_bounds.per_label.keys() {
        out.diagnostics.push(Diagnostic::global(
            Severity::Error,
            format!("loop bound key `{key}` is not an address (write 0x18 or 24)"),
        ));
    }
    let address_of = |node: usize| -> Option<u64> {
        warp.nodes[node]
            .block
            .map(|b| kernel.instructions[graph.blocks[b].first].address)
    };
    let headers: Vec<usize> = ipet::find_loops(&ipet_cfg)
        .iter()
        .flat_map(|l| l.entry_nodes.clone())
        .collect();
    for &a in p.loop_bounds.per_address.keys() {
        if !headers.iter().any(|&h| address_of(h) == Some(a)) {
            out.diagnostics.push(Diagnostic::global(
                Severity::Warning,
                format!("loop bound for {a:#06x}: no loop header at that address"),
            ));
        }
    }
    // Bounds by address apply to every context of the header block.
    let per_header: BTreeMap<usize, u64> = headers
        .iter()
        .filter_map(|&h| {
            address_of(h)
                .and_then(|a| p.loop_bounds.per_address.get(&a))
                .map(|&n| (h, n))
        })
        .collect();
    let bounds = ipet::LoopBounds {
        per_header: per_header.clone(),
        default: p.loop_bounds.default,
    };
    let stuck = never_finishing(&warp);
    let solution = if let Some(&first) = stuck.first() {
        // IPET only counts executions that reach an exit; a warp that can enter code from
        // which no exit is reachable has no finite WCET, so no bound is given.
        let b = warp.nodes[first].block.unwrap_or(0);
        let ins = &kernel.instructions[graph.blocks[b].first];
        out.diagnostics.push(Diagnostic::error(
            ins.span,
            format!(
                "the warp can loop forever: from {:#06x} no path reaches EXIT ({} of {} warp-CFG nodes), so there is no WCET bound",
                ins.address,
                stuck.len(),
                warp.nodes.len() - 1
            ),
        ));
        Err(None)
    } else {
        ipet::solve(&ipet_cfg, &bounds, &p.budget).map_err(Some)
    };
    let mut nodes: Vec<_> = warp
        .nodes
        .iter()
        .map(|n| match n.block {
            Some(b) => {
                let mut v = block_node(kernel, graph, n.id, b, context(kernel, &n.stack));
                v.cost = Some(costs[n.id]);
                v
            }
            None => exit_node(n.id),
        })
        .collect();
    let mut edges: Vec<CfgEdge> = warp
        .edges
        .iter()
        .map(|e| CfgEdge {
            from: e.from,
            to: e.to,
            kind: e.kind.name().into(),
            count: None,
        })
        .collect();
    let a = &p.analysis;
    let components = BTreeMap::from([
        ("agreement".to_string(), a.agreement),
        ("pending_agreement".to_string(), a.pending_agreement),
        ("groups".to_string(), a.groups),
        ("cyclic_stacks".to_string(), a.cyclic_stacks),
    ]);
    let mut details = WarpCfgDetails {
        states: warp.nodes.len() - 1,
        divergence_edges: warp.count(WarpEdgeKind::Divergence),
        loops: Vec::new(),
        breakdown: Vec::new(),
        components,
        ilp_variables: 0,
        ilp_constraints: 0,
        branch_and_bound_nodes: 0,
        lp_bound: 0.0,
    };
    match solution {
        Ok(s) => {
            for (n, c) in s.node_counts.iter().enumerate() {
                nodes[n].count = Some(*c);
                if nodes[n].kind == "block" {
                    nodes[n]
                        .label
                        .push(format!("cost {} × {} = {}", costs[n], c, costs[n] * c));
                }
            }
            for (e, c) in s.edge_counts.iter().enumerate() {
                edges[e].count = Some(*c);
            }
            if !s.integral {
                out.diagnostics.push(Diagnostic::global(
                    Severity::Warning,
                    format!(
                        "branch and bound stopped at its budget (max_bb_nodes): the bound is the LP optimum {:.1}, rounded down to an integer",
                        s.lp_bound
                    ),
                ));
            }
            out.wcet = Some(Wcet {
                cycles: s.safe_bound(),
                cost_model: p.cost.name().to_string(),
            });
            details.loops = s
                .loops
                .iter()
                .map(|l| LoopView {
                    header: l.header,
                    address: address_of(l.header).unwrap_or(0),
                    line: warp.nodes[l.header]
                        .block
                        .map_or(0, |b| kernel.instructions[graph.blocks[b].first].span.line),
                    bound: l.bound.unwrap_or(0),
                    bound_from: if l.entry_nodes.iter().any(|h| per_header.contains_key(h)) {
                        "request".into()
                    } else {
                        "default".into()
                    },
                    irreducible: l.irreducible,
                    depth: l.depth,
                    nodes: l.body.clone(),
                })
                .collect();
            for l in s.loops.iter().filter(|l| l.irreducible) {
                out.diagnostics.push(Diagnostic::global(
                    Severity::Warning,
                    format!(
                        "irreducible loop entered at {}: bounded as a region (its entries run at most N times per entry)",
                        l.entry_nodes
                            .iter()
                            .filter_map(|&h| address_of(h))
                            .map(|a| format!("{a:#06x}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
            let mut terms: Vec<CostTerm> = s
                .node_counts
                .iter()
                .enumerate()
                .filter(|(n, c)| **c > 0 && costs[*n] > 0)
                .map(|(n, &count)| CostTerm {
                    node: n,
                    address: address_of(n).unwrap_or(0),
                    count,
                    cost: costs[n],
                    total: count * costs[n],
                })
                .collect();
            terms.sort_by_key(|t| (std::cmp::Reverse(t.total), t.node));
            details.breakdown = terms;
            details.ilp_variables = s.variables;
            details.ilp_constraints = s.constraints;
            details.branch_and_bound_nodes = s.bb_nodes;
            details.lp_bound = s.lp_bound;
        }
        Err(None) => {}
        Err(Some(e)) => out.diagnostics.push(Diagnostic::global(
            Severity::Error,
            ipet_message(&e, address_of),
        )),
    }
    out.graph = Some(draw("warp", nodes, edges));
    out.details = ModeDetails::WarpCfg(Box::new(details));
}

/// What went wrong in IPET, in the request's terms (its parameter names, loop addresses).
fn ipet_message(e: &ipet::Error, address_of: impl Fn(usize) -> Option<u64>) -> String {
    match e {
        ipet::Error::NoBound { header } => {
            let a = address_of(*header).unwrap_or(0);
            format!(
                "the loop at {a:#06x} has no bound: give one (loop_bounds / --loop-bound {a:#x}=N) or a default_loop_bound"
            )
        }
        ipet::Error::Budget {
            what,
            limit,
            needed,
        } => {
            // The request's parameter names, not the ipet crate's field names.
            let param = match *what {
                "max_variables" => "max_ilp_variables",
                "max_constraints" => "max_ilp_constraints",
                other => other,
            };
            format!(
                "IPET: the ILP needs {needed} but the budget {param} is {limit} (raise {param})"
            )
        }
        other => format!("IPET: {other}"),
    }
}
