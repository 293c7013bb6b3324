//! GCN3 kernels in the compiler's idioms, shared by the wavefront tests of `pws`, `sim` and
//! the facade (the latter two include this file by path): an if-else bracketed by the
//! paper's `split`/`merge`, calls through `s_swappc_b64`, and a tail call.

#![allow(dead_code)]

/// `k`: an if-else on `v0 < n` as the compiler writes it (`s_and_saveexec_b64`, the BSB's
/// `s_or_saveexec_b64`/`s_xor_b64`, reconvergence by `s_or_b64 exec`), bracketed by `split
/// s0, s1` and `merge` (PWS §4.1, Fig. 3): `then_count` times `then_op` on the then-path,
/// `else_count` times `else_op` on the else-path.
pub fn if_else_with_split(
    n: u32,
    (then_op, then_count): (&str, usize),
    (else_op, else_count): (&str, usize),
) -> String {
    let then_path = format!("  {then_op}\n").repeat(then_count);
    let else_path = format!("  {else_op}\n").repeat(else_count);
    format!(
        "k:
  v_cmp_gt_u32_e32 vcc, {n}, v0
  split s0, s1
  s_and_saveexec_b64 s[4:5], vcc
  s_xor_b64 s[4:5], exec, s[4:5]
  s_cbranch_execz BB0_2
; %bb.1:
{then_path}BB0_2:
  s_or_saveexec_b64 s[4:5], s[4:5]
  s_xor_b64 exec, exec, s[4:5]
  s_cbranch_execz BB0_4
; %bb.3:
{else_path}BB0_4:
  s_or_b64 exec, exec, s[4:5]
  merge
  s_endpgm
"
    )
}

/// A call of `symbol` as the compiler writes it: its address PC-relative into `s[16:17]`,
/// then `s_swappc_b64` with the return address in `s[30:31]`.
pub fn call(symbol: &str) -> String {
    format!(
        "  s_getpc_b64 s[16:17]
  s_add_u32 s16, s16, {symbol}@rel32@lo+4
  s_addc_u32 s17, s17, {symbol}@rel32@hi+12
  s_swappc_b64 s[30:31], s[16:17]
"
    )
}

/// `k` calls `g`, which tail-calls `f` (`s_setpc_b64` to a symbol), whose return goes back
/// to `k`: 4 (call block) + 5 (`g`) + 2 (`f`) + 1 (`s_endpgm`) = 12 instructions.
pub const TAIL_CALLS: &str = "\t.type f,@function
f:
  v_add_u32_e32 v0, 1, v0
  s_setpc_b64 s[30:31]
\t.type g,@function
g:
  v_add_u32_e32 v0, 2, v0
  s_getpc_b64 s[16:17]
  s_add_u32 s16, s16, f@rel32@lo+4
  s_addc_u32 s17, s17, f@rel32@hi+12
  s_setpc_b64 s[16:17]
\t.type k,@function
k:
  s_getpc_b64 s[16:17]
  s_add_u32 s16, s16, g@rel32@lo+4
  s_addc_u32 s17, s17, g@rel32@hi+12
  s_swappc_b64 s[30:31], s[16:17]
  s_endpgm
";
