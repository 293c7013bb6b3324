//! Every Sim-D benchmark kernel of the corpus parses without errors, and the parser survives
//! random and mutated text without panicking.

use isa::simd::{parse, Op};
use isa::Limits;
use proptest::prelude::*;
use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/simd")
}

fn corpus() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(corpus_dir()) else {
        panic!("corpus directory {:?} is missing", corpus_dir());
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.extension().is_some_and(|x| x == "sas") {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            out.push((name, text));
        }
    }
    out.sort();
    out
}

#[test]
fn every_corpus_kernel_parses_without_errors() {
    let files = corpus();
    assert_eq!(files.len(), 26, "the Sim-D corpus has 26 kernels");
    for (name, text) in &files {
        let out = parse(text, &Limits::default());
        let errors: Vec<String> = out
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.to_string())
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        let warnings: Vec<String> = out.diagnostics.iter().map(|d| d.to_string()).collect();
        assert!(warnings.is_empty(), "{name}: {warnings:?}");
        let p = out.program.unwrap_or_default();
        assert!(
            p.instructions.iter().all(|i| i.op.is_some()),
            "{name}: unknown opcode"
        );
        // Every kernel ends by exiting and stores results to DRAM (Sim-D §4.1).
        assert!(
            p.instructions
                .iter()
                .any(|i| i.op.is_some_and(Op::is_global_store)),
            "{name}"
        );
        assert_eq!(
            p.instructions.last().and_then(|i| i.op),
            Some(Op::Exit),
            "{name}"
        );
    }
}

/// Hand-counted from stencil.sas: 3 buffers, 36 instructions (lines 32–93 of the file),
/// of which 7 `ldglin`, and the first instruction `sldg s2, 1, 3` on line 32.
#[test]
fn stencil_is_read_as_written() {
    let files = corpus();
    let Some((_, text)) = files.iter().find(|(n, _)| n == "stencil") else {
        panic!("stencil.sas missing");
    };
    let p = parse(text, &Limits::default()).program.unwrap_or_default();
    assert_eq!(p.buffers.len(), 3);
    assert_eq!(p.buffers[&1].addr, 0x40_0000);
    let ldglin = p
        .instructions
        .iter()
        .filter(|i| i.op == Some(Op::LdgLin))
        .count();
    assert_eq!(ldglin, 7);
    assert_eq!(p.instructions.len(), 36);
    assert_eq!(p.instructions[35].span.line, 93);
    assert_eq!(p.instructions[0].span.line, 32);
    assert_eq!(p.instructions[0].text, "sldg s2, 1, 3");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(text in "\\PC{0,400}") {
        let _ = parse(&text, &Limits::default());
    }

    #[test]
    fn mutated_kernels_never_panic(seed in 0usize..26, cuts in proptest::collection::vec((0usize..6000, 0usize..40, "\\PC{0,8}"), 1..6)) {
        let files = corpus();
        let mut text = files[seed % files.len()].1.clone();
        for (at, len, insert) in cuts {
            let mut at = at.min(text.len());
            while !text.is_char_boundary(at) { at -= 1; }
            let mut end = (at + len).min(text.len());
            while !text.is_char_boundary(end) { end -= 1; }
            text.replace_range(at..end, &insert);
        }
        let out = parse(&text, &Limits::default());
        for d in &out.diagnostics {
            prop_assert!(d.line as usize <= text.lines().count().max(1));
        }
    }
}
