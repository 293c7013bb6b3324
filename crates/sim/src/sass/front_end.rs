//! The SASS front end of the cycle loop ([`crate::cycle_loop`]): warps with general and
//! predicate registers, the activation stack of `cfg::activation_stack` (Jeanmougin et al. §2,
//! the one `cfg::concrete` runs) driven by the SSY/PBK/BRK/SYNC… control instructions, and the
//! semantics of [`super::semantics`].

use super::decode::{self, Control, Decoded, Op, Space, SLOTS};
use super::lane_memory;
use super::semantics::{self, ThreadIds, WarpRegs};
use crate::cycle_loop::{
    self, written_back, Access, Block, FrontEnd, IssuedAt, Request, Shape, Sm, StepAt, Timing, CUDA,
};
use crate::error::SimError;
use crate::simulation::{LaneMask, Simulation, StackView};
use cfg::activation_stack::{ActivationStack, Rules, StackEntry};
use cfg::TimingClass;
use isa::{Kernel, Span};

/// A warp's SASS state.
struct Warp {
    regs: WarpRegs,
    ids: ThreadIds,
    stack: ActivationStack,
    /// Per scoreboard slot: the cycle its value is written back.
    ready: Vec<u64>,
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
        rules: Rules::of(kernel),
        shared_base: if decode::arch_number(kernel).is_some_and(|v| v >= 90) {
            SM90_SHARED_BASE
        } else {
            0
        },
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
    /// The rules of divergent branches the kernel's instructions call for (convergence
    /// barriers, full-warp `WARPSYNC`), as the analysis and `cfg::concrete` use them.
    rules: Rules,
    /// The shared-memory address of the block's first byte ([`SM90_SHARED_BASE`] on sm_90).
    shared_base: u64,
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
        let mut members = Vec::new();
        for w in 0..sm.shape.warps_per_block {
            let (mask, tid) = sm.threads(w);
            sm.add_timeline(b, w, cycle, usize::from(mask != 0));
            let stack = ActivationStack::with_rules(mask, self.rules);
            members.push(sm.add_warp(block_index, cycle, stack.is_empty()));
            self.warps.push(Warp {
                regs: WarpRegs::new(ws, self.gprs),
                ids: ThreadIds { tid, ctaid },
                ready: vec![0; SLOTS],
                stack,
            });
        }
        let live = members.len() as u32;
        let block = Block::new(sm.launch.shared_bytes, members, live, 0);
        sm.blocks.push(block);
    }

    fn pending(&self, w: usize) -> Option<(&Timing, u64)> {
        let warp = &self.warps[w];
        let pc = warp.stack.top()?.pc;
        let d = self.decoded.get(pc)?.as_ref().ok()?;
        Some((self.statics.get(pc)?, written_back(&warp.ready, d.slots())))
    }

    fn issue(&mut self, sm: &mut Sm, w: usize, cycle: u64) -> Result<bool, SimError> {
        let Some(StackEntry {
            pc, mask: active, ..
        }) = self.warps[w].stack.top()
        else {
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
        // Readiness.
        if sm.issue_bound(w, st, written_back(&self.warps[w].ready, d.slots())) > cycle {
            return Ok(false);
        }
        let Some(lane) = sm.free_lane(st.unit_idx, cycle) else {
            return Ok(false);
        };
        // Issue.
        sm.count_issue("the number of issued warp-instructions")?;
        let ws = sm.machine.warp_size as u8;
        let exec = self.warps[w].regs.pred_mask(d.guard, active);
        let trace = sm.launch.trace;
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
            let stack = self.warps[w].stack.entries().iter().map(|e| StackView {
                reconverges_at: None,
                tag: e.tag,
                pc: e.pc,
                address: kernel.instructions.get(e.pc).map_or(0, |i| i.address),
                mask: LaneMask::new(e.mask, ws),
            });
            sm.record_step(at, stack)?;
        }
        // Data effect.
        let mut latency = st.latency;
        match &d.op {
            Op::Load { .. } | Op::Store { .. } | Op::Atomic { .. } => {
                latency = self
                    .memory_op(sm, w, d, Access::of(id, pc, cycle, exec, st.latency))
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
        let complete = sm.issued_at(w, st, at, latency, w)?;
        for &s in &d.writes {
            warp.ready[s as usize] = complete;
        }
        // Control effect (Jeanmougin et al. §2, the stack of cfg::concrete).
        let next = pc + 1;
        match d.control {
            Control::Next => warp.stack.advance(next),
            Control::Branch {
                target,
                uniform,
                convergence,
            } => {
                // `BRA.DIV`/`BRA.CONV`: taken by all or none, as the warp is (not) diverged.
                let taken = match convergence {
                    Some(div) if warp.stack.is_diverged() != div => 0,
                    _ => exec,
                };
                warp.stack.branch(taken, target, next, uniform)
            }
            Control::Prepare { tag, target } => warp.stack.prepare(tag, target, next),
            Control::Halt(tag) => warp.stack.halt(exec, tag, next),
            // The threads whose guard holds call; the others wait at the return point.
            Control::Call { target } => warp.stack.call(exec, target, next),
            Control::Bsync(b) => warp.stack.bsync(b, exec, next),
            Control::Break(b) => warp.stack.break_barrier(b, exec, next),
            Control::WarpSync => warp.stack.warp_sync(next),
        }
        // A saved warp none of whose threads reached its `WARPSYNC` has nobody left.
        while warp.stack.pop_unarrived() {}
        let depth = warp.stack.depth();
        sm.stack_depth(depth, "activation stack", w, cycle)?;
        if depth == 0 {
            // A finished warp keeps only its timeline: registers and scoreboard go.
            warp.regs.gpr = Vec::new();
            warp.ids.tid = Vec::new();
            warp.ready = Vec::new();
            sm.warp_done(w, w, cycle, complete);
        } else if matches!(d.op, Op::Barrier) {
            sm.arrive(w, cycle);
        } else {
            cycle_loop::wake_after(self, sm, w, cycle, st.cycles, complete);
        }
        Ok(true)
    }
}

impl Sass<'_> {
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
                }
            } else {
                match space {
                    Space::Global => sm.memory.read(a, bytes, &mut words)?,
                    Space::Shared => sm.blocks[block].shared.read(a, bytes, &mut words)?,
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
        }
        regs.set(*dst, lane, old);
    }
    Ok(())
}
