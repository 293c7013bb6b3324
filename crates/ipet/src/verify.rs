//! The loop structure's invariants, checked after it is found (the verifier habit of
//! Cranelift: an analysis's output is checked, not trusted). [`verify_loops`] runs in
//! tests and, in debug builds only, at the end of [`LoopStructure::new`](crate::LoopStructure::new),
//! so a release build pays nothing.
//!
//! What is checked, against the definitions of [`crate::loops`]:
//! - **Every node and edge named exists**, and every list is sorted without duplicates.
//! - **A natural loop** (`irreducible: false`) is entered through its header alone: its
//!   only entry node is the header, which dominates every node of its body; every edge into
//!   the body from a reachable node outside it goes to the header and is listed among its
//!   entry edges; every back edge goes from the body to the header.
//! - **An irreducible region** (`irreducible: true`) is stated as such: no node of its body
//!   dominates the whole body (had one, its edges from inside would be back edges and the
//!   region a natural loop); its header is its smallest entry node, and every entry and
//!   back edge goes into an entry node, from outside and from inside the body respectively.
//! - **Nesting.** Two natural loops are nested or disjoint, and so are two irreducible
//!   regions (the regions come from a recursive decomposition into strongly connected
//!   components). A natural loop and an irreducible region may overlap without nesting (a
//!   region can hold a loop's header and not the rest of its body), so that pair is not
//!   checked.

use std::fmt;

use crate::cfg::{reachable_from, Adjacency, Cfg};
use crate::loops::Loop;
use isa::dominance::DominatorTree;

/// The first invariant a loop structure breaks, naming the loop (by its header) and the
/// node or edge (an index into [`Cfg::edges`]) that breaks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VerifyError {
    /// A loop names node `node`, which the graph does not have.
    MissingNode { header: usize, node: usize },
    /// A loop names edge `edge`, which the graph does not have.
    MissingEdge { header: usize, edge: usize },
    /// A list of the loop (`what`) is empty where it may not be, unsorted or repeats itself.
    List { header: usize, what: &'static str },
    /// The header is not in the body, or not where its kind of loop puts it (`what`).
    Header { header: usize, what: &'static str },
    /// The header of a natural loop does not dominate `node` of its body.
    NotDominated { header: usize, node: usize },
    /// Edge `edge` enters the loop's body elsewhere than at an entry node, or is listed
    /// among the entry edges without entering it.
    Entry { header: usize, edge: usize },
    /// Edge `edge`, listed as a back edge, does not go from the body to an entry node.
    BackEdge { header: usize, edge: usize },
    /// An irreducible region whose node `dominator` dominates its whole body: a natural
    /// loop stated as irreducible.
    Reducible { header: usize, dominator: usize },
    /// The bodies of the loops with headers `a` and `b` share `node` without one holding
    /// the other.
    Overlap { a: usize, b: usize, node: usize },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            VerifyError::MissingNode { header, node } => {
                write!(f, "loop {header} names node {node}, which does not exist")
            }
            VerifyError::MissingEdge { header, edge } => {
                write!(f, "loop {header} names edge {edge}, which does not exist")
            }
            VerifyError::List { header, what } => {
                write!(f, "loop {header}: {what} empty, unsorted or repeated")
            }
            VerifyError::Header { header, what } => write!(f, "loop {header}: {what}"),
            VerifyError::NotDominated { header, node } => {
                write!(
                    f,
                    "loop header {header} does not dominate node {node} of its body"
                )
            }
            VerifyError::Entry { header, edge } => {
                write!(
                    f,
                    "loop {header}: edge {edge} enters it elsewhere than at an entry node"
                )
            }
            VerifyError::BackEdge { header, edge } => write!(
                f,
                "loop {header}: edge {edge} is no back edge from the body to an entry node"
            ),
            VerifyError::Reducible { header, dominator } => write!(
                f,
                "irreducible region {header}: node {dominator} dominates the whole region"
            ),
            VerifyError::Overlap { a, b, node } => write!(
                f,
                "loops {a} and {b} share node {node} but neither holds the other"
            ),
        }
    }
}

impl std::error::Error for VerifyError {}

/// Checks `loops`, found in `cfg` (module doc). `cfg` must be valid
/// ([`Cfg::validate`]); the loops are checked against it, not trusted.
pub fn verify_loops(cfg: &Cfg, loops: &[Loop]) -> Result<(), VerifyError> {
    let n = cfg.node_count();
    let adj = Adjacency::new(cfg);
    let reachable = reachable_from(cfg, &adj, cfg.entry);
    let dom = DominatorTree::dominators(n, cfg.edges.iter().copied(), cfg.entry);
    let mut in_body = vec![false; n];
    for l in loops {
        let header = l.header;
        lists(l, n, cfg.edges.len())?;
        for &v in &l.body {
            in_body[v] = true;
        }
        let checked = shape(cfg, &adj, &reachable, &dom, l, &in_body);
        for &v in &l.body {
            in_body[v] = false;
        }
        checked?;
        if l.irreducible {
            // The node that dominates every node of the body, if one is in it: walk up the
            // dominator tree from the first node until it dominates each of the others.
            let mut d = Some(l.body[0]);
            for &v in &l.body[1..] {
                while let Some(c) = d.filter(|&c| !dom.dominates(c, v)) {
                    d = dom.idom(c);
                }
            }
            if let Some(dominator) = d.filter(|c| l.body.binary_search(c).is_ok()) {
                return Err(VerifyError::Reducible { header, dominator });
            }
        }
    }
    nesting(loops, n)
}

/// Ranges and order of the loop's lists.
fn lists(l: &Loop, nodes: usize, edges: usize) -> Result<(), VerifyError> {
    let header = l.header;
    let sorted = |v: &[usize]| v.windows(2).all(|w| w[0] < w[1]);
    for (what, list, may_be_empty) in [
        ("body", &l.body, false),
        ("entry nodes", &l.entry_nodes, false),
        ("back edges", &l.back_edges, true),
        ("entry edges", &l.entry_edges, true),
    ] {
        if (list.is_empty() && !may_be_empty) || !sorted(list) {
            return Err(VerifyError::List { header, what });
        }
    }
    let missing_node = l.body.iter().chain(&l.entry_nodes).find(|&&v| v >= nodes);
    if let Some(&node) = missing_node.or((header >= nodes).then_some(&header)) {
        return Err(VerifyError::MissingNode { header, node });
    }
    if let Some(&edge) = l
        .back_edges
        .iter()
        .chain(&l.entry_edges)
        .find(|&&e| e >= edges)
    {
        return Err(VerifyError::MissingEdge { header, edge });
    }
    Ok(())
}

/// Header, entries, back edges and dominance of one loop; `in_body` marks its body.
fn shape(
    cfg: &Cfg,
    adj: &Adjacency,
    reachable: &[bool],
    dom: &DominatorTree,
    l: &Loop,
    in_body: &[bool],
) -> Result<(), VerifyError> {
    let header = l.header;
    if !in_body[header] {
        return Err(VerifyError::Header {
            header,
            what: "the header is not in the body",
        });
    }
    if let Some(&v) = l.entry_nodes.iter().find(|&&v| !in_body[v]) {
        return Err(VerifyError::MissingNode { header, node: v });
    }
    let what = if l.irreducible {
        "the header is not the smallest entry node"
    } else {
        "a natural loop is entered through its header alone"
    };
    let header_placed = match l.irreducible {
        true => l.entry_nodes[0] == header,
        false => l.entry_nodes == [header],
    };
    if !header_placed {
        return Err(VerifyError::Header { header, what });
    }
    if !l.irreducible {
        if let Some(&node) = l.body.iter().find(|&&v| !dom.dominates(header, v)) {
            return Err(VerifyError::NotDominated { header, node });
        }
    }
    let is_entry = |v: usize| l.entry_nodes.binary_search(&v).is_ok();
    for &e in &l.back_edges {
        let (u, v) = cfg.edges[e];
        if !in_body[u] || !is_entry(v) {
            return Err(VerifyError::BackEdge { header, edge: e });
        }
    }
    for &e in &l.entry_edges {
        let (u, v) = cfg.edges[e];
        if in_body[u] || !is_entry(v) {
            return Err(VerifyError::Entry { header, edge: e });
        }
    }
    // Every edge into the body from a reachable node outside it, back edges aside (a natural
    // loop has none from outside; a region does not count them), enters at an entry node
    // and is listed.
    for &v in &l.body {
        for &e in &adj.pred[v] {
            let u = cfg.edges[e].0;
            if in_body[u] || !reachable[u] || dom.dominates(v, u) {
                continue;
            }
            if !is_entry(v) || l.entry_edges.binary_search(&e).is_err() {
                return Err(VerifyError::Entry { header, edge: e });
            }
        }
    }
    Ok(())
}

/// Natural loops among themselves, and irreducible regions among themselves, are nested or
/// disjoint (module doc).
fn nesting(loops: &[Loop], n: usize) -> Result<(), VerifyError> {
    let mut mark = vec![false; n];
    for (i, outer) in loops.iter().enumerate() {
        for &v in &outer.body {
            mark[v] = true;
        }
        let overlap = loops[i + 1..]
            .iter()
            .filter(|inner| inner.irreducible == outer.irreducible)
            .find_map(|inner| {
                let shared = inner.body.iter().find(|&&v| mark[v])?;
                if inner.body.iter().all(|&v| mark[v]) {
                    return None;
                }
                let holds = outer
                    .body
                    .iter()
                    .all(|v| inner.body.binary_search(v).is_ok());
                (!holds).then_some((inner.header, *shared))
            });
        for &v in &outer.body {
            mark[v] = false;
        }
        if let Some((b, node)) = overlap {
            return Err(VerifyError::Overlap {
                a: outer.header,
                b,
                node,
            });
        }
    }
    Ok(())
}

/// [`verify_loops`] right after the loops are found, in debug builds only: a broken
/// invariant is a bug of the loop analysis, so it panics with the error.
#[cfg(debug_assertions)]
pub(crate) fn assert_verified(cfg: &Cfg, loops: &[Loop]) {
    if let Err(e) = verify_loops(cfg, loops) {
        panic!("loop structure verifier: {e}");
    }
}
