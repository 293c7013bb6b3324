//! What a PTX operation computes: integer, floating-point, bit-field, comparison and
//! conversion instructions of a scalar type, on register bit patterns (PTX ISA 7.x,
//! chapter 9). The one definition both executors of PTX use: the simulator (`sim`, every
//! lane of a warp on concrete values) and Huangfu's round-robin analyzer (`roundrobin`,
//! `UpdateRegisterValue` of Alg. 4 line 11, Huangfu §5.3.3.1, on values that may be
//! unknown).
//!
//! What this module is *not*: a decoder or an executor. Which instructions each crate runs,
//! how it resolves operands (registers, immediates, special registers, parameters) and what
//! it does with a result the ISA leaves undefined stay in that crate; this module only
//! computes.
//!
//! Why plain functions over bit patterns, not generic over a value type: in the analyzer an
//! operation's result is unknown exactly when an operand it reads is unknown (`selp`: the
//! predicate or the operand it picks) — no operation makes a known value out of an unknown
//! one — so unknown values are handled entirely where operands are read (an `Option` and
//! `?`), and a trait over the value type would have one meaningful implementation. What the
//! two callers decide differently is a result the ISA does not specify or this module does
//! not model: those functions return `None` or the reason (`Err`), and the simulator stops
//! the run there while the analyzer writes an unknown value.
//!
//! Why here: both crates depend on `isa` and not on each other, and the IR owns the meaning
//! of its instructions.
//!
//! Readings written down here because the ISA leaves them open or we simplify:
//! - `.approx` forms (`div.approx`, `rcp.approx`, `sqrt.approx`, `lg2.approx`, `ex2.approx`,
//!   `sin/cos.approx`) are computed as the correctly rounded IEEE operation (Rust `f32`/`f64`),
//!   i.e. the most accurate value the approximation may return;
//! - `mad.f32` without rounding is computed as `fma` (what sm_20+ does, PTX ISA §9.7.3.6);
//! - `.ftz` flushes `f32` subnormal inputs and results to a zero of the same sign; `.sat`
//!   clamps a float result to `[0, 1]` (NaN → 0);
//! - integer division or remainder by zero has an unspecified result in PTX: [`int_op`]
//!   gives `None`;
//! - float → integer `cvt` saturates and maps NaN to 0 (PTX ISA §9.7.9.21), which is Rust's
//!   `as`; integer → float and `f64 → f32` round to nearest only (`.rn`, the default);
//!   [`convert`] refuses other rounding modes there;
//! - `add/sub/mul/fma.{rz,rm,rp}.f32` are rounded exactly in their direction
//!   ([`f32_directed_op`]); other directed arithmetic is not modelled;
//! - a NaN result is the canonical quiet NaN of its width ([`f32_bits`], [`f64_bits`]);
//! - the types are `f32` and `f64` for floats: callers do not pass `f16`.

mod bit_fields;
mod compare;
mod convert;
mod directed;
mod float;
mod integer;

pub use bit_fields::{bfe, bfi, brev, clz};
pub use compare::{compare, integer_key, BoolOp, Cmp};
pub use convert::{convert, Conversion, Round};
pub use directed::{f32_directed_op, round_sum, two_sum};
pub use float::{f32_bits, f32_of, f64_bits, float_op, FloatOp, F32_NAN, F64_NAN};
pub use integer::{
    int_op, int_op_of_width, mask_bits, sext, vector_element, wide, with_vector_element, IntOp,
};
