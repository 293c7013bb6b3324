//! Volta-and-later instruction semantics (sm_70+): each opcode against hand-computed values,
//! and the compiler's sequences (64-bit arithmetic, the integer-division idiom) against Rust.
//! One thread: `in[0..8]` are loaded into R10..R17, the body computes into R20..R23, which
//! are stored to `out[0..4]`. Warp-wide operations run 32 threads.

mod common;

use common::{array, eval_one_thread, in_out_memory as memory, preset, run};
use proptest::prelude::*;
use sim::Launch;

/// Runs `body` as an sm_86 kernel of one thread with launch parameters `params`.
fn eval_with(body: &str, inputs: &[u32], params: &[u32]) -> Result<Vec<u32>, String> {
    eval_one_thread("sm_86", body, inputs, params)
}

fn eval(body: &str, inputs: &[u32]) -> Result<Vec<u32>, String> {
    eval_with(body, inputs, &[])
}

/// Runs `src` with `launch` on the `gpgpusim-like` preset, `out` 32 zero words.
fn run_warps(src: &str, launch: &Launch) -> Result<sim::Simulation, sim::SimError> {
    run(src, launch, &preset("gpgpusim-like"), &memory(&[0], 32))
}

/// Runs `body` on one warp of 32 threads (sm_86); R0 holds the lane, and each thread stores
/// R20 to `out[lane]`.
fn warp(body: &str) -> Vec<u32> {
    let src = format!(
        "code for sm_86\nS2R R0, SR_TID.X ;\n{body}\nIMAD.SHL.U32 R2, R0, 0x4, RZ ;\nSTG [R2+0x2000], R20 ;\nEXIT ;\n"
    );
    let launch = Launch::default();
    let s = run_warps(&src, &launch).expect("runs");
    array(&s, "out").to_vec()
}

#[test]
fn imad_forms() {
    let out = eval(
        "IMAD.MOV.U32 R20, RZ, RZ, -R10 ;\nIMAD.IADD R21, R10, 0x1, -R11 ;\nIMAD.SHL.U32 R22, R10, 0x10, RZ ;\nIMAD R23, R10, R11, 0x7 ;\n",
        &[5, 3],
    )
    .expect("runs");
    assert_eq!(out, vec![5u32.wrapping_neg(), 2, 80, 22]);
    // .WIDE (signed) -3 * 4 + 0x1_0000_0010 = 0x1_0000_0004; .WIDE.U32 of 0xffffffff * 2.
    let out = eval(
        "IMAD.WIDE R20, R10, R11, R12 ;\nIMAD.WIDE.U32 R22, R14, R15, RZ ;\n",
        &[(-3i32) as u32, 4, 0x10, 1, 0xffff_ffff, 2],
    )
    .expect("runs");
    assert_eq!(out, vec![4, 1, 0xffff_fffe, 1]);
    // .HI.U32 with the pair R12:R13 = 7 << 32: umulhi(0x8000_0000, 6) + 7 = 3 + 7.
    // .X adds the carry predicate: P0 from 0xffffffff + 1.
    let out = eval(
        "IMAD.HI.U32 R20, R10, R11, R12 ;\nIADD3 R21, P0, R14, 0x1, RZ ;\nIMAD.X R22, RZ, RZ, 0x5, P0 ;\nIMAD.HI R23, R15, R11, RZ ;\n",
        &[0x8000_0000, 6, 0, 7, 0xffff_ffff, (-1i32) as u32],
    )
    .expect("runs");
    // Signed high word of -1 * 6 = -6: 0xffffffff.
    assert_eq!(out, vec![10, 0, 6, 0xffff_ffff]);
}

#[test]
fn lea_prmt_bits_and_abs() {
    // LEA: (5 << 2) + 100; LEA.HI: high word of (0:0x8000_0001 << 1) + 10 = 1 + 10;
    // LEA.HI.X.SX32 of -1: high word of (-1 as 64 bits << 2) + 0 + carry(0) = 0xffffffff.
    let out = eval(
        "LEA R20, R10, R11, 0x2 ;\nLEA.HI R21, R12, 0xa, RZ, 0x1 ;\nLEA.HI.X.SX32 R22, R13, RZ, 0x2, P0 ;\nIABS R23, R13 ;\n",
        &[5, 100, 0x8000_0001, (-1i32) as u32],
    )
    .expect("runs");
    assert_eq!(out, vec![120, 11, 0xffff_ffff, 1]);
    // PRMT 0x3210 is the identity, 0x0123 reverses the bytes, 0x8880 sign-replicates
    // byte 0 into bytes 1..3 (0x80 → 0xffffff80); 0x654 takes b's low bytes under a's byte 0.
    let out = eval(
        "PRMT R20, R10, 0x3210, R11 ;\nPRMT R21, R10, 0x123, R11 ;\nPRMT R22, R12, 0x8880, RZ ;\nPRMT R23, R13, 0x654, R11 ;\n",
        &[0x4433_2211, 0x8877_6655, 0x80, 0x2],
    )
    .expect("runs");
    assert_eq!(
        out,
        vec![0x4433_2211, 0x1122_3344, 0xffff_ff80, 0x0277_6655]
    );
    let out = eval(
        "POPC R20, R10 ;\nFLO.U32 R21, R10 ;\nFLO.U32.SH R22, R10 ;\nBREV R23, R11 ;\n",
        &[0x0000_f0f0, 1],
    )
    .expect("runs");
    assert_eq!(out, vec![8, 15, 16, 0x8000_0000]);
    let out = eval("FLO.U32 R20, RZ ;\nFLO R21, R10 ;\n", &[(-2i32) as u32]).expect("runs");
    // No one bit: 0xffffffff; signed -2 (…1110): its highest 0 is bit 0.
    assert_eq!(out[..2], [u32::MAX, 0]);
}

#[test]
fn funnel_shifts() {
    let out = eval(
        "SHF.R.U32.HI R20, RZ, 0x1f, R10 ;\nSHF.R.S32.HI R21, RZ, 0x1f, R10 ;\nSHF.L.U64.HI R22, R11, 0x4, R12 ;\nSHF.R.S64 R23, R11, 0x4, R10 ;\n",
        &[0x8000_0000, 0xf000_0001, 0x1],
    )
    .expect("runs");
    assert_eq!(out, vec![1, 0xffff_ffff, 0x1f, 0x0f00_0000]);
    let out = eval(
        "SHF.L.U32 R20, R10, 0x20, RZ ;\nSHF.R.U32.HI R21, RZ, R11, R10 ;\n",
        &[0x8000_0000, 33],
    )
    .expect("runs");
    // Shifts of 32 or more clamp: nothing is left.
    assert_eq!(out[..2], [0, 0]);
}

#[test]
fn predicate_logic() {
    // LOP3 with a predicate destination: P0 = (R10 & 1) != 0; PLOP3 0xa8 = (a | b) & c.
    let out = eval(
        "LOP3.LUT P0, RZ, R10, 0x1, RZ, 0xc0, !PT ;\nSEL R20, 0x1, RZ, P0 ;\nLOP3.LUT P1, R21, R11, 0x1, RZ, 0xc0, !PT ;\nPLOP3.LUT P2, PT, P0, P1, PT, 0xa8, 0x0 ;\nSEL R22, 0x1, RZ, P2 ;\nPLOP3.LUT P3, PT, PT, PT, PT, 0x0, 0x0 ;\nSEL R23, 0x1, RZ, P3 ;\n",
        &[3, 2],
    )
    .expect("runs");
    assert_eq!(out, vec![1, 0, 1, 0]);
}

#[test]
fn conversions_and_special_functions() {
    // I2F.U32.RP of 0xffffffff rounds up to 2^32; I2F.S16 of 0xffff is -1.0;
    // MUFU.RCP of 4.0; F2I.FTZ.U32.TRUNC.NTZ of 7.9.
    let out = eval(
        "I2F.U32.RP R20, R10 ;\nI2F.S16 R21, R11 ;\nMUFU.RCP R22, R12 ;\nF2I.FTZ.U32.TRUNC.NTZ R23, R13 ;\n",
        &[0xffff_ffff, 0xffff, 4.0f32.to_bits(), 7.9f32.to_bits()],
    )
    .expect("runs");
    assert_eq!(
        out,
        vec![
            4_294_967_296f32.to_bits(),
            (-1.0f32).to_bits(),
            0.25f32.to_bits(),
            7
        ]
    );
    // FCHK: 1/2 takes the fast path, 1/0 the slow one; HFMA2.MMA loads (1.875, 0) = 1.0f;
    // CS2R zeroes a pair.
    let out = eval(
        "FCHK P0, R10, R11 ;\nSEL R20, 0x1, RZ, P0 ;\nFCHK P1, R10, RZ ;\nSEL R21, 0x1, RZ, P1 ;\nHFMA2.MMA R22, -RZ, RZ, 1.875, 0 ;\nCS2R R12, SRZ ;\nIADD3 R23, R12, R13, 0x5 ;\n",
        &[1.0f32.to_bits(), 2.0f32.to_bits(), 9, 9],
    )
    .expect("runs");
    assert_eq!(out, vec![0, 1, 1.0f32.to_bits(), 5]);
}

#[test]
fn uniform_datapath_and_constants() {
    // Parameters from c[0x0][0x160] (sm_86): a 64-bit pointer-sized pair and a word.
    let out = eval_with(
        "ULDC.64 UR4, c[0x0][0x160] ;\nULDC UR6, c[0x0][0x168] ;\nUIADD3 UR7, UR6, 0x5, URZ ;\nUSHF.L.U32 UR8, UR7, 0x2, URZ ;\nUMOV UR9, 0x3 ;\nULOP3.LUT UR10, UR8, UR9, URZ, 0xfc, !UPT ;\nMOV R20, UR5 ;\nIMAD.U32 R21, RZ, RZ, UR10 ;\nS2UR UR11, SR_CTAID.X ;\nIADD3 R22, R10, UR11, RZ ;\nLDC.64 R12, c[0x0][0x160] ;\nLDC R23, c[0x0][0x0] ;\n",
        &[7],
        &[0x1111, 0x2222, 10],
    )
    .expect("runs");
    // UR8 = (10 + 5) << 2 = 60, | 3 = 63; blockDim.x = 1.
    assert_eq!(out, vec![0x2222, 63, 7, 1]);
    let out = eval_with(
        "UMOV UR4, 0xffffffff ;\nUIADD3 UR6, UP0, UR4, 0x1, URZ ;\nUIADD3.X UR7, URZ, URZ, URZ, UP0, !UPT ;\nMOV R20, UR6 ;\nMOV R21, UR7 ;\nUPRMT UR8, URZ, 0x654, UR4 ;\nMOV R22, UR8 ;\nLDC.U8 R23, c[0x0][0x161] ;\n",
        &[],
        &[0x0000_ab00],
    )
    .expect("runs");
    assert_eq!(out, vec![0, 1, 0x00ff_ffff, 0xab]);
}

#[test]
fn isetp_ex_compares_64_bits() {
    // (1:0) >= (0:5) unsigned; (0:3) != (0:3) is false; signed (-1:0) < (0:0).
    let body = "ISETP.GE.U32.AND P0, PT, R10, R12, PT ;\nISETP.GE.U32.AND.EX P0, PT, R11, R13, PT, P0 ;\nSEL R20, 0x1, RZ, P0 ;\nISETP.NE.U32.AND P1, PT, R14, R14, PT ;\nISETP.NE.AND.EX P1, PT, RZ, RZ, PT, P1 ;\nSEL R21, 0x1, RZ, P1 ;\nISETP.LT.U32.AND P2, PT, RZ, RZ, PT ;\nISETP.LT.AND.EX P2, PT, R15, RZ, PT, P2 ;\nSEL R22, 0x1, RZ, P2 ;\n";
    let out = eval(body, &[0, 1, 5, 0, 3, (-1i32) as u32]).expect("runs");
    assert_eq!(out[..3], [1, 0, 1]);
}

#[test]
fn warp_wide_votes_and_shuffles() {
    // VOTE.ANY R, PT, P of lane < 5: the ballot 0x1f in every lane.
    let out = warp("ISETP.LT.U32.AND P0, PT, R0, 0x5, PT ;\nVOTE.ANY R20, PT, P0 ;");
    assert!(out.iter().all(|&v| v == 0x1f));
    // SHFL.BFLY by 1 swaps neighbours; DOWN by 4 (clamp 0x1f) reads lane + 4, its own lane
    // beyond 31; UP by 1 (clamp 0) reads lane - 1, its own lane at 0; IDX reads lane 7.
    let out = warp("SHFL.BFLY PT, R20, R0, 0x1, 0x1f ;");
    assert!(out.iter().enumerate().all(|(l, &v)| v == (l ^ 1) as u32));
    let out = warp("SHFL.DOWN PT, R20, R0, 0x4, 0x1f ;");
    assert!(out
        .iter()
        .enumerate()
        .all(|(l, &v)| v == if l + 4 < 32 { l + 4 } else { l } as u32));
    let out = warp("SHFL.UP P0, R20, R0, 0x1, RZ ;");
    assert!(out
        .iter()
        .enumerate()
        .all(|(l, &v)| v == l.saturating_sub(1) as u32));
    let out = warp("SHFL.IDX PT, R20, R0, 0x7, 0x1f ;");
    assert!(out.iter().all(|&v| v == 7));
    // R2UR takes the lowest executing lane; VOTEU.ANY writes the ballot of the executing
    // lanes uniformly; SR_LTMASK is the lanes below.
    let out = warp("IADD3 R3, R0, 0x64, RZ ;\nR2UR UR4, R3 ;\nMOV R20, UR4 ;");
    assert!(out.iter().all(|&v| v == 100));
    let out =
        warp("ISETP.GE.U32.AND P0, PT, R0, 0x1e, PT ;\nVOTEU.ANY UR4, UPT, P0 ;\nMOV R20, UR4 ;");
    assert!(out.iter().all(|&v| v == 0xc000_0000));
    let out = warp("S2R R20, SR_LTMASK ;");
    assert!(out
        .iter()
        .enumerate()
        .all(|(l, &v)| v == ((1u64 << l) - 1) as u32));
}

#[test]
fn scaled_and_uniform_addresses() {
    // [R0.X4+UR4+0x2000] with UR4 = 0: each lane stores to out[lane].
    let src = "code for sm_86\nS2R R0, SR_TID.X ;\nUMOV UR4, URZ ;\nIADD3 R5, R0, 0x1, RZ ;\nSTG.E [R0.X4+UR4+0x2000], R5 ;\nEXIT ;\n";
    let s = run_warps(src, &Launch::default()).expect("runs");
    assert!(array(&s, "out")
        .iter()
        .enumerate()
        .all(|(l, &v)| v == l as u32 + 1));
}

/// The convergence barrier of an if/else (sm_86 `BSSY`/`BSYNC`): both sides run, then the
/// whole warp stores after the `BSYNC`; a `BREAK` fused with its branch leaves a loop.
#[test]
fn convergence_barriers_reconverge() {
    let src = "code for sm_86
/*0000*/ S2R R0, SR_TID.X ;
/*0010*/ BSSY B0, 0x80 ;
/*0020*/ ISETP.GE.U32.AND P0, PT, R0, 0x10, PT ;
/*0030*/ @P0 BRA 0x60 ;
/*0040*/ MOV R20, 0x1 ;
/*0050*/ BRA 0x70 ;
/*0060*/ MOV R20, 0x2 ;
/*0070*/ BSYNC B0 ;
/*0080*/ IADD3 R20, R20, 0x64, RZ ;
/*0090*/ IMAD.SHL.U32 R2, R0, 0x4, RZ ;
/*00a0*/ STG [R2+0x2000], R20 ;
/*00b0*/ EXIT ;
";
    let s = run_warps(src, &Launch::default()).expect("runs");
    let out = array(&s, "out");
    assert!(out[..16].iter().all(|&v| v == 101), "{out:?}");
    assert!(out[16..].iter().all(|&v| v == 102), "{out:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// 64-bit add and subtract through predicate carries: `IADD3 d, P0, …` then `IADD3.X`.
    #[test]
    /// `IADD3 d, P0, P1, a, b, c` then `IADD3.X e, ah, bh, RZ, P0, P1`: a 64-bit pointer plus
    /// two 32-bit offsets (`FunctionPointers__SobelTex`, sm_70): the low word's carry of up
    /// to 2 goes through the two predicates into the high word, against Rust's `u64` sum.
    #[test]
    fn two_carry_outs_add_three_words(a in any::<u64>(), b in any::<u32>(), c in any::<u32>()) {
        let body = "IADD3 R20, P0, P1, R10, R12, R13 ;\nIADD3.X R21, R11, RZ, RZ, P0, P1 ;\n";
        let out = eval(body, &[a as u32, (a >> 32) as u32, b, c]).map_err(TestCaseError::fail)?;
        let sum = a.wrapping_add(u64::from(b)).wrapping_add(u64::from(c));
        prop_assert_eq!((out[0], out[1]), (sum as u32, (sum >> 32) as u32));
    }

    fn predicate_carries_add_and_subtract_64_bits(a in any::<u64>(), b in any::<u64>()) {
        let body = "IADD3 R20, P0, R10, R12, RZ ;\nIADD3.X R21, R11, R13, RZ, P0, !PT ;\nIADD3 R22, P1, R10, -R12, RZ ;\nIADD3.X R23, R11, ~R13, RZ, P1, !PT ;\n";
        let ins = [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32];
        let out = eval(body, &ins).map_err(TestCaseError::fail)?;
        prop_assert_eq!(u64::from(out[0]) | u64::from(out[1]) << 32, a.wrapping_add(b));
        prop_assert_eq!(u64::from(out[2]) | u64::from(out[3]) << 32, a.wrapping_sub(b));
    }

    /// The pointer arithmetic of the listings: `LEA d, P0, i, base, 2` then
    /// `LEA.HI.X d, i, base_hi, i_hi, 2, P0` is `base + (i << 2)` on 64 bits, and the
    /// `.SX32` form sign-extends a 32-bit index.
    #[test]
    fn lea_pairs_form_64_bit_addresses(base in any::<u64>(), i in any::<u64>(), j in any::<i32>()) {
        let body = "LEA R20, P0, R12, R10, 0x2 ;\nLEA.HI.X R21, R12, R11, R13, 0x2, P0 ;\nLEA R22, P1, R14, R10, 0x3 ;\nLEA.HI.X.SX32 R23, R14, R11, 0x3, P1 ;\n";
        let ins = [base as u32, (base >> 32) as u32, i as u32, (i >> 32) as u32, j as u32];
        let out = eval(body, &ins).map_err(TestCaseError::fail)?;
        prop_assert_eq!(u64::from(out[0]) | u64::from(out[1]) << 32, base.wrapping_add(i << 2));
        prop_assert_eq!(
            u64::from(out[2]) | u64::from(out[3]) << 32,
            base.wrapping_add((i64::from(j) << 3) as u64)
        );
    }

    /// The unsigned division nvcc emits for sm_70+ (`grid_stride_divmod`, the sass-modern
    /// `transposeDiagonal`): reciprocal estimate `I2F.U32.RP`/`MUFU.RCP`/`F2I…TRUNC.NTZ`, one
    /// Newton step through `IMAD.HI.U32` with the pair `R2:R3` = `x << 32`, then two
    /// corrections. Computes `n / d` under this reading of the instructions.
    #[test]
    fn volta_division_idiom_divides(n in any::<u32>(), d in 1u32..) {
        let body = "I2F.U32.RP R5, R11 ;
MUFU.RCP R5, R5 ;
IADD3 R2, R5, 0xffffffe, RZ ;
F2I.FTZ.U32.TRUNC.NTZ R3, R2 ;
IMAD.MOV.U32 R2, RZ, RZ, RZ ;
IMAD.MOV R7, RZ, RZ, -R3 ;
IMAD R7, R7, R11, RZ ;
IMAD.HI.U32 R3, R3, R7, R2 ;
IMAD.HI.U32 R3, R3, R10, RZ ;
IMAD.MOV R5, RZ, RZ, -R3 ;
IMAD R5, R11, R5, R10 ;
ISETP.GE.U32.AND P0, PT, R5, R11, PT ;
@P0 IMAD.IADD R5, R5, 0x1, -R11 ;
@P0 IADD3 R3, R3, 0x1, RZ ;
ISETP.GE.U32.AND P1, PT, R5, R11, PT ;
@P1 IADD3 R3, R3, 0x1, RZ ;
ISETP.NE.U32.AND P2, PT, R11, RZ, PT ;
@!P2 LOP3.LUT R3, RZ, R11, RZ, 0x33, !PT ;
MOV R20, R3 ;
";
        let out = eval(body, &[n, d]).map_err(TestCaseError::fail)?;
        prop_assert_eq!(out[0], n / d);
    }

    /// `SHF` against the funnel shift of `c:a`.
    #[test]
    fn shf_is_a_funnel_shift(a in any::<u32>(), c in any::<u32>(), s in 0u32..32) {
        let body = format!(
            "SHF.L.U64.HI R20, R10, 0x{s:x}, R11 ;\nSHF.R.U64 R21, R10, 0x{s:x}, R11 ;\nSHF.L.U32 R22, R10, R12, RZ ;\nSHF.R.S32.HI R23, RZ, R12, R11 ;\n"
        );
        let out = eval(&body, &[a, c, s]).map_err(TestCaseError::fail)?;
        let v = u64::from(c) << 32 | u64::from(a);
        prop_assert_eq!(out[0], ((v << s) >> 32) as u32);
        prop_assert_eq!(out[1], (v >> s) as u32);
        prop_assert_eq!(out[2], a << s);
        prop_assert_eq!(out[3], ((c as i32) >> s) as u32);
    }
}

/// Atomics lane by lane in lane order, and `REDUX` over the executing lanes.
#[test]
fn atomics_and_warp_reductions() {
    let setup = "IMAD.MOV.U32 R4, RZ, RZ, 0x1000 ;\nIMAD.MOV.U32 R5, RZ, RZ, RZ ;\nIMAD.MOV.U32 R6, RZ, RZ, 0x1 ;\n";
    // RED adds every lane's index: 0 + 1 + … + 31 = 496.
    let out = warp(&format!(
        "{setup}RED.E.ADD.STRONG.GPU [R4], R0 ;\nLDG.E R20, [R4] ;"
    ));
    assert!(out.iter().all(|&v| v == 496), "{out:?}");
    // ATOMG returns the old word: lane l sees l earlier increments.
    let out = warp(&format!(
        "{setup}ATOMG.E.ADD.STRONG.GPU PT, R20, [R4], R6 ;"
    ));
    assert!(
        out.iter().enumerate().all(|(l, &v)| v == l as u32),
        "{out:?}"
    );
    // CAS 0 → lane + 1: only lane 0 finds 0.
    let out = warp(&format!(
        "{setup}IADD3 R7, R0, 0x1, RZ ;\nATOMG.E.CAS.STRONG.GPU PT, R20, [R4], RZ, R7 ;"
    ));
    assert_eq!(out[0], 0);
    assert!(out[1..].iter().all(|&v| v == 1), "{out:?}");
    // INC wraps at the operand: with v = 3 the word cycles 0,1,2,3,0,…
    let out = warp(&format!(
        "{setup}IMAD.MOV.U32 R7, RZ, RZ, 0x3 ;\nATOM.E.INC.STRONG.GPU PT, R20, [R4], R7 ;"
    ));
    assert!(
        out.iter().enumerate().all(|(l, &v)| v == (l % 4) as u32),
        "{out:?}"
    );
    // REDUX: the sum and the signed maximum of the lane indices; bare REDUX is AND.
    let out = warp("REDUX.SUM.S32 UR4, R0 ;\nMOV R20, UR4 ;");
    assert!(out.iter().all(|&v| v == 496));
    let out =
        warp("ISETP.LT.U32.AND P0, PT, R0, 0x4, PT ;\n@P0 REDUX.MAX.S32 UR4, R0 ;\nMOV R20, UR4 ;");
    assert!(out.iter().all(|&v| v == 3), "{out:?}");
    let out = warp("IADD3 R3, R0, 0x10, RZ ;\nREDUX UR4, R3 ;\nMOV R20, UR4 ;");
    assert!(out.iter().all(|&v| v == 0), "{out:?}");
}

/// Shared-memory atomics: `ATOMS.ADD` and `ATOMS.POPC.INC` (one per lane).
#[test]
fn shared_atomics() {
    let src = "code for sm_86
S2R R0, SR_TID.X ;
ATOMS.ADD RZ, [RZ], R0 ;
ATOMS.POPC.INC.32 RZ, [RZ+0x4] ;
BAR.SYNC 0x0 ;
LDS R20, [RZ] ;
LDS R21, [0x4] ;
IADD3 R20, R20, R21, RZ ;
IMAD.SHL.U32 R2, R0, 0x4, RZ ;
STG [R2+0x2000], R20 ;
EXIT ;
";
    let launch = Launch {
        shared_bytes: 64,
        ..Launch::default()
    };
    let s = run_warps(src, &launch).expect("runs");
    assert!(array(&s, "out").iter().all(|&v| v == 496 + 32));
}

/// Directed rounding (`FFMA.RZ/.RM/.RP`, the division slow path of `fdiv_sqrt`), `P2R` and
/// `MATCH.ANY`.
#[test]
fn directed_rounding_p2r_and_match() {
    // 1 + 2^-30 is not a float: RZ/RM give 1, RP the next float up; -(1 + 2^-30) under RM
    // gives the next float down from -1.
    let tiny = 2f32.powi(-30);
    let out = eval(
        "FFMA.RZ R20, R10, R11, R12 ;\nFFMA.RM R21, R10, R11, R12 ;\nFFMA.RP R22, R10, R11, R12 ;\nFFMA.RM R23, R10, -R11, -R12 ;\n",
        &[tiny.to_bits(), 1.0f32.to_bits(), 1.0f32.to_bits()],
    )
    .expect("runs");
    assert_eq!(
        out,
        vec![
            1.0f32.to_bits(),
            1.0f32.to_bits(),
            1.0f32.next_up().to_bits(),
            (-1.0f32).next_down().to_bits()
        ]
    );
    // P2R of P1 (mask 0x2) into 0xf0: 0xf2; P0 set, P1 set.
    let out = eval(
        "ISETP.EQ.AND P0, PT, RZ, RZ, PT ;\nISETP.EQ.AND P1, PT, RZ, RZ, PT ;\nP2R R20, PR, R10, 0x2 ;\nP2R R21, PR, RZ, 0x7f ;\n",
        &[0xf0],
    )
    .expect("runs");
    assert_eq!(out[..2], [0xf2, 0x3]);
    // MATCH.ANY of lane / 8: the eight lanes of each group.
    let out = warp("SHF.R.U32.HI R3, RZ, 0x3, R0 ;\nMATCH.ANY R20, R3 ;");
    assert!(
        out.iter()
            .enumerate()
            .all(|(l, &v)| v == 0xff << (8 * (l / 8))),
        "{out:?}"
    );
}

/// sm_90 addresses shared memory from 0x400 (`UMOV UR11, 0x400`, the cluster rank from
/// `SR_CgaCtaId` in the top byte, as `histogram256Kernel` builds its base): the block's
/// first word is at 0x400; below it is outside the block.
#[test]
fn sm90_shared_window_starts_at_0x400() {
    let body = "S2R R0, SR_TID.X ;
S2UR UR12, SR_CgaCtaId ;
UMOV UR11, 0x400 ;
UPRMT UR4, UR12, 0x654, UR11 ;
LEA R3, R0, UR4, 0x2 ;
IADD3 R5, R0, 0x7, RZ ;
STS [R3], R5 ;
LDS R20, [R0.X4+UR4] ;
IMAD.SHL.U32 R2, R0, 0x4, RZ ;
STG [R2+0x2000], R20 ;
EXIT ;
";
    let launch = Launch {
        shared_bytes: 128,
        ..Launch::default()
    };
    let s = run_warps(&format!("code for sm_90\n{body}"), &launch).expect("runs");
    assert!(array(&s, "out")
        .iter()
        .enumerate()
        .all(|(l, &v)| v == l as u32 + 7));
    // The same code on sm_86 addresses byte 0x400 of a 128-byte block: outside it.
    let e = run_warps(&format!("code for sm_86\n{body}"), &launch);
    assert!(e.is_err());
}

#[test]
fn imad_wide_with_a_carry_out() {
    // `IMAD.WIDE.U32 R24, P4, R20, R18, R24` (Rodinia particlefilter): R10 = R11 =
    // 0xffff_ffff, product 0xffff_fffe_0000_0001; plus R12:R13 = 0xffff_ffff_ffff_ffff it is
    // 0x1_ffff_fffe_0000_0000: R20 = 0, R21 = 0xffff_fffe, carry 1. Plus R14:R15 = 1 it is
    // 0xffff_fffe_0000_0002: no carry.
    let out = eval(
        "IMAD.WIDE.U32 R20, P0, R10, R11, R12 ;\nSEL R22, 0x1, RZ, P0 ;\n\
         IMAD.WIDE.U32 R24, P1, R10, R11, R14 ;\nSEL R23, 0x1, RZ, P1 ;\n",
        &[0xffff_ffff, 0xffff_ffff, 0xffff_ffff, 0xffff_ffff, 1, 0],
    )
    .expect("runs");
    assert_eq!(out, vec![0, 0xffff_fffe, 1, 0]);
}

#[test]
fn indexed_constant_reads() {
    // sm_86 parameters start at c[0x0][0x160]: words 10, 20, 30, 40. LDC with R10 = 8 reads
    // 0x168, the third (30); ULDC with UR4 = 4 reads 0x164 (20); LDC.64 at R11 + 0x168 with
    // R11 = 0 reads 30, 40.
    let out = eval_with(
        "LDC R20, c[0x0][R10+0x160] ;\nUMOV UR4, 0x4 ;\nULDC UR5, c[0x0][UR4+0x160] ;\n\
         MOV R21, UR5 ;\nLDC.64 R22, c[0x0][R11+0x168] ;\n",
        &[8, 0],
        &[10, 20, 30, 40],
    )
    .expect("runs");
    assert_eq!(out, vec![30, 20, 30, 40]);
    // A byte: c[0x0][0x161] is byte 1 of 0x0000_ab00, 0xab; as S8 −85.
    let out = eval_with(
        "LDC.U8 R20, c[0x0][R10+0x160] ;\nLDC.S8 R21, c[0x0][R10+0x160] ;\n",
        &[1],
        &[0xab00],
    )
    .expect("runs");
    assert_eq!(out[..2], [0xab, (-85i32) as u32]);
    // Past the launch's words: an error naming the address.
    let err = eval_with("LDC R20, c[0x0][R10+0x160] ;\n", &[0x100], &[1, 2]).expect_err("stops");
    assert!(
        err.contains("c[0x0][0x260]") && err.contains("does not define"),
        "{err}"
    );
    // Banks 2 and 3 (the compiler's tables): refused by a launch that gives them, zero in
    // an automatic launch's stand-in (`unknown_banks_zero`), whatever the index.
    let err = eval("LDC R20, c[0x3][R10+0x10] ;\n", &[4]).expect_err("refused");
    assert!(err.contains("constant bank 3"), "{err}");
    let src = "code for sm_86\nMOV R20, 0x5 ;\nMOV R21, 0x5 ;\nMOV R22, 0x5 ;\nUMOV UR4, 0x8 ;\n\
               LDC R20, c[0x3][R20+0x10] ;\nLDC.64 R22, c[0x2][R21] ;\nULDC UR5, c[0x3][UR4+0x4] ;\n\
               MOV R21, UR5 ;\nSTG [0x2000], R20 ;\nSTG [0x2004], R21 ;\nSTG [0x2008], R22 ;\n\
               STG [0x200c], R23 ;\nEXIT ;\n";
    let launch = Launch {
        block: [1, 1, 1],
        unknown_banks_zero: true,
        ..Launch::default()
    };
    let s = run(src, &launch, &preset("gpgpusim-like"), &memory(&[0], 4)).expect("runs");
    assert_eq!(array(&s, "out"), &[0, 0, 0, 0]);
}
