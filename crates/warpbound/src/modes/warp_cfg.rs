//! The `warp-cfg` mode: the warp-level CFG by abstract interpretation (crate `cfg`), then
//! IPET (crate `ipet`) for a WCET bound, as in Jeanmougin et al. §4.1. With `simulate=true`
//! the simulator runs the kernel in the analysis's own setting (one warp in isolation, the
//! cost model's latencies) and the report says whether the bound holds for that run.

mod its;
mod ptx;

use crate::catalog::ModeInfo;
use crate::loop_inference;
use crate::mode::{Mode, ModeDetails, ModeInput, ModeOutput};
use crate::observed_loops;
use crate::report::SimulationReport;
use crate::simulator::{self, SimRun};
use crate::warp_analysis::{
    bound, infer_sass, observe_bounds, params, parse_sass, presets, raise_defaults_to_observed,
    Cost, ParsedSass, WarpCfgParams,
};
use isa::{Diagnostic, Dialect, Kernel};
use std::collections::BTreeMap;
use web_time::Instant;

/// The mode.
pub const MODE: Mode = Mode {
    name: "warp-cfg",
    aliases: &[],
    describe,
    run,
};

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

fn run(input: &ModeInput) -> ModeOutput {
    let p = match WarpCfgParams::decode(input) {
        Ok(p) => p,
        Err(d) => return ModeOutput::failed([d]),
    };
    let mut out = ModeOutput::default();
    if input.request.parser_dialect() == Dialect::Ptx {
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
            &run.watching(observed_loops::watch(&sass)),
            &p.cost,
            p.its,
            input.progress,
            &mut out,
        );
        out.time("simulate", t);
    }
    let loops = sim
        .as_ref()
        .map(|s| observed_loops::of_run(&sass, s))
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
    let machine = cost.machine(its)?;
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
