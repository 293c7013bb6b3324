//! The concrete SIMT executor: the rules of §2 applied to a warp of real thread masks.
//!
//! It is the oracle for the abstract interpretation: every path it takes must be a path of
//! the warp-level CFG. Data values are modelled by a deterministic function of an
//! instruction's inputs (equal inputs give equal outputs — the only property the agreement
//! domain relies on): thread-varying special registers give per-thread values, memory is a
//! fixed function of the address, and a seed varies the outcomes of every comparison, which
//! is how a test chooses "per-thread predicate outcomes".

use crate::state::{Tag, NOT_ARRIVED};
use isa::{BlockGraph, ControlKind, Instruction, Kernel, Register};
use std::collections::HashMap;

/// One entry of the concrete activation stack (§2): type, next PC (instruction index), mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConcreteEntry {
    pub tag: Tag,
    pub pc: usize,
    pub mask: u64,
}

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

fn mix(mut x: u64) -> u64 {
    // SplitMix64 finaliser: a fixed, well-spread function of its input.
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

struct Warp<'a> {
    kernel: &'a Kernel,
    threads: usize,
    regs: Vec<HashMap<Register, u64>>,
    seed: u64,
}

impl Warp<'_> {
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

    fn guard(&self, t: usize, ins: &Instruction) -> bool {
        match &ins.guard {
            None => true,
            Some(g) => (self.read(t, &g.reg) & 1 == 1) != g.negated,
        }
    }

    fn guard_mask(&self, mask: u64, ins: &Instruction) -> u64 {
        (0..self.threads)
            .filter(|&t| mask >> t & 1 == 1 && self.guard(t, ins))
            .fold(0, |m, t| m | 1 << t)
    }

    /// Data effect: every executing thread writes a function of what it read.
    fn execute(&mut self, index: usize, ins: &Instruction, mask: u64) {
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
                self.regs[t].insert(w.clone(), v);
            }
        }
        let _ = self.kernel;
    }
}

/// Removes `halted` from the entries from the top down to (excluding) the topmost entry
/// tagged `tag` (all entries when `tag` is `None` or absent), popping emptied entries (§2).
fn remove_threads(stack: &mut Vec<ConcreteEntry>, halted: u64, tag: Option<Tag>) {
    let stop = tag.and_then(|t| {
        // The executing entry is the last one; search below it.
        stack[..stack.len().saturating_sub(1)]
            .iter()
            .rposition(|e| e.tag == t)
    });
    let from = stop.map_or(0, |s| s + 1);
    for e in &mut stack[from..] {
        e.mask &= !halted;
    }
    let mut k = from;
    while k < stack.len() {
        if stack[k].mask == 0 {
            stack.remove(k);
        } else {
            k += 1;
        }
    }
    if let Some(top) = stack.last_mut() {
        top.tag = Tag::Nil;
    }
}

/// The topmost pending entry (below the executing one) of convergence barrier `b`.
fn barrier_entry(stack: &[ConcreteEntry], b: u8) -> Option<usize> {
    stack[..stack.len().saturating_sub(1)]
        .iter()
        .rposition(|e| e.tag == Tag::Barrier(b))
}

/// Runs `kernel` for a warp of `threads` threads (1..=64), all active at entry.
pub fn run(
    kernel: &Kernel,
    blocks: &BlockGraph,
    threads: usize,
    seed: u64,
    max_steps: usize,
) -> Trace {
    let threads = threads.clamp(1, 64);
    let full = if threads == 64 {
        u64::MAX
    } else {
        (1u64 << threads) - 1
    };
    let mut block_at = vec![None; kernel.instructions.len()];
    for b in &blocks.blocks {
        block_at[b.first] = Some(b.id);
    }
    let mut warp = Warp {
        kernel,
        threads,
        regs: vec![HashMap::new(); threads],
        seed,
    };
    let mut stack = vec![ConcreteEntry {
        tag: Tag::Nil,
        pc: 0,
        mask: full,
    }];
    let barriers = crate::barriers::uses_barriers(kernel);
    let warp_syncs = crate::barriers::uses_warp_syncs(kernel);
    let mut visits = Vec::new();
    let mut steps = 0;
    let n = kernel.instructions.len();
    while let Some(&top) = stack.last() {
        if steps >= max_steps {
            return Trace {
                visits,
                outcome: Outcome::StepLimit,
            };
        }
        steps += 1;
        if top.pc == NOT_ARRIVED {
            // A saved warp none of whose threads reached a `WARPSYNC`: nobody is left in it.
            stack.pop();
            continue;
        }
        let pc = top.pc;
        let Some(ins) = kernel.instructions.get(pc) else {
            return Trace {
                visits,
                outcome: Outcome::Unsupported("fell off the end".into()),
            };
        };
        // Every leader starts a block, so being at one is entering that block.
        if let Some(b) = block_at[pc] {
            visits.push(BlockVisit {
                block: b,
                active: top.mask,
                pending: stack[..stack.len() - 1].to_vec(),
            });
        }
        warp.execute(pc, ins, top.mask);
        let next = pc + 1;
        let idx = |a: Option<u64>| a.and_then(|a| kernel.index_of(a));
        let top_i = stack.len() - 1;
        match ins.control {
            ControlKind::Ssy(t)
            | ControlKind::Pbk(t)
            | ControlKind::Pcnt(t)
            | ControlKind::Pret(t)
            | ControlKind::Bssy { target: t, .. } => {
                let Some((tag, _)) = Tag::pushed_by(ins.control) else {
                    return Trace {
                        visits,
                        outcome: Outcome::Unsupported("not a push".into()),
                    };
                };
                let Some(t) = idx(t) else {
                    return Trace {
                        visits,
                        outcome: Outcome::Unsupported("unresolved target".into()),
                    };
                };
                stack[top_i].pc = t;
                stack[top_i].tag = tag;
                stack.push(ConcreteEntry {
                    tag: Tag::Nil,
                    pc: next,
                    mask: top.mask,
                });
            }
            ControlKind::Branch(t) => {
                let Some(t) = idx(t) else {
                    return Trace {
                        visits,
                        outcome: Outcome::Unsupported("unresolved target".into()),
                    };
                };
                let mut taken = warp.guard_mask(top.mask, ins);
                if ins.guard.is_none() && crate::barriers::on_convergence(ins) {
                    // Diverged: some live thread is not active.
                    let live = stack.iter().fold(0, |m, e| m | e.mask);
                    let diverged = live != top.mask;
                    if diverged != ins.opcode.has_modifier("DIV") {
                        taken = 0;
                    }
                }
                let uniform_only = ins.opcode.has_modifier("U");
                let diverges = taken != top.mask && taken != 0 && !uniform_only;
                let top_i = if diverges && warp_syncs && stack.len() == 1 {
                    // The converged warp is saved for the `WARPSYNC` that rejoins it
                    // (crate::barriers, "Full-warp WARPSYNC").
                    stack[0].tag = Tag::WarpSync;
                    stack[0].pc = NOT_ARRIVED;
                    stack.push(top);
                    1
                } else {
                    top_i
                };
                if taken == top.mask {
                    stack[top_i].pc = t;
                } else if taken == 0 || uniform_only {
                    stack[top_i].pc = next;
                } else if barriers && t <= pc {
                    // Convergence barriers: the group leaving a loop runs first
                    // (crate::barriers, "Loops whose exit diverges").
                    stack[top_i].pc = t;
                    stack[top_i].mask = taken;
                    stack.push(ConcreteEntry {
                        tag: Tag::Nil,
                        pc: next,
                        mask: top.mask & !taken,
                    });
                } else {
                    stack[top_i].pc = next;
                    stack[top_i].mask = top.mask & !taken;
                    stack.push(ConcreteEntry {
                        tag: Tag::Nil,
                        pc: t,
                        mask: taken,
                    });
                }
            }
            ControlKind::Bsync { barrier } if barrier_entry(&stack, barrier).is_none() => {
                // Nobody is recorded in the barrier any more: nothing to wait for.
                stack[top_i].pc = next;
            }
            ControlKind::Break { barrier } => {
                if crate::barriers::fused_break_at(kernel, &block_at, pc).is_none() {
                    return Trace {
                        visits,
                        outcome: Outcome::Unsupported("BREAK without its branch".into()),
                    };
                }
                let leaving = warp.guard_mask(top.mask, ins);
                stack[top_i].pc = next;
                if let Some(j) = barrier_entry(&stack, barrier) {
                    stack[j].mask &= !leaving;
                    if stack[j].mask == 0 {
                        stack.remove(j);
                    }
                }
            }
            ControlKind::Sync
            | ControlKind::Brk
            | ControlKind::Cont
            | ControlKind::Ret
            | ControlKind::Exit
            | ControlKind::Bsync { .. } => {
                let tag = Tag::unwound_by(ins.control);
                let halted = warp.guard_mask(top.mask, ins);
                // Halted threads leave every entry down to the matching one; the others (if
                // the instruction is guarded) continue at the next instruction.
                stack[top_i].pc = next;
                if halted != 0 {
                    remove_threads(&mut stack, halted, tag);
                }
            }
            ControlKind::Call(Some(t)) => {
                let Some(t) = idx(Some(t)) else {
                    return Trace {
                        visits,
                        outcome: Outcome::Unsupported("unresolved target".into()),
                    };
                };
                let calling = warp.guard_mask(top.mask, ins);
                if calling == 0 {
                    stack[top_i].pc = next;
                } else {
                    if calling != top.mask {
                        // The others wait at the return point; the callers go first.
                        stack[top_i].pc = next;
                        stack[top_i].mask = top.mask & !calling;
                        stack.push(ConcreteEntry {
                            tag: Tag::Nil,
                            pc: next,
                            mask: calling,
                        });
                    }
                    let top_i = stack.len() - 1;
                    stack[top_i].pc = next;
                    stack[top_i].tag = Tag::Call;
                    stack.push(ConcreteEntry {
                        tag: Tag::Nil,
                        pc: t,
                        mask: calling,
                    });
                }
            }
            ControlKind::Indirect => {
                return Trace {
                    visits,
                    outcome: Outcome::Unsupported(format!("indirect branch `{}`", ins.opcode.name)),
                };
            }
            ControlKind::WarpSync => {
                let bottom = stack[0];
                let rejoins = top_i > 0
                    && bottom.tag == Tag::WarpSync
                    && (bottom.pc == NOT_ARRIVED || bottom.pc == next)
                    && stack[1..top_i].iter().all(|e| e.tag == Tag::Nil);
                stack[top_i].pc = next;
                if rejoins {
                    stack[0].pc = next;
                    remove_threads(&mut stack, top.mask, Some(Tag::WarpSync));
                }
            }
            ControlKind::Fallthrough | ControlKind::Barrier | ControlKind::Call(None) => {
                stack[top_i].pc = next;
            }
        }
        if next >= n && stack.last().is_some_and(|e| e.pc >= n) {
            return Trace {
                visits,
                outcome: Outcome::Unsupported("fell off the end".into()),
            };
        }
    }
    Trace {
        visits,
        outcome: Outcome::Finished,
    }
}
