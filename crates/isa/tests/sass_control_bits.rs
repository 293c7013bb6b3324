//! Control bits decoded from real listings, checked by hand (`isa::control_bits` has the
//! layout and its sources). Each expectation below is derived from the printed encoding word
//! in the comment, independently of the decoder; the derivations also cross-check the
//! meaning of the fields: a variable-latency instruction's write barrier is the barrier its
//! consumer waits for, and a reuse flag sits exactly where the listing prints `.reuse`.

#[path = "corpus_walk/mod.rs"]
mod corpus_walk;

use isa::{sass, ControlBits, Kernel, Limits};

fn kernel(text: &str) -> Kernel {
    let out = sass::parse(text, None, &Limits::default());
    assert!(!out.has_errors(), "{:?}", out.diagnostics);
    out.kernel.expect("a kernel")
}

fn bits_at(k: &Kernel, address: u64) -> ControlBits {
    let i = k.index_of(address).expect("an instruction there");
    k.instructions[i]
        .control_bits
        .unwrap_or_else(|| panic!("no control bits at {address:#x}"))
}

fn bits(stall: u8, yield_hint: bool, write: Option<u8>, wait_mask: u8, reuse: u8) -> ControlBits {
    ControlBits {
        stall,
        yield_hint,
        write_barrier: write,
        read_barrier: None,
        wait_mask,
        reuse,
    }
}

/// Ampere: the field is bits 41–61 of the second word, i.e. `high >> 40` (drop the low ten hex
/// digits) then one more bit.
#[test]
fn sm86_sobel_tex_by_hand() {
    let k = kernel(&corpus_walk::read(
        "sass-modern/sm_86/FunctionPointers__SobelTex.sass",
    ));
    // 0x0000 IMAD.MOV.U32 R1, …: high word 0x000fc400078e00ff → 0x000fc4 >> 1 = 0x7e2
    // = 0111_1110_0010b: stall 0010b = 2, bit 4 clear (yield hint), bits 5–7 = 111b and
    // 8–10 = 111b (no barriers), wait 0, reuse 0.
    assert_eq!(bits_at(&k, 0x0000), bits(2, true, None, 0, 0));
    // 0x0010 S2R R2, SR_TID.X: 0x000e240000002100 → 0x000e24 >> 1 = 0x712 = 0111_0001_0010b:
    // stall 2, bit 4 set (no hint), bits 5–7 = 000b: write barrier 0 (S2R has variable
    // latency), read none.
    assert_eq!(bits_at(&k, 0x0010), bits(2, false, Some(0), 0, 0));
    // 0x0020 ISETP.GE.AND P0, PT, R2, …: 0x001fda0003f06270 → 0x001fda >> 1 = 0xfed
    // = 1111_1110_1101b: stall 1101b = 13, bit 4 clear, no barriers set, bits 11–16 = 1:
    // waits for barrier 0 — the S2R's, whose R2 it reads.
    assert_eq!(bits_at(&k, 0x0020), bits(13, true, None, 0b1, 0));
    // 0x0160 FADD R26, R4.reuse, 1: 0x040fe20000000000 → 0x040fe2 >> 1 = 0x207f1
    // = 10_0000_0111_1111_0001b: stall 1, bit 4 set, no barriers, wait (0x207f1 >> 11) & 0x3f
    // = 0x40 & 0x3f = 0, reuse 0x207f1 >> 17 = 1: slot 0, the `R4.reuse` operand.
    assert_eq!(bits_at(&k, 0x0160), bits(1, false, None, 0, 0b1));
    // 0x03b0 CALL.REL.NOINC R14: 0x001fea0003c3ffff → 0x001fea >> 1 = 0xff5: stall 5, bit 4
    // set, no barriers, wait 1: barrier 0, set by the LDC.64 R14 at 0x0390 (0x004e220000000a00
    // → 0x004e22 >> 1 = 0x2711: write bits 000b = barrier 0).
    assert_eq!(bits_at(&k, 0x03b0), bits(5, false, None, 0b1, 0));
    assert_eq!(bits_at(&k, 0x0390).write_barrier, Some(0));
}

/// Pascal: one control word per three instructions, instruction `k` of the group owning bits
/// `21k .. 21k+20`.
#[test]
fn sm61_sobel_tex_by_hand() {
    let k = kernel(&corpus_walk::read(
        "sass-modern/sm_61/FunctionPointers__SobelTex.sass",
    ));
    // Group at 0x0000, word 0x001cfc00e22007f6, low 48 bits 0xfc00e22007f6 =
    // 1111_1100_0000_0000_1110_0010_0010_0000_0000_0111_1111_0110b.
    // Slot 0 (0x0008 MOV R1): bits 0–20 = 0_0000_0000_0111_1111_0110b = 0x7f6: stall 6, bit 4
    // set, no barriers (CuAssembler prints ptxas's same MOV as `[B------:R-:W-:-:S06]`).
    assert_eq!(bits_at(&k, 0x0008), bits(6, false, None, 0, 0));
    // Slot 1 (0x0010 S2R R18): bits 21–41 = 000_0000_0111_0001_0001b = 0x711: stall 1,
    // write barrier 000b = 0.
    assert_eq!(bits_at(&k, 0x0010), bits(1, false, Some(0), 0, 0));
    // Slot 2 (0x0018 S2R R17): bits 42–62 = word >> 42 = 0x001cfc >> 2 = 0x73f: stall 15,
    // write barrier 001b = 1.
    assert_eq!(bits_at(&k, 0x0018), bits(15, false, Some(1), 0, 0));
    // Group at 0x0020, word 0x001fa000fde00fed: slot 0 (0x0028 ISETP on R18) = low 21 bits
    // 0x00fed: stall 13, bit 4 clear (yield hint), wait barrier 0 — the S2R R18's.
    assert_eq!(bits_at(&k, 0x0028), bits(13, true, None, 0b1, 0));
    // Group at 0x00c0, word 0x083fc400e3a007f6, printed between the halves of the dual-issue
    // pair `{ XMAD … ; @!P0 BRA 0x298 }` (the BRA's own word is on the line after it). Low 48
    // bits 0xc400e3a007f6 = 110001_000000000011100011101_000000000011111110110b.
    // Slot 0 (0x00c8 BRA): 0x7f6, stall 6. Slot 1 (0x00d0 I2F.F32.U32 R17): 0x71d = stall 13,
    // write barrier 0. Slot 2 (0x00d8 FADD R16, R17.reuse, -1): word >> 42 = 0x083fc4 >> 2
    // = 0x20ff1: stall 1, wait (0x20ff1 >> 11) & 0x3f = 1 (the I2F's barrier 0, whose R17 it
    // reads), reuse 0x20ff1 >> 17 = 1 (slot 0: `R17.reuse`).
    assert_eq!(bits_at(&k, 0x00c8), bits(6, false, None, 0, 0));
    assert_eq!(bits_at(&k, 0x00d0), bits(13, false, Some(0), 0, 0));
    assert_eq!(bits_at(&k, 0x00d8), bits(1, false, None, 0b1, 0b1));
}

/// CuAssembler keeps the control code as text: `[B0-----:R-:W-:Y:S01]` waits for barrier 0,
/// yields, and stalls one cycle.
#[test]
fn cuasm_control_codes() {
    let k = kernel(&corpus_walk::read(
        "sass/cuassembler_sm61___Z5childPii.cuasm",
    ));
    assert_eq!(bits_at(&k, 0x0030), bits(1, true, None, 0b1, 0));
    // `[B-----5:R-:W-:Y:S06]` at 0x01d0: waits for barrier 5 (the LDG.E R4 at 0x0178, W5).
    assert_eq!(bits_at(&k, 0x01d0).wait_mask, 0b10_0000);
    assert_eq!(bits_at(&k, 0x0178).write_barrier, Some(5));
}

/// Every instruction of every Pascal-to-Hopper listing of the corpus gets control bits (the
/// words line up everywhere, the sm_90 words without a mnemonic included); Fermi and Kepler
/// listings and hand-written text get none.
#[test]
fn every_modern_listing_has_them_and_older_ones_do_not() {
    for arch in ["sm_61", "sm_70", "sm_75", "sm_86", "sm_90"] {
        let root = corpus_walk::corpus_dir().join("sass-modern").join(arch);
        let files: Vec<_> = corpus_walk::every_file(&root)
            .into_iter()
            .filter(|p| p.extension().is_some_and(|x| x == "sass"))
            .collect();
        assert!(!files.is_empty(), "{arch}");
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap_or_default();
            let k = kernel(&text);
            let missing = k
                .instructions
                .iter()
                .filter(|i| i.control_bits.is_none())
                .count();
            assert_eq!(missing, 0, "{}", f.display());
        }
    }
    let fermi = kernel(&corpus_walk::read(
        "sass/FERMI_sm20_mgpu__FindMaxIndexLoop.sass",
    ));
    assert!(fermi.instructions.iter().all(|i| i.control_bits.is_none()));
    let hand = kernel("/*0000*/ MOV R1, R2 ;\n/*0008*/ EXIT ;\n");
    assert!(hand.instructions.iter().all(|i| i.control_bits.is_none()));
}

/// nvdisasm lists the targets of an indirect branch: they become the instruction's
/// `indirect_targets`; a label it does not define is an error. (With the control-bit tests
/// because both read what the disassembler prints beside the instruction.)
#[test]
fn nvdisasm_branch_targets() {
    let text = "\
        /*0000*/ SSY 0x30 ;
        /*0008*/ BRX R2 -0x10 (*\"BRANCH_TARGETS .L_x_1,.L_x_2\"*) ;
.L_x_1:
        /*0010*/ SYNC ;
.L_x_2:
        /*0018*/ SYNC ;
        /*0020*/ NOP ;
        /*0028*/ NOP ;
        /*0030*/ EXIT ;
";
    let k = kernel(text);
    assert_eq!(k.instructions[1].indirect_targets, vec![0x10, 0x18]);
    // The target register is read, though `R2 -0x10` is one operand token: threads that
    // disagree on it may go to different targets.
    assert_eq!(k.instructions[1].reads, vec![isa::Register::Gpr(2)]);
    let bad = text.replace(".L_x_2\"", ".L_x_9\"");
    let out = sass::parse(&bad, None, &Limits::default());
    assert!(out
        .diagnostics
        .iter()
        .any(|d| d.is_error() && d.message.contains("`.L_x_9`")));
}
