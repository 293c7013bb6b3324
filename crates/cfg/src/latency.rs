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
use std::collections::BTreeMap;

/// Timing classes: the isa resource classes, with double precision split off the ALU because
/// its latency and throughput differ by an order of magnitude on consumer Pascal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
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
        TimingClass::of_opcode(ins.class, &ins.opcode.name)
    }

    /// The class of an instruction of resource class `class` whose base mnemonic is
    /// `opcode` (what [`TimingClass::of`] reads of an instruction; the page's opcode
    /// documentation asks it for a base opcode alone).
    pub fn of_opcode(class: ResourceClass, opcode: &str) -> TimingClass {
        match class {
            ResourceClass::Alu => match opcode {
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
#[derive(Debug, Clone, PartialEq, Eq)]
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

    /// Volta (GV100, Quadro V100, compute capability 7.0). Every figure is read from
    /// Accel-Sim's GPGPU-Sim tested configuration `configs/tested-cfgs/SM7_QV100/gpgpusim.config`
    /// ("This config models the Volta Quadro V100"), repository accel-sim/gpgpu-sim_distribution,
    /// branch `dev` at 667834cfe5214523edd7769aeab77f91b7137686 (file last changed in
    /// 301be9e59c6c934f4e194cf6c95dd0c60b3894cc; the same figures are in
    /// accel-sim/accel-sim-framework 7697f3fb9abc3a88005d993caaa088a1c025511a,
    /// `gpu-simulator/gpgpu-sim/configs/tested-cfgs/SM7_QV100/gpgpusim.config`). Derived as in
    /// [`LatencyTable::pascal_gp102`]:
    /// - ALU 5: `-ptx_opcode_latency_int 4,13,4,5,145,21` and `-ptx_opcode_latency_fp
    ///   4,13,4,5,39` (order ADD,MAX,MUL,MAD,DIV): the largest of add/mul/mad, 5, which is above
    ///   the vendor figure (NVIDIA *Volta Tuning Guide* §1.4.3: dependent FMA issue latency
    ///   four cycles), so the larger is taken as for Pascal. MAX (13) and DIV (a PTX macro, not
    ///   one SASS instruction) are not used, as for Pascal.
    /// - FP64 latency 8, initiation interval 4: `-ptx_opcode_latency_dp 8,19,8,8,330`,
    ///   `-ptx_opcode_initiation_dp 4,4,4,4,130` (add/mul/mad).
    /// - SFU latency 100, initiation interval 8: `-ptx_opcode_latency_sfu 100`,
    ///   `-ptx_opcode_initiation_sfu 8`.
    /// - Shared memory 20: `-gpgpu_smem_latency 20`.
    /// - Global, local, constant, texture: L1 20 + L2/ROP 160 + DRAM 100 = 280
    ///   (`-gpgpu_l1_latency 20`, `-gpgpu_l2_rop_latency 160`, `-dram_latency 100`), a miss
    ///   all the way to DRAM without contention, as for Pascal.
    /// - Control 1: no register written, its issue slot.
    pub fn volta_qv100() -> Self {
        LatencyTable::from_figures(Figures {
            alu: 5,
            dp: 8,
            dp_interval: 4,
            sfu: 100,
            sfu_interval: 8,
            shared: 20,
            memory: 20 + 160 + 100,
        })
    }

    /// Turing (GeForce RTX 2060, compute capability 7.5). Every figure is read from Accel-Sim's
    /// GPGPU-Sim tested configuration `configs/tested-cfgs/SM75_RTX2060/gpgpusim.config`,
    /// repository accel-sim/gpgpu-sim_distribution, branch `dev` at
    /// 667834cfe5214523edd7769aeab77f91b7137686 (file last changed in
    /// 301be9e59c6c934f4e194cf6c95dd0c60b3894cc; the same figures are in
    /// accel-sim/accel-sim-framework 7697f3fb9abc3a88005d993caaa088a1c025511a). Derived as in
    /// [`LatencyTable::pascal_gp102`]:
    /// - ALU 4: `-ptx_opcode_latency_int 4,4,4,4,21`, `-ptx_opcode_latency_fp 4,4,4,4,39`
    ///   (ADD,MAX,MUL,MAD,DIV; DIV not used).
    /// - FP64 latency 64, initiation interval 64: `-ptx_opcode_latency_dp 64,64,64,64,330`,
    ///   `-ptx_opcode_initiation_dp 64,64,64,64,130`.
    /// - SFU latency 21, initiation interval 8: `-ptx_opcode_latency_sfu 21`,
    ///   `-ptx_opcode_initiation_sfu 8`.
    /// - Shared memory 30: `-gpgpu_smem_latency 30`.
    /// - Global, local, constant, texture: L1 32 + L2/ROP 194 + DRAM 96 = 322
    ///   (`-gpgpu_l1_latency 32`, `-gpgpu_l2_rop_latency 194`, `-dram_latency 96`).
    /// - Control 1: no register written, its issue slot.
    pub fn turing_rtx2060() -> Self {
        LatencyTable::from_figures(RTX2060)
    }

    /// Ampere (GeForce RTX 3070, compute capability 8.6). Every figure is read from Accel-Sim's
    /// GPGPU-Sim tested configuration `configs/tested-cfgs/SM86_RTX3070/gpgpusim.config`,
    /// repository accel-sim/gpgpu-sim_distribution, branch `dev` at
    /// 667834cfe5214523edd7769aeab77f91b7137686 (file last changed in
    /// 301be9e59c6c934f4e194cf6c95dd0c60b3894cc). Derived as in [`LatencyTable::pascal_gp102`]:
    /// - ALU 4: `-ptx_opcode_latency_int 4,4,4,4,21`, `-ptx_opcode_latency_fp 4,4,4,4,39`
    ///   (ADD,MAX,MUL,MAD,DIV; DIV not used).
    /// - FP64 latency 64, initiation interval 64: `-ptx_opcode_latency_dp 64,64,64,64,330`,
    ///   `-ptx_opcode_initiation_dp 64,64,64,64,130`.
    /// - SFU latency 21, initiation interval 8: `-ptx_opcode_latency_sfu 21`,
    ///   `-ptx_opcode_initiation_sfu 8`.
    /// - Shared memory 29: `-gpgpu_smem_latency 29`.
    /// - Global, local, constant, texture: L1 39 + L2/ROP 187 + DRAM 254 = 480
    ///   (`-gpgpu_l1_latency 39`, `-gpgpu_l2_rop_latency 187`, `-dram_latency 254`).
    /// - Control 1: no register written, its issue slot.
    pub fn ampere_rtx3070() -> Self {
        // The ALU, FP64 and SFU lines of the two files are the same, so they are written once.
        LatencyTable::from_figures(Figures {
            shared: 29,
            memory: 39 + 187 + 254,
            ..RTX2060
        })
    }

    /// Hopper (GH100, H100 SXM5, compute capability 9.0). Every figure is read from Accel-Sim's
    /// GPGPU-Sim configuration `configs/tested-cfgs/SM90_H100/gpgpusim.config` ("This config
    /// models the H100 SMX5"), repository accel-sim/gpgpu-sim_distribution, branch `h100-test`
    /// at fa235ebcf932f82391bf8ccc9a0f69295fab6825 (not yet on `dev`). **Caveat:** that file
    /// says "base config were taken from v100 and modified", the modified items being SM and
    /// memory-channel counts and L1D/L2 sizes; every latency below is therefore the V100
    /// figure (identical to [`LatencyTable::volta_qv100`]), not a Hopper calibration. Derived
    /// as in [`LatencyTable::pascal_gp102`]:
    /// - ALU 5: `-ptx_opcode_latency_int 4,13,4,5,145,21`, `-ptx_opcode_latency_fp
    ///   4,13,4,5,39`, the largest of add/mul/mad.
    /// - FP64 latency 8, initiation interval 4: `-ptx_opcode_latency_dp 8,19,8,8,330`,
    ///   `-ptx_opcode_initiation_dp 4,4,4,4,130`.
    /// - SFU latency 100, initiation interval 8: `-ptx_opcode_latency_sfu 100`,
    ///   `-ptx_opcode_initiation_sfu 8`.
    /// - Shared memory 20: `-gpgpu_smem_latency 20`.
    /// - Global, local, constant, texture: L1 20 + L2/ROP 160 + DRAM 100 = 280
    ///   (`-gpgpu_l1_latency 20`, `-gpgpu_l2_rop_latency 160`, `-dram_latency 100`).
    /// - Control 1: no register written, its issue slot.
    pub fn hopper_h100() -> Self {
        // The figures above are the V100's, so the table is the V100's (written once).
        LatencyTable::volta_qv100()
    }

    /// A table from one configuration's figures: memory classes share the miss path, control
    /// costs its issue slot, only FP64 and SFU have an initiation interval above 1.
    fn from_figures(f: Figures) -> Self {
        let latency = BTreeMap::from([
            (TimingClass::Alu, f.alu),
            (TimingClass::DoublePrecision, f.dp),
            (TimingClass::Sfu, f.sfu),
            (TimingClass::Shared, f.shared),
            (TimingClass::Global, f.memory),
            (TimingClass::Local, f.memory),
            (TimingClass::Constant, f.memory),
            (TimingClass::Texture, f.memory),
            (TimingClass::Control, 1),
        ]);
        let mut interval: BTreeMap<TimingClass, u32> =
            TimingClass::ALL.iter().map(|&c| (c, 1)).collect();
        interval.insert(TimingClass::DoublePrecision, f.dp_interval);
        interval.insert(TimingClass::Sfu, f.sfu_interval);
        LatencyTable { latency, interval }
    }

    pub fn latency_of(&self, c: TimingClass) -> u64 {
        u64::from(self.latency.get(&c).copied().unwrap_or(1).max(1))
    }

    pub fn interval_of(&self, c: TimingClass) -> u64 {
        u64::from(self.interval.get(&c).copied().unwrap_or(1).max(1))
    }
}

/// The figures a latency preset takes from one simulator configuration (see
/// [`LatencyTable::volta_qv100`] and its siblings).
struct Figures {
    alu: u32,
    dp: u32,
    dp_interval: u32,
    sfu: u32,
    sfu_interval: u32,
    shared: u32,
    /// L1 + L2 + DRAM: a miss all the way to memory, charged to every memory class.
    memory: u32,
}

/// The figures of Accel-Sim's `SM75_RTX2060` configuration ([`LatencyTable::turing_rtx2060`]).
const RTX2060: Figures = Figures {
    alu: 4,
    dp: 64,
    dp_interval: 64,
    sfu: 21,
    sfu_interval: 8,
    shared: 30,
    memory: 32 + 194 + 96,
};

/// One instruction's place in a block's drained schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

    /// `t`'s latencies in [`TimingClass::ALL`] order (alu, dp, sfu, shared, global, local,
    /// constant, texture, control) and its FP64 and SFU initiation intervals.
    fn figures(t: &LatencyTable) -> ([u64; 9], [u64; 2]) {
        (
            TimingClass::ALL.map(|c| t.latency_of(c)),
            [
                t.interval_of(TimingClass::DoublePrecision),
                t.interval_of(TimingClass::Sfu),
            ],
        )
    }

    /// The expected values below are copied by hand from the configuration files named in
    /// each constructor's doc; memory is L1 + L2/ROP + DRAM of that file.
    #[test]
    fn volta_qv100_is_the_sm7_qv100_config() {
        // int/fp MAD 5; dp 8 / ii 4; sfu 100 / ii 8; smem 20; 20 + 160 + 100.
        assert_eq!(
            figures(&LatencyTable::volta_qv100()),
            ([5, 8, 100, 20, 280, 280, 280, 280, 1], [4, 8])
        );
    }

    #[test]
    fn turing_rtx2060_is_the_sm75_rtx2060_config() {
        // int/fp 4; dp 64 / ii 64; sfu 21 / ii 8; smem 30; 32 + 194 + 96.
        assert_eq!(
            figures(&LatencyTable::turing_rtx2060()),
            ([4, 64, 21, 30, 322, 322, 322, 322, 1], [64, 8])
        );
    }

    #[test]
    fn ampere_rtx3070_is_the_sm86_rtx3070_config() {
        // int/fp 4; dp 64 / ii 64; sfu 21 / ii 8; smem 29; 39 + 187 + 254.
        assert_eq!(
            figures(&LatencyTable::ampere_rtx3070()),
            ([4, 64, 21, 29, 480, 480, 480, 480, 1], [64, 8])
        );
    }

    #[test]
    fn hopper_h100_is_the_sm90_h100_config() {
        // The h100-test config keeps the V100 latencies: int/fp MAD 5; dp 8 / ii 4;
        // sfu 100 / ii 8; smem 20; 20 + 160 + 100.
        assert_eq!(
            figures(&LatencyTable::hopper_h100()),
            ([5, 8, 100, 20, 280, 280, 280, 280, 1], [4, 8])
        );
    }

    #[test]
    fn unit_table_gives_the_paper_unit_cost() {
        let b = parse(
            "S2R R0, SR_TID.X;\nIADD R1, R0, 0x1;\nLDG.E R3, [R2];\nDADD R4, R6, R8;\nMUFU.RCP R9, R3;\nEXIT;\n",
        );
        assert_eq!(block_cycles(&b, &LatencyTable::unit()), unit_cycles(&b));
    }
}
