//! The input graph ([`Cfg`]) and the index-based views every other module walks.
//!
//! The graph is deliberately plain data (vectors of indices) rather than a graph-library
//! type: callers build it from whatever CFG they have (thread-level, warp-level, …), and
//! every algorithm here is iterative over these vectors so that deep graphs cannot overflow
//! the (small) WebAssembly stack.

use crate::error::Error;

/// A control-flow graph with a cost per node: the only input IPET needs besides loop bounds.
///
/// Nodes are `0..costs.len()`. Edges are listed explicitly so that each one, including
/// parallel edges and self loops, becomes its own flow variable and can be reported back
/// by index in [`Solution::edge_counts`](crate::Solution::edge_counts).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cfg {
    /// Cost (e.g. cycles) of executing node `i` once; the objective weight of its count.
    pub costs: Vec<u64>,
    /// Directed edges `(from, to)`. Parallel edges are allowed (each is its own flow
    /// variable) and so are self loops.
    pub edges: Vec<(usize, usize)>,
    /// The node where execution starts, exactly once.
    pub entry: usize,
    /// Nodes where execution may end (e.g. blocks ending in `EXIT`), even if they also have
    /// successors. Nodes with no successors are always exits too, listed here or not.
    pub exits: Vec<usize>,
}

impl Cfg {
    /// Number of nodes (the length of [`Cfg::costs`]).
    pub fn node_count(&self) -> usize {
        self.costs.len()
    }

    /// Checks that the entry, every edge endpoint and every listed exit name an existing
    /// node, so that the analyses can index freely afterwards and never panic.
    ///
    /// # Errors
    /// [`Error::InvalidGraph`] describing the first offending item.
    pub fn validate(&self) -> Result<(), Error> {
        let n = self.node_count();
        if n == 0 {
            return Err(Error::InvalidGraph("the graph has no nodes".into()));
        }
        if self.entry >= n {
            return Err(Error::InvalidGraph(format!(
                "entry node {} is out of range (the graph has {n} nodes)",
                self.entry
            )));
        }
        for (i, &(u, v)) in self.edges.iter().enumerate() {
            if u >= n || v >= n {
                return Err(Error::InvalidGraph(format!(
                    "edge {i} ({u} -> {v}) has an endpoint out of range (the graph has {n} nodes)"
                )));
            }
        }
        for &x in &self.exits {
            if x >= n {
                return Err(Error::InvalidGraph(format!(
                    "exit node {x} is out of range (the graph has {n} nodes)"
                )));
            }
        }
        Ok(())
    }
}

/// Adjacency lists of a validated [`Cfg`], holding edge indices so that parallel edges stay
/// distinct. Built once and shared by the loop analysis and the problem builder.
#[derive(Clone, Debug)]
pub(crate) struct Adjacency {
    /// `succ[u]` = indices of the edges leaving `u`, in input order.
    pub succ: Vec<Vec<usize>>,
    /// `pred[v]` = indices of the edges entering `v`, in input order.
    pub pred: Vec<Vec<usize>>,
}

impl Adjacency {
    /// Builds the lists; the caller must have validated the graph (out-of-range edges are
    /// skipped rather than indexed, so this can never panic).
    pub fn new(cfg: &Cfg) -> Self {
        let n = cfg.node_count();
        let mut succ = vec![Vec::new(); n];
        let mut pred = vec![Vec::new(); n];
        for (i, &(u, v)) in cfg.edges.iter().enumerate() {
            if u < n && v < n {
                succ[u].push(i);
                pred[v].push(i);
            }
        }
        Self { succ, pred }
    }
}

/// Nodes reachable from `entry` along edges (forward search, iterative).
pub(crate) fn reachable_from(cfg: &Cfg, adj: &Adjacency, entry: usize) -> Vec<bool> {
    let mut seen = vec![false; cfg.node_count()];
    let mut stack = vec![entry];
    if let Some(s) = seen.get_mut(entry) {
        *s = true;
    } else {
        return seen;
    }
    while let Some(u) = stack.pop() {
        for &e in &adj.succ[u] {
            let v = cfg.edges[e].1;
            if !seen[v] {
                seen[v] = true;
                stack.push(v);
            }
        }
    }
    seen
}

/// Nodes from which some node in `targets` is reachable (backward search, iterative).
pub(crate) fn reaching(cfg: &Cfg, adj: &Adjacency, targets: &[bool]) -> Vec<bool> {
    let mut seen = targets.to_vec();
    let mut stack: Vec<usize> = (0..seen.len()).filter(|&v| seen[v]).collect();
    while let Some(v) = stack.pop() {
        for &e in &adj.pred[v] {
            let u = cfg.edges[e].0;
            if !seen[u] {
                seen[u] = true;
                stack.push(u);
            }
        }
    }
    seen
}

/// The exit set: listed exits plus every node without successors.
pub(crate) fn exit_nodes(cfg: &Cfg, adj: &Adjacency) -> Vec<bool> {
    let n = cfg.node_count();
    let mut exit = vec![false; n];
    for &x in &cfg.exits {
        if x < n {
            exit[x] = true;
        }
    }
    for (u, out) in adj.succ.iter().enumerate() {
        if out.is_empty() {
            exit[u] = true;
        }
    }
    exit
}
