//! The branch-and-bound routine on its own: hand-solved knapsacks whose LP optimum is
//! fractional, budget behaviour, and a cross-check against exhaustive enumeration.

#[path = "common/lcg.rs"]
mod lcg;

use ipet::branch_and_bound::{maximize, BbError, IntegerProgram, LinearConstraint, Relation};
use lcg::Lcg;

fn le(terms: &[(usize, f64)], rhs: f64) -> LinearConstraint {
    LinearConstraint {
        terms: terms.to_vec(),
        relation: Relation::Le,
        rhs,
    }
}

/// 0/1 knapsack: values [10, 13, 7], weights [5, 6, 4], capacity 10.
/// LP (greedy by ratio 2.17, 2, 1.75): item 1 whole, item 0 at 4/5 → 13 + 8 = 21.
/// Integer: {0,1} weighs 11 > 10; {1,2} = 20 (weight 10); {0,2} = 17. Optimum 20.
fn knapsack() -> IntegerProgram {
    IntegerProgram {
        objective: vec![10.0, 13.0, 7.0],
        constraints: vec![
            le(&[(0, 5.0), (1, 6.0), (2, 4.0)], 10.0),
            le(&[(0, 1.0)], 1.0),
            le(&[(1, 1.0)], 1.0),
            le(&[(2, 1.0)], 1.0),
        ],
    }
}

#[test]
fn knapsack_with_fractional_relaxation() {
    let out = maximize(&knapsack(), 1000).expect("feasible");
    assert!((out.lp_bound - 21.0).abs() < 1e-9, "lp {}", out.lp_bound);
    assert_eq!(out.objective, Some(20.0));
    assert_eq!(out.values, Some(vec![0.0, 1.0, 1.0]));
    assert!(out.complete);
    assert!(out.nodes > 1);
}

/// General integers: max x + y with 2x + 2y ≤ 3 has LP optimum 1.5 and integer optimum 1;
/// with x's objective 1.5 (non-integral objective path) the optimum is x = 1, y = 0.
#[test]
fn general_integer_rounding_down() {
    let p = IntegerProgram {
        objective: vec![1.0, 1.0],
        constraints: vec![le(&[(0, 2.0), (1, 2.0)], 3.0)],
    };
    let out = maximize(&p, 100).expect("feasible");
    assert!((out.lp_bound - 1.5).abs() < 1e-9);
    assert_eq!(out.objective, Some(1.0));
    let p = IntegerProgram {
        objective: vec![1.5, 1.0],
        constraints: vec![le(&[(0, 2.0), (1, 2.0)], 3.0)],
    };
    let out = maximize(&p, 100).expect("feasible");
    assert!((out.lp_bound - 2.25).abs() < 1e-9);
    assert_eq!(out.objective, Some(1.5));
    assert_eq!(out.values, Some(vec![1.0, 0.0]));
}

/// Repeated variables in a constraint are merged (the LP solver itself would panic on them).
#[test]
fn repeated_terms_are_summed() {
    let p = IntegerProgram {
        objective: vec![1.0],
        constraints: vec![le(&[(0, 1.0), (0, 1.0)], 5.0)],
    };
    let out = maximize(&p, 10).expect("feasible");
    assert_eq!(out.values, Some(vec![2.0]));
}

#[test]
fn errors() {
    // Unbounded relaxation.
    let p = IntegerProgram {
        objective: vec![1.0],
        constraints: vec![],
    };
    assert_eq!(maximize(&p, 10), Err(BbError::Unbounded));
    // Infeasible relaxation.
    let p = IntegerProgram {
        objective: vec![1.0],
        constraints: vec![le(&[(0, 1.0)], -1.0)],
    };
    assert_eq!(maximize(&p, 10), Err(BbError::Infeasible));
    // Relaxation feasible (x = 0.5), no integer point: 2x = 1.
    let p = IntegerProgram {
        objective: vec![1.0],
        constraints: vec![LinearConstraint {
            terms: vec![(0, 2.0)],
            relation: Relation::Eq,
            rhs: 1.0,
        }],
    };
    assert_eq!(maximize(&p, 10), Err(BbError::Infeasible));
    // Malformed.
    let p = IntegerProgram {
        objective: vec![1.0],
        constraints: vec![le(&[(3, 1.0)], 1.0)],
    };
    assert!(matches!(maximize(&p, 10), Err(BbError::Invalid(_))));
    let p = IntegerProgram {
        objective: vec![f64::NAN],
        constraints: vec![],
    };
    assert!(matches!(maximize(&p, 10), Err(BbError::Invalid(_))));
}

/// With too small a budget the search stops: either nothing found yet, or an incumbent that
/// is flagged incomplete; the root bound is always reported and always ≥ the optimum. The
/// budget counts branching solves only. The search order is deterministic, so the exact
/// trace is pinned: root (x0 = 0.8) → x0 ≥ 1 (x1 = 5/6) → x1 ≥ 1 infeasible → x1 ≤ 0
/// gives {0,2} = 17 → x0 ≤ 0 gives {1,2} = 20: four branching solves.
#[test]
fn budget_stops_the_search() {
    for k in 0..=2 {
        let out = maximize(&knapsack(), k).expect("root solves");
        assert_eq!(out.values, None, "budget {k}");
        assert!(!out.complete);
        assert_eq!(out.nodes, k + 1);
        assert!((out.lp_bound - 21.0).abs() < 1e-9);
    }
    let out = maximize(&knapsack(), 3).expect("root solves");
    assert!(!out.complete);
    assert_eq!(out.values, Some(vec![1.0, 0.0, 1.0]));
    assert_eq!(out.objective, Some(17.0));
    assert_eq!(out.nodes, 4);
    let out = maximize(&knapsack(), 4).expect("root solves");
    assert!(out.complete);
    assert_eq!(out.objective, Some(20.0));
    assert_eq!(out.nodes, 5);
}

/// Random 3-variable programs with every variable in 0..=4, cross-checked against
/// enumeration of all 125 integer points.
#[test]
fn matches_exhaustive_enumeration() {
    let mut rng = Lcg(0x1234_5678);
    let mut fractional_roots = 0;
    for case in 0..300 {
        let half = case % 3 == 0; // some objectives in halves, to use the non-integral path
        let objective: Vec<f64> = (0..3)
            .map(|_| {
                let c = rng.below(10) as f64;
                if half {
                    c / 2.0
                } else {
                    c
                }
            })
            .collect();
        let mut constraints: Vec<LinearConstraint> = (0..3).map(|i| le(&[(i, 1.0)], 4.0)).collect();
        for _ in 0..2 {
            // A random subset of the variables, so that some programs split into blocks.
            let mask = 1 + rng.below(7);
            let terms: Vec<(usize, f64)> = (0..3)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| (i, rng.below(6) as f64))
                .collect();
            let rhs = 3.0 + rng.below(13) as f64;
            constraints.push(le(&terms, rhs));
        }
        // Occasionally an equality, to exercise integer infeasibility.
        if rng.below(5) == 0 {
            let mask = 1 + rng.below(7);
            let terms: Vec<(usize, f64)> = (0..3)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| (i, 1.0 + rng.below(3) as f64))
                .collect();
            constraints.push(LinearConstraint {
                terms,
                relation: Relation::Eq,
                rhs: 2.0 + rng.below(6) as f64,
            });
        }
        let p = IntegerProgram {
            objective,
            constraints,
        };
        let mut best: Option<f64> = None;
        for x in 0..5 {
            for y in 0..5 {
                for z in 0..5 {
                    let v = [x as f64, y as f64, z as f64];
                    let ok = p.constraints.iter().all(|c| {
                        let lhs: f64 = c.terms.iter().map(|&(i, a)| a * v[i]).sum();
                        match c.relation {
                            Relation::Le => lhs <= c.rhs,
                            Relation::Ge => lhs >= c.rhs,
                            Relation::Eq => lhs == c.rhs,
                        }
                    });
                    if ok {
                        let obj: f64 = v.iter().zip(&p.objective).map(|(a, b)| a * b).sum();
                        best = Some(best.map_or(obj, |b: f64| b.max(obj)));
                    }
                }
            }
        }
        match (maximize(&p, 10_000), best) {
            (Ok(out), Some(b)) => {
                assert!(out.complete, "case {case}");
                assert_eq!(out.objective, Some(b), "case {case}: {p:?}");
                assert!(out.lp_bound >= b - 1e-6, "case {case}");
                if out.lp_bound > b + 1e-6 {
                    fractional_roots += 1;
                }
            }
            (Err(BbError::Infeasible), None) => {}
            (got, want) => panic!("case {case}: got {got:?}, want {want:?} for {p:?}"),
        }
    }
    assert!(
        fractional_roots > 30,
        "only {fractional_roots} cases needed branching"
    );
}

/// Independent blocks are solved separately and add up; single-variable blocks are solved
/// without an LP (interval end points).
#[test]
fn independent_blocks_add_up() {
    // Two copies of the knapsack on variables 0..3 and 3..6, plus x6 ≤ 2.5 (→ 2, worth 3
    // each) and x7 with objective −1 and x7 ≥ 1.5 (→ 2).
    let mut p = knapsack();
    let copy: Vec<LinearConstraint> = p
        .constraints
        .iter()
        .map(|c| LinearConstraint {
            terms: c.terms.iter().map(|&(v, a)| (v + 3, a)).collect(),
            relation: c.relation,
            rhs: c.rhs,
        })
        .collect();
    p.constraints.extend(copy);
    p.objective.extend([10.0, 13.0, 7.0, 3.0, -1.0]);
    p.constraints.push(le(&[(6, 2.0)], 5.0));
    p.constraints.push(LinearConstraint {
        terms: vec![(7, 2.0)],
        relation: Relation::Ge,
        rhs: 3.0,
    });
    let out = maximize(&p, 1000).expect("feasible");
    assert_eq!(
        out.values,
        Some(vec![0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 2.0, 2.0])
    );
    assert_eq!(out.objective, Some(20.0 + 20.0 + 6.0 - 2.0));
    // LP: 21 + 21 + 3·2.5 − 1.5.
    assert!((out.lp_bound - 48.0).abs() < 1e-9, "lp {}", out.lp_bound);
    assert!(out.complete);
    // Each knapsack takes 5 LP solves (see `budget_stops_the_search`); the single-variable
    // blocks take none.
    assert_eq!(out.nodes, 10);

    // The budget is shared: with 4 branching solves the first knapsack finishes, the
    // second only gets its root (always solved), so no complete integer answer exists.
    let out = maximize(&p, 4).expect("roots solve");
    assert_eq!(out.values, None);
    assert!(!out.complete);
    assert_eq!(out.nodes, 6);
    assert!((out.lp_bound - 48.0).abs() < 1e-9);

    // Single-variable blocks: an equality with no integer solution, and an unbounded one.
    let p = IntegerProgram {
        objective: vec![1.0],
        constraints: vec![LinearConstraint {
            terms: vec![(0, 2.0)],
            relation: Relation::Ge,
            rhs: 3.0,
        }],
    };
    assert_eq!(maximize(&p, 10), Err(BbError::Unbounded));
    let p = IntegerProgram {
        objective: vec![1.0],
        constraints: vec![le(&[(0, -1.0)], -3.0), le(&[(0, 1.0)], 2.0)],
    };
    assert_eq!(maximize(&p, 10), Err(BbError::Infeasible));
}

/// Progress of the knapsack's search (the trace of `budget_stops_the_search`): one report
/// per branching solve, the best integer objective so far once there is one (17, then the
/// optimum 20), never above the optimum. A part solved before (here a lone variable
/// `y ≤ 2` worth 5 each, which comes first: parts go by their smallest variable) adds its
/// optimum to every report after it.
#[test]
fn progress_reports_each_solve_and_the_incumbent() {
    use ipet::branch_and_bound::maximize_observed;
    use isa::{Progress, Task};
    use std::cell::RefCell;

    let seen = RefCell::new(Vec::new());
    let record = |p: &Progress| seen.borrow_mut().push(*p);
    let out = maximize_observed(&knapsack(), 1000, usize::MAX, &record).expect("feasible");
    assert_eq!(out.objective, Some(20.0));
    let seen = seen.take();
    assert!(seen
        .iter()
        .all(|p| p.task == Task::IpetBranchAndBound && p.budget == 1000));
    let trace: Vec<(u64, Option<u64>)> = seen.iter().map(|p| (p.done, p.best_bound)).collect();
    assert_eq!(
        trace,
        vec![(1, None), (2, None), (3, Some(17)), (4, Some(20))]
    );

    // The same knapsack on variables 1..=3, after a part of its own: y (variable 0) ≤ 2.
    let mut shifted = knapsack();
    for c in &mut shifted.constraints {
        for t in &mut c.terms {
            t.0 += 1;
        }
    }
    shifted.objective.insert(0, 5.0);
    shifted.constraints.push(le(&[(0, 1.0)], 2.0));
    let seen = RefCell::new(Vec::new());
    let record = |p: &Progress| seen.borrow_mut().push(*p);
    let out = maximize_observed(&shifted, 1000, usize::MAX, &record).expect("feasible");
    assert_eq!(out.objective, Some(30.0));
    let trace: Vec<Option<u64>> = seen.take().iter().map(|p| p.best_bound).collect();
    assert_eq!(trace, vec![None, None, Some(27), Some(30)]);
}
