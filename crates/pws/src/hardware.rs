//! The hardware and launch inputs of the PWS analysis (Table 1 and "Inputs to the
//! analysis", PWS §5), with named presets citing their source.

/// GPU parameters of Table 1a plus the split/merge delays and initialisation delay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hardware {
    /// `N_CU`: compute units on the GPU.
    pub n_cu: u64,
    /// `N_SIMD`: SIMD units per CU.
    pub n_simd: u64,
    /// `N_WFC`: wavefront contexts per SIMD.
    pub n_wfc: u64,
    /// `N_WIWF`: work-items per wavefront.
    pub n_wiwf: u64,
    /// `S`: SpSIMD units (SWF contexts) per wavefront — how often one wavefront may be
    /// split at once.
    pub s: u32,
    /// `d`: worst-case initialisation delay of a wavefront (input 4 of §5).
    pub d: u64,
    /// `e_s`: worst-case delay of one split (input 5 of §5).
    pub e_s: u64,
    /// `e_m`: worst-case delay of one merge (input 5 of §5).
    pub e_m: u64,
}

impl Default for Hardware {
    fn default() -> Self {
        Hardware::gem5_gcn3()
    }
}

impl Hardware {
    /// The GCN3 GPU the paper evaluates in gem5: `N_CU = N_SIMD = 4` (§5, input 1: "based on
    /// recent AMD architectures"; also gem5 `configs/example/apu_se.py` defaults
    /// `--num-compute-units 4`, `--simds-per-cu 4`), `N_WFC = 10` (gem5 `--wfs-per-simd 10`,
    /// `ComputeUnit.n_wf = 10` in `src/gpu-compute/GPU.py`), `N_WIWF = 64` (gem5
    /// `--wf-size 64`), `S = 1` (the configuration of Fig. 11). The paper publishes no
    /// measured `d`, `e_s`, `e_m`; we use 1 as in its worked example (§5.1) — set real values.
    pub fn gem5_gcn3() -> Self {
        Hardware {
            n_cu: 4,
            n_simd: 4,
            n_wfc: 10,
            n_wiwf: 64,
            s: 1,
            d: 1,
            e_s: 1,
            e_m: 1,
        }
    }

    /// The worked example of §5.1 (Fig. 8, Table 2): `S = 2` and `d = e_s = e_m = 1`, on the
    /// [`Hardware::gem5_gcn3`] GPU.
    pub fn fig8_example() -> Self {
        Hardware {
            s: 2,
            ..Hardware::gem5_gcn3()
        }
    }
}

/// A named hardware preset with its source, for the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HardwarePreset {
    pub name: &'static str,
    pub source: &'static str,
    pub hardware: Hardware,
}

/// All presets, default first.
pub fn presets() -> Vec<HardwarePreset> {
    vec![
        HardwarePreset {
            name: "gem5-gcn3",
            source: "PWS §5 input (1) N_CU = N_SIMD = 4; gem5 configs/example/apu_se.py and src/gpu-compute/GPU.py defaults (4 CUs, 4 SIMDs/CU, 10 WF slots/SIMD, wavefront 64); S = 1 as in Fig. 11; d = e_s = e_m = 1 as in §5.1 (no measured values published)",
            hardware: Hardware::gem5_gcn3(),
        },
        HardwarePreset {
            name: "fig8-example",
            source: "PWS §5.1 worked example (Fig. 8, Table 2): S = 2, d = e_s = e_m = 1",
            hardware: Hardware::fig8_example(),
        },
    ]
}

/// The kernel launch: input 2 of §5 (Table 1b).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Launch {
    /// `G`: number of workgroups.
    pub workgroups: u64,
    /// `N_WIWG`: work-items per workgroup.
    pub work_items_per_group: u64,
}

impl Default for Launch {
    /// One workgroup of one wavefront (64 work-items): `DS = 1`, as in the §5.1 example.
    fn default() -> Self {
        Launch {
            workgroups: 1,
            work_items_per_group: 64,
        }
    }
}
