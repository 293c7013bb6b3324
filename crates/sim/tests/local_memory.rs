//! Local memory (`LDL`/`STL`, issue #26 item 1): each thread's private window below the
//! stack pointer (`sim`'s `sass::local_memory`), against values derived by hand in the
//! comments; its latency class; errors outside the window.

mod common;

use common::{array, in_out_memory as memory, preset, run};
use sim::{Launch, Machine};

/// Runs `body` (after `S2R R0, SR_TID.X` and the architecture's stack-pointer load into R1)
/// on one warp of 32 threads; each thread stores R20..R23 to `out[4 · lane ..]`.
fn warp(arch: &str, body: &str) -> Result<Vec<u32>, String> {
    let sp = match arch {
        "sm_20" => "c[0x1][0x100]",
        "sm_61" => "c[0x0][0x20]",
        _ => "c[0x0][0x28]",
    };
    let src = format!(
        "code for {arch}\nMOV R1, {sp} ;\nS2R R0, SR_TID.X ;\n{body}\nSHL R2, R0, 0x4 ;\n\
         STG.128 [R2+0x2000], R20 ;\nEXIT ;\n"
    );
    let s = run(
        &src,
        &Launch::default(),
        &preset("gpgpusim-like"),
        &memory(&[0], 4 * 32),
    )
    .map_err(|e| e.to_string())?;
    Ok(array(&s, "out").to_vec())
}

fn lane(out: &[u32], l: usize) -> &[u32] {
    &out[4 * l..4 * l + 4]
}

#[test]
fn each_thread_has_its_own_window_at_the_same_offsets() {
    // Every thread stores 100 + tid and tid · 3 at [R1-0x8] and [R1-0x4] (a frame of 8
    // bytes, as `IADD32I R1, R1, -0x8` then `[R1]`/`[R1+0x4]` would), then loads them back:
    // its own values, though all use the same offsets. [R1-0xc] was never written: 0.
    let out = warp(
        "sm_61",
        "IADD32I R1, R1, -0x8 ;\nIADD32I R3, R0, 0x64 ;\nIMUL32I R4, R0, 0x3 ;\n\
         STL [R1], R3 ;\nSTL [R1+0x4], R4 ;\nLDL R20, [R1] ;\nLDL R21, [R1+0x4] ;\n\
         LDL R22, [R1+-0x4] ;\nMOV R23, R1 ;",
    )
    .expect("runs");
    for l in [0usize, 1, 17, 31] {
        let t = l as u32;
        assert_eq!(lane(&out, l), &[100 + t, 3 * t, 0, 0x00ff_fc00 - 8]);
    }
}

#[test]
fn widths_sign_and_zero_extension_and_vectors() {
    // STL.64 of R4:R5 = (0x8081_82f3, 0x1234_fffe) at [R1-0x10]: bytes f3 82 81 80 fe ff
    // 34 12 from R1-0x10. LDL.U8 [R1-0x10] = 0xf3; LDL.S8 = 0xffff_fff3; LDL.S16
    // [R1-0xc] = 0xffff_fffe; LDL.U16 [R1-0xa] = 0x1234.
    let out = warp(
        "sm_61",
        "MOV32I R4, 0x808182f3 ;\nMOV32I R5, 0x1234fffe ;\nSTL.64 [R1+-0x10], R4 ;\n\
         LDL.U8 R20, [R1+-0x10] ;\nLDL.S8 R21, [R1+-0x10] ;\nLDL.S16 R22, [R1+-0xc] ;\n\
         LDL.U16 R23, [R1+-0xa] ;",
    )
    .expect("runs");
    assert_eq!(lane(&out, 5), &[0xf3, 0xffff_fff3, 0xffff_fffe, 0x1234]);
    // STL.128 of R4..R7 = (tid, 2, 3, 4) at [R1-0x20]; a byte store of 0x1ff (its low
    // byte 0xff) at [R1-0x1d] and a 16-bit store of 0xabcd at [R1-0x1a]; then LDL.128:
    // (tid | 0xff00_0000, 0xabcd_0002, 3, 4).
    let out = warp(
        "sm_70",
        "MOV R4, R0 ;\nMOV32I R5, 0x2 ;\nMOV32I R6, 0x3 ;\nMOV32I R7, 0x4 ;\n\
         STL.128 [R1+-0x20], R4 ;\nMOV32I R8, 0x1ff ;\nSTL.U8 [R1+-0x1d], R8 ;\n\
         MOV32I R8, 0xabcd ;\nSTL.U16 [R1+-0x1a], R8 ;\nLDL.128 R20, [R1+-0x20] ;",
    )
    .expect("runs");
    assert_eq!(lane(&out, 9), &[0xff00_0009, 0xabcd_0002, 3, 4]);
}

#[test]
fn volta_and_fermi_stack_pointers_reach_the_window() {
    // sm_70+: the stack pointer is c[0x0][0x28]; Fermi's is c[0x1][0x100]. Both read as
    // the window's top, 0xfffc00; a spill and reload of tid + 7 through [R1-0x4].
    for arch in ["sm_70", "sm_90", "sm_20"] {
        let out = warp(
            arch,
            "IADD32I R3, R0, 0x7 ;\nSTL [R1+-0x4], R3 ;\nLDL R20, [R1+-0x4] ;\nMOV R21, R1 ;",
        )
        .unwrap_or_else(|e| panic!("{arch}: {e}"));
        assert_eq!(lane(&out, 30), &[37, 0x00ff_fc00, 0, 0], "{arch}");
    }
}

#[test]
fn an_access_outside_the_window_names_its_address() {
    // [R1] is the first byte above the window (the stack pointer's initial value).
    let e = warp("sm_61", "LDL R20, [R1] ;").expect_err("above the window");
    assert!(
        e.starts_with("4:1:") && e.contains("0xfffc00") && e.contains("local window"),
        "{e}"
    );
    let e = warp("sm_61", "STL [RZ+0x10], R0 ;").expect_err("at 0x10");
    assert!(
        e.contains("0x10 ") && e.contains("[0xf7fc00, 0xfffc00)"),
        "{e}"
    );
    let e = warp("sm_61", "LDL.64 R20, [R1+-0xc] ;").expect_err("misaligned");
    assert!(e.contains("misaligned"), "{e}");
}

#[test]
fn local_accesses_take_the_local_latency_class() {
    // gpgpusim-like, but local memory 50 cycles (global stays 302): MOV issues 0 (R1 ready
    // at 6); STL issues 6 on the 16 LSUs for 2 cycles; LDL issues 8, 2 LSU cycles, so its
    // value is written at 8 + 2 - 1 + 50 = 59; the dependent IADD issues at 59, its result
    // at 65; EXIT issues 60.
    let mut m: Machine = preset("gpgpusim-like");
    m.latency.latency.insert(cfg::TimingClass::Local, 50);
    let src = "code for sm_61\nMOV R1, c[0x0][0x20] ;\nSTL [R1+-0x4], R1 ;\n\
               LDL R2, [R1+-0x4] ;\nIADD R3, R2, 0x1 ;\nEXIT ;\n";
    let s = run(src, &Launch::default(), &m, &memory(&[0], 1)).expect("runs");
    let issues: Vec<(u64, u64)> = s.warps[0]
        .issues
        .iter()
        .map(|i| (i.issue, i.complete))
        .collect();
    assert_eq!(issues[2], (8, 59));
    assert_eq!(issues[3].0, 59);
    assert_eq!(s.cycles, 65);
}
