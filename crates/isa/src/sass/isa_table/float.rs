//! Floating-point arithmetic: FP32, FP16 and FP64 (NVIDIA's "Floating Point
//! Instructions").

use super::Role::*;
use super::{op, OpcodeInfo};

/// Single-precision arithmetic.
pub(super) const FP32: &[OpcodeInfo] = &[
    op("FADD", b"FKMVTAH", Ordinary, "FP32 add"),
    op(
        "FADD32I",
        b"FKMVTAH",
        Ordinary,
        "FP32 add with a 32-bit immediate",
    ),
    op(
        "FCMP",
        b"FKM",
        Ordinary,
        "FP32 compare with zero and select a source",
    ),
    op("FFMA", b"FKMVTAH", Ordinary, "FP32 fused multiply-add"),
    op(
        "FFMA32I",
        b"FKMVTAH",
        Ordinary,
        "FP32 fused multiply-add with a 32-bit immediate",
    ),
    op("FMNMX", b"FKMVTAH", Ordinary, "FP32 minimum or maximum"),
    op("FMUL", b"FKMVTAH", Ordinary, "FP32 multiply"),
    op(
        "FMUL32I",
        b"FKMVTAH",
        Ordinary,
        "FP32 multiply with a 32-bit immediate",
    ),
    op(
        "FSEL",
        b"VTAH",
        Ordinary,
        "Select one of two FP32 values by a predicate",
    ),
    op("FSET", b"FKMVTAH", Ordinary, "FP32 compare, set a register"),
    op("FSWZ", b"FK", Ordinary, "FP32 swizzled add"),
    op("FSWZADD", b"MVTAH", Ordinary, "FP32 swizzled add"),
    op(
        "MUFU",
        b"FKMVTAH",
        Ordinary,
        "Multi-function unit: reciprocal, square root, exp2, log2, sine, cosine",
    ),
    op(
        "RRO",
        b"FKM",
        Ordinary,
        "Range reduction before a MUFU operation",
    ),
    op("FRND", b"VTAH", Ordinary, "Round to an integral FP value"),
];

/// Half-precision (packed) arithmetic.
pub(super) const FP16: &[OpcodeInfo] = &[
    op("HADD2", b"MVTAH", Ordinary, "Paired FP16 add"),
    op(
        "HADD2_32I",
        b"MVTAH",
        Ordinary,
        "Paired FP16 add with a 32-bit immediate",
    ),
    op(
        "HFMA2",
        b"MVTAH",
        Ordinary,
        "Paired FP16 fused multiply-add",
    ),
    op(
        "HFMA2_32I",
        b"MVTAH",
        Ordinary,
        "Paired FP16 fused multiply-add with a 32-bit immediate",
    ),
    op("HMUL2", b"MVTAH", Ordinary, "Paired FP16 multiply"),
    op(
        "HMUL2_32I",
        b"MVTAH",
        Ordinary,
        "Paired FP16 multiply with a 32-bit immediate",
    ),
    op(
        "HSET2",
        b"MVTAH",
        Ordinary,
        "Paired FP16 compare, set a register",
    ),
    op("HMNMX2", b"AH", Ordinary, "Paired FP16 minimum or maximum"),
    op(
        "HMMA",
        b"VTAH",
        Ordinary,
        "Half-precision matrix multiply-accumulate (tensor core)",
    ),
];

/// Double-precision arithmetic.
pub(super) const FP64: &[OpcodeInfo] = &[
    op("DADD", b"FKMVTAH", Ordinary, "FP64 add"),
    op("DFMA", b"FKMVTAH", Ordinary, "FP64 fused multiply-add"),
    op("DMUL", b"FKMVTAH", Ordinary, "FP64 multiply"),
    op("DMNMX", b"FKM", Ordinary, "FP64 minimum or maximum"),
    op("DSET", b"FKM", Ordinary, "FP64 compare, set a register"),
    op(
        "DMMA",
        b"AH",
        Ordinary,
        "FP64 matrix multiply-accumulate (tensor core)",
    ),
];
