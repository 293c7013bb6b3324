//! What a warp may still wait for when it passes a barrier: the *carry-over* term of the
//! per-phase bound (crate doc, "Barriers every warp passes in the same order").
//!
//! Why it is needed: a warp leaves a barrier with results of its earlier instructions
//! possibly still in flight, and a unit (FP64, SFU) possibly inside its initiation interval;
//! the next phase's bound measures its segment from an empty pipeline, so it adds what can
//! be left over. The largest latency of the cost model (302 cycles for a global load on
//! Pascal) bounds that, but most barriers follow a shared-memory store whose value the warp
//! already waited for: what can be in flight there is an ALU result.
//!
//! **The rule.** On the issue model of `cfg::latency` (and the simulator's scoreboard) an
//! instruction issues only when every register it reads or writes, its guard included, has
//! been written back. So an earlier instruction's result can be in flight when the barrier
//! issues only if no instruction between them on the warp's path waited for it: no
//! unguarded instruction read or wrote that register, and no instruction used it as its
//! guard. (A guarded instruction is not counted as waiting for its other operands: whether
//! a machine waits for the operands of an instruction its guard turns off is not assumed.)
//! [`carry_over`] is the forward may-analysis of those *pending* registers over the thread
//! CFG — the join keeps every register pending on some incoming path, with the largest
//! latency — plus the largest initiation interval of any instruction on some path before the
//! barrier (a unit's interval is never assumed over). `λ_b` is the largest of these at
//! barrier `b`, at least 1: what was issued at least one cycle before the barrier completes
//! within `λ_b − 1` cycles after it.

use isa::{BlockGraph, Instruction, Kernel, Register};
use std::collections::BTreeMap;

/// One instruction's timing under the cost model: cycles from issue to write-back, and the
/// initiation interval of its unit (1 when fully pipelined).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    pub latency: u64,
    pub interval: u64,
}

impl Timing {
    /// Every instruction one cycle (the paper's unit cost): nothing is left over.
    pub const UNIT: Timing = Timing {
        latency: 1,
        interval: 1,
    };
}

/// What may be in flight at a program point: pending registers with the largest latency of
/// a write to them that may be outstanding, and the largest interval of a unit used before.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Pending {
    registers: BTreeMap<Register, u64>,
    interval: u64,
}

impl Pending {
    /// Joins `other` in; whether anything changed.
    fn join(&mut self, other: &Pending) -> bool {
        let mut changed = other.interval > self.interval;
        self.interval = self.interval.max(other.interval);
        for (r, &l) in &other.registers {
            let e = self.registers.entry(r.clone()).or_insert(0);
            if l > *e {
                *e = l;
                changed = true;
            }
        }
        changed
    }

    /// After `ins` issues (module doc).
    fn step(&mut self, ins: &Instruction, t: Timing) {
        match &ins.guard {
            Some(g) if !g.is_always_true() => {
                self.registers.remove(&g.reg);
            }
            _ => {
                for r in ins.reads.iter().chain(&ins.writes) {
                    self.registers.remove(r);
                }
            }
        }
        for w in &ins.writes {
            let e = self.registers.entry(w.clone()).or_insert(0);
            *e = (*e).max(t.latency);
        }
        self.interval = self.interval.max(t.interval);
    }

    /// `λ` here: the largest pending latency or interval, at least 1.
    fn lambda(&self) -> u64 {
        self.registers
            .values()
            .copied()
            .chain([self.interval, 1])
            .max()
            .unwrap_or(1)
    }
}

/// `λ_b` for each instruction of `kernel` that is a barrier (`BAR`), by instruction index
/// (module doc); `timing` gives the cost model's latency and interval of an instruction.
/// A barrier no path reaches gets 1.
pub fn carry_over(
    kernel: &Kernel,
    graph: &BlockGraph,
    timing: &dyn Fn(&Instruction) -> Timing,
) -> BTreeMap<usize, u64> {
    let ins = &kernel.instructions;
    let n = graph.blocks.len();
    let mut succ = vec![Vec::new(); n];
    for (a, b, _) in graph.edges() {
        if a < n && b < n {
            succ[a].push(b);
        }
    }
    let mut entry: Vec<Option<Pending>> = vec![None; n];
    if n > 0 {
        entry[0] = Some(Pending::default());
    }
    let mut work: Vec<usize> = if n > 0 { vec![0] } else { Vec::new() };
    let mut out = BTreeMap::new();
    while let Some(b) = work.pop() {
        let Some(mut state) = entry[b].clone() else {
            continue;
        };
        let block = &graph.blocks[b];
        for (i, x) in ins
            .iter()
            .enumerate()
            .take(block.last + 1)
            .skip(block.first)
        {
            if x.opcode.name == "BAR" {
                let e = out.entry(i).or_insert(1);
                *e = (*e).max(state.lambda());
            }
            state.step(x, timing(x));
        }
        for &s in &succ[b] {
            let changed = match &mut entry[s] {
                Some(e) => e.join(&state),
                slot @ None => {
                    *slot = Some(state.clone());
                    true
                }
            };
            if changed && !work.contains(&s) {
                work.push(s);
            }
        }
    }
    for (i, x) in ins.iter().enumerate() {
        if x.opcode.name == "BAR" {
            out.entry(i).or_insert(1);
        }
    }
    out
}
