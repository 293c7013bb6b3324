//! The 32-bit vector ALU encodings VOP2, VOP1 and VOPC (GCN3 ISA §6.1–§6.3, Vega ISA §6)
//! and the interpolation encoding VINTRP. Their VOP3 (`_e64`), SDWA and DPP forms are
//! suffixes of the same names ([`Encoding::suffixes`](super::Encoding::suffixes)).

use super::Builder;
use super::Encoding::*;
use super::Targets::*;

/// VOP2: two vector sources.
pub(super) fn add_vop2(b: &mut Builder) {
    // VOP2 (GCN3 ISA §6.1, Vega ISA §6.1).
    b.list(
        Vop2,
        Both,
        &[
            ("v_cndmask_b32", "D = VCC/SDST lane bit ? S1 : S0"),
            ("v_add_f32", "D = S0 + S1 (f32)"),
            ("v_sub_f32", "D = S0 - S1 (f32)"),
            ("v_subrev_f32", "D = S1 - S0 (f32)"),
            ("v_mul_legacy_f32", "D = S0 * S1 (f32, 0 × anything = 0)"),
            ("v_mul_f32", "D = S0 * S1 (f32)"),
            (
                "v_mul_i32_i24",
                "D = S0[23:0] * S1[23:0] (i24), low 32 bits",
            ),
            (
                "v_mul_hi_i32_i24",
                "D = S0[23:0] * S1[23:0] (i24), high 32 bits",
            ),
            (
                "v_mul_u32_u24",
                "D = S0[23:0] * S1[23:0] (u24), low 32 bits",
            ),
            (
                "v_mul_hi_u32_u24",
                "D = S0[23:0] * S1[23:0] (u24), high 32 bits",
            ),
            ("v_min_f32", "D = min(S0, S1) (f32)"),
            ("v_max_f32", "D = max(S0, S1) (f32)"),
            ("v_min_i32", "D = min(S0, S1) (i32)"),
            ("v_max_i32", "D = max(S0, S1) (i32)"),
            ("v_min_u32", "D = min(S0, S1) (u32)"),
            ("v_max_u32", "D = max(S0, S1) (u32)"),
            ("v_lshrrev_b32", "D = S1 >> S0[4:0] (logical)"),
            ("v_ashrrev_i32", "D = S1 >> S0[4:0] (arithmetic)"),
            ("v_lshlrev_b32", "D = S1 << S0[4:0]"),
            ("v_and_b32", "D = S0 & S1"),
            ("v_or_b32", "D = S0 | S1"),
            ("v_xor_b32", "D = S0 ^ S1"),
            ("v_mac_f32", "D = S0 * S1 + D (f32)"),
            ("v_madmk_f32", "D = S0 * K + S1 (f32, K a literal)"),
            ("v_madak_f32", "D = S0 * S1 + K (f32, K a literal)"),
            (
                "v_add_u32",
                "D = S0 + S1 (u32); GFX8: carry out to VCC/SDST, GFX9: no carry",
            ),
            (
                "v_sub_u32",
                "D = S0 - S1 (u32); GFX8: borrow to VCC/SDST, GFX9: no borrow",
            ),
            (
                "v_subrev_u32",
                "D = S1 - S0 (u32); GFX8: borrow to VCC/SDST, GFX9: no borrow",
            ),
            ("v_add_f16", "D = S0 + S1 (f16)"),
            ("v_sub_f16", "D = S0 - S1 (f16)"),
            ("v_subrev_f16", "D = S1 - S0 (f16)"),
            ("v_mul_f16", "D = S0 * S1 (f16)"),
            ("v_mac_f16", "D = S0 * S1 + D (f16)"),
            ("v_madmk_f16", "D = S0 * K + S1 (f16, K a literal)"),
            ("v_madak_f16", "D = S0 * S1 + K (f16, K a literal)"),
            ("v_add_u16", "D = S0 + S1 (u16)"),
            ("v_sub_u16", "D = S0 - S1 (u16)"),
            ("v_subrev_u16", "D = S1 - S0 (u16)"),
            ("v_mul_lo_u16", "D = S0 * S1 (u16), low 16 bits"),
            ("v_lshlrev_b16", "D = S1 << S0[3:0] (16-bit)"),
            ("v_lshrrev_b16", "D = S1 >> S0[3:0] (16-bit, logical)"),
            ("v_ashrrev_i16", "D = S1 >> S0[3:0] (16-bit, arithmetic)"),
            ("v_max_f16", "D = max(S0, S1) (f16)"),
            ("v_min_f16", "D = min(S0, S1) (f16)"),
            ("v_max_u16", "D = max(S0, S1) (u16)"),
            ("v_max_i16", "D = max(S0, S1) (i16)"),
            ("v_min_u16", "D = min(S0, S1) (u16)"),
            ("v_min_i16", "D = min(S0, S1) (i16)"),
            ("v_ldexp_f16", "D = S0 * 2^S1 (f16)"),
        ],
    );
    b.list(
        Vop2,
        Gfx8,
        &[
            (
                "v_addc_u32",
                "D = S0 + S1 + carry-in lane bit; carry out to VCC/SDST",
            ),
            (
                "v_subb_u32",
                "D = S0 - S1 - borrow-in lane bit; borrow to VCC/SDST",
            ),
            (
                "v_subbrev_u32",
                "D = S1 - S0 - borrow-in lane bit; borrow to VCC/SDST",
            ),
        ],
    );
    b.list(
        Vop2,
        Gfx9,
        &[
            ("v_add_co_u32", "D = S0 + S1 (u32); carry out to VCC/SDST"),
            ("v_sub_co_u32", "D = S0 - S1 (u32); borrow to VCC/SDST"),
            ("v_subrev_co_u32", "D = S1 - S0 (u32); borrow to VCC/SDST"),
            (
                "v_addc_co_u32",
                "D = S0 + S1 + carry-in lane bit; carry out to VCC/SDST",
            ),
            (
                "v_subb_co_u32",
                "D = S0 - S1 - borrow-in lane bit; borrow to VCC/SDST",
            ),
            (
                "v_subbrev_co_u32",
                "D = S1 - S0 - borrow-in lane bit; borrow to VCC/SDST",
            ),
            ("v_fmac_f32", "D = fma(S0, S1, D) (f32, gfx906)"),
            ("v_xnor_b32", "D = ~(S0 ^ S1) (gfx906)"),
            (
                "v_pk_fmac_f16",
                "D = fma(S0, S1, D) on two packed f16 (gfx906)",
            ),
        ],
    );
}

/// VOP1: one vector source.
pub(super) fn add_vop1(b: &mut Builder) {
    // VOP1.
    b.list(
        Vop1,
        Both,
        &[
            ("v_nop", "do nothing"),
            ("v_mov_b32", "D = S0"),
            (
                "v_readfirstlane_b32",
                "SGPR D = S0 of the first active lane",
            ),
            ("v_cvt_i32_f64", "D = (i32) S0 (f64)"),
            ("v_cvt_f64_i32", "D = (f64) S0 (i32)"),
            ("v_cvt_f32_i32", "D = (f32) S0 (i32)"),
            ("v_cvt_f32_u32", "D = (f32) S0 (u32)"),
            ("v_cvt_u32_f32", "D = (u32) S0 (f32)"),
            ("v_cvt_i32_f32", "D = (i32) S0 (f32)"),
            ("v_cvt_f16_f32", "D = (f16) S0 (f32)"),
            ("v_cvt_f32_f16", "D = (f32) S0 (f16)"),
            ("v_cvt_rpi_i32_f32", "D = (i32) floor(S0 + 0.5) (f32)"),
            ("v_cvt_flr_i32_f32", "D = (i32) floor(S0) (f32)"),
            ("v_cvt_off_f32_i4", "D = (f32) S0[3:0] (i4) / 16"),
            ("v_cvt_f32_f64", "D = (f32) S0 (f64)"),
            ("v_cvt_f64_f32", "D = (f64) S0 (f32)"),
            ("v_cvt_f32_ubyte0", "D = (f32) S0[7:0]"),
            ("v_cvt_f32_ubyte1", "D = (f32) S0[15:8]"),
            ("v_cvt_f32_ubyte2", "D = (f32) S0[23:16]"),
            ("v_cvt_f32_ubyte3", "D = (f32) S0[31:24]"),
            ("v_cvt_u32_f64", "D = (u32) S0 (f64)"),
            ("v_cvt_f64_u32", "D = (f64) S0 (u32)"),
            ("v_trunc_f64", "D = trunc(S0) (f64)"),
            ("v_ceil_f64", "D = ceil(S0) (f64)"),
            (
                "v_rndne_f64",
                "D = S0 rounded to nearest even integer (f64)",
            ),
            ("v_floor_f64", "D = floor(S0) (f64)"),
            ("v_fract_f32", "D = S0 - floor(S0) (f32)"),
            ("v_trunc_f32", "D = trunc(S0) (f32)"),
            ("v_ceil_f32", "D = ceil(S0) (f32)"),
            (
                "v_rndne_f32",
                "D = S0 rounded to nearest even integer (f32)",
            ),
            ("v_floor_f32", "D = floor(S0) (f32)"),
            ("v_exp_f32", "D = 2^S0 (f32)"),
            ("v_log_f32", "D = log2(S0) (f32)"),
            ("v_rcp_f32", "D = 1 / S0 (f32, approximate)"),
            (
                "v_rcp_iflag_f32",
                "D = 1 / S0 (f32), for integer division; no denormal flush",
            ),
            ("v_rsq_f32", "D = 1 / sqrt(S0) (f32, approximate)"),
            ("v_rcp_f64", "D = 1 / S0 (f64, approximate)"),
            ("v_rsq_f64", "D = 1 / sqrt(S0) (f64, approximate)"),
            ("v_sqrt_f32", "D = sqrt(S0) (f32)"),
            ("v_sqrt_f64", "D = sqrt(S0) (f64)"),
            ("v_sin_f32", "D = sin(S0 × 2π) (f32)"),
            ("v_cos_f32", "D = cos(S0 × 2π) (f32)"),
            ("v_not_b32", "D = ~S0"),
            ("v_bfrev_b32", "D = S0 bit-reversed"),
            (
                "v_ffbh_u32",
                "D = index of the first one bit from the MSB, -1 if none",
            ),
            (
                "v_ffbl_b32",
                "D = index of the first one bit from the LSB, -1 if none",
            ),
            (
                "v_ffbh_i32",
                "D = index of the first bit differing from the sign bit, from the MSB",
            ),
            (
                "v_frexp_exp_i32_f64",
                "D = exponent of S0 (f64) as in frexp",
            ),
            ("v_frexp_mant_f64", "D = mantissa of S0 (f64) as in frexp"),
            ("v_fract_f64", "D = S0 - floor(S0) (f64)"),
            (
                "v_frexp_exp_i32_f32",
                "D = exponent of S0 (f32) as in frexp",
            ),
            ("v_frexp_mant_f32", "D = mantissa of S0 (f32) as in frexp"),
            ("v_clrexcp", "clear the wavefront's exception state"),
            ("v_movreld_b32", "VGPR[D + M0] = S0 (relative destination)"),
            ("v_movrels_b32", "D = VGPR[S0 + M0] (relative source)"),
            ("v_movrelsd_b32", "VGPR[D + M0] = VGPR[S0 + M0]"),
            ("v_cvt_f16_u16", "D = (f16) S0 (u16)"),
            ("v_cvt_f16_i16", "D = (f16) S0 (i16)"),
            ("v_cvt_u16_f16", "D = (u16) S0 (f16)"),
            ("v_cvt_i16_f16", "D = (i16) S0 (f16)"),
            ("v_rcp_f16", "D = 1 / S0 (f16)"),
            ("v_sqrt_f16", "D = sqrt(S0) (f16)"),
            ("v_rsq_f16", "D = 1 / sqrt(S0) (f16)"),
            ("v_log_f16", "D = log2(S0) (f16)"),
            ("v_exp_f16", "D = 2^S0 (f16)"),
            ("v_frexp_mant_f16", "D = mantissa of S0 (f16) as in frexp"),
            (
                "v_frexp_exp_i16_f16",
                "D = exponent of S0 (f16) as in frexp",
            ),
            ("v_floor_f16", "D = floor(S0) (f16)"),
            ("v_ceil_f16", "D = ceil(S0) (f16)"),
            ("v_trunc_f16", "D = trunc(S0) (f16)"),
            (
                "v_rndne_f16",
                "D = S0 rounded to nearest even integer (f16)",
            ),
            ("v_fract_f16", "D = S0 - floor(S0) (f16)"),
            ("v_sin_f16", "D = sin(S0 × 2π) (f16)"),
            ("v_cos_f16", "D = cos(S0 × 2π) (f16)"),
            ("v_exp_legacy_f32", "D = 2^S0 (f32, legacy precision)"),
            ("v_log_legacy_f32", "D = log2(S0) (f32, legacy precision)"),
        ],
    );
    b.add(
        Vop1,
        Gfx8,
        "v_mov_fed_b32",
        "D = S0 with forced ECC error (debug)",
    );
    b.list(
        Vop1,
        Gfx9,
        &[
            ("v_cvt_norm_i16_f16", "D = (i16) normalized S0 (f16)"),
            ("v_cvt_norm_u16_f16", "D = (u16) normalized S0 (f16)"),
            (
                "v_sat_pk_u8_i16",
                "D = two i16 of S0 saturated to u8 and packed",
            ),
            ("v_swap_b32", "swap D and S0"),
            (
                "v_screen_partition_4se_b32",
                "D = screen partition mask for 4 shader engines",
            ),
        ],
    );
}

/// VOPC: vector compares, generated from conditions and types.
pub(super) fn add_vopc(b: &mut Builder) {
    // VOPC (GCN3 ISA §6.3 "Vector compare operations").
    const FLOAT_CONDS: &[(&str, &str)] = &[
        ("f", "false"),
        ("lt", "S0 < S1"),
        ("eq", "S0 == S1"),
        ("le", "S0 <= S1"),
        ("gt", "S0 > S1"),
        ("lg", "S0 <> S1 (ordered, not equal)"),
        ("ge", "S0 >= S1"),
        ("o", "ordered (neither is NaN)"),
        ("u", "unordered (either is NaN)"),
        ("nge", "!(S0 >= S1)"),
        ("nlg", "!(S0 <> S1)"),
        ("ngt", "!(S0 > S1)"),
        ("nle", "!(S0 <= S1)"),
        ("neq", "!(S0 == S1)"),
        ("nlt", "!(S0 < S1)"),
        ("tru", "true"),
    ];
    const INT_CONDS: &[(&str, &str)] = &[
        ("f", "false"),
        ("lt", "S0 < S1"),
        ("eq", "S0 == S1"),
        ("le", "S0 <= S1"),
        ("gt", "S0 > S1"),
        ("ne", "S0 != S1"),
        ("ge", "S0 >= S1"),
        ("t", "true"),
    ];
    for (x, into) in [("", "VCC/SDST"), ("x", "VCC/SDST and EXEC")] {
        for ty in ["f16", "f32", "f64"] {
            b.add(
                Vopc,
                Both,
                &format!("v_cmp{x}_class_{ty}"),
                &format!("per lane: is S0's float class ({ty}) in the mask S1? result to {into}"),
            );
            for (c, what) in FLOAT_CONDS {
                b.add(
                    Vopc,
                    Both,
                    &format!("v_cmp{x}_{c}_{ty}"),
                    &format!("per lane: {what} ({ty}); result to {into}"),
                );
            }
        }
        for ty in ["i16", "u16", "i32", "u32", "i64", "u64"] {
            for (c, what) in INT_CONDS {
                b.add(
                    Vopc,
                    Both,
                    &format!("v_cmp{x}_{c}_{ty}"),
                    &format!("per lane: {what} ({ty}); result to {into}"),
                );
            }
        }
    }
}

/// VINTRP: attribute interpolation.
pub(super) fn add_vintrp(b: &mut Builder) {
    // VINTRP.
    b.list(
        Vintrp,
        Both,
        &[
            (
                "v_interp_p1_f32",
                "D = attribute interpolation, first pass (P0 + i × P10)",
            ),
            (
                "v_interp_p2_f32",
                "D = attribute interpolation, second pass (+ j × P20)",
            ),
            ("v_interp_mov_f32", "D = attribute parameter P0, P10 or P20"),
        ],
    );
}
