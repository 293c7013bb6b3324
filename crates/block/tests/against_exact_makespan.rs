//! The unit machine's closed form against the exact worst-case makespan (crate `makespan`,
//! Berezovskyi et al.'s search), an independent method: on every straight-line L/C string the
//! closed form is at least the exact value, and on strings of one letter with σ = 1 (no two
//! warps can ever overlap) the two are equal.

use block::{units_response_time, UnitKind, UnitProfile};
use isa::lc::LcOp;
use proptest::prelude::*;

/// The closed form for `warps` warps of `ops` on a machine of `ls_units` and `cores` (warps
/// of 32), and the exact makespan of the same.
fn both(ops: &[LcOp], warps: u32, ls_units: u32, cores: u32) -> (u64, u64) {
    let (k_l, s_l) = makespan::sigma_factor(ls_units, 32).expect("sigma");
    let (k_c, s_c) = makespan::sigma_factor(cores, 32).expect("sigma");
    let l = ops.iter().filter(|o| matches!(o, LcOp::L)).count() as u64;
    let c = ops.len() as u64 - l;
    let profile = UnitProfile {
        isolated: l * u64::from(k_l) + c * u64::from(k_c),
        work: vec![l * u64::from(k_l), c * u64::from(k_c)],
    };
    let kinds = [
        UnitKind {
            lanes: s_l,
            cycles: k_l,
        },
        UnitKind {
            lanes: s_c,
            cycles: k_c,
        },
    ];
    let closed = units_response_time(&vec![profile; warps as usize], &kinds).cycles;
    let machine = makespan::Machine {
        ls_units,
        cores,
        warp_size: 32,
    };
    let t = makespan::transform(ops, &machine).expect("transform");
    let (exact, _) =
        makespan::exact_makespan(&t, warps, &makespan::Budget::default()).expect("exact");
    (closed, exact)
}

fn ops(bits: &[bool]) -> Vec<LcOp> {
    bits.iter()
        .map(|&b| if b { LcOp::L } else { LcOp::C })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn closed_form_is_at_least_the_exact_makespan(
        bits in prop::collection::vec(any::<bool>(), 1..7),
        warps in 1u32..=4,
        machine in 0usize..3,
    ) {
        // Fermi cc 2.0, cc 2.1, and a machine with two lanes per unit.
        let (ls, cores) = [(16, 32), (16, 48), (64, 64)][machine];
        let (closed, exact) = both(&ops(&bits), warps, ls, cores);
        prop_assert!(closed >= exact, "{bits:?} × {warps} on ({ls}, {cores}): closed {closed} < exact {exact}");
    }
}

#[test]
fn one_unit_kind_serialises_exactly() {
    // Only C on one lane of one cycle: W warps of n instructions take W·n, both ways.
    for warps in 1..=4 {
        let (closed, exact) = both(&ops(&[false; 5]), warps, 16, 32);
        assert_eq!(
            (closed, exact),
            (5 * u64::from(warps), 5 * u64::from(warps))
        );
    }
}

#[test]
fn fig2_string_two_warps() {
    // "LCLC" hand-derived on Fermi cc 2.0 (L: 2 cycles on the one LSU lane, C: 1 on the one
    // core lane): alone 6; the other warp adds its 4 LSU cycles and 2 core cycles: 12.
    let (closed, exact) = both(&ops(&[true, false, true, false]), 2, 16, 32);
    assert_eq!(closed, 12);
    assert!(exact <= 12, "exact {exact}");
}
