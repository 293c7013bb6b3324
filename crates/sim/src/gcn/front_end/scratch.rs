//! The private segment (scratch) of GCN3 work-items: what `buffer_load_*`/`buffer_store_*`
//! reach in HIP code for GFX8 (register spills and private arrays through the private
//! segment buffer of the ABI, AMDGPU-Usage "Private Segment Buffer").
//!
//! What it is: each work-item's own bytes, a private byte offset `soffset + offset (+ vaddr
//! with offen)` per lane — the hardware swizzles the lanes' bytes in one buffer, which is
//! an address mapping that changes no value. The window is the local window of the SASS and
//! PTX front ends (`crate::sass::local_memory`, 512 KiB per work-item, unwritten bytes read
//! as zero, the words written count against `max_memory_words`); private offset `p` is
//! window address `LOCAL_STACK_TOP − 512 KiB + p`. Timing: the access of the `global`
//! (vector memory) class, recorded as a `local` transaction, no segments.

use super::Gcn;
use crate::cycle_loop::memory_access::Access;
use crate::cycle_loop::Sm;
use crate::gcn::decode::Scratch;
use crate::gcn::operand::Loc;
use crate::lane_set;
use crate::sass::local_memory::LOCAL_WINDOW_BYTES;

impl Gcn<'_> {
    /// Executes the scratch access `s` of wave `w` for the active lanes of `at`; returns
    /// its latency.
    pub(super) fn scratch_op(
        &mut self,
        sm: &mut Sm,
        w: usize,
        s: &Scratch,
        at: Access,
    ) -> Result<u64, String> {
        let Scratch {
            store,
            bytes,
            sign,
            data,
            vaddr,
            soffset,
            offset,
        } = *s;
        let Loc::V(dv) = data.loc else {
            return Err("the data operand is not a VGPR".into());
        };
        let hw = self.waves[w].hw;
        let lanes = sm.machine.warp_size as usize;
        let base = u64::from(self.waves[w].sf.read32(&soffset)).wrapping_add(offset);
        let low = u64::from(crate::launch::LOCAL_STACK_TOP) - LOCAL_WINDOW_BYTES;
        let mut addrs = std::mem::take(&mut sm.addr_buf);
        addrs.clear();
        let max_words = sm.budget.max_memory_words;
        let mut run = || -> Result<(), String> {
            for l in lane_set::lanes(at.exec & lane_set::full_mask(lanes)) {
                let hwf = &mut self.hws[hw];
                let v = match vaddr.map(|v| v.loc) {
                    Some(Loc::V(a)) => u64::from(hwf.vf.get(a, l)),
                    _ => 0,
                };
                let private = base.wrapping_add(v);
                if private >= LOCAL_WINDOW_BYTES {
                    return Err(format!(
                        "scratch access at private offset {private:#x} of work-item lane {l} is beyond its {} KiB",
                        LOCAL_WINDOW_BYTES >> 10
                    ));
                }
                let a = low + private;
                // Dword by dword (multi-dword scratch accesses need dword alignment only).
                let (unit, units) = if bytes > 4 {
                    (4, bytes / 4)
                } else {
                    (bytes, 1)
                };
                for k in 0..units {
                    let mut word = [0u32; 1];
                    if store {
                        word[0] = hwf.vf.get(dv + k as u32, l);
                        let held = (&mut self.scratch_held, max_words);
                        hwf.scratch.write(l, a + 4 * k, unit, &word, held)?;
                    } else {
                        hwf.scratch.read(l, a + 4 * k, unit, &mut word)?;
                        word[0] = super::vector_memory::sign_extended(word[0], unit, sign);
                        hwf.vf.set(dv + k as u32, l, word[0]);
                    }
                }
                addrs.push((l, private));
            }
            Ok(())
        };
        let latency = run().and_then(|()| {
            let access = Access {
                local: true,
                ..Access::moved(at, false, store, bytes)
            };
            sm.finish_access(&access, &addrs, &addrs)
        });
        sm.addr_buf = addrs;
        latency
    }
}
