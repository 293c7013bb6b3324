//! SDWA (sub-dword addressing, `*_sdwa`) on the GCN3 simulator: every source select with
//! and without `sext`, every `dst_unused`, byte and word destinations, on the operations
//! hipcc emits for gfx8 (`v_or_b32`, `v_lshrrev_b16`, `v_ashrrev_i16`, `v_cvt_i32_f32`,
//! `v_lshlrev_b32`) and on `v_cndmask_b32`, a comparison and a carry-out addition. Every
//! expected word is worked out by hand in the table.

#[path = "common/gcn.rs"]
mod gcn_common;

use sim::gcn;
use sim::{ArrayInit, Fill, Launch, MemoryInit};

/// Registers every case starts from (lane t):
/// v1 = 0x8091a2f3 (bytes f3 a2 91 80, words a2f3 8091), v2 = 4, v3 = 0x11223344 (the
/// destination's old value: v10 := v3 before each case), v4 = 0, v6 = 100.5f, v7 = 0xa08
/// (byte 0 = 8, byte 1 = 10), v8 = -3.0f, v12 = t << 8 | 0xff, v13 = 32, v9 = 1.
const SETUP: &str = "k:
  s_load_dwordx2 s[0:1], s[4:5], 0x0
  s_waitcnt lgkmcnt(0)
  v_mul_u32_u24_e32 v20, ROW_BYTES, v0
  v_add_u32_e32 v20, vcc, s0, v20
  v_mov_b32_e32 v21, s1
  v_addc_u32_e32 v21, vcc, 0, v21, vcc
  v_mov_b32_e32 v1, 0x8091a2f3
  v_mov_b32_e32 v2, 4
  v_mov_b32_e32 v3, 0x11223344
  v_mov_b32_e32 v4, 0
  v_mov_b32_e32 v6, 0x42c90000
  v_mov_b32_e32 v7, 0xa08
  v_mov_b32_e32 v8, 0xc0400000
  v_mov_b32_e32 v9, 1
  v_lshlrev_b32_e32 v12, 8, v0
  v_or_b32_e32 v12, 0xff, v12
  v_mov_b32_e32 v13, 32
";

/// (instructions computing v10, expected word of lane t).
type Case = (&'static str, fn(u32) -> u32);

const CASES: &[Case] = &[
    // Source selects through `v_or_b32 v10, sel(v1), 0` (dst DWORD, pad).
    (
        "v_or_b32_sdwa v10, v1, v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD",
        |_| 0xf3,
    ),
    (
        "v_or_b32_sdwa v10, sext(v1), v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD",
        |_| 0xffff_fff3,
    ),
    (
        "v_or_b32_sdwa v10, v1, v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:DWORD",
        |_| 0xa2,
    ),
    (
        "v_or_b32_sdwa v10, sext(v1), v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:DWORD",
        |_| 0xffff_ffa2,
    ),
    (
        "v_or_b32_sdwa v10, v1, v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_2 src1_sel:DWORD",
        |_| 0x91,
    ),
    (
        "v_or_b32_sdwa v10, sext(v1), v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_2 src1_sel:DWORD",
        |_| 0xffff_ff91,
    ),
    (
        "v_or_b32_sdwa v10, v1, v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_3 src1_sel:DWORD",
        |_| 0x80,
    ),
    (
        "v_or_b32_sdwa v10, sext(v1), v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_3 src1_sel:DWORD",
        |_| 0xffff_ff80,
    ),
    (
        "v_or_b32_sdwa v10, v1, v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:DWORD",
        |_| 0xa2f3,
    ),
    (
        "v_or_b32_sdwa v10, sext(v1), v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:DWORD",
        |_| 0xffff_a2f3,
    ),
    (
        "v_or_b32_sdwa v10, v1, v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD",
        |_| 0x8091,
    ),
    (
        "v_or_b32_sdwa v10, sext(v1), v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD",
        |_| 0xffff_8091,
    ),
    // DWORD: sext changes nothing.
    (
        "v_or_b32_sdwa v10, sext(v1), v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD",
        |_| 0x8091_a2f3,
    ),
    // src1 select: f3 | 0x1122 (WORD_1 of v3).
    (
        "v_or_b32_sdwa v10, v1, v3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:WORD_1",
        |_| 0x11f3,
    ),
    // Destinations: the result 0x8091a2f3 (low byte f3, low word a2f3) into v10 = 0x11223344.
    (
        "v_or_b32_sdwa v10, v1, v4 dst_sel:BYTE_1 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD",
        |_| 0x0000_f300,
    ),
    // f3 is negative as a byte: ones above byte 1, zeros below.
    (
        "v_or_b32_sdwa v10, v1, v4 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:DWORD src1_sel:DWORD",
        |_| 0xffff_f300,
    ),
    (
        "v_or_b32_sdwa v10, v1, v4 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD src1_sel:DWORD",
        |_| 0x1122_f344,
    ),
    (
        "v_or_b32_sdwa v10, v1, v4 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD",
        |_| 0xa2f3_0000,
    ),
    (
        "v_or_b32_sdwa v10, v1, v4 dst_sel:WORD_0 dst_unused:UNUSED_SEXT src0_sel:DWORD src1_sel:DWORD",
        |_| 0xffff_a2f3,
    ),
    // `dst_unused` absent: preserve (LLVM's default).
    ("v_or_b32_sdwa v10, v1, v4 dst_sel:WORD_1", |_| 0xa2f3_3344),
    // Byte 3: nothing above it to sign-extend into.
    (
        "v_or_b32_sdwa v10, v1, v4 dst_sel:BYTE_3 dst_unused:UNUSED_SEXT src0_sel:DWORD src1_sel:DWORD",
        |_| 0xf300_0000,
    ),
    // Byte 2 of v1 (0x91) to byte 0, sign-extended: ffffff91; byte 1 (a2) to byte 2, kept.
    (
        "v_or_b32_sdwa v10, v1, v4 dst_sel:BYTE_0 dst_unused:UNUSED_SEXT src0_sel:BYTE_2 src1_sel:DWORD",
        |_| 0xffff_ff91,
    ),
    (
        "v_or_b32_sdwa v10, v1, v4 dst_sel:BYTE_2 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1 src1_sel:DWORD",
        |_| 0x11a2_3344,
    ),
    // v_lshrrev_b16: sext(f3) = 0xfffffff3, its low 16 bits fff3 >> 4 = 0fff; zero-extended
    // byte f3 >> 4 = f.
    (
        "v_lshrrev_b16_sdwa v10, v2, sext(v1) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_0",
        |_| 0x0fff,
    ),
    (
        "v_lshrrev_b16_sdwa v10, v2, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_0",
        |_| 0xf,
    ),
    // v_ashrrev_i16: fff3 (−13) >> 4 = −1 = ffff (16 bits, zero-extended as the simulator's
    // 16-bit results); a2 >> 4 = a; word 1 8091 >> 4 = f809.
    (
        "v_ashrrev_i16_sdwa v10, v2, sext(v1) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_0",
        |_| 0xffff,
    ),
    (
        "v_ashrrev_i16_sdwa v10, v2, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_1",
        |_| 0xa,
    ),
    (
        "v_ashrrev_i16_sdwa v10, v2, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1",
        |_| 0xf809,
    ),
    (
        "v_ashrrev_i16_sdwa v10, v2, v1 dst_sel:WORD_1 dst_unused:UNUSED_SEXT src0_sel:DWORD src1_sel:WORD_1",
        |_| 0xf809_0000,
    ),
    // v_cvt_i32_f32: 100.5 → 100 = 0x64 to byte 1; −3.0 → fffffffd: byte fd to byte 1,
    // sign-extended; its word fffd to word 1 over 0x11223344; −(100.5) → −100 = ffffff9c.
    (
        "v_cvt_i32_f32_sdwa v10, v6 dst_sel:BYTE_1 dst_unused:UNUSED_PAD src0_sel:DWORD",
        |_| 0x6400,
    ),
    (
        "v_cvt_i32_f32_sdwa v10, v8 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:DWORD",
        |_| 0xffff_fd00,
    ),
    (
        "v_cvt_i32_f32_sdwa v10, v8 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD",
        |_| 0xfffd_3344,
    ),
    (
        "v_cvt_i32_f32_sdwa v10, -v6 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD",
        |_| 0xffff_ff9c,
    ),
    // v_lshlrev_b32: byte 3 of v1 (80) << 4 = 800; byte 2 (91) << 4 = 910; f3 << byte 1 of
    // v7 (10) = 3cc00; sext(f3) << 4 = ffffff30.
    (
        "v_lshlrev_b32_sdwa v10, v2, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_3",
        |_| 0x800,
    ),
    (
        "v_lshlrev_b32_sdwa v10, v2, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_2",
        |_| 0x910,
    ),
    (
        "v_lshlrev_b32_sdwa v10, v7, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:BYTE_0",
        |_| 0x3_cc00,
    ),
    (
        "v_lshlrev_b32_sdwa v10, v2, sext(v1) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_0",
        |_| 0xffff_ff30,
    ),
    // v_cndmask (vcc = even lanes): even lanes take v3 (word 0: 3344, preserved rest
    // 1122), odd lanes word 1 of v1 (8091).
    (
        "s_mov_b32 vcc_lo, 0x55555555
  s_mov_b32 vcc_hi, 0x55555555
  v_cndmask_b32_sdwa v10, v1, v3, vcc dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:DWORD",
        |t| if t % 2 == 0 { 0x1122_3344 } else { 0x1122_8091 },
    ),
    // A comparison: byte 1 of v12 (t) < 32.
    (
        "v_cmp_lt_u32_sdwa vcc, v12, v13 src0_sel:BYTE_1 src1_sel:DWORD
  v_cndmask_b32_e32 v10, 0, v9, vcc",
        |t| u32::from(t < 32),
    ),
    // A carry-out addition: 80 + 80 = 0x100.
    (
        "v_add_u32_sdwa v10, vcc, v1, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_3 src1_sel:BYTE_3",
        |_| 0x100,
    ),
    // Inactive lanes (32–63) keep their old value.
    (
        "s_mov_b32 exec_hi, 0
  v_or_b32_sdwa v10, v1, v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD
  s_mov_b32 exec_hi, -1",
        |t| if t < 32 { 0xf3 } else { 0x1122_3344 },
    ),
];

fn kernel() -> String {
    let mut k = SETUP.replace("ROW_BYTES", &(4 * CASES.len()).to_string());
    for (code, _) in CASES {
        k += &format!(
            "  v_mov_b32_e32 v10, v3\n  {code}\n  flat_store_dword v[20:21], v10\n  s_waitcnt vmcnt(0)\n  v_add_u32_e32 v20, vcc, 4, v20\n  v_addc_u32_e32 v21, vcc, 0, v21, vcc\n"
        );
    }
    k + "  s_endpgm\n"
}

#[test]
fn sdwa_by_hand() {
    let n = CASES.len();
    let memory = MemoryInit::closed(vec![ArrayInit {
        name: "out".into(),
        address: 0x10_0000,
        words: 64 * n as u32,
        fill: Fill::Constant { value: 0 },
    }]);
    let launch = Launch {
        block: [64, 1, 1],
        params: vec![0x10_0000, 0],
        ..Launch::default()
    };
    let s = gcn_common::run_unit64(&kernel(), &launch, &memory);
    let out = &s.memory[0].words;
    for t in 0..64u32 {
        for (i, (code, want)) in CASES.iter().enumerate() {
            let got = out[n * t as usize + i];
            assert_eq!(
                got,
                want(t),
                "lane {t}, case {i} `{code}`: {got:#x} != {:#x}",
                want(t)
            );
        }
    }
}

/// The SDWA lines of real hipcc kernels (gfx803) decode; DPP and an SDWA form of an
/// operation without one are refused with a reason.
#[test]
fn real_sdwa_lines_decode_and_others_are_refused() {
    let decodes = [
        "v_cvt_i32_f32_sdwa v25, v1 dst_sel:BYTE_1 dst_unused:UNUSED_PAD src0_sel:DWORD",
        "v_or_b32_sdwa v15, v26, v27 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD",
        "v_or_b32_sdwa v13, v13, v15 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:DWORD",
        "v_lshrrev_b16_sdwa v7, v5, sext(v4) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_0",
        "v_ashrrev_i16_sdwa v2, v4, sext(v2) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_0",
        "v_lshlrev_b32_sdwa v5, v8, v3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_3",
    ];
    let refused = [
        (
            "v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
            "DPP",
        ),
        ("v_add_f64_sdwa v[0:1], v[2:3], v[4:5]", "32-bit"),
        ("v_cvt_f32_f16_sdwa v1, v2 src0_sel:WORD_1", "no semantics"),
        ("v_add_f32_sdwa v1, sext(v2), v3", "sext"),
        ("v_or_b32_sdwa v1, v2, v3 dst_sel:BYTE_4", "dst_sel"),
        ("v_or_b32_sdwa v1, v2, v3 clamp", "clamp"),
    ];
    for line in decodes {
        let p = isa::gcn::parse(&format!("k:\n {line}\n"), &isa::Limits::default());
        assert!(!p.has_errors(), "{line}: {:?}", p.diagnostics);
        let op = gcn::decode::decode(&p.functions[0].instructions[0]);
        assert!(matches!(op, Ok(gcn::decode::Op::Sdwa(_))), "{line}: {op:?}");
    }
    for (line, why) in refused {
        let p = isa::gcn::parse(&format!("k:\n {line}\n"), &isa::Limits::default());
        assert!(!p.has_errors(), "{line}: {:?}", p.diagnostics);
        let ins = &p.functions[0].instructions[0];
        match gcn::decode::decode(ins) {
            Err(m) => assert!(
                m.starts_with("cannot simulate") && m.contains(why),
                "{line}: {m}"
            ),
            Ok(op) => panic!("{line} decoded: {op:?}"),
        }
    }
}
