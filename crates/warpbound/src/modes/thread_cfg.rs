//! The default mode (`cfg`) for the dialects without a SIMT stack in their listing — PTX,
//! GCN3, Sim-D and L/C strings: parse, list the functions, and draw the thread-level
//! control-flow graph, so that any pasted kernel shows its instructions and its graph before
//! the user picks an analysis. (SASS takes the route through `isa::blocks`, whose edges
//! follow the reconvergence stack, in `analyze.rs`.)
//!
//! The graphs: PTX and GCN3 from [`isa::flow`] (one thread's, or one wavefront's, program
//! counter); Sim-D from the `phases` crate's basic blocks and control-flow analysis (Sim-D
//! §5.1–5.2), whose decoder-injected `cpop` edges depend on the control stack; an L/C string
//! is one straight-line block.

use crate::report::{CfgEdge, CfgNode, CfgView, InstructionView, KernelView, Report};
use crate::views::{draw, edge_views};
use isa::flow::FlowGraph;
use isa::{Diagnostic, Dialect, Limits, ResourceClass, Severity};

/// Runs the default mode on `source` in `dialect` (not SASS).
pub fn run(
    dialect: Dialect,
    source: &str,
    function: Option<&str>,
    limits: &Limits,
    report: &mut Report,
) {
    match dialect {
        Dialect::Ptx => ptx(source, function, limits, report),
        Dialect::Gcn => gcn(source, function, limits, report),
        Dialect::Simd => simd(source, limits, report),
        Dialect::Lc => lc(source, report),
        Dialect::PwsCsv => pws_csv(source, limits, report),
        Dialect::Sass => report.diagnostics.push(Diagnostic::global(
            Severity::Error,
            "internal: SASS takes the block-graph route",
        )),
    }
}

fn ptx(source: &str, function: Option<&str>, limits: &Limits, report: &mut Report) {
    let parsed = isa::ptx::parse(source, limits);
    let failed = parsed.has_errors();
    report
        .diagnostics
        .extend(parsed.diagnostics.iter().cloned());
    let Some((f, names)) = crate::rr_mode::pick_kernel(&parsed, function, failed, report) else {
        return;
    };
    let mut view = crate::rr_mode::kernel_view(f, names, source);
    let graph = isa::flow::build(&isa::ptx::flows(f));
    report.cfg = Some(flow_view(&graph, &mut view));
    report.kernel = Some(view);
}

fn gcn(source: &str, function: Option<&str>, limits: &Limits, report: &mut Report) {
    let program = isa::gcn::parse(source, limits);
    let failed = program.has_errors();
    report
        .diagnostics
        .extend(program.diagnostics.iter().cloned());
    let Some((f, names)) = crate::pws_mode::pick_function(&program, function, failed, report)
    else {
        return;
    };
    let mut view = crate::pws_mode::kernel_view(f, names, program.target.clone());
    let graph = isa::flow::build(&isa::gcn::flows(f));
    report.cfg = Some(flow_view(&graph, &mut view));
    report.kernel = Some(view);
}

fn simd(source: &str, limits: &Limits, report: &mut Report) {
    let parsed = isa::simd::parse(source, limits);
    let failed = parsed.has_errors();
    report.diagnostics.extend(parsed.diagnostics);
    let Some(program) = parsed.program else {
        return;
    };
    let mut view = crate::simd_mode::kernel_view(&program);
    if !failed {
        let blocks = phases::basic_blocks::split(&program);
        for ins in view.instructions.iter_mut() {
            // `block_at` finds a block by its first instruction; this is any instruction.
            let i = blocks.partition_point(|b| b.end <= ins.index);
            ins.block = blocks.get(i).filter(|b| b.first <= ins.index).map(|b| b.id);
        }
        match phases::control_flow::analyse(&program, &blocks) {
            Ok(cf) => {
                report.diagnostics.extend(cf.warnings.iter().cloned());
                let edges = cf
                    .edges
                    .iter()
                    .map(|e| CfgEdge {
                        from: e.from,
                        to: e.to,
                        kind: crate::simd_mode::edge_kind_name(e.kind).into(),
                        count: None,
                    })
                    .collect();
                let nodes = blocks
                    .iter()
                    .map(|b| block_node(b.id, b.first, b.last(), true, &view))
                    .collect();
                report.cfg = Some(draw("simd", nodes, dedup(edges)));
            }
            Err(e) => report.diagnostics.extend(e.diagnostics),
        }
    }
    report.kernel = Some(view);
}

fn lc(source: &str, report: &mut Report) {
    let (prog, d) = isa::lc::parse(source);
    let failed = d.iter().any(Diagnostic::is_error);
    report.diagnostics.extend(d);
    if failed || prog.kernel.is_empty() {
        return;
    }
    let span = prog.kernel_span;
    let instructions = prog
        .kernel
        .iter()
        .enumerate()
        .map(|(i, op)| {
            let (letter, class, what) = match op {
                isa::lc::LcOp::L => ("L", ResourceClass::LoadStoreGlobal, "load/store unit"),
                isa::lc::LcOp::C => ("C", ResourceClass::Alu, "CUDA cores"),
            };
            InstructionView {
                index: i,
                address: i as u64,
                line: span.line,
                column: span.column + i as u32,
                text: format!("{letter} ({what})"),
                guard: None,
                opcode: letter.into(),
                operands: Vec::new(),
                reads: Vec::new(),
                writes: Vec::new(),
                control: "fallthrough".into(),
                target: None,
                class,
                block: Some(0),
            }
        })
        .collect::<Vec<_>>();
    let mut view = KernelView {
        function: "kernel".into(),
        functions: vec!["kernel".into()],
        arch: None,
        instructions,
    };
    let graph = isa::flow::build(&vec![isa::flow::Flow::Next; view.instructions.len()]);
    report.cfg = Some(flow_view(&graph, &mut view));
    report.kernel = Some(view);
}

/// A PWS solver graph (CSV) is already a wavefront control-flow graph of basic blocks with
/// their costs: shown as it is (the `pws` mode adds the splits and the bounds).
fn pws_csv(source: &str, limits: &Limits, report: &mut Report) {
    let g = match pws::read_csv(source, limits.max_instructions) {
        Ok(g) => g,
        Err(e) => {
            report.diagnostics.push(e.diagnostic);
            return;
        }
    };
    let nodes = g
        .nodes
        .iter()
        .enumerate()
        .map(|(id, n)| {
            let mut role = Vec::new();
            if n.kind == pws::NodeKind::Branch {
                role.push("branch");
            }
            if n.reconv {
                role.push("reconv");
            }
            CfgNode {
                id,
                kind: "block".into(),
                block: Some(id),
                context: String::new(),
                cost: Some(n.cost),
                count: None,
                start: id as u64,
                end: id as u64,
                instructions: 0,
                first: 0,
                last: 0,
                line_start: n.lines.as_ref().map_or(0, |l| l.first),
                line_end: n.lines.as_ref().map_or(0, |l| l.last),
                reachable: true,
                label: vec![format!("{}  cost {}", n.label, n.cost)],
                role: role.join(" "),
            }
        })
        .collect();
    let edges = g
        .nodes
        .iter()
        .enumerate()
        .flat_map(|(u, n)| {
            n.successors.iter().map(move |&v| CfgEdge {
                from: u,
                to: v,
                kind: if n.successors.len() > 1 {
                    "taken"
                } else {
                    "fallthrough"
                }
                .into(),
                count: None,
            })
        })
        .collect();
    report.cfg = Some(draw("wavefront", nodes, dedup(edges)));
}

/// The drawing of a [`FlowGraph`], and each instruction's block in `view`.
fn flow_view(graph: &FlowGraph, view: &mut KernelView) -> CfgView {
    for ins in view.instructions.iter_mut() {
        ins.block = graph.block_of(ins.index);
    }
    let nodes = graph
        .blocks
        .iter()
        .map(|b| block_node(b.id, b.first, b.last, b.reachable, view))
        .collect();
    draw("thread", nodes, edge_views(graph.edges.iter().copied()))
}

fn dedup(mut edges: Vec<CfgEdge>) -> Vec<CfgEdge> {
    let mut seen = std::collections::BTreeSet::new();
    edges.retain(|e| seen.insert((e.from, e.to, e.kind.clone())));
    edges
}

/// A block node labelled by its source lines and its last instruction.
fn block_node(id: usize, first: usize, last: usize, reachable: bool, view: &KernelView) -> CfgNode {
    let ins = |i: usize| view.instructions.get(i);
    let line = |i: usize| ins(i).map_or(0, |x| x.line);
    let n = last + 1 - first;
    let tail = ins(last).map_or(String::new(), |x| x.opcode.clone());
    let lines = if line(first) == line(last) {
        format!("line {}", line(first))
    } else {
        format!("lines {}–{}", line(first), line(last))
    };
    CfgNode {
        id,
        kind: "block".into(),
        block: Some(id),
        context: String::new(),
        cost: None,
        count: None,
        start: ins(first).map_or(0, |x| x.address),
        end: ins(last).map_or(0, |x| x.address),
        instructions: n,
        first,
        last,
        line_start: line(first),
        line_end: line(last),
        reachable,
        label: vec![format!("B{id}  {lines}"), format!("{n} instr · {tail}")],
        role: String::new(),
    }
}
