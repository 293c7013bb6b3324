; A kernel calling a function of the same file, written by hand in the syntax of LLVM's
; AMDGPU back end (`clang -x hip -save-temps`, gfx900). out[tid] = step(step(tid)) with
;   unsigned step(unsigned x) { return (x & 1) == 0 ? x / 2 : 3 * x + 1; }
; The first call forms the target pc-relatively (`@rel32`), the second loads it from the
; GOT (`@gotpcrel32`), as LLVM does for a preemptible symbol.
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.p2align	2                               ; -- Begin function _Z4stepj
	.type	_Z4stepj,@function
_Z4stepj:                               ; @_Z4stepj
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	v_and_b32_e32 v1, 1, v0
	v_cmp_eq_u32_e32 vcc, 0, v1
	s_and_saveexec_b64 s[4:5], vcc
	s_xor_b64 s[4:5], exec, s[4:5]
	s_cbranch_execz .LBB0_2
; %bb.1:                                ; x / 2
	v_lshrrev_b32_e32 v0, 1, v0
.LBB0_2:                                ; %Flow
	s_or_saveexec_b64 s[4:5], s[4:5]
	s_xor_b64 exec, exec, s[4:5]
	s_cbranch_execz .LBB0_4
; %bb.3:                                ; 3 * x + 1
	v_mul_lo_u32 v0, v0, 3
	v_add_u32_e32 v0, 1, v0
.LBB0_4:
	s_or_b64 exec, exec, s[4:5]
	s_setpc_b64 s[30:31]
.Lfunc_end0:
	.size	_Z4stepj, .Lfunc_end0-_Z4stepj
                                        ; -- End function
	.protected	_Z5stepsPj              ; -- Begin function _Z5stepsPj
	.globl	_Z5stepsPj
	.p2align	8
	.type	_Z5stepsPj,@function
_Z5stepsPj:                             ; @_Z5stepsPj
; %bb.0:
	s_load_dwordx2 s[34:35], s[4:5], 0x0
	v_mov_b32_e32 v40, v0
	s_getpc_b64 s[16:17]
	s_add_u32 s16, s16, _Z4stepj@rel32@lo+4
	s_addc_u32 s17, s17, _Z4stepj@rel32@hi+12
	s_swappc_b64 s[30:31], s[16:17]
	s_getpc_b64 s[16:17]
	s_add_u32 s16, s16, _Z4stepj@gotpcrel32@lo+4
	s_addc_u32 s17, s17, _Z4stepj@gotpcrel32@hi+12
	s_load_dwordx2 s[16:17], s[16:17], 0x0
	s_waitcnt lgkmcnt(0)
	s_swappc_b64 s[30:31], s[16:17]
	v_lshlrev_b32_e32 v1, 2, v40
	v_mov_b32_e32 v2, s35
	v_add_co_u32_e32 v1, vcc, s34, v1
	v_addc_co_u32_e32 v2, vcc, 0, v2, vcc
	global_store_dword v[1:2], v0, off
	s_endpgm
.Lfunc_end1:
	.size	_Z5stepsPj, .Lfunc_end1-_Z5stepsPj
                                        ; -- End function
	.section	.rodata,#alloc
	.p2align	6
	.amdhsa_kernel _Z5stepsPj
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 41
		.amdhsa_next_free_sgpr 40
	.end_amdhsa_kernel
	.text
