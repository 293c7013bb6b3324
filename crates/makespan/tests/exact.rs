//! Method (b): the exact multiset search, against hand-derived values, a brute force over
//! concrete warps and an independent schedule validator.

mod common;

use common::{brute_force, tr, validate};
use isa::lc::LcOp;
use makespan::{exact, exact_makespan, pessimistic, safe_bound, Budget, Error};
use proptest::prelude::*;

fn run(t: &makespan::Transformed, w: u32) -> makespan::Schedule {
    match exact(t, w, &Budget::default()) {
        Ok(s) => s,
        Err(e) => panic!("{e}"),
    }
}

/// Fig. 2: four warps run "LLC" with sigma_L = sigma_C = 1.
///
/// By hand: the 8 L instructions all precede the C of their warp, so while any is left some
/// warp is ready for L and the (work-conserving) L unit is busy: the L's occupy exactly
/// cycles 1..=8, and the warp whose second L runs in cycle 8 runs its C in cycle 9 or later,
/// so every schedule takes at least 9 cycles. Warps reach the C one at a time (one L per
/// cycle), and the C unit serves one per cycle, so no queue forms there: each warp runs its C
/// in the cycle right after its second L, and the last one in cycle 9. Hence *every*
/// work-conserving schedule — the worst case included — takes exactly 9 cycles, 3 fewer than
/// the pessimistic bound 4·2 + 4·1 = 12 (Eq. 5–7).
#[test]
fn fig2_exact_is_nine() {
    let t = tr("LLC", 1, 1);
    let s = run(&t, 4);
    assert_eq!(s.makespan, 9);
    assert_eq!(pessimistic(&t, 4), 12);
    validate(&t, 4, &s).expect("valid witness");
    assert_eq!(brute_force(&t, 4), 9);
    // The L unit is busy in cycles 1..=8.
    let mut l_cycles: Vec<u64> = s
        .slots
        .iter()
        .filter(|x| x.unit == LcOp::L)
        .map(|x| x.cycle)
        .collect();
    l_cycles.sort_unstable();
    assert_eq!(l_cycles, (1..=8).collect::<Vec<u64>>());
}

#[test]
fn llcll_is_four_w_plus_one() {
    // Fig. 6's kernel: the L unit is never idle except for one final cycle.
    let t = tr("LLCLL", 1, 1);
    for w in 1..=6 {
        assert_eq!(run(&t, w).makespan, 4 * u64::from(w) + 1, "W = {w}");
    }
    assert_eq!(brute_force(&t, 3), 13);
    assert_eq!(
        exact_makespan(&t, 32, &Budget::default()).map(|x| x.0),
        Ok(129)
    );
}

#[test]
fn single_warp_runs_sequentially() {
    let t = tr("LCCLC", 2, 3);
    let s = run(&t, 1);
    assert_eq!(s.makespan, 5);
    let cycles: Vec<u64> = s.slots.iter().map(|x| x.cycle).collect();
    assert_eq!(cycles, vec![1, 2, 3, 4, 5]);
}

#[test]
fn no_work_is_zero() {
    let t = tr("LLC", 1, 1);
    assert_eq!(run(&t, 0), makespan::Schedule::empty());
    assert_eq!(run(&tr("", 1, 1), 5), makespan::Schedule::empty());
}

#[test]
fn budget_errors_name_the_budget() {
    let t = tr("LLCLL", 1, 1);
    let b = Budget {
        max_states: 3,
        ..Budget::default()
    };
    assert_eq!(
        exact(&t, 8, &b),
        Err(Error::Budget {
            what: "max_states".into(),
            limit: 3
        })
    );
    // Enormous instances fail fast on the budget too, never panic.
    let b = Budget {
        max_states: 1000,
        ..Budget::default()
    };
    assert!(matches!(
        exact_makespan(&t, u32::MAX, &b),
        Err(Error::Budget { .. })
    ));
    // One state with too many successors: sigma 50 over 3 positions of 100 warps each.
    let t = tr("CCCC", 1, 50);
    assert!(matches!(exact(&t, 100, &b), Err(Error::Budget { .. })));
}

#[test]
fn huge_witnesses_are_refused_but_values_computed() {
    // One cycle runs every warp, but a witness would need 2^32 - 1 slots.
    let t = tr("L", u32::MAX, 1);
    assert!(matches!(
        exact(&t, u32::MAX, &Budget::default()),
        Err(Error::Budget { .. })
    ));
    assert_eq!(
        exact_makespan(&t, u32::MAX, &Budget::default()).map(|x| x.0),
        Ok(1)
    );
    let zero = Budget {
        max_states: 0,
        ..Budget::default()
    };
    assert_eq!(
        exact_makespan(&tr("LC", 1, 1), 2, &zero),
        Err(Error::Budget {
            what: "max_states".into(),
            limit: 0
        })
    );
}

#[test]
fn long_strings_use_wide_keys() {
    // 70 positions: 1 bit each for one warp (u128 keys), 2 bits for two or three warps
    // (140 bits: boxed keys).
    let s: String = "LC".repeat(35);
    let t = tr(&s, 1, 1);
    for w in [1, 2, 3] {
        let sch = run(&t, w);
        validate(&t, w, &sch).expect("valid witness");
        assert!(sch.makespan <= safe_bound(&t, w));
    }
    assert_eq!(run(&t, 1).makespan, 70);
    // Two warps on an alternating string interleave perfectly after one cycle.
    assert_eq!(run(&t, 2).makespan, 71);
}

#[test]
fn deterministic() {
    let t = tr("LCLLCC", 2, 1);
    assert_eq!(run(&t, 5), run(&t, 5));
}

fn instance() -> impl Strategy<Value = (String, u32, u32, u32)> {
    (
        proptest::collection::vec(prop_oneof![Just('L'), Just('C')], 1..=5),
        1u32..=4,
        1u32..=3,
        1u32..=3,
    )
        .prop_map(|(s, w, sl, sc)| (s.into_iter().collect(), w, sl, sc))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    /// The multiset search agrees with brute force over concrete warps, its witness is a
    /// valid work-conserving schedule attaining the value, and it respects the bounds.
    #[test]
    fn search_matches_brute_force((s, w, sl, sc) in instance()) {
        let t = tr(&s, sl, sc);
        let sch = run(&t, w);
        prop_assert_eq!(sch.makespan, brute_force(&t, w));
        if let Err(e) = validate(&t, w, &sch) {
            return Err(TestCaseError::fail(e));
        }
        prop_assert!(sch.makespan <= safe_bound(&t, w));
        if sl == 1 && sc == 1 {
            prop_assert!(sch.makespan <= pessimistic(&t, w));
        }
        prop_assert_eq!(exact_makespan(&t, w, &Budget::default()).map(|x| x.0), Ok(sch.makespan));
    }
}
