//! IEEE-754 rounding directions of conversions (`I2F.RZ`, `cvt.rzi`…), shared by the SASS
//! and PTX decoders and semantics.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Round {
    /// To nearest, ties to even.
    Nearest,
    Zero,
    Down,
    Up,
}
