//! The `warp-cfg` mode on hand-written kernels: the exact divergence edges (by block address)
//! and the WCET under the unit cost model, both derived by hand in the comments.

use isa::Dialect;
use std::collections::BTreeSet;
use warpbound::{analyze, Report, Request};

fn run_with(src: &str, bounds: &[(&str, u64)], params: &[(&str, serde_json::Value)]) -> Report {
    let mut req = Request::new(src, Dialect::Sass);
    req.mode = Some("warp-cfg".into());
    for (k, v) in bounds {
        req.loop_bounds.insert(k.to_string(), *v);
    }
    for (k, v) in params {
        req.params.insert(k.to_string(), v.clone());
    }
    let r = analyze(&req);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    r
}

fn run(src: &str) -> Report {
    run_with(src, &[], &[])
}

fn wcet(r: &Report) -> u64 {
    r.wcet.as_ref().expect("a WCET").cycles
}

/// Edges of `kind` as (from block address, to block address), exit edges excluded.
fn edges(r: &Report, kind: &str) -> BTreeSet<(u64, u64)> {
    let cfg = r.cfg.as_ref().expect("cfg");
    cfg.edges
        .iter()
        .filter(|e| e.kind == kind && cfg.nodes[e.to].kind == "block")
        .map(|e| (cfg.nodes[e.from].start, cfg.nodes[e.to].start))
        .collect()
}

fn set(v: &[(u64, u64)]) -> BTreeSet<(u64, u64)> {
    v.iter().copied().collect()
}

/// Figure 1 of the paper in SASS: if-then-else on the thread index (the page's gallery
/// example). Blocks B0 0x00–0x18 (4), B1 0x20–0x28 (2), B2 0x30–0x38 (2), B3 0x40–0x48 (2).
/// Divergent: B0, B2 with the not-taken group pending, B1 reactivated, B3: 4+2+2+2 = 10.
const ITE_TID: &str = include_str!("../../../www/examples/fig1-if-then-else.sass");

#[test]
fn if_then_else_on_the_thread_index_diverges() {
    let r = run(ITE_TID);
    assert_eq!(edges(&r, "divergence"), set(&[(0x00, 0x30), (0x30, 0x20)]));
    assert_eq!(
        edges(&r, "reconvergence"),
        set(&[(0x20, 0x40), (0x30, 0x40)])
    );
    assert_eq!(wcet(&r), 10);
}

#[test]
fn if_then_else_on_a_uniform_value_does_not() {
    // Same code, condition on the block index: the warp takes one side; 4+2+2 = 8.
    let r = run(&ITE_TID.replace("SR_TID.X", "SR_CTAID.X"));
    assert_eq!(edges(&r, "divergence"), set(&[]));
    assert_eq!(wcet(&r), 8);
    // A constant-bank operand is uniform too.
    let r = run(&ITE_TID.replace("R0, 0x10, PT", "RZ, c[0x0][0x140], PT"));
    assert_eq!(edges(&r, "divergence"), set(&[]));
}

#[test]
fn then_only_with_a_predicated_sync() {
    // B0 0x00–0x18 (4), B1 0x20–0x28 (2), B2 0x30 (1). Threads with P0 SYNC at once; the
    // others run B1 (a divergence edge), then all reconverge at 0x30: 4+2+1 = 7.
    let src = "
/*0000*/ S2R R0, SR_TID.X ;
/*0008*/ ISETP.GE.AND P0, PT, R0, 0x10, PT ;
/*0010*/ SSY 0x30 ;
/*0018*/ @P0 SYNC ;
/*0020*/ IADD R1, R0, 0x1 ;
/*0028*/ SYNC ;
/*0030*/ EXIT ;
";
    let r = run(src);
    assert_eq!(edges(&r, "divergence"), set(&[(0x00, 0x20)]));
    assert_eq!(
        edges(&r, "reconvergence"),
        set(&[(0x00, 0x30), (0x20, 0x30)])
    );
    assert_eq!(wcet(&r), 7);
}

/// R1 is uniform (block index), updated by only the not-taken threads of the first if,
/// then branched on. Blocks: B0 0x00–0x20 (5), B1 0x28 (1), B2 0x30 (1), B3 0x38–0x48 (3),
/// B4 0x50 (1), B5 0x58 (1), B6 0x60 (1).
const WEAK_UPDATE: &str = "
/*0000*/ S2R R0, SR_TID.X ;
/*0008*/ S2R R1, SR_CTAID.X ;
/*0010*/ ISETP.GE.AND P0, PT, R0, 0x10, PT ;
/*0018*/ SSY 0x38 ;
/*0020*/ @P0 BRA 0x30 ;
/*0028*/ IADD R1, R1, 0x1 ;
/*0030*/ SYNC ;
/*0038*/ ISETP.EQ.AND P1, PT, R1, 0x5, PT ;
/*0040*/ SSY 0x60 ;
/*0048*/ @P1 BRA 0x58 ;
/*0050*/ IADD R2, R2, 0x1 ;
/*0058*/ SYNC ;
/*0060*/ EXIT ;
";

#[test]
fn a_register_written_in_a_divergent_region_loses_agreement() {
    // The pending SYNC group gets a weak update of R1, so P1 may disagree after
    // reconvergence: 5+1+1+1 (first if, divergent) + 3+1+1+1+1 (second if, divergent) = 15.
    let r = run(WEAK_UPDATE);
    assert_eq!(
        edges(&r, "divergence"),
        set(&[(0x00, 0x30), (0x30, 0x28), (0x38, 0x58), (0x58, 0x50)])
    );
    assert_eq!(wcet(&r), 15);
    // Writing another register keeps R1 agreed: the second if cannot diverge, and its worst
    // side is 3+1+1+1 = 6 after the first if's 8: 14.
    let r = run(&WEAK_UPDATE.replace("IADD R1, R1, 0x1", "IADD R3, R3, 0x1"));
    assert_eq!(edges(&r, "divergence"), set(&[(0x00, 0x30), (0x30, 0x28)]));
    assert_eq!(wcet(&r), 14);
}

#[test]
fn uniform_loop_with_a_divergent_body() {
    // Header B1 0x18–0x20 (2); per iteration B1 + B3' (1) + B2 (1) + B3 (1) + B4 0x38–0x48
    // (3) = 8. With the header bound 4: B0 (3) + 4·8 + B5 (1) = 36.
    let src = "
/*0000*/ S2R R0, SR_TID.X ;
/*0008*/ MOV R1, RZ ;
/*0010*/ ISETP.GE.AND P0, PT, R0, 0x10, PT ;
/*0018*/ SSY 0x38 ;
/*0020*/ @P0 BRA 0x30 ;
/*0028*/ IADD R2, R2, 0x1 ;
/*0030*/ SYNC ;
/*0038*/ IADD R1, R1, 0x1 ;
/*0040*/ ISETP.LT.AND P1, PT, R1, c[0x0][0x140], PT ;
/*0048*/ @P1 BRA 0x18 ;
/*0050*/ EXIT ;
";
    let r = run_with(src, &[("0x18", 4)], &[]);
    assert_eq!(edges(&r, "divergence"), set(&[(0x18, 0x30), (0x30, 0x28)]));
    assert_eq!(wcet(&r), 36);
    let d = r.warp_cfg().expect("details");
    assert_eq!(d.loops.len(), 1);
    assert_eq!((d.loops[0].address, d.loops[0].bound), (0x18, 4));
    assert_eq!(d.loops[0].bound_from, "given");
    // Without a request the code's bound applies: R1 += 1 from 0 while R1 + 1 < the
    // parameter c[0x0][0x140], 64 in the automatic launch: 3 + 64·8 + 1 = 516.
    let r = run(src);
    assert_eq!(wcet(&r), 516);
    assert_eq!(r.loop_bounds[0].bound_from, "inferred");
}

#[test]
fn pbk_brk_loop_with_a_divergent_break() {
    // B0 0x00–0x10 (3), header B1 0x18–0x28 (3), B2 0x30 (1), B4 0x40 (1); the NOP at 0x38
    // is unreachable. Bound 5: 3 + 5·3 + 4·1 + 1 = 23.
    let src = "
/*0000*/ S2R R0, SR_TID.X ;
/*0008*/ MOV R1, RZ ;
/*0010*/ PBK 0x40 ;
/*0018*/ IADD R1, R1, 0x1 ;
/*0020*/ ISETP.GT.AND P0, PT, R1, R0, PT ;
/*0028*/ @P0 BRK ;
/*0030*/ BRA 0x18 ;
/*0038*/ NOP ;
/*0040*/ EXIT ;
";
    let r = run_with(src, &[("0x18", 5)], &[]);
    assert_eq!(edges(&r, "divergence"), set(&[(0x18, 0x30)]));
    assert_eq!(edges(&r, "reconvergence"), set(&[(0x18, 0x40)]));
    assert_eq!(wcet(&r), 23);
    let cfg = r.cfg.as_ref().expect("cfg");
    assert!(!cfg
        .nodes
        .iter()
        .any(|n| n.start == 0x38 && n.kind == "block"));
}

#[test]
fn exit_inside_a_divergent_region() {
    // B0 0x00–0x18 (4), B1 0x20 EXIT (1), B2 0x28 SYNC (1), B3 0x30–0x38 (2). When the
    // taken side syncs first, the exiting threads run after it; if any taken thread waits,
    // the warp continues to B3 after them: 4 + 1 + 1 + 2 = 8.
    let src = "
/*0000*/ S2R R0, SR_TID.X ;
/*0008*/ ISETP.GE.AND P0, PT, R0, 0x10, PT ;
/*0010*/ SSY 0x30 ;
/*0018*/ @P0 BRA 0x28 ;
/*0020*/ EXIT ;
/*0028*/ SYNC ;
/*0030*/ ST [R2], R0 ;
/*0038*/ EXIT ;
";
    let r = run(src);
    assert_eq!(edges(&r, "divergence"), set(&[(0x00, 0x28), (0x28, 0x20)]));
    assert_eq!(
        edges(&r, "reconvergence"),
        set(&[(0x20, 0x30), (0x28, 0x30)])
    );
    assert_eq!(wcet(&r), 8);
}

#[test]
fn subroutine_called_from_two_sites_is_analysed_per_call_site() {
    // B0 0x00–0x08 (2) -> sub (2) -> B1 0x10–0x18 (2) -> sub (2) -> B2 0x20–0x28 (2) = 10;
    // the subroutine's block appears once per call site (two contexts).
    let src = "
        S2R R1, SR_TID.X ;
        CAL sub ;
        IADD R3, R2, 0x1 ;
        CAL sub ;
        ST [R4], R2 ;
        EXIT ;
sub:
        IMUL R2, R1, R1 ;
        RET ;
";
    let r = run(src);
    assert_eq!(edges(&r, "divergence"), set(&[]));
    assert_eq!(edges(&r, "call"), set(&[(0x00, 0x30), (0x10, 0x30)]));
    assert_eq!(edges(&r, "return"), set(&[(0x30, 0x10), (0x30, 0x20)]));
    let cfg = r.cfg.as_ref().expect("cfg");
    assert_eq!(cfg.nodes.iter().filter(|n| n.start == 0x30).count(), 2);
    assert_eq!(wcet(&r), 10);
}

#[test]
fn a_loop_without_bound_or_default_is_an_error_naming_its_header() {
    let src = "
/*0000*/ MOV R1, RZ ;
/*0008*/ IADD R1, R1, 0x1 ;
/*0010*/ ISETP.LT.AND P0, PT, R1, c[0x3][0x8], PT ;
/*0018*/ @P0 BRA 0x8 ;
/*0020*/ EXIT ;
";
    // The limit is a word of the compiler's constant bank 3, which the launch does not give:
    // the code gives no bound (the warp still agrees on it: a constant).
    let mut req = Request::new(src, Dialect::Sass);
    req.mode = Some("warp-cfg".into());
    req.params
        .insert("default_loop_bound".into(), serde_json::json!(0));
    let r = analyze(&req);
    assert!(r.wcet.is_none());
    let err = r.diagnostics.iter().find(|d| d.is_error()).expect("error");
    assert!(err.message.contains("0x0008"), "{}", err.message);
    // With a bound for that header: MOV (1) + 3·3 + EXIT (1) = 11.
    req.loop_bounds.insert("0x8".into(), 3);
    assert_eq!(wcet(&analyze(&req)), 11);
}

/// Figure 1 under the `pascal-gp102` preset (cost=latency, drained blocks; see
/// `cfg::latency`). ALU 6, control 1, global 302:
/// - B0: S2R issues 0 → 6; ISETP reads R0: 6 → 12; SSY 7 → 8; `@P0 BRA` reads P0: 12 → 13.
///   Drained: 13.
/// - B1, B2: IADD 0 → 6; SYNC 1 → 2. Drained: 6 each.
/// - B3: ST issues 0 → 302; EXIT 1 → 2. Drained: 302.
///
/// Divergent warp: 13 + 6 + 6 + 302 = 327; uniform condition: 13 + 6 + 302 = 321.
#[test]
fn figure1_under_pascal_latencies() {
    let mut req = Request::new(ITE_TID, Dialect::Sass);
    req.mode = Some("warp-cfg".into());
    req.preset = Some("pascal-gp102".into());
    let r = analyze(&req);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    assert_eq!(wcet(&r), 327);
    assert_eq!(
        r.wcet.as_ref().map(|w| w.cost_model.as_str()),
        Some("latency")
    );
    let costs: Vec<u64> = r
        .cfg
        .as_ref()
        .expect("cfg")
        .nodes
        .iter()
        .filter(|n| n.kind == "block")
        .map(|n| n.cost.unwrap_or(0))
        .collect();
    assert_eq!(costs.iter().copied().max(), Some(302));
    assert!(costs.contains(&13));

    req.source = ITE_TID.replace("SR_TID.X", "SR_CTAID.X");
    assert_eq!(wcet(&analyze(&req)), 321);

    // The request's own parameters win over the preset's: global 100 → 13 + 6 + 6 + 100.
    req.source = ITE_TID.to_string();
    req.params
        .insert("latency_global".into(), serde_json::json!(100));
    assert_eq!(wcet(&analyze(&req)), 125);
}

#[test]
fn latency_model_from_parameters_alone() {
    // `cost=latency` without a preset uses the catalogue defaults, which are the Pascal table.
    let r = run_with(ITE_TID, &[], &[("cost", serde_json::json!("latency"))]);
    assert_eq!(wcet(&r), 327);
}

/// Each post-Pascal latency preset on the matrixMul kernel compiled for its architecture (shared
/// corpus, `sass-modern`): the bound exists, and it is at least the unit-cost bound of the same
/// file (every latency is at least 1 cycle, so the latency model can only cost more).
#[test]
fn architecture_presets_bound_matrix_mul_of_their_architecture() {
    let corpus = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/sass-modern");
    for (preset, sm) in [
        ("volta-qv100", "sm_70"),
        ("turing-rtx2060", "sm_75"),
        ("ampere-rtx3070", "sm_86"),
        ("hopper-h100", "sm_90"),
    ] {
        let path = corpus.join(sm).join("matrixMul__MatrixMulCUDA_32.sass");
        let src =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let unit = wcet(&run(&src));
        let mut req = Request::new(&src, Dialect::Sass);
        req.mode = Some("warp-cfg".into());
        req.preset = Some(preset.into());
        let r = analyze(&req);
        assert!(!r.has_errors(), "{preset}: {:?}", r.diagnostics);
        let w = r
            .wcet
            .as_ref()
            .unwrap_or_else(|| panic!("{preset}: no WCET"));
        assert_eq!(w.cost_model, "latency", "{preset}");
        assert!(
            w.cycles >= unit,
            "{preset} on {sm}: {} < unit {unit}",
            w.cycles
        );
    }
}

/// A Fermi–Pascal condition-code branch (`@P0 BRA CC.NEU, L1`, as in eigenvalues'
/// bisectKernel on sm_61) branches in the threads whose guard holds *and* whose own CC
/// flags pass the test. The CC here comes from the thread index, so the warp splits even
/// though the guard (the block index) is uniform: both sides run, 6 + 2 + 2 + 1 = 11
/// instructions under unit cost. Read by the guard alone the branch never diverged and the
/// bound was 9, below that execution; unguarded, it was read as unconditional.
#[test]
fn a_condition_code_branch_may_split_the_warp() {
    for guard in ["@P0 ", ""] {
        let src = format!(
            "S2R R0, SR_TID.X ;\nS2R R1, SR_CTAID.X ;\nISET.NE.AND RZ.CC, R0, 0x5, PT ;\n\
             ISETP.EQ.AND P0, PT, R1, RZ, PT ;\nSSY L2 ;\n{guard}BRA CC.NEU, L1 ;\n\
             IADD R2, R2, 0x1 ;\nSYNC ;\nL1:\nIADD R3, R3, 0x1 ;\nSYNC ;\nL2:\nEXIT ;"
        );
        let mut req = warpbound::Request::new(&src, isa::Dialect::Sass);
        req.mode = Some("warp-cfg".into());
        let r = warpbound::analyze(&req);
        let wcet = r.wcet.as_ref().expect("a bound").cycles;
        let details = r.warp_cfg().expect("details");
        assert_eq!(wcet, 11, "guard `{guard}`: {:?}", r.diagnostics);
        assert!(details.divergence_edges > 0, "guard `{guard}`");
    }
}
