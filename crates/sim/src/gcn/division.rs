//! The division steps of GCN3: `v_div_scale`, `v_div_fmas` and `v_div_fixup` in single and
//! double precision — the compiler's IEEE division is `num / den` as
//!
//! ```text
//! den' = v_div_scale(den, den, num)        ; maybe scaled, VCC unused
//! num' = v_div_scale(num, den, num)        ; maybe scaled, VCC = "the quotient is scaled"
//! r ≈ 1 / den' (v_rcp, then Newton steps with v_fma)
//! q = num' · r;  e = fma(−den', q, num')
//! q' = v_div_fmas(e, r, q)                 ; fma(e, r, q), scaled back when VCC
//! result = v_div_fixup(q', den, num)       ; the special cases of num / den
//! ```
//!
//! The AMD GCN3 ISA manual (chapter 12 "Instructions", the VOP3 opcodes V_DIV_*) names the operands — "S0 =
//! quotient or the value to scale, S1 = denominator, S2 = numerator" — and says what the
//! steps are for, without pseudo-code; the later AMD references (the RDNA3 and CDNA3
//! "Instruction Set Architecture" guides, `V_DIV_SCALE_F32`, `V_DIV_FMAS_F32`,
//! `V_DIV_FIXUP_F32` and their F64 twins) give the pseudo-code followed here:
//!
//! - **scale** (`div_scale`): VCC = 0, D = S0; then the first matching case: S2 or S1 zero →
//!   NaN; `exponent(S2) − exponent(S1) ≥ 96` (f64: 768; the quotient near the largest value)
//!   → VCC = 1 and, if S0 is S1, D = S0 · 2^64 (f64: 2^128); S1 denormal → D = S0 · 2^64;
//!   `1/S1` (in f64) denormal and `S2/S1` denormal → VCC = 1, and if S0 is S1, D = S0 · 2^64;
//!   `1/S1` denormal → D = S0 · 2^−64; `S2/S1` denormal → VCC = 1 and, if S0 is S2,
//!   D = S0 · 2^64; `exponent(S2) ≤ 23` (f64: 53; the numerator tiny) → D = S0 · 2^64.
//!   (`exponent` is the biased exponent field; scalings by 2^±128 for f64.)
//! - **fmas** (`div_fmas`): `fma(S0, S1, S2)`, scaled when VCC is set. The published
//!   pseudo-code scales by a constant 2^32 (f64: 2^64), which undoes neither of the scalings
//!   the scale step makes when it sets VCC (the denominator alone by 2^64, making the
//!   quotient 2^64 too small; the numerator alone by 2^64, making it 2^64 too large). We
//!   read it as the scaling that undoes the scale step: 2^64 when the quotient operand S2 is
//!   at least 1 (the quotient was made small: it is then above 2^32) and 2^−64 otherwise (it
//!   was made large from a denormal quotient: it is then below 2^−62); f64 2^±128. The
//!   hardware fuses the scaling into the fma's rounding; we round the fma first (f32: in
//!   f64) and then scale, so a quotient scaled into the denormal range may differ by a
//!   double rounding. *Uncertain*: our reading, checked by the hand-computed quotients of the
//!   extreme cases below.
//! - **fixup** (`div_fixup`): `sign = sign(S1) ⊕ sign(S2)`; S2 NaN → S2 quieted; S1 NaN →
//!   S1 quieted; both zero, or both infinite → NaN; S1 zero or S2 infinite → ±∞; S1
//!   infinite or S2 zero → ±0; `exponent(S2) − exponent(S1) < −150` (f64: −1075) → ±0 (the
//!   quotient underflows); otherwise `±|S0|` with that sign.
//!
//! NaN results are canonical ([`crate::canonical_nan`]), as every NaN of the simulator.

/// The parameters of one precision.
#[derive(Debug, Clone, Copy)]
struct Width {
    mantissa_bits: u32,
    exponent_mask: u64,
    near_max: i64,
    tiny: i64,
    underflow: i64,
    scale: i32,
}

const F32: Width = Width {
    mantissa_bits: 23,
    exponent_mask: 0xff,
    near_max: 96,
    tiny: 23,
    underflow: -150,
    scale: 64,
};

const F64: Width = Width {
    mantissa_bits: 52,
    exponent_mask: 0x7ff,
    near_max: 768,
    tiny: 53,
    underflow: -1075,
    scale: 128,
};

/// The biased exponent field of `x` (of the width `w`), given as f64 bits of its own width.
fn exponent(w: Width, bits: u64) -> i64 {
    ((bits >> w.mantissa_bits) & w.exponent_mask) as i64
}

/// `x · 2^e` exactly (f64 holds every f32 value and the scalings used here).
fn ldexp(x: f64, e: i32) -> f64 {
    x * 2f64.powi(e)
}

/// `v_div_scale_f32 d, vcc, s0, s1, s2`: the scaled value and VCC.
pub(crate) fn scale_f32(s0: f32, s1: f32, s2: f32) -> (f32, bool) {
    let denorm = |x: f32| x.is_subnormal();
    let bits = |x: f32| u64::from(x.to_bits());
    let (d, vcc) = scale(
        F32,
        (f64::from(s0), f64::from(s1), f64::from(s2)),
        (bits(s0), bits(s1), bits(s2)),
        denorm(s1),
        (1.0 / f64::from(s1)).is_subnormal(),
        denorm(s2 / s1),
    );
    (d as f32, vcc)
}

/// `v_div_scale_f64 d, vcc, s0, s1, s2`: the scaled value and VCC.
pub(crate) fn scale_f64(s0: f64, s1: f64, s2: f64) -> (f64, bool) {
    scale(
        F64,
        (s0, s1, s2),
        (s0.to_bits(), s1.to_bits(), s2.to_bits()),
        s1.is_subnormal(),
        (1.0 / s1).is_subnormal(),
        (s2 / s1).is_subnormal(),
    )
}

/// The scale step of the module doc on values (as f64) and bits of their own width.
fn scale(
    w: Width,
    (s0, s1, s2): (f64, f64, f64),
    (_, b1, b2): (u64, u64, u64),
    s1_denormal: bool,
    rcp_denormal: bool,
    quotient_denormal: bool,
) -> (f64, bool) {
    let k = w.scale;
    if s2 == 0.0 || s1 == 0.0 {
        return (f64::NAN, false);
    }
    if exponent(w, b2) - exponent(w, b1) >= w.near_max {
        return (if s0 == s1 { ldexp(s0, k) } else { s0 }, true);
    }
    if s1_denormal {
        return (ldexp(s0, k), false);
    }
    if rcp_denormal && quotient_denormal {
        return (if s0 == s1 { ldexp(s0, k) } else { s0 }, true);
    }
    if rcp_denormal {
        return (ldexp(s0, -k), false);
    }
    if quotient_denormal {
        return (if s0 == s2 { ldexp(s0, k) } else { s0 }, true);
    }
    if exponent(w, b2) <= w.tiny {
        return (ldexp(s0, k), false);
    }
    (s0, false)
}

/// `v_div_fmas_f32 d, s0, s1, s2` with this lane's VCC bit.
pub(crate) fn fmas_f32(s0: f32, s1: f32, s2: f32, vcc: bool) -> f32 {
    if !vcc {
        return s0.mul_add(s1, s2);
    }
    // Computed in f64 (53 bits), scaled exactly, then rounded to f32: a double rounding only
    // when the f64 rounding lands exactly on an f32 tie.
    let e = if s2.abs() >= 1.0 {
        F32.scale
    } else {
        -F32.scale
    };
    let exact = f64::from(s0).mul_add(f64::from(s1), f64::from(s2));
    ldexp(exact, e) as f32
}

/// `v_div_fmas_f64 d, s0, s1, s2` with this lane's VCC bit.
pub(crate) fn fmas_f64(s0: f64, s1: f64, s2: f64, vcc: bool) -> f64 {
    let r = s0.mul_add(s1, s2);
    if !vcc {
        return r;
    }
    ldexp(
        r,
        if s2.abs() >= 1.0 {
            F64.scale
        } else {
            -F64.scale
        },
    )
}

/// The fixup step of the module doc on values (as f64) and bits of their own width; `None`
/// for the ordinary case (`±|S0|`).
fn fixup(w: Width, s1: f64, s2: f64, b1: u64, b2: u64) -> Option<f64> {
    let sign = quotient_sign(s1, s2);
    let nan = s2.is_nan()
        || s1.is_nan()
        || (s1 == 0.0 && s2 == 0.0)
        || (s1.is_infinite() && s2.is_infinite());
    let zero = s1.is_infinite() || s2 == 0.0 || exponent(w, b2) - exponent(w, b1) < w.underflow;
    Some(if nan {
        f64::NAN
    } else if s1 == 0.0 || s2.is_infinite() {
        sign * f64::INFINITY
    } else if zero {
        sign * 0.0
    } else {
        return None;
    })
}

/// The sign of `s2 / s1` (the fixup's `S0` is `±|S0|` with it): −1 when exactly one of them
/// is negative. An f32 operand comes as its (exact) f64 value, sign included.
fn quotient_sign(s1: f64, s2: f64) -> f64 {
    if s1.is_sign_negative() != s2.is_sign_negative() {
        -1.0
    } else {
        1.0
    }
}

/// `v_div_fixup_f32 d, s0, s1, s2`.
pub(crate) fn fixup_f32(s0: f32, s1: f32, s2: f32) -> f32 {
    let b = |x: f32| u64::from(x.to_bits());
    let (w1, w2) = (f64::from(s1), f64::from(s2));
    match fixup(F32, w1, w2, b(s1), b(s2)) {
        Some(v) => v as f32,
        None => s0.abs().copysign(quotient_sign(w1, w2) as f32),
    }
}

/// `v_div_fixup_f64 d, s0, s1, s2`.
pub(crate) fn fixup_f64(s0: f64, s1: f64, s2: f64) -> f64 {
    match fixup(F64, s1, s2, s1.to_bits(), s2.to_bits()) {
        Some(v) => v,
        None => s0.abs().copysign(quotient_sign(s1, s2)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compiler's f32 division sequence (as in Rodinia's gaussian `Fan1`), step by step
    /// with these functions and exact `rcp`.
    fn divide_f32(num: f32, den: f32) -> f32 {
        let (den_s, _) = scale_f32(den, den, num);
        let (num_s, vcc) = scale_f32(num, den, num);
        let r0 = 1.0 / den_s;
        let t = (-den_s).mul_add(r0, 1.0);
        let r = t.mul_add(r0, r0);
        let q0 = num_s * r;
        let e0 = (-den_s).mul_add(q0, num_s);
        let q1 = e0.mul_add(r, q0);
        let e1 = (-den_s).mul_add(q1, num_s);
        let q = fmas_f32(e1, r, q1, vcc);
        fixup_f32(q, den, num)
    }

    fn divide_f64(num: f64, den: f64) -> f64 {
        let (den_s, _) = scale_f64(den, den, num);
        let (num_s, vcc) = scale_f64(num, den, num);
        let mut r = 1.0 / den_s;
        for _ in 0..2 {
            let t = (-den_s).mul_add(r, 1.0);
            r = r.mul_add(t, r);
        }
        let q = num_s * r;
        let e = (-den_s).mul_add(q, num_s);
        let q = fmas_f64(e, r, q, vcc);
        fixup_f64(q, den, num)
    }

    /// Each case of the scale step, by hand: 1e20 / 1e-10 has exponents 193 and 93 (a
    /// difference of 100 ≥ 96), so the denominator alone is scaled and VCC set; a denormal
    /// denominator scales both (unless the first case applies); a denormal quotient (1e-30 / 1e10) scales the numerator and
    /// sets VCC; a tiny numerator (exponent ≤ 23) scales both.
    #[test]
    fn scale_cases_by_hand() {
        let two64 = 2f32.powi(64);
        assert_eq!(scale_f32(1e-10, 1e-10, 1e20), (1e-10 * two64, true));
        assert_eq!(scale_f32(1e20, 1e-10, 1e20), (1e20, true));
        // A denormal denominator (2^-137) under 1.0: exponents 127 and 0 differ by 127, so
        // the first case wins; under 2^-100 (exponent 27) the denormal case scales both.
        let dn = f32::from_bits(0x0000_1000);
        assert_eq!(scale_f32(dn, dn, 1.0), (dn * two64, true));
        let small = 2f32.powi(-100);
        assert_eq!(scale_f32(dn, dn, small), (dn * two64, false));
        assert_eq!(scale_f32(small, dn, small), (small * two64, false));
        assert_eq!(scale_f32(1e-30, 1e10, 1e-30), (1e-30 * two64, true));
        assert_eq!(scale_f32(1e10, 1e10, 1e-30), (1e10, true));
        let tiny = 2f32.powi(-110);
        assert_eq!(scale_f32(tiny, 3.0, tiny), (tiny * two64, false));
        assert_eq!(scale_f32(3.0, 3.0, tiny), (3.0 * two64, false));
        assert!(scale_f32(1.0, 0.0, 1.0).0.is_nan());
        assert_eq!(scale_f32(6.0, 3.0, 6.0), (6.0, false));
    }

    /// The whole sequence gives the IEEE quotient, the extreme cases of every scaling
    /// included (each checked against Rust's correctly rounded division).
    #[test]
    fn sequences_give_the_ieee_quotient() {
        let cases32: [(f32, f32); 9] = [
            (1.0, 3.0),
            (2.0, 3.0),
            (-7.5, 0.1),
            (1e20, 1e-10),
            (1e-30, 1e10),
            (1e-5, f32::from_bits(0x0000_1000)),
            (1e-35, 3.0),
            (3.4e38, 0.5),
            (5.0, 1e-44),
        ];
        for (n, d) in cases32 {
            assert_eq!(divide_f32(n, d).to_bits(), (n / d).to_bits(), "{n} / {d}");
        }
        let cases64: [(f64, f64); 6] = [
            (1.0, 3.0),
            (-2.5, 7.0),
            (1e300, 1e-10),
            (1e-300, 1e20),
            (1e-310, 3.0),
            (7.0, 1e-310),
        ];
        for (n, d) in cases64 {
            assert_eq!(divide_f64(n, d).to_bits(), (n / d).to_bits(), "{n} / {d}");
        }
    }

    /// The fixup's special cases.
    #[test]
    fn fixup_special_cases() {
        assert!(fixup_f32(1.0, 0.0, 0.0).is_nan());
        assert!(fixup_f32(1.0, f32::INFINITY, f32::NEG_INFINITY).is_nan());
        assert_eq!(fixup_f32(1.0, -0.0, 2.0), f32::NEG_INFINITY);
        assert_eq!(fixup_f32(1.0, 2.0, f32::INFINITY), f32::INFINITY);
        assert!(fixup_f32(1.0, f32::INFINITY, -2.0).is_sign_negative());
        assert_eq!(fixup_f32(1.0, 2.0, 0.0), 0.0);
        assert_eq!(fixup_f32(5.0, -2.0, 10.0), -5.0);
        assert_eq!(fixup_f64(0.5, 4.0, -2.0), -0.5);
        assert!(fixup_f64(1.0, f64::NAN, 1.0).is_nan());
    }
}
