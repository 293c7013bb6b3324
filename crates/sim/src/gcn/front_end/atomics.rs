//! GCN3 atomics: `flat_atomic_*`/`global_atomic_*` on global memory and `ds_*` atomics on
//! the work-group's LDS (AMD GCN3 ISA chapter 12, FLAT and DS opcodes, e.g.
//! FLAT_ATOMIC_ADD: `tmp = MEM[ADDR]; MEM[ADDR] += DATA; RETURN_DATA = tmp`).
//!
//! The ISA makes each lane's read-modify-write atomic without ordering the lanes of one
//! instruction; the simulator applies them in lane order (lane 0 first), as its PTX and SASS
//! front ends do, so a run is deterministic. The old value goes to the return VGPR when the
//! instruction has one (`glc`, `_rtn`). Timing: one access of the vector-memory (global) or
//! LDS class, as a load.

use super::Gcn;
use crate::atomic_op;
use crate::cycle_loop::memory_access::Access;
use crate::cycle_loop::Sm;
use crate::gcn::decode::{AtomOp, Atomic, AtomicSpace};
use crate::gcn::operand::Loc;
use crate::lane_set;

impl Gcn<'_> {
    /// Executes atomic `a` of wave `w` for the active lanes of `at`; returns its latency.
    pub(super) fn atomic_op(
        &mut self,
        sm: &mut Sm,
        w: usize,
        a: &Atomic,
        at: Access,
    ) -> Result<u64, String> {
        let hw = self.waves[w].hw;
        let lanes = sm.machine.warp_size as usize;
        let mask = at.exec & lane_set::full_mask(lanes);
        let mut addrs = std::mem::take(&mut sm.addr_buf);
        addrs.clear();
        let Loc::V(av) = a.addr.loc else {
            sm.addr_buf = addrs;
            return Err(match a.space {
                AtomicSpace::Global { .. } => "the address is not a VGPR".into(),
                AtomicSpace::Lds { .. } => "the LDS address is not a VGPR".into(),
            });
        };
        let vf = &self.hws[hw].vf;
        let global = match a.space {
            AtomicSpace::Global { saddr, offset } => {
                let base = saddr.map(|s| self.waves[w].sf.read64(&s));
                for l in lane_set::lanes(mask) {
                    let at = match base {
                        Some(b) => b.wrapping_add(u64::from(vf.get(av, l))),
                        None => u64::from(vf.get(av, l)) | (u64::from(vf.get(av + 1, l)) << 32),
                    };
                    addrs.push((l, at.wrapping_add_signed(offset)));
                }
                true
            }
            AtomicSpace::Lds { offset } => {
                for l in lane_set::lanes(mask) {
                    addrs.push((l, super::vector_memory::lds_address(vf.get(av, l), offset)));
                }
                false
            }
        };
        let Loc::V(dv) = a.data.loc else {
            sm.addr_buf = addrs;
            return Err("the data operand is not a VGPR".into());
        };
        let block = self.hws[hw].block;
        let (op, kind, ret) = (a.op, a.kind, a.ret);
        for &(l, a) in &addrs {
            let mut words = [0u32; 4];
            if global {
                sm.memory.read(a, 4, &mut words)?;
            } else {
                sm.blocks[block].shared.read(a, 4, &mut words)?;
            }
            let old = u64::from(words[0]);
            let vf = &self.hws[hw].vf;
            // cmpswap: DATA[0] is the new value, DATA[1] the compared one.
            let (b, c) = if op == AtomOp::Cas {
                (u64::from(vf.get(dv + 1, l)), u64::from(vf.get(dv, l)))
            } else {
                (u64::from(vf.get(dv, l)), 0)
            };
            words[0] = atomic_op::apply(op, 32, kind, old, b, c) as u32;
            if global {
                sm.memory.write(a, 4, &words)?;
            } else {
                sm.blocks[block].shared.write(a, 4, &words)?;
            }
            if let Some(Loc::V(r)) = ret.map(|r| r.loc) {
                self.hws[hw].vf.set(r, l, old as u32);
            }
        }
        let latency = sm.finish_access(&Access::moved(at, global, false, 4), &addrs, &addrs);
        sm.addr_buf = addrs;
        latency
    }
}
