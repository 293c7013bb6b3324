//! IEEE-754 rounding directions of conversions (`I2F.RZ`, `cvt.rzi`…), shared by the SASS
//! and PTX decoders and semantics: the PTX semantics' [`isa::ptx::semantics::Round`]
//! (directed single-precision arithmetic, PTX `fma.rm.f32`, is computed there too, and
//! SASS's directed `FADD/FMUL/FFMA` round through the same `round_sum` and `two_sum`).

pub(crate) use isa::ptx::semantics::{round_sum, two_sum, Round};
