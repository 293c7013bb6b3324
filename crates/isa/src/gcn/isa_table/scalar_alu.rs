//! The scalar ALU and program-control encodings: SOP2, SOPK, SOP1, SOPC and SOPP (GCN3 ISA
//! §5, Vega ISA §5). Branches, `s_waitcnt`, `s_barrier` and the `*_saveexec_b64` mask
//! operations are here; their units and roles are derived from the name in the parent module.

use super::Builder;
use super::Encoding::*;
use super::Targets::*;

/// SOP2: two scalar sources.
pub(super) fn add_sop2(b: &mut Builder) {
    // SOP2 (GCN3 ISA §5.1, Vega ISA §5.1).
    b.list(
        Sop2,
        Both,
        &[
            ("s_add_u32", "D = S0 + S1 (u32); SCC = carry out"),
            ("s_sub_u32", "D = S0 - S1 (u32); SCC = borrow"),
            ("s_add_i32", "D = S0 + S1 (i32); SCC = signed overflow"),
            ("s_sub_i32", "D = S0 - S1 (i32); SCC = signed overflow"),
            ("s_addc_u32", "D = S0 + S1 + SCC; SCC = carry out"),
            ("s_subb_u32", "D = S0 - S1 - SCC; SCC = borrow"),
            ("s_min_i32", "D = min(S0, S1) (i32); SCC = S0 < S1"),
            ("s_min_u32", "D = min(S0, S1) (u32); SCC = S0 < S1"),
            ("s_max_i32", "D = max(S0, S1) (i32); SCC = S0 > S1"),
            ("s_max_u32", "D = max(S0, S1) (u32); SCC = S0 > S1"),
            ("s_cselect_b32", "D = SCC ? S0 : S1"),
            ("s_cselect_b64", "D = SCC ? S0 : S1 (64-bit)"),
            ("s_and_b32", "D = S0 & S1; SCC = D != 0"),
            ("s_and_b64", "D = S0 & S1 (64-bit); SCC = D != 0"),
            ("s_or_b32", "D = S0 | S1; SCC = D != 0"),
            ("s_or_b64", "D = S0 | S1 (64-bit); SCC = D != 0"),
            ("s_xor_b32", "D = S0 ^ S1; SCC = D != 0"),
            ("s_xor_b64", "D = S0 ^ S1 (64-bit); SCC = D != 0"),
            ("s_andn2_b32", "D = S0 & ~S1; SCC = D != 0"),
            ("s_andn2_b64", "D = S0 & ~S1 (64-bit); SCC = D != 0"),
            ("s_orn2_b32", "D = S0 | ~S1; SCC = D != 0"),
            ("s_orn2_b64", "D = S0 | ~S1 (64-bit); SCC = D != 0"),
            ("s_nand_b32", "D = ~(S0 & S1); SCC = D != 0"),
            ("s_nand_b64", "D = ~(S0 & S1) (64-bit); SCC = D != 0"),
            ("s_nor_b32", "D = ~(S0 | S1); SCC = D != 0"),
            ("s_nor_b64", "D = ~(S0 | S1) (64-bit); SCC = D != 0"),
            ("s_xnor_b32", "D = ~(S0 ^ S1); SCC = D != 0"),
            ("s_xnor_b64", "D = ~(S0 ^ S1) (64-bit); SCC = D != 0"),
            ("s_lshl_b32", "D = S0 << S1[4:0]; SCC = D != 0"),
            ("s_lshl_b64", "D = S0 << S1[5:0] (64-bit); SCC = D != 0"),
            ("s_lshr_b32", "D = S0 >> S1[4:0] (logical); SCC = D != 0"),
            ("s_lshr_b64", "D = S0 >> S1[5:0] (64-bit, logical); SCC = D != 0"),
            ("s_ashr_i32", "D = S0 >> S1[4:0] (arithmetic); SCC = D != 0"),
            ("s_ashr_i64", "D = S0 >> S1[5:0] (64-bit, arithmetic); SCC = D != 0"),
            ("s_bfm_b32", "D = bit mask of S0[4:0] ones shifted left by S1[4:0]"),
            ("s_bfm_b64", "D = 64-bit mask of S0[5:0] ones shifted left by S1[5:0]"),
            ("s_mul_i32", "D = S0 * S1, low 32 bits"),
            ("s_bfe_u32", "D = bit field of S0 (offset S1[4:0], width S1[22:16]), zero-extended; SCC = D != 0"),
            ("s_bfe_i32", "D = bit field of S0 (offset S1[4:0], width S1[22:16]), sign-extended; SCC = D != 0"),
            ("s_bfe_u64", "D = bit field of S0 (64-bit), zero-extended; SCC = D != 0"),
            ("s_bfe_i64", "D = bit field of S0 (64-bit), sign-extended; SCC = D != 0"),
            ("s_cbranch_g_fork", "fork: push the mask of the path not taken on the control stack and branch (S0 mask, S1 target)"),
            ("s_absdiff_i32", "D = |S0 - S1|; SCC = D != 0"),
            ("s_rfe_restore_b64", "return from exception handler, restoring state"),
        ],
    );
    b.list(
        Sop2,
        Gfx9,
        &[
            ("s_mul_hi_u32", "D = (S0 * S1) >> 32 (u32)"),
            ("s_mul_hi_i32", "D = (S0 * S1) >> 32 (i32)"),
            ("s_lshl1_add_u32", "D = (S0 << 1) + S1; SCC = carry out"),
            ("s_lshl2_add_u32", "D = (S0 << 2) + S1; SCC = carry out"),
            ("s_lshl3_add_u32", "D = (S0 << 3) + S1; SCC = carry out"),
            ("s_lshl4_add_u32", "D = (S0 << 4) + S1; SCC = carry out"),
            ("s_pack_ll_b32_b16", "D = {S1[15:0], S0[15:0]}"),
            ("s_pack_lh_b32_b16", "D = {S1[31:16], S0[15:0]}"),
            ("s_pack_hh_b32_b16", "D = {S1[31:16], S0[31:16]}"),
        ],
    );
}

/// SOPK: a scalar operand and a 16-bit immediate.
pub(super) fn add_sopk(b: &mut Builder) {
    // SOPK.
    b.list(
        Sopk,
        Both,
        &[
            ("s_movk_i32", "D = sign-extended 16-bit immediate"),
            ("s_cmovk_i32", "if SCC: D = sign-extended 16-bit immediate"),
            ("s_cmpk_eq_i32", "SCC = S0 == imm16 (i32)"),
            ("s_cmpk_lg_i32", "SCC = S0 != imm16 (i32)"),
            ("s_cmpk_gt_i32", "SCC = S0 > imm16 (i32)"),
            ("s_cmpk_ge_i32", "SCC = S0 >= imm16 (i32)"),
            ("s_cmpk_lt_i32", "SCC = S0 < imm16 (i32)"),
            ("s_cmpk_le_i32", "SCC = S0 <= imm16 (i32)"),
            ("s_cmpk_eq_u32", "SCC = S0 == imm16 (u32)"),
            ("s_cmpk_lg_u32", "SCC = S0 != imm16 (u32)"),
            ("s_cmpk_gt_u32", "SCC = S0 > imm16 (u32)"),
            ("s_cmpk_ge_u32", "SCC = S0 >= imm16 (u32)"),
            ("s_cmpk_lt_u32", "SCC = S0 < imm16 (u32)"),
            ("s_cmpk_le_u32", "SCC = S0 <= imm16 (u32)"),
            (
                "s_addk_i32",
                "D = D + sign-extended imm16; SCC = signed overflow",
            ),
            ("s_mulk_i32", "D = D * sign-extended imm16"),
            (
                "s_cbranch_i_fork",
                "fork with an immediate target: push the path not taken on the control stack",
            ),
            ("s_getreg_b32", "D = hardware register field (hwreg)"),
            ("s_setreg_b32", "hardware register field (hwreg) = S0"),
            (
                "s_setreg_imm32_b32",
                "hardware register field (hwreg) = 32-bit immediate",
            ),
        ],
    );
    b.add(
        Sopk,
        Gfx9,
        "s_call_b64",
        "call: D = address of the next instruction; jump to the label",
    );
}

/// SOP1: one scalar source.
pub(super) fn add_sop1(b: &mut Builder) {
    // SOP1.
    b.list(
        Sop1,
        Both,
        &[
            ("s_mov_b32", "D = S0"),
            ("s_mov_b64", "D = S0 (64-bit)"),
            ("s_cmov_b32", "if SCC: D = S0"),
            ("s_cmov_b64", "if SCC: D = S0 (64-bit)"),
            ("s_not_b32", "D = ~S0; SCC = D != 0"),
            ("s_not_b64", "D = ~S0 (64-bit); SCC = D != 0"),
            ("s_wqm_b32", "whole quad mode: each 4-bit group of D = any bit of S0's group; SCC = D != 0"),
            ("s_wqm_b64", "whole quad mode (64-bit): each 4-bit group of D = any bit of S0's group; SCC = D != 0"),
            ("s_brev_b32", "D = S0 bit-reversed"),
            ("s_brev_b64", "D = S0 bit-reversed (64-bit)"),
            ("s_bcnt0_i32_b32", "D = number of zero bits in S0; SCC = D != 0"),
            ("s_bcnt0_i32_b64", "D = number of zero bits in S0 (64-bit); SCC = D != 0"),
            ("s_bcnt1_i32_b32", "D = number of one bits in S0; SCC = D != 0"),
            ("s_bcnt1_i32_b64", "D = number of one bits in S0 (64-bit); SCC = D != 0"),
            ("s_ff0_i32_b32", "D = index of the first zero bit from the LSB, -1 if none"),
            ("s_ff0_i32_b64", "D = index of the first zero bit from the LSB (64-bit), -1 if none"),
            ("s_ff1_i32_b32", "D = index of the first one bit from the LSB, -1 if none"),
            ("s_ff1_i32_b64", "D = index of the first one bit from the LSB (64-bit), -1 if none"),
            ("s_flbit_i32_b32", "D = number of leading zeros from the MSB, -1 if S0 = 0"),
            ("s_flbit_i32_b64", "D = number of leading zeros from the MSB (64-bit), -1 if S0 = 0"),
            ("s_flbit_i32", "D = count of leading bits equal to the sign bit, -1 if all equal"),
            ("s_flbit_i32_i64", "D = count of leading bits equal to the sign bit (64-bit), -1 if all equal"),
            ("s_sext_i32_i8", "D = sign-extended S0[7:0]"),
            ("s_sext_i32_i16", "D = sign-extended S0[15:0]"),
            ("s_bitset0_b32", "D[S0[4:0]] = 0"),
            ("s_bitset0_b64", "D[S0[5:0]] = 0 (64-bit)"),
            ("s_bitset1_b32", "D[S0[4:0]] = 1"),
            ("s_bitset1_b64", "D[S0[5:0]] = 1 (64-bit)"),
            ("s_getpc_b64", "D = address of the next instruction"),
            ("s_setpc_b64", "jump to the address in S0 (returns and indirect jumps)"),
            ("s_swappc_b64", "call: D = address of the next instruction; jump to the address in S0"),
            ("s_rfe_b64", "return from exception handler to the address in S0"),
            ("s_and_saveexec_b64", "D = EXEC; EXEC = S0 & EXEC; SCC = EXEC != 0"),
            ("s_or_saveexec_b64", "D = EXEC; EXEC = S0 | EXEC; SCC = EXEC != 0"),
            ("s_xor_saveexec_b64", "D = EXEC; EXEC = S0 ^ EXEC; SCC = EXEC != 0"),
            ("s_andn2_saveexec_b64", "D = EXEC; EXEC = S0 & ~EXEC; SCC = EXEC != 0"),
            ("s_orn2_saveexec_b64", "D = EXEC; EXEC = S0 | ~EXEC; SCC = EXEC != 0"),
            ("s_nand_saveexec_b64", "D = EXEC; EXEC = ~(S0 & EXEC); SCC = EXEC != 0"),
            ("s_nor_saveexec_b64", "D = EXEC; EXEC = ~(S0 | EXEC); SCC = EXEC != 0"),
            ("s_xnor_saveexec_b64", "D = EXEC; EXEC = ~(S0 ^ EXEC); SCC = EXEC != 0"),
            ("s_quadmask_b32", "D bit i = any bit of S0's 4-bit group i; SCC = D != 0"),
            ("s_quadmask_b64", "D bit i = any bit of S0's 4-bit group i (64-bit); SCC = D != 0"),
            ("s_movrels_b32", "D = SGPR[S0 + M0] (relative source)"),
            ("s_movrels_b64", "D = SGPR pair[S0 + M0] (relative source)"),
            ("s_movreld_b32", "SGPR[D + M0] = S0 (relative destination)"),
            ("s_movreld_b64", "SGPR pair[D + M0] = S0 (relative destination)"),
            ("s_cbranch_join", "join: pop the control stack and continue the saved path"),
            ("s_abs_i32", "D = |S0|; SCC = D != 0"),
            ("s_set_gpr_idx_idx", "M0[7:0] = S0[7:0] (VGPR index for GPR indexing mode)"),
        ],
    );
    b.list(
        Sop1,
        Gfx9,
        &[
            (
                "s_andn1_saveexec_b64",
                "D = EXEC; EXEC = ~S0 & EXEC; SCC = EXEC != 0",
            ),
            (
                "s_orn1_saveexec_b64",
                "D = EXEC; EXEC = ~S0 | EXEC; SCC = EXEC != 0",
            ),
            (
                "s_andn1_wrexec_b64",
                "EXEC = ~S0 & EXEC; D = EXEC; SCC = EXEC != 0",
            ),
            (
                "s_andn2_wrexec_b64",
                "EXEC = S0 & ~EXEC; D = EXEC; SCC = EXEC != 0",
            ),
            (
                "s_bitreplicate_b64_b32",
                "D = each bit of S0 replicated twice (32 → 64 bits)",
            ),
        ],
    );
}

/// SOPC: scalar compares writing SCC.
pub(super) fn add_sopc(b: &mut Builder) {
    // SOPC.
    for (c, op) in [
        ("eq", "=="),
        ("lg", "!="),
        ("gt", ">"),
        ("ge", ">="),
        ("lt", "<"),
        ("le", "<="),
    ] {
        for ty in ["i32", "u32"] {
            b.add(
                Sopc,
                Both,
                &format!("s_cmp_{c}_{ty}"),
                &format!("SCC = S0 {op} S1 ({ty})"),
            );
        }
    }
    b.list(
        Sopc,
        Both,
        &[
            ("s_cmp_eq_u64", "SCC = S0 == S1 (64-bit)"),
            ("s_cmp_lg_u64", "SCC = S0 != S1 (64-bit)"),
            ("s_bitcmp0_b32", "SCC = S0[S1[4:0]] == 0"),
            ("s_bitcmp1_b32", "SCC = S0[S1[4:0]] == 1"),
            ("s_bitcmp0_b64", "SCC = S0[S1[5:0]] == 0 (64-bit)"),
            ("s_bitcmp1_b64", "SCC = S0[S1[5:0]] == 1 (64-bit)"),
            (
                "s_setvskip",
                "VSKIP = S0[S1[4:0]]: while set, vector instructions are skipped",
            ),
            (
                "s_set_gpr_idx_on",
                "enable GPR indexing mode: M0 = index S0, mode bits imm",
            ),
        ],
    );
}

/// SOPP: program control with an immediate.
pub(super) fn add_sopp(b: &mut Builder) {
    // SOPP.
    b.list(
        Sopp,
        Both,
        &[
            (
                "s_nop",
                "do nothing for imm + 1 wait states (GFX8: 1-8, GFX9: 1-16)",
            ),
            ("s_endpgm", "end of program: the wavefront terminates"),
            ("s_branch", "jump to the label"),
            (
                "s_wakeup",
                "wake the other wavefronts of the workgroup from s_sleep",
            ),
            (
                "s_cbranch_scc0",
                "branch to the label if SCC == 0 (uniform)",
            ),
            (
                "s_cbranch_scc1",
                "branch to the label if SCC == 1 (uniform)",
            ),
            (
                "s_cbranch_vccz",
                "branch to the label if VCC == 0 (uniform)",
            ),
            (
                "s_cbranch_vccnz",
                "branch to the label if VCC != 0 (uniform)",
            ),
            (
                "s_cbranch_execz",
                "branch to the label if EXEC == 0 (no work-item active)",
            ),
            (
                "s_cbranch_execnz",
                "branch to the label if EXEC != 0 (some work-item active)",
            ),
            (
                "s_barrier",
                "wait until every wavefront of the workgroup reaches the barrier",
            ),
            (
                "s_setkill",
                "set the kill bit (debug: terminate the wavefront)",
            ),
            (
                "s_waitcnt",
                "wait until the vmcnt/expcnt/lgkmcnt counters are at most the given values",
            ),
            ("s_sethalt", "halt (imm16[0] = 1) or resume the wavefront"),
            ("s_sleep", "sleep about 64 × imm16[2:0] cycles"),
            (
                "s_setprio",
                "set the wavefront's issue priority to imm16[1:0]",
            ),
            (
                "s_sendmsg",
                "send a message to the host or the graphics pipeline",
            ),
            ("s_sendmsghalt", "send a message, then halt the wavefront"),
            ("s_trap", "enter the trap handler with trap id imm16[7:0]"),
            ("s_icache_inv", "invalidate the instruction cache"),
            ("s_incperflevel", "increment the performance counter level"),
            ("s_decperflevel", "decrement the performance counter level"),
            ("s_ttracedata", "send M0 as thread-trace data"),
            (
                "s_cbranch_cdbgsys",
                "branch to the label if the system debug flag is set",
            ),
            (
                "s_cbranch_cdbguser",
                "branch to the label if the user debug flag is set",
            ),
            (
                "s_cbranch_cdbgsys_or_user",
                "branch to the label if either debug flag is set",
            ),
            (
                "s_cbranch_cdbgsys_and_user",
                "branch to the label if both debug flags are set",
            ),
            ("s_endpgm_saved", "end of program after a context save"),
            ("s_set_gpr_idx_off", "disable GPR indexing mode"),
            ("s_set_gpr_idx_mode", "set the GPR indexing mode bits"),
        ],
    );
    b.add(
        Sopp,
        Gfx9,
        "s_endpgm_ordered_ps_done",
        "end of program, signalling ordered pixel-shader completion",
    );
}
