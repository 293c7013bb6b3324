//! The report's `occupancy` object: the `occupancy` crate's result as plain data named for
//! what the page shows, with where each figure of the kernel came from. A rename inside the
//! crate cannot change the JSON.

use serde::Serialize;
use ts_rs::TS;

/// Where a figure of the kernel came from, as the report spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub enum Source {
    /// A whole `nvdisasm` dump's `.nv.info` / `.nv.shared.NAME` sections (what `cuobjdump
    /// -res-usage` prints for the same cubin).
    #[serde(rename = "from dump")]
    Dump,
    /// Estimated from a plain listing's instructions (registers: the highest named + 1 + the
    /// ABI's reserve; static shared memory: a listing does not say it, 0).
    #[serde(rename = "estimated from listing")]
    Listing,
    /// The request's parameter.
    #[serde(rename = "parameter")]
    Parameter,
    /// A GCN3 listing's code object metadata (`.vgpr_count`, `.sgpr_count`,
    /// `.group_segment_fixed_size`).
    #[serde(rename = "from metadata")]
    Metadata,
    /// A GCN3 listing's kernel descriptor (`.amdhsa_next_free_vgpr`, …).
    #[serde(rename = "from descriptor")]
    Descriptor,
}

/// The occupancy of the kernel at the request's block size on one SM (GCN3: one CU).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct OccupancyView {
    /// The preset the limits come from (`sm_86`, `gfx8`).
    pub machine: String,
    /// Why that preset: `listing` (the listing's architecture), `parameter`
    /// (`occupancy_arch`), `assumed` (the listing names none; a note says which).
    pub machine_from: String,
    pub threads_per_block: u32,
    pub warps_per_block: u32,
    pub blocks_per_sm: u32,
    pub warps_per_sm: u32,
    pub max_warps_per_sm: u32,
    /// `warps_per_sm / max_warps_per_sm`.
    pub occupancy: f64,
    /// Registers per thread (GCN3: VGPRs per work-item).
    pub registers: u32,
    pub registers_source: Source,
    /// GCN3: SGPRs per wavefront.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scalar_registers: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scalar_registers_source: Option<Source>,
    /// Shared memory per block (GCN3: LDS per work-group), static plus dynamic, in bytes (the
    /// SM's per-block reservation not included, except where a dump's static figure holds it:
    /// sm_90).
    pub shared_bytes: u64,
    pub static_shared_bytes: u64,
    /// The request's `shared_bytes`.
    pub dynamic_shared_bytes: u64,
    /// Where the static part came from.
    pub shared_source: Source,
    /// `warps`, `blocks`, `registers` or `shared`: the first binding limit in that order.
    pub limited_by: String,
    /// Every limit that allows exactly `blocks_per_sm`.
    pub binding: Vec<String>,
    pub limits: LimitsView,
    pub one_more_block: OneMoreBlockView,
    /// Resident warps for each block size, a warp at a time up to the largest block.
    pub curve: Vec<CurvePointView>,
}

/// The blocks each resource allows alone (`null`: the kernel uses none of it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct LimitsView {
    pub warps: u32,
    pub blocks: u32,
    pub registers: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scalar_registers: Option<u32>,
    pub shared: Option<u32>,
}

/// What, changed alone, gives one more resident block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct OneMoreBlockView {
    pub blocks_per_sm: u32,
    pub registers_at_most: Option<u32>,
    /// Static plus dynamic bytes per block.
    pub shared_bytes_at_most: Option<u64>,
    pub smaller_block: Option<BlockSizeView>,
    pub larger_block: Option<BlockSizeView>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct BlockSizeView {
    pub threads: u32,
    pub blocks_per_sm: u32,
    pub warps_per_sm: u32,
    pub limited_by: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct CurvePointView {
    pub threads: u32,
    pub blocks_per_sm: u32,
    pub warps_per_sm: u32,
    pub occupancy: f64,
    pub limited_by: String,
}

/// Where the figures of a [`OccupancyView`] came from, besides the crate's result.
pub struct Provenance {
    pub machine: String,
    pub machine_from: &'static str,
    pub registers_source: Source,
    pub scalar_registers_source: Option<Source>,
    pub static_shared_bytes: u64,
    pub dynamic_shared_bytes: u64,
    pub shared_source: Source,
    /// Bytes of the static figure that are the SM's per-block reservation (sm_90 dumps),
    /// which the crate was given without and adds itself: added back to the bytes shown.
    pub reservation_in_static: u64,
}

impl From<&occupancy::BlockSizeChange> for BlockSizeView {
    fn from(c: &occupancy::BlockSizeChange) -> Self {
        BlockSizeView {
            threads: c.threads,
            blocks_per_sm: c.blocks_per_sm,
            warps_per_sm: c.warps_per_sm,
            limited_by: c.limited_by.name().into(),
        }
    }
}

impl OccupancyView {
    /// The calculators' "impact of varying block size" graph (issue #41 item 1): resident
    /// warps per SM against the block size, the kernel's own block size marked — for the
    /// Plots tab, which draws every `PlotView` alike.
    pub fn curve_plot(&self) -> crate::report::PlotView {
        use crate::report::{PlotView, Series};
        let points = self
            .curve
            .iter()
            .map(|c| [f64::from(c.threads), f64::from(c.warps_per_sm)])
            .collect();
        let here = [
            f64::from(self.threads_per_block),
            f64::from(self.warps_per_sm),
        ];
        PlotView {
            title: format!("Occupancy by block size ({})", self.machine),
            x_label: "threads per block".into(),
            y_label: format!("resident warps per SM (of {})", self.max_warps_per_sm),
            series: vec![
                Series {
                    name: "resident warps".into(),
                    style: "line".into(),
                    points,
                },
                Series {
                    name: "this launch".into(),
                    style: "dashed".into(),
                    points: vec![[here[0], 0.0], here],
                },
            ],
        }
    }

    pub fn new(a: &occupancy::Analysis, p: Provenance) -> Self {
        let o = &a.occupancy;
        let m = &a.one_more_block;
        OccupancyView {
            machine: p.machine,
            machine_from: p.machine_from.into(),
            threads_per_block: o.usage.threads,
            warps_per_block: o.warps_per_block,
            blocks_per_sm: o.blocks_per_sm,
            warps_per_sm: o.warps_per_sm,
            max_warps_per_sm: o.max_warps_per_sm,
            occupancy: o.fraction(),
            registers: o.usage.registers,
            registers_source: p.registers_source,
            scalar_registers: p.scalar_registers_source.map(|_| o.usage.scalar_registers),
            scalar_registers_source: p.scalar_registers_source,
            shared_bytes: o.usage.shared_bytes.saturating_add(p.reservation_in_static),
            static_shared_bytes: p.static_shared_bytes,
            dynamic_shared_bytes: p.dynamic_shared_bytes,
            shared_source: p.shared_source,
            limited_by: o.limited_by.name().into(),
            binding: o.binding.iter().map(|l| l.name().to_string()).collect(),
            limits: LimitsView {
                warps: o.limits.warps,
                blocks: o.limits.blocks,
                registers: o.limits.registers,
                scalar_registers: o.limits.scalar_registers,
                shared: o.limits.shared,
            },
            one_more_block: OneMoreBlockView {
                blocks_per_sm: o.blocks_per_sm.saturating_add(1),
                registers_at_most: m.registers_at_most,
                shared_bytes_at_most: m
                    .shared_bytes_at_most
                    .map(|s| s.saturating_add(p.reservation_in_static)),
                smaller_block: m.smaller_block.as_ref().map(Into::into),
                larger_block: m.larger_block.as_ref().map(Into::into),
            },
            curve: a
                .curve
                .iter()
                .map(|c| CurvePointView {
                    threads: c.threads,
                    blocks_per_sm: c.blocks_per_sm,
                    warps_per_sm: c.warps_per_sm,
                    occupancy: c.occupancy,
                    limited_by: c.limited_by.name().into(),
                })
                .collect(),
        }
    }
}
