//! Moves and constants: `MOV`, `S2R`, the 64-bit constants (`LDC.64`, `CS2R`) and `R2UR`.

use super::*;

/// The moves operations of the common path ([`execute_alu`]'s contract), inlined there.
#[inline(always)]
pub(super) fn execute(
    op: &Op,
    Exec(regs, ids, mask, [a_v, .., r_v]): Exec<'_>,
) -> Result<(), String> {
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
    Exec(regs, ids, mask, [a_v, .., r_v]): Exec<'_>,
) -> Result<(), String> {
    let ws = regs.ws;
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
        Op::LdcIndexed {
            d,
            base,
            offset,
            bytes,
            signed,
            ref words,
        } => {
            for l in lanes(mask) {
                let index = regs.reg(base, l);
                let at = i64::from(index) + offset;
                let word = |k: i64| -> Result<u32, String> {
                    usize::try_from(k)
                        .ok()
                        .and_then(|k| words.get(k).copied().flatten())
                        .ok_or_else(|| {
                            format!(
                                "the indexed constant read c[0x0][{at:#x}] (index {index:#x} + \
                                 {offset:#x}, lane {l}) reaches a word the launch does not \
                                 define ({} words of bank 0)",
                                words.len()
                            )
                        })
                };
                if at % i64::from(bytes.min(4)) != 0 {
                    return Err(format!(
                        "the indexed constant read c[0x0][{at:#x}] (lane {l}) is not aligned to \
                         its {bytes} bytes"
                    ));
                }
                let lo = word(at.div_euclid(4))?;
                match bytes {
                    1 => {
                        let b = (lo >> (8 * at.rem_euclid(4))) as u8;
                        let v = if signed {
                            b as i8 as i32 as u32
                        } else {
                            u32::from(b)
                        };
                        regs.set(d, l, v);
                    }
                    8 => {
                        let hi = word(at / 4 + 1)?;
                        regs.set_pair(d, l, u64::from(hi) << 32 | u64::from(lo));
                    }
                    _ => regs.set(d, l, lo),
                }
            }
        }
        _ => return Err("not a moves operation".into()),
    }
    Ok(())
}
