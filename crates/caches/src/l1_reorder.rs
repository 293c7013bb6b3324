//! Worst-case L1 data cache misses under warp-based load/store reordering (Huangfu §4.4.5,
//! §4.4.6).
//!
//! With the reordering extension, the L1 sees global accesses in a fixed order: the
//! Reordering Unit "always searches ... for the warp (channel) with the smallest warp index
//! (in a kernel block ...) and the smallest kernel block ID that still has the global
//! load/store instruction with the lowest instruction address to execute" (§4.4.5). We read
//! that as a merge of the per-warp access queues by the key (instruction address, block,
//! warp) of each queue's head, which reproduces Fig. 14/15 (B0W0 I0, B0W1 I0, B1W0 I1,
//! B1W1 I1). The sequence is then run through an LRU model of the L1 (§4.4.6); since the
//! order is fixed, the outcome is the worst case.

use crate::lru::{CacheGeometry, LruCache};
use isa::{Diagnostic, Severity};
use std::collections::BTreeSet;

/// Load or store; serialised as the thesis's analyzer prints it (`L`, `S`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AccessKind {
    Load,
    Store,
}

/// One global warp instruction instance: its program counter and the 128-byte lines its
/// coalesced transactions touch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryAccess {
    pub pc: u64,
    pub kind: AccessKind,
    pub lines: Vec<u64>,
}

/// One warp's channel: its accesses in program (trace) order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarpAccesses {
    pub block: u32,
    pub warp: u32,
    pub accesses: Vec<MemoryAccess>,
}

/// Position of an access: `channel` indexes the slice of [`WarpAccesses`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccessRef {
    pub channel: usize,
    pub index: usize,
}

/// The L1 access order of §4.4.5: repeatedly dispatch the queue head with the smallest
/// (pc, block, warp).
pub fn reorder(warps: &[WarpAccesses]) -> Vec<AccessRef> {
    let mut heads: BTreeSet<(u64, u32, u32, usize)> = BTreeSet::new();
    for (c, w) in warps.iter().enumerate() {
        if let Some(a) = w.accesses.first() {
            heads.insert((a.pc, w.block, w.warp, c));
        }
    }
    let mut next = vec![0usize; warps.len()];
    let mut out = Vec::new();
    while let Some((_, _, _, c)) = heads.pop_first() {
        let i = next[c];
        out.push(AccessRef {
            channel: c,
            index: i,
        });
        next[c] = i + 1;
        if let Some(a) = warps[c].accesses.get(i + 1) {
            heads.insert((a.pc, warps[c].block, warps[c].warp, c));
        }
    }
    out
}

/// Which order the L1 sees the accesses of one SM in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AccessOrder {
    /// The reordering framework of §4.4.5 ([`reorder`]): instruction address first, then
    /// block, then warp — all active warps' accesses of a basic block before any of the next
    /// (§4.4.6).
    #[default]
    Reordered,
    /// Block by block, warp by warp, each warp's accesses in program order (a block-major
    /// reading of "(block, warp, instruction)"; not the thesis's framework).
    BlockWarpInstruction,
}

/// The accesses of `warps` in `order`.
pub fn access_order(warps: &[WarpAccesses], order: AccessOrder) -> Vec<AccessRef> {
    match order {
        AccessOrder::Reordered => reorder(warps),
        AccessOrder::BlockWarpInstruction => {
            let mut channels: Vec<usize> = (0..warps.len()).collect();
            channels.sort_by_key(|&c| (warps[c].block, warps[c].warp, c));
            channels
                .into_iter()
                .flat_map(|c| {
                    (0..warps[c].accesses.len()).map(move |index| AccessRef { channel: c, index })
                })
                .collect()
        }
    }
}

/// How the L1 treats global stores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StorePolicy {
    /// Stores go to L2 and evict the line from the L1 (GPGPU-Sim's Fermi L1D for global data).
    #[default]
    WriteEvict,
    /// Stores are cached like loads.
    WriteAllocate,
}

/// Hit or miss of one line of one access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineOutcome {
    pub line: u64,
    pub hit: bool,
}

/// One access in L1 order with its outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderedAccess {
    pub channel: usize,
    pub index: usize,
    pub block: u32,
    pub warp: u32,
    pub pc: u64,
    pub kind: AccessKind,
    pub lines: Vec<LineOutcome>,
}

/// The worst-case L1 behaviour of one SM. `default()` is the estimate of no accesses.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct L1Estimate {
    pub order: Vec<OrderedAccess>,
    pub load_lines: u64,
    pub load_hits: u64,
    pub load_misses: u64,
    pub store_lines: u64,
    /// load_misses / load_lines (0 when there are no loads).
    pub load_miss_rate: f64,
}

impl L1Estimate {
    /// Sets `load_miss_rate` from the counts, once they are complete.
    pub fn set_load_miss_rate(&mut self) {
        if self.load_lines > 0 {
            self.load_miss_rate = self.load_misses as f64 / self.load_lines as f64;
        }
    }
}

/// Runs the reordered sequence of one SM through an LRU L1 (§4.4.6). `max_lines` bounds
/// the work; exceeding it is an error naming the budget.
pub fn estimate(
    warps: &[WarpAccesses],
    geometry: &CacheGeometry,
    stores: StorePolicy,
    order: AccessOrder,
    max_lines: usize,
) -> Result<L1Estimate, Diagnostic> {
    let mut cache = LruCache::new(geometry)?;
    estimate_in(&mut cache, warps, stores, order, max_lines)
}

/// [`estimate`] on an existing cache state, so that consecutive sets of co-resident blocks
/// (waves) of one SM share their L1.
pub fn estimate_in(
    cache: &mut LruCache,
    warps: &[WarpAccesses],
    stores: StorePolicy,
    order: AccessOrder,
    max_lines: usize,
) -> Result<L1Estimate, Diagnostic> {
    let total: usize = warps
        .iter()
        .flat_map(|w| w.accesses.iter())
        .map(|a| a.lines.len())
        .sum();
    if total > max_lines {
        return Err(Diagnostic::global(
            Severity::Error,
            format!(
                "L1 estimation needs {total} line accesses, over the budget of {max_lines} \
                 (raise max_cache_accesses)"
            ),
        ));
    }
    let mut est = L1Estimate::default();
    for r in access_order(warps, order) {
        let w = &warps[r.channel];
        let a = &w.accesses[r.index];
        let mut lines = Vec::with_capacity(a.lines.len());
        for &line in &a.lines {
            let hit = match (a.kind, stores) {
                (AccessKind::Load, _) | (AccessKind::Store, StorePolicy::WriteAllocate) => {
                    cache.access(line)
                }
                (AccessKind::Store, StorePolicy::WriteEvict) => {
                    cache.invalidate(line);
                    false
                }
            };
            match a.kind {
                AccessKind::Load => {
                    est.load_lines += 1;
                    if hit {
                        est.load_hits += 1;
                    } else {
                        est.load_misses += 1;
                    }
                }
                AccessKind::Store => est.store_lines += 1,
            }
            lines.push(LineOutcome { line, hit });
        }
        est.order.push(OrderedAccess {
            channel: r.channel,
            index: r.index,
            block: w.block,
            warp: w.warp,
            pc: a.pc,
            kind: a.kind,
            lines,
        });
    }
    est.set_load_miss_rate();
    Ok(est)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acc(pc: u64, kind: AccessKind, lines: &[u64]) -> MemoryAccess {
        MemoryAccess {
            pc,
            kind,
            lines: lines.to_vec(),
        }
    }

    /// Fig. 15 "Reordered": the §4.4.4 example's accesses reach the L1 as B0W0 I0, B0W1 I0,
    /// B1W0 I1, B1W1 I1, whatever order the channels are listed in (Table 1 maps them to
    /// runtime warps 2, 3, 0, 1).
    #[test]
    fn fig15_reordered_sequence() {
        let load = acc(64, AccessKind::Load, &[0, 1, 2, 3]);
        let store = acc(80, AccessKind::Store, &[16, 17, 18, 19]);
        // Channels in runtime-warp order of Table 1: W0 = B1W0, W1 = B1W1, W2 = B0W0, W3 = B0W1.
        let warps = vec![
            WarpAccesses {
                block: 1,
                warp: 0,
                accesses: vec![store.clone()],
            },
            WarpAccesses {
                block: 1,
                warp: 1,
                accesses: vec![store],
            },
            WarpAccesses {
                block: 0,
                warp: 0,
                accesses: vec![load.clone()],
            },
            WarpAccesses {
                block: 0,
                warp: 1,
                accesses: vec![load],
            },
        ];
        let order: Vec<(u32, u32)> = reorder(&warps)
            .iter()
            .map(|r| (warps[r.channel].block, warps[r.channel].warp))
            .collect();
        assert_eq!(order, vec![(0, 0), (0, 1), (1, 0), (1, 1)]);

        // 16 KB, 128-byte lines, 4 ways: B0W1 re-reads the 4 lines B0W0 fetched → 4 misses,
        // 4 hits; the stores are write-evict and never hit.
        let g = CacheGeometry {
            size_bytes: 16 << 10,
            line_bytes: 128,
            associativity: 4,
        };
        let e = estimate(
            &warps,
            &g,
            StorePolicy::WriteEvict,
            AccessOrder::Reordered,
            1000,
        )
        .expect("estimate");
        assert_eq!((e.load_lines, e.load_hits, e.load_misses), (8, 4, 4));
        assert_eq!(e.store_lines, 8);
        assert_eq!(e.load_miss_rate, 0.5);
    }

    /// Two instructions in two warps: the reordered sequence is instruction-major
    /// (I0 of W0, I0 of W1, I1 of W0, I1 of W1); the block-major one is warp-major.
    #[test]
    fn instruction_major_versus_block_major() {
        let w = |warp| WarpAccesses {
            block: 0,
            warp,
            accesses: vec![
                acc(8, AccessKind::Load, &[0]),
                acc(16, AccessKind::Load, &[1]),
            ],
        };
        let warps = vec![w(0), w(1)];
        let seq = |o| -> Vec<(usize, usize)> {
            access_order(&warps, o)
                .iter()
                .map(|r| (r.channel, r.index))
                .collect()
        };
        assert_eq!(
            seq(AccessOrder::Reordered),
            vec![(0, 0), (1, 0), (0, 1), (1, 1)]
        );
        assert_eq!(
            seq(AccessOrder::BlockWarpInstruction),
            vec![(0, 0), (0, 1), (1, 0), (1, 1)]
        );
    }

    #[test]
    fn budget_is_named() {
        let warps = vec![WarpAccesses {
            block: 0,
            warp: 0,
            accesses: vec![acc(0, AccessKind::Load, &[1, 2, 3])],
        }];
        let g = CacheGeometry {
            size_bytes: 512,
            line_bytes: 128,
            associativity: 4,
        };
        let err = estimate(
            &warps,
            &g,
            StorePolicy::WriteEvict,
            AccessOrder::Reordered,
            2,
        )
        .expect_err("over budget");
        assert!(err.message.contains("max_cache_accesses"));
    }
}
