//! The exact worst-case makespan by a search over multisets of warp progress.
//!
//! **Model** (§2 and §5 after the sigma transformation of §3): `W` identical warps run the
//! transformed string in order, at most one instruction per warp per cycle, each instruction
//! one cycle. In every cycle the number of warps that issue a type-`X` instruction is exactly
//! `min(σ_X, number of warps whose next instruction is X)` — the work-conserving property of
//! §5.4 — and which warps those are is free. The worst-case makespan is the maximum over all
//! such schedules of the cycles until every warp has finished.
//!
//! **State.** Warps are identical, so only how many warps have completed `p` instructions
//! matters, for each `p` in `0..I` (the count at `I`, finished, is implied). A cycle's choice
//! is *how many* warps at each position advance — one count vector per unit type, summing to
//! `min(σ, ready)` — not which individual warps. Total progress grows every cycle, so the
//! states form a DAG and the worst case is its longest path to the all-finished state.
//!
//! **Search.** A depth-first search with an explicit stack (no recursion: the wasm stack is
//! small) memoises the exact remaining worst case `V(s)` of every explored state:
//! `V(final) = 0`, `V(s) = 1 + max V(successor)`. States are packed into a `u64` or `u128`
//! when `I · bits(W)` fits (else a boxed slice); with packed keys a successor is the
//! parent key plus a precomputed delta per count vector. Upper-bound pruning: every state
//! carries the bound of [`state_bound`] (the argument of [`crate::safe_bound`] applied to
//! the remaining work); as soon as its best successor so far attains that bound, the other
//! successors are skipped. Skipped successors could not have done better, so every
//! memoised value stays exact, and the witness is read back by following memoised argmax
//! successors from the root and handing out concrete warp ids (lowest first) and lanes.
//! (On `σ = 1` kernels such as `"LLCLL"` the bound is loose — the worst case there is close
//! to the busier unit's work, the bound to the sum of both — so it rarely fires; it pays
//! off when one unit type dominates or `σ` is large. Tighter general bounds are an open
//! item.)
//!
//! Everything is deterministic: the successor order is fixed and the hash map uses a fixed
//! hasher.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::model::{Error, Transformed};
use crate::schedule::{Budget, Schedule, Slot};
use isa::lc::LcOp;
use isa::progress::{self, Every, Observer, Progress, Task};

/// A small, fixed, fast hasher (multiply–rotate with a final avalanche): deterministic
/// across runs and platforms, unlike `RandomState`.
#[derive(Default, Clone, Copy)]
pub(crate) struct MixHasher(u64);

const MIX_K: u64 = 0x9e37_79b9_7f4a_7c15;

impl Hasher for MixHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(buf));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(26) ^ x).wrapping_mul(MIX_K);
    }

    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }

    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }

    fn finish(&self) -> u64 {
        // murmur3's fmix64: spreads the high bits of the product into the low bits.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

type Memo<K> = HashMap<K, u32, BuildHasherDefault<MixHasher>>;

mod state_key;
use state_key::{StateKey, Wide};

/// Enumerates every vector `k` with `0 <= k[j] <= caps[j]` and `Σ k = need`, in
/// lexicographically decreasing order, appending each to `out` (so `out` grows by
/// `caps.len()` per vector). Iterative; `k` is scratch space. Returns how many vectors were
/// appended, or `None` once more than `limit` would be.
fn compositions(
    caps: &[u32],
    need: u32,
    limit: usize,
    k: &mut Vec<u32>,
    out: &mut Vec<u32>,
) -> Option<usize> {
    let n = caps.len();
    if n == 0 {
        return Some(usize::from(need == 0));
    }
    k.clear();
    k.resize(n, 0);
    // Greedy fill of `k[from..]` with `amount`, left to right; false if it does not fit.
    fn fill(k: &mut [u32], caps: &[u32], from: usize, mut amount: u64) -> bool {
        for j in from..k.len() {
            let take = amount.min(u64::from(caps[j]));
            k[j] = take as u32;
            amount -= take;
        }
        amount == 0
    }
    if !fill(k, caps, 0, u64::from(need)) {
        return Some(0);
    }
    let mut count = 0usize;
    loop {
        count += 1;
        if count > limit {
            return None;
        }
        // Element by element: these slices are tiny, and a `memmove` call per vector showed
        // up in profiles.
        for &x in k.iter() {
            out.push(x);
        }
        // The rightmost j < n-1 with k[j] > 0 whose suffix can absorb one more unit: move
        // one unit from j into the suffix and refill the suffix greedily.
        let mut suffix_sum: u64 = u64::from(k[n - 1]);
        let mut suffix_cap: u64 = u64::from(caps[n - 1]);
        let mut advanced = false;
        for j in (0..n - 1).rev() {
            if k[j] > 0 && suffix_cap > suffix_sum {
                k[j] -= 1;
                fill(k, caps, j + 1, suffix_sum + 1);
                advanced = true;
                break;
            }
            suffix_sum += u64::from(k[j]);
            suffix_cap += u64::from(caps[j]);
        }
        if !advanced {
            return Some(count);
        }
    }
}

/// The search problem: the transformed string, its sigma values and the warp count.
pub(crate) struct Problem<'a> {
    instrs: &'a [LcOp],
    sigma: [u32; 2],
    warps: u32,
    /// Bits per count in a packed key.
    bits: u32,
}

/// Reusable buffers for [`Problem::moves`].
#[derive(Default)]
struct Scratch {
    caps: Vec<u32>,
    k: Vec<u32>,
}

/// The moves of one cycle for one unit type: which positions and how many warps each.
#[derive(Clone, Debug, Default)]
struct UnitMoves {
    /// Active positions of this type (count > 0), ascending.
    positions: Vec<usize>,
    /// Flat list of count vectors, `positions.len()` entries each.
    vectors: Vec<u32>,
    /// Number of vectors.
    n: usize,
}

impl UnitMoves {
    #[inline]
    fn vector(&self, i: usize) -> &[u32] {
        let w = self.positions.len();
        &self.vectors[i * w..(i + 1) * w]
    }
}

fn unit_index(u: LcOp) -> usize {
    match u {
        LcOp::L => 0,
        LcOp::C => 1,
    }
}

impl<'a> Problem<'a> {
    pub(crate) fn new(t: &'a Transformed, warps: u32) -> Self {
        let bits = (32 - warps.leading_zeros()).max(1);
        Problem {
            instrs: &t.instrs,
            sigma: [t.sigma_l, t.sigma_c],
            warps,
            bits,
        }
    }

    /// Fills `moves[0]` (L) and `moves[1]` (C) with the choices available in `counts`.
    fn moves(
        &self,
        counts: &[u32],
        moves: &mut [UnitMoves; 2],
        (capacity, limit): (usize, usize),
        scratch: &mut Scratch,
    ) -> Result<(), Error> {
        let Scratch { caps, k } = scratch;
        for (u, m) in moves.iter_mut().enumerate() {
            m.positions.clear();
            m.vectors.clear();
            caps.clear();
            let mut ready: u64 = 0;
            for (p, &c) in counts.iter().enumerate() {
                if c > 0 && unit_index(self.instrs[p]) == u {
                    m.positions.push(p);
                    caps.push(c);
                    ready += u64::from(c);
                }
            }
            let need = ready.min(u64::from(self.sigma[u])) as u32;
            m.n = compositions(caps, need, capacity, k, &mut m.vectors).ok_or_else(|| {
                Error::Budget {
                    what: "max_states".into(),
                    limit,
                }
            })?;
        }
        let product = moves[0].n.saturating_mul(moves[1].n);
        if product > capacity {
            return Err(Error::Budget {
                what: "max_states".into(),
                limit,
            });
        }
        Ok(())
    }

    /// Writes the successor of `counts` under L vector `li` and C vector `ci` into `child`.
    fn apply(
        &self,
        counts: &[u32],
        moves: &[UnitMoves; 2],
        li: usize,
        ci: usize,
        child: &mut [u32],
    ) {
        child.copy_from_slice(counts);
        for (m, i) in [(&moves[0], li), (&moves[1], ci)] {
            for (&p, &k) in m.positions.iter().zip(m.vector(i)) {
                child[p] -= k;
                if p + 1 < child.len() {
                    child[p + 1] += k;
                }
            }
        }
    }
}

/// A valid upper bound on the remaining worst case from a state (the argument of
/// [`crate::safe_bound`], applied to the remaining work): with `R_L`/`R_C` remaining `L`/`C`
/// instructions and `r` the most instructions any warp still has to run,
/// `V ≤ min(R_L + R_C, ⌊R_L/σ_L⌋ + ⌊R_C/σ_C⌋ + r)`.
fn state_bound(instrs: &[LcOp], sigma: [u32; 2], counts: &[u32]) -> u64 {
    let i_len = instrs.len();
    let mut rem = [0u64; 2];
    let mut longest = 0u64;
    // Suffix counts of each type from position p to the end.
    let mut suffix = [0u64; 2];
    for p in (0..i_len).rev() {
        suffix[unit_index(instrs[p])] += 1;
        let c = u64::from(counts[p]);
        if c > 0 {
            rem[0] += c * suffix[0];
            rem[1] += c * suffix[1];
            longest = (i_len - p) as u64;
        }
    }
    let total = rem[0] + rem[1];
    let split = rem[0] / u64::from(sigma[0]) + rem[1] / u64::from(sigma[1]) + longest;
    total.min(split)
}

/// One frame of the explicit DFS stack.
struct Frame<K> {
    key: K,
    /// Child keys of this frame live in `arena[start..end]`.
    start: usize,
    next: usize,
    end: usize,
    /// Best `1 + V(child)` so far.
    best: u32,
    /// [`state_bound`] of this state: once `best` reaches it, no other child can do better.
    bound: u32,
}

/// Statistics of one exact search (for benchmarks and the budget documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SearchStats {
    /// States memoised (each explored state once).
    pub states: usize,
    /// States whose remaining successors were skipped because the best one already met the
    /// state's upper bound.
    pub cutoffs: usize,
    /// Work charged against [`Budget::max_search_steps`]: per successor generated, one step
    /// plus one per 64 bits of its state key.
    pub steps: usize,
}

struct Outcome {
    makespan: u64,
    schedule: Option<Schedule>,
    stats: SearchStats,
}

/// Search steps between two progress reports (a few milliseconds of search).
const REPORT_EVERY: u64 = 1 << 15;

/// Where a search's progress goes: [`Task::MakespanSearch`] for a search of its own (with
/// the longest schedule so far), [`Task::MakespanCurve`] for one of several searches sharing
/// a budget, counted after the `offset` steps of those before it (no bound).
#[derive(Clone, Copy)]
pub(crate) struct Reporting<'p> {
    pub observer: Observer<'p>,
    pub task: Task,
    pub offset: u64,
}

impl Reporting<'_> {
    /// A search of its own, reported to nobody.
    pub(crate) const SILENT: Reporting<'static> = Reporting {
        observer: &progress::silent,
        task: Task::MakespanSearch,
        offset: 0,
    };
}

/// The DFS's working memory.
struct Search<'p, 'a, K> {
    p: &'p Problem<'a>,
    /// Told every [`REPORT_EVERY`] steps how far the search is.
    reporting: Reporting<'p>,
    every: Every,
    /// The largest lower bound reported so far (reports never fall).
    reported: u32,
    /// [`Budget::max_states`], for the error message.
    limit: usize,
    /// The states the memo and one state's successors may hold (`max_states`).
    capacity: usize,
    /// Successors this search may still generate ([`Budget::max_search_steps`]).
    steps_left: usize,
    /// The step budget this search was given (for the error message).
    steps_limit: usize,
    /// Steps charged per successor: one, plus one per 64 bits of a state key (the words a
    /// packed key takes), since generating, hashing and storing a successor of a long string
    /// costs that much more time and memory ([`Budget::max_search_steps`]).
    step_cost: usize,
    memo: Memo<K>,
    arena: Vec<K>,
    frames: Vec<Frame<K>>,
    counts: Vec<u32>,
    child: Vec<u32>,
    moves: [UnitMoves; 2],
    scratch: Scratch,
    stats: SearchStats,
}

impl<K: StateKey> Search<'_, '_, K> {
    /// Pushes a frame for `key` with its successors on the arena.
    fn expand(&mut self, key: K) -> Result<(), Error> {
        let p = self.p;
        key.decode(p.bits, &mut self.counts);
        p.moves(
            &self.counts,
            &mut self.moves,
            (self.capacity, self.limit),
            &mut self.scratch,
        )?;
        let bound = state_bound(p.instrs, p.sigma, &self.counts).min(u64::from(u32::MAX)) as u32;
        let start = self.arena.len();
        key.push_successors(
            p,
            &self.counts,
            &self.moves,
            &mut self.child,
            &mut self.arena,
        );
        let end = self.arena.len();
        let generated = (end - start).saturating_mul(self.step_cost);
        self.stats.steps = self.stats.steps.saturating_add(generated);
        if generated > self.steps_left {
            return Err(Error::Budget {
                what: "max_search_steps".into(),
                limit: self.steps_limit,
            });
        }
        self.steps_left -= generated;
        self.frames.push(Frame {
            key,
            start,
            next: start,
            end,
            best: 0,
            bound,
        });
        if self.every.tick(generated as u64) {
            self.report();
        }
        Ok(())
    }

    /// Tells the observer the steps so far and the longest schedule known so far: the frame
    /// at depth `i` is reached from the root in `i` cycles and has a finished successor path
    /// of `best` more, so `max(i + best)` over the stack is a schedule's length, a lower
    /// bound on `V(root)` (and it never falls: a popped frame's value moves to its parent
    /// one level up, plus one). The root's [`state_bound`] is the upper bound.
    fn report(&mut self) {
        let r = self.reporting;
        if r.task != Task::MakespanSearch {
            (r.observer)(&Progress {
                task: r.task,
                done: r.offset.saturating_add(self.stats.steps as u64),
                budget: self.steps_limit as u64,
                best_bound: None,
                upper_bound: None,
            });
            return;
        }
        let lower = self
            .frames
            .iter()
            .enumerate()
            .map(|(i, f)| (i as u32).saturating_add(f.best))
            .max()
            .unwrap_or(0);
        self.reported = self.reported.max(lower);
        (r.observer)(&Progress {
            task: Task::MakespanSearch,
            done: self.stats.steps as u64,
            budget: self.steps_limit as u64,
            best_bound: Some(u64::from(self.reported)),
            upper_bound: self.frames.first().map(|f| u64::from(f.bound)),
        });
    }

    /// Runs the DFS from `root`; returns `V(root)`.
    fn run(&mut self, root: K) -> Result<u32, Error> {
        if self.capacity == 0 {
            return Err(Error::Budget {
                what: "max_states".into(),
                limit: 0,
            });
        }
        self.expand(root)?;
        while let Some(top) = self.frames.last_mut() {
            if top.best >= top.bound && top.next < top.end {
                self.stats.cutoffs += 1;
                top.next = top.end;
            }
            if top.next < top.end {
                let c = self.arena[top.next].clone();
                top.next += 1;
                if c.is_final() {
                    top.best = top.best.max(1);
                    continue;
                }
                if let Some(&v) = self.memo.get(&c) {
                    top.best = top.best.max(v.saturating_add(1));
                    continue;
                }
                // (Values are u32: a path is never longer than the states memoised.)
                if self.memo.len() + self.frames.len() >= self.capacity
                    || self.memo.len() >= u32::MAX as usize - 1
                {
                    return Err(Error::Budget {
                        what: "max_states".into(),
                        limit: self.limit,
                    });
                }
                self.expand(c)?;
            } else {
                let Some(done) = self.frames.pop() else {
                    break;
                };
                self.arena.truncate(done.start);
                let v = done.best;
                self.memo.insert(done.key, v);
                match self.frames.last_mut() {
                    Some(parent) => parent.best = parent.best.max(v.saturating_add(1)),
                    None => return Ok(v),
                }
            }
        }
        Err(Error::Invalid(
            "internal: the search ended without a root value".into(),
        ))
    }
}

fn solve<K: StateKey>(
    p: &Problem,
    budget: &Budget,
    steps: usize,
    witness: bool,
    reporting: Reporting,
) -> Result<Outcome, Error> {
    let i_len = p.instrs.len();
    let limit = budget.max_states;
    let key_words = 1 + (i_len * p.bits as usize) / 64;
    let capacity = limit;
    let mut root_counts = vec![0u32; i_len];
    root_counts[0] = p.warps;
    let root = K::encode(&root_counts, p.bits);
    let mut search = Search {
        p,
        reporting,
        every: Every::new(REPORT_EVERY),
        reported: 0,
        limit,
        capacity,
        steps_left: steps,
        steps_limit: budget.max_search_steps,
        step_cost: key_words,
        memo: Memo::default(),
        arena: Vec::new(),
        frames: Vec::new(),
        counts: vec![0; i_len],
        child: vec![0; i_len],
        moves: Default::default(),
        scratch: Scratch::default(),
        stats: SearchStats::default(),
    };
    let root_value = search.run(root.clone())?;
    let mut stats = search.stats;
    stats.states = search.memo.len();
    let schedule = if witness {
        Some(reconstruct(
            p,
            &search.memo,
            root,
            root_value,
            (capacity, limit),
        )?)
    } else {
        None
    };
    Ok(Outcome {
        makespan: u64::from(root_value),
        schedule,
        stats,
    })
}

/// Follows memoised argmax successors from the root and assigns concrete warps and lanes.
fn reconstruct<K: StateKey>(
    p: &Problem,
    memo: &Memo<K>,
    root: K,
    root_value: u32,
    limit: (usize, usize),
) -> Result<Schedule, Error> {
    let i_len = p.instrs.len();
    let mut counts = vec![0u32; i_len];
    let mut child = vec![0u32; i_len];
    let mut moves: [UnitMoves; 2] = Default::default();
    let mut scratch = Scratch::default();
    // Warp ids at each unfinished position, ascending.
    let mut at: Vec<Vec<u32>> = vec![Vec::new(); i_len];
    at[0] = (0..p.warps).collect();
    let mut slots = Vec::with_capacity((p.warps as usize).saturating_mul(i_len));
    let mut key = root;
    let mut value = root_value;
    let mut cycle = 0u64;
    while !key.is_final() {
        key.decode(p.bits, &mut counts);
        p.moves(&counts, &mut moves, limit, &mut scratch)?;
        let mut chosen = None;
        'search: for li in 0..moves[0].n {
            for ci in 0..moves[1].n {
                p.apply(&counts, &moves, li, ci, &mut child);
                let ck = K::encode(&child, p.bits);
                let cv = if ck.is_final() {
                    Some(0)
                } else {
                    memo.get(&ck).copied()
                };
                if cv.map(|v| v + 1) == Some(value) {
                    chosen = Some((li, ci, ck));
                    break 'search;
                }
            }
        }
        let (li, ci, ck) = chosen.ok_or_else(|| {
            Error::Invalid("internal: no memoised successor attains the optimum".into())
        })?;
        cycle += 1;
        // Take the lowest warp ids from every moving position first, then re-insert them.
        let mut moved: Vec<(usize, u32)> = Vec::new();
        for (u, i) in [(0usize, li), (1usize, ci)] {
            let m = &moves[u];
            let unit = if u == 0 { LcOp::L } else { LcOp::C };
            let mut lane = 0u32;
            for (&pos, &k) in m.positions.iter().zip(m.vector(i)) {
                for w in at[pos].drain(..k as usize) {
                    slots.push(Slot {
                        cycle,
                        unit,
                        lane,
                        warp: w,
                        instr: pos,
                    });
                    lane += 1;
                    moved.push((pos + 1, w));
                }
            }
        }
        for (pos, w) in moved {
            if pos < i_len {
                let list = &mut at[pos];
                let idx = list.partition_point(|&x| x < w);
                list.insert(idx, w);
            }
        }
        key = ck;
        value = value.saturating_sub(1);
    }
    Ok(Schedule {
        makespan: cycle,
        slots,
    })
}

/// Validates a transformed string for the exact methods.
pub(crate) fn check(t: &Transformed) -> Result<(), Error> {
    if t.sigma_l == 0 || t.sigma_c == 0 {
        return Err(Error::Invalid(format!(
            "sigma values must be positive (sigma_l = {}, sigma_c = {})",
            t.sigma_l, t.sigma_c
        )));
    }
    Ok(())
}

/// `steps`: the successors this search may generate (at most `budget.max_search_steps`; less
/// when earlier searches of the same computation used part of it).
fn run(
    t: &Transformed,
    warps: u32,
    budget: &Budget,
    steps: usize,
    witness: bool,
    reporting: Reporting,
) -> Result<Outcome, Error> {
    check(t)?;
    if warps == 0 || t.instrs.is_empty() {
        return Ok(Outcome {
            makespan: 0,
            schedule: Some(Schedule::empty()),
            stats: SearchStats::default(),
        });
    }
    if witness && u64::from(warps).saturating_mul(t.instrs.len() as u64) > budget.max_states as u64
    {
        // The witness alone would hold W·I slots.
        return Err(Error::Budget {
            what: "max_states".into(),
            limit: budget.max_states,
        });
    }
    let p = Problem::new(t, warps);
    let bits = (t.instrs.len() as u64).saturating_mul(u64::from(p.bits));
    if bits <= 64 {
        solve::<u64>(&p, budget, steps, witness, reporting)
    } else if bits <= 128 {
        solve::<u128>(&p, budget, steps, witness, reporting)
    } else {
        solve::<Wide>(&p, budget, steps, witness, reporting)
    }
}

/// The exact worst-case makespan of `warps` warps running the transformed string, with a
/// witness schedule — method (b), the fast default (see the module docs for the model and
/// the search).
///
/// The result equals the optimum of the paper's ILP (Fig. 3, [`crate::exact_ilp`]) whenever
/// that ILP is solved to optimality, but is found by a memoised search over multisets of warp
/// progress instead of a branch and bound over `W · I · T` binary variables.
///
/// `warps = 0` or an empty string: makespan 0 and an empty schedule (not an error).
///
/// # Errors
/// [`Error::Budget`] (`max_states`) when more states would have to be memoised than
/// `budget.max_states` allows, one state has more successors than that, or the witness
/// would have more than that many slots (`W · I`); (`max_search_steps`) when the search
/// would generate more successors than `budget.max_search_steps`;
/// [`Error::Invalid`] for a hand-built [`Transformed`] with a zero sigma.
pub fn exact(t: &Transformed, warps: u32, budget: &Budget) -> Result<Schedule, Error> {
    exact_observed(t, warps, budget, &progress::silent)
}

/// [`exact`], telling `observer` every few thousand search steps how many steps the search
/// has made (of `max_search_steps`), the longest schedule found so far (a lower bound on the
/// worst case that rises to it) and the pessimistic upper bound of the start state
/// ([`Task::MakespanSearch`]). The result does not depend on the observer.
///
/// # Errors
/// As [`exact`].
pub fn exact_observed(
    t: &Transformed,
    warps: u32,
    budget: &Budget,
    observer: Observer,
) -> Result<Schedule, Error> {
    let reporting = Reporting {
        observer,
        ..Reporting::SILENT
    };
    let out = run(t, warps, budget, budget.max_search_steps, true, reporting)?;
    out.schedule
        .ok_or_else(|| Error::Invalid("internal: no schedule".into()))
}

/// Only the exact worst-case makespan of [`exact`] (no witness), with search statistics.
///
/// # Errors
/// As [`exact`].
pub fn exact_makespan(
    t: &Transformed,
    warps: u32,
    budget: &Budget,
) -> Result<(u64, SearchStats), Error> {
    exact_makespan_within(t, warps, budget, budget.max_search_steps, Reporting::SILENT)
}

/// [`exact_makespan`] with at most `steps` successor generations (≤ the budget's own
/// `max_search_steps`): lets a computation made of several searches (the estimate's `T(y)`
/// for `y = 1..x`) share one step budget, and reports to `reporting`.
///
/// # Errors
/// As [`exact`].
pub(crate) fn exact_makespan_within(
    t: &Transformed,
    warps: u32,
    budget: &Budget,
    steps: usize,
    reporting: Reporting,
) -> Result<(u64, SearchStats), Error> {
    let out = run(
        t,
        warps,
        budget,
        steps.min(budget.max_search_steps),
        false,
        reporting,
    )?;
    Ok((out.makespan, out.stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compositions_enumerate_bounded_vectors() {
        let mut out = Vec::new();
        let mut k = Vec::new();
        let n = compositions(&[2, 1, 2], 2, 100, &mut k, &mut out);
        assert_eq!(n, Some(5));
        assert_eq!(
            out.chunks(3).collect::<Vec<_>>(),
            vec![
                &[2, 0, 0][..],
                &[1, 1, 0],
                &[1, 0, 1],
                &[0, 1, 1],
                &[0, 0, 2]
            ]
        );
        let mut out = Vec::new();
        assert_eq!(compositions(&[1, 1], 3, 100, &mut k, &mut out), Some(0));
        assert_eq!(compositions(&[], 0, 100, &mut k, &mut out), Some(1));
        assert_eq!(compositions(&[], 1, 100, &mut k, &mut out), Some(0));
        assert_eq!(compositions(&[5, 5, 5], 5, 3, &mut k, &mut out), None);
    }

    #[test]
    fn keys_round_trip() {
        let counts = [3u32, 0, 7, 1];
        let k = u64::encode(&counts, 3);
        let mut out = [0u32; 4];
        k.decode(3, &mut out);
        assert_eq!(out, counts);
        let k = u128::encode(&counts, 30);
        k.decode(30, &mut out);
        assert_eq!(out, counts);
    }
}
