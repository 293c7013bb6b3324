//! Analysis parameters: the hardware configuration (DRAM preset, pipeline, compute units,
//! scratchpad bus) and the budgets that keep the analysis bounded.

use crate::dram::DramPreset;
use crate::error::Error;

/// The in-order compute pipeline of §3.1: instruction decode (operand fetch) followed by the
/// execute stages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PipelineConfig {
    /// Decode/operand-fetch stages: 1, or 3 (one operand fetched per stage, §3.1).
    pub decode_stages: u32,
    /// Execute stages (at least 3, as the reference tool requires for the RCP-unit timing).
    pub execute_stages: u32,
}

impl PipelineConfig {
    /// The public reference implementation's defaults, with which its launch scripts run:
    /// 1-stage decode, 3-stage execute.
    pub const REFERENCE: PipelineConfig = PipelineConfig {
        decode_stages: 1,
        execute_stages: 3,
    };

    /// The paper's evaluated configuration (§3.1): 3-stage decode and 5-stage execute
    /// ("10 pipeline stages" counting fetch and write-back).
    pub const PAPER: PipelineConfig = PipelineConfig {
        decode_stages: 3,
        execute_stages: 5,
    };

    /// Decode plus execute stages: the initial compute accumulator of a phase list and the
    /// cost of a pipeline flush (§5.3, §5.6).
    pub fn depth(&self) -> u64 {
        u64::from(self.decode_stages) + u64::from(self.execute_stages)
    }
}

impl Default for PipelineConfig {
    fn default() -> Self {
        PipelineConfig::REFERENCE
    }
}

/// Budgets for everything that can blow up. Hitting one is an [`Error`] naming it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Most DAG nodes created while unrolling loops (§5.4), over all loop DAGs.
    pub max_dag_nodes: u64,
    /// Most simulated pipeline cycles (cold and warm runs together, §5.3).
    pub max_pipeline_cycles: u64,
    /// Most periods of one DRAM stride request examined (§3.2.1).
    pub max_stride_periods: u64,
    /// Most words walked for one scratchpad stride request (§3.3).
    pub max_sp_stride_words: u64,
    /// Most intervals in the schedule (Gantt) data.
    pub max_schedule_intervals: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_dag_nodes: 1_000_000,
            max_pipeline_cycles: 20_000_000,
            max_stride_periods: 1 << 20,
            max_sp_stride_words: 1 << 22,
            max_schedule_intervals: 10_000,
        }
    }
}

/// Everything the equations need besides the program and the launch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// DRAM configuration (Table 1 / Table 3); default DDR4-3200AA with 2 bank groups.
    pub dram: DramPreset,
    pub pipeline: PipelineConfig,
    /// Compute clock in MHz (Table 3: 1 GHz). Converts DRAM cycles to compute cycles.
    pub compute_clock_mhz: u64,
    /// Work-items per work-group (§3: 1024).
    pub work_items: u64,
    /// SP-units (Table 3: 128): a vector instruction is issued work_items / sp_units = 8
    /// times, once per sub-vector (§5.3).
    pub sp_units: u64,
    /// RCP-units (Table 3: 32, one per four SP-units): an RCP-unit instruction occupies
    /// sp_units / rcp_units = 4 issue slots per sub-vector, 32 in all (§5.3).
    pub rcp_units: u64,
    /// Scratchpad bus width in 32-bit words per cycle (Table 3: 4–32; the reference build
    /// uses 4).
    pub sp_bus_words: u64,
    /// Latency of the non-pipelined radix-16 scalar integer divider, in cycles (§3.1: 8).
    pub divider_cycles: u64,
    /// DRAM controller pipeline delay added to a closed-form LID, in DRAM cycles (the
    /// reference tool: 3).
    pub dram_pipeline_cycles: u64,
    /// How many work-groups the schedule (Gantt) shows, from the start of the kernel.
    pub schedule_work_groups: u64,
    pub budget: Budget,
    /// Budget: most arbiter steps simulated plus burst requests examined for one DRAM stride
    /// request over all its start offsets ([`crate::controller::simulate_stride`]). Kept
    /// outside [`Budget`] so that code building a `Budget` literal keeps compiling.
    pub max_dram_sim_steps: u64,
}

/// Default of [`Config::max_dram_sim_steps`]: about 10× the largest corpus request
/// (`cnn_maxpool`'s 65×65-word tile load, 5.05 M steps, ~0.1 s natively).
pub const DEFAULT_DRAM_SIM_STEPS: u64 = 50_000_000;

impl Default for Config {
    fn default() -> Self {
        Config::reference()
    }
}

impl Config {
    /// The reference implementation's configuration (default).
    pub fn reference() -> Self {
        Config {
            dram: DramPreset::default(),
            pipeline: PipelineConfig::REFERENCE,
            compute_clock_mhz: 1000,
            work_items: 1024,
            sp_units: 128,
            rcp_units: 32,
            sp_bus_words: 4,
            divider_cycles: 8,
            dram_pipeline_cycles: 3,
            schedule_work_groups: 4,
            budget: Budget::default(),
            max_dram_sim_steps: DEFAULT_DRAM_SIM_STEPS,
        }
    }

    /// The paper's evaluation (§3.1, §6.3): 3-stage decode and 5-stage execute pipeline, and
    /// a 32-word scratchpad bus. The bus width is our inference from Table 5: kernels without
    /// scratchpad buffers (MRI-Q computePhiMag, SRAD2) do not depend on it, while the
    /// KFusion track and SRAD rows are reproduced exactly (with the controller simulation of
    /// [`crate::controller`]) only with 32 words (Table 3 lists 4–32).
    pub fn paper() -> Self {
        Config {
            pipeline: PipelineConfig::PAPER,
            sp_bus_words: 32,
            ..Config::reference()
        }
    }

    /// Named configurations with their sources, for the facade's catalog: the reference
    /// tool's defaults, the paper's evaluation, and each DRAM preset on the reference
    /// pipeline.
    pub fn presets() -> Vec<(&'static str, &'static str, Config)> {
        let mut out = vec![
            (
                "reference",
                "public Sim-D reference implementation defaults (wcet tool: 1-stage decode, 3-stage execute; 4-word scratchpad bus; DDR4-3200AA 2BG)",
                Config::reference(),
            ),
            (
                "paper",
                "Sim-D §3.1 and Table 5: 3-stage decode, 5-stage execute, 32-word scratchpad bus, DDR4-3200AA 2BG",
                Config::paper(),
            ),
        ];
        for d in DramPreset::ALL {
            out.push((
                d.name(),
                d.source(),
                Config {
                    dram: d,
                    ..Config::reference()
                },
            ));
        }
        out
    }

    /// Sub-vectors per vector instruction.
    pub fn subvectors(&self) -> u64 {
        self.work_items / self.sp_units.max(1)
    }

    /// Issue slots per sub-vector of an RCP-unit instruction.
    pub fn rcp_issues(&self) -> u64 {
        self.sp_units / self.rcp_units.max(1)
    }

    pub fn validate(&self) -> Result<(), Error> {
        let p = self.pipeline;
        if p.decode_stages != 1 && p.decode_stages != 3 {
            return Err(Error::request(format!(
                "pipeline.decode_stages must be 1 or 3 (Sim-D §3.1), got {}",
                p.decode_stages
            )));
        }
        if !(3..=64).contains(&p.execute_stages) {
            return Err(Error::request(format!(
                "pipeline.execute_stages must be between 3 and 64 (the reference tool needs at least 3 for RCP-unit timing), got {}",
                p.execute_stages
            )));
        }
        let pow2 = |x: u64| x.is_power_of_two();
        if !(pow2(self.work_items) && pow2(self.sp_units) && pow2(self.rcp_units))
            || self.sp_units > self.work_items
            || self.rcp_units > self.sp_units
            || self.work_items > 1 << 16
        {
            return Err(Error::request(
                "work_items, sp_units and rcp_units must be powers of two with rcp_units ≤ sp_units ≤ work_items ≤ 65536",
            ));
        }
        if !pow2(self.sp_bus_words) || self.sp_bus_words > 1024 {
            return Err(Error::request(
                "sp_bus_words must be a power of two up to 1024",
            ));
        }
        if self.compute_clock_mhz == 0 || self.compute_clock_mhz > 100_000 {
            return Err(Error::request(
                "compute_clock_mhz must be between 1 and 100000",
            ));
        }
        if self.divider_cycles == 0 || self.divider_cycles > 1024 {
            return Err(Error::request("divider_cycles must be between 1 and 1024"));
        }
        Ok(())
    }
}
