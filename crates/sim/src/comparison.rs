//! The comparisons of `ISETP`/`FSETP`/`DSETP` (SASS) and `s_cmp`/`v_cmp` (GCN3): the same
//! sixteen IEEE-754 predicates in both instruction sets (GCN3's `nge` is SASS's `LTU`: not
//! ≥, so true when either operand is NaN), plus GCN3's `v_cmp_class`.

/// Comparison, float or integer. `U` variants are the unordered float forms (true if either
/// operand is NaN); GCN3 names them `o` (`Num`), `u` (`Nan`), `nge` (`Ltu`), `nlg` (`Equ`),
/// `ngt` (`Leu`), `nle` (`Gtu`), `neq` (`Neu`), `nlt` (`Geu`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    F,
    Lt,
    Eq,
    Le,
    Gt,
    Ne,
    Ge,
    Num,
    Nan,
    Ltu,
    Equ,
    Leu,
    Gtu,
    Neu,
    Geu,
    T,
    /// `v_cmp_class_f32`/`f64` (GCN3 only): is the float's IEEE class in the 10-bit mask of
    /// the second operand? Bits (GCN3 ISA, VOPC "class" opcodes; LLVM `SIInstrFlags`): 0
    /// signaling NaN, 1 quiet NaN, 2 −∞, 3 negative normal, 4 negative denormal, 5 −0, 6 +0,
    /// 7 positive denormal, 8 positive normal, 9 +∞.
    Class,
}

impl Cmp {
    /// `a cmp b` on floats (`Class` is not a comparison of two values: false).
    pub(crate) fn floats(self, a: f64, b: f64) -> bool {
        let nan = a.is_nan() || b.is_nan();
        match self {
            Cmp::F | Cmp::Class => false,
            Cmp::T => true,
            Cmp::Lt => a < b,
            Cmp::Eq => a == b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ne => !nan && a != b,
            Cmp::Ge => a >= b,
            Cmp::Num => !nan,
            Cmp::Nan => nan,
            Cmp::Ltu => nan || a < b,
            Cmp::Equ => nan || a == b,
            Cmp::Leu => nan || a <= b,
            Cmp::Gtu => nan || a > b,
            Cmp::Neu => nan || a != b,
            Cmp::Geu => nan || a >= b,
        }
    }
}
