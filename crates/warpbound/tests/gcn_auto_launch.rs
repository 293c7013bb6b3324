//! The GCN3 automatic launch reads a kernel's arguments from its listing (issue #37 item 5):
//! from the code object metadata's argument list, hidden arguments included, and — without
//! metadata or types in the name — from the kernarg words the kernel loads. Hand-written
//! listings; every stored value derived by hand in the test.

#[path = "common/report.rs"]
mod report;

use isa::Dialect;
use report::simulated_array;
use warpbound::report::ArgumentKind;
use warpbound::{analyze, Report, Request};

/// `k(int *out, int n)` with an `extern "C"` name (no types): work-item t of every block
/// stores `n + word@0x10 + (word@0x14 & 0xffff)` at `out[t]`.
const BODY: &str = "k:
  s_load_dwordx2 s[0:1], s[4:5], 0x0
  s_load_dword s2, s[4:5], 0x8
  s_load_dword s3, s[4:5], 0x10
  s_load_dword s8, s[4:5], 0x14
  s_waitcnt lgkmcnt(0)
  s_and_b32 s8, s8, 0xffff
  s_add_u32 s2, s2, s3
  s_add_u32 s2, s2, s8
  v_lshlrev_b32_e32 v1, 2, v0
  v_mov_b32_e32 v2, s1
  v_add_u32_e32 v1, vcc, s0, v1
  v_addc_u32_e32 v2, vcc, 0, v2, vcc
  v_mov_b32_e32 v3, s2
  flat_store_dword v[1:2], v3
  s_endpgm
";

/// The metadata hipcc would print for it with code object V5 hidden arguments: the block
/// count x at 0x10 and the group size x (16 bits) at 0x14.
const METADATA: &str = "
	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .offset:         8
        .size:           4
        .value_kind:     by_value
      - .offset:         16
        .size:           4
        .value_kind:     hidden_block_count_x
      - .offset:         20
        .size:           2
        .value_kind:     hidden_group_size_x
    .kernarg_segment_size: 24
    .name:           k
...
	.end_amdgpu_metadata
";

fn simulate(src: &str) -> Report {
    let mut req = Request::new(src, Dialect::Gcn);
    req.mode = Some("simulate".into());
    req.params.insert("grid".into(), serde_json::json!("3,1,1"));
    analyze(&req)
}

fn out(r: &Report) -> &[u32] {
    simulated_array(r, |n| n == "arg0@0x0" || n == "word@0x0")
}

/// With metadata: `out` a pointer (0x100000), `n` = 64, the block count 3 (the grid) and
/// the group size 32 (the default block): every work-item of the three blocks stores
/// 64 + 3 + 32 = 99.
#[test]
fn metadata_gives_arguments_and_hidden_values() {
    let r = simulate(&format!("{BODY}{METADATA}"));
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let args = r.arguments.as_ref().expect("arguments");
    let names: Vec<&str> = args.values.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "arg0@0x0",
            "arg1@0x8",
            "hidden_block_count_x@0x10",
            "hidden_group_size_x@0x14"
        ]
    );
    assert_eq!(args.values[0].kind, ArgumentKind::Pointer);
    assert_eq!(args.params, "0x100000,0x0,0x40,0x0,0x3,0x20");
    assert!(
        out(&r)[..32].iter().all(|&w| w == 99),
        "{:?}",
        &out(&r)[..32]
    );
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.message.contains("read from the code object metadata")));
}

/// Without metadata and types: the descriptor's 24-byte segment; the pair at 0 reaches a
/// flat address (a pointer), the words at 8, 0x10 and 0x14 are loaded and used as integers
/// (64 each): 64 + 64 + 64 = 192.
#[test]
fn loads_give_arguments_without_metadata() {
    let src = format!(
        "{BODY}
  .amdhsa_kernel k
    .amdhsa_kernarg_size 24
  .end_amdhsa_kernel
"
    );
    let r = simulate(&src);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let args = r.arguments.as_ref().expect("arguments");
    let kinds: Vec<ArgumentKind> = args.values.iter().map(|a| a.kind).collect();
    use ArgumentKind::*;
    assert_eq!(kinds, [Pointer, Integer, Integer, Integer]);
    assert_eq!(args.params, "0x100000,0x0,0x40,0x0,0x40,0x40");
    assert!(out(&r)[..32].iter().all(|&w| w == 192));
}
