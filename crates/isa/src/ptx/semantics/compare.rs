//! `setp` comparisons and the boolean operation that combines one with a predicate (PTX
//! ISA, "Comparison and Selection Instructions").

use super::integer::{mask_bits, sext};
use crate::ptx::ScalarType;

/// A comparison of `setp` (PTX ISA §9.7.6.1, Tables "integer/float comparison operators").
/// The unsigned integer names `lo`, `ls`, `hi`, `hs` are [`Cmp::Lt`] … [`Cmp::Ge`]: the type
/// decides the order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// Unordered forms: true when either operand is NaN.
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

impl Cmp {
    /// Every comparison modifier and its comparison.
    pub const MODIFIERS: [(&'static str, Cmp); 18] = [
        ("eq", Cmp::Eq),
        ("ne", Cmp::Ne),
        ("lt", Cmp::Lt),
        ("le", Cmp::Le),
        ("gt", Cmp::Gt),
        ("ge", Cmp::Ge),
        ("lo", Cmp::Lt),
        ("ls", Cmp::Le),
        ("hi", Cmp::Gt),
        ("hs", Cmp::Ge),
        ("equ", Cmp::Equ),
        ("neu", Cmp::Neu),
        ("ltu", Cmp::Ltu),
        ("leu", Cmp::Leu),
        ("gtu", Cmp::Gtu),
        ("geu", Cmp::Geu),
        ("num", Cmp::Num),
        ("nan", Cmp::Nan),
    ];

    /// The comparison a modifier names.
    pub fn from_modifier(m: &str) -> Option<Cmp> {
        Cmp::MODIFIERS
            .iter()
            .find(|(name, _)| *name == m)
            .map(|&(_, c)| c)
    }

    /// Whether the ISA defines the comparison on integers (the ordered six).
    pub fn for_integers(self) -> bool {
        matches!(
            self,
            Cmp::Eq | Cmp::Ne | Cmp::Lt | Cmp::Le | Cmp::Gt | Cmp::Ge
        )
    }

    /// The comparison of two integer keys ([`integer_key`]), which compare as unsigned
    /// numbers; an unordered form is its ordered one (integers have no NaN).
    #[inline(always)]
    pub fn holds_for_keys(self, x: u64, y: u64) -> bool {
        match self {
            Cmp::Eq | Cmp::Equ => x == y,
            Cmp::Ne | Cmp::Neu => x != y,
            Cmp::Lt | Cmp::Ltu => x < y,
            Cmp::Le | Cmp::Leu => x <= y,
            Cmp::Gt | Cmp::Gtu => x > y,
            Cmp::Ge | Cmp::Geu => x >= y,
            Cmp::Num => true,
            Cmp::Nan => false,
        }
    }
}

/// A number whose unsigned order is the integer order of the `w`-bit value `x`: its `w`
/// bits, or for a signed type the sign-extended value with its sign bit flipped.
#[inline(always)]
pub fn integer_key(signed: bool, w: u32, x: u64) -> u64 {
    if signed {
        (sext(x, w) as u64) ^ (1 << 63)
    } else {
        mask_bits(x, w)
    }
}

/// `a cmp b` of type `ty`: floats by IEEE order (ordered forms false on NaN, unordered ones
/// true), integers signed or unsigned as the type says.
#[inline]
pub fn compare(cmp: Cmp, ty: ScalarType, a: u64, b: u64) -> bool {
    if ty.is_float() {
        let (x, y) = if ty == ScalarType::F64 {
            (f64::from_bits(a), f64::from_bits(b))
        } else {
            (
                f64::from(f32::from_bits(a as u32)),
                f64::from(f32::from_bits(b as u32)),
            )
        };
        let unordered = x.is_nan() || y.is_nan();
        return match cmp {
            Cmp::Eq => x == y,
            Cmp::Ne => !unordered && x != y,
            Cmp::Lt => x < y,
            Cmp::Le => x <= y,
            Cmp::Gt => x > y,
            Cmp::Ge => x >= y,
            Cmp::Equ => unordered || x == y,
            Cmp::Neu => unordered || x != y,
            Cmp::Ltu => unordered || x < y,
            Cmp::Leu => unordered || x <= y,
            Cmp::Gtu => unordered || x > y,
            Cmp::Geu => unordered || x >= y,
            Cmp::Num => !unordered,
            Cmp::Nan => unordered,
        };
    }
    let (signed, w) = (ty.is_signed(), ty.bits());
    cmp.holds_for_keys(integer_key(signed, w, a), integer_key(signed, w, b))
}

/// How `setp` combines its comparison with a predicate (`.and`, `.or`, `.xor`); the
/// simulator's SASS semantics use it for `ISETP… .AND` and `PSETP` too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

impl BoolOp {
    /// The combining modifier of an instruction, if any (the first of `and`, `or`, `xor`
    /// that `has` says it has).
    pub fn from_modifiers(has: impl Fn(&str) -> bool) -> Option<BoolOp> {
        [
            ("and", BoolOp::And),
            ("or", BoolOp::Or),
            ("xor", BoolOp::Xor),
        ]
        .into_iter()
        .find(|(m, _)| has(m))
        .map(|(_, b)| b)
    }

    /// `a op b`.
    #[inline]
    pub fn apply(self, a: bool, b: bool) -> bool {
        match self {
            BoolOp::And => a && b,
            BoolOp::Or => a || b,
            BoolOp::Xor => a != b,
        }
    }

    /// [`BoolOp::apply`] on 64 lanes at once.
    #[inline]
    pub fn bits(self, a: u64, b: u64) -> u64 {
        match self {
            BoolOp::And => a & b,
            BoolOp::Or => a | b,
            BoolOp::Xor => a ^ b,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ScalarType as T;

    #[test]
    fn float_comparisons_and_nan() {
        let nan = u64::from(f32::NAN.to_bits());
        let one = u64::from(1f32.to_bits());
        assert!(!compare(Cmp::Lt, T::F32, nan, one));
        assert!(compare(Cmp::Ltu, T::F32, nan, one));
        assert!(!compare(Cmp::Ne, T::F32, nan, one));
        assert!(compare(Cmp::Neu, T::F32, nan, one));
    }

    #[test]
    fn integer_orders() {
        // -3 < 2 as s32, not as u32; only the width's bits count.
        assert!(compare(Cmp::Lt, T::S32, 0xffff_fffd, 2));
        assert!(!compare(Cmp::Lt, T::U32, 0xffff_fffd, 2));
        assert!(compare(Cmp::Eq, T::U32, 0x1_0000_0005, 5));
        assert_eq!(Cmp::from_modifier("hs"), Some(Cmp::Ge));
        assert!(!Cmp::Equ.for_integers());
    }
}
