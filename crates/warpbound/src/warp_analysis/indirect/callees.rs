//! The bounds of the candidates of indirect calls ([`extra_costs`]): each candidate analysed
//! once, as a warp-level CFG of its own bounded by IPET (moved out of `indirect.rs`, which
//! keeps the annotation).

use super::{is_costed_call, missing_targets, Candidate};
use crate::kernel_text::Sass;
use crate::mode::{ModeInput, ModeOutput};
use crate::warp_analysis::ipet_bound::{self, ipet_graph, never_finishing};
use crate::warp_analysis::parameters::WarpCfgParams;
use crate::warp_analysis::sass::block_cost;
use isa::{BlockGraph, ControlKind, Diagnostic, Kernel, Span};
use std::collections::BTreeMap;

/// Deepest chain of candidate analyses followed (a deeper one is reported, as is recursion).
const MAX_CALL_DEPTH: usize = 16;

/// The extra cost of each block of the request's kernel (`sass`, annotated): the sum of the
/// bounds of the candidates of the indirect calls it ends with. `None` after a reported error
/// (also for a reachable indirect instruction without targets).
pub(crate) fn extra_costs(
    sass: &Sass,
    p: &WarpCfgParams,
    input: &ModeInput,
    functions: &[String],
    out: &mut ModeOutput,
) -> Option<BTreeMap<usize, u64>> {
    let missing = missing_targets(&sass.kernel, &sass.graph, functions);
    if !missing.is_empty() {
        out.diagnostics.extend(missing);
        return None;
    }
    let mut callees = Callees {
        input,
        p,
        kernel: &sass.kernel,
        functions,
        done: BTreeMap::new(),
        open: Vec::new(),
        diagnostics: Vec::new(),
    };
    let extra = callees.block_extras(&sass.kernel, &sass.graph, true, 0);
    out.diagnostics.append(&mut callees.diagnostics);
    extra
}

/// What a candidate's bound is cached under.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Callee {
    Function(String),
    Address(u64),
}

/// Bounds of candidates, each analysed once.
struct Callees<'a> {
    input: &'a ModeInput<'a>,
    p: &'a WarpCfgParams,
    /// The analysed function (address candidates are in it), annotated.
    kernel: &'a Kernel,
    functions: &'a [String],
    done: BTreeMap<Callee, Option<u64>>,
    open: Vec<Callee>,
    diagnostics: Vec<Diagnostic>,
}

impl Callees<'_> {
    /// Extra cost per block of `kernel` (`graph`): its costed indirect calls.
    /// `same_function`: `kernel` is (a part of) the analysed function, so the request's
    /// annotation applies to its addresses.
    fn block_extras(
        &mut self,
        kernel: &Kernel,
        graph: &BlockGraph,
        same_function: bool,
        depth: usize,
    ) -> Option<BTreeMap<usize, u64>> {
        let mut extra = BTreeMap::new();
        if !same_function {
            return Some(extra);
        }
        for (&address, candidates) in &self.p.indirect.per_address {
            let Some(i) = kernel.index_of(address) else {
                continue;
            };
            let ins = &kernel.instructions[i];
            if !is_costed_call(ins, candidates)
                || !matches!(ins.control, ControlKind::Call(None) | ControlKind::Ret)
            {
                continue;
            }
            let mut sum = 0u64;
            let mut parts = Vec::new();
            for c in candidates {
                let b = match c {
                    Candidate::Cost(n) => *n,
                    Candidate::Function(n) => {
                        self.bound(Callee::Function(n.clone()), ins.span, depth)?
                    }
                    Candidate::Address(a) => self.bound(Callee::Address(*a), ins.span, depth)?,
                };
                sum = sum.saturating_add(b);
                parts.push(match c {
                    Candidate::Cost(_) => format!("{} (assumed)", c.text()),
                    _ => format!("{} {b}", c.text()),
                });
            }
            self.diagnostics.push(Diagnostic::note(
                ins.span,
                format!(
                    "indirect call at {address:#06x}: costs {sum} cycles beyond its own \
                     instructions, the sum over its candidates (threads holding different \
                     targets run them one after the other): {}",
                    parts.join(", ")
                ),
            ));
            if let Some(b) = graph.block_of(i) {
                let e: &mut u64 = extra.entry(b).or_default();
                *e = e.saturating_add(sum);
            }
        }
        Some(extra)
    }

    /// The bound of one candidate, as a warp-level CFG of its own entered with no register
    /// known to agree.
    fn bound(&mut self, callee: Callee, at: Span, depth: usize) -> Option<u64> {
        if let Some(b) = self.done.get(&callee) {
            return *b;
        }
        let name = match &callee {
            Callee::Function(n) => format!("`{n}`"),
            Callee::Address(a) => format!("the code at {a:#06x}"),
        };
        if self.open.contains(&callee) || depth >= MAX_CALL_DEPTH {
            self.diagnostics.push(Diagnostic::error(
                at,
                format!(
                    "indirect call of {name} is recursive (or nests deeper than \
                     {MAX_CALL_DEPTH} calls): the warp-level CFG has no bound for it"
                ),
            ));
            return None;
        }
        self.open.push(callee.clone());
        let bound = self.analyse(&callee, &name, at, depth);
        self.open.pop();
        self.done.insert(callee, bound);
        bound
    }

    fn analyse(&mut self, callee: &Callee, name: &str, at: Span, depth: usize) -> Option<u64> {
        let (kernel, same_function) = match callee {
            Callee::Function(n) => {
                let req = self.input.request;
                let parsed = isa::sass::parse(&req.source, Some(n), &self.input.limits);
                let failed = parsed.has_errors();
                match parsed.kernel {
                    Some(k) if !failed => (k, false),
                    _ => {
                        self.diagnostics.push(Diagnostic::error(
                            at,
                            format!("candidate {name} does not parse (see its errors)"),
                        ));
                        return None;
                    }
                }
            }
            Callee::Address(a) => {
                let from = self.kernel.index_of(*a)?;
                let mut k = self.kernel.clone();
                k.instructions.drain(..from);
                (k, true)
            }
        };
        let graph = isa::blocks::build(&kernel, &self.input.limits);
        let functions = self.functions;
        let mut problems: Vec<Diagnostic> = graph
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .cloned()
            .collect();
        problems.extend(missing_targets(&kernel, &graph, functions));
        if !problems.is_empty() {
            self.diagnostics.push(Diagnostic::error(
                at,
                format!(
                    "candidate {name} cannot be bounded: {}",
                    problems[0].message
                ),
            ));
            return None;
        }
        let warp = match cfg::build(&kernel, &graph, &self.p.analysis) {
            Ok(w) => w,
            Err(d) => {
                self.diagnostics.push(Diagnostic::error(
                    at,
                    format!("candidate {name}: {}", d.message),
                ));
                return None;
            }
        };
        let extra = self.block_extras(&kernel, &graph, same_function, depth + 1)?;
        if let Some(&n) = never_finishing(&warp).first() {
            let b = warp.nodes[n].block.unwrap_or(0);
            self.diagnostics.push(Diagnostic::error(
                at,
                format!(
                    "candidate {name} can loop forever (from {:#06x} no path reaches its \
                     end), so it has no bound",
                    kernel.instructions[graph.blocks[b].first].address
                ),
            ));
            return None;
        }
        let address_of = |node: usize| {
            warp.nodes[node]
                .block
                .map(|b| kernel.instructions[graph.blocks[b].first].address)
        };
        let ipet_cfg = ipet_graph(&warp, |b| {
            block_cost(&kernel, &graph, b, &self.p.cost)
                .saturating_add(extra.get(&b).copied().unwrap_or(0))
        });
        // Loop bounds keyed by address hold inside the analysed function only.
        let per_header = if same_function {
            ipet::find_loops(&ipet_cfg)
                .iter()
                .flat_map(|l| l.entry_nodes.clone())
                .filter_map(|h| {
                    let a = address_of(h)?;
                    self.p.loop_bounds.per_address.get(&a).map(|&n| (h, n))
                })
                .collect()
        } else {
            BTreeMap::new()
        };
        ipet_bound::callee_bound_at(
            &ipet_cfg,
            (per_header, self.p.loop_bounds.default),
            &self.p.budget,
            (at, format!("candidate {name}")),
            &mut self.diagnostics,
        )
    }
}
