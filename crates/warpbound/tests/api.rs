//! The Request -> Report contract on small hand-written kernels with hand-derived graphs.

use isa::{Dialect, EdgeKind};
use warpbound::{analyze, Report, Request, Severity};

fn run(source: &str) -> Report {
    analyze(&Request::new(source, Dialect::Sass))
}

fn edges(r: &Report) -> Vec<(usize, usize, EdgeKind)> {
    let cfg = r.cfg.as_ref().expect("a cfg");
    let kind = |k: &str| {
        [
            EdgeKind::Fallthrough,
            EdgeKind::Taken,
            EdgeKind::Sync,
            EdgeKind::Break,
            EdgeKind::Continue,
            EdgeKind::Call,
            EdgeKind::Return,
        ]
        .into_iter()
        .find(|e| e.name() == k)
        .expect("a thread-level edge kind")
    };
    cfg.edges
        .iter()
        .map(|e| (e.from, e.to, kind(&e.kind)))
        .collect()
}

/// Figure 1 of Jeanmougin et al. as SASS: an if-then-else on the thread index, both sides
/// ending in SYNC back to the SSY target (the page's gallery example).
const IF_THEN_ELSE: &str = include_str!("../../../www/examples/fig1-if-then-else.sass");

#[test]
fn if_then_else_blocks_and_edges() {
    let r = run(IF_THEN_ELSE);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let k = r.kernel.as_ref().expect("kernel");
    assert_eq!(k.instructions.len(), 10);
    let cfg = r.cfg.as_ref().expect("cfg");
    let spans: Vec<(u64, u64, usize)> = cfg
        .nodes
        .iter()
        .map(|n| (n.start, n.end, n.instructions))
        .collect();
    assert_eq!(
        spans,
        vec![
            (0x0, 0x18, 4),
            (0x20, 0x28, 2),
            (0x30, 0x38, 2),
            (0x40, 0x48, 2)
        ]
    );
    assert_eq!(
        edges(&r),
        vec![
            (0, 1, EdgeKind::Fallthrough),
            (0, 2, EdgeKind::Taken),
            (1, 3, EdgeKind::Sync),
            (2, 3, EdgeKind::Sync),
        ]
    );
    // Instruction → block mapping and data flow are reported.
    assert_eq!(k.instructions[5].block, Some(1));
    assert_eq!(k.instructions[1].writes, vec!["P0"]);
    assert_eq!(k.instructions[1].reads, vec!["R0"]);
    assert_eq!(k.instructions[3].guard.as_deref(), Some("@P0"));
    assert_eq!(k.instructions[3].target, Some(0x30));
    // The drawing has a box per block and a route per edge.
    assert_eq!(cfg.layout.nodes.len(), 4);
    assert_eq!(cfg.layout.edges.len(), 4);
}

#[test]
fn subroutine_called_from_two_sites_returns_to_each() {
    let src = "
        CAL sub ;
        IADD R1, R1, 0x1 ;
        CAL sub ;
        EXIT ;
    sub:
        IADD R2, R2, R1 ;
        RET ;
    ";
    let r = run(src);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    // Blocks: B0 = CAL, B1 = IADD+CAL, B2 = EXIT, B3 = sub.
    assert_eq!(
        edges(&r),
        vec![
            (0, 3, EdgeKind::Call),
            (1, 3, EdgeKind::Call),
            (3, 1, EdgeKind::Return),
            (3, 2, EdgeKind::Return),
        ]
    );
    // Address-less input gets addresses 8 apart and a note saying so.
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Note && d.message.contains("8 bytes apart")));
}

#[test]
fn break_out_of_a_loop_goes_to_the_pbk_target() {
    let src = "
/*0000*/ PBK 0x30 ;
/*0008*/ IADD R0, R0, 0x1 ;
/*0010*/ ISETP.GT.AND P0, PT, R0, R1, PT ;
/*0018*/ @P0 BRK ;
/*0020*/ BRA 0x8 ;
/*0028*/ NOP ;
/*0030*/ EXIT ;
";
    let r = run(src);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let cfg = r.cfg.as_ref().expect("cfg");
    // B0 = PBK, B1 = 0x8..0x18, B2 = BRA, B3 = NOP (unreachable), B4 = EXIT.
    assert_eq!(cfg.nodes.len(), 5);
    assert!(!cfg.nodes[3].reachable);
    assert_eq!(
        edges(&r),
        vec![
            (0, 1, EdgeKind::Fallthrough),
            (1, 2, EdgeKind::Fallthrough),
            (1, 4, EdgeKind::Break),
            (2, 1, EdgeKind::Taken),
        ]
    );
}

#[test]
fn garbage_gets_located_errors_and_no_graph() {
    let r = run("MOV R1, R2 ;\nthis is not sass\n/*0010*/ BRA 0x99 ;");
    assert!(r.has_errors());
    assert!(r.cfg.is_none());
    let located: Vec<(u32, u32)> = r
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.line, d.column))
        .collect();
    assert_eq!(located, vec![(2, 1), (3, 14)]);
}

#[test]
fn request_errors_name_what_is_wrong() {
    let mut req = Request::new(IF_THEN_ELSE, Dialect::Sass);
    req.mode = Some("nope".into());
    let r = analyze(&req);
    assert!(r.diagnostics[0].message.contains("unknown mode `nope`"));

    let mut req = Request::new(IF_THEN_ELSE, Dialect::Gcn);
    req.mode = Some("warp-cfg".into());
    assert!(analyze(&req).diagnostics[0]
        .message
        .contains("dialect `gcn` is not supported"));

    let mut req = Request::new(IF_THEN_ELSE, Dialect::Sass);
    req.params
        .insert("max_instructions".into(), serde_json::json!(5));
    let r = analyze(&req);
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.is_error() && d.message.contains("max_instructions")));

    let mut req = Request::new(IF_THEN_ELSE, Dialect::Sass);
    req.function = Some("missing".into());
    assert!(analyze(&req).diagnostics[0]
        .message
        .contains("no function named `missing`"));
}

#[test]
fn reports_are_written_as_json() {
    let r = run(IF_THEN_ELSE);
    let json = serde_json::to_string(&r).expect("serializes");
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(v["schema_version"], 3);
    let kernel = r.kernel.as_ref().expect("a kernel");
    assert_eq!(
        v["kernel"]["instructions"].as_array().map(Vec::len),
        Some(kernel.instructions.len())
    );
    assert_eq!(v["kernel"]["function"], kernel.function.as_str());
    // The default mode (thread-cfg) has no details of its own: no `details` key at all.
    assert!(v.get("details").is_none());
    assert_eq!(v["cfg"]["edges"][1]["kind"], "taken");
    assert_eq!(v["cfg"]["nodes"][0]["start"], 0);
    assert!(v["timings_ms"]["total"].as_f64().is_some());
}

/// Every preset's values are parameters of its mode, within their declared ranges: a request
/// that names the preset and nothing else resolves without a request-level error.
#[test]
fn every_preset_sets_only_valid_parameters() {
    let cat = warpbound::catalog();
    let mut presets = 0;
    for mode in &cat.modes {
        for preset in &mode.presets {
            assert!(!preset.source.is_empty(), "{} has no source", preset.name);
            for (name, value) in &preset.values {
                let info = mode
                    .params
                    .iter()
                    .find(|p| &p.name == name)
                    .unwrap_or_else(|| {
                        panic!(
                            "{}: `{name}` is not a parameter of {}",
                            preset.name, mode.name
                        )
                    });
                if let Some(v) = value.as_f64() {
                    assert!(
                        v >= info.min && v <= info.max,
                        "{}: {name} = {v}",
                        preset.name
                    );
                }
            }
            presets += 1;
        }
    }
    assert!(presets >= 4);
}

/// `timings: false` makes the report a pure function of the request.
#[test]
fn without_timings_reports_are_reproducible() {
    let mut req = Request::new("MOV R0, R1 ;\nEXIT ;\n", Dialect::Sass);
    req.timings = false;
    let a = serde_json::to_string(&warpbound::analyze(&req)).expect("json");
    let b = serde_json::to_string(&warpbound::analyze(&req)).expect("json");
    assert_eq!(a, b);
    assert!(warpbound::analyze(&req).timings_ms.is_empty());
    req.timings = true;
    assert!(warpbound::analyze(&req).timings_ms.contains_key("total"));
}
