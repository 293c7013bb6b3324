//! §4: the pessimistic bound (Eq. 5–7) and the sigma-independent safe bound.

mod common;

use common::tr;
use makespan::{exact, pessimistic, safe_bound, transform, Budget, Machine, Transformed};

#[test]
fn fig6_setting() {
    // W = 600, "LLCLL", sigma_L = sigma_C = 1: ceil(600/1)*4 + ceil(600/1)*1.
    assert_eq!(pessimistic(&tr("LLCLL", 1, 1), 600), 3000);
}

#[test]
fn fig7_setting() {
    // W = 420, "LCLCL" on cc 2.0 -> "LLCLLCLL": 420*6 + 420*2.
    let k = isa::lc::parse_kernel("LCLCL").expect("valid");
    let t = transform(&k, &Machine::fermi_cc20()).expect("valid");
    assert_eq!(t.text, "LLCLLCLL");
    assert_eq!(pessimistic(&t, 420), 3360);
}

#[test]
fn fig2_setting() {
    // 4 warps, "LLC", sigma 1: T_L = 4*2 = 8, T_C = 4*1 = 4, T = 12.
    let t = tr("LLC", 1, 1);
    assert_eq!(pessimistic(&t, 4), 12);
    assert_eq!(safe_bound(&t, 4), 12);
}

#[test]
fn ceilings_with_larger_sigmas() {
    // ceil(5/2)*3 + ceil(5/3)*2 = 9 + 4.
    let t = tr("LLCLC", 2, 3);
    assert_eq!(pessimistic(&t, 5), 13);
    // min(5*5, floor(15/2) + floor(10/3) + 5) = min(25, 7 + 3 + 5).
    assert_eq!(safe_bound(&t, 5), 15);
}

#[test]
fn zero_warps_or_empty_string() {
    assert_eq!(pessimistic(&tr("LLC", 1, 1), 0), 0);
    assert_eq!(safe_bound(&tr("LLC", 1, 1), 0), 0);
    assert_eq!(pessimistic(&tr("", 1, 1), 9), 0);
    assert_eq!(safe_bound(&tr("", 1, 1), 9), 0);
}

#[test]
fn zero_sigma_is_no_finite_bound() {
    let mut t = tr("LC", 1, 1);
    t.sigma_c = 0;
    assert_eq!(pessimistic(&t, 3), u64::MAX);
    assert_eq!(safe_bound(&t, 3), u64::MAX);
    assert!(exact(&t, 3, &Budget::default()).is_err());
}

#[test]
fn eq5_is_not_safe_for_sigma_above_one() {
    // sigma_C = 2, four warps, "CC": Eq. 5-7 says ceil(4/2)*2 = 4, but a work-conserving
    // scheduler can take 5 cycles: {w0,w1} C0 | {w0,w2} | {w1,w2} | w3 C0 | w3 C1.
    let t = tr("CC", 1, 2);
    let s = exact(&t, 4, &Budget::default()).expect("small");
    common::validate(&t, 4, &s).expect("valid witness");
    assert_eq!(s.makespan, 5);
    assert_eq!(pessimistic(&t, 4), 4);
    assert!(safe_bound(&t, 4) >= 5);
    // On cc 2.1 (sigma_C = 3 after the generalised transformation) with "CCC" -> "CCCCCC":
    let k = isa::lc::parse_kernel("CCC").expect("valid");
    let t: Transformed = transform(&k, &Machine::fermi_cc21()).expect("valid");
    assert_eq!((t.text.as_str(), t.sigma_c), ("CCCCCC", 3));
    let v = exact(&t, 6, &Budget::default()).expect("small").makespan;
    assert_eq!(pessimistic(&t, 6), 12);
    assert_eq!(v, 16);
    assert!(safe_bound(&t, 6) >= v);
}
