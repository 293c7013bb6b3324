//! The boolean operation that combines a comparison with a predicate (`ISETP… .AND`,
//! `setp.lt.and`, `PSETP`), shared by the SASS and PTX semantics.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BoolOp {
    And,
    Or,
    Xor,
}

impl BoolOp {
    /// `a op b`.
    #[inline]
    pub(crate) fn apply(self, a: bool, b: bool) -> bool {
        match self {
            BoolOp::And => a && b,
            BoolOp::Or => a || b,
            BoolOp::Xor => a != b,
        }
    }

    /// [`BoolOp::apply`] on 64 lanes at once.
    #[inline]
    pub(crate) fn bits(self, a: u64, b: u64) -> u64 {
        match self {
            BoolOp::And => a & b,
            BoolOp::Or => a | b,
            BoolOp::Xor => a ^ b,
        }
    }
}
