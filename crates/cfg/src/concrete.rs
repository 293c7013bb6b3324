//! The concrete SIMT executor: the rules of §2 applied to a warp of real thread masks, on the
//! activation stack of [`crate::activation_stack`] (the stack the simulator runs too).
//!
//! It is the oracle for the abstract interpretation: every path it takes must be a path of
//! the warp-level CFG. Data values are modelled by a deterministic function of an
//! instruction's inputs (equal inputs give equal outputs — the only property the agreement
//! domain relies on): thread-varying special registers give per-thread values, memory is a
//! fixed function of the address, and a seed varies the outcomes of every comparison, which
//! is how a test chooses "per-thread predicate outcomes".

use crate::activation_stack::{ActivationStack, Rules};
use crate::state::Tag;
use isa::{BlockGraph, ControlKind, Instruction, Kernel, Register};
use std::collections::HashMap;

/// One entry of the concrete activation stack ([`crate::activation_stack`], shared with the
/// simulator): type, next PC (instruction index), mask.
pub use crate::activation_stack::StackEntry as ConcreteEntry;

/// The warp at the entry of a basic block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockVisit {
    pub block: usize,
    pub active: u64,
    /// Pending entries below the executing one, bottom first.
    pub pending: Vec<ConcreteEntry>,
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Every thread exited.
    Finished,
    /// More steps than allowed (e.g. a loop whose exit the seed never produced).
    StepLimit,
    /// An instruction the executor does not model (indirect branch, predicated call, ...).
    Unsupported(String),
}

/// The sequence of block entries of one execution.
#[derive(Debug, Clone)]
pub struct Trace {
    pub visits: Vec<BlockVisit>,
    pub outcome: Outcome,
}

pub(crate) fn mix(mut x: u64) -> u64 {
    // SplitMix64 finaliser: a fixed, well-spread function of its input.
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

pub(crate) struct Warp<'a> {
    pub(crate) kernel: &'a Kernel,
    pub(crate) threads: usize,
    pub(crate) regs: Vec<HashMap<Register, u64>>,
    /// Per thread, the registers whose value was folded from constants (crate::consts).
    pub(crate) constant: Vec<std::collections::HashSet<Register>>,
    pub(crate) seed: u64,
}

impl<'a> Warp<'a> {
    /// `threads` threads of `kernel` with no register written yet, data from `seed`.
    pub(crate) fn new(kernel: &'a Kernel, threads: usize, seed: u64) -> Self {
        Warp {
            kernel,
            threads,
            regs: vec![HashMap::new(); threads],
            constant: vec![Default::default(); threads],
            seed,
        }
    }
}

impl Warp<'_> {
    /// The value of `r` in thread `t` if it is a constant (`RZ`, `PT`, or folded from them).
    fn read_constant(&self, t: usize, r: &Register) -> Option<u64> {
        match r {
            Register::Zero => Some(0),
            Register::True => Some(1),
            _ => self.constant[t].contains(r).then(|| self.read(t, r)),
        }
    }

    fn read(&self, t: usize, r: &Register) -> u64 {
        match r {
            Register::Zero => 0,
            Register::True => 1,
            Register::Special(s) => {
                if crate::regset::is_thread_varying_special(s) {
                    mix(t as u64 ^ 0x5eed)
                } else {
                    mix(s.len() as u64)
                }
            }
            _ => self.regs[t].get(r).copied().unwrap_or(0),
        }
    }

    /// Whether thread `t` executes `ins`: its guard holds — and, for a branch, the
    /// predicates it tests besides ([`Instruction::branch_predicates`]: taken only where
    /// all hold).
    fn guard(&self, t: usize, ins: &Instruction) -> bool {
        let guard = match &ins.guard {
            None => true,
            Some(g) => (self.read(t, &g.reg) & 1 == 1) != g.negated,
        };
        guard
            && ins
                .branch_predicates()
                .all(|(reg, negated)| (self.read(t, reg) & 1 == 1) != negated)
    }

    pub(crate) fn guard_mask(&self, mask: u64, ins: &Instruction) -> u64 {
        (0..self.threads)
            .filter(|&t| mask >> t & 1 == 1 && self.guard(t, ins))
            .fold(0, |m, t| m | 1 << t)
    }

    /// Data effect: every executing thread writes a function of what it read.
    pub(crate) fn execute(&mut self, index: usize, ins: &Instruction, mask: u64) {
        if ins.writes.is_empty() {
            return;
        }
        let varies = matches!(
            ins.opcode.name.as_str(),
            "ATOM" | "ATOMS" | "SHFL" | "LDL" | "CS2R" | "RED" | "MATCH"
        );
        let vote = ins.opcode.name == "VOTE";
        for t in 0..self.threads {
            if mask >> t & 1 == 0 || !self.guard(t, ins) {
                continue;
            }
            // What the analysis folds from constants (crate::consts) gets its real value, so
            // that a constant the analysis knows is the value the oracle holds; everything
            // else stays a well-spread function of the inputs (and the seed).
            if let Some(values) = crate::consts::fold(ins, &|r| self.read_constant(t, r)) {
                for (w, v) in ins.writes.iter().zip(values) {
                    self.regs[t].insert(w.clone(), v);
                    self.constant[t].insert(w.clone());
                }
                continue;
            }
            for w in &ins.writes {
                self.constant[t].remove(w);
            }
            let mut h = mix(self.seed ^ (index as u64).wrapping_mul(0x100_0000_01b3));
            if vote {
                h = mix(h ^ mask);
            } else {
                for r in &ins.reads {
                    h = mix(h ^ self.read(t, r));
                }
                if varies {
                    h = mix(h ^ t as u64);
                }
            }
            for (k, w) in ins.writes.iter().enumerate() {
                let v = mix(h ^ k as u64);
                let v = if w.is_predicate() { v & 1 } else { v };
                self.regs[t].insert(w.clone(), v);
            }
        }
        let _ = self.kernel;
    }
}

/// `threads` clamped to 1..=64, and the mask of all of them.
pub(crate) fn warp_of(threads: usize) -> (usize, u64) {
    let threads = threads.clamp(1, 64);
    let full = if threads == 64 {
        u64::MAX
    } else {
        (1u64 << threads) - 1
    };
    (threads, full)
}

/// Per instruction index, the block that starts there.
pub(crate) fn block_starts(kernel: &Kernel, blocks: &BlockGraph) -> Vec<Option<usize>> {
    let mut block_at = vec![None; kernel.instructions.len()];
    for b in &blocks.blocks {
        block_at[b.first] = Some(b.id);
    }
    block_at
}

/// Runs `kernel` for a warp of `threads` threads (1..=64), all active at entry.
pub fn run(
    kernel: &Kernel,
    blocks: &BlockGraph,
    threads: usize,
    seed: u64,
    max_steps: usize,
) -> Trace {
    let (threads, full) = warp_of(threads);
    let block_at = block_starts(kernel, blocks);
    let mut warp = Warp::new(kernel, threads, seed);
    let mut stack = ActivationStack::with_rules(full, Rules::of(kernel));
    let mut visits = Vec::new();
    let mut steps = 0;
    let n = kernel.instructions.len();
    let unsupported = |visits, why: String| Trace {
        visits,
        outcome: Outcome::Unsupported(why),
    };
    while let Some(top) = stack.top() {
        if steps >= max_steps {
            return Trace {
                visits,
                outcome: Outcome::StepLimit,
            };
        }
        steps += 1;
        if stack.pop_unarrived() {
            continue;
        }
        let pc = top.pc;
        let Some(ins) = kernel.instructions.get(pc) else {
            return unsupported(visits, "fell off the end".into());
        };
        // Every leader starts a block, so being at one is entering that block.
        if let Some(b) = block_at[pc] {
            visits.push(BlockVisit {
                block: b,
                active: top.mask,
                pending: stack.pending().to_vec(),
            });
        }
        warp.execute(pc, ins, top.mask);
        let next = pc + 1;
        let idx = |a: Option<u64>| a.and_then(|a| kernel.index_of(a));
        match ins.control {
            ControlKind::Ssy(t)
            | ControlKind::Pbk(t)
            | ControlKind::Pcnt(t)
            | ControlKind::Pret(t)
            | ControlKind::Bssy { target: t, .. } => {
                let Some((tag, _)) = Tag::pushed_by(ins.control) else {
                    return unsupported(visits, "not a push".into());
                };
                let Some(t) = idx(t) else {
                    return unsupported(visits, "unresolved target".into());
                };
                stack.prepare(tag, t, next);
            }
            ControlKind::Branch(t) => {
                let Some(t) = idx(t) else {
                    return unsupported(visits, "unresolved target".into());
                };
                let mut taken = warp.guard_mask(top.mask, ins);
                if ins.guard.is_none()
                    && crate::barriers::on_convergence(ins)
                    && stack.is_diverged() != ins.opcode.has_modifier("DIV")
                {
                    taken = 0;
                }
                stack.branch(taken, t, next, ins.opcode.has_modifier("U"));
            }
            ControlKind::Bsync { barrier } => {
                stack.bsync(barrier, warp.guard_mask(top.mask, ins), next);
            }
            ControlKind::Break { barrier } => {
                if crate::barriers::fused_break_at(kernel, &block_at, pc).is_none() {
                    return unsupported(visits, "BREAK without its branch".into());
                }
                stack.break_barrier(barrier, warp.guard_mask(top.mask, ins), next);
            }
            ControlKind::Sync
            | ControlKind::Brk
            | ControlKind::Cont
            | ControlKind::Ret
            | ControlKind::Exit => {
                // Halted threads leave every entry down to the matching one; the others (if
                // the instruction is guarded) continue at the next instruction.
                let halted = warp.guard_mask(top.mask, ins);
                stack.halt(halted, Tag::unwound_by(ins.control), next);
            }
            ControlKind::Call(Some(t)) => {
                let Some(t) = idx(Some(t)) else {
                    return unsupported(visits, "unresolved target".into());
                };
                stack.call(warp.guard_mask(top.mask, ins), t, next);
            }
            ControlKind::Indirect => {
                let why = format!("indirect branch `{}`", ins.opcode.name);
                return unsupported(visits, why);
            }
            ControlKind::WarpSync => stack.warp_sync(next),
            ControlKind::Fallthrough | ControlKind::Barrier | ControlKind::Call(None) => {
                stack.advance(next);
            }
        }
        if next >= n && stack.top().is_some_and(|e| e.pc >= n) {
            return unsupported(visits, "fell off the end".into());
        }
    }
    Trace {
        visits,
        outcome: Outcome::Finished,
    }
}
