//! Decoding of the Kepler–Pascal (and Fermi) forms that the common decoder does not cover
//! (issue #26 item 1): the opcodes measured in the real listings of the corpus
//! (`tests/corpus_decode.rs`). `None`: not one of them, the common decoder goes on.
//!
//! Where an opcode has the same operands as on sm_70+ (`SHFL`, `VOTE`, `MUFU`, `FCHK`,
//! `FLO`, `POPC`, `SHF`, atomics, `LDC`), the sm_70+ decoder is used; the differences
//! (carries through the carry flag, no predicate result of `ATOM`) are handled there or
//! here.

use super::*;

/// `1/(2π)` in single precision (the factor `RRO.SINCOS` applies here).
const INV_TWO_PI: f32 = 0.159_154_94;

pub(super) fn decode(c: &Ctx, name: &str, m: &mut Mods) -> DecodeResult<Option<Op>> {
    let ins = c.ins;
    let o = |i: usize| ins.operands.get(i);
    let n = ins.operands.len();
    if super::texture::OPCODES.contains(&name) {
        return super::texture::decode(c, name, m).map(Some);
    }
    Ok(Some(match name {
        "SHFL" | "VOTE" | "MUFU" | "FCHK" | "FLO" | "SHF" | "PRMT" | "ATOM" | "ATOMS" | "RED"
        | "LDC" => return decode_volta(c, name, m),
        "POPC" if n == 2 => return decode_volta(c, name, m),
        "POPC" => {
            operand_count(ins, 3)?;
            Op::PopcAnd {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                b: c.src(o(2))?,
            }
        }
        "TEXDEPBAR" => {
            // Waits for texture results: the scoreboard of each fetch's destination already
            // holds a reader until the value is written back (sim::texture: class latency).
            m.left.clear();
            Op::Nop
        }
        "LEA" => {
            // Pascal prints `LEA d(.CC), a, b[, shift]` and `LEA.HI(.X) [P,] d, a, b, hi[,
            // shift]`; an omitted shift is 0 (`LEA R8.CC, R4, RZ; LEA.HI.X P0, R9, R4, RZ,
            // R5` copies R5:R4). `P` is written with the carry out of the high word; `.X`
            // adds the carry flag.
            let hi = m.take("HI");
            let x = m.take("X");
            let k = usize::from(matches!(
                o(0).and_then(Operand::register),
                Some(Register::Pred(_) | Register::True)
            ));
            let cout = if k == 1 {
                Some(c.pred_dest(o(0))?)
            } else {
                None
            };
            let fixed = k + if hi { 4 } else { 3 };
            let shift = match n.checked_sub(fixed) {
                Some(0) => 0,
                Some(1) => match c.src(o(fixed))?.kind {
                    SrcKind::Value(v, _) if v < 32 => v,
                    _ => return Err(cannot(ins, "the shift must be an immediate below 32")),
                },
                _ => return Err(cannot(ins, "unexpected operands")),
            };
            let cc = o(k).is_some_and(|d| d.suffixes.iter().any(|s| s == "CC"));
            Op::Lea {
                d: c.dest(o(k))?,
                a: c.src(o(k + 1))?,
                b: c.src(o(k + 2))?,
                hi_src: if hi { c.src(o(k + 3))? } else { zero() },
                shift,
                hi,
                sx32: false,
                cin: None,
                cout,
                cc_in: x,
                cc,
            }
        }
        "IADD3" if m.left.iter().any(|t| matches!(*t, "RS" | "LS")) => {
            operand_count(ins, 4)?;
            let right = m.take("RS");
            m.take("LS");
            Op::IAdd3Shift {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                b: c.src(o(2))?,
                c: c.src(o(3))?,
                right,
            }
        }
        "IMNMX" if m.left.iter().any(|t| matches!(*t, "XHI" | "XLO")) => {
            operand_count(ins, 4)?;
            let high = m.take("XHI");
            m.take("XLO");
            let unsigned = m.take("U32");
            m.take("S32");
            Op::IMnMx64 {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                b: c.src(o(2))?,
                p: c.pred_src(o(3))?,
                signed: !unsigned,
                high,
            }
        }
        "VADD" | "VMNMX" => {
            // Whole-word forms with a secondary operation only (sub-word selects, `.SAT`
            // and the merge modes are refused by the leftover-modifier check or here).
            // Signedness: `.S32`/`.U32` when printed; Fermi listings print none, and
            // then the operands are read as signed (the compiler's `max3` of ints, e.g.
            // mgpu's segmented scans, mirrored by the signed `IMNMX` beside them; for
            // `VADD` without `.SAT` the sign does not change the sum).
            operand_count(ins, 4)?;
            let mut signed = true;
            while let Some(s) = m.take_any(|t| match t {
                "U32" | "UD" => Some(false),
                "S32" | "SD" => Some(true),
                _ => None,
            }) {
                signed = s;
            }
            let first = if name == "VADD" {
                VideoOp::Add
            } else if m.take("MX") {
                VideoOp::Max
            } else {
                VideoOp::Min
            };
            let second = if m.take("ACC") {
                VideoOp::Add
            } else if m.take("MAX") {
                VideoOp::Max
            } else if m.take("MIN") {
                VideoOp::Min
            } else {
                return Err(cannot(
                    ins,
                    "only the forms with a secondary operation (.ACC, .MIN, .MAX) are modelled",
                ));
            };
            if ins
                .operands
                .iter()
                .any(|op| op.suffixes.iter().any(|s| !s.eq_ignore_ascii_case("reuse")))
            {
                return Err(cannot(ins, "sub-word operand selects are not modelled"));
            }
            Op::Video3 {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                b: c.src(o(2))?,
                c: c.src(o(3))?,
                first,
                second,
                signed,
            }
        }
        "BFE" => {
            operand_count(ins, 3)?;
            let unsigned = m.take("U32");
            m.take("S32");
            Op::Bfe {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                ctl: c.src(o(2))?,
                signed: !unsigned,
                brev: m.take("BREV"),
            }
        }
        "BFI" => {
            operand_count(ins, 4)?;
            Op::Bfi {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                ctl: c.src(o(2))?,
                c: c.src(o(3))?,
            }
        }
        "ICMP" | "FCMP" => {
            operand_count(ins, 4)?;
            let float = name == "FCMP";
            let cmp = match m.take_any(cmp_of) {
                Some(cmp) => cmp,
                // `FCMP R0, R5, R0, R6` (Rodinia kmeans, sm_61) prints no comparison; its
                // comparison field holds 4 (`0x5ba4…`), the field that holds 0xb in
                // `FCMP.LEU` (`0x5bab…`), 1 in `.LT` (`0x36a1…`), 0xd in `.NEU`, 0xe in
                // `.GEU`: the order of `.F, .LT, .EQ, .LE, .GT, …` that PTX and every
                // printed form follow, so 4 is `.GT`, which this disassembler leaves out.
                None if float => Cmp::Gt,
                None => return Err(cannot(ins, "missing comparison")),
            };
            let unsigned = m.take("U32");
            m.take("S32");
            let ftz = m.take("FTZ");
            let src = |i: usize| {
                if float {
                    c.float_src(o(i))
                } else {
                    c.src(o(i))
                }
            };
            Op::CmpSel {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                b: src(2)?,
                c: src(3)?,
                cmp,
                signed: !unsigned,
                float,
                ftz,
            }
        }
        "ISET" | "FSET" => {
            operand_count(ins, 4)?;
            let cmp = m
                .take_any(cmp_of)
                .ok_or_else(|| cannot(ins, "missing comparison"))?;
            let float = name == "FSET";
            // `ISET.X`: the 64-bit comparison through the flags, as `ISETP.X`.
            let x = !float && m.take("X");
            let unsigned = m.take("U32");
            m.take("S32");
            let bop = m.take_any(bool_of).unwrap_or(BoolOp::And);
            let src = |i: usize| {
                if float {
                    c.float_src(o(i))
                } else {
                    c.src(o(i))
                }
            };
            Op::SetReg {
                d: c.dest(o(0))?,
                a: src(1)?,
                b: src(2)?,
                p: c.pred_src(o(3))?,
                cmp,
                signed: !unsigned,
                float,
                bop,
                bf: m.take("BF"),
                ftz: m.take("FTZ"),
                x,
            }
        }
        "I2I" => {
            operand_count(ins, 2)?;
            let dst = m
                .take_any(int_type)
                .ok_or_else(|| cannot(ins, "missing destination type"))?;
            let src = m.take_any(int_type).unwrap_or(IntType {
                bits: 32,
                signed: true,
            });
            if dst.bits > 32 || src.bits > 32 {
                return Err(cannot(ins, "64-bit integer conversions are not modelled"));
            }
            Op::I2I {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                dst,
                src,
                sat: m.take("SAT"),
            }
        }
        // Range reduction before `MUFU` (Maxwell–Pascal; Fermi–Kepler name it `RRO`):
        // `.EX2` passes the value on (`MUFU.EX2` takes the float itself), `.SINCOS`
        // divides by 2π (`MUFU.SIN`/`COS` take turns, see the semantics).
        "RRO" => {
            operand_count(ins, 2)?;
            if m.take("EX2") {
                Op::Mov {
                    d: c.dest(o(0))?,
                    a: c.src(o(1))?,
                }
            } else if m.take("SINCOS") {
                Op::Float {
                    kind: FloatKind::Mul,
                    d: c.dest(o(0))?,
                    a: c.float_src(o(1))?,
                    b: Src {
                        kind: SrcKind::Value(INV_TWO_PI.to_bits(), None),
                        float_imm: Some(f64::from(INV_TWO_PI)),
                        ..zero()
                    },
                    c: zero(),
                    ftz: false,
                    sat: false,
                    double: false,
                    p: PredSrc {
                        idx: PT,
                        neg: false,
                    },
                    round: Round::Nearest,
                    scale: 0,
                }
            } else {
                return Err(cannot(ins, "only .EX2 and .SINCOS are modelled"));
            }
        }
        _ => return Ok(None),
    }))
}
