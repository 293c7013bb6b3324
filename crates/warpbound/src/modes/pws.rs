//! The `pws` mode: predictable wavefront splitting (Klashtorny et al., crate `pws`) on a GCN3
//! kernel or on a graph in the public split-point solver's CSV format.
//!
//! `wcet.cycles` is the PWS kernel bound `E_kernel` (Lemma 5.5) for the chosen split set; the
//! `pws` object carries `E_WF` and `E_kernel` for no splitting, DWS and PWS, the marked,
//! Select and optimal split sets, the pruned edges and the Fig. 9b dispatch timeline, whose
//! PWS version is the report's schedule.

use crate::catalog::{ParamInfo, PresetInfo};
use crate::params::Params;
use crate::report::{
    CfgEdge, CfgNode, InstructionView, KernelView, Report, ScheduleItem, ScheduleView, Wcet,
};
use crate::request::Request;
use crate::views::draw;
use isa::gcn::GcnFunction;
use isa::{Diagnostic, Dialect, Limits, ResourceClass, Severity};
use std::collections::{BTreeMap, BTreeSet};

/// Parameters of the mode. Hardware defaults: the `gem5-gcn3` preset.
pub fn params() -> Vec<ParamInfo> {
    let h = pws::Hardware::gem5_gcn3();
    let launch = pws::Launch::default();
    let b = pws::Budget::default();
    let hw = |name: &str, meaning: &str, unit: &str, min: f64, max: f64, default: u64| {
        ParamInfo::number(name, meaning, unit, min, max, default as f64).in_group("hardware")
    };
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
            "loops are unrolled before Select/Prune: iterations of loops without their own bound (loop_bounds keyed by header label); 0 = every loop needs one",
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
        hw("n_cu", "N_CU: compute units", "CUs", 1.0, 1e4, h.n_cu),
        hw("n_simd", "N_SIMD: SIMD units per CU", "SIMDs", 1.0, 1e3, h.n_simd),
        hw("n_wfc", "N_WFC: wavefront contexts per SIMD", "contexts", 1.0, 1e3, h.n_wfc),
        hw("n_wiwf", "N_WIWF: work-items per wavefront", "work-items", 1.0, 1e4, h.n_wiwf),
        hw("d", "d: worst-case wavefront initialisation delay", "cycles", 0.0, 1e9, h.d),
        hw("e_s", "e_s: worst-case delay of one split", "cycles", 0.0, 1e9, h.e_s),
        hw("e_m", "e_m: worst-case delay of one merge", "cycles", 0.0, 1e9, h.e_m),
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
    ];
    v.push(ParamInfo::flag(
        "simulate",
        "also run the simulator on the GCN3 kernel (gem5's SIMD for cost=latency, one cycle per instruction for cost=unit) and show observed vs E_WF for one wavefront",
        false,
    ));
    v.push(
        ParamInfo::choice(
            "sim_splitting",
            "splitting in the simulator: none, DWS (split at every divergent branch while a context is free) or PWS (split at the kernel's `split` instructions); S, e_s and e_m as above",
            &["none", "dws", "pws"],
            "none",
        )
        .in_group("simulation"),
    );
    v.extend(crate::sim_mode::launch_params().into_iter().map(|mut x| {
        if x.name == "block" {
            x.default = serde_json::json!("64,1,1");
            x.meaning = "block dimensions X,Y,Z (work-items; 64 = one wavefront)".into();
        } else if x.name == "params" {
            x.meaning = "kernel arguments as 32-bit words from the kernarg segment's start (a 64-bit pointer is two words, low first)".into();
        }
        x
    }));
    v
}

/// The crate's hardware presets, as parameter values.
pub fn presets() -> Vec<PresetInfo> {
    pws::presets()
        .into_iter()
        .map(|p| {
            let h = p.hardware;
            PresetInfo {
                name: p.name.into(),
                source: p.source.into(),
                values: BTreeMap::from([
                    ("n_cu".to_string(), serde_json::json!(h.n_cu)),
                    ("n_simd".to_string(), serde_json::json!(h.n_simd)),
                    ("n_wfc".to_string(), serde_json::json!(h.n_wfc)),
                    ("n_wiwf".to_string(), serde_json::json!(h.n_wiwf)),
                    ("S".to_string(), serde_json::json!(h.s)),
                    ("d".to_string(), serde_json::json!(h.d)),
                    ("e_s".to_string(), serde_json::json!(h.e_s)),
                    ("e_m".to_string(), serde_json::json!(h.e_m)),
                ]),
            }
        })
        .collect()
}

fn hardware(p: &Params) -> pws::Hardware {
    let n = |k: &str| p.get_usize(k) as u64;
    pws::Hardware {
        n_cu: n("n_cu"),
        n_simd: n("n_simd"),
        n_wfc: n("n_wfc"),
        n_wiwf: n("n_wiwf"),
        s: u32::try_from(p.get_usize("S")).unwrap_or(u32::MAX),
        d: n("d"),
        e_s: n("e_s"),
        e_m: n("e_m"),
    }
}

fn budget(p: &Params) -> pws::Budget {
    pws::Budget {
        max_unrolled_nodes: p.get_usize("max_unrolled_nodes"),
        max_tree_items: p.get_usize("max_tree_items"),
        max_nesting: p.get_usize("max_nesting"),
        max_pareto_points: p.get_usize("max_pareto_points"),
        max_timeline_intervals: p.get_usize("max_timeline_intervals"),
    }
}

/// The instruction table of a GCN function.
pub(crate) fn kernel_view(
    f: &GcnFunction,
    functions: Vec<String>,
    target: Option<String>,
) -> KernelView {
    let instructions = f
        .instructions
        .iter()
        .enumerate()
        .map(|(index, ins)| InstructionView {
            index,
            address: index as u64,
            line: ins.span.line,
            column: ins.span.column,
            text: ins.text.clone(),
            guard: None,
            opcode: ins.opcode.clone(),
            operands: ins
                .text
                .split_once(char::is_whitespace)
                .map(|(_, rest)| rest.split(',').map(|o| o.trim().to_string()).collect())
                .unwrap_or_default(),
            reads: ins.reads.iter().map(|r| format!("{r:?}")).collect(),
            writes: ins.writes.iter().map(|r| format!("{r:?}")).collect(),
            control: format!("{:?}", ins.exec_effect).to_lowercase(),
            target: None,
            class: match ins.unit {
                isa::gcn::GcnUnit::VectorMemory => ResourceClass::LoadStoreGlobal,
                isa::gcn::GcnUnit::Lds => ResourceClass::LoadStoreShared,
                isa::gcn::GcnUnit::ScalarMemory => ResourceClass::Constant,
                isa::gcn::GcnUnit::Branch | isa::gcn::GcnUnit::Waitcnt => ResourceClass::Control,
                _ => ResourceClass::Alu,
            },
            block: None,
        })
        .collect();
    KernelView {
        function: f.name.clone(),
        functions,
        arch: target,
        instructions,
    }
}

/// Runs the mode on the request's GCN text or solver CSV.
pub fn run(request: &Request, limits: &Limits, p: &Params, report: &mut Report) {
    let (dialect, source, function) = (
        request.dialect,
        request.source.as_str(),
        request.function.as_deref(),
    );
    let (loop_bounds, memory) = (&request.loop_bounds, request.memory.as_ref());
    let b = budget(p);
    let (graph, view) = match dialect {
        Dialect::PwsCsv => match pws::read_csv(source, b.max_unrolled_nodes) {
            Ok(g) => (g, None),
            Err(e) => {
                report.diagnostics.push(e.diagnostic);
                return;
            }
        },
        _ => {
            let program = isa::gcn::parse(source, limits);
            let failed = program.has_errors();
            report
                .diagnostics
                .extend(program.diagnostics.iter().cloned());
            let Some((f, names)) = pick_function(&program, function, failed, report) else {
                return;
            };
            let view = kernel_view(f, names, program.target.clone());
            if failed {
                report.kernel = Some(view);
                return;
            }
            let cost = match p.choice("cost") {
                "unit" => pws::CostModel::Unit,
                "per-block" => {
                    match pws::parse_block_costs(&p.text("block_costs").replace(';', "\n")) {
                        Ok(costs) => pws::CostModel::PerBlock { costs },
                        Err(e) => {
                            report.diagnostics.push(Diagnostic::global(
                                Severity::Error,
                                format!("parameter `block_costs`: {}", e.diagnostic.message),
                            ));
                            report.kernel = Some(view);
                            return;
                        }
                    }
                }
                _ => pws::CostModel::default(),
            };
            let default_bound = p.get_usize("default_loop_bound") as u64;
            let opts = pws::GcnGraphOptions {
                cost,
                loop_bounds: pws::LoopBounds {
                    per_header: loop_bounds.clone(),
                    default: (default_bound > 0).then_some(default_bound),
                },
            };
            match pws::build_from_gcn_program(&program, f, &opts, &b) {
                Ok(g) => {
                    report.diagnostics.extend(g.warnings);
                    (g.cfg, Some(view))
                }
                Err(e) => {
                    report.diagnostics.push(e.diagnostic);
                    report.kernel = Some(view);
                    return;
                }
            }
        }
    };
    let marked = match p.numbers("marks", 0, usize::MAX) {
        Ok(v) => v.into_iter().map(|x| x as usize).collect(),
        Err(d) => {
            report.diagnostics.push(d);
            report.kernel = view;
            return;
        }
    };
    let options = pws::Options {
        mode: match p.choice("split") {
            "none" => pws::SplitMode::None,
            "marked" => pws::SplitMode::Marked,
            _ => pws::SplitMode::Optimal,
        },
        launch: pws::Launch {
            workgroups: p.get_usize("workgroups") as u64,
            work_items_per_group: p.get_usize("work_items_per_group") as u64,
        },
        marked,
        budget: b,
    };
    let result = match pws::analyze(&graph, &hardware(p), &options) {
        Ok(r) => r,
        Err(e) => {
            report.diagnostics.push(e.diagnostic);
            report.kernel = view;
            return;
        }
    };
    report.diagnostics.extend(result.warnings.iter().cloned());
    report.wcet = Some(Wcet {
        cycles: result.e_kernel.pws,
        cost_model: format!(
            "E_kernel with PWS (Lemma 5.5), {} block costs",
            if dialect == Dialect::PwsCsv {
                "imported"
            } else {
                p.choice("cost")
            }
        ),
    });
    report.cfg = Some(cfg_view(&result, view.as_ref()));
    report.schedule = Some(schedule_view(&result.timeline.pws));
    report.kernel = view;
    if p.flag("simulate") {
        if dialect == Dialect::Gcn {
            simulate(source, function, limits, p, &result, memory, report);
        } else {
            report.diagnostics.push(Diagnostic::global(
                Severity::Warning,
                "simulate: a CSV graph has no instructions to run; write the kernel in GCN3 to simulate it",
            ));
        }
    }
    report.pws = Some(result);
}

/// `simulate=true`: runs the GCN3 kernel with the machine that matches the block costs
/// (gem5's SIMD for `cost=latency`, one cycle per instruction on 64 lanes for `cost=unit`)
/// and the chosen splitting, and checks it against `E_WF` of the same model when the launch
/// is a single wavefront (the bound is per wavefront). The PWS bound is only comparable when
/// the split points are the kernel's own `split` instructions (`split=marked`, no extra
/// marks), the ones the simulator follows.
fn simulate(
    source: &str,
    function: Option<&str>,
    limits: &Limits,
    p: &Params,
    r: &pws::PwsResult,
    memory: Option<&sim::MemoryInit>,
    report: &mut Report,
) {
    let hw = hardware(p);
    let costs = sim::SplitCosts {
        s: hw.s,
        e_s: hw.e_s,
        e_m: hw.e_m,
    };
    let own_marks = p.choice("split") == "marked" && p.text("marks").trim().is_empty();
    let (splitting, bound) = match p.choice("sim_splitting") {
        "dws" => (
            sim::Splitting::Dws(costs),
            Some((r.e_wf.dws, "E_WF with DWS")),
        ),
        "pws" => (
            sim::Splitting::Pws(costs),
            own_marks.then_some((r.e_wf.pws, "E_WF with PWS")),
        ),
        _ => (
            sim::Splitting::None,
            Some((r.e_wf.no_split, "E_WF without splitting")),
        ),
    };
    let mut machine = if p.choice("cost") == "unit" {
        let unit = crate::sim_mode::preset_machine("unit-cost");
        sim::Machine {
            warp_size: 64,
            cores: 64,
            ls_units: 64,
            sfu_units: 64,
            ..unit
        }
    } else {
        crate::sim_mode::preset_machine("gcn3")
    };
    machine.splitting = splitting;
    let text = crate::sim_mode::KernelText {
        dialect: Dialect::Gcn,
        source,
        function,
    };
    if let Some(s) = crate::sim_mode::simulate_text(&text, limits, p, &machine, memory, report) {
        match bound {
            Some(_) if s.warps.len() != 1 => crate::sim_mode::attach(
                report,
                &s,
                None,
                "E_WF bounds one wavefront; this launch has several",
            ),
            Some((c, what)) => {
                crate::sim_mode::attach(report, &s, Some(c), &format!("{what} (one wavefront)"))
            }
            None => crate::sim_mode::attach(
                report,
                &s,
                None,
                "E_WF with PWS assumes the chosen split points; the simulator splits at the kernel's own `split` instructions (use split=marked without extra marks)",
            ),
        }
    }
}

/// Instruction indices `first..=last` of the instructions on `lines`.
fn instruction_range(view: Option<&KernelView>, lines: Option<pws::LineRange>) -> (usize, usize) {
    let (Some(v), Some(l)) = (view, lines) else {
        return (0, 0);
    };
    let inside: Vec<usize> = v
        .instructions
        .iter()
        .filter(|i| (l.first..=l.last).contains(&i.line))
        .map(|i| i.index)
        .collect();
    (
        inside.first().copied().unwrap_or(0),
        inside.last().copied().unwrap_or(0),
    )
}

fn cfg_view(r: &pws::PwsResult, view: Option<&KernelView>) -> crate::report::CfgView {
    let pruned: BTreeSet<(usize, usize)> = r.pruned_edges.iter().copied().collect();
    let nodes: Vec<CfgNode> = r
        .nodes
        .iter()
        .map(|n| {
            let role = match n.kind {
                pws::NodeKind::Branch if n.splittable => "branch",
                pws::NodeKind::Branch => "branch-fixed",
                pws::NodeKind::Bsb => "bsb",
                pws::NodeKind::Reconv => "reconv",
                pws::NodeKind::Plain => "",
            };
            let mut label = vec![format!("n{} {}", n.id, n.label)];
            let mut what = match n.kind {
                pws::NodeKind::Branch => "divergent branch".to_string(),
                pws::NodeKind::Bsb => "BSB".to_string(),
                pws::NodeKind::Reconv => "reconvergence".to_string(),
                pws::NodeKind::Plain => "block".to_string(),
            };
            if n.reconv && n.kind != pws::NodeKind::Reconv {
                what.push_str(" + reconv");
            }
            label.push(format!("{what} · e_bb {}", n.cost));
            if n.split {
                label.push("split here".into());
            } else if n.marked {
                label.push("marked".into());
            }
            let (first, last) = instruction_range(view, n.lines);
            CfgNode {
                id: n.id,
                kind: "block".into(),
                block: Some(n.id),
                context: String::new(),
                cost: Some(n.cost),
                count: None,
                start: n.id as u64,
                end: n.id as u64,
                instructions: last + 1 - first.min(last),
                first,
                last,
                line_start: n.lines.map_or(0, |l| l.first),
                line_end: n.lines.map_or(0, |l| l.last),
                reachable: true,
                label,
                role: format!(
                    "{role}{}",
                    if n.split {
                        " split"
                    } else if n.marked {
                        " marked"
                    } else {
                        ""
                    }
                )
                .trim()
                .to_string(),
            }
        })
        .collect();
    let edges = r
        .nodes
        .iter()
        .flat_map(|n| {
            let pruned = &pruned;
            n.successors.iter().map(move |&s| CfgEdge {
                from: n.id,
                to: s,
                kind: if pruned.contains(&(n.id, s)) {
                    "pruned".into()
                } else {
                    "flow".into()
                },
                count: None,
            })
        })
        .collect();
    draw("wavefront", nodes, edges)
}

fn schedule_view(t: &pws::Timeline) -> ScheduleView {
    const KINDS: [&str; 5] = [
        "initialisation d",
        "wavefront",
        "split wavefront",
        "serialised (DWS)",
        "split + merge",
    ];
    let items = t
        .intervals
        .iter()
        .map(|iv| ScheduleItem {
            lane: iv.lane,
            start: iv.start,
            length: iv.end.saturating_sub(iv.start),
            group: match iv.kind {
                pws::IntervalKind::Init => 0,
                pws::IntervalKind::Wavefront => 1,
                pws::IntervalKind::SplitWavefront => 2,
                pws::IntervalKind::Serialized => 3,
                pws::IntervalKind::SplitMerge => 4,
            },
            label: iv.label.clone(),
        })
        .collect();
    ScheduleView {
        cycles: t.end,
        lanes: t.lanes.clone(),
        items,
        group_name: "activity".into(),
        group_labels: KINDS.iter().map(|s| s.to_string()).collect(),
    }
}

/// The GCN3 function a request names (`function`), else the first one, together with the
/// names of all (the page's function selector). When there is none, says so as an error —
/// unless the text already failed to parse (`failed`) — and gives `None`. Shared by every
/// mode that reads GCN3.
pub(crate) fn pick_function<'a>(
    program: &'a isa::gcn::GcnProgram,
    function: Option<&str>,
    failed: bool,
    report: &mut Report,
) -> Option<(&'a isa::gcn::GcnFunction, Vec<String>)> {
    let names: Vec<String> = program.functions.iter().map(|f| f.name.clone()).collect();
    match program.function(function) {
        Some(f) => Some((f, names)),
        None => {
            if !failed {
                report.diagnostics.push(Diagnostic::global(
                    Severity::Error,
                    match function {
                        Some(n) => format!("no function `{n}` (found: {})", names.join(", ")),
                        None => "no function found in the text".to_string(),
                    },
                ));
            }
            None
        }
    }
}
