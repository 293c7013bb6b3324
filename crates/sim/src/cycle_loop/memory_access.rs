//! What every front end does after a load or store moved its data: the 128-byte segments a
//! global access coalesces into, L1 hits, the access's latency, and its transaction record.

use super::sm::Sm;
use crate::coalescing;
use crate::simulation::{LaneMask, Transaction};

/// One access of a warp-instruction.
#[derive(Clone, Copy)]
pub(crate) struct Access {
    pub warp: u32,
    pub pc: usize,
    pub cycle: u64,
    /// Global memory (coalesced into segments, cached in L1); otherwise shared memory
    /// (banked) or, with `local`, a thread's local window (the class latency, no segments).
    pub global: bool,
    pub local: bool,
    /// A texture fetch or surface access ([`crate::texture`]): the class latency, no
    /// segments.
    pub texture: bool,
    pub store: bool,
    /// Bytes of one element (what coalescing counts).
    pub bytes: u64,
    /// Bytes one lane moves (recorded).
    pub lane_bytes: u64,
    /// The lanes that took part.
    pub exec: u64,
    /// The latency of the instruction's timing class.
    pub class_latency: u64,
}

impl Access {
    /// An access of warp `warp`'s instruction `pc` issued at `cycle` for the lanes `exec`,
    /// its class latency `class_latency`; what it accesses is filled in by the front end.
    #[inline(always)]
    pub(crate) fn of(warp: u32, pc: usize, cycle: u64, exec: u64, class_latency: u64) -> Self {
        Access {
            warp,
            pc,
            cycle,
            global: false,
            local: false,
            texture: false,
            store: false,
            bytes: 0,
            lane_bytes: 0,
            exec,
            class_latency,
        }
    }
}

impl Access {
    /// `at` once its data moved: global or shared, store or load, `bytes` per lane.
    #[inline(always)]
    pub(crate) fn moved(at: Access, global: bool, store: bool, bytes: u64) -> Self {
        Access {
            global,
            store,
            bytes,
            lane_bytes: bytes,
            ..at
        }
    }
}

/// `Some(d)` when the `k`-th address is `first + k·d` for every `k`.
pub(crate) fn affine_stride(addrs: &[(usize, u64)]) -> Option<i64> {
    let (first, second) = match addrs {
        [] | [_] => return Some(0),
        [a, b, ..] => (a.1, b.1),
    };
    let d = second.wrapping_sub(first) as i64;
    addrs
        .iter()
        .enumerate()
        .all(|(k, &(_, a))| a == first.wrapping_add_signed(d.wrapping_mul(k as i64)))
        .then_some(d)
}

impl Sm<'_> {
    /// The latency of access `a` whose elements were at `elems` (lane, address) and whose
    /// lanes started at `firsts`: the class latency (1 without an active lane; the L1 hit
    /// latency when every segment of a global load hits) plus `transaction_cycles` per
    /// global segment after the first. Records the transaction when tracing.
    pub(crate) fn finish_access(
        &mut self,
        a: &Access,
        elems: &[(usize, u64)],
        firsts: &[(usize, u64)],
    ) -> Result<u64, String> {
        let mut segs = std::mem::take(&mut self.seg_buf);
        segs.clear();
        if a.global {
            coalescing::segments(elems.iter().map(|&(_, x)| x), a.bytes, &mut segs);
        }
        let mut l1_hits = None;
        let mut latency = a.class_latency;
        if elems.is_empty() {
            latency = 1;
        } else if a.global && !a.store {
            if let (Some(cache), Some(cfg)) = (self.l1.as_mut(), self.machine.l1.as_ref()) {
                let hits = segs.iter().filter(|&&s| cache.access(s)).count() as u32;
                self.l1_stats.hits += u64::from(hits);
                self.l1_stats.misses += segs.len() as u64 - u64::from(hits);
                if hits as usize == segs.len() {
                    latency = u64::from(cfg.hit_latency.max(1));
                }
                l1_hits = Some(hits);
            }
        }
        if a.global && !segs.is_empty() {
            latency += (segs.len() as u64 - 1) * u64::from(self.machine.transaction_cycles);
        }
        if !self.launch.trace {
            self.seg_buf = segs;
            return Ok(latency);
        }
        if self.transactions.len() >= self.budget.max_timeline_entries {
            self.timeline_truncated = true;
            self.seg_buf = segs;
            return Ok(latency);
        }
        let stride = affine_stride(firsts);
        self.transactions.push(Transaction {
            warp: a.warp,
            index: a.pc,
            cycle: a.cycle,
            space: if a.global {
                "global"
            } else if a.local {
                "local"
            } else if a.texture {
                "texture"
            } else {
                "shared"
            },
            store: a.store,
            bytes: a.lane_bytes,
            lanes: LaneMask::new(a.exec, self.machine.warp_size as u8),
            first: firsts.first().map_or(0, |&(_, x)| x),
            stride,
            addresses: if stride.is_some() {
                Vec::new()
            } else {
                firsts.iter().map(|&(_, x)| x).collect()
            },
            segments: segs.clone(),
            l1_hits,
        });
        self.seg_buf = segs;
        Ok(latency)
    }
}
