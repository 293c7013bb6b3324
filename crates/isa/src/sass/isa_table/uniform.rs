//! The uniform datapath (NVIDIA's "Uniform Datapath Instructions", Turing and later).

use super::Role::*;
use super::{op, OpcodeInfo};

/// The uniform datapath of Turing and later (one value per warp).
pub(super) const UNIFORM_DATAPATH: &[OpcodeInfo] = &[
    op(
        "R2UR",
        b"TAH",
        Ordinary,
        "Move a register to a uniform register",
    ),
    op("UBMSK", b"TAH", Ordinary, "Uniform bit-field mask"),
    op("UBREV", b"TAH", Ordinary, "Uniform bit reverse"),
    op(
        "UCLEA",
        b"TAH",
        Ordinary,
        "Uniform effective address of a constant",
    ),
    op(
        "UF2FP",
        b"AH",
        Ordinary,
        "Uniform FP32 down-convert and pack",
    ),
    op("UFLO", b"TAH", Ordinary, "Uniform find leading one"),
    op(
        "UIADD3",
        b"TAH",
        Ordinary,
        "Uniform three-input integer add",
    ),
    op("UIMAD", b"TAH", Ordinary, "Uniform integer multiply-add"),
    op(
        "ULDC",
        b"TAH",
        Ordinary,
        "Load from constant memory into a uniform register",
    ),
    op("ULEA", b"TAH", Ordinary, "Uniform effective address"),
    op(
        "ULEPC",
        b"H",
        Ordinary,
        "Uniform load of the program counter",
    ),
    op("ULOP", b"TAH", Ordinary, "Uniform logic operation"),
    op(
        "ULOP3",
        b"TAH",
        Ordinary,
        "Uniform three-input logic operation",
    ),
    op(
        "ULOP32I",
        b"TAH",
        Ordinary,
        "Uniform logic operation with a 32-bit immediate",
    ),
    op("UMOV", b"TAH", Ordinary, "Uniform move"),
    op(
        "UP2UR",
        b"TAH",
        Ordinary,
        "Move uniform predicates to a uniform register",
    ),
    op("UPOPC", b"TAH", Ordinary, "Uniform population count"),
    op("UPRMT", b"TAH", Ordinary, "Uniform byte permute"),
    op("USEL", b"TAH", Ordinary, "Uniform select by a predicate"),
    op(
        "USETMAXREG",
        b"H",
        Ordinary,
        "Release or allocate registers of the warp",
    ),
    op("USGXT", b"TAH", Ordinary, "Uniform sign extension"),
    op("USHF", b"TAH", Ordinary, "Uniform funnel shift"),
    op("USHL", b"TAH", Ordinary, "Uniform shift left"),
    op("USHR", b"TAH", Ordinary, "Uniform shift right"),
];
