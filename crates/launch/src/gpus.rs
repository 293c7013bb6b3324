//! Named GPUs: the SM count of one product per architecture the occupancy presets cover
//! (crate `occupancy`, sm_61 … sm_90), each from NVIDIA's own architecture whitepaper or
//! product specification. The SM count is the only figure the launch bound takes from the
//! product besides its memory system (DRAM bandwidth and boost clock, which bound the
//! contention between SMs, [`crate::contention`]); the per-SM limits are the
//! architecture's (crate `occupancy`).

/// A GPU product: its architecture and the SMs it enables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GpuPreset {
    /// The name a request uses (`gpu` parameter).
    pub name: &'static str,
    /// The product's name.
    pub title: &'static str,
    /// The compute capability, as a listing names it (`sm_86`) and the occupancy presets do.
    pub arch: &'static str,
    /// Streaming multiprocessors enabled on the product.
    pub sms: u32,
    /// Where the SM count comes from.
    pub source: &'static str,
    /// The DRAM side, for the contention bound.
    pub memory: MemorySystem,
}

/// What the contention bound takes from a product's memory system: its peak DRAM bandwidth
/// and the SM clock the cycles are counted in (the boost clock: the highest, so the most
/// SM cycles per byte, which is the safe side of `Δ`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemorySystem {
    /// Peak DRAM bandwidth, GB/s (10^9 bytes per second).
    pub bandwidth_gb_per_s: u32,
    /// The SM boost clock, MHz.
    pub boost_clock_mhz: u32,
    /// Where both figures come from.
    pub source: &'static str,
}

/// One product per architecture, in compute-capability order.
pub const GPUS: [GpuPreset; 7] = [
    GpuPreset {
        name: "gtx-1080-ti",
        title: "GeForce GTX 1080 Ti (GP102)",
        arch: "sm_61",
        sms: 28,
        source: "NVIDIA GeForce GTX 1080 Ti specifications: 3584 CUDA cores; a Pascal GP10x SM \
                 has 128 (NVIDIA GeForce GTX 1080 whitepaper, 2016): 28 SMs",
        memory: MemorySystem {
            bandwidth_gb_per_s: 484,
            boost_clock_mhz: 1582,
            source: "NVIDIA GeForce GTX 1080 Ti specifications: 11 Gbps GDDR5X on a 352-bit interface, 484 GB/s; boost clock 1582 MHz",
        },
    },
    GpuPreset {
        name: "v100",
        title: "Tesla V100 (GV100)",
        arch: "sm_70",
        sms: 80,
        source: "NVIDIA Tesla V100 GPU Architecture whitepaper (2017), Table 1: 80 SMs",
        memory: MemorySystem {
            bandwidth_gb_per_s: 900,
            boost_clock_mhz: 1530,
            source: "NVIDIA Tesla V100 GPU Architecture whitepaper (2017): HBM2 at 900 GB/s; Table 1: GPU boost clock 1530 MHz (SXM2)",
        },
    },
    GpuPreset {
        name: "rtx-2080-ti",
        title: "GeForce RTX 2080 Ti (TU102)",
        arch: "sm_75",
        sms: 68,
        source: "NVIDIA Turing GPU Architecture whitepaper (2018), Table 1 (RTX 2080 Ti \
                 Founders Edition): 68 SMs",
        memory: MemorySystem {
            bandwidth_gb_per_s: 616,
            boost_clock_mhz: 1635,
            source: "NVIDIA Turing GPU Architecture whitepaper (2018), Table 1 (RTX 2080 Ti Founders Edition): memory bandwidth 616 GB/s, boost clock 1635 MHz",
        },
    },
    GpuPreset {
        name: "a100",
        title: "A100 (GA100)",
        arch: "sm_80",
        sms: 108,
        source: "NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020), Table 1: 108 SMs",
        memory: MemorySystem {
            bandwidth_gb_per_s: 1555,
            boost_clock_mhz: 1410,
            source: "NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020), Table 1: memory bandwidth 1555 GB/s, boost clock 1410 MHz",
        },
    },
    GpuPreset {
        name: "rtx-3090",
        title: "GeForce RTX 3090 (GA102)",
        arch: "sm_86",
        sms: 82,
        source: "NVIDIA Ampere GA102 GPU Architecture whitepaper (2020), Table 1 (RTX 3090): \
                 82 SMs",
        memory: MemorySystem {
            bandwidth_gb_per_s: 936,
            boost_clock_mhz: 1695,
            source: "NVIDIA Ampere GA102 GPU Architecture whitepaper (2020), Table 1 (RTX 3090): memory bandwidth 936 GB/s, boost clock 1695 MHz",
        },
    },
    GpuPreset {
        name: "rtx-4090",
        title: "GeForce RTX 4090 (AD102)",
        arch: "sm_89",
        sms: 128,
        source: "NVIDIA Ada GPU Architecture whitepaper (2022), Table 1 (RTX 4090): 128 SMs",
        memory: MemorySystem {
            bandwidth_gb_per_s: 1008,
            boost_clock_mhz: 2520,
            source: "NVIDIA Ada GPU Architecture whitepaper (2022), Table 1 (RTX 4090): memory bandwidth 1008 GB/s, boost clock 2520 MHz",
        },
    },
    GpuPreset {
        name: "h100-sxm",
        title: "H100 SXM5 (GH100)",
        arch: "sm_90",
        sms: 132,
        source: "NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022), Table 3 (H100 \
                 SXM5): 132 SMs",
        memory: MemorySystem {
            bandwidth_gb_per_s: 3352,
            boost_clock_mhz: 1980,
            source: "NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022), Table 3 (H100 SXM5): memory bandwidth 3352 GB/s; H100 SXM5 specification: maximum boost clock 1980 MHz",
        },
    },
];

/// The preset named `name`.
pub fn by_name(name: &str) -> Option<&'static GpuPreset> {
    GPUS.iter().find(|g| g.name == name)
}

/// The preset of architecture `arch` (`sm_86`; `sm_86a`-style suffixes are not presets).
pub fn for_arch(arch: &str) -> Option<&'static GpuPreset> {
    GPUS.iter().find(|g| g.arch == arch)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_preset_per_architecture_with_its_sm_count() {
        let sms: Vec<(&str, u32)> = GPUS.iter().map(|g| (g.arch, g.sms)).collect();
        assert_eq!(
            sms,
            vec![
                ("sm_61", 28),
                ("sm_70", 80),
                ("sm_75", 68),
                ("sm_80", 108),
                ("sm_86", 82),
                ("sm_89", 128),
                ("sm_90", 132)
            ]
        );
        assert_eq!(for_arch("sm_75").map(|g| g.name), Some("rtx-2080-ti"));
        assert_eq!(by_name("h100-sxm").map(|g| g.sms), Some(132));
        assert!(for_arch("sm_52").is_none());
    }
}
