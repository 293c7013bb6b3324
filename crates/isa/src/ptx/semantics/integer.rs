//! Integer arithmetic, logic and shifts of one type (PTX ISA, "Integer Arithmetic
//! Instructions" and "Logic and Shift Instructions").

use super::bit_fields;
use crate::ptx::ScalarType;

/// An integer operation of `add` … `brev`, with the modifiers that change what it computes
/// (`.lo`, `.hi`, `.wide`) decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntOp {
    Add,
    Sub,
    MulLo,
    MulHi,
    MulWide,
    MadLo,
    MadHi,
    MadWide,
    Div,
    Rem,
    Min,
    Max,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Neg,
    Abs,
    Not,
    /// `cnot`: 1 when the operand is zero, else 0.
    Cnot,
    /// `clz.b32`/`.b64`: leading zeros of the type's width.
    Clz,
    /// `popc.b32`/`.b64`.
    Popc,
    /// `brev.b32`/`.b64`.
    Brev,
}

impl IntOp {
    /// How many source operands the operation reads (operands 1, 2, 3 of the instruction).
    pub fn sources(self) -> usize {
        match self {
            IntOp::MadLo | IntOp::MadHi | IntOp::MadWide => 3,
            IntOp::Not
            | IntOp::Cnot
            | IntOp::Neg
            | IntOp::Abs
            | IntOp::Clz
            | IntOp::Popc
            | IntOp::Brev => 1,
            _ => 2,
        }
    }

    /// The type source `k` (0-based) is read with, for an instruction of type `ty`: a shift
    /// amount is `.u32`, the addend of `mad.wide` has the doubled width (`ty` when there is
    /// none), every other source has the instruction's type.
    pub fn source_type(self, k: usize, ty: ScalarType) -> ScalarType {
        match (self, k) {
            (IntOp::Shl | IntOp::Shr, 1) => ScalarType::U32,
            (IntOp::MadWide, 2) => wide(ty).unwrap_or(ty),
            _ => ty,
        }
    }
}

/// The low `bits` bits of `v` (all of it from 64 up).
#[inline(always)]
pub fn mask_bits(v: u64, bits: u32) -> u64 {
    if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

/// The low `bits` bits of `v` (`bits` ≥ 1) as a two's-complement number.
#[inline(always)]
pub fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

/// The type twice as wide (`mul.wide`, `mad.wide`).
pub fn wide(t: ScalarType) -> Option<ScalarType> {
    use ScalarType as T;
    Some(match t {
        T::U16 => T::U32,
        T::S16 => T::S32,
        T::U32 => T::U64,
        T::S32 => T::S64,
        T::B16 => T::B32,
        T::B32 => T::B64,
        _ => return None,
    })
}

/// Element `k` of `width` bits of a vector packed into `v` (`mov.b64 {lo, hi}, %rd`): bits
/// `k·width` up.
#[inline(always)]
pub fn vector_element(v: u64, k: u32, width: u32) -> u64 {
    mask_bits(v >> (k * width).min(63), width)
}

/// `acc` with element `k` of `width` bits set from `part`'s low bits, for packing a vector
/// into one register (`mov.b64 %rd, {lo, hi}`), element by element into a zero.
#[inline(always)]
pub fn with_vector_element(acc: u64, k: u32, width: u32, part: u64) -> u64 {
    acc | (mask_bits(part, width) << (k * width).min(63))
}

/// `op` of type `ty` on `a`, `b`, `c` (the sources that `op` does not read are ignored),
/// as the bits of the result: of `ty`'s width, twice that for `.wide`. Sources may carry
/// bits above their width; only the width's bits count. `None`: division or remainder by
/// zero, whose result PTX leaves unspecified.
#[inline(always)]
pub fn int_op(op: IntOp, ty: ScalarType, a: u64, b: u64, c: u64) -> Option<u64> {
    int_op_of_width(op, (ty.bits(), ty.is_signed()), a, b, c)
}

/// [`int_op`] of a type given as its width in bits and whether it is signed, for callers
/// that apply one operation to many values (the simulator's lanes) and read the type once.
#[inline(always)]
pub fn int_op_of_width(op: IntOp, (w, signed): (u32, bool), a: u64, b: u64, c: u64) -> Option<u64> {
    // The operands as unsigned and as signed numbers of the width, computed in the arms
    // that read them (an executor that does not know the operation in advance pays only
    // for its own).
    let u = |x: u64| mask_bits(x, w);
    let s = |x: u64| sext(x, w);
    // Full products in 128 bits, signed or unsigned as the type says.
    // (A 64 × 64-bit unsigned product can exceed `i128::MAX`: wrapping keeps its low 128
    // bits, which is all `>> w` and the masks read.)
    let prod = || -> i128 {
        if signed {
            i128::from(s(a)).wrapping_mul(i128::from(s(b)))
        } else {
            u128::from(u(a)).wrapping_mul(u128::from(u(b))) as i128
        }
    };
    let r = match op {
        IntOp::Add => a.wrapping_add(b),
        IntOp::Sub => a.wrapping_sub(b),
        IntOp::MulLo => a.wrapping_mul(b),
        IntOp::MulHi => ((prod() as u128) >> w) as u64,
        IntOp::MulWide => return Some(mask_bits(prod() as u64, 2 * w)),
        IntOp::MadLo => a.wrapping_mul(b).wrapping_add(c),
        IntOp::MadHi => (((prod() as u128) >> w) as u64).wrapping_add(c),
        IntOp::MadWide => return Some(mask_bits((prod() as u64).wrapping_add(c), 2 * w)),
        IntOp::Div | IntOp::Rem => {
            if u(b) == 0 {
                return None;
            }
            match (op, signed) {
                (IntOp::Div, true) => s(a).wrapping_div(s(b)) as u64,
                (IntOp::Div, false) => u(a) / u(b),
                (_, true) => s(a).wrapping_rem(s(b)) as u64,
                (_, false) => u(a) % u(b),
            }
        }
        IntOp::Min | IntOp::Max => {
            let less = if signed { s(a) < s(b) } else { u(a) < u(b) };
            if less == (op == IntOp::Min) {
                a
            } else {
                b
            }
        }
        IntOp::And => a & b,
        IntOp::Or => a | b,
        IntOp::Xor => a ^ b,
        IntOp::Not => !a,
        IntOp::Cnot => u64::from(u(a) == 0),
        IntOp::Neg => 0u64.wrapping_sub(a),
        IntOp::Abs => s(a).unsigned_abs(),
        IntOp::Shl => {
            let n = mask_bits(b, 32);
            if n >= u64::from(w) {
                0
            } else {
                a << n
            }
        }
        IntOp::Clz => bit_fields::clz(w, u(a)),
        IntOp::Popc => u64::from(u(a).count_ones()),
        IntOp::Brev => bit_fields::brev(w, u(a)),
        IntOp::Shr => {
            let n = mask_bits(b, 32);
            if signed {
                (s(a) >> n.min(63)) as u64
            } else if n >= u64::from(w) {
                0
            } else {
                u(a) >> n
            }
        }
    };
    Some(mask_bits(r, w))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ScalarType as T;

    #[test]
    fn integer_widths_and_signs() {
        // mul.wide.s32 (-3) * 5 = -15 in 64 bits.
        let m = int_op(IntOp::MulWide, T::S32, (-3i64) as u64, 5, 0);
        assert_eq!(m, Some((-15i64) as u64));
        // mul.hi.u32 0xffff_ffff * 2 = 0x1_ffff_fffe → high word 1.
        assert_eq!(int_op(IntOp::MulHi, T::U32, 0xffff_ffff, 2, 0), Some(1));
        // mul.hi.u64 of (2^64 − 1)² = 2^128 − 2^65 + 1 → high half 2^64 − 2; mul.hi.s64 of
        // (−1)·(−1) = 1 → high half 0; mul.hi.s32 of −2 · 3 = −6 → high word all ones.
        assert_eq!(
            int_op(IntOp::MulHi, T::U64, u64::MAX, u64::MAX, 0),
            Some(u64::MAX - 1)
        );
        assert_eq!(int_op(IntOp::MulHi, T::S64, u64::MAX, u64::MAX, 0), Some(0));
        assert_eq!(
            int_op(IntOp::MulHi, T::S32, (-2i64) as u64, 3, 0),
            Some(0xffff_ffff)
        );
        // shr.s32 of -8 by 1 = -4 (as 32 bits); shr.u32 = 0x7fff_fffc.
        assert_eq!(
            int_op(IntOp::Shr, T::S32, 0xffff_fff8, 1, 0),
            Some(0xffff_fffc)
        );
        assert_eq!(
            int_op(IntOp::Shr, T::U32, 0xffff_fff8, 1, 0),
            Some(0x7fff_fffc)
        );
        // shl.b32 by 32 or more is 0.
        assert_eq!(int_op(IntOp::Shl, T::B32, 1, 32, 0), Some(0));
        // rem.s32 -7 % 3 = -1 (truncating), div.s32 = -2.
        assert_eq!(
            int_op(IntOp::Rem, T::S32, (-7i64) as u64, 3, 0),
            Some(0xffff_ffff)
        );
        assert_eq!(
            int_op(IntOp::Div, T::S32, (-7i64) as u64, 3, 0),
            Some(0xffff_fffe)
        );
        assert_eq!(int_op(IntOp::Div, T::U32, 1, 0, 0), None);
        // min.s32 (-1, 1) = -1, min.u32 = 1.
        assert_eq!(
            int_op(IntOp::Min, T::S32, 0xffff_ffff, 1, 0),
            Some(0xffff_ffff)
        );
        assert_eq!(int_op(IntOp::Min, T::U32, 0xffff_ffff, 1, 0), Some(1));
        // cnot and not of a predicate.
        assert_eq!(int_op(IntOp::Cnot, T::B32, 0x1_0000_0000, 0, 0), Some(1));
        assert_eq!(int_op(IntOp::Not, T::Pred, 1, 0, 0), Some(0));
    }

    #[test]
    fn source_types() {
        assert_eq!(IntOp::Shl.source_type(1, T::U64), T::U32);
        assert_eq!(IntOp::MadWide.source_type(2, T::S32), T::S64);
        assert_eq!(IntOp::MadWide.source_type(2, T::U64), T::U64);
        assert_eq!(IntOp::MadLo.source_type(2, T::S32), T::S32);
    }
}
