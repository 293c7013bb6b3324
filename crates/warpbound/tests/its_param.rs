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
            .warp_cfg
            .as_ref()
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
        .warp_cfg
        .as_ref()
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
    assert!(off
        .warp_cfg
        .as_ref()
        .is_some_and(|w| w.interleaving.is_none()));
}
