//! Natural loops of a lowered [`Program`]: back edges `u → h` where `h` dominates `u`
//! (dominators from `isa::dominance`, rooted at a virtual node before every root), the body
//! of each header, its latches and its entries, and a reverse post-order for the symbolic
//! pass.
//!
//! Why natural loops of the *thread* CFG: a loop bound means "the header runs at most `N`
//! times per thread and per entry into the loop" (the `warp-cfg` mode's `loop_bounds`, the
//! `ipet` crate's `LoopBounds`), which is a fact about one thread's path. Irreducible
//! regions (a cycle entered other than through one header) get no inferred bound: their
//! blocks are marked so that the symbolic pass treats their values as unknown.

use crate::ir::Program;
use isa::dominance::DominatorTree;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::DfsPostOrder;

/// One natural loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loop {
    pub header: usize,
    /// `inside[b]`: block `b` is in the loop (header included).
    pub inside: Vec<bool>,
    /// Blocks of the body with an edge to the header.
    pub latches: Vec<usize>,
    /// Blocks outside the body with an edge to the header.
    pub entries: Vec<usize>,
    /// The innermost enclosing loop (index into [`Loops::loops`]).
    pub parent: Option<usize>,
    /// 1 for an outermost loop.
    pub depth: usize,
}

impl Loop {
    pub fn contains(&self, b: usize) -> bool {
        self.inside.get(b).copied().unwrap_or(false)
    }
}

/// The loop structure of a program.
#[derive(Debug, Clone)]
pub struct Loops {
    /// Outer loops before inner ones (by depth, then header).
    pub loops: Vec<Loop>,
    /// Blocks in reverse post-order from the roots (unreachable blocks last).
    pub rpo: Vec<usize>,
    /// Position of each block in `rpo`.
    pub order: Vec<usize>,
    /// `retreating[b]`: some edge into `b` comes from a block later in `rpo` that `b` does
    /// not dominate (an irreducible entry): the pass treats every variable as unknown there.
    pub retreating: Vec<bool>,
    pub dom: DominatorTree,
    /// Predecessors of each block (one per edge).
    pub preds: Vec<Vec<usize>>,
}

impl Loops {
    /// Finds the loops of `p`.
    pub fn new(p: &Program) -> Loops {
        let n = p.blocks.len();
        let root = n;
        let mut g: DiGraph<(), ()> = DiGraph::with_capacity(n + 1, 0);
        for _ in 0..=n {
            g.add_node(());
        }
        let mut edges = Vec::new();
        let mut preds = vec![Vec::new(); n];
        for (b, block) in p.blocks.iter().enumerate() {
            for e in block.edges.iter().filter(|e| e.to < n) {
                edges.push((b, e.to));
                preds[e.to].push(b);
            }
        }
        let roots: Vec<usize> = p.roots.iter().copied().filter(|&r| r < n).collect();
        // Petgraph's DFS visits the most recently added edge first; adding edges in reverse
        // makes the order follow the listing (fall-through before taken).
        for &(a, b) in edges.iter().rev() {
            g.add_edge(NodeIndex::new(a), NodeIndex::new(b), ());
        }
        for &r in roots.iter().rev() {
            g.add_edge(NodeIndex::new(root), NodeIndex::new(r), ());
        }
        let dom = DominatorTree::dominators(
            n + 1,
            edges
                .iter()
                .copied()
                .chain(roots.iter().map(|&r| (root, r))),
            root,
        );
        let mut post = Vec::with_capacity(n + 1);
        let mut dfs = DfsPostOrder::new(&g, NodeIndex::new(root));
        while let Some(x) = dfs.next(&g) {
            post.push(x.index());
        }
        let mut rpo: Vec<usize> = post.into_iter().rev().filter(|&b| b < n).collect();
        let mut seen = vec![false; n];
        for &b in &rpo {
            seen[b] = true;
        }
        rpo.extend((0..n).filter(|&b| !seen[b]));
        let mut order = vec![0; n];
        for (i, &b) in rpo.iter().enumerate() {
            order[b] = i;
        }
        let mut retreating = vec![false; n];
        let mut back: Vec<(usize, usize)> = Vec::new();
        for &(a, b) in &edges {
            if !dom.is_reachable(a) || !dom.is_reachable(b) || order[a] < order[b] {
                continue;
            }
            if dom.dominates(b, a) {
                back.push((a, b));
            } else {
                retreating[b] = true;
            }
        }
        back.sort_unstable_by_key(|&(a, h)| (h, a));
        let mut loops: Vec<Loop> = Vec::new();
        for chunk in back.chunk_by(|x, y| x.1 == y.1) {
            let h = chunk[0].1;
            let mut inside = vec![false; n];
            inside[h] = true;
            let mut stack: Vec<usize> = chunk.iter().map(|&(u, _)| u).collect();
            while let Some(v) = stack.pop() {
                if inside[v] {
                    continue;
                }
                inside[v] = true;
                stack.extend(preds[v].iter().copied().filter(|&w| !inside[w]));
            }
            let mut latches: Vec<usize> = chunk.iter().map(|&(u, _)| u).collect();
            latches.dedup();
            let mut entries: Vec<usize> =
                preds[h].iter().copied().filter(|&w| !inside[w]).collect();
            entries.sort_unstable();
            entries.dedup();
            loops.push(Loop {
                header: h,
                inside,
                latches,
                entries,
                parent: None,
                depth: 1,
            });
        }
        // Nesting: a loop's parent is the smallest other loop containing its header.
        let sizes: Vec<usize> = loops
            .iter()
            .map(|l| l.inside.iter().filter(|&&x| x).count())
            .collect();
        for i in 0..loops.len() {
            let h = loops[i].header;
            let parent = (0..loops.len())
                .filter(|&j| j != i && loops[j].contains(h) && sizes[j] > sizes[i])
                .min_by_key(|&j| sizes[j]);
            loops[i].parent = parent;
        }
        for i in 0..loops.len() {
            let mut d = 1;
            let mut p = loops[i].parent;
            while let Some(j) = p {
                d += 1;
                p = loops[j].parent;
                if d > loops.len() {
                    break;
                }
            }
            loops[i].depth = d;
        }
        // Outer loops first, so that an inner loop's evaluation can use the ranges of the
        // outer induction variables.
        let mut idx: Vec<usize> = (0..loops.len()).collect();
        idx.sort_by_key(|&i| (loops[i].depth, loops[i].header));
        let remap: Vec<usize> = {
            let mut r = vec![0; loops.len()];
            for (new, &old) in idx.iter().enumerate() {
                r[old] = new;
            }
            r
        };
        let mut sorted: Vec<Loop> = idx.iter().map(|&i| loops[i].clone()).collect();
        for l in &mut sorted {
            l.parent = l.parent.map(|p| remap[p]);
        }
        Loops {
            loops: sorted,
            rpo,
            order,
            retreating,
            dom,
            preds,
        }
    }

    /// Whether `a` dominates `b` in the thread CFG.
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        self.dom.dominates(a, b)
    }

    /// The loop whose header is `b`, if any.
    pub fn of_header(&self, b: usize) -> Option<usize> {
        self.loops.iter().position(|l| l.header == b)
    }
}
