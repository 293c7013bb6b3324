//! The `makespan` mode: worst-case makespan of W warps on one SM (Berezovskyi, Bletsas,
//! Andersson, ECRTS 2012) on an L/C string — the paper's "kernel instruction string" (§3).
//!
//! The string is given directly (dialect `lc`, optionally in the paper's configuration-file
//! form, Fig. 4), or reduced from a real kernel — SASS, PTX, GCN3 or Sim-D — along its
//! straight-line path, memory accesses → L and every other instruction → C (see
//! [`crate::lc_reduction`], which also fills the report's instruction-to-letter `mapping`).

mod parameters;

use crate::kernel_text;
use crate::lc_reduction;
use crate::mode::{Mode, ModeDetails, ModeInput, ModeOutput};
use crate::report::SimulationReport;
use crate::report::{IlpExport, MakespanDetails, MappedInstruction, Wcet};
use crate::simulator;
use crate::views;
use isa::lc::{LcOp, LcProgram};
use isa::{Diagnostic, Dialect, Severity};
use parameters::{describe, MakespanParams};
use web_time::Instant;

/// The mode.
pub const MODE: Mode = Mode {
    name: "makespan",
    aliases: &[],
    describe,
    run,
};

fn run(input: &ModeInput) -> ModeOutput {
    let p = match MakespanParams::decode(input.params) {
        Ok(p) => p,
        Err(d) => return ModeOutput::failed([d]),
    };
    let request = input.request;
    let mut out = ModeOutput::default();
    let t = Instant::now();
    match request.parser_dialect() {
        Dialect::Lc => {
            // An L/C string (or the configuration file of Berezovskyi et al., Fig. 4).
            let (program, d) = isa::lc::parse(&request.source);
            out.time("parse", t);
            let failed = d.iter().any(Diagnostic::is_error);
            out.diagnostics.extend(d);
            if !failed {
                let t = Instant::now();
                analyse(
                    &program.kernel,
                    &program,
                    Vec::new(),
                    &p,
                    input.progress,
                    &mut out,
                );
                out.time("makespan", t);
            }
        }
        Dialect::Sass => {
            // A SASS kernel's straight-line path on its block graph.
            let Some(s) = kernel_text::sass(input, &mut out) else {
                return out;
            };
            let t = Instant::now();
            let (ops, mapping) = lc_reduction::sass(&s.kernel, &s.graph);
            analyse_reduced(&ops, mapping, &p, input.progress, &mut out);
            out.time("makespan", t);
        }
        dialect => {
            // A PTX, GCN3 or Sim-D kernel reduced to an L/C string along its straight-line
            // path: no configuration file, so warps and units come from the parameters.
            let reduced = lc_reduction::from_text(&input.context, dialect, &input.limits, &mut out);
            out.time("parse", t);
            if let Some((ops, mapping)) = reduced {
                let t = Instant::now();
                analyse_reduced(&ops, mapping, &p, input.progress, &mut out);
                out.time("makespan", t);
            }
        }
    }
    out
}

/// Analyses an L/C string (`file` holds values from a configuration file).
/// [`analyse`] for a kernel reduced to an L/C string: no configuration file, so warps and
/// units come from the parameters.
fn analyse_reduced(
    ops: &[LcOp],
    mapping: Vec<MappedInstruction>,
    p: &MakespanParams,
    progress: isa::Observer,
    out: &mut ModeOutput,
) {
    analyse(ops, &LcProgram::default(), mapping, p, progress, out);
}

fn analyse(
    ops: &[LcOp],
    file: &LcProgram,
    mapping: Vec<MappedInstruction>,
    p: &MakespanParams,
    progress: isa::Observer,
    out: &mut ModeOutput,
) {
    let warps = p.warps.or_file(file.warp_number);
    let machine = makespan::Machine {
        ls_units: p.ls_units.or_file(file.ls_unit_number),
        cores: p.cores.or_file(file.cuda_core_number),
        warp_size: p.warp_size.or_file(file.warp_size),
    };
    let t = match makespan::transform(ops, &machine) {
        Ok(t) => t,
        Err(e) => {
            out.diagnostics
                .push(Diagnostic::global(Severity::Error, e.to_string()));
            return;
        }
    };
    let budget = &p.budget;
    let pessimistic = makespan::pessimistic(&t, warps);
    let safe = makespan::safe_bound(&t, warps);
    let mut ilp_solve = None;
    let exact = p.exact.as_ref().and_then(|(_, variant)| {
        let r = match variant {
            Some(v) => makespan::solve_ilp_observed(&t, warps, *v, p.solver, budget, progress).map(|(s, stats)| {
                ilp_solve = Some(stats);
                s
            }),
            None => makespan::exact_observed(&t, warps, budget, progress),
        };
        r.map_err(|e| {
            out.diagnostics.push(Diagnostic::global(
                Severity::Warning,
                format!(
                    "no exact makespan for {warps} warps on the {}-instruction string: {e}; wcet.cycles is the safe bound {safe} (the estimate T(W, x) of Eq. 42–43 can undershoot the exact value, and Eq. 5–7 is unsafe for σ > 1)",
                    t.instrs.len(),
                ),
            ))
        })
        .ok()
    });
    let estimate = (p.estimate_x > 0)
        .then(|| {
            makespan::estimate_observed(&t, warps, p.estimate_x, budget, progress)
                .map_err(|e| {
                    out.diagnostics.push(Diagnostic::global(
                        Severity::Warning,
                        format!("no estimate: {e}"),
                    ))
                })
                .ok()
        })
        .flatten();
    // The estimate of Eq. 42–43 can undershoot the exact worst case (see the makespan crate's
    // tests), and Eq. 5–7 too when σ > 1: without an exact value, use the safe bound.
    let cycles = exact.as_ref().map_or(safe, |s| s.makespan);
    out.wcet = Some(Wcet {
        cycles,
        cost_model: "one cycle per (sub-warp) instruction".into(),
        assumed_loop_bounds: Vec::new(),
    });
    if let Some(s) = &exact {
        out.schedule = Some(views::schedule::makespan(&t, s));
    }
    // The convergence plot of T(W, x) (Figs. 6 and 7) with the pessimistic bound. The curve
    // is a view, not the answer: it gets half the exact search's step budget, so the whole
    // mode stays within 1.5 × max_search_steps.
    let curve_budget = makespan::Budget {
        max_search_steps: budget.max_search_steps / 2,
        ..budget.clone()
    };
    let (curve, stopped) = makespan::estimate_curve_partial_observed(
        &t,
        warps,
        warps.clamp(1, 16),
        &curve_budget,
        progress,
    );
    if let Some(e) = stopped {
        let reach = curve.len();
        out.diagnostics.push(Diagnostic::global(
            Severity::Note,
            if reach == 0 {
                format!("no T(W, x) curve: the exact T(1) alone exceeds the budget ({e})")
            } else {
                format!("the T(W, x) curve stops at x = {reach}: the exact T({}) exceeds the budget ({e})", reach + 1)
            },
        ));
    }
    out.plots.extend(views::plot::estimate_curve(
        warps,
        &t.text,
        &curve,
        pessimistic,
    ));
    if p.simulate {
        simulate(
            ops,
            file.kernel_span,
            warps,
            &machine,
            (cycles, exact.is_some()),
            progress,
            out,
        );
    }
    let ilp = p
        .ilp_export
        .as_ref()
        .and_then(|(name, v)| export_ilp(&t, warps, name, *v, budget, out));
    out.details = ModeDetails::Makespan(Box::new(MakespanDetails {
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
        method: p.method.clone(),
        estimate: estimate.as_ref().map(Into::into),
        schedule: exact
            .map(|s| s.slots.iter().map(Into::into).collect())
            .unwrap_or_default(),
        mapping,
        ilp,
        ilp_solve: ilp_solve.as_ref().map(Into::into),
    }));
}

/// `ilp_export=short|long`: the model of Fig. 3 as LP text, within `max_ilp_variables`.
fn export_ilp(
    t: &makespan::Transformed,
    warps: u32,
    name: &str,
    variant: makespan::IlpVariant,
    budget: &makespan::Budget,
    out: &mut ModeOutput,
) -> Option<IlpExport> {
    match makespan::build_ilp(t, warps, variant, budget) {
        Ok(m) => Some(IlpExport {
            variant: name.to_string(),
            variables: m.program.objective.len(),
            constraints: m.program.constraints.len(),
            lp: m.lp_text(),
        }),
        Err(e) => {
            out.diagnostics.push(Diagnostic::global(
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
    (bound, exact): (u64, bool),
    progress: isa::Observer,
    out: &mut ModeOutput,
) {
    let Some(mut machine) = simulator::preset_machine(Some("makespan")) else {
        return;
    };
    machine.cores = m.cores;
    machine.ls_units = m.ls_units;
    machine.warp_size = m.warp_size;
    machine.warps_per_sm = machine.warps_per_sm.max(warps);
    let launch = sim::Launch {
        block: [m.warp_size.saturating_mul(warps), 1, 1],
        ..sim::Launch::default()
    };
    match sim::run_lc_observed(
        ops,
        span,
        &launch,
        &machine,
        &sim::Budget::default(),
        progress,
    ) {
        Ok(s) => {
            let what = if exact {
                "the exact worst-case makespan"
            } else {
                "the safe bound"
            };
            out.simulation = Some(SimulationReport::against(s, Some(bound), what));
        }
        Err(e) => out.diagnostics.extend(
            e.diagnostics
                .into_iter()
                .map(|d| d.in_stage(isa::Stage::Simulation)),
        ),
    }
}
