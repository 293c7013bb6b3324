//! The result: the warp-level CFG (§3, Fig. 2) — basic blocks duplicated per abstract
//! context, with typed edges.

use crate::state::Entry;
use serde::{Deserialize, Serialize};

/// Why the warp can go from one node to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarpNode {
    pub id: usize,
    /// Thread-level block index; `None` for the virtual exit node.
    pub block: Option<usize>,
    /// Pending activation stack at entry, bottom first (`pc` are instruction indices).
    pub stack: Vec<Entry>,
    /// Registers the active threads agree on at entry (number, for display).
    pub agreed_registers: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct WarpEdge {
    pub from: usize,
    pub to: usize,
    pub kind: WarpEdgeKind,
}

/// The warp-level CFG. Node 0 is the entry; `exit` is the virtual exit node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarpCfg {
    pub nodes: Vec<WarpNode>,
    pub edges: Vec<WarpEdge>,
    pub entry: usize,
    pub exit: usize,
}

impl WarpCfg {
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

    pub fn count(&self, kind: WarpEdgeKind) -> usize {
        self.edges.iter().filter(|e| e.kind == kind).count()
    }
}
