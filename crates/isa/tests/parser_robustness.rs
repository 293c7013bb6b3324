//! Hostile input never panics the SASS parser or the block graph, and every error it reports
//! points inside the text.

#[path = "common/robustness.rs"]
mod robustness;

use isa::{blocks, sass, Limits};
use proptest::prelude::*;
use robustness::{assert_inside, mutated};

const SEED_LINES: &[&str] = &[
    "\t\tFunction : k",
    "        /*0008*/                   MOV R1, c[0x0][0x44];",
    "\t/*0040*/     /*0x800001e740000001*/ \t@P0 BRA 0xa8;",
    "      [B------:R-:W-:-:S13]         /*0178*/              @!P0 BRK  (*\"BRANCH_TARGETS .L_x_1\"*)        }",
    "        /*0090*/                   SSY 0x1d8         }",
    "        /*00a0*/                   NOP.S CC.T;",
    "  .L_x_1:",
    "        CAL sub ;",
    "sub:",
    "        /*0030*/                   FSETP.GEU.FTZ.AND P0, PT, |R5|, c[0x2][0x6c], PT ;",
    "        /*0068*/                   DADD R8, R6, -6.75539944105574400000e+15;",
    "        /*0148*/                   ISCADD R4.CC, R3.reuse, R5, 0x2 ;",
    "  .section\t.text._Z5childPii,\"ax\",@progbits",
    "        /*0038*/                   RET ;",
    "        /*0040*/                   EXIT ;",
];

fn check(text: &str) {
    let out = sass::parse(text, None, &Limits::default());
    assert_inside(&out.diagnostics, text);
    if let Some(k) = out.kernel {
        if !out.diagnostics.iter().any(|d| d.is_error()) {
            let g = blocks::build(&k, &Limits::default());
            let total: usize = g.blocks.iter().map(|b| b.len()).sum();
            assert_eq!(total, k.instructions.len());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        check(&text);
    }

    #[test]
    fn shuffled_and_mutated_listings_never_panic(
        picks in prop::collection::vec((0..SEED_LINES.len(), 0usize..80, "[ -~]{0,3}"), 1..25)
    ) {
        check(&mutated(SEED_LINES, &picks));
    }
}

#[test]
fn budgets_stop_large_inputs_with_a_located_error() {
    let text = "/*0000*/ NOP ;\n".repeat(50);
    let limits = Limits {
        max_instructions: 10,
        ..Limits::default()
    };
    let out = sass::parse(&text, None, &limits);
    let err = out
        .diagnostics
        .iter()
        .find(|d| d.is_error())
        .expect("a budget error");
    assert_eq!(err.line, 11);
    assert!(err.message.contains("max_instructions"));

    let limits = Limits {
        max_input_bytes: 100,
        ..Limits::default()
    };
    let out = sass::parse(&text, None, &limits);
    assert!(out.diagnostics[0].message.contains("max_input_bytes"));
}

#[test]
fn semicolon_right_after_a_bare_opcode_is_an_instruction() {
    // Regression: `EXIT;` (no space) was rejected as an unrecognized line.
    let out = isa::sass::parse("MOV R0, R1;\nEXIT;\n", None, &isa::Limits::default());
    assert!(!out.has_errors(), "{:?}", out.diagnostics);
    let k = out.kernel.expect("kernel");
    assert_eq!(k.instructions.len(), 2);
    assert_eq!(k.instructions[1].opcode.name, "EXIT");
    assert_eq!(k.instructions[1].control, isa::ControlKind::Exit);
}

/// Regression (fuzzing, `sass_parser` timeout): a mash-up of listings whose SSY/PBK/CAL pushes
/// create ever new reconvergence stacks used to explore 200 000 states (0.4 s natively, 3 s
/// in the fuzzing build). The default budget now stops it after 50 000, with the error.
#[test]
fn stack_explosions_stop_at_the_state_budget() {
    let mut text = String::new();
    // Each block pushes a distinct entry and branches back: stacks never repeat.
    for i in 0..40u64 {
        let a = i * 0x20;
        text.push_str(&format!(
            "/*{:04x}*/ SSY 0x{:x} ;\n/*{:04x}*/ PBK 0x{:x} ;\n/*{:04x}*/ @P0 BRA 0x{:x} ;\n/*{:04x}*/ @P1 CAL 0x0 ;\n",
            a,
            a + 0x18,
            a + 8,
            a + 0x10,
            a + 0x10,
            (i * 7 % 40) * 0x20,
            a + 0x18
        ));
    }
    text.push_str("/*0500*/ EXIT ;\n");
    let limits = isa::Limits::default();
    let out = isa::sass::parse(&text, None, &limits);
    let kernel = out.kernel.expect("kernel");
    let g = isa::blocks::build(&kernel, &limits);
    // The stacks never repeat, so the walk ends at the budget, and says so.
    assert!(
        g.diagnostics
            .iter()
            .any(|d| d.message.contains("more than 50000")
                && d.message.contains("raise max_cfg_states")),
        "{:?}",
        g.diagnostics
    );
}

/// Lines of whole `nvdisasm` dumps: header, data sections with their records and sizes, a
/// code section's directives, labels, branches to labels, annotations.
const DUMP_LINES: &[&str] = &[
    "\t.headerflags\t@\"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM86 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM86)\"",
    "\t.elftype\t@\"ET_EXEC\"",
    "//--------------------- .nv.info                  --------------------------",
    "\t.section\t.nv.info,\"\",@\"SHT_CUDA_INFO\"",
    "\t.align\t4",
    "        /*0000*/ \t.byte\t0x04, 0x2f",
    "        /*0002*/ \t.short\t(.L_2 - .L_1)",
    "        /*0004*/ \t.word\tindex@(_Z1kPi)",
    "        /*0008*/ \t.word\t0x0000000a",
    ".L_1:",
    "\t.section\t.nv.constant0._Z1kPi,\"a\",@progbits",
    "\t.zero\t\t372",
    "        /*0190*/ \t.word\t[20@lo(0x0)=tex]",
    "\t.section\t.nv.shared._Z1kPi,\"aw\",@nobits",
    "        /*0044*/ \t.dword\t(_Z1kPi + $_Z1kPi$_Z4polyfi@srel)",
    "\t.section\t.text._Z1kPi,\"ax\",@progbits",
    "\t.sectionflags\t@\"SHF_BARRIERS=1\"",
    "\t.sectioninfo\t@\"SHI_REGISTERS=10\"",
    "        .other          _Z1kPi,@\"STO_CUDA_ENTRY STV_DEFAULT\"",
    "        .size           _Z1kPi,(.L_x_10 - _Z1kPi)",
    "_Z1kPi:",
    ".text._Z1kPi:",
    "        /*0000*/                   MOV R1, c[0x0][0x28] ;",
    "        /*0080*/                   BSSY B0, `(.L_x_0) ;",
    "        /*00b0*/              @!P0 BRA `(.L_x_1) ;",
    "        /*00d0*/                   CALL.REL.NOINC `($_Z1kPi$_Z4polyfi) ;",
    "        /*00e0*/                   CALL.ABS.NOINC `(vprintf) ;",
    "        /*0150*/                   BRX R2 -0x160      (*\"BRANCH_TARGETS .L_x_1,.text._Z1kPi\"*);",
    "        /*0540*/                   RET.REL.NODEC R4 `(_Z1kPi) ;",
    "        /*0550*/                   BRA `(.L_x_9);",
    ".L_x_1:",
    "$_Z1kPi$_Z4polyfi:",
    "                                                                 /* 0x000fc40000000f00 */",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn shuffled_and_mutated_dumps_never_panic(
        picks in prop::collection::vec((0..DUMP_LINES.len(), 0usize..100, "[ -~]{0,3}"), 1..40)
    ) {
        check(&mutated(DUMP_LINES, &picks));
    }
}

/// A real dump cut after every line, and with every line removed in turn: no panic, every
/// diagnostic inside the text.
#[test]
fn truncated_and_holed_dumps_never_panic() {
    for arch in ["sm_61", "sm_86"] {
        let path = format!(
            "{}/../../tests/kernels/dump/{arch}/noinline_call.nvdisasm",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let lines: Vec<&str> = text.lines().collect();
        for n in 0..lines.len() {
            check(&lines[..n].join("\n"));
            let holed: Vec<&str> = lines
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != n)
                .map(|(_, l)| *l)
                .collect();
            check(&holed.join("\n"));
        }
    }
}
