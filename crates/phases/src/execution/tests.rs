//! Hand-derived schedules, cross-checks against the WCET schedule, and property tests.

use super::refresh::RefreshClock;
use super::*;
use crate::access::Resource::{self, Compute, Dram, Scratchpad};
use crate::dram::DramPreset;
use crate::phase_list::pair_cost;
use crate::schedule::tests::TWO_WORK_GROUPS_BY_HAND;
use crate::schedule::worst_case;
use proptest::prelude::*;

fn opts(s: Scheduler) -> Options {
    Options {
        scheduler: s,
        path: PathChoice::Worst,
        actual_addresses: false,
        refresh: false,
        max_phases: 1 << 20,
        max_intervals: 1 << 20,
        shown_work_groups: u64::MAX,
        max_dram_sim_steps: 1 << 30,
    }
}

fn run_fixed(lists: Vec<Vec<Phase>>, w: u64, s: Scheduler, refresh: bool) -> Execution {
    let clock = RefreshClock::new(&DramPreset::Ddr4_3200aa2bg.timing(), 1000, refresh);
    run_work_groups(
        WorkGroups::fixed(lists, w),
        clock,
        0,
        u64::MAX,
        &opts(s),
        &isa::progress::silent,
    )
    .expect("the engine runs the fixed lists")
}

fn rows(e: &Execution) -> Vec<(u64, u8, u64, u64)> {
    e.schedule
        .intervals
        .iter()
        .map(|i| (i.work_group, i.slot, i.start, i.end))
        .collect()
}

/// (C 10, D 30, C 20, D 5), w = 2, by hand for the greedy scheduler: slot 1's compute waits
/// for slot 0's ([10, 20)); at 40 both slots want a resource the other just left, and the
/// one that has waited longer goes first. The result is the WCET schedule of
/// `schedule::tests::two_work_groups_by_hand` (makespan 95) under every scheduler: with two
/// resources and no early exit, even the greedy scheduler follows the one serialisation
/// (§4.2, §6.2: "the unconstrained scheduler will always schedule them following a single
/// serialisation").
#[test]
fn w2_every_scheduler_gives_the_hand_schedule() {
    let l = Phase::list(&[(Compute, 10), (Dram, 30), (Compute, 20), (Dram, 5)]);
    let want = TWO_WORK_GROUPS_BY_HAND;
    for s in Scheduler::ALL {
        let e = run_fixed(vec![l.clone()], 2, s, false);
        assert_eq!(rows(&e), want, "{}", s.name());
        assert_eq!(e.cycles, 95);
        // Busy: compute 10+20+10+20 = 60, DRAM 30+5+30+5 = 70.
        let busy: Vec<u64> = e.utilisation.iter().map(|u| u.busy).collect();
        assert_eq!(busy, vec![60, 70]);
    }
}

/// The same list, w = 3. Eq. 18: ⌊3/2⌋·c_2wg + c_1wg = 90 + 65 = 155. By hand, greedy: slot 0
/// exits work-group 0 at 75 and (unconstrained) starts work-group 2's compute at 90, when
/// slot 1's compute [70, 90) ends; pairwise releases slot 0 when work-group 1 starts its
/// final phase, [90, 95) — also 90. Then D [100, 130), C [130, 150), D [150, 155).
#[test]
fn w3_hand_derived_all_schedulers_155() {
    let l = Phase::list(&[(Compute, 10), (Dram, 30), (Compute, 20), (Dram, 5)]);
    for s in Scheduler::ALL {
        let e = run_fixed(vec![l.clone()], 3, s, false);
        assert_eq!(e.cycles, 155, "{}", s.name());
        let wg2: Vec<(u64, u64)> = e
            .schedule
            .intervals
            .iter()
            .filter(|i| i.work_group == 2)
            .map(|i| (i.start, i.end))
            .collect();
        assert_eq!(wg2, vec![(90, 100), (100, 130), (130, 150), (150, 155)]);
    }
    assert_eq!(pair_cost(&l, 3).map(|p| p.schedule).ok(), Some(155));
}

/// Drift (Fig. 4): lists (C 10, SP 40, C 10, D 10). Unconstrained, the slots' scratchpads are
/// separate, so by hand: WG0 C [0,10) SP [10,50) C [50,60) D [60,70); WG1 C [10,20) SP
/// [20,60) C [60,70) D [70,80); WG2 (slot 0 at 70) C [70,80) SP [80,120) C [120,130) D
/// [130,140); WG3 (slot 1 at 80) C [80,90) SP [90,130) C [130,140) D [140,150): 150. Under
/// scratchpad as access the scratchpad is "the" access resource, so SP phases serialise
/// with each other: Eq. 18 with c = (10, 40, 10, 10), w = 4: c_2wg = 10+40+40+10 = 100,
/// 2·100 + min(10, 10) = 210.
#[test]
fn scratchpad_drift_unconstrained_150_sp_as_access_210() {
    let l = Phase::list(&[(Compute, 10), (Scratchpad, 40), (Compute, 10), (Dram, 10)]);
    let u = run_fixed(vec![l.clone()], 4, Scheduler::Unconstrained, false);
    assert_eq!(u.cycles, 150);
    let a = run_fixed(vec![l.clone()], 4, Scheduler::SpAsAccess, false);
    assert_eq!(a.cycles, 210);
    assert_eq!(pair_cost(&l, 4).map(|p| p.schedule).ok(), Some(210));
    let p = run_fixed(vec![l], 4, Scheduler::Pairwise, false);
    assert!(p.cycles >= u.cycles && p.cycles <= a.cycles, "{}", p.cycles);
}

const PHASES_KERNEL: &str = "
.data
	0 0x0 1024 64
	1 0x40000 1024 64
	2 0x80000 1024 64
.text
	ldglin v1, 0
	ldglin v2, 1
	add v1, v1, v2
	stglin v1, 2
	exit
";

pub(super) fn analysed(text: &str, launch: Launch) -> (SimdResult, Dag, Program) {
    let parsed = isa::simd::parse(text, &isa::Limits::default());
    let program = parsed.program.expect("the test kernel parses");
    let (r, dag) =
        crate::analyze_with_dag(&program, &launch, &Config::reference()).expect("analyses");
    (r, dag, program)
}

use crate::launch::Launch;

/// Cross-check of two independent constructions: with every work-group on the critical path,
/// every request at its WCET cost and refresh off, the lockstep execution is exactly the
/// WCET schedule of [`crate::schedule::worst_case`] (Eq. 6–9) shifted by the program upload,
/// and ends at Eq. 18 (`wcet_before_refresh`).
#[test]
fn worst_path_at_wcet_costs_is_the_wcet_schedule() {
    let (r, dag, program) = analysed(PHASES_KERNEL, Launch::new(1024, 128, 32));
    let w = r.launch.work_groups;
    assert_eq!(w, 128);
    for (s, pol) in [
        (Scheduler::SpAsAccess, &r.sp_as_access),
        (Scheduler::SpAsCompute, &r.sp_as_compute),
    ] {
        let e = execute(&r, &dag, &program, &opts(s)).expect("runs");
        let wc = worst_case(&pol.phases, w, w, 1 << 20);
        let shifted: Vec<(u64, u8, usize, u64, u64)> = wc
            .intervals
            .iter()
            .map(|i| {
                (
                    i.work_group,
                    i.slot,
                    i.phase,
                    i.start + r.upload.cycles,
                    i.end + r.upload.cycles,
                )
            })
            .collect();
        let mut got: Vec<(u64, u8, usize, u64, u64)> = e
            .schedule
            .intervals
            .iter()
            .map(|i| (i.work_group, i.slot, i.phase, i.start, i.end))
            .collect();
        let mut want = shifted;
        got.sort();
        want.sort();
        assert_eq!(got, want);
        assert_eq!(e.cycles, pol.wcet_before_refresh);
    }
}

/// §4.2: under both policies the execution follows the one serialisation the WCET assumes,
/// even with the requests at their actual addresses and refresh at its real times: the
/// order in which (work-group, phase, slot) instances start equals the WCET schedule's.
/// And the run is within the policy's WCET and WCET^U.
#[test]
fn constrained_serialisation_is_the_unique_one() {
    let (r, dag, program) = analysed(PHASES_KERNEL, Launch::new(1024, 128, 32));
    let w = r.launch.work_groups;
    for (s, pol) in [
        (Scheduler::SpAsAccess, &r.sp_as_access),
        (Scheduler::SpAsCompute, &r.sp_as_compute),
    ] {
        let mut o = opts(s);
        o.actual_addresses = true;
        o.refresh = true;
        let e = execute(&r, &dag, &program, &o).expect("runs");
        let order = |iv: &[Interval]| -> Vec<(u64, usize, u8)> {
            iv.iter().map(|i| (i.work_group, i.phase, i.slot)).collect()
        };
        let wc = worst_case(&pol.phases, w, w, 1 << 20);
        assert_eq!(order(&e.schedule.intervals), order(&wc.intervals));
        assert!(e.cycles <= pol.wcet && e.cycles <= r.wcet_upper);
        assert!(e.requests_above_wcet.is_empty());
        assert!(e.controller_runs > 0);
        // Actual addresses make it strictly faster than the bound here.
        assert!(
            e.cycles < pol.wcet_before_refresh,
            "{} vs {}",
            e.cycles,
            pol.wcet_before_refresh
        );
    }
}

/// Budgets are errors naming the budget.
#[test]
fn phase_budget_is_named() {
    let (r, dag, program) = analysed(PHASES_KERNEL, Launch::new(1024, 128, 32));
    let mut o = opts(Scheduler::Unconstrained);
    o.max_phases = 10;
    let e = execute(&r, &dag, &program, &o)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(e.contains("max_sim_phases"), "{e}");
}

/// A generated case: base (scratchpad?, cost) pairs, w, and per work-group (pairs run, cost
/// percentages).
type Case = (Vec<(bool, u64)>, u64, Vec<(usize, Vec<u64>)>);

fn arb_case() -> impl Strategy<Value = Case> {
    // Base list: pairs (compute, access) with the access DRAM or scratchpad.
    (
        proptest::collection::vec((any::<bool>(), 1u64..4000), 1..5),
        1u64..9,
    )
        .prop_flat_map(|(pairs, w)| {
            let n = pairs.len();
            let per_wg = proptest::collection::vec(
                (1usize..=n, proptest::collection::vec(0u64..=100, 2 * n)),
                w as usize,
            );
            (Just(pairs), Just(w), per_wg)
        })
}

fn base_list(pairs: &[(bool, u64)]) -> Vec<Phase> {
    let mut v: Vec<(Resource, u64)> = Vec::new();
    for &(sp, c) in pairs {
        v.push((Compute, c / 2 + 1));
        v.push((if sp { Scratchpad } else { Dram }, c));
    }
    Phase::list(&v)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// §4.4's claim, checked on generated phase lists: every work-group takes a random path
    /// — a random early exit (it runs the first `k` compute/access pairs) with every phase
    /// at a random fraction of its worst-case cost — and under both policies the run (refresh
    /// at its real times) stays within Eq. 18 on the full list, refresh-inflated by Eq. 19,
    /// and no resource instance holds two phases at once (Definition 2).
    ///
    /// Mutation check (done by hand): with `.max(rres[c])` removed from the start time in
    /// `lockstep::run` (a phase no longer waits for its resource class) this test fails
    /// (overlapping reservations); restored, it passes. Making `released` always `true`
    /// (no pairwise constraint) does *not* make it fail: within the lockstep of Eq. 6–9 an
    /// early release did not push any generated run above Eq. 18.
    #[test]
    fn policies_stay_within_eq18_under_early_exit((pairs, w, per_wg) in arb_case()) {
        let base = base_list(&pairs);
        let lists: Vec<Vec<Phase>> = per_wg
            .iter()
            .map(|(k, f)| {
                base.iter()
                    .take(2 * k)
                    .zip(f)
                    .map(|(p, &pct)| Phase { cycles: (p.cycles * pct / 100).max(1), ..*p })
                    .collect()
            })
            .collect();
        let bound = pair_cost(&base, w).map_err(|e| TestCaseError::fail(e.to_string()))?.schedule;
        let t = DramPreset::Ddr4_3200aa2bg.timing();
        for s in [Scheduler::SpAsAccess, Scheduler::SpAsCompute] {
            let clock = RefreshClock::new(&t, 1000, true);
            let e = run_work_groups(
                WorkGroups::fixed(lists.clone(), w),
                clock,
                0,
                u64::MAX,
                &opts(s),
                &isa::progress::silent,
            )
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert!(e.cycles <= t.inflate_refresh(bound, 1000), "{} > {}", e.cycles, bound);
            let n: usize = lists.iter().map(|l| l.len()).sum();
            prop_assert_eq!(e.phase_instances as usize, n);
            for a in &e.schedule.intervals {
                for b in &e.schedule.intervals {
                    if a != b && a.lane == b.lane {
                        prop_assert!(a.end <= b.start || b.end <= a.start, "{:?} {:?}", a, b);
                    }
                }
            }
        }
    }

    /// The greedy schedulers run every phase once, in order per work-group, and never put two
    /// phases on one resource instance at once.
    #[test]
    fn greedy_schedules_are_valid((pairs, w, per_wg) in arb_case()) {
        let base = base_list(&pairs);
        let lists: Vec<Vec<Phase>> = per_wg.iter().map(|(k, _)| base.iter().take(2 * k).copied().collect()).collect();
        for s in [Scheduler::Unconstrained, Scheduler::Pairwise] {
            let e = run_fixed(lists.clone(), w, s, true);
            let n: usize = lists.iter().map(|l| l.len()).sum();
            prop_assert_eq!(e.schedule.intervals.len(), n);
            for a in &e.schedule.intervals {
                for b in &e.schedule.intervals {
                    if a != b && a.lane == b.lane {
                        prop_assert!(a.end <= b.start || b.end <= a.start);
                    }
                    if a.work_group == b.work_group && a.phase < b.phase {
                        prop_assert!(a.end <= b.start);
                    }
                }
            }
        }
    }
}
