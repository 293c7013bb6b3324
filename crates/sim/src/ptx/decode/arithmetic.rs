//! Decoding of the arithmetic, comparison, selection and conversion instructions
//! (PTX ISA, "Integer Arithmetic", "Floating-Point", "Comparison and Selection" and
//! "Data Movement and Conversion" instructions): their operands resolved and their modifiers checked.

use super::{check_modifiers, the_type, Ctx, R};
use crate::ptx::program::{wide, BoolOp, Cmp, Conversion, Ctl, FloatOp, IntOp, Op, Round, Src};
use isa::ptx::ScalarType;

/// `add` … `cos`: integer and floating-point arithmetic, logic and shifts, one operation
/// of the instruction's type ([`IntOp`], [`FloatOp`]).
pub(super) fn arithmetic(c: &Ctx) -> R<(Op, Ctl)> {
    let ins = c.ins;
    let m = |s: &str| ins.has_modifier(s);
    let opc = ins.opcode.as_str();
    let none = Src::Imm(0);
    let ty = the_type(c)?;
    let unary = matches!(
        opc,
        "neg"
            | "abs"
            | "not"
            | "sqrt"
            | "rsqrt"
            | "rcp"
            | "lg2"
            | "ex2"
            | "sin"
            | "cos"
            | "clz"
            | "popc"
            | "brev"
    );
    let ternary = matches!(opc, "mad" | "fma");
    let d = c.dest(0)?;
    Ok(if ty.is_float() {
        check_modifiers(c, &["rn", "rz", "rm", "rp", "ftz", "sat", "approx", "full"])?;
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
            "rsqrt" => FloatOp::Rsqrt,
            "lg2" => FloatOp::Lg2,
            "ex2" => FloatOp::Ex2,
            "sin" => FloatOp::Sin,
            "cos" => FloatOp::Cos,
            other => return Err(c.no(format!("`{other}` on floats"))),
        };
        let a = c.src(1, ty)?;
        let b = if unary { none } else { c.src(2, ty)? };
        let cc = if ternary { c.src(3, ty)? } else { none };
        let round = Round::directed(m);
        if round.is_some() && !fop.rounds_directed(ty) {
            // Directed rounding of the IEEE operations (PTX ISA, "Floating-Point
            // Instructions": `.rz`, `.rm`, `.rp` on add, sub, mul, fma): single precision
            // only here.
            return Err(
                c.no("directed rounding is simulated for add, sub, mul and fma of .f32 only")
            );
        }
        (
            Op::Float {
                op: fop,
                double: ty == ScalarType::F64,
                round,
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
            ("clz", ..) => IntOp::Clz,
            ("popc", ..) => IntOp::Popc,
            ("brev", ..) => IntOp::Brev,
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
    })
}

/// `setp.cmp{.bool}.type`: a comparison, optionally combined with a predicate.
pub(super) fn setp(c: &Ctx) -> R<(Op, Ctl)> {
    let ins = c.ins;
    let m = |s: &str| ins.has_modifier(s);
    check_modifiers(
        c,
        &[
            "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu",
            "gtu", "geu", "num", "nan", "and", "or", "xor", "ftz",
        ],
    )?;
    let ty = the_type(c)?;
    let cmp = ins
        .modifiers
        .iter()
        .find_map(|x| Cmp::from_modifier(x))
        .ok_or_else(|| c.no("no comparison"))?;
    if !ty.is_float() && !cmp.for_integers() {
        return Err(c.no("an unordered comparison of integers"));
    }
    let bop = BoolOp::from_modifiers(m);
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
    Ok((
        Op::Setp {
            cmp,
            ty,
            d: c.dest(0)?,
            a: c.src(1, ty)?,
            b: c.src(2, ty)?,
            combine,
        },
        Ctl::Next,
    ))
}

/// `selp.type d, a, b, p`.
pub(super) fn selp(c: &Ctx) -> R<(Op, Ctl)> {
    check_modifiers(c, &[])?;
    let ty = the_type(c)?;
    let (p, neg) = c.pred(3)?;
    Ok((
        Op::Selp {
            bits: ty.bits(),
            d: c.dest(0)?,
            a: c.src(1, ty)?,
            b: c.src(2, ty)?,
            p,
            neg,
        },
        Ctl::Next,
    ))
}

/// `cvt.frnd{.ftz}{.sat}.dt.st`: conversions between the scalar types.
pub(super) fn cvt(c: &Ctx) -> R<(Op, Ctl)> {
    let ins = c.ins;
    let m = |s: &str| ins.has_modifier(s);
    check_modifiers(
        c,
        &[
            "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "ftz", "sat",
        ],
    )?;
    let tys = ins.types();
    let [dt, st] = tys[..] else {
        return Err(c.no("cvt needs a destination and a source type"));
    };
    if dt == ScalarType::F16 || st == ScalarType::F16 {
        return Err(c.no("half precision is not simulated"));
    }
    if m("sat") && !dt.is_float() {
        return Err(c.no("integer saturation of cvt is not simulated"));
    }
    Ok((
        Op::Cvt {
            how: Conversion::from_modifiers(dt, st, m),
            d: c.dest(0)?,
            a: c.src(1, st)?,
        },
        Ctl::Next,
    ))
}

/// `bfe.type d, a, pos, len` (PTX ISA "Integer Arithmetic Instructions: bfe"): `.u32`,
/// `.s32`, `.u64`, `.s64`; `pos` and `len` are `.u32` operands of which the low 8 bits
/// count.
pub(super) fn bfe(c: &Ctx) -> R<(Op, Ctl)> {
    check_modifiers(c, &[])?;
    let ty = the_type(c)?;
    if !matches!(ty.bits(), 32 | 64) || ty.is_float() {
        return Err(c.no("bfe takes a 32- or 64-bit integer type"));
    }
    Ok((
        Op::Bfe {
            signed: ty.is_signed(),
            bits: ty.bits(),
            d: c.dest(0)?,
            a: c.src(1, ty)?,
            pos: c.src(2, ScalarType::U32)?,
            len: c.src(3, ScalarType::U32)?,
        },
        Ctl::Next,
    ))
}

/// `bfi.type f, a, b, pos, len` (PTX ISA "Integer Arithmetic Instructions: bfi"): `.b32`,
/// `.b64`.
pub(super) fn bfi(c: &Ctx) -> R<(Op, Ctl)> {
    check_modifiers(c, &[])?;
    let ty = the_type(c)?;
    if !matches!(ty.bits(), 32 | 64) || ty.is_float() {
        return Err(c.no("bfi takes a 32- or 64-bit type"));
    }
    Ok((
        Op::Bfi {
            bits: ty.bits(),
            d: c.dest(0)?,
            a: c.src(1, ty)?,
            b: c.src(2, ty)?,
            pos: c.src(3, ScalarType::U32)?,
            len: c.src(4, ScalarType::U32)?,
        },
        Ctl::Next,
    ))
}
