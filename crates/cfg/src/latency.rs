//! Block costs under an in-order issue model with per-class latencies.
//!
//! Jeanmougin et al. evaluate with every instruction costing one cycle (§4.1: "we consider
//! that each instruction takes one cycle"), which is what [`unit_cycles`] gives. A user who
//! wants numbers closer to a real SM needs the latency of what an instruction waits for.
//! This module models one warp in isolation on an in-order pipeline:
//!
//! - the warp issues at most one instruction per cycle, in program order;
//! - an instruction issues only when every register it reads (guard predicate included) or
//!   writes has been written back by earlier instructions of the block (RAW and WAW hazards,
//!   a scoreboard);
//! - a class with an initiation interval `ii` accepts a new instruction of the warp at most
//!   every `ii` cycles (double precision and SFU are not fully pipelined per warp on Pascal);
//! - an instruction's result is written back `latency(class)` cycles after it issues.
//!
//! **Conservative across block boundaries.** The cost of a block is the time from its first
//! issue until *every* one of its instructions has completed (the pipeline is drained), and a
//! block starts with all registers ready. Why this is safe: in the real in-order execution a
//! block starts no later than the drained completion of its predecessor, and all values it
//! reads are ready by then; issue times are monotone in readiness times, so each block's real
//! issue schedule finishes no later than the drained one. Summing drained costs along any path
//! therefore bounds the path's time in this model, which is what IPET needs (a cost per node,
//! independent of the path).
//!
//! What it is not: no contention with other warps (the makespan and round-robin modes model
//! that), no cache behaviour (memory latencies are miss latencies), no dual issue (it could
//! only make the real execution faster).

use isa::{Instruction, Register, ResourceClass};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Timing classes: the isa resource classes, with double precision split off the ALU because
/// its latency and throughput differ by an order of magnitude on consumer Pascal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimingClass {
    Alu,
    DoublePrecision,
    Sfu,
    Shared,
    Global,
    Local,
    Constant,
    Texture,
    Control,
}

impl TimingClass {
    pub const ALL: [TimingClass; 9] = [
        TimingClass::Alu,
        TimingClass::DoublePrecision,
        TimingClass::Sfu,
        TimingClass::Shared,
        TimingClass::Global,
        TimingClass::Local,
        TimingClass::Constant,
        TimingClass::Texture,
        TimingClass::Control,
    ];

    /// The class of one instruction. Double-precision arithmetic is recognised by opcode
    /// (`DADD`, `DMUL`, `DFMA`, `DMNMX`, `DSET`, `DSETP`: the FP64 units' instructions).
    pub fn of(ins: &Instruction) -> TimingClass {
        match ins.class {
            ResourceClass::Alu => match ins.opcode.name.as_str() {
                "DADD" | "DMUL" | "DFMA" | "DMNMX" | "DSET" | "DSETP" => {
                    TimingClass::DoublePrecision
                }
                _ => TimingClass::Alu,
            },
            ResourceClass::Sfu => TimingClass::Sfu,
            ResourceClass::LoadStoreGlobal => TimingClass::Global,
            ResourceClass::LoadStoreShared => TimingClass::Shared,
            ResourceClass::LoadStoreLocal => TimingClass::Local,
            ResourceClass::Constant => TimingClass::Constant,
            ResourceClass::Texture => TimingClass::Texture,
            ResourceClass::Control => TimingClass::Control,
        }
    }

    /// Short name used in parameter names (`latency_<name>`).
    pub fn name(self) -> &'static str {
        match self {
            TimingClass::Alu => "alu",
            TimingClass::DoublePrecision => "dp",
            TimingClass::Sfu => "sfu",
            TimingClass::Shared => "shared",
            TimingClass::Global => "global",
            TimingClass::Local => "local",
            TimingClass::Constant => "constant",
            TimingClass::Texture => "texture",
            TimingClass::Control => "control",
        }
    }
}

/// Latency (issue to write-back) and initiation interval per class, in cycles. Both are at
/// least 1; a table of all ones makes [`block_cycles`] equal to [`unit_cycles`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LatencyTable {
    pub latency: BTreeMap<TimingClass, u32>,
    pub interval: BTreeMap<TimingClass, u32>,
}

impl LatencyTable {
    /// Every class: latency 1, interval 1 (the paper's unit model, §4.1).
    pub fn unit() -> Self {
        let ones = TimingClass::ALL.iter().map(|&c| (c, 1)).collect();
        LatencyTable {
            latency: ones,
            interval: TimingClass::ALL.iter().map(|&c| (c, 1)).collect(),
        }
    }

    /// Pascal (GP102, NVIDIA TITAN X, compute capability 6.1). Sources:
    /// - ALU 6: NVIDIA, *Volta Tuning Guide* §1.4.3 ("the dependent instruction issue latency
    ///   for core FMA math operations [on Volta] is four clock cycles, compared to six cycles
    ///   on Pascal"). GPGPU-Sim's calibrated configuration below uses 4–5 for integer and FP32
    ///   add/mul/mad; the larger, vendor figure is taken.
    /// - FP64 latency 8, initiation interval 8; SFU latency 20, initiation interval 4; shared
    ///   memory 24; L1 82, L2/ROP 120, DRAM 100: GPGPU-Sim's tested configuration
    ///   `configs/tested-cfgs/SM6_TITANX/gpgpusim.config` ("This config models the Pascal
    ///   GP102 (NVIDIA TITAN X)": `-ptx_opcode_latency_dp`, `-ptx_opcode_initiation_dp`,
    ///   `-ptx_opcode_latency_sfu`, `-ptx_opcode_initiation_sfu`, `-gpgpu_smem_latency`,
    ///   `-gpgpu_l1_latency`, `-gpgpu_l2_rop_latency`, `-dram_latency`).
    /// - Global, local, constant and texture loads: a miss all the way to DRAM in that model,
    ///   82 + 120 + 100 = 302 cycles, without contention. (GP102 bypasses L1 for global loads
    ///   by default, `-gpgpu_gmem_skip_L1D 1`; no separate constant/texture figure is given,
    ///   so they are charged the same path — conservative.)
    /// - Control instructions write no register: latency 1, their issue slot.
    pub fn pascal_gp102() -> Self {
        let memory = 82 + 120 + 100;
        let latency = BTreeMap::from([
            (TimingClass::Alu, 6),
            (TimingClass::DoublePrecision, 8),
            (TimingClass::Sfu, 20),
            (TimingClass::Shared, 24),
            (TimingClass::Global, memory),
            (TimingClass::Local, memory),
            (TimingClass::Constant, memory),
            (TimingClass::Texture, memory),
            (TimingClass::Control, 1),
        ]);
        let mut interval: BTreeMap<TimingClass, u32> =
            TimingClass::ALL.iter().map(|&c| (c, 1)).collect();
        interval.insert(TimingClass::DoublePrecision, 8);
        interval.insert(TimingClass::Sfu, 4);
        LatencyTable { latency, interval }
    }

    pub fn latency_of(&self, c: TimingClass) -> u64 {
        u64::from(self.latency.get(&c).copied().unwrap_or(1).max(1))
    }

    pub fn interval_of(&self, c: TimingClass) -> u64 {
        u64::from(self.interval.get(&c).copied().unwrap_or(1).max(1))
    }
}

/// One instruction's place in a block's drained schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Issue {
    /// Cycle (from the block's start) at which it issues.
    pub issue: u64,
    /// Cycle at which its result is written back.
    pub complete: u64,
}

/// The in-order issue schedule of `block` (see the module doc): issue times and completion
/// times per instruction.
pub fn schedule(block: &[Instruction], table: &LatencyTable) -> Vec<Issue> {
    let mut ready: BTreeMap<&Register, u64> = BTreeMap::new();
    let mut class_free: BTreeMap<TimingClass, u64> = BTreeMap::new();
    let mut next_slot = 0u64;
    let mut out = Vec::with_capacity(block.len());
    for ins in block {
        let class = TimingClass::of(ins);
        let guard = ins.guard.as_ref().map(|g| &g.reg);
        let operands_ready = ins
            .reads
            .iter()
            .chain(&ins.writes)
            .chain(guard)
            .filter_map(|r| ready.get(r).copied())
            .max()
            .unwrap_or(0);
        let unit_ready = class_free.get(&class).copied().unwrap_or(0);
        let issue = next_slot.max(operands_ready).max(unit_ready);
        let complete = issue + table.latency_of(class);
        for w in &ins.writes {
            ready.insert(w, complete);
        }
        class_free.insert(class, issue + table.interval_of(class));
        next_slot = issue + 1;
        out.push(Issue { issue, complete });
    }
    out
}

/// Cycles of one execution of `block`, drained: the latest completion in its schedule
/// (0 for an empty block).
pub fn block_cycles(block: &[Instruction], table: &LatencyTable) -> u64 {
    schedule(block, table)
        .iter()
        .map(|i| i.complete)
        .max()
        .unwrap_or(0)
}

/// Cycles of one execution of `block` under the paper's unit model (§4.1).
pub fn unit_cycles(block: &[Instruction]) -> u64 {
    block.len() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Vec<Instruction> {
        let out = isa::sass::parse(text, None, &isa::Limits::default());
        assert!(!out.has_errors(), "{:?}", out.diagnostics);
        out.kernel.map(|k| k.instructions).unwrap_or_default()
    }

    #[test]
    fn dependent_chain_waits_for_each_result() {
        // S2R at 0 completes 6; IADD reads R0: issues 6, completes 12; the next IADD reads
        // R1: issues 12, completes 18; EXIT issues 13 (next slot), completes 14. Drained: 18.
        let b = parse("S2R R0, SR_TID.X;\nIADD R1, R0, 0x1;\nIADD R2, R1, 0x1;\nEXIT;\n");
        let s = schedule(&b, &LatencyTable::pascal_gp102());
        let issues: Vec<u64> = s.iter().map(|i| i.issue).collect();
        assert_eq!(issues, vec![0, 6, 12, 13]);
        assert_eq!(block_cycles(&b, &LatencyTable::pascal_gp102()), 18);
    }

    #[test]
    fn independent_instructions_issue_back_to_back() {
        // Four independent ALU ops issue at 0..3; the last completes at 3 + 6 = 9.
        let b = parse("MOV R0, 0x1;\nMOV R1, 0x2;\nMOV R2, 0x3;\nMOV R3, 0x4;\n");
        assert_eq!(block_cycles(&b, &LatencyTable::pascal_gp102()), 9);
    }

    #[test]
    fn double_precision_initiation_interval() {
        // Two independent DADDs: the FP64 unit takes a new one every 8 cycles, so the second
        // issues at 8 and completes at 16.
        let b = parse("DADD R0, R2, R4;\nDADD R6, R8, R10;\n");
        let s = schedule(&b, &LatencyTable::pascal_gp102());
        assert_eq!((s[1].issue, s[1].complete), (8, 16));
    }

    #[test]
    fn guard_predicate_is_a_dependency() {
        // ISETP writes P0 (completes 6); the guarded MOV reads P0 through its guard.
        let b = parse("ISETP.NE.AND P0, PT, R0, RZ, PT;\n@P0 MOV R1, 0x1;\n");
        let s = schedule(&b, &LatencyTable::pascal_gp102());
        assert_eq!(s[1].issue, 6);
    }

    #[test]
    fn global_load_latency_is_the_dram_path() {
        // LDG issues 0, completes 302; the dependent FADD issues at 302, completes 308.
        let b = parse("LDG.E R0, [R2];\nFADD R1, R0, R0;\n");
        assert_eq!(block_cycles(&b, &LatencyTable::pascal_gp102()), 308);
    }

    #[test]
    fn unit_table_gives_the_paper_unit_cost() {
        let b = parse(
            "S2R R0, SR_TID.X;\nIADD R1, R0, 0x1;\nLDG.E R3, [R2];\nDADD R4, R6, R8;\nMUFU.RCP R9, R3;\nEXIT;\n",
        );
        assert_eq!(block_cycles(&b, &LatencyTable::unit()), unit_cycles(&b));
    }
}
