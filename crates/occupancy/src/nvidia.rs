//! NVIDIA streaming multiprocessors: the per-architecture limits ([`SmLimits`], one preset
//! per compute capability) and the block counts each resource allows.
//!
//! Sources, named once here and by row in each field's documentation:
//! - **Guide**: NVIDIA, *CUDA C++ Programming Guide*, "Compute Capabilities", table
//!   "Technical Specifications per Compute Capability" (the table numbered 21 in the
//!   12.x guides), and for the shared-memory carve-outs and the 1 KB per-block reservation
//!   the sections "Compute Capability 7.x / 8.x / 9.0", "Shared Memory".
//! - **Calculator**: NVIDIA, *CUDA Occupancy Calculator* spreadsheet
//!   (`CUDA_Occupancy_Calculator.xls`), sheet "GPU Data", and the same figures in the CUDA
//!   toolkit's `cuda_occupancy.h` (11.8: `cudaOccSMemAllocationGranularity`,
//!   `cudaOccRegAllocationGranularity`, `cudaOccSubPartitionsPerMultiprocessor`,
//!   `cudaOccMaxBlocksPerMultiprocessor`), which `cudaOccupancyMaxActiveBlocksPerMultiprocessor`
//!   evaluates.
//!
//! The shared memory per SM is the largest carve-out the architecture allows (the rest of
//! the unified L1/shared array goes to L1): the carve-out that allows the most blocks, which
//! the driver picks when a kernel's launch needs it. A program that sets a smaller
//! `cudaFuncAttributePreferredSharedMemoryCarveout` gets fewer; [`SmLimits::shared_per_sm`]
//! may be set to any of the architecture's carve-outs to see it.

use crate::{count, round_up, PerLimit, Usage};

/// One SM's limits. Every preset has 32-thread warps, 65536 registers per SM and per block,
/// 255 registers per thread, registers allocated per warp in units of 256 and warps in
/// groups of 4 (the four SM sub-partitions, each with a quarter of the register file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmLimits {
    /// `sm_86`, as `nvcc -arch` and a listing's `.target`/`EF_CUDA_SM86` name it.
    pub name: &'static str,
    /// Major and minor compute capability.
    pub compute_capability: (u32, u32),
    /// Guide: "Warp size" (32).
    pub warp_size: u32,
    /// Guide: "Maximum number of resident warps per SM".
    pub max_warps_per_sm: u32,
    /// Guide: "Maximum number of resident blocks per SM".
    pub max_blocks_per_sm: u32,
    /// Guide: "Maximum number of threads per block" (1024).
    pub max_threads_per_block: u32,
    /// Guide: "Number of 32-bit registers per SM" (64 K).
    pub registers_per_sm: u32,
    /// Guide: "Maximum number of 32-bit registers per thread block" (64 K).
    pub max_registers_per_block: u32,
    /// Guide: "Maximum number of 32-bit registers per thread" (255).
    pub max_registers_per_thread: u32,
    /// Calculator: "Register allocation unit size" (256 registers; allocation granularity
    /// "warp": a warp's `registers × 32` is rounded up to it).
    pub register_allocation_unit: u32,
    /// Calculator: "Warp allocation granularity" (4): the register file is split among the
    /// SM's four sub-partitions (`cuda_occupancy.h`: `cudaOccSubPartitionsPerMultiprocessor`,
    /// 4 for cc 6.1 and 7.0 to 9.0), so the warps the registers allow are counted per
    /// sub-partition and come in multiples of 4.
    pub warp_allocation_granularity: u32,
    /// Guide: "Maximum amount of shared memory per SM", the largest carve-out, in bytes
    /// (see the module documentation).
    pub shared_per_sm: u64,
    /// Guide: "Maximum amount of shared memory per thread block" (above 48 KB a kernel must
    /// opt in with `cudaFuncSetAttribute`), in bytes.
    pub max_shared_per_block: u64,
    /// Calculator: "Shared memory allocation unit size": 256 bytes to cc 7.5, 128 from 8.0
    /// (`cudaOccSMemAllocationGranularity`).
    pub shared_allocation_unit: u64,
    /// Guide, "Compute Capability 8.x" and "9.0", "Shared Memory": "1 KB of shared memory is
    /// reserved for system use" per thread block (`cudaDeviceProp::reservedSharedMemPerBlock`,
    /// 1024); 0 before cc 8.0. Counted with the block's own shared memory before rounding.
    pub reserved_shared_per_block: u64,
}

const KB: u64 = 1024;

/// What every preset has in common (the Guide and Calculator rows named on [`SmLimits`]).
const COMMON: SmLimits = SmLimits {
    name: "",
    compute_capability: (0, 0),
    warp_size: 32,
    max_warps_per_sm: 64,
    max_blocks_per_sm: 32,
    max_threads_per_block: 1024,
    registers_per_sm: 65536,
    max_registers_per_block: 65536,
    max_registers_per_thread: 255,
    register_allocation_unit: 256,
    warp_allocation_granularity: 4,
    shared_per_sm: 0,
    max_shared_per_block: 48 * KB,
    shared_allocation_unit: 256,
    reserved_shared_per_block: 0,
};

/// Ampere's consumer SM (cc 8.6): 48 warps, 16 blocks, up to 100 KB of shared memory
/// (99 KB per block), 128-byte shared allocation, 1 KB reserved per block.
const SM_86: SmLimits = SmLimits {
    name: "sm_86",
    compute_capability: (8, 6),
    max_warps_per_sm: 48,
    max_blocks_per_sm: 16,
    shared_per_sm: 100 * KB,
    max_shared_per_block: 99 * KB,
    shared_allocation_unit: 128,
    reserved_shared_per_block: KB,
    ..COMMON
};

/// The presets, by compute capability. Per row of the Guide's table (cc 6.1 / 7.0 / 7.5 /
/// 8.0 / 8.6 / 8.9 / 9.0):
/// - resident warps per SM: 64 / 64 / 32 / 64 / 48 / 48 / 64;
/// - resident blocks per SM: 32 / 32 / 16 / 32 / 16 / 24 / 32;
/// - shared memory per SM (KB): 96 / 96 / 64 / 164 / 100 / 100 / 228 (cc 7.0 carve-outs 0,
///   8, 16, 32, 64, 96; 7.5: 32 or 64; 8.0: up to 164; 8.6 and 8.9: up to 100; 9.0: up to
///   228; 6.1 has a fixed 96);
/// - shared memory per block (KB): 48 / 96 / 64 / 163 / 99 / 99 / 227.
///
/// Shared allocation unit (Calculator): 256 / 256 / 256 / 128 / 128 / 128 / 128 bytes;
/// per-block reservation (Guide): 0 / 0 / 0 / 1 / 1 / 1 / 1 KB.
pub const PRESETS: [SmLimits; 7] = [
    SmLimits {
        name: "sm_61",
        compute_capability: (6, 1),
        shared_per_sm: 96 * KB,
        ..COMMON
    },
    SmLimits {
        name: "sm_70",
        compute_capability: (7, 0),
        shared_per_sm: 96 * KB,
        max_shared_per_block: 96 * KB,
        ..COMMON
    },
    SmLimits {
        name: "sm_75",
        compute_capability: (7, 5),
        max_warps_per_sm: 32,
        max_blocks_per_sm: 16,
        shared_per_sm: 64 * KB,
        max_shared_per_block: 64 * KB,
        ..COMMON
    },
    SmLimits {
        name: "sm_80",
        compute_capability: (8, 0),
        shared_per_sm: 164 * KB,
        max_shared_per_block: 163 * KB,
        shared_allocation_unit: 128,
        reserved_shared_per_block: KB,
        ..COMMON
    },
    SM_86,
    // Ada: Ampere's consumer SM with 24 blocks per SM (the Guide's rows as listed above).
    SmLimits {
        name: "sm_89",
        compute_capability: (8, 9),
        max_blocks_per_sm: 24,
        ..SM_86
    },
    SmLimits {
        name: "sm_90",
        compute_capability: (9, 0),
        shared_per_sm: 228 * KB,
        max_shared_per_block: 227 * KB,
        shared_allocation_unit: 128,
        reserved_shared_per_block: KB,
        ..COMMON
    },
];

impl SmLimits {
    /// The preset named `sm_XX` (also `sm_XXa`, `compute_XX`, `8.6`, `86`), if there is one.
    pub fn preset(name: &str) -> Option<SmLimits> {
        let n = name.trim().to_ascii_lowercase();
        let digits: String = n
            .strip_prefix("sm_")
            .or_else(|| n.strip_prefix("compute_"))
            .unwrap_or(&n)
            .trim_end_matches('a')
            .chars()
            .filter(|&c| c != '.')
            .collect();
        PRESETS
            .iter()
            .find(|p| {
                let (major, minor) = p.compute_capability;
                digits == format!("{major}{minor}")
            })
            .cloned()
    }

    /// The blocks each resource allows for a block of `usage` (its `threads` already
    /// checked to be 1 to `max_threads_per_block`).
    pub(crate) fn per_limit(&self, usage: &Usage) -> PerLimit {
        let warps_per_block = u64::from(usage.threads.div_ceil(self.warp_size.max(1)));
        PerLimit {
            warps: count(u64::from(self.max_warps_per_sm), warps_per_block),
            blocks: self.max_blocks_per_sm,
            registers: self.register_limit(usage.registers, warps_per_block),
            scalar_registers: None,
            shared: self.shared_limit(usage.shared_bytes),
        }
    }

    /// Registers: each warp takes `registers × 32` rounded up to the allocation unit; each
    /// of the `g` sub-partitions holds `floor((registers_per_sm / g) / per_warp)` warps, so
    /// the SM holds `g` times that, and the blocks are those warps over the block's warps.
    /// A block needing more than a block may have (its warps rounded up to `g`, the
    /// hardware's count) or a thread over the per-thread maximum fits nowhere: 0.
    fn register_limit(&self, registers: u32, warps_per_block: u64) -> Option<u32> {
        if registers == 0 {
            return None;
        }
        if registers > self.max_registers_per_thread {
            return Some(0);
        }
        let g = u64::from(self.warp_allocation_granularity.max(1));
        let per_warp = round_up(
            u64::from(registers) * u64::from(self.warp_size),
            u64::from(self.register_allocation_unit),
        );
        if per_warp * round_up(warps_per_block, g) > u64::from(self.max_registers_per_block) {
            return Some(0);
        }
        let warps = (u64::from(self.registers_per_sm) / g / per_warp) * g;
        Some(count(warps, warps_per_block))
    }

    /// Shared memory: the block's bytes plus the per-block reservation, rounded up to the
    /// allocation unit, into the SM's carve-out. Over the per-block maximum: 0.
    fn shared_limit(&self, bytes: u64) -> Option<u32> {
        if bytes > self.max_shared_per_block {
            return Some(0);
        }
        let allocated = round_up(
            bytes.saturating_add(self.reserved_shared_per_block),
            self.shared_allocation_unit,
        );
        (allocated > 0).then(|| count(self.shared_per_sm, allocated))
    }
}
