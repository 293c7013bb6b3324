//! The default mode, `thread-cfg` (formerly `cfg`): parse, list the functions, and draw the
//! thread-level control-flow graph, so that any pasted kernel shows its instructions and its
//! graph before the user picks an analysis.
//!
//! The graphs: SASS from [`isa::blocks`], whose SYNC/BRK/RET edges follow the reconvergence
//! stack; PTX and GCN3 from [`isa::flow`] (one thread's, or one wavefront's, program
//! counter); Sim-D from the `phases` crate's basic blocks and control-flow analysis (Sim-D
//! §5.1–5.2), whose decoder-injected `cpop` edges depend on the control stack; an L/C string
//! is one straight-line block; a PWS solver graph is shown as it is. With `simulate=true` a
//! SASS kernel also runs on the unit-cost machine (this mode has no bound to compare with).

use crate::catalog::ModeInfo;
use crate::kernel_text;
use crate::mode::{Mode, ModeInput, ModeOutput};
use crate::params::limits;
use crate::report::SimulationReport;
use crate::simulator::{self, SimRequest, SimRun};
use crate::views;
use isa::{Diagnostic, Dialect, Severity};
use web_time::Instant;

/// The mode.
pub const MODE: Mode = Mode {
    name: "thread-cfg",
    aliases: &["cfg"],
    describe,
    run,
};

fn describe() -> ModeInfo {
    let mut params = simulator::simulate_params(
        "also run the simulator (unit-cost machine: every issued instruction one cycle) on the request's launch; this mode computes no bound to compare with",
    );
    params.extend(limits::params());
    ModeInfo {
        name: String::new(),
        aliases: Vec::new(),
        title: "Parse and thread-level CFG".into(),
        description: "Parses the kernel, lists its functions and builds its thread-level \
                      basic-block control-flow graph: fallthrough and taken edges; for SASS \
                      also SYNC/BRK/RET edges to the reconvergence or return point that the \
                      SSY/PBK/CAL stack names; for Sim-D the decoder-injected cpop edges \
                      (§5.2); a PWS solver graph as it is."
            .into(),
        dialects: ["sass", "ptx", "gcn", "simd", "lc", "pws-csv"]
            .map(String::from)
            .to_vec(),
        params,
        presets: Vec::new(),
        default_presets: Default::default(),
    }
}

fn run(input: &ModeInput) -> ModeOutput {
    let request = input.request;
    let simulate = match SimRequest::decode(input.params, request.memory.as_ref(), SimRun::decode) {
        Ok(s) => s,
        Err(d) => return ModeOutput::failed([d]),
    };
    let mut out = ModeOutput::default();
    if request.parser_dialect() == Dialect::Sass {
        sass(input, &simulate, &mut out);
        return out;
    }
    let t = Instant::now();
    let source = request.source.as_str();
    match request.parser_dialect() {
        Dialect::Ptx => ptx(source, input, &mut out),
        Dialect::Gcn => gcn(input, &mut out),
        Dialect::Simd => simd(source, input, &mut out),
        Dialect::Lc => lc(source, &mut out),
        _ => pws_csv(source, input, &mut out),
    }
    if simulate.is_on() {
        out.diagnostics.push(Diagnostic::global(
            Severity::Warning,
            format!(
                "simulate: this mode runs the simulator on SASS only; choose the `simulate` mode to simulate a {} kernel",
                request.parser_dialect().name()
            ),
        ));
    }
    out.time("cfg", t);
    out
}

fn sass(input: &ModeInput, simulate: &SimRequest, out: &mut ModeOutput) {
    let Some(s) = kernel_text::sass(input, out) else {
        return;
    };
    let t = Instant::now();
    out.graph = Some(views::graph::thread(&s.kernel, &s.graph));
    out.time("layout", t);
    let Some(run) = simulate.run(&mut out.diagnostics) else {
        return;
    };
    let t = Instant::now();
    let Some(machine) = simulator::preset_machine(Some("unit-cost")) else {
        return;
    };
    if let Some(sim) = simulator::run_kernel(
        &s.kernel,
        run,
        &machine,
        &mut out.diagnostics,
        &mut out.arguments,
        input.progress,
    ) {
        out.schedule = Some(views::schedule::simulated(&s.kernel, &sim));
        out.simulation = Some(SimulationReport::against(
            sim,
            None,
            "this mode computes no bound (the warp-cfg mode does)",
        ));
    }
    out.time("simulate", t);
}

fn ptx(source: &str, input: &ModeInput, out: &mut ModeOutput) {
    let Some(ptx) = input.context.ptx(&mut out.diagnostics) else {
        return;
    };
    let mut view = ptx.view(source);
    let graph = isa::flow::build(&isa::ptx::flows(ptx.function()));
    out.graph = Some(views::graph::flow(&graph, &mut view));
    out.kernel = Some(view);
}

fn gcn(input: &ModeInput, out: &mut ModeOutput) {
    let Some(gcn) = input.context.gcn(&mut out.diagnostics) else {
        return;
    };
    let mut view = gcn.view();
    let graph = isa::flow::build(&isa::gcn::flows(gcn.function()));
    out.graph = Some(views::graph::flow(&graph, &mut view));
    out.kernel = Some(view);
}

fn simd(source: &str, input: &ModeInput, out: &mut ModeOutput) {
    let Some((program, failed)) = kernel_text::simd(source, &input.limits, &mut out.diagnostics)
    else {
        return;
    };
    let mut view = views::kernel::simd(&program);
    if !failed {
        let blocks = phases::basic_blocks::split(&program);
        for ins in view.instructions.iter_mut() {
            // `block_at` finds a block by its first instruction; this is any instruction.
            let i = blocks.partition_point(|b| b.end <= ins.index);
            ins.block = blocks.get(i).filter(|b| b.first <= ins.index).map(|b| b.id);
        }
        match phases::control_flow::analyse(&program, &blocks) {
            Ok(cf) => {
                out.diagnostics.extend(cf.warnings.iter().cloned());
                out.graph = Some(views::graph::simd_blocks(&blocks, &cf.edges, &view));
            }
            Err(e) => out.diagnostics.extend(e.diagnostics),
        }
    }
    out.kernel = Some(view);
}

fn lc(source: &str, out: &mut ModeOutput) {
    let (program, d) = isa::lc::parse(source);
    let failed = d.iter().any(Diagnostic::is_error);
    out.diagnostics.extend(d);
    if failed || program.kernel.is_empty() {
        return;
    }
    let mut view = views::kernel::lc(&program);
    let graph = isa::flow::build(&vec![isa::flow::Flow::Next; view.instructions.len()]);
    out.graph = Some(views::graph::flow(&graph, &mut view));
    out.kernel = Some(view);
}

/// A PWS solver graph (CSV) is already a wavefront control-flow graph of basic blocks with
/// their costs: shown as it is (the `pws` mode adds the splits and the bounds).
fn pws_csv(source: &str, input: &ModeInput, out: &mut ModeOutput) {
    match pws::read_csv(source, input.limits.max_instructions) {
        Ok(g) => out.graph = Some(views::graph::pws_csv(&g)),
        Err(e) => out.diagnostics.push(e.diagnostic),
    }
}
