//! Every PTX file of the shared corpus parses without errors, and hostile or mutated PTX
//! never panics the parser and only yields diagnostics located inside the text.

#[path = "common/robustness.rs"]
mod robustness;

use isa::ptx::{self, OperandKind};
use isa::Limits;
use proptest::prelude::*;
use robustness::assert_inside;
use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/ptx")
}

fn corpus_files() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(corpus_dir()) else {
        return out;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "ptx") {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            out.push((
                p.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
                text,
            ));
        }
    }
    out.sort();
    out
}

/// The manifest lists 18 PTX files; each must parse with no error and with its kernel's
/// instructions (counts from corpus/MANIFEST.md, column `#instr`).
#[test]
fn every_corpus_file_parses() {
    let files = corpus_files();
    assert_eq!(files.len(), 18, "expected the 18 PTX corpus files");
    let expected: &[(&str, usize)] = &[
        ("backprop___Z22bpnn_layerforward_CUDAPfS_S_S_ii.ptx", 106),
        ("backprop___Z24bpnn_adjust_weights_cudaPfiS_iS_S_.ptx", 80),
        ("bfs___Z6KernelP4NodePiPbS2_S2_S1_i.ptx", 59),
        ("bfs___Z7Kernel2PbS_S_S_i.ptx", 29),
        ("gaussian___Z4Fan1PfS_ii.ptx", 33),
        ("nn___Z6euclidP7latLongPfiff.ptx", 29),
        ("hotspot___Z14calculate_tempiPfS_S_iiiiffffff.ptx", 174),
    ];
    for (name, text) in &files {
        let out = ptx::parse(text, &Limits::default());
        let errors: Vec<_> = out.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        let f = out
            .module
            .function(None)
            .unwrap_or_else(|| panic!("{name}: no entry"));
        assert!(!f.instructions.is_empty(), "{name}");
        if let Some((_, n)) = expected.iter().find(|(e, _)| e == name) {
            assert_eq!(f.instructions.len(), *n, "{name}: instruction count");
        }
        // Every branch names a label of the function.
        for ins in f.instructions.iter().filter(|i| i.opcode == "bra") {
            match ins.operands.first().map(|o| &o.kind) {
                Some(OperandKind::Symbol { name: l }) => assert!(f.labels.contains_key(l)),
                other => panic!("{name}: bra operand {other:?}"),
            }
        }
    }
}

/// The thesis's §4.4.4 kernel header has `.param .u64` parameters; the Rodinia files have
/// several. Parameters come back in declaration order.
#[test]
fn parameters_in_declaration_order() {
    let files = corpus_files();
    let (_, text) = files
        .iter()
        .find(|(n, _)| n.starts_with("gaussian___Z4Fan1"))
        .expect("gaussian Fan1");
    let out = ptx::parse(text, &Limits::default());
    let f = out.module.function(None).expect("entry");
    let names: Vec<&str> = f.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        vec![
            "_Z4Fan1PfS_ii_param_0",
            "_Z4Fan1PfS_ii_param_1",
            "_Z4Fan1PfS_ii_param_2",
            "_Z4Fan1PfS_ii_param_3"
        ]
    );
    let tys: Vec<&str> = f.params.iter().map(|p| p.ty.as_str()).collect();
    assert_eq!(tys, vec!["u64", "u64", "u32", "u32"]);
}

fn check(text: &str) {
    let out = ptx::parse(text, &Limits::default());
    assert_inside(&out.diagnostics, text);
}

const SEEDS: &[&str] = &[
    ".version 7.7",
    ".target sm_52",
    ".address_size 64",
    ".visible .entry k(",
    ".param .u64 k_param_0,",
    ".param .align 8 .b8 p[16]",
    ")",
    "{",
    "}",
    ".reg .pred %p<6>;",
    ".shared .align 4 .b8 s[1024];",
    "ld.param.u64 %rd1, [k_param_0];",
    "mov.u32 %r1, %tid.x;",
    "mad.lo.s32 %r2, %r1, %r3, %r4;",
    "setp.lt.s32 %p1, %r1, 16;",
    "@!%p1 bra $L__BB0_2;",
    "$L__BB0_2:",
    "ld.global.f32 %f1, [%rd8+4];",
    "mov.b64 {%temp, %r25}, %fd59;",
    "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [t, {%r1}];",
    ".loc 1 23 4",
    "/* open comment",
    "\"str",
    "ret;",
    "// c",
    "é ; [ ] { ( ) < > @ ! -",
    ".global .align 4 .b8 x[16] = {3, 0, {1, 2}, -4};",
    ".global .align 8 .u64 p = generic(x)+4;",
    ".extern .func (.param .b32 func_retval0) vprintf (.param .b64 a, .param .b64 b);",
    ".func (.param .b32 func_retval0) f(.param .b32 f_param_0) .noreturn",
    "{ // callseq 0, 0",
    ".param .b64 param0;",
    "call.uni (retval0),",
    "vprintf,",
    "(",
    "param0,",
    ");",
    "prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);",
    "call (retval0), %rd5, (param0), prototype_0;",
    "ts: .branchtargets $L__BB0_2, $L__BB0_2;",
    "brx.idx %r1, ts;",
    ".section .debug_info {",
    "@@DWARF .byte 0x1",
    "ld.global.L1::evict_last.v4.f32 {%f1, %f2, %f3, _}, [%rd1];",
    "shfl.snyc.bar.uni %tidx, %laneidd;",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random lines from real PTX, shuffled and cut at random points, never panic.
    #[test]
    fn mutated_ptx_never_panics(
        picks in proptest::collection::vec((0usize..SEEDS.len(), 0usize..40), 0..40)
    ) {
        let mut text = String::new();
        for (i, cut) in picks {
            let line = SEEDS[i];
            let end = line.char_indices().nth(cut).map(|(b, _)| b).unwrap_or(line.len());
            text.push_str(&line[..end]);
            text.push('\n');
        }
        check(&text);
    }

    /// Arbitrary text never panics either.
    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,300}") {
        check(&text);
    }

    /// Corpus files with one byte range deleted parse without panicking.
    #[test]
    fn corpus_with_a_hole_never_panics(file in 0usize..18, a in 0usize..20_000, len in 0usize..400) {
        let files = corpus_files();
        if let Some((_, text)) = files.get(file % files.len().max(1)) {
            let mut a = a.min(text.len());
            while !text.is_char_boundary(a) { a -= 1; }
            let mut b = (a + len).min(text.len());
            while !text.is_char_boundary(b) { b -= 1; }
            let mutated = format!("{}{}", &text[..a], &text[b..]);
            check(&mutated);
        }
    }
}
