//! Control-flow graph drawings (`report.cfg`): nodes, edges and the layered layout, for each
//! kind of graph a mode shows — a SASS block graph, a dialect-neutral flow graph (PTX, GCN3,
//! L/C), Sim-D's stack-annotated blocks, a PWS wavefront graph, the round-robin analyzer's
//! blocks. The warp-level CFG is built by its mode from these primitives (its nodes carry
//! IPET counts).

use crate::report::{CfgEdge, CfgNode, CfgView, KernelView};
use isa::flow::FlowGraph;
use isa::{BlockGraph, Kernel};
use std::collections::BTreeSet;

/// Pixel metrics the layout uses to size node boxes for their labels (monospace 12px text)
/// and their code lines (monospace 11px, 14px apart; the page draws them so).
const CHAR_WIDTH: f64 = 7.4;
const LINE_HEIGHT: f64 = 16.0;
const CODE_CHAR_WIDTH: f64 = 6.7;
const CODE_LINE_HEIGHT: f64 = 14.0;
const NODE_PADDING: f64 = 10.0;

/// Most instruction lines a node shows (issue #25: nodes show their instructions, long
/// blocks collapsed): the first [`MAX_CODE_LINES`] − 3, a `⋯ N more` line, the last two.
pub const MAX_CODE_LINES: usize = 8;
/// Characters of an instruction line before it is cut with `…`.
pub const CODE_CHARS: usize = 36;

/// Lays out `nodes` and `edges` (coordinates for the page).
pub fn draw(kind: &str, nodes: Vec<CfgNode>, edges: Vec<CfgEdge>) -> CfgView {
    if nodes.len() > MAX_DRAWN_NODES {
        return omitted(kind, nodes.len(), edges.len());
    }
    let sizes: Vec<layout::NodeSize> = nodes
        .iter()
        .map(|n| {
            let chars = n.label.iter().map(|l| l.chars().count()).max().unwrap_or(0);
            let code = n.code.iter().map(|l| l.chars().count()).max().unwrap_or(0);
            let gap = if n.code.is_empty() { 0.0 } else { 4.0 };
            layout::NodeSize {
                width: (chars as f64 * CHAR_WIDTH).max(code as f64 * CODE_CHAR_WIDTH)
                    + 2.0 * NODE_PADDING,
                height: n.label.len() as f64 * LINE_HEIGHT
                    + n.code.len() as f64 * CODE_LINE_HEIGHT
                    + gap
                    + NODE_PADDING,
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
        layout: (&drawing).into(),
        omitted: None,
    }
}

/// Most nodes a graph view draws. Nobody reads a drawing of tens of thousands of blocks (an
/// unrolled wavefront graph has up to `max_unrolled_nodes`), and laying it out, sending it
/// to the page and rendering it would take longer than the analysis: such a view says how
/// large the graph was instead ([`omitted`]).
pub const MAX_DRAWN_NODES: usize = 4000;

/// The view of a graph of `nodes` nodes and `edges` edges too large to draw.
pub fn omitted(kind: &str, nodes: usize, edges: usize) -> CfgView {
    CfgView {
        kind: kind.into(),
        entry: 0,
        omitted: Some(crate::report::OmittedGraph {
            nodes,
            edges,
            limit: MAX_DRAWN_NODES,
        }),
        nodes: Vec::new(),
        edges: Vec::new(),
        layout: (&layout::layered(&[], &[], &layout::Options::default())).into(),
    }
}

/// The code lines of instructions `first..=last` whose text `text(i)` gives (see
/// [`MAX_CODE_LINES`], [`CODE_CHARS`]).
pub fn code_lines(first: usize, last: usize, text: impl Fn(usize) -> String) -> Vec<String> {
    let cut = |i: usize| {
        let t = text(i);
        let t = t.trim();
        if t.chars().count() > CODE_CHARS {
            let mut s: String = t.chars().take(CODE_CHARS - 1).collect();
            s.push('…');
            s
        } else {
            t.to_string()
        }
    };
    if last < first {
        return Vec::new();
    }
    let n = last + 1 - first;
    if n <= MAX_CODE_LINES {
        return (first..=last).map(cut).collect();
    }
    let head = MAX_CODE_LINES - 3;
    let mut out: Vec<String> = (first..first + head).map(cut).collect();
    out.push(format!("⋯ {} more", n - head - 2));
    out.extend((last - 1..=last).map(cut));
    out
}

/// A SASS instruction as a listing writes it: guard, opcode with modifiers, operands.
fn sass_text(ins: &isa::Instruction) -> String {
    let guard = ins.guard.as_ref().map_or(String::new(), |g| {
        format!("@{}{} ", if g.negated { "!" } else { "" }, g.reg)
    });
    let mut op = ins.opcode.name.clone();
    for m in &ins.opcode.modifiers {
        op.push('.');
        op.push_str(m);
    }
    let operands: Vec<&str> = ins.operands.iter().map(|o| o.text.as_str()).collect();
    if operands.is_empty() {
        format!("{guard}{op}")
    } else {
        format!("{guard}{op} {}", operands.join(", "))
    }
}

/// A plain node: no cost, count, context or role yet.
fn node(id: usize, label: Vec<String>) -> CfgNode {
    CfgNode {
        id,
        kind: "block".into(),
        block: Some(id),
        context: String::new(),
        cost: None,
        count: None,
        start: 0,
        end: 0,
        instructions: 0,
        first: 0,
        last: 0,
        line_start: 0,
        line_end: 0,
        reachable: true,
        label,
        code: Vec::new(),
        role: String::new(),
    }
}

fn edge(from: usize, to: usize, kind: &str) -> CfgEdge {
    CfgEdge {
        from,
        to,
        kind: kind.into(),
        count: None,
    }
}

/// Drops repeated `(from, to, kind)` edges.
fn dedup(mut edges: Vec<CfgEdge>) -> Vec<CfgEdge> {
    let mut seen = BTreeSet::new();
    edges.retain(|e| seen.insert((e.from, e.to, e.kind.clone())));
    edges
}

/// A node for block `b` of a SASS block graph, in pending-stack `context` (no cost or count).
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
        block: Some(b),
        context,
        start: blk.start,
        end: blk.end,
        instructions: n,
        first: blk.first,
        last: blk.last,
        line_start: kernel.instructions[blk.first].span.line,
        line_end: kernel.instructions[blk.last].span.line,
        reachable: blk.reachable,
        code: code_lines(blk.first, blk.last, |i| {
            kernel.instructions.get(i).map_or(String::new(), sass_text)
        }),
        ..node(id, label)
    }
}

/// The virtual exit node of a warp-level CFG.
pub fn exit_node(id: usize) -> CfgNode {
    CfgNode {
        kind: "exit".into(),
        block: None,
        cost: Some(0),
        ..node(id, vec!["exit".into()])
    }
}

/// Thread-level edges `(from, to, kind)` as report edges (no counts).
pub fn edge_views(edges: impl IntoIterator<Item = (usize, usize, isa::EdgeKind)>) -> Vec<CfgEdge> {
    edges
        .into_iter()
        .map(|(from, to, kind)| edge(from, to, kind.name()))
        .collect()
}

/// The thread-level basic-block graph of a SASS kernel.
pub fn thread(kernel: &Kernel, graph: &BlockGraph) -> CfgView {
    let nodes = graph
        .blocks
        .iter()
        .map(|b| block_node(kernel, graph, b.id, b.id, String::new()))
        .collect();
    draw("thread", nodes, edge_views(graph.edges()))
}

/// A block node labelled by the source lines of its instructions `first..=last` in `view`
/// and its last opcode (dialects whose addresses mean little to a reader).
pub fn line_block_node(
    id: usize,
    first: usize,
    last: usize,
    reachable: bool,
    view: &KernelView,
) -> CfgNode {
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
        start: ins(first).map_or(0, |x| x.address),
        end: ins(last).map_or(0, |x| x.address),
        instructions: n,
        first,
        last,
        line_start: line(first),
        line_end: line(last),
        reachable,
        code: code_lines(first, last, |i| {
            ins(i).map_or(String::new(), |x| x.text.clone())
        }),
        ..node(
            id,
            vec![format!("B{id}  {lines}"), format!("{n} instr · {tail}")],
        )
    }
}

/// The drawing of a dialect-neutral [`FlowGraph`] (PTX, GCN3, L/C), and each instruction's
/// block in `view`.
pub fn flow(graph: &FlowGraph, view: &mut KernelView) -> CfgView {
    for ins in view.instructions.iter_mut() {
        ins.block = graph.block_of(ins.index);
    }
    let nodes = graph
        .blocks
        .iter()
        .map(|b| line_block_node(b.id, b.first, b.last, b.reachable, view))
        .collect();
    draw("thread", nodes, edge_views(graph.edges.iter().copied()))
}

/// The report's name of a Sim-D edge class (§5.2): an injected `cpop` is where the
/// work-items of a control-stack entry reconverge.
pub fn simd_edge_kind(kind: phases::EdgeKind) -> &'static str {
    match kind {
        phases::EdgeKind::Fallthrough => "fallthrough",
        phases::EdgeKind::Jump => "taken",
        phases::EdgeKind::CpopInjected => "reconvergence",
    }
}

/// A Sim-D program's basic blocks with the control-flow analysis's edges (Sim-D §5.1–5.2),
/// before any timing: what the default mode draws.
pub fn simd_blocks(
    blocks: &[phases::basic_blocks::BasicBlock],
    edges: &[phases::control_flow::CfgEdge],
    view: &KernelView,
) -> CfgView {
    let edges = edges
        .iter()
        .map(|e| edge(e.from, e.to, simd_edge_kind(e.kind)))
        .collect();
    let nodes = blocks
        .iter()
        .map(|b| line_block_node(b.id, b.first, b.last(), true, view))
        .collect();
    draw("simd", nodes, dedup(edges))
}

/// The `simd` mode's graph: blocks with their cold/warm cycles and access requests.
pub fn simd_timed(r: &phases::SimdResult) -> CfgView {
    let nodes: Vec<CfgNode> = r
        .blocks
        .iter()
        .map(|b| {
            let mut label = vec![match &b.label {
                Some(l) => format!("B{} {l}", b.id),
                None => format!("B{}", b.id),
            }];
            label.push(format!(
                "{} instr · cold {} / warm {}",
                b.instruction_count,
                b.cold_cycles,
                b.warm_cycles.map_or("–".into(), |w| w.to_string())
            ));
            if let Some(a) = &b.access {
                label.push(format!("{:?} request: {} cycles", a.resource, a.cycles).to_lowercase());
            }
            let last = b.first_instruction + b.instruction_count.saturating_sub(1);
            CfgNode {
                cost: Some(b.cold_cycles),
                start: b.first_instruction as u64,
                end: last as u64,
                instructions: b.instruction_count,
                first: b.first_instruction,
                last,
                line_start: b.first_line,
                line_end: b.last_line,
                ..node(b.id, label)
            }
        })
        .collect();
    let edges = r
        .edges
        .iter()
        .map(|e| edge(e.from, e.to, simd_edge_kind(e.kind)))
        .collect();
    draw("simd", nodes, edges)
}

/// A PWS solver graph (CSV) as it is: a wavefront CFG of blocks with their costs.
pub fn pws_csv(g: &pws::WavefrontCfg) -> CfgView {
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
                cost: Some(n.cost),
                start: id as u64,
                end: id as u64,
                line_start: n.lines.as_ref().map_or(0, |l| l.first),
                line_end: n.lines.as_ref().map_or(0, |l| l.last),
                role: role.join(" "),
                ..node(id, vec![format!("{}  cost {}", n.label, n.cost)])
            }
        })
        .collect();
    let edges = g
        .nodes
        .iter()
        .enumerate()
        .flat_map(|(u, n)| {
            let kind = if n.successors.len() > 1 {
                "taken"
            } else {
                "fallthrough"
            };
            n.successors.iter().map(move |&v| edge(u, v, kind))
        })
        .collect();
    draw("wavefront", nodes, dedup(edges))
}

/// Instruction indices `first..=last` of the instructions on `lines`, from `by_line` (the
/// view's `(line, index)` pairs, sorted): a binary search per node, since an unrolled
/// wavefront graph has up to `max_unrolled_nodes` nodes and a listing thousands of lines.
fn instruction_range(by_line: &[(u32, usize)], lines: Option<pws::LineRange>) -> (usize, usize) {
    let Some(l) = lines else {
        return (0, 0);
    };
    let lo = by_line.partition_point(|&(line, _)| line < l.first);
    let hi = by_line.partition_point(|&(line, _)| line <= l.last);
    let inside = &by_line[lo..hi.max(lo)];
    let first = inside.iter().map(|&(_, i)| i).min().unwrap_or(0);
    let last = inside.iter().map(|&(_, i)| i).max().unwrap_or(0);
    (first, last)
}

/// The `pws` mode's wavefront graph after Select and Prune: roles for branch, BSB,
/// reconvergence, split and marked nodes; pruned edges marked.
pub fn pws(r: &pws::PwsResult, view: Option<&KernelView>) -> CfgView {
    if r.nodes.len() > MAX_DRAWN_NODES {
        let edges = r.nodes.iter().map(|n| n.successors.len()).sum();
        return omitted("wavefront", r.nodes.len(), edges);
    }
    let pruned: BTreeSet<(usize, usize)> = r.pruned_edges.iter().copied().collect();
    let mut by_line: Vec<(u32, usize)> = view
        .map(|v| v.instructions.iter().map(|i| (i.line, i.index)).collect())
        .unwrap_or_default();
    by_line.sort_unstable();
    let nodes: Vec<CfgNode> = r
        .nodes
        .iter()
        .map(|n| {
            let role = match n.kind {
                pws::NodeKind::Branch if n.splittable => "branch",
                pws::NodeKind::Branch => "branch-fixed",
                pws::NodeKind::Bsb => "bsb",
                pws::NodeKind::Reconv => "reconv",
                pws::NodeKind::Plain => "",
            };
            let mut label = vec![format!("n{} {}", n.id, n.label)];
            let mut what = match n.kind {
                pws::NodeKind::Branch => "divergent branch".to_string(),
                pws::NodeKind::Bsb => "BSB".to_string(),
                pws::NodeKind::Reconv => "reconvergence".to_string(),
                pws::NodeKind::Plain => "block".to_string(),
            };
            if n.reconv && n.kind != pws::NodeKind::Reconv {
                what.push_str(" + reconv");
            }
            label.push(format!("{what} · e_bb {}", n.cost));
            let mark = if n.split {
                label.push("split here".into());
                " split"
            } else if n.marked {
                label.push("marked".into());
                " marked"
            } else {
                ""
            };
            let (first, last) = if view.is_some() {
                instruction_range(&by_line, n.lines)
            } else {
                (0, 0)
            };
            let code = match (view, n.lines) {
                (Some(v), Some(_)) => code_lines(first, last, |i| {
                    v.instructions
                        .get(i)
                        .map_or(String::new(), |x| x.text.clone())
                }),
                _ => Vec::new(),
            };
            CfgNode {
                code,
                cost: Some(n.cost),
                start: n.id as u64,
                end: n.id as u64,
                instructions: last + 1 - first.min(last),
                first,
                last,
                line_start: n.lines.map_or(0, |l| l.first),
                line_end: n.lines.map_or(0, |l| l.last),
                role: format!("{role}{mark}").trim().to_string(),
                ..node(n.id, label)
            }
        })
        .collect();
    let edges = r
        .nodes
        .iter()
        .flat_map(|n| {
            let pruned = &pruned;
            n.successors.iter().map(move |&s| {
                let kind = if pruned.contains(&(n.id, s)) {
                    "pruned"
                } else {
                    "flow"
                };
                edge(n.id, s, kind)
            })
        })
        .collect();
    draw("wavefront", nodes, edges)
}

/// The round-robin analyzer's basic blocks of a PTX function (post-dominator analysis),
/// labelled by program counter.
pub fn rr(
    f: &isa::ptx::Function,
    cf: &roundrobin::control_flow::ControlFlow,
    view: &KernelView,
) -> CfgView {
    use isa::ptx::Function;
    let nodes = cf
        .blocks
        .iter()
        .map(|b| {
            let last = b.end.saturating_sub(1).max(b.start);
            let line = |i: usize| f.instructions.get(i).map_or(0, |x| x.span.line);
            let tail = f
                .instructions
                .get(last)
                .map_or(String::new(), |x| x.mnemonic());
            let count = b.end.saturating_sub(b.start);
            let label = vec![
                format!(
                    "B{}  pc {}–{}",
                    b.id,
                    Function::pc(b.start),
                    Function::pc(last)
                ),
                format!("{count} instr · {tail}"),
            ];
            CfgNode {
                start: Function::pc(b.start),
                end: Function::pc(last),
                instructions: count,
                first: b.start,
                last,
                line_start: line(b.start),
                line_end: line(last),
                code: code_lines(b.start, last, |i| {
                    view.instructions
                        .get(i)
                        .map_or(String::new(), |x| x.text.clone())
                }),
                ..node(b.id, label)
            }
        })
        .collect();
    let mut edges = Vec::new();
    for b in &cf.blocks {
        if let Some(t) = b.taken {
            edges.push(edge(b.id, t, "taken"));
        }
        if let Some(t) = b.fallthrough {
            edges.push(edge(b.id, t, "fallthrough"));
        }
    }
    draw("thread", nodes, edges)
}
