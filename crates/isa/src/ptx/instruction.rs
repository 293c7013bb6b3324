//! One PTX instruction: guard, opcode with its dot-modifiers, operands.
//!
//! PTX is a virtual ISA with typed, unbounded virtual registers (`%r12`, `%rd3`, `%f1`,
//! `%p2`), so the representation here is PTX's own rather than the machine-level
//! [`crate::Instruction`]: register names are kept as written, and the opcode keeps its
//! modifiers (`ld.global.f32` is opcode `ld`, modifiers `[global, f32]`).

use super::call::Call;
use super::isa_table::{self, OpClass, OpInfo};
use crate::span::Span;

/// `@%p1` or `@!%p1`: the instruction takes effect only in threads whose predicate holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guard {
    pub reg: String,
    pub negated: bool,
    pub span: Span,
}

/// The base of an address expression `[base+offset]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddressBase {
    /// A register holding an address: `[%rd8+4]`.
    Register(String),
    /// A named variable: a kernel parameter, a `.shared`/`.global`/`.const` variable.
    Symbol(String),
}

/// What an operand denotes.
#[derive(Debug, Clone, PartialEq)]
pub enum OperandKind {
    /// A virtual register: `%r3`, `%rd12`, `%p1`, `%temp`.
    Register { name: String },
    /// A special (read-only) register such as `%tid.x` (`name: "tid"`, `component: "x"`)
    /// or `%laneid` (no component).
    Special {
        name: String,
        component: Option<String>,
    },
    /// Integer literal (decimal, hex, octal or binary; unary minus applied).
    Int { value: i64 },
    /// Floating-point literal: `0f3F800000` (f32 bits), `0d3FF0000000000000` (f64 bits)
    /// or decimal `1.5`.
    Float { value: f64 },
    /// A bare name: a branch label, a variable or a called function.
    Symbol { name: String },
    /// `[base+offset]`, `[base]`, `[offset]`.
    Address {
        base: Option<AddressBase>,
        offset: i64,
    },
    /// `{%r1, %r2}`: a vector of registers (vector loads/stores, `mov.b64 {lo, hi}, %fd`).
    Vector { elements: Vec<Operand> },
    /// `(a, b)`: an argument list of `call`.
    List { elements: Vec<Operand> },
    /// `_`: the sink operand.
    Sink,
    /// `!%p`: a negated predicate operand.
    Not { inner: Box<Operand> },
    /// Anything else, kept verbatim so that unusual syntax still parses generically
    /// (e.g. texture coordinates `[tex, {%r1}]`).
    Other { text: String },
}

/// One operand with its place in the text.
#[derive(Debug, Clone, PartialEq)]
pub struct Operand {
    pub kind: OperandKind,
    pub span: Span,
}

impl Operand {
    /// The register name when this operand is a plain register.
    pub fn register(&self) -> Option<&str> {
        match &self.kind {
            OperandKind::Register { name } => Some(name),
            _ => None,
        }
    }

    /// Every register this operand mentions (address bases and vector elements included).
    pub fn registers(&self) -> Vec<&str> {
        match &self.kind {
            OperandKind::Register { name } => vec![name.as_str()],
            OperandKind::Address {
                base: Some(AddressBase::Register(r)),
                ..
            } => vec![r.as_str()],
            OperandKind::Vector { elements } | OperandKind::List { elements } => {
                elements.iter().flat_map(|e| e.registers()).collect()
            }
            OperandKind::Not { inner } => inner.registers(),
            _ => Vec::new(),
        }
    }
}

/// The state space an instruction's memory access goes to (`ld.global`, `st.shared`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StateSpace {
    Global,
    Shared,
    Local,
    Param,
    Const,
    Tex,
    /// No state space modifier: a generic address (`ld.f32 [%rd1]`).
    Generic,
}

impl StateSpace {
    pub fn from_modifier(m: &str) -> Option<StateSpace> {
        Some(match m {
            "global" => StateSpace::Global,
            "shared" => StateSpace::Shared,
            "local" => StateSpace::Local,
            "param" => StateSpace::Param,
            "const" => StateSpace::Const,
            "tex" => StateSpace::Tex,
            _ => return None,
        })
    }
}

/// A PTX scalar type modifier and its width.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScalarType {
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    B8,
    B16,
    B32,
    B64,
    F16,
    F32,
    F64,
    Pred,
}

impl ScalarType {
    pub fn from_modifier(m: &str) -> Option<ScalarType> {
        Some(match m {
            "u8" => ScalarType::U8,
            "u16" => ScalarType::U16,
            "u32" => ScalarType::U32,
            "u64" => ScalarType::U64,
            "s8" => ScalarType::S8,
            "s16" => ScalarType::S16,
            "s32" => ScalarType::S32,
            "s64" => ScalarType::S64,
            "b8" => ScalarType::B8,
            "b16" => ScalarType::B16,
            "b32" => ScalarType::B32,
            "b64" => ScalarType::B64,
            "f16" => ScalarType::F16,
            "f32" => ScalarType::F32,
            "f64" => ScalarType::F64,
            "pred" => ScalarType::Pred,
            _ => return None,
        })
    }

    /// Width in bits (a predicate counts as 1).
    #[inline]
    pub fn bits(self) -> u32 {
        match self {
            ScalarType::Pred => 1,
            ScalarType::U8 | ScalarType::S8 | ScalarType::B8 => 8,
            ScalarType::U16 | ScalarType::S16 | ScalarType::B16 | ScalarType::F16 => 16,
            ScalarType::U32 | ScalarType::S32 | ScalarType::B32 | ScalarType::F32 => 32,
            ScalarType::U64 | ScalarType::S64 | ScalarType::B64 | ScalarType::F64 => 64,
        }
    }

    /// Size in bytes when stored in memory.
    #[inline]
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    #[inline]
    pub fn is_signed(self) -> bool {
        matches!(
            self,
            ScalarType::S8 | ScalarType::S16 | ScalarType::S32 | ScalarType::S64
        )
    }

    #[inline]
    pub fn is_float(self) -> bool {
        matches!(self, ScalarType::F16 | ScalarType::F32 | ScalarType::F64)
    }
}

/// One instruction.
#[derive(Debug, Clone, PartialEq)]
pub struct Instruction {
    pub guard: Option<Guard>,
    /// Base mnemonic: `ld`, `mad`, `bra`.
    pub opcode: String,
    /// Dot-modifiers in order: `["global", "f32"]`, `["wide", "s32"]`, `["uni"]`.
    pub modifiers: Vec<String>,
    pub operands: Vec<Operand>,
    /// The whole statement, from the guard (or opcode) to the `;`.
    pub span: Span,
    pub opcode_span: Span,
    /// For `call`: return list, target, arguments and what the callee is.
    pub call: Option<Call>,
}

impl Instruction {
    pub fn has_modifier(&self, m: &str) -> bool {
        self.modifiers.iter().any(|x| x == m)
    }

    /// The ISA table's row for this opcode (the longest dotted prefix of the mnemonic that
    /// names one: `bar.warp.sync`, `cp.async`), `None` for an unknown opcode.
    pub fn info(&self) -> Option<&'static OpInfo> {
        isa_table::lookup(&self.opcode, &self.modifiers).map(|(o, _)| o)
    }

    /// The instruction's class ([`OpClass`]); `None` for an unknown opcode.
    pub fn class(&self) -> Option<OpClass> {
        self.info().map(|o| o.class)
    }

    /// True for a `call` to a function without a body in the module (`vprintf`, `malloc`,
    /// `free`, `__assertfail`, any `.extern .func`).
    pub fn is_external_call(&self) -> bool {
        self.call.as_ref().is_some_and(Call::is_external)
    }

    /// The full mnemonic as written: `ld.global.f32`.
    pub fn mnemonic(&self) -> String {
        let mut s = self.opcode.clone();
        for m in &self.modifiers {
            s.push('.');
            s.push_str(m);
        }
        s
    }

    /// The state space of a memory instruction (`ld`, `st`, `atom`, `red`, `tex`...), `None`
    /// for other instructions.
    pub fn state_space(&self) -> Option<StateSpace> {
        if !matches!(
            self.opcode.as_str(),
            "ld" | "st" | "atom" | "red" | "ldu" | "prefetch" | "tex" | "tld4" | "suld" | "sust"
        ) {
            return None;
        }
        if self.opcode == "tex" || self.opcode == "tld4" {
            return Some(StateSpace::Tex);
        }
        Some(
            self.modifiers
                .iter()
                .find_map(|m| StateSpace::from_modifier(m))
                .unwrap_or(StateSpace::Generic),
        )
    }

    /// The scalar types named by the modifiers, in order (`cvt.u64.u32` → `[U64, U32]`).
    pub fn types(&self) -> Vec<ScalarType> {
        self.modifiers
            .iter()
            .filter_map(|m| ScalarType::from_modifier(m))
            .collect()
    }

    /// Vector width of `.v2`/`.v4` memory instructions (1 otherwise).
    pub fn vector_width(&self) -> u32 {
        if self.has_modifier("v4") {
            4
        } else if self.has_modifier("v2") {
            2
        } else {
            1
        }
    }

    /// True for instructions that never fall through to the next one: `bra` without a
    /// guard, `ret`, `exit`.
    pub fn is_unconditional_jump_or_end(&self) -> bool {
        matches!(self.opcode.as_str(), "bra" | "ret" | "exit" | "brx") && self.guard.is_none()
    }

    /// Registers this instruction writes: by PTX convention the first operand, except for
    /// stores, branches and barriers, which write none. Vector destinations write each
    /// element, and a `%p|%q` pair both.
    pub fn destinations(&self) -> Vec<&str> {
        if matches!(
            self.opcode.as_str(),
            "st" | "bra"
                | "brx"
                | "bar"
                | "barrier"
                | "ret"
                | "exit"
                | "red"
                | "membar"
                | "fence"
                | "prefetch"
                | "sust"
                | "trap"
                | "call"
                | "pmevent"
        ) {
            return Vec::new();
        }
        match self.operands.first() {
            Some(op) => match &op.kind {
                OperandKind::Register { name } => vec![name.as_str()],
                OperandKind::Vector { elements } => {
                    elements.iter().filter_map(|e| e.register()).collect()
                }
                // `setp.lt.s32 %p|%q, ...`, `shfl.sync.up.b32 %r|%p, ...`: two destinations
                // joined by `|` (PTX ISA §9.7.3.10 `setp`, §9.7.9.6 `shfl.sync`).
                OperandKind::Other { text } if text.contains('|') => text
                    .split('|')
                    .map(str::trim)
                    .filter_map(|r| r.strip_prefix('%').map(|_| r))
                    .collect(),
                _ => Vec::new(),
            },
            None => Vec::new(),
        }
    }

    /// Registers this instruction reads (guard predicate included).
    pub fn sources(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        if let Some(g) = &self.guard {
            out.push(&g.reg);
        }
        let writes_first = !self.destinations().is_empty();
        for (i, op) in self.operands.iter().enumerate() {
            if i == 0 && writes_first {
                // A vector destination reads nothing; an address destination never happens.
                continue;
            }
            out.extend(op.registers());
        }
        out
    }
}
