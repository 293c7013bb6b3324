//! The analysis never panics on mutated kernels, and its result carries what the report
//! shows.

use isa::Limits;
use phases::execution::{execute, Fallback, Options, PathChoice, Scheduler};
use phases::{analyze_text, Config, DramPreset, Launch, PipelineConfig};
use proptest::prelude::*;
use std::path::PathBuf;

fn kernels() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/simd");
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "sas"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap_or_default())
        .collect()
}

fn small_budget() -> Config {
    let mut c = Config::default();
    c.budget.max_dag_nodes = 200_000;
    c.budget.max_pipeline_cycles = 2_000_000;
    c
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Deleting, duplicating or replacing lines of real kernels yields either a result or a
    /// located error — never a panic, never an unbounded run.
    #[test]
    fn mutated_kernels_never_panic(
        k in 0usize..26,
        edits in proptest::collection::vec((0usize..200, 0u8..3, "[a-z0-9 ,.#:]{0,20}"), 1..5),
        width_log in 5u32..11,
        three_stage in any::<bool>(),
    ) {
        let all = kernels();
        let text = &all[k % all.len().max(1)];
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        for (at, kind, repl) in edits {
            if lines.is_empty() { break; }
            let at = at % lines.len();
            match kind {
                0 => { lines.remove(at); }
                1 => { let l = lines[at].clone(); lines.insert(at, l); }
                _ => lines[at] = repl,
            }
        }
        let mut config = small_budget();
        if three_stage { config.pipeline = PipelineConfig::PAPER; }
        let launch = Launch::new(640, 480, 1 << width_log);
        match analyze_text(&lines.join("\n"), &Limits::default(), &launch, &config) {
            Ok(r) => {
                prop_assert!(r.wcet_lower <= r.wcet_upper);
                prop_assert!(r.sp_as_access.wcet >= r.wcet_lower);
            }
            Err(e) => prop_assert!(!e.diagnostics.is_empty()),
        }
    }

    /// path=launch on mutated kernels (lines deleted, duplicated, or replaced by control
    /// instructions — masks, stack pushes and pops, exits, branches — to stress the
    /// interpreter's CSTACK): the execution either runs, with every choice counted once, or
    /// is a located error — never a panic. Deterministic: the same run twice is equal.
    #[test]
    fn launch_paths_never_panic_on_mutated_kernels(
        k in 0usize..26,
        edits in proptest::collection::vec((0usize..200, 0u8..3, 0usize..12), 1..5),
        width_log in 5u32..8,
        random in any::<bool>(),
    ) {
        const CONTROL: [&str; 12] = [
            "exit p0", "exit", "cmask p1", "brk p0", "ret p0", "cpop", "cpush.if l_end",
            "cpush.brk l_end", "bra l_end, p0", "sicj.ez l_end, s0", "call l_end, p0",
            "itest.ge p0, v0",
        ];
        let all = kernels();
        let text = &all[k % all.len().max(1)];
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        for (at, kind, c) in edits {
            if lines.is_empty() { break; }
            let at = at % lines.len();
            match kind {
                0 => { lines.remove(at); }
                1 => { let l = lines[at].clone(); lines.insert(at, l); }
                _ => lines.insert(at, CONTROL[c % CONTROL.len()].to_string()),
            }
        }
        lines.push("l_end:".into());
        lines.push("exit".into());
        let parsed = isa::simd::parse(&lines.join("\n"), &Limits::default());
        let failed = parsed.has_errors();
        let Some(program) = parsed.program.filter(|_| !failed) else {
            return Ok(());
        };
        let config = small_budget();
        let launch = Launch::new(256, 64, 1 << width_log);
        let Ok((r, dag)) = phases::analyze_with_dag(&program, &launch, &config) else {
            return Ok(());
        };
        let fallback = if random { Fallback::Random { seed: 3 } } else { Fallback::Worst };
        let o = Options::new(Scheduler::SpAsAccess, PathChoice::FromLaunch { fallback }, &config);
        let a = execute(&r, &dag, &program, &o);
        let b = execute(&r, &dag, &program, &o);
        match (a, b) {
            (Ok(a), Ok(b)) => {
                prop_assert_eq!(&a, &b);
                let d = a.decisions.unwrap_or_default();
                prop_assert!(d.work_groups_all_decided <= a.work_groups);
                prop_assert!(d.capped <= d.fallback);
            }
            (Err(a), Err(b)) => {
                prop_assert!(!a.diagnostics.is_empty());
                prop_assert_eq!(a.to_string(), b.to_string());
            }
            _ => prop_assert!(false, "not deterministic"),
        }
    }
}

#[test]
fn result_carries_the_report_fields() {
    let all = kernels();
    let Some(text) = all.iter().find(|t| t.contains("loop_done_add")) else {
        panic!("srad_reduce missing");
    };
    let r = analyze_text(
        text,
        &Limits::default(),
        &Launch::new(114_958, 1, 1024),
        &Config::default(),
    );
    let r = r.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.launch.nd_range, [114_958, 1]);
    assert_eq!(r.launch.work_groups, 113);
    assert!(!r.blocks.is_empty() && !r.edges.is_empty() && r.dag.nodes > 0);
    assert!(r.wcet_lower > 0 && r.wcet_upper >= r.wcet_lower);
    for policy in [&r.sp_as_access, &r.sp_as_compute] {
        assert!(policy.wcet > 0);
        assert_eq!(policy.phase_count, policy.phases.len());
        assert!(!policy.critical_path.is_empty());
        assert!(!policy.schedule.intervals.is_empty());
    }
    assert_eq!(r.dram.preset, DramPreset::Ddr4_3200aa2bg);
    assert_eq!(r.dram.preset.name(), "ddr4-3200aa-2bg");
    // The schedule shows the first 4 of 113 work-groups.
    let policy = &r.sp_as_access;
    assert_eq!(policy.schedule.work_groups, 4);
    assert!(policy.schedule.truncated);
    // Blocks carry source line ranges for the graph view; edges their stack annotation.
    assert!(r
        .blocks
        .iter()
        .all(|b| b.first_line <= b.last_line && b.first_line > 0));
    assert!(r.edges.iter().any(|e| !e.stack.is_empty()));
}
