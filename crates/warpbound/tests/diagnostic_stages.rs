//! Every diagnostic says which step it comes from (issue #25: "label every diagnostic with
//! its stage"): the request, parsing, the analysis or a simulation.

use warpbound::{analyze, Dialect, Report, Request, Stage};

fn run(src: &str, mode: &str, params: &[(&str, serde_json::Value)]) -> Report {
    let mut req = Request::new(src, Dialect::Sass);
    req.mode = Some(mode.into());
    for (k, v) in params {
        req.params.insert((*k).into(), v.clone());
    }
    analyze(&req)
}

fn stages(r: &Report) -> Vec<(Option<Stage>, String)> {
    r.diagnostics
        .iter()
        .map(|d| (d.stage, d.message.chars().take(40).collect()))
        .collect()
}

#[test]
fn each_step_labels_its_diagnostics() {
    // A typo in an opcode's operands: the parser's.
    let r = run("code for sm_86\n/*0000*/ BRA ;\n", "warp-cfg", &[]);
    assert!(r.has_errors());
    assert!(
        r.diagnostics.iter().all(|d| d.stage.is_some()),
        "{:?}",
        stages(&r)
    );
    assert!(
        r.diagnostics
            .iter()
            .filter(|d| d.is_error())
            .all(|d| d.stage == Some(Stage::Parse)),
        "{:?}",
        stages(&r)
    );
    // A parameter out of range: the request's.
    let r = run(
        "code for sm_86\n/*0000*/ EXIT ;\n",
        "warp-cfg",
        &[("max_states", serde_json::json!(-3))],
    );
    let e = r.diagnostics.iter().find(|d| d.is_error()).expect("error");
    assert_eq!(e.stage, Some(Stage::Request), "{}", e.message);
    // A loop without a bound: the analysis's.
    let looping = "code for sm_86
/*0000*/ S2R R0, SR_TID.X ;
/*0010*/ IADD3 R0, R0, 0x1, RZ ;
/*0020*/ ISETP.GE.AND P0, PT, R0, 0x40, PT ;
/*0030*/ @!P0 BRA 0x10 ;
/*0040*/ EXIT ;
";
    let r = run(
        looping,
        "warp-cfg",
        &[("default_loop_bound", serde_json::json!(0))],
    );
    let e = r.diagnostics.iter().find(|d| d.is_error()).expect("error");
    assert_eq!(e.stage, Some(Stage::Analysis), "{}", e.message);
    // A run that reads memory nobody gave (the request's memory holds one array elsewhere;
    // an automatic launch would give open memory): the simulation's, next to the analysis's
    // bound.
    let load = "code for sm_86
/*0000*/ S2R R0, SR_TID.X ;
/*0010*/ LDG.E R2, [R0.64] ;
/*0020*/ EXIT ;
";
    let elsewhere = ("memory", serde_json::json!("a@0x100000 16 const 0"));
    let r = run(
        load,
        "warp-cfg",
        &[("simulate", serde_json::json!(true)), elsewhere.clone()],
    );
    assert!(r.wcet.is_some());
    let e = r.diagnostics.iter().find(|d| d.is_error()).expect("error");
    assert_eq!(e.stage, Some(Stage::Simulation), "{}", e.message);
    assert!(e.message.contains("outside every array"), "{}", e.message);
    // The simulate mode's own diagnostics are the simulation's.
    let r = run(load, "simulate", &[elsewhere]);
    assert!(
        r.diagnostics
            .iter()
            .filter(|d| d.is_error())
            .all(|d| d.stage == Some(Stage::Simulation)),
        "{:?}",
        stages(&r)
    );
    // In JSON: `"stage": "parse"`.
    let r = run("code for sm_86\n/*0000*/ BRA ;\n", "warp-cfg", &[]);
    let json = serde_json::to_value(&r).expect("json");
    assert_eq!(json["diagnostics"][0]["stage"], "parse");
}
