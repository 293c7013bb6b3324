//! The `warp-cfg` mode: warp-level CFG by abstract interpretation (crate `cfg`), then IPET
//! (crate `ipet`) for a WCET bound, as in Jeanmougin et al. §4.1.

use crate::params::Params;
use crate::report::{CfgEdge, CostTerm, LoopView, Report, WarpCfgDetails, Wcet};
use crate::views::{block_node, draw, exit_node};
use cfg::{Tag, WarpEdgeKind};
use isa::{BlockGraph, Diagnostic, Kernel, Severity};
use std::collections::BTreeMap;

/// Analysis switches from the request's flags.
pub fn options(p: &Params) -> cfg::Options {
    cfg::Options {
        agreement: p.flag("agreement"),
        pending_agreement: p.flag("pending_agreement"),
        groups: p.flag("groups"),
        cyclic_stacks: p.flag("cyclic_stacks"),
        max_states: p.get_usize("max_states"),
        max_stack_depth: p.get_usize("max_stack_depth"),
    }
}

fn context(kernel: &Kernel, stack: &[cfg::Entry]) -> String {
    stack
        .iter()
        .rev()
        .map(|e| {
            if e.is_any() {
                return "…any".to_string();
            }
            let points: Vec<String> = e
                .points
                .iter()
                .map(|p| {
                    let tag = match p.tag {
                        Tag::Nil => "NIL",
                        Tag::Sync => "SYNC",
                        Tag::Brk => "BRK",
                        Tag::Cont => "CONT",
                        Tag::Call => "CALL",
                        Tag::Any => "ANY",
                    };
                    let addr = kernel.instructions.get(p.pc).map_or(0, |i| i.address);
                    format!("{tag}@{addr:#06x}")
                })
                .collect();
            let body = if points.len() > 1 {
                format!("({})", points.join("|"))
            } else {
                points.concat()
            };
            format!("{body}{}", if e.repeated { "+" } else { "" })
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The latency table of the `latency` cost model from the request's parameters.
pub fn latency_table(p: &Params) -> cfg::LatencyTable {
    let mut t = cfg::LatencyTable::pascal_gp102();
    for c in cfg::TimingClass::ALL {
        let v = p.get_usize(&format!("latency_{}", c.name()));
        t.latency
            .insert(c, u32::try_from(v.max(1)).unwrap_or(u32::MAX));
    }
    for c in [cfg::TimingClass::DoublePrecision, cfg::TimingClass::Sfu] {
        let v = p.get_usize(&format!("interval_{}", c.name()));
        t.interval
            .insert(c, u32::try_from(v.max(1)).unwrap_or(u32::MAX));
    }
    t
}

/// Cost of one execution of block `b`: the unit model (§4.1: every instruction 1 cycle) or
/// the drained in-order latency model (`cfg::latency`).
fn block_cost(
    kernel: &Kernel,
    graph: &BlockGraph,
    b: usize,
    table: Option<&cfg::LatencyTable>,
) -> u64 {
    let block = &graph.blocks[b];
    let instrs = kernel
        .instructions
        .get(block.first..=block.last)
        .unwrap_or(&[]);
    match table {
        Some(t) => cfg::latency::block_cycles(instrs, t),
        None => cfg::latency::unit_cycles(instrs),
    }
}

/// Parses a loop-bound key: `0x18` or `24`.
fn parse_address(key: &str) -> Option<u64> {
    let k = key.trim();
    match k.strip_prefix("0x").or_else(|| k.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => k.parse().ok(),
    }
}

/// Nodes reachable from the entry from which the exit is unreachable, in id order.
fn never_finishing(warp: &cfg::WarpCfg) -> Vec<usize> {
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

/// Runs the mode and fills `report.cfg`, `report.wcet` and `report.warp_cfg`.
pub fn run(
    kernel: &Kernel,
    graph: &BlockGraph,
    p: &Params,
    loop_bounds: &BTreeMap<String, u64>,
    report: &mut Report,
) {
    let opts = options(p);
    let warp = match cfg::build(kernel, graph, &opts) {
        Ok(w) => w,
        Err(d) => {
            report.diagnostics.push(d);
            return;
        }
    };
    let table = (p.choice("cost") == "latency").then(|| latency_table(p));
    let costs: Vec<u64> = warp
        .nodes
        .iter()
        .map(|n| {
            n.block
                .map_or(0, |b| block_cost(kernel, graph, b, table.as_ref()))
        })
        .collect();
    let ipet_cfg = ipet::Cfg {
        costs: costs.clone(),
        edges: warp.edges.iter().map(|e| (e.from, e.to)).collect(),
        entry: warp.entry,
        exits: vec![warp.exit],
    };
    // Bounds by address apply to every context of the header block.
    let mut by_address: BTreeMap<u64, u64> = BTreeMap::new();
    for (key, &n) in loop_bounds {
        match parse_address(key) {
            Some(a) => {
                by_address.insert(a, n);
            }
            None => report.diagnostics.push(Diagnostic::global(
                Severity::Error,
                format!("loop bound key `{key}` is not an address (write 0x18 or 24)"),
            )),
        }
    }
    let address_of = |node: usize| -> Option<u64> {
        warp.nodes[node]
            .block
            .map(|b| kernel.instructions[graph.blocks[b].first].address)
    };
    let headers: Vec<usize> = ipet::find_loops(&ipet_cfg)
        .iter()
        .flat_map(|l| l.entry_nodes.clone())
        .collect();
    for &a in by_address.keys() {
        if !headers.iter().any(|&h| address_of(h) == Some(a)) {
            report.diagnostics.push(Diagnostic::global(
                Severity::Warning,
                format!("loop bound for {a:#06x}: no loop header at that address"),
            ));
        }
    }
    let per_header: BTreeMap<usize, u64> = headers
        .iter()
        .filter_map(|&h| {
            address_of(h)
                .and_then(|a| by_address.get(&a))
                .map(|&n| (h, n))
        })
        .collect();
    let default = match p.get_usize("default_loop_bound") {
        0 => None,
        n => Some(n as u64),
    };
    let bounds = ipet::LoopBounds {
        per_header: per_header.clone(),
        default,
    };
    let budget = ipet::Budget {
        max_variables: p.get_usize("max_ilp_variables"),
        max_constraints: p.get_usize("max_ilp_constraints"),
        max_lp_size: p.get_usize("max_lp_size"),
        max_bb_nodes: p.get_usize("max_bb_nodes"),
    };
    let stuck = never_finishing(&warp);
    let solution = if let Some(&first) = stuck.first() {
        // IPET only counts executions that reach an exit; a warp that can enter code from
        // which no exit is reachable has no finite WCET, so no bound is given.
        let b = warp.nodes[first].block.unwrap_or(0);
        let ins = &kernel.instructions[graph.blocks[b].first];
        report.diagnostics.push(Diagnostic::error(
            ins.span,
            format!(
                "the warp can loop forever: from {:#06x} no path reaches EXIT ({} of {} warp-CFG nodes), so there is no WCET bound",
                ins.address,
                stuck.len(),
                warp.nodes.len() - 1
            ),
        ));
        Err(None)
    } else {
        ipet::solve(&ipet_cfg, &bounds, &budget).map_err(Some)
    };
    let mut nodes: Vec<_> = warp
        .nodes
        .iter()
        .map(|n| match n.block {
            Some(b) => {
                let mut v = block_node(kernel, graph, n.id, b, context(kernel, &n.stack));
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
    let components = BTreeMap::from([
        ("agreement".to_string(), opts.agreement),
        ("pending_agreement".to_string(), opts.pending_agreement),
        ("groups".to_string(), opts.groups),
        ("cyclic_stacks".to_string(), opts.cyclic_stacks),
    ]);
    let mut details = WarpCfgDetails {
        states: warp.nodes.len() - 1,
        divergence_edges: warp.count(WarpEdgeKind::Divergence),
        loops: Vec::new(),
        breakdown: Vec::new(),
        components,
        ilp_variables: 0,
        ilp_constraints: 0,
        branch_and_bound_nodes: 0,
        lp_bound: 0.0,
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
                report.diagnostics.push(Diagnostic::global(
                    Severity::Warning,
                    format!(
                        "branch and bound stopped at its budget (max_bb_nodes): the bound is the LP optimum {:.1}, rounded down to an integer",
                        s.lp_bound
                    ),
                ));
            }
            let cycles = s.safe_bound();
            report.wcet = Some(Wcet {
                cycles,
                cost_model: p.choice("cost").to_string(),
            });
            details.loops = s
                .loops
                .iter()
                .map(|l| {
                    let address = address_of(l.header).unwrap_or(0);
                    let line = warp.nodes[l.header]
                        .block
                        .map_or(0, |b| kernel.instructions[graph.blocks[b].first].span.line);
                    LoopView {
                        header: l.header,
                        address,
                        line,
                        bound: l.bound.unwrap_or(0),
                        bound_from: if l.entry_nodes.iter().any(|h| per_header.contains_key(h)) {
                            "request".into()
                        } else {
                            "default".into()
                        },
                        irreducible: l.irreducible,
                        depth: l.depth,
                        nodes: l.body.clone(),
                    }
                })
                .collect();
            for l in s.loops.iter().filter(|l| l.irreducible) {
                report.diagnostics.push(Diagnostic::global(
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
        Err(Some(e)) => {
            let msg = match &e {
                ipet::Error::NoBound { header } => format!(
                    "the loop at {:#06x} has no bound: give one (loop_bounds / --loop-bound {:#x}=N) or a default_loop_bound",
                    address_of(*header).unwrap_or(0),
                    address_of(*header).unwrap_or(0)
                ),
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
            };
            report
                .diagnostics
                .push(Diagnostic::global(Severity::Error, msg));
        }
    }
    report.cfg = Some(draw("warp", nodes, edges));
    report.warp_cfg = Some(details);
}
