//! The `rr` mode: Huangfu's PTX kernel analyzer, pure round-robin timing model, coalescing,
//! competing-SM estimate and cache analyses (crates `roundrobin` and `caches`), for the grid,
//! block and parameter values of the request.
//!
//! Kernel parameters the request does not give are chosen automatically (`params=auto`,
//! [`crate::params::kernel_args`]) and listed in `report.arguments`. Branches, loop exits and
//! addresses that depend on data the analyzer does not know are paid for in the worst case
//! (`unknown_data=pessimistic`, the `roundrobin` crate's `both_sides`): loops that exit on
//! such data take their bound from `loop_bounds` (keyed by the header's label) or
//! `default_loop_bound`, as in the `warp-cfg` mode; each assumption is a located note.
//!
//! `wcet.cycles` is the model's WCET; in `avg` mode (or with overridden estimates) it is an
//! estimate, not a safe bound, and the cost model says so. The `rr` object is the crate's
//! result, with per-warp traces cut to the first [`MAX_TRACES`] warps; the T_ij schedule is
//! the Gantt chart (one lane per warp, one box per code-segment instance).

mod parameters;
mod simulation;

use crate::mode::{Mode, ModeDetails, ModeInput, ModeOutput};
use crate::observed_loops;
use crate::params::kernel_args;
use crate::report::ArgumentSource;
use crate::report::Wcet;
use crate::views;
use isa::{Diagnostic, Severity};
use parameters::{describe, RrParams};
use simulation::{compare, run_simulator};

/// The mode.
pub const MODE: Mode = Mode {
    name: "rr",
    aliases: &[],
    describe,
    run,
};

/// Warps whose execution traces the report keeps (the analysis follows all of them).
pub const MAX_TRACES: usize = 64;

fn run(input: &ModeInput) -> ModeOutput {
    let p = match RrParams::decode(input) {
        Ok(p) => p,
        Err(d) => return ModeOutput::failed([d]),
    };
    let mut out = ModeOutput::default();
    let started = web_time::Instant::now();
    analyse(input, &p, &mut out);
    out.time("rr", started);
    out
}

fn analyse(input: &ModeInput, p: &RrParams, out: &mut ModeOutput) {
    let request = input.request;
    let source = request.source.as_str();
    let Some(ptx) = input.context.ptx(&mut out.diagnostics) else {
        return;
    };
    let f = ptx.function();
    let mut view = ptx.view(source);
    if ptx.failed {
        out.kernel = Some(view);
        return;
    }
    if let Ok(cf) = roundrobin::control_flow::build(f) {
        for (i, ins) in view.instructions.iter_mut().enumerate() {
            ins.block = cf.block_of.get(i).copied();
        }
        out.graph = Some(views::graph::rr(f, &cf, &view));
    }
    out.kernel = Some(view);
    let mut launch = match &p.launch {
        Ok(l) => l.clone(),
        Err(d) => {
            out.diagnostics.extend(d.iter().cloned());
            return;
        }
    };
    for a in &p.bound_keys {
        out.diagnostics.push(Diagnostic::global(
            Severity::Warning,
            format!(
                "loop bound key `{a:#x}` is not a label: PTX loops are named by the label of \
                 their header (e.g. $L__BB0_3)"
            ),
        ));
    }
    let source = if p.auto && !f.params.is_empty() {
        launch.params = kernel_args::auto(f);
        ArgumentSource::Auto
    } else {
        ArgumentSource::Request
    };
    if launch.params.len() == f.params.len() {
        let args = kernel_args::report(f, &launch.params, source, false);
        if source == ArgumentSource::Auto {
            out.diagnostics.push(kernel_args::auto_note(&args, false));
        }
        out.arguments = Some(args);
    }
    // Loops the code bounds: their bounds replace the default (and larger given ones).
    let inferred_for = crate::loop_inference::Launch {
        grid: [launch.grid.x, launch.grid.y, launch.grid.z],
        block: [launch.block.x, launch.block.y, launch.block.z],
        block_min: None,
        words: Some(kernel_args::words(f, &launch.params)),
    };
    let inference = crate::loop_inference::ptx(f, Some(&inferred_for));
    let mut config = p.config.clone();
    let mut bounds = crate::params::LoopBounds {
        per_label: config.loop_bounds.per_label.clone(),
        default: config.loop_bounds.default,
        ..Default::default()
    };
    bounds.apply_inferred(&inference.loops, &mut out.diagnostics);
    config.loop_bounds.per_label = bounds.per_label.clone();
    config.loop_bounds.from_code = bounds
        .provenance
        .iter()
        .filter(|(_, v)| v.from == crate::params::loop_bounds::BoundFrom::Inferred)
        .filter_map(|(k, _)| match k {
            crate::params::loop_bounds::LoopKey::Label(l) => Some(l.clone()),
            _ => None,
        })
        .collect();
    let launch = &launch;
    // The run first: its loop counts may be the bounds.
    let mut used = 0.0;
    let sim = match p.simulate.run(&mut out.diagnostics) {
        Some(run) => {
            let k = crate::ptx_launch::PtxKernel {
                module: ptx.module(),
                function: f,
            };
            let from = out.diagnostics.len();
            let s = run_simulator(k, launch, &p.config, (run, p.auto), input.progress, out);
            used = crate::shared_allowance::used(s.as_ref(), &run.budget, &out.diagnostics[from..]);
            s
        }
        None => None,
    };
    let (steps, note) = crate::shared_allowance::analysis_budget(
        config.budgets.max_warp_steps,
        used,
        "max_warp_steps",
    );
    config.budgets.max_warp_steps = steps;
    out.diagnostics.extend(note);
    let loops = sim
        .as_ref()
        .map(|s| observed_loops::of_ptx_run(f, s))
        .unwrap_or_default();
    out.diagnostics
        .extend(sim.as_ref().and_then(sim::loop_counts::truncation_warning));
    if sim
        .as_ref()
        .is_some_and(|s| crate::loop_inference::same_launch(s, Some(&inferred_for), 32))
    {
        out.diagnostics
            .extend(crate::loop_inference::check_observed(&inference, &loops));
    }
    let mut raised = Vec::new();
    if p.observed {
        if sim.is_none() {
            out.diagnostics.push(Diagnostic::global(
                Severity::Error,
                "loop_bounds=observed takes the loop counts of a simulation, and the simulation \
                 did not run (see its errors)",
            ));
            return;
        }
        let mut taken = Vec::new();
        for l in &loops {
            if input.request.loop_bounds.contains_key(&l.header)
                || config.loop_bounds.from_code.contains(&l.header)
            {
                continue;
            }
            let n = l.iterations.max(1);
            config.loop_bounds.per_label.insert(l.header.clone(), n);
            bounds.observed(
                crate::params::loop_bounds::LoopKey::Label(l.header.clone()),
                n,
            );
            taken.push(format!("{} = {n}", l.header));
        }
        out.diagnostics.push(Diagnostic::global(
            Severity::Note,
            format!(
                "loop_bounds=observed: loop bounds from the iterations the simulation observed \
                 (most per entry by one thread; the bound holds for this run, not for every \
                 input): {}",
                if taken.is_empty() {
                    "none (no loops)".to_string()
                } else {
                    taken.join(", ")
                }
            ),
        ));
    } else {
        // The analyzer runs a loop to its end where the data is known and needs a bound only
        // where it is not: the warning is given only for loops it bounded.
        for l in &loops {
            let key = crate::params::loop_bounds::LoopKey::Label(l.header.clone());
            let span = isa::Span::new(l.line, 1, 0);
            if let Some(d) = bounds.raise_default(key, l.iterations, span) {
                config
                    .loop_bounds
                    .per_label
                    .insert(l.header.clone(), l.iterations);
                raised.push((l.header.clone(), d));
            }
        }
    }
    let mut result =
        match roundrobin::analyze_observed(f, launch, &config, &p.overrides, input.progress) {
            Ok(r) => r,
            Err(d) => {
                out.diagnostics.push(d);
                return;
            }
        };
    out.diagnostics.extend(result.notes.iter().cloned());
    out.diagnostics.extend(
        raised
            .into_iter()
            .filter(|(label, _)| result.loop_bounds.iter().any(|u| u.label == *label))
            .map(|(_, d)| d),
    );
    out.diagnostics
        .extend(crate::views::rr_caps::cap(&mut result));
    if result.traces.len() > MAX_TRACES {
        out.diagnostics.push(Diagnostic::global(
            Severity::Note,
            format!(
                "the report keeps the execution traces of the first {MAX_TRACES} of {} warps",
                result.traces.len()
            ),
        ));
        result.traces.truncate(MAX_TRACES);
    }
    if let Some(c) = &result.wcet.caveat {
        out.diagnostics.push(Diagnostic::global(
            Severity::Warning,
            format!("round-robin WCET: {c}"),
        ));
    }
    out.wcet = Some(Wcet {
        cycles: result.wcet.cycles,
        cost_model: if result.wcet.safe && result.wcet.caveat.is_some() {
            "round-robin model, max mode, unknown data paid for in the worst case per warp \
             (see the warning: not guaranteed across several warps)"
                .into()
        } else if result.wcet.safe {
            "round-robin model, max mode: safe under the model's assumptions".into()
        } else {
            format!(
                "round-robin model — {}: an estimate, not a safe bound",
                result.mode_label
            )
        },
        assumed_loop_bounds: Vec::new(),
    });
    out.loop_bounds = result
        .loop_bounds
        .iter()
        .map(|u| {
            let keys = [crate::params::loop_bounds::LoopKey::Label(u.label.clone())];
            let (from, prov) = bounds.source(&keys);
            let from = if u.source == "default_loop_bound" {
                crate::params::loop_bounds::BoundFrom::Default
            } else {
                from
            };
            crate::report::LoopBoundRow {
                header: u.label.clone(),
                line: u.line,
                bound: Some(u.bound),
                bound_from: from.name().into(),
                reason: prov.and_then(|p| p.reason.clone()),
                inferred: prov.and_then(|p| p.inferred),
                formula: prov.and_then(|p| p.formula.clone()),
            }
        })
        .collect();
    out.schedule = Some(views::schedule::round_robin(&result));
    if let Some(s) = sim {
        compare(s, launch, &config, &result, out);
        if let Some(r) = &mut out.simulation {
            r.loop_iterations = loops;
        }
    }
    out.details = ModeDetails::Rr(Box::new(result));
}
