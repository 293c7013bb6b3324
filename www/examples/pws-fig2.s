; Figure 2b of Klashtorny et al., written for Warpbound as HIP-style GCN3 code.
; A = {17, 29, 52, 80}, one work-item per element: idx = v0, A at kernarg 0, out at 8.
fig2:
; BB1: a = A[idx]; if (a > 25)
  s_load_dwordx4 s[0:3], s[4:5], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  v_mov_b32_e32 v2, s1
  v_add_u32_e32 v1, vcc, s0, v1
  v_addc_u32_e32 v2, vcc, 0, v2, vcc
  flat_load_dword v3, v[1:2]
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_mov_b32_e32 v4, 0
  v_cmp_lt_i32_e32 vcc, 25, v3
  s_and_saveexec_b64 s[6:7], vcc
  s_xor_b64 s[6:7], exec, s[6:7]
  s_cbranch_execz BB0_6
; BB2: if (a > 75)
  v_add_u32_e32 v4, vcc, 2, v4
  v_cmp_lt_i32_e32 vcc, 75, v3
  s_and_saveexec_b64 s[8:9], vcc
  s_xor_b64 s[8:9], exec, s[8:9]
  s_cbranch_execz BB0_3
; BB3
  v_add_u32_e32 v4, vcc, 3, v4
BB0_3:                                  ; BSB of the inner if-else
  s_or_saveexec_b64 s[8:9], s[8:9]
  s_xor_b64 exec, exec, s[8:9]
  s_cbranch_execz BB0_5
; BB4
  v_add_u32_e32 v4, vcc, 4, v4
BB0_5:                                  ; BB5: inner reconvergence
  s_or_b64 exec, exec, s[8:9]
  v_add_u32_e32 v4, vcc, 5, v4
BB0_6:                                  ; BSB of the outer if-else
  s_or_saveexec_b64 s[6:7], s[6:7]
  s_xor_b64 exec, exec, s[6:7]
  s_cbranch_execz BB0_8
; BB6
  v_add_u32_e32 v4, vcc, 6, v4
BB0_8:                                  ; BB7: outer reconvergence; if (a > 50)
  s_or_b64 exec, exec, s[6:7]
  v_add_u32_e32 v4, vcc, 7, v4
  v_cmp_lt_i32_e32 vcc, 50, v3
  s_and_saveexec_b64 s[6:7], vcc
  s_xor_b64 s[6:7], exec, s[6:7]
  s_cbranch_execz BB0_10
; BB8
  v_add_u32_e32 v4, vcc, 8, v4
BB0_10:                                 ; BSB of the second if-else
  s_or_saveexec_b64 s[6:7], s[6:7]
  s_xor_b64 exec, exec, s[6:7]
  s_cbranch_execz BB0_12
; BB9
  v_add_u32_e32 v4, vcc, 9, v4
BB0_12:                                 ; BB10: reconvergence; out[idx] = path sum
  s_or_b64 exec, exec, s[6:7]
  v_mov_b32_e32 v2, s3
  v_lshlrev_b32_e32 v1, 2, v0
  v_add_u32_e32 v1, vcc, s2, v1
  v_addc_u32_e32 v2, vcc, 0, v2, vcc
  flat_store_dword v[1:2], v4
  s_endpgm
