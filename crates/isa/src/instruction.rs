//! One machine instruction: guard, opcode, operands, data flow and control flow.

use crate::control_bits::ControlBits;
use crate::operand::{Operand, OperandKind, Register};
use crate::span::Span;

/// A guard predicate: `@P0`, `@!P0`, `@PT`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guard {
    pub reg: Register,
    pub negated: bool,
    pub span: Span,
}

impl Guard {
    /// `@PT` executes unconditionally and `@!PT` never does; any other guard may go either way.
    pub fn is_always_true(&self) -> bool {
        self.reg == Register::True && !self.negated
    }

    pub fn is_never_true(&self) -> bool {
        self.reg == Register::True && self.negated
    }
}

/// Opcode mnemonic split at the dots: `ISETP.GE.U32.AND` is name `ISETP`, modifiers
/// `[GE, U32, AND]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opcode {
    pub name: String,
    pub modifiers: Vec<String>,
    pub span: Span,
}

impl Opcode {
    pub fn has_modifier(&self, m: &str) -> bool {
        self.modifiers.iter().any(|x| x == m)
    }
}

/// How an instruction affects control flow — the SIMT control instructions of Fermi–Pascal
/// (Jeanmougin et al. §2) plus calls and indirect jumps. A guarded instruction of any kind here
/// takes effect only for the threads whose guard holds; the rest fall through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ControlKind {
    /// Ordinary instruction: continues at the next one.
    Fallthrough,
    /// `BRA`/`JMP`; `target` is an instruction address once resolved.
    Branch(Option<u64>),
    /// `SSY target`: pushes a SYNC reconvergence entry.
    Ssy(Option<u64>),
    /// `PBK target`: pushes a BRK reconvergence entry.
    Pbk(Option<u64>),
    /// `PCNT target`: pushes a CONT entry (loop continue point).
    Pcnt(Option<u64>),
    /// `PRET target`: pushes a return point for a following indirect call.
    Pret(Option<u64>),
    /// `SYNC`, or any Kepler/Fermi instruction carrying the `.S` flag.
    Sync,
    /// `BRK`.
    Brk,
    /// `CONT`.
    Cont,
    /// `EXIT` (and `KIL`, which ends the thread the same way).
    Exit,
    /// `CAL`/`JCAL`; `None` for a call out of this listing (e.g. `vprintf`).
    Call(Option<u64>),
    /// `RET`.
    Ret,
    /// `BAR`: a block boundary for timing, control continues at the next instruction.
    Barrier,
    /// `BRX`/`JMX`: computed target, not statically known.
    Indirect,
    /// `BSSY Bn, target` (Volta and later): records the active threads in convergence barrier
    /// `Bn`; `target` is where they continue together, the instruction after the region's
    /// `BSYNC Bn` (every `BSSY` of the sm_70–sm_90 corpus names exactly that address).
    Bssy { barrier: u8, target: Option<u64> },
    /// `BSYNC Bn`: the executing threads wait until every thread still recorded in `Bn` has
    /// arrived, then all of them continue at the next instruction.
    Bsync { barrier: u8 },
    /// `BREAK Bn`: the executing threads leave barrier `Bn` (so a `BSYNC Bn` no longer waits
    /// for them) and go on with the next instruction.
    Break { barrier: u8 },
    /// `WARPSYNC.ALL` / `WARPSYNC 0xffffffff` (Volta and later, `__syncwarp()`): every thread
    /// of the warp waits here until all others (that have not exited) arrived; the compiler
    /// places it where divergent paths outside any `BSSY` region must meet, e.g. before
    /// `BAR.SYNC`. A `WARPSYNC` with a partial or register mask stays an ordinary instruction.
    WarpSync,
}

impl ControlKind {
    /// The static code address this instruction names, if any.
    pub fn target(&self) -> Option<u64> {
        match *self {
            ControlKind::Branch(t)
            | ControlKind::Ssy(t)
            | ControlKind::Pbk(t)
            | ControlKind::Pcnt(t)
            | ControlKind::Pret(t)
            | ControlKind::Call(t)
            | ControlKind::Bssy { target: t, .. } => t,
            _ => None,
        }
    }

    /// Whether the threads that execute this instruction stop running straight on inside
    /// the function: a `BRA`/`JMP`, a halt into the Fermi–Pascal reconvergence stack
    /// (`SYNC`, `BRK`, `CONT`) or an `EXIT`. A guard on one of these separates the threads
    /// it holds for from the others; `RET`, which leaves the function, is not counted here,
    /// as a caller weighs returns on its own.
    pub fn jumps_or_halts(&self) -> bool {
        matches!(
            self,
            ControlKind::Branch(_)
                | ControlKind::Sync
                | ControlKind::Brk
                | ControlKind::Cont
                | ControlKind::Exit
        )
    }

    /// True when the instruction ends a basic block.
    pub fn ends_block(&self) -> bool {
        !matches!(
            self,
            ControlKind::Fallthrough
                | ControlKind::Ssy(_)
                | ControlKind::Pbk(_)
                | ControlKind::Pcnt(_)
                | ControlKind::Pret(_)
                | ControlKind::Bssy { .. }
                | ControlKind::Break { .. }
        )
    }

    /// The convergence barrier register (`Bn`) a Volta-and-later barrier instruction names.
    pub fn barrier(&self) -> Option<u8> {
        match *self {
            ControlKind::Bssy { barrier, .. }
            | ControlKind::Bsync { barrier }
            | ControlKind::Break { barrier } => Some(barrier),
            _ => None,
        }
    }
}

/// The functional unit an instruction occupies, which is what timing models charge for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResourceClass {
    Alu,
    /// Special-function unit: transcendental approximations (`MUFU`, `RRO`).
    Sfu,
    LoadStoreGlobal,
    LoadStoreShared,
    LoadStoreLocal,
    /// Constant-cache load (`LDC`).
    Constant,
    Texture,
    Control,
}

/// One instruction of a kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct Instruction {
    /// Code address in bytes, as printed in the listing (or assigned, for address-less input).
    pub address: u64,
    pub guard: Option<Guard>,
    pub opcode: Opcode,
    pub operands: Vec<Operand>,
    /// Registers written (storage registers only: never `RZ`/`PT`).
    pub writes: Vec<Register>,
    /// Registers read, the guard predicate included.
    pub reads: Vec<Register>,
    pub control: ControlKind,
    pub class: ResourceClass,
    /// The Kepler/Fermi `.S` flag: the instruction executes, then acts as `SYNC`.
    pub sync_flag: bool,
    /// Second half of a `{ A ; B }` dual-issue pair.
    pub dual_issued: bool,
    /// CuAssembler control code (`[B------:R-:W-:-:S06]`), verbatim.
    pub control_code: Option<String>,
    /// Scheduling control bits (Maxwell to Hopper), decoded from the listing's encoding
    /// comments or from `control_code`; absent when the listing carries neither.
    pub control_bits: Option<ControlBits>,
    /// Candidate targets (instruction addresses in this function) of an indirect branch
    /// (`BRX`/`JMX`, [`ControlKind::Indirect`]): from nvdisasm's `BRANCH_TARGETS` annotation,
    /// or given by the user. Empty when unknown.
    pub indirect_targets: Vec<u64>,
    /// Disassembler annotation, e.g. `INDIRECT_CALL` or `BRANCH_TARGETS .L_x_1`.
    pub annotation: Option<String>,
    /// The instruction text without address, encoding and annotations.
    pub text: String,
    pub span: Span,
}

impl Instruction {
    /// The predicates a branch tests besides its guard: `@!P0 BRA P1, target` is taken only
    /// by the threads whose guard and `P1` both hold (`!P1` negated), the form nvcc gives
    /// `while (a && b)`. Each is `(register, negated)`; `PT` is left out (always true).
    pub fn branch_predicates(&self) -> impl Iterator<Item = (&Register, bool)> {
        let is_branch = matches!(self.control, ControlKind::Branch(_)) && self.opcode.name == "BRA";
        self.operands
            .iter()
            .filter(move |_| is_branch)
            .filter_map(|o| match &o.kind {
                OperandKind::Register { reg }
                    if matches!(reg, Register::Pred(_) | Register::UniformPred(_)) =>
                {
                    Some((reg, o.negated))
                }
                _ => None,
            })
    }

    /// Whether this control instruction also tests the Fermi–Pascal condition code
    /// (`@P0 BRA CC.NEU, 0xeb8`): then it acts only in the threads whose own CC flags pass
    /// the test, on top of its guard, so it is conditional even without a guard and may split
    /// a warp even where the guard is uniform. Every analysis that follows control flow must
    /// treat it so (a typo must never lower a bound: an unread test would hide a path).
    pub fn tests_condition_code(&self) -> bool {
        !matches!(self.control, ControlKind::Fallthrough)
            && self
                .operands
                .iter()
                .any(|o| o.register() == Some(&Register::CarryFlag))
    }
}
