//! `@!P0 BRA P1, target` is taken only by the threads where the guard and `P1` both hold
//! (nvcc's form of `while (a && b)`): the simulator, the thread CFG and the warp-level CFG all
//! read the second predicate. Values by hand in the comments.

use isa::Dialect;
use warpbound::{analyze, Report, Request};

fn run(src: &str, mode: &str) -> Report {
    let mut req = Request::new(src, Dialect::Sass);
    req.mode = Some(mode.into());
    req.params
        .insert("simulate".into(), serde_json::json!(true));
    let r = analyze(&req);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    r
}

/// The guard `!P0` holds in every thread (0 ≥ 1 is false), `P1` (tid ≥ 16) in threads
/// 16–31 only: they branch to `EXIT`; threads 0–15 run the two `IADD3`s. Unit cost: three
/// instructions, the branch, `EXIT` of the branching half, two `IADD3` and `EXIT` of the
/// other: 8 cycles, and the bound is 8. Reading the guard alone (a uniform branch) gave a
/// bound of 7 and a run of 5.
#[test]
fn a_branch_with_a_predicate_operand_diverges_on_it() {
    let src = "code for sm_86
/*0000*/ S2R R0, SR_TID.X ;
/*0010*/ ISETP.GE.AND P0, PT, RZ, 0x1, PT ;
/*0020*/ ISETP.GE.AND P1, PT, R0, 0x10, PT ;
/*0030*/ @!P0 BRA P1, 0x60 ;
/*0040*/ IADD3 R1, R0, 0x1, RZ ;
/*0050*/ IADD3 R1, R1, 0x1, RZ ;
/*0060*/ EXIT ;
";
    let r = run(src, "warp-cfg");
    let sim = r.simulation.as_ref().expect("simulation");
    assert_eq!(sim.run.cycles, 8);
    let branch = &sim.run.warps[0].issues[3];
    assert_eq!(branch.index, 3);
    assert_eq!(branch.executed.bits.count_ones(), 16);
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(8));
    assert_eq!(sim.holds, Some(true));
    // `!P1`: the other half branches; the same costs.
    let negated = src.replace("BRA P1, 0x60", "BRA !P1, 0x60");
    let r = run(&negated, "warp-cfg");
    let sim = r.simulation.as_ref().expect("simulation");
    assert_eq!(sim.run.warps[0].issues[3].executed.bits, 0xffff);
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(8));
}
