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

use super::abi::{dispatch_packet, GcnAbi, InitSgpr, DISPATCH_BASE, KERNARG_BASE};
use super::alu;
use super::decode::{self, Mem, Op};
use super::operand::{Loc, Opnd, ScalarFile, VectorFile, EXEC_LO, M0, SCALAR_SLOTS, SCC, VCC_LO};
use crate::budget::Budget;
use crate::cycle_loop::memory_access::Access;
use crate::cycle_loop::sm::{IssuedAt, Nouns, Shape, StepAt};
use crate::cycle_loop::{self, Block, FrontEnd, Sm};
use crate::error::SimError;
use crate::lane_set;
use crate::launch::Launch;
use crate::machine::Machine;
use crate::memory::{MemoryInit, SharedMemory};
use crate::simulation::{DepthChange, LaneMask, Simulation, StackView, WarpTimeline};
use crate::splitting::{split_masks, SplitCosts, Splitting};
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
    /// Scoreboard slots: scalar-file slots, and VGPR numbers.
    sregs: Vec<u32>,
    vregs: Vec<u32>,
    /// `s_or_b64 exec, exec, sX`: the slot of `sX` (a reconvergence point, DWS merges here).
    restore: Option<u32>,
    /// `s_and_saveexec_b64 sX, …`: the slot of `sX` (a DWS split point).
    narrow_save: Option<u32>,
    t: Timing,
}

fn class_of(u: GcnUnit) -> (TimingClass, bool) {
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
    sready: Vec<u64>,
    vready: Vec<u64>,
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
    timeline: WarpTimeline,
}

/// Runs `function`; see [`crate::gcn::run`]. `got` holds the GOT slots of a linked image
/// ([`super::code`]); empty otherwise.
#[allow(clippy::too_many_arguments)]
pub fn run(
    function: &GcnFunction,
    got: &[u64],
    abi: &GcnAbi,
    launch: &Launch,
    machine: &Machine,
    init: &MemoryInit,
    budget: &Budget,
) -> Result<Simulation, SimError> {
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
    let shape = Shape::of(launch, machine, budget, &AMD)?;
    let lds_bytes = launch.shared_bytes.max(abi.group_segment_size);
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
    let mut vgprs = 1usize;
    let statics: Vec<Static> = function
        .instructions
        .iter()
        .map(|ins| {
            let (class, scalar) = class_of(ins.unit);
            let mut sregs = Vec::new();
            let mut vregs = Vec::new();
            for r in ins.reads.iter().chain(&ins.writes) {
                match r {
                    GcnReg::Sgpr(n) if *n < super::operand::SGPRS => sregs.push(*n),
                    GcnReg::Vgpr(n) if *n < 256 => {
                        vregs.push(*n);
                        vgprs = vgprs.max(*n as usize + 1);
                    }
                    GcnReg::Exec => sregs.push(EXEC_LO),
                    GcnReg::Vcc => sregs.push(VCC_LO),
                    GcnReg::Scc => sregs.push(SCC),
                    GcnReg::M0 => sregs.push(M0),
                    _ => {}
                }
            }
            let op = decode::decode(ins);
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
                op,
                scalar,
                sregs,
                vregs,
                restore,
                narrow_save,
                t: Timing::of(machine, class),
            }
        })
        .collect();
    let mut sm = Sm::new(launch, machine, budget, shape, init, false)?;
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
        stack_buf: Vec::new(),
        woken: Vec::new(),
        skip: machine.splitting == Splitting::None,
    };
    cycle_loop::run(&mut fe, &mut sm)?;
    Ok(sm.finish(fe.timelines()))
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
    /// The stepper's stack entries before they are shared (reused).
    stack_buf: Vec<StackView>,
    /// No wavefront splitting: waves keep wake-up cycles (`WarpSched::wake`).
    skip: bool,
    /// Waves created or resumed by a split or merge during this cycle: they get a chance to
    /// issue in the same cycle (with `e_s = 0` or `e_m = 0` no cycle is lost).
    woken: Vec<usize>,
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
            let hw = self.hws.len();
            self.hws.push(Hw {
                block: block_index,
                vf,
                live: 1,
                timeline: sm.timeline(b, w, cycle, 1),
            });
            members.push(sm.add_warp(block_index, cycle, false));
            self.waves.push(Wave {
                hw,
                sf,
                pc: 0,
                spm: u64::MAX,
                sready: vec![0; SCALAR_SLOTS],
                vready: vec![0; self.vgprs],
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
        sm.blocks.push(Block {
            shared: SharedMemory::new(self.lds_bytes),
            live,
            arrived: 0,
            warps: members,
            hw: live,
        });
    }

    fn waiting(&self, sm: &Sm, w: usize) -> bool {
        let s = &sm.warps[w];
        s.done || s.at_barrier || self.waves[w].merging.is_some()
    }

    /// A split-wavefront on its SpSIMD has its own issue slot (PWS §4.1).
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

    fn timelines(self) -> Vec<WarpTimeline> {
        self.hws.into_iter().map(|h| h.timeline).collect()
    }
}

impl Gcn<'_> {
    /// The earliest cycle at which wave `w` could issue (exact for the wave's own state,
    /// a lower bound for the unit lanes).
    fn ready_at(&self, sm: &Sm, w: usize) -> u64 {
        let wave = &self.waves[w];
        let mut t = sm.warps[w].next_issue;
        let Some(st) = self.statics.get(wave.pc) else {
            return t;
        };
        for &s in &st.sregs {
            t = t.max(wave.sready.get(s as usize).copied().unwrap_or(0));
            if s == EXEC_LO || s == VCC_LO {
                t = t.max(wave.sready.get(s as usize + 1).copied().unwrap_or(0));
            }
        }
        for &v in &st.vregs {
            t = t.max(wave.vready.get(v as usize).copied().unwrap_or(0));
        }
        t = t.max(sm.warps[w].class_free[st.t.class_idx]);
        if let Ok(Op::Waitcnt { vm, lgkm }) = &st.op {
            t = t.max(counter_ready(&wave.vm, *vm));
            t = t.max(counter_ready(&wave.lgkm, *lgkm));
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

    /// Handles zero-time events of wave `w` at `cycle` (`split`/`merge` instructions and
    /// merge points, which take no issue slot: their cost is `e_s`/`e_m`); then issues its
    /// next instruction if it can. `Ok(true)` when an instruction issued.
    fn step(&mut self, sm: &mut Sm, w: usize, cycle: u64) -> Result<bool, SimError> {
        let splitting = sm.machine.splitting;
        // Bounded by the kernel length: each round advances the pc or returns.
        for _ in 0..=self.f.instructions.len() {
            let pc = self.waves[w].pc;
            let Some(st) = self.statics.get(pc) else {
                return Err(SimError::at(
                    self.span(pc),
                    "the wavefront fell off the end of the kernel (no s_endpgm)",
                ));
            };
            let at_merged = self.waves[w].merged_at == Some(pc);
            match (&st.op, splitting) {
                (Ok(Op::Split { .. } | Op::Merge), Splitting::None | Splitting::Dws(_)) => {
                    self.waves[w].pc += 1;
                }
                (Ok(Op::Split { a, b }), Splitting::Pws(c)) => {
                    if self.ready_at(sm, w) > cycle {
                        return Ok(false);
                    }
                    let sf = &self.waves[w].sf;
                    let m = u64::from(sf.read32(a)) | (u64::from(sf.read32(b)) << 32);
                    self.waves[w].pc += 1;
                    if self.split(sm, w, m, u32::MAX, cycle, c)? && c.e_s > 0 {
                        return Ok(false);
                    }
                }
                (Ok(Op::Merge), Splitting::Pws(c)) => {
                    if self.ready_at(sm, w) > cycle {
                        return Ok(false);
                    }
                    if self.merge_point(sm, w, u32::MAX, cycle, c)? {
                        return Ok(false);
                    }
                    self.waves[w].pc += 1;
                }
                (Ok(_), Splitting::Dws(c)) if st.restore.is_some() && !at_merged => {
                    if self.ready_at(sm, w) > cycle {
                        return Ok(false);
                    }
                    let key = st.restore.unwrap_or(u32::MAX);
                    if self.merge_point(sm, w, key, cycle, c)? {
                        return Ok(false);
                    }
                    self.waves[w].merged_at = Some(pc);
                }
                _ => break,
            }
        }
        let issued = self.try_issue(sm, w, cycle)?;
        if issued {
            self.waves[w].merged_at = None;
        }
        Ok(issued)
    }

    /// Wave `w` reached a merge point with `key` (PWS `merge`: `u32::MAX`; DWS: the restored
    /// exec pair) at `cycle`. `Ok(true)` when it must wait for its partner (or was merged
    /// away into its parent).
    fn merge_point(
        &mut self,
        sm: &mut Sm,
        w: usize,
        key: u32,
        cycle: u64,
        c: SplitCosts,
    ) -> Result<bool, SimError> {
        // As a parent: the innermost open split with this key (stale DWS records of
        // narrowings that were never restored are dropped).
        if let Some(i) = self.waves[w].open.iter().rposition(|&(k, _)| k == key) {
            let (_, did_split) = self.waves[w].open[i];
            self.waves[w].open.truncate(i);
            if !did_split {
                return Ok(false);
            }
            let Some(&child) = self.waves[w].children.last() else {
                return Ok(false);
            };
            if sm.warps[child].done {
                self.waves[w].children.pop();
                return Ok(false);
            }
            // The child must wait at this same merge point with all its own splits merged
            // ("Once both SWFs are synchronized at the same instruction", §4.1) — not at
            // an inner merge point of its own.
            let ch = &self.waves[child];
            if let (Some(t_child), true) =
                (ch.merging, ch.pc == self.waves[w].pc && ch.open.is_empty())
            {
                self.merge(sm, w, child, cycle.max(t_child), c, false);
                return Ok(false);
            }
            // Wait for the child; the record stays open until it arrives.
            self.waves[w].open.push((key, true));
            self.waves[w].merging = Some(cycle);
            return Ok(true);
        }
        // As a child whose own splits are all merged: merge with the parent at the merge
        // point of the split that created it.
        let wave = &self.waves[w];
        if let (true, Some(p), true) = (wave.open.is_empty(), wave.parent, wave.origin == key) {
            if sm.warps[p].done {
                return Ok(false);
            }
            self.waves[w].merging = Some(cycle);
            let parent_waiting = self.waves[p].merging.is_some()
                && self.waves[p].children.last() == Some(&w)
                && self.waves[p].pc == self.waves[w].pc;
            if parent_waiting {
                let tp = self.waves[p].merging.unwrap_or(cycle);
                self.waves[p].open.pop();
                let pws = matches!(sm.machine.splitting, Splitting::Pws(_));
                self.merge(sm, p, w, cycle.max(tp), c, pws);
                self.woken.push(p);
            }
            return Ok(true);
        }
        Ok(false)
    }

    /// Merges `child` into `parent` (PWS §4.1): `SpM = SpM_p ∨ SpM_c`, the parent continues
    /// `e_m` cycles after the later arrival (past its `merge` instruction when
    /// `advance`), the child's context is freed.
    fn merge(
        &mut self,
        sm: &mut Sm,
        parent: usize,
        child: usize,
        at: u64,
        c: SplitCosts,
        advance: bool,
    ) {
        let spm = self.waves[child].spm;
        self.waves[child].merging = None;
        sm.retire(child);
        let p = &mut self.waves[parent];
        p.spm |= spm;
        p.merging = None;
        p.children.retain(|&x| x != child);
        let s = &mut sm.warps[parent];
        s.next_issue = s.next_issue.max(at.saturating_add(c.e_m));
        if advance {
            p.pc += 1;
        } else {
            p.merged_at = Some(p.pc);
        }
        let hw = p.hw;
        self.hws[hw].live = self.hws[hw].live.saturating_sub(1);
        let block = self.hws[hw].block;
        sm.blocks[block].live = sm.blocks[block].live.saturating_sub(1);
        sm.cycles = sm.cycles.max(at.saturating_add(c.e_m));
        self.depth_change(hw, at.saturating_add(c.e_m));
    }

    fn depth_change(&mut self, hw: usize, cycle: u64) {
        if !self.trace {
            return;
        }
        let depth = self.hws[hw].live as usize;
        let t = &mut self.hws[hw].timeline;
        if t.stack_depth.last().map(|c| c.depth) != Some(depth) {
            t.stack_depth.push(DepthChange { cycle, depth });
        }
    }

    /// Splits wave `w` with mask `m` (the parent keeps `SpM ∧ M`, Fig. 5b) if one of its
    /// `S` contexts is free; records the split (or its absence) for the matching merge.
    fn split(
        &mut self,
        sm: &mut Sm,
        w: usize,
        m: u64,
        key: u32,
        cycle: u64,
        c: SplitCosts,
    ) -> Result<bool, SimError> {
        if self.waves[w].open.len() >= sm.budget.max_stack_depth {
            return Err(SimError::budget(
                "max_stack_depth",
                sm.budget.max_stack_depth,
                "the open splits of a wavefront",
            ));
        }
        let hw = self.waves[w].hw;
        let used = self.hws[hw].live.saturating_sub(1);
        if used >= c.s {
            self.waves[w].open.push((key, false));
            return Ok(false);
        }
        let (keep, give) = split_masks(self.waves[w].spm, m);
        let resume = cycle.saturating_add(c.e_s);
        let parent = &self.waves[w];
        let child = Wave {
            hw,
            sf: parent.sf.clone(),
            pc: parent.pc,
            spm: give,
            sready: parent.sready.clone(),
            vready: parent.vready.clone(),
            vm: parent.vm.clone(),
            lgkm: parent.lgkm.clone(),
            merging: None,
            merged_at: None,
            parent: Some(w),
            children: Vec::new(),
            open: Vec::new(),
            origin: key,
            spsimd: true,
            ret: parent.ret.clone(),
        };
        self.waves.push(child);
        let block = self.hws[hw].block;
        let id = sm.add_warp(block, resume, false);
        sm.warps[id].class_free = sm.warps[w].class_free;
        let p = &mut self.waves[w];
        p.spm = keep;
        p.children.push(id);
        p.open.push((key, true));
        let s = &mut sm.warps[w];
        s.next_issue = s.next_issue.max(resume);
        self.hws[hw].live += 1;
        sm.blocks[block].live += 1;
        sm.blocks[block].warps.push(id);
        self.woken.push(id);
        self.depth_change(hw, cycle + 1);
        Ok(true)
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
        let hw = self.waves[w].hw;
        let trace = sm.launch.trace;
        if trace && self.hws[hw].timeline.warp == sm.launch.stepper_warp {
            self.record_step(sm, w, pc, cycle, active)?;
        }
        let mut latency = st.t.latency;
        let mut next_pc = pc + 1;
        // `s_endpgm`, or the entry function's return.
        let mut finished = matches!(op, Op::End);
        let mut splitting_event = false;
        match op {
            Op::SMov { .. } | Op::SNot { .. } | Op::SBin { .. } | Op::SCmp { .. } => {
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
            Op::VAlu { .. } | Op::VCmp { .. } | Op::VCndmask { .. } | Op::VReadFirstLane { .. } => {
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
                for i in 0..*dwords {
                    let v = self
                        .scalar_word(sm, addr.wrapping_add(u64::from(i) * 4))
                        .map_err(|m| SimError::at(ins.span, m))?;
                    self.waves[w].sf.set(dst + i, v);
                }
                let done = cycle + k - 1 + latency;
                self.waves[w].lgkm.push(done);
            }
            Op::VMem { .. } | Op::Ds { .. } => {
                if trace && sm.transactions.len() >= sm.budget.max_timeline_entries {
                    return Err(SimError::at(
                        ins.span,
                        format!(
                            "more memory transactions than the budget max_timeline_entries = {} (raise max_timeline_entries)",
                            sm.budget.max_timeline_entries
                        ),
                    ));
                }
                latency = self
                    .memory_op(sm, w, pc, op, active, cycle, latency)
                    .map_err(|m| SimError::at(ins.span, m))?;
                let done = cycle + k - 1 + latency;
                if matches!(op, Op::Ds { .. }) {
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
        let complete = sm.issued_at(w, &st.t, at, latency, &mut self.hws[hw].timeline)?;
        let wave = &mut self.waves[w];
        for r in &ins.writes {
            let slots: &[u32] = match r {
                GcnReg::Sgpr(n) => &[*n],
                GcnReg::Exec => &[EXEC_LO, EXEC_LO + 1],
                GcnReg::Vcc => &[VCC_LO, VCC_LO + 1],
                GcnReg::Scc => &[SCC],
                GcnReg::M0 => &[M0],
                GcnReg::Vgpr(n) => {
                    if let Some(x) = wave.vready.get_mut(*n as usize) {
                        *x = complete;
                    }
                    &[]
                }
                _ => &[],
            };
            for &s in slots {
                if let Some(x) = wave.sready.get_mut(s as usize) {
                    *x = complete;
                }
            }
        }
        wave.vm.retain(|&t| t > cycle);
        wave.lgkm.retain(|&t| t > cycle);
        wave.pc = next_pc;
        if splitting_event {
            // Children inherit the scoreboard as of now.
            if let Some(&ch) = self.waves[w].children.last() {
                let (sr, vr) = (self.waves[w].sready.clone(), self.waves[w].vready.clone());
                self.waves[ch].sready = sr;
                self.waves[ch].vready = vr;
            }
        }
        match op {
            _ if finished => {
                sm.retire(w);
                self.hws[hw].live = self.hws[hw].live.saturating_sub(1);
                if self.hws[hw].live == 0 {
                    self.hws[hw].timeline.finished = complete;
                    sm.last_warp_issues = self.hws[hw].timeline.issues.len();
                }
                self.depth_change(hw, cycle + 1);
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
                        mask: LaneMask {
                            bits: x.spm & self.lane_mask,
                            lanes: ws,
                        },
                    });
                }
            }
            stack.push(StackView {
                reconverges_at: None,
                tag: cfg::state::Tag::Nil,
                pc,
                address: pc as u64,
                mask: LaneMask {
                    bits: self.waves[w].spm & self.lane_mask,
                    lanes: ws,
                },
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
        recorded
    }

    /// A 32-bit scalar-memory word: kernel arguments, dispatch packet or global memory.
    fn scalar_word(&self, sm: &mut Sm, addr: u64) -> Result<u32, String> {
        if !addr.is_multiple_of(4) {
            return Err(format!("misaligned scalar load at {addr:#x}"));
        }
        if addr >= KERNARG_BASE {
            let i = ((addr - KERNARG_BASE) / 4) as usize;
            // Reads past the declared arguments (e.g. `s_load_dwordx8` of fewer words) see 0.
            return Ok(sm.launch.params.get(i).copied().unwrap_or(0));
        }
        if (super::code::GOT_BASE..super::code::CODE_BASE).contains(&addr) {
            let i = ((addr - super::code::GOT_BASE) / 8) as usize;
            let slot = self.got.get(i).copied().ok_or_else(|| {
                format!("scalar load at {addr:#x}: no GOT slot there (the GOT has the functions of the listing)")
            })?;
            return Ok(if addr.is_multiple_of(8) {
                slot as u32
            } else {
                (slot >> 32) as u32
            });
        }
        if addr >= DISPATCH_BASE {
            let i = ((addr - DISPATCH_BASE) / 4) as usize;
            return self
                .packet
                .get(i)
                .copied()
                .ok_or_else(|| format!("scalar load at {addr:#x} is past the dispatch packet"));
        }
        let mut out = [0u32; 4];
        sm.memory.read(addr, 4, &mut out)?;
        Ok(out[0])
    }

    /// A read of `bytes` at `addr` in the kernarg segment or the dispatch packet (read-only,
    /// naturally aligned; sub-word sizes zero-extended into `out[0]`).
    fn special_read(
        &self,
        sm: &mut Sm,
        addr: u64,
        bytes: u64,
        out: &mut [u32; 4],
    ) -> Result<(), String> {
        if !addr.is_multiple_of(bytes.max(1)) {
            return Err(format!(
                "misaligned {bytes}-byte access at address {addr:#x}"
            ));
        }
        let word = addr & !3;
        if bytes < 4 {
            let w = self.scalar_word(sm, word)?;
            let shift = (addr % 4) * 8;
            let mask = if bytes == 1 { 0xff } else { 0xffff };
            out[0] = (w >> shift) & mask;
        } else {
            for (i, o) in out.iter_mut().take((bytes / 4) as usize).enumerate() {
                *o = self.scalar_word(sm, word.wrapping_add(4 * i as u64))?;
            }
        }
        Ok(())
    }

    /// A vector memory or LDS access for the lanes `active`; returns its latency.
    #[allow(clippy::too_many_arguments)]
    fn memory_op(
        &mut self,
        sm: &mut Sm,
        w: usize,
        pc: usize,
        op: &Op,
        active: u64,
        cycle: u64,
        class_latency: u64,
    ) -> Result<u64, String> {
        let hw = self.waves[w].hw;
        let lanes = sm.machine.warp_size as usize;
        let on = |l: usize| active >> l & 1 == 1;
        // Reused from one access to the next; an access that fails leaves a fresh one.
        let mut addrs = std::mem::take(&mut sm.addr_buf);
        addrs.clear();
        let (global, store, bytes) = match op {
            Op::VMem {
                mem,
                store,
                bytes,
                sign,
                data,
                addr,
                saddr,
                offset,
            } => {
                let Loc::V(a) = addr.loc else {
                    return Err("the address is not a VGPR".into());
                };
                let Loc::V(dv) = data.loc else {
                    return Err("the data operand is not a VGPR".into());
                };
                let base = saddr.map(|s| self.waves[w].sf.read64(&s));
                let vf = &self.hws[hw].vf;
                let row = |r: u32| {
                    let at = r as usize * vf.lanes;
                    vf.v.get(at..at + vf.lanes)
                };
                let lane_list = lane_set::lanes(active & lane_set::full_mask(lanes));
                match (mem, base, row(a), row(a + 1)) {
                    (Mem::Global, Some(b), Some(lo), _) => addrs.extend(lane_list.map(|l| {
                        (
                            l,
                            b.wrapping_add(u64::from(lo[l]))
                                .wrapping_add_signed(*offset),
                        )
                    })),
                    (_, _, Some(lo), Some(hi)) => addrs.extend(lane_list.map(|l| {
                        let at = u64::from(lo[l]) | (u64::from(hi[l]) << 32);
                        (l, at.wrapping_add_signed(*offset))
                    })),
                    _ => {
                        for l in (0..lanes).filter(|&l| on(l)) {
                            let at = match (mem, base) {
                                (Mem::Global, Some(b)) => b.wrapping_add(u64::from(vf.get(a, l))),
                                _ => u64::from(vf.get(a, l)) | (u64::from(vf.get(a + 1, l)) << 32),
                            }
                            .wrapping_add_signed(*offset);
                            addrs.push((l, at));
                        }
                    }
                }
                let n = (*bytes / 4).max(1) as u32;
                let mut words = [0u32; 4];
                // One aligned dword per lane inside one array: index its words directly.
                // Anything else (and the dispatch packet) takes the per-lane path below,
                // which also reports misaligned and stray accesses.
                let done = *bytes == 4
                    && word_access(
                        sm.memory.window(&addrs, 4).filter(|(start, words)| {
                            start + words.len() as u64 * 4 <= DISPATCH_BASE
                        }),
                        &addrs,
                        &mut self.hws[hw].vf,
                        dv,
                        *store,
                    );
                for &(l, at) in addrs.iter().filter(|_| !done) {
                    if *store {
                        for i in 0..n {
                            words[i as usize] = self.hws[hw].vf.get(dv + i, l);
                        }
                        sm.memory.write(at, *bytes, &words)?;
                    } else {
                        if at >= DISPATCH_BASE {
                            // HIP reads launch sizes through flat loads from the dispatch
                            // pointer (gaussian Fan2: `flat_load_ushort` of offset 6).
                            self.special_read(sm, at, *bytes, &mut words)?;
                        } else {
                            sm.memory.read(at, *bytes, &mut words)?;
                        }
                        if *sign && *bytes < 4 {
                            let sh = 32 - 8 * *bytes as u32;
                            words[0] = (((words[0] << sh) as i32) >> sh) as u32;
                        }
                        for i in 0..n {
                            self.hws[hw].vf.set(dv + i, l, words[i as usize]);
                        }
                    }
                }
                (true, *store, *bytes)
            }
            Op::Ds {
                store,
                bytes,
                sign,
                data,
                addr,
                offsets,
            } => {
                let Loc::V(a) = addr.loc else {
                    return Err("the LDS address is not a VGPR".into());
                };
                let block = self.hws[hw].block;
                let n = (*bytes / 4).max(1) as u32;
                let mut words = [0u32; 4];
                if let (
                    [off],
                    [Opnd {
                        loc: Loc::V(dv), ..
                    }],
                    4,
                ) = (offsets.as_slice(), data.as_slice(), *bytes)
                {
                    // One dword per lane, as for global memory above.
                    let vf = &mut self.hws[hw].vf;
                    addrs.extend(
                        (0..lanes)
                            .filter(|&l| on(l))
                            .map(|l| (l, u64::from(vf.get(a, l)).wrapping_add(*off))),
                    );
                    let window = sm.blocks[block].shared.window(&addrs, 4);
                    if word_access(window, &addrs, vf, *dv, *store) {
                        return self.finish_access(
                            sm,
                            w,
                            pc,
                            addrs,
                            false,
                            *store,
                            4,
                            active,
                            cycle,
                            class_latency,
                        );
                    }
                    addrs.clear();
                }
                for l in (0..lanes).filter(|&l| on(l)) {
                    let base = u64::from(self.hws[hw].vf.get(a, l));
                    for (j, off) in offsets.iter().enumerate() {
                        let at = base.wrapping_add(*off);
                        addrs.push((l, at));
                        if *store {
                            let Some(Loc::V(dv)) = data.get(j).map(|d| d.loc) else {
                                return Err("the LDS data operand is not a VGPR".into());
                            };
                            for i in 0..n {
                                words[i as usize] = self.hws[hw].vf.get(dv + i, l);
                            }
                            sm.blocks[block].shared.write(at, *bytes, &words)?;
                        } else {
                            let Some(Loc::V(dv)) = data.first().map(|d| d.loc) else {
                                return Err("the LDS destination is not a VGPR".into());
                            };
                            sm.blocks[block].shared.read(at, *bytes, &mut words)?;
                            if *sign && *bytes < 4 {
                                let sh = 32 - 8 * *bytes as u32;
                                words[0] = (((words[0] << sh) as i32) >> sh) as u32;
                            }
                            for i in 0..n {
                                self.hws[hw]
                                    .vf
                                    .set(dv + j as u32 * n + i, l, words[i as usize]);
                            }
                        }
                    }
                }
                (false, *store, *bytes)
            }
            _ => return Err("not a memory operation".into()),
        };
        self.finish_access(
            sm,
            w,
            pc,
            addrs,
            global,
            store,
            bytes,
            active,
            cycle,
            class_latency,
        )
    }

    /// The latency of an access whose data moved (addresses `addrs`), and its transaction
    /// record when tracing; gives the address buffer back.
    #[allow(clippy::too_many_arguments)]
    fn finish_access(
        &self,
        sm: &mut Sm,
        w: usize,
        pc: usize,
        addrs: Vec<(usize, u64)>,
        global: bool,
        store: bool,
        bytes: u64,
        active: u64,
        cycle: u64,
        class_latency: u64,
    ) -> Result<u64, String> {
        let access = Access {
            warp: self.hws[self.waves[w].hw].timeline.warp,
            pc,
            cycle,
            global,
            store,
            bytes,
            lane_bytes: bytes,
            exec: active,
            class_latency,
        };
        // Within budget: `try_issue` checks the transaction count before every access.
        let latency = sm.finish_access(&access, &addrs, &addrs);
        sm.addr_buf = addrs;
        latency
    }
}

/// Moves one dword per lane between VGPR `dv` and `window` (the words of one array, or of
/// the LDS, and the byte address they start at) when there is a window; `false` (nothing
/// done) when there is none.
fn word_access(
    window: Option<(u64, &mut [u32])>,
    addrs: &[(usize, u64)],
    vf: &mut VectorFile,
    dv: u32,
    store: bool,
) -> bool {
    let Some((start, words)) = window else {
        return false;
    };
    let at = |a: u64| ((a - start) / 4) as usize;
    let row = dv as usize * vf.lanes;
    let Some(reg) = vf.v.get_mut(row..row + vf.lanes) else {
        return false;
    };
    for &(l, a) in addrs {
        if store {
            words[at(a)] = reg[l];
        } else {
            reg[l] = words[at(a)];
        }
    }
    true
}
