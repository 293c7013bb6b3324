//! Schedules (the witnesses of the exact methods) and the budgets that bound their work.

use isa::lc::LcOp;

/// One instruction execution in a schedule: warp `warp` executes instruction `instr` of the
/// transformed string on lane `lane` of a `unit` in cycle `cycle`.
///
/// Cycles are numbered from 1, as in the paper's ILP (`t = 1..T`, §5), so the last cycle of a
/// schedule equals its makespan. Lanes number the `σ` warp slots of a unit type in one cycle
/// (`0..σ_L` for `L`, `0..σ_C` for `C`); they carry no meaning beyond drawing a Gantt chart
/// (all lanes of a type are identical).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Slot {
    /// Clock cycle, from 1.
    pub cycle: u64,
    /// Unit type (equals the type of instruction `instr`).
    pub unit: LcOp,
    /// Lane within the unit type, `0..sigma`.
    pub lane: u32,
    /// Warp, `0..W`.
    pub warp: u32,
    /// Index of the instruction in the transformed string, `0..I`.
    pub instr: usize,
}

/// A work-conserving schedule of all warps that attains a makespan: the witness of an exact
/// worst-case computation (the paper's Fig. 2 draws one).
///
/// `slots` holds one entry per (warp, instruction), `W · I` in all, sorted by cycle, then unit
/// (`L` first), then lane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    /// Cycles until every warp has finished (the last cycle used; 0 when there is no work).
    pub makespan: u64,
    /// The instruction executions.
    pub slots: Vec<Slot>,
}

impl Schedule {
    /// The empty schedule (no warps or an empty string).
    pub fn empty() -> Self {
        Schedule {
            makespan: 0,
            slots: Vec::new(),
        }
    }
}

/// Limits on the work of the exact methods, so a browser tab never hangs: exceeding one is
/// an [`crate::Error::Budget`] naming the field, never a panic or a silent approximation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    /// Most distinct multiset states the exact search ([`crate::exact`]) may memoise (also
    /// the most successors one state may have). A state of a string whose key fits 64 bits
    /// costs roughly 16–40 bytes in the memo, so the default of 3 million keeps the memo
    /// under about 120 MB and covers `"LLCLL"` with `σ = 1` at W = 64; the states of longer
    /// strings are bounded by [`Budget::max_search_steps`], which charges their size.
    pub max_states: usize,
    /// Most work the exact search may do in total, over every state it expands (and, for the
    /// estimate T(W, x), over every group size it solves), counted in steps: each successor
    /// state generated costs one step plus one per 64 bits of its key (`I · bits(W)`: a
    /// 539-instruction string with 8 warps has 2156-bit keys, so a successor costs 34).
    /// Generating, hashing and storing successors is the search's work and its memory, so
    /// this is its time and memory budget in a deterministic currency (a wall-clock limit
    /// would make reports depend on the machine): natively 9–13 million steps per second
    /// (docs/performance.md), so the default of 10 million stops a search within about 1.1 s
    /// natively (the makespan mode, with its T(W, x) curve, within about 1.6 s) — answering every search that fits in that time, instead of giving up far
    /// earlier or letting a real kernel's string with 8 warps run for minutes.
    pub max_search_steps: usize,
    /// Most binary variables the ILP of Fig. 3 ([`crate::exact_ilp`]) may have (about
    /// `W·I·(T−I+1)` plus `2T`; Fig. 2's setting has 144, four warps on six instructions
    /// about 500).
    pub max_ilp_variables: usize,
    /// Most nodes the propagating branch and bound ([`crate::IlpSolver::Propagation`],
    /// behind [`crate::exact_ilp`] and [`crate::solve_ilp`]) may visit. A node is one
    /// propagation (about 15 µs natively on four warps and six instructions, whose hardest
    /// instance needs about 19,000 nodes), and the residual-program cache holds at most one
    /// entry (1–2 KB) per node.
    pub max_bb_nodes: usize,
    /// Most LP solves the LP-based branch and bound
    /// ([`crate::IlpSolver::LpBranchAndBound`]) may do beyond the root, each 0.5–5 ms
    /// natively (Fig. 2's setting needs about 5,500): its own limit, so that choosing this
    /// solver cannot turn the other's node budget into minutes of work.
    pub max_lp_solves: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            // Calibrated to answer within about 2 s natively (issue #37 item 3): the search
            // makes 9–13 M steps per second on the development machine (the fewer on the long
            // strings of real kernels) and keeps about one state per 10 steps; the makespan
            // mode spends 1.5 × this (the T(W, x) curve gets half): at most about 1.6 s.
            // 64 warps of LLCLL on 32 cores and 32 LSUs: exact, 257 cycles, after about 8 M
            // steps (the former 2 M stopped at 0.24 s with 320).
            max_states: 3_000_000,
            max_search_steps: 10_000_000,
            max_ilp_variables: 2_000,
            max_bb_nodes: 50_000,
            max_lp_solves: 10_000,
        }
    }
}
