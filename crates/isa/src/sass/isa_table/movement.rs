//! Data movement within and between threads (NVIDIA's "Movement Instructions").

use super::Role::*;
use super::{op, OpcodeInfo};

/// Moves, selects, permutes and shuffles.
pub(super) const MOVEMENT: &[OpcodeInfo] = &[
    op("MOV", b"FKMVTAH", Ordinary, "Move"),
    op("MOV32I", b"FKMVTAH", Ordinary, "Move a 32-bit immediate"),
    op(
        "MOVM",
        b"TAH",
        Ordinary,
        "Move a matrix with transposition or expansion",
    ),
    op(
        "PRMT",
        b"FKMVTAH",
        Ordinary,
        "Permute the bytes of a register pair",
    ),
    op(
        "SEL",
        b"FKMVTAH",
        Ordinary,
        "Select one of two sources by a predicate",
    ),
    op(
        "SHFL",
        b"KMVTAH",
        Ordinary,
        "Warp shuffle: read a register of another lane",
    ),
    op(
        "CSET",
        b"FKM",
        Ordinary,
        "Test the condition code, set a register",
    ),
    op(
        "PSET",
        b"FKM",
        Ordinary,
        "Combine predicates, set a register",
    ),
    op(
        "P2R",
        b"FKMVTAH",
        Ordinary,
        "Move predicate registers to register bits",
    ),
    op(
        "MATCH",
        b"VTAH",
        Ordinary,
        "Find the lanes of the warp that hold the same value",
    ),
];
