//! The `makespan` mode: worst-case makespan of W warps on one SM (Berezovskyi, Bletsas,
//! Andersson, ECRTS 2012) on an L/C string — the paper's "kernel instruction string" (§3).
//!
//! The string is given directly (dialect `lc`, optionally in the paper's configuration-file
//! form, Fig. 4), or reduced from a real kernel — SASS, PTX, GCN3 or Sim-D — along its
//! straight-line path, memory accesses → L and every other instruction → C (see
//! [`crate::lc_reduction`], which also fills the report's instruction-to-letter `mapping`).

use crate::params::Params;
use crate::report::{
    IlpExport, MakespanDetails, MappedInstruction, PlotView, Report, ScheduleItem, ScheduleView,
    Series, Wcet,
};
use isa::lc::{LcOp, LcProgram};
use isa::{Diagnostic, Severity};
use std::collections::BTreeMap;

/// A configuration value: explicit request parameter, else the configuration file, else the
/// preset, else the catalogue default.
fn pick(
    name: &str,
    explicit: &BTreeMap<String, serde_json::Value>,
    p: &Params,
    file: Option<u64>,
    preset: Option<u32>,
) -> u32 {
    let v = if explicit.contains_key(name) {
        p.get_usize(name) as u64
    } else if let Some(f) = file {
        f
    } else if let Some(x) = preset {
        u64::from(x)
    } else {
        p.get_usize(name) as u64
    };
    u32::try_from(v).unwrap_or(u32::MAX)
}

fn to_units(ops: &[LcOp]) -> Vec<makespan::Unit> {
    ops.iter()
        .map(|o| match o {
            LcOp::L => makespan::Unit::L,
            LcOp::C => makespan::Unit::C,
        })
        .collect()
}

/// Named machines (§3; CUDA C Programming Guide, compute capabilities 2.0 and 2.1: 32 and 48
/// CUDA cores and 16 load/store units per SM, warps of 32 threads).
pub fn preset(name: &str) -> Option<makespan::Machine> {
    match name {
        "fermi-cc2.0" => Some(makespan::Machine::fermi_cc20()),
        "fermi-cc2.1" => Some(makespan::Machine::fermi_cc21()),
        _ => None,
    }
}

/// Runs the mode on a real kernel reduced to an L/C string (`crate::lc_reduction`): no
/// configuration file, so warps and units come from the request, its preset or the defaults.
pub fn run_reduced(
    (ops, mapping): crate::lc_reduction::Reduction,
    p: &Params,
    request: &crate::request::Request,
    report: &mut Report,
) {
    run(
        &ops,
        &LcProgram::default(),
        mapping,
        p,
        &request.params,
        request.preset.as_deref(),
        report,
    );
}

/// Runs the mode on an L/C string (`file` holds values from a configuration file).
pub fn run(
    ops: &[LcOp],
    file: &LcProgram,
    mapping: Vec<MappedInstruction>,
    p: &Params,
    explicit: &BTreeMap<String, serde_json::Value>,
    preset_name: Option<&str>,
    report: &mut Report,
) {
    let pre = preset_name.and_then(preset);
    let warps = pick("warps", explicit, p, file.warp_number, None);
    let machine = makespan::Machine {
        ls_units: pick(
            "ls_units",
            explicit,
            p,
            file.ls_unit_number,
            pre.as_ref().map(|m| m.ls_units),
        ),
        cores: pick(
            "cores",
            explicit,
            p,
            file.cuda_core_number,
            pre.as_ref().map(|m| m.cores),
        ),
        warp_size: pick(
            "warp_size",
            explicit,
            p,
            file.warp_size,
            pre.as_ref().map(|m| m.warp_size),
        ),
    };
    let t = match makespan::transform(&to_units(ops), &machine) {
        Ok(t) => t,
        Err(e) => {
            report
                .diagnostics
                .push(Diagnostic::global(Severity::Error, e.to_string()));
            return;
        }
    };
    let budget = makespan::Budget {
        max_states: p.get_usize("max_states"),
        max_search_steps: p.get_usize("max_search_steps"),
        max_ilp_variables: p.get_usize("max_ilp_variables"),
        max_bb_nodes: p.get_usize("max_bb_nodes"),
        max_lp_solves: p.get_usize("max_lp_solves"),
    };
    let pessimistic = makespan::pessimistic(&t, warps);
    let method = p.choice("method").to_string();
    let solver = match p.choice("ilp_solver") {
        "lp" => makespan::IlpSolver::LpBranchAndBound,
        _ => makespan::IlpSolver::Propagation,
    };
    let mut ilp_solve = None;
    let exact = if p.flag("exact") {
        let variant = match method.as_str() {
            "ilp-short" => Some(makespan::IlpVariant::Short),
            "ilp-long" => Some(makespan::IlpVariant::Long),
            _ => None,
        };
        let r = match variant {
            Some(v) => makespan::solve_ilp(&t, warps, v, solver, &budget).map(|(s, stats)| {
                ilp_solve = Some(stats);
                s
            }),
            None => makespan::exact(&t, warps, &budget),
        };
        match r {
            Ok(s) => Some(s),
            Err(e) => {
                report.diagnostics.push(Diagnostic::global(
                    Severity::Warning,
                    format!(
                        "no exact makespan for {warps} warps on the {}-instruction string: {e}; wcet.cycles is the safe bound {} (the estimate T(W, x) of Eq. 42–43 can undershoot the exact value, and Eq. 5–7 is unsafe for σ > 1)",
                        t.instrs.len(),
                        makespan::safe_bound(&t, warps)
                    ),
                ));
                None
            }
        }
    } else {
        None
    };
    let x = p.get_usize("estimate_x") as u32;
    let estimate = if x > 0 {
        match makespan::estimate(&t, warps, x, &budget) {
            Ok(e) => Some(e),
            Err(e) => {
                report.diagnostics.push(Diagnostic::global(
                    Severity::Warning,
                    format!("no estimate: {e}"),
                ));
                None
            }
        }
    } else {
        None
    };
    let safe = makespan::safe_bound(&t, warps);
    let cycles = exact
        .as_ref()
        .map(|s| s.makespan)
        // The estimate of Eq. 42–43 can undershoot the exact worst case (see the makespan
        // crate's tests), and Eq. 5–7 too when σ > 1: without an exact value, use the safe bound.
        .unwrap_or(safe);
    report.wcet = Some(Wcet {
        cycles,
        cost_model: "one cycle per (sub-warp) instruction".into(),
    });
    if let Some(s) = &exact {
        report.schedule = Some(schedule_view(&t, s));
    }
    // The convergence plot of T(W, x) (Figs. 6 and 7) with the pessimistic bound.
    let max_x = warps.clamp(1, 16);
    // The curve is a view, not the answer: it gets half the exact search's step budget, so
    // the whole mode stays within 1.5 × max_search_steps.
    let curve_budget = makespan::Budget {
        max_search_steps: budget.max_search_steps / 2,
        ..budget.clone()
    };
    let (curve, stopped) = makespan::estimate_curve_partial(&t, warps, max_x, &curve_budget);
    if let Some(e) = stopped {
        let reach = curve.len();
        report.diagnostics.push(Diagnostic::global(
            Severity::Note,
            if reach == 0 {
                format!("no T(W, x) curve: the exact T(1) alone exceeds the budget ({e})")
            } else {
                format!("the T(W, x) curve stops at x = {reach}: the exact T({}) exceeds the budget ({e})", reach + 1)
            },
        ));
    }
    {
        if !curve.is_empty() {
            let xs: Vec<f64> = curve.iter().map(|(x, _)| f64::from(*x)).collect();
            report.plots.push(PlotView {
                title: format!("T(W, x) for W = {warps}, {}", t.text),
                x_label: "x (largest warp group solved exactly)".into(),
                y_label: "makespan (cycles)".into(),
                series: vec![
                    Series {
                        name: "T(W, x), Eq. 42–43".into(),
                        style: "line".into(),
                        points: curve
                            .iter()
                            .map(|(x, v)| [f64::from(*x), *v as f64])
                            .collect(),
                    },
                    Series {
                        name: "pessimistic bound, Eq. 5–7".into(),
                        style: "dashed".into(),
                        points: vec![
                            [xs[0], pessimistic as f64],
                            [xs[xs.len() - 1], pessimistic as f64],
                        ],
                    },
                ],
            });
        }
    }
    if p.flag("simulate") {
        simulate(
            ops,
            file.kernel_span,
            warps,
            &machine,
            cycles,
            exact.is_some(),
            report,
        );
    }
    let ilp = export_ilp(&t, warps, p.choice("ilp_export"), &budget, report);
    report.makespan = Some(MakespanDetails {
        warps,
        ls_units: machine.ls_units,
        cores: machine.cores,
        warp_size: machine.warp_size,
        original: isa::lc::to_text(ops),
        transformed: t.text.clone(),
        sigma_l: t.sigma_l,
        sigma_c: t.sigma_c,
        pessimistic,
        safe_bound: safe,
        exact: exact.as_ref().map(|s| s.makespan),
        method,
        estimate,
        schedule: exact.map(|s| s.slots).unwrap_or_default(),
        mapping,
        ilp,
        ilp_solve,
    });
}

/// `ilp_export=short|long`: the model of Fig. 3 as LP text, within `max_ilp_variables`.
fn export_ilp(
    t: &makespan::Transformed,
    warps: u32,
    choice: &str,
    budget: &makespan::Budget,
    report: &mut Report,
) -> Option<IlpExport> {
    let variant = match choice {
        "short" => makespan::IlpVariant::Short,
        "long" => makespan::IlpVariant::Long,
        _ => return None,
    };
    match makespan::build_ilp(t, warps, variant, budget) {
        Ok(m) => Some(IlpExport {
            variant: choice.to_string(),
            variables: m.program.objective.len(),
            constraints: m.program.constraints.len(),
            lp: m.lp_text(),
        }),
        Err(e) => {
            report.diagnostics.push(Diagnostic::global(
                Severity::Warning,
                format!("no ILP export: {e}"),
            ));
            None
        }
    }
}

/// `simulate=true`: the simulator's `makespan` machine (one-cycle instructions, σ lanes per
/// unit type, work-conserving issue) with this request's units and warp size runs the
/// original string on `warps` warps — one of the work-conserving schedules the exact
/// worst case ranges over, so observed ≤ exact.
fn simulate(
    ops: &[LcOp],
    span: isa::Span,
    warps: u32,
    m: &makespan::Machine,
    bound: u64,
    exact: bool,
    report: &mut Report,
) {
    let mut machine = crate::sim_mode::preset_machine("makespan");
    machine.cores = m.cores;
    machine.ls_units = m.ls_units;
    machine.warp_size = m.warp_size;
    machine.warps_per_sm = machine.warps_per_sm.max(warps);
    let launch = sim::Launch {
        block: [m.warp_size.saturating_mul(warps), 1, 1],
        ..sim::Launch::default()
    };
    match sim::run_lc(ops, span, &launch, &machine, &sim::Budget::default()) {
        Ok(s) => {
            let what = if exact {
                "the exact worst-case makespan"
            } else {
                "the safe bound"
            };
            crate::sim_mode::attach(report, &s, Some(bound), what);
        }
        Err(e) => report.diagnostics.extend(e.diagnostics),
    }
}

fn schedule_view(t: &makespan::Transformed, s: &makespan::Schedule) -> ScheduleView {
    let mut lanes = Vec::new();
    for k in 0..t.sigma_l {
        lanes.push(format!("L{k}"));
    }
    for k in 0..t.sigma_c {
        lanes.push(format!("C{k}"));
    }
    let items = s
        .slots
        .iter()
        .map(|slot| {
            let lane = match slot.unit {
                makespan::Unit::L => slot.lane as usize,
                makespan::Unit::C => t.sigma_l as usize + slot.lane as usize,
            };
            // Slots count cycles from 1 (the paper's t = 1..T); boxes start at cycle - 1.
            ScheduleItem {
                lane,
                start: slot.cycle.saturating_sub(1),
                length: 1,
                group: slot.warp,
                label: format!(
                    "instruction {} ({}) in cycle {}",
                    slot.instr,
                    match slot.unit {
                        makespan::Unit::L => "L",
                        makespan::Unit::C => "C",
                    },
                    slot.cycle
                ),
            }
        })
        .collect();
    ScheduleView {
        cycles: s.makespan,
        lanes,
        items,
        group_name: "warp".into(),
        group_labels: Vec::new(),
    }
}
