//! One lane of the GCN3 vector ALU functions outside the common arithmetic of
//! [`super::alu`]: transcendentals, rounding, `frexp`, f64 conversions and the bit
//! operations of the libraries HIP links in (AMD GCN3 ISA chapter 12 "Instructions", VOP1/VOP2/VOP3
//! opcodes; their one-line definitions are quoted at each function).
//!
//! Readings: `v_exp_f32`, `v_log_f32`, `v_rsq_f32`/`_f64` and `v_rcp_f64` are
//! approximations on the GPU ("1 ULP" in the manual's tables); the simulator gives the
//! correctly rounded value (computed in f64 for f32, and `1/sqrt` in f64 from the rounded
//! square root), i.e. one the hardware may return. `v_frexp_*` follow C's `frexp` (mantissa
//! in `[0.5, 1)`, denormals normalised; ±∞ and NaN: the value itself and exponent 0), which
//! is how LLVM uses them on GFX8. `v_fract` is `x − floor(x)` as the manual writes it.

use super::decode::VFn;
use crate::canonical_nan::{f32_bits, f64_bits};

/// `x · 2^n`, exactly where the result is normal: in steps that keep every intermediate
/// representable (2^n alone overflows f64 for |n| > 1023).
pub(crate) fn ldexp64(x: f64, n: i32) -> f64 {
    let mut n = n.clamp(-2200, 2200);
    let mut x = x;
    while n > 1000 {
        x *= 2f64.powi(1000);
        n -= 1000;
    }
    while n < -1000 {
        x *= 2f64.powi(-1000);
        n += 1000;
    }
    x * 2f64.powi(n)
}

/// C's `frexp` on f64: `(m, e)` with `x = m · 2^e` and `|m|` in `[0.5, 1)`; zero, ±∞ and NaN
/// give `(x, 0)`.
pub(crate) fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let (x, shift) = if x.is_subnormal() {
        (x * 2f64.powi(64), -64)
    } else {
        (x, 0)
    };
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let mant = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (mant, exp - 1022 + shift)
}

/// The value of function `f` for one lane whose 32-bit sources are `a`, `b`, `c` and whose
/// float sources (modifiers applied) are `fa()` (f32) and `da()`, `db()` (f64). Only the
/// functions [`super::alu`] does not compute itself reach here; any other gives 0.
pub(crate) fn lane(
    f: VFn,
    a: u32,
    b: u32,
    c: u32,
    fa: impl Fn() -> f32,
    da: impl Fn() -> f64,
    db: impl Fn() -> f64,
) -> u64 {
    let f32b = |x: f64| u64::from(f32_bits(x as f32));
    match f {
        // D.f = 2^S0.f; D.f = log2(S0.f); D.f = 1 / sqrt(S0.f).
        VFn::ExpF => f32b(f64::from(fa()).exp2()),
        VFn::LogF => f32b(f64::from(fa()).log2()),
        VFn::RsqF => f32b(1.0 / f64::from(fa()).sqrt()),
        // D.f = S0.f − floor(S0.f); D.f = ceil(S0.f).
        VFn::FractF => u64::from(f32_bits(fa() - fa().floor())),
        VFn::CeilF => u64::from(f32_bits(fa().ceil())),
        VFn::FrexpMantF => f32b(frexp(f64::from(fa())).0),
        VFn::FrexpExpF => u64::from(frexp(f64::from(fa())).1 as u32),
        // D.f = (float) S0.u[8k+7 : 8k].
        VFn::CvtF32Ubyte(k) => u64::from(f32_bits(f32::from((a >> (8 * u32::from(k))) as u8))),
        VFn::RcpF64 => f64_bits(1.0 / da()),
        VFn::RsqF64 => f64_bits(1.0 / da().sqrt()),
        VFn::SqrtF64 => f64_bits(da().sqrt()),
        // D.d = S0.d · 2^S1.i.
        VFn::LdexpF64 => f64_bits(ldexp64(da(), b as i32)),
        VFn::CvtF64I32 => f64_bits(f64::from(a as i32)),
        VFn::CvtF64U32 => f64_bits(f64::from(a)),
        // D.i = (int) S0.d, truncating and saturating, NaN to 0 (Rust's `as`).
        VFn::CvtI32F64 => u64::from(da() as i32 as u32),
        VFn::CvtU32F64 => u64::from(da() as u32),
        VFn::RndneF64 => f64_bits(da().round_ties_even()),
        VFn::FractF64 => f64_bits(da() - da().floor()),
        VFn::CeilF64 => f64_bits(da().ceil()),
        VFn::FloorF64 => f64_bits(da().floor()),
        VFn::TruncF64 => f64_bits(da().trunc()),
        VFn::FrexpMantF64 => f64_bits(frexp(da()).0),
        VFn::FrexpExpF64 => u64::from(frexp(da()).1 as u32),
        // 16-bit integers: D.u16 = S0.u16 op S1.u16.
        VFn::AddU16 => u64::from((a as u16).wrapping_add(b as u16)),
        VFn::SubU16 => u64::from((a as u16).wrapping_sub(b as u16)),
        VFn::SubrevU16 => u64::from((b as u16).wrapping_sub(a as u16)),
        VFn::MulLoU16 => u64::from((a as u16).wrapping_mul(b as u16)),
        // D.u16 = S1.u16 << S0.u[3:0]; >> (logical); D.i16 = S1.i16 >> S0.u[3:0].
        VFn::LshlrevB16 => u64::from((b as u16) << (a & 15)),
        VFn::LshrrevB16 => u64::from((b as u16) >> (a & 15)),
        VFn::AshrrevI16 => u64::from(((b as u16 as i16) >> (a & 15)) as u16),
        // D.u = ({S0, S1} >> S2.u[4:0]) & 0xffffffff; alignbyte by S2.u[1:0] bytes.
        VFn::Alignbit => u64::from((((u64::from(a) << 32) | u64::from(b)) >> (c & 31)) as u32),
        VFn::Alignbyte => {
            u64::from((((u64::from(a) << 32) | u64::from(b)) >> (8 * (c & 3))) as u32)
        }
        // D.u = (S0.u & S1.u) | (~S0.u & S2.u).
        VFn::Bfi => u64::from((a & b) | (!a & c)),
        // D.u = ((1 << S0.u[4:0]) − 1) << S1.u[4:0].
        VFn::Bfm => u64::from((((1u64 << (a & 31)) - 1) << (b & 31)) as u32),
        VFn::Bfrev => u64::from(a.reverse_bits()),
        // D.u = CountOneBits(S0.u) + S1.u.
        VFn::Bcnt => u64::from(a.count_ones().wrapping_add(b)),
        _ => {
            let _ = db;
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(f: VFn, a: u32, b: u32, c: u32) -> u64 {
        lane(
            f,
            a,
            b,
            c,
            || f32::from_bits(a),
            || f64::from_bits(u64::from(a) | u64::from(b) << 32),
            || 0.0,
        )
    }

    /// Values worked by hand from the one-line definitions.
    #[test]
    fn bit_operations_by_hand() {
        // {0x12345678, 0x9abcdef0} >> 8 = 0x789abcde (the low word).
        assert_eq!(run(VFn::Alignbit, 0x1234_5678, 0x9abc_def0, 8), 0x789a_bcde);
        assert_eq!(
            run(VFn::Alignbyte, 0x1234_5678, 0x9abc_def0, 1),
            0x789a_bcde
        );
        assert_eq!(run(VFn::Bfi, 0xff00, 0x1234, 0xabcd), 0x12cd);
        assert_eq!(run(VFn::Bfm, 4, 8, 0), 0xf00);
        assert_eq!(run(VFn::Bfm, 0, 8, 0), 0);
        assert_eq!(run(VFn::Bfrev, 1, 0, 0), 0x8000_0000);
        assert_eq!(run(VFn::Bcnt, 0xf0f0, 3, 0), 11);
        assert_eq!(run(VFn::AddU16, 0xffff, 2, 0), 1);
        assert_eq!(run(VFn::SubrevU16, 5, 3, 0), 0xfffe);
        // 16-bit shifts by s0[3:0] of s1's low half: 0x8421 << 1 = 0x0842 (16 bits),
        // 0x8421 >> 4 = 0x0842, as signed 0xf842; a shift of 17 is a shift of 1.
        assert_eq!(run(VFn::LshlrevB16, 1, 0x1_8421, 0), 0x0842);
        assert_eq!(run(VFn::LshrrevB16, 4, 0xffff_8421, 0), 0x0842);
        assert_eq!(run(VFn::AshrrevI16, 4, 0x8421, 0), 0xf842);
        assert_eq!(run(VFn::AshrrevI16, 17, 0x0421, 0), 0x0210);
        assert_eq!(
            run(VFn::CvtF32Ubyte(2), 0x00ab_0000, 0, 0),
            u64::from(171f32.to_bits())
        );
    }

    #[test]
    fn float_functions_by_hand() {
        let f = |x: f32| x.to_bits();
        assert_eq!(run(VFn::ExpF, f(3.0), 0, 0), u64::from(f(8.0)));
        assert_eq!(run(VFn::LogF, f(0.25), 0, 0), u64::from(f(-2.0)));
        assert_eq!(run(VFn::RsqF, f(16.0), 0, 0), u64::from(f(0.25)));
        assert_eq!(run(VFn::FractF, f(-1.25), 0, 0), u64::from(f(0.75)));
        // 12 = 0.75 · 2^4.
        assert_eq!(run(VFn::FrexpMantF, f(12.0), 0, 0), u64::from(f(0.75)));
        assert_eq!(run(VFn::FrexpExpF, f(12.0), 0, 0), 4);
        // The smallest denormal 2^-149 = 0.5 · 2^-148.
        assert_eq!(run(VFn::FrexpExpF, 1, 0, 0), (-148i32) as u32 as u64);
        assert_eq!(run(VFn::FrexpExpF, f(f32::INFINITY), 0, 0), 0);
        // f64 sources: 10.5 as two words.
        let d = 10.5f64.to_bits();
        let (lo, hi) = (d as u32, (d >> 32) as u32);
        assert_eq!(run(VFn::CvtI32F64, lo, hi, 0), 10);
        assert_eq!(run(VFn::RndneF64, lo, hi, 0), 10.0f64.to_bits());
        assert_eq!(run(VFn::CeilF64, lo, hi, 0), 11.0f64.to_bits());
        assert_eq!(run(VFn::FrexpExpF64, lo, hi, 0), 4);
        assert_eq!(
            run(VFn::FrexpMantF64, lo, hi, 0),
            (10.5f64 / 16.0).to_bits()
        );
        assert_eq!(ldexp64(1.0, 2000), f64::INFINITY);
        // 2^-1000 · 2^1500 = 2^500, though 2^1500 itself is not an f64.
        assert_eq!(ldexp64(2f64.powi(-1000), 1500), 2f64.powi(500));
        assert_eq!(
            run(VFn::CvtF64I32, (-3i32) as u32, 0, 0),
            (-3.0f64).to_bits()
        );
    }
}
