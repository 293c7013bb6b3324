//! Format conversions (NVIDIA's "Conversion Instructions").

use super::Role::*;
use super::{op, OpcodeInfo};

/// Conversions between integer and floating-point formats and widths.
pub(super) const CONVERSION: &[OpcodeInfo] = &[
    op(
        "F2F",
        b"FKMVTAH",
        Ordinary,
        "Convert between floating-point formats",
    ),
    op(
        "F2I",
        b"FKMVTAH",
        Ordinary,
        "Convert floating point to integer",
    ),
    op(
        "I2F",
        b"FKMVTAH",
        Ordinary,
        "Convert integer to floating point",
    ),
    op(
        "I2I",
        b"FKMVTAH",
        Ordinary,
        "Convert between integer formats",
    ),
    op("I2IP", b"VTAH", Ordinary, "Convert integers and pack them"),
    op(
        "I2FP",
        b"AH",
        Ordinary,
        "Convert an integer to FP32 and pack",
    ),
    op(
        "F2IP",
        b"AH",
        Ordinary,
        "Convert FP32 down to integers and pack",
    ),
    op(
        "F2FP",
        b"AH",
        Ordinary,
        "Convert FP32 to a packed FP16/BF16 pair (printed by cuobjdump, not in the tables)",
    ),
];
