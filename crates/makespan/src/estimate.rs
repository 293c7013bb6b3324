//! The tractable estimate of §5.6 (Eq. 42–43).
//!
//! My reading: with `T(y)` the exact worst-case makespan of `y` warps,
//!
//! * Eq. 43: `T(W, y) = ⌈W/y⌉ · T(y)` — run the `W` warps as `⌈W/y⌉` groups of at most `y`,
//!   each taking at most `T(y)`;
//! * Eq. 42: `T(W, x) = min_{y = 1..x} T(W, y)` — the best such grouping with groups of at
//!   most `x` warps (the minimum, rather than `T(W, x)` alone, because `T(W, y)` is not
//!   monotone in `y`).
//!
//! `T(y)` comes from the exact search ([`crate::exact`]) instead of the ILP; the values are
//! the same.
//!
//! **Caveat — Eq. 42 is not always an upper bound.** The paper presents it as a safe
//! estimate, but the grouping argument assumes that `W` warps can never be worse than
//! `⌈W/y⌉` groups run back to back, and work-conserving schedules break that: with more warps
//! the scheduler can starve one warp while the others keep the busy unit saturated, and
//! pairs cannot. Example (`σ_L = σ_C = 1`): `"LCLL"` has `T(2) = 6` but `T(8) = 25`, so
//! Eq. 42 with `x = 2` gives `⌈8/2⌉·6 = 24 < 25`; `"CLC"` has `T(2) = 4`, `T(6) = 13 > 12`.
//! The paper's own experiments (`"LLCLL"`, Fig. 6; `"LLCLLCLL"`, Fig. 7) are not affected
//! (there `T(W, x) ≥ T(W)` for every `x`). This module computes Eq. 42–43 as written; treat
//! the result as an estimate, and prefer [`crate::exact`] (or [`crate::safe_bound`]) when a
//! guaranteed bound is needed.

use isa::progress::{self, Observer, Task};

use crate::exact::{check, exact_makespan_within, Reporting};
use crate::model::{Error, Transformed};
use crate::schedule::Budget;

/// The estimate `T(W, x)` of Eq. 42 with the terms it minimised over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Estimate {
    /// The largest group size `x` allowed.
    pub x: u32,
    /// `T(W, x) = min over y of ⌈W/y⌉·T(y)` (0 for no warps).
    pub value: u64,
    /// The `y` attaining `value` (the smallest one on ties; 0 for no warps).
    pub best_y: u32,
    /// `(y, T(y), ⌈W/y⌉·T(y))` for `y = 1..=min(x, W)`.
    pub terms: Vec<(u32, u64, u64)>,
}

/// Exact `T(y)` for `y = 1, 2, …, n`, the searches sharing one `max_search_steps` budget,
/// as far as the budget allows: the values found, and the error that stopped the sequence
/// (`None` when all `n` were found). `observer` hears the steps of all the searches together
/// as `task`.
fn exact_values(
    t: &Transformed,
    n: u32,
    budget: &Budget,
    (observer, task): (Observer, Task),
) -> (Vec<u64>, Option<Error>) {
    let mut values = Vec::new();
    let mut steps_left = budget.max_search_steps;
    for y in 1..=n {
        let reporting = Reporting {
            observer,
            task,
            offset: (budget.max_search_steps - steps_left) as u64,
        };
        match exact_makespan_within(t, y, budget, steps_left, reporting) {
            Ok((v, stats)) => {
                values.push(v);
                steps_left = steps_left.saturating_sub(stats.steps);
            }
            Err(Error::Budget { what, .. }) if what == "max_search_steps" => {
                // Name the whole computation's budget, not what was left of it.
                let e = Error::Budget {
                    what,
                    limit: budget.max_search_steps,
                };
                return (values, Some(e));
            }
            Err(e) => return (values, Some(e)),
        }
    }
    (values, None)
}

/// Eq. 42–43 for `x`: `min over y = 1..=min(x, W) of ⌈W/y⌉ · T(y)`, with `T(y)` from the
/// exact search. Group sizes above `W` are not tried: `⌈W/y⌉ = 1` there, and `T(y) ≥ T(W)`
/// for them adds nothing but work.
///
/// Not guaranteed to be an upper bound on `T(W)` — see the module docs for a counterexample
/// to the paper's claim. `warps = 0` gives value 0 with no terms.
///
/// # Errors
/// [`Error::Invalid`] for `x = 0` or a zero sigma; [`Error::Budget`] when an exact `T(y)`
/// exceeds `budget.max_states`.
pub fn estimate(t: &Transformed, warps: u32, x: u32, budget: &Budget) -> Result<Estimate, Error> {
    estimate_observed(t, warps, x, budget, &progress::silent)
}

/// [`estimate`], telling `observer` every few thousand search steps how many steps the
/// searches for `T(1)`, `T(2)`, … have made together, of `max_search_steps`
/// ([`Task::MakespanEstimate`]). The result does not depend on the observer.
///
/// # Errors
/// As [`estimate`].
pub fn estimate_observed(
    t: &Transformed,
    warps: u32,
    x: u32,
    budget: &Budget,
    observer: Observer,
) -> Result<Estimate, Error> {
    check(t)?;
    if x == 0 {
        return Err(Error::Invalid(
            "the estimate needs a group size x of at least 1".into(),
        ));
    }
    let ys = x.min(warps);
    match exact_values(t, ys, budget, (observer, Task::MakespanEstimate)) {
        (values, None) => Ok(assemble(warps, x, &values)),
        (_, Some(e)) => Err(e),
    }
}

/// Builds the [`Estimate`] for `x` from exact values `values[y-1] = T(y)`.
fn assemble(warps: u32, x: u32, values: &[u64]) -> Estimate {
    let w = u64::from(warps);
    let ys = x.min(warps) as usize;
    let mut terms = Vec::with_capacity(ys);
    let mut best: Option<(u64, u32)> = None;
    for (idx, &ty) in values.iter().take(ys).enumerate() {
        let y = idx as u32 + 1;
        let term = w.div_ceil(u64::from(y)).saturating_mul(ty);
        terms.push((y, ty, term));
        if best.is_none_or(|(v, _)| term < v) {
            best = Some((term, y));
        }
    }
    let (value, best_y) = best.unwrap_or((0, 0));
    Estimate {
        x,
        value,
        best_y,
        terms,
    }
}

/// `T(W, x)` for `x = 1..=max_x` — the curves of the paper's Figs. 6 and 7. Each exact
/// `T(y)` is computed once. For `x > W` the value stays at `T(W, W)`; `warps = 0` gives 0
/// everywhere; `max_x = 0` gives an empty curve.
///
/// # Errors
/// As [`estimate`] (a zero sigma, or a budget exceeded for some `T(y)`).
pub fn estimate_curve(
    t: &Transformed,
    warps: u32,
    max_x: u32,
    budget: &Budget,
) -> Result<Vec<(u32, u64)>, Error> {
    match estimate_curve_partial(t, warps, max_x, budget) {
        (curve, None) => Ok(curve),
        (_, Some(e)) => Err(e),
    }
}

/// [`estimate_curve`] as far as the budget reaches: the searches for `T(1)`, `T(2)`, … share
/// one `max_search_steps` budget, and the curve stops at the last `x` whose `T(x)` was found
/// (for `x ≤ W`), with the error that stopped it. This is what an interactive page wants: the
/// small group sizes — cheap and the ones that matter for Eq. 42 on a large `W` — always
/// arrive, and the work never exceeds one budget.
pub fn estimate_curve_partial(
    t: &Transformed,
    warps: u32,
    max_x: u32,
    budget: &Budget,
) -> (Vec<(u32, u64)>, Option<Error>) {
    estimate_curve_partial_observed(t, warps, max_x, budget, &progress::silent)
}

/// [`estimate_curve_partial`], telling `observer` how many steps the searches have made
/// together ([`Task::MakespanCurve`]). The result does not depend on the observer.
pub fn estimate_curve_partial_observed(
    t: &Transformed,
    warps: u32,
    max_x: u32,
    budget: &Budget,
    observer: Observer,
) -> (Vec<(u32, u64)>, Option<Error>) {
    if let Err(e) = check(t) {
        return (Vec::new(), Some(e));
    }
    let (values, stopped) =
        exact_values(t, max_x.min(warps), budget, (observer, Task::MakespanCurve));
    let reach = if stopped.is_some() {
        values.len() as u32
    } else {
        max_x
    };
    let curve = (1..=reach)
        .map(|x| (x, assemble(warps, x, &values).value))
        .collect();
    (curve, stopped)
}
