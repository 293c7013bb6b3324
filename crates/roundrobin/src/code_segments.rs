//! Code segments and their issue and execution latencies (Huangfu §5.3.1–5.3.2,
//! Eq. 5.4–5.7).

use crate::config::{Segmentation, TimingParams};
use crate::control_flow::ControlFlow;
use isa::ptx::{Function, Instruction, StateSpace};
use std::collections::BTreeSet;

/// The pipeline an instruction occupies, which decides its latency equations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum InstClass {
    /// SP pipeline: integer and floating-point arithmetic, logic, moves, comparisons,
    /// conversions, parameter and constant loads, branches.
    Arithmetic,
    /// SFU pipeline: transcendentals (`sqrt`, `rcp`, `rsqrt`, `sin`, `cos`, `lg2`, `ex2`).
    Sfu,
    /// Global (and local, texture) memory: Eq. 5.5–5.6's memory case.
    GlobalMemory,
    /// Shared memory: on-chip, modelled as one coalesced access with no competing SM.
    SharedMemory,
    /// `bar.sync`: an arithmetic-timed instruction that also synchronises the block.
    Barrier,
}

/// The class of `ins`.
pub fn class_of(ins: &Instruction) -> InstClass {
    if matches!(ins.opcode.as_str(), "bar" | "barrier") {
        return InstClass::Barrier;
    }
    if let Some(space) = ins.state_space() {
        return match space {
            StateSpace::Shared => InstClass::SharedMemory,
            StateSpace::Param | StateSpace::Const => InstClass::Arithmetic,
            _ => InstClass::GlobalMemory,
        };
    }
    match ins.opcode.as_str() {
        "sqrt" | "rcp" | "rsqrt" | "sin" | "cos" | "lg2" | "ex2" | "tanh" => InstClass::Sfu,
        _ => InstClass::Arithmetic,
    }
}

/// The estimates Eq. 5.4–5.6 are evaluated with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Estimates {
    /// N: active warps (Eq. 5.4).
    pub active_warps: u32,
    /// N_coal (Eq. 5.5–5.6).
    pub n_coal: u32,
    /// N_CompetingSM (Eq. 5.5–5.6).
    pub competing_sms: u32,
}

/// LI_inst and LE_inst of one instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstLatency {
    pub li_inst: u64,
    pub le_inst: u64,
}

/// Eq. 5.4–5.6 for an instruction of class `class`. `memory_latency` is L_base, or the
/// latency of the cache level the access is served from (§6.5).
///
/// - Eq. 5.4: LI_inst = 0 if N ≤ C_pipeline, else the stall LI_Stall of Eq. 5.5.
/// - Eq. 5.5: LI_Stall_Arithmetic = L_initial; LI_Stall_Memory = N_coal + N_coal × N_CompetingSM.
/// - Eq. 5.6: LE_inst_Arithmetic = Length_pipeline + L_initiation + L_execution;
///   LE_inst_Memory = L_base + Length_pipeline × (N_coal + N_coal × N_CompetingSM).
pub fn instruction_latency(
    class: InstClass,
    t: &TimingParams,
    e: &Estimates,
    memory_latency: u64,
) -> InstLatency {
    let n = e.active_warps;
    match class {
        InstClass::Arithmetic | InstClass::Barrier => InstLatency {
            li_inst: if n <= t.sp_pipeline_capacity {
                0
            } else {
                t.l_initial
            },
            le_inst: t
                .sp_pipeline_length
                .saturating_add(t.l_initiation)
                .saturating_add(t.l_execution),
        },
        InstClass::Sfu => InstLatency {
            li_inst: if n <= t.sfu_pipeline_capacity {
                0
            } else {
                t.l_initial
            },
            le_inst: t
                .sfu_pipeline_length
                .saturating_add(t.l_initiation)
                .saturating_add(t.l_execution),
        },
        InstClass::GlobalMemory => {
            let c = e.n_coal as u64;
            let stall = c.saturating_add(c.saturating_mul(e.competing_sms as u64));
            InstLatency {
                li_inst: if n <= t.mem_pipeline_capacity {
                    0
                } else {
                    stall
                },
                le_inst: memory_latency.saturating_add(t.mem_pipeline_length.saturating_mul(stall)),
            }
        }
        InstClass::SharedMemory => InstLatency {
            li_inst: if n <= t.mem_pipeline_capacity { 0 } else { 1 },
            le_inst: t.l_shared.saturating_add(t.mem_pipeline_length),
        },
    }
}

/// Eq. 5.7: LI = S_CodeSeg + Σ LI_inst, LE = max LE_inst over the segment's instructions.
pub fn segment_latency(insts: &[InstLatency]) -> (u64, u64) {
    let li = insts
        .iter()
        .fold(insts.len() as u64, |a, x| a.saturating_add(x.li_inst));
    let le = insts.iter().map(|x| x.le_inst).max().unwrap_or(0);
    (li, le)
}

/// A static code segment: instructions `start..end` of one basic block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeSegment {
    pub id: usize,
    pub start: usize,
    pub end: usize,
    /// Source line of the first instruction.
    pub line: u32,
    /// Mnemonics of its instructions joined by " + " (`ld.global.f32 + sub.s32`).
    pub opcode: String,
    /// True for a `bar.sync` segment (always alone).
    pub barrier: bool,
}

/// Cuts `f` into code segments. Segments never cross basic-block boundaries; a barrier is
/// always a segment of its own. See [`Segmentation`] for the two rules.
#[allow(clippy::needless_range_loop)] // `i` indexes instructions and `seg_of` alike
pub fn cut(f: &Function, cf: &ControlFlow, rule: Segmentation) -> (Vec<CodeSegment>, Vec<usize>) {
    let mut segs: Vec<CodeSegment> = Vec::new();
    let mut seg_of = vec![0usize; f.instructions.len()];
    for bb in &cf.blocks {
        let mut written: BTreeSet<&str> = BTreeSet::new();
        let mut open = false;
        for i in bb.start..bb.end {
            let ins = &f.instructions[i];
            let barrier = class_of(ins) == InstClass::Barrier;
            let depends = ins
                .sources()
                .iter()
                .chain(ins.destinations().iter())
                .any(|r| written.contains(r));
            let prev_barrier = open && segs.last().is_some_and(|s| s.barrier);
            let new =
                !open || rule == Segmentation::PerInstruction || depends || barrier || prev_barrier;
            if new {
                written.clear();
                segs.push(CodeSegment {
                    id: segs.len(),
                    start: i,
                    end: i + 1,
                    line: ins.span.line,
                    opcode: ins.mnemonic(),
                    barrier,
                });
                open = true;
            } else if let Some(s) = segs.last_mut() {
                s.end = i + 1;
                s.opcode.push_str(" + ");
                s.opcode.push_str(&ins.mnemonic());
            }
            written.extend(ins.destinations());
            seg_of[i] = segs.len() - 1;
        }
    }
    (segs, seg_of)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control_flow;
    use crate::presets::fermi_gpgpusim;
    use isa::{ptx, Limits};

    /// The code of Fig. 24.
    const FIG24: &str = ".entry k()\n{\nadd.s32 %r3, %r2, %r1;\nld.global.u64 %r4, [%r3+0];\n\
                         sub.s32 %r7, %r6, %r5;\nmul.wide.s32 %r8, %r4, %r7;\nret;\n}\n";

    fn fig24_estimates() -> (TimingParams, Estimates) {
        let mut t = fermi_gpgpusim().config.timing;
        // "the SP pipeline can buffer 8 instructions ... initiation and execution latencies
        // of integer addition ... 1 and 4 cycles ... 16 active warps"; memory: N_coal 8,
        // N_CompetingSM 6, Length_pipeline 5, L_base 200, and a stall (16 > capacity).
        t.sp_pipeline_capacity = 8;
        t.sp_pipeline_length = 8;
        t.l_initial = 1;
        t.l_initiation = 1;
        t.l_execution = 4;
        t.mem_pipeline_capacity = 8;
        t.mem_pipeline_length = 5;
        t.l_base = 200;
        (
            t,
            Estimates {
                active_warps: 16,
                n_coal: 8,
                competing_sms: 6,
            },
        )
    }

    /// Fig. 24: add has LI 2 (S_CodeSeg 1 + LI_Stall 1) and LE 13 (8 + 1 + 4); ld.global has
    /// LI_inst 56 (8 + 8 × 6) and LE_inst 480 (200 + 5 × 56).
    #[test]
    fn fig24_code_segment_latencies() {
        let (t, e) = fig24_estimates();
        let add = instruction_latency(InstClass::Arithmetic, &t, &e, t.l_base);
        assert_eq!(
            add,
            InstLatency {
                li_inst: 1,
                le_inst: 13
            }
        );
        assert_eq!(segment_latency(&[add]), (2, 13));
        let ld = instruction_latency(InstClass::GlobalMemory, &t, &e, t.l_base);
        assert_eq!(
            ld,
            InstLatency {
                li_inst: 56,
                le_inst: 480
            }
        );
        assert_eq!(segment_latency(&[ld]), (57, 480));
        // With at most C_pipeline active warps there is no stall (Eq. 5.4).
        let few = Estimates {
            active_warps: 8,
            ..e
        };
        assert_eq!(
            instruction_latency(InstClass::GlobalMemory, &t, &few, 200).li_inst,
            0
        );
    }

    /// Fig. 24's segments under the dependency rule: `ld.global` and the independent `sub`
    /// share a segment whose LI is 59 (2 + 1 + 56) and LE 480, as the thesis computes;
    /// `mul.wide` depends on both and starts the next one.
    #[test]
    fn fig24_dependency_segments() {
        let out = ptx::parse(FIG24, &Limits::default());
        let f = out.module.function(None).expect("k");
        let cf = control_flow::build(f).expect("cfg");
        let (segs, seg_of) = cut(f, &cf, Segmentation::Dependency);
        assert_eq!(seg_of, vec![0, 1, 1, 2, 2]);
        assert_eq!(segs[1].opcode, "ld.global.u64 + sub.s32");
        let (t, e) = fig24_estimates();
        let lat: Vec<InstLatency> = (segs[1].start..segs[1].end)
            .map(|i| instruction_latency(class_of(&f.instructions[i]), &t, &e, t.l_base))
            .collect();
        assert_eq!(segment_latency(&lat), (59, 480));
        let (per, _) = cut(f, &cf, Segmentation::PerInstruction);
        assert_eq!(per.len(), 5);
    }
}
