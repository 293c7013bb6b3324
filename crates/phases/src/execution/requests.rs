//! What a work-group's DRAM requests cost at their actual addresses (§3.2.1, §5.3).
//!
//! The WCET prices a 2D tile request (`ldglin`/`stglin`, `ldgcidx`/`stgcidx`,
//! `ldg2sptile`/`stg2sptile`) as the worst least-issue delay over every start offset of one
//! bank-pair row segment ([`crate::controller::simulate_stride`] with
//! [`Sweep::AllOffsets`]). An execution runs the same controller model once, at the address
//! the work-group's tile actually starts at ([`Sweep::OwnAddress`]).
//!
//! **Where a work-group's tile starts** (the programs do not say: their tile origin comes from
//! `sc.wg_off_x/y` inside the DRAM front end): work-group `g` of a launch `⌈X/N⌉` work-groups
//! wide sits at `(gx, gy) = (g mod ⌈X/N⌉, g div ⌈X/N⌉)` (§2.1, row-major), and its tile is
//! the `(gx, gy)`-th tile of the request's shape in the buffer: word offset
//! `gy · period_count · period + gx · words` from the buffer's address (32-bit addresses,
//! wrapping as the controller's do).
//!
//! **Priced at their WCET cost** (the execution has no more information than the bound):
//! `sldg` (already one run at the buffer's own address), block-indexed and iterative
//! indexed transfers (their addresses are data — the indices — which a Sim-D program text
//! does not carry; these are the paper's Table 5 outliers, whose simulation knew the
//! indices), scratchpad requests (a work-group's scratchpad tile is at the same place for
//! every work-group) and the program upload.

use crate::access::AccessModel;
use crate::controller::{simulate_stride, stream_period_bytes, Sweep};
use crate::dram::DramTiming;
use crate::error::Error;
use crate::stride::Stride;
use crate::SimdResult;
use std::collections::BTreeMap;

/// The tile request ending a block, as a template to move per work-group.
#[derive(Debug, Clone, Copy)]
struct Tile {
    stride: Stride,
    write: bool,
    /// The WCET cost (compute cycles), for [`Pricer::above_wcet`].
    wcet: u64,
}

/// Prices DRAM tile requests per work-group, caching controller runs.
pub(crate) struct Pricer {
    dram: DramTiming,
    compute_mhz: u64,
    tiles: BTreeMap<usize, Tile>,
    groups_x: u64,
    cache: BTreeMap<(u64, u64, u64, u64, bool), u64>,
    period_bytes: u64,
    /// Controller steps left (`max_dram_sim_steps` over the whole execution).
    steps_left: u64,
    budget: u64,
    /// Controller runs made (cache misses).
    pub(crate) runs: u64,
    /// Requests priced above their WCET cost: (block, work-group, observed, wcet).
    pub(crate) above_wcet: Vec<(usize, u64, u64, u64)>,
}

impl Pricer {
    pub(crate) fn new(result: &SimdResult, actual_addresses: bool, budget: u64) -> Self {
        let mut tiles = BTreeMap::new();
        if actual_addresses {
            for b in &result.blocks {
                if let Some(a) = &b.access {
                    if let AccessModel::Tiled { stride, write, .. } = a.model {
                        tiles.insert(
                            b.id,
                            Tile {
                                stride,
                                write,
                                wcet: a.cycles,
                            },
                        );
                    }
                }
            }
        }
        let dram = result.dram.timing;
        Pricer {
            period_bytes: stream_period_bytes(&dram),
            dram,
            compute_mhz: result.config.compute_clock_mhz,
            tiles,
            groups_x: result.launch.nd_range[0]
                .div_ceil(result.launch.wg_width.max(1))
                .max(1),
            cache: BTreeMap::new(),
            steps_left: budget,
            budget,
            runs: 0,
            above_wcet: Vec::new(),
        }
    }

    /// The byte address work-group `g`'s tile of `s` starts at (see the module doc).
    pub(crate) fn tile_address(&self, s: &Stride, g: u64) -> u64 {
        let (gx, gy) = (g % self.groups_x, g / self.groups_x);
        let words = gy
            .wrapping_mul(s.period_count)
            .wrapping_mul(s.period)
            .wrapping_add(gx.wrapping_mul(s.words));
        s.addr.wrapping_add(words.wrapping_mul(4)) & 0xffff_ffff
    }

    /// The cost in compute cycles of the access ending `block` for work-group `g`, or `None`
    /// when it is priced at its WCET cost.
    pub(crate) fn price(&mut self, block: usize, g: u64) -> Result<Option<u64>, Error> {
        let Some(tile) = self.tiles.get(&block).copied() else {
            return Ok(None);
        };
        let addr = self.tile_address(&tile.stride, g);
        let stride = Stride {
            addr,
            ..tile.stride
        };
        // Addresses congruent modulo the stream period give the same LID (see
        // `stream_period_bytes`), away from the top of the 32-bit space.
        let span = stride.end().saturating_sub(stride.addr);
        let key_addr = if stride.addr.saturating_add(span).saturating_add(64) < 0xffff_0000 {
            addr % self.period_bytes
        } else {
            addr | (1 << 40)
        };
        let key = (
            key_addr,
            stride.words,
            stride.period,
            stride.period_count,
            tile.write,
        );
        let lid = match self.cache.get(&key) {
            Some(&l) => l,
            None => {
                if self.steps_left == 0 {
                    return Err(budget_error(self.budget));
                }
                let r = simulate_stride(
                    &self.dram,
                    &stride,
                    tile.write,
                    Sweep::OwnAddress,
                    self.steps_left,
                )?;
                self.steps_left = self.steps_left.saturating_sub(r.steps.max(1));
                self.runs += 1;
                self.cache.insert(key, r.lid);
                r.lid
            }
        };
        let cycles = self.dram.to_compute_cycles(lid, self.compute_mhz);
        if cycles > tile.wcet && self.above_wcet.len() < 64 {
            self.above_wcet.push((block, g, cycles, tile.wcet));
        }
        Ok(Some(cycles))
    }
}

fn budget_error(budget: u64) -> Error {
    Error::budget(
        "max_dram_sim_steps",
        budget,
        "simulating the DRAM controller at every work-group's request addresses",
    )
}
