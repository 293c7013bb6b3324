//! The `warp-cfg` mode on every SASS listing of the shared corpus: a CFG and a WCET with the
//! default loop bound, or a located diagnostic naming what is unsupported; and each §4.2
//! ablation gives a bound no lower than the full analysis.

use isa::Dialect;
use std::path::PathBuf;
use warpbound::{analyze, Report, Request};

fn corpus_files() -> Vec<PathBuf> {
    let dir = std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
        .join("sass");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus missing at {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    files
}

fn run(text: &str, params: &[(&str, bool)]) -> Report {
    let mut req = Request::new(text, Dialect::Sass);
    req.mode = Some("warp-cfg".into());
    for (k, v) in params {
        req.params.insert(k.to_string(), serde_json::json!(v));
    }
    analyze(&req)
}

#[test]
fn every_listing_gets_a_bound_or_a_located_reason() {
    let mut bounded = 0;
    for path in corpus_files() {
        let text = std::fs::read_to_string(&path).expect("readable");
        let r = run(&text, &[]);
        match &r.wcet {
            Some(w) => {
                assert!(!r.has_errors(), "{}: {:?}", path.display(), r.diagnostics);
                assert!(w.cycles > 0);
                let cfg = r.cfg.as_ref().expect("cfg");
                // The worst-case path ends in the exit node exactly once.
                let exit = cfg
                    .nodes
                    .iter()
                    .find(|n| n.kind == "exit")
                    .expect("exit node");
                assert_eq!(exit.count, Some(1), "{}", path.display());
                bounded += 1;
            }
            None => {
                let located = r.diagnostics.iter().find(|d| d.is_error() && d.line > 0);
                assert!(located.is_some(), "{}: {:?}", path.display(), r.diagnostics);
            }
        }
    }
    // Two listings cannot be bounded: an indirect call (BRX) and a loop with no way out.
    assert_eq!(bounded, corpus_files().len() - 2);
}

#[test]
fn ablations_never_lower_the_bound() {
    let ablations: [&[(&str, bool)]; 4] = [
        &[("agreement", false)],
        &[("pending_agreement", false)],
        &[("groups", false)],
        &[("cyclic_stacks", false)],
    ];
    let mut raised = [0usize; 4];
    for path in corpus_files() {
        let text = std::fs::read_to_string(&path).expect("readable");
        let full = run(&text, &[]);
        let Some(base) = full.wcet.as_ref().map(|w| w.cycles) else {
            continue;
        };
        let base_div = full.warp_cfg().map_or(0, |d| d.divergence_edges);
        for (i, a) in ablations.iter().enumerate() {
            let r = run(&text, a);
            let w = r.wcet.as_ref().map(|w| w.cycles).unwrap_or(u64::MAX);
            assert!(w >= base, "{} {a:?}: {w} < {base}", path.display());
            let div = r.warp_cfg().map_or(0, |d| d.divergence_edges);
            assert!(
                div >= base_div,
                "{} {a:?}: fewer divergence edges",
                path.display()
            );
            if w > base {
                raised[i] += 1;
            }
        }
    }
    // Agreement matters most (§4.2); acyclic stacks hurt the divergent loops.
    assert!(raised[0] >= 4, "agreement off raised {raised:?}");
    assert!(raised[3] >= 2, "acyclic stacks raised {raised:?}");
}

fn run_cost(text: &str, params: &[(&str, serde_json::Value)]) -> Option<u64> {
    let mut req = Request::new(text, Dialect::Sass);
    req.mode = Some("warp-cfg".into());
    for (k, v) in params {
        req.params.insert(k.to_string(), v.clone());
    }
    analyze(&req).wcet.map(|w| w.cycles)
}

/// Two independent computations of the unit bound: the `unit` model, and the `latency` model
/// with every latency and interval set to 1 (each instruction then issues one cycle after the
/// previous and completes one cycle later). They must agree on every kernel; the Pascal table
/// can only raise the bound.
#[test]
fn latency_model_with_unit_latencies_is_the_unit_model() {
    let mut ones: Vec<(String, serde_json::Value)> =
        vec![("cost".into(), serde_json::json!("latency"))];
    for c in cfg::TimingClass::ALL {
        ones.push((format!("latency_{}", c.name()), serde_json::json!(1)));
    }
    ones.push(("interval_dp".into(), serde_json::json!(1)));
    ones.push(("interval_sfu".into(), serde_json::json!(1)));
    let ones: Vec<(&str, serde_json::Value)> =
        ones.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    let mut compared = 0;
    for path in corpus_files() {
        let text = std::fs::read_to_string(&path).expect("readable");
        let unit = run_cost(&text, &[]);
        assert_eq!(run_cost(&text, &ones), unit, "{}", path.display());
        let pascal = run_cost(&text, &[("cost", serde_json::json!("latency"))]);
        if let (Some(u), Some(p)) = (unit, pascal) {
            assert!(p >= u, "{}: pascal {p} < unit {u}", path.display());
            compared += 1;
        }
    }
    assert!(compared >= 15, "only {compared} kernels bounded");
}
