//! The `simd` mode on every Sim-D kernel of the corpus with its launch from `launch.tsv`: the
//! report carries exactly the `phases` crate's numbers, `wcet.cycles` is the better policy, and
//! bad launch parameters are request errors naming the parameter.

#[path = "../../phases/tests/common/launch_tsv.rs"]
mod launch_tsv;

use isa::Dialect;
use std::path::PathBuf;
use warpbound::{analyze, Report, Request};

fn corpus() -> PathBuf {
    std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
        .join("simd")
}

fn run(source: &str, params: &[(&str, serde_json::Value)], preset: Option<&str>) -> Report {
    let mut req = Request::new(source, Dialect::Simd);
    req.mode = Some("simd".into());
    req.preset = preset.map(str::to_string);
    for (k, v) in params {
        req.params.insert(k.to_string(), v.clone());
    }
    analyze(&req)
}

/// `(file name, source, launch)` of every launch.tsv row whose kernel the corpus ships
/// (launch.tsv names one it does not).
fn corpus_kernels() -> Vec<(String, String, phases::Launch)> {
    let text = std::fs::read_to_string(corpus().join("launch.tsv")).expect("launch.tsv");
    let mut out = Vec::new();
    for (_, stem, args) in launch_tsv::rows(&text) {
        let name = format!("{stem}.sas");
        let Ok(source) = std::fs::read_to_string(corpus().join(&name)) else {
            continue;
        };
        let launch = phases::Launch::from_arguments(args).expect("launch arguments");
        out.push((name, source, launch));
    }
    out
}

/// The launch's `ndrange` and `wg_width` as the mode's parameters, then `more`.
fn launch_params(
    launch: &phases::Launch,
    more: &[(&'static str, serde_json::Value)],
) -> Vec<(&'static str, serde_json::Value)> {
    let mut params = vec![
        (
            "ndrange",
            format!("{},{}", launch.nd_range[0], launch.nd_range[1]).into(),
        ),
        ("wg_width", launch.wg_width.into()),
    ];
    params.extend_from_slice(more);
    params
}

#[test]
fn every_corpus_kernel_with_its_launch() {
    let mut analysed = 0;
    for (name, source, launch) in corpus_kernels() {
        let expected = phases::analyze_text(
            &source,
            &isa::Limits::default(),
            &launch,
            &phases::Config::reference(),
        )
        .expect("the crate analyses it");
        let r = run(&source, &launch_params(&launch, &[]), None);
        assert!(!r.has_errors(), "{name}: {:?}", r.diagnostics);
        let simd = r.simd().map(|s| &s.analysis).expect("simd details");
        assert_eq!(simd.wcet_upper, expected.wcet_upper, "{name}");
        assert_eq!(simd.wcet_lower, expected.wcet_lower, "{name}");
        let best = expected.sp_as_access.wcet.min(expected.sp_as_compute.wcet);
        assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(best), "{name}");
        assert!(
            simd.wcet_lower <= best && best <= simd.wcet_upper.max(best),
            "{name}"
        );
        let cfg = r.cfg.as_ref().expect("cfg");
        assert_eq!(cfg.nodes.len(), expected.blocks.len(), "{name}");
        assert!(
            r.schedule.as_ref().is_some_and(|s| !s.items.is_empty()),
            "{name}"
        );
        analysed += 1;
    }
    assert!(analysed >= 25, "{analysed}");
}

#[test]
fn the_paper_preset_changes_the_pipeline() {
    let source = std::fs::read_to_string(corpus().join("mriq_computePhiMag.sas")).expect("kernel");
    let params = [("ndrange", serde_json::json!("2048,1"))];
    let reference = run(&source, &params, None);
    let paper = run(&source, &params, Some("paper"));
    let depth = |r: &Report| {
        let c = &r.simd().map(|s| &s.analysis).expect("simd").config.pipeline;
        (c.decode_stages, c.execute_stages)
    };
    assert_eq!(depth(&reference), (1, 3));
    assert_eq!(depth(&paper), (3, 5));
    assert_ne!(reference.wcet, paper.wcet);
}

#[test]
fn bad_launches_name_the_parameter() {
    let source = std::fs::read_to_string(corpus().join("mriq_computePhiMag.sas")).expect("kernel");
    let r = run(&source, &[("ndrange", "12".into())], None);
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.message.contains("`ndrange`")),
        "{:?}",
        r.diagnostics
    );
    let r = run(
        &source,
        &[("ndrange", "64,64".into()), ("wg_width", 48.into())],
        None,
    );
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.message.contains("power of two")),
        "{:?}",
        r.diagnostics
    );
    let r = run("j nowhere\n", &[], None);
    assert!(r.has_errors());
    assert!(r.wcet.is_none());
}

/// `--mode simd --set simulate=true --set scheduler=X` on every corpus kernel at its
/// launch.tsv NDRange (reference configuration, the mode's default): the four schedulers
/// run, the report's `simd_execution` is the `phases::execution` run, the two policy
/// schedulers stay within their policy's WCET, every run within WCET^U, and the Gantt chart
/// shares the worst-case schedule's lanes.
#[test]
fn simulate_with_every_scheduler_on_the_corpus() {
    let mut runs = 0;
    for (name, source, launch) in corpus_kernels() {
        for s in ["unconstrained", "pairwise", "sp-as-access", "sp-as-compute"] {
            let r = run(
                &source,
                &launch_params(
                    &launch,
                    &[("simulate", true.into()), ("scheduler", s.into())],
                ),
                None,
            );
            assert!(!r.has_errors(), "{name} {s}: {:?}", r.diagnostics);
            let d = r.simd().map(|s| &s.analysis).expect("simd details");
            let e = r
                .simd()
                .and_then(|s| s.execution.as_ref())
                .expect("an execution");
            let bound = match s {
                "sp-as-access" => d.sp_as_access.wcet,
                "sp-as-compute" => d.sp_as_compute.wcet,
                _ => d.wcet_upper,
            };
            assert_eq!(e.run.bound, bound);
            assert!(e.run.cycles <= bound && e.run.within_bound, "{name} {s}");
            assert_eq!(e.run.scheduler.name(), s);
            assert!(!e.gantt.items.is_empty());
            assert_eq!(
                &e.gantt.lanes[..2],
                &["compute".to_string(), "dram".to_string()]
            );
            runs += 1;
        }
    }
    assert_eq!(runs, 26 * 4);
}

/// Without `simulate` there is no execution; a bad scheduler name is a request error.
#[test]
fn simulate_off_and_bad_scheduler() {
    let src = std::fs::read_to_string(corpus().join("cnn_relu.sas")).expect("cnn_relu");
    let r = run(&src, &[], None);
    assert!(r.simd().is_some_and(|s| s.execution.is_none()));
    let bad = run(
        &src,
        &[("simulate", true.into()), ("scheduler", "fifo".into())],
        None,
    );
    assert!(bad.has_errors());
}
