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

use std::collections::BTreeMap;

use isa::gcn::{ExecCondition, ExecEffect, GcnControl, GcnFunction};
use isa::Diagnostic;
use serde::{Deserialize, Serialize};

use crate::block_cost::CostModel;
use crate::budget::Budget;
use crate::error::{Error, ErrorKind};
use crate::graph::{LineRange, Node, NodeKind, WavefrontCfg};
use crate::unroll::{unroll, LoopBounds, UnrolledLoop};

/// Options for [`build_from_gcn`].
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct GcnGraphOptions {
    pub cost: CostModel,
    pub loop_bounds: LoopBounds,
}

/// The wavefront CFG of a GCN function, before and after unrolling.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GcnGraph {
    /// The block graph of the listing (cyclic when the kernel has loops).
    pub blocks: WavefrontCfg,
    /// `blocks` with every loop unrolled: what the PWS algorithms analyse.
    pub cfg: WavefrontCfg,
    pub loops: Vec<UnrolledLoop>,
    pub warnings: Vec<Diagnostic>,
}

/// Builds the block graph of `f`, classifies its nodes, costs them and unrolls loops.
///
/// # Errors
/// An unresolved or indirect branch, a block without a cost in a per-block cost table, a
/// loop without bound, or a budget.
pub fn build_from_gcn(
    f: &GcnFunction,
    options: &GcnGraphOptions,
    budget: &Budget,
) -> Result<GcnGraph, Error> {
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
    let mut warnings = Vec::new();
    let mut nodes = Vec::with_capacity(starts.len());
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
        match &last.control {
            GcnControl::Indirect => {
                return Err(Error::at(
                    ErrorKind::Input,
                    last.span,
                    format!(
                        "`{}`: indirect branch targets are not statically known",
                        last.opcode
                    ),
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
    let blocks = WavefrontCfg { nodes, entry: 0 };
    let (cfg, loops) = unroll(&blocks, &options.loop_bounds, budget)?;
    Ok(GcnGraph {
        blocks,
        cfg,
        loops,
        warnings,
    })
}
