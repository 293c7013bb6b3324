; Written for Warpbound: an if-else on the work-item id, marked for splitting.
k:
  v_cmp_gt_u32_e32 vcc, 32, v0       ; work-items 0..31 take the then-path
  s_mov_b64 s[0:1], vcc               ; the split mask: the then-path's work-items
  split s0, s1
  s_and_saveexec_b64 s[4:5], vcc
  s_xor_b64 s[4:5], exec, s[4:5]
  s_cbranch_execz BB0_2
; %bb.1:                              ; then: six multiply-adds
  v_mad_f32 v1, v1, v2, v3
  v_mad_f32 v1, v1, v2, v3
  v_mad_f32 v1, v1, v2, v3
  v_mad_f32 v1, v1, v2, v3
  v_mad_f32 v1, v1, v2, v3
  v_mad_f32 v1, v1, v2, v3
BB0_2:                                ; the BSB: flip exec to the else-path
  s_or_saveexec_b64 s[4:5], s[4:5]
  s_xor_b64 exec, exec, s[4:5]
  s_cbranch_execz BB0_4
; %bb.3:                              ; else: eight multiplies
  v_mul_f32_e32 v1, v1, v2
  v_mul_f32_e32 v1, v1, v2
  v_mul_f32_e32 v1, v1, v2
  v_mul_f32_e32 v1, v1, v2
  v_mul_f32_e32 v1, v1, v2
  v_mul_f32_e32 v1, v1, v2
  v_mul_f32_e32 v1, v1, v2
  v_mul_f32_e32 v1, v1, v2
BB0_4:                                ; reconvergence: restore exec
  s_or_b64 exec, exec, s[4:5]
  merge
  s_endpgm
