//! The thread-level graphs' invariants, checked after they are built (the verifier habit of
//! Cranelift: a pass's output is checked, not trusted). [`verify_blocks`] (SASS,
//! [`crate::blocks`]) and [`verify_flow`] (PTX and GCN3, [`crate::flow`]) run in tests and,
//! in debug builds only, at the end of both builders, so a release build pays nothing.
//!
//! What is checked: block `i` has id `i`; the blocks cover the instructions in order, each
//! a non-empty run `first..=last` starting where the previous one ended; every edge's two
//! ends are blocks; and what each graph says about reachability holds. `flow` computes
//! reachability from block 0 over its edges, so its flags must be exactly that (and its
//! edges sorted without duplicates, as documented). `blocks` walks (block, reconvergence
//! stack) states from block 0 and adds edges only out of the blocks it reached, so block 0
//! is reachable and every edge leaves a reachable block (a walk cut short by its budget
//! leaves some targets unmarked, so the converse is not claimed).

use crate::blocks::BlockGraph;
use crate::flow::FlowGraph;
use std::fmt;

/// The first invariant a thread-level graph breaks, naming the block or edge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VerifyError {
    /// Block `block` is stored with id `id` (or, for `blocks`, as graph node `id`).
    BlockId { block: usize, id: usize },
    /// Block `block` does not continue the run of instructions (`what`).
    Partition { block: usize, what: &'static str },
    /// Edge `edge` (in the graph's order) has an end that is not a block.
    EdgeEnd {
        edge: usize,
        from: usize,
        to: usize,
        blocks: usize,
    },
    /// Edge `edge` is out of order or repeats the one before it.
    EdgeOrder { edge: usize },
    /// Block `block`'s reachability flag is wrong.
    Reachability { block: usize },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            VerifyError::BlockId { block, id } => write!(f, "block {block} has id {id}"),
            VerifyError::Partition { block, what } => write!(f, "block {block}: {what}"),
            VerifyError::EdgeEnd {
                edge,
                from,
                to,
                blocks,
            } => write!(
                f,
                "edge {edge} ({from} -> {to}) has an end outside the {blocks} blocks"
            ),
            VerifyError::EdgeOrder { edge } => {
                write!(f, "edge {edge} is out of order or repeated")
            }
            VerifyError::Reachability { block } => {
                write!(f, "block {block}'s reachability flag is wrong")
            }
        }
    }
}

impl std::error::Error for VerifyError {}

/// Blocks `(id, first, last)` in order cover `0..instructions` without gap or overlap.
fn partition(
    blocks: impl ExactSizeIterator<Item = (usize, usize, usize)>,
    instructions: usize,
) -> Result<(), VerifyError> {
    let count = blocks.len();
    let mut next = 0;
    for (block, (id, first, last)) in blocks.enumerate() {
        if id != block {
            return Err(VerifyError::BlockId { block, id });
        }
        let what = if first != next {
            "does not start where the previous block ended"
        } else if last < first {
            "ends before it starts"
        } else if last >= instructions {
            "ends after the last instruction"
        } else {
            next = last + 1;
            continue;
        };
        return Err(VerifyError::Partition { block, what });
    }
    if next != instructions {
        let block = count.saturating_sub(1);
        let what = "the blocks end before the last instruction";
        return Err(VerifyError::Partition { block, what });
    }
    Ok(())
}

/// Every edge `(from, to)` joins two of `blocks` blocks.
fn edge_ends(
    edges: impl Iterator<Item = (usize, usize)>,
    blocks: usize,
) -> Result<(), VerifyError> {
    for (edge, (from, to)) in edges.enumerate() {
        if from >= blocks || to >= blocks {
            return Err(VerifyError::EdgeEnd {
                edge,
                from,
                to,
                blocks,
            });
        }
    }
    Ok(())
}

/// Checks the SASS block graph `g` of a kernel of `instructions` instructions (module doc).
pub fn verify_blocks(g: &BlockGraph, instructions: usize) -> Result<(), VerifyError> {
    let blocks = g.blocks.len();
    partition(
        g.blocks.iter().map(|b| (b.id, b.first, b.last)),
        instructions,
    )?;
    if g.graph.node_count() != blocks {
        let what = "the graph's nodes are not the blocks";
        return Err(VerifyError::Partition { block: 0, what });
    }
    if let Some((node, &id)) = g
        .graph
        .node_indices()
        .map(|n| (n.index(), &g.graph[n]))
        .find(|&(n, &id)| n != id)
    {
        return Err(VerifyError::BlockId { block: node, id });
    }
    let edges = g.edges();
    edge_ends(edges.iter().map(|&(a, b, _)| (a, b)), blocks)?;
    if g.blocks.first().is_some_and(|b| !b.reachable) {
        return Err(VerifyError::Reachability { block: 0 });
    }
    match edges
        .iter()
        .find(|&&(from, _, _)| !g.blocks[from].reachable)
    {
        Some(&(block, _, _)) => Err(VerifyError::Reachability { block }),
        None => Ok(()),
    }
}

/// Checks the flow graph `g` of a function of `instructions` instructions (module doc).
pub fn verify_flow(g: &FlowGraph, instructions: usize) -> Result<(), VerifyError> {
    let blocks = g.blocks.len();
    partition(
        g.blocks.iter().map(|b| (b.id, b.first, b.last)),
        instructions,
    )?;
    edge_ends(g.edges.iter().map(|&(a, b, _)| (a, b)), blocks)?;
    if let Some(i) = (1..g.edges.len()).find(|&i| g.edges[i - 1] >= g.edges[i]) {
        return Err(VerifyError::EdgeOrder { edge: i });
    }
    let mut succ = vec![Vec::new(); blocks];
    for &(a, b, _) in &g.edges {
        succ[a].push(b);
    }
    let mut reached = vec![false; blocks];
    let mut work: Vec<usize> = (blocks > 0).then_some(0).into_iter().collect();
    while let Some(b) = work.pop() {
        if !std::mem::replace(&mut reached[b], true) {
            work.extend(&succ[b]);
        }
    }
    match (0..blocks).find(|&b| g.blocks[b].reachable != reached[b]) {
        Some(block) => Err(VerifyError::Reachability { block }),
        None => Ok(()),
    }
}

/// Panics with `error` from a builder's debug check: a broken invariant is a bug of the
/// builder (release builds do not compile the check in).
#[cfg(debug_assertions)]
pub(crate) fn assert_verified(graph: &str, checked: Result<(), VerifyError>) {
    if let Err(e) = checked {
        panic!("{graph} verifier: {e}");
    }
}
