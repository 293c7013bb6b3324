//! Dominators of the nodes reachable from the entry, used to tell back edges (which close
//! natural loops) from the edges of irreducible cycles.
//!
//! Algorithm: Cooper, Harvey & Kennedy, "A Simple, Fast Dominance Algorithm" (iterative
//! data flow over reverse post-order), then a pre/post numbering of the dominator tree so
//! that "does `a` dominate `b`" is an O(1) interval test. Everything is iterative.

use crate::cfg::{Adjacency, Cfg};

/// Immediate dominators plus an O(1) dominance query, for reachable nodes only.
#[derive(Clone, Debug)]
pub(crate) struct Dominators {
    /// Immediate dominator of each reachable node (the entry is its own); `None` when the
    /// node is unreachable.
    idom: Vec<Option<usize>>,
    /// Pre-order number of each node in the dominator tree.
    pre: Vec<usize>,
    /// Post-order number of each node in the dominator tree.
    post: Vec<usize>,
}

impl Dominators {
    /// Computes the dominator tree rooted at `entry` (which must be in range).
    pub fn new(cfg: &Cfg, adj: &Adjacency, entry: usize) -> Self {
        let n = cfg.node_count();
        let rpo = reverse_post_order(cfg, adj, entry);
        let mut order = vec![usize::MAX; n];
        for (i, &v) in rpo.iter().enumerate() {
            order[v] = i;
        }
        let mut idom: Vec<Option<usize>> = vec![None; n];
        if entry < n {
            idom[entry] = Some(entry);
        }
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new_idom: Option<usize> = None;
                for &e in &adj.pred[b] {
                    let p = cfg.edges[e].0;
                    if idom[p].is_none() {
                        continue;
                    }
                    new_idom = Some(match new_idom {
                        None => p,
                        Some(cur) => intersect(&idom, &order, p, cur),
                    });
                }
                if new_idom.is_some() && idom[b] != new_idom {
                    idom[b] = new_idom;
                    changed = true;
                }
            }
        }

        // Dominator tree children, then an iterative DFS for pre/post numbers.
        let mut children = vec![Vec::new(); n];
        for &v in &rpo {
            if let Some(d) = idom[v] {
                if d != v {
                    children[d].push(v);
                }
            }
        }
        let mut pre = vec![usize::MAX; n];
        let mut post = vec![usize::MAX; n];
        let (mut pre_counter, mut post_counter) = (0usize, 0usize);
        if entry < n {
            let mut stack: Vec<(usize, usize)> = vec![(entry, 0)];
            pre[entry] = pre_counter;
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
        }
        Self { idom, pre, post }
    }

    /// Whether `v` is reachable from the entry (only those have dominators).
    pub fn is_reachable(&self, v: usize) -> bool {
        self.idom.get(v).is_some_and(Option::is_some)
    }

    /// Immediate dominator of `v`; `None` for the entry and for unreachable nodes.
    pub fn idom(&self, v: usize) -> Option<usize> {
        self.idom.get(v).copied().flatten().filter(|&d| d != v)
    }

    /// Whether `a` dominates `b` (reflexive). False when either is unreachable.
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        if !self.is_reachable(a) || !self.is_reachable(b) {
            return false;
        }
        self.pre[a] <= self.pre[b] && self.post[b] <= self.post[a]
    }
}

/// Walks both fingers up the (partial) dominator tree until they meet (CHK's `intersect`).
fn intersect(idom: &[Option<usize>], order: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while order[a] > order[b] {
            match idom[a] {
                Some(d) => a = d,
                None => return b,
            }
        }
        while order[b] > order[a] {
            match idom[b] {
                Some(d) => b = d,
                None => return a,
            }
        }
    }
    a
}

/// Reverse post-order of the nodes reachable from `entry` (iterative DFS, successors in
/// edge order, so the result is deterministic).
pub(crate) fn reverse_post_order(cfg: &Cfg, adj: &Adjacency, entry: usize) -> Vec<usize> {
    let n = cfg.node_count();
    if entry >= n {
        return Vec::new();
    }
    let mut visited = vec![false; n];
    let mut post = Vec::with_capacity(n);
    let mut stack: Vec<(usize, usize)> = vec![(entry, 0)];
    visited[entry] = true;
    while let Some(top) = stack.last_mut() {
        let (u, next) = *top;
        if let Some(&e) = adj.succ[u].get(next) {
            top.1 += 1;
            let v = cfg.edges[e].1;
            if !visited[v] {
                visited[v] = true;
                stack.push((v, 0));
            }
        } else {
            post.push(u);
            stack.pop();
        }
    }
    post.reverse();
    post
}
