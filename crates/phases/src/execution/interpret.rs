//! A functional interpreter of Sim-D programs for one work-group, three-valued: every lane of
//! every register is a known 32-bit value or unknown ([`super::lanes`]). It exists to decide
//! which way a work-group's branches go ([`super::path`]), not to compute results.
//!
//! **What is known.** The launch: `sc.dim_x/y` (the NDRange), `sc.wg_width`,
//! `sc.wg_off_x/y` (work-group `g` at `(g mod ⌈X/N⌉, g div ⌈X/N⌉)`, row-major as in
//! [`super::requests`], §2.1), `vc.lid_x/y` (lane `l` at `(l mod N, l div N)`), `vc.tid_x/y`
//! (offset plus local id), `vc.zero`, and `bufquery` of a `.data` buffer (its dims).
//! Everything a DRAM or scratchpad transfer writes is unknown (the corpus has no input files
//! here: the destination, the registers after it of a `.vec2`/`.vec4` load or a multi-word
//! `sldg`, and `vc.mem_data`), as is every register before its first write.
//!
//! **Semantics** (one line per opcode in `isa::simd::opcode_docs`; values in [`super::alu`]):
//! integer ALU ops wrap at 32 bits; where signed and unsigned readings could differ (`imin`/`imax`
//! of operands of different sign, a right shift or division of a negative value, a shift by 32 or
//! more, division by zero) the result is unknown rather than guessed. Float ops are IEEE single
//! precision rounded to nearest, unknown when NaN or a subnormal is involved (flush-to-zero is not
//! known) and, for `mad`, when fused and unfused results differ; `rcp`, `rsqrt`, `sin`, `cos`,
//! `sibfind`, `vc.one`, the mask registers and unknown mnemonics give unknown values.
//! `itest`/`sicj` compare as signed 32-bit integers, `test` as floats.
//!
//! **Control (§3.1).** A work-item is enabled when its run mask is set and its break,
//! return and exit masks are clear. CSTACK entries are (target, type, saved mask):
//! `cpush.if`/`bra` save the run mask, `cpush.brk` the break mask, `cpush.jc`/`call` the
//! return mask, and popping an entry restores that mask and continues at its target.
//! `cmask p` clears the run mask where `p` is false, `brk p`/`ret p`/`exit p` set the
//! break/return/exit mask of the enabled lanes of `p`, `bra t, p` is `cpush.if t` plus
//! clearing `p`'s lanes from the run mask, `call t, p` pushes the return point and disables
//! the lanes outside `p`. When no work-item is left enabled the decoder injects `cpop`s until
//! one is (§3.1), and with an empty stack the work-group ends. The stack is the same as the
//! one [`crate::control_flow`] tracks, so every decision names one of its CFG edges (by
//! target block and number of pops).
//!
//! Work-items past the NDRange's edge (a partial work-group, §2.1) start with an unknown
//! run mask: whether the hardware launches them is not known here.
//!
//! Once the interpreter cannot follow the program (an unmodelled control form, such as a
//! predicate on `cpush`, a write to a mask register, or an edge the analysis's DAG does not
//! offer) it is *lost*: it keeps executing but decides nothing more.

use super::alu::{convert, float_op, float_test, fp, int_op, int_test, mad};
use super::lanes::Lanes;
use crate::basic_blocks::{block_at, split, BasicBlock};
use crate::control_flow::{analyse, ControlFlow, StackKind};
use crate::error::Error;
use crate::SimdResult;
use isa::simd::{Instruction, Op, OperandKind, Program, Reg};

/// Highest lane count the interpreter accepts (a work-group's work-items).
const MAX_LANES: u64 = 1 << 16;

/// What one work-group's interpretation shares with the others: the program, its blocks and
/// CFG, and the launch geometry.
pub(crate) struct Context<'p> {
    program: &'p Program,
    blocks: Vec<BasicBlock>,
    /// Per instruction: the block its label operand names (branches, `cpush`, `call`).
    targets: Vec<Option<usize>>,
    cf: ControlFlow,
    /// Lanes (work-items) per work-group.
    n: usize,
    wg_width: u64,
    groups_x: u64,
    wg_height: u64,
    nd_range: [u64; 2],
    lid_x: Lanes<u32>,
    lid_y: Lanes<u32>,
}

impl<'p> Context<'p> {
    pub(crate) fn new(program: &'p Program, result: &SimdResult) -> Result<Self, Error> {
        let blocks = split(program);
        if blocks.len() != result.blocks.len()
            || blocks
                .iter()
                .zip(&result.blocks)
                .any(|(a, b)| a.first != b.first_instruction || a.len() != b.instruction_count)
        {
            return Err(Error::request(
                "internal: path=launch was given a program other than the analysed one",
            ));
        }
        let cf = analyse(program, &blocks)?;
        let targets = program
            .instructions
            .iter()
            .map(|i| {
                i.target_label()
                    .and_then(|l| program.label_index(l))
                    .and_then(|k| block_at(&blocks, k))
            })
            .collect();
        let work_items = result.config.work_items;
        if work_items == 0 || work_items > MAX_LANES {
            return Err(Error::request(format!(
                "path=launch interprets work-groups of at most {MAX_LANES} work-items, not {work_items}"
            )));
        }
        let n = work_items as usize;
        let wg_width = result.launch.wg_width.max(1);
        let to_u32 = |x: u64| u32::try_from(x).ok();
        let lid_x = Lanes::Each((0..work_items).map(|l| to_u32(l % wg_width)).collect());
        let lid_y = Lanes::Each((0..work_items).map(|l| to_u32(l / wg_width)).collect());
        Ok(Context {
            program,
            blocks,
            targets,
            cf,
            n,
            wg_width,
            groups_x: result.launch.nd_range[0].div_ceil(wg_width).max(1),
            wg_height: result.launch.wg_height.max(1),
            nd_range: result.launch.nd_range,
            lid_x,
            lid_y,
        })
    }

    /// Could block `b`'s end go more than one way in the CFG (several edges, or an `exit`
    /// that may end the work-group)?
    pub(crate) fn branches(&self, b: usize) -> bool {
        let last = self.blocks.get(b).map(BasicBlock::last);
        self.cf.out.get(b).is_some_and(|o| o.len() > 1)
            || last.is_some_and(|k| self.program.instructions[k].op == Some(Op::Exit))
    }

    /// The number of CSTACK pops of the CFG edge `from → to`, if there is exactly one such
    /// number (§5.2's edge annotation).
    pub(crate) fn pops(&self, from: usize, to: usize) -> Option<u32> {
        let mut found = None;
        for &e in self.cf.out.get(from)? {
            let edge = &self.cf.edges[e];
            if edge.to == to {
                match found {
                    None => found = Some(edge.cpops),
                    Some(p) if p != edge.cpops => return None,
                    Some(_) => {}
                }
            }
        }
        found
    }
}

/// Where control goes after a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Next {
    /// At `block`, after popping `pops` CSTACK entries (injected or by `cpop`).
    Block { block: usize, pops: u32 },
    /// No work-item is left: the work-group ends here.
    End,
    /// Not decidable from what is known.
    Unknown,
}

/// The interpreter's instruction budget (derived from `max_sim_phases`, see
/// [`super::path`]).
pub(crate) struct Steps {
    pub(crate) left: u64,
    pub(crate) limit: u64,
}

#[derive(Debug, Clone)]
struct Masks {
    run: Lanes<bool>,
    brk: Lanes<bool>,
    ret: Lanes<bool>,
    exit: Lanes<bool>,
}

impl Masks {
    fn active(&self, n: usize) -> Lanes<bool> {
        self.run
            .and(&self.brk.not(n), n)
            .and(&self.ret.not(n), n)
            .and(&self.exit.not(n), n)
    }

    fn slot(&mut self, kind: StackKind) -> &mut Lanes<bool> {
        match kind {
            StackKind::Run => &mut self.run,
            StackKind::Break => &mut self.brk,
            StackKind::Return => &mut self.ret,
        }
    }
}

#[derive(Debug, Clone)]
struct Entry {
    target: usize,
    kind: StackKind,
    saved: Lanes<bool>,
}

/// One work-group's machine state.
pub(crate) struct Machine<'c, 'p> {
    cx: &'c Context<'p>,
    v: Vec<Lanes<u32>>,
    s: Vec<Option<u32>>,
    p: Vec<Lanes<bool>>,
    /// `vc.*` as values (the mask registers are kept in `masks`, read as unknown).
    vsp: Vec<Lanes<u32>>,
    ssp: Vec<Option<u32>>,
    masks: Masks,
    active: Lanes<bool>,
    stack: Vec<Entry>,
    /// The interpreter no longer follows the program: decide nothing.
    pub(crate) lost: bool,
}

const VSP_TID_X: usize = 4;
const VSP_MEM_IDX: usize = 10;
const VSP_MEM_DATA: usize = 11;

impl<'c, 'p> Machine<'c, 'p> {
    /// Work-group `g` at the start of the program.
    pub(crate) fn new(cx: &'c Context<'p>, g: u64) -> Self {
        let n = cx.n;
        let (gx, gy) = (g % cx.groups_x, g / cx.groups_x);
        let off_x = gx.checked_mul(cx.wg_width);
        let off_y = gy.checked_mul(cx.wg_height);
        let to_u32 = |x: Option<u64>| x.and_then(|x| u32::try_from(x).ok());
        let add = |lid: &Lanes<u32>, off: Option<u64>| match to_u32(off) {
            Some(o) => lid.map(n, |l| l.checked_add(o)),
            None => Lanes::unknown(),
        };
        let tid_x = add(&cx.lid_x, off_x);
        let tid_y = add(&cx.lid_y, off_y);
        // Inside the NDRange: enabled; past its edge: not known.
        let inside = |t: &Lanes<u32>, dim: u64| {
            t.map(n, |x| if u64::from(x) < dim { Some(true) } else { None })
        };
        let run = inside(&tid_x, cx.nd_range[0]).and(&inside(&tid_y, cx.nd_range[1]), n);
        let mut vsp = vec![Lanes::unknown(); isa::simd::operand::VECTOR_SPECIALS.len()];
        vsp[VSP_TID_X] = tid_x;
        vsp[VSP_TID_X + 1] = tid_y;
        vsp[VSP_TID_X + 2] = cx.lid_x.clone();
        vsp[VSP_TID_X + 3] = cx.lid_y.clone();
        vsp[8] = Lanes::All(Some(0));
        let ssp = vec![
            to_u32(Some(cx.nd_range[0])),
            to_u32(Some(cx.nd_range[1])),
            to_u32(off_x),
            to_u32(off_y),
            to_u32(Some(cx.wg_width)),
            None,
            None,
            None,
        ];
        let masks = Masks {
            run,
            brk: Lanes::All(Some(false)),
            ret: Lanes::All(Some(false)),
            exit: Lanes::All(Some(false)),
        };
        let active = masks.active(n);
        Machine {
            cx,
            v: vec![Lanes::unknown(); isa::simd::operand::MAX_VGPR as usize + 1],
            s: vec![None; isa::simd::operand::MAX_SGPR as usize + 1],
            p: vec![Lanes::unknown(); isa::simd::operand::MAX_PRED as usize + 1],
            vsp,
            ssp,
            masks,
            active,
            stack: Vec::new(),
            lost: false,
        }
    }

    /// Executes block `b` and says where control goes next (not applying the pops: see
    /// [`Machine::apply`]).
    pub(crate) fn run_block(&mut self, b: usize, steps: &mut Steps) -> Result<Next, Error> {
        let Some(block) = self.cx.blocks.get(b) else {
            return Err(Error::request(format!(
                "internal: block {b} is not in the program"
            )));
        };
        let next = self.cx.blocks.get(b + 1).map(|x| x.id);
        for k in block.first..block.end {
            if steps.left == 0 {
                return Err(Error::budget(
                    "max_sim_phases",
                    steps.limit,
                    "interpreting the work-groups' instructions for path=launch (256 instructions per phase instance)",
                ));
            }
            steps.left -= 1;
            let inst = &self.cx.program.instructions[k];
            if let Some(n) = self.control(inst, k, next) {
                return Ok(n);
            }
        }
        Ok(match next {
            Some(t) => Next::Block { block: t, pops: 0 },
            None => Next::End,
        })
    }

    /// Pops `pops` CSTACK entries, restoring their masks (the edge control took).
    pub(crate) fn apply(&mut self, pops: u32) {
        if pops == 0 {
            return;
        }
        for _ in 0..pops {
            let Some(e) = self.stack.pop() else {
                self.lost = true;
                return;
            };
            *self.masks.slot(e.kind) = e.saved;
        }
        self.active = self.masks.active(self.cx.n);
    }

    /// Follows the CFG edge `from → to` chosen without the interpreter's help.
    pub(crate) fn follow(&mut self, from: usize, to: usize) {
        match self.cx.pops(from, to) {
            Some(p) if p as usize <= self.stack.len() => self.apply(p),
            _ => self.lost = true,
        }
    }

    /// Where control goes when the enabled work-items continue at `cont` (`None`: the end
    /// of the program) after `forced` pops, injecting further pops while none is enabled.
    fn resolve(&mut self, cont: Option<usize>, forced: u32) -> Next {
        if self.lost {
            return Next::Unknown;
        }
        let n = self.cx.n;
        if forced as usize > self.stack.len() {
            self.lost = true;
            return Next::Unknown;
        }
        let stack = &self.stack;
        let mut masks = self.masks.clone();
        let mut depth = stack.len();
        let mut target = cont;
        let mut pops = 0u32;
        let pop = |masks: &mut Masks, depth: &mut usize, target: &mut Option<usize>| {
            *depth -= 1;
            let e = &stack[*depth];
            *masks.slot(e.kind) = e.saved.clone();
            *target = Some(e.target);
        };
        for _ in 0..forced {
            pop(&mut masks, &mut depth, &mut target);
            pops += 1;
        }
        loop {
            match masks.active(n).any(n) {
                Some(true) => {
                    return match target {
                        Some(block) => Next::Block { block, pops },
                        None => Next::End,
                    }
                }
                None => return Next::Unknown,
                Some(false) if depth == 0 => return Next::End,
                Some(false) => {
                    pop(&mut masks, &mut depth, &mut target);
                    pops += 1;
                }
            }
        }
    }

    /// Control-flow instructions; data instructions are passed on to [`Machine::data`].
    /// Returns where control goes when `inst` ends the block.
    fn control(&mut self, inst: &Instruction, k: usize, next: Option<usize>) -> Option<Next> {
        let n = self.cx.n;
        let target = self.cx.targets.get(k).copied().flatten();
        let Some(op) = inst.op else {
            self.data(inst);
            return None;
        };
        let has_dst = inst.dst.is_some();
        match op {
            Op::J => Some(match target {
                Some(t) if !self.lost => Next::Block { block: t, pops: 0 },
                _ => Next::Unknown,
            }),
            Op::Sicj => {
                let c = self.ssrc(inst, 1).and_then(|x| int_test(inst.subop, x));
                Some(match (c, target, self.lost) {
                    (Some(true), Some(t), false) => Next::Block { block: t, pops: 0 },
                    (Some(false), _, false) => match next {
                        Some(t) => Next::Block { block: t, pops: 0 },
                        None => Next::End,
                    },
                    _ => Next::Unknown,
                })
            }
            Op::CPush => {
                let kind = match inst.subop {
                    Some(1) => StackKind::Break,
                    Some(2) => StackKind::Return,
                    _ => StackKind::Run,
                };
                match target {
                    Some(t) if inst.src(1).is_none() => self.push(t, kind),
                    _ => self.lost = true,
                }
                None
            }
            Op::CMask | Op::Brk | Op::Ret | Op::Exit => {
                if has_dst {
                    self.lost = true;
                }
                let p = if op == Op::Exit && inst.src(0).is_none() {
                    Lanes::All(Some(true))
                } else {
                    self.psrc(inst, 0)
                };
                let m = &mut self.masks;
                match op {
                    Op::CMask => m.run = m.run.and(&p, n),
                    Op::Brk => m.brk = m.brk.or(&p.and(&self.active, n), n),
                    Op::Ret => m.ret = m.ret.or(&p.and(&self.active, n), n),
                    _ => m.exit = m.exit.or(&p.and(&self.active, n), n),
                }
                self.active = self.masks.active(n);
                Some(self.resolve(next, 0))
            }
            Op::Bra => {
                if has_dst {
                    self.lost = true;
                }
                let p = self.psrc(inst, 1);
                match target {
                    Some(t) => self.push(t, StackKind::Run),
                    None => self.lost = true,
                }
                self.masks.run = self.masks.run.and(&p.not(n), n);
                self.active = self.masks.active(n);
                Some(self.resolve(next, 0))
            }
            Op::Call => {
                if has_dst {
                    self.lost = true;
                }
                let p = match inst.src(1) {
                    None => Lanes::All(Some(true)),
                    Some(_) => self.psrc(inst, 1),
                };
                match next {
                    Some(r) => self.push(r, StackKind::Return),
                    None => self.lost = true,
                }
                let off = self.active.and(&p.not(n), n);
                self.masks.ret = self.masks.ret.or(&off, n);
                self.active = self.masks.active(n);
                Some(self.resolve(target, 0))
            }
            Op::CPop => Some(self.resolve(None, 1)),
            _ => {
                self.data(inst);
                None
            }
        }
    }

    fn push(&mut self, target: usize, kind: StackKind) {
        let saved = self.masks.slot(kind).clone();
        self.stack.push(Entry {
            target,
            kind,
            saved,
        });
    }

    /// A source slot as a per-lane value (vector, special, scalar broadcast or immediate).
    fn vsrc(&self, inst: &Instruction, slot: usize) -> Lanes<u32> {
        match inst.src(slot).map(|o| &o.kind) {
            Some(OperandKind::Register { reg }) => match *reg {
                Reg::Vector(i) => self.v.get(i as usize).cloned().unwrap_or_default(),
                Reg::VectorSpecial(i) => self.vsp.get(i as usize).cloned().unwrap_or_default(),
                Reg::Scalar(_) | Reg::ScalarSpecial(_) => Lanes::All(self.ssrc(inst, slot)),
                Reg::Predicate(_) => Lanes::unknown(),
            },
            Some(OperandKind::Immediate { bits, .. }) => Lanes::All(Some(*bits)),
            _ => Lanes::unknown(),
        }
    }

    /// A source slot as a scalar.
    fn ssrc(&self, inst: &Instruction, slot: usize) -> Option<u32> {
        match inst.src(slot).map(|o| &o.kind)? {
            OperandKind::Register { reg } => match *reg {
                Reg::Scalar(i) => self.s.get(i as usize).copied().flatten(),
                Reg::ScalarSpecial(i) => self.ssp.get(i as usize).copied().flatten(),
                _ => None,
            },
            OperandKind::Immediate { bits, .. } => Some(*bits),
            OperandKind::Label { .. } => None,
        }
    }

    /// A predicate source slot.
    fn psrc(&self, inst: &Instruction, slot: usize) -> Lanes<bool> {
        match inst.src_reg(slot) {
            Some(Reg::Predicate(i)) => self.p.get(i as usize).cloned().unwrap_or_default(),
            _ => Lanes::unknown(),
        }
    }

    /// Writes a per-lane value to `reg` for the enabled lanes.
    fn write_v(&mut self, reg: Option<Reg>, val: Lanes<u32>) {
        let n = self.cx.n;
        match reg {
            Some(Reg::Vector(i)) => {
                if let Some(r) = self.v.get_mut(i as usize) {
                    *r = Lanes::select(&self.active, val, r, n);
                }
            }
            Some(Reg::VectorSpecial(i))
                if i as usize == VSP_MEM_IDX || i as usize == VSP_MEM_DATA =>
            {
                if let Some(r) = self.vsp.get_mut(i as usize) {
                    *r = Lanes::select(&self.active, val, r, n);
                }
            }
            Some(Reg::Scalar(_) | Reg::ScalarSpecial(_)) => self.write_s(reg, val.get(0)),
            other => self.clobber(other),
        }
    }

    fn write_s(&mut self, reg: Option<Reg>, val: Option<u32>) {
        match reg {
            Some(Reg::Scalar(i)) => {
                if let Some(r) = self.s.get_mut(i as usize) {
                    *r = val;
                }
            }
            Some(Reg::ScalarSpecial(i)) => {
                if let Some(r) = self.ssp.get_mut(i as usize) {
                    *r = val;
                }
            }
            other => self.clobber(other),
        }
    }

    fn write_p(&mut self, reg: Option<Reg>, val: Lanes<bool>) {
        match reg {
            Some(Reg::Predicate(i)) => {
                let n = self.cx.n;
                if let Some(r) = self.p.get_mut(i as usize) {
                    *r = Lanes::select(&self.active, val, r, n);
                }
            }
            other => self.clobber(other),
        }
    }

    /// Makes `reg` unknown in every lane. A mask register written as data loses the
    /// interpreter (its encoding is not modelled).
    fn clobber(&mut self, reg: Option<Reg>) {
        match reg {
            Some(Reg::Vector(i)) => {
                if let Some(r) = self.v.get_mut(i as usize) {
                    *r = Lanes::unknown();
                }
            }
            Some(Reg::Scalar(i)) => {
                if let Some(r) = self.s.get_mut(i as usize) {
                    *r = None;
                }
            }
            Some(Reg::Predicate(i)) => {
                if let Some(r) = self.p.get_mut(i as usize) {
                    *r = Lanes::unknown();
                }
            }
            Some(Reg::ScalarSpecial(i)) => {
                if let Some(r) = self.ssp.get_mut(i as usize) {
                    *r = None;
                }
            }
            Some(Reg::VectorSpecial(i)) => {
                if let Some(r) = self.vsp.get_mut(i as usize) {
                    *r = Lanes::unknown();
                }
                if i < 4 {
                    self.lost = true;
                }
            }
            None => {}
        }
    }

    /// Non-control instructions.
    fn data(&mut self, inst: &Instruction) {
        let n = self.cx.n;
        let dst = inst.dst_reg();
        let Some(op) = inst.op else {
            self.clobber(dst);
            return;
        };
        let neg = inst.subop_text.as_deref() == Some("neg");
        match op {
            Op::IAdd | Op::ISub | Op::IMul | Op::IMin | Op::IMax | Op::Shl | Op::Shr => {
                let f = int_op(op);
                let r = self.vsrc(inst, 0).zip(&self.vsrc(inst, 1), n, f);
                self.write_v(dst, r);
            }
            Op::And | Op::Or | Op::Xor => {
                let f = int_op(op);
                let r = self.vsrc(inst, 0).zip(&self.vsrc(inst, 1), n, f);
                self.write_v(dst, r);
            }
            Op::IMad => {
                let ab = self
                    .vsrc(inst, 0)
                    .zip(&self.vsrc(inst, 1), n, |a, b| Some(a.wrapping_mul(b)));
                let r = ab.zip(&self.vsrc(inst, 2), n, |p, c| Some(p.wrapping_add(c)));
                self.write_v(dst, r);
            }
            Op::Not => {
                let r = self.vsrc(inst, 0).map(n, |a| Some(!a));
                self.write_v(dst, r);
            }
            Op::SIAdd
            | Op::SISub
            | Op::SIMul
            | Op::SIMin
            | Op::SIMax
            | Op::SShl
            | Op::SShr
            | Op::SIDiv
            | Op::SIMod
            | Op::SAnd
            | Op::SOr => {
                let f = int_op(op);
                let r = match (self.ssrc(inst, 0), self.ssrc(inst, 1)) {
                    (Some(a), Some(b)) => f(a, b),
                    _ => None,
                };
                self.write_s(dst, r);
            }
            Op::SIMad => {
                let r = match (self.ssrc(inst, 0), self.ssrc(inst, 1), self.ssrc(inst, 2)) {
                    (Some(a), Some(b), Some(c)) => Some(a.wrapping_mul(b).wrapping_add(c)),
                    _ => None,
                };
                self.write_s(dst, r);
            }
            Op::SINeg => {
                let r = self.ssrc(inst, 0).map(u32::wrapping_neg);
                self.write_s(dst, r);
            }
            Op::SNot => {
                let r = self.ssrc(inst, 0).map(|a| !a);
                self.write_s(dst, r);
            }
            Op::Add | Op::Mul | Op::Min | Op::Max => {
                let r = self
                    .vsrc(inst, 0)
                    .zip(&self.vsrc(inst, 1), n, |a, b| float_op(op, neg, a, b));
                self.write_v(dst, r);
            }
            Op::Mad => {
                let ab = self
                    .vsrc(inst, 0)
                    .zip(&self.vsrc(inst, 1), n, |a, b| Some((a, b)));
                let r = ab.zip(&self.vsrc(inst, 2), n, |(a, b), c| mad(neg, a, b, c));
                self.write_v(dst, r);
            }
            Op::Abs => {
                let r = self
                    .vsrc(inst, 0)
                    .map(n, |a| fp(a).map(|f| f.abs().to_bits()));
                self.write_v(dst, r);
            }
            Op::Mov | Op::MovVsp => {
                let r = self.vsrc(inst, 0);
                self.write_v(dst, r);
            }
            Op::SMov | Op::SMovSsp => {
                let r = self.ssrc(inst, 0);
                self.write_s(dst, r);
            }
            Op::Cvt => {
                let r = self.vsrc(inst, 0).map(n, |a| convert(inst.subop, a));
                self.write_v(dst, r);
            }
            Op::SCvt => {
                let r = self.ssrc(inst, 0).and_then(|a| convert(inst.subop, a));
                self.write_s(dst, r);
            }
            Op::BufQuery => {
                let b = self
                    .ssrc(inst, 0)
                    .and_then(|id| self.cx.program.buffers.get(&id));
                let r = b
                    .map(|b| {
                        if inst.subop == Some(1) {
                            b.dim_y
                        } else {
                            b.dim_x
                        }
                    })
                    .and_then(|d| u32::try_from(d).ok());
                self.write_s(dst, r);
            }
            Op::ITest | Op::Test => {
                let sub = inst.subop;
                let r = self.vsrc(inst, 0).map(n, |a| {
                    if op == Op::ITest {
                        int_test(sub, a)
                    } else {
                        float_test(sub, a)
                    }
                });
                self.write_p(dst, r);
            }
            Op::PBool => {
                let (a, b) = (self.psrc(inst, 0), self.psrc(inst, 1));
                let r = match inst.subop {
                    Some(0) => a.and(&b, n),
                    Some(1) => a.or(&b, n),
                    Some(2) => a.and(&b, n).not(n),
                    Some(3) => a.or(&b, n).not(n),
                    _ => Lanes::unknown(),
                };
                self.write_p(dst, r);
            }
            Op::Rcp | Op::Rsqrt | Op::Sin | Op::Cos | Op::SIBFind => self.clobber(dst),
            op if op.category() == isa::simd::Category::LoadStore
                && !op.is_global_store()
                && !matches!(op, Op::StspLin | Op::StspBIdx) =>
            {
                // Loads: the destination (and, for .vec2/.vec4, the registers after
                // it) and the indexed-transfer data register become unknown.
                // `sldg s, buf, k` fills k scalars from s on (cnn_convolution: "sldg s0, 2,
                // 3 // s0 … s1 … s2"); if the operand means something else, clobbering more
                // registers than written only loses knowledge.
                let width = match (op, inst.subop_text.as_deref()) {
                    (Op::Sldg, _) => inst
                        .src(1)
                        .and_then(isa::simd::Operand::int_value)
                        .map_or(1, |k| k.clamp(1, 32) as u32),
                    (_, Some("vec2")) => 2,
                    (_, Some("vec4")) => 4,
                    _ => 1,
                };
                match dst {
                    Some(Reg::Vector(i)) => {
                        for j in i..i.saturating_add(width) {
                            self.clobber(Some(Reg::Vector(j)));
                        }
                    }
                    Some(Reg::Scalar(i)) => {
                        for j in i..i.saturating_add(width) {
                            self.clobber(Some(Reg::Scalar(j)));
                        }
                    }
                    other => self.clobber(other),
                }
                self.vsp[VSP_MEM_DATA] = Lanes::unknown();
            }
            // nop, debug printing; control ops never reach here.
            _ => {}
        }
    }
}
