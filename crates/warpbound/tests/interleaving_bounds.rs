//! The warp-level CFG bound against runs under independent thread scheduling (the executor
//! `cfg::interleaving`), as `shared_loop_bounds.rs` checks it against stack-order runs: every
//! finished interleaved run issues at most the bound computed with the loop counts that run
//! needed (unit cost: the `warp-cfg` mode's cost of an instruction is one cycle here, see
//! `shared_loop_bounds.rs`). And two kernels where an interleaving issues more than the stack
//! order, against their bounds.

#[path = "../../cfg/tests/common/barrier_gen.rs"]
mod barrier_gen;
#[path = "../../cfg/tests/common/listing.rs"]
mod listing;
#[path = "common/observed.rs"]
mod observed;

use barrier_gen::Gen;
use cfg::concrete;
use cfg::interleaving::{self, Departure, Outcome, Scheduler, Visit, Wait};
use observed::{bound, observed_loop_bounds, parse};
use proptest::prelude::*;
use std::collections::BTreeMap;

/// A run whose `WARPSYNC` released its waiters at several instructions (they go on apart,
/// where the stack order rejoins them later) or whose convergence test saw the schedule:
/// the departures after which an interleaving may issue more than the stack order.
fn may_exceed(d: &Departure) -> bool {
    matches!(
        d,
        Departure::ScatteredRelease {
            wait: Wait::WarpSync,
            ..
        } | Departure::ConvergenceTest { .. }
    )
}

/// Runs `src` under several schedulers and checks observed ≤ bound for every finished run
/// (loop counts observed in that run; `default`: as `shared_loop_bounds.rs`, at least the warp
/// size for warp-level loops through resumptions). Runs with a departure that may exceed are
/// compared only if `all`; returns (compared, exceeded-but-excused).
fn check(src: &str, seeds: &[u64], all: bool) -> Result<(usize, usize), String> {
    let (k, g) = parse(src);
    let (mut compared, mut excused) = (0, 0);
    for &seed in seeds {
        for threads in [4usize, 32] {
            for s in [
                Scheduler::Newest,
                Scheduler::RoundRobin,
                Scheduler::Random(seed),
                Scheduler::Random(!seed),
            ] {
                let t = interleaving::run(&k, &g, threads, seed, s, 40_000);
                if t.outcome != Outcome::Finished {
                    continue;
                }
                let observed = t.issues.len() as u64;
                let bounds = observed_loop_bounds(&k, &g, &entries(&t.visits), threads);
                let most = bounds.values().copied().max().unwrap_or(1);
                let b = match bound(src, &bounds, most.max(threads as u64)) {
                    Err(e)
                        if e.contains("numerical trouble")
                            || e.contains("(raise max_bb_nodes)") =>
                    {
                        continue
                    }
                    other => other?,
                };
                if observed > b {
                    if !all && t.departures.iter().any(may_exceed) {
                        excused += 1;
                        continue;
                    }
                    return Err(format!(
                        "observed {observed} > bound {b} (threads {threads}, seed {seed}, {s:?}, loop bounds {bounds:?}, departures {:?})",
                        t.departures
                    ));
                }
                compared += 1;
            }
        }
    }
    Ok((compared, excused))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Kernels whose every divergence reconverges at a `BSYNC`: every interleaving within the
    /// bound (implied by the multiset equality of `cfg`'s `tests/interleaving.rs` and by
    /// `shared_loop_bounds.rs`; checked here end to end through the facade).
    #[test]
    fn interleaved_runs_of_reconverging_code_stay_within_the_bound(
        kernel_seed in any::<u64>(),
        data in prop::collection::vec(any::<u64>(), 2),
    ) {
        if let Err(e) = Gen::check_kernel(kernel_seed, true, |src| check(src, &data, true)) {
            prop_assert!(false, "{e}");
        }
    }

    /// The full generator: runs above the bound only after a departure that may exceed it
    /// (a scattered `WARPSYNC` release or a schedule-dependent `BRA.DIV`), see the two kernels
    /// below. (Such excused runs are possible, not observed: see the guard test.)
    #[test]
    fn interleaved_runs_exceed_the_bound_only_after_known_departures(
        kernel_seed in any::<u64>(),
        data in prop::collection::vec(any::<u64>(), 2),
    ) {
        if let Err(e) = Gen::check_kernel(kernel_seed, false, |src| check(src, &data, false)) {
            prop_assert!(false, "{e}");
        }
    }
}

/// Guard against a vacuous property: interleaved runs of generated code are compared.
#[test]
fn the_interleaved_generated_runs_are_compared() {
    let mut compared = 0;
    for seed in 0..40u64 {
        let src = Gen::kernel_without_warp_syncs(seed);
        compared += check(&src, &[seed], true)
            .unwrap_or_else(|e| panic!("{e}\n{src}"))
            .0;
    }
    assert!(compared >= 200, "{compared} runs compared");
}

/// `if (p) { __syncwarp(); … } __syncwarp();` (the kernel `MISMATCHED_WARPSYNCS` of `cfg`'s
/// `tests/interleaving.rs`, where the issues are derived by hand): on sm_70+ the two
/// `WARPSYNC`s match each other, so the paths go on apart and both issue the tail (11 issues in
/// every interleaving). The warp-level CFG used to rejoin them at the second `WARPSYNC` (bound
/// 9, exceeded by every interleaving); it now releases the waiters apart
/// (`cfg::barriers::mismatched_warp_sync`): bound 11 = 3 + 1 (0x50 for `T`) + 5 (0x30–0x70 for
/// `F`) + 2 (0x60, 0x70 for `T`), met by every interleaving.
#[test]
fn mismatched_warpsyncs_release_apart_within_the_bound() {
    let src = "S2R R0, SR_TID.X ;
ISETP.GE.AND P0, PT, R0, 0x10, PT ;
@P0 BRA J ;
WARPSYNC.ALL ;
IADD3 R1, R0, 0x1, RZ ;
J:
WARPSYNC.ALL ;
IADD3 R2, R0, 0x2, RZ ;
EXIT ;";
    let (k, g) = parse(src);
    let b = bound(src, &BTreeMap::new(), 1).expect("bound");
    assert_eq!(b, 11);
    let mut met = 0;
    for seed in 0..16u64 {
        let c = concrete::run(&k, &g, 32, seed, 100);
        let stack: usize = c
            .visits
            .iter()
            .map(|v| g.blocks[v.block].last - g.blocks[v.block].first + 1)
            .sum();
        assert!(stack as u64 <= b);
        let t = interleaving::run(&k, &g, 32, seed, Scheduler::RoundRobin, 100);
        assert_eq!(t.outcome, Outcome::Finished);
        assert!(
            t.issues.len() as u64 <= b,
            "seed {seed}: {} > {b}",
            t.issues.len()
        );
        if t.issues.len() as u64 == b {
            met += 1;
        }
    }
    assert!(met >= 8, "{met}");
}

/// `BRA.DIV` after the other path may have exited (the kernel `CONVERGENCE_TEST_AFTER_EXIT`
/// of `cfg`'s `tests/interleaving.rs`): the stack order takes the converged path (8 issues),
/// round-robin the diverged one (9). Both are paths of the warp-level CFG, which does not
/// resolve `BRA.DIV` (a uniform branch either way), so the bound, 9, holds.
#[test]
fn a_schedule_dependent_convergence_test_stays_within_the_bound() {
    let src = "S2R R0, SR_TID.X ;
ISETP.GE.AND P0, PT, R0, 0x10, PT ;
@P0 BRA T ;
BRA.DIV SLOW ;
IADD3 R1, R0, 0x1, RZ ;
EXIT ;
SLOW:
WARPSYNC 0xffff ;
IADD3 R1, R0, 0x2, RZ ;
EXIT ;
T:
IADD3 R2, R0, 0x3, RZ ;
EXIT ;";
    let (k, g) = parse(src);
    let b = bound(src, &BTreeMap::new(), 1).expect("bound");
    assert_eq!(b, 9);
    let mut slow = 0;
    for seed in 0..16u64 {
        for s in [
            Scheduler::Newest,
            Scheduler::RoundRobin,
            Scheduler::Random(seed),
        ] {
            let t = interleaving::run(&k, &g, 32, seed, s, 100);
            assert_eq!(t.outcome, Outcome::Finished);
            assert!(t.issues.len() as u64 <= b, "{s:?} seed {seed}");
            if t.issues.len() == 9 {
                slow += 1;
            }
        }
    }
    assert!(slow >= 8, "{slow}");
}

/// Guard against a vacuous property on the full generator. None of its interleavings has
/// exceeded the bound so far (a scan of kernel seeds 0..600 of both generators, 8772 runs: 0
/// above; the mismatched-`WARPSYNC` runs that issue more than the stack order stay under
/// bounds computed with loop counts of at least the warp size), so the gap is shown by the
/// hand kernel above.
#[test]
fn the_full_generator_interleavings_are_compared() {
    let (mut compared, mut excused) = (0, 0);
    for seed in 0..40u64 {
        let src = Gen::kernel(seed);
        let (c, e) = check(&src, &[seed], false).unwrap_or_else(|e| panic!("{e}\n{src}"));
        compared += c;
        excused += e;
    }
    assert!(compared >= 200, "{compared}");
    assert_eq!(excused, 0, "interleavings above the bound");
}

/// A run's block entries as `(block, active mask)`.
fn entries(visits: &[Visit]) -> Vec<(usize, u64)> {
    visits.iter().map(|v| (v.block, v.active)).collect()
}
