//! Building the wavefront CFG `C_BSB` (PWS §4.2, Fig. 7b) from a parsed GCN3 function.
//!
//! GCN3 code *is* `C_BSB`: the compiler serialises divergent paths with execute-mask
//! instructions, so the block graph of the listing already has the paper's node kinds:
//! * **branch** node: narrows `exec` (`s_and_saveexec_b64`, `s_and_b64 exec, ...`,
//!   `v_cmpx_*`) and ends with `s_cbranch_execz` (skip the path if nobody takes it);
//! * **BSB**: flips `exec` to the other path (`s_or_saveexec_b64` / `s_xor_b64 exec, ...`,
//!   usually followed by `s_cbranch_execz`) — the public PWS solver recognises BSBs by a
//!   leading `s_or_saveexec_b64`;
//! * **reconvergence** node: starts by restoring `exec` (`s_or_b64 exec, exec, ...`); like
//!   the solver we also flag a block that starts with `s_endpgm`;
//! * scalar branches (`s_cbranch_scc0/1`, `s_cbranch_vccz/vccnz`) are uniform — the whole
//!   wavefront goes one way — so their blocks are plain nodes with two successors, and so
//!   are `s_cbranch_execnz` loop latches.
//!
//! The fall-through successor is listed first, so `SuccBB(u)` is the code right after the
//! branch (the first path). A `split sA, sB` instruction in a branch block marks that
//! branch for splitting (§4.1); elsewhere it is ignored with a warning, as the compiler
//! removes it. `merge` needs no graph node (the compiler inserts it at the join, §4.1).
//!
//! **Calls** are analysed like SASS `CAL`/`RET`: a call
//! ([`GcnControl::Call`], `s_swappc_b64` to a function of the listing) ends its block, whose
//! only successor becomes the entry of a copy of the callee's wavefront CFG — inlined at
//! each call site, so the callee's cost counts once per call executed — and every return
//! of that copy (`s_setpc_b64 s[30:31]`) leads to the block after the call. A tail call
//! (`s_setpc_b64` to a function) continues in the callee, whose returns return from the
//! caller. Inlined nodes are labelled `callee/label` (nested: `g/f/label`); a loop bound
//! given for `label` applies to every copy. Nesting is bounded by [`MAX_CALL_DEPTH`];
//! recursion, a call to a symbol the listing does not define (an external builtin such as
//! `__ocml_sin_f32` in a `-nogpulib` build, or `vprintf`) and an unresolved
//! `s_setpc_b64`/`s_swappc_b64` are located errors: their cost is unknown, so no bound
//! would be safe. Cost assumption: a call costs its instructions — the address computation
//! and `s_swappc_b64` in the caller, the callee's blocks including its `s_setpc_b64` — and
//! nothing else (no instruction-fetch or prefetch penalty beyond each instruction's cost
//! in the [`CostModel`]). A return in the analysed function itself ends the wavefront.

use std::collections::BTreeMap;

use isa::gcn::{ExecCondition, ExecEffect, GcnControl, GcnFunction, GcnProgram};
use isa::progress::{self, Observer};
use isa::{Diagnostic, Span};

use crate::block_cost::CostModel;
use crate::budget::Budget;
use crate::error::{Error, ErrorKind};
use crate::graph::{LineRange, Node, NodeKind, WavefrontCfg};
use crate::unroll::{unroll_observed, LoopBounds, UnrolledLoop};

/// Options for [`build_from_gcn`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GcnGraphOptions {
    pub cost: CostModel,
    pub loop_bounds: LoopBounds,
}

/// The wavefront CFG of a GCN function, before and after unrolling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GcnGraph {
    /// The block graph of the listing, callees inlined at each call site (cyclic when
    /// the kernel or a callee has loops).
    pub blocks: WavefrontCfg,
    /// `blocks` with every loop unrolled: what the PWS algorithms analyse.
    pub cfg: WavefrontCfg,
    pub loops: Vec<UnrolledLoop>,
    pub warnings: Vec<Diagnostic>,
}

/// Deepest chain of calls followed when inlining (a kernel calling `f` calling `g` is 2).
pub const MAX_CALL_DEPTH: usize = 32;

/// Builds the block graph of `f`, classifies its nodes, costs them and unrolls loops. `f`
/// alone: a call is an error (the callee's code is not available); see
/// [`build_from_gcn_program`].
///
/// # Errors
/// An unresolved or indirect branch, a call, a block without a cost in a per-block cost
/// table, a loop without bound, or a budget.
pub fn build_from_gcn(
    f: &GcnFunction,
    options: &GcnGraphOptions,
    budget: &Budget,
) -> Result<GcnGraph, Error> {
    build(None, f, options, budget, &progress::silent)
}

/// As [`build_from_gcn`], with the calls of `f` (a function of `program`) inlined: the
/// callees' wavefront CFGs are copied in at each call site (see the module documentation).
///
/// # Errors
/// Those of [`build_from_gcn`], and: a call to a symbol `program` does not define, a
/// recursive call, calls nested deeper than [`MAX_CALL_DEPTH`].
pub fn build_from_gcn_program(
    program: &GcnProgram,
    f: &GcnFunction,
    options: &GcnGraphOptions,
    budget: &Budget,
) -> Result<GcnGraph, Error> {
    build_from_gcn_program_observed(program, f, options, budget, &progress::silent)
}

/// [`build_from_gcn_program`], telling `observer` how the loop unrolling goes
/// ([`crate::unroll::unroll_observed`]). The result does not depend on the observer.
///
/// # Errors
/// As [`build_from_gcn_program`].
pub fn build_from_gcn_program_observed(
    program: &GcnProgram,
    f: &GcnFunction,
    options: &GcnGraphOptions,
    budget: &Budget,
    observer: Observer,
) -> Result<GcnGraph, Error> {
    build(Some(program), f, options, budget, observer)
}

fn build(
    program: Option<&GcnProgram>,
    f: &GcnFunction,
    options: &GcnGraphOptions,
    budget: &Budget,
    observer: Observer,
) -> Result<GcnGraph, Error> {
    let mut warnings = Vec::new();
    let mut stack = vec![f.name.clone()];
    let expanded = expand(program, f, options, budget, &mut stack, &mut warnings)?;
    let blocks = WavefrontCfg {
        nodes: expanded.nodes,
        entry: 0,
    };
    let (cfg, loops) = unroll_observed(&blocks, &options.loop_bounds, budget, observer)?;
    Ok(GcnGraph {
        blocks,
        cfg,
        loops,
        warnings,
    })
}

/// How a block of one function ends, beyond its local successors.
enum Exit {
    Local,
    Call { callee: String, span: Span },
    TailCall { callee: String, span: Span },
    Return,
}

/// A function's nodes with its calls inlined; `returns` are the nodes that return.
struct Expanded {
    nodes: Vec<Node>,
    returns: Vec<usize>,
}

/// `f`'s own blocks, then a copy of each callee per call site (depth-first).
fn expand(
    program: Option<&GcnProgram>,
    f: &GcnFunction,
    options: &GcnGraphOptions,
    budget: &Budget,
    stack: &mut Vec<String>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Expanded, Error> {
    let (mut nodes, exits) = function_blocks(f, options, budget, warnings)?;
    let mut returns = Vec::new();
    for (b, exit) in exits.into_iter().enumerate() {
        let (callee, span, tail) = match exit {
            Exit::Local => continue,
            Exit::Return => {
                returns.push(b);
                continue;
            }
            Exit::Call { callee, span } => (callee, span, false),
            Exit::TailCall { callee, span } => (callee, span, true),
        };
        let Some(program) = program else {
            return Err(Error::at(
                ErrorKind::Input,
                span,
                format!("call to `{callee}`: the callee's code is not available to this analysis (the graph was built from `{}` alone)", f.name),
            ));
        };
        let g = program
            .callee(&callee)
            .map_err(|m| Error::at(ErrorKind::Input, span, m))?;
        if stack.iter().any(|n| n == &g.name) {
            let chain = stack
                .iter()
                .chain(std::iter::once(&g.name))
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(" → ");
            return Err(Error::at(
                ErrorKind::Graph,
                span,
                format!("recursive call {chain}: the call depth is not bounded statically, so no bound would be safe"),
            ));
        }
        if stack.len() > MAX_CALL_DEPTH {
            return Err(Error::at(
                ErrorKind::Graph,
                span,
                format!(
                    "call to `{callee}`: calls nested deeper than {MAX_CALL_DEPTH} are not inlined"
                ),
            ));
        }
        stack.push(g.name.clone());
        let sub = expand(Some(program), g, options, budget, stack, warnings);
        stack.pop();
        let sub = sub?;
        let off = nodes.len();
        if off + sub.nodes.len() > budget.max_unrolled_nodes {
            return Err(Error::budget(
                "max_unrolled_nodes",
                budget.max_unrolled_nodes,
                format!("inlining the call to `{}` needs more nodes", g.name),
            ));
        }
        // After the call: the block that follows it (none when the call ends the function).
        let after: Vec<usize> = nodes[b].successors.clone();
        nodes[b].successors = vec![off];
        for mut n in sub.nodes {
            for s in &mut n.successors {
                *s += off;
            }
            if n.label != g.name {
                n.label = format!("{}/{}", g.name, n.label);
            }
            nodes.push(n);
        }
        for r in sub.returns {
            if tail {
                returns.push(off + r);
            } else {
                nodes[off + r].successors = after.clone();
            }
        }
    }
    Ok(Expanded { nodes, returns })
}

/// The block graph of `f` alone: its nodes (classified, costed, local successors) and how
/// each block ends.
fn function_blocks(
    f: &GcnFunction,
    options: &GcnGraphOptions,
    budget: &Budget,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(Vec<Node>, Vec<Exit>), Error> {
    let ins = &f.instructions;
    if ins.is_empty() {
        return Err(Error::at(
            ErrorKind::Input,
            f.span,
            format!("function `{}` has no instructions", f.name),
        ));
    }
    if ins.len() > budget.max_unrolled_nodes {
        return Err(Error::budget(
            "max_unrolled_nodes",
            budget.max_unrolled_nodes,
            "the function has more instructions",
        ));
    }
    // Leaders.
    let mut leader = vec![false; ins.len()];
    leader[0] = true;
    for &i in f.labels.values() {
        if let Some(l) = leader.get_mut(i) {
            *l = true;
        }
    }
    for &i in f.block_comments.keys() {
        if let Some(l) = leader.get_mut(i) {
            *l = true;
        }
    }
    for (i, x) in ins.iter().enumerate() {
        if x.control.ends_block() {
            if let Some(l) = leader.get_mut(i + 1) {
                *l = true;
            }
        }
    }
    let starts: Vec<usize> = (0..ins.len()).filter(|&i| leader[i]).collect();
    let mut block_of = vec![0usize; ins.len()];
    for (b, &s) in starts.iter().enumerate() {
        let e = starts.get(b + 1).copied().unwrap_or(ins.len());
        for slot in &mut block_of[s..e] {
            *slot = b;
        }
    }
    let mut labels_at: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
    for (name, &i) in &f.labels {
        labels_at.entry(i).or_default().push(name);
    }
    let mut nodes = Vec::with_capacity(starts.len());
    let mut exits = Vec::with_capacity(starts.len());
    for (b, &s) in starts.iter().enumerate() {
        let e = starts.get(b + 1).copied().unwrap_or(ins.len());
        let body = &ins[s..e];
        let last = &body[body.len() - 1];
        // A real label, else LLVM's `; %bb.N:` comment, else the function name for the
        // entry block, else a synthetic name.
        let label = labels_at
            .get(&s)
            .and_then(|v| v.iter().find(|l| !l.ends_with("$local")))
            .map(|l| l.to_string())
            .or_else(|| f.block_comments.get(&s).cloned())
            .unwrap_or_else(|| {
                if b == 0 {
                    f.name.clone()
                } else {
                    format!("B{b}")
                }
            });
        // Successors: fall-through first, then the branch target.
        let mut succ = Vec::new();
        if last.control.falls_through() && e < ins.len() {
            succ.push(b + 1);
        }
        let exit = match &last.control {
            GcnControl::Call { callee, .. } => Exit::Call {
                callee: callee.clone(),
                span: last.span,
            },
            GcnControl::TailCall { callee, .. } => Exit::TailCall {
                callee: callee.clone(),
                span: last.span,
            },
            GcnControl::Return => Exit::Return,
            _ => Exit::Local,
        };
        exits.push(exit);
        match &last.control {
            GcnControl::Indirect => {
                return Err(Error::at(
                    ErrorKind::Input,
                    last.span,
                    last.control_problem().unwrap_or_else(|| {
                        format!(
                            "`{}`: indirect branch targets are not statically known",
                            last.opcode
                        )
                    }),
                ))
            }
            c if c.target().is_some() => match c.target_index() {
                Some(t) if t < ins.len() => {
                    let tb = block_of[t];
                    if !succ.contains(&tb) {
                        succ.push(tb);
                    }
                }
                _ => {
                    return Err(Error::at(
                        ErrorKind::Input,
                        last.span,
                        format!(
                            "branch target `{}` does not name an instruction of `{}`",
                            c.target().unwrap_or_default(),
                            f.name
                        ),
                    ))
                }
            },
            _ => {}
        }
        let has_flip = body.iter().any(|i| i.exec_effect == ExecEffect::Flip);
        let has_narrow = body.iter().any(|i| i.exec_effect == ExecEffect::Narrow);
        let execz = matches!(
            last.control,
            GcnControl::ExecBranch {
                condition: ExecCondition::Execz,
                ..
            }
        );
        let first = &body[0];
        let reconv = first.exec_effect == ExecEffect::Restore
            || matches!(first.control, GcnControl::EndProgram);
        let kind = if has_flip {
            NodeKind::Bsb
        } else if execz && has_narrow && succ.len() == 2 {
            NodeKind::Branch
        } else if reconv {
            NodeKind::Reconv
        } else {
            NodeKind::Plain
        };
        let split = body.iter().find(|i| i.control == GcnControl::Split);
        let marked = split.is_some() && kind == NodeKind::Branch;
        if let (Some(sp), false) = (split, marked) {
            warnings.push(Diagnostic::warning(
                sp.span,
                "`split` is not before a divergent branch; the compiler removes it (PWS §4.1)",
            ));
        }
        let cost = match &options.cost {
            CostModel::Unit => body
                .iter()
                .filter(|i| i.opcode != "split" && i.opcode != "merge")
                .count() as u64,
            CostModel::Latency { table } => body
                .iter()
                .try_fold(0u64, |acc, i| acc.checked_add(table.latency(i)))
                .ok_or_else(|| Error::overflow("a block cost"))?,
            CostModel::PerBlock { costs } => *costs.get(&label).ok_or_else(|| {
                Error::at(
                    ErrorKind::Input,
                    first.span,
                    format!("no cost given for block `{label}` in the per-block cost table"),
                )
            })?,
        };
        let lines = LineRange {
            first: body.iter().map(|i| i.span.line).min().unwrap_or(0),
            last: body.iter().map(|i| i.span.line).max().unwrap_or(0),
        };
        let mut node = Node::new(label, cost, kind);
        node.reconv = reconv;
        node.successors = succ;
        node.lines = Some(lines);
        node.marked = marked;
        nodes.push(node);
    }
    Ok((nodes, exits))
}
