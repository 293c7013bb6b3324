//! Hostile input never panics the SASS parser or the block graph, and every error it reports
//! points inside the text.

use isa::{blocks, sass, Limits};
use proptest::prelude::*;

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
    let lines = text.lines().count().max(1) as u32;
    for d in &out.diagnostics {
        assert!(
            d.line >= 1 && d.line <= lines,
            "{d:?} outside {lines} lines"
        );
        assert!(d.column >= 1, "{d:?}");
    }
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
        let text: Vec<String> = picks
            .iter()
            .map(|(i, at, insert)| {
                let line = SEED_LINES[*i];
                let mut cut = (*at).min(line.len());
                while !line.is_char_boundary(cut) {
                    cut -= 1;
                }
                format!("{}{}{}", &line[..cut], insert, &line[cut..])
            })
            .collect();
        check(&text.join("\n"));
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
