//! The `pws` mode: predictable wavefront splitting (Klashtorny et al., crate `pws`) on a GCN3
//! kernel or on a graph in the public split-point solver's CSV format.
//!
//! `wcet.cycles` is the PWS kernel bound `E_kernel` (Lemma 5.5) for the chosen split set; the
//! `pws` object carries `E_WF` and `E_kernel` for no splitting, DWS and PWS, the marked,
//! Select and optimal split sets, the pruned edges and the Fig. 9b dispatch timeline, whose
//! PWS version is the report's schedule.

mod parameters;
mod simulation;
mod wavefront;

use crate::mode::{Mode, ModeDetails, ModeInput, ModeOutput};
use crate::report::Wcet;
use crate::views;
use isa::{Diagnostic, Dialect, Severity};
use parameters::{describe, PwsParams};
use simulation::{against_bound, simulate};
use wavefront::wavefront_graph;

/// The mode.
pub const MODE: Mode = Mode {
    name: "pws",
    aliases: &[],
    describe,
    run,
};

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
        if request.parser_dialect() == Dialect::Gcn {
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
            if request.parser_dialect() == Dialect::PwsCsv {
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
