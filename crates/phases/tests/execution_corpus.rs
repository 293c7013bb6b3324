//! Every Sim-D kernel of the corpus (read in place, `../shared/corpus/simd`, or
//! `$WARPBOUND_CORPUS/simd`), executed at its launch.tsv NDRange under the two §4.2 policies
//! (`phases::execution`): the observed cycles never exceed the policy's WCET nor WCET^U
//! (Eq. 10), and no request costs more at its address than its WCET cost — with every
//! work-group on the worst path, and on seeded random paths. The greedy schedulers are run
//! too and compared with the constrained WCETs (what the paper does not bound: see
//! `docs/simd-execution.md`). And with path=launch (each work-group's branches decided from
//! its id and the launch where the interpreter can): within the WCET under both policies, and
//! kfusion_track's early exits counted by hand.

#[path = "common/launch_tsv.rs"]
mod launch_tsv;

use phases::execution::{execute, Fallback, Options, PathChoice, Scheduler};
use phases::{analyze_with_dag, Config, Launch};
use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    match std::env::var_os("WARPBOUND_CORPUS") {
        Some(d) => PathBuf::from(d).join("simd"),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/simd"),
    }
}

/// (name, file stem, launch) from launch.tsv; rows whose file is not in the corpus are left
/// out (launch.tsv names `srad_reduce_invoc_2.sas`, which the corpus does not have).
fn launches() -> Vec<(String, String, Launch)> {
    let dir = corpus_dir();
    let text = std::fs::read_to_string(dir.join("launch.tsv")).expect("launch.tsv is readable");
    launch_tsv::rows(&text)
        .into_iter()
        .filter(|(_, stem, _)| dir.join(format!("{stem}.sas")).exists())
        .map(|(name, stem, args)| {
            let launch = Launch::from_arguments(args).expect("launch.tsv arguments parse");
            (name, stem, launch)
        })
        .collect()
}

#[test]
fn constrained_executions_stay_within_the_wcet_on_the_corpus() {
    let rows = launches();
    assert_eq!(rows.len(), 26);
    let config = Config::paper();
    let mut greedy_above = Vec::new();
    for (name, stem, launch) in rows {
        let program = kernel(&stem);
        let (r, dag) = analyze_with_dag(&program, &launch, &config).expect("kernel analyses");
        for path in [PathChoice::Worst, PathChoice::Random { seed: 28 }] {
            for s in Scheduler::ALL {
                let e = execute(&r, &dag, &program, &Options::new(s, path, &config)).expect("runs");
                assert!(
                    e.requests_above_wcet.is_empty(),
                    "{name}: {:?}",
                    e.requests_above_wcet
                );
                assert_eq!(e.work_groups, r.launch.work_groups);
                match s.policy() {
                    Some(p) => {
                        let wcet = if p == phases::Policy::SpAsAccess {
                            r.sp_as_access.wcet
                        } else {
                            r.sp_as_compute.wcet
                        };
                        assert!(
                            e.cycles <= wcet && e.cycles <= r.wcet_upper,
                            "{name} {} {path:?}: {} > {wcet}",
                            s.name(),
                            e.cycles
                        );
                        assert!(e.within_bound);
                    }
                    None => {
                        let best = r.sp_as_access.wcet.min(r.sp_as_compute.wcet);
                        assert!(e.cycles <= r.wcet_upper, "{name} {}", s.name());
                        if e.cycles > best {
                            greedy_above.push((name.clone(), s.name(), e.cycles, best));
                        }
                    }
                }
            }
        }
    }
    // Found: no greedy run of the corpus exceeds the better policy's WCET either.
    assert_eq!(greedy_above, vec![]);
}

/// §4.2 on the corpus: under both policies, with every work-group on the worst path, DRAM
/// tiles at their actual addresses and refresh at its real times, the (work-group, phase,
/// slot) instances start in exactly the order of the WCET's serialisation
/// (`schedule::worst_case`), for every kernel whose whole run fits 300 000 intervals.
#[test]
fn corpus_policies_follow_the_unique_serialisation() {
    let config = Config::paper();
    let mut checked = 0;
    for (name, stem, launch) in launches() {
        let program = kernel(&stem);
        let (r, dag) = analyze_with_dag(&program, &launch, &config).expect("kernel analyses");
        let w = r.launch.work_groups;
        for (s, pol) in [
            (Scheduler::SpAsAccess, &r.sp_as_access),
            (Scheduler::SpAsCompute, &r.sp_as_compute),
        ] {
            let n = w.saturating_mul(pol.phases.len() as u64);
            if n > 300_000 {
                continue;
            }
            let mut o = Options::new(s, PathChoice::Worst, &config);
            o.shown_work_groups = w;
            o.max_intervals = n;
            let e = execute(&r, &dag, &program, &o).expect("runs");
            let wc = phases::schedule::worst_case(&pol.phases, w, w, n);
            let order = |iv: &[phases::Interval]| -> Vec<(u64, usize, u8)> {
                iv.iter().map(|i| (i.work_group, i.phase, i.slot)).collect()
            };
            assert_eq!(
                order(&e.schedule.intervals),
                order(&wc.intervals),
                "{name} {}",
                s.name()
            );
            checked += 1;
        }
    }
    assert!(checked >= 40, "{checked}");
}

fn kernel(stem: &str) -> isa::simd::Program {
    let text = std::fs::read_to_string(corpus_dir().join(format!("{stem}.sas")))
        .expect("kernel is readable");
    isa::simd::parse(&text, &isa::Limits::default())
        .program
        .expect("kernel parses")
}

/// path=launch on every launch.tsv kernel, both §4.2 policies, worst fallback: observed ≤
/// the policy's WCET and WCET^U, no request above its WCET cost, and every work-group's
/// choices counted (decided + fallback). Prints the per-kernel summary
/// (`cargo test -p phases --test execution_corpus -- --nocapture`).
#[test]
fn launch_paths_stay_within_the_wcet_on_the_corpus() {
    let config = Config::paper();
    let path = PathChoice::FromLaunch {
        fallback: Fallback::Worst,
    };
    let mut all_decided = 0;
    let rows = launches();
    for (name, stem, launch) in &rows {
        let program = kernel(stem);
        let (r, dag) = analyze_with_dag(&program, launch, &config).expect("kernel analyses");
        for s in [Scheduler::SpAsAccess, Scheduler::SpAsCompute] {
            let e = execute(&r, &dag, &program, &Options::new(s, path, &config)).expect("runs");
            let wcet = if s == Scheduler::SpAsAccess {
                r.sp_as_access.wcet
            } else {
                r.sp_as_compute.wcet
            };
            assert!(
                e.cycles <= wcet && e.cycles <= r.wcet_upper && e.within_bound,
                "{name} {}: {} > {wcet}",
                s.name(),
                e.cycles
            );
            assert!(e.requests_above_wcet.is_empty(), "{name}");
            let d = e.decisions.expect("path=launch reports its decisions");
            if s == Scheduler::SpAsAccess {
                println!(
                    "{name}: w {} decided {} fallback {} capped {} confirmed {} early exits {} all-decided work-groups {}",
                    e.work_groups, d.decided, d.fallback, d.capped, d.confirmed, d.early_exits, d.work_groups_all_decided
                );
                all_decided += usize::from(d.fallback == 0);
            }
        }
    }
    println!(
        "kernels with every choice decided: {all_decided} of {}",
        rows.len()
    );
}

/// kfusion_track at its launch `-d 640,480 -w 32`: its first block exits the work-items with
/// `tid_x ≥ dim_x(6)/8` or `tid_y ≥ dim_y(6)`; buffer 6 is 5120 × 480, so the bounds are
/// 640 × 480 — exactly the NDRange. ⌈640/32⌉ · ⌈480/32⌉ = 20 · 15 = 300 work-groups, every
/// work-item inside: by hand, no work-group exits early. Widened to `-d 704,480` (22 · 15 =
/// 330 work-groups), the two rightmost columns (gx = 20, 21: tid_x 640..703) are wholly out
/// of bounds: 2 · 15 = 30 work-groups exit in the first block, before any request, and the
/// execution stays within both WCETs.
///
/// Mutation check (done by hand): making `sshr` always unknown in
/// `phases::execution::alu::int_op` leaves the bound `dim_x/8` unknown, no work-group is seen
/// to exit, and this test fails (`-d 704,480`: 0 early exits instead of 30).
#[test]
fn kfusion_track_early_exits_by_hand() {
    let config = Config::paper();
    let program = kernel("kfusion_track");
    let path = PathChoice::FromLaunch {
        fallback: Fallback::Worst,
    };
    for (x, w, exits) in [(640, 300, 0), (704, 330, 30)] {
        let launch = Launch::new(x, 480, 32);
        let (r, dag) = analyze_with_dag(&program, &launch, &config).expect("kernel analyses");
        for s in [Scheduler::SpAsAccess, Scheduler::SpAsCompute] {
            let e = execute(&r, &dag, &program, &Options::new(s, path, &config)).expect("runs");
            let d = e.decisions.expect("path=launch reports its decisions");
            assert_eq!((e.work_groups, d.early_exits), (w, exits), "-d {x},480");
            assert!(e.within_bound, "-d {x},480 {}", s.name());
        }
    }
}
