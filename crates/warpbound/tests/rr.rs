//! The `rr` mode: PTX through the facade gives the `roundrobin` crate's numbers for the same
//! launch and configuration; overrides, modes, presets and caches reach the analysis; bad
//! launch parameters are request errors naming the parameter.

use isa::Dialect;
use std::path::PathBuf;
use warpbound::{analyze, Report, Request};

fn corpus(rel: &str) -> String {
    let p = std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
        .join(rel);
    std::fs::read_to_string(p).expect("corpus file")
}

const FAN1: &str = "ptx/gaussian___Z4Fan1PfS_ii.ptx";

fn run(source: &str, params: &[(&str, serde_json::Value)], preset: Option<&str>) -> Report {
    let mut req = Request::new(source, Dialect::Ptx);
    req.mode = Some("rr".into());
    req.preset = preset.map(str::to_string);
    for (k, v) in params {
        req.params.insert(k.to_string(), v.clone());
    }
    analyze(&req)
}

fn fan1_launch() -> Vec<(&'static str, serde_json::Value)> {
    vec![
        ("grid", "4,1,1".into()),
        ("block", "128,1,1".into()),
        ("params", "0,4096,16,0".into()),
    ]
}

#[test]
fn gaussian_fan1_matches_the_crate() {
    let source = corpus(FAN1);
    let r = run(&source, &fan1_launch(), None);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let parsed = isa::ptx::parse(&source, &isa::Limits::default());
    let f = parsed.module.function(None).expect("kernel");
    let launch = roundrobin::Launch {
        grid: roundrobin::Dim3::new(4, 1, 1),
        block: roundrobin::Dim3::new(128, 1, 1),
        params: [0, 4096, 16, 0].map(roundrobin::ParamValue::Int).to_vec(),
    };
    let expected = roundrobin::analyze(
        f,
        &launch,
        &roundrobin::presets::fermi_gpgpusim().config,
        &roundrobin::Overrides::default(),
    )
    .expect("analysable");
    let rr = r.rr().expect("rr");
    let view = warpbound::views::rr_parts::RrView::from(&expected);
    assert_eq!(rr.wcet, view.wcet);
    assert_eq!(rr.coalescing, view.coalescing);
    assert_eq!(rr.accesses, view.accesses);
    assert_eq!(rr.wcet.cycles, expected.wcet.cycles);
    assert_eq!(rr.accesses.len(), expected.accesses.len());
    assert_eq!(
        r.wcet.as_ref().map(|w| w.cycles),
        Some(expected.wcet.cycles)
    );
    assert!(expected.wcet.safe);
    // The T_ij schedule: one lane per warp (4 blocks × 4 warps).
    let s = r.schedule.as_ref().expect("schedule");
    assert_eq!(s.lanes.len(), 16);
    assert_eq!(s.cycles, expected.wcet.cycles);
    // The CFG view has the kernel's basic blocks, linked to source lines.
    assert!(r
        .cfg
        .as_ref()
        .is_some_and(|c| c.nodes.iter().all(|n| n.line_start > 0)));
}

#[test]
fn overrides_modes_and_caches_reach_the_model() {
    let source = corpus(FAN1);
    let base = run(&source, &fan1_launch(), None);
    let mut with = fan1_launch();
    with.push(("n_coal", 30.into()));
    let what_if = run(&source, &with, None);
    let e = &what_if.rr().expect("rr").estimates;
    assert!(e.n_coal_overridden);
    assert_eq!(e.n_coal, 30);
    assert!(what_if.wcet.as_ref().expect("wcet").cycles > base.wcet.as_ref().expect("wcet").cycles);
    assert!(what_if
        .wcet
        .as_ref()
        .expect("wcet")
        .cost_model
        .contains("not a safe bound"));

    let mut avg = fan1_launch();
    avg.push(("timing_mode", "avg".into()));
    let a = run(&source, &avg, None);
    assert!(!a.rr().expect("rr").wcet.safe);
    assert!(a.wcet.as_ref().expect("wcet").cycles <= base.wcet.as_ref().expect("wcet").cycles);

    let mut cached = fan1_launch();
    cached.push(("caches", true.into()));
    let c = run(&source, &cached, Some("gem5-gpu-table7"));
    assert!(!c.has_errors(), "{:?}", c.diagnostics);
    assert!(c.rr().expect("rr").caches.is_some());
    assert!(base.rr().expect("rr").caches.is_none());
}

#[test]
fn bad_launches_name_the_parameter() {
    let source = corpus(FAN1);
    let r = run(&source, &[("grid", "0,1,1".into())], None);
    assert!(
        r.diagnostics.iter().any(|d| d.message.contains("`grid`")),
        "{:?}",
        r.diagnostics
    );
    let r = run(&source, &[("params", "1,two".into())], None);
    assert!(
        r.diagnostics.iter().any(|d| d.message.contains("`params`")),
        "{:?}",
        r.diagnostics
    );
    assert!(r.wcet.is_none());
}

/// The wire form of `details.rr` (`views::rr_parts`) on the thesis's §4.4.4 example: access
/// kinds by the thesis's letters, a warp named by block, warp and SM at the top level of its
/// rows, the analyzer's notes only in the report's diagnostics.
#[test]
fn details_are_written_with_our_names() {
    let source = include_str!("../../../www/examples/huangfu-4-4-4.ptx");
    let launch = [
        ("grid", "1,2,1".into()),
        ("block", "16,4,1".into()),
        ("params", "0".into()),
    ];
    let r = run(source, &launch, None);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let json = serde_json::to_value(&r).expect("json");
    let v = &json["details"]["rr"];
    assert_eq!(v["mode"], "max");
    assert_eq!(v["pc_address"], serde_json::json!([64, 80]));
    assert_eq!(v["accesses"][0]["kind"], "L");
    assert_eq!(v["accesses"][2]["kind"], "S");
    assert_eq!(v["accesses"][0]["segments"][3], 384);
    assert_eq!(v["accesses"][2]["block"], 1);
    assert_eq!(
        v["accesses"][2]["block_index"],
        serde_json::json!([0, 1, 0])
    );
    assert_eq!(v["coalescing"]["max"], 4);
    assert_eq!(v["estimates"]["n_coal"], 4);
    assert_eq!(v["estimates"]["n_coal_overridden"], false);
    assert_eq!(v["segments"][0]["classes"][0], "arithmetic");
    assert!(v["gantt"][0]["intervals"][0]["issue_end"].is_u64());
    assert_eq!(v["traces"][0]["sm"], v["gantt"][0]["sm"]);
    assert!(v.get("notes").is_none());
}
