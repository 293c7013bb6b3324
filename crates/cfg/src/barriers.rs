//! Convergence barriers of Volta and later (sm_70 to sm_90): `BSSY`, `BSYNC`, `BREAK`, in the
//! stack-graph domain of the Pascal analysis (beyond the paper, which handles the SSY/PBK stack
//! of Fermi–Pascal only).
//!
//! # What the hardware does
//! Volta replaced the per-warp reconvergence stack by *convergence barriers* and *independent
//! thread scheduling* (ITS): every thread has its own program counter, and the scheduler may
//! interleave divergent paths ("Volta's independent thread scheduling allows the GPU to yield
//! execution of any thread", NVIDIA Tesla V100 whitepaper, 2017, §"Independent Thread
//! Scheduling"). The compiler brackets each region whose threads must reconverge:
//! `BSSY Bn, target` records the active threads in barrier register `Bn`; `BSYNC Bn` makes each
//! arriving thread wait until every thread still recorded in `Bn` has arrived (or exited), and
//! then they continue together; `BREAK Bn` removes the executing threads from `Bn` so that the
//! barrier no longer waits for them (Jia, Maggioni, Smith, Scarpazza, *Dissecting the NVIDIA
//! Volta GPU Architecture via Microbenchmarking*, 2018, and *… Turing T4 …*, 2019, list the
//! opcodes; the PTX ISA's `bar.warp.sync` and `__syncwarp` describe the same contract from the
//! source side). In every `BSSY Bn, target` of the sm_70–sm_90 corpus, `target` is the
//! instruction right after the region's `BSYNC Bn`.
//!
//! # The model
//! A barrier is a reconvergence entry of the stack graph, tagged [`Tag::Barrier`]: `BSSY`
//! pushes it with a copy of the active group (as `SSY` pushes a SYNC entry), `BSYNC` halts the
//! executing group and pops the next pending entry (as `SYNC` does), and the barrier entry
//! itself resumes at `target` with every thread it still records. `BREAK Bn` removes the
//! breaking threads from `Bn`'s entry with the `filter♯` rule of §3.1 (the entry stays, goes, or
//! both when unknown). A `BSYNC` of a barrier with no open entry waits for nobody. So `k`
//! sequential regions cost `O(k)` states, exactly as `k` SSY/SYNC regions do on Pascal, and a
//! loop whose exit diverges keeps a bounded stack (see below).
//!
//! # The scheduling assumption, and why the bound holds for every interleaving
//! The warp-level CFG follows one schedule: divergent paths run one after the other, in stack
//! order, and reconverge at each `BSYNC`. ITS may instead interleave the paths between a
//! `BSSY` and its `BSYNC`, at any instruction. The bound is valid for every such interleaving
//! under the assumption that the cost of an execution is the sum of the costs of its issued
//! instructions (the cost model of the `ipet` crate: every block of a warp-CFG node costs the
//! same whatever ran before it): an interleaving issues exactly the same (group, instruction)
//! pairs as the stack order — each path is run by the same threads, and the barrier makes them
//! wait for each other at the same `BSYNC` — only in another order, so its sum is the same.
//! What the assumption excludes: threads of one warp communicating through memory while
//! diverged (a spin lock between paths), where ITS changes *which* path is taken, and timing
//! that depends on the order (latencies hidden by interleaving only make the real run faster).
//! `YIELD`, `BMOV` (save and restore of a barrier register around a call), `WARPSYNC` with a
//! partial or register mask and `WARPSYNC.COLLECTIVE`/`ENDCOLLECTIVE` change no path and are
//! ordinary instructions here: a group that would have waited for others runs on alone, which issues at least as
//! many instructions. `BRA.DIV`/`BRA.CONV` (branch if the warp is diverged / converged) are
//! uniform branches, taken or not by the whole warp.
//!
//! Checked with [`crate::interleaving`], which runs any interleaving the hardware allows: the
//! pairs are exactly the stack order's when every divergence reconverges at a `BSYNC`
//! (`tests/interleaving.rs`). Caveats, each with a kernel in that file:
//! - Full-warp `WARPSYNC`s at different instructions match each other on sm_70+ (PTX
//!   `bar.warp.sync`): the arrival at one releases the waiters at the other, and the paths
//!   go on apart for good. The model used to let the later group run on alone and rejoin
//!   the warp at the first `WARPSYNC`, which issued fewer instructions than ITS and than the
//!   bound allowed for (`if (p) { __syncwarp(); … } __syncwarp();`: 11 issues against a
//!   bound of 9); it now releases the waiters apart ("Full-warp WARPSYNC" below), bound 11.
//! - A full-warp `WARPSYNC` inside a region that part of the warp left for the `BSYNC`
//!   deadlocks under ITS (the `__syncwarp` contract is broken); the model runs it on alone.
//! - `BRA.DIV`/`BRA.CONV` see the schedule (has the other path exited yet?), so the pairs
//!   differ; the warp-level CFG keeps both sides, so the bound covers both.
//! - Groups the stack order keeps apart (a full-warp `WARPSYNC` inside a region, two groups
//!   that diverged without reconverging and enter one region) may be released together under
//!   ITS: fewer issues, harmless for the bound.
//!
//! # Full-warp `WARPSYNC`
//! nvcc also lets paths diverge outside any `BSSY` region and meet again at `WARPSYNC.ALL` /
//! `WARPSYNC 0xffffffff` (`__syncwarp()`, and before every `BAR.SYNC`): every thread waits there
//! until all others that have not exited arrived. In a kernel with such a `WARPSYNC`, the first
//! divergence at the bottom of the stack (the warp was converged) saves the whole warp in a
//! [`Tag::WarpSync`] entry, as `SSY` would save it; its agreement is then kept sound by the weak
//! updates of pending entries (§3.3), with no union of differently-branched groups. A full-warp
//! `WARPSYNC` reached while only pending paths are above that entry halts like `BSYNC`: the
//! next pending path runs, and the saved warp resumes after the `WARPSYNC` once all arrived.
//! The entry records which `WARPSYNC` the first arrivals wait at. A group reaching a
//! different full-warp `WARPSYNC` matches them: on sm_70 and later `__syncwarp()` calls at
//! different places synchronise with each other (CUDA C++ Programming Guide 9.0,
//! "Synchronization Functions": only sm_6x and below require the same `__syncwarp()`), and
//! each group then goes on after its own `WARPSYNC`, apart. So the saved warp becomes a
//! pending path of its arrivals (at their `WARPSYNC`'s next instruction), the group runs on,
//! and nothing rejoins later ([`mismatched_warp_sync`]; found with the interleaving executor,
//! [`crate::interleaving`], where rejoining issued 9 instructions against 11 under ITS). A
//! group reaching a full-warp `WARPSYNC` inside a region runs on alone (allowed by the
//! argument above). If every pending thread exits instead, the saved warp has nobody left:
//! the warp ends.
//!
//! # What a rejoined warp knows
//! A barrier entry or a saved warp resumes with threads that all halted into it (each either
//! arrived at its `BSYNC`/`WARPSYNC`, left with `BREAK`, or exited), and registers are private
//! to threads: so it holds exactly what every arriving group held when it halted. Each halt
//! records the halting group's known constants in the entry ([`crate::consts`]); the resumed
//! group agrees on every register all arrivals held the same constant in, on top of what the
//! weak updates left it.
//!
//! # Loops whose exit diverges, and why they stay linear
//! In barrier code a loop exits by falling out of its back edge (`@P0 BRA head` then
//! `BSYNC Bn`) or with `@P BREAK Bn; @P BRA out`. On Pascal the back edge's taken group ran
//! first and the leaving group waited as a pending entry, one per iteration (a cycle of the
//! stack graph). Here, for a divergent *backward* branch, the group that leaves runs first —
//! it reaches the `BSYNC` at once — and the looping group waits as the pending entry; the
//! `BSYNC` pops it, so the stack has the same depth at every iteration and the loop of the
//! warp-level CFG is the kernel's loop, bounded by the kernel's loop bound. The order is free
//! by the argument above. A `BREAK` immediately followed by a branch on the same guard moves
//! exactly the branching group out of the barrier ([`fused_break`]), so the group that stays
//! in the loop is known to keep its threads.

use crate::groups::Fate;
use crate::state::{State, Tag};
use crate::transfer::{drop_entry, Ctx};
use isa::{ControlKind, Diagnostic, Instruction, Kernel};

/// Whether the kernel uses convergence barriers (any `BSSY`), which selects the loop-friendly
/// order of divergent backward branches (module doc).
pub fn uses_barriers(kernel: &Kernel) -> bool {
    kernel
        .instructions
        .iter()
        .any(|i| matches!(i.control, ControlKind::Bssy { .. }))
}

/// The topmost stack entry that may be barrier `b`'s, if any (`None` also for an "any" stack,
/// where nothing is known to remove threads from).
fn entry_of(st: &State, b: u8) -> Option<usize> {
    for (i, e) in st.stack.iter().enumerate().rev() {
        if e.is_any() {
            return None;
        }
        if e.has_tag(Tag::Barrier(b)) {
            return Some(i);
        }
    }
    None
}

/// Whether a `BSYNC Bb` may have threads to wait for: some entry may be barrier `b`'s.
pub fn is_open(st: &State, b: u8) -> bool {
    st.stack
        .iter()
        .any(|e| e.is_any() || e.has_tag(Tag::Barrier(b)))
}

/// `BREAK Bb` by the threads of group slot `group`: they leave barrier `b`'s entry, which stays
/// (it keeps other threads), goes (it held only them), or both when the groups domain cannot
/// tell (`filter♯`, §3.1). A cyclic entry only loses threads.
pub fn leave(st: State, group: usize, b: u8) -> Vec<State> {
    let Some(j) = entry_of(&st, b) else {
        return vec![st];
    };
    let slot = State::slot_of(j);
    if !st.stack[j].is_single() || st.stack[j].repeated {
        let mut kept = st;
        kept.groups.remove_threads(slot, group);
        return vec![kept];
    }
    match st.groups.fate(slot, group) {
        Fate::Keep => vec![st],
        Fate::Drop => vec![drop_entry(st, j)],
        Fate::Any => {
            let mut kept = st.clone();
            kept.groups.remove_threads(slot, group);
            vec![drop_entry(st, j), kept]
        }
    }
}

/// The barrier of the `BREAK` at instruction `i` when a branch elsewhere on the same guard
/// follows it in the same block (`@!P0 BREAK B1; @!P0 BRA 0x270`), with at most ordinary
/// instructions between that leave the guard's predicate alone (nvcc sometimes schedules
/// one there): then exactly the branching threads break — every thread of the group runs
/// the instructions between, and the same predicate sends the breaking ones away — and the
/// branch applies the `BREAK` to the group it sends away ([`branch_of_break`]).
pub fn fused_break(ctx: &Ctx, i: usize) -> Option<u8> {
    fused_break_at(ctx.kernel, &ctx.block_at, i)
}

/// [`fused_break`] given the kernel and its block starts (`block_at[i]`: the block starting at
/// instruction `i`), for the concrete executor.
pub fn fused_break_at(kernel: &Kernel, block_at: &[Option<usize>], i: usize) -> Option<u8> {
    let ins = kernel.instructions.get(i)?;
    let ControlKind::Break { barrier } = ins.control else {
        return None;
    };
    let j = branch_of_break(kernel, block_at, i)?;
    let branch = &kernel.instructions[j];
    let ControlKind::Branch(Some(t)) = branch.control else {
        return None;
    };
    let elsewhere = kernel.index_of(t) != Some(j + 1);
    let same_guard = match (&ins.guard, &branch.guard) {
        (Some(a), Some(b)) => a.reg == b.reg && a.negated == b.negated,
        (None, None) => true,
        _ => false,
    };
    (elsewhere && same_guard).then_some(barrier)
}

/// The first control instruction after the `BREAK` at `i` in its block, when every
/// instruction between is an ordinary one that does not write the `BREAK`'s guard.
fn branch_of_break(kernel: &Kernel, block_at: &[Option<usize>], i: usize) -> Option<usize> {
    let guard = kernel.instructions.get(i)?.guard.as_ref().map(|g| &g.reg);
    let mut j = i + 1;
    loop {
        let next = kernel.instructions.get(j)?;
        if block_at.get(j).copied().flatten().is_some() {
            return None;
        }
        match next.control {
            ControlKind::Fallthrough => {
                if guard.is_some_and(|g| next.writes.contains(g)) {
                    return None;
                }
                j += 1;
            }
            _ => return Some(j),
        }
    }
}

/// The branch at instruction `i` carries the `BREAK` before it in its block (see
/// [`fused_break`]).
pub fn break_before(ctx: &Ctx, i: usize) -> Option<u8> {
    let mut k = i.checked_sub(1)?;
    loop {
        if ctx.block_at.get(k + 1).copied().flatten().is_some() {
            return None;
        }
        let ins = ctx.kernel.instructions.get(k)?;
        match ins.control {
            ControlKind::Break { .. } => {
                return fused_break(ctx, k)
                    .filter(|_| branch_of_break(ctx.kernel, &ctx.block_at, k) == Some(i));
            }
            ControlKind::Fallthrough => k = k.checked_sub(1)?,
            _ => return None,
        }
    }
}

/// A `BREAK Bb` that is not fused with a branch on the same guard (never seen in nvcc output:
/// every `BREAK` of the sm_70–sm_90 corpus is followed by one, directly or past ordinary
/// instructions). The breaking threads would go
/// on with the others and pass the barrier's `BSYNC` without waiting, which this model cannot
/// tell apart from waiting: a located error rather than a wrong graph.
pub fn unfused_break(ins: &Instruction) -> Diagnostic {
    Diagnostic::error(
        ins.span,
        "`BREAK` is not followed by a branch on the same guard (`@P BREAK Bn; @P BRA target`): \
         where the breaking threads go next is not modelled (ordinary instructions that leave \
         the guard alone may stand between them)",
    )
}

/// `BRA.DIV` / `BRA.CONV`: a branch on whether the warp is diverged, taken by all of it or none.
pub fn on_convergence(ins: &Instruction) -> bool {
    ins.opcode.name == "BRA" && (ins.opcode.has_modifier("DIV") || ins.opcode.has_modifier("CONV"))
}

/// Whether the kernel has a full-warp `WARPSYNC` (module doc, "Full-warp WARPSYNC").
pub fn uses_warp_syncs(kernel: &Kernel) -> bool {
    kernel
        .instructions
        .iter()
        .any(|i| i.control == ControlKind::WarpSync)
}

/// For a full-warp `WARPSYNC` followed by instruction `next`: the point the saved warp resumes
/// at if the executing group halts here (`Some(next)`), or `None` when the `WARPSYNC` does not
/// rejoin anything (no saved warp at the bottom, a region or call open above it, or the first
/// arrivals wait at another `WARPSYNC`).
pub fn warp_sync_point(st: &State, next: usize) -> Option<usize> {
    let bottom = st.stack.first()?;
    let waits_here = bottom.is_single()
        && !bottom.repeated
        && (bottom.contains(next, Tag::WarpSync)
            || bottom.contains(crate::state::NOT_ARRIVED, Tag::WarpSync));
    let only_paths_above = st.stack[1..]
        .iter()
        .all(|e| !e.is_any() && e.points.iter().all(|p| p.tag == Tag::Nil));
    (waits_here && only_paths_above).then_some(next)
}

/// For a full-warp `WARPSYNC` followed by `next`: the point the saved warp's first arrivals
/// wait at, when it is another full-warp `WARPSYNC`'s (only pending paths above the saved
/// warp). On sm_70 and later the two match: the arrivals are released apart from the group
/// that arrived here (module doc, "Full-warp WARPSYNC").
pub fn mismatched_warp_sync(st: &State, next: usize) -> Option<usize> {
    let bottom = st.stack.first()?;
    if !bottom.is_single() || bottom.repeated {
        return None;
    }
    let p = bottom.points[0];
    let waiting_elsewhere =
        p.tag == Tag::WarpSync && p.pc != next && p.pc != crate::state::NOT_ARRIVED;
    let only_paths_above = st.stack[1..]
        .iter()
        .all(|e| !e.is_any() && e.points.iter().all(|p| p.tag == Tag::Nil));
    (waiting_elsewhere && only_paths_above).then_some(p.pc)
}

/// The thread-level blocks ending in a divergent backward branch to the block `block` starts,
/// when only such branches can leave threads waiting there (see
/// [`crate::warp_cfg::Resumption::back_edges`]); empty otherwise, and always empty outside
/// barrier code. In barrier code a divergent backward branch at `i` to `t` runs the leaving
/// group first and leaves the looping group waiting at `t`; a divergent forward branch or a
/// predicated call at `i` leaves its waiting group at `i + 1` (crate::transfer::diverge).
pub fn waits_only_after_back_edges(ctx: &Ctx, block: usize) -> Vec<(usize, usize)> {
    // An indirect branch leaves its waiting parts at any of its targets (crate::indirect).
    let indirect = ctx
        .kernel
        .instructions
        .iter()
        .any(|i| i.control == ControlKind::Indirect);
    if !ctx.barriers || indirect {
        return Vec::new();
    }
    let pc = ctx.blocks.blocks[block].first;
    let conditional = |ins: &Instruction| ins.guard.as_ref().is_some_and(|g| !g.is_always_true());
    let forward_wait = pc.checked_sub(1).is_some_and(|i| {
        let ins = &ctx.kernel.instructions[i];
        conditional(ins)
            && match ins.control {
                ControlKind::Branch(t) => t
                    .and_then(|t| ctx.kernel.index_of(t))
                    .is_none_or(|t| t > i && t != pc),
                ControlKind::Call(_) | ControlKind::Indirect => true,
                _ => false,
            }
    });
    if forward_wait {
        return Vec::new();
    }
    ctx.blocks
        .blocks
        .iter()
        .filter(|b| {
            let ins = &ctx.kernel.instructions[b.last];
            conditional(ins)
                && matches!(ins.control, ControlKind::Branch(Some(t))
                    if ctx.kernel.index_of(t) == Some(pc) && pc <= b.last)
        })
        .map(|b| Some((b.id, ctx.block_at.get(b.last + 1).copied().flatten()?)))
        .collect::<Option<Vec<_>>>()
        .unwrap_or_default()
}
