//! Report views shared by the modes: the kernel table and graph drawings.

use crate::report::{CfgEdge, CfgNode, CfgView, InstructionView, KernelView};
use isa::{BlockGraph, ControlKind, Kernel};

fn control_name(c: ControlKind) -> &'static str {
    match c {
        ControlKind::Fallthrough => "fallthrough",
        ControlKind::Branch(_) => "branch",
        ControlKind::Ssy(_) => "ssy",
        ControlKind::Pbk(_) => "pbk",
        ControlKind::Pcnt(_) => "pcnt",
        ControlKind::Pret(_) => "pret",
        ControlKind::Sync => "sync",
        ControlKind::Brk => "brk",
        ControlKind::Cont => "cont",
        ControlKind::Exit => "exit",
        ControlKind::Call(_) => "call",
        ControlKind::Ret => "ret",
        ControlKind::Barrier => "barrier",
        ControlKind::Indirect => "indirect",
    }
}

/// The instruction table.
pub fn kernel_view(kernel: &Kernel, functions: Vec<String>) -> KernelView {
    let instructions = kernel
        .instructions
        .iter()
        .enumerate()
        .map(|(index, ins)| {
            let mut opcode = ins.opcode.name.clone();
            for m in &ins.opcode.modifiers {
                opcode.push('.');
                opcode.push_str(m);
            }
            InstructionView {
                index,
                address: ins.address,
                line: ins.span.line,
                column: ins.span.column,
                text: ins.text.clone(),
                guard: ins
                    .guard
                    .as_ref()
                    .map(|g| format!("@{}{}", if g.negated { "!" } else { "" }, g.reg)),
                opcode,
                operands: ins.operands.iter().map(|o| o.text.clone()).collect(),
                reads: ins.reads.iter().map(ToString::to_string).collect(),
                writes: ins.writes.iter().map(ToString::to_string).collect(),
                control: control_name(ins.control).into(),
                target: ins.control.target(),
                class: ins.class,
                block: None,
            }
        })
        .collect();
    KernelView {
        function: kernel.function.clone(),
        functions,
        arch: kernel.arch.clone(),
        instructions,
    }
}

/// Pixel metrics the layout uses to size node boxes for their labels (monospace 12px text).
const CHAR_WIDTH: f64 = 7.4;
const LINE_HEIGHT: f64 = 16.0;
const NODE_PADDING: f64 = 10.0;

/// A node for block `b` (no cost or count yet).
pub fn block_node(
    kernel: &Kernel,
    graph: &BlockGraph,
    id: usize,
    b: usize,
    context: String,
) -> CfgNode {
    let blk = &graph.blocks[b];
    let n = blk.len();
    let mut label = vec![
        format!("B{}  {:#06x}–{:#06x}", blk.id, blk.start, blk.end),
        format!(
            "{n} instr · {}",
            kernel.instructions[blk.last].opcode.name.to_lowercase()
        ),
    ];
    if !context.is_empty() {
        label.push(context.clone());
    }
    CfgNode {
        id,
        kind: "block".into(),
        block: Some(b),
        context,
        cost: None,
        count: None,
        start: blk.start,
        end: blk.end,
        instructions: n,
        first: blk.first,
        last: blk.last,
        line_start: kernel.instructions[blk.first].span.line,
        line_end: kernel.instructions[blk.last].span.line,
        reachable: blk.reachable,
        label,
        role: String::new(),
    }
}

/// The virtual exit node of a warp-level CFG.
pub fn exit_node(id: usize) -> CfgNode {
    CfgNode {
        id,
        kind: "exit".into(),
        block: None,
        context: String::new(),
        cost: Some(0),
        count: None,
        start: 0,
        end: 0,
        instructions: 0,
        first: 0,
        last: 0,
        line_start: 0,
        line_end: 0,
        reachable: true,
        label: vec!["exit".into()],
        role: String::new(),
    }
}

/// Lays out `nodes` and `edges` (coordinates for the page).
pub fn draw(kind: &str, nodes: Vec<CfgNode>, edges: Vec<CfgEdge>) -> CfgView {
    let sizes: Vec<layout::NodeSize> = nodes
        .iter()
        .map(|n| {
            let chars = n.label.iter().map(|l| l.chars().count()).max().unwrap_or(0);
            layout::NodeSize {
                width: chars as f64 * CHAR_WIDTH + 2.0 * NODE_PADDING,
                height: n.label.len() as f64 * LINE_HEIGHT + NODE_PADDING,
            }
        })
        .collect();
    let pairs: Vec<(usize, usize)> = edges.iter().map(|e| (e.from, e.to)).collect();
    let drawing = layout::layered(&sizes, &pairs, &layout::Options::default());
    CfgView {
        kind: kind.into(),
        entry: 0,
        nodes,
        edges,
        layout: drawing,
    }
}

/// The thread-level basic-block graph.
pub fn thread_cfg_view(kernel: &Kernel, graph: &BlockGraph) -> CfgView {
    let nodes = graph
        .blocks
        .iter()
        .map(|b| block_node(kernel, graph, b.id, b.id, String::new()))
        .collect();
    draw("thread", nodes, edge_views(graph.edges()))
}

/// Thread-level edges `(from, to, kind)` as report edges (no counts).
pub fn edge_views(edges: impl IntoIterator<Item = (usize, usize, isa::EdgeKind)>) -> Vec<CfgEdge> {
    edges
        .into_iter()
        .map(|(from, to, kind)| CfgEdge {
            from,
            to,
            kind: kind.name().into(),
            count: None,
        })
        .collect()
}
