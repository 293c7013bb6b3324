//! Hand-worked occupancy on every NVIDIA preset, the arithmetic written out; each of the four
//! limits binds somewhere. The limits used are the presets' (see `occupancy::nvidia`):
//! 65536 registers in 4 sub-partitions of 16384, a warp's `registers × 32` rounded up to 256.

use occupancy::{analyse, Limit, Machine, SmLimits, Usage};

fn sm(name: &str) -> Machine {
    Machine::Nvidia(SmLimits::preset(name).expect("preset"))
}

fn usage(threads: u32, registers: u32, shared_bytes: u64) -> Usage {
    Usage {
        threads,
        registers,
        scalar_registers: 0,
        shared_bytes,
    }
}

/// (blocks per SM, warps per SM, limited_by, binding) of `u` on `m`.
fn occ(m: &Machine, u: Usage) -> (u32, u32, Limit, Vec<Limit>) {
    let o = m.occupancy(&u).expect("valid block");
    (o.blocks_per_sm, o.warps_per_sm, o.limited_by, o.binding)
}

/// CUDA C++ Best Practices Guide, "Execution Configuration" / "Occupancy" (cc 7.0): "a kernel
/// with 128-thread blocks using 37 registers per thread results in an occupancy of 75% with
/// 12 active 128-thread blocks per multiprocessor, whereas a kernel with 320-thread blocks
/// using the same 37 registers per thread results in an occupancy of 63% because only four
/// 320-thread blocks can reside on a multiprocessor".
#[test]
fn best_practices_guide_37_registers_cc70() {
    let m = sm("sm_70");
    // 37 × 32 = 1184 → 1280 (5 × 256) per warp; 16384 / 1280 = 12.8 → 12 warps per
    // sub-partition, × 4 = 48 warps. 128 threads = 4 warps: 48 / 4 = 12 blocks (warp slots:
    // 64 / 4 = 16; block slots 32; no shared memory).
    let o = m.occupancy(&usage(128, 37, 0)).expect("valid");
    assert_eq!((o.blocks_per_sm, o.warps_per_sm), (12, 48));
    assert_eq!(o.limited_by, Limit::Registers);
    assert_eq!(o.fraction(), 0.75);
    assert_eq!(o.limits.shared, None);
    // 320 threads = 10 warps: 48 / 10 = 4 blocks = 40 warps, 40 / 64 = 62.5 % ("63%").
    let o = m.occupancy(&usage(320, 37, 0)).expect("valid");
    assert_eq!((o.blocks_per_sm, o.warps_per_sm), (4, 40));
    assert_eq!(o.fraction(), 0.625);
    // The Guide, same section: at most 32 registers per thread for 100 % on cc 7.0: 32 × 32
    // = 1024 per warp, 16384 / 1024 = 16 per sub-partition, 64 warps. 256 threads = 8 warps:
    // registers 64 / 8 = 8 blocks, warp slots 64 / 8 = 8: a tie, reported as `warps`.
    assert_eq!(
        occ(&m, usage(256, 32, 0)),
        (8, 64, Limit::Warps, vec![Limit::Warps, Limit::Registers])
    );
}

/// What gives one more block in the 320-thread case above.
#[test]
fn best_practices_guide_one_more_block() {
    let a = analyse(&sm("sm_70"), &usage(320, 37, 0)).expect("valid");
    let more = a.one_more_block;
    // 5 blocks of 10 warps need 50 warps from the registers: 13 per sub-partition (52), so
    // 16384 / 13 = 1260 → 1024 registers per warp (the largest multiple of 256 not above):
    // 32 per thread. 33 × 32 = 1056 → 1280 gives 12 per sub-partition again.
    assert_eq!(more.registers_at_most, Some(32));
    assert_eq!(
        more.shared_bytes_at_most, None,
        "no shared memory to give back"
    );
    // 288 threads = 9 warps: 48 / 9 = 5 blocks = 45 warps > 40 (warp slots 64 / 9 = 7).
    let smaller = more.smaller_block.expect("smaller");
    assert_eq!(
        (smaller.threads, smaller.blocks_per_sm, smaller.warps_per_sm),
        (288, 5, 45)
    );
    // 352 threads = 11 warps: 48 / 11 = 4 blocks = 44 warps > 40.
    let larger = more.larger_block.expect("larger");
    assert_eq!(
        (larger.threads, larger.blocks_per_sm, larger.warps_per_sm),
        (352, 4, 44)
    );
}

#[test]
fn cc61_warps_blocks_and_shared() {
    let m = sm("sm_61");
    // Warp slots: 256 threads = 8 warps, 64 / 8 = 8 blocks. Registers 16 × 32 = 512 per
    // warp, 16384 / 512 = 32 per sub-partition = 128 warps → 16 blocks.
    assert_eq!(
        occ(&m, usage(256, 16, 0)),
        (8, 64, Limit::Warps, vec![Limit::Warps])
    );
    // Block slots: one warp per block, 32 blocks (warp slots 64, registers 128) = 32 warps.
    assert_eq!(
        occ(&m, usage(32, 16, 0)),
        (32, 32, Limit::Blocks, vec![Limit::Blocks])
    );
    // Shared: 20000 bytes → 79 × 256 = 20224 allocated; 96 KiB = 98304 / 20224 = 4.86 → 4
    // blocks of 4 warps = 16 warps (25 %). Registers: 20 × 32 = 640 → 768, 16384 / 768 =
    // 21 → 84 warps → 21 blocks; warp slots 16.
    let a = analyse(&m, &usage(128, 20, 20000)).expect("valid");
    let o = &a.occupancy;
    assert_eq!((o.blocks_per_sm, o.warps_per_sm), (4, 16));
    assert_eq!(o.limited_by, Limit::Shared);
    assert_eq!(o.limits.registers, Some(21));
    assert_eq!(o.limits.shared, Some(4));
    // 5 blocks: 98304 / 5 = 19660.8 → at most 76 × 256 = 19456 bytes each.
    assert_eq!(a.one_more_block.shared_bytes_at_most, Some(19456));
    assert_eq!(a.one_more_block.registers_at_most, None);
    // Over the 48 KiB a block may have on cc 6.1: no block at all, for want of shared memory.
    assert_eq!(
        occ(&m, usage(128, 20, 48 * 1024 + 1)),
        (0, 0, Limit::Shared, vec![Limit::Shared])
    );
}

#[test]
fn cc70_shared_in_the_96k_carveout() {
    // 40000 bytes → 157 × 256 = 40192; 98304 / 40192 = 2.4 → 2 blocks of 8 warps = 16.
    let a = analyse(&sm("sm_70"), &usage(256, 32, 40000)).expect("valid");
    assert_eq!(a.occupancy.blocks_per_sm, 2);
    assert_eq!(a.occupancy.warps_per_sm, 16);
    assert_eq!(a.occupancy.limited_by, Limit::Shared);
    // 3 blocks: 98304 / 3 = 32768, a multiple of 256.
    assert_eq!(a.one_more_block.shared_bytes_at_most, Some(32768));
}

#[test]
fn cc75_turing_32_warps() {
    let m = sm("sm_75");
    // 1024 threads = 32 warps: warp slots 32 / 32 = 1; registers 32 × 32 = 1024, 16 per
    // sub-partition = 64 warps → 2 blocks.
    assert_eq!(
        occ(&m, usage(1024, 32, 0)),
        (1, 32, Limit::Warps, vec![Limit::Warps])
    );
    // 72 × 32 = 2304 (9 × 256); 16384 / 2304 = 7.1 → 7 per sub-partition = 28 warps; 128
    // threads = 4 warps → 7 blocks = 28 warps, 87.5 % (warp slots 32 / 4 = 8, block slots 16).
    let a = analyse(&m, &usage(128, 72, 0)).expect("valid");
    assert_eq!(a.occupancy.blocks_per_sm, 7);
    assert_eq!(a.occupancy.limited_by, Limit::Registers);
    assert_eq!(a.occupancy.fraction(), 0.875);
    // 8 blocks need 32 warps, 8 per sub-partition: 16384 / 8 = 2048 per warp = 64 × 32.
    assert_eq!(a.one_more_block.registers_at_most, Some(64));
}

#[test]
fn cc80_reserves_1k_per_block() {
    let m = sm("sm_80");
    // 0 bytes of the kernel's own still allocate the 1 KiB reserve: 167936 / 1024 = 164
    // blocks, not binding (warps 64 / 8 = 8, registers 8).
    let o = m.occupancy(&usage(256, 32, 0)).expect("valid");
    assert_eq!(o.limits.shared, Some(164));
    assert_eq!(o.blocks_per_sm, 8);
    // 48 KiB dynamic: 49152 + 1024 = 50176 = 392 × 128; 164 KiB = 167936 / 50176 = 3.3 → 3
    // blocks of 4 warps = 12 (18.75 %).
    let a = analyse(&m, &usage(128, 32, 49152)).expect("valid");
    assert_eq!(
        (a.occupancy.blocks_per_sm, a.occupancy.warps_per_sm),
        (3, 12)
    );
    assert_eq!(a.occupancy.limited_by, Limit::Shared);
    // 4 blocks: 167936 / 4 = 41984 = 328 × 128 allocated, minus the 1024 reserved.
    assert_eq!(a.one_more_block.shared_bytes_at_most, Some(40960));
}

#[test]
fn cc86_registers_past_the_block_limit() {
    let m = sm("sm_86");
    // 256 threads, 32 registers: warp slots 48 / 8 = 6 blocks = 48 warps (registers 8,
    // shared 102400 / 1024 = 100, block slots 16).
    assert_eq!(
        occ(&m, usage(256, 32, 0)),
        (6, 48, Limit::Warps, vec![Limit::Warps])
    );
    // 255 × 32 = 8160 → 8192 per warp; 16384 / 8192 = 2 per sub-partition = 8 warps; 128
    // threads = 4 warps → 2 blocks = 8 warps (1/6).
    let a = analyse(&m, &usage(128, 255, 0)).expect("valid");
    assert_eq!(
        (a.occupancy.blocks_per_sm, a.occupancy.warps_per_sm),
        (2, 8)
    );
    assert_eq!(a.occupancy.limited_by, Limit::Registers);
    // 3 blocks = 12 warps = 3 per sub-partition: 16384 / 3 = 5461 → 5376 = 21 × 256 per
    // warp, 168 per thread (169 × 32 = 5408 → 5632, 2 per sub-partition).
    assert_eq!(a.one_more_block.registers_at_most, Some(168));
    // 1024 threads × 255: 8192 × 32 warps = 262144 > 65536 registers per block: none.
    assert_eq!(
        occ(&m, usage(1024, 255, 0)),
        (0, 0, Limit::Registers, vec![Limit::Registers])
    );
    // 64 × 32 = 2048 × 32 warps = 65536: exactly one block, the warp slots (48 / 32) too.
    assert_eq!(
        occ(&m, usage(1024, 64, 0)),
        (1, 32, Limit::Warps, vec![Limit::Warps, Limit::Registers])
    );
    // 65 × 32 = 2080 → 2304 × 32 = 73728 > 65536: none.
    assert_eq!(occ(&m, usage(1024, 65, 0)).0, 0);
    // 256 registers are more than a thread may have.
    assert_eq!(occ(&m, usage(32, 256, 0)).2, Limit::Registers);
}

#[test]
fn cc89_block_slots() {
    let m = sm("sm_89");
    // One warp per block: 24 block slots (warp slots 48, registers 64 warps, shared 100).
    assert_eq!(
        occ(&m, usage(32, 32, 0)),
        (24, 24, Limit::Blocks, vec![Limit::Blocks])
    );
    // Two warps: 48 / 2 = 24 = the block slots, a tie.
    assert_eq!(
        occ(&m, usage(64, 32, 0)),
        (24, 48, Limit::Warps, vec![Limit::Warps, Limit::Blocks])
    );
}

#[test]
fn cc90_228k_of_shared() {
    let m = sm("sm_90");
    // 100 KiB + 1 KiB reserved = 103424 = 808 × 128; 228 KiB = 233472 / 103424 = 2.26 → 2.
    let a = analyse(&m, &usage(256, 32, 102400)).expect("valid");
    assert_eq!(
        (a.occupancy.blocks_per_sm, a.occupancy.warps_per_sm),
        (2, 16)
    );
    assert_eq!(a.occupancy.limited_by, Limit::Shared);
    // 3 blocks: 233472 / 3 = 77824 = 608 × 128, minus 1024.
    assert_eq!(a.one_more_block.shared_bytes_at_most, Some(76800));
    // 228 KiB for one block is over the 227 KiB a block may have.
    assert_eq!(occ(&m, usage(256, 32, 228 * 1024)).0, 0);
}

#[test]
fn curve_on_cc86() {
    let a = analyse(&sm("sm_86"), &usage(256, 32, 0)).expect("valid");
    assert_eq!(a.curve.len(), 32, "32, 64, … 1024 threads");
    let at = |t: u32| {
        let p = a.curve.iter().find(|p| p.threads == t).expect("point");
        (p.blocks_per_sm, p.warps_per_sm, p.limited_by)
    };
    // 1 warp: 16 block slots. 2 warps: still 16 blocks (warp slots 24, registers 32).
    // 3 warps: 16 blocks = 48 warps (warp slots 16 too). 32 warps: 1 block (48 / 32).
    assert_eq!(at(32), (16, 16, Limit::Blocks));
    assert_eq!(at(64), (16, 32, Limit::Blocks));
    assert_eq!(at(96), (16, 48, Limit::Warps));
    assert_eq!(at(1024), (1, 32, Limit::Warps));
    // At 100 % nothing does better.
    assert_eq!(a.one_more_block.smaller_block, None);
    assert_eq!(a.one_more_block.larger_block, None);
}

#[test]
fn presets_by_name_and_bad_blocks() {
    assert_eq!(SmLimits::preset("8.6").map(|p| p.name), Some("sm_86"));
    assert_eq!(SmLimits::preset("sm_90a").map(|p| p.name), Some("sm_90"));
    assert_eq!(
        SmLimits::preset("compute_75").map(|p| p.name),
        Some("sm_75")
    );
    assert_eq!(SmLimits::preset("sm_35"), None);
    assert_eq!(SmLimits::preset(""), None);
    let m = sm("sm_86");
    assert!(m.occupancy(&usage(0, 32, 0)).is_err());
    assert!(m.occupancy(&usage(1025, 32, 0)).is_err());
    assert!(analyse(&m, &usage(u32::MAX, u32::MAX, u64::MAX)).is_err());
    // Extreme but valid figures: no panic, no block.
    assert_eq!(occ(&m, usage(1024, u32::MAX, u64::MAX)).0, 0);
}
