//! GCN3 instructions added for real kernels (issue #37): bit operations, cross-lane moves,
//! 16-bit and f64 arithmetic, transcendentals, the f64 division sequence, atomics on global
//! memory and LDS, three-dword and 16-byte LDS accesses — one hand-written kernel whose every
//! stored word is worked out by hand in the test.

#[path = "common/gcn.rs"]
mod gcn_common;

use sim::gcn;
use sim::{ArrayInit, Budget, Fill, Launch, Machine, MemoryInit, Splitting};

/// Default ABI (no descriptor): the kernarg pointer in `s[4:5]`, `v0` = work-item id. The
/// kernel's one argument is `out`; lane t's row is the 24 dwords at out + 96t; a counter at
/// out + 0x4000.
const KERNEL: &str = "k:
  s_load_dwordx2 s[0:1], s[4:5], 0x0
  s_waitcnt lgkmcnt(0)
  s_mov_b32 m0, -1
  v_mul_u32_u24_e32 v1, 0x60, v0
  v_add_u32_e32 v2, vcc, s0, v1
  v_mov_b32_e32 v3, s1
  v_addc_u32_e32 v3, vcc, 0, v3, vcc
  s_mov_b32 s2, 5
  s_mov_b32 s3, 4
  s_bfm_b32 s8, s2, s3
  s_brev_b32 s9, 1
  s_mov_b32 s10, 0x12345678
  v_mov_b32_e32 v10, s8
  v_mov_b32_e32 v11, s9
  v_alignbit_b32 v12, v0, s10, 8
  v_bfi_b32 v13, 0xff, v0, s10
  flat_store_dwordx4 v[2:3], v[10:13]
  v_bfrev_b32_e32 v14, v0
  v_add_u16_e32 v15, -1, v0
  v_mov_b32_e32 v16, 0
  v_writelane_b32 v16, s2, 3
  v_readlane_b32 s11, v0, 7
  v_mov_b32_e32 v17, s11
  v_add_u32_e32 v4, vcc, 16, v2
  v_addc_u32_e32 v5, vcc, 0, v3, vcc
  flat_store_dwordx4 v[4:5], v[14:17]
  v_cvt_f64_i32_e32 v[18:19], v0
  v_mul_f64 v[18:19], v[18:19], 0.5
  v_cvt_i32_f64_e32 v20, v[18:19]
  v_frexp_exp_i32_f64_e32 v21, v[18:19]
  v_cvt_f32_u32_e32 v24, v0
  v_exp_f32_e32 v22, v24
  v_log_f32_e32 v23, v22
  v_add_u32_e32 v4, vcc, 32, v2
  v_addc_u32_e32 v5, vcc, 0, v3, vcc
  flat_store_dwordx4 v[4:5], v[20:23]
  s_add_u32 s12, s0, 0x4000
  s_addc_u32 s13, s1, 0
  v_mov_b32_e32 v28, s12
  v_mov_b32_e32 v29, s13
  v_add_u32_e32 v25, vcc, 1, v0
  flat_atomic_add v24, v[28:29], v25 glc
  v_mov_b32_e32 v26, 0
  v_mov_b32_e32 v27, 2
  ds_add_rtn_u32 v25, v26, v27
  v_and_b32_e32 v27, 31, v0
  v_lshlrev_b32_e32 v27, v27, 1
  v_mov_b32_e32 v26, 4
  ds_or_b32 v26, v27
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v26, v26
  v_mov_b32_e32 v27, v16
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_add_u32_e32 v4, vcc, 48, v2
  v_addc_u32_e32 v5, vcc, 0, v3, vcc
  flat_store_dwordx4 v[4:5], v[24:27]
  flat_load_dwordx3 v[30:32], v[2:3]
  v_add_u32_e32 v4, vcc, 64, v2
  v_addc_u32_e32 v5, vcc, 0, v3, vcc
  s_waitcnt vmcnt(0)
  flat_store_dwordx3 v[4:5], v[30:32]
  v_add_u32_e32 v35, vcc, 1, v0
  v_cvt_f64_u32_e32 v[40:41], v35
  v_mov_b32_e32 v42, 0
  v_mov_b32_e32 v43, 0x40080000
  v_div_scale_f64 v[44:45], s[14:15], v[42:43], v[42:43], v[40:41]
  v_rcp_f64_e32 v[46:47], v[44:45]
  v_fma_f64 v[48:49], -v[44:45], v[46:47], 1.0
  v_fma_f64 v[46:47], v[46:47], v[48:49], v[46:47]
  v_fma_f64 v[48:49], -v[44:45], v[46:47], 1.0
  v_fma_f64 v[46:47], v[46:47], v[48:49], v[46:47]
  v_div_scale_f64 v[48:49], vcc, v[40:41], v[42:43], v[40:41]
  v_mul_f64 v[50:51], v[48:49], v[46:47]
  v_fma_f64 v[52:53], -v[44:45], v[50:51], v[48:49]
  v_div_fmas_f64 v[52:53], v[52:53], v[46:47], v[50:51]
  v_div_fixup_f64 v[54:55], v[52:53], v[42:43], v[40:41]
  v_add_u32_e32 v4, vcc, 80, v2
  v_addc_u32_e32 v5, vcc, 0, v3, vcc
  flat_store_dwordx2 v[4:5], v[54:55]
  v_mov_b32_e32 v56, 0x100
  v_mul_u32_u24_e32 v57, 16, v0
  v_add_u32_e32 v57, vcc, 0x100, v57
  ds_write_b128 v57, v[10:13]
  s_waitcnt lgkmcnt(0)
  ds_read_b128 v[60:63], v57
  v_add_u32_e32 v4, vcc, 88, v2
  v_addc_u32_e32 v5, vcc, 0, v3, vcc
  s_waitcnt lgkmcnt(0)
  flat_store_dwordx2 v[4:5], v[62:63]
  s_endpgm
";

/// 64 lanes, every instruction one cycle, no splitting.
fn machine() -> Machine {
    gcn_common::unit64(Splitting::None)
}

#[test]
fn new_instructions_by_hand() {
    let memory = MemoryInit::closed(vec![ArrayInit {
        name: "out".into(),
        address: 0x10_0000,
        words: 0x1001,
        fill: Fill::Constant { value: 0 },
    }]);
    let launch = Launch {
        block: [64, 1, 1],
        params: vec![0x10_0000, 0],
        shared_bytes: 0x1100,
        ..Launch::default()
    };
    let s = gcn_common::run_unit64(KERNEL, &launch, &memory);
    let out = &s.memory[0].words;
    for t in 0..64u32 {
        let row = &out[24 * t as usize..24 * t as usize + 24];
        // s_bfm_b32 5, 4: five ones from bit 4; s_brev_b32 1.
        assert_eq!(row[0], 0x1f0, "lane {t}");
        assert_eq!(row[1], 0x8000_0000);
        // alignbit(t, 0x12345678, 8) = t << 24 | 0x123456; bfi(0xff, t, 0x12345678).
        assert_eq!(row[2], (t << 24) | 0x0012_3456);
        assert_eq!(row[3], t | 0x1234_5600);
        assert_eq!(row[4], t.reverse_bits());
        // 0xffff + t in 16 bits.
        assert_eq!(row[5], (t + 0xffff) & 0xffff);
        // writelane put 5 in lane 3 only; readlane read lane 7's v0 = 7.
        assert_eq!(row[6], if t == 3 { 5 } else { 0 });
        assert_eq!(row[7], 7);
        // t / 2 in f64, truncated; its frexp exponent e (t/2 = m · 2^e, m in [0.5, 1): e =
        // ⌊log2(t/2)⌋ + 1, and 0 for t = 0).
        assert_eq!(row[8], t / 2);
        let half = f64::from(t) / 2.0;
        let frexp_e = if t == 0 {
            0
        } else {
            half.log2().floor() as i32 + 1
        };
        assert_eq!(row[9] as i32, frexp_e, "frexp lane {t}");
        // 2^t exactly, and log2 of it, t.
        assert_eq!(f32::from_bits(row[10]), 2f32.powi(t as i32));
        assert_eq!(f32::from_bits(row[11]), t as f32);
        // flat_atomic_add in lane order: lane t sees 1 + 2 + … + t; ds_add_rtn of 2: 2t;
        // ds_or of 1 << (t & 31) over the wave: every bit.
        assert_eq!(row[12], t * (t + 1) / 2, "atomic lane {t}");
        assert_eq!(row[13], 2 * t);
        assert_eq!(row[14], 0xffff_ffff);
        assert_eq!(row[15], row[6]);
        // dwordx3: the row's first three words copied.
        assert_eq!(&row[16..19], &row[0..3]);
        // (t + 1) / 3 through the f64 division sequence: the IEEE quotient.
        let q = f64::from(t + 1) / 3.0;
        let got = f64::from_bits(u64::from(row[20]) | u64::from(row[21]) << 32);
        assert_eq!(got.to_bits(), q.to_bits(), "quotient lane {t}");
        // ds_write_b128 / ds_read_b128 of v[10:13]: words 2 and 3 back.
        assert_eq!(&row[22..24], &row[2..4]);
    }
    assert_eq!(out[0x1000], 64 * 65 / 2, "the counter's final sum");
}

/// Scratch (the private segment, as HIP spills registers on GFX8): each work-item's own
/// bytes at `soffset + offset (+ vaddr with offen)` — lane t stores t and 3t, a byte, and
/// reads them back; another lane's bytes at the same offsets are its own.
#[test]
fn scratch_is_private_per_work_item() {
    let src = "k:
  s_load_dwordx2 s[0:1], s[4:5], 0x0
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s7, 8
  v_mul_u32_u24_e32 v1, 3, v0
  buffer_store_dword v0, off, s[0:3], s7 offset:4
  v_mov_b32_e32 v9, 16
  buffer_store_dword v1, v9, s[0:3], s7 offen offset:4
  v_add_u32_e32 v8, vcc, 0x80, v0
  buffer_store_byte v8, off, s[0:3], 0 offset:2
  s_waitcnt vmcnt(0)
  buffer_load_dword v2, off, s[0:3], s7 offset:4
  buffer_load_dword v3, off, s[0:3], 0 offset:28
  buffer_load_sbyte v4, off, s[0:3], 0 offset:2
  buffer_load_dword v5, off, s[0:3], 0 offset:100
  v_lshlrev_b32_e32 v6, 4, v0
  v_add_u32_e32 v6, vcc, s0, v6
  v_mov_b32_e32 v7, s1
  v_addc_u32_e32 v7, vcc, 0, v7, vcc
  s_waitcnt vmcnt(0)
  flat_store_dwordx4 v[6:7], v[2:5]
  s_endpgm
";
    let memory = MemoryInit::closed(vec![ArrayInit {
        name: "out".into(),
        address: 0x10_0000,
        words: 256,
        fill: Fill::Constant { value: 0 },
    }]);
    let launch = Launch {
        block: [64, 1, 1],
        params: vec![0x10_0000, 0],
        ..Launch::default()
    };
    let s = gcn::run_source(src, None, &launch, &machine(), &memory, &Budget::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let out = &s.memory[0].words;
    for t in 0..64u32 {
        let row = &out[4 * t as usize..4 * t as usize + 4];
        // offset 8 + 4 = 12 holds t; 8 + 16 + 4 = 28 holds 3t; byte 2 holds 0x80 + t,
        // sign-extended (negative for t < 0x80); offset 100 was never written: 0.
        assert_eq!(row[0], t, "lane {t}");
        assert_eq!(row[1], 3 * t);
        assert_eq!(row[2], (0x80 + t) as u8 as i8 as i32 as u32);
        assert_eq!(row[3], 0);
    }
}
