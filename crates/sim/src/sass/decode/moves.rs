//! Decoding of moves and constants (`MOV`, `MOV32I`, `LDC`, `CS2R`, the constant form of
//! `HFMA2.MMA`, `S2R`, `R2UR`).

use super::*;

/// The sm_70+ forms of this family (`None`: not one of them).
pub(super) fn volta(c: &Ctx, name: &str, m: &mut Mods) -> DecodeResult<Option<Op>> {
    let ins = c.ins;
    let o = |i: usize| ins.operands.get(i);
    let n = ins.operands.len();
    Ok(Some(match name {
        "LDC" => {
            operand_count(ins, 2)?;
            let d = c.dest(o(0))?;
            let byte = m.take_any(|t| match t {
                "U8" => Some(false),
                "S8" => Some(true),
                _ => None,
            });
            if let Some(op) = indexed_bank0(c, d, byte, m)? {
                op
            } else if let (Some(_), true) = (byte, unknown_bank(c, o(1))) {
                Op::Mov { d, a: zero() }
            } else if let Some(signed) = byte {
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
        "MOV" if n == 3 => {
            // `MOV d, a, 0xf`: the byte-lane mask of all four bytes.
            if c.imm(o(2), "lane mask")? != 0xf {
                return Err(cannot(ins, "a partial byte-lane mask"));
            }
            Op::Mov {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
            }
        }
        _ => return Ok(None),
    }))
}

/// The forms of this family common to every architecture (`None`: not one of them).
pub(super) fn common(c: &Ctx, name: &str, _m: &mut Mods) -> DecodeResult<Option<Op>> {
    let ins = c.ins;
    let o = |i: usize| ins.operands.get(i);
    Ok(Some(match name {
        "MOV" | "MOV32I" => {
            operand_count(ins, 2)?;
            Op::Mov {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
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
        _ => return Ok(None),
    }))
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

/// Whether `op` is a word of constant banks 1–3 that this launch reads as 0
/// (`Launch::unknown_banks_zero`).
fn unknown_bank(c: &Ctx, op: Option<&Operand>) -> bool {
    c.launch.unknown_banks_zero
        && matches!(
            op.map(|o| &o.kind),
            Some(OperandKind::Constant { bank: 1..=3, .. })
        )
}

/// `LDC d, c[0x0][Rn+off]` / `ULDC d, c[0x0][URn+off]`: a word (`.64`: two, `.U8`/`.S8`: a
/// byte) of constant bank 0 at an address computed at run time — a kernel parameter read by
/// index (an array passed by value, indexed with a variable). The bank's words are what the
/// launch defines: the block and grid shape, the stack pointer and window words, the
/// parameters ([`ConstantLayout`]); they are copied into the operation here, so that the
/// run reads them as the direct reads do. `None`: not an indexed read of bank 0.
fn indexed_bank0(c: &Ctx, d: u16, byte: Option<bool>, m: &mut Mods) -> DecodeResult<Option<Op>> {
    let ins = c.ins;
    let Some(op) = ins.operands.get(1) else {
        return Ok(None);
    };
    let OperandKind::Constant { bank: 0, address } = &op.kind else {
        return Ok(None);
    };
    let base = match &address.base {
        None | Some(Register::Zero) => return Ok(None),
        Some(Register::Gpr(n)) if *n < 252 => *n as u16,
        Some(Register::Uniform(n)) => operands::uniform_row(op, *n, c.ubase)?,
        Some(_) => return Err(cannot(ins, &format!("the index of `{}`", op.text))),
    };
    let bytes = match byte {
        Some(_) => 1,
        None if m.take("64") => 8,
        None => 4,
    };
    let end = c.layout.params as usize / 4 + c.launch.params.len();
    let words = (0..end)
        .map(|i| c.layout.read(c.launch, 4 * i as i64))
        .collect();
    Ok(Some(Op::LdcIndexed {
        d,
        base,
        offset: address.offset,
        bytes,
        signed: byte == Some(true),
        words,
    }))
}
