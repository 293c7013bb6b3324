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

use crate::barriers::on_convergence;
use crate::concrete::{mix, Warp};
use isa::{BlockGraph, ControlKind, Kernel};
use std::collections::HashMap;

/// Which runnable group issues the next instruction. Every choice is one the hardware may
/// make under ITS (module doc), so a property that holds for one must hold for all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheduler {
    /// The most recently created or released group, a deterministic depth-first order close to
    /// [`crate::concrete`]'s stack order: at a divergent forward branch the taken group is the
    /// newer, at a divergent backward branch the one that leaves the loop (as
    /// [`crate::activation_stack::Rules::leaving_first`]).
    Newest,
    /// One instruction of each runnable group in turn, oldest first: the finest interleaving.
    RoundRobin,
    /// Any runnable group, chosen pseudo-randomly at every instruction from the seed.
    Random(u64),
}

/// What a group waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wait {
    /// At a `BSYNC Bn`, for the other threads of `Bn`.
    Bsync(u8),
    /// At a full-warp `WARPSYNC`, for every thread of the warp.
    WarpSync,
}

/// A group of threads of the warp that issue together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub mask: u64,
    /// The next instruction (index), or the waiting instruction while `waiting` is set.
    pub pc: usize,
    /// Return points (instruction indices), innermost last.
    pub calls: Vec<usize>,
    pub waiting: Option<Wait>,
    /// When the group was created or released, for [`Scheduler::Newest`] and
    /// [`Scheduler::RoundRobin`].
    born: u64,
}

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

/// An event after which a schedule may issue other (instruction, mask) pairs than the stack
/// order of [`crate::concrete`] (module doc, "Where the orders differ"). A run without any
/// issues the same pairs as the stack order (checked by `tests/interleaving.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Departure {
    /// A release whose waiters went on as several groups, at these instructions (or with
    /// different call stacks): full-warp `WARPSYNC`s at different instructions match each
    /// other, so paths the stack order rejoins at one of them go on apart.
    ScatteredRelease { wait: Wait, pcs: Vec<usize> },
    /// A `BSSY Bn` at `pc` added its group to `Bn` while `Bn` still recorded other live
    /// threads: two groups that diverged without reconverging share one region instance, and
    /// its `BSYNC` may merge them (the stack order gives each group its own barrier entry).
    SharedBarrier { barrier: u8, pc: usize },
    /// `BRA.DIV`/`BRA.CONV` at `pc` evaluated while another group could still run, or after
    /// some threads exited: whether the warp is diverged there depends on how far the other
    /// groups got — has a group that exits exited yet? The stack order may run it before or
    /// after the test (e.g. callers of a predicated call test while the others wait in the
    /// stack order, and after the others exited under ITS).
    ConvergenceTest { pc: usize },
    /// A full-warp `WARPSYNC` at `pc` released as one group threads that arrived in several
    /// groups. The stack order rejoins paths there only when they diverged with no region open
    /// ([`crate::barriers`], "Full-warp WARPSYNC"); otherwise it runs each on alone, which
    /// issues more.
    WarpSyncJoin { pc: usize },
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

struct Its<'a> {
    warp: Warp<'a>,
    groups: Vec<Group>,
    barriers: [u64; 16],
    exited: u64,
    full: u64,
    clock: u64,
    rng: u64,
    last: u64,
    departures: Vec<Departure>,
}

impl Its<'_> {
    fn live(&self) -> u64 {
        self.full & !self.exited
    }

    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    fn spawn(&mut self, mask: u64, pc: usize, calls: Vec<usize>) {
        let born = self.tick();
        self.groups.push(Group {
            mask,
            pc,
            calls,
            waiting: None,
            born,
        });
    }

    fn waiting_mask(&self, w: Wait) -> u64 {
        self.groups
            .iter()
            .filter(|g| g.waiting == Some(w))
            .fold(0, |m, g| m | g.mask)
    }

    /// Releases the waiters of `w` if nobody they wait for is missing; whether it did.
    fn try_release(&mut self, w: Wait) -> bool {
        let waiting = self.waiting_mask(w);
        if waiting == 0 {
            return false;
        }
        let needed = match w {
            Wait::Bsync(b) => self.barriers[b as usize],
            Wait::WarpSync => self.full,
        } & self.live();
        if needed & !waiting != 0 {
            return false;
        }
        if let Wait::Bsync(b) = w {
            self.barriers[b as usize] = 0;
        }
        // The waiters at one instruction with one call stack leave as one group.
        let mut released: Vec<Group> = Vec::new();
        let mut k = 0;
        while k < self.groups.len() {
            if self.groups[k].waiting == Some(w) {
                let g = self.groups.remove(k);
                match released
                    .iter_mut()
                    .find(|r| r.pc == g.pc + 1 && r.calls == g.calls)
                {
                    Some(r) => {
                        r.mask |= g.mask;
                        if w == Wait::WarpSync {
                            self.departures.push(Departure::WarpSyncJoin { pc: g.pc });
                        }
                    }
                    None => released.push(Group {
                        pc: g.pc + 1,
                        waiting: None,
                        ..g
                    }),
                }
            } else {
                k += 1;
            }
        }
        if released.len() > 1 {
            let pcs = released.iter().map(|r| r.pc - 1).collect();
            self.departures
                .push(Departure::ScatteredRelease { wait: w, pcs });
        }
        for mut r in released {
            r.born = self.tick();
            self.groups.push(r);
        }
        true
    }

    fn release_all(&mut self) {
        for b in 0..16u8 {
            self.try_release(Wait::Bsync(b));
        }
        self.try_release(Wait::WarpSync);
    }

    fn diverged(&self) -> bool {
        let live = self.live();
        !self.groups.iter().any(|g| g.mask == live)
    }

    fn choose(&mut self, scheduler: Scheduler) -> usize {
        let runnable: Vec<usize> = (0..self.groups.len())
            .filter(|&i| self.groups[i].waiting.is_none())
            .collect();
        let pick = match scheduler {
            Scheduler::Newest => *runnable
                .iter()
                .max_by_key(|&&i| self.groups[i].born)
                .expect("runnable"),
            Scheduler::RoundRobin => {
                let after = runnable
                    .iter()
                    .filter(|&&i| self.groups[i].born > self.last)
                    .min_by_key(|&&i| self.groups[i].born);
                *after
                    .or_else(|| runnable.iter().min_by_key(|&&i| self.groups[i].born))
                    .expect("runnable")
            }
            Scheduler::Random(_) => {
                self.rng = mix(self.rng);
                runnable[(self.rng % runnable.len() as u64) as usize]
            }
        };
        self.last = self.groups[pick].born;
        pick
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
    let mut s = Its {
        warp: Warp {
            kernel,
            threads,
            regs: vec![HashMap::new(); threads],
            constant: vec![Default::default(); threads],
            seed,
        },
        groups: Vec::new(),
        barriers: [0; 16],
        exited: 0,
        full,
        clock: 0,
        rng: match scheduler {
            Scheduler::Random(r) => r,
            _ => 0,
        },
        last: 0,
        departures: Vec::new(),
    };
    s.spawn(full, 0, Vec::new());
    let mut issues = Vec::new();
    let mut visits = Vec::new();
    let end = |issues, visits, s: Its, outcome| Trace {
        issues,
        visits,
        departures: s.departures,
        outcome,
    };
    loop {
        if s.live() == 0 {
            return end(issues, visits, s, Outcome::Finished);
        }
        if s.groups.iter().all(|g| g.waiting.is_some()) {
            let waiting = s.groups.clone();
            return end(issues, visits, s, Outcome::Deadlock(waiting));
        }
        if issues.len() >= max_steps {
            return end(issues, visits, s, Outcome::StepLimit);
        }
        let gi = s.choose(scheduler);
        let Group {
            mask, pc, calls, ..
        } = s.groups[gi].clone();
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
        s.warp.execute(pc, ins, mask);
        let next = pc + 1;
        let guarded = s.warp.guard_mask(mask, ins);
        let resolve = |t: Option<u64>| t.and_then(|a| kernel.index_of(a));
        let unsupported = |why: String| Outcome::Unsupported(format!("{why} at {pc}"));
        match ins.control {
            ControlKind::Fallthrough | ControlKind::Barrier | ControlKind::Call(None) => {
                s.groups[gi].pc = next;
            }
            ControlKind::Bssy { barrier, .. } => {
                let b = barrier & 15;
                if s.barriers[b as usize] & s.live() & !mask != 0 {
                    s.departures
                        .push(Departure::SharedBarrier { barrier: b, pc });
                }
                s.barriers[b as usize] |= mask;
                s.groups[gi].pc = next;
            }
            ControlKind::Branch(t) => {
                let Some(t) = resolve(t) else {
                    return end(issues, visits, s, unsupported("unresolved target".into()));
                };
                let mut taken = guarded;
                if ins.guard.is_none() && on_convergence(ins) {
                    let others_run = s
                        .groups
                        .iter()
                        .enumerate()
                        .any(|(i, g)| i != gi && g.waiting.is_none());
                    if others_run || s.exited != 0 {
                        s.departures.push(Departure::ConvergenceTest { pc });
                    }
                    if s.diverged() != ins.opcode.has_modifier("DIV") {
                        taken = 0;
                    }
                }
                if taken != mask && ins.opcode.has_modifier("U") {
                    taken = 0;
                }
                if taken == mask {
                    s.groups[gi].pc = t;
                } else if taken == 0 {
                    s.groups[gi].pc = next;
                } else if t <= pc {
                    // Backward: the looping group waits, the leaving one is the newer.
                    s.groups[gi].mask = taken;
                    s.groups[gi].pc = t;
                    s.spawn(mask & !taken, next, calls);
                } else {
                    s.groups[gi].mask = mask & !taken;
                    s.groups[gi].pc = next;
                    s.spawn(taken, t, calls);
                }
            }
            ControlKind::Bsync { barrier } => {
                let b = barrier & 15;
                if guarded != mask {
                    s.groups[gi].mask = mask & !guarded;
                    s.groups[gi].pc = next;
                    if guarded != 0 {
                        s.spawn(guarded, pc, calls);
                        let last = s.groups.len() - 1;
                        s.groups[last].waiting = Some(Wait::Bsync(b));
                    }
                } else {
                    s.groups[gi].waiting = Some(Wait::Bsync(b));
                }
                s.try_release(Wait::Bsync(b));
            }
            ControlKind::Break { barrier } => {
                let b = barrier & 15;
                s.barriers[b as usize] &= !guarded;
                s.groups[gi].pc = next;
                s.try_release(Wait::Bsync(b));
            }
            ControlKind::WarpSync => {
                s.groups[gi].waiting = Some(Wait::WarpSync);
                s.try_release(Wait::WarpSync);
            }
            ControlKind::Exit => {
                s.exited |= guarded;
                if guarded == mask {
                    s.groups.remove(gi);
                } else {
                    s.groups[gi].mask = mask & !guarded;
                    s.groups[gi].pc = next;
                }
                s.release_all();
            }
            ControlKind::Call(Some(t)) => {
                let Some(t) = resolve(Some(t)) else {
                    return end(issues, visits, s, unsupported("unresolved target".into()));
                };
                if guarded == 0 {
                    s.groups[gi].pc = next;
                } else {
                    if guarded != mask {
                        s.spawn(mask & !guarded, next, calls);
                    }
                    // The callers are the newer group, as in the stack order.
                    let born = s.tick();
                    let g = &mut s.groups[gi];
                    g.mask = guarded;
                    g.pc = t;
                    g.calls.push(next);
                    g.born = born;
                }
            }
            ControlKind::Ret => {
                if guarded == 0 {
                    s.groups[gi].pc = next;
                } else {
                    let mut back = calls.clone();
                    let Some(r) = back.pop() else {
                        return end(issues, visits, s, unsupported("RET outside a call".into()));
                    };
                    if guarded != mask {
                        s.groups[gi].mask = mask & !guarded;
                        s.groups[gi].pc = next;
                        s.spawn(guarded, r, back);
                    } else {
                        s.groups[gi].pc = r;
                        s.groups[gi].calls = back;
                    }
                }
            }
            ControlKind::Indirect => {
                let why = format!("indirect branch `{}`", ins.opcode.name);
                return end(issues, visits, s, unsupported(why));
            }
            ControlKind::Ssy(_)
            | ControlKind::Pbk(_)
            | ControlKind::Pcnt(_)
            | ControlKind::Pret(_)
            | ControlKind::Sync
            | ControlKind::Brk
            | ControlKind::Cont => {
                let why = format!("Fermi–Pascal stack instruction `{}`", ins.opcode.name);
                return end(issues, visits, s, unsupported(why));
            }
        }
    }
}
