//! The strict GCN3 front end (a typo must never lower a bound): unknown opcodes, misspelt registers, `s_waitcnt`
//! and register-range checks — every message located, with a hint where one exists.

use isa::gcn;
use isa::{Limits, Severity};

fn diags(text: &str) -> Vec<(Severity, u32, u32, String)> {
    gcn::parse(text, &Limits::default())
        .diagnostics
        .into_iter()
        .map(|d| (d.severity, d.line, d.column, d.message))
        .collect()
}

fn one_error(text: &str) -> (u32, u32, String) {
    let d = diags(text);
    let errors: Vec<_> = d.iter().filter(|d| d.0 == Severity::Error).collect();
    assert_eq!(errors.len(), 1, "{d:?}");
    (errors[0].1, errors[0].2, errors[0].3.clone())
}

/// The example: the typo silently removed a branch, lowering the bound.
#[test]
fn a_misspelt_exec_branch_is_an_error_with_a_hint() {
    let (line, col, m) = one_error(
        "k:\n  s_and_saveexec_b64 s[0:1], vcc\n  s_cbranch_exez BB0_2\n  v_mov_b32_e32 v1, 0\nBB0_2:\n  s_or_b64 exec, exec, s[0:1]\n  s_endpgm\n",
    );
    assert_eq!((line, col), (3, 3));
    assert!(
        m.contains("`s_cbranch_exez`") && m.contains("did you mean `s_cbranch_execz`?"),
        "{m}"
    );
}

#[test]
fn control_families_are_errors_even_without_a_neighbour() {
    for op in [
        "s_cbranch_foo L",
        "s_branchx L",
        "s_callx s[0:1]",
        "s_getpc_b32 s0",
        "s_setfoo 1",
        "s_orn3_saveexec_b64 s[0:1], vcc",
        "v_cmpx_foo_f32 vcc, v0, v1",
    ] {
        let (_, _, m) = one_error(&format!("k:\n  {op}\nL:\n  s_endpgm\n"));
        assert!(m.contains("unknown opcode"), "{op}: {m}");
    }
}

#[test]
fn unknown_writers_of_exec_vcc_or_scc_are_errors() {
    for (op, reg) in [
        ("v_future_b64 exec, v[0:1]", "`exec`"),
        ("v_future_b32 vcc_lo, v0", "`vcc`"),
        ("s_cmp_foo s0, s1", "`scc`"),
    ] {
        let (_, _, m) = one_error(&format!("k:\n  {op}\n  s_endpgm\n"));
        assert!(m.contains(reg), "{op}: {m}");
    }
}

#[test]
fn a_misspelt_compare_is_an_error_a_misspelt_add_a_warning() {
    let (_, _, m) = one_error("k:\n  v_cmp_gt_u23_e64 s[0:1], v0, v1\n  s_endpgm\n");
    assert!(
        m.contains("`v_cmp_gt_u32_e64`") && m.contains("compare"),
        "{m}"
    );
    let d = diags("k:\n  v_add_f23_e32 v0, v1, v2\n  s_endpgm\n");
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].0, Severity::Warning);
    assert!(d[0]
        .3
        .contains("treated generically (first operand written, the rest read)"));
    assert!(
        d[0].3.contains("did you mean `v_add_f32_e32`?"),
        "{}",
        d[0].3
    );
    // A suffix its family does not take: a warning pointing at the base name.
    let d = diags("k:\n  s_mov_b32_e32 s0, s1\n  s_endpgm\n");
    assert!(
        d.len() == 1 && d[0].0 == Severity::Warning && d[0].3.contains("`s_mov_b32`"),
        "{d:?}"
    );
}

#[test]
fn misspelt_registers_are_errors_unless_they_are_symbols() {
    let (line, col, m) = one_error("k:\n  s_mov_b64 exce, s[0:1]\n  s_endpgm\n");
    assert_eq!((line, col), (2, 13));
    assert!(
        m.contains("unknown register `exce`") && m.contains("`exec`"),
        "{m}"
    );
    let (_, _, m) = one_error("k:\n  s_mov_b32 vcc_h1, 0\n  s_endpgm\n");
    assert!(m.contains("`vcc_hi`"), "{m}");
    // Defined symbols and operand keywords are fine.
    assert!(diags(".set vcc1, 4\nk:\n  s_mov_b32 s0, vcc1\n  global_load_dword v1, v[2:3], off\n  exp mrt0 v0, v0, v0, v0 done vm\n  s_endpgm\n").is_empty());
}

#[test]
fn waitcnt_counters_are_checked() {
    let (_, _, m) = one_error("k:\n  s_waitcnt vmcnt(64)\n  s_endpgm\n");
    assert!(m.contains("out of range"), "{m}");
    let (_, _, m) = one_error("k:\n  s_waitcnt lgkmcnt(0) lgkmcnt(1)\n  s_endpgm\n");
    assert!(m.contains("twice"), "{m}");
    let (_, _, m) = one_error("k:\n  s_waitcnt lgkcnt(0)\n  s_endpgm\n");
    assert!(m.contains("did you mean `lgkmcnt`?"), "{m}");
    assert!(
        diags("k:\n  s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(15)\n  s_waitcnt 0\n  s_endpgm\n")
            .is_empty()
    );
}

#[test]
fn register_ranges_must_exist_and_be_aligned() {
    for (op, what) in [
        ("s_mov_b64 s[1:2], 0", "misaligned"),
        ("s_load_dwordx4 s[2:5], s[0:1], 0x0", "misaligned"),
        ("v_mov_b32_e32 v256, 0", "does not exist"),
        ("s_mov_b32 s106, 0", "does not exist"),
        ("v_mov_b32_e32 v[3:1], 0", "empty"),
    ] {
        let (_, _, m) = one_error(&format!("k:\n  {op}\n  s_endpgm\n"));
        assert!(m.contains(what), "{op}: {m}");
    }
    assert!(diags(
        "k:\n  s_load_dwordx4 s[4:7], s[0:1], 0x0\n  v_mov_b32_e32 v[1:2], 0\n  s_endpgm\n"
    )
    .is_empty());
}
