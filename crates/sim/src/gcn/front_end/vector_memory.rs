//! Memory accesses of the GCN3 front end: scalar loads (kernel arguments, dispatch packet,
//! GOT, global memory), vector memory and LDS accesses per active lane, and their latency
//! and transaction through [`Sm::finish_access`].

use super::Gcn;
use crate::cycle_loop::memory_access::Access;
use crate::cycle_loop::Sm;
use crate::gcn::abi::{DISPATCH_BASE, KERNARG_BASE};
use crate::gcn::code;
use crate::gcn::decode::{Mem, Op};
use crate::gcn::operand::{Loc, Opnd, VectorFile};
use crate::lane_set;

impl Gcn<'_> {
    /// A 32-bit scalar-memory word: kernel arguments, dispatch packet or global memory.
    /// Scalar memory reads whole dwords: the two low bits of the address are not used (AMD's
    /// GCN3 ISA manual, scalar memory operations: addresses are dword-aligned), so a
    /// misaligned address (a pointer the automatic launch's open memory made up) reads the
    /// dword below it. *Reading*: that the hardware drops the bits rather than faulting.
    pub(super) fn scalar_word(&self, sm: &mut Sm, addr: u64) -> Result<u32, String> {
        let addr = addr & !3;
        if addr >= KERNARG_BASE {
            let i = ((addr - KERNARG_BASE) / 4) as usize;
            // Reads past the declared arguments (e.g. `s_load_dwordx8` of fewer words) see 0.
            return Ok(sm.launch.params.get(i).copied().unwrap_or(0));
        }
        if (code::GOT_BASE..code::CODE_BASE).contains(&addr) {
            let i = ((addr - code::GOT_BASE) / 8) as usize;
            let slot = self.got.get(i).copied().ok_or_else(|| {
                format!("scalar load at {addr:#x}: no GOT slot there (the GOT has the functions of the listing)")
            })?;
            return Ok(if addr.is_multiple_of(8) {
                slot as u32
            } else {
                (slot >> 32) as u32
            });
        }
        if addr >= DISPATCH_BASE {
            let i = ((addr - DISPATCH_BASE) / 4) as usize;
            return self
                .packet
                .get(i)
                .copied()
                .ok_or_else(|| format!("scalar load at {addr:#x} is past the dispatch packet"));
        }
        let mut out = [0u32; 4];
        sm.memory.read(addr, 4, &mut out)?;
        Ok(out[0])
    }

    /// A read of `bytes` at `addr` in the kernarg segment or the dispatch packet (read-only,
    /// naturally aligned; sub-word sizes zero-extended into `out[0]`).
    fn special_read(
        &self,
        sm: &mut Sm,
        addr: u64,
        bytes: u64,
        out: &mut [u32; 4],
    ) -> Result<(), String> {
        if !addr.is_multiple_of(bytes.max(1)) {
            return Err(format!(
                "misaligned {bytes}-byte access at address {addr:#x}"
            ));
        }
        let word = addr & !3;
        if bytes < 4 {
            let w = self.scalar_word(sm, word)?;
            let shift = (addr % 4) * 8;
            let mask = if bytes == 1 { 0xff } else { 0xffff };
            out[0] = (w >> shift) & mask;
        } else {
            for (i, o) in out.iter_mut().take((bytes / 4) as usize).enumerate() {
                *o = self.scalar_word(sm, word.wrapping_add(4 * i as u64))?;
            }
        }
        Ok(())
    }

    /// The vector memory or LDS access `op` of wave `w` (`at`: the access, its lanes the
    /// active ones); returns its latency.
    pub(super) fn memory_op(
        &mut self,
        sm: &mut Sm,
        w: usize,
        op: &Op,
        at: Access,
    ) -> Result<u64, String> {
        let active = at.exec;
        let hw = self.waves[w].hw;
        let lanes = sm.machine.warp_size as usize;
        let on = |l: usize| active >> l & 1 == 1;
        // Reused from one access to the next; an access that fails leaves a fresh one.
        let mut addrs = std::mem::take(&mut sm.addr_buf);
        addrs.clear();
        let (global, store, bytes) = match op {
            Op::VMem(v) => {
                let Loc::V(a) = v.addr.loc else {
                    return Err("the address is not a VGPR".into());
                };
                let Loc::V(dv) = v.data.loc else {
                    return Err("the data operand is not a VGPR".into());
                };
                let base = v.saddr.map(|s| self.waves[w].sf.read64(&s));
                let vf = &self.hws[hw].vf;
                let row = |r: u32| {
                    let at = r as usize * vf.lanes;
                    vf.v.get(at..at + vf.lanes)
                };
                let mask = active & lane_set::full_mask(lanes);
                match (v.mem, base, row(a), row(a + 1)) {
                    (Mem::Global, Some(b), Some(lo), _) => {
                        lane_addresses(&mut addrs, mask, lanes, |l| {
                            b.wrapping_add(u64::from(lo[l]))
                                .wrapping_add_signed(v.offset)
                        })
                    }
                    (_, _, Some(lo), Some(hi)) => lane_addresses(&mut addrs, mask, lanes, |l| {
                        let at = u64::from(lo[l]) | (u64::from(hi[l]) << 32);
                        at.wrapping_add_signed(v.offset)
                    }),
                    _ => {
                        for l in (0..lanes).filter(|&l| on(l)) {
                            let at = match (v.mem, base) {
                                (Mem::Global, Some(b)) => b.wrapping_add(u64::from(vf.get(a, l))),
                                _ => u64::from(vf.get(a, l)) | (u64::from(vf.get(a + 1, l)) << 32),
                            }
                            .wrapping_add_signed(v.offset);
                            addrs.push((l, at));
                        }
                    }
                }
                let n = (v.bytes / 4).max(1) as u32;
                let mut words = [0u32; 4];
                // One aligned dword per lane inside one array: index its words directly.
                // Anything else (and the dispatch packet) takes the per-lane path below,
                // which also reports misaligned and stray accesses.
                let done = v.bytes == 4
                    && word_access(
                        sm.memory.window(&addrs, 4).filter(|(start, words)| {
                            start + words.len() as u64 * 4 <= DISPATCH_BASE
                        }),
                        &addrs,
                        &mut self.hws[hw].vf,
                        dv,
                        v.store,
                    );
                // Multi-dword accesses move dword by dword: GCN3 needs them dword-aligned
                // only (ISA chapter 9), and `dwordx3` is 12 bytes.
                let (unit, units) = if v.bytes > 4 {
                    (4, v.bytes / 4)
                } else {
                    (v.bytes, 1)
                };
                for &(l, at) in addrs.iter().filter(|_| !done) {
                    if v.store {
                        for i in 0..n {
                            words[i as usize] = self.hws[hw].vf.get(dv + i, l);
                        }
                        for k in 0..units {
                            let w = &words[k as usize..];
                            sm.memory.write(at + 4 * k, unit, w)?;
                        }
                    } else {
                        for k in 0..units {
                            let mut one = [0u32; 4];
                            if at >= DISPATCH_BASE {
                                // HIP reads launch sizes through flat loads from the dispatch
                                // pointer (gaussian Fan2: `flat_load_ushort` of offset 6).
                                self.special_read(sm, at + 4 * k, unit, &mut one)?;
                            } else {
                                sm.memory.read(at + 4 * k, unit, &mut one)?;
                            }
                            words[k as usize] = one[0];
                        }
                        words[0] = sign_extended(words[0], v.bytes, v.sign);
                        for i in 0..n {
                            self.hws[hw].vf.set(dv + i, l, words[i as usize]);
                        }
                    }
                }
                (true, v.store, v.bytes)
            }
            Op::Ds {
                store,
                bytes,
                sign,
                data,
                addr,
                offsets,
            } => {
                let Loc::V(a) = addr.loc else {
                    return Err("the LDS address is not a VGPR".into());
                };
                let block = self.hws[hw].block;
                let n = (*bytes / 4).max(1) as u32;
                let mut words = [0u32; 4];
                if let (
                    [off],
                    [Opnd {
                        loc: Loc::V(dv), ..
                    }],
                    4,
                ) = (offsets.as_slice(), data.as_slice(), *bytes)
                {
                    // One dword per lane, as for global memory above.
                    let vf = &mut self.hws[hw].vf;
                    addrs.extend(
                        (0..lanes)
                            .filter(|&l| on(l))
                            .map(|l| (l, lds_address(vf.get(a, l), *off))),
                    );
                    let window = sm.blocks[block].shared.window(&addrs, 4);
                    if word_access(window, &addrs, vf, *dv, *store) {
                        return finish_access(sm, addrs, Access::moved(at, false, *store, 4));
                    }
                    addrs.clear();
                }
                for l in (0..lanes).filter(|&l| on(l)) {
                    let base = u64::from(self.hws[hw].vf.get(a, l));
                    for (j, off) in offsets.iter().enumerate() {
                        let at = lds_address(base as u32, *off);
                        addrs.push((l, at));
                        if *store {
                            let Some(Loc::V(dv)) = data.get(j).map(|d| d.loc) else {
                                return Err("the LDS data operand is not a VGPR".into());
                            };
                            for i in 0..n {
                                words[i as usize] = self.hws[hw].vf.get(dv + i, l);
                            }
                            lds_move(&mut sm.blocks[block].shared, at, *bytes, &mut words, true)?;
                        } else {
                            let Some(Loc::V(dv)) = data.first().map(|d| d.loc) else {
                                return Err("the LDS destination is not a VGPR".into());
                            };
                            lds_move(&mut sm.blocks[block].shared, at, *bytes, &mut words, false)?;
                            words[0] = sign_extended(words[0], *bytes, *sign);
                            for i in 0..n {
                                self.hws[hw]
                                    .vf
                                    .set(dv + j as u32 * n + i, l, words[i as usize]);
                            }
                        }
                    }
                }
                (false, *store, *bytes)
            }
            _ => return Err("not a memory operation".into()),
        };
        finish_access(sm, addrs, Access::moved(at, global, store, bytes))
    }
}

/// Reads (`store` false) or writes `bytes` of LDS at `at` from/to `words`; 12- and 16-byte
/// accesses (`ds_read_b96/b128`) dword by dword, which need dword alignment only.
fn lds_move(
    lds: &mut crate::memory::SharedMemory,
    at: u64,
    bytes: u64,
    words: &mut [u32; 4],
    store: bool,
) -> Result<(), String> {
    if bytes <= 8 {
        return if store {
            lds.write(at, bytes, &words[..])
        } else {
            lds.read(at, bytes, &mut words[..])
        };
    }
    for k in 0..(bytes / 4) as usize {
        let a = at + 4 * k as u64;
        if store {
            lds.write(a, 4, &words[k..])?;
        } else {
            let mut one = [0u32; 1];
            lds.read(a, 4, &mut one)?;
            words[k] = one[0];
        }
    }
    Ok(())
}

/// A loaded dword as its VGPR gets it: a signed byte or short load (`sign`, `bytes` below
/// 4: `*_sbyte`, `*_sshort`, `ds_read_i8/i16`) sign-extends it; anything else keeps it as
/// read (memory reads zero-extend). Global, LDS and scratch loads alike.
pub(super) fn sign_extended(word: u32, bytes: u64, sign: bool) -> u32 {
    if sign && bytes < 4 {
        let sh = 32 - 8 * bytes as u32;
        (((word << sh) as i32) >> sh) as u32
    } else {
        word
    }
}

/// The LDS byte address of a DS instruction: the 32-bit address VGPR plus the
/// instruction's offset, in 32 bits (AMD GCN3 ISA, chapter 10 "Data Share Operations": the
/// address is the 32-bit ADDR VGPR plus the instruction's offset; LDS addresses are 32-bit),
/// so `tid − 1` of work-item 0 plus an offset wraps as on the GPU instead of reaching 2^32.
pub(super) fn lds_address(vgpr: u32, offset: u64) -> u64 {
    u64::from(vgpr.wrapping_add(offset as u32))
}

/// Appends `(l, address(l))` for every lane `l` of `mask`, ascending; a whole warp of
/// `lanes` lanes (the usual case) as one counted loop.
fn lane_addresses(
    addrs: &mut Vec<(usize, u64)>,
    mask: u64,
    lanes: usize,
    address: impl Fn(usize) -> u64,
) {
    if mask == lane_set::full_mask(lanes) {
        addrs.extend((0..lanes).map(|l| (l, address(l))));
    } else {
        addrs.extend(lane_set::lanes(mask).map(|l| (l, address(l))));
    }
}

/// The latency of access `a` whose data moved (addresses `addrs`), and its transaction
/// record when tracing; gives the address buffer back. Within budget: `try_issue` checks
/// the transaction count before every access.
fn finish_access(sm: &mut Sm, addrs: Vec<(usize, u64)>, a: Access) -> Result<u64, String> {
    let latency = sm.finish_access(&a, &addrs, &addrs);
    sm.addr_buf = addrs;
    latency
}

/// Moves one dword per lane between VGPR `dv` and `window` (the words of one array, or of
/// the LDS, and the byte address they start at) when there is a window; `false` (nothing
/// done) when there is none.
fn word_access(
    window: Option<(u64, &mut [u32])>,
    addrs: &[(usize, u64)],
    vf: &mut VectorFile,
    dv: u32,
    store: bool,
) -> bool {
    let Some((start, words)) = window else {
        return false;
    };
    let at = |a: u64| ((a - start) / 4) as usize;
    let row = dv as usize * vf.lanes;
    let Some(reg) = vf.v.get_mut(row..row + vf.lanes) else {
        return false;
    };
    // Consecutive lanes at consecutive words (the usual unit-stride access): one copy.
    if let Some(&(l0, a0)) = addrs.first() {
        let n = addrs.len();
        let unit_stride = addrs
            .iter()
            .enumerate()
            .all(|(k, &(l, a))| l == l0 + k && a == a0.wrapping_add(4 * k as u64));
        if let (true, Some(w), Some(r)) = (
            unit_stride,
            words.get_mut(at(a0)..at(a0) + n),
            reg.get_mut(l0..l0 + n),
        ) {
            if store {
                w.copy_from_slice(r);
            } else {
                r.copy_from_slice(w);
            }
            return true;
        }
    }
    if store {
        for &(l, a) in addrs {
            words[at(a)] = reg[l];
        }
    } else {
        for &(l, a) in addrs {
            reg[l] = words[at(a)];
        }
    }
    true
}
