//! Operations that set or combine predicates: `ISETP`, `PSETP`, `PLOP3`, `P2R`, `R2P`, `PSET`.

use super::*;

/// Result bits of a 3-input lookup table, bit by bit (`a` = 0xF0, `b` = 0xCC, `c` = 0xAA
/// reproduce themselves): `PLOP3` on whole lane masks, `LOP3` on register values (widened;
/// each bit of the result depends on the same bit of the inputs only).
#[inline]
pub(super) fn lut3(lut: u8, a: u64, b: u64, c: u64) -> u64 {
    let mut v = 0u64;
    for i in 0..8u8 {
        if lut >> i & 1 == 1 {
            let pa = if i & 4 != 0 { a } else { !a };
            let pb = if i & 2 != 0 { b } else { !b };
            let pc = if i & 1 != 0 { c } else { !c };
            v |= pa & pb & pc;
        }
    }
    v
}

#[inline]
pub(super) fn cmp_int(c: Cmp, a: u32, b: u32, signed: bool) -> Result<bool, String> {
    let o = if signed {
        (a as i32).cmp(&(b as i32))
    } else {
        a.cmp(&b)
    };
    use std::cmp::Ordering::*;
    Ok(match c {
        Cmp::F => false,
        Cmp::T => true,
        Cmp::Lt => o == Less,
        Cmp::Eq => o == Equal,
        Cmp::Le => o != Greater,
        Cmp::Gt => o == Greater,
        Cmp::Ne => o != Equal,
        Cmp::Ge => o != Less,
        _ => return Err("an unordered comparison on integers".into()),
    })
}

/// The predicate operations of the common path ([`execute_alu`]'s contract), inlined there.
#[inline(always)]
pub(super) fn execute(op: &Op, ex: Exec<'_>) -> Result<(), String> {
    let Exec(regs, ids, mask, [a_v, b_v, ..]) = ex;
    match *op {
        Op::ISetP {
            p,
            q,
            cmp,
            signed,
            a,
            b,
            bop,
            c,
            x,
            ex,
        } => {
            if x {
                return kepler_pascal::isetp_x(
                    regs,
                    ids,
                    mask,
                    [p, q],
                    cmp,
                    signed,
                    [a, b],
                    bop,
                    c,
                );
            }
            let cm = regs.pred_mask(c, mask);
            let low = ex.map(|e| regs.pred_mask(e, u64::MAX));
            let (ax, bx) = (a.int_view(regs, ids, a_v), b.int_view(regs, ids, b_v));
            // The comparison is checked once; then every lane (inactive ones are masked
            // off by `set_pred`) in a loop without early exits.
            cmp_int(cmp, 0, 0, signed)?;
            let r = lanes_where(regs.ws, |l| match low {
                // `.EX`: equal high words leave the low words' result.
                Some(lo) if ax[l] == bx[l] => lo >> l & 1 == 1,
                _ => cmp_int(cmp, ax[l], bx[l], signed).unwrap_or(false),
            });
            let (pb, qb) = (bop.bits(r, cm), bop.bits(!r, cm));
            regs.set_pred(p, mask, pb);
            regs.set_pred(q, mask, qb);
        }
        Op::PSetP {
            p,
            q,
            a,
            b,
            op1,
            op2,
            c,
        } => {
            // Whole masks at once: the boolean operations are bitwise.
            let (am, bm, cm) = (
                regs.pred_mask(a, mask),
                regs.pred_mask(b, mask),
                regs.pred_mask(c, mask),
            );
            let r = op1.bits(am, bm);
            regs.set_pred(p, mask, op2.bits(r, cm));
            regs.set_pred(q, mask, op2.bits(!r & mask, cm));
        }
        _ => return Err("not a predicate operation".into()),
    }
    Ok(())
}

/// The rarer predicate operations (sm_70+ forms; [`execute_alu`]'s contract), kept out of the
/// common path.
#[inline(never)]
pub(super) fn execute_rare(op: &Op, ex: Exec<'_>) -> Result<(), String> {
    let Exec(regs, ids, mask, [a_v, .., r_v]) = ex;
    let ws = regs.ws;
    match *op {
        Op::PSet {
            d,
            a,
            b,
            c,
            op1,
            op2,
            bf,
        } => {
            let (am, bm, cm) = (
                regs.pred_mask(a, mask),
                regs.pred_mask(b, mask),
                regs.pred_mask(c, mask),
            );
            one_where(op2.bits(op1.bits(am, bm), cm), bf, &mut r_v[..ws]);
            regs.write(d, mask, r_v);
        }
        Op::R2P { a, mask: m } => {
            a.ints(regs, ids, a_v);
            for i in (0..7u8).filter(|i| m >> i & 1 == 1) {
                let bits = lanes_where(ws, |l| a_v[l] >> i & 1 == 1);
                regs.set_pred(i, mask, bits);
            }
        }
        Op::P2R { d, a, mask: m } => {
            a.ints(regs, ids, a_v);
            for l in 0..ws {
                let mut pr = 0u32;
                for i in 0..7 {
                    pr |= ((regs.pred[i] >> l & 1) as u32) << i;
                }
                r_v[l] = (a_v[l] & !m) | (pr & m);
            }
            regs.write(d, mask, r_v);
        }
        Op::Plop3 {
            p,
            q,
            a,
            b,
            c,
            lut_p,
            lut_q,
        } => {
            let (am, bm, cm) = (
                regs.pred_mask(a, u64::MAX),
                regs.pred_mask(b, u64::MAX),
                regs.pred_mask(c, u64::MAX),
            );
            regs.set_pred(p, mask, lut3(lut_p, am, bm, cm));
            regs.set_pred(q, mask, lut3(lut_q, am, bm, cm));
        }
        _ => return Err("not a predicate operation".into()),
    }
    Ok(())
}
