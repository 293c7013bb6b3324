//! Every Sim-D kernel of the corpus (read in place, `../shared/corpus/simd`, or
//! `$WARPBOUND_CORPUS/simd`), executed at its launch.tsv NDRange under the two §4.2 policies
//! (`phases::execution`): the observed cycles never exceed the policy's WCET nor WCET^U
//! (Eq. 10), and no request costs more at its address than its WCET cost — with every
//! work-group on the worst path, and on seeded random paths. The greedy schedulers are run
//! too and compared with the constrained WCETs (what the paper does not bound: see
//! `docs/simd-execution.md`).

use phases::execution::{execute, Options, PathChoice, Scheduler};
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
    let mut out = Vec::new();
    for line in text.lines().skip(1) {
        let (name, args) = line.split_once('\t').unwrap_or(("", line));
        let Some(path) = args.split_whitespace().find(|w| w.ends_with(".sas")) else {
            continue;
        };
        let stem = path
            .rsplit('/')
            .next()
            .unwrap_or(path)
            .trim_end_matches(".sas");
        if !dir.join(format!("{stem}.sas")).exists() {
            continue;
        }
        let launch = Launch::from_arguments(args).expect("launch.tsv arguments parse");
        out.push((name.to_string(), stem.to_string(), launch));
    }
    out
}

#[test]
fn constrained_executions_stay_within_the_wcet_on_the_corpus() {
    let rows = launches();
    assert_eq!(rows.len(), 26);
    let config = Config::paper();
    let mut greedy_above = Vec::new();
    for (name, stem, launch) in rows {
        let text = std::fs::read_to_string(corpus_dir().join(format!("{stem}.sas")))
            .expect("kernel is readable");
        let program = isa::simd::parse(&text, &isa::Limits::default())
            .program
            .expect("kernel parses");
        let (r, dag) = analyze_with_dag(&program, &launch, &config).expect("kernel analyses");
        for path in [PathChoice::Worst, PathChoice::Random { seed: 28 }] {
            for s in Scheduler::ALL {
                let e = execute(&r, &dag, &Options::new(s, path, &config)).expect("runs");
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
        let text = std::fs::read_to_string(corpus_dir().join(format!("{stem}.sas")))
            .expect("kernel is readable");
        let program = isa::simd::parse(&text, &isa::Limits::default())
            .program
            .expect("kernel parses");
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
            let e = execute(&r, &dag, &o).expect("runs");
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
