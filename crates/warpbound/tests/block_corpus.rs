//! The `block` mode on real code (issue #27): every SASS listing of `../shared/corpus/sass`
//! and `../shared/corpus/sass-modern` that the simulator can run as a block of 4 warps (128
//! threads, automatic launch) is bounded with the loop counts of those runs
//! (`loop_bounds=observed`), under unit cost and under its architecture's latency preset.
//! The runs under loose round-robin and greedy-then-oldest must finish within the bound, and
//! the bound must not exceed 4 × the one-warp bound. The table printed is the tightness
//! table of docs/performance.md (bound / worst run; time per request, debug build).

#[path = "common/corpus.rs"]
mod corpus;

use isa::Dialect;
use std::time::Instant;
use warpbound::{analyze, Request};

/// Listings the block runs of today (unit cost); fewer is a regression.
const MIN_SIMULATED: usize = 110;

/// Each corpus directory with the latency preset of its architecture.
const DIRS: [(&str, &str); 6] = [
    ("sass", "pascal-gp102"),
    ("sass-modern/sm_61", "pascal-gp102"),
    ("sass-modern/sm_70", "volta-qv100"),
    ("sass-modern/sm_75", "turing-rtx2060"),
    ("sass-modern/sm_86", "ampere-rtx3070"),
    ("sass-modern/sm_90", "hopper-h100"),
];

#[test]
fn four_warp_blocks_stay_within_the_bound() {
    let mut failures = Vec::new();
    let mut table = Vec::new();
    let mut simulated = 0;
    let mut slowest = 0.0f64;
    for (dir, latency) in DIRS {
        for path in corpus::files(&[dir], "sass") {
            let name = corpus::name(&path);
            let src = std::fs::read_to_string(&path).expect("listing");
            let mut row = format!("| {dir}/{name} |");
            for preset in [None, Some(latency)] {
                let mut req = Request::new(&src, Dialect::Sass);
                req.mode = Some("block".into());
                req.preset = preset.map(str::to_string);
                for (k, v) in [
                    ("simulate", serde_json::json!(true)),
                    ("loop_bounds", serde_json::json!("observed")),
                    ("block", serde_json::json!("128,1,1")),
                ] {
                    req.params.insert(k.into(), v);
                }
                let t = Instant::now();
                let r = analyze(&req);
                let ms = t.elapsed().as_secs_f64() * 1e3;
                slowest = slowest.max(ms);
                let Some(b) = r.block.as_ref().filter(|b| !b.runs.is_empty()) else {
                    row.push_str(&format!(" not run: {} |", corpus::stop(&r, 70)));
                    break;
                };
                simulated += usize::from(preset.is_none());
                let worst = b.runs.iter().map(|x| x.cycles).max().unwrap_or(0);
                let label = preset.unwrap_or("unit");
                for run in &b.runs {
                    if run.cycles > b.wcet {
                        failures.push(format!(
                            "{dir}/{name} ({label}, {}): observed {} > bound {}",
                            run.scheduler, run.cycles, b.wcet
                        ));
                    }
                }
                if b.wcet > 4 * b.warp_wcet {
                    failures.push(format!(
                        "{dir}/{name} ({label}): bound {} > 4 × {}",
                        b.wcet, b.warp_wcet
                    ));
                }
                row.push_str(&format!(
                    " {} {} | {} | {:.2}× | {ms:.0} ms |",
                    b.wcet,
                    match (b.barriers, b.bound.rule) {
                        (true, block::Rule::BarrierPhases) => "(bar, phases)",
                        (true, _) => "(bar)",
                        _ => "",
                    },
                    b.runs
                        .iter()
                        .map(|x| format!("{} {}", x.scheduler, x.cycles))
                        .collect::<Vec<_>>()
                        .join(", "),
                    b.wcet as f64 / worst.max(1) as f64
                ));
            }
            table.push(row);
        }
    }
    println!(
        "| kernel | unit: bound | runs | bound/worst | time | latency preset: bound | runs | bound/worst | time |\n{}",
        table.join("\n")
    );
    println!("slowest request: {slowest:.0} ms (debug build)");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    if table.is_empty() {
        return; // no corpus here
    }
    assert!(
        simulated >= MIN_SIMULATED,
        "only {simulated} of {} listings ran as a block (at least {MIN_SIMULATED} did)",
        table.len()
    );
}
