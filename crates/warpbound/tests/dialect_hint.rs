//! A kernel analysed in the wrong dialect (PTX pasted while SASS is selected): one error at
//! the mark that shows the real dialect, listed first, a `dialect_hint` the page turns into a
//! switch, and not hundreds of "unrecognized line" errors.

use std::path::PathBuf;
use warpbound::Dialect;
use warpbound::{analyze, Request};

fn corpus(rel: &str) -> String {
    let root = std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
        });
    std::fs::read_to_string(root.join(rel)).expect("corpus file")
}

#[test]
fn ptx_read_as_sass_names_ptx_first() {
    let text = corpus("ptx-modern/FunctionPointers.ptx");
    let r = analyze(&Request::new(text.clone(), Dialect::Sass));
    let hint = r.dialect_hint.as_ref().expect("a hint");
    assert_eq!(hint.dialect, Dialect::Ptx);
    assert_eq!(hint.evidence, ".version");
    let first = &r.diagnostics[0];
    assert_eq!(first.line, hint.line);
    assert!(
        first.message.contains("looks like PTX"),
        "{}",
        first.message
    );
    // 20 parse errors kept, the rest counted in one note.
    let errors = r
        .diagnostics
        .iter()
        .filter(|d| d.severity == warpbound::Severity::Error)
        .count();
    assert_eq!(errors, 21, "the hint and 20 parse errors");
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.message.contains("more errors not listed")));
    // In its own dialect the same text has no hint.
    let ok = analyze(&Request::new(text, Dialect::Ptx));
    assert!(ok.dialect_hint.is_none());
    assert!(!ok.has_errors(), "{:?}", ok.diagnostics);
}

#[test]
fn a_typo_in_the_right_dialect_gets_no_hint() {
    let r = analyze(&Request::new(
        "S2R R0, SR_TID.X ;\nISETP.GE.AND P0, PT, R0, 0x10 PT ;\nEXIT ;\n".to_string(),
        Dialect::Sass,
    ));
    assert!(r.has_errors());
    assert!(r.dialect_hint.is_none());
    let gcn = analyze(&Request::new(
        "s_mov_b32 s0, 0\ns_endpgm\n".to_string(),
        Dialect::Sass,
    ));
    assert_eq!(gcn.dialect_hint.map(|h| h.dialect), Some(Dialect::Gcn));
}

/// A whole `nvdisasm` dump (tests/kernels/dump) starts with `.headerflags`: read as SASS it
/// has no error and no hint; chosen as another dialect, the hint names SASS at line 1.
#[test]
fn an_nvdisasm_dump_is_sass() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/kernels/dump/sm_86/noinline_call.nvdisasm"
    );
    let text = std::fs::read_to_string(path).expect("dump");
    let g = isa::dialect_guess::guess(&text).expect("a guess");
    assert_eq!(
        (Dialect::from(g.dialect), g.line, g.evidence.as_str()),
        (Dialect::Sass, 1, ".headerflags")
    );
    let ok = analyze(&Request::new(text.clone(), Dialect::Sass));
    assert!(ok.dialect_hint.is_none());
    assert!(!ok.has_errors(), "{:?}", ok.diagnostics);
    for other in [Dialect::Ptx, Dialect::Gcn] {
        let r = analyze(&Request::new(text.clone(), other));
        let hint = r.dialect_hint.as_ref().expect("a hint");
        assert_eq!((hint.dialect, hint.line), (Dialect::Sass, 1), "{other:?}");
        // The first error, before the parse errors of the other dialect.
        let first = r
            .diagnostics
            .iter()
            .find(|d| d.is_error())
            .expect("an error");
        assert!(first.message.contains("looks like SASS"), "{other:?}");
    }
}

#[test]
fn cuda_source_gets_one_error_saying_how_to_compile_it() {
    // The gallery's own CUDA source (www/examples-src/its.cu), pasted as it is: one error at
    // its first CUDA mark naming nvcc's commands, instead of one "unrecognized line" per line.
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../www/examples-src/its.cu"),
    )
    .expect("its.cu");
    for dialect in [Dialect::Sass, Dialect::Ptx] {
        let mut request = Request::new(text.clone(), dialect);
        request.mode = Some("warp-cfg".into());
        let r = analyze(&request);
        let mark = r.cuda_source.as_ref().expect("CUDA source recognised");
        assert!(r.dialect_hint.is_none());
        let errors: Vec<_> = r
            .diagnostics
            .iter()
            .filter(|d| d.severity == warpbound::Severity::Error)
            .collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].line, mark.line);
        for part in [
            "CUDA C++ source",
            "nvcc -cubin",
            "cuobjdump -sass",
            "nvdisasm",
            "nvcc -ptx",
        ] {
            assert!(
                errors[0].message.contains(part),
                "{part}: {}",
                errors[0].message
            );
        }
    }
}
