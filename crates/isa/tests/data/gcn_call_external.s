; A kernel calling a device-library function that a `-nogpulib` build leaves undefined:
; out[tid] = sinf(tid), written by hand in the syntax of LLVM's AMDGPU back end (gfx900).
; `__ocml_sin_f32` is not in this listing, so its cost is unknown.
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.protected	_Z4sinsPf               ; -- Begin function _Z4sinsPf
	.globl	_Z4sinsPf
	.p2align	8
	.type	_Z4sinsPf,@function
_Z4sinsPf:                              ; @_Z4sinsPf
; %bb.0:
	s_load_dwordx2 s[34:35], s[4:5], 0x0
	v_mov_b32_e32 v40, v0
	v_cvt_f32_u32_e32 v0, v0
	s_getpc_b64 s[16:17]
	s_add_u32 s16, s16, __ocml_sin_f32@gotpcrel32@lo+4
	s_addc_u32 s17, s17, __ocml_sin_f32@gotpcrel32@hi+12
	s_load_dwordx2 s[16:17], s[16:17], 0x0
	s_waitcnt lgkmcnt(0)
	s_swappc_b64 s[30:31], s[16:17]
	v_lshlrev_b32_e32 v1, 2, v40
	v_mov_b32_e32 v2, s35
	v_add_co_u32_e32 v1, vcc, s34, v1
	v_addc_co_u32_e32 v2, vcc, 0, v2, vcc
	global_store_dword v[1:2], v0, off
	s_endpgm
.Lfunc_end0:
	.size	_Z4sinsPf, .Lfunc_end0-_Z4sinsPf
                                        ; -- End function
	.section	.rodata,#alloc
	.p2align	6
	.amdhsa_kernel _Z4sinsPf
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
	.end_amdhsa_kernel
	.text
