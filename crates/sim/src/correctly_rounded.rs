//! Correctly rounded floating-point arithmetic in each IEEE-754 rounding direction, for the
//! operations whose directed-rounding forms the host's arithmetic cannot give directly:
//! double-precision `DADD`/`DMUL`/`DFMA` with `.RZ`/`.RM`/`.RP` (PTX `add`/`mul`/`fma`
//! `.rz`/`.rm`/`.rp.f64`), and single-precision products scaled by a power of two before
//! their one rounding (`FMUL.D2`…`.M8`).
//!
//! How: the exact result is formed as an integer significand times a power of two — a
//! product of two doubles has at most 106 significant bits, and a sum keeps 127 bits of
//! the larger addend and folds whatever of the smaller one falls below them into a sticky
//! bit — and is then rounded once to the destination format by [`round`], which implements
//! IEEE 754-2019 §4.3 (roundTiesToEven, roundTowardZero, roundTowardNegative,
//! roundTowardPositive) including gradual underflow and the overflow results of §7.4 (the
//! largest finite number where the direction rounds toward zero, else infinity). Rounding
//! to nearest agrees with the host's `+`, `*` and `mul_add` on every input (the property
//! test below checks it), which is what ties the directed modes to a checked core.
//!
//! Not here: NaN payloads (the callers canonicalise NaNs, `crate::canonical_nan`) and
//! flushing subnormals (`.FTZ` is the caller's).

use crate::rounding::Round;

/// A destination format: significand bits (with the hidden bit) and exponent range.
#[derive(Clone, Copy)]
struct Format {
    /// Significand precision p (53 for binary64, 24 for binary32).
    precision: u32,
    /// Exponent of the smallest normal number (emin).
    emin: i32,
    /// Exponent of the largest finite number (emax).
    emax: i32,
}

const F64: Format = Format {
    precision: 53,
    emin: -1022,
    emax: 1023,
};

const F32: Format = Format {
    precision: 24,
    emin: -126,
    emax: 127,
};

/// A finite nonzero value (−1)^neg · (mant + δ) · 2^exp, where 0 ≤ δ < 1 and `sticky` says
/// whether δ > 0 (a part of an addend too small to keep). When `sticky` is set, `mant` has
/// its top bit at bit 125 or above ([`sum`]), so a rounding to at most 53 bits discards more
/// than 70 bits below the result's last one and δ never decides which side of a half the
/// value is on: it only breaks exact ties and makes the value inexact.
#[derive(Clone, Copy, Debug)]
struct Exact {
    neg: bool,
    mant: u128,
    exp: i32,
    sticky: bool,
}

/// The significand and exponent of a finite nonzero double: `x = ±m · 2^e`.
fn parts64(x: f64) -> Exact {
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i32;
    let f = u128::from(bits & ((1 << 52) - 1));
    let (mant, exp) = if e == 0 {
        (f, -1074)
    } else {
        (f | 1 << 52, e - 1075)
    };
    Exact {
        neg: bits >> 63 == 1,
        mant,
        exp,
        sticky: false,
    }
}

/// The significand and exponent of a finite nonzero float.
fn parts32(x: f32) -> Exact {
    let bits = x.to_bits();
    let e = ((bits >> 23) & 0xff) as i32;
    let f = u128::from(bits & ((1 << 23) - 1));
    let (mant, exp) = if e == 0 {
        (f, -149)
    } else {
        (f | 1 << 23, e - 150)
    };
    Exact {
        neg: bits >> 31 == 1,
        mant,
        exp,
        sticky: false,
    }
}

/// The exact product of two finite nonzero values without a sticky bit.
fn product(a: Exact, b: Exact) -> Exact {
    Exact {
        neg: a.neg != b.neg,
        mant: a.mant * b.mant,
        exp: a.exp + b.exp,
        sticky: false,
    }
}

/// `x` with its top bit moved to bit 126 (exponent lowered to match).
fn normalised(x: Exact) -> Exact {
    let shift = x.mant.leading_zeros() as i32 - 1;
    Exact {
        mant: x.mant << shift,
        exp: x.exp - shift,
        ..x
    }
}

/// The sum of two finite nonzero values without sticky bits (each at most 126 bits), as an
/// [`Exact`] (module doc), or `None` when it is exactly zero.
fn sum(a: Exact, b: Exact) -> Option<Exact> {
    let (a, b) = (normalised(a), normalised(b));
    let (big, small) = if (a.exp, a.mant) >= (b.exp, b.mant) {
        (a, b)
    } else {
        (b, a)
    };
    let d = (big.exp - small.exp) as u32;
    let (aligned, sticky) = if d >= 127 {
        (0, true)
    } else {
        (small.mant >> d, small.mant & ((1u128 << d) - 1) != 0)
    };
    let mant = if big.neg == small.neg {
        // Both below 2^127: the sum fits.
        big.mant + aligned
    } else if sticky {
        // The true difference is big − (aligned + δ) = (big − aligned − 1) + (1 − δ).
        // Addends have at most 106 significant bits, so bits are lost only for d ≥ 21:
        // big.mant ≥ 2^126 and aligned < 2^106, the difference keeps its top bit at 125+.
        big.mant - aligned - 1
    } else {
        big.mant - aligned
    };
    if mant == 0 && !sticky {
        return None;
    }
    Some(Exact {
        neg: big.neg,
        mant,
        exp: big.exp,
        sticky,
    })
}

/// `x` rounded once to `fmt` in direction `r`: the bits of the result (sign at bit
/// `fmt`'s width − 1), IEEE 754-2019 §4.3 and §7.4.
fn round(x: Exact, fmt: Format, r: Round) -> u64 {
    let p = fmt.precision as i32;
    let width = if p == 53 { 64 } else { 32 };
    let sign = u64::from(x.neg) << (width - 1);
    let nbits = 128 - x.mant.leading_zeros() as i32;
    // The exponent of the leading bit, and of the result's last kept bit.
    let top = x.exp + nbits - 1;
    let mut q = top.max(fmt.emin) - (p - 1);
    let shift = q - x.exp;
    let mut kept = if shift <= 0 {
        // Exact (no bit below the last kept one, and then no sticky bit: module doc).
        x.mant << (-shift)
    } else {
        let s = shift as u32;
        let (kept, rem, half) = if s >= 128 {
            (0, x.mant, None)
        } else {
            (
                x.mant >> s,
                x.mant & ((1u128 << s) - 1),
                Some(1u128 << (s - 1)),
            )
        };
        let inexact = rem != 0 || x.sticky;
        let up = match r {
            Round::Nearest => match half {
                Some(h) => rem > h || (rem == h && (x.sticky || kept & 1 == 1)),
                None => false,
            },
            Round::Zero => false,
            Round::Up => inexact && !x.neg,
            Round::Down => inexact && x.neg,
        };
        kept + u128::from(up)
    };
    if kept >> p != 0 {
        // Rounding carried into a new leading bit.
        kept >>= 1;
        q += 1;
    }
    let overflow = kept != 0 && q + (128 - kept.leading_zeros() as i32) - 1 > fmt.emax;
    if overflow {
        let to_max = match r {
            Round::Nearest => false,
            Round::Zero => true,
            Round::Up => x.neg,
            Round::Down => !x.neg,
        };
        let exp_all_ones = (1u64 << (width - p)) - 1;
        let inf = exp_all_ones << (p - 1);
        return sign | if to_max { inf - 1 } else { inf };
    }
    let hidden = 1u128 << (p - 1);
    let body = if kept < hidden {
        // Subnormal (or zero): q is the subnormal exponent, the field holds the significand.
        kept as u64
    } else {
        let biased = (q + (p - 1) - fmt.emin + 1) as u64;
        biased << (p - 1) | (kept - hidden) as u64
    };
    sign | body
}

/// The sign of an exact zero sum of operands that were not both zeros of one sign
/// (IEEE 754-2019 §6.3): +0, but −0 when rounding toward −∞.
fn zero_sum(r: Round) -> f64 {
    if r == Round::Down {
        -0.0
    } else {
        0.0
    }
}

/// `a + b` rounded in direction `r`.
pub(crate) fn add_f64(a: f64, b: f64, r: Round) -> f64 {
    if !a.is_finite() || !b.is_finite() {
        return a + b;
    }
    match (a == 0.0, b == 0.0) {
        (true, true) if a.is_sign_negative() == b.is_sign_negative() => a,
        (true, true) => zero_sum(r),
        (true, false) => b,
        (false, true) => a,
        (false, false) => match sum(parts64(a), parts64(b)) {
            Some(s) => f64::from_bits(round(s, F64, r)),
            None => zero_sum(r),
        },
    }
}

/// `a · b` rounded in direction `r`.
pub(crate) fn mul_f64(a: f64, b: f64, r: Round) -> f64 {
    if !a.is_finite() || !b.is_finite() || a == 0.0 || b == 0.0 {
        return a * b;
    }
    f64::from_bits(round(product(parts64(a), parts64(b)), F64, r))
}

/// `a · b + c` with one rounding in direction `r`.
pub(crate) fn fma_f64(a: f64, b: f64, c: f64, r: Round) -> f64 {
    if !a.is_finite() || !b.is_finite() || !c.is_finite() {
        return a.mul_add(b, c);
    }
    if a == 0.0 || b == 0.0 {
        // The product is an exact zero of sign a·b: the sum of two zeros or c itself.
        return add_f64(a * b, c, r);
    }
    let p = product(parts64(a), parts64(b));
    if c == 0.0 {
        return f64::from_bits(round(p, F64, r));
    }
    match sum(p, parts64(c)) {
        Some(s) => f64::from_bits(round(s, F64, r)),
        None => zero_sum(r),
    }
}

/// `a · b · 2^k` with one rounding in direction `r` (`FMUL.D2`…`.M8`, see
/// `sass::decode::float`).
pub(crate) fn scaled_product_f32(a: f32, b: f32, k: i32, r: Round) -> f32 {
    if !a.is_finite() || !b.is_finite() || a == 0.0 || b == 0.0 {
        return a * b;
    }
    let mut p = product(parts32(a), parts32(b));
    p.exp += k;
    f32::from_bits(round(p, F32, r) as u32)
}

/// The integer `v` rounded to a double in direction `r` (`I2F.F64.S64.RZ`…).
pub(crate) fn int_to_f64(v: i128, r: Round) -> f64 {
    if v == 0 {
        return 0.0;
    }
    let x = Exact {
        neg: v < 0,
        mant: v.unsigned_abs(),
        exp: 0,
        sticky: false,
    };
    f64::from_bits(round(x, F64, r))
}

/// The double `x` rounded to a float in direction `r` (`F2F.F32.F64.RZ`…).
pub(crate) fn f64_to_f32(x: f64, r: Round) -> f32 {
    if !x.is_finite() || x == 0.0 || r == Round::Nearest {
        return x as f32;
    }
    f32::from_bits(round(parts64(x), F32, r) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const ALL: [Round; 4] = [Round::Nearest, Round::Zero, Round::Down, Round::Up];

    /// Hand values: 2^-60 is far below half an ulp of 1 (2^-53), so only the directions
    /// that round away from the exact 1 + 2^-60 move: up to 1 + 2^-52.
    #[test]
    fn sums_by_hand() {
        let tiny = 2f64.powi(-60);
        let next = 1.0 + 2f64.powi(-52);
        assert_eq!(add_f64(1.0, tiny, Round::Nearest), 1.0);
        assert_eq!(add_f64(1.0, tiny, Round::Zero), 1.0);
        assert_eq!(add_f64(1.0, tiny, Round::Down), 1.0);
        assert_eq!(add_f64(1.0, tiny, Round::Up), next);
        // −1 − 2^-60: toward −∞ is −(1 + 2^-52), toward zero and +∞ is −1.
        assert_eq!(add_f64(-1.0, -tiny, Round::Down), -next);
        assert_eq!(add_f64(-1.0, -tiny, Round::Zero), -1.0);
        assert_eq!(add_f64(-1.0, -tiny, Round::Up), -1.0);
        // 1 − 2^-60 lies between 1 − 2^-53 (the double below 1) and 1.
        let below = 1.0 - 2f64.powi(-53);
        assert_eq!(add_f64(1.0, -tiny, Round::Nearest), 1.0);
        assert_eq!(add_f64(1.0, -tiny, Round::Down), below);
        assert_eq!(add_f64(1.0, -tiny, Round::Zero), below);
        assert_eq!(add_f64(1.0, -tiny, Round::Up), 1.0);
        // An exact zero sum is +0, but −0 toward −∞.
        assert!(add_f64(1.5, -1.5, Round::Zero).is_sign_positive());
        assert!(add_f64(1.5, -1.5, Round::Down).is_sign_negative());
        assert!(add_f64(-0.0, -0.0, Round::Up).is_sign_negative());
        // Overflow: MAX + MAX is +∞ to nearest and up, MAX toward zero and down.
        assert_eq!(add_f64(f64::MAX, f64::MAX, Round::Nearest), f64::INFINITY);
        assert_eq!(add_f64(f64::MAX, f64::MAX, Round::Up), f64::INFINITY);
        assert_eq!(add_f64(f64::MAX, f64::MAX, Round::Zero), f64::MAX);
        assert_eq!(add_f64(f64::MAX, f64::MAX, Round::Down), f64::MAX);
        assert_eq!(add_f64(-f64::MAX, -f64::MAX, Round::Up), -f64::MAX);
        assert_eq!(
            add_f64(-f64::MAX, -f64::MAX, Round::Down),
            f64::NEG_INFINITY
        );
    }

    /// (1 + 2^-52)² = 1 + 2^-51 + 2^-104: to nearest and down 1 + 2^-51, up the next double
    /// 1 + 2^-51 + 2^-52. 2^-1074 · 0.5 = 2^-1075, half the smallest subnormal: a tie, to
    /// even 0; up 2^-1074; for −2^-1075 down is −2^-1074.
    #[test]
    fn products_by_hand() {
        let x = 1.0 + 2f64.powi(-52);
        let lo = 1.0 + 2f64.powi(-51);
        assert_eq!(mul_f64(x, x, Round::Nearest), lo);
        assert_eq!(mul_f64(x, x, Round::Down), lo);
        assert_eq!(mul_f64(x, x, Round::Zero), lo);
        assert_eq!(mul_f64(x, x, Round::Up), lo + 2f64.powi(-52));
        let min = f64::from_bits(1);
        assert_eq!(mul_f64(min, 0.5, Round::Nearest), 0.0);
        assert_eq!(mul_f64(min, 0.5, Round::Zero), 0.0);
        assert_eq!(mul_f64(min, 0.5, Round::Up), min);
        assert_eq!(mul_f64(min, -0.5, Round::Down), -min);
        assert_eq!(mul_f64(min, -0.5, Round::Up), -0.0);
        // 3 · 2^-1075 = 1.5 · 2^-1074: to nearest 2 · 2^-1074, down 2^-1074.
        assert_eq!(mul_f64(3.0 * min, 0.5, Round::Nearest), 2.0 * min);
        assert_eq!(mul_f64(3.0 * min, 0.5, Round::Down), min);
        // Subnormal to normal: (2^-1022 − 2^-1074) · (1 + 2^-52) rounds up to 2^-1022.
        let big_sub = f64::MIN_POSITIVE - min;
        assert_eq!(mul_f64(big_sub, x, Round::Up), f64::MIN_POSITIVE);
        assert_eq!(mul_f64(big_sub, x, Round::Down), big_sub);
    }

    /// e = 2^-52. fma(1 + e, 1 − e, −1) = −e² = −2^-104 and fma(1 + e, 1 + e, −(1 + 2e)) =
    /// e² are exact: every direction gives them. fma(1 + e, 1 + e, −1) = 2^-51 · (1 + 2^-53)
    /// lies halfway between 2^-51 and the next double 2^-51 + 2^-103: to nearest the tie goes
    /// to the even 2^-51, down too, up to 2^-51 + 2^-103. 2^-60 · 2^-60 + 1 = 1 + 2^-120
    /// rounds to 1 but up (1 + e); 1 − 2^-120 rounds to 1 but down (1 − 2^-53).
    #[test]
    fn fused_by_hand() {
        let e = 2f64.powi(-52);
        for r in ALL {
            assert_eq!(fma_f64(1.0 + e, 1.0 - e, -1.0, r), -(2f64.powi(-104)));
            assert_eq!(
                fma_f64(1.0 + e, 1.0 + e, -(1.0 + 2.0 * e), r),
                2f64.powi(-104)
            );
        }
        let half_way = (1.0 + e, 1.0 + e, -1.0);
        let (a, b, c) = half_way;
        assert_eq!(fma_f64(a, b, c, Round::Nearest), 2f64.powi(-51));
        assert_eq!(fma_f64(a, b, c, Round::Down), 2f64.powi(-51));
        assert_eq!(fma_f64(a, b, c, Round::Zero), 2f64.powi(-51));
        assert_eq!(
            fma_f64(a, b, c, Round::Up),
            2f64.powi(-51) + 2f64.powi(-103)
        );
        let t = 2f64.powi(-60);
        assert_eq!(fma_f64(t, t, 1.0, Round::Nearest), 1.0);
        assert_eq!(fma_f64(t, t, 1.0, Round::Down), 1.0);
        assert_eq!(fma_f64(t, t, 1.0, Round::Up), 1.0 + e);
        assert_eq!(fma_f64(-t, t, 1.0, Round::Down), 1.0 - e / 2.0);
        assert_eq!(fma_f64(-t, t, 1.0, Round::Up), 1.0);
        // A zero product keeps c; zero plus zero follows the sum's sign rule.
        assert_eq!(fma_f64(0.0, 5.0, -3.0, Round::Up), -3.0);
        assert!(fma_f64(-0.0, 5.0, 0.0, Round::Down).is_sign_negative());
        assert!(fma_f64(-0.0, 5.0, 0.0, Round::Up).is_sign_positive());
    }

    /// 3 · 5 · 2^-2 = 3.75 exactly; (1 + 2^-23)² · 2^-3 = (1 + 2^-22 + 2^-46)/8: to nearest
    /// and down (1 + 2^-22)/8, up (1 + 2^-22 + 2^-23)/8. 2^70 · 2^70 · 2^-3 = 2^137 is beyond
    /// f32 (+∞ to nearest, f32::MAX toward zero); 2^64 · 2^64 · 2^-3 = 2^125 is inside.
    #[test]
    fn scaled_products_by_hand() {
        assert_eq!(scaled_product_f32(3.0, 5.0, -2, Round::Nearest), 3.75);
        let x = 1.0 + f32::EPSILON;
        let lo = (1.0 + 2f32.powi(-22)) / 8.0;
        assert_eq!(scaled_product_f32(x, x, -3, Round::Nearest), lo);
        assert_eq!(scaled_product_f32(x, x, -3, Round::Down), lo);
        assert_eq!(
            scaled_product_f32(x, x, -3, Round::Up),
            (1.0 + 2f32.powi(-22) + 2f32.powi(-23)) / 8.0
        );
        let big = 2f32.powi(70);
        assert_eq!(
            scaled_product_f32(big, big, -3, Round::Nearest),
            f32::INFINITY
        );
        assert_eq!(scaled_product_f32(big, big, -3, Round::Zero), f32::MAX);
        assert_eq!(
            scaled_product_f32(2f32.powi(64), 2f32.powi(64), -3, Round::Nearest),
            2f32.powi(125)
        );
        // Into the subnormal range: 2^-140 · 2^-10 · 2^-1 = 2^-151, a quarter of the
        // smallest subnormal 2^-149: to nearest 0, up 2^-149.
        let (a, b) = (2f32.powi(-140), 2f32.powi(-10));
        assert_eq!(scaled_product_f32(a, b, -1, Round::Nearest), 0.0);
        assert_eq!(scaled_product_f32(a, b, -1, Round::Up), f32::from_bits(1));
    }

    fn any_f64() -> impl Strategy<Value = f64> {
        prop_oneof![
            any::<u64>().prop_map(f64::from_bits),
            (-60i32..60, any::<u32>())
                .prop_map(|(e, m)| { (1.0 + f64::from(m) / 2f64.powi(32)) * 2f64.powi(e) }),
            (0u64..(1 << 20)).prop_map(f64::from_bits),
        ]
        .prop_filter("finite", |x| x.is_finite())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// To nearest the module agrees with the host's IEEE arithmetic, and the directed
        /// results bracket it: down ≤ nearest ≤ up, up at most one step above down, toward
        /// zero the one of the two nearer zero, all equal when the result is exact.
        #[test]
        fn agrees_with_the_host_and_brackets_it(a in any_f64(), b in any_f64(), c in any_f64()) {
            let cases = [
                (add_f64(a, b, Round::Nearest), a + b, [add_f64(a, b, Round::Down), add_f64(a, b, Round::Up), add_f64(a, b, Round::Zero)]),
                (mul_f64(a, b, Round::Nearest), a * b, [mul_f64(a, b, Round::Down), mul_f64(a, b, Round::Up), mul_f64(a, b, Round::Zero)]),
                (fma_f64(a, b, c, Round::Nearest), a.mul_add(b, c), [fma_f64(a, b, c, Round::Down), fma_f64(a, b, c, Round::Up), fma_f64(a, b, c, Round::Zero)]),
            ];
            for (near, host, [down, up, zero]) in cases {
                if host.is_nan() {
                    prop_assert!(near.is_nan());
                    continue;
                }
                prop_assert_eq!(near.to_bits(), host.to_bits());
                prop_assert!(down <= near && near <= up);
                prop_assert!(up == down || up == down.next_up() || (down == f64::MAX && up.is_infinite()) || (up == -f64::MAX && down.is_infinite()));
                let toward_zero = if near > 0.0 || (near == 0.0 && up > 0.0) { down } else { up };
                prop_assert_eq!(zero, toward_zero);
            }
        }
    }
}
