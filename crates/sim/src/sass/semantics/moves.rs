//! Moves and constants: `MOV`, `S2R`, the 64-bit constants (`LDC.64`, `CS2R`) and `R2UR`.

use super::*;

/// The moves operations of the common path ([`execute_alu`]'s contract), inlined there.
#[inline(always)]
pub(super) fn execute(
    op: &Op,
    regs: &mut WarpRegs,
    ids: &ThreadIds,
    mask: u64,
    scratch: &mut AluScratch,
) -> Result<(), String> {
    let AluScratch { a: a_v, r: r_v, .. } = scratch;
    match *op {
        Op::Mov { d, a } => {
            a.ints(regs, ids, a_v);
            regs.write(d, mask, a_v);
        }
        Op::S2R { d, sr } => {
            let s = Src {
                kind: SrcKind::Special(sr),
                neg: false,
                inv: false,
                abs: false,
                half: Half::Whole,
                float_imm: None,
            };
            s.fetch_all(regs, ids, r_v);
            regs.write(d, mask, r_v);
        }
        _ => return Err("not a moves operation".into()),
    }
    Ok(())
}

/// The rarer moves operations (sm_70+ forms; [`execute_alu`]'s contract), kept out of the
/// common path.
#[inline(never)]
pub(super) fn execute_rare(
    op: &Op,
    regs: &mut WarpRegs,
    ids: &ThreadIds,
    mask: u64,
    scratch: &mut AluScratch,
) -> Result<(), String> {
    let ws = regs.ws;
    let AluScratch { a: a_v, r: r_v, .. } = scratch;
    match *op {
        Op::Const64 { d, lo, hi } => {
            r_v[..ws].fill(lo);
            regs.write(d, mask, r_v);
            if d != RZ_DEST {
                r_v[..ws].fill(hi);
                regs.write(d + 1, mask, r_v);
            }
        }
        Op::R2Ur { d, a } => {
            if let Some(l) = first_lane(mask) {
                a.ints(regs, ids, a_v);
                r_v[..ws].fill(a_v[l]);
                regs.write(d, u64::MAX, r_v);
            }
        }
        _ => return Err("not a moves operation".into()),
    }
    Ok(())
}
