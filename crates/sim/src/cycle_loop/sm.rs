//! The state of the streaming multiprocessor every front end shares: the launch's shape and
//! the block slots, each warp's scheduling state, unit lanes, global memory and L1, and the
//! trace being recorded (timelines, occupancy, transactions, stepper steps), with the budget
//! checks that guard them.

use super::Request;
use crate::budget::Budget;
use crate::error::SimError;
use crate::l1_cache::L1Cache;
use crate::launch::Launch;
use crate::machine::{Machine, Unit};
use crate::memory::{GlobalMemory, SharedMemory};
use crate::simulation::{
    unit_lanes, Busy, CacheStats, DepthChange, GroupsView, Issue, LaneMask, Simulation, StackView,
    Step, Stepper, Transaction, WarpTimeline,
};
use crate::step_cache::{StackCache, StepTexts};
use crate::timing_facts::Timing;
use isa::progress::{Observer, Progress, Task};

/// What a dialect calls a block, a thread and a warp (in diagnostics).
pub(crate) struct Nouns {
    pub block: &'static str,
    pub blocks: &'static str,
    pub threads: &'static str,
    pub warps: &'static str,
}

/// CUDA's nouns (SASS, PTX, L/C).
pub(crate) const CUDA: Nouns = Nouns {
    block: "block",
    blocks: "blocks",
    threads: "threads",
    warps: "warps",
};

/// The launch's shape, checked against the machine and the budget.
#[derive(Clone, Copy)]
pub(crate) struct Shape {
    pub blocks_total: u64,
    pub warps_per_block: u64,
    pub total_warps: u64,
    /// Blocks resident at once.
    pub resident_blocks: u64,
}

impl Shape {
    /// Checks that the launch fits (dimensions at least 1, at most
    /// `max_blocks` blocks, a block's warps fit the SM, the stepper's warp exists).
    pub(crate) fn of(req: &Request, nouns: &Nouns) -> Result<Shape, SimError> {
        let (launch, machine, budget) = (req.launch, req.machine, req.budget);
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
                &format!("a grid of {blocks_total} {}", nouns.blocks),
            ));
        }
        let ws = u64::from(machine.warp_size);
        let tpb = launch.threads_per_block();
        let warps_per_block = tpb.div_ceil(ws);
        if warps_per_block > u64::from(machine.warps_per_sm) {
            return Err(SimError::request(format!(
                "a {} of {tpb} {} needs {warps_per_block} {}, more than warps_per_sm = {}",
                nouns.block, nouns.threads, nouns.warps, machine.warps_per_sm
            )));
        }
        let total_warps = blocks_total * warps_per_block;
        if u64::from(launch.stepper_warp) >= total_warps {
            return Err(SimError::request(format!(
                "stepper_warp {} does not exist: the launch has {total_warps} {}",
                launch.stepper_warp, nouns.warps
            )));
        }
        launch.gpu.validate().map_err(SimError::request)?;
        let per_sm = launch
            .gpu
            .resident_per_sm(u64::from(machine.warps_per_sm), warps_per_block)
            .max(1);
        let resident_blocks = per_sm
            .saturating_mul(u64::from(launch.gpu.sms))
            .min(blocks_total);
        Ok(Shape {
            blocks_total,
            warps_per_block,
            total_warps,
            resident_blocks,
        })
    }
}

/// Where the stepper's warp issued: the instruction (`pc`, its address, line and text) and
/// its lanes.
pub(crate) struct StepAt<'t> {
    pub cycle: u64,
    pub pc: usize,
    pub address: u64,
    pub line: u32,
    pub text: &'t str,
    pub active: u64,
    pub executed: u64,
}

/// An instruction a warp issued: when, on which lane of its unit (none: a scalar or
/// dedicated unit) for how many cycles, and for which lanes of the warp.
pub(crate) struct IssuedAt {
    pub cycle: u64,
    pub cycles: u64,
    pub lane: Option<usize>,
    pub pc: usize,
    pub line: u32,
    pub active: u64,
    pub executed: u64,
}

/// One warp's scheduling state (a GCN split-wavefront has its own).
pub(crate) struct WarpSched {
    /// Index into [`Sm::blocks`].
    pub block: usize,
    pub next_issue: u64,
    /// Per timing class: the cycle it accepts this warp's next instruction.
    pub class_free: [u64; 9],
    /// A lower bound on the next cycle this warp can issue, set when an issue attempt
    /// fails or after an issue (only other warps' issues change it later, and they only
    /// delay it): the loop skips the warp until then instead of re-checking its scoreboard
    /// every cycle.
    pub wake: u64,
    pub at_barrier: bool,
    pub done: bool,
}

impl WarpSched {
    pub(crate) fn new(block: usize, cycle: u64) -> Self {
        WarpSched {
            block,
            next_issue: cycle,
            class_free: [0; 9],
            wake: 0,
            at_barrier: false,
            done: false,
        }
    }
}

/// One resident block: its shared memory and barrier count.
pub(crate) struct Block {
    pub shared: SharedMemory,
    /// Warps that have not finished (GCN: split-wavefronts).
    pub live: u32,
    pub arrived: u32,
    pub warps: Vec<usize>,
    /// GCN3: hardware wavefronts that have not finished.
    pub hw: u32,
}

impl Block {
    /// A block of `shared_bytes` of shared memory whose warps are `warps`, `live` of them
    /// running (`hw`: GCN3's hardware wavefronts).
    pub(crate) fn new(shared_bytes: u32, warps: Vec<usize>, live: u32, hw: u32) -> Self {
        Block {
            shared: SharedMemory::new(shared_bytes),
            live,
            arrived: 0,
            warps,
            hw,
        }
    }
}

/// What each SM of a several-SM run ([`crate::Gpu`]) has of its own: its unit lanes, L1,
/// scheduler state and resident warps. The cycle loop works on one SM at a time with its
/// state in [`Sm`]'s fields of the same names ([`Sm::switch_to`] exchanges them), so a
/// front end sees one SM, as before issue #41, and a one-SM run exchanges nothing.
#[derive(Default)]
pub(crate) struct SmLocal {
    lane_free: [Vec<u64>; 3],
    occupancy: [Vec<Vec<Busy>>; 3],
    l1: Option<L1Cache>,
    last_issued: Option<usize>,
    turn: usize,
    resident: u64,
    resident_blocks: u64,
    resident_list: Vec<usize>,
}

/// The shared state of one run.
pub(crate) struct Sm<'a> {
    pub launch: &'a Launch,
    pub machine: &'a Machine,
    pub budget: &'a Budget,
    /// Told how far the run is ([`Sm::report`]).
    pub observer: Observer<'a>,
    /// `issued` at which the next progress report is due.
    pub next_report: u64,
    pub shape: Shape,
    pub memory: GlobalMemory,
    /// The loops the launch asks to count ([`super::loop_watch`]).
    pub loops: super::loop_watch::LoopWatch,
    pub l1: Option<L1Cache>,
    pub l1_stats: CacheStats,
    pub warps: Vec<WarpSched>,
    /// Per warp (GCN3: per hardware wavefront, shared by its split-wavefronts): what it did.
    pub timelines: Vec<WarpTimeline>,
    pub blocks: Vec<Block>,
    pub next_block: u64,
    /// Warps of the resident blocks (a block's slot is freed when all its warps finish).
    pub resident: u64,
    /// Per unit (`Unit::ALL` order) and lane: the cycle it is free again.
    pub lane_free: [Vec<u64>; 3],
    pub occupancy: [Vec<Vec<Busy>>; 3],
    pub recorded: usize,
    /// More timeline entries or memory transactions than `max_timeline_entries` were made:
    /// the record stops there, the run does not.
    pub timeline_truncated: bool,
    pub transactions: Vec<Transaction>,
    pub steps: Vec<Step>,
    /// More steps than `max_stepper_steps` were issued (the rest are not recorded).
    pub stepper_truncated: bool,
    pub step_texts: StepTexts,
    pub stack_cache: StackCache,
    pub issued: u64,
    pub cycles: u64,
    /// Warp that issued last, for the greedy and round-robin orders.
    pub last_issued: Option<usize>,
    /// Pure round-robin: the warp (index) whose turn it is.
    pub turn: usize,
    /// Dispatched warps that have not finished.
    pub unfinished: usize,
    /// Dispatched warps that have not finished, in index order.
    pub resident_list: Vec<usize>,
    /// Issue-list room for the next warp: the last finished warp's count (traced runs; warps
    /// of one kernel usually issue similar numbers of instructions, which avoids regrowth).
    pub last_warp_issues: usize,
    /// A block finished this cycle: its slot may take the next block at once.
    pub block_freed: bool,
    /// Scratch address lists of one memory access.
    pub addr_buf: Vec<(usize, u64)>,
    pub seg_buf: Vec<u64>,
    /// Blocks resident on the current SM (the limit `Gpu::blocks_per_sm`).
    pub resident_blocks: u64,
    /// The SM whose state the fields above hold (several-SM runs).
    pub current: usize,
    /// Per SM, its own state while another is current (empty: one SM).
    pub parked: Vec<SmLocal>,
    /// Several SMs: per dispatched block (in block order), the SM it ran on.
    pub block_sms: Vec<u32>,
}

impl<'a> Sm<'a> {
    /// A fresh SM for `launch`; `l1` when the front end models the machine's L1.
    pub(crate) fn new(req: &Request<'a>, shape: Shape, l1: bool) -> Result<Self, SimError> {
        let (launch, machine, budget) = (req.launch, req.machine, req.budget);
        let memory =
            GlobalMemory::new(req.memory, budget.max_memory_words).map_err(SimError::request)?;
        let lanes = |u: Unit| machine.lanes_and_cycles(u).0 as usize;
        Ok(Sm {
            launch,
            machine,
            budget,
            observer: req.observer,
            next_report: super::REPORT_EVERY,
            shape,
            memory,
            loops: super::loop_watch::LoopWatch::new(&launch.loops),
            l1: machine.l1.as_ref().filter(|_| l1).map(L1Cache::new),
            l1_stats: CacheStats { hits: 0, misses: 0 },
            warps: Vec::new(),
            timelines: Vec::new(),
            blocks: Vec::new(),
            next_block: 0,
            resident: 0,
            lane_free: Unit::ALL.map(|u| vec![0; lanes(u)]),
            occupancy: Unit::ALL.map(|u| vec![Vec::new(); lanes(u)]),
            recorded: 0,
            timeline_truncated: false,
            transactions: Vec::with_capacity(
                budget.trace_room(launch.trace, budget.max_timeline_entries),
            ),
            steps: Vec::with_capacity(budget.trace_room(launch.trace, budget.max_stepper_steps)),
            stepper_truncated: false,
            step_texts: StepTexts::default(),
            stack_cache: StackCache::default(),
            issued: 0,
            cycles: 0,
            last_issued: None,
            turn: 0,
            unfinished: 0,
            resident_list: Vec::new(),
            last_warp_issues: budget.issue_room(launch.trace, shape.total_warps),
            block_freed: false,
            addr_buf: Vec::with_capacity(64),
            seg_buf: Vec::with_capacity(64),
            resident_blocks: 0,
            current: 0,
            parked: match launch.gpu.sms {
                0 | 1 => Vec::new(),
                n => (0..n)
                    .map(|_| SmLocal {
                        lane_free: Unit::ALL.map(|u| vec![0; lanes(u)]),
                        occupancy: Unit::ALL.map(|u| vec![Vec::new(); lanes(u)]),
                        l1: machine.l1.as_ref().filter(|_| l1).map(L1Cache::new),
                        ..SmLocal::default()
                    })
                    .collect(),
            },
            block_sms: Vec::new(),
        })
    }

    /// SMs of the run.
    #[inline(always)]
    pub(crate) fn sms(&self) -> usize {
        self.parked.len().max(1)
    }

    /// Makes SM `s` the current one: its own state into the fields the front ends use, the
    /// current one's parked. Nothing to do with one SM.
    #[inline]
    pub(crate) fn switch_to(&mut self, s: usize) {
        if s == self.current || s >= self.parked.len() {
            return;
        }
        let mut parked = std::mem::take(&mut self.parked);
        self.exchange(&mut parked[self.current]);
        self.exchange(&mut parked[s]);
        self.parked = parked;
        self.current = s;
    }

    fn exchange(&mut self, l: &mut SmLocal) {
        use std::mem::swap;
        swap(&mut self.lane_free, &mut l.lane_free);
        swap(&mut self.occupancy, &mut l.occupancy);
        swap(&mut self.l1, &mut l.l1);
        swap(&mut self.last_issued, &mut l.last_issued);
        swap(&mut self.turn, &mut l.turn);
        swap(&mut self.resident, &mut l.resident);
        swap(&mut self.resident_blocks, &mut l.resident_blocks);
        swap(&mut self.resident_list, &mut l.resident_list);
    }

    /// SM `s`'s resident warps and blocks, whichever SM is current.
    pub(crate) fn load_of(&self, s: usize) -> (u64, u64) {
        match self.parked.get(s).filter(|_| s != self.current) {
            Some(l) => (l.resident, l.resident_blocks),
            None => (self.resident, self.resident_blocks),
        }
    }

    /// The lanes of a warp of block `b` (its `w`-th): the mask of threads that exist and
    /// each lane's thread index.
    pub(crate) fn threads(&self, w: u64) -> (u64, Vec<[u32; 3]>) {
        let ws = self.machine.warp_size as usize;
        let mut mask = 0u64;
        let mut tid = Vec::with_capacity(ws);
        for lane in 0..ws as u64 {
            let (id, exists) = self.launch.thread_index(w * ws as u64 + lane);
            mask |= u64::from(exists) << lane;
            tid.push(id);
        }
        (mask, tid)
    }

    /// Starts the timeline of the `w`-th warp of block `b`, dispatched at `cycle` with stack
    /// depth `depth`; returns its index.
    pub(crate) fn add_timeline(&mut self, b: u64, w: u64, cycle: u64, depth: usize) -> usize {
        self.timelines.push(WarpTimeline {
            warp: (b * self.shape.warps_per_block + w) as u32,
            block: b as u32,
            warp_in_block: w as u32,
            dispatched: cycle,
            finished: cycle,
            issues: Vec::with_capacity(self.last_warp_issues.min(1 << 16)),
            stack_depth: vec![DepthChange { cycle, depth }],
        });
        self.timelines.len() - 1
    }

    /// Adds a warp (scheduling state) of block `block`, resident from `cycle`.
    pub(crate) fn add_warp(&mut self, block: usize, cycle: u64, done: bool) -> usize {
        let w = self.warps.len();
        self.warps.push(WarpSched {
            done,
            ..WarpSched::new(block, cycle)
        });
        self.resident_list.push(w);
        if !done {
            self.unfinished += 1;
        }
        w
    }

    /// Tells the observer the warp-instructions issued so far (of `max_steps`) and the cycle
    /// reached, a lower bound on the run's cycles ([`Task::Simulation`]).
    #[cold]
    pub(crate) fn report(&mut self, cycle: u64) {
        self.next_report = self.issued.saturating_add(super::REPORT_EVERY);
        (self.observer)(&Progress {
            task: Task::Simulation,
            done: self.issued,
            budget: self.budget.max_steps,
            best_bound: Some(cycle),
            upper_bound: None,
        });
    }

    /// Counts one issue against `max_steps` (`what` names the instructions).
    #[inline(always)]
    pub(crate) fn count_issue(&mut self, what: &str) -> Result<(), SimError> {
        self.issued += 1;
        if self.issued > self.budget.max_steps {
            return Err(SimError::budget("max_steps", self.budget.max_steps, what));
        }
        Ok(())
    }

    /// The stepper's warp issued `at`: records its step (within `max_stepper_steps`), the
    /// stack from `stack`; whether it did (past the budget the step is not recorded, and
    /// nothing may be attached to the last recorded one).
    pub(crate) fn record_step<I>(&mut self, at: StepAt, stack: I) -> Result<bool, SimError>
    where
        I: Iterator<Item = StackView> + Clone,
    {
        if self.steps.len() >= self.budget.max_stepper_steps {
            // The stepper is for looking at: past its budget the run goes on unrecorded.
            self.stepper_truncated = true;
            return Ok(false);
        }
        let lanes = self.machine.warp_size as u8;
        let stack = self.stack_cache.get(stack);
        self.steps.push(Step {
            cycle: at.cycle,
            index: at.pc,
            address: at.address,
            line: at.line,
            text: self.step_texts.get(at.pc, at.text),
            active: LaneMask {
                bits: at.active,
                lanes,
            },
            executed: LaneMask {
                bits: at.executed,
                lanes,
            },
            stack,
            groups: None,
            registers: Vec::new(),
        });
        Ok(true)
    }

    /// Adds register values to the step just recorded (call only when `record_step` said it
    /// recorded one).
    /// Within the first [`crate::MAX_STEPS_WITH_REGISTERS`] steps only
    /// ([`Sm::wants_registers`]).
    pub(crate) fn record_registers(&mut self, values: Vec<crate::RegisterValues>) {
        if !self.wants_registers() {
            return;
        }
        if let Some(step) = self.steps.last_mut() {
            step.registers.extend(values);
        }
    }

    /// Whether the step just recorded may carry register values (it is one of the first
    /// [`crate::MAX_STEPS_WITH_REGISTERS`]).
    pub(crate) fn wants_registers(&self) -> bool {
        self.steps.len() <= crate::MAX_STEPS_WITH_REGISTERS
    }

    /// Attaches the thread groups of independent thread scheduling to the step just recorded.
    pub(crate) fn record_groups(&mut self, groups: GroupsView) {
        if let Some(step) = self.steps.last_mut() {
            step.groups = Some(std::sync::Arc::new(groups));
        }
    }

    /// A lower bound on the cycle warp `w` can issue an instruction with timing facts `st`
    /// whose registers are written back at `registers`: its next issue slot, its class's
    /// interval, a free lane of its unit (exact when that lane is free then).
    #[inline(always)]
    pub(crate) fn issue_bound(&self, w: usize, st: &Timing, registers: u64) -> u64 {
        let s = &self.warps[w];
        registers
            .max(s.next_issue)
            .max(s.class_free[st.class_idx])
            .max(self.lane_free_at(st.unit_idx))
    }

    /// Issues the instruction at `pc` of warp `w` for its lanes `active` at `cycle` if it
    /// can issue then — ready (timing facts `st`, registers written back at `registers`)
    /// and a lane of its unit free — and returns that lane, the issue counted against
    /// `max_steps` and told to the loop watch; `None`: the warp waits. The SASS and PTX
    /// front ends' issue rule, written once.
    #[inline(always)]
    pub(crate) fn try_issue(
        &mut self,
        (w, pc, active): (usize, usize, u64),
        st: &Timing,
        registers: u64,
        cycle: u64,
    ) -> Result<Option<usize>, SimError> {
        if self.issue_bound(w, st, registers) > cycle {
            return Ok(None);
        }
        let Some(lane) = self.free_lane(st.unit_idx, cycle) else {
            return Ok(None);
        };
        self.count_issue("the number of issued warp-instructions")?;
        self.loops.issue(w, pc, active);
        Ok(Some(lane))
    }

    /// A free lane of unit `u` at `cycle`.
    #[inline(always)]
    pub(crate) fn free_lane(&self, u: usize, cycle: u64) -> Option<usize> {
        self.lane_free[u].iter().position(|&f| f <= cycle)
    }

    /// The earliest cycle a lane of unit `u` is free.
    #[inline(always)]
    pub(crate) fn lane_free_at(&self, u: usize) -> u64 {
        self.lane_free[u].iter().copied().min().unwrap_or(0)
    }

    /// Occupies lane `lane` of unit `u` for `cycle..cycle + k` (recorded when tracing).
    #[inline(always)]
    pub(crate) fn occupy(&mut self, u: usize, lane: usize, cycle: u64, k: u64) {
        if let Some(f) = self.lane_free[u].get_mut(lane) {
            *f = cycle + k;
        }
        if !self.launch.trace {
            return;
        }
        if let Some(v) = self.occupancy[u].get_mut(lane) {
            match v.last_mut() {
                Some(b) if b.end == cycle => b.end = cycle + k,
                _ => v.push(Busy {
                    start: cycle,
                    end: cycle + k,
                }),
            }
        }
    }

    /// Warp `w` issued the instruction `at` with timing facts `st` and a result after
    /// `latency` cycles: occupies its lane, sets the warp's next issue slot and its class's
    /// next acceptance, and records the issue in `timeline`. Returns the write-back cycle.
    #[inline(always)]
    pub(crate) fn issued_at(
        &mut self,
        w: usize,
        st: &Timing,
        at: IssuedAt,
        latency: u64,
        t: usize,
    ) -> Result<u64, SimError> {
        let (cycle, k) = (at.cycle, at.cycles);
        let complete = cycle + k - 1 + latency;
        self.cycles = self.cycles.max(complete);
        if let Some(lane) = at.lane {
            self.occupy(st.unit_idx, lane, cycle, k);
        }
        let s = &mut self.warps[w];
        s.next_issue = s.next_issue.max(cycle + k);
        s.class_free[st.class_idx] = cycle + st.interval;
        self.record_issue(
            t,
            Issue {
                index: at.pc as u32,
                line: at.line,
                issue: cycle,
                complete,
                active: at.active,
                executed: at.executed,
                lanes: self.machine.warp_size as u8,
                unit: st.unit,
                lane: at.lane.unwrap_or(0) as u16,
            },
        )?;
        Ok(complete)
    }

    /// Warp `w`'s stack (`what`: its name) is `depth` deep after its instruction issued at
    /// `cycle`: within `max_stack_depth`, and recorded in timeline `t` when it changed.
    #[inline(always)]
    pub(crate) fn stack_depth(
        &mut self,
        depth: usize,
        what: &str,
        t: usize,
        cycle: u64,
    ) -> Result<(), SimError> {
        let timeline = &mut self.timelines[t];
        if depth > self.budget.max_stack_depth {
            return Err(SimError::budget(
                "max_stack_depth",
                self.budget.max_stack_depth,
                &format!("warp {}'s {what} depth {depth}", timeline.warp),
            ));
        }
        if self.launch.trace && timeline.stack_depth.last().map(|c| c.depth) != Some(depth) {
            timeline.stack_depth.push(DepthChange {
                cycle: cycle + 1,
                depth,
            });
        }
        Ok(())
    }

    /// Warp `w` (of a block whose warps are its scheduling units; its stack emptied by the
    /// instruction issued at `cycle`, written back at `complete`) finished.
    #[inline]
    pub(crate) fn warp_done(&mut self, w: usize, t: usize, cycle: u64, complete: u64) {
        let timeline = &mut self.timelines[t];
        self.last_warp_issues = timeline.issues.len();
        timeline.finished = complete;
        self.warp_finished(w, cycle);
    }

    /// Appends `issue` to timeline `t` when tracing (within `max_timeline_entries`).
    #[inline(always)]
    pub(crate) fn record_issue(&mut self, t: usize, issue: Issue) -> Result<(), SimError> {
        if !self.launch.trace {
            return Ok(());
        }
        if self.recorded >= self.budget.max_timeline_entries {
            // The run goes on: only the record stops (its counts, cycles, memory and loop
            // counts do not depend on it).
            self.timeline_truncated = true;
            return Ok(());
        }
        self.recorded += 1;
        self.timelines[t].issues.push(issue);
        Ok(())
    }

    /// Warp `w` finished: it leaves the resident list.
    #[inline(always)]
    pub(crate) fn retire(&mut self, w: usize) {
        self.warps[w].done = true;
        self.unfinished = self.unfinished.saturating_sub(1);
        self.resident_list.retain(|&i| i != w);
    }

    /// Warp `w` (of a block whose warps are its scheduling units) finished at `cycle`: its
    /// block's slot frees when it was the last, else a barrier may release.
    #[inline]
    pub(crate) fn warp_finished(&mut self, w: usize, cycle: u64) {
        self.retire(w);
        let b = self.warps[w].block;
        self.blocks[b].live = self.blocks[b].live.saturating_sub(1);
        if self.blocks[b].live == 0 {
            self.resident -= self.shape.warps_per_block;
            self.resident_blocks = self.resident_blocks.saturating_sub(1);
            self.block_freed = true;
        } else {
            self.release_barrier(b, cycle);
        }
    }

    /// Warp `w` arrives at its block's barrier at `cycle`.
    #[inline(always)]
    pub(crate) fn arrive(&mut self, w: usize, cycle: u64) {
        self.warps[w].at_barrier = true;
        let b = self.warps[w].block;
        self.blocks[b].arrived += 1;
        self.release_barrier(b, cycle);
    }

    /// Releases block `b`'s barrier when every live warp has arrived.
    #[inline]
    pub(crate) fn release_barrier(&mut self, b: usize, cycle: u64) {
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

    /// The result of the run.
    pub(crate) fn finish(mut self) -> Simulation {
        // Several SMs: every SM's lanes, SM 0's first.
        if !self.parked.is_empty() {
            self.switch_to(0);
            for l in self.parked.iter_mut().skip(1) {
                for (all, own) in self.occupancy.iter_mut().zip(&mut l.occupancy) {
                    all.append(own);
                }
            }
        }
        let mut warps = self.timelines;
        let mut per_unit = self.occupancy;
        let occupancy =
            unit_lanes(|u| std::mem::take(&mut per_unit[crate::timing_facts::unit_index(u)]));
        warps.sort_by_key(|t| t.warp);
        let (memory, outside) = self.memory.finish();
        Simulation {
            cycles: self.cycles,
            issued: self.issued,
            machine: self.machine.clone(),
            warps,
            occupancy,
            transactions: self.transactions,
            memory,
            outside,
            loop_counts: self.loops.most,
            timeline_truncated: self.timeline_truncated,
            stepper: Stepper {
                warp: self.launch.stepper_warp,
                steps: self.steps,
                truncated: self.stepper_truncated,
            },
            l1: self.l1.map(|_| self.l1_stats),
            block_sms: self.block_sms,
        }
    }
}
