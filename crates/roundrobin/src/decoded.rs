//! Every instruction of a function resolved once, before any warp runs, into what the
//! analyzer's executor ([`crate::semantics`]) and its warp loop ([`crate::analyzer`]) need:
//! the operation with its type and modifiers decided, register numbers instead of names,
//! special registers as an enum, parameter loads as their constant values, and the
//! instruction's role for control flow and global memory.
//!
//! Why: Alg. 4 runs every instruction once per step of every warp and per thread, so what
//! the text of an instruction says must not be looked up there (opcode and modifier string
//! comparisons, register names in ordered maps, parameter bytes by name, a `Vec` per thread
//! for its writes). Resolving it here changes no value: each field is what the executor used
//! to compute from the instruction on every step (`semantics` keeps the same rules, arm for
//! arm).

use crate::semantics::{ParamMemory, Val};
use caches::AccessKind;
use isa::ptx::semantics::{BoolOp, Cmp, Conversion, FloatOp, IntOp, Round};
use isa::ptx::special_registers::Special;
use isa::ptx::{AddressBase, Function, Instruction, OperandKind, ScalarType, StateSpace};
use isa::Span;
use std::collections::BTreeMap;

/// Dense numbering of the virtual registers a function uses.
#[derive(Debug, Clone, Default)]
pub(crate) struct RegIndex {
    map: BTreeMap<String, usize>,
}

impl RegIndex {
    pub fn of(f: &Function) -> Self {
        let mut map = BTreeMap::new();
        for ins in &f.instructions {
            let names = ins
                .destinations()
                .into_iter()
                .chain(ins.sources())
                .map(str::to_string);
            for n in names {
                let k = map.len();
                map.entry(n).or_insert(k);
            }
        }
        RegIndex { map }
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn id(&self, name: &str) -> Option<usize> {
        self.map.get(name).copied()
    }
}

/// Where a source operand's value comes from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Src {
    Reg(usize),
    Special(Special),
    Int(i64),
    Float(f64),
    /// `!%p`.
    Not(Box<Src>),
    /// Anything the executor does not read (a register no instruction names, an address, a
    /// label, a missing operand): unknown.
    Unknown,
}

impl Src {
    fn of(kind: &OperandKind, ri: &RegIndex) -> Src {
        match kind {
            OperandKind::Register { name } => ri.id(name).map_or(Src::Unknown, Src::Reg),
            OperandKind::Special { name, component } => {
                Special::of(name, component.as_deref()).map_or(Src::Unknown, Src::Special)
            }
            OperandKind::Int { value } => Src::Int(*value),
            OperandKind::Float { value } => Src::Float(*value),
            OperandKind::Not { inner } => Src::Not(Box::new(Src::of(&inner.kind, ri))),
            _ => Src::Unknown,
        }
    }
}

/// What an instruction does to one thread's registers, with its type and modifiers decided.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Op {
    /// No destination register: nothing is written.
    Nothing,
    /// `mov.b64 {lo, hi}, %fd`: `(element index, register)` of each register element and
    /// the element width.
    Unpack {
        elements: Vec<(usize, usize)>,
        width: u32,
    },
    /// `mov.b64 %fd, {lo, hi}`: the elements, read with `element_type`, `width` bits each.
    Pack {
        elements: Vec<Src>,
        width: u32,
        element_type: ScalarType,
    },
    Mov,
    /// An integer operation of the instruction's type, given as its width and signedness,
    /// and the type each of operands 1, 2, 3 is read with ([`IntOp::source_type`]; `None`:
    /// not read).
    Int {
        op: IntOp,
        width: (u32, bool),
        reads: [Option<ScalarType>; 3],
    },
    /// A floating-point operation of `f32` or `f64`: `.ftz`, `.sat`, and the direction of
    /// `.rz`/`.rm`/`.rp` (`None`: to nearest).
    Float {
        op: FloatOp,
        ftz: bool,
        sat: bool,
        round: Option<Round>,
    },
    Cvta,
    Cvt(Conversion),
    Setp {
        cmp: Cmp,
        with: Option<BoolOp>,
    },
    Selp,
    /// Writes known before any thread runs (`ld.param`, and `cvt`/`setp` forms whose result
    /// is always unknown): the same for every thread.
    Constant(Vec<(usize, Val)>),
    /// Every destination becomes unknown (loads from memory, unmodelled instructions).
    Unknown,
}

/// A global access's address operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Address {
    /// `[%r+offset]`: the register (`None`: one no instruction names) and the offset.
    Register(Option<usize>, i64),
    /// `[offset]`.
    Fixed(i64),
    /// `[var+offset]` or anything else: an address the analyzer does not know.
    Named,
}

/// A global load or store: what the analyzer records of it (`global_access` of Alg. 4
/// lines 13–17).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Access {
    pub kind: AccessKind,
    /// Bytes each thread accesses (element type width × vector width).
    pub bytes: u32,
    pub address: Address,
    /// The address operand's span (the instruction's when it has none).
    pub span: Span,
}

/// How an instruction steers the warp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Control {
    Branch,
    /// `ret` or `exit`.
    Exit,
    None,
}

/// What the executor needs of an instruction, computed once per function instead of once
/// per thread and step.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Decoded {
    pub op: Op,
    /// The instruction's type: its last type modifier, `b32` without one.
    pub ty: ScalarType,
    pub dests: Vec<usize>,
    /// The register of an operation that writes one value, its first destination
    /// ([`crate::semantics::value`]; `None` for the others, which go through
    /// [`crate::semantics::execute`]).
    pub single: Option<usize>,
    /// Each operand as a source.
    pub srcs: Vec<Src>,
    pub guard: Option<usize>,
    pub control: Control,
    pub access: Option<Access>,
}

/// Which global accesses the analyzer records: `ld`/`st`/`atom`/`red` in the global space
/// (or with a generic address, treated as global), and which operand holds the address.
pub(crate) fn global_access(ins: &Instruction) -> Option<(AccessKind, usize)> {
    let space = ins.state_space()?;
    if !matches!(space, StateSpace::Global | StateSpace::Generic) {
        return None;
    }
    match ins.opcode.as_str() {
        "ld" | "ldu" => Some((AccessKind::Load, 1)),
        "st" => Some((AccessKind::Store, 0)),
        "atom" => Some((AccessKind::Store, 1)),
        "red" => Some((AccessKind::Store, 0)),
        _ => None,
    }
}

/// Decodes every instruction of `f` (parameter loads read `params`).
pub(crate) fn decode(f: &Function, ri: &RegIndex, params: &ParamMemory) -> Vec<Decoded> {
    f.instructions
        .iter()
        .map(|ins| {
            let types = ins.types();
            let ty = types.last().copied().unwrap_or(ScalarType::B32);
            let dests: Vec<usize> = ins.destinations().iter().filter_map(|d| ri.id(d)).collect();
            let op = if dests.is_empty() {
                Op::Nothing
            } else {
                operation(ins, &types, ty, &dests, ri, params)
            };
            let single = match op {
                Op::Nothing | Op::Constant(_) | Op::Unknown | Op::Unpack { .. } => None,
                _ => dests.first().copied(),
            };
            Decoded {
                op,
                single,
                ty,
                srcs: ins.operands.iter().map(|o| Src::of(&o.kind, ri)).collect(),
                guard: ins.guard.as_ref().and_then(|g| ri.id(&g.reg)),
                control: match ins.opcode.as_str() {
                    "bra" => Control::Branch,
                    "ret" | "exit" => Control::Exit,
                    _ => Control::None,
                },
                access: access(ins, ri),
                dests,
            }
        })
        .collect()
}

fn access(ins: &Instruction, ri: &RegIndex) -> Option<Access> {
    let (kind, k) = global_access(ins)?;
    let elem = ins.types().last().map(|t| t.bytes()).unwrap_or(4);
    let operand = ins.operands.get(k);
    let address = match operand.map(|o| &o.kind) {
        Some(OperandKind::Address {
            base: Some(AddressBase::Register(r)),
            offset,
        }) => Address::Register(ri.id(r), *offset),
        Some(OperandKind::Address { base: None, offset }) => Address::Fixed(*offset),
        _ => Address::Named,
    };
    Some(Access {
        kind,
        bytes: elem * ins.vector_width(),
        address,
        span: operand.map(|o| o.span).unwrap_or(ins.span),
    })
}

/// The element type of `width` bits (`b<width>`), or `ty` when there is none.
fn bits_type(width: u32, ty: ScalarType) -> ScalarType {
    ScalarType::from_modifier(&format!("b{width}")).unwrap_or(ty)
}

/// The operation of an instruction that writes registers; the arms and their order are the
/// executor's rules (`semantics::execute`). What the analyzer does not evaluate — a float of
/// another width than `f32` and `f64`, a comparison the ISA does not define on the type,
/// directed rounding other than `add/sub/mul/fma.f32`'s — writes an unknown value.
fn operation(
    ins: &Instruction,
    types: &[ScalarType],
    ty: ScalarType,
    dests: &[usize],
    ri: &RegIndex,
    params: &ParamMemory,
) -> Op {
    let float = ty.is_float();
    let bits = ty.bits();
    let m = |s: &str| ins.has_modifier(s);
    let first = || {
        dests
            .first()
            .map(|&id| vec![(id, None)])
            .unwrap_or_default()
    };
    let int = |op: IntOp| Op::Int {
        op,
        width: (bits, ty.is_signed()),
        reads: std::array::from_fn(|k| (k < op.sources()).then(|| op.source_type(k, ty))),
    };
    let flt = |op: FloatOp| {
        let round = Round::directed(m);
        if !evaluated_float(ty) || (round.is_some() && !op.rounds_directed(ty)) {
            return Op::Constant(first());
        }
        Op::Float {
            op,
            ftz: m("ftz"),
            sat: m("sat"),
            round,
        }
    };
    match ins.opcode.as_str() {
        "mov" => {
            if let Some(OperandKind::Vector { elements }) = ins.operands.first().map(|o| &o.kind) {
                let n = elements.len().max(1) as u32;
                return Op::Unpack {
                    elements: elements
                        .iter()
                        .enumerate()
                        .filter_map(|(k, e)| Some((k, ri.id(e.register()?)?)))
                        .collect(),
                    width: bits / n,
                };
            }
            if let Some(OperandKind::Vector { elements }) = ins.operands.get(1).map(|o| &o.kind) {
                let n = elements.len().max(1) as u32;
                let width = bits / n;
                return Op::Pack {
                    elements: elements.iter().map(|e| Src::of(&e.kind, ri)).collect(),
                    width,
                    element_type: bits_type(width, ty),
                };
            }
            Op::Mov
        }
        "add" if float => flt(FloatOp::Add),
        "sub" if float => flt(FloatOp::Sub),
        "mul" if float => flt(FloatOp::Mul),
        "div" if float => flt(FloatOp::Div),
        "min" if float => flt(FloatOp::Min),
        "max" if float => flt(FloatOp::Max),
        "add" => int(IntOp::Add),
        "sub" => int(IntOp::Sub),
        "mul" | "mad" if !float => {
            let mad = ins.opcode == "mad";
            int(match (m("wide"), m("hi"), mad) {
                (true, _, false) => IntOp::MulWide,
                (true, _, true) => IntOp::MadWide,
                (_, true, false) => IntOp::MulHi,
                (_, true, true) => IntOp::MadHi,
                (_, _, false) => IntOp::MulLo,
                (_, _, true) => IntOp::MadLo,
            })
        }
        "mad" | "fma" if float => flt(FloatOp::Fma),
        "div" => int(IntOp::Div),
        "rem" => int(IntOp::Rem),
        "min" => int(IntOp::Min),
        "max" => int(IntOp::Max),
        "abs" if float => flt(FloatOp::Abs),
        "neg" if float => flt(FloatOp::Neg),
        "abs" => int(IntOp::Abs),
        "neg" => int(IntOp::Neg),
        "and" => int(IntOp::And),
        "or" => int(IntOp::Or),
        "xor" => int(IntOp::Xor),
        "not" => int(IntOp::Not),
        "cnot" => int(IntOp::Cnot),
        "shl" => int(IntOp::Shl),
        "shr" => int(IntOp::Shr),
        "cvta" => Op::Cvta,
        "cvt" => match (types.first(), types.get(1)) {
            (Some(&to), Some(&from))
                if [to, from]
                    .iter()
                    .all(|t| !t.is_float() || evaluated_float(*t)) =>
            {
                Op::Cvt(Conversion::from_modifiers(to, from, m))
            }
            _ => Op::Constant(first()),
        },
        "setp" => match Cmp::MODIFIERS.iter().find(|(name, _)| m(name)) {
            // `lo`, `ls`, `hi`, `hs` are unsigned integer comparisons, the unordered ones
            // float comparisons (PTX ISA §9.7.6.1).
            Some(&(name, cmp))
                if (if float {
                    evaluated_float(ty) && !matches!(name, "lo" | "ls" | "hi" | "hs")
                } else {
                    cmp.for_integers()
                }) =>
            {
                Op::Setp {
                    cmp,
                    with: BoolOp::from_modifiers(m),
                }
            }
            _ => Op::Constant(first()),
        },
        "selp" => Op::Selp,
        "rcp" if float => flt(FloatOp::Rcp),
        "sqrt" if float => flt(FloatOp::Sqrt),
        "ld" if ins.has_modifier("param") => Op::Constant(param_load(ins, ty, dests, ri, params)),
        _ => Op::Unknown,
    }
}

/// The float types the analyzer evaluates: `f32` and `f64` (not `f16`).
fn evaluated_float(ty: ScalarType) -> bool {
    matches!(ty, ScalarType::F32 | ScalarType::F64)
}

/// The writes of `ld.param`: the parameter's bytes, the same for every thread.
fn param_load(
    ins: &Instruction,
    ty: ScalarType,
    dests: &[usize],
    ri: &RegIndex,
    params: &ParamMemory,
) -> Vec<(usize, Val)> {
    let size = ty.bytes();
    let write_one = |v: Val| dests.first().map(|&id| vec![(id, v)]).unwrap_or_default();
    match ins.operands.get(1).map(|o| &o.kind) {
        Some(OperandKind::Address {
            base: Some(AddressBase::Symbol(name)),
            offset,
        }) => {
            if let Some(OperandKind::Vector { elements }) = ins.operands.first().map(|o| &o.kind) {
                return elements
                    .iter()
                    .enumerate()
                    .filter_map(|(k, e)| {
                        let id = ri.id(e.register()?)?;
                        let off = offset.checked_add((k as i64) * size as i64)?;
                        Some((id, params.read(name, off, size)))
                    })
                    .collect();
            }
            write_one(params.read(name, *offset, size))
        }
        _ => write_one(None),
    }
}
