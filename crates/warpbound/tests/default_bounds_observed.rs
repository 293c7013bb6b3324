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
