//! Floating-point results as register bits, every NaN as the canonical quiet NaN of its
//! width (issue #21): the three ALUs store float results through these functions, so a
//! run's registers do not depend on how the simulator was compiled. They are the PTX
//! semantics' ([`isa::ptx::semantics::f32_bits`], which says why), used by the SASS and GCN3
//! semantics alike.
//!
//! Moves, loads and stores keep their bits; only results of float arithmetic and
//! conversions go through here.

pub(crate) use isa::ptx::semantics::{f32_bits, f64_bits};
