//! A `.NOINC` call whose callee never returns is a branch (issue #37 item 4): nvcc for
//! Volta and later leaves loops through predicated calls into the kernel's tail. Values by
//! hand in the test's comment.

use isa::Dialect;
use warpbound::{analyze, Request};

/// `for (r = 1; ; r++) if (r >= tid) goto tail;` with the exit written as
/// `@P0 CALL.REL.NOINC tail` (the tail ends in `EXIT`, no `RET`). Thread t leaves in
/// iteration max(1, t). Unit cost: `S2R`, `MOV`; then iterations 1…31 issue `IADD3`,
/// `ISETP`, the call-branch (3 each), the leaving group runs the tail's `IADD3` and `EXIT`
/// (2 each), and the threads that stay issue `BRA` (iterations 1…30): 2 + 31·5 + 30 = 187.
/// The bound with the observed loop count (31) is exactly the run.
#[test]
fn a_call_into_code_that_never_returns_is_a_branch() {
    let src = "code for sm_86
/*0000*/ S2R R0, SR_TID.X ;
/*0010*/ MOV R1, RZ ;
/*0020*/ IADD3 R1, R1, 0x1, RZ ;
/*0030*/ ISETP.GE.U32.AND P0, PT, R1, R0, PT ;
/*0040*/ @P0 CALL.REL.NOINC 0x70 ;
/*0050*/ BRA 0x20 ;
/*0060*/ EXIT ;
/*0070*/ IADD3 R2, R1, 0x2, RZ ;
/*0080*/ EXIT ;
";
    let mut req = Request::new(src, Dialect::Sass);
    req.mode = Some("warp-cfg".into());
    req.params
        .insert("loop_bounds".into(), serde_json::json!("observed"));
    let r = analyze(&req);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let sim = r.simulation.as_ref().expect("simulation");
    assert_eq!(sim.run.cycles, 187);
    assert_eq!(sim.loop_iterations[0].iterations, 31);
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(187));
    assert!(r.diagnostics.iter().any(|d| d.line == 6
        && d.message.contains("never returns")
        && d.message.contains("read as a branch to 0x0070")));
    // With a `RET` reachable from the target it stays a call.
    let returning = src.replace("/*0080*/ EXIT ;", "/*0080*/ RET.REL.NODEC R20 0x0 ;");
    let mut req = Request::new(&returning, Dialect::Sass);
    req.mode = Some("thread-cfg".into());
    let r = analyze(&req);
    assert!(!r
        .diagnostics
        .iter()
        .any(|d| d.message.contains("never returns")));
}
