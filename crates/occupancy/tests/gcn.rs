//! Hand-worked GCN3 occupancy: 4 SIMDs × 10 waves per CU, VGPRs rounded up to 4 out of 256,
//! the Volcanic Islands SGPR table, 64 KiB of LDS in 512-byte blocks, 16 work-groups.

use occupancy::{analyse, gcn::GCN3, Limit, Machine, Usage};

fn gcn() -> Machine {
    Machine::Gcn3(GCN3)
}

fn usage(threads: u32, vgprs: u32, sgprs: u32, lds: u64) -> Usage {
    Usage {
        threads,
        registers: vgprs,
        scalar_registers: sgprs,
        shared_bytes: lds,
    }
}

/// The HIP-Examples BinomialOption kernel compiled for gfx801 (the sweep's
/// `hipex_BinomialOption__BinomialOption.s`): `.vgpr_count: 23`, `.sgpr_count: 15`,
/// `.group_segment_fixed_size: 8160`; the compiler's `; Occupancy: 10` is the waves per
/// SIMD its registers allow.
#[test]
fn binomial_option_lds_binds() {
    assert_eq!(
        GCN3.waves_per_simd_by_vgprs(23),
        Some(10),
        "256 / 24 = 10.7"
    );
    assert_eq!(GCN3.waves_per_simd_by_sgprs(15), Some(10));
    // 256 work-items = 4 waves. VGPRs: 10 per SIMD × 4 = 40 waves → 10 work-groups; SGPRs
    // the same; wave slots 40 / 4 = 10; LDS 8160 → 8192, 65536 / 8192 = 8 work-groups.
    let a = analyse(&gcn(), &usage(256, 23, 15, 8160)).expect("valid");
    let o = &a.occupancy;
    assert_eq!(
        (o.blocks_per_sm, o.warps_per_sm, o.max_warps_per_sm),
        (8, 32, 40)
    );
    assert_eq!(o.limited_by, Limit::Shared);
    assert_eq!(o.fraction(), 0.8);
    // 9 work-groups: 65536 / 9 = 7281 → 14 × 512 = 7168 bytes.
    assert_eq!(a.one_more_block.shared_bytes_at_most, Some(7168));
}

#[test]
fn vgprs_bind() {
    // 84 VGPRs: 256 / 84 = 3 waves per SIMD = 12 per CU; 4-wave groups: 3 (30 %).
    let a = analyse(&gcn(), &usage(256, 84, 20, 0)).expect("valid");
    assert_eq!(
        (a.occupancy.blocks_per_sm, a.occupancy.warps_per_sm),
        (3, 12)
    );
    assert_eq!(a.occupancy.limited_by, Limit::Registers);
    // 4 groups = 16 waves = 4 per SIMD: 256 / 4 = 64 VGPRs.
    assert_eq!(a.one_more_block.registers_at_most, Some(64));
}

#[test]
fn sgprs_bind_one_wave_groups() {
    // One wave per group: no barrier, so 40 group slots. 90 SGPRs: 8 waves per SIMD (the
    // table's ≤ 100 row) = 32 groups; 10 VGPRs → 12 → 21 → 10 per SIMD = 40.
    let o = gcn().occupancy(&usage(64, 10, 90, 0)).expect("valid");
    assert_eq!((o.blocks_per_sm, o.warps_per_sm), (32, 32));
    assert_eq!(o.limits.scalar_registers, Some(32));
    assert_eq!(o.limits.registers, Some(40));
    assert_eq!(o.limited_by, Limit::Registers);
}

#[test]
fn barriers_bind_two_wave_groups() {
    // 2 waves per group: 16 group slots (barriers); wave slots 20; VGPRs 40 / 2 = 20.
    let o = gcn().occupancy(&usage(128, 16, 16, 0)).expect("valid");
    assert_eq!((o.blocks_per_sm, o.warps_per_sm), (16, 32));
    assert_eq!(o.binding, vec![Limit::Blocks]);
}

#[test]
fn waves_bind_and_the_curve() {
    // 1024 work-items = 16 waves: 40 / 16 = 2 groups = 32 waves.
    let a = analyse(&gcn(), &usage(1024, 16, 16, 0)).expect("valid");
    assert_eq!(a.occupancy.blocks_per_sm, 2);
    assert_eq!(a.occupancy.limited_by, Limit::Warps);
    assert_eq!(a.curve.len(), 16, "64, 128, … 1024 work-items");
    // Below: 960 = 15 waves, 40 / 15 = 2 groups = 30; 896 = 14 waves, 2 = 28; 832 = 13
    // waves, 3 groups = 39 > 32: the nearest smaller size with more resident waves.
    let s = a.one_more_block.smaller_block.expect("smaller");
    assert_eq!((s.threads, s.warps_per_sm), (832, 39));
    // Past the hard limits: no group.
    assert_eq!(
        gcn()
            .occupancy(&usage(64, 257, 113, 65537))
            .map(|o| o.blocks_per_sm),
        Ok(0)
    );
    assert!(gcn().occupancy(&usage(1088, 1, 1, 0)).is_err());
}
