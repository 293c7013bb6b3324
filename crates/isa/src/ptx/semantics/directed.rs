//! Single-precision arithmetic rounded in a direction (PTX `add/sub/mul/fma.{rz,rm,rp}.f32`,
//! PTX ISA "Floating-Point Instructions"), computed exactly: the host's arithmetic only
//! rounds to nearest.

use super::convert::Round;
use super::float::{f32_bits, f32_of, FloatOp};
use crate::ptx::ScalarType;

impl Round {
    /// The direction an arithmetic instruction's `.rz`, `.rm` or `.rp` names, as `has` says
    /// which it has (`None`: `.rn` or none, to nearest).
    pub fn directed(has: impl Fn(&str) -> bool) -> Option<Round> {
        [("rz", Round::Zero), ("rm", Round::Down), ("rp", Round::Up)]
            .into_iter()
            .find(|(m, _)| has(m))
            .map(|(_, r)| r)
    }
}

impl FloatOp {
    /// Whether [`f32_directed_op`] computes `self` of type `ty` rounded in a direction:
    /// `add`, `sub`, `mul`, `fma` of `f32`.
    pub fn rounds_directed(self, ty: ScalarType) -> bool {
        ty == ScalarType::F32
            && matches!(
                self,
                FloatOp::Add | FloatOp::Sub | FloatOp::Mul | FloatOp::Fma
            )
    }
}

/// `op` of `f32` bits `a`, `b`, `c` rounded in direction `round`, with `.ftz` and `.sat` as
/// [`super::float_op`] applies them. `None`: an operation other than `add`, `sub`, `mul`,
/// `fma`, whose directed forms are not modelled.
pub fn f32_directed_op(
    op: FloatOp,
    round: Round,
    ftz: bool,
    sat: bool,
    (a, b, c): (u64, u64, u64),
) -> Option<u64> {
    let f = match op {
        FloatOp::Add => F32Op::Add,
        FloatOp::Sub => F32Op::Sub,
        FloatOp::Mul => F32Op::Mul,
        FloatOp::Fma => F32Op::Fma,
        _ => return None,
    };
    let x = |v: u64| f32_of(v, ftz);
    let r = f32_directed(f, x(a), x(b), x(c), round);
    let r = if sat {
        if r.is_nan() {
            0.0
        } else {
            r.clamp(0.0, 1.0)
        }
    } else {
        r
    };
    Some(u64::from(f32_bits(f32_of(u64::from(r.to_bits()), ftz))))
}

/// A single-precision operation whose result is rounded in a chosen direction (PTX
/// `add/sub/mul/fma.{rz,rm,rp}.f32`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum F32Op {
    Add,
    Sub,
    Mul,
    Fma,
}

/// `x op y (+ z)` rounded to f32 in direction `r` (IEEE 754-2008 §4.3). The exact value is
/// carried in f64 as a sum `s + e`: a product of two f32 is exact in f64 (48 significant
/// bits), and the error `e` of the f64 sum is exact (Knuth's TwoSum); the nearest f32 of `s`
/// is then stepped one ulp when it lies on the wrong side of `s + e`. An exactly zero sum of
/// opposite-signed terms is +0, or −0 when rounding down (§6.3).
fn f32_directed(op: F32Op, x: f32, y: f32, z: f32, r: Round) -> f32 {
    let (x, y, z) = (f64::from(x), f64::from(y), f64::from(z));
    let (p, q) = match op {
        F32Op::Add => (x, y),
        F32Op::Sub => (x, -y),
        F32Op::Mul => (x * y, 0.0),
        F32Op::Fma => (x * y, z),
    };
    if op == F32Op::Mul {
        return round_sum(p, 0.0, r);
    }
    let (s, e) = two_sum(p, q);
    if s == 0.0 && !s.is_nan() {
        let both_negative = p.is_sign_negative() && q.is_sign_negative();
        let both_positive = p.is_sign_positive() && q.is_sign_positive();
        return if both_negative || (!both_positive && r == Round::Down) {
            -0.0
        } else {
            0.0
        };
    }
    round_sum(s, e, r)
}

/// `a + b` in f64 and its exact rounding error (Knuth's TwoSum): `a + b = s + e` exactly.
pub fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// `s + e` (exactly; `e` below half an ulp of `s`) rounded to f32 in direction `r`: the
/// nearest f32 of `s`, stepped one ulp when it lies on the wrong side of `s + e`. PTX's
/// directed arithmetic and SASS's `FADD/FMUL/FFMA.RM/.RP/.RZ` (the simulator) round with it.
pub fn round_sum(s: f64, e: f64, r: Round) -> f32 {
    let n = s as f32;
    if !s.is_finite() {
        return n;
    }
    // Exact: `n` is `s` rounded to 24 bits (or infinite, when `s` overflows f32).
    let d = f64::from(n) - s;
    let positive = s > 0.0 || (s == 0.0 && e > 0.0);
    let down = match r {
        Round::Nearest => return n,
        Round::Down => true,
        Round::Up => false,
        Round::Zero => positive,
    };
    if down && d > e {
        n.next_down()
    } else if !down && d < e {
        n.next_up()
    } else {
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values worked by hand: 1 + 2^-30 lies strictly between 1 and 1 + 2^-23.
    #[test]
    fn directed_sums_and_products() {
        let tiny = 2f32.powi(-30);
        let up = 1.0f32.next_up();
        assert_eq!(f32_directed(F32Op::Add, 1.0, tiny, 0.0, Round::Up), up);
        assert_eq!(f32_directed(F32Op::Add, 1.0, tiny, 0.0, Round::Down), 1.0);
        assert_eq!(
            f32_directed(F32Op::Add, 1.0, tiny, 0.0, Round::Nearest),
            1.0
        );
        // -1 - 2^-30 toward zero is -1, down is -(1 + 2^-23).
        assert_eq!(f32_directed(F32Op::Sub, -1.0, tiny, 0.0, Round::Zero), -1.0);
        assert_eq!(f32_directed(F32Op::Sub, -1.0, tiny, 0.0, Round::Down), -up);
        // fma(3, 1/3 rounded, -1): 0x3eaaaaab = 11184811 · 2^-25, and 3 · 11184811 =
        // 2^25 + 1, so the fma is 2^-25 exactly, in every direction.
        let third = f32::from_bits(0x3eaa_aaab);
        let r = f32_directed(F32Op::Fma, 3.0, third, -1.0, Round::Down);
        assert_eq!(r, 2f32.powi(-25));
        // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: rounded down 1 + 2^-22, up one ulp more.
        let sq_down = f32_directed(F32Op::Mul, up, up, 0.0, Round::Down);
        assert_eq!(sq_down.to_bits(), 0x3f80_0002);
        assert_eq!(
            f32_directed(F32Op::Mul, up, up, 0.0, Round::Up).to_bits(),
            0x3f80_0003
        );
        // Overflow toward zero stays at the largest finite value.
        assert_eq!(
            f32_directed(F32Op::Mul, f32::MAX, 2.0, 0.0, Round::Zero),
            f32::MAX
        );
        assert_eq!(
            f32_directed(F32Op::Mul, f32::MAX, 2.0, 0.0, Round::Up),
            f32::INFINITY
        );
        // Exact zero sums: −0 only when rounding down (or both terms −0).
        assert!(f32_directed(F32Op::Add, 1.0, -1.0, 0.0, Round::Down).is_sign_negative());
        assert!(f32_directed(F32Op::Add, 1.0, -1.0, 0.0, Round::Up).is_sign_positive());
        assert!(f32_directed(F32Op::Add, -0.0, -0.0, 0.0, Round::Up).is_sign_negative());
    }
}
