//! Indirect branches whose candidate targets are known (`BRX`/`JMX` with
//! [`isa::Instruction::indirect_targets`]): a multi-way branch, each target possibly taken by
//! a different subset of the warp's threads (beyond the paper, which has no indirect
//! branches).
//!
//! # What the hardware does
//! The target of `BRX Rn` is computed per thread from `Rn`, so the threads of a warp may go to
//! different targets, as with PTX's `brx.idx` (PTX ISA, Control Flow Instructions, `brx.idx`:
//! "Index into a list of possible destination labels"; only `brx.idx.uni` "guarantees that the
//! branch is non-divergent", so a plain `brx.idx` may send threads to different labels). nvcc
//! brackets the branch so the threads meet again: Fermi–Pascal push a reconvergence point
//! first — `SSY` for a `switch` jump table (its cases end in `SYNC`), `PRET` for a call through
//! a function pointer (its callees end in `RET`) — and Volta and later a `BSSY` region. Which
//! subset of threads runs which target first is not documented.
//!
//! # The model: a divergent branch with n sides
//! It follows the two-sided divergent branch of Alg. 1 (`transfer::diverge`, §3.4):
//! - the active threads agree on the branch's inputs (the target register, the guard): the
//!   whole warp goes to one candidate, one `Taken` edge per candidate (and the fall-through
//!   of a guarded `BRX` whose guard fails everywhere);
//! - otherwise also the divergent outcome: the active group is split into one non-empty part
//!   per side, pairwise disjoint; the first side runs with its part and every other part waits
//!   on the stack as a pending path (`Tag::Nil`) at its target, the later sides nearer the
//!   bottom, so they run one after the other in listing order until the `SYNC`/`RET`/`BSYNC`
//!   of the bracket pops the reconvergence entry.
//!
//! The divergent outcome is the one where *every* candidate is taken; an execution where only
//! some are taken by subsets runs, side for side, the same blocks minus the paths of the
//! sides nobody took. Under the additive cost model (every block of a warp-CFG node costs the
//! same whatever ran before it, `crate::barriers`, "scheduling assumption") such an execution
//! costs no more than some path of this graph that also runs the other sides, so the IPET
//! bound covers it; likewise for the order of the sides. What is not modelled: a `BRX` whose
//! targets are not all listed (the list is the user's claim, like a loop bound).

use crate::state::{State, Tag, NOT_ARRIVED};
use crate::transfer::{
    check_depth, goto, next_index, push_entry, sanitize, Ctx, Target, Transition, Unsupported,
};
use crate::warp_cfg::WarpEdgeKind;
use isa::Diagnostic;

/// The successors of the indirect branch at instruction `i` (with non-empty
/// `indirect_targets`) from `st`.
pub(crate) fn multi_way(i: usize, st: State, ctx: &Ctx) -> Result<Vec<Transition>, Unsupported> {
    let ins = &ctx.kernel.instructions[i];
    let mut sides: Vec<(usize, WarpEdgeKind)> = Vec::new();
    for &a in &ins.indirect_targets {
        let t = ctx.kernel.index_of(a).ok_or_else(|| {
            Diagnostic::error(
                ins.opcode.span,
                format!(
                    "`{}`: candidate target {a:#06x} is not an instruction of the function",
                    ins.opcode.name
                ),
            )
        })?;
        if !sides.iter().any(|(s, _)| *s == t) {
            sides.push((t, WarpEdgeKind::Taken));
        }
    }
    let guarded = ins.guard.as_ref().is_some_and(|g| !g.is_always_true());
    if guarded {
        let n = next_index(i, ctx)?;
        if !sides.iter().any(|(s, _)| *s == n) {
            sides.push((n, WarpEdgeKind::Fallthrough));
        }
    }
    let mut out = Vec::new();
    // The whole warp to one side.
    for &(t, kind) in &sides {
        out.push(Transition {
            kind,
            target: Target::State(goto(st.clone(), t, ctx)?),
            resumed: None,
        });
    }
    let agreed = ins.reads.iter().all(|r| st.groups.agree(0).agrees(r));
    if agreed || sides.len() < 2 {
        return Ok(out);
    }
    // Every side taken by a part of the warp: the first runs, the others wait.
    let mut s = st;
    if ctx.warp_syncs && s.stack.is_empty() {
        // As in `transfer::diverge`: save the converged warp for the `WARPSYNC` that rejoins it.
        push_entry(&mut s, NOT_ARRIVED, Tag::WarpSync, ctx, |g| {
            g.add_copy_of(0)
        });
    }
    for &(t, _) in sides[1..].iter().rev() {
        split_off(&mut s, ctx);
        push_entry(&mut s, t, Tag::Nil, ctx, |g| g.len() - 1);
        check_depth(&s, ins, ctx)?;
    }
    out.push(Transition {
        kind: WarpEdgeKind::Divergence,
        target: Target::State(goto(s, sides[0].0, ctx)?),
        resumed: None,
    });
    Ok(out)
}

/// Splits the active group into a waiting part, left in the last slot, and the part that goes
/// on, made active; both non-empty and disjoint (as `transfer::split`, without a guard to
/// agree on: nothing is learnt about the target register, which may be read through memory).
fn split_off(s: &mut State, ctx: &Ctx) {
    let waiting = s.groups.add_subset_of(0);
    let going = s.groups.add_subset_of(0);
    s.groups.make_disjoint(waiting, going);
    s.groups.remove_slot(0);
    s.groups.move_slot(going - 1, 0);
    // `waiting` is back at its own index, the last slot.
    sanitize(&mut s.groups, ctx.options);
}
