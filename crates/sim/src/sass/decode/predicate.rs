//! Decoding of the opcodes that set or combine predicates (`ISETP`, `PSETP`, `PLOP3`, `P2R`).

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
        _ => return Ok(None),
    }))
}
