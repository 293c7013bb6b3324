//! Warp-wide operations: `VOTE`, `SHFL`, `MATCH.ANY`, `REDUX`.

use super::*;

/// PTX `shfl.sync` for lane `lane` of a 32-lane warp: the source lane and whether it is in
/// range (`pval`; out of range, a lane reads itself).
fn shfl_source(mode: ShflMode, lane: u32, b: u32, c: u32) -> (u32, bool) {
    let segmask = (c >> 8) & 0x1f;
    let clamp = c & 0x1f;
    let max_lane = (lane & segmask) | (clamp & !segmask);
    let min_lane = lane & segmask;
    let b = b & 0x1f;
    let (j, ok) = match mode {
        ShflMode::Up => {
            let j = lane as i32 - b as i32;
            (j, j >= max_lane as i32)
        }
        ShflMode::Down => {
            let j = (lane + b) as i32;
            (j, j <= max_lane as i32)
        }
        ShflMode::Bfly => {
            let j = (lane ^ b) as i32;
            (j, j <= max_lane as i32)
        }
        ShflMode::Idx => {
            let j = (min_lane | (b & !segmask)) as i32;
            (j, j <= max_lane as i32)
        }
    };
    if ok {
        (j as u32, true)
    } else {
        (lane, false)
    }
}

/// The rarer warp operations (sm_70+ forms; [`execute_alu`]'s contract), kept out of the
/// common path.
#[inline(never)]
pub(super) fn execute(op: &Op, ex: Exec<'_>) -> Result<(), String> {
    let Exec(regs, ids, mask, [a_v, b_v, c_v, r_v]) = ex;
    let ws = regs.ws;
    match *op {
        Op::MatchAny { d, a } => {
            a.ints(regs, ids, a_v);
            for l in lanes(mask) {
                let mut same = 0u64;
                for j in lanes(mask) {
                    same |= u64::from(a_v[j] == a_v[l]) << j;
                }
                // A 32-bit lane mask (SASS warps have 32 lanes).
                r_v[l] = same as u32;
            }
            regs.write(d, mask, r_v);
        }
        Op::Redux { d, a, op } => {
            if mask == 0 {
                return Ok(());
            }
            a.ints(regs, ids, a_v);
            let vals = lanes(mask).map(|l| a_v[l]);
            let r = match op {
                ReduxOp::Sum => vals.fold(0u32, u32::wrapping_add),
                ReduxOp::And => vals.fold(u32::MAX, |x, y| x & y),
                ReduxOp::Or => vals.fold(0, |x, y| x | y),
                ReduxOp::Xor => vals.fold(0, |x, y| x ^ y),
                ReduxOp::Min { signed: true } => vals.map(|v| v as i32).min().unwrap_or(0) as u32,
                ReduxOp::Min { signed: false } => vals.min().unwrap_or(0),
                ReduxOp::Max { signed: true } => vals.map(|v| v as i32).max().unwrap_or(0) as u32,
                ReduxOp::Max { signed: false } => vals.max().unwrap_or(0),
            };
            // The destination is uniform: every lane.
            r_v[..ws].fill(r);
            regs.write(d, u64::MAX, r_v);
        }
        Op::Vote {
            d,
            p,
            src,
            all,
            uniform,
        } => {
            let ballot = regs.pred_mask(src, mask);
            let holds = if all { ballot == mask } else { ballot != 0 };
            // A uniform destination is the warp's: every lane is written.
            let to = if uniform && mask != 0 { u64::MAX } else { mask };
            r_v[..ws].fill(ballot as u32);
            regs.write(d, to, r_v);
            regs.set_pred(p, to, if holds { u64::MAX } else { 0 });
        }
        Op::Shfl {
            d,
            p,
            a,
            b,
            c,
            mode,
        } => {
            if ws != 32 {
                return Err("SHFL is modelled for 32-lane warps only".into());
            }
            a.ints(regs, ids, a_v);
            b.ints(regs, ids, b_v);
            c.ints(regs, ids, c_v);
            let mut in_range = 0u64;
            for l in 0..ws {
                let (j, ok) = shfl_source(mode, l as u32, b_v[l], c_v[l]);
                r_v[l] = a_v[j as usize & 31];
                in_range |= u64::from(ok) << l;
            }
            regs.write(d, mask, r_v);
            regs.set_pred(p, mask, in_range);
        }
        _ => return Err("not a warp operation".into()),
    }
    Ok(())
}
