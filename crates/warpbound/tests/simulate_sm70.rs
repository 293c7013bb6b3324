//! The sm_70–sm_90 listings of `tests/kernels/sass` (sources in `tests/kernels/src`) run on
//! the simulator next to their warp-cfg bound: one warp of 32 threads, pointer parameters
//! given buffers, loop trip counts kept at or below the loop bound the analysis is given.
//! Every run must finish, in the stack order and under independent thread scheduling, and
//! observed cycles must not exceed the bound under the same cost model (the simulator runs the analysis's setting: one warp, in-order issue, the cost
//! model's latencies).
//!
//! Listings that cannot run, and why:
//! - `func_pointer`: `CALL.REL.NOINC R…` calls through a register (indirect);
//! - `printf_divergent`: its `STL`s of the `printf` arguments run (local memory), but the
//!   `vprintf` call is outside the listing (`CALL.ABS.NOINC`);
//! - `switch_stmt`: the jump table is read from constant bank 2 (`LDC c[0x2][R4]`) and
//!   branched through with `BRX`.

use isa::Dialect;
use warpbound::{analyze, Report, Request};

const ARCHS: [(&str, &str); 4] = [
    ("sm_70", "volta-qv100"),
    ("sm_75", "turing-rtx2060"),
    ("sm_86", "ampere-rtx3070"),
    ("sm_90", "hopper-h100"),
];

/// A kernel's launch: parameter words, memory, and the loop bound its trip counts respect.
struct Case {
    name: &'static str,
    params: &'static str,
    memory: String,
    loop_bound: u64,
}

fn floats(values: impl Iterator<Item = f32>) -> String {
    values.map(|f| f.to_string()).collect::<Vec<_>>().join(" ")
}

fn words(values: impl Iterator<Item = u32>) -> String {
    values.map(|w| w.to_string()).collect::<Vec<_>>().join(" ")
}

/// The bytes `atomic_loop` counts: `in[i] = 3i mod 7`.
fn histogram_byte(i: u32) -> u32 {
    3 * i % 7
}

fn cases() -> Vec<Case> {
    // Thirty-two values around the clamp interval [0.25, 0.75] of `data_if_else`.
    let mixed = floats((0..32).map(|i| (i as f32 - 8.0) / 16.0));
    let bytes = words((0..16).map(|w| (0..4).map(|b| histogram_byte(4 * w + b) << (8 * b)).sum()));
    vec![
        Case {
            // Two bytes per thread, n = 60: the last two threads' bytes past 60 are skipped.
            name: "atomic_loop",
            params: "0x10000,0,0x20000,0,60,2",
            memory: format!("in@0x10000 16 words {bytes}; bins@0x20000 8 const 0"),
            loop_bound: 4,
        },
        Case {
            // a[row * 3 + j], three iterations, every value non-negative (the assert holds).
            name: "assert_loop",
            params: "0x10000,0,0x20000,0,3",
            memory: "a@0x10000 96 iota 0 1; sum@0x20000 32 const 0".into(),
            loop_bound: 5,
        },
        Case {
            name: "data_if_else",
            params: "0x10000,0,0x20000,0,0x3e800000,0x3f400000,32",
            memory: format!("x@0x10000 32 floats {mixed}; y@0x20000 32 const 0"),
            loop_bound: 1,
        },
        Case {
            // b has zeros and a subnormal: FCHK sends those lanes down the slow path (a call).
            name: "fdiv_sqrt",
            params: "0x10000,0,0x20000,0,0x30000,0,32",
            memory: format!(
                "a@0x10000 32 floats {}; b@0x20000 32 floats {}; c@0x30000 32 const 0",
                floats((0..32).map(|i| i as f32 + 0.5)),
                floats((0..32).map(|i| match i % 8 {
                    0 => 0.0,
                    3 => 1e-40,
                    _ => i as f32 - 7.0,
                }))
            ),
            loop_bound: 4,
        },
        Case {
            // n = 64, width = 5: two trips of the grid-stride loop per thread.
            name: "grid_stride_divmod",
            params: "0x10000,0,0x20000,0,64,5",
            memory: "in@0x10000 64 iota 0 1; out@0x20000 64 const 0".into(),
            loop_bound: 4,
        },
        Case {
            // outer = 2; the inner loop runs lane + 1 times (up to 32).
            name: "nested_divergent",
            params: "0x10000,0,0x20000,0,2",
            memory: "a@0x10000 64 floats 1 2 3 4; out@0x20000 32 const 0".into(),
            loop_bound: 34,
        },
        Case {
            // degree 3; lanes with x <= 0 skip the call.
            name: "noinline_call",
            params: "0x10000,0,0x20000,0,3",
            memory: format!("x@0x10000 32 floats {mixed}; y@0x20000 32 const 0"),
            loop_bound: 5,
        },
        Case {
            name: "warp_reduce",
            params: "0x10000,0,0x20000,0,0x30000,0",
            memory: "in@0x10000 32 iota 0xfffffffb 1; out@0x20000 1 const 0; neg@0x30000 1 const 0"
                .into(),
            loop_bound: 6,
        },
        Case {
            // n = 8: threads below 8 scan data from their index to the first zero (at 3 and 6).
            name: "while_break",
            params: "0x10000,0,0x20000,0,8",
            memory: format!(
                "data@0x10000 40 words {}; pos@0x20000 32 const 0",
                words((0..40).map(|i| u32::from(i != 3 && i != 6)))
            ),
            loop_bound: 10,
        },
    ]
}

/// What a kernel leaves in memory, computed in Rust from its CUDA source.
enum Expect {
    Words(&'static str, Vec<u32>),
    /// Floats, within a relative 1e-6 (the compiler's `sqrtf`/division sequences round
    /// through the simulator's correctly rounded `MUFU`).
    Floats(&'static str, Vec<f32>),
}

fn mixed(i: usize) -> f32 {
    (i as f32 - 8.0) / 16.0
}

fn expected(name: &str) -> Vec<Expect> {
    let (lo, hi) = (0.25f32, 0.75f32);
    match name {
        "atomic_loop" => {
            let mut bins = vec![0u32; 8];
            for i in 0..60 {
                bins[histogram_byte(i) as usize] += 1;
            }
            vec![Expect::Words("bins", bins)]
        }
        "assert_loop" => vec![Expect::Words("sum", (0..32).map(|r| 9 * r + 3).collect())],
        "data_if_else" => vec![Expect::Floats(
            "y",
            (0..32)
                .map(|i| {
                    let v = mixed(i);
                    if v < lo {
                        let w = (lo - v).mul_add(0.5, lo);
                        w * w
                    } else if v > hi {
                        let w = (v - hi).mul_add(-0.25, hi);
                        w * (w * w)
                    } else {
                        v
                    }
                })
                .collect(),
        )],
        "fdiv_sqrt" => vec![Expect::Floats(
            "c",
            (0..32)
                .map(|i| {
                    let b = match i % 8 {
                        0 => 0.0,
                        3 => 1e-40,
                        _ => i as f32 - 7.0,
                    };
                    (i as f32 + 0.5).sqrt() / b
                })
                .collect(),
        )],
        "grid_stride_divmod" => {
            // Trip-major order: a later trip overwrites (i = 60..63 land where 1..4 did).
            let mut out = vec![0u32; 64];
            for i in 0..64u32 {
                out[((i % 5) * 12 + i / 5) as usize] = i;
            }
            vec![Expect::Words("out", out)]
        }
        "nested_divergent" => vec![Expect::Floats(
            "out",
            (0..32)
                .map(|t| (1..=(t + 1).min(4)).map(|j| j as f32).sum())
                .collect(),
        )],
        "noinline_call" => vec![Expect::Floats(
            "y",
            (0..32)
                .map(|i| {
                    let v = mixed(i);
                    if v > 0.0 {
                        (0..3).fold(1.0f32, |r, _| r.mul_add(v, 1.0))
                    } else {
                        v
                    }
                })
                .collect(),
        )],
        // in = -5..26: the sum 336 plus the 16 odd values of the ballot; one is negative.
        "warp_reduce" => vec![
            Expect::Words("out", vec![352]),
            Expect::Words("neg", vec![1]),
        ],
        "while_break" => vec![Expect::Words(
            "pos",
            (0..32)
                .map(|i| match i {
                    0..=3 => 3,
                    4..=6 => 6,
                    7 => 8,
                    _ => i,
                })
                .collect(),
        )],
        _ => Vec::new(),
    }
}

/// Where the run's memory differs from what the kernel computes, if anywhere.
fn wrong_memory(r: &Report, name: &str) -> Option<String> {
    let sim = serde_json::to_value(r.simulation.as_ref()?).ok()?;
    let array = |a: &str| -> Vec<u32> {
        sim["memory"]
            .as_array()
            .and_then(|m| m.iter().find(|x| x["name"] == a))
            .and_then(|x| x["words"].as_array())
            .map(|w| {
                w.iter()
                    .filter_map(|v| v.as_u64())
                    .map(|v| v as u32)
                    .collect()
            })
            .unwrap_or_default()
    };
    for e in expected(name) {
        match e {
            Expect::Words(a, want) => {
                if array(a) != want {
                    return Some(format!("{a} = {:?}, expected {want:?}", array(a)));
                }
            }
            Expect::Floats(a, want) => {
                let got: Vec<f32> = array(a).into_iter().map(f32::from_bits).collect();
                let close = got.len() == want.len()
                    && got.iter().zip(&want).all(|(g, w)| {
                        g == w || (g - w).abs() <= 1e-6 * w.abs() || (g.is_nan() && w.is_nan())
                    });
                if !close {
                    return Some(format!("{a} = {got:?}, expected {want:?}"));
                }
            }
        }
    }
    None
}

fn run(src: &str, case: &Case, preset: Option<&str>, its: &str) -> Report {
    let mut req = Request::new(src, Dialect::Sass);
    req.mode = Some("warp-cfg".into());
    req.preset = preset.map(str::to_string);
    for (k, v) in [
        ("simulate", serde_json::json!(true)),
        ("its", serde_json::json!(its)),
        ("params", serde_json::json!(case.params)),
        ("memory", serde_json::json!(case.memory)),
        ("default_loop_bound", serde_json::json!(case.loop_bound)),
    ] {
        req.params.insert(k.to_string(), v);
    }
    analyze(&req)
}

#[test]
fn sm70_to_sm90_listings_run_within_their_bound() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/kernels/sass");
    let mut table = Vec::new();
    let mut failures = Vec::new();
    for (arch, preset) in ARCHS {
        for case in cases() {
            let path = format!("{root}/{arch}/{}.sass", case.name);
            let src = std::fs::read_to_string(&path).expect("listing");
            // The stack order, and independent thread scheduling under two schedulers: the
            // bound is meant for every interleaving (cfg::barriers), and the data results
            // must not depend on the order.
            let runs = [Some(preset), Some("paper-unit")]
                .into_iter()
                .flat_map(|p| ["", "round-robin", "random:5"].map(|its| (p, its)));
            for (preset, its) in runs {
                let r = run(&src, &case, preset, its);
                let label = format!(
                    "{arch}/{} ({}{}{its})",
                    case.name,
                    preset.unwrap_or("default"),
                    if its.is_empty() { "" } else { ", its=" }
                );
                let errors: Vec<&str> = r
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == warpbound::Severity::Error)
                    .map(|d| d.message.as_str())
                    .collect();
                let observed = r
                    .simulation
                    .as_ref()
                    .and_then(|s| serde_json::to_value(s).ok())
                    .and_then(|s| s["cycles"].as_u64());
                let bound = r.wcet.as_ref().map(|w| w.cycles);
                match (observed, bound) {
                    (Some(o), Some(b)) if errors.is_empty() => {
                        table.push(format!("{label}: observed {o}, bound {b}"));
                        if o > b {
                            failures.push(format!("{label}: observed {o} > bound {b}"));
                        }
                        if let Some(why) = wrong_memory(&r, case.name) {
                            failures.push(format!("{label}: wrong result: {why}"));
                        }
                    }
                    _ => failures.push(format!(
                        "{label}: observed {observed:?}, bound {bound:?}: {errors:?}"
                    )),
                }
            }
        }
    }
    println!("{}", table.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The stepper shows convergence-barrier entries with their masks: in `while_break` (sm_86)
/// the `BSSY B0` entry holds the whole warp while the threads that left the loop wait at
/// the `BSYNC`, and after it the warp runs as one again.
#[test]
fn the_stepper_shows_barrier_entries() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/kernels/sass");
    let src = std::fs::read_to_string(format!("{root}/sm_86/while_break.sass")).expect("listing");
    let case = cases()
        .into_iter()
        .find(|c| c.name == "while_break")
        .expect("case");
    let mut req = Request::new(&src, Dialect::Sass);
    req.mode = Some("simulate".into());
    req.params
        .insert("params".into(), serde_json::json!(case.params));
    req.params
        .insert("memory".into(), serde_json::json!(case.memory));
    let r = analyze(&req);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let sim = serde_json::to_value(r.simulation.as_ref().expect("simulation")).expect("json");
    let steps = sim["stepper"]["steps"].as_array().expect("steps");
    let full = "1".repeat(32);
    let barrier_with = |s: &serde_json::Value, mask: &str| {
        s["stack"].as_array().is_some_and(|st| {
            st.iter()
                .any(|e| e["tag"] == serde_json::json!({"barrier": 0}) && e["mask"] == mask)
        })
    };
    // Divergent inside the loop: the barrier entry below holds all 32 threads.
    assert!(steps
        .iter()
        .any(|s| barrier_with(s, &full) && s["stack"].as_array().is_some_and(|st| st.len() > 2)));
    // The store after the BSYNC runs converged, with no barrier entry left.
    let store = steps
        .iter()
        .find(|s| s["text"].as_str().is_some_and(|t| t.starts_with("STG")))
        .expect("store");
    assert_eq!(store["active"], serde_json::json!(full));
    assert_eq!(store["stack"].as_array().map(Vec::len), Some(1));
}
