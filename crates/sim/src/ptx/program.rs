//! The simulator's executable form of PTX instructions ([`Op`], [`Ctl`], [`Exec`]) and
//! [`decode`], which turns a function's instructions into it ([`super::decode`] reads each
//! instruction); the timing class of each instruction.

use super::decode::{decode_one, Ctx};
use super::layout::Layout;
pub(crate) use crate::bool_op::BoolOp;
pub(crate) use crate::rounding::Round;
use cfg::TimingClass;
/// What the operations compute: the one PTX semantics ([`isa::ptx::semantics`]).
pub(crate) use isa::ptx::semantics::{wide, Cmp, Conversion, FloatOp, IntOp};
use isa::ptx::{AddressBase, Function, Instruction, Operand, OperandKind, ScalarType, StateSpace};
use isa::Span;

/// A special register (PTX ISA §10): the simulator reads `%tid`, `%ntid`, `%ctaid`,
/// `%nctaid`, `%laneid` and `%warpid` (`decode` refuses the others).
pub(crate) use isa::ptx::special_registers::Special;

/// A source operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Src {
    Reg(u32),
    /// Raw bits of an immediate in the instruction's type.
    Imm(u64),
    Special(Special),
}

/// A resolved address: a register's value plus an offset, or an absolute address (a
/// parameter offset, a shared variable).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Addr {
    Reg(u32, i64),
    Abs(u64),
}

/// Memory the simulator models.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Space {
    /// Global memory, and generic addresses (which reach a thread's local window when they
    /// fall in its generic range, [`super::layout::GENERIC_LOCAL_BASE`]).
    Global,
    Shared,
    Param,
    /// The constant space: module `.const` variables, placed in global memory like `.global`
    /// ones ([`super::layout`]), read at the constant class latency without transactions.
    Const,
    /// Each thread's local window (`.local` variables, the local depot).
    Local,
}

/// The data effect of one instruction.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Op {
    Nop,
    Barrier,
    Mov {
        d: u32,
        a: Src,
        bits: u32,
    },
    /// `mov.b64 {lo, hi}, %fd` (or `.b32` into halves): `None` is the sink `_`.
    Unpack {
        ds: Vec<Option<u32>>,
        a: Src,
        part_bits: u32,
    },
    /// `mov.b64 %fd, {lo, hi}`.
    Pack {
        d: u32,
        parts: Vec<Src>,
        part_bits: u32,
    },
    Int {
        op: IntOp,
        ty: ScalarType,
        d: u32,
        a: Src,
        b: Src,
        c: Src,
    },
    /// A float operation; `round`: the direction of `add/sub/mul/fma.{rz,rm,rp}.f32`
    /// (`None`: to nearest).
    Float {
        op: FloatOp,
        double: bool,
        round: Option<Round>,
        ftz: bool,
        sat: bool,
        d: u32,
        a: Src,
        b: Src,
        c: Src,
    },
    Setp {
        cmp: Cmp,
        ty: ScalarType,
        d: u32,
        a: Src,
        b: Src,
        combine: Option<(BoolOp, u32, bool)>,
    },
    Selp {
        bits: u32,
        d: u32,
        a: Src,
        b: Src,
        p: u32,
        neg: bool,
    },
    /// `cvt.frnd{.ftz}{.sat}.dt.st d, a`.
    Cvt {
        how: Conversion,
        d: u32,
        a: Src,
    },
    Load {
        space: Space,
        ty: ScalarType,
        ds: Vec<Option<u32>>,
        addr: Addr,
    },
    Store {
        space: Space,
        ty: ScalarType,
        vs: Vec<Src>,
        addr: Addr,
    },
    /// `tex.{1d,2d}.v4.dtype.ctype {d0, d1, d2, d3}, [handle, {x[, y]}]` with a texture
    /// object in a register or a texture reference ([`crate::texture`]'s model): `d0` gets
    /// the texel word, `d1`–`d3` (channels G, B, A of the model's one-channel texel) get 0.
    /// Float coordinates (`ctype` `.f32`) are read as floats, integer ones (`.s32`) as the
    /// index itself; `y` is 0 for `.1d`.
    Tex {
        ds: Vec<Option<u32>>,
        handle: TexHandle,
        coords: Vec<u32>,
        float_coords: bool,
    },
    /// `bfe.type d, a, pos, len` (PTX ISA, "Integer Arithmetic
    /// Instructions: bfe").
    Bfe {
        signed: bool,
        bits: u32,
        d: u32,
        a: Src,
        pos: Src,
        len: Src,
    },
    /// `bfi.type f, a, b, pos, len` (PTX ISA "bfi"): `a`'s low `len` bits into `b` at `pos`.
    Bfi {
        bits: u32,
        d: u32,
        a: Src,
        b: Src,
        pos: Src,
        len: Src,
    },
    /// `atom{.space}.op.type d, [addr], b{, c}` (and `red`, without `d`): per lane in lane
    /// order, the old value to `d` and `op(old, b, c)` to memory ([`super::atomics`]).
    Atom {
        space: Space,
        op: AtomOp,
        ty: ScalarType,
        d: Option<u32>,
        addr: Addr,
        b: Src,
        c: Src,
    },
}

/// The handle of a `tex` fetch: a texture object in a register, or a `.texref` variable
/// (its address, [`super::layout`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TexHandle {
    Reg(u32),
    Reference(u64),
}

pub(crate) use crate::atomic_op::AtomOp;

/// The control effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ctl {
    Next,
    Branch { target: usize, uniform: bool },
    Exit,
}

/// One decoded instruction.
#[derive(Debug, Clone)]
pub(crate) struct Exec {
    pub op: Op,
    pub ctl: Ctl,
    /// Guard register and negation.
    pub guard: Option<(u32, bool)>,
    pub reads: Vec<u32>,
    pub writes: Vec<u32>,
}

impl Exec {
    /// The virtual registers the instruction reads or writes.
    #[inline(always)]
    pub(crate) fn slots(&self) -> impl Iterator<Item = usize> + '_ {
        self.reads.iter().chain(&self.writes).map(|&r| r as usize)
    }
}

/// Static facts of an instruction, decodable or not.
#[derive(Debug, Clone)]
pub(crate) struct Decoded {
    pub exec: Result<Exec, String>,
    pub class: TimingClass,
    pub span: Span,
    pub text: String,
}

/// The timing class of a PTX instruction: memory by state space, `f64` arithmetic on the
/// double-precision units, transcendental approximations on the SFUs, control flow and
/// barriers as control.
pub(crate) fn class_of(ins: &Instruction) -> TimingClass {
    if let Some(s) = ins.state_space() {
        return match s {
            StateSpace::Shared => TimingClass::Shared,
            StateSpace::Local => TimingClass::Local,
            StateSpace::Param | StateSpace::Const => TimingClass::Constant,
            StateSpace::Tex => TimingClass::Texture,
            StateSpace::Global | StateSpace::Generic => TimingClass::Global,
        };
    }
    match ins.opcode.as_str() {
        "bra" | "brx" | "ret" | "exit" | "bar" | "barrier" | "call" => TimingClass::Control,
        "sqrt" | "rcp" | "lg2" | "ex2" | "sin" | "cos" | "rsqrt" | "tanh" => TimingClass::Sfu,
        _ if ins.has_modifier("f64") && ins.opcode != "mov" && ins.opcode != "ld" => {
            TimingClass::DoublePrecision
        }
        _ => TimingClass::Alu,
    }
}

/// Decodes every instruction of `f`.
pub(crate) fn decode(f: &Function, layout: &Layout) -> Vec<Decoded> {
    f.instructions
        .iter()
        .map(|ins| {
            let c = Ctx {
                ins,
                layout,
                labels: &f.labels,
            };
            let exec = decode_one(&c).and_then(|(op, ctl, writes)| {
                let guard = match &ins.guard {
                    Some(g) => Some((c.reg_name(&g.reg)?, g.negated)),
                    None => None,
                };
                let mut reads: Vec<u32> = ins
                    .sources()
                    .iter()
                    .filter_map(|n| layout.registers.get(*n).copied())
                    .collect();
                // The texture operand is text to the parser: its registers are the op's.
                if let Op::Tex { handle, coords, .. } = &op {
                    if let TexHandle::Reg(h) = handle {
                        reads.push(*h);
                    }
                    reads.extend(coords);
                }
                Ok(Exec {
                    op,
                    ctl,
                    guard,
                    reads,
                    writes,
                })
            });
            Decoded {
                exec,
                class: class_of(ins),
                span: ins.span,
                // The guard too (`@%p1 bra DONE`): a branch without it reads as taken by all.
                text: guard_text(ins.guard.as_ref())
                    + &ins.mnemonic()
                    + " "
                    + &ins
                        .operands
                        .iter()
                        .map(operand_text)
                        .collect::<Vec<_>>()
                        .join(", "),
            }
        })
        .collect()
}

/// A guard as PTX writes it before the opcode (`@%p1 `, `@!%p1 `); empty without one.
fn guard_text(guard: Option<&isa::ptx::Guard>) -> String {
    match guard {
        Some(g) => format!("@{}{} ", if g.negated { "!" } else { "" }, g.reg),
        None => String::new(),
    }
}

/// An operand as PTX text, for the stepper.
pub(crate) fn operand_text(op: &Operand) -> String {
    match &op.kind {
        OperandKind::Register { name } => name.clone(),
        OperandKind::Special { name, component } => match component {
            Some(c) => format!("%{name}.{c}"),
            None => format!("%{name}"),
        },
        OperandKind::Int { value } => value.to_string(),
        OperandKind::Float { value } => format!("{value}"),
        OperandKind::Symbol { name } => name.clone(),
        OperandKind::Address { base, offset } => {
            let b = match base {
                Some(AddressBase::Register(r)) | Some(AddressBase::Symbol(r)) => r.clone(),
                None => String::new(),
            };
            match (b.is_empty(), *offset) {
                (true, o) => format!("[{o}]"),
                (false, 0) => format!("[{b}]"),
                (false, o) if o < 0 => format!("[{b}{o}]"),
                (false, o) => format!("[{b}+{o}]"),
            }
        }
        OperandKind::Vector { elements } => format!(
            "{{{}}}",
            elements
                .iter()
                .map(operand_text)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        OperandKind::List { elements } => format!(
            "({})",
            elements
                .iter()
                .map(operand_text)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        OperandKind::Sink => "_".into(),
        OperandKind::Not { inner } => format!("!{}", operand_text(inner)),
        OperandKind::Other { text } => text.clone(),
    }
}
