//! The WCET of a kernel launch (issue #41 item 3): `n` thread blocks of `W` warps each on
//! `S` streaming multiprocessors, each SM holding at most `m` blocks at once (the occupancy
//! calculators' answer, crate `occupancy`), placed by a *work-conserving* dispatcher —
//! whenever a block waits, no SM that has room for it is left without it — and each SM's
//! resident warps sharing its one issue slot under a work-conserving warp scheduler (the
//! machine of crate `block`).
//!
//! Memory contention between SMs enters through `C`: module [`contention`] bounds what the
//! other SMs add to one memory access (Huangfu's competing SMs, thesis §5.3.3.3, under a
//! stated round-robin arbitration at the DRAM's peak bandwidth), and the caller computes
//! `C` with latencies grown by that much; the bound below then holds as it is, since its
//! argument is about issue slots and each warp's own blocked cycles. The crate does not
//! analyse the kernel:
//! `C` (a warp's time alone), `I` (its warp-instructions) and the stall bound come from the
//! warp-CFG analysis of the caller.
//!
//! # Why not `⌈n / (S·m)⌉ · C_m`
//! The textbook wave argument — `S·m` slots, every block done within `C_m` of its dispatch,
//! so `n` blocks finish by `⌈n / (S·m)⌉·C_m` — needs a per-block bound `C_m` that holds
//! while the SM's other slots keep receiving new blocks. The response-time theorem gives
//! `C + (mW − 1)·I` only for a *fixed* set of `mW` warps: a warp's interference is the
//! issues of the warps it shares the SM with, and with blocks arriving behind it that set
//! grows. A warp waiting on a long latency, overtaken at each of its ready cycles by a
//! stream of newly dispatched short blocks on the other slots (which a work-conserving
//! warp scheduler may prefer; even loose round-robin visits warps appended beyond its
//! pointer first), can lose a cycle to every instruction of every block that passes — so
//! `C_m` is no bound on one block's time in a launch. The bound below instead splits the
//! launch at the dispatch of its last block.
//!
//! # The bound ([`launch_bound`])
//! Let `D` be the cycle the last block is dispatched and `T` the cycle the last warp
//! finishes.
//!
//! **After `D`** no block arrives: the SM `s*` of the warp `c` that finishes last holds a
//! fixed set of at most `r = min(m, n)` blocks. In `c`'s decomposition (crate `block`:
//! issue, blocked and interfered cycles, the first two at most `C` in virtual time over
//! its whole life) the cycles after `D` are at most `C` plus the interfered cycles after
//! `D`, each an issue of one of the other `rW − 1` warps: `T ≤ D + C + (rW − 1)·I`. With
//! barriers the serialised argument of crate `block` applies to those `rW` warps from `D`
//! on: a cycle where none of them issues has one blocked on its own latency (a block's
//! barrier releases when its last warp arrives), so `T − D ≤ Σ_w (I_w + blocked_w) ≤
//! rW·C`. Both are [`block::response_time`] of `rW` warps: `C_r`, the *final phase*.
//!
//! **Before `D`** a block always waits, so after every cycle's dispatch every SM holds `m`
//! blocks: number its `m` *slots*, a freed slot taking the next block. Take any SM `s`.
//! Each cycle `t < D` is either an issue cycle of `s` or one where no warp of `s` issues;
//! in the latter, by work conservation, no warp of `s` is ready, so the warp of slot 1's
//! current block that finishes last (it is live at `t`) is *blocked* — on a latency of its
//! own or, with barriers, at a barrier, and then some other live warp of that block is
//! blocked on its own latency (else the barrier would release). Charge the cycle to that
//! block: it gets at most `σ` such cycles, `σ` the stall bound of one warp (its blocked
//! cycles, at most `C_c − I_c ≤ C`; zero under cost `unit`, where every result is ready the
//! next cycle), or `W·σ` with barriers. The blocks `s` started before `D` number `q_s`, and
//! issue at most `q_s·W·I` instructions; slot 1's chain holds at most ⌊q_s/m⌋ of them if
//! slot 1 is the slot with the fewest (any slot would do for the charge). So
//! `D ≤ q_s·W·I + ⌊q_s/m⌋·σ_β` (`σ_β = σ`, or `W·σ` with barriers). All blocks but the last
//! started before `D`, so the SM with the fewest has `q_s ≤ q = ⌊(n − 1)/S⌋`, and with one
//! wave (`n ≤ S·m`) every block is placed at cycle 0: `D = 0`.
//!
//! Hence **`T ≤ q·W·I + ⌊q/m⌋·σ_β + C_r`** (the first two terms 0 when `n ≤ S·m`), for
//! every work-conserving dispatcher and warp scheduler. With `S·m` slots and `k =
//! ⌈n/(S·m)⌉` waves it is about `k·(mW·I + σ_β) + C_r`: each wave costs the SM's issues of
//! `m` blocks plus one block's stalls — co-resident blocks hide each other's latencies,
//! which is what they change about a wave's cost — and the last wave the full `C_r`.
//! Under cost `unit` with one-warp blocks and one slot it is exact (`n·I/S` for `S | n`):
//! `tests` reproduce the simulator's runs of `crates/sim/tests/multi_sm.rs`.
//!
//! The simulator frees a block's slot when its last warp *issues* its last instruction
//! and fills it the next cycle, which is at most the cycle that instruction completes:
//! a slot is never idle while a block waits, as the argument needs.

pub mod contention;
pub mod gpus;

use block::WarpProfile;

/// What the bound needs about the grid and the GPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grid {
    /// Blocks in the grid (`n`).
    pub blocks: u64,
    /// Warps per block (`W`).
    pub warps_per_block: u64,
    /// SMs (`S`).
    pub sms: u64,
    /// Blocks one SM holds at once (`m`, from the occupancy; at least 1).
    pub blocks_per_sm: u64,
}

/// What is known of one warp of the kernel, in cycles of the cost model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Warp {
    /// `C` and `I` (crate `block`).
    pub profile: WarpProfile,
    /// `σ`: cycles the warp can spend blocked on its own latencies (module doc): `C` is
    /// always safe, 0 under cost `unit`.
    pub stall: u64,
    /// The kernel waits at thread-block barriers.
    pub barriers: bool,
}

/// The launch bound and its parts (module doc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchBound {
    /// `T`: cycles until the last warp of the launch finishes, at most.
    pub cycles: u64,
    /// `S·m`: blocks resident on the GPU at once.
    pub slots: u64,
    /// `⌈n / (S·m)⌉`.
    pub waves: u64,
    /// `q = ⌊(n − 1)/S⌋` (0 with one wave): blocks the least loaded SM may start before the
    /// last block is dispatched.
    pub blocks_before_last: u64,
    /// `q·W·I`: their issue cycles.
    pub dispatch_issues: u64,
    /// `⌊q/m⌋·σ_β`: cycles that SM may have nothing to issue before the last dispatch.
    pub dispatch_stalls: u64,
    /// `σ_β`: one block's share of those (`σ`, or `W·σ` with barriers).
    pub block_stall: u64,
    /// `q·W·I + ⌊q/m⌋·σ_β`: the bound on the cycle the last block is dispatched.
    pub last_dispatch: u64,
    /// `r = min(m, n)`: blocks on the last warp's SM after the last dispatch, at most.
    pub final_blocks: u64,
    /// `C_r`: the block crate's bound for their `r·W` warps.
    pub final_phase: block::BlockBound,
}

/// The bound on a launch of `grid` of warps like `warp` (module doc). Arithmetic only, in
/// saturating `u64`: a grid of 2^31 blocks answers at once.
pub fn launch_bound(warp: Warp, grid: Grid) -> LaunchBound {
    let n = grid.blocks;
    let w = grid.warps_per_block.max(1);
    let s = grid.sms.max(1);
    let m = grid.blocks_per_sm.max(1);
    let slots = s.saturating_mul(m);
    let waves = n.div_ceil(slots);
    let r = m.min(n.max(1));
    // The final phase: `r·W` warps; more than a few thousand identical warps only repeat the
    // same arithmetic, so the block bound is computed in closed form beyond that.
    let final_phase = final_phase(warp, r.saturating_mul(w));
    let block_stall = if warp.barriers {
        w.saturating_mul(warp.stall)
    } else {
        warp.stall
    };
    let q = if n <= slots { 0 } else { (n - 1) / s };
    let dispatch_issues = q.saturating_mul(w).saturating_mul(warp.profile.issues);
    let dispatch_stalls = (q / m).saturating_mul(block_stall);
    let last_dispatch = dispatch_issues.saturating_add(dispatch_stalls);
    LaunchBound {
        cycles: last_dispatch.saturating_add(final_phase.cycles),
        slots,
        waves,
        blocks_before_last: q,
        dispatch_issues,
        dispatch_stalls,
        block_stall,
        last_dispatch,
        final_blocks: r,
        final_phase,
    }
}

/// The largest [`launch_bound`] over every number of resident blocks per SM from 1 to
/// `grid.blocks_per_sm`, and that number: a bound for the launch whatever the SM actually
/// holds up to that count. Why it is needed: the bound is not monotone in the occupancy
/// (fewer resident blocks make more dispatch rounds, `⌊q/m⌋·σ_β`, and a smaller final phase),
/// so a bound computed with an occupancy that overstates the hardware's — a plain listing
/// does not state its static shared memory, which is then taken as 0 — need not hold for
/// the actual count; this one does, as long as the estimate is not below it.
pub fn launch_bound_up_to(warp: Warp, grid: Grid) -> (LaunchBound, u64) {
    (1..=grid.blocks_per_sm.max(1))
        .map(|m| {
            let at = Grid {
                blocks_per_sm: m,
                ..grid
            };
            (launch_bound(warp, at), m)
        })
        .max_by_key(|(b, m)| (b.cycles, *m))
        .unwrap_or_else(|| (launch_bound(warp, grid), grid.blocks_per_sm))
}

/// Most warps whose per-warp bounds are listed in the final phase (an SM holds at most 64
/// on every NVIDIA architecture to date; GCN3 40).
const MAX_LISTED_WARPS: u64 = 4096;

/// [`block::response_time`] of `warps` warps like `warp`; beyond [`MAX_LISTED_WARPS`] the
/// same numbers without the per-warp list.
fn final_phase(warp: Warp, warps: u64) -> block::BlockBound {
    if warps <= MAX_LISTED_WARPS {
        return block::response_time(&vec![warp.profile; warps as usize], warp.barriers);
    }
    let p = warp.profile;
    let serialised = warps.saturating_mul(p.isolated);
    let theorem = p
        .isolated
        .saturating_add((warps - 1).saturating_mul(p.issues));
    let (cycles, rule) = if warp.barriers {
        (serialised, block::Rule::Serialised)
    } else {
        (theorem.min(serialised), block::Rule::ResponseTime)
    };
    block::BlockBound {
        cycles,
        rule,
        warps: Vec::new(),
        critical: (warps - 1) as usize,
        contention: cycles.saturating_sub(p.isolated),
        serialised,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warp(isolated: u64, issues: u64, stall: u64, barriers: bool) -> Warp {
        Warp {
            profile: WarpProfile { isolated, issues },
            stall,
            barriers,
        }
    }

    fn grid(blocks: u64, warps_per_block: u64, sms: u64, blocks_per_sm: u64) -> Grid {
        Grid {
            blocks,
            warps_per_block,
            sms,
            blocks_per_sm,
        }
    }

    /// 4 one-warp blocks on one SM, C = 10, I = 2, σ = 10, no barriers.
    /// m = 2: q = ⌊3/1⌋ = 3, issues 3·1·2 = 6, stalls ⌊3/2⌋·10 = 10, r = 2, C_2 = 10 + 1·2 =
    /// 12: 28. m = 1: issues 6, stalls ⌊3/1⌋·10 = 30, r = 1, C_1 = 10: 46. An estimate of 2
    /// blocks per SM must give 46, the bound should the SM hold only one.
    #[test]
    fn an_overstated_occupancy_takes_the_largest_bound_below_it() {
        let w = warp(10, 2, 10, false);
        assert_eq!(launch_bound(w, grid(4, 1, 1, 2)).cycles, 28);
        assert_eq!(launch_bound(w, grid(4, 1, 1, 1)).cycles, 46);
        let (b, m) = launch_bound_up_to(w, grid(4, 1, 1, 2));
        assert_eq!((b.cycles, m), (46, 1));
        // 8 blocks, estimated 8 per SM (one wave, 10 + 7·2 = 24); should the SM hold one at
        // a time: q = 7, 7·2 + 7·10 + 10 = 94.
        assert_eq!(launch_bound(w, grid(8, 1, 1, 8)).cycles, 24);
        assert_eq!(
            launch_bound_up_to(w, grid(8, 1, 1, 8)),
            (launch_bound(w, grid(8, 1, 1, 1)), 1)
        );
        assert_eq!(launch_bound(w, grid(8, 1, 1, 1)).cycles, 94);
    }

    #[test]
    fn two_waves_of_one_warp_blocks_under_unit_cost_are_exact() {
        // sim's multi_sm test: 4 one-warp blocks of 4 instructions, 2 SMs × 1 slot, cost
        // unit (C = I = 4, σ = 0): q = ⌊3/2⌋ = 1, D ≤ 1·1·4 = 4, C_1 = 4: T ≤ 8, the
        // observed 8.
        let b = launch_bound(warp(4, 4, 0, false), grid(4, 1, 2, 1));
        assert_eq!(b.waves, 2);
        assert_eq!(b.blocks_before_last, 1);
        assert_eq!(b.last_dispatch, 4);
        assert_eq!(b.final_phase.cycles, 4);
        assert_eq!(b.cycles, 8);
    }

    #[test]
    fn two_slots_per_sm() {
        // 8 blocks, 2 SMs × 2 slots (observed 16): q = ⌊7/2⌋ = 3, D ≤ 3·4 = 12, ⌊3/2⌋·0 = 0;
        // C_2 = 4 + (2 − 1)·4 = 8: T ≤ 20.
        let b = launch_bound(warp(4, 4, 0, false), grid(8, 1, 2, 2));
        assert_eq!((b.slots, b.waves), (4, 2));
        assert_eq!(b.dispatch_issues, 12);
        assert_eq!(b.final_phase.cycles, 8);
        assert_eq!(b.cycles, 20);
    }

    #[test]
    fn one_wave_is_the_block_bound_of_the_fullest_sm() {
        // 3 blocks of 4 warps on 8 SMs of 4 slots: one wave, but any work-conserving
        // dispatcher may put all three on one SM: 12 warps, C = 300, I = 6:
        // 300 + 11·6 = 366.
        let b = launch_bound(warp(300, 6, 300, false), grid(3, 4, 8, 4));
        assert_eq!(b.waves, 1);
        assert_eq!(b.last_dispatch, 0);
        assert_eq!(b.final_blocks, 3);
        assert_eq!(b.cycles, 366);
    }

    #[test]
    fn latency_bound_waves_pay_issues_and_one_block_stall_each() {
        // 100 blocks of 4 warps, C = 300, I = 6, σ = 300; 10 SMs × 2 slots (5 waves):
        // q = ⌊99/10⌋ = 9; issues 9·4·6 = 216; ⌊9/2⌋ = 4 stalls of 300 = 1200; D ≤ 1416;
        // C_2 = 300 + 7·6 = 342; T ≤ 1758 (against 5 × 342 = 1710 for the unproved wave
        // formula).
        let b = launch_bound(warp(300, 6, 300, false), grid(100, 4, 10, 2));
        assert_eq!(b.waves, 5);
        assert_eq!(b.dispatch_issues, 216);
        assert_eq!(b.dispatch_stalls, 1200);
        assert_eq!(b.final_phase.cycles, 342);
        assert_eq!(b.cycles, 1758);
    }

    #[test]
    fn barriers_serialise_the_final_phase_and_a_block_stalls_per_warp() {
        // Same launch with barriers: σ_β = 4·300 = 1200, ⌊9/2⌋·1200 = 4800; C_2 = the
        // serialised 8·300 = 2400; T ≤ 216 + 4800 + 2400 = 7416.
        let b = launch_bound(warp(300, 6, 300, true), grid(100, 4, 10, 2));
        assert_eq!(b.block_stall, 1200);
        assert_eq!(b.final_phase.rule, block::Rule::Serialised);
        assert_eq!(b.cycles, 7416);
    }

    #[test]
    fn a_grid_of_two_to_the_31_blocks_saturates_without_panicking() {
        let b = launch_bound(
            warp(u64::MAX / 2, 1 << 40, u64::MAX / 2, true),
            grid((1 << 31) * 65535, 32, 1, 1),
        );
        assert_eq!(b.cycles, u64::MAX);
        let zero = launch_bound(warp(10, 10, 0, false), grid(0, 0, 0, 0));
        assert_eq!(zero.waves, 0);
        assert_eq!(zero.cycles, 10);
    }

    #[test]
    fn the_closed_form_final_phase_agrees_with_the_block_crate() {
        let w = warp(300, 6, 300, false);
        let listed = final_phase(w, MAX_LISTED_WARPS);
        let closed = final_phase(w, MAX_LISTED_WARPS + 1);
        assert_eq!(listed.cycles, 300 + (MAX_LISTED_WARPS - 1) * 6);
        assert_eq!(closed.cycles, listed.cycles + 6);
    }
}
