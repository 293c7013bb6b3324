//! Translation of a bounded [`Cfg`] into the IPET integer program.
//!
//! Formulation (one variable per *edge*, not per node, which keeps the LP small and its
//! equality rows independent):
//!
//! * `x_e >= 0` for every *useful* edge `e = u -> v` (u reachable from the entry, v able to
//!   reach an exit); every other edge can carry no complete execution and is fixed to 0 by
//!   simply not existing in the LP.
//! * `s_x >= 0` for every exit node `x` reachable from the entry: the virtual edge to the
//!   sink.
//! * `count(v) = Σ x_in(v) + [v = entry]` (the `+1` is the virtual source edge).
//! * Flow conservation for every useful node `v`:
//!   `Σ x_in(v) + [v = entry] = Σ x_out(v) + s_v`. Summed over all nodes these rows imply
//!   `Σ s = 1`: execution ends exactly once.
//! * A node that every complete execution passes exactly once (it dominates the virtual
//!   sink and lies on no cycle) instead gets two rows, `Σ x_in(v) + [v = entry] = 1` and
//!   `Σ x_out(v) + s_v = 1`, which imply its conservation row. They carry no new
//!   information, but they cut the LP into independent blocks that
//!   [`branch_and_bound`](crate::branch_and_bound) solves separately, which matters because
//!   simplex time grows much faster than linearly with the LP size.
//! * Per loop or region with bound `N`, entry nodes `E` and entry edges `I`:
//!   `Σ_{v ∈ E} count(v) <= N · (Σ_{e ∈ I} x_e + [entry ∈ E])`.
//! * Objective: maximise `Σ cost(v) · count(v)` = `Σ_e cost(target(e)) · x_e + cost(entry)`.

use crate::bounds::SharedBound;
use crate::branch_and_bound::{IntegerProgram, LinearConstraint, Relation};
use crate::budget::Budget;
use crate::cfg::{exit_nodes, reachable_from, reaching, Adjacency, Cfg};
use crate::error::Error;
use crate::loops::Loop;
use isa::dominance::DominatorTree;

/// The integer program plus the maps back to graph items.
#[derive(Clone, Debug)]
pub(crate) struct IpetProblem {
    /// What branch-and-bound solves (the objective omits the constant `cost(entry)`).
    pub program: IntegerProgram,
    /// LP variable of each [`Cfg::edges`] entry, `None` when the edge is not useful.
    pub edge_var: Vec<Option<usize>>,
    /// `(exit node, LP variable)` for each exit node reachable from the entry, ascending.
    pub exit_var: Vec<(usize, usize)>,
}

/// Builds the program for a validated graph whose `loops` all carry a bound.
///
/// # Errors
/// [`Error::NoPath`] when no exit is reachable from the entry; [`Error::Budget`] when the
/// program would exceed the variable or constraint limit.
pub(crate) fn build(
    cfg: &Cfg,
    adj: &Adjacency,
    loops: &[Loop],
    shared: &[SharedBound],
    budget: &Budget,
) -> Result<IpetProblem, Error> {
    let n = cfg.node_count();
    let reachable = reachable_from(cfg, adj, cfg.entry);
    let is_exit = exit_nodes(cfg, adj);
    let live_exit: Vec<bool> = (0..n).map(|v| is_exit[v] && reachable[v]).collect();
    let coreach = reaching(cfg, adj, &live_exit);
    if !coreach[cfg.entry] {
        return Err(Error::NoPath);
    }
    let useful_node: Vec<bool> = (0..n).map(|v| reachable[v] && coreach[v]).collect();

    // Size first, so that an oversize problem is rejected before it is built.
    let useful_edges = cfg
        .edges
        .iter()
        .filter(|&&(u, v)| reachable[u] && coreach[v])
        .count();
    let exits = live_exit.iter().filter(|&&x| x).count();
    let variables = useful_edges + exits;
    if variables > budget.max_variables {
        return Err(Error::Budget {
            what: "max_variables",
            limit: budget.max_variables,
            needed: variables,
        });
    }
    let live_loops: Vec<&Loop> = loops
        .iter()
        .filter(|l| l.entry_nodes.iter().any(|&v| useful_node[v]))
        .collect();
    // At most two rows per node (see below) plus one per loop: reject early what cannot
    // fit even with one row per node, check the exact count once the rows exist.
    let min_rows = useful_node.iter().filter(|&&u| u).count() + live_loops.len();
    if min_rows > budget.max_constraints {
        return Err(Error::Budget {
            what: "max_constraints",
            limit: budget.max_constraints,
            needed: min_rows,
        });
    }

    let mut objective = Vec::with_capacity(variables);
    let mut edge_var = vec![None; cfg.edges.len()];
    for (e, &(u, v)) in cfg.edges.iter().enumerate() {
        if reachable[u] && coreach[v] {
            edge_var[e] = Some(objective.len());
            objective.push(cfg.costs[v] as f64);
        }
    }
    let mut exit_var = Vec::with_capacity(exits);
    for (x, &live) in live_exit.iter().enumerate() {
        if live {
            exit_var.push((x, objective.len()));
            objective.push(0.0);
        }
    }
    let mut sink_of = vec![None; n];
    for &(x, var) in &exit_var {
        sink_of[x] = Some(var);
    }

    let cut = cut_nodes(cfg, loops, &edge_var, &exit_var);
    let mut rows = Vec::with_capacity(min_rows);
    for v in (0..n).filter(|&v| useful_node[v]) {
        let inflow: Vec<(usize, f64)> = adj.pred[v]
            .iter()
            .filter_map(|&e| edge_var[e].map(|x| (x, 1.0)))
            .collect();
        let outflow: Vec<(usize, f64)> = adj.succ[v]
            .iter()
            .filter_map(|&e| edge_var[e].map(|x| (x, 1.0)))
            .chain(sink_of[v].map(|s| (s, 1.0)))
            .collect();
        let start = if v == cfg.entry { 1.0 } else { 0.0 };
        if cut[v] {
            // Every execution passes here exactly once: count(v) = 1 on both sides. The
            // two rows imply the conservation row and split the LP into independent parts.
            if !inflow.is_empty() {
                rows.push(LinearConstraint {
                    terms: inflow,
                    relation: Relation::Eq,
                    rhs: 1.0 - start,
                });
            }
            rows.push(LinearConstraint {
                terms: outflow,
                relation: Relation::Eq,
                rhs: 1.0,
            });
        } else {
            let mut terms = inflow;
            terms.extend(outflow.into_iter().map(|(x, c)| (x, -c)));
            rows.push(LinearConstraint {
                terms,
                relation: Relation::Eq,
                rhs: -start,
            });
        }
    }
    for l in live_loops {
        // Bounds were checked by the caller; a missing one here would be a logic error,
        // reported rather than panicking.
        let bound = l.bound.ok_or(Error::NoBound { header: l.header })? as f64;
        let mut terms = Vec::new();
        for &v in &l.entry_nodes {
            terms.extend(
                adj.pred[v]
                    .iter()
                    .filter_map(|&e| edge_var[e].map(|x| (x, 1.0))),
            );
        }
        terms.extend(
            l.entry_edges
                .iter()
                .filter_map(|&e| edge_var[e].map(|x| (x, -bound))),
        );
        let starts_here = l.entry_nodes.contains(&cfg.entry);
        let rhs = if starts_here { bound - 1.0 } else { 0.0 };
        rows.push(LinearConstraint {
            terms,
            relation: Relation::Le,
            rhs,
        });
    }

    for f in shared {
        // Σ inflow(nodes) + [entry ∈ nodes] <= bound · (Σ starts + [from_entry]).
        let bound = f.bound as f64;
        let mut terms: Vec<(usize, f64)> = Vec::new();
        for &v in f.nodes.iter().filter(|&&v| v < n) {
            terms.extend(
                adj.pred[v]
                    .iter()
                    .filter_map(|&e| edge_var[e].map(|x| (x, 1.0))),
            );
        }
        terms.extend(
            f.starts
                .iter()
                .filter_map(|&e| edge_var.get(e).copied().flatten().map(|x| (x, -bound))),
        );
        if terms.is_empty() {
            continue;
        }
        let entry_inside = f.nodes.contains(&cfg.entry);
        let rhs = if f.from_entry { bound } else { 0.0 } - if entry_inside { 1.0 } else { 0.0 };
        rows.push(LinearConstraint {
            terms,
            relation: Relation::Le,
            rhs,
        });
    }
    if rows.len() > budget.max_constraints {
        return Err(Error::Budget {
            what: "max_constraints",
            limit: budget.max_constraints,
            needed: rows.len(),
        });
    }

    Ok(IpetProblem {
        program: IntegerProgram {
            objective,
            constraints: rows,
        },
        edge_var,
        exit_var,
    })
}

/// Nodes every complete execution visits exactly once: those that dominate the virtual sink
/// in the useful graph and lie on no cycle (no loop or irreducible region contains them).
/// Their count is 1 in every feasible solution, so their flow row can be split in two.
fn cut_nodes(
    cfg: &Cfg,
    loops: &[Loop],
    edge_var: &[Option<usize>],
    exit_var: &[(usize, usize)],
) -> Vec<bool> {
    let n = cfg.node_count();
    let mut in_cycle = vec![false; n];
    for l in loops {
        for &v in &l.body {
            in_cycle[v] = true;
        }
    }
    // The useful graph plus a virtual sink `n` fed by every live exit.
    let sink = n;
    let mut edges: Vec<(usize, usize)> = cfg
        .edges
        .iter()
        .zip(edge_var)
        .filter(|(_, var)| var.is_some())
        .map(|(&e, _)| e)
        .collect();
    edges.extend(exit_var.iter().map(|&(x, _)| (x, sink)));
    let dom = DominatorTree::dominators(n + 1, edges, cfg.entry);
    let mut cut = vec![false; n];
    let mut v = dom.idom(sink);
    while let Some(d) = v {
        if d < n && !in_cycle[d] {
            cut[d] = true;
        }
        v = dom.idom(d);
    }
    cut
}
