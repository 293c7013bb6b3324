//! Loop structure of a [`Cfg`]: natural loops found through dominators, and the irreducible
//! regions that remain once every back edge is removed.
//!
//! IPET needs one constraint per cycle family or the maximised flow is unbounded; this
//! module finds those families so that [`solve`](crate::solve) can attach a bound to each.
//!
//! * A **back edge** is `u -> h` where `h` dominates `u` (both reachable from the entry).
//!   The **natural loop** of header `h` is the union of the natural loops of all back edges
//!   into `h`: `h` plus every node that reaches one of their sources without passing `h`.
//!   Natural loops are single-entry: every edge into the loop from outside targets `h`.
//! * An **irreducible region** is a strongly connected component (of two or more nodes) of
//!   the reachable graph *minus its back edges*. Its **entry nodes** are its nodes with an
//!   incoming non-back edge from outside the region (plus the CFG entry if it belongs to the
//!   region). Because cycles that avoid every entry node can hide inside a region, the
//!   region minus its entry nodes is decomposed again, recursively, and every nested
//!   component is reported (and bounded) as its own irreducible region. With all of these
//!   bounded, every cycle of the reachable graph is bounded, so the IPET problem is bounded.
//!
//! Nodes unreachable from the entry take part in no loop: they can never execute.

use std::collections::BTreeMap;

use crate::cfg::{reachable_from, Adjacency, Cfg};
use isa::dominance::DominatorTree;

/// One cycle family that needs a bound: a natural loop or an irreducible region.
///
/// Reported both by [`find_loops`] (with `bound: None`) and in
/// [`Solution::loops`](crate::Solution::loops) (with the bound that was applied), so a UI can
/// show which bound constrained which part of the graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    /// For a natural loop, its header. For an irreducible region, its smallest entry node
    /// (the node named in errors about the region).
    pub header: usize,
    /// All nodes of the loop or region, sorted ascending.
    pub body: Vec<usize>,
    /// Nodes through which the loop or region is entered: `[header]` for a natural loop,
    /// every entry node (sorted) for an irreducible region. The bound constrains the total
    /// execution count of these nodes.
    pub entry_nodes: Vec<usize>,
    /// Indices into [`Cfg::edges`] of the edges that close the cycles: for a natural loop
    /// its back edges (`u -> header`, header dominating `u`); for an irreducible region the
    /// non-back edges from a region node to one of its entry nodes.
    pub back_edges: Vec<usize>,
    /// Indices into [`Cfg::edges`] of the edges entering the loop from outside it (for an
    /// irreducible region: from outside, and not back edges). The start of execution also
    /// counts as one entry when the CFG entry node is among [`Loop::entry_nodes`]; it is
    /// not an edge, so it is not listed here.
    pub entry_edges: Vec<usize>,
    /// The bound `N` applied to this loop: its entry nodes execute at most `N` times per
    /// entry into the loop (see [`LoopBounds`](crate::LoopBounds)). `None` from
    /// [`find_loops`], which does not look at bounds.
    pub bound: Option<u64>,
    /// `true` for an irreducible region (a multi-entry cycle family).
    pub irreducible: bool,
    /// Nesting depth: 1 for an outermost loop, plus one for every other reported loop or
    /// region whose body strictly contains this one's.
    pub depth: usize,
}

/// Finds every natural loop and irreducible region among the nodes reachable from
/// [`Cfg::entry`], with `bound: None`.
///
/// The result is sorted by `(header, irreducible, body)` and is deterministic. An invalid
/// graph (see [`Cfg::validate`]) yields an empty list; [`solve`](crate::solve) reports it as
/// [`Error::InvalidGraph`](crate::Error::InvalidGraph) instead. A caller that needs the
/// loops *and* a solution builds one [`LoopStructure`] instead, so the loops are found once.
pub fn find_loops(cfg: &Cfg) -> Vec<Loop> {
    LoopStructure::new(cfg).map_or_else(|_| Vec::new(), LoopStructure::into_loops)
}

/// A validated [`Cfg`] with its loops and irreducible regions, found once.
///
/// A caller that shows the loops (or keys loop bounds by their headers) before solving
/// builds this once, reads [`LoopStructure::loops`], then calls
/// [`LoopStructure::solve`](crate::LoopStructure::solve): the same loops are bounded, and
/// the analysis does not run twice. [`solve`](crate::solve) is `new` followed by `solve`.
#[derive(Clone, Debug)]
pub struct LoopStructure<'a> {
    pub(crate) cfg: &'a Cfg,
    pub(crate) adj: Adjacency,
    pub(crate) loops: Vec<Loop>,
}

impl<'a> LoopStructure<'a> {
    /// Validates `cfg` and finds its loops and irreducible regions (as [`find_loops`]).
    /// Debug builds check the loops found with [`crate::verify::verify_loops`] and panic on
    /// a broken invariant (a bug of this analysis); release builds do not.
    ///
    /// # Errors
    /// [`Error::InvalidGraph`](crate::Error::InvalidGraph): an index out of range, or no
    /// nodes (see [`Cfg::validate`]).
    pub fn new(cfg: &'a Cfg) -> Result<Self, crate::Error> {
        cfg.validate()?;
        let adj = Adjacency::new(cfg);
        let loops = analyse(cfg, &adj);
        #[cfg(debug_assertions)]
        crate::verify::assert_verified(cfg, &loops);
        Ok(Self { cfg, adj, loops })
    }

    /// The graph the loops were found in.
    pub fn cfg(&self) -> &'a Cfg {
        self.cfg
    }

    /// Every natural loop and irreducible region, with `bound: None`, sorted by
    /// `(header, irreducible, body)`.
    pub fn loops(&self) -> &[Loop] {
        &self.loops
    }

    /// The loops, without the graph.
    pub fn into_loops(self) -> Vec<Loop> {
        self.loops
    }
}

/// The loop analysis on a validated graph (see [`find_loops`]).
pub(crate) fn analyse(cfg: &Cfg, adj: &Adjacency) -> Vec<Loop> {
    let n = cfg.node_count();
    let reachable = reachable_from(cfg, adj, cfg.entry);
    let dom = DominatorTree::dominators(n, cfg.edges.iter().copied(), cfg.entry);

    let is_back: Vec<bool> = cfg
        .edges
        .iter()
        .map(|&(u, v)| reachable[u] && dom.dominates(v, u))
        .collect();

    let mut loops = natural_loops(cfg, adj, &reachable, &is_back);
    loops.extend(irreducible_regions(cfg, adj, &reachable, &is_back));
    assign_depths(&mut loops, n);
    loops.sort_by(|a, b| {
        (a.header, a.irreducible, &a.body).cmp(&(b.header, b.irreducible, &b.body))
    });
    loops
}

/// One natural loop per header that has at least one back edge.
fn natural_loops(cfg: &Cfg, adj: &Adjacency, reachable: &[bool], is_back: &[bool]) -> Vec<Loop> {
    let n = cfg.node_count();
    let mut by_header: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (e, &back) in is_back.iter().enumerate() {
        if back {
            by_header.entry(cfg.edges[e].1).or_default().push(e);
        }
    }
    let mut in_body = vec![false; n];
    let mut loops = Vec::with_capacity(by_header.len());
    for (header, back_edges) in by_header {
        let mut body = vec![header];
        in_body[header] = true;
        let mut stack = Vec::new();
        for &e in &back_edges {
            let u = cfg.edges[e].0;
            if !in_body[u] {
                in_body[u] = true;
                body.push(u);
                stack.push(u);
            }
        }
        while let Some(v) = stack.pop() {
            for &e in &adj.pred[v] {
                let p = cfg.edges[e].0;
                if reachable[p] && !in_body[p] {
                    in_body[p] = true;
                    body.push(p);
                    stack.push(p);
                }
            }
        }
        let entry_edges: Vec<usize> = adj.pred[header]
            .iter()
            .copied()
            .filter(|&e| {
                let p = cfg.edges[e].0;
                reachable[p] && !in_body[p]
            })
            .collect();
        for &v in &body {
            in_body[v] = false;
        }
        body.sort_unstable();
        loops.push(Loop {
            header,
            body,
            entry_nodes: vec![header],
            back_edges,
            entry_edges,
            bound: None,
            irreducible: false,
            depth: 0,
        });
    }
    loops
}

/// Irreducible regions: non-trivial SCCs of the reachable graph without back edges, and,
/// recursively, of each region minus its entry nodes.
fn irreducible_regions(
    cfg: &Cfg,
    adj: &Adjacency,
    reachable: &[bool],
    is_back: &[bool],
) -> Vec<Loop> {
    let n = cfg.node_count();
    let mut scratch = SccScratch::new(n);
    let mut regions = Vec::new();
    let mut member = vec![false; n];
    let mut is_entry = vec![false; n];
    let mut work: Vec<Vec<usize>> = vec![(0..n).filter(|&v| reachable[v]).collect()];
    while let Some(set) = work.pop() {
        for comp in scratch.sccs(cfg, adj, is_back, &set) {
            if comp.len() < 2 {
                continue;
            }
            for &v in &comp {
                member[v] = true;
            }
            let mut entry_nodes = Vec::new();
            let mut entry_edges = Vec::new();
            for &v in &comp {
                let mut entered = v == cfg.entry;
                for &e in &adj.pred[v] {
                    let p = cfg.edges[e].0;
                    if reachable[p] && !member[p] && !is_back[e] {
                        entered = true;
                        entry_edges.push(e);
                    }
                }
                if entered {
                    entry_nodes.push(v);
                    is_entry[v] = true;
                }
            }
            let mut back_edges = Vec::new();
            for &v in &comp {
                for &e in &adj.succ[v] {
                    let w = cfg.edges[e].1;
                    if member[w] && is_entry[w] && !is_back[e] {
                        back_edges.push(e);
                    }
                }
            }
            entry_edges.sort_unstable();
            back_edges.sort_unstable();
            let rest: Vec<usize> = comp.iter().copied().filter(|&v| !is_entry[v]).collect();
            for &v in &comp {
                member[v] = false;
                is_entry[v] = false;
            }
            // A reachable region always has an entry node; the check only guarantees
            // termination (the set must shrink) even if that reasoning were wrong.
            if rest.len() >= 2 && rest.len() < comp.len() {
                work.push(rest);
            }
            let Some(&header) = entry_nodes.first() else {
                continue;
            };
            regions.push(Loop {
                header,
                body: comp,
                entry_nodes,
                back_edges,
                entry_edges,
                bound: None,
                irreducible: true,
                depth: 0,
            });
        }
    }
    regions
}

/// Reusable buffers for Tarjan's algorithm on node subsets (iterative, so no recursion).
struct SccScratch {
    /// Local index of each node in the current subset, `usize::MAX` when outside it.
    local: Vec<usize>,
}

impl SccScratch {
    fn new(n: usize) -> Self {
        Self {
            local: vec![usize::MAX; n],
        }
    }

    /// Strongly connected components of the subgraph induced by `set` using only non-back
    /// edges. Each component is sorted; the order of components is deterministic.
    fn sccs(
        &mut self,
        cfg: &Cfg,
        adj: &Adjacency,
        is_back: &[bool],
        set: &[usize],
    ) -> Vec<Vec<usize>> {
        const UNDEF: usize = usize::MAX;
        let mut nodes = set.to_vec();
        nodes.sort_unstable();
        for (i, &v) in nodes.iter().enumerate() {
            self.local[v] = i;
        }
        let m = nodes.len();
        let mut index = vec![UNDEF; m];
        let mut low = vec![0usize; m];
        let mut on_stack = vec![false; m];
        let mut stack: Vec<usize> = Vec::new();
        let mut counter = 0usize;
        let mut comps = Vec::new();
        for start in 0..m {
            if index[start] != UNDEF {
                continue;
            }
            index[start] = counter;
            low[start] = counter;
            counter += 1;
            stack.push(start);
            on_stack[start] = true;
            let mut calls: Vec<(usize, usize)> = vec![(start, 0)];
            while let Some(top) = calls.last_mut() {
                let (v, next) = *top;
                let succ = &adj.succ[nodes[v]];
                if let Some(&e) = succ.get(next) {
                    top.1 += 1;
                    if is_back[e] {
                        continue;
                    }
                    let w = self.local[cfg.edges[e].1];
                    if w == UNDEF {
                        continue;
                    }
                    if index[w] == UNDEF {
                        index[w] = counter;
                        low[w] = counter;
                        counter += 1;
                        stack.push(w);
                        on_stack[w] = true;
                        calls.push((w, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                } else {
                    calls.pop();
                    if let Some(&(parent, _)) = calls.last() {
                        low[parent] = low[parent].min(low[v]);
                    }
                    if low[v] == index[v] {
                        let mut comp = Vec::new();
                        while let Some(w) = stack.pop() {
                            on_stack[w] = false;
                            comp.push(nodes[w]);
                            if w == v {
                                break;
                            }
                        }
                        comp.sort_unstable();
                        comps.push(comp);
                    }
                }
            }
        }
        for &v in &nodes {
            self.local[v] = UNDEF;
        }
        comps
    }
}

/// Depth = 1 + number of other loops whose body strictly contains this one's.
fn assign_depths(loops: &mut [Loop], n: usize) {
    let mut depth = vec![1usize; loops.len()];
    let mut mark = vec![false; n];
    for outer in loops.iter() {
        for &v in &outer.body {
            mark[v] = true;
        }
        for (i, inner) in loops.iter().enumerate() {
            if inner.body.len() < outer.body.len() && inner.body.iter().all(|&v| mark[v]) {
                depth[i] += 1;
            }
        }
        for &v in &outer.body {
            mark[v] = false;
        }
    }
    for (l, d) in loops.iter_mut().zip(depth) {
        l.depth = d;
    }
}
