//! The GCN3 cycle loop: workgroup dispatch, wavefront scheduling, issue with a scoreboard,
//! `s_waitcnt` counters, execution-unit lanes, functional execution, exec-mask divergence
//! and wavefront splitting (issue #7 items 1 and 3).
//!
//! Divergence without an activation stack: a wavefront has one program counter and its
//! active lanes *are* `exec` (GCN3 ISA §3.3); every branch is scalar — `s_cbranch_execz`
//! and `execnz` test `exec` (under splitting: `exec ∧ SpM`, see [`crate::splitting`]).
//!
//! Timing, per cycle `t`, for a wavefront whose next instruction is `i`:
//! - `i` can issue when `t` ≥ the wavefront's next issue slot, every register `i` reads or
//!   writes is written back (scoreboard), an `s_waitcnt` finds its counters low enough
//!   (`vmcnt`: vector memory; `lgkmcnt`: scalar memory and LDS), and — for a *vector*
//!   instruction — a lane of its unit is free. A vector instruction of a 64-wide wavefront
//!   on a unit of `U` lanes occupies it `k = 64/U` cycles (σ from [`Machine::lanes_and_cycles`]);
//!   scalar instructions (SALU, SMEM, branches, `s_waitcnt`, `s_barrier`) run on the
//!   wavefront's scalar unit: one cycle, no vector lane;
//! - it completes at `t + k − 1 + latency` (`s_waitcnt`: `t + 1`); the next instruction of
//!   the wavefront may issue from `t + k`. Split-wavefronts created by a split run on their
//!   own SpSIMD (PWS §4.1), so they never wait for a vector lane.
//! - Class of each instruction (from [`isa::gcn::GcnUnit`]): VALU → `alu`, VALU f64 →
//!   `double_precision`, vector memory → `global`, LDS → `shared`, scalar memory →
//!   `constant`, everything scalar → `control`.

mod atomics;
mod scratch;
mod split_wavefronts;
mod vector_memory;

use super::abi::{dispatch_packet, GcnAbi, InitSgpr, DISPATCH_BASE, KERNARG_BASE};
use super::alu;
use super::decode::{self, AtomicSpace, Op};
use super::operand::{ScalarFile, VectorFile, EXEC_LO, M0, SCALAR_SLOTS, SCC, VCC_LO};
use crate::cycle_loop::{
    self, Access, Block, FrontEnd, IssuedAt, Nouns, Request, Shape, Sm, StepAt,
};
use crate::error::SimError;
use crate::lane_set;
use crate::sass::local_memory::LocalMemory;
use crate::simulation::{LaneMask, Simulation, StackView};
use crate::splitting::Splitting;
use crate::timing_facts::Timing;
use cfg::TimingClass;
use isa::gcn::{ExecCondition, ExecEffect, GcnFunction, GcnReg, GcnUnit, ScalarCondition};
use isa::Span;

/// AMD's nouns.
const AMD: Nouns = Nouns {
    block: "workgroup",
    blocks: "workgroups",
    threads: "work-items",
    warps: "wavefronts",
};

/// Static facts of one instruction.
struct Static {
    op: Result<Op, String>,
    /// Runs on the scalar unit (no vector lane, one issue cycle).
    scalar: bool,
    /// The scoreboard slots ([`Wave::ready`]) it reads or writes, each once (`exec` and
    /// `vcc` both halves): found once here, not per issue.
    waits_on: Vec<u32>,
    /// The scoreboard slots it writes, each once.
    writes: Vec<u32>,
    /// `s_waitcnt`: its `vmcnt` and `lgkmcnt` limits.
    counters: Option<(Option<u32>, Option<u32>)>,
    /// `s_or_b64 exec, exec, sX`: the slot of `sX` (a reconvergence point, DWS merges here).
    restore: Option<u32>,
    /// `s_and_saveexec_b64 sX, …`: the slot of `sX` (a DWS split point).
    narrow_save: Option<u32>,
    t: Timing,
}

pub(crate) fn class_of(u: GcnUnit) -> (TimingClass, bool) {
    match u {
        GcnUnit::Valu => (TimingClass::Alu, false),
        GcnUnit::ValuF64 => (TimingClass::DoublePrecision, false),
        GcnUnit::VectorMemory => (TimingClass::Global, false),
        GcnUnit::Lds => (TimingClass::Shared, false),
        GcnUnit::ScalarMemory => (TimingClass::Constant, true),
        GcnUnit::Salu | GcnUnit::Branch | GcnUnit::Waitcnt | GcnUnit::Barrier | GcnUnit::Other => {
            (TimingClass::Control, true)
        }
    }
}

/// One (split-)wavefront.
struct Wave {
    hw: usize,
    sf: ScalarFile,
    pc: usize,
    spm: u64,
    /// Scoreboard: the cycle each slot is written back, scalar-file slots first
    /// (`SCALAR_SLOTS` of them), then one per VGPR.
    ready: Vec<u64>,
    vm: Vec<u64>,
    lgkm: Vec<u64>,
    /// Waiting at a merge point since this cycle.
    merging: Option<u64>,
    /// Merged at this pc: do not treat it as a merge point again before issuing.
    merged_at: Option<usize>,
    /// Key of the split that created this SWF (its merge point).
    origin: u32,
    parent: Option<usize>,
    children: Vec<usize>,
    /// Splits this SWF passed and has not merged yet: `(key, split happened)`; the key is
    /// the saved-exec slot (DWS) or `u32::MAX` (PWS `split`).
    open: Vec<(u32, bool)>,
    /// Runs on a dedicated SpSIMD unit.
    spsimd: bool,
    /// Return addresses of the calls in progress (image indices), innermost last.
    ret: Vec<usize>,
}

/// One hardware wavefront: its vector registers (shared by its SWFs) and timeline.
struct Hw {
    block: usize,
    vf: VectorFile,
    live: u32,
    /// Its work-items' private segments (`scratch`).
    scratch: LocalMemory,
}

/// Runs `function`; see [`crate::gcn::run`]. `got` holds the GOT slots of a linked image
/// ([`super::code`]); empty otherwise.
pub(crate) fn run(
    function: &GcnFunction,
    got: &[u64],
    abi: &GcnAbi,
    req: &Request,
) -> Result<Simulation, SimError> {
    let (launch, machine, budget) = (req.launch, req.machine, req.budget);
    let init = req.memory;
    machine.validate().map_err(SimError::request)?;
    if function.instructions.is_empty() {
        return Err(SimError::at(
            function.span,
            format!("function `{}` has no instructions", function.name),
        ));
    }
    if launch.grid.contains(&0) || launch.block.contains(&0) {
        return Err(SimError::request(
            "grid and block dimensions must all be at least 1",
        ));
    }
    if launch.block.iter().any(|&d| d > 0xffff) {
        return Err(SimError::request(
            "a workgroup dimension exceeds 65535 (the dispatch packet holds 16 bits)",
        ));
    }
    if !req.launch.gpu.is_one() {
        return Err(SimError::request(
            "a GCN3 launch runs on one compute unit: several SMs (`sms`) and a blocks-per-SM \
             limit are simulated for SASS and PTX",
        ));
    }
    let shape = Shape::of(req, &AMD)?;
    // The descriptor's fixed LDS, then the launch's dynamic LDS after it (AMDGPU-Usage,
    // "Kernel Dispatch": the dynamic group segment follows the fixed one; HIP's
    // `sharedMemBytes`).
    let lds_bytes = abi.group_segment_size.saturating_add(launch.shared_bytes);
    let resident = shape.resident_blocks;
    if u64::from(lds_bytes).div_ceil(4).saturating_mul(resident) > budget.max_memory_words {
        return Err(SimError::budget(
            "max_memory_words",
            budget.max_memory_words,
            &format!("{resident} resident workgroups × {lds_bytes} bytes of LDS"),
        ));
    }
    for a in &init.arrays {
        let end = a.address.saturating_add(u64::from(a.words) * 4);
        if end > DISPATCH_BASE {
            return Err(SimError::request(format!(
                "array `{}` reaches {end:#x}: addresses from {DISPATCH_BASE:#x} hold the dispatch packet and kernel arguments",
                a.name
            )));
        }
    }
    if let Some(c) = machine.splitting.costs() {
        if c.s > 64 {
            return Err(SimError::request(format!(
                "splitting S = {}: at most 64 split contexts per wavefront",
                c.s
            )));
        }
    }
    let vgprs = function
        .instructions
        .iter()
        .flat_map(|ins| ins.reads.iter().chain(&ins.writes))
        .filter_map(|r| match r {
            GcnReg::Vgpr(n) if *n < 256 => Some(*n as usize + 1),
            _ => None,
        })
        .fold(1, usize::max);
    let statics: Vec<Static> = function
        .instructions
        .iter()
        .map(|ins| {
            let (class, scalar) = class_of(ins.unit);
            let op = decode::decode(ins);
            let counters = match &op {
                Ok(Op::Waitcnt { vm, lgkm }) => Some((*vm, *lgkm)),
                _ => None,
            };
            let restore = match (&op, ins.exec_effect) {
                (
                    Ok(Op::SBin {
                        f: decode::SFn::Or,
                        d,
                        a,
                        b,
                        wide: true,
                    }),
                    ExecEffect::Restore,
                ) if d.sreg() == Some(EXEC_LO) => {
                    if a.sreg() == Some(EXEC_LO) {
                        b.sreg()
                    } else {
                        a.sreg()
                    }
                }
                _ => None,
            };
            let narrow_save = match &op {
                Ok(Op::SaveExec {
                    f: decode::SFn::And,
                    d,
                    ..
                }) => d.sreg(),
                _ => None,
            };
            Static {
                waits_on: scoreboard_slots(ins.reads.iter().chain(&ins.writes), true),
                writes: scoreboard_slots(ins.writes.iter(), false),
                counters,
                op,
                scalar,
                restore,
                narrow_save,
                t: Timing::of(machine, class),
            }
        })
        .collect();
    let mut sm = Sm::new(req, shape, false)?;
    let mut fe = Gcn {
        f: function,
        got,
        abi,
        statics: &statics,
        packet: dispatch_packet(launch.grid, launch.block, lds_bytes),
        vgprs,
        lds_bytes,
        lane_mask: lane_set::full_mask(machine.warp_size as usize),
        trace: launch.trace,
        waves: Vec::new(),
        hws: Vec::new(),
        scratch_held: 0,
        stack_buf: Vec::new(),
        woken: Vec::new(),
        skip: machine.splitting == Splitting::None,
    };
    cycle_loop::run(&mut fe, &mut sm)?;
    Ok(sm.finish())
}

/// The GCN3 front end: wavefronts and their split-wavefronts.
struct Gcn<'a> {
    f: &'a GcnFunction,
    got: &'a [u64],
    abi: &'a GcnAbi,
    statics: &'a [Static],
    packet: [u32; 16],
    vgprs: usize,
    /// LDS bytes per workgroup.
    lds_bytes: u32,
    /// The lanes of a wavefront.
    lane_mask: u64,
    trace: bool,
    /// Indexed like [`Sm::warps`].
    waves: Vec<Wave>,
    hws: Vec<Hw>,
    /// Words of scratch the live wavefronts hold (budgeted by `max_memory_words`).
    scratch_held: u64,
    /// The stepper's stack entries before they are shared (reused).
    stack_buf: Vec<StackView>,
    /// No wavefront splitting: waves keep wake-up cycles (`WarpSched::wake`).
    skip: bool,
    /// Waves created or resumed by a split or merge during this cycle: they get a chance to
    /// issue in the same cycle (with `e_s = 0` or `e_m = 0` no cycle is lost).
    woken: Vec<usize>,
}

/// The scoreboard slots ([`Wave::ready`]) of `regs`, each once, in a first-seen order:
/// `waited` for the slots an instruction waits on (SGPRs below the named registers; `exec`
/// and `vcc` as both halves), else the slots it writes (any scalar-file slot, `exec` and
/// `vcc` both halves). VGPRs from 256 have none.
fn scoreboard_slots<'r>(regs: impl Iterator<Item = &'r GcnReg>, waited: bool) -> Vec<u32> {
    let sgprs = if waited {
        super::operand::SGPRS
    } else {
        SCALAR_SLOTS as u32
    };
    let mut slots = Vec::new();
    for r in regs {
        let named: &[u32] = match r {
            GcnReg::Sgpr(n) if *n < sgprs => &[*n],
            GcnReg::Vgpr(n) if *n < 256 => &[SCALAR_SLOTS as u32 + *n],
            GcnReg::Exec => &[EXEC_LO, EXEC_LO + 1],
            GcnReg::Vcc => &[VCC_LO, VCC_LO + 1],
            GcnReg::Scc => &[SCC],
            GcnReg::M0 => &[M0],
            _ => &[],
        };
        for &slot in named {
            if !slots.contains(&slot) {
                slots.push(slot);
            }
        }
    }
    slots
}

/// When at most `n` of the completion times in `out` are after the returned cycle.
fn counter_ready(out: &[u64], n: Option<u32>) -> u64 {
    let Some(n) = n else { return 0 };
    let n = n as usize;
    if out.len() <= n {
        return 0;
    }
    // The (n + 1)-th latest completion: counted, not sorted (the lists are short, and
    // this runs every time a wave waiting at `s_waitcnt` is considered).
    out.iter()
        .copied()
        .filter(|&t| out.iter().filter(|&&u| u > t).count() <= n)
        .min()
        .unwrap_or(0)
}

impl FrontEnd for Gcn<'_> {
    /// Splits and merges change other waves' state (see `Gcn::skip`).
    const CYCLE_AFTER_ISSUE: bool = true;

    fn dispatch_block(&mut self, sm: &mut Sm, b: u64, cycle: u64) {
        let ws = sm.machine.warp_size as usize;
        let wg = sm.launch.block_index(b);
        let block_index = sm.blocks.len();
        let mut members = Vec::new();
        for w in 0..sm.shape.warps_per_block {
            let (exec, ids) = sm.threads(w);
            let mut vf = VectorFile::new(self.vgprs.max(3), ws);
            let dims = self.abi.workitem_id.min(2) as usize + 1;
            for (lane, id) in ids.iter().enumerate() {
                for (d, &v) in id.iter().enumerate().take(dims) {
                    vf.set(d as u32, lane, v);
                }
            }
            let mut sf = ScalarFile::new();
            for (i, what) in self.abi.sgprs().iter().enumerate() {
                let v = match what {
                    InitSgpr::Zero => 0,
                    InitSgpr::DispatchPtr => {
                        if i % 2 == 0 {
                            DISPATCH_BASE as u32
                        } else {
                            (DISPATCH_BASE >> 32) as u32
                        }
                    }
                    InitSgpr::KernargPtr => {
                        if i % 2 == 0 {
                            KERNARG_BASE as u32
                        } else {
                            (KERNARG_BASE >> 32) as u32
                        }
                    }
                    InitSgpr::WorkgroupId(d) => wg[*d],
                };
                sf.set(i as u32, v);
            }
            sf.set_exec(exec);
            let hw = sm.add_timeline(b, w, cycle, 1);
            self.hws.push(Hw {
                block: block_index,
                vf,
                live: 1,
                scratch: LocalMemory::default(),
            });
            members.push(sm.add_warp(block_index, cycle, false));
            self.waves.push(Wave {
                hw,
                sf,
                pc: 0,
                spm: u64::MAX,
                ready: vec![0; SCALAR_SLOTS + self.vgprs],
                vm: Vec::new(),
                lgkm: Vec::new(),
                merging: None,
                merged_at: None,
                origin: u32::MAX,
                parent: None,
                children: Vec::new(),
                open: Vec::new(),
                spsimd: false,
                ret: Vec::new(),
            });
        }
        let live = members.len() as u32;
        let block = Block::new(self.lds_bytes, members, live, live);
        sm.blocks.push(block);
    }

    #[inline(always)]
    fn waiting(&self, sm: &Sm, w: usize) -> bool {
        let s = &sm.warps[w];
        s.done || s.at_barrier || self.waves[w].merging.is_some()
    }

    /// A split-wavefront on its SpSIMD has its own issue slot (PWS §4.1).
    #[inline(always)]
    fn own_slot(&self, w: usize) -> bool {
        self.waves[w].spsimd
    }

    fn issue(&mut self, sm: &mut Sm, w: usize, cycle: u64) -> Result<bool, SimError> {
        self.step(sm, w, cycle)
    }

    fn after_issue(&mut self, sm: &mut Sm, w: usize) {
        if self.skip {
            sm.warps[w].wake = self.ready_at(sm, w);
        }
    }

    fn earliest(&self, sm: &Sm, w: usize) -> u64 {
        if self.skip {
            self.ready_at(sm, w)
        } else {
            sm.warps[w].wake
        }
    }

    fn soonest(&self, sm: &Sm, w: usize) -> u64 {
        if self.skip {
            sm.warps[w].wake
        } else {
            self.ready_at(sm, w)
        }
    }

    /// Bounded: each split or merge wakes one wave, and each is bounded by the wave count.
    fn next_woken(&mut self, _sm: &Sm, round: usize) -> Option<usize> {
        if round >= self.waves.len() * 2 + 2 {
            self.woken.clear();
            return None;
        }
        self.woken.pop()
    }

    /// Located at the first waiting wavefront's barrier or merge point.
    fn deadlock(&self, sm: &Sm, cycle: u64) -> SimError {
        let span = (0..self.waves.len())
            .find(|&w| !sm.warps[w].done)
            .map_or(self.f.span, |w| {
                let pc = self.waves[w].pc;
                self.span(if sm.warps[w].at_barrier {
                    pc.saturating_sub(1)
                } else {
                    pc
                })
            });
        SimError::at(
            span,
            format!(
                "deadlock at cycle {cycle}: every resident wavefront waits at a barrier or a merge"
            ),
        )
    }
}

impl Gcn<'_> {
    /// The earliest cycle at which wave `w` could issue (exact for the wave's own state,
    /// a lower bound for the unit lanes). Inlined: it runs twice per issue.
    #[inline(always)]
    fn ready_at(&self, sm: &Sm, w: usize) -> u64 {
        let wave = &self.waves[w];
        let mut t = sm.warps[w].next_issue;
        let Some(st) = self.statics.get(wave.pc) else {
            return t;
        };
        for &s in &st.waits_on {
            t = t.max(wave.ready.get(s as usize).copied().unwrap_or(0));
        }
        t = t.max(sm.warps[w].class_free[st.t.class_idx]);
        if let Some((vm, lgkm)) = st.counters {
            t = t.max(counter_ready(&wave.vm, vm));
            t = t.max(counter_ready(&wave.lgkm, lgkm));
        }
        if !st.scalar && !wave.spsimd {
            t = t.max(
                sm.lane_free[st.t.unit_idx]
                    .iter()
                    .copied()
                    .min()
                    .unwrap_or(0),
            );
        }
        t
    }

    fn span(&self, pc: usize) -> Span {
        self.f
            .instructions
            .get(pc)
            .or(self.f.instructions.last())
            .map_or(self.f.span, |i| i.span)
    }

    fn active(&self, w: usize) -> u64 {
        let wave = &self.waves[w];
        wave.sf.exec() & wave.spm & self.lane_mask
    }

    fn try_issue(&mut self, sm: &mut Sm, w: usize, cycle: u64) -> Result<bool, SimError> {
        if self.ready_at(sm, w) > cycle {
            return Ok(false);
        }
        let pc = self.waves[w].pc;
        let statics = self.statics;
        let st = &statics[pc];
        let ins = &self.f.instructions[pc];
        let op = match &st.op {
            Ok(op) => op,
            Err(m) => return Err(SimError::at(ins.span, m.clone())),
        };
        let (k, lane) = if st.scalar {
            (1u64, None)
        } else if self.waves[w].spsimd {
            (st.t.cycles, None)
        } else {
            let Some(l) = sm.free_lane(st.t.unit_idx, cycle) else {
                return Ok(false);
            };
            (st.t.cycles, Some(l))
        };
        sm.count_issue("the number of issued wavefront-instructions")?;
        let active = self.active(w);
        sm.loops.issue(w, pc, active);
        let hw = self.waves[w].hw;
        let trace = sm.launch.trace;
        if trace && sm.timelines[hw].warp == sm.launch.stepper_warp {
            self.record_step(sm, w, pc, cycle, active)?;
        }
        let mut latency = st.t.latency;
        let mut next_pc = pc + 1;
        // `s_endpgm`, or the entry function's return.
        let mut finished = matches!(op, Op::End);
        let mut splitting_event = false;
        match op {
            Op::SMov { .. }
            | Op::SNot { .. }
            | Op::SBrev { .. }
            | Op::SBin { .. }
            | Op::SCmp { .. } => {
                alu::scalar(op, &mut self.waves[w].sf).map_err(|m| {
                    SimError::at(ins.span, format!("cannot simulate {}: {m}", ins.opcode))
                })?;
            }
            Op::SaveExec { .. } => {
                if let (Splitting::Dws(c), Some(key)) = (sm.machine.splitting, st.narrow_save) {
                    // DWS (PWS §3): split when the narrowed mask diverges.
                    let mut probe = self.waves[w].sf.clone();
                    alu::scalar(op, &mut probe).map_err(|m| SimError::at(ins.span, m))?;
                    let narrowed = probe.exec() & self.waves[w].spm & self.lane_mask;
                    let diverges = narrowed != 0 && narrowed != active;
                    alu::scalar(op, &mut self.waves[w].sf)
                        .map_err(|m| SimError::at(ins.span, m))?;
                    if diverges {
                        splitting_event = self.split(sm, w, narrowed, key, cycle, c)?;
                    } else {
                        self.waves[w].open.push((key, false));
                    }
                } else {
                    alu::scalar(op, &mut self.waves[w].sf)
                        .map_err(|m| SimError::at(ins.span, m))?;
                }
            }
            Op::VAlu { .. }
            | Op::VCmp { .. }
            | Op::VCndmask { .. }
            | Op::VReadFirstLane { .. }
            | Op::VWriteLane { .. }
            | Op::VReadLane { .. }
            | Op::Sdwa(_) => {
                let wave = &mut self.waves[w];
                alu::vector(op, &mut wave.sf, &mut self.hws[hw].vf, active).map_err(|m| {
                    SimError::at(ins.span, format!("cannot simulate {}: {m}", ins.opcode))
                })?;
            }
            Op::SLoad {
                d,
                base,
                offset,
                dwords,
            } => {
                let sf = &self.waves[w].sf;
                let addr = sf.read64(base).wrapping_add(u64::from(sf.read32(offset)));
                let Some(dst) = d.sreg() else {
                    return Err(SimError::at(ins.span, "scalar load into a non-SGPR"));
                };
                sm.memory.set_site(ins.span.line, pc as u64);
                for i in 0..*dwords {
                    let v = self
                        .scalar_word(sm, addr.wrapping_add(u64::from(i) * 4))
                        .map_err(|m| SimError::at(ins.span, m))?;
                    self.waves[w].sf.set(dst + i, v);
                }
                let done = cycle + k - 1 + latency;
                self.waves[w].lgkm.push(done);
            }
            Op::VMem(_) | Op::Ds { .. } | Op::Atomic(_) | Op::Scratch(_) => {
                let warp = sm.timelines[hw].warp;
                let at = Access::of(warp, pc, cycle, active, latency);
                sm.memory.set_site(ins.span.line, pc as u64);
                latency = match op {
                    Op::Atomic(a) => self.atomic_op(sm, w, a, at),
                    Op::Scratch(s) => self.scratch_op(sm, w, s, at),
                    _ => self.memory_op(sm, w, op, at),
                }
                .map_err(|m| SimError::at(ins.span, m))?;
                let done = cycle + k - 1 + latency;
                let lds = match op {
                    Op::Atomic(a) => matches!(a.space, AtomicSpace::Lds { .. }),
                    _ => matches!(op, Op::Ds { .. }),
                };
                if lds {
                    self.waves[w].lgkm.push(done);
                } else {
                    self.waves[w].vm.push(done);
                }
            }
            Op::Waitcnt { .. } => latency = 1,
            Op::Barrier | Op::Nop | Op::End => {}
            Op::Jump(t) => next_pc = *t,
            Op::Call { target, d } => {
                let wave = &mut self.waves[w];
                if wave.ret.len() >= sm.budget.max_stack_depth {
                    return Err(SimError::budget(
                        "max_stack_depth",
                        sm.budget.max_stack_depth,
                        "the calls in progress of a wavefront (recursion?)",
                    ));
                }
                // S_SWAPPC_B64: D = address of the next instruction.
                let back = super::code::address(pc + 1);
                if let Some(s) = d.sreg() {
                    wave.sf.set(s, back as u32);
                    wave.sf.set(s + 1, (back >> 32) as u32);
                }
                wave.ret.push(pc + 1);
                next_pc = *target;
            }
            Op::Return => match self.waves[w].ret.pop() {
                Some(back) => next_pc = back,
                None => finished = true,
            },
            Op::ScalarBranch(c, t) => {
                let sf = &self.waves[w].sf;
                let taken = match c {
                    ScalarCondition::Scc0 => !sf.scc(),
                    ScalarCondition::Scc1 => sf.scc(),
                    ScalarCondition::Vccz => sf.vcc() & self.waves[w].spm == 0,
                    ScalarCondition::Vccnz => sf.vcc() & self.waves[w].spm != 0,
                    ScalarCondition::Other => false,
                };
                if taken {
                    next_pc = *t;
                }
            }
            Op::ExecBranch(c, t) => {
                let taken = match c {
                    ExecCondition::Execz => active == 0,
                    ExecCondition::Execnz => active != 0,
                };
                if taken {
                    next_pc = *t;
                }
            }
            // Handled as zero-time events in `step`.
            Op::Split { .. } | Op::Merge => {}
        }
        if let Op::SaveExec { .. } = op {
            if splitting_event {
                // The child copied the parent before the pc advanced: move it too.
                if let Some(&ch) = self.waves[w].children.last() {
                    self.waves[ch].pc = pc + 1;
                }
            }
        }
        // Timing.
        let at = IssuedAt {
            cycle,
            cycles: k,
            lane,
            pc,
            line: ins.span.line,
            active,
            executed: active,
        };
        let complete = sm.issued_at(w, &st.t, at, latency, hw)?;
        let wave = &mut self.waves[w];
        for &s in &st.writes {
            if let Some(x) = wave.ready.get_mut(s as usize) {
                *x = complete;
            }
        }
        wave.vm.retain(|&t| t > cycle);
        wave.lgkm.retain(|&t| t > cycle);
        wave.pc = next_pc;
        if splitting_event {
            // Children inherit the scoreboard as of now.
            if let Some(&ch) = self.waves[w].children.last() {
                let ready = self.waves[w].ready.clone();
                self.waves[ch].ready = ready;
            }
        }
        match op {
            _ if finished => {
                sm.retire(w);
                self.hws[hw].live = self.hws[hw].live.saturating_sub(1);
                if self.hws[hw].live == 0 {
                    let scratch = std::mem::take(&mut self.hws[hw].scratch);
                    self.scratch_held -= scratch.held();
                    sm.timelines[hw].finished = complete;
                    sm.last_warp_issues = sm.timelines[hw].issues.len();
                }
                self.depth_change(sm, hw, cycle + 1);
                let b = self.hws[hw].block;
                sm.blocks[b].live = sm.blocks[b].live.saturating_sub(1);
                if self.hws[hw].live == 0 {
                    sm.blocks[b].hw = sm.blocks[b].hw.saturating_sub(1);
                    if sm.blocks[b].hw == 0 {
                        sm.resident -= sm.shape.warps_per_block;
                    }
                }
                sm.release_barrier(b, cycle);
            }
            Op::Barrier => sm.arrive(w, cycle),
            _ => {}
        }
        Ok(true)
    }

    fn record_step(
        &mut self,
        sm: &mut Sm,
        w: usize,
        pc: usize,
        cycle: u64,
        active: u64,
    ) -> Result<(), SimError> {
        let ws = sm.machine.warp_size as u8;
        let hw = self.waves[w].hw;
        // Unsplit: no stack. Split: each live SWF of the wavefront (split mask), the
        // executing one last.
        let mut stack = std::mem::take(&mut self.stack_buf);
        stack.clear();
        if self.hws[hw].live > 1 {
            for (i, x) in self.waves.iter().enumerate() {
                if x.hw == hw && !sm.warps[i].done && i != w {
                    stack.push(StackView {
                        reconverges_at: None,
                        tag: cfg::state::Tag::Nil,
                        pc: x.pc,
                        address: x.pc as u64,
                        mask: LaneMask::new(x.spm & self.lane_mask, ws),
                    });
                }
            }
            stack.push(StackView {
                reconverges_at: None,
                tag: cfg::state::Tag::Nil,
                pc,
                address: pc as u64,
                mask: LaneMask::new(self.waves[w].spm & self.lane_mask, ws),
            });
        }
        let ins = &self.f.instructions[pc];
        let at = StepAt {
            cycle,
            pc,
            address: pc as u64,
            line: ins.span.line,
            text: &ins.text,
            active,
            executed: active,
        };
        let recorded = sm.record_step(at, stack.iter().copied());
        self.stack_buf = stack;
        recorded.map(|_| ())
    }
}
