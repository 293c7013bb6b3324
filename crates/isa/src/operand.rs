//! Instruction operands and the registers they name.

use crate::span::Span;

/// A register of any file the dialects expose. `RZ` and `PT` are constants (zero, true), not
/// storage, which is why they never appear in an instruction's reads or writes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Register {
    /// General-purpose register `Rn`.
    Gpr(u32),
    /// `RZ`: reads as zero, writes are discarded.
    Zero,
    /// Predicate register `Pn`.
    Pred(u32),
    /// `PT`: the always-true predicate.
    True,
    /// Uniform register `URn` (Turing and later; parsed so newer listings still load).
    Uniform(u32),
    /// Uniform predicate `UPn`.
    UniformPred(u32),
    /// Special register such as `SR_TID.X`, kept in the spelling of the listing, upper-cased.
    Special(String),
    /// The condition-code register (`CC`) of Fermi–Pascal carry chains.
    CarryFlag,
}

impl Register {
    /// True for registers that hold state (everything but `RZ`, `PT` and their uniform forms).
    pub fn is_storage(&self) -> bool {
        !matches!(self, Register::Zero | Register::True)
    }

    pub fn is_predicate(&self) -> bool {
        matches!(
            self,
            Register::Pred(_) | Register::True | Register::UniformPred(_)
        )
    }
}

impl std::fmt::Display for Register {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Register::Gpr(n) => write!(f, "R{n}"),
            Register::Zero => write!(f, "RZ"),
            Register::Pred(n) => write!(f, "P{n}"),
            Register::True => write!(f, "PT"),
            Register::Uniform(n) => write!(f, "UR{n}"),
            Register::UniformPred(n) => write!(f, "UP{n}"),
            Register::Special(s) => write!(f, "{s}"),
            Register::CarryFlag => write!(f, "CC"),
        }
    }
}

/// An address expression inside `[...]`: an optional base register plus a constant offset.
#[derive(Debug, Clone, PartialEq)]
pub struct Address {
    pub base: Option<Register>,
    pub offset: i64,
}

/// An immediate value.
#[derive(Debug, Clone, PartialEq)]
pub enum Immediate {
    Int(i64),
    Float(f64),
    /// A relocation such as `32@lo(GlobalC2)`: a value known only at link time.
    Symbol(String),
}

impl Immediate {
    /// The integer an instruction holds in the cubin: the value itself, or for a data
    /// relocation (`32@lo(sym)`, `32@hi(sym)`: the halves of a global variable's address)
    /// the 0 the cubin carries until the driver relocates it — what `cuobjdump -sass`
    /// prints for the same instruction (`MOV R4, 0x0`), so an `nvdisasm` dump is read as
    /// the listing of the same cubin is. The same in every thread, like any immediate.
    /// `None` for floats and other relocations (`32@fn(f)`, a call target).
    pub fn as_linked_int(&self) -> Option<i64> {
        match self {
            Immediate::Int(v) => Some(*v),
            Immediate::Symbol(s) if s.contains("@lo(") || s.contains("@hi(") => Some(0),
            _ => None,
        }
    }
}

/// What an operand denotes.
#[derive(Debug, Clone, PartialEq)]
pub enum OperandKind {
    Register {
        reg: Register,
    },
    /// Constant-bank reference `c[bank][offset]`; the offset may use a register.
    Constant {
        bank: u32,
        address: Address,
    },
    /// Memory reference `[R2+0x4]`.
    Memory {
        address: Address,
    },
    Immediate {
        value: Immediate,
    },
    /// A symbolic code location: `` `(.L_x_3) `` in CuAssembler/nvdisasm listings.
    Label {
        name: String,
    },
    /// Anything else (texture shapes like `2D`, Fermi condition codes like `CC.NEU`): kept as
    /// text so unknown syntax never blocks an analysis.
    Other {
        text: String,
    },
}

/// One operand with its prefix flags and dot-suffixes (`.reuse`, `.H1`, `.CC`, ...).
#[derive(Debug, Clone, PartialEq)]
pub struct Operand {
    pub kind: OperandKind,
    /// Arithmetic negation `-x` (or logical `!P` for predicates).
    pub negated: bool,
    /// Bitwise inversion `~x`.
    pub inverted: bool,
    /// Absolute value `|x|`.
    pub absolute: bool,
    pub suffixes: Vec<String>,
    pub text: String,
    pub span: Span,
}

impl Operand {
    /// The register this operand is, if it is a plain register operand.
    pub fn register(&self) -> Option<&Register> {
        match &self.kind {
            OperandKind::Register { reg } => Some(reg),
            _ => None,
        }
    }

    /// Registers this operand reads when used as a source (base registers of addresses too).
    pub fn registers(&self) -> Vec<Register> {
        match &self.kind {
            OperandKind::Register { reg } => vec![reg.clone()],
            OperandKind::Constant { address, .. } | OperandKind::Memory { address } => {
                address.base.iter().cloned().collect()
            }
            _ => Vec::new(),
        }
    }
}
