//! The PTX (and L/C) front end of the cycle loop ([`crate::cycle_loop`]): typed virtual
//! registers, PTX's functional semantics ([`super::semantics`]) and GPGPU-Sim's PDOM stack
//! ([`super::pdom_stack`]), reconverging at each branch's immediate post-dominator.
//!
//! The timing rules are the loop's, on the same [`Machine`], with virtual registers as
//! scoreboard slots. It is a front end of its own because PTX registers are unbounded
//! virtual registers and reconvergence is by post-dominator, not by the SASS stack
//! instructions.

use super::pdom_stack::{PdomEntry, PdomStack};
use super::program::{Addr, Ctl, Decoded, Op, Space};
use super::semantics::{self, lanes, Ids, Regs};
use crate::cycle_loop::{
    self, written_back, Access, Block, FrontEnd, IssuedAt, Request, Shape, Sm, StepAt, Timing, CUDA,
};
use crate::error::SimError;
use crate::sass::local_memory::LocalMemory;
use crate::simulation::{LaneMask, Simulation, StackView};
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

/// A warp's PTX state.
struct Warp {
    regs: Regs,
    ids: Ids,
    stack: PdomStack,
    /// Per virtual register: the cycle its value is written back.
    ready: Vec<u64>,
    /// Its threads' local windows (`.local` variables, [`super::layout`]).
    local: LocalMemory,
}

struct Ptx<'a> {
    p: &'a Program<'a>,
    statics: Vec<Timing>,
    /// Indexed like [`Sm::warps`].
    warps: Vec<Warp>,
    /// Shared memory per block: static and dynamic.
    shared_bytes: u32,
    /// Scratch list of one memory access: each lane's first address.
    base_buf: Vec<(usize, u64)>,
    /// Operand rows reused by every instruction.
    rows: semantics::Rows,
    /// Words of local memory the live warps hold (budgeted by `max_memory_words`).
    local_held: u64,
}

/// Runs `p`; see [`crate::run_ptx`].
pub(crate) fn run(p: &Program, req: &Request) -> Result<Simulation, SimError> {
    let (launch, machine, budget) = (req.launch, req.machine, req.budget);
    machine.validate().map_err(SimError::request)?;
    if p.code.is_empty() {
        return Err(SimError::request("the kernel has no instructions"));
    }
    let shape = Shape::of(req, &CUDA)?;
    let ws = u64::from(machine.warp_size);
    let shared_bytes = p
        .shared_static
        .saturating_add(u64::from(launch.shared_bytes));
    let reg_words = (p.registers as u64).saturating_mul(ws);
    let per_block = shared_bytes.div_ceil(4).saturating_add(
        reg_words
            .saturating_mul(2)
            .saturating_mul(shape.warps_per_block),
    );
    if per_block.saturating_mul(shape.resident_blocks) > budget.max_memory_words {
        return Err(SimError::budget(
            "max_memory_words",
            budget.max_memory_words,
            &format!(
                "{} resident blocks × ({shared_bytes} bytes of shared memory + {} virtual registers × {ws} lanes × 64 bits per warp)",
                shape.resident_blocks, p.registers
            ),
        ));
    }
    let shared_bytes = u32::try_from(shared_bytes)
        .map_err(|_| SimError::request("shared memory per block exceeds 4 GiB"))?;
    let mut sm = Sm::new(req, shape, true)?;
    let mut fe = Ptx {
        p,
        statics: p
            .code
            .iter()
            .map(|d| Timing::of(machine, d.class))
            .collect(),
        warps: Vec::new(),
        shared_bytes,
        base_buf: Vec::with_capacity(64),
        rows: semantics::Rows::default(),
        local_held: 0,
    };
    cycle_loop::run(&mut fe, &mut sm)?;
    Ok(sm.finish())
}

impl FrontEnd for Ptx<'_> {
    fn dispatch_block(&mut self, sm: &mut Sm, b: u64, cycle: u64) {
        let ws = sm.machine.warp_size as usize;
        let ctaid = sm.launch.block_index(b);
        let block_index = sm.blocks.len();
        let mut members = Vec::new();
        let mut live = 0;
        for w in 0..sm.shape.warps_per_block {
            let (mask, tid) = sm.threads(w);
            sm.add_timeline(b, w, cycle, usize::from(mask != 0));
            let stack = PdomStack::new(mask, self.p.code.len());
            live += u32::from(!stack.is_empty());
            members.push(sm.add_warp(block_index, cycle, stack.is_empty()));
            self.warps.push(Warp {
                regs: Regs::new(ws, self.p.registers),
                ids: Ids {
                    tid,
                    ntid: sm.launch.block,
                    ctaid,
                    nctaid: sm.launch.grid,
                    warp_in_block: w as u32,
                },
                ready: vec![0; self.p.registers],
                stack,
                local: LocalMemory::default(),
            });
        }
        let block = Block::new(self.shared_bytes, members, live, 0);
        sm.blocks.push(block);
    }

    fn pending(&self, w: usize) -> Option<(&Timing, u64)> {
        let warp = &self.warps[w];
        let pc = warp.stack.top()?.pc;
        let ex = self.p.code.get(pc)?.exec.as_ref().ok()?;
        Some((self.statics.get(pc)?, written_back(&warp.ready, ex.slots())))
    }

    fn issue(&mut self, sm: &mut Sm, w: usize, cycle: u64) -> Result<bool, SimError> {
        let Some(PdomEntry {
            pc, mask: active, ..
        }) = self.warps[w].stack.top()
        else {
            return Ok(false);
        };
        let code = self.p.code;
        let id = sm.timelines[w].warp;
        let Some(d) = code.get(pc) else {
            let span = code.last().map_or(isa::Span::default(), |i| i.span);
            return Err(SimError::at(
                span,
                format!("warp {id} fell off the end of the kernel (no ret/exit)"),
            ));
        };
        let ex = match &d.exec {
            Ok(x) => x,
            Err(msg) => return Err(SimError::at(d.span, msg.clone())),
        };
        let Some(&st) = self.statics.get(pc) else {
            return Ok(false);
        };
        let registers = written_back(&self.warps[w].ready, ex.slots());
        let Some(lane) = sm.try_issue((w, pc, active), &st, registers, cycle)? else {
            return Ok(false);
        };
        let ws = sm.machine.warp_size as u8;
        let exec = self.warps[w].regs.pred_mask(ex.guard, active);
        let trace = sm.launch.trace;
        if trace && id == sm.launch.stepper_warp {
            let at = StepAt {
                cycle,
                pc,
                address: isa::ptx::Function::pc(pc),
                line: d.span.line,
                text: &d.text,
                active,
                executed: exec,
            };
            let stack = self.warps[w].stack.entries().iter().map(|e| StackView {
                // A PDOM entry waiting for its paths is a reconvergence (SYNC-like)
                // entry; a path or the bottom entry is NIL.
                tag: if e.reconvergence { Tag::Sync } else { Tag::Nil },
                pc: e.pc,
                address: isa::ptx::Function::pc(e.pc),
                reconverges_at: e.rpc.map(isa::ptx::Function::pc),
                mask: LaneMask::new(e.mask, ws),
            });
            sm.record_step(at, stack)?;
        }
        let mut latency = st.latency;
        sm.memory.set_site(d.span.line, isa::ptx::Function::pc(pc));
        match &ex.op {
            Op::Load { .. } | Op::Store { .. } => {
                latency = self
                    .memory_op(sm, w, &ex.op, Access::of(id, pc, cycle, exec, st.latency))
                    .map_err(|m| SimError::at(d.span, m))?;
            }
            Op::Tex { .. } => {
                let at = Access::of(id, pc, cycle, exec, st.latency);
                latency = super::texture_access::execute(sm, &mut self.warps[w].regs, &ex.op, at)
                    .map_err(|m| SimError::at(d.span, m))?;
            }
            Op::Atom { .. } => {
                let at = Access::of(id, pc, cycle, exec, st.latency);
                let block = sm.warps[w].block;
                let warp = &mut self.warps[w];
                latency = super::atomics::execute(sm, &mut warp.regs, &warp.ids, block, &ex.op, at)
                    .map_err(|m| SimError::at(d.span, m))?;
            }
            op => {
                let warp = &mut self.warps[w];
                semantics::execute(op, &mut warp.regs, &warp.ids, exec, &mut self.rows).map_err(
                    |m| SimError::at(d.span, format!("cannot simulate {}: {m}", d.text)),
                )?;
            }
        }
        let k = st.cycles;
        let warp = &mut self.warps[w];
        let at = IssuedAt {
            cycle,
            cycles: k,
            lane: Some(lane),
            pc,
            line: d.span.line,
            active,
            executed: exec,
        };
        let complete = sm.issued_at(w, &st, at, latency, w)?;
        for &r in &ex.writes {
            if let Some(x) = warp.ready.get_mut(r as usize) {
                *x = complete;
            }
        }
        // Control (PDOM stack, see `pdom_stack`).
        let next = pc + 1;
        match ex.ctl {
            Ctl::Next => warp.stack.advance(next),
            Ctl::Branch { target, uniform } => {
                if uniform && exec != 0 && exec != active {
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
        sm.stack_depth(depth, "reconvergence stack", w, cycle)?;
        if depth == 0 {
            warp.regs.values = Vec::new();
            warp.ready = Vec::new();
            let local = std::mem::take(&mut warp.local);
            self.local_held -= local.held();
            sm.warp_done(w, w, cycle, complete);
        } else if matches!(ex.op, Op::Barrier) {
            sm.arrive(w, cycle);
        } else {
            cycle_loop::wake_after(self, sm, w, cycle, k, complete);
        }
        Ok(true)
    }
}

impl Ptx<'_> {
    /// Executes the load or store `op` of warp `w` (`at`: the access); returns its latency.
    fn memory_op(&mut self, sm: &mut Sm, w: usize, op: &Op, at: Access) -> Result<u64, String> {
        let (space, ty, addr, store) = match op {
            Op::Load {
                space, ty, addr, ..
            } => (*space, *ty, *addr, false),
            Op::Store {
                space, ty, addr, ..
            } => (*space, *ty, *addr, true),
            _ => return Err("not a memory operation".into()),
        };
        let (exec, class_latency) = (at.exec, at.class_latency);
        let bytes = u64::from(ty.bytes());
        let width = match op {
            Op::Load { ds, .. } => ds.len(),
            Op::Store { vs, .. } => vs.len(),
            _ => 1,
        } as u64;
        let block = sm.warps[w].block;
        // Each lane's first address (reported) and, for vector accesses, every element
        // address (for coalescing). Reused from one access to the next (two growing vectors
        // per access were a tenth of a run); an access that fails leaves fresh ones behind.
        let mut addrs = std::mem::take(&mut sm.addr_buf);
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
        if space == Space::Shared {
            // Shared addresses are 32-bit (PTX ISA, "State Spaces": the shared window is addressed
            // with 32-bit offsets): `[%r5+-4]` of a 32-bit register wraps as the GPU's does.
            for b in bases.iter_mut() {
                b.1 &= 0xffff_ffff;
            }
        }
        // One aligned word per lane inside one array (or the block's shared memory): index
        // the words directly. Anything else takes the per-lane path, which also reports
        // misaligned and stray accesses.
        let mut done = false;
        if width == 1 && bytes == 4 {
            let window = match space {
                Space::Global => sm.memory.window(&bases, 4),
                Space::Shared => sm.blocks[block].shared.window(&bases, 4),
                Space::Param | Space::Const | Space::Local => None,
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
                    match (space, local_offset(space, a)) {
                        (_, Some(off)) => {
                            let held = (&mut self.local_held, sm.budget.max_memory_words);
                            self.warps[w].local.write(lane, off, bytes, &words, held)?;
                        }
                        (Space::Global, None) => sm.memory.write(a, bytes, &words)?,
                        (Space::Shared, None) => sm.blocks[block].shared.write(a, bytes, &words)?,
                        _ => return Err("stores to the parameter or constant space".into()),
                    }
                } else {
                    let v = match (space, local_offset(space, a)) {
                        (_, Some(off)) => {
                            self.warps[w].local.read(lane, off, bytes, &mut words)?;
                            u64::from(words[0]) | u64::from(words[1]) << 32
                        }
                        (Space::Global | Space::Const | Space::Local, None) => {
                            sm.memory.read(a, bytes, &mut words)?;
                            u64::from(words[0]) | u64::from(words[1]) << 32
                        }
                        (Space::Shared, None) => {
                            sm.blocks[block].shared.read(a, bytes, &mut words)?;
                            u64::from(words[0]) | u64::from(words[1]) << 32
                        }
                        (Space::Param, None) => super::layout::Layout::read_param(
                            &sm.launch.params,
                            a,
                            bytes,
                        )
                        .ok_or_else(|| {
                            format!(
                                "parameter bytes {a}..{} are not in the launch's {} parameter words (parameters are laid out in declaration order at their alignment)",
                                a.saturating_add(bytes),
                                sm.launch.params.len()
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
        if matches!(space, Space::Param | Space::Const) {
            // The constant class latency, no transaction (the parameter and constant banks
            // are read through the constant cache, not the load/store path).
            sm.addr_buf = addrs;
            self.base_buf = bases;
            return Ok(class_latency);
        }
        // Element addresses: a scalar access's are the lanes' addresses.
        let elems = if width == 1 { &bases } else { &addrs };
        // A generic access to the local window is a local access (its first lane says).
        let local = bases
            .first()
            .is_some_and(|&(_, a)| local_offset(space, a).is_some());
        let access = Access {
            global: space == Space::Global && !local,
            local,
            store,
            bytes,
            lane_bytes: bytes * width,
            ..at
        };
        let latency = sm.finish_access(&access, elems, &bases);
        sm.addr_buf = addrs;
        self.base_buf = bases;
        latency
    }
}

/// The offset in a thread's local window of an access at `a` in `space`: a `.local`
/// access's own address, or a generic one in the window's generic range
/// ([`super::layout::GENERIC_LOCAL_BASE`]); `None` for any other access.
#[inline]
fn local_offset(space: Space, a: u64) -> Option<u64> {
    use super::layout::GENERIC_LOCAL_BASE;
    let window = crate::sass::local_memory::LOCAL_WINDOW_BYTES;
    let top = u64::from(crate::launch::LOCAL_STACK_TOP);
    match space {
        Space::Local => Some(a),
        Space::Global => a
            .checked_sub(GENERIC_LOCAL_BASE)
            .filter(|off| (top - window..top).contains(off)),
        _ => None,
    }
}
