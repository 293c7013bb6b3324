//! Floating-point arithmetic of `f32` and `f64` (PTX ISA "Floating-Point Instructions"),
//! rounded to nearest, and float results as register bits.

/// A floating-point operation of `add` … `cos`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FloatOp {
    Add,
    Sub,
    Mul,
    Div,
    /// `fma`, and `mad` of floats.
    Fma,
    Min,
    Max,
    Neg,
    Abs,
    Sqrt,
    Rcp,
    Lg2,
    Ex2,
    Sin,
    Cos,
    /// `rsqrt.approx`: computed as the correctly rounded `1/sqrt(x)`.
    Rsqrt,
}

impl FloatOp {
    /// How many source operands the operation reads (operands 1, 2, 3 of the instruction).
    pub fn sources(self) -> usize {
        match self {
            FloatOp::Fma => 3,
            FloatOp::Neg
            | FloatOp::Abs
            | FloatOp::Sqrt
            | FloatOp::Rcp
            | FloatOp::Rsqrt
            | FloatOp::Lg2
            | FloatOp::Ex2
            | FloatOp::Sin
            | FloatOp::Cos => 1,
            _ => 2,
        }
    }
}

/// The canonical quiet NaN of `f32` (sign clear, quiet bit set, payload zero).
pub const F32_NAN: u32 = 0x7fc0_0000;

/// The canonical quiet NaN of `f64`.
pub const F64_NAN: u64 = 0x7ff8_0000_0000_0000;

/// The bits of the `f32` result `x`, a NaN as [`F32_NAN`]. Which NaN payload an IEEE
/// operation returns is not specified by Rust and changes with code generation (issue #21),
/// so results do not depend on how the executor was compiled; NVIDIA and AMD hardware
/// return a canonical NaN from arithmetic too.
#[inline]
pub fn f32_bits(x: f32) -> u32 {
    if x.is_nan() {
        F32_NAN
    } else {
        x.to_bits()
    }
}

/// The bits of the `f64` result `x`, a NaN as [`F64_NAN`] (see [`f32_bits`]).
#[inline]
pub fn f64_bits(x: f64) -> u64 {
    if x.is_nan() {
        F64_NAN
    } else {
        x.to_bits()
    }
}

/// The `f32` in the low bits of `v`, a subnormal flushed to a zero of its sign with `ftz`.
#[inline]
pub fn f32_of(v: u64, ftz: bool) -> f32 {
    let x = f32::from_bits(v as u32);
    if ftz && x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// `op` applied to `x`, `y`, `z` of one float width (`f32` or `f64`, whichever they are).
macro_rules! float_op {
    ($op:expr, $x:ident, $y:ident, $z:ident) => {
        match $op {
            FloatOp::Add => $x + $y,
            FloatOp::Sub => $x - $y,
            FloatOp::Mul => $x * $y,
            FloatOp::Div => $x / $y,
            FloatOp::Fma => $x.mul_add($y, $z),
            FloatOp::Min => $x.min($y),
            FloatOp::Max => $x.max($y),
            FloatOp::Neg => -$x,
            FloatOp::Abs => $x.abs(),
            FloatOp::Sqrt => $x.sqrt(),
            FloatOp::Rcp => 1.0 / $x,
            FloatOp::Rsqrt => 1.0 / $x.sqrt(),
            FloatOp::Lg2 => $x.log2(),
            FloatOp::Ex2 => $x.exp2(),
            FloatOp::Sin => $x.sin(),
            FloatOp::Cos => $x.cos(),
        }
    };
}

/// `op` of the bits `a`, `b`, `c` (those `op` reads) as `f64` when `double`, else as `f32`
/// with `.ftz`; `.sat` clamps the result to `[0, 1]`.
#[inline]
pub fn float_op(op: FloatOp, double: bool, ftz: bool, sat: bool, a: u64, b: u64, c: u64) -> u64 {
    let f = |x: f64, y: f64, z: f64| -> f64 { float_op!(op, x, y, z) };
    let clamp = |x: f64| -> f64 {
        if !sat {
            x
        } else if x.is_nan() {
            0.0
        } else {
            x.clamp(0.0, 1.0)
        }
    };
    if double {
        let (x, y, z) = (f64::from_bits(a), f64::from_bits(b), f64::from_bits(c));
        f64_bits(clamp(f(x, y, z)))
    } else {
        let (x, y, z) = (f32_of(a, ftz), f32_of(b, ftz), f32_of(c, ftz));
        // Every f32 operation is computed in f32 so that rounding is single precision
        // (an f64 evaluation of `x * y + z` would round differently).
        let r: f32 = float_op!(op, x, y, z);
        let r = if sat { clamp(f64::from(r)) as f32 } else { r };
        u64::from(f32_bits(f32_of(u64::from(r.to_bits()), ftz)))
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
        assert_eq!(F64_NAN, f64::NAN.to_bits());
    }

    #[test]
    fn min_with_one_nan_is_the_other_operand() {
        let nan = u64::from(f32::NAN.to_bits());
        let one = u64::from(1f32.to_bits());
        assert_eq!(
            float_op(FloatOp::Min, false, false, false, nan, one, 0),
            one
        );
    }

    #[test]
    fn saturation_and_flush() {
        let f = |x: f32| u64::from(x.to_bits());
        assert_eq!(
            float_op(FloatOp::Add, false, false, true, f(0.75), f(0.5), 0),
            f(1.0)
        );
        let tiny = u64::from(1u32); // the smallest positive subnormal
        assert_eq!(
            float_op(FloatOp::Mul, false, true, false, tiny, f(1.0), 0),
            0
        );
        assert_eq!(
            float_op(FloatOp::Mul, false, false, false, tiny, f(1.0), 0),
            tiny
        );
    }
}
