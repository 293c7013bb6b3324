//! What change gives one more resident block, and the curve of resident warps against block
//! size that the calculators draw. Both only re-evaluate [`Machine::occupancy`] on changed
//! usages: every resource's block count falls as its use grows, so the largest use that
//! still gives a block more is found by bisection.

use crate::{Limit, Machine, Occupancy, Usage};

/// What gives one block more than the current occupancy, each change made alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OneMoreBlock {
    /// The most registers per thread (GCN3: VGPRs) with which one more block is resident;
    /// `None` when no register count does it (another limit binds too, or registers already
    /// set no limit).
    pub registers_at_most: Option<u32>,
    /// The most shared bytes per block (static plus dynamic; GCN3: LDS) with which one more
    /// block is resident; `None` when no amount does it.
    pub shared_bytes_at_most: Option<u64>,
    /// The nearest smaller block size (a multiple of the warp size) with more resident warps.
    pub smaller_block: Option<BlockSizeChange>,
    /// The nearest larger block size (a multiple of the warp size, up to the machine's
    /// maximum) with more resident warps.
    pub larger_block: Option<BlockSizeChange>,
}

/// A block size and what it gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockSizeChange {
    pub threads: u32,
    pub blocks_per_sm: u32,
    pub warps_per_sm: u32,
    pub limited_by: Limit,
}

/// One point of the occupancy curve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CurvePoint {
    pub threads: u32,
    pub blocks_per_sm: u32,
    pub warps_per_sm: u32,
    /// Resident warps over warp slots.
    pub occupancy: f64,
    pub limited_by: Limit,
}

/// Blocks resident with `usage` (0 when the machine refuses the block).
fn blocks(machine: &Machine, usage: &Usage) -> u32 {
    machine.occupancy(usage).map_or(0, |o| o.blocks_per_sm)
}

/// The largest `x` in `0..below` with `more(x)`, where `more` holds for every value under
/// one that holds (it tests a count that falls as `x` grows).
fn largest_below(below: u64, more: impl Fn(u64) -> bool) -> Option<u64> {
    if below == 0 || !more(0) {
        return None;
    }
    // Invariant: more(lo) holds, and more(x) fails for x >= hi (or hi = below).
    let (mut lo, mut hi) = (0u64, below);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if more(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

pub(crate) fn one_more_block(machine: &Machine, now: &Occupancy) -> OneMoreBlock {
    let u = now.usage;
    let target = now.blocks_per_sm.saturating_add(1);
    let registers_at_most = largest_below(u64::from(u.registers), |r| {
        let registers = u32::try_from(r).unwrap_or(u32::MAX);
        blocks(machine, &Usage { registers, ..u }) >= target
    })
    .and_then(|r| u32::try_from(r).ok());
    let shared_bytes_at_most = largest_below(u.shared_bytes, |s| {
        blocks(
            machine,
            &Usage {
                shared_bytes: s,
                ..u
            },
        ) >= target
    });
    let step = machine.warp_size().max(1);
    let max = machine.max_threads_per_block();
    let better = |threads: u32| {
        let o = machine.occupancy(&Usage { threads, ..u }).ok()?;
        (o.warps_per_sm > now.warps_per_sm).then_some(BlockSizeChange {
            threads,
            blocks_per_sm: o.blocks_per_sm,
            warps_per_sm: o.warps_per_sm,
            limited_by: o.limited_by,
        })
    };
    // Multiples of the warp size strictly below and above the current block.
    let below_start = (u.threads.saturating_sub(1) / step) * step;
    let smaller_block = (1..=below_start / step)
        .rev()
        .find_map(|k| better(k * step));
    let above_start = u.threads / step + 1;
    let larger_block = (above_start..=max / step).find_map(|k| better(k * step));
    OneMoreBlock {
        registers_at_most,
        shared_bytes_at_most,
        smaller_block,
        larger_block,
    }
}

/// Resident warps for every block size from one warp to the machine's maximum, a warp at a
/// time (32, 64, … 1024 threads on NVIDIA; 64, … 1024 on GCN3), the rest of `usage` kept.
pub(crate) fn curve(machine: &Machine, usage: &Usage) -> Vec<CurvePoint> {
    let step = machine.warp_size().max(1);
    (1..=machine.max_threads_per_block() / step)
        .filter_map(|k| {
            let o = machine
                .occupancy(&Usage {
                    threads: k * step,
                    ..*usage
                })
                .ok()?;
            Some(CurvePoint {
                threads: k * step,
                blocks_per_sm: o.blocks_per_sm,
                warps_per_sm: o.warps_per_sm,
                occupancy: o.fraction(),
                limited_by: o.limited_by,
            })
        })
        .collect()
}
