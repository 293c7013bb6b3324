//! The opcodes that read special registers (`S2R`, `CS2R`, `S2UR`).

use super::Role::*;
use super::{op, OpcodeInfo};

/// Reads of special registers: thread and block indices, clocks.
pub(super) const SPECIAL_REGISTER_READS: &[OpcodeInfo] = &[
    op(
        "S2R",
        b"FKMVTAH",
        SpecialRegister,
        "Move a special register to a register",
    ),
    op(
        "CS2R",
        b"MVTAH",
        SpecialRegister,
        "Move a special register to a register (fixed latency)",
    ),
    op(
        "S2UR",
        b"TAH",
        SpecialRegister,
        "Move a special register to a uniform register",
    ),
];
