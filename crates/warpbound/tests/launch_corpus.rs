//! The `launch` mode on real code (issue #41 item 3): every SASS listing of
//! `../shared/corpus/sass` and `../shared/corpus/sass-modern` (sm_61 … sm_90) that the
//! simulator runs is launched as 8 blocks of 128 threads on 2 SMs holding 2 blocks each
//! (`registers=255`: 8 warps per SM on every architecture, so 2 four-warp blocks), i.e. two
//! waves per SM, under unit cost and under its architecture's latency preset, with the loop
//! counts of those runs (`loop_bounds=observed`). Every run (lrr, gto, random) must finish
//! within the launch bound. The table printed is bound / worst run per listing.

#[path = "common/corpus.rs"]
mod corpus;

use isa::Dialect;
use warpbound::{analyze, Request};

/// Listings whose launch runs today (unit cost); fewer is a regression.
const MIN_SIMULATED: usize = 110;

#[test]
fn two_waves_on_two_sms_stay_within_the_bound() {
    let mut failures = Vec::new();
    let mut table = Vec::new();
    let mut simulated = 0;
    let mut ratios: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    for (dir, latency) in corpus::SASS_DIRS {
        for path in corpus::files(&[dir], "sass") {
            let name = corpus::name(&path);
            let src = std::fs::read_to_string(&path).expect("listing");
            let mut row = format!("| {dir}/{name} |");
            for (i, preset) in [None, Some(latency)].into_iter().enumerate() {
                let mut req = Request::new(&src, Dialect::Sass);
                req.mode = Some("launch".into());
                req.preset = preset.map(str::to_string);
                for (k, v) in [
                    ("simulate", serde_json::json!(true)),
                    ("loop_bounds", serde_json::json!("observed")),
                    ("grid", serde_json::json!("8,1,1")),
                    ("block", serde_json::json!("128,1,1")),
                    ("sms", serde_json::json!(2)),
                    ("registers", serde_json::json!(255)),
                    // The simulator models no memory contention between SMs: the bound is checked
                    // in the same setting (the contention term only adds to it, tests/launch.rs).
                    ("memory_contention", serde_json::json!("none")),
                ] {
                    req.params.insert(k.into(), v);
                }
                let r = analyze(&req);
                let Some(l) = r.launch().filter(|l| !l.runs.is_empty()) else {
                    row.push_str(&format!(" not run: {} |", corpus::stop(&r, 60)));
                    break;
                };
                assert_eq!(l.blocks_per_sm, 2, "{dir}/{name}");
                simulated += usize::from(preset.is_none());
                let worst = l.runs.iter().map(|x| x.cycles).max().unwrap_or(0);
                for run in &l.runs {
                    if run.cycles > l.wcet {
                        failures.push(format!(
                            "{dir}/{name} ({}, {}): observed {} > bound {}",
                            preset.unwrap_or("unit"),
                            run.scheduler,
                            run.cycles,
                            l.wcet
                        ));
                    }
                }
                let ratio = l.wcet as f64 / worst.max(1) as f64;
                ratios[i].push(ratio);
                row.push_str(&format!(" {} / {worst} = {ratio:.2} |", l.wcet));
            }
            table.push(row);
        }
    }
    println!("| listing | unit: bound / worst run | latency preset |\n|---|---|---|");
    for row in &table {
        println!("{row}");
    }
    for (label, mut r) in [("unit", ratios[0].clone()), ("latency", ratios[1].clone())] {
        r.sort_by(f64::total_cmp);
        if let (Some(mid), Some(max)) = (r.get(r.len() / 2), r.last()) {
            println!(
                "{label}: {} launches, bound / worst run median {mid:.2}, max {max:.2}",
                r.len()
            );
        }
    }
    println!("simulated: {simulated} of {} listings", table.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        simulated >= MIN_SIMULATED,
        "only {simulated} listings simulated"
    );
}
