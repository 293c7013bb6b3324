//! Kepler–Pascal instruction semantics added for real listings (issue #26 item 1), each
//! against values derived by hand in the comments. One thread: `in[0..8]` are loaded into
//! R10..R17, the body computes into R20..R23, which are stored to `out[0..4]`; warp-wide
//! operations run 32 threads (`warp`). The kernels say `code for sm_61`.

mod common;

use common::{array, eval_one_thread, in_out_memory as memory, preset, run};
use proptest::prelude::*;
use sim::Launch;

fn eval(body: &str, inputs: &[u32]) -> Result<Vec<u32>, String> {
    eval_one_thread("sm_61", body, inputs, &[])
}

/// Runs `body` on one warp of 32 threads (R0: the lane); each thread stores R20 to
/// `out[2 + lane]`; `out[0..2]` are left to the body (atomics).
fn warp(body: &str) -> Vec<u32> {
    let src = format!(
        "code for sm_61\nS2R R0, SR_TID.X ;\n{body}\nSHL R2, R0, 0x2 ;\nSTG [R2+0x2008], R20 ;\nEXIT ;\n"
    );
    let s = run(
        &src,
        &Launch::default(),
        &preset("gpgpusim-like"),
        &memory(&[0], 34),
    )
    .expect("runs");
    array(&s, "out").to_vec()
}

#[test]
fn lea_forms_of_64_bit_addresses() {
    // R10 = 0xc000_0001, R11 = 7, R12 = 0xffff_fffc, R13 = 1.
    // LEA R20.CC, R10, R12, 0x2: (0xc000_0001 << 2) mod 2^32 = 4; 4 + 0xffff_fffc = 2^32:
    //   0, carry 1. LEA.HI.X R21, R10, R13, RZ, 0x2: high word of (0:R10) << 2 = 3, + 1 + 1
    //   = 5 (the 64-bit sum 0x3_0000_0004 + 0x1_ffff_fffc = 0x5_0000_0000).
    // Pascal's shift-less form: LEA R22.CC, R10, R12 = 0xc000_0001 + 0xffff_fffc =
    //   0x1_bfff_fffd: 0xbfff_fffd, carry 1; LEA.HI.X P0, R23, R10, RZ, R11 = 7 + 0 + 1 = 8.
    let out = eval(
        "LEA R20.CC, R10, R12, 0x2 ;\nLEA.HI.X R21, R10, R13, RZ, 0x2 ;\nLEA R22.CC, R10, R12 ;\nLEA.HI.X P0, R23, R10, RZ, R11 ;\n",
        &[0xc000_0001, 7, 0xffff_fffc, 1],
    )
    .expect("runs");
    assert_eq!(out, vec![0, 5, 0xbfff_fffd, 8]);
}

#[test]
fn lop3_with_a_predicate_result() {
    // `LOP3.LUT.NZ P0, RZ, a, b, c, 0xc8` (eigenvalues__bisectKernel, sm_61): LUT 0xc8 is
    // (a | c) & b; R10 = 0x00f0, R11 = 0x0f00, R12 = 0x0100: (0x01f0 & 0x0f00) = 0x0100, not
    // zero, so P0 = 1; with b = R13 = 0x0e00 the result is 0, P0 = 0. `.Z` is the negation.
    // R20, R21 = P0 as 0/1; R22 = the .Z predicate on the second; R23 = the first result.
    let out = eval(
        "LOP3.LUT.NZ P0, R23, R10, R11, R12, 0xc8 ;\nSEL R20, 0x1, RZ, P0 ;\n\
         LOP3.LUT.NZ P0, RZ, R10, R13, R12, 0xc8 ;\nSEL R21, 0x1, RZ, P0 ;\n\
         LOP3.LUT.Z P1, RZ, R10, R13, R12, 0xc8 ;\nSEL R22, 0x1, RZ, P1 ;\n",
        &[0x00f0, 0x0f00, 0x0100, 0x0e00],
    )
    .expect("runs");
    assert_eq!(out, vec![1, 0, 1, 0x0100]);
}

#[test]
fn bit_fields_and_compare_select() {
    // R10 = 0x8234_5678, R11 = 0xab, R12 = 5, R13 = -1.
    // BFE.U32 byte 1 (0x808): 0x56. BFE (signed) from bit 24, 16 long: bits 24..31 = 0x82,
    //   the rest filled with bit 31 (1): 0xffff_ff82.
    // BFI: R11's low 8 bits at bit 4 of R10: 0x8234_5678 → 0x8234_5ab8.
    // ICMP.LT R23, R11, R12, R13: R13 = -1 < 0, so R11 = 0xab.
    let out = eval(
        "BFE.U32 R20, R10, 0x808 ;\nBFE R21, R10, 0x1018 ;\nBFI R22, R11, 0x804, R10 ;\nICMP.LT R23, R11, R12, R13 ;\n",
        &[0x8234_5678, 0xab, 5, u32::MAX],
    )
    .expect("runs");
    assert_eq!(out, vec![0x56, 0xffff_ff82, 0x8234_5ab8, 0xab]);
}

#[test]
fn set_to_register_and_integer_conversions() {
    // R10 = -3, R11 = 2, R12 = 2.5, R13 = 1.0.
    // ISET.LT: -3 < 2 (signed): all ones. FSET.GT.BF: 2.5 > 1.0: 1.0 (0x3f80_0000).
    // FCMP.LT R22, R10, R11, R12: 2.5 < 0 fails, so R11 = 2. I2I.S32.S32 |R10| = 3.
    let out = eval(
        "ISET.LT.AND R20, R10, R11, PT ;\nFSET.GT.AND.BF R21, R12, R13, PT ;\nFCMP.LT R22, R10, R11, R12 ;\nI2I.S32.S32 R23, |R10| ;\n",
        &[(-3i32) as u32, 2, 2.5f32.to_bits(), 1.0f32.to_bits()],
    )
    .expect("runs");
    assert_eq!(out, vec![u32::MAX, 0x3f80_0000, 2, 3]);
    // I2I.U32.U32 -R10: 3. I2I.S16.S32 of 0x1234_8000: 0x8000 = -32768, sign-extended.
    // I2I.U8.S32.SAT of -3: 0. I2F.F64.S32 of -3: -3.0 = 0xc008_0000_0000_0000 (R22:R23).
    let out = eval(
        "I2I.U32.U32 R20, -R10 ;\nI2I.S16.S32 R21, R11 ;\nI2F.F64.S32 R22, R10 ;\n",
        &[(-3i32) as u32, 0x1234_8000],
    )
    .expect("runs");
    assert_eq!(out, vec![3, 0xffff_8000, 0, 0xc008_0000]);
    let out = eval("I2I.U8.S32.SAT R20, R10 ;\n", &[(-3i32) as u32]).expect("runs");
    assert_eq!(out[0], 0);
}

#[test]
fn sixty_four_bit_comparisons_through_the_flags() {
    // A = 5:3 (high:low), B = 5:7: the low words subtracted (ISUB RZ.CC), then the high
    // words compared with .X. A < B: 1; A == B: 0. C = 0xffff_ffff:0 (= -2^32 signed),
    // D = 0:1: C < D signed (1); unsigned 0xffff_ffff_0000_0000 < 1 fails (0).
    let body =
        "ISUB RZ.CC, R10, R12 ;\nISETP.LT.X.AND P0, PT, R11, R13, PT ;\nSEL R20, 0x1, RZ, P0 ;\n\
ISUB RZ.CC, R10, R12 ;\nISETP.EQ.X.AND P0, PT, R11, R13, PT ;\nSEL R21, 0x1, RZ, P0 ;\n\
ISUB RZ.CC, R14, R16 ;\nISETP.LT.X.AND P0, PT, R15, R17, PT ;\nSEL R22, 0x1, RZ, P0 ;\n\
ISUB RZ.CC, R14, R16 ;\nISETP.LT.U32.X.AND P0, PT, R15, R17, PT ;\nSEL R23, 0x1, RZ, P0 ;\n";
    let out = eval(body, &[3, 5, 7, 5, 0, u32::MAX, 1, 0]).expect("runs");
    assert_eq!(out, vec![1, 0, 1, 0]);
    // Equal 64-bit values: the zero flag of the low difference makes EQ hold; the
    // nvcc idiom `IADD32I RZ.CC, lo, -0x200; ISETP.NE.X hi, RZ` of `x != 0x200`.
    let body =
        "ISUB RZ.CC, R10, R10 ;\nISETP.EQ.X.AND P0, PT, R11, R11, PT ;\nSEL R20, 0x1, RZ, P0 ;\n\
IADD32I RZ.CC, R12, -0x200 ;\nISETP.NE.X.AND P1, PT, R13, RZ, PT ;\nSEL R21, 0x1, RZ, P1 ;\n\
IADD32I RZ.CC, R14, -0x200 ;\nISETP.NE.X.AND P1, PT, R15, RZ, PT ;\nSEL R22, 0x1, RZ, P1 ;\n";
    // 0:0x200 != 0x200 fails (0); 1:0x100 != 0x200 holds (1).
    let out = eval(body, &[9, 9, 0x200, 0, 0x100, 1]).expect("runs");
    assert_eq!(&out[..3], &[1, 0, 1]);
}

/// `ISET.X` (celer's `pow`: `ISET.EQ.X.AND R7, R7, c[0x2][0x0], PT`): the register form of
/// `ISETP.X`, the same flag comparison. A = 5:3, B = 5:7 (high:low): A < B gives -1 (all
/// ones), A == B gives 0, and with `.BF` 1.0; equal values 9:9 give EQ -1; C = 0xffff_ffff:0 <
/// D = 0:1 signed (-1) but not unsigned (0).
#[test]
fn sixty_four_bit_set_through_the_flags() {
    let body = "ISUB RZ.CC, R10, R12 ;\nISET.LT.X.AND R20, R11, R13, PT ;\n\
ISUB RZ.CC, R10, R12 ;\nISET.EQ.X.AND R21, R11, R13, PT ;\n\
ISUB RZ.CC, R14, R16 ;\nISET.LT.X.AND R22, R15, R17, PT ;\n\
ISUB RZ.CC, R14, R16 ;\nISET.LT.U32.X.AND R23, R15, R17, PT ;\n";
    let out = eval(body, &[3, 5, 7, 5, 0, u32::MAX, 1, 0]).expect("runs");
    assert_eq!(out, vec![u32::MAX, 0, u32::MAX, 0]);
    let body = "ISUB RZ.CC, R10, R10 ;\nISET.EQ.X.AND R20, R11, R11, PT ;\n\
ISUB RZ.CC, R10, R12 ;\nISET.BF.LT.X.AND R21, R11, R13, PT ;\n\
ISUB RZ.CC, R10, R12 ;\nISET.GT.X.AND R22, R11, R13, PT ;\n";
    let out = eval(body, &[3, 5, 7, 5]).expect("runs");
    assert_eq!(&out[..3], &[u32::MAX, 1.0f32.to_bits(), 0]);
}

#[test]
fn mufu_and_range_reduction() {
    // 1/4, 1/sqrt(16), 2^-3 (after RRO.EX2), log2(1024): all exact.
    let out = eval(
        "MUFU.RCP R20, R10 ;\nMUFU.RSQ R21, R11 ;\nRRO.EX2 R2, R12 ;\nMUFU.EX2 R22, R2 ;\nMUFU.LG2 R23, R13 ;\n",
        &[
            4.0f32.to_bits(),
            16.0f32.to_bits(),
            (-3.0f32).to_bits(),
            1024.0f32.to_bits(),
        ],
    )
    .expect("runs");
    let f: Vec<f32> = out.iter().map(|&b| f32::from_bits(b)).collect();
    assert_eq!(f, vec![0.25, 0.25, 0.125, 10.0]);
    // MUFU.RCP64H of the high word of 4.0 (0x4010_0000): the high word of 0.25
    // (0x3fd0_0000). RRO.SINCOS then MUFU.SIN of π/2: sin = 1 (to single precision), and
    // MUFU.COS of 0 turns: 1.
    let out = eval(
        "MUFU.RCP64H R20, R10 ;\nRRO.SINCOS R2, R11 ;\nMUFU.SIN R21, R2 ;\nMUFU.COS R22, RZ ;\n",
        &[0x4010_0000, std::f32::consts::FRAC_PI_2.to_bits()],
    )
    .expect("runs");
    assert_eq!(out[0], 0x3fd0_0000);
    assert_eq!(f32::from_bits(out[1]), 1.0);
    assert_eq!(f32::from_bits(out[2]), 1.0);
}

#[test]
fn predicate_logic_shifts_and_xmad_halves() {
    // LOP.AND.NZ: 0xf0 & 0x0f = 0, P0 false (0); LOP.OR.NZ: 0xff, P1 true (1).
    // SHR.U32.W by 33 wraps to a shift of 1: 0xf0 >> 1 = 0x78.
    // XMAD.PSL.CLO R23, R10.H1, 0x1, R12: (0x00f0 >> 16 = 0) * 1 << 16 + low half of
    //   0xabcd_1234 = 0x1234.
    let out = eval(
        "LOP.AND.NZ P0, RZ, R10, R11 ;\nSEL R20, 0x1, RZ, P0 ;\nLOP.OR.NZ P1, RZ, R10, R11 ;\nSEL R21, 0x1, RZ, P1 ;\nSHR.U32.W R22, R10, R13 ;\nXMAD.PSL.CLO R23, R14.H1, 0x1, R12 ;\n",
        &[0xf0, 0x0f, 0xabcd_1234, 33, 0x0003_0000],
    )
    .expect("runs");
    // R14 = 0x0003_0000: its high half 3, << 16 = 0x3_0000, + 0x1234.
    assert_eq!(out, vec![0, 1, 0x78, 0x0003_1234]);
}

#[test]
fn funnel_shifts_give_the_pascal_word() {
    // SHF.L.U64 R20, R10, 0x2, R11: (1:0xc000_0000) << 2 = 0x7_0000_0000, Pascal's SHF.L
    // keeps the high word, 7. SHF.R.S64 R21, RZ, 0x1e, R10: (0xc000_0000:0) = -2^62, >> 30
    // arithmetic = -2^32 = 0xffff_ffff_0000_0000, low word 0.
    // SHF.R.U64 R22, R10, 0x4, R11: (1:0xc000_0000) >> 4 = 0x1c00_0000 (low word).
    // Kepler's untyped SHF.L R23, RZ, 0x9, R11: high word of (1:0) << 9 = 0x200.
    let out = eval(
        "SHF.L.U64 R20, R10, 0x2, R11 ;
SHF.R.S64 R21, RZ, 0x1e, R10 ;
SHF.R.U64 R22, R10, 0x4, R11 ;
SHF.L R23, RZ, 0x9, R11 ;
",
        &[0xc000_0000, 1],
    )
    .expect("runs");
    assert_eq!(out, vec![7, 0, 0x1c00_0000, 0x200]);
}

#[test]
fn generic_load_and_store_with_a_trailing_predicate() {
    // ST.E/LD.E with Pascal's trailing predicate: the word moves as without it.
    let out = eval(
        "MOV32I R2, 0x2008 ;\nMOV R3, RZ ;\nST.E [R2], R10, P0 ;\nLD.E R20, [R2], P0 ;\n",
        &[0x1234_5678],
    )
    .expect("runs");
    assert_eq!(out[0], 0x1234_5678);
}

#[test]
fn warp_shuffle_vote_and_atomics() {
    // SHFL.BFLY by 1: lane l reads lane l ^ 1. VOTE.ANY of `lane < 4`: 0xf in every lane.
    // RED.E.ADD of the lane numbers: 0 + 1 + … + 31 = 496 at out[0]. ATOM.E.ADD of 1 at
    // out[1], lane by lane in lane order: lane l reads l, 32 at the end.
    let out = warp(
        "SHFL.BFLY PT, R4, R0, 0x1, 0x1f ;\nISETP.LT.AND P0, PT, R0, 0x4, PT ;\nVOTE.ANY R5, PT, P0 ;\n\
MOV32I R6, 0x2000 ;\nMOV R7, RZ ;\nRED.E.ADD [R6], R0 ;\nMOV32I R8, 0x1 ;\nATOM.E.ADD R9, [R6+0x4], R8 ;\n\
IADD R20, R4, R5 ;\nISETP.NE.AND P1, PT, R9, R0, PT ;\n@P1 MOV32I R20, 0xdead ;\n",
    );
    assert_eq!(out[0], 496);
    assert_eq!(out[1], 32);
    for lane in 0..32u32 {
        assert_eq!(out[2 + lane as usize], (lane ^ 1) + 0xf, "lane {lane}");
    }
}

#[test]
fn texture_forms_outside_the_model_and_other_banks_are_refused() {
    // A channel mask the model does not read is outside `sim::texture`'s model.
    let err = eval("TEXS.T RZ, R20, R10, R11, 0x52, 2D, R20 ;\n", &[0, 0]).expect_err("refused");
    assert!(
        err.contains("the channel mask is not one the model reads"),
        "{err}"
    );
    // The modelled form whose handle the launch does not give.
    let err = eval("TEXS.T RZ, R20, R10, R11, 0x52, 2D, R ;\n", &[0, 0]).expect_err("refused");
    assert!(
        err.contains("texture handle `c[0x0][0x148]` is not defined"),
        "{err}"
    );
    let err = eval("LDC R20, c[0x2][R10] ;\n", &[0]).expect_err("refused");
    assert!(err.contains("constant bank 2"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The compiler's unsigned multiply-high (sm_61 listings, e.g. before an
    /// `IADD3.RS R2, R2, R3, R12`): three partial products of 16-bit halves, the middle
    /// ones summed and shifted right by 16 — the high word of the 64-bit product.
    #[test]
    fn xmad_mulhi_sequence_is_the_high_word(a in any::<u32>(), b in any::<u32>()) {
        let body = "XMAD R2, R10, R11, RZ ;\nXMAD R3, R10, R11.H1, RZ ;\nXMAD R4, R10.H1, R11.H1, RZ ;\nXMAD.CHI R2, R10.H1, R11, R2 ;\nIADD3.RS R20, R2, R3, R4 ;\n";
        let out = eval(body, &[a, b]).map_err(TestCaseError::fail)?;
        prop_assert_eq!(out[0], ((u64::from(a) * u64::from(b)) >> 32) as u32);
    }

    /// 64-bit signed and unsigned `<` through `ISUB RZ.CC` + `ISETP.LT.X`.
    #[test]
    fn isetp_x_orders_64_bit_values(x in any::<u64>(), y in any::<u64>()) {
        let body = "ISUB RZ.CC, R10, R12 ;\nISETP.LT.X.AND P0, PT, R11, R13, PT ;\nSEL R20, 0x1, RZ, P0 ;\n\
ISUB RZ.CC, R10, R12 ;\nISETP.LT.U32.X.AND P0, PT, R11, R13, PT ;\nSEL R21, 0x1, RZ, P0 ;\n\
ISUB RZ.CC, R10, R12 ;\nISETP.GE.X.AND P0, PT, R11, R13, PT ;\nSEL R22, 0x1, RZ, P0 ;\n\
ISUB RZ.CC, R10, R12 ;\nISETP.NE.U32.X.AND P0, PT, R11, R13, PT ;\nSEL R23, 0x1, RZ, P0 ;\n";
        let ins = [x as u32, (x >> 32) as u32, y as u32, (y >> 32) as u32];
        let out = eval(body, &ins).map_err(TestCaseError::fail)?;
        prop_assert_eq!(out[0], u32::from((x as i64) < (y as i64)));
        prop_assert_eq!(out[1], u32::from(x < y));
        prop_assert_eq!(out[2], u32::from((x as i64) >= (y as i64)));
        prop_assert_eq!(out[3], u32::from(x != y));
    }

    /// 64-bit minimum and maximum through `IMNMX.XHI` + `IMNMX.XLO` (signed and unsigned
    /// high words), against Rust's `i64`/`u64` `min`/`max`.
    #[test]
    fn imnmx_pairs_are_64_bit_min_and_max(x in any::<u64>(), y in any::<u64>(), same_high in any::<bool>()) {
        let y = if same_high { (x & !0xffff_ffff) | (y & 0xffff_ffff) } else { y };
        let body = "IMNMX.XHI R21.CC, R11, R13, PT ;\nIMNMX.U32.XLO R20, R10, R12, PT ;\n\
IMNMX.U32.XHI R23.CC, R11, R13, !PT ;\nIMNMX.U32.XLO R22, R10, R12, !PT ;\n";
        let ins = [x as u32, (x >> 32) as u32, y as u32, (y >> 32) as u32];
        let out = eval(body, &ins).map_err(TestCaseError::fail)?;
        let min = (x as i64).min(y as i64) as u64;
        let max = x.max(y);
        prop_assert_eq!((out[0], out[1]), (min as u32, (min >> 32) as u32));
        prop_assert_eq!((out[2], out[3]), (max as u32, (max >> 32) as u32));
    }
}

#[test]
fn thrusts_min_of_a_64_bit_count_and_512() {
    // The pair in celer's thrust fill: R11:R10 = n, min(n, 0:0x200) signed.
    // n = 0:0x1000 → 0x200; n = 0:0x10 → 0x10; n = 1:0 (2^32) → 0x200; n = -1 → -1.
    let body = "IMNMX.XHI R21.CC, R11, RZ, PT ;\nIMNMX.U32.XLO R20, R10, 0x200, PT ;\n\
IMNMX.XHI R23.CC, R13, RZ, PT ;\nIMNMX.U32.XLO R22, R12, 0x200, PT ;\n";
    let out = eval(body, &[0x1000, 0, 0x10, 0]).expect("runs");
    assert_eq!(out, vec![0x200, 0, 0x10, 0]);
    let out = eval(body, &[0, 1, u32::MAX, u32::MAX]).expect("runs");
    assert_eq!(out, vec![0x200, 0, u32::MAX, u32::MAX]);
}

#[test]
fn fermi_video_three_operand_add_and_max() {
    // R10 = 7, R11 = -2, R12 = 0xffff_fff0, R13 = 5.
    // VADD.ACC: 7 + -2 + 0xffff_fff0 = 0xffff_fff5 (wrapping, sign irrelevant).
    // VMNMX.MX.MAX (signed, nothing printed): max(max(7, -2), -16) = 7.
    // VMNMX.MAX (min then max): max(min(7, -2), 5) = 5.
    // VMNMX.U32.U32.MX.MIN: min(max(7, 0xffff_fffe), 5) = 5; max unsigned picks -2 first.
    let out = eval(
        "VADD.ACC R20, R10, R11, R12 ;\nVMNMX.MX.MAX R21, R10, R11, R12 ;\nVMNMX.MAX R22, R10, R11, R13 ;\nVMNMX.U32.U32.MX.MIN R23, R10, R11, R13 ;\n",
        &[7, (-2i32) as u32, 0xffff_fff0, 5],
    )
    .expect("runs");
    assert_eq!(out, vec![0xffff_fff5, 7, 5, 5]);
    // Fermi's two-source POPC: popc(0xf0f0 & 0xff00) = 4, POPC R, R, R = popc(R) = 8.
    let out = eval(
        "POPC R20, R10, R11 ;\nPOPC R21, R10, R10 ;\n",
        &[0xf0f0, 0xff00],
    )
    .expect("runs");
    assert_eq!(&out[..2], &[4, 8]);
    // Forms without a secondary operation and sub-word selects are refused by name.
    let err = eval("VADD R20, R10, R11, R12 ;\n", &[1, 2, 3]).expect_err("refused");
    assert!(err.contains("secondary operation"), "{err}");
    let err = eval("VMNMX.MX.MAX R20, R10.B1, R11, R12 ;\n", &[1, 2, 3]).expect_err("refused");
    assert!(err.contains("sub-word"), "{err}");
}

#[test]
fn xmad_signed_halves() {
    // R10 = 0x1234_ffff (low half -1 as S16), R11 = 0x0000_0003, R12 = 10.
    // XMAD.S16.S16: -1 * 3 + 10 = 7. XMAD (unsigned): 0xffff * 3 + 10 = 0x3_0007.
    // XMAD.S16.U16 R22, R11, R10, RZ: 3 * 0xffff (B unsigned) = 0x2_fffd.
    // XMAD.U16.S16 R23, R11, R10, RZ: 3 * -1 = -3 = 0xffff_fffd.
    let out = eval(
        "XMAD.S16.S16 R20, R10, R11, R12 ;\nXMAD R21, R10, R11, R12 ;\nXMAD.S16.U16 R22, R11, R10, RZ ;\nXMAD.U16.S16 R23, R11, R10, RZ ;\n",
        &[0x1234_ffff, 3, 10],
    )
    .expect("runs");
    assert_eq!(out, vec![7, 0x3_0007, 0x2_fffd, 0xffff_fffd]);
}

#[test]
fn pset_r2p_and_the_bare_fcmp() {
    // R10 = 1, R11 = 0: P0 = (R10 == 1) holds, P1 = (R11 == 1) does not.
    // PSET.AND.AND R20, P0, PT, PT: (1 & 1) & 1, all ones (Rodinia nw's form).
    // PSET.BF.OR.AND R21, !P0, P1, PT: (0 | 0) & 1 = 0, so 0.
    // PSET.BF.OR.XOR R22, P0, P1, P1: (1 | 0) ^ 0 = 1, .BF: 1.0 (0x3f80_0000).
    // PSET.AND R23, P0, !P1: the short form (`.AND PT` implied), 1 & 1: all ones.
    let out = eval(
        "ISETP.EQ.AND P0, PT, R10, 0x1, PT ;\nISETP.EQ.AND P1, PT, R11, 0x1, PT ;\n\
         PSET.AND.AND R20, P0, PT, PT ;\nPSET.BF.OR.AND R21, !P0, P1, PT ;\n\
         PSET.BF.OR.XOR R22, P0, P1, P1 ;\nPSET.AND R23, P0, !P1 ;\n",
        &[1, 0],
    )
    .expect("runs");
    assert_eq!(out, vec![u32::MAX, 0, 0x3f80_0000, u32::MAX]);
    // R2P PR, R10, 0x3 with R10 = 5 (bits 0 and 2): P0 = 1, P1 = 0; P2 is outside the mask
    // and keeps the 1 the ISETP gave it although bit 2 is set.
    // FCMP without a printed comparison (.GT, Rodinia kmeans): R13 = 2.0 > 0, so R11 = 7.
    let out = eval(
        "ISETP.EQ.AND P2, PT, RZ, RZ, PT ;\nR2P PR, R10, 0x3 ;\nSEL R20, 0x1, RZ, P0 ;\n\
         SEL R21, 0x1, RZ, P1 ;\nSEL R22, 0x1, RZ, P2 ;\nFCMP R23, R11, R12, R13 ;\n",
        &[5, 7, 9, 2.0f32.to_bits()],
    )
    .expect("runs");
    assert_eq!(out, vec![1, 0, 1, 7]);
    // With R13 = −2.0, .GT fails: R12 = 9; with R13 = 0 as well.
    let out = eval(
        "FCMP R20, R11, R12, R13 ;\nFCMP R21, R11, R12, RZ ;\n",
        &[5, 7, 9, (-2.0f32).to_bits()],
    )
    .expect("runs");
    assert_eq!(out[..2], [9, 9]);
}

#[test]
fn condition_code_tests_are_refused_with_the_reason() {
    let err = eval(
        "ISET.GE.U32.AND RZ.CC, R10, R11, PT ;\n@!P0 BRA CC.NEU, 0x0 ;\n",
        &[1, 2],
    )
    .expect_err("refused");
    assert!(
        err.contains("condition code") && err.contains("not document"),
        "{err}"
    );
    let err = eval("CSETP.NEU.AND P1, PT, CC, PT ;\n", &[]).expect_err("refused");
    assert!(err.contains("condition code"), "{err}");
}
