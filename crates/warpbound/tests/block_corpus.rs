//! The `block` mode on real code (issue #27): every SASS listing of `../shared/corpus/sass`
//! and `../shared/corpus/sass-modern` that the simulator can run as a block of 4 warps (128
//! threads, automatic launch) is bounded with the loop counts of those runs
//! (`loop_bounds=observed`), under unit cost and under its architecture's latency preset.
//! The runs under loose round-robin and greedy-then-oldest must finish within the bound, and
//! the bound must not exceed 4 × the one-warp bound. The table printed is the tightness
//! table of docs/performance.md (bound / worst run; time per request, debug build), with
//! its summary: bound / worst run per kind of kernel (no barriers; barriers every warp
//! passes alike, none in a loop; the same with barriers in loops; serialised), and for the
//! kernels with a barrier in a block-uniform loop (issue #38 item 5) the serialised bound /
//! worst run they had before the per-phase rule reached into loops.

#[path = "common/corpus.rs"]
mod corpus;

use isa::Dialect;
use std::time::Instant;
use warpbound::{analyze, Request};

/// Listings the block runs of today (unit cost); fewer is a regression.
const MIN_SIMULATED: usize = 110;

/// Listings with a barrier in a loop that get the per-phase bound today; fewer is a
/// regression.
const MIN_PHASED_IN_LOOPS: usize = 24;

/// How the block bound treats a kernel's barriers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    NoBarriers,
    /// `block::barrier_phases` accepted them, none in a loop.
    Phased,
    /// Accepted, some barrier in a loop.
    PhasedInLoops,
    /// Refused: the serialised bound.
    Serialised,
}

/// One simulated listing's numbers for the summary.
struct Row {
    name: String,
    kind: Kind,
    /// Some barrier lies in a block-uniform loop ([`barrier_in_uniform_loop`]).
    uniform_loop: bool,
    /// Why the barriers are serialised (`block::Serialised`'s kind).
    because: Option<String>,
    /// Bound / worst run under unit cost and under the latency preset.
    unit: f64,
    latency: f64,
    /// The serialised bound / worst run under the latency preset.
    serialised: f64,
    /// The per-phase bound is below the serialised one under the latency preset.
    below: bool,
}

/// Whether some barrier of `src` lies in loops of the thread CFG that every thread of a
/// block leaves in the same iteration: every block of each loop around it that leaves the
/// loop (an edge outside, or an end of the thread) is a block-uniform branch
/// (`loopbound::uniform`). These are the kernels the per-phase rule for barriers in loops
/// is for; whether the rule accepts one also depends on the branches around (module doc of
/// `block::barrier_phases`).
fn barrier_in_uniform_loop(src: &str) -> bool {
    let limits = isa::Limits::default();
    let Some(k) = isa::sass::parse(src, None, &limits).kernel else {
        return false;
    };
    let g = isa::blocks::build(&k, &limits);
    let a = loopbound::analyse(loopbound::sass::lower(&k, &g));
    let u = a.uniformity();
    let n = g.blocks.len();
    let leaves = |l: &loopbound::loops::Loop, b: usize| {
        let edges = &a.program.blocks[b].edges;
        edges.is_empty() || edges.iter().any(|e| e.to >= n || !l.contains(e.to))
    };
    let bars: Vec<usize> = (0..k.instructions.len())
        .filter(|&i| k.instructions[i].opcode.name == "BAR")
        .filter_map(|i| g.block_of(i))
        .collect();
    bars.iter().any(|&bar| {
        let around: Vec<&loopbound::loops::Loop> =
            a.loops.loops.iter().filter(|l| l.contains(bar)).collect();
        !around.is_empty()
            && around.iter().all(|l| {
                (0..n)
                    .filter(|&b| l.contains(b) && leaves(l, b))
                    .all(|b| u.uniform_branch(b))
            })
    })
}

/// The median of `xs` (the mean of the middle two for an even count) and the largest.
fn median_max(mut xs: Vec<f64>) -> Option<(f64, f64)> {
    if xs.is_empty() {
        return None;
    }
    xs.sort_by(f64::total_cmp);
    let m = xs.len() / 2;
    let median = if xs.len().is_multiple_of(2) {
        (xs[m - 1] + xs[m]) / 2.0
    } else {
        xs[m]
    };
    Some((median, xs[xs.len() - 1]))
}

/// `median× (max×)`, or a dash.
fn show(xs: Vec<f64>) -> String {
    median_max(xs).map_or("–".into(), |(m, x)| format!("{m:.2}× ({x:.2}×)"))
}

/// The summary under the table (docs/performance.md).
fn summary(rows: &[Row]) -> String {
    let mut out = String::from("| | unit cost | latency preset |\n|---|---|---|\n");
    for (kind, what) in [
        (Kind::NoBarriers, "without barriers"),
        (
            Kind::Phased,
            "barriers every warp passes alike, none in a loop (per phase under latencies)",
        ),
        (
            Kind::PhasedInLoops,
            "barriers every warp passes alike, some in loops (per phase under latencies)",
        ),
        (Kind::Serialised, "other barriers (serialised)"),
    ] {
        let of: Vec<&Row> = rows.iter().filter(|r| r.kind == kind).collect();
        out.push_str(&format!(
            "| {what} ({} kernels) | {} | {} |\n",
            of.len(),
            show(of.iter().map(|r| r.unit).collect()),
            show(of.iter().map(|r| r.latency).collect())
        ));
    }
    let looped: Vec<&Row> = rows.iter().filter(|r| r.uniform_loop).collect();
    let phased: Vec<&Row> = looped
        .iter()
        .copied()
        .filter(|r| r.kind == Kind::PhasedInLoops)
        .collect();
    let below = phased.iter().filter(|r| r.below).count();
    let mut reasons = std::collections::BTreeMap::<String, Vec<&str>>::new();
    for r in &looped {
        if let Some(b) = &r.because {
            reasons.entry(b.clone()).or_default().push(&r.name);
        }
    }
    let mut all = std::collections::BTreeMap::<String, usize>::new();
    for r in rows.iter().filter(|r| r.kind == Kind::Serialised) {
        *all.entry(r.because.clone().unwrap_or_else(|| "its".into()))
            .or_default() += 1;
    }
    out.push_str(&format!(
        "\nSerialised, by the first premise that fails: {all:?}.\n"
    ));
    out.push_str(&format!(
        "\nKernels with a barrier in a block-uniform loop: {}; per phase now: {} ({below} of them \
         below the serialised bound under latencies); serialised: {} ({reasons:?}). Latency \
         preset, bound / worst run, median (max): before (serialised) {}, after {}; of those now \
         per phase: before {}, after {}.\n",
        looped.len(),
        phased.len(),
        looped.len() - phased.len(),
        show(looped.iter().map(|r| r.serialised).collect()),
        show(looped.iter().map(|r| r.latency).collect()),
        show(phased.iter().map(|r| r.serialised).collect()),
        show(phased.iter().map(|r| r.latency).collect()),
    ));
    out
}

#[test]
fn four_warp_blocks_stay_within_the_bound() {
    let mut failures = Vec::new();
    let mut table = Vec::new();
    let mut rows = Vec::new();
    let mut simulated = 0;
    let mut slowest = 0.0f64;
    for (dir, latency) in corpus::SASS_DIRS {
        for path in corpus::files(&[dir], "sass") {
            let name = corpus::name(&path);
            let src = std::fs::read_to_string(&path).expect("listing");
            let mut row = format!("| {dir}/{name} |");
            let mut ratios = Vec::new();
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
                let Some(b) = r.block().filter(|b| !b.runs.is_empty()) else {
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
                let looped = b
                    .barrier_phases
                    .as_ref()
                    .is_some_and(|x| x.barriers.iter().any(|b| !b.loops.is_empty()));
                let kind = match (b.barriers, &b.barrier_phases) {
                    (false, _) => Kind::NoBarriers,
                    (true, None) => Kind::Serialised,
                    (true, Some(_)) if looped => Kind::PhasedInLoops,
                    (true, Some(_)) => Kind::Phased,
                };
                let because = b.serialised_because.as_ref().map(|x| {
                    serde_json::to_value(x).expect("json")["kind"]
                        .as_str()
                        .unwrap_or("?")
                        .to_string()
                });
                ratios.push((
                    kind,
                    because,
                    b.wcet as f64 / worst.max(1) as f64,
                    b.bound.serialised as f64 / worst.max(1) as f64,
                    b.bound.rule == "barrier_phases",
                ));
                row.push_str(&format!(
                    " {} {} | {} | {:.2}× | {ms:.0} ms |",
                    b.wcet,
                    match (b.barriers, b.bound.rule) {
                        (true, "barrier_phases") if looped => "(bar, phases, loops)",
                        (true, "barrier_phases") => "(bar, phases)",
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
            if let [(_, _, unit, _, _), (kind, because, latency, serialised, below)] =
                ratios.as_slice()
            {
                rows.push(Row {
                    name: format!("{dir}/{name}"),
                    kind: *kind,
                    uniform_loop: barrier_in_uniform_loop(&src),
                    because: because.clone(),
                    unit: *unit,
                    latency: *latency,
                    serialised: *serialised,
                    below: *below,
                });
            }
        }
    }
    println!(
        "| kernel | unit: bound | runs | bound/worst | time | latency preset: bound | runs | bound/worst | time |\n{}",
        table.join("\n")
    );
    println!("slowest request: {slowest:.0} ms (debug build)\n");
    println!("{}", summary(&rows));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    if table.is_empty() {
        return; // no corpus here
    }
    assert!(
        simulated >= MIN_SIMULATED,
        "only {simulated} of {} listings ran as a block (at least {MIN_SIMULATED} did)",
        table.len()
    );
    let phased = rows
        .iter()
        .filter(|r| r.kind == Kind::PhasedInLoops)
        .count();
    assert!(
        phased >= MIN_PHASED_IN_LOOPS,
        "only {phased} listings with barriers in loops get the per-phase bound (at least \
         {MIN_PHASED_IN_LOOPS} did)"
    );
}
