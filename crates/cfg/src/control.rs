//! Timing from the scheduling control bits ptxas wrote into a SASS listing (`cost=control`,
//! issue #42): the compiler's own schedule, read back as a cost model.
//!
//! Since Maxwell every instruction carries a stall count, a yield hint, a write and a read
//! scoreboard barrier it sets and a mask of barriers it waits on ([`isa::ControlBits`]).
//! This module times one warp in isolation by those bits alone:
//!
//! - **stall**: the warp's next instruction issues no earlier than `max(stall, 1)` cycles
//!   after this one (one issue per cycle at most; a stall count of 0 is read as 1). Fixed
//!   latencies are what ptxas encodes in the stall counts, so no register scoreboard is kept
//!   for them.
//! - **wait mask**: an instruction issues only once every barrier its mask names is clear.
//! - **write barrier**: set by a variable-latency instruction until its result is written:
//!   `latency(class)` cycles after its issue, the preset's latency of its timing class
//!   ([`LatencyTable`]; the memory classes a miss to DRAM without contention).
//! - **read barrier**: set until the instruction has read its source registers. When that
//!   happens is not documented; it is bounded here by the same class latency (the read cannot
//!   come after the write-back), which is safe and the largest source of pessimism for stores.
//! - **yield**: lets the scheduler switch warps; for a warp alone it adds nothing (real
//!   hardware may spend a cycle on the switch: not modelled, as dual issue is not).
//! - `DEPBAR.LE SBk, n` waits until at most `n` operations on barrier `k` are pending; read
//!   here as a wait until barrier `k` is clear (a longer wait, so an upper bound).
//!
//! The simulator under `cost=control` issues by the same rules (`sim`), so a run and a bound
//! share one timing model and observed ≤ bound is checkable.
//!
//! **Across blocks.** A block's time depends on which barriers are still pending when it
//! starts (a load issued before a branch, waited for after it; a load at the end of a loop
//! body waited for at the top). [`Scoreboard`] bounds, per barrier, the cycles until it
//! clears; [`node_costs`] propagates it forward over the warp-level CFG to a fixpoint (the
//! state at a node's entry is the largest over its predecessors') and costs every node from
//! its entry state. Why the sum of node costs bounds any path: a node's time is monotone in
//! its entry state (a later clear can only delay issues), the fixpoint's entry state is at
//! least every path's actual state at that node, and each node's exit state is computed from
//! the entry bound, so by induction along the path every node's actual time is at most its
//! cost. The fixpoint exists and is reached: states are bounded by the largest latency and
//! only grow.

use crate::latency::{LatencyTable, TimingClass};
use crate::warp_cfg::WarpCfg;
use isa::{BlockGraph, Instruction, Kernel};

/// Scoreboard barriers of the control field (0–5; the encoding's 7 means none).
pub const BARRIERS: usize = 6;

/// Per scoreboard barrier, an upper bound on the cycles until it clears (0: clear).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Scoreboard {
    pub remaining: [u64; BARRIERS],
}

impl Scoreboard {
    /// The state both `self` and `other` are bounded by (per barrier, the larger).
    pub fn join(&self, other: &Scoreboard) -> Scoreboard {
        let mut r = *self;
        for (a, b) in r.remaining.iter_mut().zip(other.remaining) {
            *a = (*a).max(b);
        }
        r
    }

    /// `cycles` later.
    fn advance(&mut self, cycles: u64) {
        for r in &mut self.remaining {
            *r = r.saturating_sub(cycles);
        }
    }

    /// The cycles until every barrier of `mask` (bit *b*: barrier *b*) is clear.
    fn wait(&self, mask: u8) -> u64 {
        (0..BARRIERS)
            .filter(|b| mask >> b & 1 == 1)
            .map(|b| self.remaining[b])
            .max()
            .unwrap_or(0)
    }

    fn set(&mut self, barrier: Option<u8>, cycles: u64) {
        if let Some(r) = barrier.and_then(|b| self.remaining.get_mut(usize::from(b))) {
            *r = (*r).max(cycles);
        }
    }
}

/// An instruction without control bits, where `cost=control` needs them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingBits {
    /// The instruction's index in the kernel.
    pub index: usize,
}

/// The barriers `ins` waits on: its wait mask, and for `DEPBAR.LE SBk, n` barrier `k`.
pub fn waits(ins: &Instruction) -> u8 {
    let mask = ins.control_bits.map_or(0, |c| c.wait_mask);
    if ins.opcode.name != "DEPBAR" {
        return mask;
    }
    let named = ins
        .operands
        .iter()
        .filter_map(|o| o.text.trim().strip_prefix("SB"))
        .filter_map(|d| d.parse::<u8>().ok())
        .filter(|&b| usize::from(b) < BARRIERS)
        .fold(0u8, |m, b| m | 1 << b);
    mask | named
}

/// Issues `instrs` from `entry`: the cycles from the first issue until the instruction after
/// them may issue (each instruction's wait, then its stall), and the state then.
///
/// # Errors
/// The first instruction without control bits.
pub fn run(
    instrs: &[Instruction],
    first_index: usize,
    entry: Scoreboard,
    table: &LatencyTable,
) -> Result<(u64, Scoreboard), MissingBits> {
    let mut state = entry;
    let mut cycles = 0u64;
    for (k, ins) in instrs.iter().enumerate() {
        let Some(bits) = ins.control_bits else {
            return Err(MissingBits {
                index: first_index + k,
            });
        };
        let wait = state.wait(waits(ins));
        state.advance(wait);
        let latency = table.latency_of(TimingClass::of(ins));
        state.set(bits.write_barrier, latency);
        state.set(bits.read_barrier, latency);
        let stall = u64::from(bits.stall.max(1));
        state.advance(stall);
        cycles += wait + stall;
    }
    Ok((cycles, state))
}

/// Per node of `warp` (whose nodes copy blocks of `graph`), its cost under the control bits
/// from the fixpoint entry state (module doc); the virtual exit costs what is still in
/// flight when the warp reaches it (every barrier's remaining cycles: the warp is done when
/// its last instruction has completed).
///
/// # Errors
/// An instruction of a node's block without control bits.
pub fn node_costs(
    kernel: &Kernel,
    graph: &BlockGraph,
    warp: &WarpCfg,
    table: &LatencyTable,
) -> Result<Vec<u64>, MissingBits> {
    let n = warp.nodes.len();
    let mut succ = vec![Vec::new(); n];
    for e in &warp.edges {
        if e.from < n && e.to < n {
            succ[e.from].push(e.to);
        }
    }
    let instrs = |node: usize| {
        let b = warp.nodes[node].block?;
        let block = graph.blocks.get(b)?;
        Some((
            kernel.instructions.get(block.first..=block.last)?,
            block.first,
        ))
    };
    let mut entry: Vec<Option<Scoreboard>> = vec![None; n];
    let mut cost = vec![0u64; n];
    if warp.entry < n {
        entry[warp.entry] = Some(Scoreboard::default());
    }
    let mut work = vec![warp.entry];
    let mut queued = vec![false; n];
    while let Some(v) = work.pop() {
        queued[v] = false;
        let Some(state) = entry[v] else { continue };
        let (c, exit) = match instrs(v) {
            Some((list, first)) => run(list, first, state, table)?,
            // The virtual exit: the warp is done when what it left in flight has completed
            // (a store's barriers, a load nobody waited for).
            None => (state.wait(u8::MAX), Scoreboard::default()),
        };
        cost[v] = c;
        for &w in &succ[v] {
            let joined = entry[w].map_or(exit, |s| s.join(&exit));
            if entry[w] != Some(joined) {
                entry[w] = Some(joined);
                if !queued[w] {
                    queued[w] = true;
                    work.push(w);
                }
            }
        }
    }
    Ok(cost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use isa::{sass, Limits};

    fn kernel(src: &str) -> Kernel {
        sass::parse(src, None, &Limits::default())
            .kernel
            .expect("a kernel")
    }

    fn bits(stall: u8, wb: Option<u8>, rb: Option<u8>, wait: u8) -> isa::ControlBits {
        isa::ControlBits {
            stall,
            yield_hint: false,
            write_barrier: wb,
            read_barrier: rb,
            wait_mask: wait,
            reuse: 0,
        }
    }

    /// A load (global latency 302 on Pascal) setting barrier 0, two independent adds (stall
    /// 6 each), then its consumer waiting on barrier 0: the load's stall 1, the adds' 12,
    /// then the consumer waits 302 − 13 = 289 and stalls 6: 1 + 12 + 289 + 6 = 308.
    #[test]
    fn a_consumer_waits_for_the_rest_of_its_loads_latency() {
        let mut k = kernel(
            "/*0000*/ LDG.E R2, [R4] ;\n/*0008*/ FADD R6, R7, R8 ;\n\
             /*0010*/ FADD R9, R7, R8 ;\n/*0018*/ FADD R3, R2, R2 ;\n",
        );
        k.instructions[0].control_bits = Some(bits(1, Some(0), None, 0));
        k.instructions[1].control_bits = Some(bits(6, None, None, 0));
        k.instructions[2].control_bits = Some(bits(6, None, None, 0));
        k.instructions[3].control_bits = Some(bits(6, None, None, 1));
        let table = LatencyTable::pascal_gp102();
        let (c, s) = run(&k.instructions, 0, Scoreboard::default(), &table).expect("bits");
        assert_eq!(c, 1 + 6 + 6 + (302 - 13) + 6);
        assert_eq!(s, Scoreboard::default());
        // Without the wait (a consumer that forgot it) only the stalls count: 19.
        k.instructions[3].control_bits = Some(bits(6, None, None, 0));
        let (c, s) = run(&k.instructions, 0, Scoreboard::default(), &table).expect("bits");
        assert_eq!(c, 19);
        assert_eq!(s.remaining[0], 302 - 19);
    }

    /// A pending barrier from before the block: the wait is what remains; stall 0 reads 1;
    /// `DEPBAR.LE SB2, 0x0` waits on barrier 2 whatever its mask; a missing field is an error.
    #[test]
    fn entry_state_depbar_and_missing_bits() {
        let mut k = kernel("/*0000*/ IADD3 R1, R2, R3, RZ ;\n/*0010*/ DEPBAR.LE SB2, 0x0 ;\n");
        k.instructions[0].control_bits = Some(bits(0, None, None, 0));
        k.instructions[1].control_bits = Some(bits(2, None, None, 0));
        let mut entry = Scoreboard::default();
        entry.remaining[2] = 40;
        let table = LatencyTable::unit();
        let (c, _) = run(&k.instructions, 0, entry, &table).expect("bits");
        assert_eq!(c, 1 + 39 + 2);
        k.instructions[1].control_bits = None;
        assert_eq!(
            run(&k.instructions, 5, entry, &table),
            Err(MissingBits { index: 6 })
        );
    }
}
