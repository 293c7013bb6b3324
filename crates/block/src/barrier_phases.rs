//! The condition of [`crate::phased_response_time`] read from a SASS listing: every warp of
//! the block passes the same barrier instructions, the same number of times, in the same
//! order, each time with all its threads — and `P`, how many barrier instances that is at
//! most. The proof that the per-phase bound then holds is the crate's (module doc, "Barriers
//! every warp passes in the same order"); this module checks its premises on the thread-level
//! block graph of `isa::blocks` and the block-uniform branches of `loopbound::uniform`.
//!
//! **What is checked** ([`barrier_phases`]), each a premise of the proof:
//!
//! 1. No call, return or indirect jump (`CAL`, `JCAL`, `CALL`, `BRX`, `JMX`, `JMP`,
//!    `PRET`, `RET`) comes before a barrier: the graph pairs every call of a function with
//!    every return of it and shows nothing of a callee outside the listing. A direct call to
//!    a function of the listing, and a `RET`, from which no barrier is reachable (the warp
//!    reduction nvcc calls after the last `__syncthreads()` of `reduce4` on sm_70+) change
//!    no warp's barrier sequence; any other call or indirect jump is refused.
//! 2. Every barrier is a plain, unguarded `BAR.SYNC 0` (`.DEFER_BLOCKING` allowed): the one
//!    barrier every thread of the block waits at, whose release the proof's phases end at.
//! 3. The graph is reducible where a barrier is reachable: a barrier executes at most the
//!    product of the bounds of the natural loops around it per run (a loop is entered at
//!    most once per iteration of the loop around it), which is what `P` adds up.
//! 4. Every branch that may split the block — a guarded `BRA`, `SYNC`, `BRK`, `CONT` or
//!    `EXIT`, or a `BRA P1, t`, whose condition is not block-uniform, or any branch whose
//!    condition the lowering cannot state (`BRA.DIV`) — either reaches no barrier (it comes after the last one on
//!    every path), or, when it is not an `EXIT`, lies in a reconvergence region (`SSY`, `PBK`,
//!    `PCNT`, `BSSY`: pushed in a block dominating the branch, the branch between the push and
//!    its target) whose target every thread reaches again before any barrier: the blocks
//!    reachable from the branch without passing the target hold no barrier, no end of a
//!    thread, and no header of a loop around a barrier. A warp split there is whole again at
//!    the target before its next barrier, and no warp's sequence of barriers depends on the
//!    side its threads took.
//! 5. Every loop around a barrier has a bound (the one the warp bound `C` uses).
//!
//! A uniform branch (every edge condition block-uniform: parameters, block ids, launch
//! dimensions, never `tid`, loaded data, votes or shuffles, and no divergent branch choosing
//! the values compared; `loopbound::uniform`) sends every thread of the block the same way
//! at the same point of their common path, so it needs nothing: the guard of a loop on
//! `n`, the exit of a tiled multiply's loop over tiles, the `s >>= 1` of a reduction tree, a
//! barrier under `if (blockIdx.x == 0)`. With (1)–(5), two threads' paths agree on every
//! uniform branch and meet again at every region's target before any barrier, so they pass
//! the same barrier instructions in the same order (`loopbound::uniform`'s guarantee, paired
//! visits). What is not accepted keeps the serialised bound, with the reason
//! ([`Serialised`]).

use crate::carry::{carry_over, Timing};
use isa::{BlockGraph, ControlKind, Instruction, Kernel};

/// The kernel's barriers when every warp passes them the same number of times, in the same
/// order, converged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BarrierPhases {
    /// `P`: the barrier instances a warp passes at most — the sum over barriers of the
    /// product of the bounds of the loops around each (every warp passes the same number,
    /// at most this).
    pub instances: u64,
    /// `Σ_b P_b·λ_b`: the per-phase bound's term for the barriers, each instance's release
    /// cycle and what may be left in flight across it ([`crate::carry`]).
    pub carry: u64,
    pub barriers: Vec<PhaseBarrier>,
}

/// One barrier instruction and how many times a warp passes it at most.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhaseBarrier {
    pub address: u64,
    /// Headers of the loops around it (addresses), outermost first.
    pub loops: Vec<u64>,
    /// The product of their bounds: 1 outside every loop, 0 when no path reaches it.
    pub instances: u64,
    /// `λ_b`: the largest latency or interval that may be in flight when a warp passes it
    /// (at least 1; [`crate::carry`]).
    pub lambda: u64,
}

/// Why the barriers keep the serialised bound: the first premise (module doc) that fails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Serialised {
    /// A call or an indirect jump at `address` (premise 1).
    Call { address: u64 },
    /// A barrier other than an unguarded `BAR.SYNC 0` (premise 2).
    Form { address: u64 },
    /// An irreducible region (premise 3).
    Irreducible { address: u64 },
    /// A branch that may split the block at `branch` reaches the barrier at `barrier` before
    /// its warp is whole again (premise 4).
    Split { branch: u64, barrier: u64 },
    /// Threads may end at `exit` (a condition not block-uniform) while others go on to the
    /// barrier at `barrier` (premise 4).
    Exit { exit: u64, barrier: u64 },
    /// The loop at `header` around the barrier at `barrier` has no bound (premise 5).
    Unbounded { barrier: u64, header: u64 },
}

impl std::fmt::Display for Serialised {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Serialised::Call { address } => write!(
                f,
                "the kernel calls or jumps indirectly at {address:#x} (a callee's barriers are \
                 not in the graph)"
            ),
            Serialised::Form { address } => write!(
                f,
                "the barrier at {address:#x} is not an unguarded BAR.SYNC 0"
            ),
            Serialised::Irreducible { address } => {
                write!(f, "the control flow is irreducible at {address:#x}")
            }
            Serialised::Split { branch, barrier } => write!(
                f,
                "the branch at {branch:#x} may send threads of the block different ways (its \
                 condition depends on thread ids, loaded data, votes or shuffles, or cannot be \
                 read) and reaches the barrier at {barrier:#x} before its warp reconverges"
            ),
            Serialised::Exit { exit, barrier } => write!(
                f,
                "threads may end at {exit:#x} (a condition that is not the same for the whole \
                 block) while others go on to the barrier at {barrier:#x}"
            ),
            Serialised::Unbounded { barrier, header } => write!(
                f,
                "the loop at {header:#x} around the barrier at {barrier:#x} has no bound"
            ),
        }
    }
}

/// Whether `ins` calls, returns or jumps indirectly: the graph may not show where it goes
/// (premise 1).
fn calls(ins: &Instruction) -> bool {
    matches!(
        ins.opcode.name.as_str(),
        "CAL" | "JCAL" | "CALL" | "BRX" | "JMX" | "JMP" | "PRET" | "RET"
    ) || matches!(
        ins.control,
        ControlKind::Call(_) | ControlKind::Indirect | ControlKind::Ret
    )
}

/// Whether `bar` is an unguarded `BAR.SYNC 0` (premise 2).
fn plain(bar: &Instruction) -> bool {
    bar.opcode.has_modifier("SYNC")
        && bar.guard.is_none()
        && bar.operands.len() == 1
        && bar.operands[0]
            .text
            .trim()
            .trim_start_matches("0x")
            .trim_start_matches('0')
            .is_empty()
        && bar
            .opcode
            .modifiers
            .iter()
            .all(|m| m == "SYNC" || m == "DEFER_BLOCKING")
}

/// Whether the block ending in `last` is a branch some threads of a warp may take and others
/// not (before asking whether its condition is uniform): a guarded control transfer, a `BRA`
/// with a predicate operand (`BRA P1, t`: taken only where `P1` holds), or one taken on a
/// condition the lowering cannot state.
fn may_split(last: &Instruction) -> bool {
    let transfers = last.control.jumps_or_halts();
    // `@PT` always transfers, `@!PT` never: neither splits.
    let guarded = last
        .guard
        .as_ref()
        .is_some_and(|g| g.reg != isa::Register::True);
    transfers
        && (guarded
            || last.branch_predicates().next().is_some()
            || !loopbound::sass::condition_known(last))
}

/// The barriers of `kernel` (block graph `graph`, from `isa::blocks::build`) when every
/// warp passes them the same number of times, in the same order, converged (module doc);
/// `bound(header)` is the bound of the loop whose header is at that address (`None`: none);
/// `timing` the cost model's latency and interval of an instruction (for `λ_b`).
pub fn barrier_phases(
    kernel: &Kernel,
    graph: &BlockGraph,
    bound: &dyn Fn(u64) -> Option<u64>,
    timing: &dyn Fn(&Instruction) -> Timing,
) -> Result<BarrierPhases, Serialised> {
    let ins = &kernel.instructions;
    let bars: Vec<usize> = (0..ins.len())
        .filter(|&i| ins[i].opcode.name == "BAR")
        .collect();
    if let Some(&i) = bars.iter().find(|&&i| !plain(&ins[i])) {
        return Err(Serialised::Form {
            address: ins[i].address,
        });
    }
    let analysis = loopbound::analyse(loopbound::sass::lower(kernel, graph));
    let loops = &analysis.loops;
    let n = graph.blocks.len();
    let live =
        |b: usize| graph.blocks.get(b).is_some_and(|x| x.reachable) && loops.dom.is_reachable(b);
    let address = |b: usize| ins[graph.blocks[b].last].address;
    let succ: Vec<Vec<usize>> = analysis
        .program
        .blocks
        .iter()
        .map(|b| b.edges.iter().map(|e| e.to).filter(|&t| t < n).collect())
        .collect();
    let barrier_blocks: Vec<usize> = bars
        .iter()
        .filter_map(|&i| graph.block_of(i))
        .filter(|&b| live(b))
        .collect();
    // Blocks from which a barrier is reachable (the barrier's own included).
    let mut reaches = vec![false; n];
    let mut stack = barrier_blocks.clone();
    while let Some(b) = stack.pop() {
        if std::mem::replace(&mut reaches[b], true) {
            continue;
        }
        stack.extend(loops.preds[b].iter().copied().filter(|&p| !reaches[p]));
    }
    // Premise 1: a call whose callee the graph holds (a direct call inside the listing) and
    // a return are harmless after the last barrier; anything else that calls or jumps
    // indirectly is refused wherever it is.
    let harmless = |i: usize| {
        let after_barriers = graph.block_of(i).is_none_or(|b| !live(b) || !reaches[b]);
        let visible = matches!(
            ins[i].control,
            ControlKind::Call(Some(_)) | ControlKind::Ret
        );
        visible && after_barriers
    };
    if let Some(i) = (0..ins.len()).find(|&i| calls(&ins[i]) && !harmless(i)) {
        return Err(Serialised::Call {
            address: ins[i].address,
        });
    }
    // Premise 3, where it matters: an irreducible entry from which a barrier is reachable.
    if let Some(b) = (0..n).find(|&b| live(b) && reaches[b] && loops.retreating[b]) {
        return Err(Serialised::Irreducible {
            address: ins[graph.blocks[b].first].address,
        });
    }
    let first_barrier = |from: &[usize]| -> u64 {
        let mut seen = vec![false; n];
        let mut stack = from.to_vec();
        while let Some(b) = stack.pop() {
            if std::mem::replace(&mut seen[b], true) {
                continue;
            }
            if barrier_blocks.contains(&b) {
                return address(b);
            }
            stack.extend(succ[b].iter().copied().filter(|&s| !seen[s]));
        }
        0
    };
    let barrier_headers: Vec<usize> = loops
        .loops
        .iter()
        .filter(|l| barrier_blocks.iter().any(|&b| l.contains(b)))
        .map(|l| l.header)
        .collect();
    let uniform = analysis.uniformity();
    let ends =
        |b: usize| succ[b].is_empty() || ins[graph.blocks[b].last].control == ControlKind::Exit;
    for x in (0..n).filter(|&x| live(x)) {
        let last_index = graph.blocks[x].last;
        let last = &ins[last_index];
        if !may_split(last) || uniform.uniform_branch(x) {
            continue;
        }
        if !succ[x].iter().any(|&s| reaches[s]) && last.control != ControlKind::Exit {
            continue; // after the last barrier on every path
        }
        if last.control == ControlKind::Exit {
            if succ[x].iter().any(|&s| reaches[s]) {
                return Err(Serialised::Exit {
                    exit: last.address,
                    barrier: first_barrier(&succ[x]),
                });
            }
            continue;
        }
        let closes = |target: u64| {
            let Some(t) = kernel.index_of(target).and_then(|i| graph.block_of(i)) else {
                return false;
            };
            let mut seen = vec![false; n];
            let mut stack = succ[x].clone();
            while let Some(b) = stack.pop() {
                if b == t || std::mem::replace(&mut seen[b], true) {
                    continue;
                }
                if barrier_blocks.contains(&b) || ends(b) || barrier_headers.contains(&b) {
                    return false;
                }
                stack.extend(succ[b].iter().copied());
            }
            true
        };
        let closed = ins.iter().enumerate().any(|(k, push)| {
            let target = match push.control {
                ControlKind::Ssy(Some(t))
                | ControlKind::Pbk(Some(t))
                | ControlKind::Pcnt(Some(t))
                | ControlKind::Bssy {
                    target: Some(t), ..
                } => t,
                _ => return false,
            };
            let before = match graph.block_of(k) {
                Some(kb) if kb == x => k < last_index,
                Some(kb) => loops.dominates(kb, x),
                None => false,
            };
            before && push.address < last.address && last.address < target && closes(target)
        });
        if !closed {
            return Err(Serialised::Split {
                branch: last.address,
                barrier: first_barrier(&succ[x]),
            });
        }
    }
    let lambdas = carry_over(kernel, graph, timing);
    let mut barriers = Vec::with_capacity(bars.len());
    for &i in &bars {
        let lambda = lambdas.get(&i).copied().unwrap_or(1);
        let bar = &ins[i];
        let Some(b) = graph.block_of(i).filter(|&b| live(b)) else {
            barriers.push(PhaseBarrier {
                address: bar.address,
                loops: Vec::new(),
                instances: 0,
                lambda,
            });
            continue;
        };
        let mut around: Vec<&loopbound::loops::Loop> =
            loops.loops.iter().filter(|l| l.contains(b)).collect();
        around.sort_by_key(|l| l.depth);
        let mut instances = 1u64;
        let mut headers = Vec::with_capacity(around.len());
        for l in around {
            let header = ins[graph.blocks[l.header].first].address;
            let Some(n) = bound(header) else {
                return Err(Serialised::Unbounded {
                    barrier: bar.address,
                    header,
                });
            };
            instances = instances.saturating_mul(n);
            headers.push(header);
        }
        barriers.push(PhaseBarrier {
            address: bar.address,
            loops: headers,
            instances,
            lambda,
        });
    }
    Ok(BarrierPhases {
        instances: barriers
            .iter()
            .map(|b| b.instances)
            .fold(0, u64::saturating_add),
        carry: barriers
            .iter()
            .map(|b| b.instances.saturating_mul(b.lambda))
            .fold(0, u64::saturating_add),
        barriers,
    })
}
