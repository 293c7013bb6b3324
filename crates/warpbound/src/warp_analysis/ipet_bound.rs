//! IPET over a warp-level CFG (Jeanmougin et al. §4.1), shared by the two readings of the
//! `warp-cfg` mode: SASS (the paper's abstract interpretation of the activation stack) and
//! PTX (divergence analysis + post-dominator stack, `cfg::ptx`). What differs between them
//! — block costs, how a block is named and drawn, how loop headers are keyed — is a
//! [`Listing`]; the ILP, the loop bounds, the report's loops and cost breakdown are here once.

use crate::mode::{ModeDetails, ModeOutput};
use crate::params::loop_bounds::{default_warning, BoundFrom, LoopKey};
use crate::params::LoopBounds;
use crate::report::{CfgEdge, CfgNode, CostTerm, LoopBoundRow, LoopView, WarpCfgDetails, Wcet};
use crate::views::graph::{draw, exit_node};
use cfg::WarpEdgeKind;
use isa::{Diagnostic, Severity, Span};
use std::collections::BTreeMap;

/// What the bound needs to know about the kernel's blocks.
pub(crate) trait Listing {
    /// Cost of one execution of block `b` in the cost model's cycles.
    fn cost(&self, b: usize) -> u64;
    /// The report's node `id` for block `b` in abstract context `stack` (no cost or count).
    fn node(&self, id: usize, b: usize, stack: &[cfg::Entry]) -> CfgNode;
    /// The address `loop_bounds` keys a header block on (SASS: byte address; PTX: the
    /// GPGPU-Sim program counter of its first instruction).
    fn address(&self, b: usize) -> u64;
    /// Where block `b` starts in the text.
    fn span(&self, b: usize) -> Span;
    /// Labels naming block `b` (PTX `$L__BB0_3`); SASS listings name blocks by address only.
    fn labels(&self, b: usize) -> Vec<String>;
    /// Whether loop bounds may be keyed by label.
    fn accepts_labels(&self) -> bool;
    /// Cost of one execution of each node of `warp` (the virtual exit 0): each node its
    /// block's [`Listing::cost`], unless the cost model carries state along paths
    /// (`cost=control`); an error when the blocks cannot be costed.
    fn node_costs(&self, warp: &cfg::WarpCfg) -> Result<Vec<u64>, Diagnostic> {
        Ok(warp
            .nodes
            .iter()
            .map(|n| n.block.map_or(0, |b| self.cost(b)))
            .collect())
    }
}

/// The IPET knobs of one request.
pub(crate) struct BoundRequest<'a> {
    pub loop_bounds: &'a LoopBounds,
    pub budget: &'a ipet::Budget,
    pub cost_model: &'a str,
    /// The analysis components that were on, for the report.
    pub components: BTreeMap<String, bool>,
    /// Bounds shared by the copies of one program loop in the warp-level CFG (PTX).
    pub shared: Vec<ipet::SharedBound>,
    /// Told how the branch and bound goes.
    pub progress: isa::Observer<'a>,
}

/// The bound of a called function's graph (a direct callee of PTX, a candidate of an
/// indirect call): IPET's optimum, or, when the branch and bound stops at its budget with no
/// integer solution, the LP optimum, which is still safe; else the error that leaves it
/// unbounded.
pub(crate) fn callee_bound(
    cfg: &ipet::Cfg,
    bounds: &ipet::LoopBounds,
    budget: &ipet::Budget,
) -> Result<u64, ipet::Error> {
    match ipet::solve(cfg, bounds, budget) {
        Ok(s) => Ok(s.safe_bound()),
        Err(e) => e.safe_bound().ok_or(e),
    }
}

/// [`callee_bound`] with the loops of `per_header` bounded (the others by `default`), or,
/// when there is none, an error at `at` saying `what` has no bound and why.
pub(crate) fn callee_bound_at(
    cfg: &ipet::Cfg,
    (per_header, default): (BTreeMap<usize, u64>, Option<u64>),
    budget: &ipet::Budget,
    (at, what): (Span, String),
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<u64> {
    let bounds = ipet::LoopBounds {
        per_header,
        default,
    };
    callee_bound(cfg, &bounds, budget)
        .map_err(|e| {
            let message = format!("{what} has no bound: {e}");
            diagnostics.push(Diagnostic::error(at, message));
        })
        .ok()
}

/// Bounds the warp-level CFG `warp` of `listing` by IPET: `out.graph`, `out.wcet` and the
/// details.
/// Disjoint groups of threads one warp can hold: the turns a resumption cycle of the
/// warp-level CFG takes per entry ([`bound`]).
const WARP_GROUPS: u64 = 32;

pub(crate) fn bound(
    warp: &cfg::WarpCfg,
    listing: &dyn Listing,
    req: &BoundRequest,
    out: &mut ModeOutput,
) {
    let costs = match listing.node_costs(warp) {
        Ok(c) => c,
        Err(d) => {
            out.diagnostics.push(d);
            return;
        }
    };
    let ipet_cfg = ipet::Cfg {
        costs: costs.clone(),
        ..ipet_graph(warp, |_| 0)
    };
    // The loops are found once: the headers the request's bounds name are checked against
    // them, and the same structure is solved below.
    let structure = ipet::LoopStructure::new(&ipet_cfg);
    let found;
    let loops: &[ipet::Loop] = match &structure {
        Ok(s) => s.loops(),
        Err(_) => {
            found = ipet::find_loops(&ipet_cfg);
            &found
        }
    };
    let address_of = |node: usize| warp.nodes[node].block.map(|b| listing.address(b));
    let labels_of = |node: usize| {
        warp.nodes[node]
            .block
            .map_or(Vec::new(), |b| listing.labels(b))
    };
    let headers: Vec<usize> = loops.iter().flat_map(|l| l.entry_nodes.clone()).collect();
    let lb = req.loop_bounds;
    if listing.accepts_labels() {
        for key in lb.per_label.keys() {
            if !headers.iter().any(|&h| labels_of(h).contains(key)) {
                out.diagnostics.push(Diagnostic::global(
                    Severity::Warning,
                    format!("loop bound for `{key}`: no loop header has that label"),
                ));
            }
        }
    } else {
        // SASS has no labels: a loop is named by its header's address.
        for key in lb.per_label.keys() {
            out.diagnostics.push(Diagnostic::global(
                Severity::Error,
                format!("loop bound key `{key}` is not an address (write 0x18 or 24)"),
            ));
        }
    }
    for &a in lb.per_address.keys() {
        if !headers.iter().any(|&h| address_of(h) == Some(a)) {
            out.diagnostics.push(Diagnostic::global(
                Severity::Warning,
                format!("loop bound for {a:#06x}: no loop header at that address"),
            ));
        }
    }
    // Bounds by address or label apply to every context of the header block.
    let per_header: BTreeMap<usize, u64> = headers
        .iter()
        .filter_map(|&h| {
            let by_address = address_of(h).and_then(|a| lb.per_address.get(&a));
            let by_label = || {
                labels_of(h)
                    .iter()
                    .find_map(|l| lb.per_label.get(l))
                    .filter(|_| listing.accepts_labels())
            };
            by_address.or_else(by_label).map(|&n| (h, n))
        })
        .collect();
    // A cycle of the warp-level CFG that is no loop of the thread's code (its header is not
    // a program loop's) is where groups of threads left waiting resume, one turn per group
    // (Jeanmougin et al. §3: a divergent branch parks one side until the other reaches the
    // reconvergence point). A warp holds at most `WARP_GROUPS` disjoint groups, so such a
    // cycle takes the larger of the default and that count: the default alone (10) was run
    // past by real code (a search loop whose threads leave at up to 32 different turns).
    // The program's loops: the headers of the mode's loop table (from inference), as named
    // there (an address, or a label).
    let program_headers: std::collections::BTreeSet<String> =
        out.loop_bounds.iter().map(|r| r.header.clone()).collect();
    let mut solver_bounds = per_header.clone();
    if let Some(default) = lb.default {
        for l in loops {
            let program_loop = l.entry_nodes.iter().any(|&h| {
                per_header.contains_key(&h)
                    || address_of(h)
                        .is_some_and(|a| program_headers.contains(&LoopKey::Address(a).to_string()))
                    || labels_of(h).iter().any(|k| program_headers.contains(k))
            });
            if !program_loop {
                for &h in &l.entry_nodes {
                    solver_bounds.insert(h, default.max(WARP_GROUPS));
                }
            }
        }
    }
    let bounds = ipet::LoopBounds {
        per_header: solver_bounds,
        default: lb.default,
    };
    let stuck = never_finishing(warp);
    let solution = if let Some(&first) = stuck.first() {
        // IPET only counts executions that reach an exit; a warp that can enter code from
        // which no exit is reachable has no finite WCET, so no bound is given.
        let b = warp.nodes[first].block.unwrap_or(0);
        out.diagnostics.push(Diagnostic::error(
            listing.span(b),
            format!(
                "the warp can loop forever: from {:#06x} no path reaches EXIT ({} of {} warp-CFG nodes), so there is no WCET bound",
                listing.address(b),
                stuck.len(),
                warp.nodes.len() - 1
            ),
        ));
        Err(None)
    } else {
        structure
            .as_ref()
            .map_err(|e| Some(e.clone()))
            .and_then(|s| {
                s.solve_observed(&bounds, &req.shared, req.budget, req.progress)
                    .map_err(Some)
            })
    };
    let mut nodes: Vec<CfgNode> = warp
        .nodes
        .iter()
        .map(|n| match n.block {
            Some(b) => {
                let mut v = listing.node(n.id, b, &n.stack);
                v.cost = Some(costs[n.id]);
                v
            }
            None => exit_node(n.id),
        })
        .collect();
    let mut edges: Vec<CfgEdge> = warp
        .edges
        .iter()
        .map(|e| CfgEdge {
            from: e.from,
            to: e.to,
            kind: e.kind.name().into(),
            count: None,
        })
        .collect();
    let mut details = WarpCfgDetails {
        states: warp.nodes.len() - 1,
        divergence_edges: warp.count(WarpEdgeKind::Divergence),
        loops: Vec::new(),
        breakdown: Vec::new(),
        components: req.components.clone(),
        ilp_variables: 0,
        ilp_constraints: 0,
        branch_and_bound_nodes: 0,
        lp_bound: 0.0,
        divergent_branches: Vec::new(),
        interleaving: None,
    };
    match solution {
        Ok(s) => {
            for (n, c) in s.node_counts.iter().enumerate() {
                nodes[n].count = Some(*c);
                if nodes[n].kind == "block" {
                    nodes[n]
                        .label
                        .push(format!("cost {} × {} = {}", costs[n], c, costs[n] * c));
                }
            }
            for (e, c) in s.edge_counts.iter().enumerate() {
                edges[e].count = Some(*c);
            }
            if !s.integral {
                out.diagnostics.push(Diagnostic::global(
                    Severity::Warning,
                    format!(
                        "branch and bound stopped at its budget (max_bb_nodes): the bound is the LP optimum {:.1}, rounded down to an integer",
                        s.lp_bound
                    ),
                ));
            }
            out.wcet = Some(Wcet {
                cycles: s.safe_bound(),
                cost_model: req.cost_model.to_string(),
                assumed_loop_bounds: Vec::new(),
            });
            let keys_of = |node: usize| -> Vec<LoopKey> {
                let mut k: Vec<LoopKey> = Vec::new();
                if listing.accepts_labels() {
                    k.extend(labels_of(node).into_iter().map(LoopKey::Label));
                }
                k.extend(address_of(node).map(LoopKey::Address));
                k
            };
            let from_of = |l: &ipet::Loop| {
                let keys = keys_of(l.header);
                let keyed = l.entry_nodes.iter().any(|h| per_header.contains_key(h));
                let (from, prov) = lb.source(&keys);
                let from = if keyed && from != BoundFrom::Default {
                    from
                } else if keyed {
                    BoundFrom::Given
                } else {
                    BoundFrom::Default
                };
                (keys, from, prov.cloned())
            };
            details.loops = s
                .loops
                .iter()
                .map(|l| {
                    let (_, from, prov) = from_of(l);
                    LoopView {
                        header: l.header,
                        address: address_of(l.header).unwrap_or(0),
                        line: warp.nodes[l.header]
                            .block
                            .map_or(0, |b| listing.span(b).line),
                        label: labels_of(l.header).into_iter().next(),
                        bound: l.bound.unwrap_or(0),
                        bound_from: from.name().into(),
                        reason: prov.and_then(|p| p.reason),
                        irreducible: l.irreducible,
                        depth: l.depth,
                        nodes: l.body.clone(),
                    }
                })
                .collect();
            // A warning at every program loop the default bounds (the warp-level CFG may copy
            // a loop per context: once per header), and a row for loops the mode's table
            // (from inference) does not list (an irreducible region's entry).
            let mut warned: Vec<String> = Vec::new();
            for l in &s.loops {
                let (keys, from, prov) = from_of(l);
                let Some(first) = keys.first() else { continue };
                let header = first.to_string();
                let block = warp.nodes[l.header].block;
                let span = block.map_or(Span::default(), |b| listing.span(b));
                let bound = l.bound.unwrap_or(0);
                let program_loop = program_headers.contains(&header);
                if from == BoundFrom::Default && !warned.contains(&header) {
                    let why = if program_loop {
                        prov.as_ref().and_then(|p| p.reason.as_deref())
                    } else {
                        Some(
                            "a cycle of the warp-level CFG that is no loop of the thread's code: \
                             groups of threads left waiting resume there, one turn per group, so \
                             it takes the larger of default_loop_bound and 32, the most groups a \
                             warp holds",
                        )
                    };
                    out.diagnostics
                        .push(default_warning(span, &header, bound, why));
                    warned.push(header.clone());
                }
                if !out.loop_bounds.iter().any(|r| r.header == header) {
                    out.loop_bounds.push(LoopBoundRow {
                        header,
                        line: span.line,
                        bound: l.bound,
                        bound_from: from.name().into(),
                        reason: prov.as_ref().and_then(|p| p.reason.clone()),
                        inferred: prov.as_ref().and_then(|p| p.inferred),
                        formula: prov.and_then(|p| p.formula),
                    });
                }
            }
            for l in s.loops.iter().filter(|l| l.irreducible) {
                out.diagnostics.push(Diagnostic::global(
                    Severity::Warning,
                    format!(
                        "irreducible loop entered at {}: bounded as a region (its entries run at most N times per entry)",
                        l.entry_nodes
                            .iter()
                            .filter_map(|&h| address_of(h))
                            .map(|a| format!("{a:#06x}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
            let mut terms: Vec<CostTerm> = s
                .node_counts
                .iter()
                .enumerate()
                .filter(|(n, c)| **c > 0 && costs[*n] > 0)
                .map(|(n, &count)| CostTerm {
                    node: n,
                    address: address_of(n).unwrap_or(0),
                    count,
                    cost: costs[n],
                    total: count * costs[n],
                })
                .collect();
            terms.sort_by_key(|t| (std::cmp::Reverse(t.total), t.node));
            details.breakdown = terms;
            details.ilp_variables = s.variables;
            details.ilp_constraints = s.constraints;
            details.branch_and_bound_nodes = s.bb_nodes;
            details.lp_bound = s.lp_bound;
        }
        Err(None) => {}
        Err(Some(e)) => match e.safe_bound() {
            // No integer solution within the budget: the LP optimum still bounds the WCET.
            Some(bound) => {
                out.diagnostics.push(Diagnostic::global(
                    Severity::Warning,
                    format!(
                        "branch and bound found no integer solution within max_bb_nodes: the bound is the LP optimum {bound} (safe, maybe not tight; no counts per block; raise max_bb_nodes for them)"
                    ),
                ));
                out.wcet = Some(Wcet {
                    cycles: bound,
                    cost_model: req.cost_model.to_string(),
                    assumed_loop_bounds: Vec::new(),
                });
            }
            None => out.diagnostics.push(Diagnostic::global(
                Severity::Error,
                ipet_message(&e, address_of, labels_of),
            )),
        },
    }
    out.graph = Some(draw("warp", nodes, edges));
    out.details = ModeDetails::WarpCfg(Box::new(details));
}

/// The IPET graph of a warp-level CFG: each node costs its block's `cost_of_block`, the
/// virtual exit nothing.
pub(crate) fn ipet_graph(warp: &cfg::WarpCfg, cost_of_block: impl Fn(usize) -> u64) -> ipet::Cfg {
    ipet::Cfg {
        costs: warp
            .nodes
            .iter()
            .map(|n| n.block.map_or(0, &cost_of_block))
            .collect(),
        edges: warp.edges.iter().map(|e| (e.from, e.to)).collect(),
        entry: warp.entry,
        exits: vec![warp.exit],
    }
}

/// Nodes reachable from the entry from which the exit is unreachable, in id order.
pub(crate) fn never_finishing(warp: &cfg::WarpCfg) -> Vec<usize> {
    let n = warp.nodes.len();
    let mut succ = vec![Vec::new(); n];
    let mut pred = vec![Vec::new(); n];
    for e in &warp.edges {
        succ[e.from].push(e.to);
        pred[e.to].push(e.from);
    }
    let reach = |start: usize, adj: &[Vec<usize>]| {
        let mut seen = vec![false; n];
        let mut stack = vec![start];
        seen[start] = true;
        while let Some(v) = stack.pop() {
            for &w in &adj[v] {
                if !seen[w] {
                    seen[w] = true;
                    stack.push(w);
                }
            }
        }
        seen
    };
    let fwd = reach(warp.entry, &succ);
    let bwd = reach(warp.exit, &pred);
    (0..n).filter(|&v| fwd[v] && !bwd[v]).collect()
}

/// What went wrong in IPET, in the request's terms (its parameter names, loop addresses or
/// labels).
fn ipet_message(
    e: &ipet::Error,
    address_of: impl Fn(usize) -> Option<u64>,
    labels_of: impl Fn(usize) -> Vec<String>,
) -> String {
    match e {
        ipet::Error::NoBound { header } => {
            let a = address_of(*header).unwrap_or(0);
            let key = labels_of(*header)
                .into_iter()
                .next()
                .unwrap_or_else(|| format!("{a:#x}"));
            format!(
                "the loop at {a:#06x} has no bound: give one (loop_bounds / --loop-bound {key}=N) or a default_loop_bound"
            )
        }
        ipet::Error::Budget {
            what,
            limit,
            needed,
        } => {
            // The request's parameter names, not the ipet crate's field names.
            let param = match *what {
                "max_variables" => "max_ilp_variables",
                "max_constraints" => "max_ilp_constraints",
                other => other,
            };
            format!(
                "IPET: the ILP needs {needed} but the budget {param} is {limit} (raise {param})"
            )
        }
        other => format!("IPET: {other}"),
    }
}
