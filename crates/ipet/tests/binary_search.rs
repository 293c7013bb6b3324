//! `ipet::binary`: the propagating branch and bound against exhaustive enumeration of every
//! 0/1 assignment, on hand-written programs and on random ones with exactly-one rows (so the
//! group-aware propagation and the residual cache are exercised), under random branching
//! orders and with and without the root LP.

use ipet::binary::{maximize_binary, BinaryError, BinaryLimits};
use ipet::branch_and_bound::{IntegerProgram, LinearConstraint, Relation};
use proptest::prelude::*;

fn row(terms: &[(usize, f64)], relation: Relation, rhs: f64) -> LinearConstraint {
    LinearConstraint {
        terms: terms.to_vec(),
        relation,
        rhs,
    }
}

fn holds(p: &IntegerProgram, x: &[bool]) -> bool {
    p.constraints.iter().all(|c| {
        let lhs: f64 = c
            .terms
            .iter()
            .map(|&(v, a)| if x[v] { a } else { 0.0 })
            .sum();
        match c.relation {
            Relation::Le => lhs <= c.rhs,
            Relation::Ge => lhs >= c.rhs,
            Relation::Eq => lhs == c.rhs,
        }
    })
}

fn value(p: &IntegerProgram, x: &[bool]) -> i64 {
    p.objective
        .iter()
        .zip(x)
        .map(|(&c, &b)| if b { c as i64 } else { 0 })
        .sum()
}

/// The optimum by trying all 2^n assignments.
fn brute_force(p: &IntegerProgram) -> Option<i64> {
    let n = p.objective.len();
    (0..1u32 << n)
        .filter_map(|m| {
            let x: Vec<bool> = (0..n).map(|i| m >> i & 1 == 1).collect();
            holds(p, &x).then(|| value(p, &x))
        })
        .max()
}

fn limits(root_lp: bool) -> BinaryLimits {
    BinaryLimits {
        max_nodes: 1_000_000,
        max_cache_entries: 1_000_000,
        root_lp,
    }
}

#[test]
fn knapsack_by_hand() {
    // max 5a + 4b + 3c, 2a + 3b + c <= 5, a + b + c <= 2: {a, b} costs 5 and gives 9;
    // {a, c} gives 8; {b, c} gives 7. Optimum 9 at a = b = 1.
    let p = IntegerProgram {
        objective: vec![5.0, 4.0, 3.0],
        constraints: vec![
            row(&[(0, 2.0), (1, 3.0), (2, 1.0)], Relation::Le, 5.0),
            row(&[(0, 1.0), (1, 1.0), (2, 1.0)], Relation::Le, 2.0),
        ],
    };
    for lp in [true, false] {
        let out = maximize_binary(&p, &[], &limits(lp)).expect("feasible");
        assert_eq!(out.objective, 9);
        assert_eq!(out.values, vec![true, true, false]);
    }
}

#[test]
fn exactly_one_groups_propagate_weighted_sums() {
    // Two jobs with start-time variables s_t and u_t (t = 1..4, variables 0..3 and 4..7),
    // each started exactly once (two groups), s no earlier than 2 (Σ t·s ≥ 2) and u at
    // least 2 cycles after s (Σ t·s + 2 ≤ Σ t·u). Only s = 2, u = 4 is feasible, and
    // group-aware propagation finds it at the root: bit by bit, Σ t·s could be 0.
    let mut constraints = vec![
        row(&[(0, 1.0), (1, 1.0), (2, 1.0), (3, 1.0)], Relation::Eq, 1.0),
        row(&[(4, 1.0), (5, 1.0), (6, 1.0), (7, 1.0)], Relation::Eq, 1.0),
    ];
    let mut prec: Vec<(usize, f64)> = (0..4).map(|t| (t, (t + 1) as f64)).collect();
    prec.extend((0..4).map(|t| (4 + t, -((t + 1) as f64))));
    constraints.push(row(&prec, Relation::Le, -2.0));
    constraints.push(row(
        &(0..4).map(|t| (t, (t + 1) as f64)).collect::<Vec<_>>(),
        Relation::Ge,
        2.0,
    ));
    let late = IntegerProgram {
        objective: (0..8)
            .map(|v| if v >= 4 { (v - 3) as f64 } else { 0.0 })
            .collect(),
        constraints: constraints.clone(),
    };
    let out = maximize_binary(&late, &[], &limits(true)).expect("feasible");
    assert_eq!(out.objective, 4);
    assert!(out.values[1] && out.values[7]);
    assert_eq!(out.nodes, 1);
    let early = IntegerProgram {
        objective: (0..8)
            .map(|v| if v >= 4 { -((v - 3) as f64) } else { 0.0 })
            .collect(),
        constraints,
    };
    let out = maximize_binary(&early, &[], &limits(false)).expect("feasible");
    assert_eq!(out.objective, -4);
    assert_eq!(out.nodes, 1);
}

#[test]
fn cache_tells_residual_programs_apart() {
    // a + b = 1 and 3a + 2b + c + d + e + f <= 5; maximise a + b + c + d + e + f.
    // Branching on a first: a = 1 leaves c + d + e + f <= 2, a = 0 (so b = 1) leaves
    // c + d + e + f <= 3 — the same free variables, different residual programs (neither
    // row propagates nor is redundant). The optimum is 1 + 3 = 4; a cache keyed on the free
    // variables alone would answer the second branch with the first one's 2 and return 3.
    let p = IntegerProgram {
        objective: vec![1.0; 6],
        constraints: vec![
            row(&[(0, 1.0), (1, 1.0)], Relation::Eq, 1.0),
            row(
                &[(0, 3.0), (1, 2.0), (2, 1.0), (3, 1.0), (4, 1.0), (5, 1.0)],
                Relation::Le,
                5.0,
            ),
        ],
    };
    let order = [
        (0, true),
        (1, true),
        (2, true),
        (3, true),
        (4, true),
        (5, true),
    ];
    let out = maximize_binary(&p, &order, &limits(false)).expect("feasible");
    assert_eq!(out.objective, 4);
    assert_eq!(Some(out.objective), brute_force(&p));
    assert!(out.values[1] && !out.values[0]);
}

#[test]
fn infeasible_and_invalid_programs() {
    let p = IntegerProgram {
        objective: vec![1.0, 1.0],
        constraints: vec![
            row(&[(0, 1.0), (1, 1.0)], Relation::Eq, 1.0),
            row(&[(0, 1.0), (1, 1.0)], Relation::Ge, 2.0),
        ],
    };
    assert_eq!(
        maximize_binary(&p, &[], &limits(false)),
        Err(BinaryError::Infeasible)
    );
    let frac = IntegerProgram {
        objective: vec![0.5],
        constraints: vec![],
    };
    assert!(matches!(
        maximize_binary(&frac, &[], &limits(false)),
        Err(BinaryError::Invalid(_))
    ));
    let out_of_range = IntegerProgram {
        objective: vec![1.0],
        constraints: vec![row(&[(3, 1.0)], Relation::Le, 1.0)],
    };
    assert!(matches!(
        maximize_binary(&out_of_range, &[], &limits(false)),
        Err(BinaryError::Invalid(_))
    ));
}

#[test]
fn node_budget_is_an_error() {
    // Ten free variables with a parity-like row: the search must branch.
    let p = IntegerProgram {
        objective: (0..10).map(|v| (v % 3 + 1) as f64).collect(),
        constraints: vec![row(
            &(0..10).map(|v| (v, (v + 2) as f64)).collect::<Vec<_>>(),
            Relation::Le,
            17.0,
        )],
    };
    let tight = BinaryLimits {
        max_nodes: 3,
        max_cache_entries: 100,
        root_lp: false,
    };
    assert_eq!(
        maximize_binary(&p, &[], &tight),
        Err(BinaryError::Budget {
            what: "max_nodes",
            limit: 3
        })
    );
    let out = maximize_binary(&p, &[], &limits(false)).expect("feasible");
    assert_eq!(Some(out.objective), brute_force(&p));
}

/// A random program over `n ≤ 11` variables: a few disjoint exactly-one rows, then mixed
/// rows with small integer coefficients.
fn program() -> impl Strategy<Value = IntegerProgram> {
    (4usize..=11).prop_flat_map(|n| {
        let groups = prop::collection::vec(2usize..=4, 0..=3);
        let rows = prop::collection::vec(
            (
                prop::collection::vec((0..n, -4i32..=6), 1..=5),
                0u8..3,
                -3i32..=8,
            ),
            0..=5,
        );
        let objective = prop::collection::vec(-3i32..=9, n);
        (Just(n), groups, rows, objective).prop_map(|(n, groups, rows, objective)| {
            let mut constraints = Vec::new();
            let mut next = 0usize;
            for size in groups {
                if next + size > n {
                    break;
                }
                let terms: Vec<(usize, f64)> = (next..next + size).map(|v| (v, 1.0)).collect();
                constraints.push(row(&terms, Relation::Eq, 1.0));
                next += size;
            }
            for (terms, rel, rhs) in rows {
                let relation = [Relation::Le, Relation::Ge, Relation::Eq][rel as usize];
                let terms: Vec<(usize, f64)> =
                    terms.into_iter().map(|(v, a)| (v, f64::from(a))).collect();
                constraints.push(row(&terms, relation, f64::from(rhs)));
            }
            IntegerProgram {
                objective: objective.into_iter().map(f64::from).collect(),
                constraints,
            }
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn equals_exhaustive_enumeration(
        p in program(),
        order_seed in any::<u64>(),
        root_lp in any::<bool>(),
    ) {
        let n = p.objective.len();
        // A random branching order and first values from the seed.
        let mut order: Vec<(usize, bool)> = (0..n).map(|v| (v, (order_seed >> v) & 1 == 1)).collect();
        let mut s = order_seed | 1;
        for i in (1..n).rev() {
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            order.swap(i, (s >> 33) as usize % (i + 1));
        }
        let want = brute_force(&p);
        match maximize_binary(&p, &order, &limits(root_lp)) {
            Ok(out) => {
                prop_assert_eq!(Some(out.objective), want);
                prop_assert!(holds(&p, &out.values), "returned values violate a row");
                prop_assert_eq!(value(&p, &out.values), out.objective);
                if let Some(lp) = out.lp_bound {
                    prop_assert!(lp + 1e-6 >= out.objective as f64);
                }
            }
            Err(BinaryError::Infeasible) => prop_assert_eq!(want, None),
            Err(e) => prop_assert!(false, "unexpected error {e}"),
        }
    }
}
