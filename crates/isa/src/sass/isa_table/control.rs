//! The control-like opcodes: control flow, the Fermi–Pascal SIMT stack, the Volta-and-later
//! convergence barriers and the barriers. They come first in the table (see [`super::OPCODES`]).

use super::Role::*;
use super::{op, OpcodeInfo};

/// Branches, jumps, calls, returns, exits, traps and scheduling hints.
pub(super) const CONTROL_FLOW: &[OpcodeInfo] = &[
    op(
        "BRA",
        b"FKMVTAH",
        ControlFlow,
        "Relative branch to a code address (.U: only when all active threads agree)",
    ),
    op(
        "BRX",
        b"FKMVTAH",
        ControlFlow,
        "Indirect relative branch: the offset is in a register",
    ),
    op(
        "BRXU",
        b"TAH",
        ControlFlow,
        "Indirect relative branch: the offset is in a uniform register",
    ),
    op(
        "JMP",
        b"FKMVTAH",
        ControlFlow,
        "Absolute jump to a code address",
    ),
    op(
        "JMX",
        b"FKMVTAH",
        ControlFlow,
        "Indirect absolute jump: the address is in a register",
    ),
    op(
        "JMXU",
        b"TAH",
        ControlFlow,
        "Indirect absolute jump: the address is in a uniform register",
    ),
    op(
        "CAL",
        b"FKM",
        ControlFlow,
        "Relative call: pushes the return address on the SIMT stack",
    ),
    op(
        "JCAL",
        b"FKM",
        ControlFlow,
        "Absolute call (often a relocated external function)",
    ),
    op(
        "CALL",
        b"VTAH",
        ControlFlow,
        "Call a function, relative or absolute, direct or through a register",
    ),
    op("RET", b"FKMVTAH", ControlFlow, "Return from a subroutine"),
    op("RTT", b"VT", ControlFlow, "Return from a trap handler"),
    op("EXIT", b"FKMVTAH", ControlFlow, "End the executing threads"),
    op(
        "KIL",
        b"FKM",
        ControlFlow,
        "Kill the executing threads (printed by cuobjdump, not in the reference tables)",
    ),
    op("KILL", b"VTAH", ControlFlow, "Kill the executing threads"),
    op(
        "LONGJMP",
        b"F",
        ControlFlow,
        "Long jump to the target set by PLONGJMP",
    ),
    op("BPT", b"FKMVTAH", ControlFlow, "Breakpoint or trap"),
    op(
        "NANOSLEEP",
        b"VTAH",
        ControlFlow,
        "Suspend the thread for about the given time",
    ),
    op(
        "YIELD",
        b"VTAH",
        ControlFlow,
        "Let another warp be scheduled (a hint)",
    ),
    op(
        "RPCMOV",
        b"VTAH",
        ControlFlow,
        "Move the program counter to or from a register",
    ),
    op(
        "PREEXIT",
        b"H",
        ControlFlow,
        "Hint that dependent grids may start launching",
    ),
];

/// The Fermi–Pascal SIMT reconvergence stack.
pub(super) const SIMT_STACK: &[OpcodeInfo] = &[
    op(
        "SSY",
        b"FKM",
        Stack,
        "Push a reconvergence point that SYNC returns to",
    ),
    op(
        "SYNC",
        b"FKM",
        Stack,
        "Wait at the reconvergence point pushed by SSY",
    ),
    op(
        "PBK",
        b"FKM",
        Stack,
        "Push the break target of a loop for BRK",
    ),
    op(
        "BRK",
        b"FKM",
        Stack,
        "Break out to the target pushed by PBK",
    ),
    op(
        "PCNT",
        b"FKM",
        Stack,
        "Push the continue target of a loop for CONT",
    ),
    op(
        "CONT",
        b"FKM",
        Stack,
        "Continue at the target pushed by PCNT",
    ),
    op(
        "PRET",
        b"FKM",
        Stack,
        "Push the return point of a following indirect call",
    ),
    op(
        "PLONGJMP",
        b"F",
        Stack,
        "Push the target of a following LONGJMP",
    ),
    op("PEXIT", b"M", Stack, "Push an exit point on the SIMT stack"),
];

/// Volta-and-later convergence barriers and warp synchronisation.
pub(super) const CONVERGENCE: &[OpcodeInfo] = &[
    op(
        "BSSY",
        b"VTAH",
        Convergence,
        "Set a convergence barrier and its reconvergence point",
    ),
    op(
        "BSYNC",
        b"VTAH",
        Convergence,
        "Wait until the threads of a convergence barrier arrive",
    ),
    op(
        "BREAK",
        b"VTAH",
        Convergence,
        "Remove threads from a convergence barrier",
    ),
    op(
        "BMOV",
        b"VTAH",
        Convergence,
        "Move convergence-barrier state to or from a register",
    ),
    op(
        "WARPSYNC",
        b"VTAH",
        Convergence,
        "Wait until the threads of a mask in the warp arrive",
    ),
    op(
        "ENDCOLLECTIVE",
        b"H",
        Convergence,
        "End a collective region: reset the collective thread mask",
    ),
];

/// Thread-block, memory, dependency and cluster barriers.
pub(super) const BARRIERS: &[OpcodeInfo] = &[
    op(
        "BAR",
        b"FKMVTAH",
        Barrier,
        "Thread-block barrier: wait for the block's threads, or arrive, or reduce",
    ),
    op(
        "MEMBAR",
        b"FKMVTAH",
        Barrier,
        "Memory barrier: order this thread's memory accesses",
    ),
    op(
        "DEPBAR",
        b"KMVTAH",
        Barrier,
        "Wait until counted scoreboard dependencies are met",
    ),
    op(
        "TEXDEPBAR",
        b"K",
        Barrier,
        "Wait until outstanding texture fetches complete",
    ),
    op(
        "LDGDEPBAR",
        b"AH",
        Barrier,
        "Dependency barrier for asynchronous global-to-shared copies",
    ),
    op(
        "ERRBAR",
        b"VTAH",
        Barrier,
        "Error barrier: wait until earlier errors are reported",
    ),
    op(
        "CGAERRBAR",
        b"H",
        Barrier,
        "Error barrier for a thread-block cluster",
    ),
    op(
        "FENCE",
        b"H",
        Barrier,
        "Make shared or global memory writes visible (fence)",
    ),
    op(
        "SYNCS",
        b"H",
        Barrier,
        "Synchronisation unit: arrive at or wait on a memory barrier object",
    ),
    op(
        "UCGABAR_ARV",
        b"H",
        Barrier,
        "Arrive at the thread-block cluster barrier",
    ),
    op(
        "UCGABAR_WAIT",
        b"H",
        Barrier,
        "Wait on the thread-block cluster barrier",
    ),
    op(
        "WARPGROUP",
        b"H",
        Barrier,
        "Warpgroup synchronisation for warpgroup matrix operations",
    ),
    op("WARPGROUPSET", b"H", Barrier, "Set warpgroup counters"),
    op(
        "ACQBULK",
        b"H",
        Barrier,
        "Wait for the bulk-copy release state of the warp",
    ),
    op("R2B", b"MVT", Barrier, "Move a register to barrier state"),
];
