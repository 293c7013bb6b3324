//! Prints the paper's Table 5 / Fig. 7 evaluation (Spliet & Mullins §6.2–6.3) for every
//! kernel of the Sim-D corpus as markdown: observed cycles per scheduler (`phases::execution`),
//! WCET^L, WCET^U, the WCET per policy, the % difference, and Fig. 7's normalisation to the
//! unconstrained run. The paper's configuration (`Config::paper`), each kernel's launch.tsv
//! NDRange, every work-group on its worst path (the paper's benchmarks have no
//! data-dependent branches that change the phase list; see docs/simd-execution.md), except
//! the last columns: random paths (seed 28), and path=launch (each work-group's choices
//! decided from its id and the launch where the interpreter can, the worst fallback
//! elsewhere) under scratchpad as access, with its decided/fallback counts.
//!
//! ```sh
//! cargo run --release --offline -p phases --example execution_table -- ../shared/corpus/simd
//! ```

#[path = "../tests/common/launch_tsv.rs"]
mod launch_tsv;

use phases::execution::{execute, Fallback, Options, PathChoice, Scheduler};
use phases::{analyze_with_dag, Config, Launch};
use std::path::{Path, PathBuf};
use std::time::Instant;

fn launches(dir: &Path) -> Vec<(String, String, Launch)> {
    let text = std::fs::read_to_string(dir.join("launch.tsv")).unwrap_or_default();
    launch_tsv::rows(&text)
        .into_iter()
        .filter_map(|(name, stem, args)| Some((name, stem, Launch::from_arguments(args).ok()?)))
        .collect()
}

fn pct(obs: u64, wcet: u64) -> String {
    format!(
        "{:.1}",
        (wcet as f64 - obs as f64) * 100.0 / obs.max(1) as f64
    )
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("../shared/corpus/simd"));
    let config = Config::paper();
    println!("| kernel | w | unconstr. avg | pairwise avg | WCET^L | WCET^U | SP as access avg | wcet | % diff | SP as compute avg | wcet | % diff | Fig. 7: pairwise | SP as access | SP as compute | SP as access avg, random paths (seed 28) | SP as access avg, launch paths | launch: decided / fallback | time (s) |");
    println!(
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for (name, stem, launch) in launches(&dir) {
        let Ok(text) = std::fs::read_to_string(dir.join(format!("{stem}.sas"))) else {
            println!("| {name} | | file `{stem}.sas` not in the corpus ||||||||||||||||");
            continue;
        };
        let started = Instant::now();
        let parsed = isa::simd::parse(&text, &isa::Limits::default());
        let Some(program) = parsed.program else {
            println!("| {name} | | does not parse ||||||||||||||||");
            continue;
        };
        let (r, dag) = match analyze_with_dag(&program, &launch, &config) {
            Ok(x) => x,
            Err(e) => {
                println!("| {name} | | {e} ||||||||||||||||");
                continue;
            }
        };
        let mut obs = Vec::new();
        for s in Scheduler::ALL {
            let o = Options::new(s, PathChoice::Worst, &config);
            match execute(&r, &dag, &program, &o) {
                Ok(e) => obs.push(e.cycles),
                Err(e) => {
                    eprintln!("{name} {}: {e}", s.name());
                    obs.push(0);
                }
            }
        }
        let random = execute(
            &r,
            &dag,
            &program,
            &Options::new(
                Scheduler::SpAsAccess,
                PathChoice::Random { seed: 28 },
                &config,
            ),
        )
        .map_or(0, |e| e.cycles);
        let launch_run = execute(
            &r,
            &dag,
            &program,
            &Options::new(
                Scheduler::SpAsAccess,
                PathChoice::FromLaunch {
                    fallback: Fallback::Worst,
                },
                &config,
            ),
        );
        let (launched, decisions) = match launch_run {
            Ok(e) => (
                e.cycles,
                e.decisions
                    .map_or(String::new(), |d| format!("{} / {}", d.decided, d.fallback)),
            ),
            Err(e) => {
                eprintln!("{name} launch: {e}");
                (0, String::new())
            }
        };
        let secs = started.elapsed().as_secs_f64();
        let norm = |x: u64| format!("{:.3}", x as f64 / obs[0].max(1) as f64);
        println!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} |",
            r.launch.work_groups,
            obs[0],
            obs[1],
            r.wcet_lower,
            r.wcet_upper,
            obs[2],
            r.sp_as_access.wcet,
            pct(obs[2], r.sp_as_access.wcet),
            obs[3],
            r.sp_as_compute.wcet,
            pct(obs[3], r.sp_as_compute.wcet),
            norm(obs[1]),
            norm(obs[2]),
            norm(obs[3]),
            random,
            launched,
            decisions,
            secs
        );
    }
}
