//! The result: the warp-level CFG (§3, Fig. 2) — basic blocks duplicated per abstract
//! context, with typed edges.

use crate::state::Entry;

/// Why the warp can go from one node to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WarpEdgeKind {
    /// To the next block with the same threads (also: no thread took the branch).
    Fallthrough,
    /// All active threads took the branch.
    Taken,
    /// Exists only because threads may disagree: the taken side of a divergent branch, the
    /// continuation after some threads halted, and the reactivation of a pending divergent
    /// path (the paper's dashed edges).
    Divergence,
    /// Threads resume together at the SSY/PBK/PCNT reconvergence point.
    Reconvergence,
    /// `CAL` into a subroutine.
    Call,
    /// `RET` back to the call site (or PRET point).
    Return,
    /// Every thread of the warp has finished.
    Exit,
}

impl WarpEdgeKind {
    pub fn name(self) -> &'static str {
        match self {
            WarpEdgeKind::Fallthrough => "fallthrough",
            WarpEdgeKind::Taken => "taken",
            WarpEdgeKind::Divergence => "divergence",
            WarpEdgeKind::Reconvergence => "reconvergence",
            WarpEdgeKind::Call => "call",
            WarpEdgeKind::Return => "return",
            WarpEdgeKind::Exit => "exit",
        }
    }
}

/// A basic block in one abstract context (the pending activation stack at its entry).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarpNode {
    pub id: usize,
    /// Thread-level block index; `None` for the virtual exit node.
    pub block: Option<usize>,
    /// Pending activation stack at entry, bottom first (`pc` are instruction indices).
    pub stack: Vec<Entry>,
    /// Registers the active threads agree on at entry (number, for display).
    pub agreed_registers: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WarpEdge {
    pub from: usize,
    pub to: usize,
    pub kind: WarpEdgeKind,
}

/// An edge on which a pending divergent path resumes: threads that waited since a divergent
/// branch (the paper's `NIL` entry) start running. Loop bounds are per thread and per entry
/// into the loop, so the copies of one program loop in the warp-level CFG together run its
/// header at most `N` times per *start* — an entry into the loop, or a resumption inside it
/// by a group that may have run the header apart from the rest (see the facade's
/// `shared_loops`). Every other edge continues threads already counted: the taken side of a
/// divergent branch, the rest after a partial exit, a reconvergence or a return.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resumption {
    /// Index into [`WarpCfg::edges`].
    pub edge: usize,
    /// The divergent backward branches that alone can have left the resumed threads
    /// waiting, as (block ending in the branch, block after it), in convergence-barrier code,
    /// which runs the leaving group of a divergent back edge first ([`crate::barriers`]);
    /// empty when the wait may come from anything else. When every one of them is a back
    /// edge of the loop whose header is resumed, with the block after it outside the loop,
    /// the resumed threads are the ones still iterating while the others left the loop (and
    /// can only come back through an entry edge): they continue the group that entered,
    /// they do not start a new one.
    pub back_edges: Vec<(usize, usize)>,
}

/// The warp-level CFG. Node 0 is the entry; `exit` is the virtual exit node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarpCfg {
    pub nodes: Vec<WarpNode>,
    pub edges: Vec<WarpEdge>,
    pub entry: usize,
    pub exit: usize,
    /// The edges that resume pending divergent paths.
    pub resumptions: Vec<Resumption>,
}

impl WarpCfg {
    /// The graph an exploration found: one node per explored state in the order found, each
    /// as `(block, pending stack at entry, agreed registers)` — the first is the entry —, then
    /// the virtual exit node; `found` edges as in [`WarpCfg::edges_to`]. Both builders (SASS
    /// by abstract interpretation, PTX by the post-dominator stack) end in this one shape.
    pub fn from_exploration(
        states: impl IntoIterator<Item = (usize, Vec<Entry>, usize)>,
        found: impl IntoIterator<Item = (usize, Option<usize>, WarpEdgeKind)>,
        resumptions: Vec<Resumption>,
    ) -> WarpCfg {
        let mut nodes: Vec<WarpNode> = states
            .into_iter()
            .enumerate()
            .map(|(id, (block, stack, agreed_registers))| WarpNode {
                id,
                block: Some(block),
                stack,
                agreed_registers,
            })
            .collect();
        let exit = nodes.len();
        nodes.push(WarpNode {
            id: exit,
            block: None,
            stack: Vec::new(),
            agreed_registers: 0,
        });
        WarpCfg {
            nodes,
            edges: WarpCfg::edges_to(found, exit),
            entry: 0,
            exit,
            resumptions,
        }
    }

    /// Edges found by an exploration, `(from, to, kind)` with `None` for the exit, as the
    /// graph's edges with the exit node `exit` (their order kept).
    pub fn edges_to(
        found: impl IntoIterator<Item = (usize, Option<usize>, WarpEdgeKind)>,
        exit: usize,
    ) -> Vec<WarpEdge> {
        found
            .into_iter()
            .map(|(from, to, kind)| WarpEdge {
                from,
                to: to.unwrap_or(exit),
                kind,
            })
            .collect()
    }

    /// Edges as (from block, to block, kind); the exit node is `None`.
    pub fn block_edges(&self) -> Vec<(Option<usize>, Option<usize>, WarpEdgeKind)> {
        let mut v: Vec<_> = self
            .edges
            .iter()
            .map(|e| (self.nodes[e.from].block, self.nodes[e.to].block, e.kind))
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// Whether edge `edge`, which lands in the program loop with header block `header` and
    /// blocks `body` (sorted), starts a group of threads that may run the header apart from
    /// the others (`Some(true)`), continues threads already counted although it resumes a
    /// pending path (`Some(false)`, see [`Resumption::back_edges`]), or is no resumption
    /// (`None`). For `ipet::SharedBound::per_program_loop`.
    pub fn restarts(&self, edge: usize, header: usize, body: &[usize]) -> Option<bool> {
        let r = self.resumptions.iter().find(|r| r.edge == edge)?;
        let to = self.nodes.get(self.edges.get(edge)?.to)?.block;
        let in_body = |b: usize| body.binary_search(&b).is_ok();
        let continues = to == Some(header)
            && !r.back_edges.is_empty()
            && r.back_edges
                .iter()
                .all(|&(branch, after)| in_body(branch) && !in_body(after));
        Some(!continues)
    }

    pub fn count(&self, kind: WarpEdgeKind) -> usize {
        self.edges.iter().filter(|e| e.kind == kind).count()
    }
}
