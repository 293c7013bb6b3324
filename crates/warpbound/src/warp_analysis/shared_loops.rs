//! Loop bounds shared by the copies of one program loop in a warp-level CFG, for both
//! readings of the mode (SASS stack graphs, PTX post-dominator stacks).
//!
//! The abstract interpretation duplicates a loop's blocks per abstract context — before and
//! after its exit first diverges, per shape of the pending stack — and IPET then bounds every
//! copy by `N` per entry into that copy, so a loop split over `k` contexts may count `k × N`
//! iterations although the copies are phases of one execution (issue #23: "the copies are
//! alternatives, not repetitions"). This module adds one [`ipet::SharedBound`] per program
//! loop: all copies of its header together run at most `N` times per *start*.
//!
//! # Why that holds
//! A loop bound `N` is per thread and per entry: a thread runs the header at most `N` times
//! each time it enters the loop. Sort the threads of the warp that entered the loop by their
//! history — the header executions they took part in. Threads with the same history form a
//! class; the warp's executions of the header number at most `N` per class, since each one
//! is some class's execution and a class runs at most as often as any of its threads. A
//! class is made only where a group starts running the loop by itself: an entry edge, or the
//! resumption of a pending divergent path inside the loop (`cfg::WarpCfg::resumptions`) — a
//! split leaves one side running and the other waiting, and the two histories part only if
//! both run the header afterwards. The taken side of a divergent branch, the rest after some
//! threads halt or exit, a reconvergence and a return all continue threads already counted.
//!
//! One resumption is not a start: in convergence-barrier code a divergent back edge runs the
//! leaving group first and the iterating group waits at the header (`cfg::barriers`). When
//! every branch that can leave threads waiting there is a back edge of this loop whose
//! fall-through leaves the loop, the leaving group cannot run the header again without a new
//! entry (itself a start), so the resumed group continues the history of the group that
//! split ([`cfg::Resumption::back_edges`]). Without this, a loop whose exit diverges on every
//! iteration would count one start per iteration.
//!
//! The shared rows are added to the per-copy bounds, never in their place, so they can only
//! lower the bound. Checked by the soundness properties of `cfg` (barrier code against its
//! concrete executor) and of this crate (PTX against the simulator).

use ipet::{Copies, SharedBound};

/// The shared bounds of `warp` whose nodes copy the blocks of `program`; `bound_of(header)`
/// is the bound of the program loop with that header block (`None`: none known, the copies
/// keep their own). `joins_from_outside(loop)`: threads can halt outside the loop and
/// reconverge inside it (a `SYNC`, `BRK`, `CONT` or `RET` of the loop's surroundings whose
/// target is in it) — then the group that reconverges may hold threads new to the loop even
/// when the last group to arrive came from inside, so such reconvergences count as starts.
pub(crate) fn shared_bounds(
    program: &ipet::Cfg,
    warp: &cfg::WarpCfg,
    bound_of: impl Fn(usize) -> Option<u64>,
    joins_from_outside: impl Fn(&ipet::Loop) -> bool,
) -> Vec<SharedBound> {
    let copy_of: Vec<Option<usize>> = warp.nodes.iter().map(|n| n.block).collect();
    let edges: Vec<(usize, usize)> = warp.edges.iter().map(|e| (e.from, e.to)).collect();
    SharedBound::per_program_loop(
        program,
        &Copies {
            copy_of: &copy_of,
            edges: &edges,
            entry: warp.entry,
        },
        |l| bound_of(l.header),
        |edge, l| {
            let rejoins = matches!(
                warp.edges[edge].kind,
                cfg::WarpEdgeKind::Reconvergence | cfg::WarpEdgeKind::Return
            );
            warp.restarts(edge, l.header, &l.body)
                .or_else(|| (rejoins && joins_from_outside(l)).then_some(true))
        },
    )
}
