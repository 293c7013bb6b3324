//! The `warp-cfg` and `block` modes' loop bounds on SASS: inferred from the code for the
//! request's launch (crate `loopbound`, applied by the precedence rule of
//! [`crate::params::loop_bounds`]), and taken from a simulated run with
//! `loop_bounds=observed` — whose counts are checked against the inferred bounds when the
//! run is of the same launch.

use crate::kernel_text::Sass;
use crate::loop_inference;
use crate::mode::{ModeInput, ModeOutput};
use crate::observed_loops;
use crate::params::loop_bounds::LoopKey;
use crate::params::LoopBounds;
use isa::Diagnostic;
use web_time::Instant;

/// What the modes that simulate blocks take from their `runs`: the most iterations any run
/// observed per loop header, checked against the code's `inference`, then the bounds of
/// loops the request leaves open with `loop_bounds=observed` (`p.observed`: see
/// [`observe_bounds`]), else the defaults the runs went beyond raised
/// ([`raise_defaults_to_observed`]); the report's table of loop bounds. The loops, or `None`
/// when the analysis cannot go on.
pub(crate) fn apply_runs(
    sass: &Sass,
    runs: &[(&str, sim::Simulation)],
    inference: &loop_inference::Inference,
    input: &ModeInput,
    p: &mut super::WarpCfgParams,
    out: &mut ModeOutput,
) -> Option<Vec<observed_loops::ObservedLoop>> {
    let bounds = &mut p.loop_bounds;
    let loops = most_iterations(sass, runs);
    out.diagnostics
        .extend(loop_inference::check_observed(inference, &loops));
    if p.observed {
        if !observe_bounds(&loops, !runs.is_empty(), input, bounds, out) {
            return None;
        }
    } else {
        raise_defaults_to_observed(&loops, bounds, out);
    }
    out.loop_bounds = loop_inference::rows(inference, bounds);
    Some(loops)
}

/// Per loop header, the most iterations any run observed.
fn most_iterations(
    sass: &Sass,
    runs: &[(&str, sim::Simulation)],
) -> Vec<observed_loops::ObservedLoop> {
    let mut most: std::collections::BTreeMap<String, observed_loops::ObservedLoop> =
        std::collections::BTreeMap::new();
    for (_, s) in runs {
        for l in observed_loops::of_run(sass, s) {
            match most.get_mut(&l.header) {
                Some(m) => m.iterations = m.iterations.max(l.iterations),
                None => {
                    most.insert(l.header.clone(), l);
                }
            }
        }
    }
    most.into_values().collect()
}

/// `loop_bounds=observed`: every loop header without a bound of the request's gets the
/// observed count (at least 1); whether the analysis can go on (there was a run).
pub(crate) fn observe_bounds(
    loops: &[observed_loops::ObservedLoop],
    ran: bool,
    input: &ModeInput,
    bounds: &mut LoopBounds,
    out: &mut ModeOutput,
) -> bool {
    if !ran {
        out.diagnostics.push(Diagnostic::global(
            isa::Severity::Error,
            "loop_bounds=observed takes the loop counts of a simulation, and the simulation \
             did not run (see its errors)",
        ));
        return false;
    }
    let mut taken = Vec::new();
    for l in loops {
        let Some(address) = crate::params::number::unsigned(&l.header) else {
            continue;
        };
        if input.request.loop_bounds.contains_key(&l.header)
            || bounds.per_address.contains_key(&address)
        {
            continue;
        }
        let n = l.iterations.max(1);
        bounds.observed(LoopKey::Address(address), n);
        taken.push(format!("{} = {n}", l.header));
    }
    out.diagnostics.push(Diagnostic::global(
        isa::Severity::Note,
        if taken.is_empty() {
            "loop_bounds=observed: no loop took its bound from the run (no loops, every loop \
             bounded by the request or by the code, or a run without trace)"
                .to_string()
        } else {
            format!(
                "loop_bounds=observed: loop bounds from the iterations the simulation observed \
                 (most per entry by one thread; the bound holds for this run, not for every \
                 input): {}",
                taken.join(", ")
            )
        },
    ));
    true
}

/// Without `loop_bounds=observed`, when the request simulates: loops bounded only by
/// `default_loop_bound` whose run went beyond it take the run's count, warned
/// ([`LoopBounds::raise_default`]).
pub(crate) fn raise_defaults_to_observed(
    loops: &[observed_loops::ObservedLoop],
    bounds: &mut LoopBounds,
    out: &mut ModeOutput,
) {
    for l in loops {
        if let Some(address) = crate::params::number::unsigned(&l.header) {
            out.diagnostics.extend(bounds.raise_default(
                LoopKey::Address(address),
                l.iterations,
                isa::Span::new(l.line, 1, 0),
            ));
        }
    }
}

/// Loop bounds from the code of a SASS kernel for `launch` (crate `loopbound`), applied to
/// `bounds` by the precedence rule of [`crate::params::loop_bounds`].
pub(crate) fn infer_sass(
    sass: &Sass,
    launch: Option<&loop_inference::Launch>,
    bounds: &mut LoopBounds,
    out: &mut ModeOutput,
) -> loop_inference::Inference {
    let t = Instant::now();
    let inference = loop_inference::sass(&sass.kernel, &sass.graph, launch);
    bounds.apply_inferred(&inference.loops, &mut out.diagnostics);
    out.time("loop_bounds", t);
    inference
}
