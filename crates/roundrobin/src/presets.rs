//! Configurations used in the thesis, each citing where its numbers come from.

use crate::config::{
    Budgets, CacheConfig, Config, LoopBounds, Mode, Segmentation, TimingParams, UnknownData,
};
use caches::{AccessOrder, CacheGeometry, LevelLatencies, LlcMethod, StorePolicy};

/// A configuration with its source.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    pub name: &'static str,
    pub source: &'static str,
    pub config: Config,
}

/// The GPGPU-Sim Fermi-like architecture of Ch. 5: 15 SMs and 12 memory partitions with
/// thresholds T_CompetingSM = 13 and T_D2Center = 0.5 (§5.3.3.3). The thesis prints no
/// latency table; the latency values are those of its Fig. 24 example (SP pipeline buffers
/// 8 instructions, integer initiation 1 and execution 4 cycles, memory pipeline length 5,
/// L_base 200). Warp and block limits (48 warps, 8 blocks per SM) are Fermi's, as in
/// Table 7. The partition interleave of 256 bytes follows GPGPU-Sim's Fermi address mapping
/// (`dramid@8`) and is an assumption, not a thesis number. No caches (the Ch. 5 model has
/// none).
pub fn fermi_gpgpusim() -> Preset {
    Preset {
        name: "fermi-gpgpusim",
        source: "Huangfu 2017, §5.3.3.3 (15 SMs, 12 memory partitions, thresholds 13 and 0.5) \
                 and Fig. 24 (latencies); 48 warps / 8 blocks per SM as in Table 7",
        config: Config {
            warp_size: 32,
            sms: 15,
            memory_partitions: 12,
            partition_interleave_bytes: 256,
            max_warps_per_sm: 48,
            max_blocks_per_sm: 8,
            segment_bytes: 128,
            timing: TimingParams {
                sp_pipeline_capacity: 8,
                sfu_pipeline_capacity: 8,
                mem_pipeline_capacity: 8,
                l_initial: 1,
                l_initiation: 1,
                l_execution: 4,
                sp_pipeline_length: 8,
                sfu_pipeline_length: 8,
                mem_pipeline_length: 5,
                l_base: 200,
                l_shared: 20,
            },
            t_competing_sm: 13.0,
            t_d2center: 0.5,
            mode: Mode::Max,
            segmentation: Segmentation::Dependency,
            caches: None,
            budgets: Budgets::default(),
            unknown_data: UnknownData::Refuse,
            loop_bounds: LoopBounds::default(),
        },
    }
}

/// The gem5-gpu configuration of Table 7 (§6.6.1.1): 15 SMs, 48 active warps and 8 active
/// blocks per SM, 64 KB 4-way L1 with 128-byte lines, 512 KB 32-way shared L2 (Table 7 lists
/// 256/512/1024 KB; Table 6 uses 512 KB), LRU, pure round-robin scheduling. The level
/// latencies are profiled in the thesis (§6.6.1.3) but not printed; the values here (L1 hit
/// 20, L2 hit 120, L2 miss = L_base 200) are placeholders to be set per platform, as are the
/// pipeline values (taken from the Fermi preset) and the Access Interval quota.
pub fn gem5_gpu_table7() -> Preset {
    let mut config = fermi_gpgpusim().config;
    config.caches = Some(CacheConfig {
        l1: CacheGeometry {
            size_bytes: 64 << 10,
            line_bytes: 128,
            associativity: 4,
        },
        l2: CacheGeometry {
            size_bytes: 512 << 10,
            line_bytes: 128,
            associativity: 32,
        },
        latencies: LevelLatencies {
            l1_hit: 20,
            l2_hit: 120,
            l2_miss: 200,
        },
        llc_method: LlcMethod::AccessInterval { quota: 16 },
        stores: StorePolicy::WriteEvict,
        order: AccessOrder::Reordered,
    });
    Preset {
        name: "gem5-gpu-table7",
        source: "Huangfu 2017, Table 7 (§6.6.1.1): 15 SMs, L1 64KB/128B/4-way, \
                 L2 512KB/128B/32-way, LRU, 48 warps, 8 blocks; latencies are placeholders",
        config,
    }
}

/// All presets, for the catalog.
pub fn all() -> Vec<Preset> {
    vec![fermi_gpgpusim(), gem5_gpu_table7()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table7_geometry_is_valid() {
        let p = gem5_gpu_table7();
        let c = p.config.caches.expect("caches");
        // 64 KB / (128 B × 4) = 128 sets; 512 KB / (128 B × 32) = 128 sets.
        assert_eq!(c.l1.sets().expect("l1"), 128);
        assert_eq!(c.l2.sets().expect("l2"), 128);
        assert_eq!(p.config.sms, 15);
        assert_eq!(fermi_gpgpusim().config.memory_partitions, 12);
    }
}
