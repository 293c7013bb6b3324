//! The thread-level basic-block graph: how control can flow for *one* thread.
//!
//! Leaders are the first instruction, every static code target (branch, call, the candidate
//! targets of an indirect branch when known, and the reconvergence targets of
//! `SSY`/`PBK`/`PCNT`/`PRET`), and every instruction after one that ends a block. Edges for
//! `SYNC`, `BRK`, `CONT` and `RET` go where the matching reconvergence/return entry sends the
//! thread; those entries are found by walking the graph with the stack of pending entries
//! (bounded by [`Limits::max_cfg_states`]).
//!
//! This is *not* the warp-level CFG of Jeanmougin et al.: it has no divergence edges and no
//! per-context duplication; it is the skeleton that analysis starts from.

use crate::diagnostic::Diagnostic;
use crate::instruction::ControlKind;
use crate::kernel::Kernel;
use crate::limits::Limits;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use std::collections::{BTreeMap, BTreeSet, HashSet, VecDeque};

/// Why control can pass from one block to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EdgeKind {
    /// To the next instruction (also the not-taken side of a guarded branch).
    Fallthrough,
    /// A branch's taken side.
    Taken,
    /// `SYNC` (or a `.S` instruction) to its `SSY` target.
    Sync,
    /// `BRK` to its `PBK` target.
    Break,
    /// `CONT` to its `PCNT` target.
    Continue,
    /// `CAL` to the callee.
    Call,
    /// `RET` back to the instruction after the call (or to a `PRET` target).
    Return,
}

impl EdgeKind {
    /// The name used in reports (`CfgEdge::kind`).
    pub fn name(self) -> &'static str {
        match self {
            EdgeKind::Fallthrough => "fallthrough",
            EdgeKind::Taken => "taken",
            EdgeKind::Sync => "sync",
            EdgeKind::Break => "break",
            EdgeKind::Continue => "continue",
            EdgeKind::Call => "call",
            EdgeKind::Return => "return",
        }
    }
}

/// A maximal straight-line run of instructions, `first..=last` (indices into the kernel).
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub id: usize,
    pub first: usize,
    pub last: usize,
    pub start: u64,
    pub end: u64,
    /// Whether any path from the entry reaches this block (the self-loop `cuobjdump` places
    /// after the last `EXIT` does not).
    pub reachable: bool,
    /// Reconvergence entries pushed in this block: (`ssy`|`pbk`|`pcnt`|`pret`, target address).
    pub pushes: Vec<(String, u64)>,
}

impl Block {
    pub fn len(&self) -> usize {
        self.last + 1 - self.first
    }

    pub fn is_empty(&self) -> bool {
        false
    }
}

/// Blocks as the nodes of a `petgraph` graph (node weight = block id), block 0 the entry.
#[derive(Debug, Clone)]
pub struct BlockGraph {
    pub blocks: Vec<Block>,
    pub graph: DiGraph<usize, EdgeKind>,
    pub diagnostics: Vec<Diagnostic>,
}

impl BlockGraph {
    /// Edges as (from block, to block, kind), sorted, without duplicates.
    pub fn edges(&self) -> Vec<(usize, usize, EdgeKind)> {
        let mut v: Vec<_> = self
            .graph
            .edge_references()
            .map(|e| (e.source().index(), e.target().index(), *e.weight()))
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// The block holding instruction `index`.
    pub fn block_of(&self, index: usize) -> Option<usize> {
        let i = self.blocks.partition_point(|b| b.last < index);
        (i < self.blocks.len() && self.blocks[i].first <= index).then_some(i)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Pending {
    Sync(u64),
    Break(u64),
    Continue(u64),
    /// Return point: after a call, or a `PRET` target.
    Return(u64),
}

/// Deepest reconvergence stack followed; deeper paths (unbalanced pushes in a loop) stop
/// with a warning rather than growing without bound.
const MAX_STACK: usize = 64;

/// Builds the thread-level basic-block graph of `kernel`.
pub fn build(kernel: &Kernel, limits: &Limits) -> BlockGraph {
    let instrs = &kernel.instructions;
    let mut diagnostics = Vec::new();
    if instrs.is_empty() {
        return BlockGraph {
            blocks: Vec::new(),
            graph: DiGraph::new(),
            diagnostics,
        };
    }
    let mut leaders = BTreeSet::new();
    leaders.insert(0usize);
    for (i, ins) in instrs.iter().enumerate() {
        if let Some(t) = ins.control.target().and_then(|a| kernel.index_of(a)) {
            leaders.insert(t);
        }
        for t in ins
            .indirect_targets
            .iter()
            .filter_map(|&a| kernel.index_of(a))
        {
            leaders.insert(t);
        }
        if ins.control.ends_block() && i + 1 < instrs.len() {
            leaders.insert(i + 1);
        }
    }
    let starts: Vec<usize> = leaders.into_iter().collect();
    let mut blocks = Vec::with_capacity(starts.len());
    let mut graph = DiGraph::with_capacity(starts.len(), starts.len() * 2);
    for (id, &first) in starts.iter().enumerate() {
        let last = starts.get(id + 1).map_or(instrs.len() - 1, |n| n - 1);
        let pushes = instrs[first..=last]
            .iter()
            .filter_map(|ins| match ins.control {
                ControlKind::Ssy(Some(t)) => Some(("ssy".to_string(), t)),
                ControlKind::Pbk(Some(t)) => Some(("pbk".to_string(), t)),
                ControlKind::Pcnt(Some(t)) => Some(("pcnt".to_string(), t)),
                ControlKind::Pret(Some(t)) => Some(("pret".to_string(), t)),
                ControlKind::Bssy {
                    barrier,
                    target: Some(t),
                } => Some((format!("bssy b{barrier}"), t)),
                _ => None,
            })
            .collect();
        blocks.push(Block {
            id,
            first,
            last,
            start: instrs[first].address,
            end: instrs[last].address,
            reachable: false,
            pushes,
        });
        graph.add_node(id);
    }
    let block_at = |addr: u64| -> Option<usize> {
        let idx = kernel.index_of(addr)?;
        starts.binary_search(&idx).ok()
    };

    // Walk (block, pending stack) states from the entry.
    let mut edges: BTreeSet<(usize, usize, EdgeKind)> = BTreeSet::new();
    let mut seen: HashSet<(usize, Vec<Pending>)> = HashSet::new();
    let mut queue: VecDeque<(usize, Vec<Pending>)> = VecDeque::new();
    // At most one warning per instruction, however many paths reach it.
    let mut warnings: BTreeMap<usize, Diagnostic> = BTreeMap::new();
    queue.push_back((0, Vec::new()));
    let mut budget_hit = false;
    while let Some((b, stack)) = queue.pop_front() {
        if !seen.insert((b, stack.clone())) {
            continue;
        }
        if seen.len() > limits.max_cfg_states {
            budget_hit = true;
            break;
        }
        blocks[b].reachable = true;
        let mut stack = stack;
        let block = &blocks[b];
        // Entries pushed inside the block take effect before its last instruction.
        for ins in &instrs[block.first..block.last] {
            push_entry(&mut stack, ins.control);
        }
        let last = &instrs[block.last];
        push_entry(&mut stack, last.control);
        let guarded = last.guard.as_ref().is_some_and(|g| !g.is_always_true());
        let next = (block.last + 1 < instrs.len()).then(|| b + 1);
        let mut succ: Vec<(usize, EdgeKind, Vec<Pending>)> = Vec::new();
        let unwind = |kind: EdgeKind, matches: fn(&Pending) -> Option<u64>| {
            let mut s = stack.clone();
            while let Some(top) = s.pop() {
                if let Some(t) = matches(&top) {
                    return Some((t, kind, s));
                }
            }
            None
        };
        let resolved = match last.control {
            ControlKind::Sync => Some(unwind(EdgeKind::Sync, |p| match p {
                Pending::Sync(t) => Some(*t),
                _ => None,
            })),
            ControlKind::Brk => Some(unwind(EdgeKind::Break, |p| match p {
                Pending::Break(t) => Some(*t),
                _ => None,
            })),
            ControlKind::Cont => Some(unwind(EdgeKind::Continue, |p| match p {
                Pending::Continue(t) => Some(*t),
                _ => None,
            })),
            ControlKind::Ret => Some(unwind(EdgeKind::Return, |p| match p {
                Pending::Return(t) => Some(*t),
                _ => None,
            })),
            _ => None,
        };
        // `BRA.DIV` / `BRA.CONV` branch on whether the warp is diverged: a thread may go
        // either way although the instruction has no guard.
        let on_convergence = last.opcode.name == "BRA"
            && (last.opcode.has_modifier("DIV") || last.opcode.has_modifier("CONV"));
        // A condition-code test (`BRA CC.NEU`) also leaves some threads behind.
        // `BRA P1, t` is taken only where `P1` holds too: the others fall through.
        let mut falls_through = guarded
            || on_convergence
            || last.tests_condition_code()
            || last.branch_predicates().next().is_some()
            || !last.control.ends_block();
        match last.control {
            ControlKind::Branch(t) => {
                if let Some(tb) = t.and_then(block_at) {
                    succ.push((tb, EdgeKind::Taken, stack.clone()));
                }
            }
            ControlKind::Call(Some(t)) => {
                if let Some(tb) = block_at(t) {
                    let mut s = stack.clone();
                    if let Some(n) = instrs.get(block.last + 1) {
                        s.push(Pending::Return(n.address));
                    }
                    succ.push((tb, EdgeKind::Call, s));
                }
            }
            // A call out of the listing behaves like an ordinary instruction; a thread leaves
            // `BSYNC` (once the barrier releases it) to the next instruction.
            ControlKind::Call(None)
            | ControlKind::Barrier
            | ControlKind::Bsync { .. }
            | ControlKind::WarpSync => falls_through = true,
            // `BRX ... (*"INDIRECT_CALL"*)` after `PRET`: an opaque call that comes back
            // to the PRET target.
            // An indirect branch with known candidates: each is a taken side.
            ControlKind::Indirect if !last.indirect_targets.is_empty() => {
                for tb in last.indirect_targets.iter().filter_map(|&a| block_at(a)) {
                    succ.push((tb, EdgeKind::Taken, stack.clone()));
                }
            }
            ControlKind::Indirect if is_indirect_call(last) => {
                let mut s = stack.clone();
                while let Some(top) = s.pop() {
                    if let Pending::Return(t) = top {
                        if let Some(tb) = block_at(t) {
                            succ.push((tb, EdgeKind::Return, s));
                        }
                        break;
                    }
                }
                warnings.entry(block.last).or_insert_with(|| {
                    Diagnostic::warning(
                        last.opcode.span,
                        "indirect call: the callee is unknown; control resumes at the PRET return point",
                    )
                });
            }
            ControlKind::Indirect => {
                warnings.entry(block.last).or_insert_with(|| {
                    Diagnostic::warning(
                        last.opcode.span,
                        format!(
                            "`{}` jumps to a computed address: its successors are unknown",
                            last.opcode.name
                        ),
                    )
                });
            }
            _ => {}
        }
        match resolved {
            Some(Some((t, kind, s))) => {
                if let Some(tb) = block_at(t) {
                    succ.push((tb, kind, s));
                }
            }
            Some(None) if last.control == ControlKind::Ret => {} // kernel return: like EXIT
            Some(None) => {
                warnings.entry(block.last).or_insert_with(|| {
                    Diagnostic::warning(
                        last.opcode.span,
                        format!(
                            "`{}` with no matching reconvergence entry on this path",
                            last.opcode.name
                        ),
                    )
                });
            }
            None => {}
        }
        if falls_through {
            if let Some(n) = next {
                succ.push((n, EdgeKind::Fallthrough, stack.clone()));
            }
        }
        for (to, kind, s) in succ {
            edges.insert((b, to, kind));
            if s.len() > MAX_STACK {
                warnings.entry(block.last).or_insert_with(|| {
                    Diagnostic::warning(
                        last.span,
                        format!("reconvergence stack deeper than {MAX_STACK} entries: stopped following this path"),
                    )
                });
                continue;
            }
            queue.push_back((to, s));
        }
    }
    diagnostics.extend(warnings.into_values());
    if budget_hit {
        diagnostics.push(Diagnostic::global(
            crate::diagnostic::Severity::Error,
            format!(
                "thread-level CFG: more than {} (block, reconvergence stack) states (raise max_cfg_states)",
                limits.max_cfg_states
            ),
        ));
    }
    for (from, to, kind) in edges {
        graph.add_edge(NodeIndex::new(from), NodeIndex::new(to), kind);
    }
    let built = BlockGraph {
        blocks,
        graph,
        diagnostics,
    };
    #[cfg(debug_assertions)]
    crate::verify::assert_verified(
        "block graph",
        crate::verify::verify_blocks(&built, instrs.len()),
    );
    built
}

fn is_indirect_call(ins: &crate::instruction::Instruction) -> bool {
    ins.annotation
        .as_deref()
        .is_some_and(|a| a.contains("INDIRECT_CALL"))
}

fn push_entry(stack: &mut Vec<Pending>, kind: ControlKind) {
    match kind {
        ControlKind::Ssy(Some(t)) => stack.push(Pending::Sync(t)),
        ControlKind::Pbk(Some(t)) => stack.push(Pending::Break(t)),
        ControlKind::Pcnt(Some(t)) => stack.push(Pending::Continue(t)),
        ControlKind::Pret(Some(t)) => stack.push(Pending::Return(t)),
        _ => {}
    }
}
