//! The wavefront control-flow graph with branch serialisation blocks, `C_BSB` of PWS §4.2
//! (Fig. 7b): the graph a *whole wavefront* walks, in which a divergent branch is followed
//! by its first path, a branch serialisation block (BSB) that flips the execute mask, the
//! second path, and a reconvergence node where the mask is restored.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::error::{Error, ErrorKind};

/// The role of a node in `C_BSB` (PWS §4.2, Fig. 7 and Fig. 8 legends).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum NodeKind {
    /// An ordinary basic block (including blocks ending in a uniform, scalar branch).
    Plain,
    /// A divergent branch node: the execute mask is narrowed to the first path and the
    /// path is skipped when no work-item takes it (`s_and_saveexec` + `s_cbranch_execz`).
    Branch,
    /// A branch serialisation block: the mask flips to the other path
    /// (`s_or_saveexec` / `s_xor_b64 exec` + `s_cbranch_execz`).
    Bsb,
    /// A reconvergence node that is nothing else (`s_or_b64 exec, exec, ...` first).
    Reconv,
}

/// Source lines a node came from (1-based, inclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineRange {
    pub first: u32,
    pub last: u32,
}

/// One node: a basic block with its worst-case execution time `e_bb` (Table 1b).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// Block label (`BB0_4`, `%bb.1`, `n7` for CSV input; `#k` marks the k-th unrolled
    /// copy of a loop body).
    pub label: String,
    /// `e_bb`: worst-case execution time of the block.
    pub cost: u64,
    pub kind: NodeKind,
    /// Whether the node restores the execute mask (is a reconvergence point). A node can
    /// be a reconvergence point *and* a branch (Fig. 2: a branch right after a join).
    pub reconv: bool,
    /// Successor node indices.
    pub successors: Vec<usize>,
    /// Source lines (GCN input only).
    pub lines: Option<LineRange>,
    /// Marked for splitting by the programmer (a `split` instruction before its branch,
    /// PWS §4.1) or by the caller.
    pub marked: bool,
    /// Index of the block this node copies, when it is a loop-unrolling copy.
    pub origin: Option<usize>,
}

impl Node {
    /// A node with no successors yet.
    pub fn new(label: impl Into<String>, cost: u64, kind: NodeKind) -> Self {
        Node {
            label: label.into(),
            cost,
            kind,
            reconv: kind == NodeKind::Reconv,
            successors: Vec::new(),
            lines: None,
            marked: false,
            origin: None,
        }
    }
}

/// A wavefront CFG. After loop unrolling it is acyclic, which is what the PWS algorithms
/// assume (§4.2: "the compiler ... performs loop unrolling to reduce the CFG to simple
/// sequences and branches").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WavefrontCfg {
    pub nodes: Vec<Node>,
    /// Where every wavefront starts.
    pub entry: usize,
}

impl WavefrontCfg {
    /// Checks indices so every later pass can index freely.
    pub fn validate(&self) -> Result<(), Error> {
        let n = self.nodes.len();
        if n == 0 {
            return Err(Error::global(ErrorKind::Graph, "the graph has no nodes"));
        }
        if self.entry >= n {
            return Err(Error::global(
                ErrorKind::Graph,
                format!("entry node {} is out of range ({n} nodes)", self.entry),
            ));
        }
        for (u, node) in self.nodes.iter().enumerate() {
            for &v in &node.successors {
                if v >= n {
                    return Err(Error::global(
                        ErrorKind::Graph,
                        format!("node {u} has successor {v}, out of range ({n} nodes)"),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Total of all block costs: the WCET of a wavefront that executes every block once,
    /// which is the no-splitting WCET of a fully divergent loop-free kernel (PWS §3: "the
    /// sum of all basic block WCETs").
    pub fn total_cost(&self) -> Option<u64> {
        self.nodes
            .iter()
            .try_fold(0u64, |acc, n| acc.checked_add(n.cost))
    }

    /// Nodes reachable from the entry, in a topological order that prefers lower indices
    /// (Kahn's algorithm with a min-heap), so the order is deterministic and follows the
    /// listing where the edges allow.
    ///
    /// # Errors
    /// A cycle among reachable nodes (loops must be unrolled first).
    pub fn topological_order(&self) -> Result<Vec<usize>, Error> {
        self.validate()?;
        let n = self.nodes.len();
        let reach = self.reachable();
        let mut indeg = vec![0usize; n];
        for u in (0..n).filter(|&u| reach[u]) {
            for &v in &self.nodes[u].successors {
                indeg[v] += 1;
            }
        }
        let mut heap = BinaryHeap::new();
        heap.push(Reverse(self.entry));
        let mut order = Vec::with_capacity(n);
        while let Some(Reverse(u)) = heap.pop() {
            order.push(u);
            for &v in &self.nodes[u].successors {
                indeg[v] -= 1;
                if indeg[v] == 0 {
                    heap.push(Reverse(v));
                }
            }
        }
        let reachable = reach.iter().filter(|&&r| r).count();
        if order.len() != reachable {
            let stuck = (0..n)
                .find(|&u| reach[u] && indeg[u] > 0)
                .unwrap_or(self.entry);
            return Err(Error::global(
                ErrorKind::Graph,
                format!(
                    "the graph has a cycle through node {stuck} (`{}`): unroll loops first",
                    self.nodes[stuck].label
                ),
            ));
        }
        Ok(order)
    }

    /// Which nodes the entry reaches.
    pub fn reachable(&self) -> Vec<bool> {
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![self.entry];
        if let Some(s) = seen.get_mut(self.entry) {
            *s = true;
        }
        while let Some(u) = stack.pop() {
            for &v in self.nodes.get(u).map_or(&[][..], |n| &n.successors) {
                if let Some(s) = seen.get_mut(v) {
                    if !*s {
                        *s = true;
                        stack.push(v);
                    }
                }
            }
        }
        seen
    }

    /// The generic IPET graph of this CFG without the edges in `removed`, for
    /// [`ipet::solve`]. Unreachable nodes keep their index and simply get count 0.
    pub fn to_ipet(&self, removed: &[(usize, usize)]) -> ipet::Cfg {
        let mut edges = Vec::new();
        for (u, node) in self.nodes.iter().enumerate() {
            for &v in &node.successors {
                if !removed.contains(&(u, v)) {
                    edges.push((u, v));
                }
            }
        }
        ipet::Cfg {
            costs: self.nodes.iter().map(|n| n.cost).collect(),
            edges,
            entry: self.entry,
            exits: Vec::new(),
        }
    }
}
