//! The opcodes that exist only in the 64-bit vector encodings: VOP3 (GCN3 ISA §6.4) and the
//! packed-math VOP3P of Vega (Vega ISA §6.5), `gfx906` dot products and mixes included.

use super::Builder;
use super::Encoding::*;
use super::Targets::*;

/// VOP3-only opcodes: three sources, or 64-bit results.
pub(super) fn add_vop3(b: &mut Builder) {
    // VOP3-only opcodes (GCN3 ISA §6.4 "VOP3").
    b.list(
        Vop3,
        Both,
        &[
            (
                "v_mad_legacy_f32",
                "D = S0 * S1 + S2 (f32, 0 × anything = 0)",
            ),
            ("v_mad_f32", "D = S0 * S1 + S2 (f32)"),
            (
                "v_mad_i32_i24",
                "D = S0[23:0] * S1[23:0] + S2 (i24 multiply)",
            ),
            (
                "v_mad_u32_u24",
                "D = S0[23:0] * S1[23:0] + S2 (u24 multiply)",
            ),
            (
                "v_cubeid_f32",
                "D = cube map face id of the vector (S0, S1, S2)",
            ),
            (
                "v_cubesc_f32",
                "D = cube map s coordinate of the vector (S0, S1, S2)",
            ),
            (
                "v_cubetc_f32",
                "D = cube map t coordinate of the vector (S0, S1, S2)",
            ),
            (
                "v_cubema_f32",
                "D = 2 × cube map major axis of the vector (S0, S1, S2)",
            ),
            (
                "v_bfe_u32",
                "D = bit field of S0 at offset S1, width S2, zero-extended",
            ),
            (
                "v_bfe_i32",
                "D = bit field of S0 at offset S1, width S2, sign-extended",
            ),
            ("v_bfi_b32", "D = (S0 & S1) | (~S0 & S2) (bit field insert)"),
            ("v_fma_f32", "D = fma(S0, S1, S2) (f32)"),
            ("v_fma_f64", "D = fma(S0, S1, S2) (f64)"),
            (
                "v_lerp_u8",
                "D = per-byte rounded average of S0 and S1 (rounding bits from S2)",
            ),
            ("v_alignbit_b32", "D = ({S0, S1} >> S2[4:0]) low 32 bits"),
            (
                "v_alignbyte_b32",
                "D = ({S0, S1} >> (8 × S2[1:0])) low 32 bits",
            ),
            ("v_min3_f32", "D = min(S0, S1, S2) (f32)"),
            ("v_min3_i32", "D = min(S0, S1, S2) (i32)"),
            ("v_min3_u32", "D = min(S0, S1, S2) (u32)"),
            ("v_max3_f32", "D = max(S0, S1, S2) (f32)"),
            ("v_max3_i32", "D = max(S0, S1, S2) (i32)"),
            ("v_max3_u32", "D = max(S0, S1, S2) (u32)"),
            ("v_med3_f32", "D = median(S0, S1, S2) (f32)"),
            ("v_med3_i32", "D = median(S0, S1, S2) (i32)"),
            ("v_med3_u32", "D = median(S0, S1, S2) (u32)"),
            (
                "v_sad_u8",
                "D = sum of absolute byte differences of S0 and S1, plus S2",
            ),
            (
                "v_sad_hi_u8",
                "D = (sum of absolute byte differences << 16) + S2",
            ),
            (
                "v_sad_u16",
                "D = sum of absolute u16 differences of S0 and S1, plus S2",
            ),
            ("v_sad_u32", "D = |S0 - S1| + S2 (u32)"),
            (
                "v_cvt_pk_u8_f32",
                "D = S2 with byte S1[1:0] replaced by (u8) S0 (f32)",
            ),
            (
                "v_div_fixup_f32",
                "D = f32 division S2 / S1 with quotient estimate S0, special cases fixed up",
            ),
            (
                "v_div_fixup_f64",
                "D = f64 division S2 / S1 with quotient estimate S0, special cases fixed up",
            ),
            (
                "v_div_scale_f32",
                "D = scaled operand of a f32 division; VCC/SDST = scale flag",
            ),
            (
                "v_div_scale_f64",
                "D = scaled operand of a f64 division; VCC/SDST = scale flag",
            ),
            (
                "v_div_fmas_f32",
                "D = fma(S0, S1, S2) (f32), result scaled if VCC",
            ),
            (
                "v_div_fmas_f64",
                "D = fma(S0, S1, S2) (f64), result scaled if VCC",
            ),
            (
                "v_msad_u8",
                "D = masked sum of absolute byte differences, plus S2",
            ),
            (
                "v_qsad_pk_u16_u8",
                "D = four shifted sums of absolute byte differences (u16 packed)",
            ),
            (
                "v_mqsad_pk_u16_u8",
                "D = four masked shifted sums of absolute byte differences (u16 packed)",
            ),
            (
                "v_mqsad_u32_u8",
                "D = four masked shifted sums of absolute byte differences (u32)",
            ),
            (
                "v_mad_u64_u32",
                "D = S0 * S1 + S2 (u32 × u32 + u64); carry out to SDST",
            ),
            (
                "v_mad_i64_i32",
                "D = S0 * S1 + S2 (i32 × i32 + i64); carry out to SDST",
            ),
            ("v_mad_f16", "D = S0 * S1 + S2 (f16)"),
            ("v_mad_u16", "D = S0 * S1 + S2 (u16)"),
            ("v_mad_i16", "D = S0 * S1 + S2 (i16)"),
            ("v_perm_b32", "D = bytes of {S0, S1} selected by S2"),
            ("v_fma_f16", "D = fma(S0, S1, S2) (f16)"),
            (
                "v_div_fixup_f16",
                "D = special-case fix-up of a f16 division",
            ),
            (
                "v_cvt_pkaccum_u8_f32",
                "D byte S1[1:0] = (u8) S0 (f32), other bytes kept",
            ),
            (
                "v_interp_p1ll_f16",
                "D = f16 attribute interpolation, first pass",
            ),
            (
                "v_interp_p1lv_f16",
                "D = f16 attribute interpolation, first pass (vector P0)",
            ),
            (
                "v_interp_p2_f16",
                "D = f16 attribute interpolation, second pass",
            ),
            ("v_add_f64", "D = S0 + S1 (f64)"),
            ("v_mul_f64", "D = S0 * S1 (f64)"),
            ("v_min_f64", "D = min(S0, S1) (f64)"),
            ("v_max_f64", "D = max(S0, S1) (f64)"),
            ("v_ldexp_f64", "D = S0 * 2^S1 (f64)"),
            ("v_mul_lo_u32", "D = S0 * S1, low 32 bits"),
            ("v_mul_hi_u32", "D = S0 * S1 (u32), high 32 bits"),
            ("v_mul_hi_i32", "D = S0 * S1 (i32), high 32 bits"),
            ("v_ldexp_f32", "D = S0 * 2^S1 (f32)"),
            ("v_readlane_b32", "SGPR D = S0 of lane S1"),
            ("v_writelane_b32", "lane S1 of D = SGPR S0"),
            ("v_bcnt_u32_b32", "D = number of one bits in S0, plus S1"),
            (
                "v_mbcnt_lo_u32_b32",
                "D = one bits of S0 below the lane (lanes 0-31), plus S1",
            ),
            (
                "v_mbcnt_hi_u32_b32",
                "D = one bits of S0 below the lane (lanes 32-63), plus S1",
            ),
            ("v_lshlrev_b64", "D = S1 << S0[5:0] (64-bit)"),
            ("v_lshrrev_b64", "D = S1 >> S0[5:0] (64-bit, logical)"),
            ("v_ashrrev_i64", "D = S1 >> S0[5:0] (64-bit, arithmetic)"),
            (
                "v_trig_preop_f64",
                "D = 53 bits of 2/π selected by S1, scaled for S0 (f64)",
            ),
            (
                "v_bfm_b32",
                "D = mask of S0[4:0] ones shifted left by S1[4:0]",
            ),
            (
                "v_cvt_pknorm_i16_f32",
                "D = two f32 converted to normalized i16, packed",
            ),
            (
                "v_cvt_pknorm_u16_f32",
                "D = two f32 converted to normalized u16, packed",
            ),
            (
                "v_cvt_pkrtz_f16_f32",
                "D = two f32 converted to f16 (round to zero), packed",
            ),
            ("v_cvt_pk_u16_u32", "D = {(u16) S1, (u16) S0}"),
            ("v_cvt_pk_i16_i32", "D = {(i16) S1, (i16) S0}"),
        ],
    );
    b.list(
        Vop3,
        Gfx9,
        &[
            (
                "v_mad_legacy_f16",
                "D = S0 * S1 + S2 (f16, GFX8 semantics of v_mad_f16)",
            ),
            (
                "v_mad_legacy_u16",
                "D = S0 * S1 + S2 (u16, GFX8 semantics of v_mad_u16)",
            ),
            (
                "v_mad_legacy_i16",
                "D = S0 * S1 + S2 (i16, GFX8 semantics of v_mad_i16)",
            ),
            (
                "v_fma_legacy_f16",
                "D = fma(S0, S1, S2) (f16, GFX8 semantics of v_fma_f16)",
            ),
            (
                "v_div_fixup_legacy_f16",
                "D = f16 division fix-up (GFX8 semantics of v_div_fixup_f16)",
            ),
            ("v_mad_u32_u16", "D = S0[15:0] * S1[15:0] + S2 (u32)"),
            ("v_mad_i32_i16", "D = S0[15:0] * S1[15:0] + S2 (i32)"),
            ("v_xad_u32", "D = (S0 ^ S1) + S2"),
            ("v_min3_f16", "D = min(S0, S1, S2) (f16)"),
            ("v_min3_i16", "D = min(S0, S1, S2) (i16)"),
            ("v_min3_u16", "D = min(S0, S1, S2) (u16)"),
            ("v_max3_f16", "D = max(S0, S1, S2) (f16)"),
            ("v_max3_i16", "D = max(S0, S1, S2) (i16)"),
            ("v_max3_u16", "D = max(S0, S1, S2) (u16)"),
            ("v_med3_f16", "D = median(S0, S1, S2) (f16)"),
            ("v_med3_i16", "D = median(S0, S1, S2) (i16)"),
            ("v_med3_u16", "D = median(S0, S1, S2) (u16)"),
            ("v_lshl_add_u32", "D = (S0 << S1[4:0]) + S2"),
            ("v_add_lshl_u32", "D = (S0 + S1) << S2[4:0]"),
            ("v_add3_u32", "D = S0 + S1 + S2"),
            ("v_lshl_or_b32", "D = (S0 << S1[4:0]) | S2"),
            ("v_and_or_b32", "D = (S0 & S1) | S2"),
            ("v_or3_b32", "D = S0 | S1 | S2"),
            ("v_pack_b32_f16", "D = {S1[15:0], S0[15:0]} (two f16)"),
            (
                "v_cvt_pknorm_i16_f16",
                "D = two f16 converted to normalized i16, packed",
            ),
            (
                "v_cvt_pknorm_u16_f16",
                "D = two f16 converted to normalized u16, packed",
            ),
            ("v_add_i32", "D = S0 + S1 (i32), optional clamp"),
            ("v_sub_i32", "D = S0 - S1 (i32), optional clamp"),
            ("v_add_i16", "D = S0 + S1 (i16), optional clamp"),
            ("v_sub_i16", "D = S0 - S1 (i16), optional clamp"),
            (
                "v_interp_p2_legacy_f16",
                "D = f16 attribute interpolation, second pass (GFX8 semantics)",
            ),
        ],
    );
}

/// VOP3P: packed 16-bit math and the dot products.
pub(super) fn add_vop3p(b: &mut Builder) {
    // VOP3P (Vega ISA §6.5 "VOP3P").
    b.list(
        Vop3p,
        Gfx9,
        &[
            ("v_pk_mad_i16", "D = S0 * S1 + S2 on two packed i16"),
            (
                "v_pk_mul_lo_u16",
                "D = S0 * S1 (low 16 bits) on two packed u16",
            ),
            ("v_pk_add_i16", "D = S0 + S1 on two packed i16"),
            ("v_pk_sub_i16", "D = S0 - S1 on two packed i16"),
            (
                "v_pk_lshlrev_b16",
                "D = S1 << S0 on two packed 16-bit values",
            ),
            (
                "v_pk_lshrrev_b16",
                "D = S1 >> S0 (logical) on two packed 16-bit values",
            ),
            (
                "v_pk_ashrrev_i16",
                "D = S1 >> S0 (arithmetic) on two packed i16",
            ),
            ("v_pk_max_i16", "D = max(S0, S1) on two packed i16"),
            ("v_pk_min_i16", "D = min(S0, S1) on two packed i16"),
            ("v_pk_mad_u16", "D = S0 * S1 + S2 on two packed u16"),
            ("v_pk_add_u16", "D = S0 + S1 on two packed u16"),
            ("v_pk_sub_u16", "D = S0 - S1 on two packed u16"),
            ("v_pk_max_u16", "D = max(S0, S1) on two packed u16"),
            ("v_pk_min_u16", "D = min(S0, S1) on two packed u16"),
            ("v_pk_fma_f16", "D = fma(S0, S1, S2) on two packed f16"),
            ("v_pk_add_f16", "D = S0 + S1 on two packed f16"),
            ("v_pk_mul_f16", "D = S0 * S1 on two packed f16"),
            ("v_pk_min_f16", "D = min(S0, S1) on two packed f16"),
            ("v_pk_max_f16", "D = max(S0, S1) on two packed f16"),
            (
                "v_mad_mix_f32",
                "D = S0 * S1 + S2 (f32, each source f32 or f16)",
            ),
            (
                "v_mad_mixlo_f16",
                "D[15:0] = S0 * S1 + S2 as f16 (mixed f32/f16 sources)",
            ),
            (
                "v_mad_mixhi_f16",
                "D[31:16] = S0 * S1 + S2 as f16 (mixed f32/f16 sources)",
            ),
            (
                "v_fma_mix_f32",
                "D = fma(S0, S1, S2) (f32, each source f32 or f16; gfx906)",
            ),
            (
                "v_fma_mixlo_f16",
                "D[15:0] = fma(S0, S1, S2) as f16 (gfx906)",
            ),
            (
                "v_fma_mixhi_f16",
                "D[31:16] = fma(S0, S1, S2) as f16 (gfx906)",
            ),
            (
                "v_dot2_f32_f16",
                "D = S0.x*S1.x + S0.y*S1.y + S2 (f16 pairs, f32 sum; gfx906)",
            ),
            (
                "v_dot2_i32_i16",
                "D = dot product of two i16 pairs + S2 (gfx906)",
            ),
            (
                "v_dot2_u32_u16",
                "D = dot product of two u16 pairs + S2 (gfx906)",
            ),
            ("v_dot4_i32_i8", "D = dot product of four i8 + S2 (gfx906)"),
            ("v_dot4_u32_u8", "D = dot product of four u8 + S2 (gfx906)"),
            ("v_dot8_i32_i4", "D = dot product of eight i4 + S2 (gfx906)"),
            ("v_dot8_u32_u4", "D = dot product of eight u4 + S2 (gfx906)"),
        ],
    );
}
