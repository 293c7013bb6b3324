//! The timing model's parameters (issue #7 item 4) and the named presets.
//!
//! One streaming multiprocessor (SM) is simulated. Its parameters are plain data so that the
//! facade can expose each as a request parameter and the report can say which values a
//! result was computed with.

use crate::splitting::Splitting;
use crate::thread_scheduling::ThreadScheduling;
use cfg::{LatencyTable, TimingClass};
use std::collections::BTreeMap;

/// How the SM picks, each cycle, which ready warps issue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheduler {
    /// Loose round-robin (GPGPU-Sim `lrr`): each cycle the search for ready warps starts
    /// after the warp that issued last and skips warps that cannot issue.
    LooseRoundRobin,
    /// Greedy-then-oldest (GPGPU-Sim `gto`): keep issuing from the warp that issued last
    /// while it can; otherwise the oldest ready warp (earliest dispatched, then lowest id).
    GreedyThenOldest,
    /// Pure round-robin (Huangfu §5.3.1): "the scheduler must issue one instruction one
    /// warp, before moving to the next warp according to the order of warp IDs, as long as
    /// the current warp is not waiting at a synchronization barrier". The scheduler waits
    /// for the warp whose turn it is, even when others are ready (not work-conserving).
    PureRoundRobin,
    /// Greedy-then-round-robin: keep issuing from the last warp while it can, otherwise
    /// loose round-robin from it.
    GreedyThenRoundRobin,
    /// Each cycle a random order of the candidates drawn from this seed and the cycle: a
    /// work-conserving scheduler that makes arbitrary choices (what "any work-conserving
    /// scheduler" means for a bound; the `block` mode checks its bound against it).
    Random(u64),
}

/// A kind of execution unit. An instruction of a warp of `S` threads on `U` units of its
/// kind occupies one of `σ = U / gcd(S, U)` lanes for `S / gcd(S, U)` cycles — the sigma
/// transformation of Berezovskyi et al. §3 (Eq. 1–2, generalised to any `U`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Unit {
    /// CUDA cores (the makespan paper's `C`).
    Core,
    /// Load/store units (the makespan paper's `L`).
    LoadStore,
    /// Special-function units.
    Sfu,
}

impl Unit {
    pub const ALL: [Unit; 3] = [Unit::Core, Unit::LoadStore, Unit::Sfu];

    pub fn name(self) -> &'static str {
        match self {
            Unit::Core => "core",
            Unit::LoadStore => "load_store",
            Unit::Sfu => "sfu",
        }
    }
}

/// An optional L1 data cache for global loads: `sets × ways` lines of `line_bytes`, LRU.
/// Stores are write-through without allocation (they never change the tags), the policy of
/// GPGPU-Sim's Fermi L1 for global data as we read its `dl1` configuration; a simplification
/// documented rather than hidden.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct L1Config {
    pub sets: u32,
    pub ways: u32,
    pub line_bytes: u32,
    /// Cycles from issue to data for a load whose every line hits.
    pub hit_latency: u32,
}

/// Every parameter of the simulated SM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Machine {
    /// Threads per warp (1..=64).
    pub warp_size: u32,
    /// Most warps resident on the SM at once; thread blocks are dispatched whole, in block
    /// order, while their warps fit (later blocks wait for earlier ones to finish).
    pub warps_per_sm: u32,
    pub scheduler: Scheduler,
    /// Most warp-instructions issued per cycle (each warp issues at most one per cycle).
    pub issue_width: u32,
    /// Latency (issue to result) and per-warp initiation interval of each timing class.
    pub latency: LatencyTable,
    /// The unit each timing class executes on.
    pub unit_of: BTreeMap<TimingClass, Unit>,
    /// CUDA cores per SM.
    pub cores: u32,
    /// Load/store units per SM.
    pub ls_units: u32,
    /// Special-function units per SM.
    pub sfu_units: u32,
    /// Extra cycles per additional 128-byte transaction of one warp-instruction (the memory
    /// pipeline serialises a warp's transactions, Huangfu Alg. 5's motivation).
    pub transaction_cycles: u32,
    /// L1 data cache for global loads; `None`: every load takes the class latency.
    pub l1: Option<L1Config>,
    /// Wavefront splitting (GCN3 only; PWS §3–4, see [`crate::splitting`]).
    pub splitting: Splitting,
    /// SASS: the order a diverged warp's paths issue in (stack order, or independent
    /// thread scheduling on sm_70+; see [`crate::thread_scheduling`]).
    pub thread_scheduling: ThreadScheduling,
    /// SASS: issue by the control bits ptxas wrote (`cost=control`, `cfg::control`): a warp's
    /// next instruction no earlier than the stall count after this one, an instruction only
    /// once the scoreboard barriers its wait mask names are clear, a barrier cleared when
    /// the instruction that set it completes; no register scoreboard. Off: the register
    /// scoreboard with the class latencies.
    pub control_bits: bool,
}

impl Machine {
    /// `(lanes σ, cycles per warp-instruction)` of a unit kind (Berezovskyi et al. §3).
    pub fn lanes_and_cycles(&self, unit: Unit) -> (u32, u32) {
        let units = match unit {
            Unit::Core => self.cores,
            Unit::LoadStore => self.ls_units,
            Unit::Sfu => self.sfu_units,
        }
        .max(1);
        let s = self.warp_size.max(1);
        let g = gcd(s, units);
        (units / g, s / g)
    }

    pub fn unit(&self, class: TimingClass) -> Unit {
        self.unit_of.get(&class).copied().unwrap_or(Unit::Core)
    }

    /// Checks that every parameter is in range; the message names the parameter.
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=64).contains(&self.warp_size) {
            return Err(format!(
                "warp_size is {}: it must be between 1 and 64",
                self.warp_size
            ));
        }
        for (name, v) in [
            ("warps_per_sm", self.warps_per_sm),
            ("issue_width", self.issue_width),
            ("cores", self.cores),
            ("ls_units", self.ls_units),
            ("sfu_units", self.sfu_units),
        ] {
            if v == 0 {
                return Err(format!("{name} is 0: it must be at least 1"));
            }
        }
        if self.warps_per_sm > 4096 {
            return Err(format!(
                "warps_per_sm is {}: at most 4096 resident warps are simulated",
                self.warps_per_sm
            ));
        }
        if let Some(l1) = &self.l1 {
            if l1.sets == 0 || l1.ways == 0 || l1.line_bytes == 0 {
                return Err("l1 sets, ways and line_bytes must be at least 1".into());
            }
            if !l1.line_bytes.is_power_of_two() || !l1.sets.is_power_of_two() {
                return Err("l1 sets and line_bytes must be powers of two".into());
            }
        }
        Ok(())
    }
}

fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        let r = a % b;
        a = b;
        b = r;
    }
    a
}

/// A named preset with where its numbers come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preset {
    pub name: &'static str,
    pub source: &'static str,
    pub machine: Machine,
}

fn all_units(unit: Unit) -> BTreeMap<TimingClass, Unit> {
    TimingClass::ALL.iter().map(|&c| (c, unit)).collect()
}

/// The setting of the warp-CFG analysis with cost = unit (Jeanmougin et al. §4.1: "we
/// consider that each instruction takes one cycle"): every issued instruction — control
/// instructions and instructions whose guard is false included — takes exactly one cycle and
/// one instruction issues per cycle, so a lone warp's observed cycles equal its number of
/// issued warp-instructions (with several warps: their sum, since some warp is always ready;
/// each warp's own count is the length of its timeline).
pub fn unit_cost() -> Machine {
    Machine {
        warp_size: 32,
        warps_per_sm: 64,
        scheduler: Scheduler::LooseRoundRobin,
        issue_width: 1,
        latency: LatencyTable::unit(),
        unit_of: all_units(Unit::Core),
        cores: 32,
        ls_units: 32,
        sfu_units: 32,
        transaction_cycles: 0,
        l1: None,
        splitting: Splitting::None,
        thread_scheduling: ThreadScheduling::StackOrder,
        control_bits: false,
    }
}

/// Memory classes (global, shared, local, constant, texture) on the load/store units,
/// everything else on the cores: the split of every preset but `unit-cost`.
fn memory_on_load_store() -> BTreeMap<TimingClass, Unit> {
    let mut unit_of = all_units(Unit::Core);
    for c in [
        TimingClass::Global,
        TimingClass::Shared,
        TimingClass::Local,
        TimingClass::Constant,
        TimingClass::Texture,
    ] {
        unit_of.insert(c, Unit::LoadStore);
    }
    unit_of
}

/// The single-cycle, work-conserving SM of Berezovskyi et al. §2–3: every instruction is
/// `L` (memory: load/store units) or `C` (everything else, control included: CUDA cores), a
/// (sub-)warp instruction takes one cycle, σ comes from the unit counts and the warp size
/// (Fermi cc 2.0: 16 LSUs, 32 cores, warps of 32, so an `L` occupies the LSUs 2 cycles).
/// Any number of warps may issue in a cycle, limited only by the σ lanes, and the loose
/// round-robin search never leaves a lane idle while a warp could use it (work-conserving).
///
/// It is [`unit_cost`]'s SM (one-cycle instructions, 32 cores and SFUs, no memory
/// transactions, no L1) with 48 resident warps, memory on 16 load/store units, and any number
/// of issues per cycle.
pub fn makespan() -> Machine {
    Machine {
        warps_per_sm: 48,
        issue_width: 1024,
        unit_of: memory_on_load_store(),
        ls_units: 16,
        ..unit_cost()
    }
}

/// A Fermi/Pascal-ish SM in the manner of GPGPU-Sim. Taken from:
/// - 48 resident warps (`-gpgpu_shader_core_pipeline 1536:32`), L1 data cache of 32 sets,
///   128-byte lines, 4 ways, LRU (`-gpgpu_cache:dl1 32:128:4,L:...`): GPGPU-Sim 3.2.2's
///   GTX480 (Fermi) configuration as printed in its option dump;
/// - 2 warp schedulers issuing one instruction each (`-gpgpu_num_sched_per_core 2`) and
///   greedy-then-oldest scheduling (`-gpgpu_scheduler gto`): GPGPU-Sim's Maxwell-like
///   configurations;
/// - 32 CUDA cores, 16 load/store units and 4 SFUs per SM: NVIDIA's Fermi (GF100) SM;
/// - latencies and initiation intervals: [`LatencyTable::pascal_gp102`] (GPGPU-Sim's
///   TITAN X configuration, see its doc), L1 hit latency 82 (`-gpgpu_l1_latency`);
/// - 4 cycles per extra memory transaction of a warp-instruction: our assumption (one
///   32-byte sector per cycle of a 128-byte line), not a measured figure.
pub fn gpgpusim_like() -> Machine {
    let mut unit_of = memory_on_load_store();
    unit_of.insert(TimingClass::Sfu, Unit::Sfu);
    Machine {
        warp_size: 32,
        warps_per_sm: 48,
        scheduler: Scheduler::GreedyThenOldest,
        issue_width: 2,
        latency: LatencyTable::pascal_gp102(),
        unit_of,
        cores: 32,
        ls_units: 16,
        sfu_units: 4,
        transaction_cycles: 4,
        l1: Some(L1Config {
            sets: 32,
            ways: 4,
            line_bytes: 128,
            hit_latency: 82,
        }),
        splitting: Splitting::None,
        thread_scheduling: ThreadScheduling::StackOrder,
        control_bits: false,
    }
}

/// One SIMD of a GCN3 compute unit as gem5 models it (the GPU of the PWS paper's
/// evaluation), for the GCN engine (`crate::gcn`). Taken from gem5's defaults
/// (`src/gpu-compute/GPU.py`, `configs/example/apu_se.py`), as the `pws` crate's
/// `LatencyTable::gem5_gcn3` reads them:
/// - wavefronts of 64 work-items on a 16-lane SIMD: a vector instruction occupies the SIMD
///   `64 / 16 = 4` cycles (σ = 1 lane of 4 cycles); 10 wavefront slots per SIMD
///   (`--wfs-per-simd 10`). The sigma model cannot express a CU's four 16-lane SIMDs as one
///   pool (gcd(64, 64) = 64), so the simulated "SM" is one SIMD with its 10 slots;
/// - latencies chosen so that issue occupancy plus latency equals the `pws` table
///   (`k − 1 + latency`): vector ALU 4 − 1 + 5 = 8 (`issue_period` 4 + `spbypass_pipe_length`
///   4), vector memory 4 − 1 + 102 = 105 (`mem_req_latency` 50 + `mem_resp_latency` 50 + 1 +
///   4), LDS 4 − 1 + 65 = 68 (4 + 1 + 63 worst bank conflict), scalar memory (constant
///   class) 1 − 1 + 101 = 101, scalar ALU and branches (control class) 1 − 1 + 2 = 2; scalar
///   instructions do not occupy the SIMD (they run on the scalar unit, one cycle to issue);
/// - one extra cycle per additional transaction is not modelled (`transaction_cycles` 0:
///   the table's 105 is an L1-hit latency and no cache is simulated);
/// - oldest-first selection (gem5 `ComputeUnit.execPolicy = "OLDEST-FIRST"`), here
///   greedy-then-oldest; one instruction issued per cycle.
pub fn gcn3() -> Machine {
    let unit_of = memory_on_load_store();
    let latency: BTreeMap<TimingClass, u32> = [
        (TimingClass::Alu, 5),
        (TimingClass::DoublePrecision, 5),
        (TimingClass::Sfu, 5),
        (TimingClass::Shared, 65),
        (TimingClass::Global, 102),
        (TimingClass::Local, 102),
        (TimingClass::Constant, 101),
        (TimingClass::Texture, 102),
        (TimingClass::Control, 2),
    ]
    .into_iter()
    .collect();
    Machine {
        warp_size: 64,
        warps_per_sm: 10,
        scheduler: Scheduler::GreedyThenOldest,
        issue_width: 1,
        latency: LatencyTable {
            latency,
            interval: TimingClass::ALL.iter().map(|&c| (c, 1)).collect(),
        },
        unit_of,
        cores: 16,
        ls_units: 16,
        sfu_units: 16,
        transaction_cycles: 0,
        l1: None,
        splitting: Splitting::None,
        thread_scheduling: ThreadScheduling::StackOrder,
        control_bits: false,
    }
}

/// Every preset: `unit-cost`, `makespan`, `gpgpusim-like`, `gcn3`.
pub fn presets() -> Vec<Preset> {
    vec![
        Preset {
            name: "unit-cost",
            source: "Jeanmougin et al. §4.1 (each instruction takes one cycle): one warp, every issued instruction 1 cycle; observed cycles = issued warp-instructions",
            machine: unit_cost(),
        },
        Preset {
            name: "makespan",
            source: "Berezovskyi et al. §2-3: work-conserving SM, L/C units, one cycle per sub-warp instruction, sigma from 16 LSUs / 32 cores / warps of 32 (Fermi cc 2.0)",
            machine: makespan(),
        },
        Preset {
            name: "gpgpusim-like",
            source: "GPGPU-Sim GTX480 (48 warps, dl1 32:128:4 LRU), gto with 2 schedulers, Fermi GF100 SM (32 cores, 16 LSUs, 4 SFUs), latencies of GPGPU-Sim's TITAN X config (cfg::LatencyTable::pascal_gp102)",
            machine: gpgpusim_like(),
        },
        Preset {
            name: "gcn3",
            source: "gem5 GCN3 defaults (src/gpu-compute/GPU.py, configs/example/apu_se.py) as in the pws crate: one 16-lane SIMD, wavefronts of 64 (4 cycles per vector instruction), 10 wavefront slots, latencies matching pws::LatencyTable::gem5_gcn3",
            machine: gcn3(),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sigma_of_fermi_units() {
        // Berezovskyi et al. §3: 16 LSUs and warps of 32 → an L occupies the unit 2 cycles,
        // one warp at a time; 32 cores → a C takes 1 cycle; 48 cores (cc 2.1) → 3 lanes of
        // 2 cycles (gcd(32, 48) = 16).
        let m = makespan();
        assert_eq!(m.lanes_and_cycles(Unit::LoadStore), (1, 2));
        assert_eq!(m.lanes_and_cycles(Unit::Core), (1, 1));
        let m = Machine { cores: 48, ..m };
        assert_eq!(m.lanes_and_cycles(Unit::Core), (3, 2));
    }

    #[test]
    fn presets_validate() {
        for p in presets() {
            assert_eq!(p.machine.validate(), Ok(()), "{}", p.name);
        }
        let bad = Machine {
            warp_size: 65,
            ..unit_cost()
        };
        assert!(bad.validate().is_err_and(|m| m.contains("warp_size")));
    }
}
