//! The one cycle loop of the simulator (issue #21): block dispatch, warp scheduling and the
//! choice of the next cycle, run for SASS, PTX and GCN3 alike; what a dialect does when a
//! warp issues comes from its [`FrontEnd`].
//!
//! Timing model, per cycle `t` (the front ends apply it with [`Sm`]'s helpers):
//! - a warp can issue its next instruction when `t` is at least its next issue slot, every
//!   register the instruction reads or writes (guard included) has been written back
//!   (scoreboard: RAW and WAW), its timing class accepted the warp's previous instruction of
//!   that class at least `interval` cycles ago, and a lane of the instruction's unit is free;
//! - the scheduler ([`crate::scheduler`]) orders the candidates and up to `issue_width` of
//!   them issue;
//! - an instruction on a unit with `σ` lanes and `k` cycles per warp-instruction (the sigma
//!   transformation, Berezovskyi et al. §3) occupies one lane for `t..t+k`; the warp's next
//!   issue slot is `t + k`; its result is written back at `t + k - 1 + latency`, where a
//!   memory instruction's latency is the class latency (or the L1 hit latency when every
//!   segment of a load hits) plus `transaction_cycles` per segment after the first
//!   ([`memory_access`]);
//! - the run's observed cycles are the latest write-back. With all latencies 1 and `k = 1`
//!   a lone warp issues one instruction per cycle, so cycles = issued instructions.
//!
//! Warps that cannot issue before their wake-up cycle (`WarpSched::wake`) are skipped,
//! and a cycle in which nothing issues jumps to the soonest wake-up of any resident warp.

pub(crate) mod loop_watch;
pub(crate) mod memory_access;
pub(crate) mod sm;

use crate::budget::Budget;
use crate::error::SimError;
use crate::launch::Launch;
use crate::machine::Machine;
use crate::machine::Scheduler;
use crate::memory::MemoryInit;
use crate::scheduler;
pub(crate) use crate::timing_facts::Timing;
use isa::progress::Observer;
pub(crate) use memory_access::Access;
pub(crate) use sm::{Block, IssuedAt, Nouns, Shape, Sm, StepAt, CUDA};

/// What a run simulates on: the launch, the machine, global memory's initial contents and
/// the budget (every front end's `run` takes it), and who is told how far it got.
#[derive(Clone, Copy)]
pub(crate) struct Request<'a> {
    pub launch: &'a Launch,
    pub machine: &'a Machine,
    pub memory: &'a MemoryInit,
    pub budget: &'a Budget,
    /// Told every [`REPORT_EVERY`] warp-instructions how far the run is.
    pub observer: Observer<'a>,
}

impl<'a> Request<'a> {
    /// The request of one public entry point (`crate::run_observed`, `run_ptx_in_module`,
    /// `gcn::run_source_observed`, …), its parameters in their order.
    pub(crate) fn new(
        launch: &'a Launch,
        machine: &'a Machine,
        memory: &'a MemoryInit,
        budget: &'a Budget,
        observer: Observer<'a>,
    ) -> Self {
        Request {
            launch,
            machine,
            memory,
            budget,
            observer,
        }
    }
}

/// Warp-instructions issued between two progress reports (about a hundredth of a second).
pub(crate) const REPORT_EVERY: u64 = 1 << 16;

/// What a dialect supplies to the cycle loop: its warps' dialect state (registers, stack),
/// dispatching them, and issuing one warp's next instruction (decode, scoreboard, semantics
/// for the active lanes, branches and reconvergence).
///
/// A trait, not data, because three real implementations exist — SASS (activation stack),
/// PTX (post-dominator stack over virtual registers) and GCN3 (exec masks, `s_waitcnt`
/// counters, split-wavefronts) — whose per-issue work shares no representation; everything
/// they share (scheduling, lanes, memory, budgets, the trace) is plain data in [`Sm`].
pub(crate) trait FrontEnd {
    /// After a cycle in which an instruction issued, go on with the next cycle, and without
    /// an issue jump to the soonest [`FrontEnd::soonest`] of every resident warp (GCN3:
    /// splits and merges change other waves' state). Otherwise a cycle with an issue also
    /// jumps, and pure round-robin waits for the warp whose turn it is.
    const CYCLE_AFTER_ISSUE: bool = false;

    /// Creates the warps of block `b` (the `blocks`-th resident block) at `cycle`.
    fn dispatch_block(&mut self, sm: &mut Sm, b: u64, cycle: u64);

    /// Warp `w` waits (finished, at a barrier, at a merge): not a candidate.
    fn waiting(&self, sm: &Sm, w: usize) -> bool {
        let s = &sm.warps[w];
        s.done || s.at_barrier
    }

    /// Warp `w` has an issue slot of its own (not counted against `issue_width`).
    fn own_slot(&self, _w: usize) -> bool {
        false
    }

    /// Issues warp `w`'s next instruction at `cycle` if it can; `Ok(false)` if it must wait.
    fn issue(&mut self, sm: &mut Sm, w: usize, cycle: u64) -> Result<bool, SimError>;

    /// After warp `w` issued in the scheduler's pass.
    fn after_issue(&mut self, _sm: &mut Sm, _w: usize) {}

    /// Warp `w`'s next instruction, when it has one that decodes: its timing facts and the
    /// cycle the registers it reads or writes are written back (the default `earliest`).
    fn pending(&self, _w: usize) -> Option<(&Timing, u64)> {
        None
    }

    /// The wake-up cycle of warp `w` after it failed to issue (a lower bound).
    fn earliest(&self, sm: &Sm, w: usize) -> u64 {
        match self.pending(w) {
            Some((st, registers)) => sm.issue_bound(w, st, registers),
            None => sm.warps[w].next_issue,
        }
    }

    /// A lower bound on warp `w`'s next issue, for the jump to the next cycle.
    fn soonest(&self, sm: &Sm, w: usize) -> u64 {
        sm.warps[w].wake
    }

    /// A warp woken during this cycle that may still issue in it (`round` counts them).
    fn next_woken(&mut self, _sm: &Sm, _round: usize) -> Option<usize> {
        None
    }

    /// The error when every resident warp waits at `cycle`.
    fn deadlock(&self, _sm: &Sm, cycle: u64) -> SimError {
        SimError::request(format!(
            "deadlock at cycle {cycle}: every resident warp waits at a barrier"
        ))
    }
}

/// Runs `fe` on `sm` until every block has run. Several SMs ([`crate::Gpu`]) take their
/// turns within each cycle, in index order, each with its own warps, lanes and scheduler
/// ([`Sm::switch_to`]); the next cycle is the soonest any SM can use.
pub(crate) fn run<F: FrontEnd>(fe: &mut F, sm: &mut Sm) -> Result<(), SimError> {
    let mut order = Vec::new();
    let mut live = Vec::new();
    let mut cycle = 0u64;
    let pure = sm.machine.scheduler == Scheduler::PureRoundRobin;
    let sms = sm.sms();
    loop {
        dispatch(fe, sm, cycle);
        if sm.unfinished == 0 && sm.next_block >= sm.shape.blocks_total {
            return Ok(());
        }
        // One comparison per simulated cycle; the report itself every `REPORT_EVERY` issues.
        if sm.issued >= sm.next_report {
            sm.report(cycle);
        }
        if cycle > sm.budget.max_cycles {
            return Err(SimError::budget(
                "max_cycles",
                sm.budget.max_cycles,
                &format!("cycle {cycle}"),
            ));
        }
        // One call site of the SM's cycle, so that it is inlined once.
        let mut next = u64::MAX;
        for s in 0..sms {
            if sms > 1 {
                sm.switch_to(s);
                // An SM without warps has nothing to do until the dispatcher gives it one.
                if sm.resident_list.is_empty() {
                    continue;
                }
            }
            next = next.min(sm_cycle(fe, sm, cycle, pure, (&mut live, &mut order))?);
        }
        cycle = if next == u64::MAX { cycle + 1 } else { next };
    }
}

/// One cycle of the current SM: its candidates issue; returns the next cycle it may issue
/// in (the loop of one SM before issue #41).
#[inline(always)]
fn sm_cycle<F: FrontEnd>(
    fe: &mut F,
    sm: &mut Sm,
    cycle: u64,
    pure: bool,
    (live, order): (&mut Vec<usize>, &mut Vec<usize>),
) -> Result<u64, SimError> {
    live.clear();
    live.extend(
        sm.resident_list
            .iter()
            .copied()
            .filter(|&w| !fe.waiting(sm, w)),
    );
    scheduler::order(
        sm.machine.scheduler,
        live,
        sm.last_issued,
        sm.turn,
        cycle,
        order,
    );
    if order.is_empty() {
        return Err(fe.deadlock(sm, cycle));
    }
    let mut issued = 0u32;
    let mut any = false;
    // Whether a warp tried to issue in this cycle: before that, no candidate has started
    // waiting since `live` was drawn up.
    let mut tried = false;
    for &w in order.iter() {
        // Once the issue width is reached only warps with a slot of their own may issue.
        let full = issued >= sm.machine.issue_width;
        if full && !fe.own_slot(w) {
            continue;
        }
        if tried && fe.waiting(sm, w) {
            continue;
        }
        if sm.warps[w].wake > cycle {
            if pure {
                break;
            }
            continue;
        }
        tried = true;
        if fe.issue(sm, w, cycle)? {
            any = true;
            if !full && !fe.own_slot(w) {
                issued += 1;
            }
            fe.after_issue(sm, w);
            sm.last_issued = Some(w);
            if pure {
                sm.turn = w + 1;
            }
        } else {
            sm.warps[w].wake = fe.earliest(sm, w);
            if pure {
                break;
            }
        }
    }
    let mut round = 0usize;
    while let Some(w) = fe.next_woken(sm, round) {
        round += 1;
        let own_slot = fe.own_slot(w);
        if (issued >= sm.machine.issue_width && !own_slot) || fe.waiting(sm, w) {
            continue;
        }
        if fe.issue(sm, w, cycle)? {
            any = true;
            if !own_slot {
                issued += 1;
            }
        }
    }
    Ok(if F::CYCLE_AFTER_ISSUE {
        if any {
            cycle + 1
        } else {
            // Every wave that may issue, not just this cycle's candidates: a parent
            // released from a merge during this cycle was not among them.
            sm.resident_list
                .iter()
                .copied()
                .filter(|&w| !fe.waiting(sm, w))
                .map(|w| fe.soonest(sm, w))
                .min()
                .unwrap_or(cycle + 1)
                .max(cycle + 1)
        }
    } else if (issued > 0 && pure) || std::mem::take(&mut sm.block_freed) {
        // A freed block slot is filled at the next cycle's dispatch.
        cycle + 1
    } else {
        // Jump to the soonest wake-up cycle (a lower bound on the next issue) of every
        // resident warp — not just this cycle's candidates: a warp released from a
        // barrier during this cycle was not among them. Warps record it after issuing
        // and after failing to; one not offered a slot (issue width reached) still has a
        // wake-up cycle ≤ this one, which keeps the next cycle at `cycle + 1`. Pure
        // round-robin waits for the warp whose turn it is.
        let soonest = if pure {
            order
                .iter()
                .find(|&&w| !fe.waiting(sm, w))
                .map(|&w| fe.soonest(sm, w))
        } else {
            sm.resident_list
                .iter()
                .filter(|&&w| !fe.waiting(sm, w))
                .map(|&w| fe.soonest(sm, w))
                .min()
        };
        soonest.unwrap_or(cycle + 1).max(cycle + 1)
    })
}

/// When every scoreboard slot of `slots` is written back (`ready`: per slot).
#[inline(always)]
pub(crate) fn written_back(ready: &[u64], slots: impl Iterator<Item = usize>) -> u64 {
    let mut t = 0;
    for s in slots {
        t = t.max(ready.get(s).copied().unwrap_or(0));
    }
    t
}

/// Warp `w` issued at `cycle` an instruction that occupies its lane `k` cycles and is
/// written back at `complete`: the warp's wake-up cycle. Without it the warp is offered the
/// next cycle's slot and usually fails (it depends on what it just issued): a wasted turn of
/// the loop per issue on long-latency machines. [`FrontEnd::earliest`] is only worth its
/// cost when the result comes after the next issue slot; otherwise that slot is the bound.
#[inline]
pub(crate) fn wake_after<F: FrontEnd>(
    fe: &F,
    sm: &mut Sm,
    w: usize,
    cycle: u64,
    k: u64,
    complete: u64,
) {
    sm.warps[w].wake = if complete > cycle + k {
        fe.earliest(sm, w)
    } else {
        cycle + k
    };
}

/// Dispatches every block that fits: on one SM while its warps (and blocks, with
/// `Gpu::blocks_per_sm`) fit; on several, each next block to the SM where it fits holding
/// the fewest blocks, ties to the lowest index ([`crate::gpu`]).
fn dispatch<F: FrontEnd>(fe: &mut F, sm: &mut Sm, cycle: u64) {
    let per_block = sm.shape.warps_per_block;
    let warps = u64::from(sm.machine.warps_per_sm);
    let blocks = match sm.launch.gpu.blocks_per_sm {
        0 => u64::MAX,
        b => u64::from(b),
    };
    let fits = |(w, b): (u64, u64)| w + per_block <= warps && b < blocks;
    if sm.parked.is_empty() {
        while sm.next_block < sm.shape.blocks_total && fits((sm.resident, sm.resident_blocks)) {
            place(fe, sm, cycle);
        }
        return;
    }
    while sm.next_block < sm.shape.blocks_total {
        let Some(s) = (0..sm.parked.len())
            .map(|s| (s, sm.load_of(s)))
            .filter(|&(_, load)| fits(load))
            .min_by_key(|&(s, (_, b))| (b, s))
            .map(|(s, _)| s)
        else {
            return;
        };
        sm.switch_to(s);
        sm.block_sms.push(s as u32);
        place(fe, sm, cycle);
    }
}

/// The next block onto the current SM.
#[inline]
fn place<F: FrontEnd>(fe: &mut F, sm: &mut Sm, cycle: u64) {
    let b = sm.next_block;
    sm.next_block += 1;
    fe.dispatch_block(sm, b, cycle);
    sm.resident += sm.shape.warps_per_block;
    sm.resident_blocks += 1;
}
