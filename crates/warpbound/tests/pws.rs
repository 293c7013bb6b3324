//! The `pws` mode: solver CSV and GCN3 kernels through the facade give the `pws` crate's
//! numbers, with the kernel bound as `wcet.cycles`; marks and split modes reach the analysis.

#[path = "../../pws/tests/common/gcn_kernels.rs"]
mod gcn_kernels;

use gcn_kernels::if_else_with_split;
use isa::Dialect;
use std::path::PathBuf;
use warpbound::{analyze, Report, Request};

fn corpus(rel: &str) -> PathBuf {
    std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
        .join(rel)
}

fn run(
    source: &str,
    dialect: Dialect,
    params: &[(&str, serde_json::Value)],
    preset: Option<&str>,
) -> Report {
    let mut req = Request::new(source, dialect);
    req.mode = Some("pws".into());
    req.preset = preset.map(str::to_string);
    for (k, v) in params {
        req.params.insert(k.to_string(), v.clone());
    }
    analyze(&req)
}

fn fig2() -> String {
    std::fs::read_to_string(corpus("pws/fig2.csv")).expect("fig2.csv")
}

#[test]
fn fig2_without_splitting_is_20_and_splitting_helps() {
    let r = run(&fig2(), Dialect::PwsCsv, &[], None);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let p = r.pws().expect("pws");
    // The paper: without splitting, the WCET is the sum of all block WCETs, 20.
    assert_eq!(p.e_wf.no_split, 20);
    assert!(p.e_wf.pws <= p.e_wf.no_split && p.e_wf.pws <= p.e_wf.dws);
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(p.e_kernel.pws));
    // The graph: one node per CSV row, pruned edges drawn as such.
    let cfg = r.cfg.as_ref().expect("cfg");
    assert_eq!(cfg.nodes.len(), p.nodes.len());
    let pruned = cfg.edges.iter().filter(|e| e.kind == "pruned").count();
    assert_eq!(pruned, p.pruned_edges.len());
    assert!(r.schedule.as_ref().is_some_and(|s| !s.items.is_empty()));
}

#[test]
fn split_modes_and_marks() {
    let none = run(&fig2(), Dialect::PwsCsv, &[("split", "none".into())], None);
    let p = none.pws().expect("pws");
    assert!(p.splits.chosen.is_empty());
    assert_eq!(p.e_wf.pws, p.e_wf.no_split);
    // Marking the optimal branch by hand (the page's clicks) and taking the marked set gives
    // the optimal value.
    let optimal = run(&fig2(), Dialect::PwsCsv, &[], None);
    let best = optimal.pws().expect("pws");
    let set = best.splits.optimal.clone().expect("optimal set");
    let marks: Vec<String> = set.iter().map(usize::to_string).collect();
    let marked = run(
        &fig2(),
        Dialect::PwsCsv,
        &[
            ("split", "marked".into()),
            ("marks", marks.join(",").into()),
        ],
        None,
    );
    let m = marked.pws().expect("pws");
    assert_eq!(m.splits.marked, set);
    assert!(m.e_wf.pws >= best.e_wf.pws);
    let bad = run(&fig2(), Dialect::PwsCsv, &[("marks", "seven".into())], None);
    assert!(bad
        .diagnostics
        .iter()
        .any(|d| d.message.contains("`marks`")));
}

#[test]
fn every_gcn_kernel_matches_the_crate() {
    let dir = corpus("gcn");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("gcn corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    let mut analysed = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let r = run(&text, Dialect::Gcn, &[], None);
        let name = path.display().to_string();
        let program = isa::gcn::parse(&text, &isa::Limits::default());
        let f = program.function(None).expect("a function");
        let graph = pws::build_from_gcn(
            f,
            &pws::GcnGraphOptions {
                cost: pws::CostModel::default(),
                // The facade's loop bounds (inferred or the default), as its report lists them.
                loop_bounds: pws::LoopBounds {
                    per_header: r
                        .loop_bounds
                        .iter()
                        .filter(|l| l.bound_from != "default")
                        .filter_map(|l| Some((l.header.clone(), l.bound?)))
                        .collect(),
                    default: Some(10),
                },
            },
            &pws::Budget::default(),
        );
        match graph {
            Ok(g) => {
                let expected = pws::analyze(
                    &g.cfg,
                    &pws::Hardware::gem5_gcn3(),
                    &pws::Options {
                        mode: pws::SplitMode::Optimal,
                        ..Default::default()
                    },
                )
                .expect("analysable");
                assert!(!r.has_errors(), "{name}: {:?}", r.diagnostics);
                assert_eq!(
                    r.wcet.as_ref().map(|w| w.cycles),
                    Some(expected.e_kernel.pws),
                    "{name}"
                );
                let p = r.pws().expect("pws");
                assert!(p.e_kernel.pws <= p.e_kernel.no_split, "{name}");
                // Graph nodes link back to source lines.
                let cfg = r.cfg.as_ref().expect("cfg");
                assert!(
                    cfg.nodes
                        .iter()
                        .all(|n| n.line_start >= 1 && n.line_start <= n.line_end),
                    "{name}"
                );
                analysed += 1;
            }
            Err(e) => {
                // Same located reason through the facade.
                assert!(
                    r.diagnostics
                        .iter()
                        .any(|d| d.message == e.diagnostic.message),
                    "{name}"
                );
            }
        }
    }
    assert!(analysed >= 15, "{analysed}");
}

/// The wire form of `details.pws` (`views::pws_parts`): node kinds and the split mode by our
/// names, lines as `{first, last}`, the timelines' bar kinds, and the analysis's warnings only
/// in the report's diagnostics.
#[test]
fn details_are_written_with_our_names() {
    let if_else = if_else_with_split(
        15,
        ("v_add_f32_e32 v1, v1, v2", 1),
        ("v_mul_f32_e32 v1, v1, v2", 1),
    );
    let r = run(&if_else, Dialect::Gcn, &[], None);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let json = serde_json::to_value(&r).expect("json");
    let v = &json["details"]["pws"];
    assert_eq!(v["mode"], "optimal", "the pws mode's default split set");
    assert_eq!(v["nodes"][0]["kind"], "branch");
    assert_eq!(v["nodes"][2]["kind"], "bsb");
    assert_eq!(v["nodes"][0]["lines"]["first"], 2);
    assert_eq!(v["splits"]["select"], serde_json::json!([0]));
    assert_eq!(
        v["e_wf"]["no_split"],
        serde_json::json!(r.pws().expect("pws").e_wf.no_split)
    );
    assert_eq!(v["timeline"]["pws"]["intervals"][0]["kind"], "init");
    assert!(v.get("warnings").is_none());
}
