//! Memory contention between SMs: a stated bound on what the other SMs of a launch add to
//! one global memory access (issue #41 item 3), in the spirit of Huangfu's competing SMs
//! (thesis §5.3.3.3, Eq. 5.5–5.6, Alg. 6).
//!
//! # Huangfu's model
//! In the simulated GPU of the thesis (GPGPU-Sim, 15 SMs) the requests of different SMs to
//! one memory partition "are served in a round-robin order": with `M` SMs competing, one
//! SM's consecutive requests are served `M − 1` cycles apart, so an instruction of `N_coal`
//! coalesced accesses stalls `N_coal·(1 + N_CompetingSM)` cycles and its latency is
//! `L_base + Length_pipeline·N_coal·(1 + N_CompetingSM)` (Eq. 5.5, 5.6; worked example:
//! `N_coal = 8`, 6 competing SMs, pipeline 5, `L_base = 200` give 480). Alg. 6 estimates an
//! *average* number of competing SMs, which the thesis does not claim safe; "the maximal
//! number of possible competing SMs", the active SMs − 1, is the safe choice.
//!
//! # Our reading for a real GPU (the stated bound)
//! A real GPU's memory system is not one cycle per request: it is bounded by its DRAM
//! bandwidth `B` bytes per second at an SM clock of `f` Hz, `B/f` bytes per SM cycle.
//! Assume, as Huangfu does, that the memory system serves the SMs' requests round robin,
//! one warp access of each SM per turn, and that it keeps at least its peak DRAM
//! bandwidth while requests wait (requests spread over the partitions by the address
//! interleaving; L2 hits only shorten the wait). Then one warp access of ours, at most `k`
//! sectors of 32 bytes (`k ≤ 32`: one per thread when nothing coalesces), waits for at most
//! one access of each of the other `A − 1` active SMs and is served itself within
//!
//! ```text
//! Δ = ⌈A · k · 32 · f / B⌉ cycles
//! ```
//!
//! on top of the cost model's latency (which is the access alone: the SM's own L1, the
//! latency tables in `cfg`). Every class of instruction that can reach L2/DRAM (global,
//! local, texture, constant loads) takes `Δ` more; shared memory is on-chip and does not.
//! `A` is the SMs that hold blocks, `min(S, n)` for `n` blocks on `S` SMs (Huangfu's
//! "active SMs"; with one block only one SM is active and `Δ` is its own sectors).
//!
//! What this does not cover, and says so in the report: an SM whose own earlier accesses
//! queue ahead of ours (the per-SM load/store pipeline of the cost model is taken to
//! serialise them), a memory system that serves below its peak bandwidth under a hostile
//! pattern (all SMs on one partition: up to the partition count times slower), and DRAM
//! refresh. It is a bound under a stated arbitration model, as Huangfu's is, not a proof
//! about the hardware; the simulator's several-SM runs model no contention, so the checks
//! of observed ≤ bound do not test `Δ`.

use crate::gpus::MemorySystem;

/// Bytes in one memory sector, the unit the L1/L2 move (NVIDIA CUDA C++ Best Practices
/// Guide, "Coalesced Access to Global Memory": 32-byte segments on compute capability 6.0
/// and later).
pub const SECTOR_BYTES: u64 = 32;

/// Sectors of one warp access when nothing coalesces: one per thread.
pub const MAX_SECTORS_PER_ACCESS: u64 = 32;

/// The contention term of a launch and what it is made of (module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contention {
    /// `A`: SMs holding blocks of the launch.
    pub active_sms: u64,
    /// `k`: sectors of one warp access (32 unless the caller knows the accesses coalesce).
    pub sectors_per_access: u64,
    /// The memory system the bandwidth comes from.
    pub memory: MemorySystem,
    /// `Δ`: cycles one access may wait for the other SMs' and be served, at most.
    pub cycles_per_access: u64,
}

/// `Δ` for a launch of `blocks` blocks on `sms` SMs whose warp accesses touch at most
/// `sectors_per_access` sectors (clamped to 1…32), on `memory`. Integer arithmetic:
/// `⌈A·k·32·f_MHz / (B_GB/s·1000)⌉`, saturating.
pub fn per_access(
    blocks: u64,
    sms: u64,
    sectors_per_access: u64,
    memory: MemorySystem,
) -> Contention {
    let active_sms = sms.max(1).min(blocks.max(1));
    let k = sectors_per_access.clamp(1, MAX_SECTORS_PER_ACCESS);
    let bytes = active_sms
        .saturating_mul(k)
        .saturating_mul(SECTOR_BYTES)
        .saturating_mul(u64::from(memory.boost_clock_mhz));
    let per_cycle_x1000 = u64::from(memory.bandwidth_gb_per_s).max(1) * 1000;
    Contention {
        active_sms,
        sectors_per_access: k,
        memory,
        cycles_per_access: bytes.div_ceil(per_cycle_x1000),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpus;

    fn memory(g: &str) -> MemorySystem {
        gpus::by_name(g).expect("a GPU preset").memory
    }

    #[test]
    fn the_rtx_3090_full_grid_by_hand() {
        // 82 SMs × 32 sectors × 32 B = 83 968 B; 936 GB/s at 1 695 MHz is 552.2 B per
        // cycle; 83 968 × 1 695 / 936 000 = 152.06 → 153 cycles.
        let c = per_access(10_000, 82, 32, memory("rtx-3090"));
        assert_eq!(c.active_sms, 82);
        assert_eq!(c.cycles_per_access, 153);
    }

    #[test]
    fn active_sms_are_the_blocks_when_fewer() {
        // One block: only its own 32 sectors, 1 024 B × 1 695 / 936 000 = 1.85 → 2.
        let one = per_access(1, 82, 32, memory("rtx-3090"));
        assert_eq!((one.active_sms, one.cycles_per_access), (1, 2));
        // 4 blocks on 82 SMs: 4 active, 4 096 B → 7.4 → 8.
        assert_eq!(
            per_access(4, 82, 32, memory("rtx-3090")).cycles_per_access,
            8
        );
    }

    #[test]
    fn coalesced_accesses_wait_less_and_the_sector_count_is_clamped() {
        // 4 sectors (a warp's 128 coalesced bytes): 82 × 128 B × 1 695 / 936 000 = 19.01 → 20.
        assert_eq!(
            per_access(500, 82, 4, memory("rtx-3090")).cycles_per_access,
            20
        );
        assert_eq!(
            per_access(500, 82, 0, memory("rtx-3090")).sectors_per_access,
            1
        );
        assert_eq!(
            per_access(500, 82, 99, memory("rtx-3090")).cycles_per_access,
            153
        );
    }

    #[test]
    fn the_h100_has_more_bandwidth_per_sm_cycle() {
        // 132 × 1 024 B × 1 980 / 3 352 000 = 79.84 → 80 cycles.
        assert_eq!(
            per_access(132, 132, 32, memory("h100-sxm")).cycles_per_access,
            80
        );
    }

    #[test]
    fn huge_launches_saturate_instead_of_overflowing() {
        let m = MemorySystem {
            bandwidth_gb_per_s: 1,
            boost_clock_mhz: u32::MAX,
            source: "",
        };
        assert_eq!(
            per_access(u64::MAX, u64::MAX, 32, m).cycles_per_access,
            u64::MAX / 1000 + 1
        );
    }
}
