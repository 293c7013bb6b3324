//! PTX instructions decoded into the simulator's executable form: operands resolved to
//! register indices, immediates (as the bits of the instruction's type), special registers,
//! parameter offsets and shared addresses; the opcode checked against the semantics of
//! [`super::semantics`]. Anything else decodes to a "cannot simulate OPCODE: why" message,
//! which stops the run only if a warp reaches the instruction.

use super::layout::Layout;
pub(crate) use crate::bool_op::BoolOp;
pub(crate) use crate::rounding::Round;
use cfg::TimingClass;
use isa::ptx::{AddressBase, Function, Instruction, Operand, OperandKind, ScalarType, StateSpace};
use isa::Span;

/// A special register (PTX ISA §10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Special {
    Tid(usize),
    Ntid(usize),
    Ctaid(usize),
    Nctaid(usize),
    LaneId,
    WarpId,
}

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
    Global,
    Shared,
    Param,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IntOp {
    Add,
    Sub,
    MulLo,
    MulHi,
    MulWide,
    MadLo,
    MadHi,
    MadWide,
    Div,
    Rem,
    Min,
    Max,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Neg,
    Abs,
    Not,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FloatOp {
    Add,
    Sub,
    Mul,
    Div,
    Fma,
    Min,
    Max,
    Neg,
    Abs,
    Sqrt,
    Rcp,
    Lg2,
    Ex2,
    Sin,
    Cos,
}

/// `setp` comparisons (PTX ISA §9.7.6.1, Tables "integer/float comparison operators").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// Unordered forms: true when either operand is NaN.
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

/// What a `cvt` converts: to `dt` from `st`, rounded by `round` (`.rn`… to a float, or
/// `.rni`… to an integral value when `integral`), `f32` subnormals flushed (`ftz`), a float
/// result clamped to `[0, 1]` (`sat`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Conversion {
    pub dt: ScalarType,
    pub st: ScalarType,
    pub round: Option<Round>,
    pub integral: bool,
    pub ftz: bool,
    pub sat: bool,
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
    Float {
        op: FloatOp,
        double: bool,
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
    /// object in register `handle` ([`crate::texture`]'s model): `d0` gets the texel word,
    /// `d1`–`d3` (channels G, B, A of the model's one-channel texel) get 0. Float
    /// coordinates (`ctype` `.f32`) are read as floats, integer ones (`.s32`) as the index
    /// itself; `y` is 0 for `.1d`.
    Tex {
        ds: Vec<Option<u32>>,
        handle: u32,
        coords: Vec<u32>,
        float_coords: bool,
    },
}

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

type R<T> = Result<T, String>;

struct Ctx<'a> {
    ins: &'a Instruction,
    layout: &'a Layout,
    labels: &'a std::collections::BTreeMap<String, usize>,
}

impl Ctx<'_> {
    fn no(&self, why: impl std::fmt::Display) -> String {
        format!("cannot simulate {}: {why}", self.ins.mnemonic())
    }

    fn op(&self, i: usize) -> R<&Operand> {
        self.ins
            .operands
            .get(i)
            .ok_or_else(|| self.no(format!("missing operand {}", i + 1)))
    }

    fn reg_name(&self, name: &str) -> R<u32> {
        self.layout
            .registers
            .get(name)
            .copied()
            .ok_or_else(|| self.no(format!("unknown register `{name}`")))
    }

    fn dest(&self, i: usize) -> R<u32> {
        let op = self.op(i)?;
        match &op.kind {
            OperandKind::Register { name } => self.reg_name(name),
            _ => Err(self.no(format!("destination `{}` is not a register", text(op)))),
        }
    }

    /// A source; immediates become the bits of type `ty`.
    fn src(&self, i: usize, ty: ScalarType) -> R<Src> {
        let op = self.op(i)?;
        self.src_of(op, ty)
    }

    fn src_of(&self, op: &Operand, ty: ScalarType) -> R<Src> {
        Ok(match &op.kind {
            OperandKind::Register { name } => Src::Reg(self.reg_name(name)?),
            OperandKind::Int { value } => Src::Imm(if ty.is_float() {
                float_bits(*value as f64, ty)
            } else {
                *value as u64
            }),
            OperandKind::Float { value } => {
                if ty.is_float() {
                    Src::Imm(float_bits(*value, ty))
                } else {
                    return Err(self.no("a float literal as an integer operand"));
                }
            }
            OperandKind::Special { name, component } => {
                let c = match component.as_deref() {
                    Some("x") => 0,
                    Some("y") => 1,
                    Some("z") => 2,
                    _ => 3,
                };
                Src::Special(match (name.as_str(), c) {
                    ("tid", c) if c < 3 => Special::Tid(c),
                    ("ntid", c) if c < 3 => Special::Ntid(c),
                    ("ctaid", c) if c < 3 => Special::Ctaid(c),
                    ("nctaid", c) if c < 3 => Special::Nctaid(c),
                    ("laneid", 3) => Special::LaneId,
                    ("warpid", 3) => Special::WarpId,
                    _ => {
                        return Err(self.no(format!(
                            "special register `{}` is not simulated",
                            text(op)
                        )))
                    }
                })
            }
            OperandKind::Symbol { name } => match self.layout.shared.get(name) {
                Some(&a) => Src::Imm(a),
                None => {
                    return Err(self.no(format!(
                        "`{name}` is not a shared variable of this kernel (module variables and constant memory are not simulated)"
                    )))
                }
            },
            _ => return Err(self.no(format!("operand `{}` is not supported", text(op)))),
        })
    }

    fn pred(&self, i: usize) -> R<(u32, bool)> {
        let op = self.op(i)?;
        match &op.kind {
            OperandKind::Register { name } => Ok((self.reg_name(name)?, false)),
            OperandKind::Not { inner } => match &inner.kind {
                OperandKind::Register { name } => Ok((self.reg_name(name)?, true)),
                _ => Err(self.no("`!` of a non-register")),
            },
            _ => Err(self.no(format!("`{}` is not a predicate", text(op)))),
        }
    }

    fn regs_of_vector(&self, op: &Operand) -> R<Vec<Option<u32>>> {
        match &op.kind {
            OperandKind::Vector { elements } => elements
                .iter()
                .map(|e| match &e.kind {
                    OperandKind::Register { name } => self.reg_name(name).map(Some),
                    OperandKind::Sink => Ok(None),
                    _ => Err(self.no("vector element is not a register")),
                })
                .collect(),
            OperandKind::Register { name } => Ok(vec![Some(self.reg_name(name)?)]),
            _ => Err(self.no(format!("`{}` is not a register or vector", text(op)))),
        }
    }

    fn addr(&self, i: usize, space: Space) -> R<Addr> {
        let op = self.op(i)?;
        let OperandKind::Address { base, offset } = &op.kind else {
            return Err(self.no(format!("`{}` is not an address", text(op))));
        };
        Ok(match base {
            Some(AddressBase::Register(r)) if space != Space::Param => {
                Addr::Reg(self.reg_name(r)?, *offset)
            }
            Some(AddressBase::Symbol(s)) => {
                let base = match space {
                    Space::Param => self.layout.params.get(s).map(|p| p.0),
                    Space::Shared => self.layout.shared.get(s).copied(),
                    Space::Global => None,
                };
                let Some(b) = base else {
                    return Err(self.no(format!(
                        "`{s}` is not a {} variable of this kernel",
                        match space {
                            Space::Param => "parameter",
                            Space::Shared => "shared",
                            Space::Global => "simulated global",
                        }
                    )));
                };
                Addr::Abs(b.wrapping_add_signed(*offset))
            }
            None => Addr::Abs(*offset as u64),
            Some(AddressBase::Register(_)) => {
                return Err(self.no("a register address into the parameter space"))
            }
        })
    }
}

fn text(op: &Operand) -> String {
    operand_text(op)
}

fn float_bits(v: f64, ty: ScalarType) -> u64 {
    if ty == ScalarType::F64 {
        v.to_bits()
    } else {
        u64::from((v as f32).to_bits())
    }
}

/// The single type of an arithmetic instruction (the last type modifier).
fn the_type(c: &Ctx) -> R<ScalarType> {
    c.ins
        .types()
        .last()
        .copied()
        .ok_or_else(|| c.no("no type modifier"))
}

const IGNORED: [&str; 11] = [
    "ca", "cg", "cs", "lu", "cv", "nc", "wb", "wt", "volatile", "relaxed", "weak",
];

fn check_modifiers(c: &Ctx, allowed: &[&str]) -> R<()> {
    for m in &c.ins.modifiers {
        if ScalarType::from_modifier(m).is_none()
            && !allowed.contains(&m.as_str())
            && !IGNORED.contains(&m.as_str())
        {
            return Err(c.no(format!("modifier `.{m}` is not simulated")));
        }
    }
    Ok(())
}

fn decode_one(c: &Ctx) -> R<(Op, Ctl, Vec<u32>)> {
    let ins = c.ins;
    let m = |s: &str| ins.has_modifier(s);
    let opc = ins.opcode.as_str();
    let none = Src::Imm(0);
    let (op, ctl) = match opc {
        "bra" => {
            check_modifiers(c, &["uni"])?;
            let target = match c.op(0)?.kind {
                OperandKind::Symbol { ref name } => c
                    .labels
                    .get(name)
                    .copied()
                    .ok_or_else(|| c.no(format!("unknown label `{name}`")))?,
                _ => return Err(c.no("the target is not a label")),
            };
            (
                Op::Nop,
                Ctl::Branch {
                    target,
                    uniform: m("uni"),
                },
            )
        }
        "ret" | "exit" => {
            check_modifiers(c, &["uni"])?;
            (Op::Nop, Ctl::Exit)
        }
        "bar" | "barrier" => {
            check_modifiers(c, &["sync", "cta", "aligned"])?;
            if !(m("sync") || opc == "barrier") {
                return Err(c.no("only bar.sync is simulated"));
            }
            if ins.operands.len() > 1 {
                return Err(c.no("barriers with a thread count are not simulated"));
            }
            match ins.operands.first().map(|o| &o.kind) {
                None | Some(OperandKind::Int { value: 0 }) => {}
                _ => return Err(c.no("only barrier 0 is simulated")),
            }
            (Op::Barrier, Ctl::Next)
        }
        "membar" | "fence" => (Op::Nop, Ctl::Next),
        "mov" => {
            check_modifiers(c, &[])?;
            let ty = the_type(c)?;
            let bits = ty.bits();
            match (&c.op(0)?.kind, &c.op(1)?.kind) {
                (OperandKind::Vector { elements }, _) => {
                    let ds = c.regs_of_vector(c.op(0)?)?;
                    let a = c.src(1, ty)?;
                    if elements.is_empty() || bits % elements.len() as u32 != 0 {
                        return Err(c.no("vector width does not divide the type"));
                    }
                    let part_bits = bits / elements.len() as u32;
                    (Op::Unpack { ds, a, part_bits }, Ctl::Next)
                }
                (_, OperandKind::Vector { elements }) => {
                    let d = c.dest(0)?;
                    if elements.is_empty() || bits % elements.len() as u32 != 0 {
                        return Err(c.no("vector width does not divide the type"));
                    }
                    let part_bits = bits / elements.len() as u32;
                    let pty = match part_bits {
                        8 => ScalarType::B8,
                        16 => ScalarType::B16,
                        32 => ScalarType::B32,
                        _ => ScalarType::B64,
                    };
                    let parts = elements
                        .iter()
                        .map(|e| c.src_of(e, pty))
                        .collect::<R<Vec<_>>>()?;
                    (
                        Op::Pack {
                            d,
                            parts,
                            part_bits,
                        },
                        Ctl::Next,
                    )
                }
                _ => (
                    Op::Mov {
                        d: c.dest(0)?,
                        a: c.src(1, ty)?,
                        bits,
                    },
                    Ctl::Next,
                ),
            }
        }
        "cvta" => {
            check_modifiers(c, &["to", "global"])?;
            if !m("global") {
                return Err(c.no("only global addresses are simulated (identity); shared/local generic addresses are not"));
            }
            (
                Op::Mov {
                    d: c.dest(0)?,
                    a: c.src(1, ScalarType::U64)?,
                    bits: the_type(c)?.bits(),
                },
                Ctl::Next,
            )
        }
        "add" | "sub" | "mul" | "mad" | "fma" | "div" | "rem" | "min" | "max" | "and" | "or"
        | "xor" | "shl" | "shr" | "neg" | "abs" | "not" | "sqrt" | "rcp" | "lg2" | "ex2"
        | "sin" | "cos" => {
            let ty = the_type(c)?;
            let unary = matches!(
                opc,
                "neg" | "abs" | "not" | "sqrt" | "rcp" | "lg2" | "ex2" | "sin" | "cos"
            );
            let ternary = matches!(opc, "mad" | "fma");
            let d = c.dest(0)?;
            if ty.is_float() {
                check_modifiers(c, &["rn", "ftz", "sat", "approx", "full"])?;
                if ty == ScalarType::F16 {
                    return Err(c.no("half precision is not simulated"));
                }
                let fop = match opc {
                    "add" => FloatOp::Add,
                    "sub" => FloatOp::Sub,
                    "mul" => FloatOp::Mul,
                    "div" => FloatOp::Div,
                    "mad" | "fma" => FloatOp::Fma,
                    "min" => FloatOp::Min,
                    "max" => FloatOp::Max,
                    "neg" => FloatOp::Neg,
                    "abs" => FloatOp::Abs,
                    "sqrt" => FloatOp::Sqrt,
                    "rcp" => FloatOp::Rcp,
                    "lg2" => FloatOp::Lg2,
                    "ex2" => FloatOp::Ex2,
                    "sin" => FloatOp::Sin,
                    "cos" => FloatOp::Cos,
                    other => return Err(c.no(format!("`{other}` on floats"))),
                };
                let a = c.src(1, ty)?;
                let b = if unary { none } else { c.src(2, ty)? };
                let cc = if ternary { c.src(3, ty)? } else { none };
                (
                    Op::Float {
                        op: fop,
                        double: ty == ScalarType::F64,
                        ftz: m("ftz"),
                        sat: m("sat"),
                        d,
                        a,
                        b,
                        c: cc,
                    },
                    Ctl::Next,
                )
            } else {
                check_modifiers(c, &["lo", "hi", "wide"])?;
                let iop = match (opc, m("hi"), m("wide")) {
                    ("add", ..) => IntOp::Add,
                    ("sub", ..) => IntOp::Sub,
                    ("mul", true, _) => IntOp::MulHi,
                    ("mul", _, true) => IntOp::MulWide,
                    ("mul", ..) => IntOp::MulLo,
                    ("mad", true, _) => IntOp::MadHi,
                    ("mad", _, true) => IntOp::MadWide,
                    ("mad", ..) => IntOp::MadLo,
                    ("div", ..) => IntOp::Div,
                    ("rem", ..) => IntOp::Rem,
                    ("min", ..) => IntOp::Min,
                    ("max", ..) => IntOp::Max,
                    ("and", ..) => IntOp::And,
                    ("or", ..) => IntOp::Or,
                    ("xor", ..) => IntOp::Xor,
                    ("shl", ..) => IntOp::Shl,
                    ("shr", ..) => IntOp::Shr,
                    ("neg", ..) => IntOp::Neg,
                    ("abs", ..) => IntOp::Abs,
                    ("not", ..) => IntOp::Not,
                    (other, ..) => return Err(c.no(format!("`{other}` on integers"))),
                };
                let shift = matches!(iop, IntOp::Shl | IntOp::Shr);
                let a = c.src(1, ty)?;
                let b = if unary {
                    none
                } else {
                    c.src(2, if shift { ScalarType::U32 } else { ty })?
                };
                let wide_c = if matches!(iop, IntOp::MadWide) {
                    wide(ty).ok_or_else(|| c.no("mad.wide of a 64-bit type"))?
                } else {
                    ty
                };
                if matches!(iop, IntOp::MulWide) && wide(ty).is_none() {
                    return Err(c.no("mul.wide of a 64-bit type"));
                }
                let cc = if ternary { c.src(3, wide_c)? } else { none };
                (
                    Op::Int {
                        op: iop,
                        ty,
                        d,
                        a,
                        b,
                        c: cc,
                    },
                    Ctl::Next,
                )
            }
        }
        "setp" => {
            check_modifiers(
                c,
                &[
                    "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu",
                    "ltu", "leu", "gtu", "geu", "num", "nan", "and", "or", "xor", "ftz",
                ],
            )?;
            let ty = the_type(c)?;
            let cmp = ins
                .modifiers
                .iter()
                .find_map(|x| {
                    Some(match x.as_str() {
                        "eq" => Cmp::Eq,
                        "ne" => Cmp::Ne,
                        "lt" | "lo" => Cmp::Lt,
                        "le" | "ls" => Cmp::Le,
                        "gt" | "hi" => Cmp::Gt,
                        "ge" | "hs" => Cmp::Ge,
                        "equ" => Cmp::Equ,
                        "neu" => Cmp::Neu,
                        "ltu" => Cmp::Ltu,
                        "leu" => Cmp::Leu,
                        "gtu" => Cmp::Gtu,
                        "geu" => Cmp::Geu,
                        "num" => Cmp::Num,
                        "nan" => Cmp::Nan,
                        _ => return None,
                    })
                })
                .ok_or_else(|| c.no("no comparison"))?;
            if !ty.is_float() && !matches!(cmp, Cmp::Eq | Cmp::Ne | Cmp::Lt | Cmp::Le | Cmp::Gt | Cmp::Ge) {
                return Err(c.no("an unordered comparison of integers"));
            }
            let bop = if m("and") {
                Some(BoolOp::And)
            } else if m("or") {
                Some(BoolOp::Or)
            } else if m("xor") {
                Some(BoolOp::Xor)
            } else {
                None
            };
            let combine = match bop {
                Some(b) => {
                    let (p, n) = c.pred(3)?;
                    Some((b, p, n))
                }
                None => None,
            };
            if ins.operands.len() > if combine.is_some() { 4 } else { 3 } {
                return Err(c.no("too many operands"));
            }
            (
                Op::Setp {
                    cmp,
                    ty,
                    d: c.dest(0)?,
                    a: c.src(1, ty)?,
                    b: c.src(2, ty)?,
                    combine,
                },
                Ctl::Next,
            )
        }
        "selp" => {
            check_modifiers(c, &[])?;
            let ty = the_type(c)?;
            let (p, neg) = c.pred(3)?;
            (
                Op::Selp {
                    bits: ty.bits(),
                    d: c.dest(0)?,
                    a: c.src(1, ty)?,
                    b: c.src(2, ty)?,
                    p,
                    neg,
                },
                Ctl::Next,
            )
        }
        "cvt" => {
            check_modifiers(
                c,
                &["rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "ftz", "sat"],
            )?;
            let tys = ins.types();
            let [dt, st] = tys[..] else {
                return Err(c.no("cvt needs a destination and a source type"));
            };
            if dt == ScalarType::F16 || st == ScalarType::F16 {
                return Err(c.no("half precision is not simulated"));
            }
            let (round, integral) = if m("rn") {
                (Some(Round::Nearest), false)
            } else if m("rz") {
                (Some(Round::Zero), false)
            } else if m("rm") {
                (Some(Round::Down), false)
            } else if m("rp") {
                (Some(Round::Up), false)
            } else if m("rni") {
                (Some(Round::Nearest), true)
            } else if m("rzi") {
                (Some(Round::Zero), true)
            } else if m("rmi") {
                (Some(Round::Down), true)
            } else if m("rpi") {
                (Some(Round::Up), true)
            } else {
                (None, false)
            };
            if m("sat") && !dt.is_float() {
                return Err(c.no("integer saturation of cvt is not simulated"));
            }
            (
                Op::Cvt {
                    how: Conversion {
                        dt,
                        st,
                        round,
                        integral,
                        ftz: m("ftz"),
                        sat: m("sat"),
                    },
                    d: c.dest(0)?,
                    a: c.src(1, st)?,
                },
                Ctl::Next,
            )
        }
        "ld" | "st" => {
            check_modifiers(c, &["global", "shared", "param", "v2", "v4"])?;
            let space = match ins.state_space() {
                Some(StateSpace::Global | StateSpace::Generic) => Space::Global,
                Some(StateSpace::Shared) => Space::Shared,
                Some(StateSpace::Param) if opc == "ld" => Space::Param,
                Some(s) => {
                    return Err(c.no(format!("the {s:?} state space is not simulated")));
                }
                None => return Err(c.no("no state space")),
            };
            let ty = the_type(c)?;
            if ty == ScalarType::F16 || ty == ScalarType::Pred {
                return Err(c.no("this access type is not simulated"));
            }
            if opc == "ld" {
                let ds = c.regs_of_vector(c.op(0)?)?;
                if ds.len() as u32 != ins.vector_width() {
                    return Err(c.no("vector width and operand count differ"));
                }
                (
                    Op::Load {
                        space,
                        ty,
                        ds,
                        addr: c.addr(1, space)?,
                    },
                    Ctl::Next,
                )
            } else {
                let v = c.op(1)?;
                let vs = match &v.kind {
                    OperandKind::Vector { elements } => elements
                        .iter()
                        .map(|e| c.src_of(e, ty))
                        .collect::<R<Vec<_>>>()?,
                    _ => vec![c.src(1, ty)?],
                };
                if vs.len() as u32 != ins.vector_width() {
                    return Err(c.no("vector width and operand count differ"));
                }
                (
                    Op::Store {
                        space,
                        ty,
                        vs,
                        addr: c.addr(0, space)?,
                    },
                    Ctl::Next,
                )
            }
        }
        "tex" => (texture_fetch(c)?, Ctl::Next),
        other => {
            return Err(c.no(format!(
                "`{other}` has no semantics in the simulator (supported: mov, arithmetic, logic, setp, selp, cvt, cvta, ld/st .global/.shared/.param, tex.1d/.2d with a texture object, bra, ret, exit, bar.sync)"
            )))
        }
    };
    let writes = match &op {
        Op::Mov { d, .. }
        | Op::Pack { d, .. }
        | Op::Int { d, .. }
        | Op::Float { d, .. }
        | Op::Setp { d, .. }
        | Op::Selp { d, .. }
        | Op::Cvt { d, .. } => vec![*d],
        Op::Unpack { ds, .. } | Op::Load { ds, .. } | Op::Tex { ds, .. } => {
            ds.iter().flatten().copied().collect()
        }
        _ => Vec::new(),
    };
    Ok((op, ctl, writes))
}

/// Decodes `tex` under the texture model of [`crate::texture`]: a 1D or 2D fetch through a
/// texture object held in a register (`[%rd4, {%f3, %f1}]`, which the parser keeps as
/// text). Texture references (a `.texref` variable's name as the handle), other shapes,
/// explicit levels and gradients are refused by name.
fn texture_fetch(c: &Ctx) -> R<Op> {
    let ins = c.ins;
    check_modifiers(c, &["1d", "2d", "v4"])?;
    let dims = if ins.has_modifier("2d") {
        2
    } else if ins.has_modifier("1d") {
        1
    } else {
        return Err(c.no("only .1d and .2d fetches are modelled (sim::texture)"));
    };
    let float_coords = match ins.types().last() {
        Some(ScalarType::F32) => true,
        Some(ScalarType::S32) => false,
        _ => return Err(c.no("the coordinate type must be .f32 or .s32")),
    };
    let ds = c.regs_of_vector(c.op(0)?)?;
    if ds.len() != 4 || ins.operands.len() != 2 {
        return Err(c.no("expected a four-register destination and `[handle, {coordinates}]`"));
    }
    let op = c.op(1)?;
    let text = text(op);
    let inner = text
        .trim()
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| c.no(format!("`{text}` is not `[handle, {{coordinates}}]`")))?;
    let (handle, coords) = inner
        .split_once(',')
        .ok_or_else(|| c.no(format!("`{text}` is not `[handle, {{coordinates}}]`")))?;
    let handle = handle.trim();
    if !handle.starts_with('%') {
        return Err(c.no(format!(
            "`{handle}` is a texture reference: the texture model (sim::texture) binds texture objects (a handle in a register), not `.texref` variables"
        )));
    }
    let coords = coords
        .trim()
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .ok_or_else(|| {
            c.no(format!(
                "`{text}`: the coordinates must be a vector `{{x, y}}`"
            ))
        })?
        .split(',')
        .map(|r| c.reg_name(r.trim()))
        .collect::<R<Vec<u32>>>()?;
    if coords.len() != dims {
        return Err(c.no(format!("a .{dims}d fetch takes {dims} coordinate(s)")));
    }
    Ok(Op::Tex {
        ds,
        handle: c.reg_name(handle)?,
        coords,
        float_coords,
    })
}

/// The type twice as wide (`mul.wide`, `mad.wide`).
pub(crate) fn wide(t: ScalarType) -> Option<ScalarType> {
    use ScalarType as T;
    Some(match t {
        T::U16 => T::U32,
        T::S16 => T::S32,
        T::U32 => T::U64,
        T::S32 => T::S64,
        T::B16 => T::B32,
        T::B32 => T::B64,
        _ => return None,
    })
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
                    reads.push(*handle);
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
fn operand_text(op: &Operand) -> String {
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
