//! The `simulate` mode and `simulate=true` next to a bound: what the kernel computed, observed
//! cycles against the bound, and located errors for what cannot be simulated.

use isa::Dialect;
use warpbound::{analyze, Report, Request};

/// c[i] = a[i] + b[i] for i < n; a, b, c are 64-bit pointer parameters, n the seventh word
/// (the page's gallery example `sim-vector-add`).
const VECTOR_ADD: &str = include_str!("../../../www/examples/sim-vector-add.sass");

/// Fig. 1 of Jeanmougin et al. (if-then-else on the thread index), storing to address 0
/// (the page's gallery example).
const ITE: &str = include_str!("../../../www/examples/fig1-if-then-else.sass");

fn run(
    src: &str,
    mode: &str,
    preset: Option<&str>,
    params: &[(&str, serde_json::Value)],
) -> Report {
    let mut req = Request::new(src, Dialect::Sass);
    req.mode = Some(mode.into());
    req.preset = preset.map(str::to_string);
    for (k, v) in params {
        req.params.insert(k.to_string(), v.clone());
    }
    analyze(&req)
}

/// The simulation as the report's JSON has it (what the page reads).
fn sim(r: &Report) -> Option<serde_json::Value> {
    r.simulation
        .as_ref()
        .and_then(|s| serde_json::to_value(s).ok())
}

fn words(r: &Report, array: &str) -> Vec<u64> {
    let sim = sim(r).expect("simulation");
    sim["memory"]
        .as_array()
        .and_then(|m| m.iter().find(|a| a["name"] == array))
        .and_then(|a| a["words"].as_array())
        .map(|w| w.iter().filter_map(serde_json::Value::as_u64).collect())
        .unwrap_or_default()
}

/// `VECTOR_ADD` simulated on `grid` blocks of 64 threads for `n` elements: `a` counts from
/// 0, `b` is filled as `b_fill` says, `c` starts at 0.
fn vector_add(grid: u32, n: u32, b_fill: &str) -> Report {
    let memory = format!("a@0x1000 {n} iota 0 1; b@0x2000 {n} {b_fill}; c@0x3000 {n} const 0");
    run(
        VECTOR_ADD,
        "simulate",
        Some("gpgpusim-like"),
        &[
            ("grid", grid.to_string().into()),
            ("block", "64".into()),
            ("params", format!("0x1000,0,0x2000,0,0x3000,0,{n}").into()),
            ("memory", memory.into()),
        ],
    )
}

#[test]
fn vector_add_computes_the_sum() {
    let r = vector_add(2, 100, "iota 100 2");
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let c = words(&r, "c");
    assert_eq!(c.len(), 100);
    assert!(c.iter().enumerate().all(|(i, &v)| v == 100 + 3 * i as u64));
    // Four warps (2 blocks × 64 threads) drawn as the schedule.
    assert_eq!(r.schedule.as_ref().map(|s| s.lanes.len()), Some(4));
}

#[test]
fn memory_from_the_request_field() {
    let mut req = Request::new(VECTOR_ADD, Dialect::Sass);
    req.mode = Some("simulate".into());
    req.params
        .insert("params".into(), "0x100,0,0x200,0,0x300,0,4".into());
    req.params.insert("block".into(), "4".into());
    req.memory = serde_json::from_value(serde_json::json!({"arrays": [
        {"name": "a", "address": 256, "words": 4, "fill": {"kind": "words", "values": [1, 2, 3, 4]}},
        {"name": "b", "address": 512, "words": 4, "fill": {"kind": "constant", "value": 10}},
        {"name": "c", "address": 768, "words": 4, "fill": {"kind": "constant", "value": 0}}
    ]}))
    .expect("memory JSON");
    let r = analyze(&req);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    assert_eq!(words(&r, "c"), vec![11, 12, 13, 14]);
}

#[test]
fn observed_next_to_the_bound() {
    let memory = ("memory", serde_json::json!("out@0x0 32 const 0"));
    // Unit cost: the warp takes the divergent path, so observed = bound = 10.
    let r = run(
        ITE,
        "warp-cfg",
        None,
        &[("simulate", true.into()), memory.clone()],
    );
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let observed = sim(&r).and_then(|s| s["cycles"].as_u64());
    assert_eq!(observed, Some(10));
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(10));
    // Pascal latencies: the drained bound (327 with the global store, see warp_cfg.rs; 31
    // here) is never below the observed time.
    let r = run(
        ITE,
        "warp-cfg",
        Some("pascal-gp102"),
        &[("simulate", true.into()), memory],
    );
    let observed = sim(&r)
        .and_then(|s| s["cycles"].as_u64())
        .expect("observed");
    assert!(observed <= r.wcet.as_ref().expect("wcet").cycles);
    // The stepper follows warp 0: ten instructions.
    let steps = sim(&r).and_then(|s| s["stepper"]["steps"].as_array().map(Vec::len));
    assert_eq!(steps, Some(10));
}

#[test]
fn what_cannot_be_simulated_is_located() {
    let r = run(
        "MOV R0, R1 ;\nFOO R1, R2 ;\nEXIT ;\n",
        "simulate",
        None,
        &[],
    );
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.message.contains("cannot simulate"))
        .expect("located error");
    assert_eq!(d.line, 2);
    let r = run(
        ITE,
        "simulate",
        None,
        &[("memory", "out 32 const 0".into())],
    );
    assert!(
        r.diagnostics.iter().any(|d| d.message.contains("`memory`")),
        "{:?}",
        r.diagnostics
    );
    let r = run(
        ITE,
        "simulate",
        None,
        &[
            ("max_steps", 3.into()),
            ("memory", "out@0x0 32 const 0".into()),
        ],
    );
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.message.contains("max_steps")),
        "{:?}",
        r.diagnostics
    );
}

/// `trace=false`: the same run (cycles, issued count, final memory) without the records.
#[test]
fn untraced_runs_keep_cycles_and_memory() {
    let params = |trace: bool| {
        vec![
            ("grid", "2".into()),
            ("block", "64".into()),
            ("params", "0x1000,0,0x2000,0,0x3000,0,100".into()),
            (
                "memory",
                "a@0x1000 100 iota 0 1; b@0x2000 100 iota 100 2; c@0x3000 100 const 0".into(),
            ),
            ("trace", trace.into()),
        ]
    };
    let traced = run(VECTOR_ADD, "simulate", Some("gpgpusim-like"), &params(true));
    let bare = run(
        VECTOR_ADD,
        "simulate",
        Some("gpgpusim-like"),
        &params(false),
    );
    assert!(!bare.has_errors(), "{:?}", bare.diagnostics);
    let (t, b) = (
        &sim(&traced).expect("traced"),
        &sim(&bare).expect("untraced"),
    );
    assert_eq!(t["cycles"], b["cycles"]);
    assert_eq!(t["issued"], b["issued"]);
    assert_eq!(words(&traced, "c"), words(&bare, "c"));
    assert!(t["transactions"].as_array().is_some_and(|x| !x.is_empty()));
    assert_eq!(b["transactions"].as_array().map(Vec::len), Some(0));
    assert_eq!(b["stepper"]["steps"].as_array().map(Vec::len), Some(0));
    let issues = |s: &serde_json::Value| -> usize {
        s["warps"]
            .as_array()
            .map(|w| {
                w.iter()
                    .filter_map(|x| x["issues"].as_array())
                    .map(Vec::len)
                    .sum()
            })
            .unwrap_or(0)
    };
    assert_eq!(issues(t) as u64, t["issued"].as_u64().unwrap_or(0));
    assert_eq!(issues(b), 0);
}

/// The default (thread-level CFG) mode takes `simulate=true` too: the run on the unit-cost
/// machine, with no bound to compare with.
#[test]
fn the_cfg_mode_simulates_without_a_bound() {
    let r = run(
        ITE,
        "cfg",
        None,
        &[
            ("simulate", true.into()),
            ("memory", "out@0x0 32 const 0".into()),
        ],
    );
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    assert!(r.cfg.is_some());
    let s = sim(&r).expect("simulation");
    // Unit cost, one warp down both sides of the branch: 10 issues, one cycle each (as the
    // warp-cfg bound of `observed_next_to_the_bound`).
    assert_eq!(s["cycles"].as_u64(), Some(10));
    assert_eq!(s["bound"]["cycles"], serde_json::Value::Null);
    assert!(r.wcet.is_none());
}

/// A loop that keeps its counter's value in local memory (a spill and reload per
/// iteration, as nvcc writes them): each thread adds 3 four times to its own `local[0] =
/// tid`, so `out[tid] = tid + 12`. Local accesses take the local latency class in the run
/// and in the bound, so observed ≤ bound holds under unit cost and the Pascal latencies.
const LOCAL_SPILL: &str = "code for sm_61
/*0000*/ MOV R1, c[0x0][0x20] ;
/*0008*/ IADD32I R1, R1, -0x10 ;
/*0010*/ S2R R0, SR_TID.X ;
/*0018*/ MOV R2, RZ ;
/*0020*/ STL [R1], R0 ;
/*0028*/ LDL R3, [R1] ;
/*0030*/ IADD32I R3, R3, 0x3 ;
/*0038*/ STL [R1], R3 ;
/*0040*/ IADD32I R2, R2, 0x1 ;
/*0048*/ ISETP.LT.AND P0, PT, R2, 0x4, PT ;
/*0050*/ @P0 BRA 0x28 ;
/*0058*/ LDL R4, [R1] ;
/*0060*/ SHL R5, R0, 0x2 ;
/*0068*/ STG.E [R5], R4 ;
/*0070*/ EXIT ;
";

#[test]
fn local_memory_spills_stay_within_the_bound() {
    for preset in [None, Some("pascal-gp102")] {
        let r = run(
            LOCAL_SPILL,
            "warp-cfg",
            preset,
            &[
                ("simulate", true.into()),
                ("loop_bounds", "observed".into()),
                ("memory", "out@0x0 32 const 0".into()),
            ],
        );
        assert!(!r.has_errors(), "{:?}", r.diagnostics);
        let expected: Vec<u64> = (0..32).map(|t| t + 12).collect();
        assert_eq!(words(&r, "out"), expected);
        let observed = sim(&r)
            .and_then(|s| s["cycles"].as_u64())
            .expect("observed");
        let bound = r.wcet.as_ref().expect("wcet").cycles;
        assert!(observed <= bound, "{preset:?}: {observed} > {bound}");
        assert_eq!(r.simulation.as_ref().and_then(|s| s.holds), Some(true));
    }
}

/// The run as the page reads it (`views::sim_parts`, formerly the `sim` crate's own serde
/// output): masks as lane strings, units and scheduler by name, stack tags in snake case.
#[test]
fn the_run_is_written_as_the_page_reads_it() {
    let r = vector_add(1, 40, "iota 0 1");
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let v = sim(&r).expect("simulation");
    let cycles = r.simulation.as_ref().map(|s| s.run.cycles);
    assert_eq!(v["cycles"].as_u64(), cycles);
    let issue = &v["warps"][0]["issues"][0];
    let keys: Vec<&String> = issue.as_object().expect("an issue").keys().collect();
    assert_eq!(
        keys,
        ["active", "complete", "executed", "index", "issue", "lane", "line", "unit"]
    );
    assert_eq!(issue["unit"], "core");
    assert_eq!(issue["active"], "1".repeat(32));
    assert_eq!(v["warps"][0]["stack_depth"][0]["depth"], 1);
    assert_eq!(v["occupancy"][0]["unit"], "core");
    assert_eq!(v["transactions"][0]["space"], "global");
    assert_eq!(v["memory"][2]["name"], "c");
    assert_eq!(v["stepper"]["steps"][0]["stack"][0]["tag"], "nil");
    assert_eq!(v["machine"]["scheduler"], "greedy_then_oldest");
    assert_eq!(
        v["machine"]["splitting"],
        serde_json::json!({"kind": "none"})
    );
    assert!(v["machine"]["latency"]["latency"]["double_precision"].is_u64());
    // Warp 1 has lanes 32..63, of which only 32..39 are below n = 40: its guarded
    // instructions execute on the first 8 lanes, lane 0 first in the string.
    let eight = format!("{}{}", "1".repeat(8), "0".repeat(24));
    let issues = v["warps"][1]["issues"].as_array().expect("issues");
    assert!(issues.iter().any(|i| i["executed"] == eight.as_str()));
    assert!(issues
        .iter()
        .all(|i| i["active"].as_str().map(str::len) == Some(32)));
    // Closed memory: no `outside`; a run within its trace budget: no `timeline_truncated`.
    assert!(v.get("outside").is_none() && v.get("timeline_truncated").is_none());
}
