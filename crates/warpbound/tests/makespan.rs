//! The `makespan` mode through the facade: the paper's settings with hand-derived numbers.

use isa::Dialect;
use warpbound::{analyze, Report, Request};

fn run(
    src: &str,
    dialect: Dialect,
    params: &[(&str, serde_json::Value)],
    preset: Option<&str>,
) -> Report {
    let mut req = Request::new(src, dialect);
    req.mode = Some("makespan".into());
    req.preset = preset.map(str::to_string);
    for (k, v) in params {
        req.params.insert(k.to_string(), v.clone());
    }
    let r = analyze(&req);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    r
}

#[test]
fn fig2_four_warps_on_llc() {
    // σL = σC = 1 (32 units of each kind for warps of 32). Pessimistic (Eq. 5–7):
    // ⌈4/1⌉·2 + ⌈4/1⌉·1 = 12. Exact: the load/store lane must run 8 L-instructions one per
    // cycle, and the last warp's C can only follow its own last L, so at least 9 cycles; a
    // work-conserving scheduler cannot be forced to idle the L lane while an L is pending,
    // so 9 is also the worst case.
    let src = "kernel LLC\nwarp_number 4\nls_unit_number 32\ncuda_core_number 32\nwarp_size 32\n";
    let r = run(src, Dialect::Lc, &[], None);
    let m = r.makespan.as_ref().expect("makespan");
    assert_eq!(
        (m.transformed.as_str(), m.sigma_l, m.sigma_c),
        ("LLC", 1, 1)
    );
    assert_eq!(m.pessimistic, 12);
    assert_eq!(m.exact, Some(9));
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(9));
    // The witness: 12 boxes (4 warps × 3 instructions), the last one in the last cycle.
    let s = r.schedule.as_ref().expect("schedule");
    assert_eq!(s.items.len(), 12);
    assert_eq!(s.lanes, vec!["L0", "C0"]);
    assert_eq!(s.cycles, 9);
}

#[test]
fn fig6_and_fig7_pessimistic_bounds_and_the_estimate() {
    let fig6 =
        "kernel LLCLL\nwarp_number 600\nls_unit_number 32\ncuda_core_number 32\nwarp_size 32\n";
    let r = run(
        fig6,
        Dialect::Lc,
        &[
            ("exact", serde_json::json!(false)),
            ("estimate_x", serde_json::json!(4)),
        ],
        None,
    );
    let m = r.makespan.as_ref().expect("makespan");
    assert_eq!(m.pessimistic, 3000);
    let est = m.estimate.as_ref().expect("estimate");
    assert!(est.value <= 3000);
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(3000));
    // The convergence plot: T(W, x) never increases with x, never above the bound.
    let curve = &r.plots[0].series[0].points;
    assert!(curve.windows(2).all(|w| w[1][1] <= w[0][1]));
    assert!(curve.iter().all(|p| p[1] <= 3000.0));

    // Fig. 7 on Fermi cc 2.0 from the preset: "LCLCL" → "LLCLLCLL", bound 420·6 + 420·2.
    let r = run(
        "LCLCL",
        Dialect::Lc,
        &[
            ("warps", serde_json::json!(420)),
            ("exact", serde_json::json!(false)),
        ],
        Some("fermi-cc2.0"),
    );
    let m = r.makespan.as_ref().expect("makespan");
    assert_eq!(m.transformed, "LLCLLCLL");
    assert_eq!(m.pessimistic, 3360);
}

#[test]
fn sass_is_reduced_along_its_straight_line_path() {
    // S2R (C), LDG (L), IADD (C), STG (L), EXIT (C): "CLCLC".
    let src = "/*0000*/ S2R R0, SR_TID.X ;\n/*0008*/ LDG.E R1, [R2] ;\n/*0010*/ IADD R1, R1, R0 ;\n/*0018*/ STG.E [R2], R1 ;\n/*0020*/ EXIT ;\n";
    let r = run(
        src,
        Dialect::Sass,
        &[("warps", serde_json::json!(2))],
        Some("fermi-cc2.0"),
    );
    let m = r.makespan.as_ref().expect("makespan");
    assert_eq!(m.original, "CLCLC");
    assert_eq!(m.mapping.len(), 5);
    assert_eq!(m.mapping[1].unit, "L");
}

#[test]
fn ilp_and_search_agree_through_the_facade() {
    let src = "kernel LLC\nwarp_number 2\nls_unit_number 32\ncuda_core_number 32\nwarp_size 32\n";
    let search = run(src, Dialect::Lc, &[], None);
    assert!(search
        .makespan
        .as_ref()
        .is_some_and(|m| m.ilp_solve.is_none()));
    for solver in ["propagation", "lp"] {
        for method in ["ilp-short", "ilp-long"] {
            let ilp = run(
                src,
                Dialect::Lc,
                &[
                    ("method", serde_json::json!(method)),
                    ("ilp_solver", serde_json::json!(solver)),
                ],
                None,
            );
            let m = ilp.makespan.as_ref().expect("makespan");
            assert_eq!(
                m.exact,
                search.makespan.as_ref().and_then(|m| m.exact),
                "{method} {solver}"
            );
            let stats = m.ilp_solve.as_ref().expect("solver statistics");
            let want = if solver == "lp" {
                makespan::IlpSolver::LpBranchAndBound
            } else {
                makespan::IlpSolver::Propagation
            };
            assert_eq!(stats.solver, want);
            assert!(stats.nodes >= 1 && stats.variables > 0 && stats.lp_bound.is_some());
        }
    }
}

#[test]
fn fig2_setting_by_the_ilp_through_the_facade() {
    // Fermi cc 2.0 (16 load/store units, 32 cores, 32-thread warps): "LC" becomes "LLC"
    // (§3), and 4 warps take at most 9 cycles (hand derivation in makespan's tests/ilp.rs).
    let src = "kernel LC\nwarp_number 4\nls_unit_number 16\ncuda_core_number 32\nwarp_size 32\n";
    let r = run(
        src,
        Dialect::Lc,
        &[("method", serde_json::json!("ilp-short"))],
        None,
    );
    let m = r.makespan.as_ref().expect("makespan");
    assert_eq!(m.transformed, "LLC");
    assert_eq!((m.exact, m.pessimistic), (Some(9), 12));
    assert_eq!(m.ilp_solve.as_ref().and_then(|s| s.lp_bound), Some(12.0));
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(9));
}
