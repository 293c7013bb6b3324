//! Operand readings: registers (general, uniform, predicate), immediates, constant-bank
//! words read from the launch, and memory operands.

use super::*;

pub(super) fn gpr(op: &Operand, ins: &Instruction) -> DecodeResult<u16> {
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
pub(super) fn uniform_row(op: &Operand, n: u32, ubase: u16) -> DecodeResult<u16> {
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
    pub(super) fn dest(&self, op: Option<&Operand>) -> DecodeResult<u16> {
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

    pub(super) fn src(&self, op: Option<&Operand>) -> DecodeResult<Src> {
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
                Immediate::Symbol(_) if value.as_linked_int().is_some() => {
                    SrcKind::Value(0, Some(0))
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
                } else if (1..=3).contains(bank) && self.launch.unknown_banks_zero {
                    // An automatic launch's stand-in (`Launch::unknown_banks_zero`): every
                    // word of these banks reads 0, so an indexed read (`LDC R5,
                    // c[0x3][R9+0x10]`, a compiler's table looked up by a computed index)
                    // does too, whatever its index.
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
    ///
    /// An immediate written with a `.NEG` suffix (`FFMA R16, R19, 11.NEG, R16`, Pascal
    /// listings of Rodinia myocyte) is that number negated: the disassembler prints the
    /// instruction's negate-operand bit (bit 48 of `0x3281084130071310`; the form without
    /// it, `FFMA R16, R19, 11, R16`, is `0x3280…`) after the 20-bit immediate, whose own sign
    /// bit (bit 56) it prints as `-` (`FFMA R24, R24, -1, RZ` is `0x3380…`). Negating an
    /// operand of a product is exact, so the two readings of the bit (negate the immediate,
    /// negate the product) agree.
    pub(super) fn float_src(&self, op: Option<&Operand>) -> DecodeResult<Src> {
        if let Some(s) = op.and_then(negated_immediate) {
            return Ok(s);
        }
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

    pub(super) fn pred_dest(&self, op: Option<&Operand>) -> DecodeResult<u8> {
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

    pub(super) fn pred_src(&self, op: Option<&Operand>) -> DecodeResult<PredSrc> {
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
    pub(super) fn addr(&self, op: Option<&Operand>, wide: bool) -> DecodeResult<AddrSrc> {
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

    /// A conversion's source, which may select a byte of its register (`R5.B1`).
    pub(super) fn src_bytes(&self, op: Option<&Operand>) -> DecodeResult<Src> {
        let Some(o) = op else {
            return self.src(op);
        };
        let byte = |s: &String| match s.as_str() {
            "B0" => Some(0u8),
            "B1" => Some(1),
            "B2" => Some(2),
            "B3" => Some(3),
            _ => None,
        };
        let Some(b) = o.suffixes.iter().find_map(byte) else {
            return self.src(op);
        };
        let mut plain = o.clone();
        plain.suffixes.retain(|s| byte(s).is_none());
        let mut s = self.src(Some(&plain))?;
        if !matches!(s.kind, SrcKind::Reg(_)) || s.half != Half::Whole {
            return Err(cannot(self.ins, &format!("byte select of `{}`", o.text)));
        }
        s.half = Half::Byte(b);
        Ok(s)
    }

    /// An immediate operand's value (`what` names it in the refusal).
    pub(super) fn imm(&self, op: Option<&Operand>, what: &str) -> DecodeResult<u32> {
        match self.src(op)?.kind {
            SrcKind::Value(v, _) => Ok(v),
            _ => Err(cannot(
                self.ins,
                &format!("the {what} must be an immediate"),
            )),
        }
    }

    /// Whether the destination is written with `.CC` (Kepler–Pascal: the flags too).
    pub(super) fn cc_dest(&self) -> bool {
        self.ins
            .operands
            .first()
            .is_some_and(|d| d.suffixes.iter().any(|s| s == "CC"))
    }
}

/// Why a constant operand other than bank 0 at a fixed offset is not read: banks 1–3 hold
/// what the compiler and driver put there (Fermi's stack pointer in bank 1, the compiler's
/// constant tables in banks 2 and 3: literals of math functions, switch tables), which a
/// `cuobjdump -sass` listing does not print; an indexed read of bank 0 reads beyond the
/// fixed words the launch defines.
pub(super) fn bank_refusal(text: &str, bank: u32) -> String {
    match bank {
        0 => format!(
            "`{text}`: an indexed read of constant bank 0 is modelled for `LDC`/`ULDC` only"
        ),
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

/// A float immediate printed with the `.NEG` suffix ([`Ctx::float_src`]), as a source.
fn negated_immediate(op: &Operand) -> Option<Src> {
    let text = op.text.trim().strip_suffix(".NEG")?;
    let (minus, body) = match text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, text),
    };
    let v: f64 = body.parse().ok()?;
    let v = if minus { v } else { -v };
    Some(Src {
        kind: SrcKind::Value((v as f32).to_bits(), None),
        float_imm: Some(v),
        ..zero()
    })
}
