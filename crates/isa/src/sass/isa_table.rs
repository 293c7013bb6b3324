//! The SASS opcodes of Fermi to Hopper: what each is called, on which GPU generations it
//! exists, what it is for in one line, and the role that decides how strictly the parser
//! treats it.
//!
//! Source: NVIDIA, *CUDA Binary Utilities* (DA-06762-001), chapter "Instruction Set
//! Reference": the Fermi and Kepler tables (v5.5–v10 of the document), "Maxwell and Pascal
//! Instruction Set", "Volta Instruction Set", "Turing Instruction Set", "NVIDIA Ampere GPU and
//! Ada Instruction Set" and "Hopper Instruction Set" (v11–v13). The descriptions are written
//! here, shortened for a tooltip; the opcode names and their meaning are NVIDIA's. Three
//! opcodes that `cuobjdump` prints but the tables leave out say so in their description
//! (`F2FP`, `ISUB`, `KIL`); every opcode of the shared corpus listings is here (a test checks
//! it).
//!
//! What this is not: an encoding table or a modifier grammar. The table is keyed on the base
//! mnemonic (`ISETP` for `ISETP.GE.U32.AND`); modifiers are checked only where they change
//! control flow (see [`control_modifiers`]).
//!
//! Why it exists: an opcode the parser does not know is read generically (first operand
//! written, the rest read), which is harmless for arithmetic but can silently remove a branch,
//! a reconvergence point or a barrier — and so lower a WCET bound. Knowing every real opcode
//! and its role lets the parser warn about unknown arithmetic and refuse anything that might be
//! control.

/// A GPU generation as NVIDIA's reference groups them (one table per entry; Maxwell and Pascal
/// share one, as do Ampere and Ada).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// Compute capability 2.x.
    Fermi,
    /// Compute capability 3.x.
    Kepler,
    /// Compute capability 5.x and 6.x.
    MaxwellPascal,
    /// Compute capability 7.0 and 7.2.
    Volta,
    /// Compute capability 7.5.
    Turing,
    /// Compute capability 8.x.
    AmpereAda,
    /// Compute capability 9.0.
    Hopper,
}

impl Family {
    pub const ALL: [Family; 7] = [
        Family::Fermi,
        Family::Kepler,
        Family::MaxwellPascal,
        Family::Volta,
        Family::Turing,
        Family::AmpereAda,
        Family::Hopper,
    ];

    /// The family of an architecture name such as `sm_61` or `sm_90a`; `None` for
    /// generations outside the table (Tesla, Blackwell and later) or names it cannot read.
    pub fn of_arch(arch: &str) -> Option<Family> {
        let digits: String = arch
            .trim()
            .strip_prefix("sm_")?
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        match digits.parse::<u32>().ok()? {
            20..=29 => Some(Family::Fermi),
            30..=39 => Some(Family::Kepler),
            50..=69 => Some(Family::MaxwellPascal),
            70..=72 => Some(Family::Volta),
            73..=79 => Some(Family::Turing),
            80..=89 => Some(Family::AmpereAda),
            90..=99 => Some(Family::Hopper),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Family::Fermi => "Fermi",
            Family::Kepler => "Kepler",
            Family::MaxwellPascal => "Maxwell/Pascal",
            Family::Volta => "Volta",
            Family::Turing => "Turing",
            Family::AmpereAda => "Ampere/Ada",
            Family::Hopper => "Hopper",
        }
    }

    /// Bytes from one instruction to the next: 128-bit instructions from Volta on, 64-bit
    /// before (Kepler to Pascal also interleave 64-bit scheduling control words).
    pub fn instruction_bytes(self) -> u64 {
        match self {
            Family::Fermi | Family::Kepler | Family::MaxwellPascal => 8,
            _ => 16,
        }
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of families.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Families(u8);

impl Families {
    /// Builds a set from the initials F, K, M, V, T, A, H (Fermi, Kepler, Maxwell/Pascal,
    /// Volta, Turing, Ampere/Ada, Hopper), the legend of the table below.
    pub const fn from_initials(initials: &[u8]) -> Families {
        let mut bits = 0u8;
        let mut i = 0;
        while i < initials.len() {
            bits |= match initials[i] {
                b'F' => 1,
                b'K' => 1 << 1,
                b'M' => 1 << 2,
                b'V' => 1 << 3,
                b'T' => 1 << 4,
                b'A' => 1 << 5,
                b'H' => 1 << 6,
                _ => 0,
            };
            i += 1;
        }
        Families(bits)
    }

    pub fn contains(self, f: Family) -> bool {
        self.0 & f.bit() != 0
    }

    pub fn iter(self) -> impl Iterator<Item = Family> {
        Family::ALL.into_iter().filter(move |f| self.contains(*f))
    }

    /// "Volta to Hopper", "Fermi to Maxwell/Pascal", "Hopper", "Fermi, Volta".
    pub fn describe(self) -> String {
        let members: Vec<Family> = self.iter().collect();
        let (Some(first), Some(last)) = (members.first(), members.last()) else {
            return "no generation".to_string();
        };
        let contiguous = members.len() > 1
            && Family::ALL
                .iter()
                .skip_while(|f| *f != first)
                .take(members.len())
                .eq(members.iter());
        if members.len() == 1 {
            first.name().to_string()
        } else if contiguous {
            format!("{} to {}", first.name(), last.name())
        } else {
            members
                .iter()
                .map(|f| f.name())
                .collect::<Vec<_>>()
                .join(", ")
        }
    }
}

/// What an opcode can do to control flow, divergence or agreement — what decides how strictly
/// an unknown look-alike is treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Computes values; control continues at the next instruction.
    Ordinary,
    /// Branches, jumps, calls, returns, exits, traps and scheduling hints (NVIDIA's "Control
    /// Instructions").
    ControlFlow,
    /// Fermi–Pascal SIMT reconvergence stack: `SSY`/`SYNC`, `PBK`/`BRK`, `PCNT`/`CONT`,
    /// `PRET`, `PLONGJMP`, `PEXIT`.
    Stack,
    /// Volta-and-later convergence barriers and warp synchronisation: `BSSY`, `BSYNC`,
    /// `BREAK`, `BMOV`, `WARPSYNC`, `ENDCOLLECTIVE`.
    Convergence,
    /// Thread-block, memory, dependency and cluster barriers.
    Barrier,
    /// Writes predicate registers (comparisons, predicate logic, votes): the source of
    /// divergent branches.
    PredicateWrite,
    /// Reads a special register (`S2R`, `CS2R`, `S2UR`): thread and block indices, clocks.
    SpecialRegister,
}

impl Role {
    /// True for the roles a misread instruction could hide a branch, a reconvergence point
    /// or a barrier behind.
    pub fn is_control_like(self) -> bool {
        matches!(
            self,
            Role::ControlFlow | Role::Stack | Role::Convergence | Role::Barrier
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            Role::Ordinary => "ordinary",
            Role::ControlFlow => "control flow",
            Role::Stack => "SIMT stack",
            Role::Convergence => "convergence barrier",
            Role::Barrier => "barrier",
            Role::PredicateWrite => "predicate-writing",
            Role::SpecialRegister => "special-register read",
        }
    }
}

/// One opcode of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpcodeInfo {
    /// The base mnemonic, as `cuobjdump` prints it.
    pub name: &'static str,
    /// The generations whose table lists it.
    pub families: Families,
    pub role: Role,
    /// One line for a tooltip.
    pub description: &'static str,
}

const fn op(
    name: &'static str,
    initials: &'static [u8],
    role: Role,
    description: &'static str,
) -> OpcodeInfo {
    OpcodeInfo {
        name,
        families: Families::from_initials(initials),
        role,
        description,
    }
}

use Role::{Barrier, ControlFlow, Convergence, Ordinary, PredicateWrite, SpecialRegister, Stack};

/// Every opcode, control-like ones first: nearest-name hints break ties by this order, so a
/// typo equally close to a branch and to an arithmetic opcode is treated as the branch.
/// Families use the initials F K M V T A H (see [`Families::from_initials`]).
pub static OPCODES: &[OpcodeInfo] = &[
    // Control.
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
    // Stack.
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
    // Convergence.
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
    // Barrier.
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
    // Predicate.
    op(
        "ISETP",
        b"FKMVTAH",
        PredicateWrite,
        "Integer compare, set predicates",
    ),
    op(
        "FSETP",
        b"FKMVTAH",
        PredicateWrite,
        "FP32 compare, set predicates",
    ),
    op(
        "DSETP",
        b"FKMVTAH",
        PredicateWrite,
        "FP64 compare, set predicates",
    ),
    op(
        "HSETP2",
        b"MVTAH",
        PredicateWrite,
        "Paired FP16 compare, set predicates",
    ),
    op(
        "PSETP",
        b"FKMVTAH",
        PredicateWrite,
        "Combine predicates, set predicates",
    ),
    op(
        "PLOP3",
        b"VTAH",
        PredicateWrite,
        "Three-input logic operation on predicates",
    ),
    op(
        "CSETP",
        b"FKM",
        PredicateWrite,
        "Test the condition code, set predicates",
    ),
    op(
        "VSETP",
        b"M",
        PredicateWrite,
        "Video (SIMD byte/half) compare, set predicates",
    ),
    op(
        "FCHK",
        b"KMVTAH",
        PredicateWrite,
        "Check whether an FP32 division needs the slow path, set a predicate",
    ),
    op(
        "R2P",
        b"FKMVTAH",
        PredicateWrite,
        "Move register bits to predicate registers",
    ),
    op(
        "VOTE",
        b"FKMVTAH",
        PredicateWrite,
        "Warp vote (all, any, equal) into a predicate or a ballot register",
    ),
    op(
        "VOTEU",
        b"TAH",
        PredicateWrite,
        "Warp vote into a uniform register or predicate",
    ),
    op(
        "UISETP",
        b"TAH",
        PredicateWrite,
        "Uniform integer compare, set uniform predicates",
    ),
    op(
        "UPSETP",
        b"TAH",
        PredicateWrite,
        "Combine uniform predicates, set uniform predicates",
    ),
    op(
        "UPLOP3",
        b"TAH",
        PredicateWrite,
        "Three-input logic operation on uniform predicates",
    ),
    op(
        "UR2UP",
        b"TAH",
        PredicateWrite,
        "Move uniform register bits to uniform predicates",
    ),
    op(
        "ELECT",
        b"H",
        PredicateWrite,
        "Elect one leader thread of the warp, set a predicate",
    ),
    // Special registers.
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
    // Fp32.
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
    // Fp16.
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
    // Fp64.
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
    // Integer.
    op("BFE", b"FKM", Ordinary, "Bit-field extract"),
    op("BFI", b"FKM", Ordinary, "Bit-field insert"),
    op("BMSK", b"VTAH", Ordinary, "Build a bit-field mask"),
    op("BREV", b"VTAH", Ordinary, "Reverse the bits of a register"),
    op("FLO", b"FKMVTAH", Ordinary, "Find the leading one bit"),
    op("IABS", b"VTAH", Ordinary, "Integer absolute value"),
    op("IADD", b"FKMVTAH", Ordinary, "Integer add"),
    op("IADD3", b"MVTAH", Ordinary, "Three-input integer add"),
    op(
        "IADD32I",
        b"FKMVTAH",
        Ordinary,
        "Integer add with a 32-bit immediate",
    ),
    op(
        "ISUB",
        b"FK",
        Ordinary,
        "Integer subtract (printed by cuobjdump, not in the reference tables)",
    ),
    op(
        "ICMP",
        b"FKM",
        Ordinary,
        "Integer compare with zero and select a source",
    ),
    op(
        "IDP",
        b"VTAH",
        Ordinary,
        "Integer dot product and accumulate",
    ),
    op(
        "IDP4A",
        b"VTAH",
        Ordinary,
        "Four-way byte dot product and accumulate",
    ),
    op("IMAD", b"FKMVTAH", Ordinary, "Integer multiply-add"),
    op(
        "IMADSP",
        b"KM",
        Ordinary,
        "Integer multiply-add on extracted operand parts",
    ),
    op(
        "IMMA",
        b"VTAH",
        Ordinary,
        "Integer matrix multiply-accumulate (tensor core)",
    ),
    op("IMNMX", b"FKMVTAH", Ordinary, "Integer minimum or maximum"),
    op("IMUL", b"FKMVTAH", Ordinary, "Integer multiply"),
    op(
        "IMUL32I",
        b"FKMVTAH",
        Ordinary,
        "Integer multiply with a 32-bit immediate",
    ),
    op(
        "ISAD",
        b"FK",
        Ordinary,
        "Integer sum of absolute differences",
    ),
    op(
        "ISCADD",
        b"FKMVTAH",
        Ordinary,
        "Scaled integer add (shift then add)",
    ),
    op(
        "ISCADD32I",
        b"FKMVTAH",
        Ordinary,
        "Scaled integer add with a 32-bit immediate",
    ),
    op("ISET", b"FKM", Ordinary, "Integer compare, set a register"),
    op(
        "LEA",
        b"KMVTAH",
        Ordinary,
        "Compute an effective address (shift and add, with a high part)",
    ),
    op("LOP", b"FKMVTAH", Ordinary, "Two-input logic operation"),
    op(
        "LOP3",
        b"MVTAH",
        Ordinary,
        "Three-input logic operation by lookup table (may also set a predicate)",
    ),
    op(
        "LOP32I",
        b"FKMVTAH",
        Ordinary,
        "Logic operation with a 32-bit immediate",
    ),
    op(
        "POPC",
        b"FKMVTAH",
        Ordinary,
        "Population count (number of set bits)",
    ),
    op(
        "SHF",
        b"KMVTAH",
        Ordinary,
        "Funnel shift across a register pair",
    ),
    op("SHL", b"FKMVTAH", Ordinary, "Shift left"),
    op("SHR", b"FKMVTAH", Ordinary, "Shift right"),
    op(
        "XMAD",
        b"M",
        Ordinary,
        "16-bit by 16-bit integer multiply-add",
    ),
    op(
        "BMMA",
        b"TAH",
        Ordinary,
        "Binary (1-bit) matrix multiply-accumulate (tensor core)",
    ),
    op("SGXT", b"VTAH", Ordinary, "Sign-extend a bit field"),
    op(
        "VABSDIFF",
        b"FKMVTAH",
        Ordinary,
        "Video (SIMD) absolute difference",
    ),
    op(
        "VABSDIFF4",
        b"MVTAH",
        Ordinary,
        "Four-way byte absolute difference",
    ),
    op("VADD", b"FKM", Ordinary, "Video (SIMD) add"),
    op("VSUB", b"FK", Ordinary, "Video (SIMD) subtract"),
    op("VMAD", b"FKM", Ordinary, "Video (SIMD) multiply-add"),
    op("VMNMX", b"FKM", Ordinary, "Video (SIMD) minimum or maximum"),
    op(
        "VSET",
        b"FKM",
        Ordinary,
        "Video (SIMD) compare, set a register",
    ),
    op("VSHL", b"FKM", Ordinary, "Video (SIMD) shift left"),
    op("VSHR", b"FKM", Ordinary, "Video (SIMD) shift right"),
    op(
        "VHMNMX",
        b"H",
        Ordinary,
        "SIMD FP16 three-input minimum or maximum",
    ),
    op("VIADD", b"H", Ordinary, "SIMD integer add"),
    op(
        "VIADDMNMX",
        b"H",
        Ordinary,
        "SIMD integer add fused with minimum or maximum",
    ),
    op("VIMNMX", b"H", Ordinary, "SIMD integer minimum or maximum"),
    op(
        "VIMNMX3",
        b"H",
        Ordinary,
        "SIMD integer three-input minimum or maximum",
    ),
    // Conversion.
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
    // Movement.
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
    // Load/store.
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
    // Uniform datapath.
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
    // Warpgroup and tensor memory access.
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
    // Texture and surface.
    op("TEX", b"FKMVTAH", Ordinary, "Texture fetch"),
    op("TLD", b"FKMVTAH", Ordinary, "Texture load (texel fetch)"),
    op(
        "TLD4",
        b"FKMVTAH",
        Ordinary,
        "Texture gather of four texels",
    ),
    op("TXQ", b"FKMVTAH", Ordinary, "Texture query"),
    op("TMML", b"MVTAH", Ordinary, "Texture mip-map level"),
    op("TXD", b"MVTAH", Ordinary, "Texture fetch with derivatives"),
    op("TEXS", b"M", Ordinary, "Texture fetch, scalar form"),
    op("TLDS", b"M", Ordinary, "Texture load, scalar form"),
    op("TLD4S", b"M", Ordinary, "Texture gather, scalar form"),
    op(
        "SUATOM",
        b"KMVTAH",
        Ordinary,
        "Atomic operation on surface memory",
    ),
    op("SULD", b"FKMVTAH", Ordinary, "Surface load"),
    op("SURED", b"FMVTAH", Ordinary, "Reduction on surface memory"),
    op("SUST", b"FKMVTAH", Ordinary, "Surface store"),
    op("SULEA", b"F", Ordinary, "Surface effective address"),
    op("SUQ", b"F", Ordinary, "Surface query"),
    op("SUCLAMP", b"K", Ordinary, "Surface coordinate clamp"),
    op("SUBFM", b"K", Ordinary, "Surface bit-field merge"),
    op("SUEAU", b"K", Ordinary, "Surface effective address"),
    op(
        "SULDGA",
        b"K",
        Ordinary,
        "Surface load through a generic address",
    ),
    op(
        "SUSTGA",
        b"K",
        Ordinary,
        "Surface store through a generic address",
    ),
    // Miscellaneous.
    op("NOP", b"FKMVTAH", Ordinary, "No operation"),
    op(
        "B2R",
        b"FKMVTAH",
        Ordinary,
        "Move barrier state to a register",
    ),
    op("LEPC", b"MVTAH", Ordinary, "Load the program counter"),
    op(
        "GETLMEMBASE",
        b"VTAH",
        Ordinary,
        "Get the local-memory base address",
    ),
    op(
        "SETLMEMBASE",
        b"VTAH",
        Ordinary,
        "Set the local-memory base address",
    ),
    op(
        "PMTRIG",
        b"VTAH",
        Ordinary,
        "Trigger a performance-monitor event",
    ),
    op("SETCTAID", b"VTAH", Ordinary, "Set the thread-block index"),
];

/// The table entry of a base mnemonic (`ISETP`, not `ISETP.GE.AND`).
pub fn lookup(name: &str) -> Option<&'static OpcodeInfo> {
    OPCODES.iter().find(|o| o.name == name)
}

/// The modifiers a control opcode may carry, for the opcodes whose modifiers change control
/// flow (`BRA.U` is taken only when all active threads agree, `BRA.DIV` only when the warp has
/// diverged, `CALL.ABS` names an absolute address, `VOTE.ALL` and `VOTE.ANY` compute different
/// predicates). `None`: modifiers are not checked. The Fermi/Kepler sync flag `.S` is allowed
/// everywhere on those generations and is not listed.
pub fn control_modifiers(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "BRA" => &["U", "ANY", "DIV", "CONV", "INC", "DEC", "LMT"],
        "BRX" | "JMX" | "BRXU" | "JMXU" => &["U", "ANY", "INC", "DEC", "LMT"],
        "JMP" => &["U", "ANY", "INC", "DEC", "LMT"],
        "CAL" | "JCAL" => &["NOINC", "INC"],
        "CALL" => &["REL", "ABS", "NOINC"],
        "RET" => &["REL", "ABS", "NODEC"],
        "SSY" | "PBK" | "PCNT" | "PRET" | "PLONGJMP" | "PEXIT" | "SYNC" | "BRK" | "CONT"
        | "LONGJMP" => &[],
        "EXIT" => &["KEEPREFCOUNT", "NO_ATEXIT", "PREEMPTED"],
        "KIL" | "KILL" => &[],
        "BSSY" | "BSYNC" => &["RECONVERGENT", "RELIABLE"],
        "BREAK" => &[],
        "WARPSYNC" => &["ALL", "EXCLUSIVE", "COLLECTIVE"],
        "VOTE" | "VOTEU" => &["ALL", "ANY", "EQ", "UNI"],
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_control_comes_first() {
        let mut seen = std::collections::BTreeSet::new();
        for o in OPCODES {
            assert!(seen.insert(o.name), "{} twice", o.name);
            assert!(
                !o.description.is_empty() && o.description.len() <= 100,
                "{}",
                o.name
            );
            assert!(o.families.iter().next().is_some(), "{}", o.name);
        }
        let first_ordinary = OPCODES
            .iter()
            .position(|o| !o.role.is_control_like())
            .unwrap_or(0);
        assert!(OPCODES[first_ordinary..]
            .iter()
            .all(|o| !o.role.is_control_like()));
    }

    #[test]
    fn families_of_architectures() {
        assert_eq!(Family::of_arch("sm_20"), Some(Family::Fermi));
        assert_eq!(Family::of_arch("sm_35"), Some(Family::Kepler));
        assert_eq!(Family::of_arch("sm_61"), Some(Family::MaxwellPascal));
        assert_eq!(Family::of_arch("sm_70"), Some(Family::Volta));
        assert_eq!(Family::of_arch("sm_75"), Some(Family::Turing));
        assert_eq!(Family::of_arch("sm_86"), Some(Family::AmpereAda));
        assert_eq!(Family::of_arch("sm_90a"), Some(Family::Hopper));
        assert_eq!(Family::of_arch("sm_100"), None);
        assert_eq!(Family::of_arch("compute_61"), None);
    }

    #[test]
    fn roles_and_generations_of_some_opcodes() {
        let bssy = lookup("BSSY").map(|o| (o.role, o.families.describe()));
        assert_eq!(
            bssy,
            Some((Role::Convergence, "Volta to Hopper".to_string()))
        );
        let ssy = lookup("SSY").map(|o| (o.role, o.families.describe()));
        assert_eq!(
            ssy,
            Some((Role::Stack, "Fermi to Maxwell/Pascal".to_string()))
        );
        assert_eq!(lookup("ISETP").map(|o| o.role), Some(Role::PredicateWrite));
        assert_eq!(lookup("S2UR").map(|o| o.role), Some(Role::SpecialRegister));
        assert_eq!(lookup("BAR").map(|o| o.role), Some(Role::Barrier));
        assert_eq!(lookup("IADD3").map(|o| o.role), Some(Role::Ordinary));
        assert_eq!(lookup("ISETP.GE"), None);
        assert_eq!(
            lookup("RED").map(|o| o.families.describe()),
            Some("Fermi to Ampere/Ada".to_string())
        );
        assert_eq!(
            Families::from_initials(b"FV").describe(),
            "Fermi, Volta".to_string()
        );
    }
}
