//! Loop unrolling with bounds, because the PWS algorithms assume loop-free code (§4.2:
//! "We assume that the compiler ... performs loop unrolling to reduce the CFG to simple
//! sequences and branches"). The public PWS solver unrolls the same way before writing its
//! CSV graphs (MANIFEST: "loops unrolled, blocks renumbered topologically").
//!
//! A bound `N` for the loop with header `h` means what it means in the `ipet` crate: `h`
//! executes at most `N` times per entry into the loop. The loop body is copied `N` times;
//! the back edges of copy `k` lead to the header of copy `k + 1` and those of the last
//! copy are dropped; exits of every copy keep their targets. Inner loops are unrolled
//! first. The longest path of the result therefore equals the IPET bound of the original
//! graph under the same loop bounds (checked in the tests).

use std::collections::{BTreeMap, BTreeSet};

use isa::progress::{self, Every, Observer, Progress, Task};

use crate::budget::Budget;
use crate::error::{Error, ErrorKind};
use crate::graph::{Node, WavefrontCfg};

/// Loop bounds keyed by the label of the loop header (e.g. `BB0_7`), with a default.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LoopBounds {
    pub per_header: BTreeMap<String, u64>,
    /// Bound of every loop not listed; `None` makes such a loop an error.
    pub default: Option<u64>,
}

/// One loop that was unrolled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnrolledLoop {
    /// Label of the header.
    pub header: String,
    pub bound: u64,
    /// Nodes of the body (header included) when it was unrolled.
    pub body_nodes: usize,
}

/// Unrolls every loop of `cfg` and renumbers the result topologically (entry = node 0).
/// Nodes that cannot reach the end of the program any more (the tail of a last iteration
/// whose only way on was the back edge) are removed.
///
/// # Errors
/// An irreducible loop, a loop without bound, a bound of 0, or `max_unrolled_nodes`.
pub fn unroll(
    cfg: &WavefrontCfg,
    bounds: &LoopBounds,
    budget: &Budget,
) -> Result<(WavefrontCfg, Vec<UnrolledLoop>), Error> {
    unroll_observed(cfg, bounds, budget, &progress::silent)
}

/// Nodes added between two progress reports (each loop unrolled costs a pass over the whole
/// graph, so a report per thousand nodes is nothing next to it).
const REPORT_EVERY: u64 = 1 << 10;

/// [`unroll`], telling `observer` every thousand nodes added or so how many nodes the graph
/// has (of `max_unrolled_nodes`; [`Task::PwsUnroll`]). The result does not depend on the
/// observer.
///
/// # Errors
/// As [`unroll`].
pub fn unroll_observed(
    cfg: &WavefrontCfg,
    bounds: &LoopBounds,
    budget: &Budget,
    observer: Observer,
) -> Result<(WavefrontCfg, Vec<UnrolledLoop>), Error> {
    cfg.validate()?;
    let mut every = Every::new(REPORT_EVERY);
    let mut g = cfg.clone();
    let exits: Vec<bool> = g.nodes.iter().map(|n| n.successors.is_empty()).collect();
    let mut is_exit = exits;
    let mut report = Vec::new();
    let back = back_edges(&g);
    let idom = dominators(&g);
    for &(u, h) in &back {
        if !dominates(&idom, h, u) {
            return Err(Error::global(
                ErrorKind::Graph,
                format!(
                    "irreducible loop: the edge {} → {} enters a cycle not through its header; cannot unroll",
                    g.nodes[u].label, g.nodes[h].label
                ),
            ));
        }
    }
    // Every loop's body, found once. Unrolling the innermost loop left (the smallest body)
    // changes no other loop's header or back edges; it only adds its copies to the bodies of
    // the loops around it (those holding its header) — so the bodies are kept up to date
    // instead of recomputed over the whole, growing graph at every step (which took minutes
    // on a kernel of a few hundred loops).
    let preds = predecessors(&g);
    let mut bodies: BTreeMap<usize, BTreeSet<usize>> = back
        .iter()
        .map(|&(_, h)| h)
        .collect::<BTreeSet<usize>>()
        .into_iter()
        .map(|h| (h, natural_loop(&preds, h, &back)))
        .collect();
    loop {
        let mut best: Option<(usize, usize)> = None;
        for (&h, body) in &bodies {
            if best.is_none_or(|(_, len)| body.len() < len) {
                best = Some((h, body.len()));
            }
        }
        let Some((h, _)) = best else { break };
        let Some(body) = bodies.remove(&h) else { break };
        let label = g.nodes[h].label.clone();
        let origin_label = label.split('#').next().unwrap_or(&label).to_string();
        // An inlined callee's header `f/label` also takes the bound given for `label`.
        let bound = bounds
            .per_header
            .get(&origin_label)
            .or_else(|| {
                origin_label
                    .rsplit_once('/')
                    .and_then(|(_, local)| bounds.per_header.get(local))
            })
            .copied()
            .or(bounds.default)
            .ok_or_else(|| {
                Error::global(
                    ErrorKind::Graph,
                    format!("the loop with header `{origin_label}` has no bound and there is no default bound"),
                )
            })?;
        if bound == 0 {
            return Err(Error::global(
                ErrorKind::Graph,
                format!("the bound of the loop `{origin_label}` must be at least 1"),
            ));
        }
        let extra = usize::try_from(bound - 1)
            .ok()
            .and_then(|k| k.checked_mul(body.len()))
            .and_then(|k| k.checked_add(g.nodes.len()));
        match extra {
            Some(total) if total <= budget.max_unrolled_nodes => {}
            _ => {
                return Err(Error::budget(
                    "max_unrolled_nodes",
                    budget.max_unrolled_nodes,
                    format!("unrolling loop `{origin_label}` {bound} times needs more nodes"),
                ))
            }
        }
        report.push(UnrolledLoop {
            header: origin_label,
            bound,
            body_nodes: body.len(),
        });
        let before = g.nodes.len();
        unroll_one(&mut g, &mut is_exit, h, &body, bound);
        for outer in bodies.values_mut().filter(|b| b.contains(&h)) {
            outer.extend(before..g.nodes.len());
        }
        if every.tick((g.nodes.len() - before) as u64) {
            observer(&Progress {
                task: Task::PwsUnroll,
                done: g.nodes.len() as u64,
                budget: budget.max_unrolled_nodes as u64,
                best_bound: None,
                upper_bound: None,
            });
        }
    }
    let out = renumber(&g, &is_exit)?;
    Ok((out, report))
}

/// Copies `body` `bound` times (copy 1 is the original).
fn unroll_one(
    g: &mut WavefrontCfg,
    is_exit: &mut Vec<bool>,
    h: usize,
    body: &BTreeSet<usize>,
    bound: u64,
) {
    let copies = usize::try_from(bound).unwrap_or(usize::MAX);
    let orig: BTreeMap<usize, Vec<usize>> = body
        .iter()
        .map(|&b| (b, g.nodes[b].successors.clone()))
        .collect();
    let mut maps: Vec<BTreeMap<usize, usize>> = Vec::with_capacity(copies);
    maps.push(body.iter().map(|&b| (b, b)).collect());
    for k in 2..=copies {
        let mut m = BTreeMap::new();
        for &b in body {
            let mut node: Node = g.nodes[b].clone();
            let base = node.label.split('#').next().unwrap_or("").to_string();
            node.label = format!("{base}#{k}");
            node.origin = Some(node.origin.unwrap_or(b));
            g.nodes.push(node);
            is_exit.push(is_exit[b]);
            m.insert(b, g.nodes.len() - 1);
        }
        maps.push(m);
    }
    for k in 0..copies {
        for &b in body {
            let old = orig.get(&b).map_or(&[][..], Vec::as_slice);
            let mut succ = Vec::with_capacity(old.len());
            for &s in old {
                if s == h {
                    if let Some(&next) = maps.get(k + 1).and_then(|m| m.get(&h)) {
                        succ.push(next);
                    }
                } else if let Some(&t) = maps[k].get(&s) {
                    succ.push(t);
                } else {
                    succ.push(s);
                }
            }
            if let Some(&me) = maps[k].get(&b) {
                g.nodes[me].successors = succ;
            }
        }
    }
}

/// Edges to a node on the DFS stack, from an iterative DFS from the entry.
fn back_edges(g: &WavefrontCfg) -> Vec<(usize, usize)> {
    let n = g.nodes.len();
    let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
    let mut out = Vec::new();
    let mut stack: Vec<(usize, usize)> = vec![(g.entry, 0)];
    state[g.entry] = 1;
    while let Some(&mut (u, ref mut i)) = stack.last_mut() {
        if let Some(&v) = g.nodes[u].successors.get(*i) {
            *i += 1;
            match state[v] {
                0 => {
                    state[v] = 1;
                    stack.push((v, 0));
                }
                1 => out.push((u, v)),
                _ => {}
            }
        } else {
            state[u] = 2;
            stack.pop();
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Immediate dominators (Cooper, Harvey, Kennedy) over reachable nodes; `usize::MAX` for
/// unreachable ones.
fn dominators(g: &WavefrontCfg) -> Vec<usize> {
    let n = g.nodes.len();
    // Reverse post-order.
    let mut post = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut stack: Vec<(usize, usize)> = vec![(g.entry, 0)];
    seen[g.entry] = true;
    while let Some(&mut (u, ref mut i)) = stack.last_mut() {
        if let Some(&v) = g.nodes[u].successors.get(*i) {
            *i += 1;
            if !seen[v] {
                seen[v] = true;
                stack.push((v, 0));
            }
        } else {
            post.push(u);
            stack.pop();
        }
    }
    let mut order = vec![usize::MAX; n];
    for (i, &u) in post.iter().enumerate() {
        order[u] = i;
    }
    let mut preds = vec![Vec::new(); n];
    for (u, node) in g.nodes.iter().enumerate() {
        if seen[u] {
            for &v in &node.successors {
                preds[v].push(u);
            }
        }
    }
    let mut idom = vec![usize::MAX; n];
    idom[g.entry] = g.entry;
    let mut changed = true;
    while changed {
        changed = false;
        for &b in post.iter().rev() {
            if b == g.entry {
                continue;
            }
            let mut new = usize::MAX;
            for &p in &preds[b] {
                if idom[p] == usize::MAX {
                    continue;
                }
                new = if new == usize::MAX {
                    p
                } else {
                    let (mut x, mut y) = (p, new);
                    while x != y {
                        while order[x] < order[y] {
                            x = idom[x];
                        }
                        while order[y] < order[x] {
                            y = idom[y];
                        }
                    }
                    x
                };
            }
            if new != idom[b] {
                idom[b] = new;
                changed = true;
            }
        }
    }
    idom
}

fn dominates(idom: &[usize], h: usize, mut u: usize) -> bool {
    loop {
        if u == h {
            return true;
        }
        let d = idom.get(u).copied().unwrap_or(usize::MAX);
        if d == usize::MAX || d == u {
            return false;
        }
        u = d;
    }
}

/// Each node's predecessors.
fn predecessors(g: &WavefrontCfg) -> Vec<Vec<usize>> {
    let mut preds = vec![Vec::new(); g.nodes.len()];
    for (u, node) in g.nodes.iter().enumerate() {
        for &v in &node.successors {
            preds[v].push(u);
        }
    }
    preds
}

/// The natural loop of header `h`: `h` plus every node that reaches a back-edge source
/// without passing through `h`.
fn natural_loop(preds: &[Vec<usize>], h: usize, back: &[(usize, usize)]) -> BTreeSet<usize> {
    let mut body = BTreeSet::from([h]);
    let mut stack: Vec<usize> = back
        .iter()
        .filter(|&&(_, t)| t == h)
        .map(|&(u, _)| u)
        .collect();
    while let Some(u) = stack.pop() {
        if body.insert(u) {
            stack.extend(preds[u].iter().copied());
        }
    }
    body
}

/// Keeps the nodes reachable from the entry that reach an exit, in topological order.
fn renumber(g: &WavefrontCfg, is_exit: &[bool]) -> Result<WavefrontCfg, Error> {
    let n = g.nodes.len();
    let reach = g.reachable();
    let mut preds = vec![Vec::new(); n];
    for (u, node) in g.nodes.iter().enumerate() {
        for &v in &node.successors {
            preds[v].push(u);
        }
    }
    let mut live = vec![false; n];
    let mut stack: Vec<usize> = (0..n).filter(|&u| is_exit[u] && reach[u]).collect();
    for &u in &stack {
        live[u] = true;
    }
    while let Some(v) = stack.pop() {
        for &u in &preds[v] {
            if !live[u] && reach[u] {
                live[u] = true;
                stack.push(u);
            }
        }
    }
    if !live[g.entry] {
        return Err(Error::global(
            ErrorKind::Graph,
            "no path from the entry reaches the end of the program within the loop bounds",
        ));
    }
    let mut pruned = g.clone();
    for (u, node) in pruned.nodes.iter_mut().enumerate() {
        if !live[u] {
            node.successors.clear();
        } else {
            node.successors.retain(|&v| live[v]);
        }
    }
    let order = pruned.topological_order()?;
    let mut new_index = vec![usize::MAX; n];
    for (i, &u) in order.iter().enumerate() {
        new_index[u] = i;
    }
    let nodes = order
        .iter()
        .map(|&u| {
            let mut node = pruned.nodes[u].clone();
            node.successors = node.successors.iter().map(|&v| new_index[v]).collect();
            node
        })
        .collect();
    Ok(WavefrontCfg { nodes, entry: 0 })
}
