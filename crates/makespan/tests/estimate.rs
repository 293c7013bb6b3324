//! §5.6, Eq. 42–43: the estimate T(W, x) = min over y ≤ x of ⌈W/y⌉·T(y).

mod common;

use common::{brute_force, tr, validate};
use makespan::{
    estimate, estimate_curve, exact, exact_makespan, pessimistic, Budget, Error, Transformed,
};
use proptest::prelude::*;

fn exact_value(t: &Transformed, w: u32) -> u64 {
    match exact_makespan(t, w, &Budget::default()) {
        Ok((v, _)) => v,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn fig6_setting() {
    // W = 600, "LLCLL", sigma 1: T(y) = 4y + 1, so T(W, x) = min over y ≤ x of
    // ceil(600/y)(4y + 1): 3000 (= Eq. 5–7), 2700, 2600, 2550, 2520, 2500, 2494, 2475.
    let t = tr("LLCLL", 1, 1);
    let curve = estimate_curve(&t, 600, 8, &Budget::default()).expect("small");
    let values: Vec<u64> = curve.iter().map(|&(_, v)| v).collect();
    assert_eq!(values, vec![3000, 2700, 2600, 2550, 2520, 2500, 2494, 2475]);
    assert_eq!(values[0], pessimistic(&t, 600));
    let e = estimate(&t, 600, 8, &Budget::default()).expect("small");
    assert_eq!((e.x, e.value, e.best_y), (8, 2475, 8));
    assert_eq!(e.terms[1], (2, 9, 2700));
    // The true value is 4*600 + 1 = 2401: the estimate is 3% above it at x = 8.
}

#[test]
fn fig7_setting() {
    // W = 420, "LCLCL" on cc 2.0 -> "LLCLLCLL": T(y) = 8, 13, 20, 26, 32, 38, 44, 50.
    let k = isa::lc::parse_kernel("LCLCL").expect("valid");
    let t = makespan::transform(&k, &makespan::Machine::fermi_cc20()).expect("valid");
    let e = estimate(&t, 420, 8, &Budget::default()).expect("small");
    let ty: Vec<u64> = e.terms.iter().map(|&(_, ty, _)| ty).collect();
    assert_eq!(ty, vec![8, 13, 20, 26, 32, 38, 44, 50]);
    let curve = estimate_curve(&t, 420, 8, &Budget::default()).expect("small");
    let values: Vec<u64> = curve.iter().map(|&(_, v)| v).collect();
    assert_eq!(values, vec![3360, 2730, 2730, 2730, 2688, 2660, 2640, 2640]);
    assert_eq!(e.best_y, 7);
}

#[test]
fn exact_when_groups_cover_all_warps_on_the_papers_kernels() {
    for s in ["LLC", "LLCLL", "LLCLLCLL"] {
        let t = tr(s, 1, 1);
        for w in 1..=7 {
            let exact_w = exact_value(&t, w);
            for x in [w, w + 3] {
                let e = estimate(&t, w, x, &Budget::default()).expect("small");
                assert_eq!(e.value, exact_w, "{s} W={w} x={x}");
                assert_eq!(e.terms.len(), w as usize, "y stops at W");
            }
        }
    }
}

/// Eq. 42 is not always an upper bound. "LCLL" with sigma 1: two warps interleave
/// perfectly (T(2) = 6), but with eight warps the scheduler can starve one until the other
/// seven are done and then leave the L unit idle during its C: T(8) = 25 > ceil(8/2)*6 = 24.
#[test]
fn eq42_can_undercut_the_exact_value() {
    let t = tr("LCLL", 1, 1);
    assert_eq!(brute_force(&t, 2), 6);
    let s = exact(&t, 8, &Budget::default()).expect("small");
    validate(&t, 8, &s).expect("a real work-conserving schedule");
    assert_eq!(s.makespan, 25);
    let e = estimate(&t, 8, 2, &Budget::default()).expect("small");
    assert_eq!((e.value, e.best_y), (24, 2));
    // At x = W the term for y = 2 still undercuts T(W).
    assert_eq!(
        estimate(&t, 8, 8, &Budget::default()).expect("small").value,
        24
    );
    // "CLC": T(2) = 4, T(6) = 13 > 3*4.
    let t = tr("CLC", 1, 1);
    assert_eq!(exact_value(&t, 6), 13);
    assert_eq!(
        estimate(&t, 6, 2, &Budget::default()).expect("small").value,
        12
    );
}

#[test]
fn edge_cases() {
    let t = tr("LLC", 1, 1);
    assert!(matches!(
        estimate(&t, 4, 0, &Budget::default()),
        Err(Error::Invalid(_))
    ));
    let e = estimate(&t, 0, 3, &Budget::default()).expect("no warps");
    assert_eq!((e.value, e.best_y, e.terms.len()), (0, 0, 0));
    assert_eq!(
        estimate_curve(&t, 0, 2, &Budget::default()),
        Ok(vec![(1, 0), (2, 0)])
    );
    assert_eq!(estimate_curve(&t, 5, 0, &Budget::default()), Ok(vec![]));
    let tiny = Budget {
        max_states: 2,
        ..Budget::default()
    };
    assert!(matches!(
        estimate(&tr("LLCLL", 1, 1), 50, 5, &tiny),
        Err(Error::Budget { .. })
    ));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// In the paper's setting (sigma 1): T(W, x) never increases with x, never exceeds
    /// Eq. 5–7, is at most the exact value once x ≥ W (y = W is a term), and equals it exactly
    /// when no smaller group undercuts T(W).
    #[test]
    fn curve_properties(
        s in proptest::collection::vec(prop_oneof![Just('L'), Just('C')], 1..=5),
        w in 1u32..=8,
    ) {
        let s: String = s.into_iter().collect();
        let t = tr(&s, 1, 1);
        let curve = estimate_curve(&t, w, w + 2, &Budget::default()).expect("small");
        prop_assert_eq!(curve.len() as u32, w + 2);
        let exact_w = exact_value(&t, w);
        for pair in curve.windows(2) {
            prop_assert!(pair[1].1 <= pair[0].1);
        }
        for &(x, v) in &curve {
            prop_assert!(v <= pessimistic(&t, w));
            let e = estimate(&t, w, x, &Budget::default()).expect("small");
            prop_assert_eq!(e.value, v);
            if x >= w {
                prop_assert!(v <= exact_w);
                let undercut = e.terms.iter().any(|&(y, _, term)| y < w && term < exact_w);
                prop_assert_eq!(v == exact_w, !undercut);
            }
        }
    }
}

/// The step budget is the search's time budget: a search that needs more successors than
/// `max_search_steps` stops with a budget error naming that field, one that needs fewer
/// reports how many it generated; and the estimate curve's searches share one budget, so a
/// budget that reaches `T(1..k)` but not `T(k+1)` gives exactly the first `k` points of the
/// full curve, with the error.
#[test]
fn search_steps_budget_and_partial_curve() {
    // A real kernel's reduced string (GCN vectoradd, Fermi cc 2.0 transformation).
    let t = tr("LLLLLLCCCCLLLLCCCCLLC", 1, 1);
    let big = Budget {
        max_search_steps: usize::MAX,
        ..Budget::default()
    };
    let steps: Vec<usize> = (1..=4)
        .map(|y| match exact_makespan(&t, y, &big) {
            Ok((_, stats)) => stats.steps,
            Err(e) => panic!("{e}"),
        })
        .collect();
    assert!(steps.windows(2).all(|w| w[0] < w[1]), "{steps:?}");
    // Exactly enough for T(4) alone succeeds; one step fewer fails, naming the budget.
    let exact_4 = Budget {
        max_search_steps: steps[3],
        ..Budget::default()
    };
    assert!(exact_makespan(&t, 4, &exact_4).is_ok());
    let short = Budget {
        max_search_steps: steps[3] - 1,
        ..Budget::default()
    };
    assert_eq!(
        exact_makespan(&t, 4, &short).map(|(v, _)| v),
        Err(Error::Budget {
            what: "max_search_steps".into(),
            limit: steps[3] - 1
        })
    );
    assert!(
        matches!(exact(&t, 4, &short), Err(Error::Budget { what, .. }) if what == "max_search_steps")
    );
    // Enough for T(1) + T(2) + T(3) but not T(4) as well: the curve for W = 8 stops at x = 3.
    let three: usize = steps[..3].iter().sum();
    let shared = Budget {
        max_search_steps: three + steps[3] - 1,
        ..Budget::default()
    };
    let full = estimate_curve(&t, 8, 3, &big).expect("small");
    let (partial, stopped) = makespan::estimate_curve_partial(&t, 8, 6, &shared);
    assert_eq!(partial, full);
    assert_eq!(
        stopped,
        Some(Error::Budget {
            what: "max_search_steps".into(),
            limit: three + steps[3] - 1
        })
    );
    // With room for all four, the partial curve is the whole curve.
    let room = Budget {
        max_search_steps: three + steps[3],
        ..Budget::default()
    };
    let (all, none) = makespan::estimate_curve_partial(&t, 8, 4, &room);
    assert_eq!(
        (all, none),
        (estimate_curve(&t, 8, 4, &big).expect("small"), None)
    );
}
