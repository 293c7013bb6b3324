//! `warp-cfg --set its=SCHEDULER`: one warp under independent thread scheduling next to the
//! stack order (`cfg::interleaving`, `cfg::concrete`), reported in `warp-cfg.interleaving`.
//! Issue counts derived by hand.

use isa::Dialect;
use warpbound::{analyze, Report, Request};

fn run(src: &str, its: &str) -> Report {
    let mut req = Request::new(src, Dialect::Sass);
    req.mode = Some("warp-cfg".into());
    req.params.insert("its".into(), serde_json::json!(its));
    analyze(&req)
}

/// `if (p) { __syncwarp(); … } __syncwarp();`: under ITS the two `WARPSYNC`s match, the
/// paths go on apart: 3 + 1 (0x50, taken) + 2 (0x30, 0x40) + 1 (0x50) + 2 × 2 (0x60, 0x70 per
/// path) = 11, as in the stack order (which releases them apart too); the report names the
/// release where the orders part.
const MISMATCHED: &str = "
    /*0000*/ S2R R0, SR_TID.X ;
    /*0010*/ ISETP.GE.AND P0, PT, R0, 0x10, PT ;
    /*0020*/ @P0 BRA 0x50 ;
    /*0030*/ WARPSYNC.ALL ;
    /*0040*/ IADD3 R1, R0, 0x1, RZ ;
    /*0050*/ WARPSYNC.ALL ;
    /*0060*/ IADD3 R2, R0, 0x2, RZ ;
    /*0070*/ EXIT ;
";

#[test]
fn mismatched_warpsyncs_are_released_apart_in_both_orders() {
    for its in ["round-robin", "newest", "random:7"] {
        let r = run(MISMATCHED, its);
        assert!(!r.has_errors(), "{:?}", r.diagnostics);
        let i = r
            .warp_cfg()
            .and_then(|w| w.interleaving.as_ref())
            .expect("interleaving");
        assert_eq!(i.scheduler, its);
        assert_eq!(i.outcome, "finished");
        // Whether the tid branch splits the warp depends on the executors' data model; when
        // it does, both orders issue 11, when it does not, 8 (every instruction once).
        assert_eq!(i.issues, i.stack_order_issues, "{its}");
        assert!(i.issues == 11 || i.issues == 8, "{its}: {}", i.issues);
        if i.issues == 11 {
            assert_eq!(i.departures.len(), 1, "{:?}", i.departures);
            assert!(
                i.departures[0].contains("0x0030, 0x0050"),
                "{:?}",
                i.departures
            );
        }
        assert_eq!(i.order.len(), i.issues);
        assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(11));
    }
}

/// An if-then-else in a barrier region: round robin interleaves the two paths (0x40 and 0x60
/// alternate) but issues the stack order's pairs: 4 (0x00–0x30) + 3 (0x40, 0x50, `BSYNC`) +
/// 2 (0x60, `BSYNC`) + 2 (0x80, 0x90) = 11, and nothing departs.
#[test]
fn a_region_interleaves_the_same_pairs() {
    let src = "
        /*0000*/ S2R R0, SR_TID.X ;
        /*0010*/ ISETP.GE.AND P0, PT, R0, 0x10, PT ;
        /*0020*/ BSSY B0, 0x80 ;
        /*0030*/ @P0 BRA 0x60 ;
        /*0040*/ IADD3 R1, R0, 0x1, RZ ;
        /*0050*/ BRA 0x70 ;
        /*0060*/ IADD3 R1, R0, 0x2, RZ ;
        /*0070*/ BSYNC B0 ;
        /*0080*/ STG.E [R2], R1 ;
        /*0090*/ EXIT ;
    ";
    let r = run(src, "round-robin");
    let i = r
        .warp_cfg()
        .and_then(|w| w.interleaving.as_ref())
        .expect("interleaving");
    assert_eq!((i.issues, i.stack_order_issues), (11, 11));
    assert!(i.departures.is_empty(), "{:?}", i.departures);
    // Round robin: after the split at 0x30, the two paths alternate.
    let after: Vec<u64> = i.order[4..8].iter().map(|o| o.address).collect();
    assert!(after.contains(&0x40) && after.contains(&0x60), "{after:x?}");
}

#[test]
fn a_misspelt_scheduler_is_an_error_and_empty_is_off() {
    let r = run(MISMATCHED, "round_robin");
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.is_error() && d.message.contains("not a scheduler")));
    let off = run(MISMATCHED, "");
    assert!(off.warp_cfg().is_some_and(|w| w.interleaving.is_none()));
}

/// The gallery's sm_86 kernel (`collatz_steps`), one warp of 32 threads on data whose
/// Collatz loops leave at different iterations, simulated in the stack order and under each
/// ITS scheduler: the same final memory, the same issue count (every departure-free order
/// issues the stack order's pairs), within the unit-cost bound; the ITS stepper shows the
/// thread groups (more than one at a time) and the barrier registers, the stack order's
/// shows its stack.
#[test]
fn simulated_under_its_the_gallery_kernel_stays_within_the_bound() {
    let src = include_str!("../../../www/examples/its-sm86.sass");
    let simulate = |its: &str| {
        let mut req = Request::new(src, Dialect::Sass);
        req.mode = Some("warp-cfg".into());
        req.loop_bounds.insert("0x0450".into(), 16);
        for (k, v) in [
            ("its", serde_json::json!(its)),
            ("simulate", serde_json::json!(true)),
            ("params", serde_json::json!("0x1000,0,0x2000,0,0x3000,0,3")),
            (
                "memory",
                serde_json::json!(
                    "x@0x1000 32 random 11 40; done@0x2000 32 const 0; n@0x3000 32 const 0"
                ),
            ),
        ] {
            req.params.insert(k.into(), v);
        }
        let r = analyze(&req);
        assert!(!r.has_errors(), "{its}: {:?}", r.diagnostics);
        let bound = r.wcet.as_ref().expect("bound").cycles;
        let sim = r.simulation.expect("simulation");
        assert_eq!(sim.holds, Some(true), "{its}: {} > {bound}", sim.run.cycles);
        sim.run
    };
    let stack = simulate("");
    assert!(stack.stepper.steps.iter().all(|s| s.groups.is_none()));
    assert!(stack.stepper.steps.iter().any(|s| s.stack.len() > 1));
    for its in ["round-robin", "newest", "random:1", "random:2"] {
        let run = simulate(its);
        assert_eq!(run.memory, stack.memory, "{its}");
        assert_eq!(run.stepper.steps.len(), stack.stepper.steps.len(), "{its}");
        let most = run
            .stepper
            .steps
            .iter()
            .map(|s| s.groups.as_ref().expect("groups").groups.len())
            .max();
        assert!(most > Some(1), "{its}: the warp never diverged");
        assert!(run
            .stepper
            .steps
            .iter()
            .any(|s| s.groups.as_ref().is_some_and(|g| !g.barriers.is_empty())));
    }
}

/// The `simulate` mode takes `its` for SASS and warns that other dialects ignore it.
#[test]
fn the_simulate_mode_reads_its() {
    let mut req = Request::new(
        "code for sm_86
/*0000*/ S2R R0, SR_TID.X ;
/*0010*/ BSSY B0, 0x60 ;
/*0020*/ ISETP.GE.U32.AND P0, PT, R0, 0x10, PT ;
/*0030*/ @P0 BRA 0x50 ;
/*0040*/ IADD3 R1, R0, 0x1, RZ ;
/*0050*/ BSYNC B0 ;
/*0060*/ EXIT ;
",
        Dialect::Sass,
    );
    req.mode = Some("simulate".into());
    req.params
        .insert("its".into(), serde_json::json!("round-robin"));
    let r = analyze(&req);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let steps = &r.simulation.expect("simulation").run.stepper.steps;
    // 4 for the warp, then lanes 16–31 (the taken, newer group) wait at BSYNC while lanes
    // 0–15 issue 0x40 and BSYNC, then EXIT for all: 8 issues.
    let order: Vec<u64> = steps.iter().map(|s| s.address).collect();
    assert_eq!(order, vec![0x00, 0x10, 0x20, 0x30, 0x50, 0x40, 0x50, 0x60]);
    req.params
        .insert("its".into(), serde_json::json!("sideways"));
    let r = analyze(&req);
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.message.contains("not a scheduler")));
}
