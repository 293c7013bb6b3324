//! A loop neither the code nor the request bounds, analysed with a simulation: when the run
//! makes more iterations than `default_loop_bound`, the bound is the run's count (warned,
//! `bound_from = observed`, listed in `wcet.assumed_loop_bounds`), so no report shows a
//! bound below the run beside it (issue #37). Values by hand in the comments.

use isa::Dialect;
use warpbound::{analyze, Report, Request};

/// Thread `t` adds 7 to `R0 = t` until `R0` is a multiple of 32, at least once (a do-while):
/// since 7 is invertible modulo 32, thread `t` iterates `k` times with `t + 7k ≡ 0 (mod 32)`,
/// `1 ≤ k ≤ 32`, and thread 0 takes the most, 32. The exit tests `R0 & 31`, not a counter
/// against a limit, so the loop-bound inference gives no bound. Threads leaving early wait
/// at the `BSYNC` (as nvcc writes a loop with a divergent exit).
const SEVENS: &str = "code for sm_86
/*0000*/ S2R R0, SR_TID.X ;
/*0010*/ BSSY B0, 0x60 ;
/*0020*/ IADD3 R0, R0, 0x7, RZ ;
/*0030*/ LOP3.LUT R3, R0, 0x1f, RZ, 0xc0, !PT ;
/*0040*/ ISETP.NE.AND P0, PT, R3, RZ, PT ;
/*0050*/ @P0 BRA 0x20 ;
/*0060*/ BSYNC B0 ;
/*0070*/ EXIT ;
";

fn analyse(mode: &str, params: &[(&str, serde_json::Value)]) -> Report {
    analyse_with(mode, params, &[])
}

fn analyse_with(
    mode: &str,
    params: &[(&str, serde_json::Value)],
    bounds: &[(&str, u64)],
) -> Report {
    let mut req = Request::new(SEVENS, Dialect::Sass);
    req.mode = Some(mode.into());
    for (k, n) in bounds {
        req.loop_bounds.insert((*k).into(), *n);
    }
    for (k, v) in params {
        req.params.insert((*k).into(), v.clone());
    }
    let r = analyze(&req);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    r
}

fn warned_about_the_run(r: &Report) -> bool {
    r.diagnostics.iter().any(|d| {
        d.line == 4
            && d.message.contains("made 32 iterations")
            && d.message.contains("default_loop_bound 10")
            && d.message.contains("assumption")
    })
}

#[test]
fn a_run_above_the_default_bound_raises_it_to_the_count() {
    // Without a run: the default, 10, warned as an assumption.
    let r = analyse("warp-cfg", &[]);
    assert_eq!(r.loop_bounds.len(), 1);
    let l = &r.loop_bounds[0];
    assert_eq!((l.bound, l.bound_from.as_str()), (Some(10), "default"));
    assert_eq!(l.inferred, None);
    let unsimulated = r.wcet.as_ref().expect("bound").cycles;

    for mode in ["warp-cfg", "block"] {
        let r = analyse(mode, &[("simulate", serde_json::json!(true))]);
        let sim = r.simulation.as_ref().expect("run");
        assert_eq!(sim.loop_iterations[0].iterations, 32, "{mode}");
        let l = &r.loop_bounds[0];
        assert_eq!(
            (l.header.as_str(), l.bound, l.bound_from.as_str()),
            ("0x20", Some(32), "observed"),
            "{mode}"
        );
        assert!(warned_about_the_run(&r), "{mode}: {:?}", r.diagnostics);
        let wcet = r.wcet.as_ref().expect("bound");
        assert_eq!(wcet.assumed_loop_bounds.len(), 1, "{mode}");
        assert_eq!(wcet.assumed_loop_bounds[0].from, "observed");
        assert_eq!(wcet.assumed_loop_bounds[0].bound, 32);
        assert!(
            sim.run.cycles <= wcet.cycles,
            "{mode}: run {} above bound {}",
            sim.run.cycles,
            wcet.cycles
        );
        if mode == "warp-cfg" {
            assert_eq!(sim.holds, Some(true));
            // 22 more iterations of four instructions each, at least.
            assert!(wcet.cycles >= unsimulated + 22 * 4, "{}", wcet.cycles);
        }
    }
}

#[test]
fn a_given_or_larger_default_bound_is_kept() {
    // A default above the run's count: the default stays (the run does not lower it).
    let r = analyse(
        "warp-cfg",
        &[
            ("simulate", serde_json::json!(true)),
            ("default_loop_bound", serde_json::json!(40)),
        ],
    );
    let l = &r.loop_bounds[0];
    assert_eq!((l.bound, l.bound_from.as_str()), (Some(40), "default"));
    assert!(!warned_about_the_run(&r));
    // A bound the request gives is the user's, even below the run (then the check fails).
    let r = analyse_with(
        "warp-cfg",
        &[("simulate", serde_json::json!(true))],
        &[("0x20", 5)],
    );
    let l = &r.loop_bounds[0];
    assert_eq!((l.bound, l.bound_from.as_str()), (Some(5), "given"));
    assert_eq!(r.simulation.as_ref().and_then(|s| s.holds), Some(false));
}

/// GCN3, `pws`: `s0` runs through the powers of 3 modulo 64 from 3 until it is 1 again. The
/// order of 3 modulo 64 is 16 (3^16 = 43046721 = 672605 · 64 + 1, and no smaller power is
/// 1 mod 64), so the header runs 16 times; the exit tests `s0 & 63`, not a counter.
const POWERS: &str = "k:
  s_mov_b32 s0, 1
BB0_1:
  s_mul_i32 s0, s0, 3
  s_and_b32 s1, s0, 63
  s_cmp_lg_u32 s1, 1
  s_cbranch_scc1 BB0_1
  s_endpgm
";

#[test]
fn pws_takes_the_run_count_for_a_default_bounded_loop() {
    let analyse = |simulate: bool| {
        let mut req = Request::new(POWERS, Dialect::Gcn);
        req.mode = Some("pws".into());
        req.params
            .insert("simulate".into(), serde_json::json!(simulate));
        let r = analyze(&req);
        assert!(!r.has_errors(), "{:?}", r.diagnostics);
        r
    };
    let r = analyse(false);
    let l = &r.loop_bounds[0];
    assert_eq!((l.bound, l.bound_from.as_str()), (Some(10), "default"));
    let r = analyse(true);
    let sim = r.simulation.as_ref().expect("run");
    assert_eq!(sim.loop_iterations[0].iterations, 16);
    let l = &r.loop_bounds[0];
    assert_eq!(
        (l.header.as_str(), l.bound, l.bound_from.as_str()),
        ("BB0_1", Some(16), "observed")
    );
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.line == 4 && d.message.contains("made 16 iterations")));
    let wcet = r.wcet.as_ref().expect("bound");
    assert_eq!(wcet.assumed_loop_bounds.len(), 1);
    assert_eq!(
        sim.holds,
        Some(true),
        "{} > {}",
        sim.run.cycles,
        wcet.cycles
    );
}

/// PTX, `warp-cfg` (the run now comes before the bound) and `rr` (which runs the loop to its
/// end on known data and needs no bound, so says nothing): the same powers of 3 modulo 64.
const POWERS_PTX: &str = ".version 7.0
.target sm_61
.address_size 64

.visible .entry k()
{
  .reg .b32 %r<3>;
  .reg .pred %p<2>;
  mov.u32 %r1, 1;
$L__BB0_1:
  mul.lo.u32 %r1, %r1, 3;
  and.b32 %r2, %r1, 63;
  setp.ne.u32 %p1, %r2, 1;
  @%p1 bra $L__BB0_1;
  ret;
}
";

#[test]
fn ptx_takes_the_run_count_where_a_bound_is_needed() {
    let analyse = |mode: &str| {
        let mut req = Request::new(POWERS_PTX, Dialect::Ptx);
        req.mode = Some(mode.into());
        req.params
            .insert("simulate".into(), serde_json::json!(true));
        let r = analyze(&req);
        assert!(!r.has_errors(), "{:?}", r.diagnostics);
        r
    };
    let r = analyse("warp-cfg");
    let l = &r.loop_bounds[0];
    assert_eq!(
        (l.header.as_str(), l.bound, l.bound_from.as_str()),
        ("$L__BB0_1", Some(16), "observed")
    );
    let sim = r.simulation.as_ref().expect("run");
    assert_eq!(sim.loop_iterations[0].iterations, 16);
    // One cycle per instruction: mov, 16 × (mul, and, setp, bra), ret = 66, and the
    // bound with the header at most 16 times is the same.
    assert_eq!(sim.run.cycles, 66);
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(66));
    assert_eq!(sim.holds, Some(true));
    let r = analyse("rr");
    assert!(r.loop_bounds.is_empty(), "{:?}", r.loop_bounds);
    assert!(!r
        .diagnostics
        .iter()
        .any(|d| d.message.contains("iterations")));
}

/// A PTX run whose trace is cut (`max_timeline_entries` = 20 of its 66 issues): its loop
/// counts come from the recorded issues only, and a warning says so.
#[test]
fn counts_from_a_cut_trace_are_flagged() {
    let mut req = Request::new(POWERS_PTX, Dialect::Ptx);
    req.mode = Some("warp-cfg".into());
    req.params
        .insert("simulate".into(), serde_json::json!(true));
    req.params
        .insert("max_timeline_entries".into(), serde_json::json!(20));
    let r = analyze(&req);
    assert!(r.diagnostics.iter().any(|d| d
        .message
        .contains("loop iterations are counted from its first")));
    let sim = r.simulation.as_ref().expect("run");
    assert!(sim.loop_iterations[0].iterations < 16);
}
