//! The `pws` mode: predictable wavefront splitting (Klashtorny et al., crate `pws`) on a GCN3
//! kernel or on a graph in the public split-point solver's CSV format.
//!
//! `wcet.cycles` is the PWS kernel bound `E_kernel` (Lemma 5.5) for the chosen split set; the
//! `pws` object carries `E_WF` and `E_kernel` for no splitting, DWS and PWS, the marked,
//! Select and optimal split sets, the pruned edges and the Fig. 9b dispatch timeline, whose
//! PWS version is the report's schedule.

use crate::catalog::{ModeInfo, ParamInfo, PresetInfo};
use crate::kernel_text;
use crate::mode::{Mode, ModeDetails, ModeInput, ModeOutput};
use crate::observed_loops::ObservedLoop;
use crate::params::loop_bounds::LoopKey;
use crate::params::{limits, LoopBounds, Params};
use crate::report::{KernelView, SimulationReport, Wcet};
use crate::simulator::{self, KernelText, SimRequest, SimRun};
use crate::views;
use isa::{Diagnostic, Dialect, Severity};
use std::collections::BTreeMap;

/// The mode.
pub const MODE: Mode = Mode {
    name: "pws",
    aliases: &[],
    describe,
    run,
};

/// The hardware fields as `(parameter, meaning, minimum, maximum, value)`; `S` is separate
/// (ungrouped: the parameter users change most).
fn hardware_fields(h: &pws::Hardware) -> [(&'static str, &'static str, f64, f64, u64); 7] {
    [
        ("n_cu", "N_CU: compute units", 1.0, 1e4, h.n_cu),
        ("n_simd", "N_SIMD: SIMD units per CU", 1.0, 1e3, h.n_simd),
        (
            "n_wfc",
            "N_WFC: wavefront contexts per SIMD",
            1.0,
            1e3,
            h.n_wfc,
        ),
        (
            "n_wiwf",
            "N_WIWF: work-items per wavefront",
            1.0,
            1e4,
            h.n_wiwf,
        ),
        (
            "d",
            "d: worst-case wavefront initialisation delay",
            0.0,
            1e9,
            h.d,
        ),
        ("e_s", "e_s: worst-case delay of one split", 0.0, 1e9, h.e_s),
        ("e_m", "e_m: worst-case delay of one merge", 0.0, 1e9, h.e_m),
    ]
}

/// Parameters of the mode. Hardware defaults: the `gem5-gcn3` preset.
fn describe() -> ModeInfo {
    let h = pws::Hardware::gem5_gcn3();
    let launch = pws::Launch::default();
    let b = pws::Budget::default();
    let budget = |name: &str, meaning: &str, default: usize| {
        ParamInfo::number(name, meaning, "", 1.0, 1e9, default as f64).in_group("budgets")
    };
    let mut v = vec![
        ParamInfo::choice(
            "split",
            "split points: none; marked = the programmer's marks filtered by Select (Alg. 1, the paper's method); optimal = the set minimising E_WF within S contexts",
            &["none", "marked", "optimal"],
            "optimal",
        ),
        ParamInfo::number(
            "S",
            "SpSIMD units (split-wavefront contexts) per wavefront",
            "contexts",
            0.0,
            64.0,
            f64::from(h.s),
        ),
        ParamInfo::text(
            "marks",
            "node ids marked for splitting besides `split` instructions (comma-separated; click branch nodes in the graph)",
            "",
        ),
        ParamInfo::choice(
            "cost",
            "block costs (GCN input): latency = gem5 GCN3 per-instruction latencies, unit = one per instruction, per-block = the block_costs table",
            &["latency", "unit", "per-block"],
            "latency",
        ),
        ParamInfo::text(
            "block_costs",
            "cost=per-block: `label,cost` pairs separated by `;` (e.g. BB0_1,120;BB0_2,40)",
            "",
        ),
        ParamInfo::number(
            "default_loop_bound",
            "loops are unrolled before Select/Prune: iterations of loops neither the code (scalar counters, inferred for the launch) nor loop_bounds (keyed by header label) bounds, each reported as an assumption; 0 = every such loop needs one",
            "iterations",
            0.0,
            1e6,
            10.0,
        ),
        ParamInfo::number(
            "workgroups",
            "G: workgroups of the launch",
            "workgroups",
            1.0,
            1e9,
            launch.workgroups as f64,
        ),
        ParamInfo::number(
            "work_items_per_group",
            "N_WIWG: work-items per workgroup",
            "work-items",
            1.0,
            1e6,
            launch.work_items_per_group as f64,
        ),
    ];
    for (name, meaning, min, max, default) in hardware_fields(&h) {
        let unit = match name {
            "n_cu" => "CUs",
            "n_simd" => "SIMDs",
            "n_wfc" => "contexts",
            "n_wiwf" => "work-items",
            _ => "cycles",
        };
        v.push(
            ParamInfo::number(name, meaning, unit, min, max, default as f64).in_group("hardware"),
        );
    }
    v.extend([
        budget(
            "max_unrolled_nodes",
            "most wavefront-CFG nodes after unrolling",
            b.max_unrolled_nodes,
        ),
        budget("max_tree_items", "most branch-tree items", b.max_tree_items),
        budget("max_nesting", "deepest branch nesting followed", b.max_nesting),
        budget(
            "max_pareto_points",
            "most Pareto points of the optimal split selection",
            b.max_pareto_points,
        ),
        budget(
            "max_timeline_intervals",
            "most intervals of a dispatch timeline",
            b.max_timeline_intervals,
        ),
        ParamInfo::flag(
            "simulate",
            "also run the simulator on the GCN3 kernel (gem5's SIMD for cost=latency, one cycle per instruction for cost=unit) and show observed vs E_WF for one wavefront",
            false,
        ),
        ParamInfo::choice(
            "sim_splitting",
            "splitting in the simulator: none, DWS (split at every divergent branch while a context is free) or PWS (split at the kernel's `split` instructions); S, e_s and e_m as above",
            &["none", "dws", "pws"],
            "none",
        )
        .in_group("simulation"),
    ]);
    v.extend(simulator::launch_params().into_iter().map(|mut x| {
        x = crate::shared_allowance::beside_analysis(x);
        if x.name == "block" {
            x.default = serde_json::json!("64,1,1");
            x.meaning = "block dimensions X,Y,Z (work-items; 64 = one wavefront)".into();
        } else if x.name == "params" {
            x.meaning = "kernel arguments as 32-bit words from the kernarg segment's start (a 64-bit pointer is two words, low first)".into();
        }
        x
    }));
    v.extend(limits::params());
    ModeInfo {
        name: String::new(),
        aliases: Vec::new(),
        title: "Predictable wavefront splitting on GCN3 (Klashtorny et al.)".into(),
        description: "Builds the wavefront CFG of a GCN3 kernel (divergent branches, \
                      branch serialization blocks, reconvergence nodes; loops unrolled) \
                      or reads a split-point solver graph, chooses split points (the \
                      programmer's marks through Select, or the optimal set), prunes the \
                      serialized paths (Alg. 2) and bounds the wavefront and kernel WCET \
                      without splitting, with DWS and with PWS (Lemmas 5.1–5.7)."
            .into(),
        dialects: vec!["gcn".into(), "pws-csv".into()],
        params: v,
        presets: presets(),
        default_presets: BTreeMap::new(),
    }
}

/// The crate's hardware presets (`pws::presets`), as parameter values.
fn presets() -> Vec<PresetInfo> {
    pws::presets()
        .into_iter()
        .map(|p| {
            let h = p.hardware;
            let mut values: BTreeMap<String, serde_json::Value> = hardware_fields(&h)
                .into_iter()
                .map(|(name, _, _, _, v)| (name.to_string(), serde_json::json!(v)))
                .collect();
            values.insert("S".to_string(), serde_json::json!(h.s));
            PresetInfo {
                name: p.name.into(),
                source: p.source.into(),
                values,
            }
        })
        .collect()
}

/// The simulator's splitting (`sim_splitting`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum SimSplitting {
    None,
    Dws,
    Pws,
}

/// The mode's parameters, decoded once. Values only some inputs need are kept with their
/// error, which is reported where they are used (a CSV graph has no block costs to read).
struct PwsParams {
    /// The `cost` choice, for the report's cost-model text.
    cost_name: String,
    cost: Result<pws::CostModel, Diagnostic>,
    loop_bounds: LoopBounds,
    hardware: pws::Hardware,
    options: pws::Options,
    marks: Result<Vec<usize>, Diagnostic>,
    /// No marks besides the kernel's own `split` instructions.
    own_marks_only: bool,
    simulate: SimRequest,
    sim_splitting: SimSplitting,
}

impl PwsParams {
    fn decode(input: &ModeInput) -> Result<Self, Diagnostic> {
        let p = input.params;
        let cost_name = p.text("cost")?.to_string();
        let block_costs = p.text("block_costs")?;
        let cost = match cost_name.as_str() {
            "unit" => Ok(pws::CostModel::Unit),
            "per-block" => pws::parse_block_costs(&block_costs.replace(';', "\n"))
                .map(|costs| pws::CostModel::PerBlock { costs })
                .map_err(|e| {
                    Diagnostic::global(
                        Severity::Error,
                        format!("parameter `block_costs`: {}", e.diagnostic.message),
                    )
                }),
            _ => Ok(pws::CostModel::default()),
        };
        let split = p.text("split")?;
        Ok(PwsParams {
            cost,
            loop_bounds: LoopBounds::decode(
                &input.request.loop_bounds,
                p.u64("default_loop_bound")?,
            ),
            hardware: hardware(p)?,
            options: pws::Options {
                mode: match split {
                    "none" => pws::SplitMode::None,
                    "marked" => pws::SplitMode::Marked,
                    _ => pws::SplitMode::Optimal,
                },
                launch: pws::Launch {
                    workgroups: p.u64("workgroups")?,
                    work_items_per_group: p.u64("work_items_per_group")?,
                },
                marked: Vec::new(),
                budget: pws::Budget {
                    max_unrolled_nodes: p.usize("max_unrolled_nodes")?,
                    max_tree_items: p.usize("max_tree_items")?,
                    max_nesting: p.usize("max_nesting")?,
                    max_pareto_points: p.usize("max_pareto_points")?,
                    max_timeline_intervals: p.usize("max_timeline_intervals")?,
                },
            },
            marks: p
                .numbers("marks", 0, usize::MAX)
                .map(|v| v.into_iter().map(|x| x as usize).collect()),
            own_marks_only: split == "marked" && p.text("marks")?.trim().is_empty(),
            simulate: SimRequest::decode(p, input.request.memory.as_ref(), SimRun::decode)?,
            sim_splitting: match p.text("sim_splitting")? {
                "dws" => SimSplitting::Dws,
                "pws" => SimSplitting::Pws,
                _ => SimSplitting::None,
            },
            cost_name,
        })
    }
}

fn hardware(p: &Params) -> Result<pws::Hardware, Diagnostic> {
    Ok(pws::Hardware {
        n_cu: p.u64("n_cu")?,
        n_simd: p.u64("n_simd")?,
        n_wfc: p.u64("n_wfc")?,
        n_wiwf: p.u64("n_wiwf")?,
        s: p.u32("S")?,
        d: p.u64("d")?,
        e_s: p.u64("e_s")?,
        e_m: p.u64("e_m")?,
    })
}

fn run(input: &ModeInput) -> ModeOutput {
    let mut p = match PwsParams::decode(input) {
        Ok(p) => p,
        Err(d) => return ModeOutput::failed([d]),
    };
    let mut out = ModeOutput::default();
    let started = web_time::Instant::now();
    analyse(input, &mut p, &mut out);
    out.time("pws", started);
    out
}

fn analyse(input: &ModeInput, p: &mut PwsParams, out: &mut ModeOutput) {
    let request = input.request;
    // The run first: a loop the default bounds takes its count when the run went further.
    let mut ran = None;
    if let Some(run) = p.simulate.run(&mut out.diagnostics) {
        if request.dialect == Dialect::Gcn {
            let from = out.diagnostics.len();
            ran = simulate(input, p, run, out);
            let used = crate::shared_allowance::used(
                ran.as_ref().map(|r| &r.0),
                &run.budget,
                &out.diagnostics[from..],
            );
            share_budget(&mut p.options.budget, used, out);
        } else {
            out.diagnostics.push(Diagnostic::global(
                Severity::Warning,
                "simulate: a CSV graph has no instructions to run; write the kernel in GCN3 to simulate it",
            ));
        }
    }
    let observed = ran.as_ref().map(|(s, loops)| (s, loops.as_slice()));
    let Some((graph, view)) = wavefront_graph(input, p, observed, out) else {
        return;
    };
    match std::mem::replace(&mut p.marks, Ok(Vec::new())) {
        Ok(marks) => p.options.marked = marks,
        Err(d) => {
            out.diagnostics.push(d);
            out.kernel = view;
            return;
        }
    }
    let result = match pws::analyze_observed(&graph, &p.hardware, &p.options, input.progress) {
        Ok(r) => r,
        Err(e) => {
            out.diagnostics.push(e.diagnostic);
            out.kernel = view;
            return;
        }
    };
    out.diagnostics.extend(result.warnings.iter().cloned());
    out.wcet = Some(Wcet {
        cycles: result.e_kernel.pws,
        cost_model: format!(
            "E_kernel with PWS (Lemma 5.5), {} block costs",
            if request.dialect == Dialect::PwsCsv {
                "imported"
            } else {
                &p.cost_name
            }
        ),
        assumed_loop_bounds: Vec::new(),
    });
    out.graph = Some(views::graph::pws(&result, view.as_ref()));
    out.schedule = Some(views::schedule::dispatch(&result.timeline.pws));
    out.kernel = view;
    if let Some((s, loops)) = ran {
        against_bound(p, s, loops, &result, out);
    }
    out.details = ModeDetails::Pws(Box::new(result));
}

/// After a run that used `used` of its time budgets, the analysis's own time budgets as
/// [`crate::shared_allowance`] shares them.
fn share_budget(b: &mut pws::Budget, used: f64, out: &mut ModeOutput) {
    use crate::shared_allowance::{note, scaled};
    let before = [b.max_unrolled_nodes, b.max_tree_items, b.max_pareto_points];
    b.max_unrolled_nodes = scaled(before[0] as u64, used) as usize;
    b.max_tree_items = scaled(before[1] as u64, used) as usize;
    b.max_pareto_points = scaled(before[2] as u64, used) as usize;
    out.diagnostics.extend(note(
        used,
        &[
            (
                "max_unrolled_nodes",
                before[0] as u64,
                b.max_unrolled_nodes as u64,
            ),
            ("max_tree_items", before[1] as u64, b.max_tree_items as u64),
            (
                "max_pareto_points",
                before[2] as u64,
                b.max_pareto_points as u64,
            ),
        ],
    ));
}

/// The wavefront CFG to analyse: the solver CSV as it is, or the GCN3 kernel's (callees
/// inlined, loops unrolled), with the kernel's instruction table.
fn wavefront_graph(
    input: &ModeInput,
    p: &PwsParams,
    observed: Option<(&sim::Simulation, &[ObservedLoop])>,
    out: &mut ModeOutput,
) -> Option<(pws::WavefrontCfg, Option<KernelView>)> {
    let request = input.request;
    let budget = &p.options.budget;
    if request.dialect == Dialect::PwsCsv {
        return match pws::read_csv(&request.source, budget.max_unrolled_nodes) {
            Ok(g) => Some((g, None)),
            Err(e) => {
                out.diagnostics.push(e.diagnostic);
                None
            }
        };
    }
    let gcn = kernel_text::gcn(
        &request.source,
        request.function.as_deref(),
        &input.limits,
        &mut out.diagnostics,
    )?;
    let view = gcn.view();
    let cost = match (&p.cost, gcn.failed) {
        (Ok(cost), false) => cost.clone(),
        (Err(d), false) => {
            out.diagnostics.push(d.clone());
            out.kernel = Some(view);
            return None;
        }
        (_, true) => {
            out.kernel = Some(view);
            return None;
        }
    };
    // GCN3 loops are named by their header's label; a number names nothing here.
    for a in p.loop_bounds.per_address.keys() {
        out.diagnostics.push(Diagnostic::global(
            Severity::Warning,
            format!("loop bound for {a:#x}: GCN3 loops are named by their header's label (e.g. BB0_7), not by an address"),
        ));
    }
    // Loops the code bounds (scalar counters of the kernel), by the precedence rule.
    let t = web_time::Instant::now();
    let launch = crate::loop_inference::Launch::of(input.params);
    let inference = crate::loop_inference::gcn(gcn.function(), launch.as_ref());
    let mut bounds = p.loop_bounds.clone();
    bounds.apply_inferred(&inference.loops, &mut out.diagnostics);
    if let Some((s, loops)) = observed {
        if crate::loop_inference::same_launch(s, launch.as_ref(), 64) {
            out.diagnostics
                .extend(crate::loop_inference::check_observed(&inference, loops));
        }
    }
    for l in observed.map(|(_, loops)| loops).unwrap_or_default() {
        out.diagnostics.extend(bounds.raise_default(
            LoopKey::Label(l.header.clone()),
            l.iterations,
            isa::Span::new(l.line, 1, 0),
        ));
    }
    out.loop_bounds = crate::loop_inference::rows(&inference, &bounds);
    out.time("loop_bounds", t);
    let opts = pws::GcnGraphOptions {
        cost,
        loop_bounds: pws::LoopBounds {
            per_header: bounds.per_label.clone(),
            default: bounds.default,
        },
    };
    let built = pws::build_from_gcn_program_observed(
        &gcn.program,
        gcn.function(),
        &opts,
        budget,
        input.progress,
    );
    match built {
        Ok(g) => {
            out.diagnostics.extend(g.warnings);
            loop_rows(&g.loops, &inference, &bounds, out);
            for label in p.loop_bounds.per_label.keys() {
                let names_a_loop = g.loops.iter().any(|l| {
                    l.header == *label || l.header.rsplit_once('/').is_some_and(|(_, x)| x == label)
                });
                if !names_a_loop {
                    out.diagnostics.push(Diagnostic::global(
                        Severity::Warning,
                        format!("loop bound for `{label}`: no loop header with that label"),
                    ));
                }
            }
            Some((g.cfg, Some(view)))
        }
        Err(e) => {
            out.diagnostics.push(e.diagnostic);
            out.kernel = Some(view);
            None
        }
    }
}

/// The report's loop table for the unrolled loops (one row per loop of the listing; an
/// inlined callee's loop is named `callee/label`), and a warning at every loop the default
/// bounded.
fn loop_rows(
    unrolled: &[pws::UnrolledLoop],
    inference: &crate::loop_inference::Inference,
    bounds: &LoopBounds,
    out: &mut ModeOutput,
) {
    use crate::params::loop_bounds::{default_warning, BoundFrom, LoopKey};
    use std::collections::{HashMap, HashSet};
    // Maps, not searches: a kernel of 4 600 loops unrolled into many copies made these
    // quadratic.
    let mut warned: HashSet<String> = HashSet::new();
    let mut spans: HashMap<&LoopKey, isa::Span> = HashMap::new();
    for l in &inference.loops {
        if let Some(k) = l.keys.first() {
            spans.entry(k).or_insert(l.span);
        }
    }
    let mut rows: HashMap<String, usize> = out
        .loop_bounds
        .iter()
        .enumerate()
        .map(|(i, r)| (r.header.clone(), i))
        .collect();
    for u in unrolled {
        let label = u.header.split('#').next().unwrap_or(&u.header).to_string();
        if !warned.insert(label.clone()) {
            continue;
        }
        let local = label.rsplit_once('/').map_or(label.as_str(), |(_, l)| l);
        let keys = [LoopKey::Label(label.clone()), LoopKey::Label(local.into())];
        let (from, prov) = bounds.source(&keys);
        let span = spans.get(&keys[0]).copied().unwrap_or_default();
        if from == BoundFrom::Default {
            out.diagnostics.push(default_warning(
                span,
                &label,
                u.bound,
                prov.and_then(|p| p.reason.as_deref()).or(Some(
                    "no bound from the code: a loop of a called function, or one on per-lane \
                     values (the execute mask)",
                )),
            ));
        }
        if let Some(&i) = rows.get(&label) {
            out.loop_bounds[i].bound = Some(u.bound);
            continue;
        }
        rows.insert(label.clone(), out.loop_bounds.len());
        out.loop_bounds.push(crate::report::LoopBoundRow {
            header: label,
            line: span.line,
            bound: Some(u.bound),
            bound_from: from.name().into(),
            reason: prov.and_then(|p| p.reason.clone()),
            inferred: prov.and_then(|p| p.inferred),
            formula: prov.and_then(|p| p.formula.clone()),
        });
    }
}

/// `simulate=true`: runs the GCN3 kernel with the machine that matches the block costs
/// (gem5's SIMD for `cost=latency`, one cycle per instruction on 64 lanes for `cost=unit`)
/// and the chosen splitting, before the analysis (its loop counts may raise default
/// bounds); [`against_bound`] then checks it. `None`: it did not run (the errors say why).
fn simulate(
    input: &ModeInput,
    p: &PwsParams,
    run: &SimRun,
    out: &mut ModeOutput,
) -> Option<(sim::Simulation, Vec<ObservedLoop>)> {
    let hw = &p.hardware;
    let costs = sim::SplitCosts {
        s: hw.s,
        e_s: hw.e_s,
        e_m: hw.e_m,
    };
    let splitting = match p.sim_splitting {
        SimSplitting::Dws => sim::Splitting::Dws(costs),
        SimSplitting::Pws => sim::Splitting::Pws(costs),
        SimSplitting::None => sim::Splitting::None,
    };
    let machine = if p.cost_name == "unit" {
        simulator::preset_machine(Some("unit-cost")).map(|unit| sim::Machine {
            warp_size: 64,
            cores: 64,
            ls_units: 64,
            sfu_units: 64,
            ..unit
        })
    } else {
        simulator::preset_machine(Some("gcn3"))
    };
    let mut machine = machine?;
    machine.splitting = splitting;
    let text = KernelText {
        dialect: Dialect::Gcn,
        source: &input.request.source,
        function: input.request.function.as_deref(),
    };
    let s = simulator::run_text(
        &text,
        &input.limits,
        Ok(run),
        &machine,
        &mut out.diagnostics,
        &mut out.arguments,
        input.progress,
    )?;
    let program = isa::gcn::parse(&input.request.source, &input.limits);
    let loops = program
        .function(input.request.function.as_deref())
        .map(|f| {
            // Checked against the inferred bounds in `wavefront_graph`, which infers them.
            out.diagnostics
                .extend(crate::observed_loops::truncation_warning(&s));
            crate::observed_loops::of_gcn_run(f, &s)
        })
        .unwrap_or_default();
    Some((s, loops))
}

/// Checks run `s` against `E_WF` of the same model when the launch is a single wavefront
/// (the bound is per wavefront). The PWS bound is only comparable when the split points are
/// the kernel's own `split` instructions (`split=marked`, no extra marks), the ones the
/// simulator follows.
fn against_bound(
    p: &PwsParams,
    s: sim::Simulation,
    loops: Vec<ObservedLoop>,
    r: &pws::PwsResult,
    out: &mut ModeOutput,
) {
    let bound = match p.sim_splitting {
        SimSplitting::Dws => Some((r.e_wf.dws, "E_WF with DWS")),
        SimSplitting::Pws => p.own_marks_only.then_some((r.e_wf.pws, "E_WF with PWS")),
        SimSplitting::None => Some((r.e_wf.no_split, "E_WF without splitting")),
    };
    out.simulation = Some(match bound {
        Some(_) if s.warps.len() != 1 => SimulationReport::against(
            s,
            None,
            "E_WF bounds one wavefront; this launch has several",
        ),
        Some((c, what)) => SimulationReport::against(s, Some(c), format!("{what} (one wavefront)")),
        None => SimulationReport::against(
            s,
            None,
            "E_WF with PWS assumes the chosen split points; the simulator splits at the kernel's own `split` instructions (use split=marked without extra marks)",
        ),
    });
    if let Some(r) = &mut out.simulation {
        r.loop_iterations = loops;
    }
}
