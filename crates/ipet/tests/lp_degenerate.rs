//! Degenerate and dependent constraint systems through every LP call of the seam
//! (`ipet::lp`: `Lp::add_var`, `Lp::add_row`, `Lp::solve`, `Optimum::restrict`) and through
//! both branch and bounds on top of it (`branch_and_bound::maximize`, and
//! `binary::maximize_binary` with its root LP), against an independent brute-force
//! enumeration of every integer point of a small box.
//!
//! The programs: up to 4 variables, each boxed to `0..=u` by an explicit row (so the
//! enumeration is finite), a few random rows with small integer coefficients that hold at a
//! random point of the box (often with equality, so the point is a degenerate vertex), then
//! edits that make the system degenerate or dependent: duplicated rows, positive or (for
//! equalities) arbitrary linear combinations of other rows, equality rows that pin a variable
//! (maybe out of its box), zero rows (satisfied or not, with or without zero-coefficient
//! terms), rows
//! scaled by powers of 2 and 10 (coefficients from about 1e-3 to 3e3, within the six orders
//! of magnitude the LP solver asks for), rows that name a variable twice, and contradictions.
//!
//! What must hold: nothing panics; every error is one of the typed variants (an LP solver
//! failure is `Lp(..)`, whose message says "LP solver failed"); an infeasible answer is
//! right (the enumeration finds no point); a returned solution is integral, inside the box,
//! satisfies every row (checked here, not by the crate) and has exactly the enumerated
//! optimum; an LP optimum bounds the integer optimum from above, restrictions never raise it,
//! and an LP that says infeasible has no integer point either. Chains of IPET loop rows
//! (`loop_chains_amplify_exactly`) check that the LP optimum is the exact product of the
//! loop bounds, not one inflated by the solver's feasibility tolerance.

use ipet::binary::{maximize_binary, BinaryError, BinaryLimits};
use ipet::branch_and_bound::{maximize, BbError, IntegerProgram, LinearConstraint, Relation};
use ipet::lp::{Lp, LpAnswer, LpError};
use proptest::prelude::*;

/// One edit of the base system (row indices are taken modulo the current number of rows).
#[derive(Clone, Debug)]
enum Edit {
    /// Append a copy of a row.
    Duplicate(usize),
    /// Append `a·row_r + b·row_s` (as `<=`/`=` rows; `a`, `b` made positive unless both are
    /// equalities).
    Combine(usize, usize, i8, i8),
    /// Append `x_v = k`, or `x_v = point[v]` when `k` is `None` (`k` may lie outside the
    /// box: then nothing is feasible).
    Pin(usize, Option<u8>),
    /// Append a row without effective terms: `holds` decides whether `0 (rel) rhs` is true;
    /// `with_zero_terms` spells it with explicit zero coefficients.
    Zero { holds: bool, with_zero_terms: bool },
    /// Multiply a row (coefficients and right-hand side) by `2^e` (`base_ten == false`) or
    /// `10^e`; negative factors flip `<=` and `>=`.
    Scale(usize, i8, bool, bool),
    /// Rewrite a row's first term `(v, c)` as `(v, c - 1), (v, 1)`.
    Repeat(usize),
}

/// A random row: `(terms, relation, slack)`.
type RandomRow = (Vec<(usize, i8)>, Relation, u8);

#[derive(Clone, Debug)]
struct Case {
    upper: Vec<u8>,
    /// A point of the box that every random row holds at (with the row's slack), so that
    /// most programs are feasible and rows with zero slack are tight there (degenerate).
    point: Vec<u8>,
    objective: Vec<i8>,
    /// `(terms, relation, slack)`: the right-hand side is the row's value at `point`,
    /// loosened by `slack` for an inequality.
    rows: Vec<RandomRow>,
    edits: Vec<Edit>,
}

fn relation() -> impl Strategy<Value = Relation> {
    prop_oneof![Just(Relation::Le), Just(Relation::Ge), Just(Relation::Eq)]
}

fn edit(n: usize) -> impl Strategy<Value = Edit> {
    prop_oneof![
        (0..64usize).prop_map(Edit::Duplicate),
        (0..64usize, 0..64usize, -3..=3i8, -3..=3i8).prop_map(|(r, s, a, b)| Edit::Combine(
            r,
            s,
            if a == 0 { 1 } else { a },
            if b == 0 { 1 } else { b }
        )),
        (0..n, prop::option::weighted(0.25, 0..=4u8)).prop_map(|(v, k)| Edit::Pin(v, k)),
        (prop::bool::weighted(0.75), any::<bool>()).prop_map(|(h, z)| Edit::Zero {
            holds: h,
            with_zero_terms: z
        }),
        (0..64usize, -3..=3i8, any::<bool>(), any::<bool>())
            .prop_map(|(r, e, ten, neg)| Edit::Scale(r, e, ten, neg)),
        (0..64usize).prop_map(Edit::Repeat),
    ]
}

/// `max_upper` bounds the box (1 for 0/1 programs).
fn case(max_upper: u8, max_vars: usize) -> impl Strategy<Value = Case> {
    (1..=max_vars).prop_flat_map(move |n| {
        let row = (
            prop::collection::vec((0..n, -3..=3i8), 1..=3),
            relation(),
            prop_oneof![Just(0u8), 0..=3u8],
        );
        (
            prop::collection::vec((0..=max_upper, 0..=max_upper), n),
            prop::collection::vec(-3..=5i8, n),
            prop::collection::vec(row, 0..=4),
            prop::collection::vec(edit(n), 0..=5),
        )
            .prop_map(|(boxes, objective, rows, edits)| Case {
                upper: boxes.iter().map(|&(u, _)| u).collect(),
                point: boxes.iter().map(|&(u, p)| p % (u + 1)).collect(),
                objective,
                rows,
                edits,
            })
    })
}

/// `(terms, relation, rhs)` with `Ge` rewritten as `Le` (negated).
fn as_le_or_eq(c: &LinearConstraint) -> (Vec<(usize, f64)>, Relation, f64) {
    match c.relation {
        Relation::Ge => (
            c.terms.iter().map(|&(v, a)| (v, -a)).collect(),
            Relation::Le,
            -c.rhs,
        ),
        r => (c.terms.clone(), r, c.rhs),
    }
}

/// Builds the program: box rows first, then the random rows, then the edits. With
/// `integer_only`, scalings are by positive powers only (the 0/1 solver takes integer
/// coefficients).
fn program(case: &Case, integer_only: bool) -> IntegerProgram {
    let n = case.upper.len();
    let mut cons: Vec<LinearConstraint> = (0..n)
        .map(|v| LinearConstraint {
            terms: vec![(v, 1.0)],
            relation: Relation::Le,
            rhs: f64::from(case.upper[v]),
        })
        .collect();
    for (terms, relation, slack) in &case.rows {
        let at_point: i32 = terms
            .iter()
            .map(|&(v, a)| i32::from(a) * i32::from(case.point[v]))
            .sum();
        let rhs = match relation {
            Relation::Le => at_point + i32::from(*slack),
            Relation::Ge => at_point - i32::from(*slack),
            Relation::Eq => at_point,
        };
        cons.push(LinearConstraint {
            terms: terms.iter().map(|&(v, a)| (v, f64::from(a))).collect(),
            relation: *relation,
            rhs: f64::from(rhs),
        });
    }
    for e in &case.edits {
        let m = cons.len();
        match *e {
            Edit::Duplicate(r) => cons.push(cons[r % m].clone()),
            Edit::Combine(r, s, a, b) => {
                let (tr, rr, br) = as_le_or_eq(&cons[r % m]);
                let (ts, rs, bs) = as_le_or_eq(&cons[s % m]);
                let both_eq = rr == Relation::Eq && rs == Relation::Eq;
                // An inequality may only be combined with a positive factor.
                let a = f64::from(if rr == Relation::Le { a.abs() } else { a });
                let b = f64::from(if rs == Relation::Le { b.abs() } else { b });
                let mut terms: Vec<(usize, f64)> = tr.iter().map(|&(v, c)| (v, a * c)).collect();
                terms.extend(ts.iter().map(|&(v, c)| (v, b * c)));
                cons.push(LinearConstraint {
                    terms,
                    relation: if both_eq { Relation::Eq } else { Relation::Le },
                    rhs: a * br + b * bs,
                });
            }
            Edit::Pin(v, k) => cons.push(LinearConstraint {
                terms: vec![(v, 1.0)],
                relation: Relation::Eq,
                rhs: f64::from(k.unwrap_or(case.point[v])),
            }),
            Edit::Zero {
                holds,
                with_zero_terms,
            } => cons.push(LinearConstraint {
                terms: if with_zero_terms {
                    vec![(0, 0.0), (n - 1, 0.0)]
                } else {
                    Vec::new()
                },
                relation: Relation::Le,
                rhs: if holds { 0.0 } else { -1.0 },
            }),
            Edit::Scale(r, exp, ten, neg) => {
                let exp = if integer_only {
                    exp.unsigned_abs() as i32
                } else {
                    i32::from(exp)
                };
                let f = if ten {
                    10f64.powi(exp)
                } else {
                    2f64.powi(exp * 3)
                };
                let f = if neg { -f } else { f };
                let c = &mut cons[r % m];
                for t in &mut c.terms {
                    t.1 *= f;
                }
                c.rhs *= f;
                if neg {
                    c.relation = match c.relation {
                        Relation::Le => Relation::Ge,
                        Relation::Ge => Relation::Le,
                        Relation::Eq => Relation::Eq,
                    };
                }
            }
            Edit::Repeat(r) => {
                let c = &mut cons[r % m];
                if let Some(&(v, a)) = c.terms.first() {
                    c.terms[0] = (v, a - 1.0);
                    c.terms.push((v, 1.0));
                }
            }
        }
    }
    IntegerProgram {
        objective: case.objective.iter().map(|&c| f64::from(c)).collect(),
        constraints: cons,
    }
}

/// Whether `x` satisfies `c`, up to round-off of the scaled rows (relative `1e-9`).
fn satisfies(c: &LinearConstraint, x: &[f64], tol: f64) -> bool {
    let mut lhs = 0.0;
    let mut scale = c.rhs.abs();
    for &(v, a) in &c.terms {
        lhs += a * x[v];
        scale += (a * x[v]).abs();
    }
    let t = tol * (1.0 + scale);
    match c.relation {
        Relation::Le => lhs <= c.rhs + t,
        Relation::Ge => lhs >= c.rhs - t,
        Relation::Eq => (lhs - c.rhs).abs() <= t,
    }
}

fn feasible(p: &IntegerProgram, x: &[f64], tol: f64) -> bool {
    x.len() == p.objective.len()
        && x.iter().all(|&v| v >= -tol && v.is_finite())
        && p.constraints.iter().all(|c| satisfies(c, x, tol))
}

/// The integer optimum by enumerating every point of `0..=upper[v]` (an independent
/// oracle: no LP, no rounding of LP values).
fn brute_force(p: &IntegerProgram, upper: &[u8]) -> Option<i64> {
    let n = upper.len();
    let total: usize = upper.iter().map(|&u| usize::from(u) + 1).product();
    let mut best: Option<i64> = None;
    let mut x = vec![0.0; n];
    for mut k in 0..total {
        for v in 0..n {
            let r = usize::from(upper[v]) + 1;
            x[v] = (k % r) as f64;
            k /= r;
        }
        if feasible(p, &x, 1e-9) {
            let val: f64 = p.objective.iter().zip(&x).map(|(c, x)| c * x).sum();
            let val = val as i64;
            best = Some(best.map_or(val, |b| b.max(val)));
        }
    }
    best
}

fn is_lp_failure(e: &LpError) -> bool {
    e.to_string().starts_with("LP solver failed")
}

/// Every solve and restriction of the seam on the relaxation of `p` (variables `>= 0`).
fn check_seam(p: &IntegerProgram, upper: &[u8], restrictions: &[(usize, bool)]) {
    let want = brute_force(p, upper);
    let mut lp = Lp::new();
    for &c in &p.objective {
        lp.add_var(c, 0.0, f64::INFINITY).expect("finite objective");
    }
    for c in &p.constraints {
        lp.add_row(&c.terms, c.relation, c.rhs).expect("valid row");
    }
    let mut current = match lp.solve() {
        Ok(LpAnswer::Optimal(o)) => o,
        Ok(LpAnswer::Infeasible) => {
            assert_eq!(
                want, None,
                "LP infeasible but {want:?} is an integer optimum"
            );
            return;
        }
        Ok(LpAnswer::Unbounded) => panic!("every variable is boxed: the LP cannot be unbounded"),
        Err(e) => {
            assert!(is_lp_failure(&e), "{e}");
            return;
        }
    };
    // Our own check, with the solver's promised absolute tolerance (1e-7) made relative.
    assert!(
        feasible(p, current.values(), 1e-6),
        "{:?}",
        current.values()
    );
    if let Some(w) = want {
        assert!(
            current.objective() >= w as f64 - 1e-6,
            "LP optimum {} below the integer optimum {w}",
            current.objective()
        );
    }
    // Restrict like branch and bound does: x_v <= floor(value) or x_v >= floor(value) + 1.
    let mut box_lo = vec![0u8; upper.len()];
    let mut box_hi = upper.to_vec();
    for &(v, up) in restrictions {
        let v = v % upper.len();
        let x = current.values()[v];
        let parent = current.objective();
        let (relation, rhs) = if up {
            (Relation::Ge, x.floor() + 1.0)
        } else {
            (Relation::Le, x.floor())
        };
        // The box the enumeration checks now (clipped to the original box).
        if up {
            box_lo[v] = box_lo[v].max((rhs.max(0.0) as u8).min(9));
        } else {
            box_hi[v] = box_hi[v].min(rhs.max(0.0) as u8);
        }
        let restricted_want = if box_lo.iter().zip(&box_hi).any(|(l, h)| l > h) {
            None
        } else {
            let mut q = p.clone();
            for (w, (&l, &h)) in box_lo.iter().zip(&box_hi).enumerate() {
                q.constraints.push(LinearConstraint {
                    terms: vec![(w, 1.0)],
                    relation: Relation::Ge,
                    rhs: f64::from(l),
                });
                q.constraints.push(LinearConstraint {
                    terms: vec![(w, 1.0)],
                    relation: Relation::Le,
                    rhs: f64::from(h),
                });
            }
            brute_force(&q, upper)
        };
        match current.restrict(v, relation, rhs) {
            Ok(LpAnswer::Optimal(child)) => {
                assert!(
                    child.objective() <= parent + 1e-6 * (1.0 + parent.abs()),
                    "a restriction raised the LP optimum from {parent} to {}",
                    child.objective()
                );
                let x = child.values()[v];
                let ok = match relation {
                    Relation::Ge => x >= rhs - 1e-6,
                    _ => x <= rhs + 1e-6,
                };
                assert!(ok, "x{v} = {x} ignores the restriction {relation:?} {rhs}");
                assert!(feasible(p, child.values(), 1e-6));
                if let Some(w) = restricted_want {
                    assert!(child.objective() >= w as f64 - 1e-6);
                }
                current = child;
            }
            Ok(LpAnswer::Infeasible) => {
                assert_eq!(restricted_want, None, "restricted LP infeasible");
                return;
            }
            Ok(LpAnswer::Unbounded) => panic!("a restriction of a bounded LP is unbounded"),
            Err(e) => {
                assert!(is_lp_failure(&e), "{e}");
                return;
            }
        }
    }
}

/// `branch_and_bound::maximize` against the enumeration.
fn check_branch_and_bound(p: &IntegerProgram, upper: &[u8]) {
    let want = brute_force(p, upper);
    match maximize(p, 10_000) {
        Ok(out) => {
            assert!(out.complete, "small program not finished in 10 000 LPs");
            let values = out.values.expect("a complete search has values");
            assert!(
                values.iter().all(|x| x.fract() == 0.0 && *x >= 0.0),
                "{values:?}"
            );
            assert!(feasible(p, &values, 1e-9), "infeasible answer {values:?}");
            let objective = out.objective.expect("values come with an objective");
            assert_eq!(Some(objective as i64), want, "values {values:?}");
            assert!(out.lp_bound >= objective - 1e-6);
        }
        Err(BbError::Infeasible) => assert_eq!(want, None, "said infeasible"),
        Err(BbError::Lp(e)) => assert!(is_lp_failure(&e), "{e}"),
        Err(e) => panic!("unexpected error on a valid bounded program: {e}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn seam_on_degenerate_systems(
        c in case(3, 4),
        restrictions in prop::collection::vec((0..4usize, any::<bool>()), 0..=4),
    ) {
        let p = program(&c, false);
        check_seam(&p, &c.upper, &restrictions);
    }

    #[test]
    fn branch_and_bound_on_degenerate_systems(c in case(3, 4)) {
        let p = program(&c, false);
        check_branch_and_bound(&p, &c.upper);
    }

    #[test]
    fn binary_with_root_lp_on_degenerate_systems(c in case(1, 6)) {
        let p = program(&c, true);
        let want = brute_force(&p, &c.upper);
        let limits = BinaryLimits { root_lp: true, ..BinaryLimits::default() };
        match maximize_binary(&p, &[], &limits) {
            Ok(out) => {
                let x: Vec<f64> = out.values.iter().map(|&b| f64::from(u8::from(b))).collect();
                prop_assert!(feasible(&p, &x, 1e-9), "infeasible answer {:?}", x);
                prop_assert_eq!(Some(out.objective), want);
                let lp = out.lp_bound.expect("root LP requested");
                prop_assert!(lp >= out.objective as f64 - 1e-6);
            }
            Err(BinaryError::Infeasible) => prop_assert_eq!(want, None),
            Err(BinaryError::Lp(e)) => prop_assert!(is_lp_failure(&e), "{}", e),
            Err(e) => prop_assert!(false, "unexpected error: {}", e),
        }
    }

    /// An unboxed variable with a positive objective that only a `>=` row touches: if the
    /// rest is feasible, the program is unbounded, and nothing may return a number.
    #[test]
    fn unbounded_systems_are_reported(c in case(3, 3)) {
        let base = program(&c, false);
        let feasible_base = brute_force(&base, &c.upper).is_some();
        let mut p = base.clone();
        let z = p.objective.len();
        p.objective.push(1.0);
        p.constraints.push(LinearConstraint {
            terms: vec![(z, 1.0), (0, -1.0)],
            relation: Relation::Ge,
            rhs: 0.0,
        });
        match maximize(&p, 1_000) {
            Ok(out) => prop_assert!(false, "a number for an unbounded program: {:?}", out),
            Err(BbError::Unbounded) => {}
            Err(BbError::Infeasible) => prop_assert!(!feasible_base),
            Err(BbError::Lp(e)) => prop_assert!(is_lp_failure(&e)),
            Err(e) => prop_assert!(false, "unexpected error: {}", e),
        }
        let mut lp = Lp::new();
        for &o in &p.objective {
            lp.add_var(o, 0.0, f64::INFINITY).expect("finite");
        }
        for con in &p.constraints {
            lp.add_row(&con.terms, con.relation, con.rhs).expect("valid");
        }
        match lp.solve() {
            Ok(LpAnswer::Optimal(o)) => {
                prop_assert!(false, "an optimum {} for an unbounded LP", o.objective())
            }
            Ok(LpAnswer::Infeasible) => prop_assert!(!feasible_base),
            Ok(LpAnswer::Unbounded) => {}
            Err(e) => prop_assert!(is_lp_failure(&e)),
        }
    }
}

/// The shape that made `minilp` abort on real kernels (see `lp_regressions.rs`): a chain of
/// loops, each row `count(h) <= N · entries(h)` written as IPET writes it, naming the entry
/// twice (`x_k + y_k - N·x_k <= 0`), so every loop multiplies the flow by its bound. With a
/// flow of `s` into the first loop the largest flow out of the last is `s · Π N_k`: exact
/// integers up to `12^8`, which a solver that exploits its feasibility tolerance along the
/// chain would overshoot (or, with `s = 0`, turn into a fractional optimum).
fn loop_chain(source: u8, bounds: &[u8], cost: i8, duplicate: bool) -> (IntegerProgram, f64) {
    let d = bounds.len();
    // Variables: x_0..=x_d (flow into each loop and out of the last), then y_0..y_{d-1}.
    let x = |k: usize| k;
    let y = |k: usize| d + 1 + k;
    let mut constraints = vec![LinearConstraint {
        terms: vec![(x(0), 1.0)],
        relation: Relation::Eq,
        rhs: f64::from(source),
    }];
    for (k, &n) in bounds.iter().enumerate() {
        constraints.push(LinearConstraint {
            terms: vec![(x(k + 1), 1.0), (x(k), -1.0), (y(k), -1.0)],
            relation: Relation::Eq,
            rhs: -0.0,
        });
        constraints.push(LinearConstraint {
            terms: vec![(x(k), 1.0), (y(k), 1.0), (x(k), -f64::from(n))],
            relation: Relation::Le,
            rhs: 0.0,
        });
        if duplicate {
            let again = constraints[constraints.len() - 2].clone();
            constraints.push(again);
        }
    }
    let mut objective = vec![0.0; 2 * d + 1];
    objective[x(d)] = f64::from(cost);
    let product: f64 = bounds.iter().map(|&n| f64::from(n)).product();
    // The flow only grows along the chain (`x_{k+1} = x_k + y_k`), from `s` (every `y = 0`)
    // to `s · Π N_k` (every loop at its bound).
    let reach = if cost > 0 { product } else { 1.0 };
    let want = f64::from(cost) * f64::from(source) * reach + 0.0;
    (
        IntegerProgram {
            objective,
            constraints,
        },
        want,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn loop_chains_amplify_exactly(
        source in 0..=1u8,
        bounds in prop::collection::vec(1..=12u8, 1..=8),
        cost in -2..=9i8,
        duplicate in any::<bool>(),
    ) {
        let (p, want) = loop_chain(source, &bounds, cost, duplicate);
        match maximize(&p, 2_000) {
            Ok(out) => {
                prop_assert!(out.complete);
                let values = out.values.expect("complete");
                prop_assert!(feasible(&p, &values, 1e-9), "infeasible answer {:?}", values);
                prop_assert_eq!(out.objective, Some(want));
                prop_assert!(
                    (out.lp_bound - want).abs() <= 1e-6 * (1.0 + want.abs()),
                    "LP bound {} for an integral optimum {}", out.lp_bound, want
                );
            }
            Err(BbError::Lp(e)) => prop_assert!(is_lp_failure(&e)),
            Err(e) => prop_assert!(false, "unexpected error: {}", e),
        }
    }
}

/// The seam refuses malformed input with a typed error instead of panicking inside the
/// solver (which panics on a repeated or out-of-range variable).
#[test]
fn seam_refuses_malformed_input() {
    let mut lp = Lp::new();
    assert!(matches!(
        lp.add_var(f64::NAN, 0.0, 1.0),
        Err(LpError::Rejected(_))
    ));
    assert!(matches!(
        lp.add_var(1.0, 2.0, 1.0),
        Err(LpError::Rejected(_))
    ));
    let x = lp.add_var(1.0, 0.0, 4.0).expect("valid");
    assert!(matches!(
        lp.add_row(&[(x + 1, 1.0)], Relation::Le, 1.0),
        Err(LpError::Rejected(_))
    ));
    assert!(matches!(
        lp.add_row(&[(x, f64::INFINITY)], Relation::Le, 1.0),
        Err(LpError::Rejected(_))
    ));
    assert!(matches!(
        lp.add_row(&[(x, 1.0)], Relation::Le, f64::NAN),
        Err(LpError::Rejected(_))
    ));
    assert!(matches!(
        lp.add_row(&[(x, f64::MAX), (x, f64::MAX)], Relation::Le, 1.0),
        Err(LpError::Rejected(_))
    ));
    // A variable twice in one row is merged: 2x - x <= 3 is x <= 3.
    lp.add_row(&[(x, 2.0), (x, -1.0)], Relation::Le, 3.0)
        .expect("merged");
    let LpAnswer::Optimal(o) = lp.solve().expect("solvable") else {
        panic!("max x, x <= 3 has an optimum");
    };
    assert!((o.objective() - 3.0).abs() < 1e-9);
    assert!(matches!(
        o.clone().restrict(1, Relation::Le, 1.0),
        Err(LpError::Rejected(_))
    ));
    assert!(matches!(
        o.clone().restrict(0, Relation::Le, f64::NAN),
        Err(LpError::Rejected(_))
    ));
    let LpAnswer::Optimal(r) = o.restrict(0, Relation::Le, 2.0).expect("solvable") else {
        panic!("max x, x <= 2 has an optimum");
    };
    assert!((r.objective() - 2.0).abs() < 1e-9);
    // A violated row without terms makes the LP infeasible without asking the solver.
    let mut lp = Lp::new();
    lp.add_var(1.0, 0.0, 1.0).expect("valid");
    lp.add_row(&[(0, 0.0)], Relation::Ge, 1.0)
        .expect("a zero row is decided, not refused");
    assert!(matches!(lp.solve(), Ok(LpAnswer::Infeasible)));
}

/// `LpError` becomes a typed IPET error whose message says the LP solver failed.
#[test]
fn lp_errors_read_as_solver_failures() {
    let e = ipet::Error::Lp(LpError::Numerical("singular basis".into()));
    assert_eq!(
        e.to_string(),
        "LP solver failed: numerical trouble (singular basis)"
    );
    let b = BbError::Lp(LpError::Unfinished);
    assert!(b.to_string().starts_with("LP solver failed: "));
    let z = BinaryError::Lp(LpError::Unverified("row 3".into()));
    assert!(z.to_string().starts_with("LP solver failed: "));
}
