//! The `simulate` mode: a run of the SIMT simulator (crate `sim`) on the request's launch,
//! memory and machine — observed cycles, per-warp timelines as the schedule, the stepper's
//! steps and the final memory. No bound: the bounding modes take `simulate=true` to put a
//! run next to their bound.

use crate::catalog::{ModeInfo, ParamInfo};
use crate::kernel_text;
use crate::mode::{Mode, ModeInput, ModeOutput};
use crate::observed_loops;
use crate::params::{its, limits};
use crate::report::SimulationReport;
use crate::simulator::{self, SimRun};
use crate::views;
use isa::Dialect;
use std::collections::BTreeMap;
use web_time::Instant;

/// The mode.
pub const MODE: Mode = Mode {
    name: "simulate",
    aliases: &[],
    describe,
    run,
};

fn describe() -> ModeInfo {
    let mut params = simulator::params();
    params.push(
        ParamInfo::text(
            "its",
            "SASS, sm_70 and later: run diverged warps under independent thread scheduling — \
         their paths as thread groups that interleave at every instruction and reconverge at \
         BSYNC and WARPSYNC — with this scheduler: round-robin (one instruction of each ready \
         group in turn), newest (depth first) or random:SEED; the stepper shows the groups \
         and barrier registers. Empty: the stack order (one path at a time).",
            "",
        )
        .suggesting(&its::SUGGESTED),
    );
    params.extend(limits::params());
    ModeInfo {
        name: String::new(),
        aliases: Vec::new(),
        title: "Simulate: an observed execution with a divergence stepper".into(),
        description: "Runs the kernel on a cycle-level SIMT simulator for a launch (grid, \
                      block, parameters, global memory): functional semantics, the \
                      activation stack, a warp scheduler, per-class latencies, coalescing \
                      and an optional L1. Shows each warp's issued instructions, the final \
                      memory, and a step-by-step view of one warp's lanes and stack."
            .into(),
        dialects: ["sass", "ptx", "gcn", "lc"].map(String::from).to_vec(),
        params,
        presets: simulator::presets(),
        // The machine for a dialect without a named preset: GCN3 wavefronts of 64 on gem5's
        // SIMD, L/C strings on the makespan paper's SM.
        default_presets: BTreeMap::from([
            ("gcn".to_string(), "gcn3".to_string()),
            ("lc".to_string(), "makespan".to_string()),
        ]),
    }
}

fn run(input: &ModeInput) -> ModeOutput {
    let request = input.request;
    let run = SimRun::decode(input.params, request.memory.as_ref());
    let mut machine = match simulator::preset_machine(input.preset)
        .map(|base| simulator::machine(input.params, base))
    {
        Some(Ok(m)) => m,
        Some(Err(d)) => return ModeOutput::failed([d]),
        None => return ModeOutput::default(),
    };
    let its = match input.params.text("its").and_then(its::decode) {
        Ok(its) => its,
        Err(d) => return ModeOutput::failed([d]),
    };
    let mut out = ModeOutput::default();
    if request.parser_dialect() == Dialect::Sass {
        machine.thread_scheduling = its::thread_scheduling(its);
    } else if its.is_some() {
        out.diagnostics.push(isa::Diagnostic::global(
            isa::Severity::Warning,
            "its is read for SASS only: the other dialects' warps follow their own \
             reconvergence (PTX's post-dominator stack, GCN3's exec masks)",
        ));
    }
    if request.parser_dialect() == Dialect::Sass {
        let Some(s) = kernel_text::sass(input, &mut out) else {
            return out;
        };
        let t = Instant::now();
        let sim = match run {
            Ok(run) => simulator::run_kernel(
                &s.kernel,
                &run.watching(observed_loops::watch(&s)),
                &machine,
                &mut out.diagnostics,
                &mut out.arguments,
                input.progress,
            ),
            Err(d) => {
                out.diagnostics.extend(d);
                None
            }
        };
        if let Some(sim) = sim {
            out.schedule = Some(views::schedule::simulated(&s.kernel, &sim));
            let loops = observed_loops::of_run(&s, &sim);
            let mut report = SimulationReport::alone(sim);
            report.loop_iterations = loops;
            out.simulation = Some(report);
        }
        out.graph = Some(views::graph::thread(&s.kernel, &s.graph));
        out.time("simulate", t);
        return out;
    }
    let t = Instant::now();
    let run = run.as_ref().map_err(Vec::as_slice);
    if let Some(sim) = simulator::run_text(
        &input.context,
        request.parser_dialect(),
        run,
        &machine,
        &mut out.diagnostics,
        &mut out.arguments,
        input.progress,
    ) {
        out.schedule = Some(views::schedule::simulated_text(&request.source, &sim));
        out.simulation = Some(SimulationReport::alone(sim));
    }
    flow_view(input, &mut out);
    out.time("simulate", t);
    out
}

/// The instruction table and thread-level graph of a PTX or GCN3 kernel, as `thread-cfg`
/// draws them (SASS gets its block graph above): the stepper's instructions have a kernel to
/// point into and the page a graph to open on. The simulator read the text itself and said
/// what was wrong with it, so the parser's diagnostics are not repeated.
fn flow_view(input: &ModeInput, out: &mut ModeOutput) {
    let request = input.request;
    let source = &request.source;
    let mut said = Vec::new();
    let (mut view, graph) = match request.parser_dialect() {
        Dialect::Ptx => {
            let Some(ptx) = input.context.ptx(&mut said) else {
                return;
            };
            let graph = isa::flow::build(&isa::ptx::flows(ptx.function()));
            (ptx.view(source), graph)
        }
        Dialect::Gcn => {
            let Some(gcn) = input.context.gcn(&mut said) else {
                return;
            };
            let graph = isa::flow::build(&isa::gcn::flows(gcn.function()));
            (gcn.view(), graph)
        }
        _ => return,
    };
    out.graph = Some(views::graph::flow(&graph, &mut view));
    out.kernel = Some(view);
}
