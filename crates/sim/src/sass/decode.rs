//! From IR instructions to the simulator's executable form: operands resolved (constant-bank
//! words read from the launch, registers numbered), opcode and modifiers checked against
//! the semantics [`super::semantics`] implements. Anything else is a located
//! "cannot simulate" diagnostic — never a guess. Decoding happens once per run; an
//! instruction that fails to decode only stops the run if a warp reaches it.

use crate::launch::{ConstantLayout, Launch};
use isa::{ControlKind, Immediate, Instruction, Kernel, Operand, OperandKind, Register, Span};

pub(crate) use super::executable::*;

type DecodeResult<T> = Result<T, (Span, String)>;

struct Ctx<'a> {
    ins: &'a Instruction,
    launch: &'a Launch,
    layout: ConstantLayout,
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

/// A destination GPR; `RZ` discards (encoded as `None` → slot 255 is never read).
fn dest(op: Option<&Operand>, ins: &Instruction) -> DecodeResult<u16> {
    let Some(op) = op else {
        return Err(cannot(ins, "missing destination operand"));
    };
    if op.register() == Some(&Register::Zero) {
        return Ok(RZ_DEST);
    }
    check_suffixes(op, ins, &["reuse", "CC"])?;
    gpr(op, ins)
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
                if *bank != 0 || address.base.as_ref().is_some_and(|b| *b != Register::Zero) {
                    return Err(cannot(
                        ins,
                        &format!(
                            "`{}`: only constant bank 0 at a fixed offset is simulated",
                            op.text
                        ),
                    ));
                }
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

    fn addr(&self, op: Option<&Operand>, wide: bool) -> DecodeResult<AddrSrc> {
        let Some(o) = op else {
            return Err(cannot(self.ins, "missing address operand"));
        };
        match &o.kind {
            OperandKind::Memory { address } => {
                let base = match &address.base {
                    None | Some(Register::Zero) => None,
                    Some(Register::Gpr(n)) if *n < 251 => Some(*n as u16),
                    Some(r) => {
                        return Err(cannot(self.ins, &format!("address register {r}")));
                    }
                };
                Ok(AddrSrc {
                    base,
                    wide,
                    offset: address.offset,
                })
            }
            _ => Err(cannot(
                self.ins,
                &format!("`{}` is not a memory operand", o.text),
            )),
        }
    }
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

/// Decodes the data effect of one instruction.
fn decode_op(c: &Ctx) -> DecodeResult<Op> {
    let ins = c.ins;
    let o = |i: usize| ins.operands.get(i);
    let mut m = Mods::new(ins);
    let cc_dest = o(0).is_some_and(|d| d.suffixes.iter().any(|s| s == "CC"));
    let op = match ins.opcode.name.as_str() {
        "NOP" | "MEMBAR" | "DEPBAR" => {
            m.left.clear();
            Op::Nop
        }
        "BRA" | "SSY" | "PBK" | "PCNT" | "PRET" | "SYNC" | "BRK" | "CONT" | "EXIT" | "RET"
        | "CAL" | "KIL" => {
            m.take("U");
            Op::Nop
        }
        "BAR" => {
            if !m.take("SYNC") || ins.operands.len() != 1 {
                return Err(cannot(ins, "only `BAR.SYNC <barrier>` is modelled"));
            }
            Op::Barrier
        }
        "MOV" | "MOV32I" => {
            operand_count(ins, 2)?;
            Op::Mov {
                d: dest(o(0), ins)?,
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
                d: dest(o(0), ins)?,
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
                d: dest(o(0), ins)?,
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
                d: dest(o(0), ins)?,
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
                d: dest(o(0), ins)?,
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
            Op::XMad {
                d: dest(o(0), ins)?,
                a: c.src(o(1))?,
                b: c.src(o(2))?,
                c: c.src(o(3))?,
                mrg: m.take("MRG"),
                psl: m.take("PSL"),
                cbcc: m.take("CBCC"),
                chi: m.take("CHI"),
            }
        }
        "ISETP" => {
            operand_count(ins, 5)?;
            let cmp = m
                .take_any(cmp_of)
                .ok_or_else(|| cannot(ins, "missing comparison"))?;
            let signed = !m.take("U32");
            m.take("S32");
            let bop = m.take_any(bool_of).unwrap_or(BoolOp::And);
            Op::ISetP {
                p: c.pred_dest(o(0))?,
                q: c.pred_dest(o(1))?,
                cmp,
                signed,
                a: c.src(o(2))?,
                b: c.src(o(3))?,
                bop,
                c: c.pred_src(o(4))?,
            }
        }
        "FSETP" | "DSETP" => {
            operand_count(ins, 5)?;
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
                d: dest(o(0), ins)?,
                a: c.src(o(1))?,
                b: c.src(o(2))?,
                left,
                signed,
            }
        }
        "LOP" | "LOP32I" => {
            operand_count(ins, 3)?;
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
                d: dest(o(0), ins)?,
                a: c.src(o(1))?,
                b: c.src(o(2))?,
                op,
            }
        }
        "LOP3" => {
            operand_count(ins, 5)?;
            m.take("LUT");
            let lut = match c.src(o(4))?.kind {
                SrcKind::Value(v, _) if v < 256 => v as u8,
                _ => return Err(cannot(ins, "the lookup table must be an immediate byte")),
            };
            Op::Lop3 {
                d: dest(o(0), ins)?,
                a: c.src(o(1))?,
                b: c.src(o(2))?,
                c: c.src(o(3))?,
                lut,
            }
        }
        "SEL" => {
            operand_count(ins, 4)?;
            Op::Sel {
                d: dest(o(0), ins)?,
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
                d: dest(o(0), ins)?,
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
            m.take("RN");
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
                d: dest(o(0), ins)?,
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
            }
        }
        "I2F" => {
            operand_count(ins, 2)?;
            if !m.take("F32") {
                return Err(cannot(ins, "only conversions to .F32 are modelled"));
            }
            let signed = if m.take("U32") {
                false
            } else {
                m.take("S32");
                true
            };
            let round = rounding(&mut m);
            Op::I2F {
                d: dest(o(0), ins)?,
                a: c.src(o(1))?,
                signed,
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
                d: dest(o(0), ins)?,
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
                d: dest(o(0), ins)?,
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
                d: dest(o(0), ins)?,
                sr,
            }
        }
        "LDG" | "LD" | "LDS" => {
            operand_count(ins, 2)?;
            let space = if ins.opcode.name == "LDS" {
                Space::Shared
            } else {
                Space::Global
            };
            let wide = m.take("E");
            // Cache operators change where the data is cached, not its value.
            for op in ["CG", "CA", "CS", "CV", "CI", "LU", "U"] {
                m.take(op);
            }
            let (bytes, sign_extend) = size(&mut m);
            Op::Load {
                space,
                d: dest(o(0), ins)?,
                addr: c.addr(o(1), wide)?,
                bytes,
                sign_extend,
            }
        }
        "STG" | "ST" | "STS" => {
            operand_count(ins, 2)?;
            let space = if ins.opcode.name == "STS" {
                Space::Shared
            } else {
                Space::Global
            };
            let wide = m.take("E");
            for op in ["CG", "CS", "WB", "WT", "U"] {
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
    Ok(op)
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

fn control(ins: &Instruction, kernel: &Kernel) -> DecodeResult<Control> {
    let idx = |t: Option<u64>| -> DecodeResult<usize> {
        t.and_then(|a| kernel.index_of(a))
            .ok_or_else(|| cannot(ins, "the target is not an instruction of this listing"))
    };
    Ok(match ins.control {
        // Convergence barriers are not simulated yet: threads run on without waiting, as
        // before the IR typed these instructions.
        ControlKind::Fallthrough
        | ControlKind::Barrier
        | ControlKind::Bssy { .. }
        | ControlKind::Bsync { .. }
        | ControlKind::Break { .. }
        | ControlKind::WarpSync => Control::Next,
        ControlKind::Branch(t) => {
            if ins
                .operands
                .iter()
                .any(|o| o.register() == Some(&Register::CarryFlag))
            {
                return Err(cannot(ins, "condition-code branches are not modelled"));
            }
            Control::Branch {
                target: idx(t)?,
                uniform: ins.opcode.has_modifier("U"),
            }
        }
        ControlKind::Ssy(_) | ControlKind::Pbk(_) | ControlKind::Pcnt(_) | ControlKind::Pret(_) => {
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
        ControlKind::Call(Some(t)) => {
            if ins.guard.as_ref().is_some_and(|g| !g.is_always_true()) {
                return Err(cannot(ins, "a predicated call is not modelled"));
            }
            Control::Call {
                target: idx(Some(t))?,
            }
        }
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
        Register::CarryFlag => Some(CC_SLOT as u16),
        _ => None,
    }
}

/// Decodes every instruction of `kernel` for `launch`: one result per instruction.
pub(crate) fn decode(kernel: &Kernel, launch: &Launch) -> Vec<Result<Decoded, (Span, String)>> {
    let layout = ConstantLayout::for_arch(kernel.arch.as_deref());
    kernel
        .instructions
        .iter()
        .map(|ins| {
            let ctx = Ctx {
                ins,
                launch,
                layout,
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
                    Register::True => PredSrc {
                        idx: PT,
                        neg: g.negated,
                    },
                    _ => return Err(cannot(ins, "guard predicate")),
                },
            };
            let op = decode_op(&ctx)?;
            let control = control(ins, kernel)?;
            let reads = ins.reads.iter().filter_map(slot).collect();
            let writes = ins.writes.iter().filter_map(slot).collect();
            Ok(Decoded {
                op,
                control,
                guard,
                reads,
                writes,
            })
        })
        .collect()
}
