//! A warp's texture fetches and surface accesses under the model of [`crate::texture`]:
//! each executing lane's texel address from its coordinates and the handle's binding, the
//! words moved in global memory, and the access's latency (the `texture` class).

use super::decode::{Op, Src, SrcKind, RZ_DEST};
use super::lane_memory;
use super::semantics::WarpRegs;
use crate::cycle_loop::{Access, Sm};
use crate::lane_set::lanes;
use crate::texture::{self, TEXEL_BYTES};

/// The handle `h` names in `lane`: a constant-bank pair (both words) or a register (32 bits).
fn handle(h: &Src, regs: &WarpRegs, lane: usize) -> u64 {
    match h.kind {
        SrcKind::Value(lo, hi) => u64::from(lo) | u64::from(hi.unwrap_or(0)) << 32,
        _ => u64::from(lane_memory::operand(h, regs, lane)),
    }
}

/// Executes the texture or surface instruction `op` for the lanes of `at.exec`; returns
/// its latency.
pub(super) fn execute(
    sm: &mut Sm,
    regs: &mut WarpRegs,
    op: &Op,
    at: Access,
) -> Result<u64, String> {
    let mut addrs = std::mem::take(&mut sm.addr_buf);
    addrs.clear();
    let result = move_lanes(sm, regs, op, at.exec, &mut addrs);
    let latency = result.and_then(|(store, bytes)| {
        let access = Access {
            texture: true,
            ..Access::moved(at, false, store, bytes)
        };
        sm.finish_access(&access, &addrs, &addrs)
    });
    sm.addr_buf = addrs;
    latency
}

/// Moves the data of `op` lane by lane, recording each lane's address in `addrs`; returns
/// (store, bytes per lane).
fn move_lanes(
    sm: &mut Sm,
    regs: &mut WarpRegs,
    op: &Op,
    exec: u64,
    addrs: &mut Vec<(usize, u64)>,
) -> Result<(bool, u64), String> {
    let mut words = [0u32; 4];
    match *op {
        Op::TexFetch {
            d,
            d2,
            channels,
            ref x,
            ref y,
            ref handle,
            integer,
        } => {
            let pair = |r: u16, k: u16| if r == RZ_DEST { RZ_DEST } else { r + k };
            let targets = [pair(d, 0), pair(d, 1), pair(d2, 0), pair(d2, 1)];
            let mut bytes = TEXEL_BYTES;
            for lane in lanes(exec) {
                let h = self::handle(handle, regs, lane);
                let b = *texture::binding(&sm.launch.textures, h)?;
                let xv = lane_memory::operand(x, regs, lane);
                let a = if integer {
                    b.element_address(xv as i32)
                } else {
                    let fy = f32::from_bits(lane_memory::operand(y, regs, lane));
                    b.texel_address(f32::from_bits(xv), fy)
                };
                words = [0; 4];
                sm.memory.read(a, b.texel_bytes(), &mut words)?;
                bytes = bytes.max(b.texel_bytes());
                // The mask's channels, in order, to the destination registers in order.
                let wanted = (0..4).filter(|c| channels >> c & 1 == 1);
                for (&t, c) in targets.iter().zip(wanted) {
                    regs.set(t, lane, words[c]);
                }
                addrs.push((lane, a));
            }
            Ok((false, bytes))
        }
        Op::Surface {
            store,
            d,
            ref v,
            xy,
            ref handle,
            bytes,
            oob,
        } => {
            for lane in lanes(exec) {
                let h = self::handle(handle, regs, lane);
                let b = *texture::binding(&sm.launch.textures, h)?;
                let (x, y) = (regs.reg(xy, lane) as i32, regs.reg(xy + 1, lane) as i32);
                let Some(a) = b.surface_address(x, y, bytes, oob)? else {
                    if !store {
                        lane_memory::write_loaded(regs, d, lane, bytes, false, &[0; 4]);
                    }
                    continue;
                };
                if store {
                    lane_memory::store_words(v, regs, lane, bytes, &mut words);
                    sm.memory.write(a, bytes, &words)?;
                } else {
                    sm.memory.read(a, bytes, &mut words)?;
                    lane_memory::write_loaded(regs, d, lane, bytes, false, &words);
                }
                addrs.push((lane, a));
            }
            Ok((store, bytes))
        }
        _ => Err("not a texture or surface instruction".into()),
    }
}
