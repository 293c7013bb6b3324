//! From a fact to a number: the most times the header can run per entry into the loop, for
//! every thread of one launch.
//!
//! In iteration `k` (from 0) the compared side is `x_k = A + k·B` (linear facts: `A` the
//! side's first value, `B` its step). The header runs in iteration `k + 1` only if
//! `x_k op R` held, so it runs at most `K + 1` times, `K` the first `k` where the comparison
//! fails. The machine compares `w`-bit values: the arithmetic in [`crate::expr`] is exact
//! modulo 2^w, so `x_k`'s machine value is `A + k·B` *reduced* into the signed or unsigned
//! range; this module proves that no reduction happens for `k ≤ K` — every `x_k` up to the
//! first failing one lies in the range — and otherwise gives no bound (a counter that could
//! wrap before reaching its limit). The worst thread maximises `K`: the largest distance
//! `R − A` over the launch's intervals (computed as one polynomial, so shared atoms such as
//! `tid` cancel) and the smallest step.
//!
//! | op  | step | `K` (D = R − A) | values reached |
//! |-----|------|-----------------|----------------|
//! | `<` | B > 0 | ⌈D / B⌉ (≥ 0)  | A … R − 1 + B |
//! | `≤` | B > 0 | ⌊D / B⌋ + 1    | A … R + B |
//! | `≠` | B ≠ 0 | D / B when B divides D (D read modulo 2^w) | any (equality is exact) |
//! | `>`, `≥` | B < 0 | mirrored | |
//! | `=` | B ≠ 0 | ≤ 1 | |
//!
//! A `≠` exit needs the direction right and the step to divide the distance: otherwise the
//! counter steps over its limit and wraps. Halving and scaling facts are counted by running
//! the update on the extreme values (the count is monotone in the start and the limit for
//! the comparisons accepted; at most `w + 1` steps).

use crate::induction::{Evolution, Fact, Iv, Shape};
use crate::interval::{Evaluator, Interval};
use crate::ir::{CmpOp, FuncOp};

/// The bound of one fact: header runs per entry, or why there is none.
/// A fact's count: the most header runs per entry, and whether it is *the* count of every
/// thread that reaches the exit test (one start, one step, one limit, each a single value —
/// then the iteration a thread leaves in at the fact's block is known).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Runs {
    pub n: u64,
    pub exact: bool,
}

/// `live[j]`: the loop's `j`-th entering edge can be taken (its start counts).
pub fn header_runs(f: &Fact, iv: &Iv, e: &Evaluator, live: &[bool]) -> Result<Runs, String> {
    let n = count_runs(f, iv, e, live)?;
    let live_inits: Vec<usize> = (0..iv.inits.len())
        .filter(|&j| live.get(j).copied().unwrap_or(true))
        .collect();
    let point = |v: crate::expr::ValueId| e.int(v).is_some_and(Interval::is_point);
    let exact = match (&iv.evolution, live_inits.as_slice()) {
        (Evolution::Linear { .. }, [j]) => {
            f.steps.len() == 1
                && point(f.steps[0])
                && point(f.limit)
                && f.starts.get(*j).is_some_and(|&a| point(a))
        }
        (_, [j]) => point(iv.inits[*j]) && point(f.limit),
        _ => false,
    };
    Ok(Runs { n, exact })
}

fn count_runs(f: &Fact, iv: &Iv, e: &Evaluator, live: &[bool]) -> Result<u64, String> {
    let live = |j: usize| live.get(j).copied().unwrap_or(true);
    match (&iv.evolution, &f.shape) {
        (Evolution::Linear { .. }, Shape::Linear { .. }) => linear(f, iv.width, e, &live),
        (Evolution::Halving { op, by }, Shape::Current | Shape::Next) => {
            geometric(f, iv, e, &live, |x| match op {
                FuncOp::DivU => x / by,
                _ => x >> by,
            })
        }
        (Evolution::Scaling { factor }, Shape::Current | Shape::Next) => {
            geometric(f, iv, e, &live, |x| x * factor)
        }
        _ => Err("the compared side is not the variable's update".into()),
    }
}

/// The machine range of `width`-bit values.
fn range(width: u32, signed: bool) -> (i128, i128) {
    if signed {
        (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
    } else {
        (0, (1i128 << width) - 1)
    }
}

fn linear(
    f: &Fact,
    width: u32,
    e: &Evaluator,
    live: &dyn Fn(usize) -> bool,
) -> Result<u64, String> {
    let unknown = |what: &str| format!("{what} is not known for this launch");
    // The step: every alternative, read as a small signed number.
    let mut step: Option<Interval> = None;
    for &s in &f.steps {
        let b = e
            .int(s)
            .and_then(|b| b.signed(width))
            .ok_or_else(|| unknown("the step"))?;
        step = Some(step.map_or(b, |x| x.hull(b)));
    }
    let b = step.ok_or("no step")?;
    if f.op == CmpOp::Ne {
        let mut most: u64 = 0;
        for (j, &dist) in f.distances.iter().enumerate() {
            if !live(j) {
                continue;
            }
            let d = e.int(dist).ok_or_else(|| unknown("the distance"))?;
            most = most.max(ne(d, b, width)?);
        }
        return most
            .checked_add(1)
            .ok_or_else(|| "too many iterations".into());
    }
    let limit = e.int(f.limit).ok_or_else(|| unknown("the limit"))?;
    let window = limit
        .window(width, f.signed)
        .ok_or_else(|| "the limit may lie on either side of the wrap-around".to_string())?;
    let r = Interval::new(limit.lo - window, limit.hi - window).ok_or("limit out of range")?;
    let (lo_m, hi_m) = range(width, f.signed);
    let mut most: u64 = 0;
    for (j, (&start, &dist)) in f.starts.iter().zip(&f.distances).enumerate() {
        if !live(j) {
            continue;
        }
        let a = e.int(start).ok_or_else(|| unknown("the start"))?;
        // Each side read as its machine value; the distance (one polynomial, so shared atoms
        // cancel) moves by the difference of their windows.
        let w_a = a
            .window(width, f.signed)
            .ok_or("the start may lie on either side of the wrap-around")?;
        let a = Interval::new(a.lo - w_a, a.hi - w_a).ok_or("start out of range")?;
        let d = e.int(dist).ok_or_else(|| unknown("the distance"))?;
        let d = Interval::new(d.lo + w_a - window, d.hi + w_a - window)
            .ok_or("distance out of range")?;
        let k = count(f.op, a, b, r, d, lo_m, hi_m)?;
        most = most.max(k);
    }
    most.checked_add(1)
        .ok_or_else(|| "too many iterations".into())
}

/// `x ≠ R` with `x_k = A + k·B`: equality is exact modulo 2^w, so the counter ends at the
/// first `k` with `k·B ≡ D` (`D = R − A`); reading `D` (or `−D` for a decreasing counter)
/// in `0 ..< 2^w`, that is at most `D / |B|` when `|B|` divides it — for every thread when
/// `|B| = 1`, else only when `D` is one known value. Otherwise the counter may step over its
/// limit and wrap around: no bound.
fn ne(d: Interval, b: Interval, width: u32) -> Result<u64, String> {
    if !b.is_point() || b.lo == 0 {
        return Err("a ≠ exit with a step that varies may step over its limit".into());
    }
    let (dist, step) = if b.lo > 0 {
        (d, b.lo)
    } else {
        (d.negated().ok_or("distance out of range")?, -b.lo)
    };
    let dist = dist
        .unsigned(width)
        .ok_or("the counter may start on either side of its ≠ limit")?;
    if dist.hi >= 1i128 << (width - 1) {
        return Err("the counter may start past its ≠ limit and wrap around".into());
    }
    if step != 1 && !(dist.is_point() && dist.lo % step == 0) {
        return Err(format!(
            "the step {step} may not divide the distance to the ≠ limit"
        ));
    }
    u64::try_from(dist.hi / step).map_err(|_| "too many iterations".into())
}

/// `K` for one start interval `a`, step `b`, limit `r` (machine values) and distance
/// `d = r − a` (table in the module doc); checks that no value up to the first failing one
/// leaves `lo_m..=hi_m`.
fn count(
    op: CmpOp,
    a: Interval,
    b: Interval,
    r: Interval,
    d: Interval,
    lo_m: i128,
    hi_m: i128,
) -> Result<u64, String> {
    let fits = |lo: i128, hi: i128| -> Result<(), String> {
        if lo >= lo_m && hi <= hi_m {
            Ok(())
        } else {
            Err("the counter could wrap around before reaching its limit".into())
        }
    };
    let to_u64 = |k: i128| u64::try_from(k.max(0)).map_err(|_| "too many iterations".to_string());
    if op == CmpOp::Eq {
        // x_1 = x_0 + B differs from x_0 (modulo 2^w too) when B is a nonzero point.
        return if b.is_point() && b.lo != 0 {
            Ok(1)
        } else {
            Err("the step may be zero".into())
        };
    }
    if b.lo > 0 {
        match op {
            CmpOp::Lt => {
                let k = if d.hi <= 0 { 0 } else { div_ceil(d.hi, b.lo) };
                fits(a.lo, a.hi.max(r.hi - 1 + b.hi))?;
                to_u64(k)
            }
            CmpOp::Le => {
                let k = if d.hi < 0 { 0 } else { d.hi / b.lo + 1 };
                fits(a.lo, a.hi.max(r.hi + b.hi))?;
                to_u64(k)
            }
            _ => Err("the counter moves away from its limit".into()),
        }
    } else if b.hi < 0 {
        let up = Interval {
            lo: -b.hi,
            hi: -b.lo,
        };
        // Mirror: x ↦ −x turns a decreasing counter into an increasing one.
        let (na, nr, nd) = (
            Interval {
                lo: -a.hi,
                hi: -a.lo,
            },
            Interval {
                lo: -r.hi,
                hi: -r.lo,
            },
            Interval {
                lo: -d.hi,
                hi: -d.lo,
            },
        );
        let mirrored = match op {
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            _ => return Err("the counter moves away from its limit".into()),
        };
        count(mirrored, na, up, nr, nd, -hi_m, -lo_m)
    } else {
        Err("the step may be zero or change sign".into())
    }
}

fn div_ceil(a: i128, b: i128) -> i128 {
    (a + b - 1).div_euclid(b)
}

/// Halving or scaling: run `update` from the extreme starts against the extreme limits.
fn geometric(
    f: &Fact,
    iv: &Iv,
    e: &Evaluator,
    live: &dyn Fn(usize) -> bool,
    update: impl Fn(i128) -> i128,
) -> Result<u64, String> {
    let w = iv.width;
    let limit = e
        .int(f.limit)
        .and_then(|r| r.machine(w, f.signed))
        .ok_or("the limit is not known for this launch")?;
    let shrinking = matches!(iv.evolution, Evolution::Halving { .. });
    let ok_op = match f.op {
        CmpOp::Gt | CmpOp::Ge => shrinking,
        CmpOp::Lt | CmpOp::Le => !shrinking,
        CmpOp::Ne => shrinking && limit == Interval::point(0),
        CmpOp::Eq => false,
    };
    let mut most = 0u64;
    for (j, &init) in iv.inits.iter().enumerate() {
        if !live(j) {
            continue;
        }
        // Values of the variable itself (unsigned), then read in the compare's signedness.
        let i = e
            .int(init)
            .and_then(|x| x.unsigned(w))
            .ok_or("the start is not known for this launch")?;
        let exact = i.is_point() && limit.is_point();
        if !ok_op && !exact {
            return Err(format!(
                "a {} exit on a {} variable needs a known start and limit",
                f.op.symbol(),
                if shrinking { "halving" } else { "scaling" }
            ));
        }
        // Read signed, the starts must not straddle 2^(w−1): within one half the signed
        // reading is monotone in the unsigned value, so the extreme starts stay extreme.
        let half = 1i128 << (w - 1);
        if f.signed && i.lo < half && i.hi >= half {
            return Err("the start may have either sign".into());
        }
        let read = |v: i128| {
            if f.signed && v >= half {
                v - 2 * half
            } else {
                v
            }
        };
        for start in [i.lo, i.hi] {
            for r in [limit.lo, limit.hi] {
                let mut x = start;
                let mut k: u64 = 0;
                loop {
                    let raw = match f.shape {
                        Shape::Next => update(x),
                        _ => x,
                    };
                    if raw < 0 || raw > 2 * half - 1 {
                        return Err("the variable could wrap around".into());
                    }
                    let side = read(raw);
                    if !f.op.holds(side, r) {
                        break;
                    }
                    k += 1;
                    x = update(x);
                    if k > u64::from(w) + 1 {
                        return Err("the variable reaches a fixed point that never exits".into());
                    }
                }
                most = most.max(k);
            }
        }
    }
    Ok(most + 1)
}

/// The φ of a linear induction variable with one start and one step, both single values,
/// in iteration `k`: `init + k · step` (the value it leaves with when `k` is the exit
/// iteration).
pub fn phi_at(iv: &Iv, k: u64, e: &Evaluator, live: &[bool]) -> Option<Interval> {
    let Evolution::Linear { steps } = &iv.evolution else {
        return None;
    };
    let inits: Vec<_> = iv
        .inits
        .iter()
        .enumerate()
        .filter(|(j, _)| live.get(*j).copied().unwrap_or(true))
        .map(|(_, &v)| v)
        .collect();
    let ([init], [step]) = (inits.as_slice(), steps.as_slice()) else {
        return None;
    };
    let (i, s) = (e.int(*init)?, e.int(*step)?.signed(iv.width)?);
    if !i.is_point() || !s.is_point() {
        return None;
    }
    let x = i.lo.checked_add(s.lo.checked_mul(i128::from(k))?)?;
    Interval::new(x, x)
}

/// The range of an induction variable's φ over the `runs` header runs of one entry, for
/// bounding loops nested inside (triangular nests).
pub fn phi_range(iv: &Iv, runs: u64, e: &Evaluator) -> Option<Interval> {
    let mut init: Option<Interval> = None;
    for &i in &iv.inits {
        let x = e.int(i)?;
        init = Some(init.map_or(x, |o| o.hull(x)));
    }
    let init = init?;
    let k = i128::from(runs.checked_sub(1)?);
    if k == 0 {
        // One header run: the φ holds its initial value only, whatever its evolution (a
        // halving counter that starts negative, so is not entered, has no unsigned range).
        return Some(init);
    }
    match &iv.evolution {
        Evolution::Linear { steps } => {
            let mut s: Option<Interval> = None;
            for &st in steps {
                let x = e.int(st)?.signed(iv.width)?;
                s = Some(s.map_or(x, |o| o.hull(x)));
            }
            let s = s?;
            let span = Interval::new(s.lo.min(0) * k, s.hi.max(0) * k)?;
            let r = init.plus(span)?;
            // Only useful when no value wraps (the caller reads machine values).
            r.signed(iv.width)
                .or_else(|| r.unsigned(iv.width))
                .map(|_| r)
        }
        Evolution::Halving { .. } => {
            let u = init.unsigned(iv.width)?;
            Interval::new(0, u.hi)
        }
        Evolution::Scaling { factor } => {
            let u = init.unsigned(iv.width)?;
            let top =
                u.hi.checked_mul(factor.checked_pow(u32::try_from(k).ok()?)?)?;
            (top < 1i128 << iv.width).then(|| Interval::new(u.lo, top))?
        }
    }
}
