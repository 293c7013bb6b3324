//! The wavefront CFG the `pws` mode analyses: a solver CSV as it is, or a GCN3 kernel's
//! (callees inlined, loops unrolled with the bounds the code, the request or a run gives),
//! and the report's loop table (moved out of `pws.rs`, which keeps the analysis).

use super::parameters::PwsParams;
use crate::mode::{ModeInput, ModeOutput};
use crate::observed_loops::ObservedLoop;
use crate::params::loop_bounds::LoopKey;
use crate::params::LoopBounds;
use crate::report::KernelView;
use isa::{Diagnostic, Dialect, Severity};

/// The wavefront CFG to analyse: the solver CSV as it is, or the GCN3 kernel's (callees
/// inlined, loops unrolled), with the kernel's instruction table.
pub(super) fn wavefront_graph(
    input: &ModeInput,
    p: &PwsParams,
    observed: Option<(&sim::Simulation, &[ObservedLoop])>,
    out: &mut ModeOutput,
) -> Option<(pws::WavefrontCfg, Option<KernelView>)> {
    let request = input.request;
    let budget = &p.options.budget;
    if request.parser_dialect() == Dialect::PwsCsv {
        return match pws::read_csv(&request.source, budget.max_unrolled_nodes) {
            Ok(g) => Some((g, None)),
            Err(e) => {
                out.diagnostics.push(e.diagnostic);
                None
            }
        };
    }
    let gcn = input.context.gcn(&mut out.diagnostics)?;
    let view = gcn.view();
    // The occupancy of the analysed launch's work-groups (work_items_per_group).
    out.occupancy = crate::kernel_occupancy::gcn(
        &request.source,
        gcn.function(),
        p.options.launch.work_items_per_group,
        &p.occupancy,
        &mut out.diagnostics,
    );
    out.plots
        .extend(out.occupancy.as_ref().map(|o| o.curve_plot()));
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
