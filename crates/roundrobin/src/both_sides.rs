//! Branches, exits and loops that depend on data the analyzer does not know, paid for in
//! the worst case ([`crate::config::UnknownData::Pessimistic`]): an extension of the warp
//! execution trace of Huangfu §5.3.3.1 (Alg. 4), which requires input-independent branches
//! (§4.4.6.1: "GPU kernels with input-dependent branches and input-dependent data references
//! cannot be analyzed").
//!
//! # The rule
//!
//! At a guarded `bra` whose guard is unknown for the active threads `U` (known taken `T`,
//! known not taken `N`), both outcomes are possible for every thread of `U`, and the warp may
//! diverge. The analyzer runs Alg. 4's divergent case with `U` on *both* sides: the taken
//! side with `T ∪ U`, then the not-taken side with `N ∪ U`, both reconverging at the
//! immediate post-dominator as before. It is the same reconvergence stack with the lane masks
//! made larger; the whole warp state is not forked.
//!
//! What this guarantees. Whatever the threads of `U` really do, the warp executes the taken
//! side with a subset of `T ∪ U` (or not at all) and the not-taken side with a subset of
//! `N ∪ U` (or not at all). Inside a side a larger mask only adds work: a known branch
//! diverges at least as often, a loop with known exits runs at least as long (a thread
//! leaves when *its* values say so), a global access has at least as many threads, so at
//! least as many 128-byte segments. So every real trace of a warp is a subsequence of the
//! analysed one, with no more threads per step, and N_coal (the maximum over all analysed
//! accesses) bounds the real one; both are property-tested (`tests/unknown_data.rs`).
//! For one warp per SM, Eq. 5.1–5.3 is the sum of LI + LE along the warp's segments, so the
//! analysed WCET bounds the model's WCET of every real execution.
//!
//! What it does not guarantee. With several warps on an SM, strict round robin (Eq. 5.2: the
//! scheduler waits for the warp whose turn it is) has scheduling anomalies: a warp that
//! executes *fewer* segments shifts its long-latency segments against the other warps' and
//! can make the kernel finish later (the test `strict_round_robin_has_scheduling_anomalies`:
//! 1320 cycles with the data known, 1140 paying both sides). An exact worst case would be
//! a maximum over the combinations of the warps' real traces; the report keeps the model's
//! value for the analysed traces and says in `wcet.caveat` that it is not guaranteed for
//! every input. The simulator cross-check (`simulate=true`) compares it with executions.
//!
//! Values. A thread of `U` runs the taken side as if it had gone that way; before the
//! not-taken side its registers (and its loop bookkeeping, below) are restored to what they
//! were at the branch, and where the sides reconverge each register keeps its value if both
//! sides left the same one, and becomes unknown where they differ. A thread of `U` that left
//! the kernel on one side only stays alive (it may not have left). Threads of `T` and `N` run
//! one side each, with their real values. Only the threads of `U` are copied, and only until
//! the branch reconverges; nested branches nest their copies, so the memory kept at once is
//! bounded by the depth of open branches (budget `max_fork_values`).
//!
//! A guarded `ret`/`exit` whose guard is unknown keeps those threads running (leaving costs
//! nothing more); a global load or store whose guard is unknown counts those threads as
//! accessing. Each is listed in the report as an assumption with its line.
//!
//! Cost. The representation stays polynomial where branches reconverge before the kernel's
//! end: each side of a branch on unknown data runs once, then the two join into one state,
//! so a chain of k such branches costs the sum of their sides, not 2^k paths. A branch whose
//! sides only meet at the kernel's exit (a guarded `ret`/`exit` between it and its join
//! leaves no reconvergence point, as in the post-dominator stack) runs each side to the end,
//! one after the other, as the hardware would for divergent threads; nested ones multiply,
//! and the step budget (`max_warp_steps`) stops them with an error naming it.
//!
//! # Loops
//!
//! A loop whose exit is decided by unknown data would be unrolled forever by the rule above
//! (each iteration's exit branch puts the continuing threads on the in-loop side). Per thread
//! and per natural loop ([`crate::loops`]) the analyzer counts the header's executions since
//! the thread entered the loop, and notes for each iteration whether the thread passed an exit
//! decision of the loop that was *known* to stay (then its continuing is decided by its own
//! values: no bound is applied, the iteration is followed as it is) or only decisions on
//! unknown data. An iteration of the second kind that would run the header more often than
//! the loop's bound (`loop_bounds` by header label, else `default_loop_bound`, the same
//! parameters and meaning as the `warp-cfg` mode: the header runs at most N times per entry)
//! is cut off for that thread: under the bound that path is infeasible, and the path on which
//! the thread leaves the loop is the other side of the branch still open below it, which runs
//! next. Without a bound such a loop is a located error naming its label. A bound is an
//! assumption about the kernel's data; the report says where one was applied.

use crate::config::LoopBounds;
use crate::loops::Loops;
use crate::semantics::Val;
use isa::{Diagnostic, Severity};
use std::collections::BTreeMap;

/// The thread passed an exit decision of the loop that was known to stay in it.
const CERTAIN: u8 = 1;
/// The thread passed a branch out of the loop on unknown data (on its in-loop side).
const SPEC_BRANCH: u8 = 2;
/// The thread passed a `ret`/`exit` on unknown data and stayed.
const SPEC_EXIT: u8 = 4;

/// No block yet.
const NOWHERE: usize = usize::MAX;

/// One thread's bookkeeping for one loop.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Iteration {
    /// Header executions since the thread entered the loop.
    count: u32,
    flags: u8,
}

/// The loop bookkeeping of a set of threads, flat: thread `k`'s iteration of loop `lp` is
/// `iterations[k * loops + lp]`. One allocation for all threads, because a branch on unknown
/// data saves the bookkeeping of every thread whose way is unknown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct LoopBook {
    /// Per thread: the block it executed last.
    prev: Vec<usize>,
    iterations: Vec<Iteration>,
}

impl LoopBook {
    fn of(&self, k: usize, loops: usize) -> &[Iteration] {
        &self.iterations[k * loops..(k + 1) * loops]
    }

    fn of_mut(&mut self, k: usize, loops: usize) -> &mut [Iteration] {
        &mut self.iterations[k * loops..(k + 1) * loops]
    }
}

/// (thread, register, value): an undo-trail entry, or a value a side left.
type RegValue = (u8, u32, Val);

/// One open branch on unknown data.
#[derive(Debug)]
struct Fork {
    block: usize,
    unknown: u32,
    /// Where the branch's entries of the undo trail start.
    mark: usize,
    /// The epoch its side's writes are logged under.
    epoch: u32,
    /// The loop bookkeeping of the threads of `unknown` at the branch (lane order); after
    /// the taken side, that side's.
    loops: LoopBook,
    /// After the taken side: its alive threads of `unknown` and the values it left in the
    /// registers it wrote.
    first: Option<(u32, Vec<RegValue>)>,
}

/// A loop bound that was applied: the loop, the bound and whether the request gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AppliedBound {
    pub bound: u64,
    pub from_request: bool,
    /// The caller inferred the bound from the code ([`LoopBounds::from_code`]).
    pub from_code: bool,
}

/// A stamp no epoch has: "already seen" while undoing a side.
const SEEN: u32 = u32::MAX;

/// What a join gathers per (thread, register) from the two sides, in arrays indexed by
/// thread and register rather than ordered maps: a join runs at every reconvergence of a
/// branch on unknown data, and a side writes hundreds of registers.
#[derive(Debug, Default)]
struct JoinScratch {
    /// Registers per thread.
    width: usize,
    /// The join that last touched each slot (slots of older joins are stale).
    generation: u32,
    touched: Vec<u32>,
    /// The value at the branch (the not-taken side's first undo entry), when it wrote the
    /// register.
    before: Vec<Option<Val>>,
    /// The value the taken side left, when it wrote the register.
    taken: Vec<Option<Val>>,
    /// The slots touched by this join.
    keys: Vec<(u8, u32)>,
}

impl JoinScratch {
    /// Starts a join over `n` registers in all, `width` per thread.
    fn begin(&mut self, n: usize, width: usize) {
        if self.width != width || self.touched.len() != n {
            self.width = width;
            self.touched = vec![0; n];
            self.before = vec![None; n];
            self.taken = vec![None; n];
            self.generation = 0;
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.touched.fill(0);
            self.generation = 1;
        }
        self.keys.clear();
    }

    #[inline]
    fn slot(&mut self, l: u8, r: u32) -> usize {
        let i = l as usize * self.width + r as usize;
        if self.touched[i] != self.generation {
            self.touched[i] = self.generation;
            self.before[i] = None;
            self.taken[i] = None;
            self.keys.push((l, r));
        }
        i
    }
}

/// The speculative state of one warp.
///
/// Registers are copied lazily: while a thread is in `U` of an open branch, the first write
/// to each of its registers in each side logs the old value on an undo trail (Prolog's
/// trail; one entry per thread, register and side), so a branch costs what its sides write,
/// not the size of the register file.
pub(crate) struct Speculation<'a> {
    loops: &'a Loops,
    bounds: &'a LoopBounds,
    forks: Vec<Fork>,
    /// Every thread's loop bookkeeping.
    lanes: LoopBook,
    /// Per thread: open branches with the thread in `U`.
    depth: Vec<u32>,
    /// (thread, register, value before the write).
    trail: Vec<RegValue>,
    /// Per thread and register (`thread * width + register`): the epoch of its last trail
    /// entry.
    stamp: Vec<u32>,
    /// Registers per thread.
    width: usize,
    /// The innermost open branch's epoch (0 without one): what a write is logged under.
    current: u32,
    next_epoch: u32,
    max_values: u64,
    join_scratch: JoinScratch,
    /// Loops whose bound was needed, by loop index.
    pub applied: BTreeMap<usize, AppliedBound>,
}

fn bits(mask: u32) -> impl Iterator<Item = usize> {
    (0..32).filter(move |l| mask & (1 << l) != 0)
}

/// Removes from `trail[mark..]` the entries of the threads of `unknown`, handing each to
/// `take` in order; the others keep their order (in place: a side's trail can be long).
fn keep_others(
    trail: &mut Vec<RegValue>,
    mark: usize,
    unknown: u32,
    mut take: impl FnMut(RegValue),
) {
    let mut kept = mark;
    for i in mark..trail.len() {
        let e = trail[i];
        if unknown & (1 << e.0) == 0 {
            trail[kept] = e;
            kept += 1;
        } else {
            take(e);
        }
    }
    trail.truncate(kept);
}

fn join_values(a: Val, b: Val) -> Val {
    if a == b {
        a
    } else {
        None
    }
}

impl<'a> Speculation<'a> {
    /// The state of a warp of `lanes` threads with `width` registers each.
    pub fn new(
        loops: &'a Loops,
        bounds: &'a LoopBounds,
        (lanes, width): (usize, usize),
        max_values: u64,
    ) -> Self {
        Speculation {
            loops,
            bounds,
            forks: Vec::new(),
            lanes: LoopBook {
                prev: vec![NOWHERE; lanes],
                iterations: vec![Iteration::default(); lanes * loops.loops.len()],
            },
            depth: vec![0; lanes],
            trail: Vec::new(),
            stamp: Vec::new(),
            width,
            current: 0,
            next_epoch: 1,
            max_values,
            join_scratch: JoinScratch::default(),
            applied: BTreeMap::new(),
        }
    }

    /// Loops of the kernel (the length of a thread's bookkeeping).
    fn loop_count(&self) -> usize {
        self.loops.loops.len()
    }

    /// Takes the innermost open branch's epoch after the forks changed.
    fn sync_epoch(&mut self) {
        self.current = self.forks.last().map_or(0, |f| f.epoch);
    }

    fn new_epoch(&mut self) -> u32 {
        self.next_epoch = self.next_epoch.wrapping_add(1).max(1);
        if self.next_epoch == SEEN {
            self.next_epoch = 1;
        }
        self.next_epoch
    }

    /// Writes register `r` of thread `l`, logging its old value when the thread's way is
    /// unknown at an open branch.
    /// `regs` holds every thread's registers, `width` per thread.
    #[inline]
    pub fn write(&mut self, regs: &mut [Val], l: usize, r: usize, v: Val) {
        if r >= self.width {
            return;
        }
        let i = l * self.width + r;
        let Some(slot) = regs.get_mut(i) else {
            return;
        };
        if self.depth[l] > 0 {
            let e = self.current;
            let stamp = &mut self.stamp[i];
            if *stamp != e {
                *stamp = e;
                self.trail.push((l as u8, r as u32, *slot));
            }
        }
        *slot = v;
    }

    /// Whether the values kept for open branches are within the budget.
    pub fn check_budget(&self) -> Result<(), Diagnostic> {
        let kept: usize = self.trail.len()
            + self
                .forks
                .iter()
                .map(|f| f.first.as_ref().map_or(0, |x| x.1.len()) + f.loops.prev.len())
                .sum::<usize>();
        if kept as u64 > self.max_values {
            return Err(Diagnostic::global(
                Severity::Error,
                format!(
                    "branches on unknown data: more than {} register values kept at once for \
                     the threads whose way is unknown (raise max_fork_values)",
                    self.max_values
                ),
            ));
        }
        Ok(())
    }

    /// Opens a branch on unknown data at `block` for the threads `unknown`.
    pub fn fork(&mut self, block: usize, unknown: u32, regs: &[Val]) -> Result<(), Diagnostic> {
        if self.stamp.is_empty() {
            self.stamp = vec![0; regs.len()];
        }
        let epoch = self.new_epoch();
        let n = self.loop_count();
        let mut loops = LoopBook::default();
        for l in bits(unknown).filter(|&l| l < self.lanes.prev.len()) {
            loops.prev.push(self.lanes.prev[l]);
            loops.iterations.extend_from_slice(self.lanes.of(l, n));
        }
        for l in bits(unknown) {
            if let Some(d) = self.depth.get_mut(l) {
                *d += 1;
            }
        }
        self.forks.push(Fork {
            block,
            unknown,
            mark: self.trail.len(),
            epoch,
            loops,
            first: None,
        });
        self.sync_epoch();
        self.check_budget()
    }

    /// The taken side of the innermost open branch has ended: keeps what it left in the
    /// registers it wrote, and puts the threads of `U` back as they were at the branch
    /// (alive) for the not-taken side.
    pub fn end_taken_side(&mut self, regs: &mut [Val], alive: &mut u32) {
        let epoch = self.new_epoch();
        let n = self.loop_count();
        let Some(fork) = self.forks.last_mut() else {
            return;
        };
        let unknown = fork.unknown;
        let mut left = Vec::new();
        for &(l, r, old) in self.trail[fork.mark..].iter().rev() {
            if unknown & (1 << l) == 0 {
                continue;
            }
            let i = l as usize * self.width + r as usize;
            if self.stamp[i] != SEEN {
                self.stamp[i] = SEEN;
                left.push((l, r, regs[i]));
            }
            regs[i] = old;
        }
        // The other threads' entries stay, in their order.
        keep_others(&mut self.trail, fork.mark, unknown, |_| {});
        for (k, l) in bits(unknown).enumerate() {
            if k < fork.loops.prev.len() {
                std::mem::swap(&mut fork.loops.prev[k], &mut self.lanes.prev[l]);
                fork.loops
                    .of_mut(k, n)
                    .swap_with_slice(self.lanes.of_mut(l, n));
            }
        }
        fork.epoch = epoch;
        fork.first = Some((*alive & unknown, left));
        *alive |= unknown;
        self.sync_epoch();
    }

    /// Both sides of the innermost open branch have run: the threads of `U` continue at the
    /// reconvergence block `ipd` with the join of both sides.
    pub fn join(&mut self, ipd: Option<usize>, regs: &mut [Val], alive: &mut u32) {
        let Some(fork) = self.forks.pop() else {
            return;
        };
        self.sync_epoch();
        let unknown = fork.unknown;
        for l in bits(unknown) {
            if let Some(d) = self.depth.get_mut(l) {
                *d = d.saturating_sub(1);
            }
        }
        let (first_alive, left) = fork.first.unwrap_or((0, Vec::new()));
        let scratch = &mut self.join_scratch;
        scratch.begin(regs.len(), self.width);
        // The not-taken side's first writes: the value each register had at the branch.
        keep_others(&mut self.trail, fork.mark, unknown, |(l, r, old)| {
            let i = scratch.slot(l, r);
            scratch.before[i].get_or_insert(old);
        });
        for (l, r, v) in left {
            let i = scratch.slot(l, r);
            scratch.taken[i] = Some(v);
        }
        // The keys in the order the sides first wrote them: each key's result depends only
        // on its own values, and the trail entries logged below for an enclosing branch are
        // read back per key (the first per key, or all of them newest first, which keeps
        // the order among one key's entries), so no order of the keys changes a value.
        let outer = self.current;
        for &(l, r) in &scratch.keys {
            let lu = l as usize;
            let i = lu * self.width + r as usize;
            let bit = 1u32 << l;
            let now = regs[i];
            let pre = scratch.before[i].unwrap_or(now);
            let a = scratch.taken[i].unwrap_or(pre);
            let new = match (first_alive & bit != 0, *alive & bit != 0) {
                (true, true) => join_values(a, now),
                (true, false) => a,
                (false, _) => now,
            };
            regs[i] = new;
            // An enclosing branch with the thread in its `U` needs the value at *its*
            // branch: log this register's value from before this one.
            if self.depth[lu] > 0 && new != pre {
                self.trail.push((l, r, pre));
                self.stamp[i] = outer;
            } else {
                self.stamp[i] = SEEN;
            }
        }
        let header = ipd.and_then(|b| self.loops.header_of.get(b).copied().flatten());
        let n = self.loop_count();
        for (k, l) in bits(unknown).enumerate() {
            if k >= fork.loops.prev.len() {
                break;
            }
            let bit = 1u32 << l;
            match (first_alive & bit != 0, *alive & bit != 0) {
                (true, true) => {
                    let a_loops = fork.loops.of(k, n);
                    for (x, a) in self.lanes.of_mut(l, n).iter_mut().zip(a_loops) {
                        x.count = x.count.min(a.count);
                        let certain = (x.flags | a.flags) & CERTAIN;
                        x.flags = (x.flags & a.flags & !CERTAIN) | certain;
                    }
                    // Arriving at a loop header from outside restarts its count: when
                    // one side comes from outside, take that one (more iterations).
                    let a_prev = fork.loops.prev[k];
                    if let Some(h) = header {
                        if !self.loops.contains(h, a_prev) {
                            self.lanes.prev[l] = a_prev;
                        }
                    }
                }
                (true, false) => {
                    self.lanes.prev[l] = fork.loops.prev[k];
                    self.lanes.of_mut(l, n).copy_from_slice(fork.loops.of(k, n));
                    *alive |= bit;
                }
                (false, _) => {}
            }
        }
    }

    /// The decisions at a guarded branch ending `block`: threads `taken` and `not_taken`
    /// went their known way, `unknown` both. Marks, for every loop the branch leaves, who
    /// stayed for a known reason and who on unknown data.
    pub fn branch(
        &mut self,
        block: usize,
        (taken_block, fall_block): (usize, usize),
        (taken, not_taken, unknown): (u32, u32, u32),
    ) {
        for &lp in &self.loops.containing[block] {
            let t_in = self.loops.contains(lp, taken_block);
            let f_in = self.loops.contains(lp, fall_block);
            if t_in == f_in {
                continue;
            }
            let stay = if t_in { taken } else { not_taken };
            self.mark(lp, stay, CERTAIN);
            self.mark(lp, unknown, SPEC_BRANCH);
        }
    }

    /// A guarded `ret`/`exit` in `block`: threads `stay` known not to leave, `unknown` kept
    /// running although they may leave.
    pub fn exit(&mut self, block: usize, stay: u32, unknown: u32) {
        for &lp in &self.loops.containing[block] {
            self.mark(lp, stay, CERTAIN);
            self.mark(lp, unknown, SPEC_EXIT);
        }
    }

    fn mark(&mut self, lp: usize, mask: u32, flag: u8) {
        let (n, lanes) = (self.loop_count(), self.lanes.prev.len());
        for l in bits(mask).filter(|&l| l < lanes) {
            if let Some(it) = self.lanes.of_mut(l, n).get_mut(lp) {
                it.flags |= flag;
            }
        }
    }

    /// Threads `mask` start `block`: counts loop-header executions and returns the threads
    /// whose iteration exceeds the loop's bound on unknown data (cut off on this path).
    pub fn enter(&mut self, block: usize, mask: u32) -> Result<u32, Diagnostic> {
        let mut cut = 0u32;
        let header = self.loops.header_of.get(block).copied().flatten();
        let n = self.loop_count();
        for l in bits(mask) {
            let Some(prev) = self.lanes.prev.get_mut(l) else {
                continue;
            };
            let prev = std::mem::replace(prev, block);
            let Some(lp) = header else {
                continue;
            };
            let back_edge = prev != NOWHERE && self.loops.contains(lp, prev);
            let it = &mut self.lanes.iterations[l * n + lp];
            if !back_edge {
                *it = Iteration { count: 1, flags: 0 };
                continue;
            }
            it.count = it.count.saturating_add(1);
            let flags = std::mem::take(&mut it.flags);
            let count = it.count;
            let speculative = flags & (SPEC_BRANCH | SPEC_EXIT) != 0 && flags & CERTAIN == 0;
            if !speculative {
                continue;
            }
            let bit = 1u32 << l;
            let covered = flags & SPEC_EXIT != 0
                || self
                    .forks
                    .iter()
                    .any(|f| f.unknown & bit != 0 && self.loops.contains(lp, f.block));
            if !covered {
                continue;
            }
            let bound = self.bound(lp)?;
            if u64::from(count) > bound {
                cut |= bit;
            }
        }
        Ok(cut)
    }

    fn bound(&mut self, lp: usize) -> Result<u64, Diagnostic> {
        let l = &self.loops.loops[lp];
        let applied = match (self.bounds.per_label.get(&l.label), self.bounds.default) {
            (Some(&bound), _) => AppliedBound {
                bound,
                from_request: true,
                from_code: self.bounds.from_code.contains(&l.label),
            },
            (None, Some(bound)) => AppliedBound {
                bound,
                from_request: false,
                from_code: false,
            },
            (None, None) => {
                return Err(Diagnostic::error(
                    l.span,
                    format!(
                        "the loop `{0}` exits on data the analyzer does not know and has no \
                         bound: give one (loop_bounds {{\"{0}\": N}} / --loop-bound '{0}=N': \
                         its header runs at most N times per entry) or a default_loop_bound",
                        l.label
                    ),
                ))
            }
        };
        self.applied.insert(lp, applied);
        Ok(applied.bound)
    }
}
