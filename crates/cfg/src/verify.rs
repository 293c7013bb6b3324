//! The warp-level CFG's invariants, checked after it is built (the verifier habit of
//! Cranelift: a pass's output is checked, not trusted). [`verify`] runs in tests and, in
//! debug builds only, right after both builders ([`crate::build`] for SASS,
//! [`crate::ptx::pdom::build`] for PTX), so a release build pays nothing.
//!
//! What is checked, as this crate represents the graph (§3, Fig. 2):
//! - **Nodes and edges exist.** Node `i` has id `i`; the entry and the virtual exit are
//!   nodes; the exit alone has no block and an empty stack, every other node names a block
//!   of the thread-level graph; every edge's two ends are nodes, none leaves the exit; every
//!   [`Resumption`](crate::Resumption) names an edge, in edge order; every node is reachable
//!   from the entry (the builders only keep states they reached).
//! - **Entries are nodes of the stack graph** (§3.1). An entry's points are sorted without
//!   duplicates; an entry of several points is a cycle (`repeated`); an activation point
//!   stands in one entry of a SASS stack at most (pushing a pending point again folds the
//!   entries above it into one cycle, `transfer::push_entry`). The post-dominator stack
//!   merges a path pushed again only within the run of paths that rejoin at the same point,
//!   which its entries do not record, so the same block may wait in two of its entries.
//! - **Entries are well nested.** A stack is either the SASS stack of Jeanmougin et al.
//!   (with Volta's convergence barriers and the saved warp of `WARPSYNC`,
//!   [`crate::barriers`]) or PTX's post-dominator stack ([`crate::ptx::pdom`]), never a mix
//!   of both. SASS: "any stack" (the acyclic ablation) and the saved warp stand only at the
//!   bottom, "any stack" only as [`Entry::any`]. PTX: a reconvergence entry (`Ipdom`) is
//!   one point; the running path's reconvergence point (`Rpc`) is one point, on top; and the
//!   running path reconverges where the innermost waiting reconvergence entry waits (a
//!   path pushed by a divergent branch runs to the branch's immediate post-dominator, which
//!   is that entry), or, with none waiting or the innermost at the function's end, nowhere
//!   before the end (no `Rpc`). A pending path needs no reconvergence entry below it: paths
//!   that rejoin only at the function's end are pushed without one.

use crate::state::{Entry, Tag};
use crate::warp_cfg::WarpCfg;
use std::fmt;

/// The first invariant a warp-level CFG breaks, naming the node, edge or stack entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VerifyError {
    /// Node `node` is stored with id `id`.
    NodeId { node: usize, id: usize },
    /// The entry or the exit (`which`) is not a node of the graph.
    MissingNode {
        which: &'static str,
        node: usize,
        nodes: usize,
    },
    /// The virtual exit node has a block or a stack.
    ExitNotVirtual { exit: usize },
    /// A node other than the exit has no block.
    NoBlock { node: usize },
    /// A node names a block the thread-level graph does not have.
    MissingBlock {
        node: usize,
        block: usize,
        blocks: usize,
    },
    /// Edge `edge` has an end that is not a node.
    EdgeEnd {
        edge: usize,
        from: usize,
        to: usize,
        nodes: usize,
    },
    /// Edge `edge` leaves the virtual exit.
    EdgeFromExit { edge: usize },
    /// Resumption `index` names no edge, or the resumptions are out of edge order.
    Resumption { index: usize, edge: usize },
    /// No path from the entry reaches `node`.
    Unreachable { node: usize },
    /// Entry `entry` (bottom first) of `node`'s stack is malformed (`what`).
    Entry {
        node: usize,
        entry: usize,
        what: &'static str,
    },
    /// Entry `entry` (bottom first) of `node`'s stack is badly nested (`what`).
    Nesting {
        node: usize,
        entry: usize,
        what: &'static str,
    },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            VerifyError::NodeId { node, id } => write!(f, "node {node} has id {id}"),
            VerifyError::MissingNode { which, node, nodes } => {
                write!(f, "the {which} is node {node} of {nodes}")
            }
            VerifyError::ExitNotVirtual { exit } => {
                write!(f, "the exit node {exit} has a block or a stack")
            }
            VerifyError::NoBlock { node } => write!(f, "node {node} has no block"),
            VerifyError::MissingBlock {
                node,
                block,
                blocks,
            } => write!(f, "node {node} names block {block} of {blocks}"),
            VerifyError::EdgeEnd {
                edge,
                from,
                to,
                nodes,
            } => write!(
                f,
                "edge {edge} ({from} -> {to}) has an end outside the {nodes} nodes"
            ),
            VerifyError::EdgeFromExit { edge } => write!(f, "edge {edge} leaves the exit node"),
            VerifyError::Resumption { index, edge } => {
                write!(
                    f,
                    "resumption {index} names edge {edge}, missing or out of order"
                )
            }
            VerifyError::Unreachable { node } => {
                write!(f, "node {node} is not reachable from the entry")
            }
            VerifyError::Entry { node, entry, what } => {
                write!(f, "node {node}, stack entry {entry}: {what}")
            }
            VerifyError::Nesting { node, entry, what } => {
                write!(f, "node {node}, stack entry {entry} badly nested: {what}")
            }
        }
    }
}

impl std::error::Error for VerifyError {}

/// Checks `cfg`, built over a thread-level graph of `blocks` blocks (module doc).
pub fn verify(cfg: &WarpCfg, blocks: usize) -> Result<(), VerifyError> {
    let nodes = cfg.nodes.len();
    for (i, n) in cfg.nodes.iter().enumerate() {
        if n.id != i {
            return Err(VerifyError::NodeId { node: i, id: n.id });
        }
    }
    for (which, node) in [("entry", cfg.entry), ("exit", cfg.exit)] {
        if node >= nodes {
            return Err(VerifyError::MissingNode { which, node, nodes });
        }
    }
    for n in &cfg.nodes {
        match n.block {
            None if n.id != cfg.exit => return Err(VerifyError::NoBlock { node: n.id }),
            Some(_) if n.id == cfg.exit => {
                return Err(VerifyError::ExitNotVirtual { exit: cfg.exit })
            }
            None if !n.stack.is_empty() => {
                return Err(VerifyError::ExitNotVirtual { exit: cfg.exit })
            }
            Some(block) if block >= blocks => {
                return Err(VerifyError::MissingBlock {
                    node: n.id,
                    block,
                    blocks,
                })
            }
            _ => stack(n.id, &n.stack)?,
        }
    }
    let mut succ = vec![Vec::new(); nodes];
    for (edge, e) in cfg.edges.iter().enumerate() {
        if e.from >= nodes || e.to >= nodes {
            return Err(VerifyError::EdgeEnd {
                edge,
                from: e.from,
                to: e.to,
                nodes,
            });
        }
        if e.from == cfg.exit {
            return Err(VerifyError::EdgeFromExit { edge });
        }
        succ[e.from].push(e.to);
    }
    let mut previous = None;
    for (index, r) in cfg.resumptions.iter().enumerate() {
        if r.edge >= cfg.edges.len() || previous.is_some_and(|p| p >= r.edge) {
            return Err(VerifyError::Resumption {
                index,
                edge: r.edge,
            });
        }
        previous = Some(r.edge);
    }
    let mut seen = vec![false; nodes];
    seen[cfg.entry] = true;
    let mut work = vec![cfg.entry];
    while let Some(v) = work.pop() {
        for &w in &succ[v] {
            if !seen[w] {
                seen[w] = true;
                work.push(w);
            }
        }
    }
    // The exit may be unreachable: a kernel that never ends (an endless loop) has no path
    // to it, yet the builders always add it.
    match (0..nodes).find(|&v| !seen[v] && v != cfg.exit) {
        Some(node) => Err(VerifyError::Unreachable { node }),
        None => Ok(()),
    }
}

/// Which stack an entry belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Discipline {
    /// Jeanmougin et al.'s stack (and Volta's barriers, the saved warp, "any stack").
    Sass,
    /// PTX's post-dominator stack.
    Pdom,
}

fn discipline(tag: Tag) -> Discipline {
    match tag {
        Tag::Path | Tag::Ipdom { .. } | Tag::Rpc => Discipline::Pdom,
        _ => Discipline::Sass,
    }
}

/// The stack of node `node`, bottom first (module doc).
fn stack(node: usize, stack: &[Entry]) -> Result<(), VerifyError> {
    let entry_error = |entry: usize, what: &'static str| VerifyError::Entry { node, entry, what };
    let nesting = |entry: usize, what: &'static str| VerifyError::Nesting { node, entry, what };
    let mut discipline_of_stack = None;
    for (i, e) in stack.iter().enumerate() {
        if e.points.is_empty() {
            return Err(entry_error(i, "no activation point"));
        }
        if e.points.windows(2).any(|w| w[0] >= w[1]) {
            return Err(entry_error(i, "points not sorted, or repeated"));
        }
        if e.points.len() > 1 && !e.repeated {
            return Err(entry_error(i, "several points but not a cycle"));
        }
        for p in &e.points {
            let d = discipline(p.tag);
            if d == Discipline::Sass && stack[..i].iter().any(|below| below.points.contains(p)) {
                return Err(entry_error(i, "activation point already pending below"));
            }
            if *discipline_of_stack.get_or_insert(d) != d {
                return Err(nesting(i, "SASS and post-dominator entries in one stack"));
            }
        }
        if e.is_any() && (i != 0 || *e != Entry::any()) {
            return Err(nesting(
                i,
                "\"any stack\" above the bottom, or with other points",
            ));
        }
        if e.has_tag(Tag::WarpSync) && i != 0 {
            return Err(nesting(i, "the saved warp above the bottom"));
        }
    }
    if discipline_of_stack == Some(Discipline::Pdom) {
        pdom_stack(stack, nesting)?;
    }
    Ok(())
}

/// The post-dominator stack's nesting (module doc).
fn pdom_stack(
    stack: &[Entry],
    nesting: impl Fn(usize, &'static str) -> VerifyError,
) -> Result<(), VerifyError> {
    let is_ipdom = |e: &Entry| matches!(e.points[0].tag, Tag::Ipdom { .. });
    let top = stack.len() - 1;
    for (i, e) in stack.iter().enumerate() {
        let tags_alike = e
            .points
            .iter()
            .all(|p| std::mem::discriminant(&p.tag) == std::mem::discriminant(&e.points[0].tag));
        if !tags_alike {
            return Err(nesting(i, "one entry mixes paths and reconvergence points"));
        }
        if (is_ipdom(e) || e.has_tag(Tag::Rpc)) && (e.repeated || e.points.len() != 1) {
            return Err(nesting(i, "a reconvergence point repeated"));
        }
        if e.has_tag(Tag::Rpc) && i != top {
            return Err(nesting(
                i,
                "the running path's reconvergence point below the top",
            ));
        }
    }
    let innermost = stack
        .iter()
        .rev()
        .find(|e| is_ipdom(e))
        .map(|e| e.points[0].pc);
    let running = stack[top]
        .has_tag(Tag::Rpc)
        .then(|| stack[top].points[0].pc);
    // `usize::MAX`: the innermost entry waits at the function's end, where no path
    // reconverges (the running path then has no `Rpc`).
    if innermost.filter(|&pc| pc != usize::MAX) != running {
        return Err(nesting(
            top,
            "the running path does not reconverge at the innermost reconvergence entry",
        ));
    }
    Ok(())
}

/// [`verify`] right after a builder, in debug builds only: a broken invariant is a bug of the
/// builder, so it panics with the error (release builds do not compile this in).
#[cfg(debug_assertions)]
pub(crate) fn assert_verified(cfg: &WarpCfg, blocks: usize) {
    if let Err(e) = verify(cfg, blocks) {
        panic!("warp-level CFG verifier: {e}");
    }
}
