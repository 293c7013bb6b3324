//! Active-mask spin loops (`cfg::spin`): nvcc's convergence wait at loop back edges on
//! sm_70/sm_75 leaves after one check when no other group of the warp can arrive, and stays
//! a loop needing a bound when one can. Bounds derived by hand.

#[path = "../../isa/tests/corpus_walk/mod.rs"]
mod corpus_walk;

use isa::Dialect;
use warpbound::{analyze, Report, Request};

fn run(src: &str, bounds: &[(&str, u64)], default: u64) -> Report {
    let mut req = Request::new(src, Dialect::Sass);
    req.mode = Some("warp-cfg".into());
    for (k, v) in bounds {
        req.loop_bounds.insert(k.to_string(), *v);
    }
    req.params
        .insert("default_loop_bound".into(), serde_json::json!(default));
    analyze(&req)
}

/// The loop: 0x10–0x20 header (3), 0x28–0x48 spin check (5), 0x50 `BRA spin` (1), 0x58
/// `EXIT`. The warp never diverges (the counter is uniform), so no group can arrive between
/// the two votes: the check always goes round (`@!P1 BRA.U head`, P1 = new ∧ ¬old = 0) and
/// 0x50 is never reached. Bound 8 at the header: 2 + 8 × 3 + 7 × 5 + 1 = 62, with no bound
/// needed for the spin (default 0 = every loop needs its own).
const SPIN: &str = "S2R R0, SR_TID.X ;
MOV R4, RZ ;
head:
IADD3 R4, R4, 0x1, RZ ;
ISETP.GE.AND P0, PT, R4, 0x8, PT ;
@P0 BRA out ;
spin:
VOTE.ANY R10, PT, PT ;
YIELD ;
VOTE.ANY R11, PT, PT ;
LOP3.LUT P1, RZ, R10, R11, RZ, 0xc, !PT ;
@!P1 BRA.U head ;
BRA spin ;
out:
EXIT ;";

#[test]
fn a_converged_warp_passes_the_spin_check_at_once() {
    let r = run(SPIN, &[("0x10", 8)], 0);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(62));
    let cfg = r.cfg.as_ref().expect("graph");
    assert!(
        !cfg.nodes
            .iter()
            .any(|n| n.kind == "block" && n.start == 0x50),
        "the spin's `BRA spin` is unreachable"
    );
}

/// Other tables that are 0 for equal masks decide the branch too: `0x30` (a ∧ ¬b) and `0x3c`
/// (a ⊕ b), both with bits 0 and 6 clear. `0x0f` (¬a: bit 0 set, bit 6 clear) depends on the
/// mask itself and leaves the branch open: then the spin is a loop and needs a bound.
#[test]
fn only_tables_that_ignore_the_mask_decide_the_branch() {
    let with = |lut: &str| SPIN.replace("0xc, !PT", &format!("{lut}, !PT"));
    for lut in ["0x30", "0x3c"] {
        let r = run(&with(lut), &[("0x10", 8)], 0);
        assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(62), "{lut}");
    }
    let r = run(&with("0x0f"), &[("0x10", 8)], 0);
    assert!(r.wcet.is_none());
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.message.contains("the loop at 0x0028 has no bound")),
        "{:?}",
        r.diagnostics
    );
}

/// A divergent branch before the loop with no reconvergence point leaves a path pending: that
/// group may reach the spin check while the other spins, so the check is open and the spin
/// is a loop of the warp-level CFG needing its own bound.
#[test]
fn a_pending_path_may_arrive_so_the_check_stays_open() {
    let src = SPIN.replace(
        "MOV R4, RZ ;",
        "MOV R4, RZ ;\nISETP.LT.AND P2, PT, R0, 0x4, PT ;\n@P2 BRA head ;\nIADD3 R5, R5, 0x1, RZ ;",
    );
    let r = run(&src, &[("0x20", 8)], 0);
    assert!(r.wcet.is_none());
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.message.contains("has no bound")),
        "{:?}",
        r.diagnostics
    );
}

/// Turing's form: the second mask through the uniform datapath (`VOTEU.ANY UR4, UPT, PT`).
#[test]
fn the_uniform_datapath_form_is_the_same_check() {
    let src = SPIN
        .replace("VOTE.ANY R11, PT, PT ;", "VOTEU.ANY UR4, UPT, PT ;")
        .replace("R10, R11, RZ", "R10, UR4, RZ");
    let r = run(&src, &[("0x10", 8)], 0);
    assert_eq!(
        r.wcet.as_ref().map(|w| w.cycles),
        Some(62),
        "{:?}",
        r.diagnostics
    );
}

/// The real listings: in `shfl_scan_test` the spin's `BRA spin` (0x0690 on sm_70, 0x0600 on
/// sm_75) is never reached by the converged warp, so the scan loop's bound no longer pays a
/// nested spin loop (sm_70 went from 1 048 to 400 cycles, sm_61: 246).
#[test]
fn the_spins_of_shfl_scan_on_volta_and_turing_pass_at_once() {
    for (arch, spin_back) in [("sm_70", 0x0690), ("sm_75", 0x0600)] {
        let src = corpus_walk::read(&format!(
            "sass-modern/{arch}/shfl_scan__shfl_scan_test.sass"
        ));
        let r = run(&src, &[], 10);
        assert!(!r.has_errors(), "{arch}: {:?}", r.diagnostics);
        let cfg = r.cfg.as_ref().expect("graph");
        let at_back: Vec<u64> = cfg
            .nodes
            .iter()
            .filter(|n| n.kind == "block" && n.start == spin_back)
            .map(|n| n.count.unwrap_or(0))
            .collect();
        assert!(
            at_back.iter().all(|&c| c == 0),
            "{arch}: `BRA spin` runs {at_back:?}"
        );
        let w = r.wcet.as_ref().map_or(u64::MAX, |w| w.cycles);
        assert!(w <= 2 * 246, "{arch}: {w}");
    }
}
