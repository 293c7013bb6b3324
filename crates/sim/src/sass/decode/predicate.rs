//! Decoding of the opcodes that set or combine predicates (`ISETP`, `PSETP`, `PLOP3`), move
//! them to and from registers (`P2R`, `R2P`) or into a register as a boolean (`PSET`).

use super::*;

/// The sm_70+ forms of this family (`None`: not one of them).
pub(super) fn volta(c: &Ctx, name: &str, m: &mut Mods) -> DecodeResult<Option<Op>> {
    let ins = c.ins;
    let o = |i: usize| ins.operands.get(i);
    Ok(Some(match name {
        "PLOP3" => {
            operand_count(ins, 7)?;
            m.take("LUT");
            let lut_p = c.imm(o(5), "lookup table")?;
            let lut_q = c.imm(o(6), "lookup table")?;
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
        "P2R" => {
            operand_count(ins, 4)?;
            if o(1).is_none_or(|x| x.text != "PR") {
                return Err(cannot(ins, "only `P2R d, PR, a, mask` is modelled"));
            }
            Op::P2R {
                d: c.dest(o(0))?,
                a: c.src(o(2))?,
                mask: c.imm(o(3), "mask")?,
            }
        }
        _ => return Ok(None),
    }))
}

/// The forms of this family common to every architecture (`None`: not one of them).
pub(super) fn common(c: &Ctx, name: &str, m: &mut Mods) -> DecodeResult<Option<Op>> {
    let ins = c.ins;
    let o = |i: usize| ins.operands.get(i);
    Ok(Some(match name {
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
        // `PSET.bop0.bop1 Rd, Pp, Pq, Pr` (Maxwell–Pascal; Rodinia nw: `PSET.AND.AND R4, P6,
        // PT, PT`): NVIDIA's instruction set reference calls it "Combine Predicates and Set".
        // Reading: the predicates combined as `PSETP` combines them (`(Pp bop0 Pq) bop1
        // Pr`, the three-operand form ending in `.AND PT`), the register set as `ISET`/
        // `FSET` set theirs (all ones where it holds, `.BF`: 1.0, else 0; `.BM` names
        // the all-ones default).
        "PSET" => {
            let bf = m.take("BF");
            m.take("BM");
            let op1 = m
                .take_any(bool_of)
                .ok_or_else(|| cannot(ins, "missing boolean operation"))?;
            let op2 = m.take_any(bool_of).unwrap_or(BoolOp::And);
            let c3 = match ins.operands.len() {
                3 => PredSrc {
                    idx: PT,
                    neg: false,
                },
                4 => c.pred_src(o(3))?,
                n => return Err(cannot(ins, &format!("expected 3 or 4 operands, found {n}"))),
            };
            Op::PSet {
                d: c.dest(o(0))?,
                a: c.pred_src(o(1))?,
                b: c.pred_src(o(2))?,
                c: c3,
                op1,
                op2,
                bf,
            }
        }
        // `R2P PR, R0, 0x3` (Rodinia particlefilter, sm_61 and sm_70): "Move Register To
        // Predicate Register" (Maxwell–Pascal: "… To Predicate/CC Register"). Reading: the
        // inverse of `P2R` — predicate Pi takes bit i of the register for each bit i of the
        // mask (bits 0–6); a mask reaching bit 7 and up (the condition code) is refused.
        "R2P" => {
            operand_count(ins, 3)?;
            if o(0).is_none_or(|x| x.text != "PR") {
                return Err(cannot(ins, "only `R2P PR, a, mask` is modelled"));
            }
            let bits = c.imm(o(2), "mask")?;
            if bits > 0x7f {
                return Err(cannot(
                    ins,
                    "a mask beyond P0..P6 (the condition code) is not modelled",
                ));
            }
            Op::R2P {
                a: c.src(o(1))?,
                mask: bits as u8,
            }
        }
        "CSETP" | "CSET" => return Err(cannot(ins, super::control::CONDITION_CODE)),
        _ => return Ok(None),
    }))
}
