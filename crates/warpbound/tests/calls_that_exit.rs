//! A predicated `CALL` into code that ends in `EXIT` and never returns (nvcc's sm_86 shape in
//! cub's `RadixSortScanBinsKernel`: `@P0 CALL.REL.NOINC tail; BRA head`). The return point is
//! only resumed by a `RET`; without one the callers' return entry is empty once they exited,
//! and the loop goes on with the threads that did not call. Bounds derived by hand (unit cost).

use isa::Dialect;
use warpbound::{analyze, Report, Request};

fn run(src: &str, header: &str, bound: u64) -> Report {
    let mut req = Request::new(src, Dialect::Sass);
    req.mode = Some("warp-cfg".into());
    req.params.insert("cost".into(), serde_json::json!("unit"));
    req.loop_bounds.insert(header.into(), bound);
    analyze(&req)
}

/// Blocks: 0x00–0x10 (2), head 0x20–0x40 (3, ends at the call), 0x50 `BRA head` (1), the
/// tail 0x60–0x70 (2, `@P1 EXIT`) and 0x80–0x90 (2). Each of the 5 passes through the head
/// sends the callers through the tail, whose two `EXIT`s (a divergent one at 0x70, the last
/// at 0x90) end them: 2 + 2 per pass. The others run `BRA head` (1) on the first 4 passes:
/// 2 + 5 × 3 + 5 × (2 + 2) + 4 × 1 = 41. (Before, the callers' return point could resume at
/// 0x50 after a divergent `EXIT` in the tail, as if the call returned: 1945.)
const TAIL_CALL: &str = "
    /*0000*/ S2R R0, SR_TID.X ;
    /*0010*/ MOV R4, RZ ;
    /*0020*/ IADD3 R4, R4, 0x1, RZ ;
    /*0030*/ ISETP.GE.AND P0, PT, R4, R0, PT ;
    /*0040*/ @P0 CALL.REL.NOINC 0x60 ;
    /*0050*/ BRA 0x20 ;
    /*0060*/ ISETP.GE.AND P1, PT, R0, 0x5, PT ;
    /*0070*/ @P1 EXIT ;
    /*0080*/ STG.E [R2.64], R4 ;
    /*0090*/ EXIT ;
";

#[test]
fn a_call_that_never_returns_leaves_no_return_path() {
    let r = run(TAIL_CALL, "0x20", 5);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(41));
}

/// The same tail ending in `RET` instead: now the callers that did not exit come back to
/// 0x50, so the return point must resume (a `RET` halted into it): return edges exist, and
/// on top of the 41 above the returned callers run `BRA head` (1) apart from the others on
/// each of the 5 passes, so the bound is at least 46.
#[test]
fn a_call_that_returns_still_returns() {
    let returning = TAIL_CALL.replace("/*0090*/ EXIT ;", "/*0090*/ RET.REL.NODEC R20 0x0 ;");
    let r = run(&returning, "0x20", 5);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let cfg = r.cfg.as_ref().expect("graph");
    let returns = cfg.edges.iter().filter(|e| e.kind == "return").count();
    assert!(returns > 0, "the RET returns to 0x50");
    let w = r.wcet.as_ref().map(|w| w.cycles).unwrap_or(0);
    assert!(w >= 46, "{w}");
}
