//! The `warp-cfg` mode on PTX: the warp-level CFG from `cfg::ptx` (divergence analysis and
//! the post-dominator stack), bounded by the same IPET as SASS ([`ipet_bound`]).
//!
//! Cost model: `unit`, every PTX instruction one cycle (the paper's §4.1 evaluation model,
//! read over PTX instead of SASS; PTX instructions are not the machine's, so this counts
//! issued virtual instructions, which the PTX simulator's unit-cost machine also counts).
//! A `call` of a `.func` defined in the module costs one cycle plus the callee's own bound
//! (analysed the same way, with its parameters varying, so for any caller); a call of an
//! external function (`vprintf`, `__assertfail`, `malloc`, `free`, any `.extern .func`)
//! costs one cycle: the runtime's own time is not in the bound, and a warning says so (as
//! for SASS's unresolved `JCAL`/`CALL.ABS`).

mod calls;

use crate::mode::{ModeDetails, ModeInput, ModeOutput};
use crate::report::{CfgNode, DivergentBranch, KernelView};
use crate::simulator;
use crate::views::graph::line_block_node;
use crate::warp_analysis::ipet_bound::{self, BoundRequest, Listing};
use crate::warp_analysis::{shared_loops, Cost, WarpCfgParams};
use calls::Calls;
use cfg::Tag;
use isa::flow::FlowGraph;
use isa::ptx::Function;
use isa::{Diagnostic, Severity, Span};
use std::collections::BTreeMap;
use web_time::Instant;

/// Runs the mode on the request's PTX.
pub(super) fn run(input: &ModeInput, p: &WarpCfgParams, out: &mut ModeOutput) {
    let req = input.request;
    let Some(ptx) = input.context.ptx(&mut out.diagnostics) else {
        return;
    };
    let mut view = ptx.view(&req.source);
    if ptx.failed {
        out.kernel = Some(view);
        return;
    }
    if matches!(p.cost, Cost::Latency(_)) {
        out.diagnostics.push(Diagnostic::global(
            Severity::Error,
            "cost=latency times SASS instructions; PTX is bounded with cost=unit (every PTX \
             instruction one cycle)",
        ));
        out.kernel = Some(view);
        return;
    }
    let f = ptx.function();
    let t = Instant::now();
    let launch = crate::loop_inference::Launch::of(input.params);
    let inference = crate::loop_inference::ptx(f, launch.as_ref());
    let mut loop_bounds = p.loop_bounds.clone();
    loop_bounds.apply_inferred(&inference.loops, &mut out.diagnostics);
    out.time("loop_bounds", t);
    // The run first: a loop the default bounds takes its count when the run went further.
    let mut ran = None;
    if let Some(run) = p.simulate.run(&mut out.diagnostics) {
        let t = Instant::now();
        let k = crate::ptx_launch::PtxKernel {
            module: ptx.module(),
            function: f,
        };
        ran = simulate(k, run, input.progress, &inference, launch.as_ref(), out);
        out.time("simulate", t);
    }
    for l in ran.iter().flat_map(|(_, loops)| loops) {
        let key = crate::params::loop_bounds::LoopKey::Label(l.header.clone());
        let span = isa::Span::new(l.line, 1, 0);
        out.diagnostics
            .extend(loop_bounds.raise_default(key, l.iterations, span));
    }
    out.loop_bounds = crate::loop_inference::rows(&inference, &loop_bounds);
    let t = Instant::now();
    let built = match cfg::ptx::build_observed(f, &p.analysis, input.progress) {
        Ok(b) => b,
        Err(d) => {
            out.diagnostics.push(d);
            out.kernel = Some(view);
            return;
        }
    };
    for ins in view.instructions.iter_mut() {
        ins.block = built.graph.block_of(ins.index);
    }
    let mut calls = Calls::new(ptx.module(), p);
    let costs = calls.block_costs(f, &built.graph, 0);
    out.diagnostics.append(&mut calls.diagnostics);
    let Some(costs) = costs else {
        out.kernel = Some(view);
        return;
    };
    let listing = PtxListing {
        f,
        graph: &built.graph,
        view: &view,
        costs,
    };
    let components = BTreeMap::from([("divergence_analysis".to_string(), true)]);
    ipet_bound::bound(
        &built.warp,
        &listing,
        &BoundRequest {
            loop_bounds: &loop_bounds,
            budget: &p.budget,
            cost_model: "unit",
            components,
            progress: input.progress,
            shared: shared_bounds(&built, &listing, &loop_bounds),
        },
        out,
    );
    if let ModeDetails::WarpCfg(details) = &mut out.details {
        details.divergent_branches = divergent_branches(f, &built.graph, &built.divergence);
    }
    out.time("warp_cfg+ipet", t);
    if let Some((sim, loops)) = ran {
        super::against_bound(
            sim,
            "the warp-cfg bound: one warp in isolation, one cycle per PTX instruction",
            out,
        );
        if let Some(s) = &mut out.simulation {
            s.loop_iterations = loops;
        }
    }
    out.kernel = Some(view);
}

/// The shared loop bounds ([`shared_loops`]) of a PTX warp-level CFG: loops of the
/// function's flow graph, bounds by header PC or label. The paths of a divergent branch
/// reconverge at its immediate post-dominator, which no path from outside a loop reaches
/// inside it without passing the header first: no reconvergence brings threads into a loop
/// from outside.
fn shared_bounds(
    built: &cfg::ptx::PtxWarp,
    listing: &PtxListing,
    lb: &crate::params::LoopBounds,
) -> Vec<ipet::SharedBound> {
    let g = &built.graph;
    let thread = ipet::Cfg {
        costs: vec![0; g.blocks.len()],
        edges: g.edges.iter().map(|&(a, b, _)| (a, b)).collect(),
        entry: 0,
        exits: g.blocks.iter().filter(|b| b.exits).map(|b| b.id).collect(),
    };
    shared_loops::shared_bounds(
        &thread,
        &built.warp,
        |h| {
            let by_label = || {
                listing
                    .labels(h)
                    .iter()
                    .find_map(|k| lb.per_label.get(k))
                    .copied()
            };
            lb.per_address
                .get(&listing.address(h))
                .copied()
                .or_else(by_label)
                .or(lb.default)
        },
        |_| false,
    )
}

/// The divergence verdicts in the report's terms.
fn divergent_branches(
    f: &Function,
    graph: &FlowGraph,
    d: &cfg::ptx::Divergence,
) -> Vec<DivergentBranch> {
    graph
        .blocks
        .iter()
        .filter(|b| d.divergent[b.id])
        .map(|b| DivergentBranch {
            instruction: b.last,
            line: f.instructions[b.last].span.line,
            guard: d.guard[b.id].clone().unwrap_or_default(),
            reason: d.reason[b.id].clone().unwrap_or_default(),
        })
        .collect()
}

/// One warp of the launch in isolation on the unit-cost machine: every issued PTX
/// instruction one cycle, as the bound counts them. The run and its loop counts; `None`
/// when it did not run (the diagnostics say why).
fn simulate(
    k: crate::ptx_launch::PtxKernel,
    run: &simulator::SimRun,
    progress: isa::Observer,
    inference: &crate::loop_inference::Inference,
    inferred_for: Option<&crate::loop_inference::Launch>,
    out: &mut ModeOutput,
) -> Option<(sim::Simulation, Vec<crate::observed_loops::ObservedLoop>)> {
    let f = k.function;
    let mut machine = simulator::preset_machine(Some("unit-cost"))?;
    machine.latency = cfg::LatencyTable::unit();
    machine.transaction_cycles = 0;
    // Without `params` (or with `params=auto`) the kernel's parameters are chosen from its
    // signature, as `simulate` and `rr` do, and listed in the report.
    // With `memory` empty too, the automatic pointers get automatic buffers.
    let from = out.diagnostics.len();
    let mut launch = run.launch.clone();
    if run.auto_params && !f.params.is_empty() {
        use crate::params::kernel_args;
        let values = kernel_args::auto(f);
        launch.params = kernel_args::words(f, &values);
        let args = kernel_args::report(f, &values, crate::report::ArgumentSource::Auto, true);
        out.arguments = Some(args);
    }
    let notes = crate::ptx_launch::prepare(
        k,
        &mut launch,
        out.arguments.as_mut(),
        &run.memory,
        run.auto_params,
    );
    out.diagnostics.extend(notes);
    let result = crate::auto_memory::run_on(&run.memory, out.arguments.as_mut(), |m| {
        crate::ptx_launch::run(k, &launch, &machine, m, &run.budget, progress)
    });
    if let Some(a) = &out.arguments {
        let note = crate::params::kernel_args::auto_note(a, true);
        out.diagnostics.push(note);
    }
    let result = result.map_err(|d| out.diagnostics.extend(d));
    simulator::simulation_stage(&mut out.diagnostics, from);
    let sim = result.ok()?;
    let loops = crate::observed_loops::of_ptx_run(f, &sim);
    out.diagnostics
        .extend(sim::loop_counts::truncation_warning(&sim));
    if crate::loop_inference::same_launch(&sim, inferred_for, 32) {
        out.diagnostics
            .extend(crate::loop_inference::check_observed(inference, &loops));
    }
    Some((sim, loops))
}

/// The PTX function's blocks as the IPET bound sees them.
struct PtxListing<'a> {
    f: &'a Function,
    graph: &'a FlowGraph,
    view: &'a KernelView,
    costs: Vec<u64>,
}

impl Listing for PtxListing<'_> {
    fn cost(&self, b: usize) -> u64 {
        self.costs[b]
    }

    fn node(&self, id: usize, b: usize, stack: &[cfg::Entry]) -> CfgNode {
        let blk = &self.graph.blocks[b];
        let mut n = line_block_node(b, blk.first, blk.last, blk.reachable, self.view);
        n.id = id;
        n.block = Some(b);
        n.context = context(self.f, stack);
        if !n.context.is_empty() {
            n.label.push(n.context.clone());
        }
        n
    }

    fn address(&self, b: usize) -> u64 {
        Function::pc(self.graph.blocks[b].first)
    }

    fn span(&self, b: usize) -> Span {
        self.f.instructions[self.graph.blocks[b].first].span
    }

    fn labels(&self, b: usize) -> Vec<String> {
        let first = self.graph.blocks[b].first;
        self.f
            .labels
            .iter()
            .filter(|(_, &i)| i == first)
            .map(|(l, _)| l.clone())
            .collect()
    }

    fn accepts_labels(&self) -> bool {
        true
    }
}

/// The PDOM stack of a node, top first: `rpc L3 · path L5 · ipdom L3`.
fn context(f: &Function, stack: &[cfg::Entry]) -> String {
    let name = |pc: usize| -> String {
        if pc == usize::MAX {
            return "exit".into();
        }
        f.labels.iter().find(|(_, &i)| i == pc).map_or_else(
            || {
                let line = f.instructions.get(pc).map_or(0, |i| i.span.line);
                format!("line {line}")
            },
            |(l, _)| l.clone(),
        )
    };
    stack
        .iter()
        .rev()
        .flat_map(|e| {
            e.points.iter().map(move |p| {
                let what = match p.tag {
                    Tag::Rpc => "rpc",
                    Tag::Path => "path",
                    Tag::Ipdom { arrived: true } => "ipdom✓",
                    _ => "ipdom",
                };
                format!("{what} {}{}", name(p.pc), if e.repeated { "+" } else { "" })
            })
        })
        .collect::<Vec<_>>()
        .join(" · ")
}
