//! AMD GCN3 compute units (gfx8, the dialect `isa::gcn` reads): the limits of one CU and the
//! work-groups each resource allows.
//!
//! Sources:
//! - **ISA**: AMD, *Graphics Core Next Architecture, Generation 3* ISA reference guide
//!   (August 2016), §1 "Introduction" and §2 "Program Organization": a CU has four SIMDs,
//!   each holding up to ten wavefronts of 64 work-items; 256 VGPRs per SIMD lane; 64 KB of
//!   LDS per CU.
//! - **LLVM**: the AMDGPU back end's occupancy rules, which print the `; Occupancy:` line of
//!   a `hipcc`/`clang` listing: `getOccupancyWithNumVGPRs` (VGPRs rounded up to the
//!   allocation granule of 4, `256 / rounded` waves per SIMD, at most 10; reviews.llvm.org
//!   D65010), `getOccupancyWithNumSGPRs` for Volcanic Islands and later (at most 80 SGPRs:
//!   10 waves, 88: 9, 100: 8, more: 7; D23688), the non-addressable SGPR limit of gfx8
//!   (112, `getMaxNumSGPRs`, D29741), and `getMaxWorkGroupsPerCU` (16 work-groups per CU:
//!   one hardware barrier each; a one-wave work-group takes none and only the waves bound
//!   it).
//! - **AMDGPUUsage**: LLVM's "User Guide for AMDGPU Backend", `COMPUTE_PGM_RSRC2.LDS_SIZE`:
//!   LDS is allocated to a work-group in blocks of 128 dwords (512 bytes) on GFX7 to GFX10.
//!
//! The counts are per CU: the waves the registers allow per SIMD times the four SIMDs, over
//! the work-group's waves, as AMD's occupancy calculators count them. How the dispatcher
//! spreads one work-group's waves over the SIMDs is not modelled.

use crate::{count, round_up, PerLimit, Usage};

/// One GCN3 compute unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CuLimits {
    /// `gfx8` (GCN3; `gfx801`, `gfx803`, … share these limits).
    pub name: &'static str,
    /// ISA: 64 work-items per wavefront.
    pub wave_size: u32,
    /// ISA: 4 SIMDs per CU.
    pub simds_per_cu: u32,
    /// ISA, LLVM `getMaxWavesPerEU`: 10 wavefronts per SIMD.
    pub max_waves_per_simd: u32,
    /// LLVM `getMaxWorkGroupsPerCU`: 16 (barriers) for work-groups of more than one wave.
    pub max_workgroups_per_cu: u32,
    /// LLVM `getMaxFlatWorkGroupSize`: 1024 work-items.
    pub max_threads_per_workgroup: u32,
    /// ISA, LLVM `getTotalNumVGPRs`: 256 VGPRs per SIMD lane.
    pub vgprs_per_simd: u32,
    /// LLVM `getVGPRAllocGranule`: 4.
    pub vgpr_granule: u32,
    /// LLVM `getMaxNumSGPRs` on gfx8, VCC, FLAT_SCRATCH and XNACK_MASK included: 112.
    pub max_sgprs_per_wave: u32,
    /// ISA: 64 KB of LDS per CU.
    pub lds_per_cu: u64,
    /// ISA: a work-group may allocate the whole LDS, 64 KB.
    pub max_lds_per_workgroup: u64,
    /// AMDGPUUsage: 512 bytes.
    pub lds_granule: u64,
}

/// GCN3 (gfx8), with the figures and sources of [`CuLimits`].
pub const GCN3: CuLimits = CuLimits {
    name: "gfx8",
    wave_size: 64,
    simds_per_cu: 4,
    max_waves_per_simd: 10,
    max_workgroups_per_cu: 16,
    max_threads_per_workgroup: 1024,
    vgprs_per_simd: 256,
    vgpr_granule: 4,
    max_sgprs_per_wave: 112,
    lds_per_cu: 64 * 1024,
    max_lds_per_workgroup: 64 * 1024,
    lds_granule: 512,
};

impl CuLimits {
    /// Wavefront slots of the CU: 4 SIMDs × 10.
    pub fn max_waves_per_cu(&self) -> u32 {
        self.simds_per_cu.saturating_mul(self.max_waves_per_simd)
    }

    /// Waves per SIMD the VGPRs allow (`None`: none used): `256 / round_up(v, 4)`, at most
    /// 10 (LLVM `getOccupancyWithNumVGPRs`); over 256, none.
    pub fn waves_per_simd_by_vgprs(&self, vgprs: u32) -> Option<u32> {
        if vgprs == 0 {
            return None;
        }
        if vgprs > self.vgprs_per_simd {
            return Some(0);
        }
        let rounded = round_up(u64::from(vgprs), u64::from(self.vgpr_granule));
        Some(count(u64::from(self.vgprs_per_simd), rounded).min(self.max_waves_per_simd))
    }

    /// Waves per SIMD the SGPRs allow (`None`: none used): LLVM's Volcanic Islands table
    /// (≤ 80: 10, ≤ 88: 9, ≤ 100: 8, else 7), none over 112.
    pub fn waves_per_simd_by_sgprs(&self, sgprs: u32) -> Option<u32> {
        Some(match sgprs {
            0 => return None,
            s if s > self.max_sgprs_per_wave => 0,
            1..=80 => 10,
            81..=88 => 9,
            89..=100 => 8,
            _ => 7,
        })
        .map(|w: u32| w.min(self.max_waves_per_simd))
    }

    /// The work-groups each resource allows for a work-group of `usage`.
    pub(crate) fn per_limit(&self, usage: &Usage) -> PerLimit {
        let waves = u64::from(usage.threads.div_ceil(self.wave_size.max(1)));
        let simds = u64::from(self.simds_per_cu);
        let by_waves = |per_simd: u32| count(u64::from(per_simd) * simds, waves);
        PerLimit {
            warps: count(u64::from(self.max_waves_per_cu()), waves),
            blocks: if waves == 1 {
                self.max_waves_per_cu()
            } else {
                self.max_workgroups_per_cu
            },
            registers: self.waves_per_simd_by_vgprs(usage.registers).map(by_waves),
            scalar_registers: self
                .waves_per_simd_by_sgprs(usage.scalar_registers)
                .map(by_waves),
            shared: self.lds_limit(usage.shared_bytes),
        }
    }

    /// LDS: the work-group's bytes rounded up to 512 into the CU's 64 KB; over 64 KB, none.
    fn lds_limit(&self, bytes: u64) -> Option<u32> {
        if bytes == 0 {
            return None;
        }
        if bytes > self.max_lds_per_workgroup {
            return Some(0);
        }
        Some(count(self.lds_per_cu, round_up(bytes, self.lds_granule)))
    }
}
