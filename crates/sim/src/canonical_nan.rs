//! Floating-point results as register bits, every NaN as the canonical quiet NaN of its
//! width (issue #21). Which NaN payload an IEEE operation returns is not specified by Rust
//! and changes with code generation (an optimised build vectorises the operation-major
//! paths differently from the per-lane ones), so the three ALUs store results through these
//! functions: a run's registers then do not depend on how the simulator was compiled. GPUs
//! do the same — NVIDIA and AMD hardware return a canonical NaN from arithmetic.
//!
//! Moves, loads and stores keep their bits; only results of float arithmetic and
//! conversions go through here.

/// The canonical quiet NaN of `f32` (sign clear, quiet bit set, payload zero).
pub(crate) const F32_NAN: u32 = 0x7fc0_0000;

/// The canonical quiet NaN of `f64`.
pub(crate) const F64_NAN: u64 = 0x7ff8_0000_0000_0000;

/// The bits of the `f32` result `x`.
#[inline]
pub(crate) fn f32_bits(x: f32) -> u32 {
    if x.is_nan() {
        F32_NAN
    } else {
        x.to_bits()
    }
}

/// The bits of the `f64` result `x`.
#[inline]
pub(crate) fn f64_bits(x: f64) -> u64 {
    if x.is_nan() {
        F64_NAN
    } else {
        x.to_bits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_nan_is_the_canonical_one() {
        let odd32 = f32::from_bits(0xffc0_1234);
        let odd64 = f64::from_bits(0xfff8_0000_dead_beef);
        assert_eq!(f32_bits(odd32), F32_NAN);
        assert_eq!(f32_bits(-f32::NAN), F32_NAN);
        assert_eq!(f64_bits(odd64), F64_NAN);
        assert_eq!(f32_bits(-0.0), 0x8000_0000);
        assert_eq!(f64_bits(1.5), 1.5f64.to_bits());
        assert_eq!(F32_NAN, f32::NAN.to_bits());
    }
}
