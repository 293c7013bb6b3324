//! Hopper's warpgroup and tensor-memory-access opcodes (NVIDIA's "Warpgroup
//! Instructions" and "Tensor Memory Access Instructions").

use super::Role::*;
use super::{op, OpcodeInfo};

/// Hopper warpgroup operations and tensor memory access.
pub(super) const WARPGROUP_AND_TENSOR_MEMORY: &[OpcodeInfo] = &[
    op(
        "BGMMA",
        b"H",
        Ordinary,
        "Binary matrix multiply-accumulate across a warpgroup",
    ),
    op(
        "HGMMA",
        b"H",
        Ordinary,
        "Half-precision matrix multiply-accumulate across a warpgroup",
    ),
    op(
        "IGMMA",
        b"H",
        Ordinary,
        "Integer matrix multiply-accumulate across a warpgroup",
    ),
    op(
        "QGMMA",
        b"H",
        Ordinary,
        "FP8 matrix multiply-accumulate across a warpgroup",
    ),
    op("UBLKCP", b"H", Ordinary, "Bulk data copy"),
    op("UBLKPF", b"H", Ordinary, "Bulk data prefetch"),
    op(
        "UBLKRED",
        b"H",
        Ordinary,
        "Bulk data copy from shared memory with a reduction",
    ),
    op(
        "UTMACCTL",
        b"H",
        Ordinary,
        "Tensor memory accelerator cache control",
    ),
    op(
        "UTMACMDFLUSH",
        b"H",
        Ordinary,
        "Flush tensor memory accelerator commands",
    ),
    op(
        "UTMALDG",
        b"H",
        Ordinary,
        "Tensor load from global to shared memory",
    ),
    op("UTMAPF", b"H", Ordinary, "Tensor prefetch"),
    op(
        "UTMAREDG",
        b"H",
        Ordinary,
        "Tensor store from shared to global memory with a reduction",
    ),
    op(
        "UTMASTG",
        b"H",
        Ordinary,
        "Tensor store from shared to global memory",
    ),
];
