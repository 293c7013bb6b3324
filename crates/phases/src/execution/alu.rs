//! The value semantics of Sim-D's ALU instructions for the interpreter ([`super::interpret`]),
//! one known 32-bit value in, a known value or `None` (unknown) out — `None` wherever the
//! ISA's one-line descriptions (`isa::simd::opcode_docs`) leave the result open: signed vs
//! unsigned readings, shifts by 32 or more, division by zero, NaN and subnormal floats
//! (flush-to-zero is not known), fused vs unfused `mad`, inexact conversions.

use isa::simd::Op;

/// A 32-bit integer operation, unknown where signed and unsigned readings could differ.
pub(crate) fn int_op(op: Op) -> fn(u32, u32) -> Option<u32> {
    fn same_sign(a: u32, b: u32) -> bool {
        (a ^ b) >> 31 == 0
    }
    match op {
        Op::IAdd | Op::SIAdd => |a, b| Some(a.wrapping_add(b)),
        Op::ISub | Op::SISub => |a, b| Some(a.wrapping_sub(b)),
        Op::IMul | Op::SIMul => |a, b| Some(a.wrapping_mul(b)),
        Op::IMin | Op::SIMin => |a, b| same_sign(a, b).then_some(a.min(b)),
        Op::IMax | Op::SIMax => |a, b| same_sign(a, b).then_some(a.max(b)),
        Op::Shl | Op::SShl => |a, b| (b < 32).then(|| a << b),
        Op::Shr | Op::SShr => |a, b| (b < 32 && a >> 31 == 0).then(|| a >> b),
        Op::SIDiv => |a, b| (b != 0 && (a | b) >> 31 == 0).then(|| a / b),
        Op::SIMod => |a, b| (b != 0 && (a | b) >> 31 == 0).then(|| a % b),
        Op::And | Op::SAnd => |a, b| Some(a & b),
        Op::Or | Op::SOr => |a, b| Some(a | b),
        Op::Xor => |a, b| Some(a ^ b),
        _ => |_, _| None,
    }
}

/// `.ez .nz .g .ge .l .le` of a signed 32-bit integer against zero.
pub(crate) fn int_test(sub: Option<usize>, a: u32) -> Option<bool> {
    let a = a as i32;
    Some(match sub? {
        0 => a == 0,
        1 => a != 0,
        2 => a > 0,
        3 => a >= 0,
        4 => a < 0,
        5 => a <= 0,
        _ => return None,
    })
}

/// A float operand, unknown if NaN or subnormal.
pub(crate) fn fp(a: u32) -> Option<f32> {
    let f = f32::from_bits(a);
    (!f.is_nan() && !f.is_subnormal()).then_some(f)
}

fn fp_out(f: f32) -> Option<u32> {
    (!f.is_nan() && !f.is_subnormal()).then(|| f.to_bits())
}

pub(crate) fn float_test(sub: Option<usize>, a: u32) -> Option<bool> {
    let f = fp(a)?;
    Some(match sub? {
        0 => f == 0.0,
        1 => f != 0.0,
        2 => f > 0.0,
        3 => f >= 0.0,
        4 => f < 0.0,
        5 => f <= 0.0,
        _ => return None,
    })
}

pub(crate) fn float_op(op: Op, neg: bool, a: u32, b: u32) -> Option<u32> {
    let (x, y) = (fp(a)?, fp(b)?);
    let r = match op {
        Op::Add if neg => x - y,
        Op::Add => x + y,
        Op::Mul if neg => -(x * y),
        Op::Mul => x * y,
        // min/max of two zeros of different sign: which one is not known.
        Op::Min | Op::Max if x == 0.0 && y == 0.0 && a != b => return None,
        Op::Min => x.min(y),
        Op::Max => x.max(y),
        _ => return None,
    };
    fp_out(r)
}

/// `mad`: known only when the fused and the unfused result agree.
pub(crate) fn mad(neg: bool, a: u32, b: u32, c: u32) -> Option<u32> {
    let (x, y, z) = (fp(a)?, fp(b)?, fp(c)?);
    let x = if neg { -x } else { x };
    let product = fp_out(x * y)?;
    let unfused = f32::from_bits(product) + z;
    let fused = x.mul_add(y, z);
    (unfused.to_bits() == fused.to_bits())
        .then_some(fused)
        .and_then(fp_out)
}

/// `.i2f` (exact below 2^24, where signed and unsigned agree) and `.f2i` (integral values in
/// [0, 2^31) only).
pub(crate) fn convert(sub: Option<usize>, a: u32) -> Option<u32> {
    match sub? {
        0 => (a <= 1 << 24).then(|| (a as f32).to_bits()),
        1 => {
            let f = fp(a)?;
            (f.fract() == 0.0 && (0.0..2_147_483_648.0).contains(&f)).then_some(f as u32)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ambiguous_integer_and_float_results_are_unknown() {
        let min = int_op(Op::IMin);
        assert_eq!(min(3, 5), Some(3));
        assert_eq!(min(3, u32::MAX), None);
        let shr = int_op(Op::SShr);
        assert_eq!(shr(5120, 3), Some(640));
        assert_eq!(shr(u32::MAX, 1), None);
        assert_eq!(int_op(Op::SIDiv)(7, 0), None);
        assert_eq!(int_test(Some(3), (-1i32) as u32), Some(false));
        assert_eq!(convert(Some(0), 3), Some(3.0f32.to_bits()));
        assert_eq!(convert(Some(1), 2.5f32.to_bits()), None);
        assert_eq!(
            float_op(Op::Add, false, 1.5f32.to_bits(), 2.0f32.to_bits()),
            Some(3.5f32.to_bits())
        );
        assert_eq!(float_test(Some(0), f32::NAN.to_bits()), None);
    }
}
