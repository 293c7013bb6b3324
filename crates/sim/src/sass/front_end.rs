//! The SASS front end of the cycle loop ([`crate::cycle_loop`]): warps with general and
//! predicate registers, the activation stack of `cfg::activation_stack` (Jeanmougin et al. §2,
//! the one `cfg::concrete` runs) driven by the SSY/PBK/BRK/SYNC… control instructions, and the
//! semantics of [`super::semantics`].

use super::control_issue::{self, ControlIssue};
use super::decode::{self, Control, Decoded, Op, Space, SLOTS};
use super::lane_memory;
use super::local_memory::LocalMemory;
use super::semantics::{self, ThreadIds, WarpRegs};
use super::step_values;
use crate::cycle_loop::{
    self, written_back, Access, Block, FrontEnd, IssuedAt, Request, Shape, Sm, StepAt, Timing, CUDA,
};
use crate::error::SimError;
use crate::simulation::{BarrierView, GroupView, GroupsView, LaneMask, Simulation, StackView};
use cfg::activation_stack::{ActivationStack, Rules};
use cfg::thread_groups::{ThreadGroups, Wait};
use cfg::TimingClass;
use isa::{Kernel, Span};

/// A warp's SASS state.
struct Warp {
    regs: WarpRegs,
    ids: ThreadIds,
    paths: Paths,
    /// Per scoreboard slot: the cycle its value is written back.
    ready: Vec<u64>,
    /// Its threads' local windows (`LDL`/`STL`).
    local: LocalMemory,
    /// Issue by control bits: the cycle each scoreboard barrier clears.
    barriers: [u64; cfg::control::BARRIERS],
}

/// Runs `kernel`; see [`crate::run`].
pub(crate) fn run(kernel: &Kernel, req: &Request) -> Result<Simulation, SimError> {
    let (launch, machine, budget) = (req.launch, req.machine, req.budget);
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
    let shape = Shape::of(req, &CUDA)?;
    let shared_words = u64::from(launch.shared_bytes).div_ceil(4);
    if shared_words.saturating_mul(shape.resident_blocks) > budget.max_memory_words {
        return Err(SimError::budget(
            "max_memory_words",
            budget.max_memory_words,
            &format!(
                "{} resident blocks × {} bytes of shared memory",
                shape.resident_blocks, launch.shared_bytes
            ),
        ));
    }
    let mut sm = Sm::new(req, shape, true)?;
    let decoded = decode::decode(kernel, launch);
    let statics: Vec<Timing> = kernel
        .instructions
        .iter()
        .map(|ins| Timing::of(machine, TimingClass::of(ins)))
        .collect();
    let mut fe = Sass {
        kernel,
        decoded: &decoded,
        statics: &statics,
        warps: Vec::new(),
        alu: semantics::AluScratch::default(),
        gprs: decode::register_file(kernel).1,
        ubase: decode::register_file(kernel).0,
        rules: Rules::of(kernel),
        shared_base: if decode::arch_number(kernel).is_some_and(|v| v >= 90) {
            SM90_SHARED_BASE
        } else {
            0
        },
        local_held: 0,
        control: machine.control_bits.then(|| control_issue::of(kernel)),
    };
    cycle_loop::run(&mut fe, &mut sm)?;
    Ok(sm.finish())
}

struct Sass<'a> {
    kernel: &'a Kernel,
    decoded: &'a [Result<Decoded, (Span, String)>],
    statics: &'a [Timing],
    /// Indexed like [`Sm::warps`].
    warps: Vec<Warp>,
    /// Operand rows reused by every ALU instruction.
    alu: semantics::AluScratch,
    /// Registers per warp: the kernel's highest general register + 4 (+ 64 uniform ones).
    gprs: usize,
    /// Row of `UR0` in the register file (the stepper reads uniform registers there).
    ubase: u16,
    /// The rules of divergent branches the kernel's instructions call for (convergence
    /// barriers, full-warp `WARPSYNC`), as the analysis and `cfg::concrete` use them.
    rules: Rules,
    /// The shared-memory address of the block's first byte ([`SM90_SHARED_BASE`] on sm_90).
    shared_base: u64,
    /// Words of local memory the live warps hold (budgeted by `max_memory_words`).
    local_held: u64,
    /// Issue by control bits (`Machine::control_bits`): each instruction's.
    control: Option<Vec<Option<ControlIssue>>>,
}

/// sm_90 listings address shared memory from `0x400` in the shared window (`UMOV UR11,
/// 0x400` then `UPRMT` with `SR_CgaCtaId` in the top byte as the base of every shared array,
/// e.g. `histogram__histogram256Kernel` and `matrixMul__MatrixMulCUDA_32` of the sass-modern
/// corpus). The offset is read from the listings; that the driver keeps the first kilobyte
/// for itself fits the runtime's "shared memory reserved by the driver per block" device
/// attribute (`cudaDevAttrReservedSharedMemoryPerBlock`), whose 1 KB value we have not
/// checked against NVIDIA's documentation. The simulator's block memory starts there;
/// sm_70–sm_89 listings address it from 0.
const SM90_SHARED_BASE: u64 = 0x400;

impl FrontEnd for Sass<'_> {
    fn dispatch_block(&mut self, sm: &mut Sm, b: u64, cycle: u64) {
        let ws = sm.machine.warp_size as usize;
        let ctaid = sm.launch.block_index(b);
        let block_index = sm.blocks.len();
        let its = sm.machine.thread_scheduling.its();
        let mut members = Vec::new();
        for w in 0..sm.shape.warps_per_block {
            let (mask, tid) = sm.threads(w);
            sm.add_timeline(b, w, cycle, usize::from(mask != 0));
            let paths = match its {
                None => Paths::Stack(ActivationStack::with_rules(mask, self.rules)),
                Some(scheduler) => {
                    let mut groups = Box::new(ThreadGroups::new(mask, scheduler));
                    let next = groups.choose();
                    Paths::Groups { groups, next }
                }
            };
            members.push(sm.add_warp(block_index, cycle, paths.current().is_none()));
            self.warps.push(Warp {
                regs: WarpRegs::new(ws, self.gprs),
                ids: ThreadIds { tid, ctaid },
                ready: vec![0; SLOTS],
                paths,
                local: LocalMemory::default(),
                barriers: [0; cfg::control::BARRIERS],
            });
        }
        let live = members.len() as u32;
        let block = Block::new(sm.launch.shared_bytes, members, live, 0);
        sm.blocks.push(block);
    }

    fn pending(&self, w: usize) -> Option<(&Timing, u64)> {
        let warp = &self.warps[w];
        let (pc, _) = warp.paths.current()?;
        let d = self.decoded.get(pc)?.as_ref().ok()?;
        Some((self.statics.get(pc)?, self.operands_at(w, pc, d)))
    }

    fn issue(&mut self, sm: &mut Sm, w: usize, cycle: u64) -> Result<bool, SimError> {
        let Some((pc, active)) = self.warps[w].paths.current() else {
            return Ok(false);
        };
        let kernel = self.kernel;
        let id = sm.timelines[w].warp;
        let Some(ins) = kernel.instructions.get(pc) else {
            let span = kernel
                .instructions
                .last()
                .map_or(Span::default(), |i| i.span);
            return Err(SimError::at(
                span,
                format!("warp {id} fell off the end of the kernel (no EXIT)"),
            ));
        };
        let d = match &self.decoded[pc] {
            Ok(d) => d,
            Err((span, msg)) => return Err(SimError::at(*span, msg.clone())),
        };
        let st = &self.statics[pc];
        let control = match self.control.as_ref().map(|c| c[pc]) {
            Some(None) => {
                let (span, m) = control_issue::missing(ins.span, &ins.opcode.name);
                return Err(SimError::at(span, m));
            }
            Some(c) => c,
            None => None,
        };
        // Readiness, then the issue.
        let registers = self.operands_at(w, pc, d);
        let Some(lane) = sm.try_issue((w, pc, active), st, registers, cycle)? else {
            return Ok(false);
        };
        let ws = sm.machine.warp_size as u8;
        let mut exec = self.warps[w].regs.pred_mask(d.guard, active);
        if let Control::Branch { also: Some(p), .. } = d.control {
            // `BRA P1, t`: the lanes that take it are those where both hold.
            exec = self.warps[w].regs.pred_mask(p, exec);
        }
        let trace = sm.launch.trace;
        // The step is recorded, and may carry register values (`Sm::wants_registers`).
        let mut with_values = false;
        if trace && id == sm.launch.stepper_warp {
            let at = StepAt {
                cycle,
                pc,
                address: ins.address,
                line: ins.span.line,
                text: &ins.text,
                active,
                executed: exec,
            };
            match &self.warps[w].paths {
                Paths::Stack(stack) => {
                    let stack = stack.entries().iter().map(|e| StackView {
                        reconverges_at: None,
                        tag: e.tag,
                        pc: e.pc,
                        address: kernel.instructions.get(e.pc).map_or(0, |i| i.address),
                        mask: LaneMask::new(e.mask, ws),
                    });
                    with_values = sm.record_step(at, stack)?;
                }
                Paths::Groups { groups, next } => {
                    with_values = sm.record_step(at, std::iter::empty())?;
                    if with_values {
                        sm.record_groups(groups_view(kernel, groups, *next, ws));
                    }
                }
            }
            with_values &= sm.wants_registers();
            if with_values {
                let values = step_values::of(&self.warps[w].regs, self.ubase, &ins.reads, false);
                sm.record_registers(values);
            }
        }
        // Data effect.
        let mut latency = st.latency;
        sm.memory.set_site(ins.span.line, ins.address);
        match &d.op {
            Op::Load { .. } | Op::Store { .. } | Op::Atomic { .. } => {
                latency = self
                    .memory_op(sm, w, d, Access::of(id, pc, cycle, exec, st.latency))
                    .map_err(|m| SimError::at(ins.span, m))?;
            }
            Op::TexFetch { .. } | Op::Surface { .. } => {
                let at = Access::of(id, pc, cycle, exec, st.latency);
                latency = super::texture_access::execute(sm, &mut self.warps[w].regs, &d.op, at)
                    .map_err(|m| SimError::at(ins.span, m))?;
            }
            Op::Barrier => {}
            op => {
                let warp = &mut self.warps[w];
                // A uniform instruction computes the same value in every lane from uniform
                // operands: running it on the whole warp writes its uniform destination there.
                let lanes = if d.uniform && exec != 0 {
                    u64::MAX >> (64 - u32::from(ws).clamp(1, 64))
                } else {
                    exec
                };
                semantics::execute_alu(op, &mut warp.regs, &warp.ids, lanes, &mut self.alu)
                    .map_err(|m| {
                        SimError::at(
                            ins.span,
                            format!("cannot simulate {}: {m}", ins.opcode.name),
                        )
                    })?;
            }
        }
        if with_values {
            let values = step_values::of(&self.warps[w].regs, self.ubase, &ins.writes, true);
            sm.record_registers(values);
        }
        // Timing.
        let warp = &mut self.warps[w];
        let at = IssuedAt {
            cycle,
            cycles: st.cycles,
            lane: Some(lane),
            pc,
            line: ins.span.line,
            active,
            executed: exec,
        };
        // Under control bits the barriers it sets clear when its result is written; for
        // the run's end it is complete no earlier than the warp may issue again (module
        // `control_issue`).
        let barrier_clear = cycle + st.cycles - 1 + latency;
        if let Some(c) = control {
            let sets = c.write_barrier.is_some() || c.read_barrier.is_some();
            latency = if sets { latency.max(c.stall) } else { c.stall };
        }
        let complete = sm.issued_at(w, st, at, latency, w)?;
        for &s in &d.writes {
            warp.ready[s as usize] = complete;
        }
        if let Some(c) = control {
            let s = &mut sm.warps[w];
            s.next_issue = s.next_issue.max(cycle + c.stall);
            control_issue::set(&mut warp.barriers, &c, barrier_clear);
        }
        // Control effect (Jeanmougin et al. §2, the stack of cfg::concrete; or the ITS rules
        // of cfg::thread_groups).
        let next = pc + 1;
        let stack = match &mut warp.paths {
            Paths::Stack(stack) => stack,
            Paths::Groups { groups, next } => {
                let gi = next.unwrap_or_default();
                groups.step(kernel, gi, exec).map_err(|why| {
                    SimError::at(
                        ins.span,
                        format!("independent thread scheduling does not model this: {why}"),
                    )
                })?;
                *next = groups.choose();
                if next.is_none() && !groups.finished() {
                    return Err(SimError::at(
                        ins.span,
                        format!(
                            "warp {id} deadlocks under independent thread scheduling: every \
                             thread group waits at a BSYNC or WARPSYNC that the others never \
                             reach (the stack order lets one path run on alone)"
                        ),
                    ));
                }
                let depth = (groups.groups().len(), "thread groups");
                return self.after_control(sm, w, d, st, cycle, complete, depth);
            }
        };
        match d.control {
            Control::Next => stack.advance(next),
            Control::Branch {
                target,
                uniform,
                convergence,
                ..
            } => {
                // `BRA.DIV`/`BRA.CONV`: taken by all or none, as the warp is (not) diverged.
                let taken = match convergence {
                    Some(div) if stack.is_diverged() != div => 0,
                    _ => exec,
                };
                stack.branch(taken, target, next, uniform)
            }
            Control::Prepare { tag, target } => stack.prepare(tag, target, next),
            Control::Halt(tag) => stack.halt(exec, tag, next),
            // The threads whose guard holds call; the others wait at the return point.
            Control::Call { target } => stack.call(exec, target, next),
            Control::Bsync(b) => stack.bsync(b, exec, next),
            Control::Break(b) => stack.break_barrier(b, exec, next),
            Control::WarpSync => stack.warp_sync(next),
        }
        // A saved warp none of whose threads reached its `WARPSYNC` has nobody left.
        while stack.pop_unarrived() {}
        let depth = (stack.depth(), "activation stack");
        self.after_control(sm, w, d, st, cycle, complete, depth)
    }
}

impl Sass<'_> {
    /// The cycle warp `w`'s instruction at `pc` (decoded `d`) has its operands: its
    /// registers written back, or under control bits its waited barriers clear.
    fn operands_at(&self, w: usize, pc: usize, d: &Decoded) -> u64 {
        let warp = &self.warps[w];
        match &self.control {
            Some(c) => c
                .get(pc)
                .copied()
                .flatten()
                .map_or(0, |c| control_issue::clear_at(&warp.barriers, c.waits)),
            None => written_back(&warp.ready, d.slots()),
        }
    }

    /// After the control effect: the warp's paths number `depth.0` (entries of the
    /// activation stack or thread groups, as `depth.1` says; 0: finished). Checks the depth budget, then retires the warp, parks it at a
    /// block barrier, or wakes it when its instruction is done.
    #[allow(clippy::too_many_arguments)]
    fn after_control(
        &mut self,
        sm: &mut Sm,
        w: usize,
        d: &Decoded,
        st: &Timing,
        cycle: u64,
        complete: u64,
        (depth, what): (usize, &'static str),
    ) -> Result<bool, SimError> {
        let warp = &mut self.warps[w];
        sm.stack_depth(depth, what, w, cycle)?;
        if depth == 0 {
            // A finished warp keeps only its timeline: registers and scoreboard go.
            warp.regs.gpr = Vec::new();
            warp.ids.tid = Vec::new();
            warp.ready = Vec::new();
            let local = std::mem::take(&mut warp.local);
            self.local_held -= local.held();
            sm.warp_done(w, w, cycle, complete);
        } else if matches!(d.op, Op::Barrier) {
            sm.arrive(w, cycle);
        } else {
            cycle_loop::wake_after(self, sm, w, cycle, st.cycles, complete);
        }
        Ok(true)
    }

    /// Executes the load or store `d` of warp `w` (`at`: the access); returns its latency.
    fn memory_op(&mut self, sm: &mut Sm, w: usize, d: &Decoded, at: Access) -> Result<u64, String> {
        let (space, addr, bytes, store) = match &d.op {
            Op::Load {
                space, addr, bytes, ..
            } => (*space, *addr, *bytes, false),
            Op::Store {
                space, addr, bytes, ..
            } => (*space, *addr, *bytes, true),
            Op::Atomic { space, addr, .. } => (*space, *addr, 4, false),
            _ => return Err("not a memory operation".into()),
        };
        let (exec, class_latency) = (at.exec, at.class_latency);
        let mut addrs = std::mem::take(&mut sm.addr_buf);
        let warp = &mut self.warps[w];
        lane_memory::addresses(&addr, &warp.regs, exec, &mut addrs);
        if space == Space::Local {
            let max_words = sm.budget.max_memory_words;
            let held = (&mut self.local_held, max_words);
            let moved = local_lanes(warp, &d.op, &addrs, bytes, held);
            let access = Access {
                local: true,
                ..Access::moved(at, false, store, bytes)
            };
            let latency = moved.and_then(|()| sm.finish_access(&access, &addrs, &addrs));
            sm.addr_buf = addrs;
            return latency;
        }
        if space == Space::Shared && self.shared_base != 0 {
            for (_, a) in addrs.iter_mut() {
                *a = a.wrapping_sub(self.shared_base);
            }
        }
        let block = sm.warps[w].block;
        let mut words = [0u32; 4];
        let fast = space == Space::Shared
            && lane_memory::shared_words_fast(
                &d.op,
                &mut warp.regs,
                &mut sm.blocks[block].shared.words,
                &addrs,
            );
        let atomic = matches!(d.op, Op::Atomic { .. });
        if atomic {
            if let Err(e) = atomic_lanes(sm, &mut warp.regs, block, &d.op, space, &addrs) {
                sm.addr_buf = addrs;
                return Err(e);
            }
        }
        for &(lane, a) in addrs.iter().filter(|_| !fast && !atomic) {
            if store {
                let Op::Store { v, .. } = &d.op else {
                    return Err("not a store".into());
                };
                lane_memory::store_words(v, &warp.regs, lane, bytes, &mut words);
                match space {
                    Space::Global => sm.memory.write(a, bytes, &words)?,
                    Space::Shared => sm.blocks[block].shared.write(a, bytes, &words)?,
                    Space::Local => return Err(LOCAL_ELSEWHERE.into()),
                }
            } else {
                match space {
                    Space::Global => sm.memory.read(a, bytes, &mut words)?,
                    Space::Shared => sm.blocks[block].shared.read(a, bytes, &mut words)?,
                    Space::Local => return Err(LOCAL_ELSEWHERE.into()),
                }
                if let Op::Load {
                    d: dst,
                    sign_extend,
                    ..
                } = d.op
                {
                    lane_memory::write_loaded(
                        &mut warp.regs,
                        dst,
                        lane,
                        bytes,
                        sign_extend,
                        &words,
                    );
                }
            }
        }
        if space == Space::Shared && !sm.launch.trace {
            // Shared memory has no transactions to coalesce; without a trace to record,
            // only "no active lane" (one cycle) matters.
            let latency = if addrs.is_empty() { 1 } else { class_latency };
            sm.addr_buf = addrs;
            return Ok(latency);
        }
        let access = Access::moved(at, space == Space::Global, store, bytes);
        let latency = sm.finish_access(&access, &addrs, &addrs);
        sm.addr_buf = addrs;
        latency
    }
}

/// Local accesses are done by [`local_lanes`], never on the global/shared path (and no
/// atomic decodes to local memory).
const LOCAL_ELSEWHERE: &str = "a local-memory access on the global/shared path";

/// The data a local load or store `op` of `warp` moves at `addrs` (lane, offset in the
/// lane's window), lane by lane; `held` is the budget of local words.
#[inline(never)]
fn local_lanes(
    warp: &mut Warp,
    op: &Op,
    addrs: &[(usize, u64)],
    bytes: u64,
    held: (&mut u64, u64),
) -> Result<(), String> {
    let mut words = [0u32; 4];
    match *op {
        Op::Store { ref v, .. } => {
            let (count, max_words) = held;
            for &(lane, a) in addrs {
                lane_memory::store_words(v, &warp.regs, lane, bytes, &mut words);
                warp.local
                    .write(lane, a, bytes, &words, (&mut *count, max_words))?;
            }
        }
        Op::Load { d, sign_extend, .. } => {
            for &(lane, a) in addrs {
                warp.local.read(lane, a, bytes, &mut words)?;
                lane_memory::write_loaded(&mut warp.regs, d, lane, bytes, sign_extend, &words);
            }
        }
        _ => return Err("not a local load or store".into()),
    }
    Ok(())
}

/// The read-modify-write of atomic `op` at `addrs` (lane, address), lane by lane in lane
/// order; the old word goes to the destination.
#[inline(never)]
fn atomic_lanes(
    sm: &mut Sm,
    regs: &mut WarpRegs,
    block: usize,
    op: &Op,
    space: Space,
    addrs: &[(usize, u64)],
) -> Result<(), String> {
    let Op::Atomic {
        op, d: dst, v, cmp, ..
    } = op
    else {
        return Err("not an atomic".into());
    };
    let mut words = [0u32; 4];
    for &(lane, a) in addrs {
        match space {
            Space::Global => sm.memory.read(a, 4, &mut words)?,
            Space::Shared => sm.blocks[block].shared.read(a, 4, &mut words)?,
            Space::Local => return Err(LOCAL_ELSEWHERE.into()),
        }
        let old = words[0];
        let (x, y) = (
            lane_memory::operand(v, regs, lane),
            lane_memory::operand(cmp, regs, lane),
        );
        words[0] = op.apply(old, x, y);
        match space {
            Space::Global => sm.memory.write(a, 4, &words)?,
            Space::Shared => sm.blocks[block].shared.write(a, 4, &words)?,
            Space::Local => return Err(LOCAL_ELSEWHERE.into()),
        }
        regs.set(*dst, lane, old);
    }
    Ok(())
}

/// A warp's paths: the activation stack, or the thread groups of independent thread
/// scheduling ([`crate::thread_scheduling`]) with the group the scheduler chose to issue
/// next (chosen once after each issue, so a warp that waits for its operands keeps it).
enum Paths {
    Stack(ActivationStack),
    Groups {
        groups: Box<ThreadGroups>,
        next: Option<usize>,
    },
}

impl Paths {
    /// The next instruction and the threads that issue it; `None`: the warp finished (or,
    /// under ITS, every group waits).
    fn current(&self) -> Option<(usize, u64)> {
        match self {
            Paths::Stack(stack) => stack.top().map(|e| (e.pc, e.mask)),
            Paths::Groups { groups, next } => {
                let g = groups.groups().get((*next)?)?;
                Some((g.pc, g.mask))
            }
        }
    }
}

/// The stepper's view of `groups` before the chosen group `next` issues.
fn groups_view(kernel: &Kernel, groups: &ThreadGroups, next: Option<usize>, ws: u8) -> GroupsView {
    let address = |pc: usize| kernel.instructions.get(pc).map_or(0, |i| i.address);
    GroupsView {
        groups: groups
            .groups()
            .iter()
            .enumerate()
            .map(|(i, g)| GroupView {
                pc: g.pc,
                address: address(g.pc),
                mask: LaneMask::new(g.mask, ws),
                waiting: g.waiting.map(|w| match w {
                    Wait::Bsync(b) => format!("BSYNC B{b}"),
                    Wait::WarpSync => "WARPSYNC".to_string(),
                }),
                issuing: Some(i) == next,
            })
            .collect(),
        barriers: groups
            .barriers()
            .iter()
            .enumerate()
            .filter(|&(_, &m)| m != 0)
            .map(|(b, &m)| BarrierView {
                barrier: b as u8,
                mask: LaneMask::new(m, ws),
            })
            .collect(),
    }
}
