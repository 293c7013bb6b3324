//! A dialect-neutral thread-level control-flow graph: what one thread's program counter can
//! do after each instruction, and the basic blocks and edges that follow from it.
//!
//! What this module *is*: the skeleton every dialect without a SIMT stack shares — PTX (one
//! thread's view of a `.entry` or `.func`), GCN3 (one wavefront's scalar program counter),
//! and L/C strings — so that the default mode can draw a graph for any pasted kernel. Each
//! dialect states the control flow of its instructions as a [`Flow`]
//! ([`crate::ptx::flows`], [`crate::gcn::flows`]); [`build`] turns that into blocks and
//! edges.
//!
//! What it is *not*: SASS's thread graph, whose `SYNC`/`BRK`/`CONT`/`RET` edges depend on the
//! reconvergence stack ([`crate::blocks`]), nor Sim-D's, whose decoder-injected `cpop`s
//! depend on the control stack (the `phases` crate). It knows nothing about warps,
//! divergence or timing.

use crate::blocks::EdgeKind;
use petgraph::graph::DiGraph;

/// Where control can go after one instruction, for one thread. Targets are instruction
/// indices of the same function; `None` marks a target the front end could not resolve (it
/// has reported why).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Flow {
    /// Continues at the next instruction (calls included: the callee returns here).
    Next,
    /// A jump; `conditional` ones may also fall through.
    Branch {
        target: Option<usize>,
        conditional: bool,
    },
    /// A jump to one of several listed targets (`brx.idx` with `.branchtargets`).
    Indirect {
        targets: Vec<usize>,
        conditional: bool,
    },
    /// Leaves the function (`exit`, `ret`, `s_endpgm`, a return or tail call);
    /// `conditional` ones may also fall through.
    End { conditional: bool },
}

impl Flow {
    fn ends_block(&self) -> bool {
        !matches!(self, Flow::Next)
    }

    fn falls_through(&self) -> bool {
        match self {
            Flow::Next => true,
            Flow::Branch { conditional, .. }
            | Flow::Indirect { conditional, .. }
            | Flow::End { conditional } => *conditional,
        }
    }

    fn targets(&self) -> Vec<usize> {
        match self {
            Flow::Branch {
                target: Some(t), ..
            } => vec![*t],
            Flow::Indirect { targets, .. } => targets.clone(),
            _ => Vec::new(),
        }
    }
}

/// A basic block: instructions `first..=last`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowBlock {
    pub id: usize,
    pub first: usize,
    pub last: usize,
    /// Whether a path from the entry (block 0) reaches it.
    pub reachable: bool,
    /// Whether the thread can leave the function at its end.
    pub exits: bool,
}

/// Blocks and edges of one function, block 0 the entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowGraph {
    pub blocks: Vec<FlowBlock>,
    /// `(from block, to block, kind)`: `Taken` for a jump, `Fallthrough` otherwise; sorted,
    /// without duplicates.
    pub edges: Vec<(usize, usize, EdgeKind)>,
}

impl FlowGraph {
    /// The block holding instruction `index`.
    pub fn block_of(&self, index: usize) -> Option<usize> {
        let i = self.blocks.partition_point(|b| b.last < index);
        (i < self.blocks.len() && self.blocks[i].first <= index).then_some(i)
    }

    /// The graph as `petgraph` (node weight = block id, edge weight = kind), for the graph
    /// algorithms the analyses share.
    pub fn to_petgraph(&self) -> DiGraph<usize, EdgeKind> {
        let mut g = DiGraph::with_capacity(self.blocks.len(), self.edges.len());
        let nodes: Vec<_> = self.blocks.iter().map(|b| g.add_node(b.id)).collect();
        for &(a, b, k) in &self.edges {
            g.add_edge(nodes[a], nodes[b], k);
        }
        g
    }
}

/// Splits `flows` (one per instruction, in order) into basic blocks and connects them.
/// Leaders are the first instruction, every jump target, and every instruction after one
/// that is not [`Flow::Next`]. Targets out of range are ignored (the front end reported them).
/// Linear in the number of instructions and targets; never panics.
pub fn build(flows: &[Flow]) -> FlowGraph {
    let n = flows.len();
    if n == 0 {
        return FlowGraph {
            blocks: Vec::new(),
            edges: Vec::new(),
        };
    }
    let mut leader = vec![false; n];
    leader[0] = true;
    for (i, f) in flows.iter().enumerate() {
        for t in f.targets() {
            if t < n {
                leader[t] = true;
            }
        }
        if f.ends_block() && i + 1 < n {
            leader[i + 1] = true;
        }
    }
    let mut blocks: Vec<FlowBlock> = Vec::new();
    let mut block_of = vec![0usize; n];
    for i in 0..n {
        if leader[i] {
            blocks.push(FlowBlock {
                id: blocks.len(),
                first: i,
                last: i,
                reachable: false,
                exits: false,
            });
        }
        let b = blocks.len() - 1;
        blocks[b].last = i;
        block_of[i] = b;
    }
    let mut edges = Vec::new();
    for b in blocks.iter_mut() {
        let f = &flows[b.last];
        for t in f.targets() {
            if let Some(&to) = block_of.get(t) {
                edges.push((b.id, to, EdgeKind::Taken));
            }
        }
        if f.falls_through() {
            match block_of.get(b.last + 1) {
                Some(&to) => edges.push((b.id, to, EdgeKind::Fallthrough)),
                // Running off the end of the listing leaves the function.
                None => b.exits = true,
            }
        }
        if matches!(f, Flow::End { .. }) {
            b.exits = true;
        }
    }
    edges.sort();
    edges.dedup();
    // Reachability from the entry.
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); blocks.len()];
    for &(a, b, _) in &edges {
        succ[a].push(b);
    }
    let mut stack = vec![0usize];
    blocks[0].reachable = true;
    while let Some(b) = stack.pop() {
        for &s in &succ[b] {
            if !blocks[s].reachable {
                blocks[s].reachable = true;
                stack.push(s);
            }
        }
    }
    let graph = FlowGraph { blocks, edges };
    #[cfg(debug_assertions)]
    crate::verify::assert_verified("flow graph", crate::verify::verify_flow(&graph, n));
    graph
}

#[cfg(test)]
mod tests {
    use super::*;

    fn br(t: usize, c: bool) -> Flow {
        Flow::Branch {
            target: Some(t),
            conditional: c,
        }
    }

    #[test]
    fn if_then_else_and_loop() {
        // 0: cond br 3 | 1, 2: br 4 | 3 | 4: cond br 0 | 5: end
        let flows = vec![
            br(3, true),
            Flow::Next,
            br(4, false),
            Flow::Next,
            br(0, true),
            Flow::End { conditional: false },
        ];
        let g = build(&flows);
        let spans: Vec<(usize, usize)> = g.blocks.iter().map(|b| (b.first, b.last)).collect();
        assert_eq!(spans, vec![(0, 0), (1, 2), (3, 3), (4, 4), (5, 5)]);
        use EdgeKind::{Fallthrough as F, Taken as T};
        assert_eq!(
            g.edges,
            vec![
                (0, 1, F),
                (0, 2, T),
                (1, 3, T),
                (2, 3, F),
                (3, 0, T),
                (3, 4, F)
            ]
        );
        assert!(g.blocks.iter().all(|b| b.reachable));
        assert_eq!(
            g.blocks
                .iter()
                .filter(|b| b.exits)
                .map(|b| b.id)
                .collect::<Vec<_>>(),
            vec![4]
        );
        assert_eq!(g.block_of(2), Some(1));
        assert_eq!(g.block_of(9), None);
        assert_eq!(g.to_petgraph().edge_count(), 6);
    }

    #[test]
    fn code_after_an_unconditional_end_is_unreachable() {
        let flows = vec![Flow::End { conditional: false }, Flow::Next, br(1, false)];
        let g = build(&flows);
        assert_eq!(g.blocks.len(), 2);
        assert!(!g.blocks[1].reachable);
        assert_eq!(g.edges, vec![(1, 1, EdgeKind::Taken)]);
    }

    #[test]
    fn indirect_targets_unresolved_targets_and_falling_off_the_end() {
        let flows = vec![
            Flow::Indirect {
                targets: vec![2, 3, 99],
                conditional: false,
            },
            Flow::Next,
            Flow::Branch {
                target: None,
                conditional: true,
            },
            Flow::Next,
        ];
        let g = build(&flows);
        assert_eq!(g.blocks.len(), 4);
        use EdgeKind::{Fallthrough as F, Taken as T};
        assert_eq!(g.edges, vec![(0, 2, T), (0, 3, T), (1, 2, F), (2, 3, F)]);
        assert!(!g.blocks[1].reachable);
        assert!(g.blocks[3].exits);
        assert_eq!(build(&[]).blocks.len(), 0);
    }
}
