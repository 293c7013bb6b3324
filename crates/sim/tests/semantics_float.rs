//! Floating-point rounding and conversions that nvcc emits for ordinary code (issue #37
//! item 2): directed rounding of `DADD`/`DMUL`/`DFMA`, `FMUL`'s power-of-two scaling,
//! `.NEG` immediates, rounding to an integral value (`FRND`, same-type `F2F`), conversions
//! from and to doubles and 64-bit integers, byte selects. Each against values derived by
//! hand in the comments. One thread: `in[0..8]` are loaded into R10..R17, the body computes
//! into R20..R23, which are stored to `out[0..4]`; `arch` is `sm_61` or `sm_86`.

mod common;

use common::eval_one_thread;

fn eval(arch: &str, body: &str, inputs: &[u32]) -> Result<Vec<u32>, String> {
    eval_one_thread(arch, body, inputs, &[])
}

/// The two words (low, high) of the double `x`.
fn words(x: f64) -> [u32; 2] {
    let b = x.to_bits();
    [b as u32, (b >> 32) as u32]
}

/// Inputs from doubles, each as two words.
fn doubles(xs: &[f64]) -> Vec<u32> {
    xs.iter().flat_map(|&x| words(x)).collect()
}

#[test]
fn directed_rounding_of_double_adds() {
    // R10:R11 = 1, R12:R13 = 2^-60 (0x3c30_0000_0000_0000). 1 + 2^-60 lies strictly between
    // 1 and the next double 1 + 2^-52 (0x3ff0_0000_0000_0001), far below the half-way
    // point: .RP goes up to 1 + 2^-52, .RM stays at 1 (0x3ff0_0000_0000_0000).
    for arch in ["sm_61", "sm_86"] {
        let out = eval(
            arch,
            "DADD.RP R20, R10, R12 ;\nDADD.RM R22, R10, R12 ;\n",
            &doubles(&[1.0, 2f64.powi(-60)]),
        )
        .expect("runs");
        assert_eq!(out, vec![1, 0x3ff0_0000, 0, 0x3ff0_0000], "{arch}");
        // −1 − 2^-60: toward zero −1 (0xbff0…0), toward −∞ −(1 + 2^-52) (0xbff0…01).
        let out = eval(
            arch,
            "DADD.RZ R20, -R10, -R12 ;\nDADD.RM R22, -R10, -R12 ;\n",
            &doubles(&[1.0, 2f64.powi(-60)]),
        )
        .expect("runs");
        assert_eq!(out, vec![0, 0xbff0_0000, 1, 0xbff0_0000], "{arch}");
    }
}

#[test]
fn directed_rounding_of_double_products_and_fma() {
    // (1 + 2^-52)² = 1 + 2^-51 + 2^-104: .RP gives 1 + 2^-51 + 2^-52 (0x3ff0…03), .RZ
    // 1 + 2^-51 (0x3ff0…02).
    let x = 1.0 + 2f64.powi(-52);
    let out = eval(
        "sm_86",
        "DMUL.RP R20, R10, R10 ;\nDMUL.RZ R22, R10, R10 ;\n",
        &doubles(&[x]),
    )
    .expect("runs");
    assert_eq!(out, vec![3, 0x3ff0_0000, 2, 0x3ff0_0000]);
    // fma(−2^-60, 2^-60, 1) = 1 − 2^-120 exactly: .RM gives the double below 1, 1 − 2^-53
    // (0x3fef_ffff_ffff_ffff); .RP gives 1. Written as the listings do (`DFMA.RP R12, R10,
    // -R16, R12`: the negated second factor).
    for arch in ["sm_61", "sm_86"] {
        let out = eval(
            arch,
            "DFMA.RM R20, R10, -R10, R12 ;\nDFMA.RP R22, R10, -R10, R12 ;\n",
            &doubles(&[2f64.powi(-60), 1.0]),
        )
        .expect("runs");
        assert_eq!(
            out,
            vec![0xffff_ffff, 0x3fef_ffff, 0, 0x3ff0_0000],
            "{arch}"
        );
    }
}

#[test]
fn fmul_scales_the_product_by_powers_of_two() {
    // 3 · 5 / 4 = 3.75 (0x4070_0000); 3 · 5 · 8 = 120 (0x42f0_0000); x = 1 + 2^-23: x² / 2 =
    // (1 + 2^-22 + 2^-46) / 2 rounds to nearest (1 + 2^-22) / 2 (0x3f00_0002), with .RP to
    // (1 + 2^-22 + 2^-23) / 2 (0x3f00_0003).
    for arch in ["sm_61", "sm_86"] {
        let out = eval(
            arch,
            "FMUL.D4 R20, R10, R11 ;\nFMUL.M8 R21, R10, R11 ;\nFMUL.D2 R22, R12, R12 ;\nFMUL.D2.RP R23, R12, R12 ;\n",
            &[3.0f32.to_bits(), 5.0f32.to_bits(), 0x3f80_0001],
        )
        .expect("runs");
        assert_eq!(
            out,
            vec![0x4070_0000, 0x42f0_0000, 0x3f00_0002, 0x3f00_0003],
            "{arch}"
        );
    }
    // The reading (scaled before the one rounding) decides a subnormal result: a = 2^-126 ·
    // (1 + 2^-23) (0x0080_0001), b = 1.5: a · b / 2 = (3·2^21 + 0.75) · 2^-149 rounds to
    // 3·2^21 + 1 = 0x0060_0001. Rounding the product first (to 1.5 + 2^-22, a tie to even)
    // and then halving would give 0x0060_0002. With .FTZ the subnormal result flushes to 0.
    let out = eval(
        "sm_61",
        "FMUL.D2 R20, R10, R11 ;\nFMUL.D2.FTZ R21, R10, R11 ;\n",
        &[0x0080_0001, 1.5f32.to_bits()],
    )
    .expect("runs");
    assert_eq!(out[..2], [0x0060_0001, 0]);
}

#[test]
fn negated_immediates() {
    // `FFMA R16, R19, 11.NEG, R16` (Rodinia myocyte, sm_61): 2 · (−11) + 30 = 8 (0x4100_0000);
    // `1.1920928955078125e-07.NEG` is −2^-23: 2 · −2^-23 + 0 = −2^-22 (0xb480_0000).
    let out = eval(
        "sm_61",
        "FFMA R20, R10, 11.NEG, R11 ;\nFFMA R21, R10, 1.1920928955078125e-07.NEG, RZ ;\n",
        &[2.0f32.to_bits(), 30.0f32.to_bits()],
    )
    .expect("runs");
    assert_eq!(out[..2], [0x4100_0000, 0xb480_0000]);
}

#[test]
fn rounding_to_integral_values() {
    // Pascal's same-type F2F: CEIL 2.25 = 3 (0x4040_0000), FLOOR −2.25 = −3 (0xc040_0000),
    // TRUNC −2.75 = −2 (0xc000_0000), ROUND 2.5 = 2 (ties to even, 0x4000_0000).
    let inputs = [2.25f32, -2.25, -2.75, 2.5].map(f32::to_bits);
    for (arch, body) in [
        (
            "sm_61",
            "F2F.F32.F32.CEIL R20, R10 ;\nF2F.F32.F32.FLOOR R21, R11 ;\nF2F.F32.F32.TRUNC R22, R12 ;\nF2F.F32.F32.ROUND R23, R13 ;\n",
        ),
        // sm_70+'s FRND, the same four; a bare FRND rounds to nearest even: 2.5 → 2.
        (
            "sm_86",
            "FRND.CEIL R20, R10 ;\nFRND.FLOOR R21, R11 ;\nFRND.TRUNC R22, R12 ;\nFRND R23, R13 ;\n",
        ),
    ] {
        let out = eval(arch, body, &inputs).expect("runs");
        assert_eq!(
            out,
            vec![0x4040_0000, 0xc040_0000, 0xc000_0000, 0x4000_0000],
            "{arch}"
        );
    }
    // The sign of a zero result is the operand's: CEIL −0.5 = −0 (0x8000_0000); FRND.F64.CEIL
    // of 1.5 = 2 (0x4000_0000_0000_0000); a bare same-type F2F with .FTZ flushes a
    // subnormal (0x0000_0001) to 0.
    let out = eval(
        "sm_86",
        "FRND.CEIL R20, R10 ;\nFRND.F64.CEIL R22, R12 ;\n",
        &[(-0.5f32).to_bits(), 0, words(1.5)[0], words(1.5)[1]],
    )
    .expect("runs");
    assert_eq!(out, vec![0x8000_0000, 0, 0, 0x4000_0000]);
    let out = eval("sm_61", "F2F.FTZ.F32.F32 R20, R10 ;\n", &[1]).expect("runs");
    assert_eq!(out[0], 0);
}

#[test]
fn float_to_integer_from_doubles_and_to_64_bits() {
    // −2.75 (0xc006_0000_0000_0000): TRUNC −2 (0xffff_fffe), CEIL −2; 2.5 to nearest: 2;
    // 3e10 (0x421b_f08e_b000_0000) saturates to i32::MAX.
    let inputs = doubles(&[-2.75, 2.5, 3e10]);
    let out = eval(
        "sm_61",
        "F2I.S32.F64.TRUNC R20, R10 ;\nF2I.S32.F64.CEIL R21, R10 ;\nF2I.S32.F64 R22, R12 ;\nF2I.S32.F64.TRUNC R23, R14 ;\n",
        &inputs,
    )
    .expect("runs");
    assert_eq!(out, vec![0xffff_fffe, 0xffff_fffe, 2, 0x7fff_ffff]);
    // sm_70+ leaves out the S32 destination: `F2I.F64.TRUNC`.
    let out = eval(
        "sm_86",
        "F2I.F64.TRUNC R20, R10 ;\nF2I.F64.CEIL R21, R10 ;\nF2I.F64 R22, R12 ;\nF2I.U32.F64.TRUNC R23, R10 ;\n",
        &inputs,
    )
    .expect("runs");
    // U32 of −2.75: saturated to 0.
    assert_eq!(out, vec![0xffff_fffe, 0xffff_fffe, 2, 0]);
    // 64-bit destinations: 2^40 + 0.5 (0x4270_0000_0000_0800) truncated is 2^40 =
    // 0x100:0x0; FLOOR of −0.5 into S64 is −1 = 0xffff_ffff:0xffff_ffff.
    let out = eval(
        "sm_86",
        "F2I.U64.F64.TRUNC R20, R10 ;\nF2I.S64.F64.FLOOR R22, R12 ;\n",
        &doubles(&[2f64.powi(40) + 0.5, -0.5]),
    )
    .expect("runs");
    assert_eq!(out, vec![0, 0x100, 0xffff_ffff, 0xffff_ffff]);
}

#[test]
fn integer_to_double_and_byte_selects() {
    // I2F.F64.S64 of −3 (0xffff_fffd:0xffff_ffff) = −3.0 (0xc008_0000_0000_0000);
    // sm_70+'s bare I2F.F64 converts an S32: −3 again.
    let out = eval(
        "sm_86",
        "I2F.F64.S64 R20, R10 ;\nI2F.F64 R22, R10 ;\n",
        &[0xffff_fffd, 0xffff_ffff],
    )
    .expect("runs");
    assert_eq!(out, vec![0, 0xc008_0000, 0, 0xc008_0000]);
    // 2^53 + 1 (0x1:0x20_0000) is not a double: .RZ gives 2^53 (0x4340_0000_0000_0000),
    // .RP 2^53 + 2 (0x4340_0000_0000_0001).
    let out = eval(
        "sm_86",
        "I2F.F64.S64.RZ R20, R10 ;\nI2F.F64.S64.RP R22, R10 ;\n",
        &[1, 0x20_0000],
    )
    .expect("runs");
    assert_eq!(out, vec![0, 0x4340_0000, 1, 0x4340_0000]);
    // `I2F.F32.U8 R8, R5.B1` (Parboil, sm_61): byte 1 of 0x12ff_ab34 is 0xab = 171
    // (0x432b_0000); as S8 byte 2 (0xff) is −1 (0xbf80_0000).
    let out = eval(
        "sm_61",
        "I2F.F32.U8 R20, R10.B1 ;\nI2F.F32.S8 R21, R10.B2 ;\n",
        &[0x12ff_ab34],
    )
    .expect("runs");
    assert_eq!(out[..2], [0x432b_0000, 0xbf80_0000]);
}

#[test]
fn narrowing_with_directed_rounding_and_saturation() {
    // 1 + 2^-30 (0x3ff0_0000_0040_0000) to f32: .RZ 1 (0x3f80_0000), .RP 1 + 2^-23
    // (0x3f80_0001); .SAT of 2.5 is 1, of −2.5 is 0.
    let out = eval(
        "sm_61",
        "F2F.F32.F64.RZ R20, R10 ;\nF2F.F32.F64.RP R21, R10 ;\nF2F.F32.F64.SAT R22, R12 ;\nF2F.F32.F64.SAT R23, -R12 ;\n",
        &doubles(&[1.0 + 2f64.powi(-30), 2.5]),
    )
    .expect("runs");
    assert_eq!(out, vec![0x3f80_0000, 0x3f80_0001, 0x3f80_0000, 0]);
}
