//! §3: kernel strings and the sigma transformation.

use isa::lc::{parse_kernel, LcOp};
use makespan::{sigma_factor, transform, Error, Machine};

fn kernel(s: &str) -> Vec<LcOp> {
    match parse_kernel(s) {
        Ok(k) => k,
        Err(e) => panic!("{}", e.message),
    }
}

#[test]
fn cc20_lc_becomes_llc() {
    // §3, Fig. 1: L = 16, C = 32, S = 32.
    let t = transform(&kernel("LC"), &Machine::fermi_cc20()).expect("valid machine");
    assert_eq!(t.text, "LLC");
    assert_eq!(t.instrs, vec![LcOp::L, LcOp::L, LcOp::C]);
    assert_eq!((t.sigma_l, t.sigma_c), (1, 1));
    assert_eq!((t.factor_l, t.factor_c), (2, 1));
}

#[test]
fn cc21_factors() {
    // 48 cores, S = 32: gcd 16, so each C becomes 2 C's and three warps' C's fit a cycle.
    let m = Machine::fermi_cc21();
    assert_eq!((m.ls_units, m.cores, m.warp_size), (16, 48, 32));
    let t = transform(&kernel("LC"), &m).expect("valid machine");
    assert_eq!(t.text, "LLCC");
    assert_eq!((t.factor_l, t.sigma_l), (2, 1));
    assert_eq!((t.factor_c, t.sigma_c), (2, 3));
}

#[test]
fn fig7_setting() {
    // Fig. 7: "LCLCL" with sigma_L = 16/32 = 1/2 and sigma_C = 1.
    let t = transform(&kernel("LCLCL"), &Machine::fermi_cc20()).expect("valid machine");
    assert_eq!(t.text, "LLCLLCLL");
    assert_eq!((t.sigma_l, t.sigma_c), (1, 1));
    assert_eq!(t.counts(), (6, 2));
}

#[test]
fn more_units_than_threads_keep_the_string() {
    // U = 64 > S = 32: no split, two warps per cycle.
    assert_eq!(sigma_factor(64, 32), Ok((1, 2)));
    assert_eq!(sigma_factor(32, 32), Ok((1, 1)));
    assert_eq!(sigma_factor(8, 32), Ok((4, 1)));
    assert_eq!(sigma_factor(24, 32), Ok((4, 3)));
    let m = Machine {
        ls_units: 64,
        cores: 8,
        warp_size: 32,
    };
    let t = transform(&kernel("LC"), &m).expect("valid machine");
    assert_eq!(t.text, "LCCCC");
    assert_eq!((t.sigma_l, t.sigma_c, t.factor_l, t.factor_c), (2, 1, 1, 4));
}

#[test]
fn zero_counts_are_invalid() {
    for m in [
        Machine {
            ls_units: 0,
            cores: 32,
            warp_size: 32,
        },
        Machine {
            ls_units: 16,
            cores: 0,
            warp_size: 32,
        },
        Machine {
            ls_units: 16,
            cores: 32,
            warp_size: 0,
        },
    ] {
        match transform(&kernel("LC"), &m) {
            Err(Error::Invalid(msg)) => assert!(msg.contains("must be positive"), "{msg}"),
            other => panic!("expected Invalid, got {other:?}"),
        }
    }
}

#[test]
fn huge_factors_are_refused_not_allocated() {
    let m = Machine {
        ls_units: 1,
        cores: 1,
        warp_size: u32::MAX,
    };
    assert!(matches!(
        transform(&kernel("LC"), &m),
        Err(Error::Invalid(_))
    ));
}

#[test]
fn empty_kernel_transforms_to_empty() {
    let t = transform(&[], &Machine::fermi_cc20()).expect("valid machine");
    assert!(t.instrs.is_empty());
    assert_eq!(t.text, "");
}

#[test]
fn parsing() {
    assert_eq!(kernel("l C l c\n L"), kernel("LCLCL"));
    match parse_kernel("LXC") {
        Err(d) => assert!(d.message.contains("`X`") && (d.line, d.column) == (1, 2)),
        other => panic!("expected an error at X, got {other:?}"),
    }
    let e = Error::Budget {
        what: "max_states".into(),
        limit: 7,
    };
    assert_eq!(
        e.to_string(),
        "budget `max_states` exhausted (limit 7); raise `max_states` or shrink the instance"
    );
}
