//! The `Request -> Report` entry point: the first byte picks a (dialect, mode) pair, the
//! second a set of small budgets (so deep analyses stay fast), the rest is the kernel text.
//! Every request must produce a report, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

const MODES: &[(isa::Dialect, &str)] = &[
    (isa::Dialect::Sass, "cfg"),
    (isa::Dialect::Sass, "warp-cfg"),
    (isa::Dialect::Sass, "makespan"),
    (isa::Dialect::Lc, "makespan"),
    (isa::Dialect::Simd, "simd"),
    (isa::Dialect::Gcn, "pws"),
    (isa::Dialect::PwsCsv, "pws"),
    (isa::Dialect::Ptx, "rr"),
    (isa::Dialect::Sass, "simulate"),
];

fuzz_target!(|data: &[u8]| {
    let (Some(&pick), Some(&knobs)) = (data.first(), data.get(1)) else {
        return;
    };
    let (dialect, mode) = MODES[usize::from(pick) % MODES.len()];
    let mut req = warpbound::Request::new(String::from_utf8_lossy(&data[2..]), dialect);
    req.mode = Some(mode.into());
    req.timings = false;
    let small = 1000 + u64::from(knobs) * 100;
    let budgets: &[&str] = match mode {
        "warp-cfg" => &["max_states", "max_cfg_states", "max_bb_nodes"],
        "makespan" => &["max_states", "max_cfg_states", "max_bb_nodes"],
        "simd" => &["max_dag_nodes", "max_schedule_intervals"],
        "pws" => &["max_unrolled_nodes", "max_pareto_points"],
        "rr" => &["max_warp_steps", "max_segments"],
        "simulate" => &["max_steps", "max_cycles"],
        _ => &["max_cfg_states"],
    };
    for p in budgets {
        req.params.insert((*p).into(), serde_json::json!(small));
    }
    if mode == "makespan" {
        req.params.insert("warps".into(), serde_json::json!(1 + knobs % 8));
        req.params.insert("estimate_x".into(), serde_json::json!(knobs % 4));
    }
    let report = warpbound::analyze(&req);
    let _ = serde_json::to_string(&report);
});
