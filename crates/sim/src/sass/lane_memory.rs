//! The per-lane side of SASS loads and stores: each lane's address, the data a store
//! writes and a load's destination registers, and a direct path for whole-word shared
//! accesses. The access itself (memories, coalescing, latency) is the front end's.

use super::decode::{AddrSrc, Op, Src, SrcKind, RZ_DEST};
use super::semantics::WarpRegs;
use crate::lane_set::{self, lanes};

/// The byte address each lane of `mask` accesses, in lane order.
pub(crate) fn addresses(addr: &AddrSrc, regs: &WarpRegs, mask: u64, out: &mut Vec<(usize, u64)>) {
    out.clear();
    let ws = regs.ws;
    let full = lane_set::full_mask(ws);
    if addr.scale != 0 || addr.uniform.is_some() {
        return scaled_addresses(addr, regs, mask, out);
    }
    if let (Some(r), false, true) = (addr.base, addr.wide, mask == full) {
        // Every lane active, 32-bit base register: one pass over the register's row.
        let base = r as usize * ws;
        if let Some(row) = regs.gpr.get(base..base + ws) {
            out.extend(row.iter().enumerate().map(|(l, &v)| {
                (
                    l,
                    u64::from(v).wrapping_add_signed(addr.offset) & 0xffff_ffff,
                )
            }));
            return;
        }
    }
    for l in lanes(mask) {
        out.push((
            l,
            in_width(addr, base(addr, regs, l).wrapping_add_signed(addr.offset)),
        ));
    }
}

/// Lane `l`'s base register: `r`, or the pair `r:r+1` of a 64-bit (`.E`) address; 0
/// without one.
#[inline]
fn base(addr: &AddrSrc, regs: &WarpRegs, l: usize) -> u64 {
    match addr.base {
        None => 0,
        Some(r) => {
            let lo = u64::from(regs.reg(r, l));
            if addr.wide {
                lo | u64::from(regs.reg(r + 1, l)) << 32
            } else {
                lo
            }
        }
    }
}

/// An address computed in 64 bits, kept in the operand's width (a 32-bit address wraps).
#[inline]
fn in_width(addr: &AddrSrc, a: u64) -> u64 {
    if addr.wide {
        a
    } else {
        a & 0xffff_ffff
    }
}

/// [`addresses`] of an sm_70+ operand with a scaled base (`[R0.X4+…]`) or a uniform register
/// (`[R2+UR4]`): `(base << scale) + uniform + offset`.
#[inline(never)]
fn scaled_addresses(addr: &AddrSrc, regs: &WarpRegs, mask: u64, out: &mut Vec<(usize, u64)>) {
    for l in lanes(mask) {
        let uniform = addr.uniform.map_or(0, |u| u64::from(regs.reg(u, l)));
        let a = (base(addr, regs, l) << addr.scale).wrapping_add(uniform);
        out.push((l, in_width(addr, a.wrapping_add_signed(addr.offset))));
    }
}

/// The common case of shared memory — 4-byte, aligned, in range, register data — done
/// directly on the word array. Returns false (having done nothing) when any lane needs
/// the general path, which also reports the errors.
pub(crate) fn shared_words_fast(
    op: &Op,
    regs: &mut WarpRegs,
    words: &mut [u32],
    addrs: &[(usize, u64)],
) -> bool {
    let ok = addrs
        .iter()
        .all(|&(_, a)| a & 3 == 0 && ((a / 4) as usize) < words.len());
    if !ok {
        return false;
    }
    let ws = regs.ws;
    match *op {
        Op::Store {
            v: Src {
                kind: SrcKind::Reg(r),
                ..
            },
            bytes: 4,
            ..
        } => {
            let base = r as usize * ws;
            let Some(row) = regs.gpr.get(base..base + ws) else {
                return false;
            };
            for &(l, a) in addrs {
                words[(a / 4) as usize] = row[l];
            }
            true
        }
        Op::Load { d, bytes: 4, .. } => {
            if d == RZ_DEST {
                return true;
            }
            let base = d as usize * ws;
            let Some(row) = regs.gpr.get_mut(base..base + ws) else {
                return false;
            };
            for &(l, a) in addrs {
                row[l] = words[(a / 4) as usize];
            }
            true
        }
        _ => false,
    }
}

/// Writes a loaded value (1..4 words) of `lane` into `d..`; sub-word values are extended.
pub(crate) fn write_loaded(
    regs: &mut WarpRegs,
    d: u16,
    lane: usize,
    bytes: u64,
    sign_extend: bool,
    words: &[u32],
) {
    if bytes < 4 {
        let v = words[0];
        let v = match (bytes, sign_extend) {
            (1, true) => v as u8 as i8 as i32 as u32,
            (2, true) => v as u16 as i16 as i32 as u32,
            _ => v,
        };
        regs.set(d, lane, v);
        return;
    }
    if d == RZ_DEST {
        return;
    }
    for (k, &w) in words.iter().take((bytes / 4) as usize).enumerate() {
        regs.set(d + k as u16, lane, w);
    }
}

/// The 32-bit value of an atomic's operand for `lane` (a register or an immediate).
pub(crate) fn operand(v: &Src, regs: &WarpRegs, lane: usize) -> u32 {
    match v.kind {
        SrcKind::Reg(r) => regs.reg(r, lane),
        SrcKind::Value(lo, _) => lo,
        _ => 0,
    }
}

/// The words a store of `lane` writes.
pub(crate) fn store_words(v: &Src, regs: &WarpRegs, lane: usize, bytes: u64, out: &mut [u32; 4]) {
    let n = (bytes / 4).max(1) as usize;
    for (k, o) in out.iter_mut().take(n).enumerate() {
        *o = match v.kind {
            SrcKind::Reg(r) => regs.reg(r + k as u16, lane),
            SrcKind::Value(lo, hi) => {
                if k == 0 {
                    lo
                } else {
                    hi.unwrap_or(0)
                }
            }
            _ => 0,
        };
    }
}
