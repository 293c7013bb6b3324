//! Loads, stores, atomics and cache control (NVIDIA's "Load/Store Instructions").

use super::Role::*;
use super::{op, OpcodeInfo};

/// Loads, stores, atomics, reductions and cache control.
pub(super) const LOAD_STORE: &[OpcodeInfo] = &[
    op("LD", b"FKMVTAH", Ordinary, "Load from generic memory"),
    op("LDC", b"FKMVTAH", Ordinary, "Load from constant memory"),
    op("LDG", b"KMVTAH", Ordinary, "Load from global memory"),
    op("LDL", b"FKMVTAH", Ordinary, "Load from local memory"),
    op("LDS", b"FKMVTAH", Ordinary, "Load from shared memory"),
    op(
        "LDU",
        b"F",
        Ordinary,
        "Load a value uniform across the warp",
    ),
    op("LDLK", b"F", Ordinary, "Load and lock"),
    op("LDSLK", b"FK", Ordinary, "Load from shared memory and lock"),
    op(
        "LD_LDU",
        b"F",
        Ordinary,
        "Combined generic load and uniform load",
    ),
    op(
        "LDS_LDU",
        b"F",
        Ordinary,
        "Combined shared load and uniform load",
    ),
    op("LDSM", b"TAH", Ordinary, "Load a matrix from shared memory"),
    op(
        "LDGSTS",
        b"AH",
        Ordinary,
        "Asynchronous copy from global to shared memory",
    ),
    op(
        "LDGMC",
        b"H",
        Ordinary,
        "Load from global memory with a reduction (multicast)",
    ),
    op("ST", b"FKMVTAH", Ordinary, "Store to generic memory"),
    op("STG", b"KMVTAH", Ordinary, "Store to global memory"),
    op("STL", b"FKMVTAH", Ordinary, "Store to local memory"),
    op("STS", b"FKMVTAH", Ordinary, "Store to shared memory"),
    op("STUL", b"F", Ordinary, "Store and unlock"),
    op("STSUL", b"F", Ordinary, "Store to shared memory and unlock"),
    op(
        "STSCUL",
        b"K",
        Ordinary,
        "Store to shared memory conditionally and unlock",
    ),
    op("STSM", b"H", Ordinary, "Store a matrix to shared memory"),
    op(
        "STAS",
        b"H",
        Ordinary,
        "Asynchronous store to distributed shared memory",
    ),
    op(
        "ATOM",
        b"FKMVTAH",
        Ordinary,
        "Atomic operation on generic memory",
    ),
    op(
        "ATOMS",
        b"MVTAH",
        Ordinary,
        "Atomic operation on shared memory",
    ),
    op(
        "ATOMG",
        b"VTAH",
        Ordinary,
        "Atomic operation on global memory",
    ),
    op(
        "RED",
        b"FKMVTA",
        Ordinary,
        "Reduction (atomic without result) on generic memory",
    ),
    op(
        "REDG",
        b"H",
        Ordinary,
        "Reduction (atomic without result) on global memory",
    ),
    op(
        "REDAS",
        b"H",
        Ordinary,
        "Asynchronous reduction on distributed shared memory",
    ),
    op(
        "REDUX",
        b"AH",
        Ordinary,
        "Reduce a register across the warp into a uniform register",
    ),
    op("CCTL", b"FKMVTAH", Ordinary, "Cache control"),
    op(
        "CCTLL",
        b"FKMVTAH",
        Ordinary,
        "Cache control on local memory",
    ),
    op("CCTLT", b"MVTAH", Ordinary, "Texture cache control"),
    op(
        "QSPC",
        b"VTAH",
        Ordinary,
        "Query the memory space of a generic address",
    ),
];
