//! The simulator through the facade for PTX, GCN3 and L/C kernels (`simulate` mode), and
//! `simulate=true` on the makespan, PWS, round-robin and Sim-D modes: what the kernel
//! computed, and the observed cycles next to the bound they are checked against.

use isa::Dialect;
use warpbound::{analyze, Report, Request};

fn run(src: &str, dialect: Dialect, mode: &str, params: &[(&str, serde_json::Value)]) -> Report {
    let mut req = Request::new(src, dialect);
    req.mode = Some(mode.into());
    for (k, v) in params {
        req.params.insert(k.to_string(), v.clone());
    }
    analyze(&req)
}

/// The simulation as the report's JSON has it (what the page reads).
fn sim(r: &Report) -> serde_json::Value {
    let s = r
        .simulation
        .as_ref()
        .unwrap_or_else(|| panic!("no simulation: {:?}", r.diagnostics));
    serde_json::to_value(s).unwrap_or_default()
}

fn words(r: &Report, array: &str) -> Vec<u64> {
    sim(r)["memory"]
        .as_array()
        .and_then(|a| a.iter().find(|x| x["name"] == array))
        .and_then(|a| a["words"].as_array())
        .map(|w| w.iter().filter_map(serde_json::Value::as_u64).collect())
        .unwrap_or_default()
}

fn cycles(r: &Report) -> u64 {
    sim(r)["cycles"].as_u64().unwrap_or(u64::MAX)
}

fn bound(r: &Report) -> Option<u64> {
    sim(r)["bound"]["cycles"].as_u64()
}

/// out[i] = 3·in[i] + 1 for the 8 threads; a divergent branch adds 100 for odd ids (the
/// page's gallery example `sim-ptx-divergence`).
const PTX: &str = include_str!("../../../www/examples/sim-ptx-divergence.ptx");

#[test]
fn ptx_kernel_computes_and_reconverges() {
    let r = run(
        PTX,
        Dialect::Ptx,
        "simulate",
        &[
            ("block", "8,1,1".into()),
            ("params", "0x1000,0,0x2000,0".into()),
            (
                "memory",
                "in@0x1000 8 iota 0 1; out@0x2000 8 const 0".into(),
            ),
        ],
    );
    // 3i + 1, plus 100 for odd i.
    assert_eq!(words(&r, "out"), vec![1, 104, 7, 110, 13, 116, 19, 122]);
    assert!(r.schedule.as_ref().is_some_and(|s| !s.items.is_empty()));
}

#[test]
fn lc_string_on_the_makespan_machine() {
    // One warp: every instruction one cycle after the other, "LLCLL" = 5 instructions, but
    // with 16 load/store units each L of a 32-thread warp takes two sub-warp cycles:
    // 4 · 2 + 1 = 9 (the transformed string LLLLCLLLL).
    let r = run(
        "LLCLL",
        Dialect::Lc,
        "simulate",
        &[("block", "32,1,1".into())],
    );
    assert_eq!(cycles(&r), 9);
    assert_eq!(sim(&r)["machine"]["ls_units"], 16);
}

#[test]
fn makespan_simulate_is_within_the_exact_worst_case() {
    for w in 1..=6u32 {
        let r = run(
            "LLCLL",
            Dialect::Lc,
            "makespan",
            &[("warps", w.into()), ("simulate", true.into())],
        );
        let exact = r.makespan().and_then(|m| m.exact).expect("exact");
        assert_eq!(bound(&r), Some(exact));
        assert!(cycles(&r) <= exact, "W = {w}: {} > {exact}", cycles(&r));
        if w == 1 {
            assert_eq!(cycles(&r), exact);
        }
    }
}

/// An if-else on the work-item id in HIP's exec-mask shape: lanes below 2 add 10, the others
/// add 20, then every lane stores its value + id to out[id].
const GCN: &str = "
k:
  s_load_dwordx2 s[0:1], s[4:5], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  v_mov_b32_e32 v2, s1
  v_add_u32_e32 v1, vcc, s0, v1
  v_addc_u32_e32 v2, vcc, 0, v2, vcc
  v_mov_b32_e32 v3, v0
  v_cmp_gt_u32_e32 vcc, 2, v0
  s_and_saveexec_b64 s[6:7], vcc
  s_xor_b64 s[6:7], exec, s[6:7]
  s_cbranch_execz BB0_2
  v_add_u32_e32 v3, vcc, 10, v3
BB0_2:
  s_or_saveexec_b64 s[6:7], s[6:7]
  s_xor_b64 exec, exec, s[6:7]
  s_cbranch_execz BB0_4
  v_add_u32_e32 v3, vcc, 20, v3
BB0_4:
  s_or_b64 exec, exec, s[6:7]
  flat_store_dword v[1:2], v3
  s_endpgm
";

fn gcn_params() -> Vec<(&'static str, serde_json::Value)> {
    vec![
        ("block", "4,1,1".into()),
        ("params", "0x2000,0".into()),
        ("memory", "out@0x2000 4 const 0".into()),
    ]
}

#[test]
fn gcn_kernel_in_simulate_mode_uses_the_gcn3_wavefront() {
    let r = run(GCN, Dialect::Gcn, "simulate", &gcn_params());
    assert_eq!(words(&r, "out"), vec![10, 11, 22, 23]);
    assert_eq!(sim(&r)["machine"]["warp_size"], 64);
}

#[test]
fn pws_simulate_is_within_e_wf_of_each_model() {
    for cost in ["unit", "latency"] {
        for (splitting, pick) in [("none", 0), ("dws", 1)] {
            let mut p = gcn_params();
            p.extend([
                ("simulate", true.into()),
                ("cost", cost.into()),
                ("sim_splitting", splitting.into()),
                ("split", "none".into()),
            ]);
            let r = run(GCN, Dialect::Gcn, "pws", &p);
            assert_eq!(words(&r, "out"), vec![10, 11, 22, 23], "{cost} {splitting}");
            let e = &r.pws().expect("pws").e_wf;
            let expected = [e.no_split, e.dws][pick];
            assert_eq!(bound(&r), Some(expected), "{cost} {splitting}");
            assert!(cycles(&r) <= expected, "{cost} {splitting}");
            if cost == "unit" && splitting == "none" {
                // Unit cost without splitting: every block runs once, one cycle per
                // instruction, so the simulator meets IPET exactly (19 instructions).
                assert_eq!(cycles(&r), 19);
                assert_eq!(expected, 19);
            }
        }
    }
    // Two wavefronts: E_WF bounds one, so no comparison — and the report says why.
    let p = [
        ("block", "128,1,1".into()),
        ("params", "0x2000,0".into()),
        ("memory", "out@0x2000 128 const 0".into()),
        ("simulate", true.into()),
    ];
    let r = run(GCN, Dialect::Gcn, "pws", &p);
    assert_eq!(words(&r, "out")[..4], [10, 11, 22, 23]);
    assert_eq!(words(&r, "out")[127], 127 + 20);
    assert_eq!(bound(&r), None);
    assert!(sim(&r)["bound"]["what"]
        .as_str()
        .is_some_and(|w| w.contains("several")));
}

/// Huangfu §4.4.4's shape: block y = 0 loads, block y = 1 stores.
const RR_PTX: &str = "
.entry k(.param .u64 p)
{
  .reg .u32 %r<4>;
  .reg .u64 %rd<9>;
  .reg .f32 %f<3>;
  .reg .pred %p<2>;
  ld.param.u64 %rd5, [p];
  cvt.s32.u32 %r3, %tid.x;
  mul.wide.s32 %rd3, %r3, 4;
  add.u64 %rd8, %rd5, %rd3;
  ld.global.f32 %f1, [%rd8];
  add.f32 %f2, %f1, %f1;
  st.global.f32 [%rd8+256], %f2;
  exit;
}
";

#[test]
fn rr_simulate_compares_only_in_the_models_setting() {
    let base = [
        ("block", serde_json::Value::from("64,1,1")),
        ("params", "0".into()),
        ("memory", "a@0 128 const 0x3fc00000".into()),
        ("simulate", true.into()),
    ];
    let mut p = base.to_vec();
    p.push(("segmentation", "per-instruction".into()));
    let r = run(RR_PTX, Dialect::Ptx, "rr", &p);
    let model = r.wcet.as_ref().expect("wcet").cycles;
    assert_eq!(bound(&r), Some(model));
    assert!(cycles(&r) <= model, "{} > {model}", cycles(&r));
    // The kernel doubled the first 64 floats into words 64..128 (3.0 = 0x40400000).
    let out = words(&r, "a");
    assert_eq!(out[64..128], [0x4040_0000u64; 64]);
    // Dependency segments: the model issues a segment back to back, no comparison.
    let r = run(RR_PTX, Dialect::Ptx, "rr", &base);
    assert_eq!(bound(&r), None);
    assert!(sim(&r)["bound"]["what"]
        .as_str()
        .is_some_and(|w| w.contains("per-instruction")));
}

/// Sim-D has its own execution model (`phases::execution`), reported as `simd_execution`,
/// not as the SIMT simulator's `simulation`.
#[test]
fn simd_simulate_runs_the_phase_execution() {
    let src = ".data\n  0 0x0 1024 32\n  1 0x20000 1024 32\n.text\n  ldglin v1, 0\n  stglin v1, 1\n  exit\n";
    let r = run(src, Dialect::Simd, "simd", &[("simulate", true.into())]);
    assert!(r.simulation.is_none());
    let e = r
        .simd()
        .and_then(|s| s.execution.as_ref())
        .expect("an execution");
    assert!(e.run.within_bound && e.run.cycles > 0);
}
