//! Dominators and post-dominators of a directed graph over node indices `0..n`: the one
//! implementation every control-flow analysis of the workspace uses (IPET's back edges and
//! cut nodes in `ipet`, the PDOM reconvergence points of the simulator in `sim` and of
//! Huangfu's analyzer in `roundrobin`).
//!
//! Node `a` **dominates** `b` when every path from the root to `b` passes `a`; the
//! **immediate dominator** of `b` is its closest strict dominator. **Post-dominance** is
//! dominance in the reversed graph rooted at a virtual exit that every exit node leads to:
//! `a` post-dominates `b` when every path from `b` to the exit passes `a` — where the PDOM
//! stack of GPGPU-Sim (Fung et al., MICRO 2007; Huangfu's thesis §4.4.4, Alg. 4 line 22)
//! reconverges the two sides of a divergent branch.
//!
//! The tree is computed by `petgraph::algo::dominators::simple_fast` (Cooper, Harvey and
//! Kennedy, "A Simple, Fast Dominance Algorithm", 2001); this module adapts plain edge
//! lists to it, adds the virtual exit, and numbers the tree in pre- and post-order so that
//! "does `a` dominate `b`" is an O(1) interval test. The dominator tree of a graph is
//! unique, so the result does not depend on edge order.
//!
//! What it is *not*: a loop finder (that is `ipet::loops`) or a CFG builder; it knows only
//! indices and edges.

use petgraph::algo::dominators::simple_fast;
use petgraph::graph::{DiGraph, NodeIndex};

/// The dominator tree of a graph rooted at one node: immediate dominators plus an O(1)
/// dominance test, for the nodes reachable from the root.
///
/// Built by [`DominatorTree::dominators`] (rooted at an entry) or
/// [`DominatorTree::post_dominators`] (rooted at a virtual exit, index `node_count`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DominatorTree {
    /// The root: the entry, or the virtual exit of a post-dominator tree.
    root: usize,
    /// Immediate dominator of each node; the root is its own, unreachable nodes have `None`.
    idom: Vec<Option<usize>>,
    /// Pre-order number of each reachable node in the tree (`usize::MAX` otherwise).
    pre: Vec<usize>,
    /// Post-order number of each reachable node in the tree (`usize::MAX` otherwise).
    post: Vec<usize>,
}

impl DominatorTree {
    /// Dominators of the graph with nodes `0..node_count` and `edges` (`(from, to)`),
    /// rooted at `entry`. Edges with an endpoint out of range are ignored; an `entry` out of
    /// range gives a tree in which no node is reachable.
    pub fn dominators(
        node_count: usize,
        edges: impl IntoIterator<Item = (usize, usize)>,
        entry: usize,
    ) -> Self {
        let edges = edges
            .into_iter()
            .filter(|&(u, v)| u < node_count && v < node_count);
        Self::build(node_count, edges, entry)
    }

    /// Post-dominators of the graph with nodes `0..node_count` and `edges` (`(from, to)`),
    /// where every node of `exits` also leads to a virtual exit node, index `node_count`,
    /// the root of the tree. [`DominatorTree::idom`] of a node may therefore be
    /// `Some(node_count)`: only the exit post-dominates it. Nodes from which the exit cannot
    /// be reached (an endless loop) are not in the tree: [`DominatorTree::idom`] is `None`.
    /// Edges and exits out of range are ignored.
    pub fn post_dominators(
        node_count: usize,
        edges: impl IntoIterator<Item = (usize, usize)>,
        exits: impl IntoIterator<Item = usize>,
    ) -> Self {
        let exit = node_count;
        let reversed = edges
            .into_iter()
            .filter(|&(u, v)| u < node_count && v < node_count)
            .map(|(u, v)| (v, u))
            .chain(
                exits
                    .into_iter()
                    .filter(|&x| x < node_count)
                    .map(|x| (exit, x)),
            )
            .collect::<Vec<_>>();
        Self::build(node_count + 1, reversed, exit)
    }

    /// Builds the tree of the graph `0..node_count` + `edges` (all in range) from `root`.
    fn build(
        node_count: usize,
        edges: impl IntoIterator<Item = (usize, usize)>,
        root: usize,
    ) -> Self {
        let mut idom = vec![None; node_count];
        let mut pre = vec![usize::MAX; node_count];
        let mut post = vec![usize::MAX; node_count];
        if root >= node_count {
            return Self {
                root,
                idom,
                pre,
                post,
            };
        }
        let mut graph: DiGraph<(), ()> = DiGraph::with_capacity(node_count, 0);
        for _ in 0..node_count {
            graph.add_node(());
        }
        for (u, v) in edges {
            graph.add_edge(NodeIndex::new(u), NodeIndex::new(v), ());
        }
        let tree = simple_fast(&graph, NodeIndex::new(root));
        idom[root] = Some(root);
        let mut children = vec![Vec::new(); node_count];
        for (v, slot) in idom.iter_mut().enumerate() {
            if let Some(d) = tree.immediate_dominator(NodeIndex::new(v)) {
                *slot = Some(d.index());
                children[d.index()].push(v);
            }
        }
        // Iterative DFS over the tree for the pre/post numbers of the interval test.
        let (mut pre_counter, mut post_counter) = (0usize, 0usize);
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        pre[root] = pre_counter;
        pre_counter += 1;
        while let Some(top) = stack.last_mut() {
            let (v, next) = *top;
            if let Some(&c) = children[v].get(next) {
                top.1 += 1;
                pre[c] = pre_counter;
                pre_counter += 1;
                stack.push((c, 0));
            } else {
                post[v] = post_counter;
                post_counter += 1;
                stack.pop();
            }
        }
        Self {
            root,
            idom,
            pre,
            post,
        }
    }

    /// The root: the entry, or for post-dominators the virtual exit (`node_count`).
    pub fn root(&self) -> usize {
        self.root
    }

    /// Whether `v` is in the tree: reachable from the entry, or for post-dominators able to
    /// reach the exit.
    pub fn is_reachable(&self, v: usize) -> bool {
        self.idom.get(v).is_some_and(Option::is_some)
    }

    /// Immediate dominator of `v`; `None` for the root and for nodes not in the tree.
    pub fn idom(&self, v: usize) -> Option<usize> {
        self.idom.get(v).copied().flatten().filter(|&d| d != v)
    }

    /// Whether `a` dominates `b` (reflexive). False when either is not in the tree.
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        if !self.is_reachable(a) || !self.is_reachable(b) {
            return false;
        }
        self.pre[a] <= self.pre[b] && self.post[b] <= self.post[a]
    }
}

/// Immediate post-dominators of a graph given as successor lists: `succ[v]` lists `v`'s
/// successors, and a successor `>= succ.len()` means the virtual exit. Entry `v` of the
/// result is `Some(succ.len())` when only the exit post-dominates `v`, `None` when `v`
/// cannot reach the exit (its threads never reconverge before the end).
pub fn immediate_post_dominators(succ: &[Vec<usize>]) -> Vec<Option<usize>> {
    let n = succ.len();
    let edges = succ
        .iter()
        .enumerate()
        .flat_map(|(v, ss)| ss.iter().filter(|&&s| s < n).map(move |&s| (v, s)));
    let exits = succ
        .iter()
        .enumerate()
        .filter(|(_, ss)| ss.iter().any(|&s| s >= n))
        .map(|(v, _)| v);
    let tree = DominatorTree::post_dominators(n, edges, exits);
    (0..n).map(|v| tree.idom(v)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn diamond_reconverges_at_the_join() {
        // 0: @p bra 2 ; 1: bra 3 ; 2: (else) ; 3: join ; 4: ret → exit 5
        let succ = vec![vec![1, 2], vec![3], vec![3], vec![4], vec![5]];
        let ip = immediate_post_dominators(&succ);
        assert_eq!(ip, vec![Some(3), Some(3), Some(3), Some(4), Some(5)]);
        let dom = DominatorTree::dominators(5, [(0, 1), (0, 2), (1, 3), (2, 3), (3, 4)], 0);
        assert_eq!(dom.idom(3), Some(0));
        assert!(dom.dominates(0, 4) && dom.dominates(3, 4) && !dom.dominates(1, 3));
    }

    #[test]
    fn endless_loop_and_out_of_range() {
        // 0 → {1, 2}; 1 → 1 (never exits); 2 → exit: 1 has none, 0's is 2.
        let ip = immediate_post_dominators(&[vec![1, 2], vec![1], vec![3]]);
        assert_eq!(ip, vec![Some(2), None, Some(3)]);
        let t = DominatorTree::dominators(2, [(0, 1), (1, 7)], 5);
        assert!(!t.is_reachable(0) && t.idom(1).is_none());
    }

    /// Successor lists of a graph of up to 7 nodes; successor `n` is the virtual exit.
    fn graphs() -> impl Strategy<Value = Vec<Vec<usize>>> {
        (1usize..=7).prop_flat_map(|n| {
            proptest::collection::vec(proptest::collection::vec(0..=n, 0..=3), n)
        })
    }

    /// Whether `to` can be reached from `from` without entering `avoid`.
    fn reaches(succ: &[Vec<usize>], from: usize, to: usize, avoid: Option<usize>) -> bool {
        let mut seen = vec![false; succ.len() + 1];
        let mut stack = vec![from];
        while let Some(u) = stack.pop() {
            if u == to {
                return true;
            }
            if Some(u) == avoid || seen[u] || u >= succ.len() {
                continue;
            }
            seen[u] = true;
            stack.extend(succ[u].iter().copied());
        }
        false
    }

    proptest! {
        /// `v` post-dominates `u` iff every path from `u` to the exit passes `v`, i.e. `u`
        /// reaches the exit but not once `v` is removed; the tree's chain of immediate
        /// post-dominators from `u` lists exactly those `v`.
        #[test]
        fn post_dominators_match_the_definition(succ in graphs()) {
            let n = succ.len();
            let ip = immediate_post_dominators(&succ);
            for u in 0..n {
                let to_exit = reaches(&succ, u, n, None);
                prop_assert_eq!(ip[u].is_some(), to_exit, "node {}", u);
                if !to_exit {
                    continue;
                }
                let mut chain = vec![false; n + 1];
                let mut v = ip[u];
                while let Some(d) = v {
                    chain[d] = true;
                    v = if d < n { ip[d] } else { None };
                }
                for (v, &in_chain) in chain.iter().enumerate().take(n) {
                    let brute = v != u && !reaches(&succ, u, n, Some(v));
                    prop_assert_eq!(in_chain, brute, "does {} post-dominate {}?", v, u);
                }
                prop_assert!(chain[n]);
            }
        }

        /// `a` dominates `b` iff `b` is reachable from the entry 0 and not once `a` is
        /// removed (or `a == b`).
        #[test]
        fn dominators_match_the_definition(succ in graphs()) {
            let n = succ.len();
            let edges: Vec<(usize, usize)> = succ
                .iter()
                .enumerate()
                .flat_map(|(u, ss)| ss.iter().map(move |&v| (u, v)))
                .collect();
            let tree = DominatorTree::dominators(n, edges, 0);
            for b in 0..n {
                let reachable = reaches(&succ, 0, b, None);
                prop_assert_eq!(tree.is_reachable(b), reachable);
                for a in 0..n {
                    let brute = reachable && (a == b || !reaches(&succ, 0, b, Some(a)));
                    prop_assert_eq!(tree.dominates(a, b), brute, "does {} dominate {}?", a, b);
                }
            }
        }
    }
}
