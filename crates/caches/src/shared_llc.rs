//! Worst-case hit/miss classification of a shared last-level data cache (Huangfu Ch. 6):
//! the *Simple* method (§6.4.2, Fig. 31) and the *Access Interval* method (§6.4.3,
//! Figs. 33–34).
//!
//! Input: per core (GPU SM or CPU core), its LLC accesses as line numbers in order. The order
//! within a core is known statically; the interleaving across cores is not. An access X to
//! line A is a guaranteed hit iff, for some access P to A that certainly precedes X, the
//! number of distinct other lines of A's set possibly accessed between P and X (its
//! worst-case reuse distance, §6.3) is below the associativity.
//!
//! *Simple*: P is the previous access to A on X's own core; everything on other cores may
//! fall in between, plus X's own accesses between P and X (§6.4.2: "simply takes all the
//! accesses from other cores and the accesses in between from the current core"). With no
//! previous access on its own core, X is a miss.
//!
//! *Access Interval*: each core sends at most `quota` accesses per interval and the next
//! interval starts only when all active cores have used their quota, so access `i` of any
//! core lies in interval `i / quota`, and intervals are globally ordered (§6.4.3, Fig. 32).
//! The possibly-conflicting accesses are those of the Start interval (P's) through the End
//! interval (X's) on all cores, except (1) P's core's accesses before P in the Start interval
//! and (2) X's core's accesses after X in the End interval (Fig. 33). P may be on another core
//! (Fig. 34) but must then lie in an interval strictly before X's. The thesis picks "the
//! latest previous access"; when several candidates qualify (one per core) every one of them
//! gives a valid bound, so we take the smallest resulting distance — never larger than the
//! thesis's choice.

use crate::lru::CacheGeometry;
use isa::{Diagnostic, Severity};
use std::collections::{BTreeMap, BTreeSet};

/// Which analysis to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LlcMethod {
    Simple,
    AccessInterval { quota: u32 },
}

/// The position of an access: core and index in that core's sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub core: usize,
    pub index: usize,
}

/// The classification of one access.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LlcOutcome {
    pub line: u64,
    /// The certainly-earlier access the bound is measured from (`None`: cold miss).
    pub previous: Option<Position>,
    /// Worst-case reuse distance (`None` = ∞).
    pub reuse_distance: Option<u64>,
    pub hit: bool,
}

/// The result for all cores.
#[derive(Debug, Clone, PartialEq)]
pub struct LlcResult {
    pub method: LlcMethod,
    /// Per core, one outcome per access.
    pub cores: Vec<Vec<LlcOutcome>>,
    pub accesses: u64,
    pub misses: u64,
    pub miss_rate: f64,
}

/// The accesses the Simple method counts as possibly between `previous` (same core) and
/// `current` (Fig. 31): the own core's accesses strictly between them and every access of
/// every other core.
pub fn simple_window(cores: &[Vec<u64>], previous: Position, current: Position) -> Vec<Position> {
    let mut out = Vec::new();
    for (c, seq) in cores.iter().enumerate() {
        if c == current.core {
            for index in previous.index + 1..current.index.min(seq.len()) {
                out.push(Position { core: c, index });
            }
        } else {
            out.extend((0..seq.len()).map(|index| Position { core: c, index }));
        }
    }
    out
}

/// The accesses the Access Interval method counts as possibly between `previous` and
/// `current` (Figs. 33–34), in core order.
pub fn access_interval_window(
    cores: &[Vec<u64>],
    quota: u32,
    previous: Position,
    current: Position,
) -> Vec<Position> {
    let q = quota.max(1) as usize;
    let start = previous.index / q;
    let end = current.index / q;
    let mut out = Vec::new();
    for (c, seq) in cores.iter().enumerate() {
        let lo = start.saturating_mul(q);
        let hi = end.saturating_add(1).saturating_mul(q).min(seq.len());
        for index in lo..hi {
            let p = Position { core: c, index };
            if p == previous || p == current {
                continue;
            }
            if c == previous.core && index < previous.index {
                continue; // exception (1)
            }
            if c == current.core && index > current.index {
                continue; // exception (2)
            }
            out.push(p);
        }
    }
    out
}

/// Distinct lines of `line`'s set, other than `line`, among `window`.
fn distance(cores: &[Vec<u64>], sets: u64, line: u64, window: &[Position]) -> u64 {
    let set = line % sets;
    let mut seen = BTreeSet::new();
    for p in window {
        if let Some(&l) = cores.get(p.core).and_then(|s| s.get(p.index)) {
            if l != line && l % sets == set {
                seen.insert(l);
            }
        }
    }
    seen.len() as u64
}

/// Classifies every access of every core. `max_work` bounds the number of window entries
/// examined in total; exceeding it is an error naming the budget.
pub fn analyze(
    cores: &[Vec<u64>],
    geometry: &CacheGeometry,
    method: LlcMethod,
    max_work: usize,
) -> Result<LlcResult, Diagnostic> {
    let sets = geometry.sets()?;
    let ways = geometry.associativity as u64;
    // line → positions, per core, for "latest access before" queries.
    let index: Vec<BTreeMap<u64, Vec<usize>>> = cores
        .iter()
        .map(|seq| {
            let mut m: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
            for (i, &l) in seq.iter().enumerate() {
                m.entry(l).or_default().push(i);
            }
            m
        })
        .collect();
    let latest_before = |core: usize, line: u64, bound: usize| -> Option<usize> {
        let v = index.get(core)?.get(&line)?;
        let k = v.partition_point(|&i| i < bound);
        k.checked_sub(1).map(|k| v[k])
    };
    let mut work = 0usize;
    let mut result = LlcResult {
        method,
        cores: Vec::with_capacity(cores.len()),
        accesses: 0,
        misses: 0,
        miss_rate: 0.0,
    };
    for (c, seq) in cores.iter().enumerate() {
        let mut outs = Vec::with_capacity(seq.len());
        for (i, &line) in seq.iter().enumerate() {
            let current = Position { core: c, index: i };
            let mut candidates: Vec<Position> = Vec::new();
            if let Some(j) = latest_before(c, line, i) {
                candidates.push(Position { core: c, index: j });
            }
            if let LlcMethod::AccessInterval { quota } = method {
                let q = quota.max(1) as usize;
                let end_start = (i / q) * q;
                for c2 in (0..cores.len()).filter(|&c2| c2 != c) {
                    if let Some(j) = latest_before(c2, line, end_start) {
                        candidates.push(Position { core: c2, index: j });
                    }
                }
            }
            let mut best: Option<(u64, Position)> = None;
            for p in candidates {
                let window = match method {
                    LlcMethod::Simple => simple_window(cores, p, current),
                    LlcMethod::AccessInterval { quota } => {
                        access_interval_window(cores, quota, p, current)
                    }
                };
                work = work.saturating_add(window.len());
                if work > max_work {
                    return Err(Diagnostic::global(
                        Severity::Error,
                        format!(
                            "shared-LLC analysis examined more than {max_work} window entries \
                             (raise max_cache_accesses)"
                        ),
                    ));
                }
                let d = distance(cores, sets, line, &window);
                if best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, p));
                }
            }
            let outcome = match best {
                Some((d, p)) => LlcOutcome {
                    line,
                    previous: Some(p),
                    reuse_distance: Some(d),
                    hit: d < ways,
                },
                None => LlcOutcome {
                    line,
                    previous: None,
                    reuse_distance: None,
                    hit: false,
                },
            };
            result.accesses += 1;
            if !outcome.hit {
                result.misses += 1;
            }
            outs.push(outcome);
        }
        result.cores.push(outs);
    }
    if result.accesses > 0 {
        result.miss_rate = result.misses as f64 / result.accesses as f64;
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: u64 = 0;
    const B: u64 = 1;
    const C: u64 = 2;
    const D: u64 = 3;
    const E: u64 = 4;

    /// The three cores of Figs. 31, 33 and 34 (columns read top to bottom). In Figs. 33/34
    /// the first row shown is the last access of interval k, so with quota 2 the figure's
    /// rows are indices 1..=8 of each core; index 0 stands for the row above the figure
    /// (a line F that no other access uses).
    fn cores() -> Vec<Vec<u64>> {
        const F: u64 = 5;
        vec![
            vec![F, A, B, C, D, A, C, B, E],
            vec![F + 1, A, D, C, E, A, B, D, C],
            vec![F + 2, E, B, D, A, C, B, A, D],
        ]
    }

    fn one_set(assoc: u32) -> CacheGeometry {
        CacheGeometry {
            size_bytes: 128 * assoc as u64,
            line_bytes: 128,
            associativity: assoc,
        }
    }

    fn pos(core: usize, index: usize) -> Position {
        Position { core, index }
    }

    /// Fig. 33: quota 2, access C0_C in interval k+3 (row 6 → index 6), latest previous
    /// access to C on core 0 in interval k+1 (row 3 → index 3). The gray area is rows 2–7 of
    /// all cores minus C0_B of row 2 (before the previous access on its core), the two
    /// C0_C themselves and C0_B of row 7 (after the access under analysis): 14 accesses,
    /// whose distinct lines other than C are A, B, D, E.
    #[test]
    fn fig33_access_interval_window() {
        let cores = cores();
        let w = access_interval_window(&cores, 2, pos(0, 3), pos(0, 6));
        let mut expected = vec![pos(0, 4), pos(0, 5)];
        for c in 1..3 {
            expected.extend((2..=7).map(|i| pos(c, i)));
        }
        assert_eq!(w, expected);
        assert_eq!(w.len(), 14);
        assert_eq!(distance(&cores, 1, C, &w), 4);
    }

    /// Fig. 34: the latest previous access of C0_E (row 8, interval k+4) is C1_E (row 4,
    /// interval k+2). The window spans intervals k+2..k+4 (rows 4–9), without C1's accesses
    /// before C1_E in k+2 (none: it opens the interval), without C0's accesses after C0_E
    /// (none shown). Rows 4–8 of all cores minus the two E accesses: 13 accesses.
    #[test]
    fn fig34_previous_access_on_another_core() {
        let cores = cores();
        let w = access_interval_window(&cores, 2, pos(1, 4), pos(0, 8));
        assert_eq!(w.len(), 13);
        assert!(!w.contains(&pos(1, 4)) && !w.contains(&pos(0, 8)));
        assert!(w.contains(&pos(1, 5)) && w.contains(&pos(2, 8)) && w.contains(&pos(0, 4)));
        assert_eq!(distance(&cores, 1, E, &w), 4);
    }

    /// Fig. 31: the Simple method bounds C0_C at T1 (index 6) from C0_C at T0 (index 3)
    /// with the own accesses between (D, A) and all 18 accesses of cores 1 and 2.
    #[test]
    fn fig31_simple_window() {
        let cores = cores();
        let w = simple_window(&cores, pos(0, 3), pos(0, 6));
        assert_eq!(w.len(), 2 + 9 + 9);
        // Lines other than C in one set: A, B, D, E and the two filler lines of cores 1, 2.
        assert_eq!(distance(&cores, 1, C, &w), 6);
    }

    /// Access Interval is never worse than Simple. With 5 ways the Simple method proves no
    /// hit (every window holds ≥ 4 letters plus two filler lines of other cores) while the
    /// interval windows, which hold at most the 4 other letters, prove some; with 8 ways
    /// (more than the 8 lines in use minus one) every re-access on the same core is a hit.
    #[test]
    fn interval_method_is_tighter_than_simple() {
        let cores = cores();
        let s = analyze(&cores, &one_set(5), LlcMethod::Simple, 1 << 20).expect("simple");
        let a = analyze(
            &cores,
            &one_set(5),
            LlcMethod::AccessInterval { quota: 2 },
            1 << 20,
        )
        .expect("interval");
        assert!(a.misses <= s.misses);
        assert_eq!(s.misses, 27); // ≥ 6 other lines in every Simple window: nothing provable
        assert!(a.misses < 27);
        for (cs, ca) in s.cores.iter().zip(&a.cores) {
            for (x, y) in cs.iter().zip(ca) {
                assert!(!x.hit || y.hit);
            }
        }
        let s8 = analyze(&cores, &one_set(8), LlcMethod::Simple, 1 << 20).expect("simple");
        // Cold misses only: the first access of each line on each core (Simple needs an own
        // previous access): core 0 has 6 distinct lines, core 1 6, core 2 6.
        assert_eq!(s8.misses, 18);
    }
}
