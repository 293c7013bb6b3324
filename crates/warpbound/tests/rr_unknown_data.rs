//! The `rr` mode on kernels as nvcc writes them: parameters chosen when the request gives
//! none (`params=auto`, also in `simulate` on PTX), and branches, loop exits and addresses
//! that depend on loaded data paid for in the worst case (`unknown_data=pessimistic`, the
//! default). The WCET is checked against the simulator in the model's setting for several
//! memory contents.

#[path = "../../roundrobin/tests/common/ptx_kernels.rs"]
#[allow(dead_code)]
mod ptx_kernels;

use isa::Dialect;
use ptx_kernels::{gather, if_else, walk_rows};
use warpbound::Severity;

/// A column walk that stops at the first non-positive word (bounded by `LOOP`), rows 256
/// bytes apart.
fn walk() -> String {
    walk_rows(256)
}
use serde_json::{json, Value};
use warpbound::report::{ArgumentKind, ArgumentSource};
use warpbound::{analyze, Report, Request};

fn run(source: &str, mode: &str, params: &[(&str, Value)], bounds: &[(&str, u64)]) -> Report {
    let mut req = Request::new(source, Dialect::Ptx);
    req.mode = Some(mode.into());
    for (k, v) in params {
        req.params.insert(k.to_string(), v.clone());
    }
    for (k, n) in bounds {
        req.loop_bounds.insert(k.to_string(), *n);
    }
    analyze(&req)
}

/// What nvcc 12 writes for `__global__ void k(float *out, const int *in, int n, float s)`.
const NVCC: &str = "
.version 8.0
.target sm_86
.address_size 64
.visible .entry _Z1kPfPKiif(
  .param .u64 _Z1kPfPKiif_param_0,
  .param .u64 _Z1kPfPKiif_param_1,
  .param .u32 _Z1kPfPKiif_param_2,
  .param .f32 _Z1kPfPKiif_param_3
)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [_Z1kPfPKiif_param_0];
  ld.param.u64 %rd2, [_Z1kPfPKiif_param_1];
  ld.param.u32 %r2, [_Z1kPfPKiif_param_2];
  ld.param.f32 %f1, [_Z1kPfPKiif_param_3];
  mov.u32 %r1, %tid.x;
  setp.ge.s32 %p1, %r1, %r2;
  @%p1 bra $L__BB0_2;
  cvta.to.global.u64 %rd3, %rd2;
  cvta.to.global.u64 %rd4, %rd1;
  mul.wide.s32 %rd5, %r1, 4;
  add.s64 %rd6, %rd3, %rd5;
  ld.global.u32 %r3, [%rd6];
  cvt.rn.f32.s32 %f2, %r3;
  mul.f32 %f3, %f2, %f1;
  add.s64 %rd7, %rd4, %rd5;
  st.global.f32 [%rd7], %f3;
$L__BB0_2:
  ret;
}
";

#[test]
fn parameters_are_chosen_when_none_are_given() {
    let r = run(NVCC, "rr", &[], &[]);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let a = r.arguments.as_ref().expect("arguments");
    let got: Vec<(&str, &str, ArgumentKind, &str, ArgumentSource)> = a
        .values
        .iter()
        .map(|x| {
            (
                x.name.as_str(),
                x.ty.as_str(),
                x.kind,
                x.text.as_str(),
                x.source,
            )
        })
        .collect();
    use ArgumentKind::*;
    use ArgumentSource::Auto;
    assert_eq!(
        got,
        vec![
            ("_Z1kPfPKiif_param_0", ".u64", Pointer, "0x100000", Auto),
            ("_Z1kPfPKiif_param_1", ".u64", Pointer, "0x200000", Auto),
            ("_Z1kPfPKiif_param_2", ".u32", Integer, "64", Auto),
            ("_Z1kPfPKiif_param_3", ".f32", Float, "1.0", Auto),
        ]
    );
    assert_eq!(a.values[0].value, json!(0x10_0000));
    assert_eq!(a.params, "0x100000,0x200000,64,1.0");
    assert!(r.diagnostics.iter().any(|d| d.severity == Severity::Note
        && d.message.contains("chosen automatically")
        && d.message.contains("_Z1kPfPKiif_param_2 = 64")));
    // The loads hit the second pointer's array, the stores the first's.
    let rr = r.rr().expect("rr");
    let segs: Vec<u64> = rr.accesses.iter().map(|x| x.segments[0]).collect();
    assert_eq!(segs, vec![0x20_0000, 0x10_0000]);

    // The same values given explicitly: the same analysis, marked as the request's.
    let e = run(NVCC, "rr", &[("params", a.params.clone().into())], &[]);
    assert_eq!(e.wcet, r.wcet);
    let ea = e.arguments.as_ref().expect("arguments");
    assert!(ea
        .values
        .iter()
        .all(|x| x.source == ArgumentSource::Request));
    assert!(!e
        .diagnostics
        .iter()
        .any(|d| d.message.contains("chosen automatically")));
    // `auto` written out is the same as nothing.
    let w = run(NVCC, "rr", &[("params", "auto".into())], &[]);
    assert_eq!(w.wcet, r.wcet);
    // Explicit values keep working as before: a wrong count is still an error.
    let bad = run(NVCC, "rr", &[("params", "0x1000".into())], &[]);
    assert!(bad
        .diagnostics
        .iter()
        .any(|d| d.is_error() && d.message.contains("declares 4 parameters but 1")));
}

#[test]
fn simulate_on_ptx_chooses_parameters_too() {
    let r = run(
        NVCC,
        "simulate",
        &[(
            "memory",
            "out@0x100000 32 const 0; in@0x200000 32 iota 0 1".into(),
        )],
        &[],
    );
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let a = r.arguments.as_ref().expect("arguments");
    // As the simulator's 32-bit words: two 64-bit pointers, the int, the float's bits.
    assert_eq!(a.params, "0x100000,0x0,0x200000,0x0,0x40,0x3f800000");
    assert!(a.values.iter().all(|x| x.source == ArgumentSource::Auto));
    // out[i] = in[i] · 1.0 for the 32 threads (all < n = 64).
    let s = serde_json::to_value(r.simulation.as_ref().expect("run")).expect("json");
    let out = &s["memory"][0]["words"];
    assert_eq!(out[3], json!(3.0f32.to_bits()));
    // Without memory the note says where the arrays must be.
    let r = run(NVCC, "simulate", &[], &[]);
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Note && d.message.contains("param_0@0x100000")));
    // Words given by the request are decoded per parameter.
    let r = run(
        NVCC,
        "simulate",
        &[
            ("params", "0x100000,0,0x200000,0,16,1.5".into()),
            (
                "memory",
                "out@0x100000 32 const 0; in@0x200000 32 iota 0 1".into(),
            ),
        ],
        &[],
    );
    let a = r.arguments.as_ref().expect("arguments");
    let texts: Vec<&str> = a.values.iter().map(|x| x.text.as_str()).collect();
    assert_eq!(texts, ["0x100000", "0x200000", "16", "1.5"]);
    assert!(a.values.iter().all(|x| x.source == ArgumentSource::Request));
}

/// The model's WCET and the simulator's cycles for one memory content, in the setting
/// where the report compares them (max mode, per-instruction segments, one block).
fn model_and_run(text: &str, block: u32, memory: &str, bounds: &[(&str, u64)]) -> (u64, u64) {
    let r = run(
        text,
        "rr",
        &[
            ("block", format!("{block},1,1").into()),
            ("segmentation", "per-instruction".into()),
            ("simulate", true.into()),
            ("memory", memory.into()),
        ],
        bounds,
    );
    assert!(!r.has_errors(), "{memory}: {:?}", r.diagnostics);
    let s = r.simulation.as_ref().expect("simulation");
    let wcet = r.wcet.as_ref().expect("wcet").cycles;
    assert_eq!(s.bound.as_ref().and_then(|b| b.cycles), Some(wcet));
    (wcet, s.run.cycles)
}

#[test]
fn simulated_runs_stay_within_the_bound() {
    let one = model_and_run(&if_else(), 32, "a@0x100000 32 const 5", &[]);
    assert_eq!(one.0, 566);
    for block in [32, 64] {
        let words = block;
        for fill in [
            "const 5".to_string(),
            "const 0xffffffff".to_string(),
            "iota 0 1".to_string(),
            "random 7 1000".to_string(),
            "random 8 0".to_string(),
        ] {
            let (wcet, cycles) = model_and_run(
                &if_else(),
                block,
                &format!("a@0x100000 {words} {fill}"),
                &[],
            );
            assert!(
                cycles <= wcet,
                "if/else, {block} threads, {fill}: {cycles} > {wcet}"
            );
        }
        // The walk: rows of 64 words (256 bytes); every column stops by row 2, as the bound
        // LOOP = 3 assumes.
        for rows in [
            "0 0 0", // all stop at once
            "1 1 0", // all run three times
            "1 0 0", // two times
        ] {
            let fills: Vec<String> = rows
                .split(' ')
                .enumerate()
                .map(|(k, v)| format!("r{k}@{:#x} 64 const {v}", 0x10_0000 + 256 * k))
                .collect();
            let (wcet, cycles) = model_and_run(&walk(), block, &fills.join("; "), &[("LOOP", 3)]);
            assert!(
                cycles <= wcet,
                "walk, {block} threads, {rows}: {cycles} > {wcet}"
            );
        }
        // Divergent walks: column i stops at row i mod 3.
        let row = |k: usize| -> String {
            let w: Vec<&str> = (0..64)
                .map(|i| if i % 3 == k { "0" } else { "1" })
                .collect();
            format!("r{k}@{:#x} 64 words {}", 0x10_0000 + 256 * k, w.join(" "))
        };
        let diag = format!("{}; {}; r2@0x100200 64 const 0", row(0), row(1));
        let diag = diag.as_str();
        let (wcet, cycles) = model_and_run(&walk(), block, diag, &[("LOOP", 3)]);
        assert!(
            cycles <= wcet,
            "walk, {block} threads, divergent: {cycles} > {wcet}"
        );
        // Gathers within one segment, and over 32 (a[i] = 32·i: one 128-byte segment each).
        for fill in [
            "iota 0 1",
            "const 0",
            "iota 0 32",
            "random 3 2048",
            "random 4 8",
        ] {
            let (wcet, cycles) =
                model_and_run(&gather(), block, &format!("a@0x100000 2048 {fill}"), &[]);
            assert!(
                cycles <= wcet,
                "gather, {block} threads, {fill}: {cycles} > {wcet}"
            );
        }
    }
}

#[test]
fn assumptions_are_located_and_refusal_is_still_available() {
    let r = run(&walk(), "rr", &[], &[]);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let rr = r.rr().expect("rr");
    assert_eq!(rr.loop_bounds.len(), 1);
    assert_eq!(
        (rr.loop_bounds[0].bound, rr.loop_bounds[0].source.as_str()),
        (10, "default_loop_bound")
    );
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Warning && d.line == 10 && d.message.contains("`LOOP`")));
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Note && d.line == 15 && d.message.contains("both sides")));
    // No default: a located error naming the loop and how to bound it.
    let e = run(&walk(), "rr", &[("default_loop_bound", 0.into())], &[]);
    let err = e.diagnostics.iter().find(|d| d.is_error()).expect("error");
    assert_eq!(err.line, 10);
    assert!(
        err.message.contains("--loop-bound 'LOOP=N'"),
        "{}",
        err.message
    );
    // A numeric key names no PTX loop.
    let w = run(&walk(), "rr", &[], &[("0x18", 3)]);
    assert!(w
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Warning && d.message.contains("not a label")));
    // The thesis's analyzer.
    let t = run(&walk(), "rr", &[("unknown_data", "refuse".into())], &[]);
    assert!(t
        .diagnostics
        .iter()
        .any(|d| d.is_error() && d.line == 15 && d.message.contains("§4.4.6.1")));
    assert!(t.wcet.is_none());
}
