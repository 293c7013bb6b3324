//! From IR instructions to the simulator's executable form: operands resolved (constant-bank
//! words read from the launch, registers numbered), opcode and modifiers checked against
//! the semantics [`super::semantics`] implements. Anything else is a located
//! "cannot simulate" diagnostic — never a guess. Decoding happens once per run; an
//! instruction that fails to decode only stops the run if a warp reaches it.

use crate::launch::{ConstantLayout, Launch};
use isa::{ControlKind, Immediate, Instruction, Kernel, Operand, OperandKind, Register, Span};

pub(crate) use super::executable::*;

mod kepler_pascal;
mod texture;

type DecodeResult<T> = Result<T, (Span, String)>;

struct Ctx<'a> {
    ins: &'a Instruction,
    launch: &'a Launch,
    layout: ConstantLayout,
    /// Volta or later (sm_70+): the `IMAD`/`IADD3`/`LOP3`… forms with predicate carries.
    volta: bool,
    /// Row of `UR0` in the register file (uniform registers follow the general ones).
    ubase: u16,
}

/// The register file of `kernel`'s warps: the row of `UR0` (4 past the highest general
/// register, so that pairs and quads fit) and the number of rows (64 more when the kernel
/// uses uniform registers).
pub(crate) fn register_file(kernel: &Kernel) -> (u16, usize) {
    let regs = || {
        kernel
            .instructions
            .iter()
            .flat_map(|i| i.reads.iter().chain(&i.writes))
    };
    let ubase = regs()
        .filter_map(|r| match r {
            Register::Gpr(n) => Some((*n as usize).min(251) + 4),
            _ => None,
        })
        .max()
        .unwrap_or(4);
    let uniform = regs().any(|r| matches!(r, Register::Uniform(_)))
        || kernel
            .instructions
            .iter()
            .any(|i| i.operands.iter().any(|o| o.text.contains("UR")));
    (ubase as u16, ubase + if uniform { 64 } else { 0 })
}

fn cannot(ins: &Instruction, why: &str) -> (Span, String) {
    let name = if ins.opcode.modifiers.is_empty() {
        ins.opcode.name.clone()
    } else {
        format!("{}.{}", ins.opcode.name, ins.opcode.modifiers.join("."))
    };
    (ins.span, format!("cannot simulate {name}: {why}"))
}

fn gpr(op: &Operand, ins: &Instruction) -> DecodeResult<u16> {
    match op.register() {
        Some(Register::Gpr(n)) if *n < 252 => Ok(*n as u16),
        Some(Register::Gpr(n)) => {
            Err((op.span, format!("register R{n} is out of range (R0..R251)")))
        }
        _ => Err(cannot(
            ins,
            &format!("`{}` is not a general register", op.text),
        )),
    }
}

/// A uniform register's row: `URn` is `ubase + n`.
fn uniform_row(op: &Operand, n: u32, ubase: u16) -> DecodeResult<u16> {
    if n < 63 {
        Ok(ubase + n as u16)
    } else {
        Err((
            op.span,
            format!("register UR{n} is out of range (UR0..UR62)"),
        ))
    }
}

/// Destination index meaning "discard" (`RZ`).
pub(crate) const RZ_DEST: u16 = u16::MAX;

fn check_suffixes(op: &Operand, ins: &Instruction, allowed: &[&str]) -> DecodeResult<()> {
    for s in &op.suffixes {
        if !allowed.contains(&s.as_str()) {
            return Err(cannot(
                ins,
                &format!("operand suffix `.{s}` of `{}`", op.text),
            ));
        }
    }
    Ok(())
}

fn special(name: &str) -> Option<Special> {
    match name {
        "SR_LTMASK" => return Some(Special::LtMask),
        "SR_CGACTAID" => return Some(Special::CgaCtaId),
        _ => {}
    }
    let n = name.replace('_', ".");
    let axis = |s: &str| match s {
        "X" => Some(0),
        "Y" => Some(1),
        "Z" => Some(2),
        _ => None,
    };
    if let Some(a) = n.strip_prefix("SR.TID.") {
        return axis(a).map(Special::Tid);
    }
    if let Some(a) = n.strip_prefix("SR.CTAID.") {
        return axis(a).map(Special::Ctaid);
    }
    (n == "SR.LANEID").then_some(Special::LaneId)
}

impl Ctx<'_> {
    /// A destination register (general or uniform); `RZ`/`URZ` discard.
    fn dest(&self, op: Option<&Operand>) -> DecodeResult<u16> {
        let ins = self.ins;
        let Some(op) = op else {
            return Err(cannot(ins, "missing destination operand"));
        };
        match op.register() {
            Some(Register::Zero) => return Ok(RZ_DEST),
            Some(Register::Uniform(n)) => {
                check_suffixes(op, ins, &["reuse"])?;
                return uniform_row(op, *n, self.ubase);
            }
            _ => {}
        }
        check_suffixes(op, ins, &["reuse", "CC"])?;
        gpr(op, ins)
    }

    fn src(&self, op: Option<&Operand>) -> DecodeResult<Src> {
        let ins = self.ins;
        let Some(op) = op else {
            return Err(cannot(ins, "missing source operand"));
        };
        let mut half = Half::Whole;
        for s in &op.suffixes {
            match s.as_str() {
                "reuse" => {}
                "H0" => half = Half::H0,
                "H1" => half = Half::H1,
                _ => {
                    return Err(cannot(
                        ins,
                        &format!("operand suffix `.{s}` of `{}`", op.text),
                    ))
                }
            }
        }
        let mut float_imm = None;
        let kind = match &op.kind {
            OperandKind::Register { reg } => match reg {
                Register::Gpr(_) => SrcKind::Reg(gpr(op, ins)?),
                Register::Uniform(n) => SrcKind::Reg(uniform_row(op, *n, self.ubase)?),
                Register::Zero => SrcKind::Zero,
                Register::Special(s) => match special(s) {
                    Some(sr) => SrcKind::Special(sr),
                    None => return Err(cannot(ins, &format!("special register {s}"))),
                },
                _ => return Err(cannot(ins, &format!("operand `{}`", op.text))),
            },
            OperandKind::Immediate { value } => match value {
                Immediate::Int(v) => SrcKind::Value(*v as u32, Some((*v >> 32) as u32)),
                Immediate::Float(f) => {
                    float_imm = Some(*f);
                    let bits = (*f as f32).to_bits();
                    SrcKind::Value(bits, None)
                }
                Immediate::Symbol(s) => {
                    return Err(cannot(
                        ins,
                        &format!("relocation `{s}` has no value before linking"),
                    ))
                }
            },
            OperandKind::Constant { bank, address } => {
                let fixed = address.base.as_ref().is_none_or(|b| *b == Register::Zero);
                let fermi_sp = self.layout.fermi_stack
                    && (*bank, address.offset) == crate::launch::FERMI_STACK_POINTER;
                if fixed && fermi_sp {
                    SrcKind::Value(crate::launch::LOCAL_STACK_TOP, None)
                } else if (1..=3).contains(bank) && fixed && self.launch.unknown_banks_zero {
                    // An automatic launch's stand-in (`Launch::unknown_banks_zero`).
                    SrcKind::Value(0, Some(0))
                } else if *bank != 0 || !fixed {
                    return Err(cannot(ins, &bank_refusal(&op.text, *bank)));
                } else {
                    let lo = self.layout.read(self.launch, address.offset).ok_or_else(|| {
                    (
                        op.span,
                        format!(
                            "`{}` is not defined by the launch (block and grid shape at {:#x}/{:#x}, {} parameter words from {:#x})",
                            op.text,
                            self.layout.ntid,
                            self.layout.nctaid,
                            self.launch.params.len(),
                            self.layout.params
                        ),
                    )
                })?;
                    let hi = self.layout.read(self.launch, address.offset + 4);
                    SrcKind::Value(lo, hi)
                }
            }
            _ => return Err(cannot(ins, &format!("operand `{}`", op.text))),
        };
        Ok(Src {
            kind,
            neg: op.negated,
            inv: op.inverted,
            abs: op.absolute,
            half,
            float_imm,
        })
    }

    /// A source of a floating-point instruction other than the `32I` forms: an integer
    /// immediate written in decimal (`1`, `-2`) is read as that number; written in hex it is
    /// raw IEEE-754 bits (our reading of how disassemblers print the 20-bit float
    /// immediates, which they usually print as `0.5`, `-INF`, i.e. as floats).
    fn float_src(&self, op: Option<&Operand>) -> DecodeResult<Src> {
        let mut s = self.src(op)?;
        if let Some(o) = op {
            if let OperandKind::Immediate {
                value: Immediate::Int(v),
            } = &o.kind
            {
                if !o.text.to_ascii_lowercase().contains("0x") {
                    s.float_imm = Some(*v as f64);
                    s.kind = SrcKind::Value((*v as f32).to_bits(), None);
                }
            }
        }
        Ok(s)
    }

    fn pred_dest(&self, op: Option<&Operand>) -> DecodeResult<u8> {
        match op.and_then(Operand::register) {
            Some(Register::Pred(n)) if *n < 7 => Ok(*n as u8),
            Some(Register::UniformPred(n)) if *n < 7 => Ok(UPRED + *n as u8),
            Some(Register::True) => Ok(PT),
            _ => Err(cannot(
                self.ins,
                "expected a predicate destination (P0..P6 or PT)",
            )),
        }
    }

    fn pred_src(&self, op: Option<&Operand>) -> DecodeResult<PredSrc> {
        let Some(o) = op else {
            return Err(cannot(self.ins, "missing predicate operand"));
        };
        match o.register() {
            Some(Register::Pred(n)) if *n < 7 => Ok(PredSrc {
                idx: *n as u8,
                neg: o.negated,
            }),
            Some(Register::UniformPred(n)) if *n < 7 => Ok(PredSrc {
                idx: UPRED + *n as u8,
                neg: o.negated,
            }),
            Some(Register::True) => Ok(PredSrc {
                idx: PT,
                neg: o.negated,
            }),
            _ => Err(cannot(
                self.ins,
                &format!("`{}` is not a predicate", o.text),
            )),
        }
    }

    /// A memory operand, read from its text: `[R2]`, `[R2.64+0x8]`, `[R0.X4+UR4+-0x10]`,
    /// `[UR4]`, `[0x10]` (the IR keeps neither the scale nor a second register).
    fn addr(&self, op: Option<&Operand>, wide: bool) -> DecodeResult<AddrSrc> {
        let Some(o) = op else {
            return Err(cannot(self.ins, "missing address operand"));
        };
        let bad = || {
            cannot(
                self.ins,
                &format!("`{}` is not a memory operand the simulator reads", o.text),
            )
        };
        let inner = o
            .text
            .trim()
            .strip_prefix('[')
            .and_then(|t| t.strip_suffix(']'))
            .ok_or_else(bad)?;
        let mut a = AddrSrc {
            base: None,
            wide,
            scale: 0,
            uniform: None,
            offset: 0,
        };
        let mut seen_base = false;
        for term in inner.split('+').map(str::trim) {
            if term.is_empty() {
                return Err(bad());
            }
            if let Some(v) = int_text(term) {
                a.offset = a.offset.checked_add(v).ok_or_else(bad)?;
                continue;
            }
            let mut parts = term.split('.');
            let head = parts.next().unwrap_or_default().to_ascii_uppercase();
            let suffixes: Vec<&str> = parts.collect();
            if let Some(u) = head.strip_prefix("UR") {
                if a.uniform.is_some() || !suffixes.is_empty() {
                    return Err(bad());
                }
                if u != "Z" {
                    let n: u32 = u.parse().map_err(|_| bad())?;
                    a.uniform = Some(uniform_row(o, n, self.ubase)?);
                }
                continue;
            }
            let Some(r) = head.strip_prefix('R') else {
                return Err(bad());
            };
            if seen_base {
                return Err(bad());
            }
            seen_base = true;
            if r != "Z" {
                let n: u16 = r.parse().map_err(|_| bad())?;
                if n >= 251 {
                    return Err(cannot(self.ins, &format!("address register R{n}")));
                }
                a.base = Some(n);
            }
            for sfx in suffixes {
                match sfx {
                    "64" => a.wide = true,
                    "U32" => {}
                    "X4" => a.scale = 2,
                    "X8" => a.scale = 3,
                    "X16" => a.scale = 4,
                    _ => return Err(bad()),
                }
            }
        }
        Ok(a)
    }
}

/// Why a constant operand other than bank 0 at a fixed offset is not read: banks 1–3 hold
/// what the compiler and driver put there (Fermi's stack pointer in bank 1, the compiler's
/// constant tables in banks 2 and 3: literals of math functions, switch tables), which a
/// `cuobjdump -sass` listing does not print; an indexed read of bank 0 reads beyond the
/// fixed words the launch defines.
fn bank_refusal(text: &str, bank: u32) -> String {
    match bank {
        0 => format!("`{text}`: an indexed read of constant bank 0 is not modelled"),
        1 => format!(
            "`{text}` reads constant bank 1 (the driver's, e.g. Fermi's stack pointer), whose \
             contents the listing does not give"
        ),
        2 | 3 => format!(
            "`{text}` reads constant bank {bank} (the compiler's constant table), whose \
             contents the listing does not give"
        ),
        _ => {
            format!("`{text}` reads constant bank {bank}, whose contents the listing does not give")
        }
    }
}

/// An integer written like the listings do: `0x10`, `-0x4`, `16`.
fn int_text(t: &str) -> Option<i64> {
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t),
    };
    let v = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        Some(h) => i64::from_str_radix(h, 16).ok()?,
        None if !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()) => {
            body.parse().ok()?
        }
        None => return None,
    };
    Some(if neg { -v } else { v })
}

fn zero() -> Src {
    Src {
        kind: SrcKind::Zero,
        neg: false,
        inv: false,
        abs: false,
        half: Half::Whole,
        float_imm: None,
    }
}

fn cmp_of(m: &str) -> Option<Cmp> {
    Some(match m {
        "F" => Cmp::F,
        "LT" => Cmp::Lt,
        "EQ" => Cmp::Eq,
        "LE" => Cmp::Le,
        "GT" => Cmp::Gt,
        "NE" => Cmp::Ne,
        "GE" => Cmp::Ge,
        "NUM" => Cmp::Num,
        "NAN" => Cmp::Nan,
        "LTU" => Cmp::Ltu,
        "EQU" => Cmp::Equ,
        "LEU" => Cmp::Leu,
        "GTU" => Cmp::Gtu,
        "NEU" => Cmp::Neu,
        "GEU" => Cmp::Geu,
        "T" => Cmp::T,
        _ => return None,
    })
}

fn bool_of(m: &str) -> Option<BoolOp> {
    Some(match m {
        "AND" => BoolOp::And,
        "OR" => BoolOp::Or,
        "XOR" => BoolOp::Xor,
        _ => return None,
    })
}

/// Modifier bookkeeping: every modifier must be consumed by the opcode's decoder.
/// Whether an XMAD half-type modifier is signed (`.S16`) or not (`.U16`).
fn half_type(m: &str) -> Option<bool> {
    match m {
        "S16" => Some(true),
        "U16" => Some(false),
        _ => None,
    }
}

struct Mods<'a> {
    ins: &'a Instruction,
    left: Vec<&'a str>,
}

impl<'a> Mods<'a> {
    fn new(ins: &'a Instruction) -> Self {
        let mut left: Vec<&str> = ins.opcode.modifiers.iter().map(String::as_str).collect();
        if ins.sync_flag {
            left.retain(|m| *m != "S");
        }
        Mods { ins, left }
    }

    fn take(&mut self, m: &str) -> bool {
        match self.left.iter().position(|x| *x == m) {
            Some(p) => {
                self.left.remove(p);
                true
            }
            None => false,
        }
    }

    fn take_any<T>(&mut self, f: impl Fn(&str) -> Option<T>) -> Option<T> {
        let p = self.left.iter().position(|m| f(m).is_some())?;
        let m = self.left.remove(p);
        f(m)
    }

    fn done(self) -> DecodeResult<()> {
        match self.left.first() {
            None => Ok(()),
            Some(m) => Err(cannot(self.ins, &format!("modifier .{m} is not modelled"))),
        }
    }
}

fn operand_count(ins: &Instruction, n: usize) -> DecodeResult<()> {
    if ins.operands.len() != n {
        return Err(cannot(
            ins,
            &format!("expected {n} operands, found {}", ins.operands.len()),
        ));
    }
    Ok(())
}

/// The uniform-datapath opcodes (Turing and later) that compute what their vector namesake
/// computes, on uniform operands: `UIADD3` is `IADD3`, …
const UNIFORM_TWINS: &[&str] = &[
    "UMOV", "UIADD3", "ULOP3", "USHF", "UPRMT", "UIMAD", "ULEA", "UFLO", "ULDC", "UISETP", "USEL",
    "UPOPC", "UPLOP3", "UBREV",
];

/// The opcode's name as the decoder matches it, and whether it is a uniform-datapath
/// instruction whose destination is uniform ([`Decoded::uniform`]).
fn op_name(ins: &Instruction) -> (&str, bool) {
    let name = ins.opcode.name.as_str();
    if UNIFORM_TWINS.contains(&name) {
        return (&name[1..], true);
    }
    match name {
        "S2UR" => ("S2R", true),
        _ => (name, false),
    }
}

/// The bits of the IEEE-754 half-precision number `x`, when `x` is one exactly.
fn half_bits(x: f64) -> Option<u16> {
    let sign = if x.is_sign_negative() { 0x8000u16 } else { 0 };
    let a = x.abs();
    if a == 0.0 {
        return Some(sign);
    }
    if a.is_infinite() {
        return Some(sign | 0x7c00);
    }
    if a.is_nan() {
        return Some(0x7e00);
    }
    // Subnormal halves are multiples of 2^-24; normal ones have 11 significant bits.
    let sub = a * f64::from(1u32 << 24);
    if sub < 1024.0 {
        return (sub.fract() == 0.0).then_some(sign | sub as u16);
    }
    let e = a.log2().floor() as i32;
    if e > 15 {
        return None;
    }
    let mant = a / 2f64.powi(e) * 1024.0 - 1024.0;
    (mant.fract() == 0.0 && (0.0..1024.0).contains(&mant))
        .then(|| sign | (((e + 15) as u16) << 10) | mant as u16)
}

/// The predicate `!PT` that sm_70+ `LOP3`/`PLOP3`/`IADD3.X` forms end with: required,
/// because what another predicate there would do is not modelled.
fn require_not_pt(c: &Ctx, op: Option<&Operand>) -> DecodeResult<()> {
    let p = c.pred_src(op)?;
    if p.idx == PT && p.neg {
        Ok(())
    } else {
        Err(cannot(
            c.ins,
            "only `!PT` is modelled as the trailing predicate operand",
        ))
    }
}

/// The sm_70+ forms whose operands or meaning differ from the Kepler–Pascal ones, and the
/// opcodes only Volta and later have; `None` for the others.
fn decode_volta(c: &Ctx, name: &str, m: &mut Mods) -> DecodeResult<Option<Op>> {
    let ins = c.ins;
    let o = |i: usize| ins.operands.get(i);
    let n = ins.operands.len();
    let imm = |op: Option<&Operand>, what: &str| -> DecodeResult<u32> {
        match c.src(op)?.kind {
            SrcKind::Value(v, _) => Ok(v),
            _ => Err(cannot(ins, &format!("the {what} must be an immediate"))),
        }
    };
    Ok(Some(match name {
        "IMAD" => {
            for hint in ["MOV", "IADD", "SHL"] {
                m.take(hint);
            }
            let wide = m.take("WIDE");
            let hi = m.take("HI");
            let x = m.take("X");
            let unsigned = m.take("U32");
            m.take("S32");
            if (wide || hi) && x {
                return Err(cannot(ins, "a carry into .WIDE/.HI is not modelled"));
            }
            operand_count(ins, if x { 5 } else { 4 })?;
            Op::VImad {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                b: c.src(o(2))?,
                c: c.src(o(3))?,
                part: if wide {
                    MadPart::Wide
                } else if hi {
                    MadPart::Hi
                } else {
                    MadPart::Lo
                },
                signed: !unsigned,
                cin: if x { Some(c.pred_src(o(4))?) } else { None },
            }
        }
        "IADD3" => {
            let x = m.take("X");
            // Operands: d [, carry-out [, carry-out]] , a, b, c [, carry-in, carry-in]. Two
            // carry-outs (`IADD3 R6, P0, P1, R2, c[0x0][0x160], R25`, sm_70
            // `FunctionPointers__SobelTex`) feed an `IADD3.X …, P0, P1` that adds both: their sum is the carry (*uncertain* which predicate holds which part;
            // the sum, the high word's value, is exact).
            let carries_in = if x { 2 } else { 0 };
            let (cout, cout2) =
                match n.checked_sub(carries_in) {
                    Some(4) => (None, None),
                    Some(5) => (Some(c.pred_dest(o(1))?), None),
                    Some(6) => (Some(c.pred_dest(o(1))?), Some(c.pred_dest(o(2))?)),
                    _ => return Err(cannot(
                        ins,
                        "expected `IADD3[.X] d, [carry, [carry,]] a, b, c[, carry-in, carry-in]`",
                    )),
                };
            let k = usize::from(cout.is_some()) + usize::from(cout2.is_some());
            Op::VIAdd3 {
                d: c.dest(o(0))?,
                a: c.src(o(1 + k))?,
                b: c.src(o(2 + k))?,
                c: c.src(o(3 + k))?,
                cin: if x {
                    Some([c.pred_src(o(4 + k))?, c.pred_src(o(5 + k))?])
                } else {
                    None
                },
                cout,
                cout2,
            }
        }
        "LEA" => {
            let hi = m.take("HI");
            let x = m.take("X");
            let sx32 = m.take("SX32");
            if sx32 && !hi {
                return Err(cannot(ins, ".SX32 without .HI"));
            }
            // d [, carry-out], a, b [, hi-word (HI without SX32)], shift [, carry-in (X)].
            let fixed = 4 + usize::from(hi && !sx32) + usize::from(x);
            let cout = match n.checked_sub(fixed) {
                Some(0) => None,
                Some(1) => Some(c.pred_dest(o(1))?),
                _ => return Err(cannot(ins, "unexpected operands")),
            };
            let k = usize::from(cout.is_some());
            let (hi_src, s_at) = if hi && !sx32 {
                (c.src(o(3 + k))?, 4 + k)
            } else {
                (zero(), 3 + k)
            };
            let shift = imm(o(s_at), "shift")?;
            if shift >= 32 {
                return Err(cannot(ins, "a shift of 32 or more"));
            }
            Op::Lea {
                d: c.dest(o(0))?,
                a: c.src(o(1 + k))?,
                b: c.src(o(2 + k))?,
                hi_src,
                shift,
                hi,
                sx32,
                cin: if x {
                    Some(c.pred_src(o(s_at + 1))?)
                } else {
                    None
                },
                cout,
                cc_in: false,
                cc: false,
            }
        }
        "SHF" => {
            operand_count(ins, 4)?;
            let left = if m.take("L") {
                true
            } else if m.take("R") {
                false
            } else {
                return Err(cannot(ins, "missing direction .L/.R"));
            };
            let (signed, wide) = if m.take("U32") {
                (false, false)
            } else if m.take("S32") {
                (true, false)
            } else if m.take("U64") {
                (false, true)
            } else if m.take("S64") {
                (true, true)
            } else if !c.volta {
                // Kepler's `SHF.L R2, RZ, 0x9, R0`: 32-bit, clamped.
                (false, false)
            } else {
                return Err(cannot(ins, "missing type .U32/.S32/.U64/.S64"));
            };
            // Kepler–Pascal `SHF.L` gives the high word (`SHL R6, R4, 0x2; SHF.L.U64 R7, R4,
            // 0x2, R7` shifts R7:R4 left, sm_61 listings), `SHF.R` the low word; sm_70+
            // says `.HI` where it wants the high word.
            let hi = m.take("HI") || (!c.volta && left);
            Op::Shf {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                s: c.src(o(2))?,
                c: c.src(o(3))?,
                left,
                hi,
                signed,
                wide,
            }
        }
        "PRMT" => {
            operand_count(ins, 4)?;
            Op::Prmt {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                sel: c.src(o(2))?,
                b: c.src(o(3))?,
            }
        }
        "IABS" => {
            operand_count(ins, 2)?;
            Op::IAbs {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
            }
        }
        "POPC" | "FLO" | "BREV" => {
            operand_count(ins, 2)?;
            let kind = match name {
                "POPC" => BitsKind::Popc,
                "BREV" => BitsKind::Brev,
                _ => {
                    let unsigned = m.take("U32");
                    m.take("S32");
                    BitsKind::Flo {
                        signed: !unsigned,
                        sh: m.take("SH"),
                    }
                }
            };
            Op::Bits {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                kind,
            }
        }
        "PLOP3" => {
            operand_count(ins, 7)?;
            m.take("LUT");
            let lut_p = imm(o(5), "lookup table")?;
            let lut_q = imm(o(6), "lookup table")?;
            if lut_p > 0xff || lut_q > 0xff {
                return Err(cannot(ins, "a lookup table beyond a byte"));
            }
            Op::Plop3 {
                p: c.pred_dest(o(0))?,
                q: c.pred_dest(o(1))?,
                a: c.pred_src(o(2))?,
                b: c.pred_src(o(3))?,
                c: c.pred_src(o(4))?,
                lut_p: lut_p as u8,
                lut_q: lut_q as u8,
            }
        }
        "MUFU" if m.left.iter().any(|f| matches!(*f, "RCP64H" | "RSQ64H")) => {
            operand_count(ins, 2)?;
            let rsq = m.take("RSQ64H");
            m.take("RCP64H");
            Op::Mufu64H {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                rsq,
            }
        }
        "MUFU" => {
            operand_count(ins, 2)?;
            let func = m
                .take_any(|f| {
                    Some(match f {
                        "RCP" => MufuFunc::Rcp,
                        "RSQ" => MufuFunc::Rsq,
                        "SQRT" => MufuFunc::Sqrt,
                        "EX2" => MufuFunc::Ex2,
                        "LG2" => MufuFunc::Lg2,
                        "SIN" => MufuFunc::Sin,
                        "COS" => MufuFunc::Cos,
                        _ => return None,
                    })
                })
                .ok_or_else(|| cannot(ins, "unknown function"))?;
            Op::Mufu {
                d: c.dest(o(0))?,
                a: c.float_src(o(1))?,
                func,
            }
        }
        "FCHK" => {
            operand_count(ins, 3)?;
            // `.DIVIDE` (Pascal listings) names the only check there is.
            m.take("DIVIDE");
            Op::FChk {
                p: c.pred_dest(o(0))?,
                a: c.src(o(1))?,
                b: c.src(o(2))?,
            }
        }
        "LDC" => {
            operand_count(ins, 2)?;
            let d = c.dest(o(0))?;
            let byte = m.take_any(|t| match t {
                "U8" => Some(false),
                "S8" => Some(true),
                _ => None,
            });
            if let Some(signed) = byte {
                let off = match o(1).map(|x| &x.kind) {
                    Some(OperandKind::Constant { bank: 0, address })
                        if address.base.as_ref().is_none_or(|b| *b == Register::Zero) =>
                    {
                        address.offset
                    }
                    Some(OperandKind::Constant { bank, .. }) => {
                        let text = o(1).map_or("", |x| x.text.as_str());
                        return Err(cannot(ins, &bank_refusal(text, *bank)));
                    }
                    _ => return Err(cannot(ins, "the source must be a constant")),
                };
                let b = c.layout.read_byte(c.launch, off).ok_or_else(|| {
                    cannot(
                        ins,
                        &format!("`c[0x0][{off:#x}]` is not defined by the launch"),
                    )
                })?;
                let v = if signed {
                    b as i8 as i32 as u32
                } else {
                    u32::from(b)
                };
                Op::Mov {
                    d,
                    a: Src {
                        kind: SrcKind::Value(v, None),
                        ..zero()
                    },
                }
            } else if m.take("64") {
                match c.src(o(1))?.kind {
                    SrcKind::Value(lo, Some(hi)) => Op::Const64 { d, lo, hi },
                    _ => return Err(cannot(ins, "the high word is not defined by the launch")),
                }
            } else {
                let a = c.src(o(1))?;
                if !matches!(a.kind, SrcKind::Value(..)) {
                    return Err(cannot(ins, "the source must be a constant"));
                }
                Op::Mov { d, a }
            }
        }
        "CS2R" => {
            operand_count(ins, 2)?;
            m.take("32");
            if o(1).is_none_or(|x| x.text != "SRZ") {
                return Err(cannot(ins, "only `CS2R d, SRZ` is modelled"));
            }
            Op::Const64 {
                d: c.dest(o(0))?,
                lo: 0,
                hi: 0,
            }
        }
        "HFMA2" => {
            // `HFMA2.MMA d, -RZ, RZ, hi, lo`: 0·0 + (hi, lo), the compiler's way of loading a
            // 32-bit constant written as two halves, high half first (`0, 9.5367431640625e-07`
            // is 16, the `SHFL.DOWN` offset it feeds in `reduction__reduce4_256`, sm_90).
            m.take("MMA");
            operand_count(ins, 5)?;
            let zero_reg = |i: usize| o(i).and_then(Operand::register) == Some(&Register::Zero);
            let half = |i: usize| -> DecodeResult<u16> {
                match o(i).map(|x| &x.kind) {
                    Some(OperandKind::Immediate {
                        value: Immediate::Float(f),
                    }) => half_bits(*f),
                    Some(OperandKind::Immediate {
                        value: Immediate::Int(v),
                    }) => half_bits(*v as f64),
                    _ => None,
                }
                .ok_or_else(|| cannot(ins, "expected a half-precision immediate"))
            };
            if !(zero_reg(1) && zero_reg(2)) {
                return Err(cannot(
                    ins,
                    "only the constant form `HFMA2.MMA d, -RZ, RZ, h, l`",
                ));
            }
            let v = u32::from(half(3)?) << 16 | u32::from(half(4)?);
            Op::Mov {
                d: c.dest(o(0))?,
                a: Src {
                    kind: SrcKind::Value(v, None),
                    ..zero()
                },
            }
        }
        "VOTE" | "VOTEU" => {
            let all = if m.take("ALL") {
                true
            } else if m.take("ANY") {
                false
            } else {
                return Err(cannot(ins, "only .ANY and .ALL are modelled"));
            };
            let (d, k) = match n {
                3 => (c.dest(o(0))?, 1),
                2 => (RZ_DEST, 0),
                _ => return Err(cannot(ins, "expected `VOTE d, p, q` or `VOTE p, q`")),
            };
            Op::Vote {
                d,
                p: c.pred_dest(o(k))?,
                src: c.pred_src(o(k + 1))?,
                all,
                uniform: name == "VOTEU",
            }
        }
        "R2UR" if n == 3 => {
            // `R2UR P0, URZ, R13` (sm_90, before `WARPSYNC.COLLECTIVE` and in
            // `warpAggregatedAtomicsCG__mapToBuckets`): a predicate result NVIDIA does not
            // document (whether the lanes agree on the value?); a guess would decide branches.
            return Err(cannot(
                ins,
                "the predicate result of `R2UR p, URd, Rs` is undocumented (it may tell \
                 whether the lanes agree on Rs); a guess would decide the branches it guards",
            ));
        }
        "R2UR" => {
            operand_count(ins, 2)?;
            Op::R2Ur {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
            }
        }
        "SHFL" => {
            operand_count(ins, 5)?;
            let mode = m
                .take_any(|t| {
                    Some(match t {
                        "IDX" => ShflMode::Idx,
                        "UP" => ShflMode::Up,
                        "DOWN" => ShflMode::Down,
                        "BFLY" => ShflMode::Bfly,
                        _ => return None,
                    })
                })
                .ok_or_else(|| cannot(ins, "missing mode"))?;
            Op::Shfl {
                p: c.pred_dest(o(0))?,
                d: c.dest(o(1))?,
                a: c.src(o(2))?,
                b: c.src(o(3))?,
                c: c.src(o(4))?,
                mode,
            }
        }
        "FSEL" => {
            operand_count(ins, 4)?;
            Op::Sel {
                d: c.dest(o(0))?,
                a: c.float_src(o(1))?,
                b: c.float_src(o(2))?,
                p: c.pred_src(o(3))?,
            }
        }
        "MOV" if n == 3 => {
            // `MOV d, a, 0xf`: the byte-lane mask of all four bytes.
            if imm(o(2), "lane mask")? != 0xf {
                return Err(cannot(ins, "a partial byte-lane mask"));
            }
            Op::Mov {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
            }
        }
        "WARPSYNC"
            if m.left
                .iter()
                .any(|t| matches!(*t, "EXCLUSIVE" | "COLLECTIVE")) =>
        {
            return Err(cannot(ins, UNDOCUMENTED_WARPSYNC));
        }
        "ENDCOLLECTIVE" => return Err(cannot(ins, UNDOCUMENTED_WARPSYNC)),
        "BSSY" | "BSYNC" | "BREAK" | "YIELD" | "WARPSYNC" | "CALL" | "RET" | "BRA" | "EXIT" => {
            for hint in ["REL", "NOINC", "NODEC", "ABS", "DIV", "CONV", "U", "ALL"] {
                m.take(hint);
            }
            Op::Nop
        }
        "ATOM" | "ATOMG" | "ATOMS" | "RED" | "REDG" => {
            let space = if name == "ATOMS" {
                Space::Shared
            } else {
                Space::Global
            };
            let wide = m.take("E");
            for scope in ["STRONG", "GPU", "SYS", "CTA", "32"] {
                m.take(scope);
            }
            let signed = m.take("S32");
            m.take("U32");
            // `ATOMS.POPC.INC` adds one per lane (the hardware counts the lanes at once).
            let popc_inc = m.take("POPC") && m.take("INC");
            let op = if popc_inc {
                AtomOp::Add
            } else {
                m.take_any(|t| {
                    Some(match t {
                        "ADD" => AtomOp::Add,
                        "INC" => AtomOp::Inc,
                        "DEC" => AtomOp::Dec,
                        "MIN" => AtomOp::Min { signed },
                        "MAX" => AtomOp::Max { signed },
                        "AND" => AtomOp::And,
                        "OR" => AtomOp::Or,
                        "XOR" => AtomOp::Xor,
                        "EXCH" => AtomOp::Exch,
                        "CAS" => AtomOp::Cas,
                        _ => return None,
                    })
                })
                .ok_or_else(|| cannot(ins, "unknown atomic operation"))?
            };
            if m.left
                .iter()
                .any(|t| matches!(*t, "64" | "F32" | "F16x2" | "BF16x2"))
            {
                return Err(cannot(ins, "only 32-bit integer atomics are modelled"));
            }
            // RED [a], v; ATOMS d, [a], v (POPC.INC: d, [a]); ATOM(G) p, d, [a], v (CAS: cmp, v).
            let reduce = name.starts_with("RED");
            let k = match name {
                "RED" | "REDG" => 0,
                "ATOMS" => 1,
                // Kepler–Pascal `ATOM d, [a], v` has no predicate destination.
                _ if !c.volta => 1,
                _ => {
                    if c.pred_dest(o(0))? != PT {
                        return Err(cannot(ins, "a predicate result of an atomic"));
                    }
                    2
                }
            };
            let cas = op == AtomOp::Cas;
            let operands = k + 1 + usize::from(!popc_inc) + usize::from(cas);
            operand_count(ins, operands)?;
            let (cmp, v) = if popc_inc {
                (
                    zero(),
                    Src {
                        kind: SrcKind::Value(1, None),
                        ..zero()
                    },
                )
            } else if cas {
                (c.src(o(k + 1))?, c.src(o(k + 2))?)
            } else {
                (zero(), c.src(o(k + 1))?)
            };
            Op::Atomic {
                space,
                op,
                d: if reduce { RZ_DEST } else { c.dest(o(k - 1))? },
                addr: c.addr(o(k), wide)?,
                v,
                cmp,
            }
        }
        "REDUX" => {
            operand_count(ins, 2)?;
            let signed = m.take("S32");
            m.take("U32");
            // A bare `REDUX` is `.AND`: the one PTX `redux.sync` operation the corpus's
            // `simpleAtomicIntrinsics` (which uses all six) never names (*uncertain*).
            let op = m
                .take_any(|t| {
                    Some(match t {
                        "SUM" => ReduxOp::Sum,
                        "MIN" => ReduxOp::Min { signed },
                        "MAX" => ReduxOp::Max { signed },
                        "AND" => ReduxOp::And,
                        "OR" => ReduxOp::Or,
                        "XOR" => ReduxOp::Xor,
                        _ => return None,
                    })
                })
                .unwrap_or(ReduxOp::And);
            Op::Redux {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                op,
            }
        }
        "TEX" | "TLD" | "TLD4" | "TXQ" | "TEXS" | "TLDS" | "TLD4S" | "TXD" | "TMML" | "SULD"
        | "SUST" | "SURED" | "SUATOM" | "SUQ" => texture::decode(c, name, m)?,
        "P2R" => {
            operand_count(ins, 4)?;
            if o(1).is_none_or(|x| x.text != "PR") {
                return Err(cannot(ins, "only `P2R d, PR, a, mask` is modelled"));
            }
            Op::P2R {
                d: c.dest(o(0))?,
                a: c.src(o(2))?,
                mask: imm(o(3), "mask")?,
            }
        }
        "MATCH" => {
            operand_count(ins, 2)?;
            if !m.take("ANY") {
                return Err(cannot(ins, "only MATCH.ANY is modelled"));
            }
            Op::MatchAny {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
            }
        }
        "BMOV" => {
            // Saving and restoring a barrier's threads in a register (around calls) is not
            // modelled; clearing a barrier that is free is nothing to do, as in the analysis.
            m.take("32");
            if !(m.take("CLEAR") && o(0).and_then(Operand::register) == Some(&Register::Zero)) {
                return Err(cannot(
                    ins,
                    "only `BMOV.32.CLEAR RZ, Bn` is modelled: saving a convergence barrier's \
                     threads in a register and restoring them (`BMOV.32.CLEAR R2, B6` … \
                     `BMOV.32 B6, R2` around a call) needs the barrier's membership as a \
                     value, which neither the activation stack nor the analysis keeps",
                ));
            }
            Op::Nop
        }
        _ => return Ok(None),
    }))
}

/// Why `WARPSYNC.EXCLUSIVE`, `WARPSYNC.COLLECTIVE` and `ENDCOLLECTIVE` (sm_86/sm_90 code of
/// cooperative groups) are refused: NVIDIA documents `WARPSYNC` only as "synchronize
/// threads in warp" (CUDA Binary Utilities, instruction set reference), not these forms;
/// `.COLLECTIVE` names a code address (an entry for threads that arrive diverged?), so a
/// guess could change the paths a warp takes.
const UNDOCUMENTED_WARPSYNC: &str = "undocumented form of WARPSYNC (NVIDIA documents \
     `WARPSYNC` only as \"synchronize threads in warp\"; what `.EXCLUSIVE`, `.COLLECTIVE` \
     and `ENDCOLLECTIVE` add — and where `.COLLECTIVE`'s code address sends a warp — is not \
     public, and a guess could change the paths the warp takes)";

/// Decodes the data effect of one instruction, and whether it is uniform.
fn decode_op(c: &Ctx) -> DecodeResult<(Op, bool)> {
    let ins = c.ins;
    let o = |i: usize| ins.operands.get(i);
    let mut m = Mods::new(ins);
    let (name, uniform) = op_name(ins);
    if c.volta {
        if let Some(op) = decode_volta(c, name, &mut m)? {
            m.done()?;
            return Ok((op, uniform));
        }
    }
    let cc_dest = o(0).is_some_and(|d| d.suffixes.iter().any(|s| s == "CC"));
    if !c.volta {
        if let Some(op) = kepler_pascal::decode(c, name, &mut m)? {
            m.done()?;
            return Ok((op, uniform));
        }
    }
    let op = match name {
        "NOP" | "MEMBAR" | "DEPBAR" => {
            m.left.clear();
            Op::Nop
        }
        "BRA" | "SSY" | "PBK" | "PCNT" | "PRET" | "SYNC" | "BRK" | "CONT" | "EXIT" | "RET"
        | "CAL" | "KIL" => {
            m.take("U");
            Op::Nop
        }
        // Fermi's `__syncthreads()`: a barrier whose thread count goes nowhere.
        "BAR" if m.take("RED") => {
            m.take("POPC");
            let discarded = |i: usize| o(i).and_then(Operand::register) == Some(&Register::Zero);
            if !(ins.operands.len() == 2 && discarded(0) && discarded(1)) {
                return Err(cannot(ins, "only `BAR.RED.POPC RZ, RZ` is modelled"));
            }
            Op::Barrier
        }
        "BAR" => {
            m.take("DEFER_BLOCKING");
            if !m.take("SYNC") || ins.operands.len() != 1 {
                return Err(cannot(ins, "only `BAR.SYNC <barrier>` is modelled"));
            }
            Op::Barrier
        }
        "MOV" | "MOV32I" => {
            operand_count(ins, 2)?;
            Op::Mov {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
            }
        }
        "IADD" | "IADD32I" | "ISUB" => {
            operand_count(ins, 3)?;
            let x = m.take("X");
            let mut b = c.src(o(2))?;
            if ins.opcode.name == "ISUB" {
                b.neg = !b.neg;
            }
            Op::IAdd {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                b,
                c: zero(),
                x,
                cc: cc_dest,
            }
        }
        "IADD3" => {
            operand_count(ins, 4)?;
            Op::IAdd {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                b: c.src(o(2))?,
                c: c.src(o(3))?,
                x: m.take("X"),
                cc: cc_dest,
            }
        }
        "ISCADD" | "ISCADD32I" => {
            operand_count(ins, 4)?;
            let shift = match c.src(o(3))?.kind {
                SrcKind::Value(v, _) if v < 32 => v,
                _ => return Err(cannot(ins, "the shift must be an immediate below 32")),
            };
            Op::IScAdd {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                b: c.src(o(2))?,
                shift,
                cc: cc_dest,
            }
        }
        "IMAD" | "IMUL" | "IMUL32I" | "IMAD32I" => {
            let is_mad = ins.opcode.name.starts_with("IMAD");
            operand_count(ins, if is_mad { 4 } else { 3 })?;
            let unsigned = m.take("U32");
            let signed_t = m.take("S32");
            // The type is written once per operand (`.U32.U32`); mixed types are not modelled.
            let unsigned2 = m.take("U32");
            let signed2 = m.take("S32");
            if (unsigned || unsigned2) && (signed_t || signed2) {
                return Err(cannot(ins, "mixed signed/unsigned operand types"));
            }
            let hi = m.take("HI");
            if hi && !(unsigned || signed_t) {
                return Err(cannot(ins, ".HI without an explicit .U32/.S32 type"));
            }
            Op::IMad {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                b: c.src(o(2))?,
                c: if is_mad { c.src(o(3))? } else { zero() },
                hi,
                signed: signed_t,
                x: m.take("X"),
                cc: cc_dest,
            }
        }
        "XMAD" => {
            operand_count(ins, 4)?;
            if m.left.contains(&"CSFU") {
                // `XMAD.S16.S16.CSFU R0, R0.H1, R3.H1, RZ` (SobelTex, sm_61): NVIDIA does
                // not document XMAD; the other modes are read from how the compiler's
                // sequences use them (a property test checks the product), but no sequence
                // of the corpus pins down `.CSFU`.
                return Err(cannot(
                    ins,
                    "modifier .CSFU is not modelled (XMAD is undocumented, and no \
                     instruction sequence of the listings fixes what .CSFU does to C)",
                ));
            }
            // `.S16`/`.U16` name A's then B's type (unsigned when absent).
            let a_signed = m.take_any(half_type).unwrap_or(false);
            let b_signed = m.take_any(half_type).unwrap_or(false);
            Op::XMad {
                a_signed,
                b_signed,
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                b: c.src(o(2))?,
                c: c.src(o(3))?,
                mrg: m.take("MRG"),
                psl: m.take("PSL"),
                cbcc: m.take("CBCC"),
                chi: m.take("CHI"),
                clo: m.take("CLO"),
            }
        }
        "ISETP" => {
            let ex = m.take("EX");
            let x = !c.volta && m.take("X");
            operand_count(ins, if ex { 6 } else { 5 })?;
            let cmp = m
                .take_any(cmp_of)
                .ok_or_else(|| cannot(ins, "missing comparison"))?;
            let signed = !m.take("U32");
            m.take("S32");
            let bop = m.take_any(bool_of).unwrap_or(BoolOp::And);
            let ex = if ex { Some(c.pred_src(o(5))?) } else { None };
            Op::ISetP {
                p: c.pred_dest(o(0))?,
                q: c.pred_dest(o(1))?,
                cmp,
                signed,
                a: c.src(o(2))?,
                b: c.src(o(3))?,
                bop,
                c: c.pred_src(o(4))?,
                x,
                ex,
            }
        }
        "FSETP" | "DSETP" => {
            operand_count(ins, 5)?;
            if m.left.iter().any(|t| matches!(*t, "MAX" | "MIN")) {
                // `DSETP.MAX.AND P0, P1, R20, c[0x2][0x0], PT` (sm_70+ eigenvalues): a
                // min/max whose two predicates say which operand won (and NaN?), undocumented.
                return Err(cannot(
                    ins,
                    "the `.MAX`/`.MIN` form (no comparison; which operand each predicate \
                     reports is undocumented)",
                ));
            }
            let cmp = m
                .take_any(cmp_of)
                .ok_or_else(|| cannot(ins, "missing comparison"))?;
            let bop = m.take_any(bool_of).unwrap_or(BoolOp::And);
            Op::FSetP {
                p: c.pred_dest(o(0))?,
                q: c.pred_dest(o(1))?,
                cmp,
                ftz: m.take("FTZ"),
                double: ins.opcode.name == "DSETP",
                a: c.float_src(o(2))?,
                b: c.float_src(o(3))?,
                bop,
                c: c.pred_src(o(4))?,
            }
        }
        "PSETP" => {
            operand_count(ins, 5)?;
            let op1 = m
                .take_any(bool_of)
                .ok_or_else(|| cannot(ins, "missing boolean operation"))?;
            let op2 = m.take_any(bool_of).unwrap_or(BoolOp::And);
            Op::PSetP {
                p: c.pred_dest(o(0))?,
                q: c.pred_dest(o(1))?,
                a: c.pred_src(o(2))?,
                b: c.pred_src(o(3))?,
                op1,
                op2,
                c: c.pred_src(o(4))?,
            }
        }
        "SHL" | "SHR" => {
            operand_count(ins, 3)?;
            let left = ins.opcode.name == "SHL";
            let unsigned = m.take("U32");
            let signed = !left && !unsigned;
            m.take("S32");
            Op::Shift {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                b: c.src(o(2))?,
                left,
                signed,
                wrap: m.take("W"),
            }
        }
        "LOP" | "LOP32I" => {
            // `LOP.op d, a, b`, or `LOP.op.NZ p, d, a, b` (`.Z`) with a predicate result.
            let test = if m.take("NZ") {
                Some(true)
            } else if m.take("Z") {
                Some(false)
            } else {
                None
            };
            operand_count(ins, if test.is_some() { 4 } else { 3 })?;
            let k = usize::from(test.is_some());
            let p = match test {
                Some(nz) => Some((c.pred_dest(o(0))?, nz)),
                None => None,
            };
            let op = if m.take("AND") {
                LopKind::And
            } else if m.take("OR") {
                LopKind::Or
            } else if m.take("XOR") {
                LopKind::Xor
            } else if m.take("PASS_B") {
                LopKind::PassB
            } else {
                return Err(cannot(ins, "missing logic operation"));
            };
            Op::Lop {
                d: c.dest(o(k))?,
                a: c.src(o(1 + k))?,
                b: c.src(o(2 + k))?,
                op,
                p,
            }
        }
        "LOP3" => {
            // Kepler–Pascal: `d, a, b, c, lut`, or `LOP3.LUT.NZ p, d, a, b, c, lut` (`.Z`)
            // with a predicate result as `LOP`'s (`eigenvalues__bisectKernel`, sm_61);
            // sm_70+: `[p,] d, a, b, c, lut, !PT`, where `p` is set where the result is not
            // zero.
            let n = ins.operands.len();
            let test = if c.volta {
                (n == 7).then_some(true)
            } else if m.take("NZ") {
                Some(true)
            } else if m.take("Z") {
                Some(false)
            } else {
                None
            };
            let k = usize::from(test.is_some());
            let expected = if c.volta {
                (5..=7).contains(&n)
            } else {
                n == 5 + k
            };
            if !expected {
                return Err(cannot(ins, &format!("unexpected {n} operands")));
            }
            if c.volta && n > 5 {
                require_not_pt(c, o(n - 1))?;
            }
            m.take("LUT");
            let lut = match c.src(o(4 + k))?.kind {
                SrcKind::Value(v, _) if v < 256 => v as u8,
                _ => return Err(cannot(ins, "the lookup table must be an immediate byte")),
            };
            Op::Lop3 {
                p: match test {
                    Some(nonzero) => Some((c.pred_dest(o(0))?, nonzero)),
                    None => None,
                },
                d: c.dest(o(k))?,
                a: c.src(o(1 + k))?,
                b: c.src(o(2 + k))?,
                c: c.src(o(3 + k))?,
                lut,
            }
        }
        "SEL" => {
            operand_count(ins, 4)?;
            Op::Sel {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                b: c.src(o(2))?,
                p: c.pred_src(o(3))?,
            }
        }
        "IMNMX" => {
            operand_count(ins, 4)?;
            let unsigned = m.take("U32");
            m.take("S32");
            Op::IMnMx {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                b: c.src(o(2))?,
                p: c.pred_src(o(3))?,
                signed: !unsigned,
            }
        }
        "FADD" | "FMUL" | "FFMA" | "FADD32I" | "FMUL32I" | "FFMA32I" | "FMNMX" | "DADD"
        | "DMUL" | "DFMA" | "DMNMX" => {
            let name = ins.opcode.name.as_str();
            let kind = match name.trim_end_matches("32I") {
                "FADD" | "DADD" => FloatKind::Add,
                "FMUL" | "DMUL" => FloatKind::Mul,
                "FFMA" | "DFMA" => FloatKind::Fma,
                _ => FloatKind::MinMax,
            };
            let double = name.starts_with('D');
            let fma = kind == FloatKind::Fma;
            let mnmx = kind == FloatKind::MinMax;
            operand_count(ins, if fma || mnmx { 4 } else { 3 })?;
            let round = rounding(&mut m);
            if round != Round::Nearest && (double || mnmx) {
                return Err(cannot(ins, "directed rounding of this operation"));
            }
            let ftz = m.take("FTZ");
            let sat = m.take("SAT");
            let (cc, p) = if mnmx {
                (zero(), c.pred_src(o(3))?)
            } else if fma {
                (
                    c.src(o(3))?,
                    PredSrc {
                        idx: PT,
                        neg: false,
                    },
                )
            } else {
                (
                    zero(),
                    PredSrc {
                        idx: PT,
                        neg: false,
                    },
                )
            };
            let raw_bits = name.ends_with("32I");
            let mut cc = cc;
            if fma && !raw_bits {
                cc = c.float_src(o(3))?;
            }
            Op::Float {
                kind: if mnmx { FloatKind::MinMax } else { kind },
                d: c.dest(o(0))?,
                a: c.float_src(o(1))?,
                b: if raw_bits {
                    c.src(o(2))?
                } else {
                    c.float_src(o(2))?
                },
                c: cc,
                ftz,
                sat,
                double,
                p,
                round,
            }
        }
        "I2F" | "I2FP" => {
            operand_count(ins, 2)?;
            // The destination type comes first and is .F32 by default (sm_70+ listings
            // write `I2F.U32.RP`); `.F64`/`.F16` are not modelled.
            let f32_first = m.left.first() == Some(&"F32");
            if f32_first {
                m.take("F32");
            }
            if !(f32_first || c.volta) {
                return Err(cannot(ins, "only conversions to .F32 are modelled"));
            }
            if m.left.iter().any(|x| matches!(*x, "F64" | "F16")) {
                return Err(cannot(ins, "only conversions to .F32 are modelled"));
            }
            let (signed, src_bits) = m
                .take_any(|t| {
                    Some(match t {
                        "U32" => (false, 32),
                        "S32" => (true, 32),
                        "U16" => (false, 16),
                        "S16" => (true, 16),
                        "U8" => (false, 8),
                        "S8" => (true, 8),
                        _ => return None,
                    })
                })
                .unwrap_or((true, 32));
            let round = rounding(&mut m);
            Op::I2F {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                signed,
                src_bits,
                round,
            }
        }
        "F2I" => {
            operand_count(ins, 2)?;
            let signed = if m.take("U32") {
                false
            } else {
                m.take("S32");
                true
            };
            m.take("F32");
            let ftz = m.take("FTZ");
            // `.NTZ` (sm_70+): no documented effect on the value.
            m.take("NTZ");
            let round = if m.take("TRUNC") {
                Round::Zero
            } else if m.take("FLOOR") {
                Round::Down
            } else if m.take("CEIL") {
                Round::Up
            } else {
                m.take("ROUND");
                Round::Nearest
            };
            Op::F2I {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                signed,
                round,
                ftz,
            }
        }
        "F2F" => {
            operand_count(ins, 2)?;
            let first = m.take_any(|x| match x {
                "F32" => Some(false),
                "F64" => Some(true),
                _ => None,
            });
            let second = m.take_any(|x| match x {
                "F32" => Some(false),
                "F64" => Some(true),
                _ => None,
            });
            let (Some(to_double), Some(from_double)) = (first, second) else {
                return Err(cannot(
                    ins,
                    "expected .F32/.F64 destination and source types",
                ));
            };
            m.take("RN");
            Op::F2F {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                to_double,
                from_double,
                ftz: m.take("FTZ"),
            }
        }
        "S2R" => {
            operand_count(ins, 2)?;
            let sr = match c.src(o(1))?.kind {
                SrcKind::Special(s) => s,
                _ => return Err(cannot(ins, "the source must be a special register")),
            };
            Op::S2R {
                d: c.dest(o(0))?,
                sr,
            }
        }
        "LDG" | "LD" | "LDS" | "LDU" | "LDL" => {
            memory_operands(c)?;
            let space = match ins.opcode.name.as_str() {
                "LDS" => Space::Shared,
                "LDL" => Space::Local,
                _ => Space::Global,
            };
            let wide = m.take("E");
            // Cache operators, scopes and orderings change where the data is cached and
            // whom it is visible to, not its value in a one-SM run without other writers.
            for op in [
                "CG", "CA", "CS", "CV", "CI", "LU", "U", "SYS", "STRONG", "GPU", "CTA", "CONSTANT",
                "EF", "EL", "NA", "LTC64B", "LTC128B",
            ] {
                m.take(op);
            }
            let (bytes, sign_extend) = size(&mut m);
            Op::Load {
                space,
                d: c.dest(o(0))?,
                addr: c.addr(o(1), wide)?,
                bytes,
                sign_extend,
            }
        }
        "STG" | "ST" | "STS" | "STL" => {
            memory_operands(c)?;
            let space = match ins.opcode.name.as_str() {
                "STS" => Space::Shared,
                "STL" => Space::Local,
                _ => Space::Global,
            };
            let wide = m.take("E");
            for op in [
                "CG", "CS", "WB", "WT", "U", "SYS", "STRONG", "GPU", "CTA", "EF", "EL", "NA",
            ] {
                m.take(op);
            }
            let (bytes, _) = size(&mut m);
            Op::Store {
                space,
                v: c.src(o(1))?,
                addr: c.addr(o(0), wide)?,
                bytes,
            }
        }
        other => return Err(cannot(ins, &format!("no semantics for {other}"))),
    };
    m.done()?;
    Ok((op, uniform))
}

/// A load or store has an address and a register; Kepler–Pascal generic `LD`/`ST` may end
/// with a predicate (`ST.E.64 [R8], R6, P0`, set by the `LEA.HI.X P0, …` that formed the
/// address), ignored: *uncertain* — NVIDIA does not document it; the value moved does not
/// depend on it for an address inside the simulated arrays.
fn memory_operands(c: &Ctx) -> DecodeResult<()> {
    let ins = c.ins;
    let trailing_pred = !c.volta
        && ins.operands.len() == 3
        && matches!(
            ins.operands[2].register(),
            Some(Register::Pred(_) | Register::True)
        );
    if trailing_pred {
        return Ok(());
    }
    operand_count(ins, 2)
}

fn rounding(m: &mut Mods) -> Round {
    if m.take("RZ") {
        Round::Zero
    } else if m.take("RM") {
        Round::Down
    } else if m.take("RP") {
        Round::Up
    } else {
        m.take("RN");
        Round::Nearest
    }
}

/// Access size in bytes and whether a sub-word load sign-extends.
fn size(m: &mut Mods) -> (u64, bool) {
    for (name, bytes, signed) in [
        ("U8", 1, false),
        ("S8", 1, true),
        ("U16", 2, false),
        ("S16", 2, true),
        ("32", 4, false),
        ("64", 8, false),
        ("128", 16, false),
    ] {
        if m.take(name) {
            return (bytes, signed);
        }
    }
    (4, false)
}

/// The control effect of instruction `i` (`block_at[i]`: the block starting at `i`, for the
/// `BREAK`s fused with their branch). Convergence barriers and `WARPSYNC` drive the shared
/// activation stack as `cfg::concrete::run` does, so the simulated warp takes the paths the
/// analysis predicts.
fn control(
    ins: &Instruction,
    kernel: &Kernel,
    block_at: &[Option<usize>],
    i: usize,
) -> DecodeResult<Control> {
    let idx = |t: Option<u64>| -> DecodeResult<usize> {
        t.and_then(|a| kernel.index_of(a))
            .ok_or_else(|| cannot(ins, "the target is not an instruction of this listing"))
    };
    Ok(match ins.control {
        ControlKind::Fallthrough | ControlKind::Barrier => Control::Next,
        ControlKind::Bsync { barrier } => Control::Bsync(barrier),
        ControlKind::Break { barrier } => {
            if cfg::barriers::fused_break_at(kernel, block_at, i).is_none() {
                return Err(cannot(
                    ins,
                    "a BREAK not followed by a branch on the same guard is not modelled",
                ));
            }
            Control::Break(barrier)
        }
        ControlKind::WarpSync => Control::WarpSync,
        ControlKind::Branch(t) => {
            if ins
                .operands
                .iter()
                .any(|o| o.register() == Some(&Register::CarryFlag))
            {
                // `@P0 BRA CC.NEU` after `ISET.NE.AND RZ.CC` (eigenvalues__bisectKernel,
                // sm_61): the zero flag would decide it, but the analysis (`isa::blocks`,
                // `cfg`'s transfer) splits a branch by its guard alone, so a run could take
                // a divergence the bound does not cover.
                return Err(cannot(
                    ins,
                    "condition-code branches are not modelled (the warp-level analysis \
                     divides a branch by its guard only, not by the condition code, so a \
                     run could diverge where the bound does not)",
                ));
            }
            Control::Branch {
                target: idx(t)?,
                uniform: ins.opcode.has_modifier("U"),
                convergence: (ins.guard.is_none() && cfg::barriers::on_convergence(ins))
                    .then(|| ins.opcode.has_modifier("DIV")),
            }
        }
        ControlKind::Ssy(_)
        | ControlKind::Pbk(_)
        | ControlKind::Pcnt(_)
        | ControlKind::Pret(_)
        | ControlKind::Bssy { .. } => {
            let Some((tag, t)) = cfg::Tag::pushed_by(ins.control) else {
                return Err(cannot(ins, "not a reconvergence instruction"));
            };
            Control::Prepare {
                tag,
                target: idx(t)?,
            }
        }
        ControlKind::Sync | ControlKind::Brk | ControlKind::Cont | ControlKind::Ret => {
            Control::Halt(cfg::Tag::unwound_by(ins.control))
        }
        ControlKind::Exit => Control::Halt(None),
        // A predicated call splits the callers from the others (`ActivationStack::call`).
        ControlKind::Call(Some(t)) => Control::Call {
            target: idx(Some(t))?,
        },
        ControlKind::Call(None) => {
            return Err(cannot(ins, "the callee is outside this listing"));
        }
        ControlKind::Indirect => return Err(cannot(ins, "indirect branch targets are not known")),
    })
}

fn slot(r: &Register) -> Option<u16> {
    match r {
        Register::Gpr(n) if *n < 256 => Some(*n as u16),
        Register::Pred(n) if *n < 8 => Some((PRED_SLOT + *n as usize) as u16),
        Register::Uniform(n) if *n < 64 => Some((UNIFORM_SLOT + *n as usize) as u16),
        Register::UniformPred(n) if *n < 8 => Some((UPRED_SLOT + *n as usize) as u16),
        Register::CarryFlag => Some(CC_SLOT as u16),
        _ => None,
    }
}

/// The `NN` of the kernel's `sm_NN` architecture, if it names one.
pub(crate) fn arch_number(kernel: &Kernel) -> Option<u32> {
    kernel
        .arch
        .as_deref()
        .and_then(|a| a.strip_prefix("sm_"))
        .and_then(|v| {
            v.trim_end_matches(|c: char| c.is_ascii_alphabetic())
                .parse()
                .ok()
        })
}

/// Decodes every instruction of `kernel` for `launch`: one result per instruction.
pub(crate) fn decode(kernel: &Kernel, launch: &Launch) -> Vec<Result<Decoded, (Span, String)>> {
    let layout = ConstantLayout::for_arch(kernel.arch.as_deref());
    let volta = arch_number(kernel).is_some_and(|v| v >= 70);
    let (ubase, _) = register_file(kernel);
    let mut block_at = vec![None; kernel.instructions.len()];
    for b in &isa::blocks::build(kernel, &isa::Limits::default()).blocks {
        if let Some(slot) = block_at.get_mut(b.first) {
            *slot = Some(b.id);
        }
    }
    kernel
        .instructions
        .iter()
        .enumerate()
        .map(|(i, ins)| {
            let ctx = Ctx {
                ins,
                launch,
                layout,
                volta,
                ubase,
            };
            let guard = match &ins.guard {
                None => PredSrc {
                    idx: PT,
                    neg: false,
                },
                Some(g) => match &g.reg {
                    Register::Pred(n) if *n < 7 => PredSrc {
                        idx: *n as u8,
                        neg: g.negated,
                    },
                    Register::UniformPred(n) if *n < 7 => PredSrc {
                        idx: UPRED + *n as u8,
                        neg: g.negated,
                    },
                    Register::True => PredSrc {
                        idx: PT,
                        neg: g.negated,
                    },
                    _ => return Err(cannot(ins, "guard predicate")),
                },
            };
            // `@!PT SHFL.IDX PT, RZ, RZ, RZ, RZ` (sm_70 prologues): never executes.
            let (op, uniform) = if guard.idx == PT && guard.neg {
                (Op::Nop, false)
            } else {
                decode_op(&ctx)?
            };
            let control = control(ins, kernel, &block_at, i)?;
            let reads = ins.reads.iter().filter_map(slot).collect();
            let writes = ins.writes.iter().filter_map(slot).collect();
            Ok(Decoded {
                op,
                uniform,
                control,
                guard,
                reads,
                writes,
            })
        })
        .collect()
}
