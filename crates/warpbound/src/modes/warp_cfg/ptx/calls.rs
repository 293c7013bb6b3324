//! The calls of a PTX function in the `warp-cfg` mode's bound: the block costs with the
//! bounds of the module's functions as callees, direct, indirect (candidates from
//! `.calltargets` or the call's prototype) and external (moved out of `ptx.rs`, which keeps
//! the run).

use crate::params::loop_bounds::LoopKey;
use crate::warp_analysis::ipet_bound;
use crate::warp_analysis::WarpCfgParams;
use isa::flow::FlowGraph;
use isa::ptx::{Function, Module};
use isa::{Diagnostic, Span};
use std::collections::BTreeMap;

/// Deepest chain of calls followed (a deeper one is reported, as is recursion).
const MAX_CALL_DEPTH: usize = 16;

/// Block costs with calls, and the bounds of the module's functions as callees.
pub(super) struct Calls<'a> {
    module: &'a Module,
    p: &'a WarpCfgParams,
    /// Bounds of callees analysed so far (`None`: failed, already reported).
    done: BTreeMap<String, Option<u64>>,
    /// Callees being analysed (recursion).
    open: Vec<String>,
    pub(super) diagnostics: Vec<Diagnostic>,
    warned_external: Vec<String>,
    /// Callee loops already reported as bounded by the default.
    warned_default: Vec<String>,
}

impl<'a> Calls<'a> {
    pub(super) fn new(module: &'a Module, p: &'a WarpCfgParams) -> Self {
        Calls {
            module,
            p,
            done: BTreeMap::new(),
            open: Vec::new(),
            diagnostics: Vec::new(),
            warned_external: Vec::new(),
            warned_default: Vec::new(),
        }
    }

    /// Unit cost of each block of `f`, calls included; `None` after a reported error.
    pub(super) fn block_costs(
        &mut self,
        f: &Function,
        graph: &FlowGraph,
        depth: usize,
    ) -> Option<Vec<u64>> {
        let mut costs = Vec::with_capacity(graph.blocks.len());
        for b in &graph.blocks {
            let mut c = 0u64;
            for ins in &f.instructions[b.first..=b.last] {
                c = c.saturating_add(1);
                let Some(call) = &ins.call else { continue };
                match call.callee_name() {
                    None => {
                        let names = self.candidates(f, &call.target, ins.span)?;
                        for name in names {
                            let callee = self.callee_bound(&name, ins.span, depth)?;
                            c = c.saturating_add(callee);
                        }
                    }
                    Some(name) if call.is_external() => {
                        if !self.warned_external.iter().any(|n| n == name) {
                            self.warned_external.push(name.to_string());
                            self.diagnostics.push(Diagnostic::warning(
                                ins.span,
                                format!(
                                    "`call {name}`: an external function (the CUDA runtime's); \
                                     analysed as one instruction that returns, so its own time \
                                     is not in the bound"
                                ),
                            ));
                        }
                    }
                    Some(name) => {
                        let callee = self.callee_bound(name, ins.span, depth)?;
                        c = c.saturating_add(callee);
                    }
                }
            }
            costs.push(c);
        }
        Some(costs)
    }

    /// The possible callees of an indirect call: its `.calltargets` list, else every `.func`
    /// of the module whose parameter and return types match its `.callprototype` (a function
    /// pointer in a kernel compiled whole holds the address of one of the module's
    /// functions). The warp pays each candidate once: lanes holding different pointers call
    /// their functions one after the other (PTX ISA §9.7.13.5 `call`: an indirect call may
    /// diverge), so the sum bounds any split.
    fn candidates(
        &mut self,
        f: &Function,
        target: &isa::ptx::CallTarget,
        at: Span,
    ) -> Option<Vec<String>> {
        let isa::ptx::CallTarget::Indirect { via, register, .. } = target else {
            return Some(Vec::new());
        };
        let via = via.as_deref().unwrap_or("");
        if let Some(list) = f.target_lists.get(via) {
            return Some(list.clone());
        }
        let proto = f.prototypes.iter().find(|p| p.name == via);
        let types = |v: &[isa::ptx::VarDecl]| v.iter().map(|d| d.ty.clone()).collect::<Vec<_>>();
        let found: Vec<String> = match proto {
            Some(p) => self
                .module
                .functions
                .iter()
                .filter(|g| g.has_body && g.kind == isa::ptx::FunctionKind::Func)
                .filter(|g| types(&g.params) == types(&p.params))
                .filter(|g| types(&g.returns) == types(&p.returns))
                .map(|g| g.name.clone())
                .collect(),
            None => Vec::new(),
        };
        let mut unique = found;
        unique.dedup();
        if unique.is_empty() {
            self.diagnostics.push(Diagnostic::error(
                at,
                format!(
                    "indirect `call` through {register}: no `.calltargets` list and no function \
                     of the module matches its prototype `{via}`, so its callees are unknown and \
                     the warp-level CFG has no bound for it"
                ),
            ));
            return None;
        }
        self.diagnostics.push(Diagnostic::warning(
            at,
            format!(
                "indirect `call` through {register}: assumed to call one of the module's \
                 functions matching prototype `{via}` ({}); each is paid once, as lanes with \
                 different pointers call one after the other",
                unique.join(", ")
            ),
        ));
        Some(unique)
    }

    /// The bound of the module's function `name` as a callee.
    fn callee_bound(&mut self, name: &str, at: Span, depth: usize) -> Option<u64> {
        if let Some(b) = self.done.get(name) {
            return *b;
        }
        if self.open.iter().any(|n| n == name) || depth >= MAX_CALL_DEPTH {
            self.diagnostics.push(Diagnostic::error(
                at,
                format!(
                    "`call {name}` is recursive (or nests deeper than {MAX_CALL_DEPTH} calls): \
                     the warp-level CFG has no bound for it"
                ),
            ));
            return None;
        }
        let Some(f) = self
            .module
            .functions
            .iter()
            .find(|g| g.has_body && g.name == name)
        else {
            self.diagnostics.push(Diagnostic::error(
                at,
                format!("`call {name}`: no body for `{name}` in the module"),
            ));
            return None;
        };
        self.open.push(name.to_string());
        let bound = self.function_bound(f, at, depth + 1);
        self.open.pop();
        self.done.insert(name.to_string(), bound);
        bound
    }

    fn function_bound(&mut self, f: &Function, at: Span, depth: usize) -> Option<u64> {
        let built = match cfg::ptx::build(f, &self.p.analysis) {
            Ok(b) => b,
            Err(d) => {
                self.diagnostics.push(d);
                return None;
            }
        };
        let costs = self.block_costs(f, &built.graph, depth)?;
        let warp = &built.warp;
        let ipet_cfg = ipet_bound::ipet_graph(warp, |b| costs[b]);
        // A callee's loops: bounded by the code (constants only: its parameters vary per
        // call), else by the default, which is reported as an assumption.
        let inferred: BTreeMap<usize, (u64, String)> = crate::loop_inference::ptx(f, None)
            .loops
            .into_iter()
            .filter_map(|l| {
                let first = l.keys.iter().find_map(|k| match k {
                    LoopKey::Address(a) => Some((*a / 8) as usize),
                    LoopKey::Label(_) => None,
                })?;
                Some((first, (l.bound?, l.reason)))
            })
            .collect();
        let first_of = |node: usize| warp.nodes[node].block.map(|b| built.graph.blocks[b].first);
        let mut per_header = BTreeMap::new();
        for l in ipet::find_loops(&ipet_cfg) {
            let Some(first) = first_of(l.header) else {
                continue;
            };
            match inferred.get(&first) {
                Some((n, _)) => {
                    per_header.insert(l.header, *n);
                }
                None => {
                    let label = f.labels.iter().find(|(_, &i)| i == first).map_or_else(
                        || format!("pc {:#x}", Function::pc(first)),
                        |(n, _)| n.clone(),
                    );
                    let key = format!("{}/{label}", f.name);
                    if let Some(d) = self.p.loop_bounds.default {
                        if !self.warned_default.contains(&key) {
                            self.diagnostics
                                .push(crate::params::loop_bounds::default_warning(
                                    f.instructions[first].span,
                                    &key,
                                    d,
                                    Some("a loop of a called function: no bound from its code"),
                                ));
                            self.warned_default.push(key);
                        }
                    }
                }
            }
        }
        ipet_bound::callee_bound_at(
            &ipet_cfg,
            (per_header, self.p.loop_bounds.default),
            &self.p.budget,
            (at, format!("`call {}`: the callee", f.name)),
            &mut self.diagnostics,
        )
    }
}
