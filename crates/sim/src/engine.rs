//! The cycle loop: block dispatch, warp scheduling, issue with a scoreboard and unit lanes,
//! functional execution and the activation stack (issue #7 items 3–6).
//!
//! Timing model, per cycle `t`:
//! - a warp can issue its next instruction when `t` is at least its next issue slot, every
//!   register the instruction reads or writes (guard included) has been written back
//!   (scoreboard: RAW and WAW), its timing class accepted the warp's previous instruction of
//!   that class at least `interval` cycles ago, and a lane of the instruction's unit is free;
//! - the scheduler orders the candidates and issues up to `issue_width` of them;
//! - an instruction on a unit with `σ` lanes and `k` cycles per warp-instruction (the sigma
//!   transformation, Berezovskyi et al. §3) occupies one lane for `t..t+k`; the warp's next
//!   issue slot is `t + k`; its result is written back at `t + k - 1 + latency`, where a
//!   memory instruction's latency is the class latency (or the L1 hit latency when every
//!   segment of a load hits) plus `transaction_cycles` per segment after the first;
//! - the run's observed cycles are the latest write-back. With all latencies 1 and `k = 1`
//!   a lone warp issues one instruction per cycle, so cycles = issued instructions.

use crate::activation_stack::ActivationStack;
use crate::budget::Budget;
use crate::coalescing;
use crate::decode::{self, Control, Decoded, Op, Space, SLOTS};
use crate::error::SimError;
use crate::l1_cache::L1Cache;
use crate::launch::Launch;
use crate::machine::{Machine, Scheduler, Unit};
use crate::memory::{GlobalMemory, MemoryInit, SharedMemory};
use crate::scheduler;
use crate::semantics::{self, ThreadIds, WarpRegs};
use crate::simulation::unit_lanes;
use crate::simulation::{
    Busy, CacheStats, DepthChange, Issue, LaneMask, Simulation, StackView, Step, Stepper,
    Transaction, WarpTimeline,
};
use crate::step_cache::{StackCache, StepTexts};
use crate::timing_facts::Timing;
use cfg::TimingClass;
use isa::{Kernel, Span};

struct Warp {
    id: u32,
    block: usize,
    regs: WarpRegs,
    ids: ThreadIds,
    stack: ActivationStack,
    next_issue: u64,
    ready: Vec<u64>,
    class_free: [u64; 9],
    /// A lower bound on the next cycle this warp can issue, set when an issue attempt
    /// fails (only other warps' issues change it later, and they only delay it): the main
    /// loop skips the warp until then instead of re-checking its scoreboard every cycle.
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

/// `Some(d)` when the `k`-th address is `first + k·d` for every `k`.
fn affine_stride(addrs: &[(usize, u64)]) -> Option<i64> {
    let (first, second) = match addrs {
        [] => return Some(0),
        [_] => return Some(0),
        [a, b, ..] => (a.1, b.1),
    };
    let d = second.wrapping_sub(first) as i64;
    addrs
        .iter()
        .enumerate()
        .all(|(k, &(_, a))| a == first.wrapping_add_signed(d.wrapping_mul(k as i64)))
        .then_some(d)
}

struct PerUnit<T> {
    core: T,
    ls: T,
    sfu: T,
}

impl<T> PerUnit<T> {
    fn get(&self, u: Unit) -> &T {
        match u {
            Unit::Core => &self.core,
            Unit::LoadStore => &self.ls,
            Unit::Sfu => &self.sfu,
        }
    }
    fn get_mut(&mut self, u: Unit) -> &mut T {
        match u {
            Unit::Core => &mut self.core,
            Unit::LoadStore => &mut self.ls,
            Unit::Sfu => &mut self.sfu,
        }
    }
}

/// Runs `kernel`; see [`crate::run`].
pub fn run(
    kernel: &Kernel,
    launch: &Launch,
    machine: &Machine,
    init: &MemoryInit,
    budget: &Budget,
) -> Result<Simulation, SimError> {
    machine.validate().map_err(SimError::request)?;
    if kernel.instructions.is_empty() {
        return Err(SimError::request("the kernel has no instructions"));
    }
    if kernel.dialect != isa::Dialect::Sass {
        return Err(SimError::request(format!(
            "the simulator runs SASS kernels only; `{}` is not simulated yet",
            kernel.dialect.name()
        )));
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
    let ws = machine.warp_size as u64;
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
    let shared_words = u64::from(launch.shared_bytes).div_ceil(4);
    let resident_blocks = (u64::from(machine.warps_per_sm) / warps_per_block).min(blocks_total);
    if shared_words.saturating_mul(resident_blocks) > budget.max_memory_words {
        return Err(SimError::budget(
            "max_memory_words",
            budget.max_memory_words,
            &format!(
                "{resident_blocks} resident blocks × {} bytes of shared memory",
                launch.shared_bytes
            ),
        ));
    }
    let memory = GlobalMemory::new(init, budget.max_memory_words).map_err(SimError::request)?;
    let decoded = decode::decode(kernel, launch);
    let statics: Vec<Timing> = kernel
        .instructions
        .iter()
        .map(|ins| Timing::of(machine, TimingClass::of(ins)))
        .collect();
    let lanes = PerUnit {
        core: machine.lanes_and_cycles(Unit::Core).0,
        ls: machine.lanes_and_cycles(Unit::LoadStore).0,
        sfu: machine.lanes_and_cycles(Unit::Sfu).0,
    };
    let mut sim = Engine {
        kernel,
        launch,
        machine,
        budget,
        decoded: &decoded,
        statics: &statics,
        memory,
        l1: machine.l1.as_ref().map(L1Cache::new),
        l1_stats: CacheStats { hits: 0, misses: 0 },
        warps: Vec::new(),
        blocks: Vec::new(),
        next_block: 0,
        blocks_total,
        warps_per_block,
        resident: 0,
        lane_free: PerUnit {
            core: vec![0; lanes.core as usize],
            ls: vec![0; lanes.ls as usize],
            sfu: vec![0; lanes.sfu as usize],
        },
        occupancy: PerUnit {
            core: vec![Vec::new(); lanes.core as usize],
            ls: vec![Vec::new(); lanes.ls as usize],
            sfu: vec![Vec::new(); lanes.sfu as usize],
        },
        recorded: 0,
        transactions: Vec::with_capacity(
            budget.trace_room(launch.trace, budget.max_timeline_entries),
        ),
        steps: Vec::with_capacity(budget.trace_room(launch.trace, budget.max_stepper_steps)),
        issued: 0,
        cycles: 0,
        last_issued: None,
        turn: 0,
        addr_buf: Vec::with_capacity(64),
        seg_buf: Vec::with_capacity(64),
        alu: semantics::AluScratch::default(),
        block_freed: false,
        step_texts: StepTexts::default(),
        stack_cache: StackCache::default(),
        live_buf: Vec::new(),
        gprs: kernel
            .instructions
            .iter()
            .flat_map(|i| i.reads.iter().chain(&i.writes))
            .filter_map(|r| match r {
                isa::Register::Gpr(n) => Some(*n as usize + 4),
                _ => None,
            })
            .max()
            .unwrap_or(4),
        resident_list: Vec::new(),
        last_warp_issues: budget.issue_room(launch.trace, total_warps),
        unfinished: 0,
    };
    sim.main_loop()?;
    Ok(sim.finish())
}

struct Engine<'a> {
    kernel: &'a Kernel,
    launch: &'a Launch,
    machine: &'a Machine,
    budget: &'a Budget,
    decoded: &'a [Result<Decoded, (Span, String)>],
    statics: &'a [Timing],
    memory: GlobalMemory,
    l1: Option<L1Cache>,
    l1_stats: CacheStats,
    warps: Vec<Warp>,
    blocks: Vec<Block>,
    next_block: u64,
    blocks_total: u64,
    warps_per_block: u64,
    resident: u64,
    lane_free: PerUnit<Vec<u64>>,
    occupancy: PerUnit<Vec<Vec<Busy>>>,
    recorded: usize,
    transactions: Vec<Transaction>,
    steps: Vec<Step>,
    issued: u64,
    cycles: u64,
    /// Warp (index into `warps`) that issued last, for the greedy and round-robin orders.
    last_issued: Option<usize>,
    /// Pure round-robin: the warp (index = id) whose turn it is.
    turn: usize,
    addr_buf: Vec<(usize, u64)>,
    seg_buf: Vec<u64>,
    /// Operand rows reused by every ALU instruction.
    alu: semantics::AluScratch,
    /// A block finished this cycle: its slot may take the next block at once.
    block_freed: bool,
    step_texts: StepTexts,
    stack_cache: StackCache,
    live_buf: Vec<usize>,
    /// Registers per warp: the kernel's highest general register + 4.
    gprs: usize,
    /// Dispatched warps that have not finished, in id order.
    resident_list: Vec<usize>,
    last_warp_issues: usize,
    /// Dispatched warps that have not finished.
    unfinished: usize,
}

impl Engine<'_> {
    fn dispatch(&mut self, cycle: u64) {
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
                let stack = ActivationStack::new(mask);
                if !stack.is_empty() {
                    self.unfinished += 1;
                }
                self.warps.push(Warp {
                    id,
                    block: block_index,
                    regs: WarpRegs::new(ws, self.gprs),
                    ids: ThreadIds { tid, ctaid },
                    next_issue: cycle,
                    ready: vec![0; SLOTS],
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
                        // Warps of one kernel usually issue similar numbers of instructions:
                        // reserving the last finished warp's count avoids regrowth copies.
                        issues: Vec::with_capacity(self.last_warp_issues.min(1 << 16)),
                        stack_depth: vec![DepthChange {
                            cycle,
                            depth: usize::from(mask != 0),
                        }],
                    },
                });
            }
            let live = members.len() as u32;
            self.blocks.push(Block {
                shared: SharedMemory::new(self.launch.shared_bytes),
                live,
                arrived: 0,
                warps: members,
            });
            self.resident += self.warps_per_block;
        }
    }

    /// Indices of the warps that may issue, in the scheduler's order of preference.
    fn order(&mut self, out: &mut Vec<usize>) {
        let mut live = std::mem::take(&mut self.live_buf);
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
            out,
        );
        self.live_buf = live;
    }

    /// The earliest cycle at which warp `w` could issue its next instruction (a lower bound).
    fn earliest(&self, w: usize) -> u64 {
        let warp = &self.warps[w];
        let mut t = warp.next_issue;
        let Some(top) = warp.stack.top() else {
            return t;
        };
        if let (Some(Ok(d)), Some(st)) = (self.decoded.get(top.pc), self.statics.get(top.pc)) {
            for &s in d.reads.iter().chain(&d.writes) {
                t = t.max(warp.ready[s as usize]);
            }
            t = t.max(warp.class_free[st.class_idx]);
            let free = self
                .lane_free
                .get(st.unit)
                .iter()
                .copied()
                .min()
                .unwrap_or(0);
            t = t.max(free);
        }
        t
    }

    fn main_loop(&mut self) -> Result<(), SimError> {
        let mut order = Vec::new();
        let mut cycle = 0u64;
        loop {
            self.dispatch(cycle);
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
            self.order(&mut order);
            if order.is_empty() {
                return Err(SimError::request(format!(
                    "deadlock at cycle {cycle}: every resident warp waits at a barrier"
                )));
            }
            let mut issued = 0u32;
            let pure = self.machine.scheduler == Scheduler::PureRoundRobin;
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
                // A freed block slot is filled at the next cycle's dispatch.
                cycle + 1
            } else {
                // Jump to the soonest wake-up cycle (a lower bound on the next issue) of every
                // resident warp — not just this cycle's candidates: a warp released from a
                // barrier during this cycle was not among them. Warps record it after issuing
                // and after failing to; one not offered a slot (issue width reached) still
                // has a wake-up cycle ≤ this one, which keeps `next` at `cycle + 1`. Pure
                // round-robin waits for the warp whose turn it is.
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

    /// Issues warp `w`'s next instruction at `cycle` if it can; `Ok(false)` if it must wait.
    fn try_issue(&mut self, w: usize, cycle: u64) -> Result<bool, SimError> {
        let Some(top) = self.warps[w].stack.top() else {
            return Ok(false);
        };
        let pc = top.pc;
        let Some(ins) = self.kernel.instructions.get(pc) else {
            let span = self
                .kernel
                .instructions
                .last()
                .map_or(Span::default(), |i| i.span);
            return Err(SimError::at(
                span,
                format!(
                    "warp {} fell off the end of the kernel (no EXIT)",
                    self.warps[w].id
                ),
            ));
        };
        let decoded = self.decoded;
        let d = match &decoded[pc] {
            Ok(d) => d,
            Err((span, msg)) => return Err(SimError::at(*span, msg.clone())),
        };
        let statics = self.statics;
        let st = &statics[pc];
        // Readiness.
        {
            let warp = &self.warps[w];
            if warp.next_issue > cycle || warp.class_free[st.class_idx] > cycle {
                return Ok(false);
            }
            for &s in d.reads.iter().chain(&d.writes) {
                if warp.ready[s as usize] > cycle {
                    return Ok(false);
                }
            }
        }
        let Some(lane) = self.lane_free.get(st.unit).iter().position(|&f| f <= cycle) else {
            return Ok(false);
        };
        // Issue.
        self.issued += 1;
        if self.issued > self.budget.max_steps {
            return Err(SimError::budget(
                "max_steps",
                self.budget.max_steps,
                "the number of issued warp-instructions",
            ));
        }
        let ws = self.machine.warp_size as u8;
        let guard = d.guard;
        let exec = self.warps[w].regs.pred_mask(guard, top.mask);
        let trace = self.launch.trace;
        let stepper = trace && self.warps[w].id == self.launch.stepper_warp;
        if stepper {
            if self.steps.len() >= self.budget.max_stepper_steps {
                return Err(SimError::budget(
                    "max_stepper_steps",
                    self.budget.max_stepper_steps,
                    "the stepper's steps",
                ));
            }
            let kernel = self.kernel;
            let stack = self
                .stack_cache
                .get(self.warps[w].stack.entries().iter().map(|e| StackView {
                    reconverges_at: None,
                    tag: e.tag,
                    pc: e.pc,
                    address: kernel.instructions.get(e.pc).map_or(0, |i| i.address),
                    mask: LaneMask {
                        bits: e.mask,
                        lanes: ws,
                    },
                }));
            self.steps.push(Step {
                cycle,
                index: pc,
                address: ins.address,
                line: ins.span.line,
                text: self.step_texts.get(pc, &ins.text),
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
        // Data effect.
        let mut latency = st.latency;
        match &d.op {
            Op::Load { .. } | Op::Store { .. } => {
                latency = self
                    .memory_op(w, pc, exec, cycle, st.latency)
                    .map_err(|m| SimError::at(ins.span, m))?;
            }
            Op::Barrier => {}
            op => {
                let warp = &mut self.warps[w];
                semantics::execute_alu(op, &mut warp.regs, &warp.ids, exec, &mut self.alu)
                    .map_err(|m| {
                        SimError::at(
                            ins.span,
                            format!("cannot simulate {}: {m}", ins.opcode.name),
                        )
                    })?;
            }
        }
        // Timing.
        let complete = cycle + st.cycles - 1 + latency;
        self.cycles = self.cycles.max(complete);
        *self
            .lane_free
            .get_mut(st.unit)
            .get_mut(lane)
            .ok_or_else(|| SimError::request("internal: unit lane out of range"))? =
            cycle + st.cycles;
        {
            let warp = &mut self.warps[w];
            warp.next_issue = cycle + st.cycles;
            warp.class_free[st.class_idx] = cycle + st.interval;
            for &s in &d.writes {
                warp.ready[s as usize] = complete;
            }
        }
        if trace && self.recorded >= self.budget.max_timeline_entries {
            return Err(SimError::budget(
                "max_timeline_entries",
                self.budget.max_timeline_entries,
                "the number of timeline entries",
            ));
        }
        self.recorded += 1;
        let id = self.warps[w].id;
        if let Some(v) = self
            .occupancy
            .get_mut(st.unit)
            .get_mut(lane)
            .filter(|_| trace)
        {
            match v.last_mut() {
                Some(b) if b.end == cycle => b.end = cycle + st.cycles,
                _ => v.push(Busy {
                    start: cycle,
                    end: cycle + st.cycles,
                }),
            }
        }
        if trace {
            self.warps[w].timeline.issues.push(Issue {
                index: pc as u32,
                line: ins.span.line,
                issue: cycle,
                complete,
                active: top.mask,
                executed: exec,
                lanes: ws,
                unit: st.unit,
                lane: lane as u16,
            });
        }
        // Control effect (Jeanmougin et al. §2, as cfg::concrete).
        let next = pc + 1;
        let control = d.control;
        let is_barrier = matches!(d.op, Op::Barrier);
        let warp = &mut self.warps[w];
        match control {
            Control::Next => warp.stack.advance(next),
            Control::Branch { target, uniform } => warp.stack.branch(exec, target, next, uniform),
            Control::Prepare { tag, target } => warp.stack.prepare(tag, target, next),
            Control::Halt(tag) => warp.stack.halt(exec, tag, next),
            Control::Call { target } => warp.stack.call(target, next),
        }
        let depth = warp.stack.depth();
        if depth > self.budget.max_stack_depth {
            return Err(SimError::budget(
                "max_stack_depth",
                self.budget.max_stack_depth,
                &format!("warp {id}'s activation stack depth {depth}"),
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
            // A finished warp keeps only its timeline: registers and scoreboard go.
            warp.regs.gpr = Vec::new();
            warp.ids.tid = Vec::new();
            warp.ready = Vec::new();
            self.resident_list.retain(|&i| i != w);
            warp.timeline.finished = complete;
            let b = warp.block;
            self.blocks[b].live -= 1;
            if self.blocks[b].live == 0 {
                self.resident -= self.warps_per_block;
                self.block_freed = true;
            } else {
                self.release_barrier(b, cycle);
            }
        } else if is_barrier {
            warp.at_barrier = true;
            let b = warp.block;
            self.blocks[b].arrived += 1;
            self.release_barrier(b, cycle);
        } else {
            // When the next instruction can issue at the earliest. Without it the warp is
            // offered the next cycle's slot and usually fails (it depends on what it just
            // issued): a wasted turn of the main loop per issue on long-latency machines.
            // `earliest` is only worth its cost when this result comes after the next issue
            // slot; otherwise that slot is the lower bound.
            self.warps[w].wake = if complete > cycle + st.cycles {
                self.earliest(w)
            } else {
                cycle + st.cycles
            };
        }
        Ok(true)
    }

    /// Releases block `b`'s barrier when every live warp has arrived.
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
        exec: u64,
        cycle: u64,
        class_latency: u64,
    ) -> Result<u64, String> {
        let decoded = self.decoded;
        let Ok(d) = &decoded[pc] else {
            return Err("not decoded".into());
        };
        let (space, addr, bytes, store) = match &d.op {
            Op::Load {
                space, addr, bytes, ..
            } => (*space, *addr, *bytes, false),
            Op::Store {
                space, addr, bytes, ..
            } => (*space, *addr, *bytes, true),
            _ => return Err("not a memory operation".into()),
        };
        let mut addrs = std::mem::take(&mut self.addr_buf);
        semantics::addresses(&addr, &self.warps[w].regs, exec, &mut addrs);
        let block = self.warps[w].block;
        let mut words = [0u32; 4];
        let fast = space == Space::Shared
            && semantics::shared_words_fast(
                &d.op,
                &mut self.warps[w].regs,
                &mut self.blocks[block].shared.words,
                &addrs,
            );
        for &(lane, a) in addrs.iter().filter(|_| !fast) {
            if store {
                semantics::store_words(
                    match &d.op {
                        Op::Store { v, .. } => v,
                        _ => return Err("not a store".into()),
                    },
                    &self.warps[w].regs,
                    lane,
                    bytes,
                    &mut words,
                );
                match space {
                    Space::Global => self.memory.write(a, bytes, &words)?,
                    Space::Shared => self.blocks[block].shared.write(a, bytes, &words)?,
                }
            } else {
                match space {
                    Space::Global => self.memory.read(a, bytes, &mut words)?,
                    Space::Shared => self.blocks[block].shared.read(a, bytes, &mut words)?,
                }
                if let Op::Load {
                    d: dst,
                    sign_extend,
                    ..
                } = d.op
                {
                    semantics::write_loaded(
                        &mut self.warps[w].regs,
                        dst,
                        lane,
                        bytes,
                        sign_extend,
                        &words,
                    );
                }
            }
        }
        if space == Space::Shared && !self.launch.trace {
            // Shared memory has no transactions to coalesce; without a trace to record,
            // only "no active lane" (one cycle) matters.
            let latency = if addrs.is_empty() { 1 } else { class_latency };
            self.addr_buf = addrs;
            return Ok(latency);
        }
        // 128-byte segments are how global memory is accessed; shared memory is banked.
        let mut segs = std::mem::take(&mut self.seg_buf);
        segs.clear();
        if space == Space::Global {
            coalescing::segments(addrs.iter().map(|&(_, a)| a), bytes, &mut segs);
        }
        let mut l1_hits = None;
        let mut latency = class_latency;
        if addrs.is_empty() {
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
            self.seg_buf = segs;
            return Ok(latency);
        }
        if self.transactions.len() >= self.budget.max_timeline_entries {
            return Err(format!(
                "more memory transactions than the budget max_timeline_entries = {} (raise max_timeline_entries)",
                self.budget.max_timeline_entries
            ));
        }
        let stride = affine_stride(&addrs);
        self.transactions.push(Transaction {
            warp: self.warps[w].id,
            index: pc,
            cycle,
            space: match space {
                Space::Global => "global",
                Space::Shared => "shared",
            },
            store,
            bytes,
            lanes: LaneMask {
                bits: exec,
                lanes: self.machine.warp_size as u8,
            },
            first: addrs.first().map_or(0, |&(_, a)| a),
            stride,
            addresses: if stride.is_some() {
                Vec::new()
            } else {
                addrs.iter().map(|&(_, a)| a).collect()
            },
            segments: segs.clone(),
            l1_hits,
        });
        self.addr_buf = addrs;
        self.seg_buf = segs;
        Ok(latency)
    }

    fn finish(self) -> Simulation {
        let mut per_unit = self.occupancy;
        let occupancy = unit_lanes(|u| std::mem::take(per_unit.get_mut(u)));
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
