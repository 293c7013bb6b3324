//! A concrete executor of convergence-barrier code under *independent thread scheduling*
//! (ITS): it runs a warp as a set of thread groups that the hardware may interleave at any
//! instruction, with a pluggable [`Scheduler`] choosing which group issues next. It is the
//! oracle for the claim of [`crate::barriers`] ("The scheduling assumption, and why the bound
//! holds for every interleaving"): [`crate::concrete`] follows one schedule (stack order); this
//! module runs the others, so a test can check that they issue the same (instruction, mask)
//! pairs, or at least no more than the warp-level CFG bounds.
//!
//! # The rules
//! Volta made every thread carry its own program counter and let the scheduler "yield
//! execution of any thread" and interleave the paths of a diverged warp (NVIDIA Tesla V100
//! whitepaper, 2017, §"Independent Thread Scheduling"); threads of one warp that run the same
//! instruction at the same time issue it once, as one group. Reconvergence is explicit, with
//! the convergence-barrier opcodes listed by Jia, Maggioni, Staiger, Scarpazza, *Dissecting the
//! NVIDIA Volta GPU Architecture via Microbenchmarking* (2018), and with `WARPSYNC`, the SASS of
//! PTX `bar.warp.sync` / CUDA `__syncwarp(mask)`, whose contract is that each thread waits until
//! every non-exited thread of `mask` executed a `bar.warp.sync` with the same mask (PTX ISA,
//! "bar.warp.sync"; only for sm_6x and below must all threads "execute the same
//! `__syncwarp()` in convergence", CUDA C++ Programming Guide 9.0, "Synchronization
//! Functions", so on sm_70 and later the matching calls need not be the same instruction).
//! NVIDIA's debugger API describes the same state per warp: sixteen "convergence barrier
//! participation masks" and an "exited threads mask" (`CUDBGCbuWarpState`, CUDA debugger API).
//! The state is a set of groups `{mask, pc, call stack, waiting}`, the barrier registers
//! `B0..B15` (thread masks) and the set of exited threads. One step issues one instruction of
//! one runnable (not waiting) group:
//! - an ordinary instruction (also `BAR`, calls out of the listing, a partial `WARPSYNC`):
//!   the group goes on at the next instruction;
//! - `BSSY Bn, target`: the group's threads are added to `Bn` (`Bn |= mask`; a released
//!   barrier is emptied, so a region re-entered records exactly its new threads);
//! - `BRA t` whose guard splits the group: two groups, the taken threads at `t` and the others
//!   at the next instruction, each continuing independently. `BRA.U` never splits (as in
//!   [`crate::activation_stack`]); unguarded `BRA.DIV` / `BRA.CONV` is taken by the whole group
//!   when the warp is (is not) diverged, *diverged* meaning that no single group holds all
//!   threads that have not exited ([`crate::barriers::on_convergence`]);
//! - `BSYNC Bn`: the executing threads wait; once every thread recorded in `Bn` that has not
//!   exited waits at some `BSYNC Bn`, all threads waiting at a `BSYNC Bn` are released, `Bn`
//!   is emptied, and the waiters at one instruction (with one call stack) continue as ONE group
//!   at the next instruction (in every `BSSY Bn, target` of the sm_70–sm_90 corpus the target
//!   is that instruction). Guarded-off threads go on at the next instruction without waiting;
//! - `BREAK Bn`: the executing (guard-true) threads leave `Bn`, the group goes on at the next
//!   instruction, and `Bn`'s waiters are released if they are now complete;
//! - full-warp `WARPSYNC` ([`isa::ControlKind::WarpSync`]: `WARPSYNC.ALL`,
//!   `WARPSYNC 0xffffffff`): the executing threads wait until every non-exited thread of the
//!   warp waits at *a* full-warp `WARPSYNC`; then each waiting group goes on at its next
//!   instruction, the waiters at one instruction merged into one group. Threads that never get
//!   there (they wait at a `BSYNC` instead) break the contract of `__syncwarp`; here the warp
//!   deadlocks;
//! - `EXIT` (guarded or not): the executing threads exit; waiters of any barrier or `WARPSYNC`
//!   whose missing threads all exited are released;
//! - `CALL t` pushes the return point on the calling threads' call stack (a guarded call splits
//!   the callers from the others, who go on at the next instruction) and `RET` pops it (a
//!   guarded return splits likewise). A `RET` with an empty call stack is unsupported.
//!
//! Groups never merge except when released together at a `BSYNC` or `WARPSYNC`. Real hardware
//! may also merge groups that happen to reach the same instruction (the whitepaper's "schedule
//! optimizer"), which only lowers the number of issues, so never merging is the worst case for
//! an issue count.
//!
//! Refused (an [`Outcome::Unsupported`]): the Fermi–Pascal stack (`SSY`/`SYNC`/`PBK`/`BRK`/
//! `PCNT`/`CONT`/`PRET`: [`crate::concrete`]'s domain), indirect branches (`BRX`/`JMX`), a
//! `RET` with no call to return from, unresolved branch or call targets, and running past the
//! last instruction.
//!
//! Ordinary instructions here, although the hardware may do more: `BMOV` (the save and
//! restore of a barrier register around a call; a callee's barriers are simply other
//! registers), `BAR.SYNC` (on Volta it waits per thread for the other threads of the block;
//! the executor runs one warp, and a diverged `BAR.SYNC` is not modelled), `YIELD`, `WARPSYNC`
//! with a partial or register mask and the `.COLLECTIVE` forms (no waiting: a group that
//! would have waited runs on alone). `BSSY`'s target is not used: the release resumes after
//! the `BSYNC`, which is the target in every `BSSY` of the sm_70–sm_90 corpus.
//!
//! # Where the orders differ
//! The claim of [`crate::barriers`] is that every interleaving issues the stack order's
//! (group, instruction) pairs. It holds exactly when every divergence reconverges at a `BSYNC`
//! (`tests/interleaving.rs`, `every_interleaving_issues_the_stack_order_pairs`), and a run
//! reports in [`Trace::departures`] each event after which it may not:
//! - [`Departure::ScatteredRelease`] of a full-warp `WARPSYNC`: the two paths of
//!   `if (p) { __syncwarp(); … } __syncwarp();` match each other's `WARPSYNC` and go on apart
//!   for good, where the stack order runs the first path on alone and rejoins the warp at the
//!   second: *more* issues than the stack order, and than the warp-level CFG bound (the
//!   facade's `tests/interleaving_bounds.rs`, `known_gap_mismatched_warpsyncs_exceed_the_bound`:
//!   11 against 9);
//! - [`Departure::ConvergenceTest`]: `BRA.DIV` after the other path exited or not; other
//!   pairs, possibly more of them, but the warp-level CFG keeps both sides of `BRA.DIV`;
//! - [`Departure::WarpSyncJoin`], [`Departure::SharedBarrier`]: groups the stack order keeps
//!   apart are released together (a `WARPSYNC` inside a region, a region entered by two groups
//!   that diverged without reconverging): fewer issues;
//! - a [`Outcome::Deadlock`]: a full-warp `WARPSYNC` that threads waiting at a `BSYNC` never
//!   reach (the stack order lets the `WARPSYNC` side run on alone).
//!
//! Whether `BSSY` adds to the barrier (`Bn |= mask`, as here) or overwrites it only matters in
//! the [`Departure::SharedBarrier`] case; the hardware's choice is not documented.
//!
//! Data are those of [`crate::concrete`]: a value is a deterministic function of the
//! instruction and its inputs (and of the executing mask for `VOTE`), memory a fixed function
//! of the address. So each thread's path depends on its own values only — except where an
//! instruction observes the others: `BRA.DIV`/`BRA.CONV` and `VOTE` (and the barriers, which
//! only delay). A schedule changes nothing else.

use crate::concrete::Warp;
pub use crate::thread_groups::{Departure, Group, Scheduler, ThreadGroups, Wait};
use isa::{BlockGraph, Kernel};
use std::collections::HashMap;

/// One issued instruction: its index and the threads that issued it (the group's mask, guard
/// included: a guarded-off thread still occupies the issue slot).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Issue {
    pub pc: usize,
    pub mask: u64,
}

/// A group entering a basic block (issuing the block's first instruction), as
/// [`crate::concrete::BlockVisit`] without the stack, which ITS does not have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Visit {
    pub block: usize,
    pub active: u64,
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Every thread exited.
    Finished,
    /// More issues than allowed.
    StepLimit,
    /// Every remaining group waits and nothing can release them (e.g. a `WARPSYNC` inside a
    /// region that other threads of the warp left for its `BSYNC`): the groups, waiting.
    Deadlock(Vec<Group>),
    /// An instruction or situation the executor does not model (module doc).
    Unsupported(String),
}

/// One execution under one schedule.
#[derive(Debug, Clone)]
pub struct Trace {
    /// Every issued instruction, in issue order.
    pub issues: Vec<Issue>,
    /// Every block entry, in issue order.
    pub visits: Vec<Visit>,
    /// The departures from the stack order's assumptions, in order.
    pub departures: Vec<Departure>,
    pub outcome: Outcome,
}

impl Trace {
    /// The issues as a multiset: how many times each (instruction, mask) pair issued. Equal
    /// multisets mean equal unit-cost sums under any per-instruction cost.
    pub fn issue_counts(&self) -> HashMap<Issue, usize> {
        let mut m = HashMap::new();
        for i in &self.issues {
            *m.entry(*i).or_insert(0) += 1;
        }
        m
    }
}

/// Runs `kernel` for a warp of `threads` threads (1..=64), all at instruction 0, data from
/// `seed` exactly as [`crate::concrete::run`] with the same seed, the interleaving chosen by
/// `scheduler`, for at most `max_steps` issues.
pub fn run(
    kernel: &Kernel,
    blocks: &BlockGraph,
    threads: usize,
    seed: u64,
    scheduler: Scheduler,
    max_steps: usize,
) -> Trace {
    let (threads, full) = crate::concrete::warp_of(threads);
    let block_at = crate::concrete::block_starts(kernel, blocks);
    let mut warp = Warp::new(kernel, threads, seed);
    let mut s = ThreadGroups::new(full, scheduler);
    let mut issues = Vec::new();
    let mut visits = Vec::new();
    let end = |issues, visits, mut s: ThreadGroups, outcome| Trace {
        issues,
        visits,
        departures: s.take_departures(),
        outcome,
    };
    loop {
        if s.finished() {
            return end(issues, visits, s, Outcome::Finished);
        }
        if issues.len() >= max_steps && !s.deadlocked() {
            return end(issues, visits, s, Outcome::StepLimit);
        }
        let Some(gi) = s.choose() else {
            let waiting = s.groups().to_vec();
            return end(issues, visits, s, Outcome::Deadlock(waiting));
        };
        let Group { mask, pc, .. } = s.groups()[gi].clone();
        let Some(ins) = kernel.instructions.get(pc) else {
            return end(
                issues,
                visits,
                s,
                Outcome::Unsupported("fell off the end".into()),
            );
        };
        issues.push(Issue { pc, mask });
        if let Some(b) = block_at[pc] {
            visits.push(Visit {
                block: b,
                active: mask,
            });
        }
        warp.execute(pc, ins, mask);
        let guarded = warp.guard_mask(mask, ins);
        if let Err(why) = s.step(kernel, gi, guarded) {
            return end(issues, visits, s, Outcome::Unsupported(why));
        }
    }
}
