//! The cycle loop for PTX (and L/C) programs: block dispatch, warp scheduling, issue with a
//! scoreboard and unit lanes, functional execution and the PDOM stack.
//!
//! The timing rules are those of the SASS engine (`engine.rs`, crate docs) applied to the
//! same [`Machine`]: per cycle `t`, a warp can issue when `t` is at least its next issue
//! slot, every virtual register its instruction reads or writes (guard included) has been
//! written back, its timing class accepted the warp's previous instruction of that class at
//! least `interval` cycles ago, and a lane of the class's unit is free; the scheduler
//! ([`crate::scheduler`]) orders candidates, up to `issue_width` issue; an instruction on a
//! unit with `σ` lanes and `k` cycles per warp-instruction occupies one lane for `t..t+k`,
//! the warp's next slot is `t + k`, its result is written back at `t + k − 1 + latency`
//! (memory: class latency, or the L1 hit latency when every segment of a global load hits,
//! plus `transaction_cycles` per segment after the first). Observed cycles are the latest
//! write-back. It is a separate loop rather than a mode of the SASS engine because PTX
//! registers are unbounded virtual registers and reconvergence is by post-dominator, not by
//! the SASS stack instructions; the machine, scheduler, coalescing, L1 and memories are
//! shared.

use super::pdom_stack::PdomStack;
use super::program::{Addr, Ctl, Decoded, Op, Space};
use super::semantics::{self, lanes, Ids, Regs};
use crate::budget::Budget;
use crate::coalescing;
use crate::error::SimError;
use crate::l1_cache::L1Cache;
use crate::launch::Launch;
use crate::machine::{Machine, Scheduler, Unit};
use crate::memory::{GlobalMemory, MemoryInit, SharedMemory};
use crate::scheduler;
use crate::simulation::unit_lanes;
use crate::simulation::{
    Busy, CacheStats, DepthChange, Issue, LaneMask, Simulation, StackView, Step, Stepper,
    Transaction, WarpTimeline,
};
use crate::step_cache::{StackCache, StepTexts};
use crate::timing_facts::{unit_index, Timing};
use cfg::Tag;

/// A program ready to run: decoded instructions, each branch's reconvergence point, the
/// number of virtual registers, the parameter words and the static shared bytes.
pub(crate) struct Program<'a> {
    pub code: &'a [Decoded],
    /// Immediate post-dominator of each instruction (`None`: the exit).
    pub ipdom: &'a [Option<usize>],
    pub registers: usize,
    pub shared_static: u64,
}

struct Warp {
    id: u32,
    block: usize,
    regs: Regs,
    ids: Ids,
    stack: PdomStack,
    next_issue: u64,
    ready: Vec<u64>,
    class_free: [u64; 9],
    /// A lower bound on the next cycle this warp can issue (as in the SASS engine): set
    /// after each issue and each failed attempt; the main loop skips the warp until then.
    wake: u64,
    at_barrier: bool,
    done: bool,
    timeline: WarpTimeline,
}

struct Block {
    shared: SharedMemory,
    live: u32,
    arrived: u32,
    warps: Vec<usize>,
}

struct Engine<'a> {
    p: &'a Program<'a>,
    launch: &'a Launch,
    machine: &'a Machine,
    budget: &'a Budget,
    memory: GlobalMemory,
    l1: Option<L1Cache>,
    l1_stats: CacheStats,
    warps: Vec<Warp>,
    blocks: Vec<Block>,
    next_block: u64,
    blocks_total: u64,
    warps_per_block: u64,
    resident: u64,
    statics: Vec<Timing>,
    lane_free: [Vec<u64>; 3],
    occupancy: [Vec<Vec<Busy>>; 3],
    recorded: usize,
    transactions: Vec<Transaction>,
    steps: Vec<Step>,
    /// Scratch lists of one memory access: every element address, each lane's first.
    addr_buf: Vec<(usize, u64)>,
    base_buf: Vec<(usize, u64)>,
    seg_buf: Vec<u64>,
    /// Operand rows reused by every instruction.
    rows: semantics::Rows,
    step_texts: StepTexts,
    stack_cache: StackCache,
    issued: u64,
    cycles: u64,
    last_issued: Option<usize>,
    turn: usize,
    unfinished: usize,
    /// Dispatched warps that have not finished, in id order.
    resident_list: Vec<usize>,
    /// Issue-list room for the next warp: the last finished warp's count (traced runs).
    last_warp_issues: usize,
    /// A block finished this cycle: its slot may take the next block at once.
    block_freed: bool,
}

/// Runs `p`; see [`crate::run_ptx`].
pub(crate) fn run(
    p: &Program,
    launch: &Launch,
    machine: &Machine,
    init: &MemoryInit,
    budget: &Budget,
) -> Result<Simulation, SimError> {
    machine.validate().map_err(SimError::request)?;
    if p.code.is_empty() {
        return Err(SimError::request("the kernel has no instructions"));
    }
    if launch.grid.contains(&0) || launch.block.contains(&0) {
        return Err(SimError::request(
            "grid and block dimensions must all be at least 1",
        ));
    }
    let blocks_total = launch.blocks();
    if blocks_total > budget.max_blocks {
        return Err(SimError::budget(
            "max_blocks",
            budget.max_blocks,
            &format!("a grid of {blocks_total} blocks"),
        ));
    }
    let ws = u64::from(machine.warp_size);
    let tpb = launch.threads_per_block();
    let warps_per_block = tpb.div_ceil(ws);
    if warps_per_block > u64::from(machine.warps_per_sm) {
        return Err(SimError::request(format!(
            "a block of {tpb} threads needs {warps_per_block} warps, more than warps_per_sm = {}",
            machine.warps_per_sm
        )));
    }
    let total_warps = blocks_total * warps_per_block;
    if u64::from(launch.stepper_warp) >= total_warps {
        return Err(SimError::request(format!(
            "stepper_warp {} does not exist: the launch has {total_warps} warps",
            launch.stepper_warp
        )));
    }
    let shared_bytes = p
        .shared_static
        .saturating_add(u64::from(launch.shared_bytes));
    let resident_blocks = (u64::from(machine.warps_per_sm) / warps_per_block).min(blocks_total);
    let reg_words = (p.registers as u64).saturating_mul(ws);
    let per_block = shared_bytes
        .div_ceil(4)
        .saturating_add(reg_words.saturating_mul(2).saturating_mul(warps_per_block));
    if per_block.saturating_mul(resident_blocks) > budget.max_memory_words {
        return Err(SimError::budget(
            "max_memory_words",
            budget.max_memory_words,
            &format!(
                "{resident_blocks} resident blocks × ({shared_bytes} bytes of shared memory + {} virtual registers × {ws} lanes × 64 bits per warp)",
                p.registers
            ),
        ));
    }
    let shared_bytes = u32::try_from(shared_bytes)
        .map_err(|_| SimError::request("shared memory per block exceeds 4 GiB"))?;
    let memory = GlobalMemory::new(init, budget.max_memory_words).map_err(SimError::request)?;
    let lanes_of = |u: Unit| machine.lanes_and_cycles(u);
    let statics = p
        .code
        .iter()
        .map(|d| Timing::of(machine, d.class))
        .collect();
    let mut e = Engine {
        p,
        launch,
        machine,
        budget,
        memory,
        l1: machine.l1.as_ref().map(L1Cache::new),
        l1_stats: CacheStats { hits: 0, misses: 0 },
        warps: Vec::new(),
        blocks: Vec::new(),
        next_block: 0,
        blocks_total,
        warps_per_block,
        resident: 0,
        statics,
        lane_free: Unit::ALL.map(|u| vec![0; lanes_of(u).0 as usize]),
        occupancy: Unit::ALL.map(|u| vec![Vec::new(); lanes_of(u).0 as usize]),
        recorded: 0,
        transactions: Vec::with_capacity(
            budget.trace_room(launch.trace, budget.max_timeline_entries),
        ),
        steps: Vec::with_capacity(budget.trace_room(launch.trace, budget.max_stepper_steps)),
        addr_buf: Vec::with_capacity(64),
        base_buf: Vec::with_capacity(64),
        seg_buf: Vec::with_capacity(64),
        rows: semantics::Rows::default(),
        step_texts: StepTexts::default(),
        stack_cache: StackCache::default(),
        issued: 0,
        cycles: 0,
        last_issued: None,
        turn: 0,
        unfinished: 0,
        resident_list: Vec::new(),
        block_freed: false,
        last_warp_issues: budget.issue_room(launch.trace, total_warps),
    };
    e.main_loop(shared_bytes)?;
    Ok(e.finish())
}

impl Engine<'_> {
    fn dispatch(&mut self, cycle: u64, shared_bytes: u32) {
        let ws = self.machine.warp_size as usize;
        while self.next_block < self.blocks_total
            && self.resident + self.warps_per_block <= u64::from(self.machine.warps_per_sm)
        {
            let b = self.next_block;
            self.next_block += 1;
            let ctaid = self.launch.block_index(b);
            let block_index = self.blocks.len();
            let mut members = Vec::new();
            for w in 0..self.warps_per_block {
                let mut mask = 0u64;
                let mut tid = Vec::with_capacity(ws);
                for lane in 0..ws as u64 {
                    let (id, exists) = self.launch.thread_index(w * ws as u64 + lane);
                    mask |= u64::from(exists) << lane;
                    tid.push(id);
                }
                let id = (b * self.warps_per_block + w) as u32;
                members.push(self.warps.len());
                self.resident_list.push(self.warps.len());
                let stack = PdomStack::new(mask, self.p.code.len());
                if !stack.is_empty() {
                    self.unfinished += 1;
                }
                self.warps.push(Warp {
                    id,
                    block: block_index,
                    regs: Regs::new(ws, self.p.registers),
                    ids: Ids {
                        tid,
                        ntid: self.launch.block,
                        ctaid,
                        nctaid: self.launch.grid,
                        warp_in_block: w as u32,
                    },
                    next_issue: cycle,
                    ready: vec![0; self.p.registers],
                    class_free: [0; 9],
                    wake: 0,
                    at_barrier: false,
                    done: stack.is_empty(),
                    stack,
                    timeline: WarpTimeline {
                        warp: id,
                        block: b as u32,
                        warp_in_block: w as u32,
                        dispatched: cycle,
                        finished: cycle,
                        issues: Vec::with_capacity(self.last_warp_issues.min(1 << 16)),
                        stack_depth: vec![DepthChange {
                            cycle,
                            depth: usize::from(mask != 0),
                        }],
                    },
                });
            }
            let live = members.iter().filter(|&&w| !self.warps[w].done).count() as u32;
            self.blocks.push(Block {
                shared: SharedMemory::new(shared_bytes),
                live,
                arrived: 0,
                warps: members,
            });
            self.resident += self.warps_per_block;
        }
    }

    /// A lower bound on the cycle warp `w` can issue at.
    fn earliest(&self, w: usize) -> u64 {
        let warp = &self.warps[w];
        let mut t = warp.next_issue;
        let Some(top) = warp.stack.top() else {
            return t;
        };
        if let (Some(Ok(ex)), Some(st)) = (
            self.p.code.get(top.pc).map(|d| d.exec.as_ref()),
            self.statics.get(top.pc),
        ) {
            for &r in ex.reads.iter().chain(&ex.writes) {
                t = t.max(warp.ready.get(r as usize).copied().unwrap_or(0));
            }
            t = t.max(warp.class_free[st.class_idx]);
            t = t.max(
                self.lane_free[st.unit_idx]
                    .iter()
                    .copied()
                    .min()
                    .unwrap_or(0),
            );
        }
        t
    }

    /// The same loop as the SASS engine's (`engine.rs`): warps that cannot issue before
    /// their wake-up cycle are skipped, and a cycle in which nothing issues jumps to the
    /// soonest wake-up of any resident warp.
    fn main_loop(&mut self, shared_bytes: u32) -> Result<(), SimError> {
        let mut order = Vec::new();
        let mut live = Vec::new();
        let mut cycle = 0u64;
        let pure = self.machine.scheduler == Scheduler::PureRoundRobin;
        loop {
            self.dispatch(cycle, shared_bytes);
            if self.unfinished == 0 && self.next_block >= self.blocks_total {
                return Ok(());
            }
            if cycle > self.budget.max_cycles {
                return Err(SimError::budget(
                    "max_cycles",
                    self.budget.max_cycles,
                    &format!("cycle {cycle}"),
                ));
            }
            live.clear();
            live.extend(
                self.resident_list
                    .iter()
                    .copied()
                    .filter(|&i| !self.warps[i].done && !self.warps[i].at_barrier),
            );
            scheduler::order(
                self.machine.scheduler,
                &live,
                self.last_issued,
                self.turn,
                &mut order,
            );
            if order.is_empty() {
                return Err(SimError::request(format!(
                    "deadlock at cycle {cycle}: every resident warp waits at a barrier"
                )));
            }
            let mut issued = 0u32;
            for &w in &order {
                if issued >= self.machine.issue_width {
                    break;
                }
                if self.warps[w].done || self.warps[w].at_barrier {
                    continue;
                }
                if self.warps[w].wake <= cycle && self.try_issue(w, cycle)? {
                    issued += 1;
                    self.last_issued = Some(w);
                    if pure {
                        self.turn = w + 1;
                    }
                } else {
                    if self.warps[w].wake <= cycle {
                        self.warps[w].wake = self.earliest(w);
                    }
                    if pure {
                        break;
                    }
                }
            }
            let next = if (issued > 0 && pure) || std::mem::take(&mut self.block_freed) {
                cycle + 1
            } else {
                // See the SASS engine: every resident warp's wake-up, not just this cycle's
                // candidates (a warp released from a barrier was not among them).
                let soonest = if pure {
                    order
                        .iter()
                        .find(|&&w| !self.warps[w].done && !self.warps[w].at_barrier)
                        .map(|&w| self.warps[w].wake)
                } else {
                    self.resident_list
                        .iter()
                        .filter(|&&w| !self.warps[w].done && !self.warps[w].at_barrier)
                        .map(|&w| self.warps[w].wake)
                        .min()
                };
                soonest.unwrap_or(cycle + 1).max(cycle + 1)
            };
            cycle = next;
        }
    }

    fn try_issue(&mut self, w: usize, cycle: u64) -> Result<bool, SimError> {
        let Some(top) = self.warps[w].stack.top() else {
            return Ok(false);
        };
        let pc = top.pc;
        let code = self.p.code;
        let Some(d) = code.get(pc) else {
            let span = code.last().map_or(isa::Span::default(), |i| i.span);
            return Err(SimError::at(
                span,
                format!(
                    "warp {} fell off the end of the kernel (no ret/exit)",
                    self.warps[w].id
                ),
            ));
        };
        let ex = match &d.exec {
            Ok(x) => x,
            Err(msg) => return Err(SimError::at(d.span, msg.clone())),
        };
        let Some(st) = self.statics.get(pc) else {
            return Ok(false);
        };
        let (unit, ui, k) = (st.unit, st.unit_idx, st.cycles);
        let (latency_class, interval, class_idx) = (st.latency, st.interval, st.class_idx);
        {
            let warp = &self.warps[w];
            if warp.next_issue > cycle || warp.class_free[class_idx] > cycle {
                return Ok(false);
            }
            for &r in ex.reads.iter().chain(&ex.writes) {
                if warp.ready.get(r as usize).copied().unwrap_or(0) > cycle {
                    return Ok(false);
                }
            }
        }
        let Some(lane) = self.lane_free[ui].iter().position(|&f| f <= cycle) else {
            return Ok(false);
        };
        self.issued += 1;
        if self.issued > self.budget.max_steps {
            return Err(SimError::budget(
                "max_steps",
                self.budget.max_steps,
                "the number of issued warp-instructions",
            ));
        }
        let ws = self.machine.warp_size as u8;
        let exec = self.warps[w].regs.pred_mask(ex.guard, top.mask);
        let trace = self.launch.trace;
        if trace && self.warps[w].id == self.launch.stepper_warp {
            if self.steps.len() >= self.budget.max_stepper_steps {
                return Err(SimError::budget(
                    "max_stepper_steps",
                    self.budget.max_stepper_steps,
                    "the stepper's steps",
                ));
            }
            let stack = self
                .stack_cache
                .get(self.warps[w].stack.entries().iter().map(|e| StackView {
                    // A PDOM entry waiting for its paths is a reconvergence (SYNC-like)
                    // entry; a path or the bottom entry is NIL.
                    tag: if e.reconvergence { Tag::Sync } else { Tag::Nil },
                    pc: e.pc,
                    address: isa::ptx::Function::pc(e.pc),
                    reconverges_at: e.rpc.map(isa::ptx::Function::pc),
                    mask: LaneMask {
                        bits: e.mask,
                        lanes: ws,
                    },
                }));
            self.steps.push(Step {
                cycle,
                index: pc,
                address: isa::ptx::Function::pc(pc),
                line: d.span.line,
                text: self.step_texts.get(pc, &d.text),
                active: LaneMask {
                    bits: top.mask,
                    lanes: ws,
                },
                executed: LaneMask {
                    bits: exec,
                    lanes: ws,
                },
                stack,
            });
        }
        let mut latency = latency_class;
        match &ex.op {
            Op::Load { .. } | Op::Store { .. } => {
                latency = self
                    .memory_op(w, pc, &ex.op, exec, cycle, latency_class)
                    .map_err(|m| SimError::at(d.span, m))?;
            }
            op => {
                let warp = &mut self.warps[w];
                semantics::execute(op, &mut warp.regs, &warp.ids, exec, &mut self.rows).map_err(
                    |m| SimError::at(d.span, format!("cannot simulate {}: {m}", d.text)),
                )?;
            }
        }
        let complete = cycle + k - 1 + latency;
        self.cycles = self.cycles.max(complete);
        if let Some(f) = self.lane_free[ui].get_mut(lane) {
            *f = cycle + k;
        }
        {
            let warp = &mut self.warps[w];
            warp.next_issue = cycle + k;
            warp.class_free[class_idx] = cycle + interval;
            for &r in &ex.writes {
                if let Some(x) = warp.ready.get_mut(r as usize) {
                    *x = complete;
                }
            }
        }
        if trace {
            if self.recorded >= self.budget.max_timeline_entries {
                return Err(SimError::budget(
                    "max_timeline_entries",
                    self.budget.max_timeline_entries,
                    "the number of timeline entries",
                ));
            }
            self.recorded += 1;
            if let Some(v) = self.occupancy[ui].get_mut(lane) {
                match v.last_mut() {
                    Some(b) if b.end == cycle => b.end = cycle + k,
                    _ => v.push(Busy {
                        start: cycle,
                        end: cycle + k,
                    }),
                }
            }
            self.warps[w].timeline.issues.push(Issue {
                index: pc as u32,
                line: d.span.line,
                issue: cycle,
                complete,
                active: top.mask,
                executed: exec,
                lanes: ws,
                unit,
                lane: lane as u16,
            });
        }
        // Control (PDOM stack, see `pdom_stack`).
        let next = pc + 1;
        let id = self.warps[w].id;
        let warp = &mut self.warps[w];
        match ex.ctl {
            Ctl::Next => warp.stack.advance(next),
            Ctl::Branch { target, uniform } => {
                if uniform && exec != 0 && exec != top.mask {
                    return Err(SimError::at(
                        d.span,
                        format!(
                            "cannot simulate {}: `bra.uni` diverged in warp {id} (the program promised a uniform branch)",
                            d.text
                        ),
                    ));
                }
                let rpc = self.p.ipdom.get(pc).copied().flatten();
                warp.stack.branch(exec, target, next, rpc);
            }
            Ctl::Exit => warp.stack.exit(exec, next),
        }
        let depth = warp.stack.depth();
        if depth > self.budget.max_stack_depth {
            return Err(SimError::budget(
                "max_stack_depth",
                self.budget.max_stack_depth,
                &format!("warp {id}'s reconvergence stack depth {depth}"),
            ));
        }
        if trace && warp.timeline.stack_depth.last().map(|c| c.depth) != Some(depth) {
            warp.timeline.stack_depth.push(DepthChange {
                cycle: cycle + 1,
                depth,
            });
        }
        if depth == 0 {
            warp.done = true;
            self.unfinished -= 1;
            self.last_warp_issues = warp.timeline.issues.len();
            warp.regs.values = Vec::new();
            warp.ready = Vec::new();
            warp.timeline.finished = complete;
            self.resident_list.retain(|&i| i != w);
            let b = warp.block;
            self.blocks[b].live = self.blocks[b].live.saturating_sub(1);
            if self.blocks[b].live == 0 {
                self.resident -= self.warps_per_block;
                self.block_freed = true;
            } else {
                self.release_barrier(b, cycle);
            }
        } else if matches!(ex.op, Op::Barrier) {
            warp.at_barrier = true;
            let b = warp.block;
            self.blocks[b].arrived += 1;
            self.release_barrier(b, cycle);
        } else {
            // When the next instruction can issue at the earliest (see the SASS engine).
            self.warps[w].wake = if complete > cycle + k {
                self.earliest(w)
            } else {
                cycle + k
            };
        }
        Ok(true)
    }

    fn release_barrier(&mut self, b: usize, cycle: u64) {
        let block = &mut self.blocks[b];
        if block.arrived == 0 || block.arrived < block.live {
            return;
        }
        block.arrived = 0;
        for &w in &block.warps {
            let warp = &mut self.warps[w];
            if warp.at_barrier {
                warp.at_barrier = false;
                warp.next_issue = warp.next_issue.max(cycle + 1);
            }
        }
    }

    /// Executes a load or store for the lanes `exec`; returns its latency.
    fn memory_op(
        &mut self,
        w: usize,
        pc: usize,
        op: &Op,
        exec: u64,
        cycle: u64,
        class_latency: u64,
    ) -> Result<u64, String> {
        let (space, ty, addr, store) = match op {
            Op::Load {
                space, ty, addr, ..
            } => (*space, *ty, *addr, false),
            Op::Store {
                space, ty, addr, ..
            } => (*space, *ty, *addr, true),
            _ => return Err("not a memory operation".into()),
        };
        let bytes = u64::from(ty.bytes());
        let width = match op {
            Op::Load { ds, .. } => ds.len(),
            Op::Store { vs, .. } => vs.len(),
            _ => 1,
        } as u64;
        let block = self.warps[w].block;
        // Each lane's first address (reported) and, for vector accesses, every element
        // address (for coalescing). Reused from one access to the next (two growing vectors
        // per access were a tenth of a run); an access that fails leaves fresh ones behind.
        let mut addrs = std::mem::take(&mut self.addr_buf);
        let mut bases = std::mem::take(&mut self.base_buf);
        addrs.clear();
        bases.clear();
        match addr {
            Addr::Reg(r, off) => {
                let regs = &self.warps[w].regs;
                let at = r as usize * regs.ws;
                match regs.values.get(at..at + regs.ws) {
                    Some(row) if exec == semantics::full_mask(row.len()) => bases.extend(
                        row.iter()
                            .enumerate()
                            .map(|(lane, &v)| (lane, v.wrapping_add_signed(off))),
                    ),
                    Some(row) => bases
                        .extend(lanes(exec).map(|lane| (lane, row[lane].wrapping_add_signed(off)))),
                    None => {
                        bases.extend(lanes(exec).map(|lane| (lane, 0u64.wrapping_add_signed(off))))
                    }
                }
            }
            Addr::Abs(a) => bases.extend(lanes(exec).map(|lane| (lane, a))),
        }
        // One aligned word per lane inside one array (or the block's shared memory): index
        // the words directly. Anything else takes the per-lane path, which also reports
        // misaligned and stray accesses.
        let mut done = false;
        if width == 1 && bytes == 4 {
            let window = match space {
                Space::Global => self.memory.window(&bases, 4),
                Space::Shared => self.blocks[block].shared.window(&bases, 4),
                Space::Param => None,
            };
            if let Some((start, words)) = window {
                let warp = &mut self.warps[w];
                let at = |a: u64| ((a - start) / 4) as usize;
                let ws = warp.regs.ws;
                match op {
                    Op::Store { vs, .. } => {
                        let v = match vs[0] {
                            // The register's row in place; other sources through a row.
                            super::program::Src::Reg(r) => warp
                                .regs
                                .values
                                .get(r as usize * ws..(r as usize + 1) * ws)
                                .unwrap_or(&[]),
                            src => self.rows.row_of(src, &warp.regs, &warp.ids),
                        };
                        for &(lane, a) in &bases {
                            words[at(a)] = v.get(lane).copied().unwrap_or(0) as u32;
                        }
                    }
                    Op::Load { ds, .. } => {
                        let row = ds.first().copied().flatten().and_then(|d| {
                            warp.regs
                                .values
                                .get_mut(d as usize * ws..(d as usize + 1) * ws)
                        });
                        if let Some(row) = row {
                            let signed = ty.is_signed();
                            for &(lane, a) in &bases {
                                let v = u64::from(words[at(a)]);
                                let v = if signed {
                                    v as u32 as i32 as i64 as u64
                                } else {
                                    v
                                };
                                if let Some(x) = row.get_mut(lane) {
                                    *x = v;
                                }
                            }
                        }
                    }
                    _ => {}
                }
                done = true;
            }
        }
        for &(lane, base) in bases.iter().filter(|_| !done) {
            for k in 0..width {
                let a = base.wrapping_add(k * bytes);
                let mut words = [0u32; 2];
                if store {
                    let Op::Store { vs, .. } = op else {
                        return Err("not a store".into());
                    };
                    let warp = &self.warps[w];
                    let v = semantics::read(vs[k as usize], &warp.regs, &warp.ids, lane);
                    words = [v as u32, (v >> 32) as u32];
                    match space {
                        Space::Global => self.memory.write(a, bytes, &words)?,
                        Space::Shared => self.blocks[block].shared.write(a, bytes, &words)?,
                        Space::Param => return Err("stores to parameters".into()),
                    }
                } else {
                    let v = match space {
                        Space::Global => {
                            self.memory.read(a, bytes, &mut words)?;
                            u64::from(words[0]) | u64::from(words[1]) << 32
                        }
                        Space::Shared => {
                            self.blocks[block].shared.read(a, bytes, &mut words)?;
                            u64::from(words[0]) | u64::from(words[1]) << 32
                        }
                        Space::Param => super::layout::Layout::read_param(
                            &self.launch.params,
                            a,
                            bytes,
                        )
                        .ok_or_else(|| {
                            format!(
                                "parameter bytes {a}..{} are not in the launch's {} parameter words (parameters are laid out in declaration order at their alignment)",
                                a.saturating_add(bytes),
                                self.launch.params.len()
                            )
                        })?,
                    };
                    let v = if bytes < 8 {
                        v & ((1u64 << (bytes * 8)) - 1)
                    } else {
                        v
                    };
                    // Sub-word signed loads sign-extend into the register.
                    let v = if ty.is_signed() && bytes < 8 {
                        let s = 64 - bytes * 8;
                        (((v << s) as i64) >> s) as u64
                    } else {
                        v
                    };
                    if let Op::Load { ds, .. } = op {
                        if let Some(Some(d)) = ds.get(k as usize) {
                            self.warps[w].regs.set(*d, lane, v);
                        }
                    }
                }
                if width > 1 {
                    addrs.push((lane, a));
                }
            }
        }
        if space == Space::Param {
            self.addr_buf = addrs;
            self.base_buf = bases;
            return Ok(class_latency);
        }
        // Element addresses: a scalar access's are the lanes' addresses.
        let elems = if width == 1 { &bases } else { &addrs };
        // 128-byte segments are how global memory is accessed; shared memory is banked.
        let mut segs = std::mem::take(&mut self.seg_buf);
        segs.clear();
        if space == Space::Global {
            coalescing::segments(elems.iter().map(|&(_, a)| a), bytes, &mut segs);
        }
        let mut l1_hits = None;
        let mut latency = class_latency;
        if elems.is_empty() {
            latency = 1;
        } else if space == Space::Global && !store {
            if let (Some(cache), Some(cfg)) = (self.l1.as_mut(), self.machine.l1.as_ref()) {
                let hits = segs.iter().filter(|&&s| cache.access(s)).count() as u32;
                self.l1_stats.hits += u64::from(hits);
                self.l1_stats.misses += segs.len() as u64 - u64::from(hits);
                if hits as usize == segs.len() {
                    latency = u64::from(cfg.hit_latency.max(1));
                }
                l1_hits = Some(hits);
            }
        }
        if space == Space::Global && !segs.is_empty() {
            latency += (segs.len() as u64 - 1) * u64::from(self.machine.transaction_cycles);
        }
        if !self.launch.trace {
            self.addr_buf = addrs;
            self.base_buf = bases;
            self.seg_buf = segs;
            return Ok(latency);
        }
        if self.transactions.len() >= self.budget.max_timeline_entries {
            return Err(format!(
                "more memory transactions than the budget max_timeline_entries = {} (raise max_timeline_entries)",
                self.budget.max_timeline_entries
            ));
        }
        let first = bases.first().map_or(0, |&(_, a)| a);
        let stride = match bases.get(1) {
            None => Some(0),
            Some(&(_, b)) => {
                let d = b.wrapping_sub(first) as i64;
                bases
                    .iter()
                    .enumerate()
                    .all(|(k, &(_, a))| a == first.wrapping_add_signed(d.wrapping_mul(k as i64)))
                    .then_some(d)
            }
        };
        self.transactions.push(Transaction {
            warp: self.warps[w].id,
            index: pc,
            cycle,
            space: if space == Space::Global {
                "global"
            } else {
                "shared"
            },
            store,
            bytes: bytes * width,
            lanes: LaneMask {
                bits: exec,
                lanes: self.machine.warp_size as u8,
            },
            first,
            stride,
            addresses: if stride.is_some() {
                Vec::new()
            } else {
                bases.iter().map(|&(_, a)| a).collect()
            },
            segments: segs.clone(),
            l1_hits,
        });
        self.addr_buf = addrs;
        self.base_buf = bases;
        self.seg_buf = segs;
        Ok(latency)
    }

    fn finish(self) -> Simulation {
        let mut per_unit = self.occupancy;
        let occupancy = unit_lanes(|u| std::mem::take(&mut per_unit[unit_index(u)]));
        let mut warps: Vec<WarpTimeline> = self.warps.into_iter().map(|w| w.timeline).collect();
        warps.sort_by_key(|t| t.warp);
        Simulation {
            cycles: self.cycles,
            issued: self.issued,
            machine: self.machine.clone(),
            warps,
            occupancy,
            transactions: self.transactions,
            memory: self.memory.finish(),
            stepper: Stepper {
                warp: self.launch.stepper_warp,
                steps: self.steps,
            },
            l1: self.l1.map(|_| self.l1_stats),
        }
    }
}
