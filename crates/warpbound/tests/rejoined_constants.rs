//! Constants set on paths that run apart and rejoin (`cfg::consts`): the sm_90 shape of the
//! CUDA samples' `reduce7`, where a shuffle loop's guard is computed from a constant by every
//! group before the `WARPSYNC.ALL` that rejoins them. Bounds derived by hand (unit cost).

use isa::Dialect;
use warpbound::{analyze, Report, Request};

fn run(src: &str) -> Report {
    let mut req = Request::new(src, Dialect::Sass);
    req.mode = Some("warp-cfg".into());
    req.params.insert("cost".into(), serde_json::json!("unit"));
    analyze(&req)
}

/// Blocks: 0x00–0x20 (3), 0x30–0x40 (2), 0x50 (1), 0x60–0x90 (4, ends at the `WARPSYNC`),
/// 0xa0–0xc0 (3), 0xd0 (1).
const KERNEL: &str = "
    /*0000*/ S2R R0, SR_TID.X ;
    /*0010*/ ISETP.GE.AND P1, PT, R0, 0x10, PT ;
    /*0020*/ @P1 BRA 0x50 ;
    /*0030*/ IMAD.MOV.U32 R4, RZ, RZ, 0x20 ;
    /*0040*/ BRA 0x60 ;
    /*0050*/ MOV R4, 0x20 ;
    /*0060*/ LEA.HI R5, R4, R4, RZ, 0x1 ;
    /*0070*/ ISETP.GT.AND P0, PT, R4, 0x3, PT ;
    /*0080*/ SHF.R.S32.HI R5, RZ, 0x1, R5 ;
    /*0090*/ WARPSYNC.ALL ;
    /*00a0*/ SHFL.DOWN PT, R7, R6, R5, 0x1f ;
    /*00b0*/ IMAD.MOV.U32 R4, RZ, RZ, R5 ;
    /*00c0*/ @P0 BRA 0x60 ;
    /*00d0*/ EXIT ;
";

/// The tid branch diverges: the taken group runs 0x50 (1) and 0x60 (4) and waits at the
/// `WARPSYNC`; the other runs 0x30 (2) and 0x60 (4); the warp leaves the `WARPSYNC` agreeing
/// on `P0` (both groups computed 0x20 > 3), so the shuffle loop never diverges. The loop
/// {0x60, 0xa0} is entered at 0xa0 by the rejoined warp and at 0x60 by a converged warp
/// (the tid branch may also go one way), so it is bounded as a region: its two entry blocks
/// run at most 10 times per entry, 5 × 0xa0 and 4 × 0x60 at most for the worst cost.
/// 3 + (1 + 4) + (2 + 4) + 5 × 3 + 4 × 4 + 1 = 46.
#[test]
fn equal_constants_keep_the_rejoined_loop_uniform() {
    let r = run(KERNEL);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(46));
}

/// With `MOV R4, 0x2` on the taken path, its threads compute `P0 = 2 > 3 = 0`: after the
/// `WARPSYNC` the loop's branch diverges on every pass. Each pass through 0xa0 (3) splits
/// off the leaving threads, sends the others round the loop (0x60, 4) to wait at the
/// `WARPSYNC`, and runs the leaving threads' `EXIT` (1) before the waiting ones resume. That
/// cycle of the warp-level CFG is no loop of the thread's code (it is entered at 0xa0, after
/// the rejoin): one turn per group of threads, at most 32 (a warp's groups, more than the
/// default bound 10): 3 + (1 + 4) + (2 + 4) + 32 × (3 + 4 + 1) = 270.
#[test]
fn different_constants_leave_it_divergent() {
    let r = run(&KERNEL.replace("MOV R4, 0x20 ;", "MOV R4, 0x2 ;"));
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(270));
}
