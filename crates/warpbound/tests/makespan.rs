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
    let src = include_str!("../../../www/examples/makespan-fig2.lc");
    let r = run(src, Dialect::Lc, &[], None);
    let m = r.makespan().expect("makespan");
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
    let fig6 = include_str!("../../../www/examples/makespan-fig6.lc");
    let r = run(
        fig6,
        Dialect::Lc,
        &[
            ("exact", serde_json::json!(false)),
            ("estimate_x", serde_json::json!(4)),
        ],
        None,
    );
    let m = r.makespan().expect("makespan");
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
    let m = r.makespan().expect("makespan");
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
    let m = r.makespan().expect("makespan");
    assert_eq!(m.original, "CLCLC");
    assert_eq!(m.mapping.len(), 5);
    assert_eq!(m.mapping[1].unit, "L");
}

#[test]
fn ilp_and_search_agree_through_the_facade() {
    let src = "kernel LLC\nwarp_number 2\nls_unit_number 32\ncuda_core_number 32\nwarp_size 32\n";
    let search = run(src, Dialect::Lc, &[], None);
    assert!(search.makespan().is_some_and(|m| m.ilp_solve.is_none()));
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
            let m = ilp.makespan().expect("makespan");
            assert_eq!(
                m.exact,
                search.makespan().and_then(|m| m.exact),
                "{method} {solver}"
            );
            let stats = m.ilp_solve.as_ref().expect("solver statistics");
            let want = if solver == "lp" {
                "lp-branch-and-bound"
            } else {
                "propagation"
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
    let m = r.makespan().expect("makespan");
    assert_eq!(m.transformed, "LLC");
    assert_eq!((m.exact, m.pessimistic), (Some(9), 12));
    assert_eq!(m.ilp_solve.as_ref().and_then(|s| s.lp_bound), Some(12.0));
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(9));
}

// ---------------------------------------------------------------------------------------------
// PTX, GCN3 and Sim-D kernels reduced to L/C strings along their straight-line path
// (memory accesses → L, everything else → C; see the facade's `lc_reduction` module).

fn corpus(rel: &str) -> String {
    let p = std::env::var_os("WARPBOUND_CORPUS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
        })
        .join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A makespan request for a kernel, `function` selecting one of several.
fn kernel(src: &str, dialect: Dialect, function: Option<&str>, warps: u32) -> Report {
    let mut req = Request::new(src, dialect);
    req.mode = Some("makespan".into());
    req.function = function.map(str::to_string);
    req.params.insert("warps".into(), serde_json::json!(warps));
    analyze(&req)
}

/// The reduced string, the mapping's lines and addresses, after checking the report is clean
/// and every mapped letter agrees with the string.
fn reduced(r: &Report) -> (String, Vec<u32>, Vec<u64>) {
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let m = r.makespan().expect("makespan");
    let letters: String = m.mapping.iter().map(|x| x.unit.as_str()).collect();
    assert_eq!(letters, m.original);
    (
        m.original.clone(),
        m.mapping.iter().map(|x| x.line).collect(),
        m.mapping.iter().map(|x| x.address).collect(),
    )
}

/// The report's exact makespan is `wcet.cycles`, and it is what the same L/C string gives
/// when written directly (dialect `lc`) with the same parameters.
fn exact_matches_the_lc_string(r: &Report, warps: u32) -> u64 {
    let m = r.makespan().expect("makespan");
    let exact = m.exact.expect("an exact makespan");
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(exact));
    let direct = run(
        &m.original,
        Dialect::Lc,
        &[("warps", serde_json::json!(warps))],
        None,
    );
    assert_eq!(direct.makespan().and_then(|d| d.exact), Some(exact));
    exact
}

/// An error diagnostic on `line`, and no result.
fn fails_on_line(r: &Report, line: u32) {
    assert!(r.makespan().is_none() && r.wcet.is_none());
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.is_error() && d.line == line && d.column >= 1),
        "{:?}",
        r.diagnostics
    );
}

fn fails_with(r: &Report, message: &str) {
    assert!(r.makespan().is_none() && r.wcet.is_none());
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.is_error() && d.message.contains(message)),
        "{:?}",
        r.diagnostics
    );
}

#[test]
fn the_mode_accepts_every_kernel_dialect() {
    let cat = warpbound::catalog();
    let mode = cat.mode("makespan").expect("makespan mode");
    for d in ["lc", "sass", "ptx", "gcn", "simd"] {
        assert!(mode.dialects.iter().any(|x| x == d), "{d}");
    }
}

/// Two kernels in one module: `straight` (the first `.entry`, chosen by default) and
/// `branchy` (chosen by name).
const PTX: &str = "\
.version 7.0
.target sm_52
.address_size 64
.visible .entry straight(
.param .u64 straight_param_0
)
{
.reg .b32 %r<4>;
.reg .b64 %rd<4>;
ld.param.u64 %rd1, [straight_param_0];
cvta.to.global.u64 %rd2, %rd1;
mov.u32 %r1, %tid.x;
mul.wide.u32 %rd3, %r1, 4;
add.s64 %rd2, %rd2, %rd3;
ld.global.u32 %r2, [%rd2];
add.s32 %r3, %r2, %r1;
st.global.u32 [%rd2], %r3;
ret;
}
.visible .entry branchy(
.param .u64 branchy_param_0
)
{
.reg .pred %p<3>;
.reg .b32 %r<3>;
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [branchy_param_0];
mov.u32 %r1, %tid.x;
setp.eq.s32 %p1, %r1, 0;
@%p1 bra $SKIP;
ld.global.u32 %r2, [%rd1];
bra.uni $TOP;
$SKIP:
st.global.u32 [%rd1], %r1;
$TOP:
add.s32 %r2, %r2, 1;
setp.gt.s32 %p2, %r2, 9;
@%p2 bra $DONE;
st.shared.u32 [%rd1], %r2;
bra.uni $TOP;
$DONE:
ret;
}
";

#[test]
fn ptx_straight_line_kernel() {
    // Lines 10–18: ld.param (L: the .param state space), cvta, mov, mul.wide, add (C C C C),
    // ld.global (L), add (C), st.global (L), ret (C): "LCCCCLCLC".
    let r = kernel(PTX, Dialect::Ptx, None, 2);
    let (s, lines, addresses) = reduced(&r);
    assert_eq!(s, "LCCCCLCLC");
    assert_eq!(lines, (10..=18).collect::<Vec<u32>>());
    // GPGPU-Sim's program counters: 8 bytes per instruction.
    assert_eq!(addresses, (0..9).map(|i| 8 * i).collect::<Vec<u64>>());
    let m = r.makespan().expect("makespan");
    assert_eq!(m.mapping[5].text, "ld.global.u32 %r2, [%rd2]");
    exact_matches_the_lc_string(&r, 2);
}

#[test]
fn ptx_branches_and_a_loop() {
    // ld.param (L, line 27), mov, setp (C C), `@%p1 bra $SKIP` (C, predicated: falls through),
    // ld.global (L), `bra.uni $TOP` (C, unconditional: jumps over the st.global at line 34),
    // add, setp (C C, lines 36–37), `@%p2 bra $DONE` (C, falls through), st.shared (L),
    // `bra.uni $TOP` (C; $TOP was visited: the loop ends the path, `ret` is not reached).
    let r = kernel(PTX, Dialect::Ptx, Some("branchy"), 2);
    // The instruction table names the chosen kernel and the others (the page's selector).
    let k = r.kernel.as_ref().expect("kernel view");
    assert_eq!(k.function, "branchy");
    assert_eq!(k.functions, vec!["straight", "branchy"]);
    let (s, lines, addresses) = reduced(&r);
    assert_eq!(s, "LCCCLCCCCLC");
    assert_eq!(lines, vec![27, 28, 29, 30, 31, 32, 36, 37, 38, 39, 40]);
    let indices = [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11];
    assert_eq!(
        addresses,
        indices.iter().map(|i| 8 * i).collect::<Vec<u64>>()
    );
    exact_matches_the_lc_string(&r, 2);
}

#[test]
fn ptx_corpus_kernel_cbrt() {
    // cbrt(double): ld.param (L), cvta/mov/mul.wide/add (C×4), ld.global (L), seven C up to
    // the predicated `@%p3 bra` at line 36 (fall through), `bra.uni $L__BB0_1` (C) to
    // line 118's add.f64 (C), st.global (L), ret (C).
    let r = kernel(
        &corpus("ptx/celer_pow_cbrt___Z7cu_cbrtPd.ptx"),
        Dialect::Ptx,
        None,
        2,
    );
    let (s, lines, _) = reduced(&r);
    assert_eq!(s, "LCCCCLCCCCCCCCCLC");
    assert_eq!(
        lines,
        vec![18, 19, 20, 21, 22, 23, 26, 30, 32, 33, 34, 35, 36, 37, 118, 121, 122]
    );
    exact_matches_the_lc_string(&r, 2);
}

#[test]
fn ptx_errors_are_located() {
    // A missing `;` (line 3) and a branch to an unknown label (line 4).
    let r = kernel(
        ".entry k()\n{\nadd.s32 %r1, %r2\nbra NOWHERE;\nret;\n}\n",
        Dialect::Ptx,
        None,
        2,
    );
    fails_on_line(&r, 3);
    fails_on_line(&r, 4);
    fails_with(
        &kernel(".entry k()\n{\n}\n", Dialect::Ptx, None, 2),
        "no instructions on the straight-line path",
    );
    fails_with(
        &kernel(PTX, Dialect::Ptx, Some("nope"), 2),
        "no kernel `nope`",
    );
}

const GCN_STRAIGHT: &str = "\
k:
  s_load_dwordx2 s[0:1], s[4:5], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  flat_load_dword v2, v[2:3]
  s_waitcnt vmcnt(0)
  v_add_f32_e32 v2, 1.0, v2
  ds_write_b32 v1, v2
  flat_store_dword v[2:3], v2
  s_endpgm
";

const GCN_BRANCHY: &str = "\
k:
  s_load_dword s0, s[4:5], 0x0
  s_waitcnt lgkmcnt(0)
  s_cmp_eq_u32 s0, 0
  s_cbranch_scc1 BB0_2
  v_cmp_gt_u32_e32 vcc, 32, v0
  s_and_saveexec_b64 s[2:3], vcc
  s_cbranch_execz BB0_3
  s_branch BB0_1
BB0_2:
  ds_read_b32 v1, v0
BB0_1:
  flat_load_dword v1, v[2:3]
  v_add_u32_e32 v1, vcc, 1, v1
  s_sub_u32 s0, s0, 1
  s_cmp_lg_u32 s0, 0
  s_cbranch_scc0 BB0_3
  s_branch BB0_1
BB0_3:
  s_or_b64 exec, exec, s[2:3]
  s_endpgm
";

#[test]
fn gcn_straight_line_kernel() {
    // s_load (L, scalar memory), v_lshlrev, s_waitcnt (C C), flat_load (L, vector memory),
    // s_waitcnt, v_add (C C), ds_write (L, LDS), flat_store (L), s_endpgm (C): "LCCLCCLLC".
    let r = kernel(GCN_STRAIGHT, Dialect::Gcn, None, 2);
    let (s, lines, addresses) = reduced(&r);
    assert_eq!(s, "LCCLCCLLC");
    assert_eq!(lines, (2..=10).collect::<Vec<u32>>());
    // Instruction indices within the function.
    assert_eq!(addresses, (0..9).collect::<Vec<u64>>());
    exact_matches_the_lc_string(&r, 2);
}

#[test]
fn gcn_branches_and_a_loop() {
    // s_load (L), s_waitcnt, s_cmp (C C), s_cbranch_scc1 (C, falls through), v_cmp,
    // s_and_saveexec (C C), s_cbranch_execz (C, falls through), s_branch BB0_1 (C, jumps over
    // the ds_read at line 11), flat_load (L, line 13), v_add, s_sub, s_cmp (C C C),
    // s_cbranch_scc0 (C, falls through), s_branch BB0_1 (C; visited: the loop ends the path).
    let r = kernel(GCN_BRANCHY, Dialect::Gcn, None, 2);
    let (s, lines, addresses) = reduced(&r);
    assert_eq!(s, "LCCCCCCCLCCCCC");
    assert_eq!(lines, vec![2, 3, 4, 5, 6, 7, 8, 9, 13, 14, 15, 16, 17, 18]);
    assert_eq!(
        addresses,
        vec![0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14]
    );
    exact_matches_the_lc_string(&r, 2);
}

#[test]
fn gcn_corpus_kernel_vectoradd() {
    // Three s_load_dwordx2 (L), three VALU and s_waitcnt (C×4), two global_load (L),
    // s_waitcnt and three VALU (C×4), global_store (L), s_endpgm (C).
    let r = kernel(
        &corpus("gcn/hipexamples_vectoradd___Z15vectorset_floatPKfS0_Pf__gfx900.s"),
        Dialect::Gcn,
        None,
        2,
    );
    let (s, lines, _) = reduced(&r);
    assert_eq!(s, "LLLCCCCLLCCCCLC");
    assert_eq!(lines, (7..=21).collect::<Vec<u32>>());
    exact_matches_the_lc_string(&r, 2);
}

#[test]
fn gcn_errors_are_located() {
    let r = kernel(
        "k:\n  s_load_dword s0, s[4:5], 0x0\n  s_cbranch_scc1 NOWHERE\n  s_endpgm\n",
        Dialect::Gcn,
        None,
        2,
    );
    fails_on_line(&r, 3);
    let r = kernel("k:\n  s_nop 0\n  1bad v0\n", Dialect::Gcn, None, 2);
    fails_on_line(&r, 3);
    fails_with(
        &kernel(GCN_STRAIGHT, Dialect::Gcn, Some("nope"), 2),
        "no function `nope`",
    );
}

const SIMD_STRAIGHT: &str = "\
.data
\t0 0x0 32 32
\t1 0x1000 32 32
.text
\tldglin v1, 0
\tmov v2, vc.tid_x
\tadd v1, v1, v2
\tmul v1, v1, v2
\tstglin v1, 1
\texit
";

const SIMD_BRANCHY: &str = "\
.data
\t0 0x0 32 32
.text
\tsmov s0, 4
\tldglin v1, 0
\tsicj.ez skip, s0
\tj body
skip:
\tstglin v1, 0
body:
\titest.ez p0, v1
\tcpush.if join
\tcmask p0
\tiadd v1, v1, 1
\tcpop
\tstglin v1, 0
join:
\tsisub s0, s0, 1
\texit p0
\tsldg s1, 0
\tsicj.nz body, s0
\tj body
\texit
";

#[test]
fn simd_straight_line_kernel() {
    // ldglin (L), mov, add, mul (C C C), stglin (L), exit (C): "LCCCLC".
    let r = kernel(SIMD_STRAIGHT, Dialect::Simd, None, 2);
    let (s, lines, addresses) = reduced(&r);
    assert_eq!(s, "LCCCLC");
    assert_eq!(lines, (5..=10).collect::<Vec<u32>>());
    // Instruction indices in `.text` (Sim-D's instruction-memory addresses).
    assert_eq!(addresses, (0..6).collect::<Vec<u64>>());
    exact_matches_the_lc_string(&r, 2);
}

#[test]
fn simd_branches_the_control_stack_and_a_loop() {
    // smov (C), ldglin (L), sicj.ez (C, conditional: falls through), j body (C, jumps over the
    // stglin at line 9), itest (C), cpush.if join (C, pushes `join`), cmask (C), iadd (C),
    // cpop (C, pops `join`: jumps over the stglin at line 16), sisub (C), exit p0 (C,
    // predicated: falls through), sldg (L), sicj.nz (C, falls through), j body (C; visited:
    // the loop ends the path, the final `exit` is not reached).
    let r = kernel(SIMD_BRANCHY, Dialect::Simd, None, 2);
    let (s, lines, addresses) = reduced(&r);
    assert_eq!(s, "CLCCCCCCCCCLCC");
    assert_eq!(
        lines,
        vec![4, 5, 6, 7, 11, 12, 13, 14, 15, 18, 19, 20, 21, 22]
    );
    assert_eq!(
        addresses,
        vec![0, 1, 2, 3, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15]
    );
    exact_matches_the_lc_string(&r, 2);
}

#[test]
fn simd_corpus_kernel_mriq_phimag() {
    // ldglin, ldglin (L L), mul, mad (C C), stglin (L), exit (C).
    let r = kernel(
        &corpus("simd/mriq_computePhiMag.sas"),
        Dialect::Simd,
        None,
        2,
    );
    let (s, lines, _) = reduced(&r);
    assert_eq!(s, "LLCCLC");
    assert_eq!(lines, (24..=29).collect::<Vec<u32>>());
    exact_matches_the_lc_string(&r, 2);
}

#[test]
fn simd_errors_are_located() {
    // `itest` without its sub-operation (line 2), a jump to an unknown label (line 3).
    let r = kernel(
        ".text\n  itest p0, v1\n  j nowhere\n",
        Dialect::Simd,
        None,
        2,
    );
    fails_on_line(&r, 2);
    fails_on_line(&r, 3);
    fails_with(
        &kernel(".data\n 0 0x0 4 4\n.text\n", Dialect::Simd, None, 2),
        "no instructions on the straight-line path",
    );
}

/// Every PTX, GCN3 and Sim-D kernel of the corpus reduces to a non-empty string whose mapping
/// points at instruction lines of the file (the exact search is left out to stay fast).
#[test]
fn every_corpus_kernel_reduces() {
    let root = std::env::var_os("WARPBOUND_CORPUS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
        });
    let mut seen = 0;
    for (dir, ext, dialect) in [
        ("ptx", "ptx", Dialect::Ptx),
        ("gcn", "s", Dialect::Gcn),
        ("simd", "sas", Dialect::Simd),
    ] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .expect("corpus directory")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == ext))
            .collect();
        files.sort();
        for path in files {
            let src = std::fs::read_to_string(&path).expect("corpus file");
            let mut req = Request::new(src.as_str(), dialect);
            req.mode = Some("makespan".into());
            req.params.insert("warps".into(), serde_json::json!(2));
            req.params.insert("exact".into(), serde_json::json!(false));
            let r = analyze(&req);
            let name = path.display();
            assert!(!r.has_errors(), "{name}: {:?}", r.diagnostics);
            let m = r.makespan().expect("makespan");
            assert!(!m.original.is_empty(), "{name}");
            assert_eq!(m.mapping.len(), m.original.len(), "{name}");
            let lines: Vec<&str> = src.lines().collect();
            for x in &m.mapping {
                let line = lines.get(x.line as usize - 1).copied().unwrap_or_default();
                assert!(line.contains(x.text.as_str()), "{name}: {x:?}");
            }
            seen += 1;
        }
    }
    assert!(seen >= 50, "{seen} corpus kernels");
}

/// The default budget answers what fits in about a second (issue #37 item 3): 64 warps of
/// `LLCLL` on 32 cores and 32 load/store units (σ = 1). Every warp-instruction of a kind
/// takes its kind's lane for a cycle, so the 256 L-instructions alone need 256 cycles, and
/// the pessimistic bound (Eq. 5–7) is 64·4 + 64·1 = 320; the exact search (about 8 M steps)
/// finds 257 — the former default (2 M steps, 0.24 s) gave up and returned the 320.
#[test]
fn the_default_budget_finds_the_exact_makespan_of_64_warps() {
    let r = run(
        "kernel LLCLL\nwarp_number 64\nls_unit_number 32\ncuda_core_number 32\n",
        Dialect::Lc,
        &[],
        None,
    );
    let m = r.makespan().expect("makespan");
    assert_eq!(m.pessimistic, 320);
    assert_eq!(m.exact, Some(257));
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(257));
}
