//! Every whole-module PTX file of `../shared/corpus/ptx-modern` (nvcc 11.8, PTX ISA 7.8) and
//! of the older `../shared/corpus/ptx` parses with no error and no warning, and the module
//! lists what the file holds: kernels, `.extern .func` prototypes, initialised globals and
//! calls — each count taken independently from the text and from the corpus README's table.

#[path = "common/robustness.rs"]
mod robustness;

use isa::ptx::{self, CallTarget, Callee, FunctionKind, InitValue, Linkage};
use isa::Limits;
use proptest::prelude::*;
use robustness::with_hole;
use std::path::PathBuf;

fn corpus_dir(sub: &str) -> PathBuf {
    let base = std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
        });
    base.join(sub)
}

/// The text of `ptx-modern/{name}` (empty when the corpus lacks it).
fn modern(name: &str) -> String {
    std::fs::read_to_string(corpus_dir("ptx-modern").join(name)).unwrap_or_default()
}

fn files(sub: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(corpus_dir(sub)) else {
        return out;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "ptx") {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            let name = p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            out.push((name, text));
        }
    }
    out.sort();
    out
}

/// Rows of the README table: file → (`.entry`, `.extern .func`, `.global` with `{…}`
/// initializer, `call`).
fn readme_table() -> Vec<(String, [usize; 4])> {
    let text =
        std::fs::read_to_string(corpus_dir("ptx-modern").join("README.md")).unwrap_or_default();
    let mut rows = Vec::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // | `file.ptx` | 3 | 0 | 1 | 15 |
        if cells.len() != 7 || !cells[1].ends_with(".ptx`") {
            continue;
        }
        let name = cells[1].trim_matches('`').to_string();
        let mut n = [0usize; 4];
        for (k, c) in cells[2..6].iter().enumerate() {
            n[k] = c.parse().unwrap_or(usize::MAX);
        }
        rows.push((name, n));
    }
    rows
}

/// The same four counts from the text itself, line by line.
fn text_counts(text: &str) -> [usize; 4] {
    let mut n = [0usize; 4];
    for line in text.lines() {
        let l = line.trim_start();
        let words: Vec<&str> = l.split_whitespace().collect();
        if matches!(
            words.as_slice(),
            [".entry", ..] | [".visible" | ".weak", ".entry", ..]
        ) {
            n[0] += 1;
        }
        if line.starts_with(".extern .func") {
            n[1] += 1;
        }
        if line.starts_with(".global") && line.contains("= {") {
            n[2] += 1;
        }
        if l.starts_with("call") {
            n[3] += 1;
        }
    }
    n
}

#[test]
fn every_file_parses_without_errors_or_warnings() {
    let mut count = 0;
    for sub in ["ptx", "ptx-modern"] {
        for (name, text) in files(sub) {
            let out = ptx::parse(&text, &Limits::default());
            assert!(
                out.diagnostics.is_empty(),
                "{sub}/{name}: {:#?}",
                out.diagnostics
            );
            count += 1;
        }
    }
    assert_eq!(count, 18 + 21, "expected 18 older and 21 modern PTX files");
}

#[test]
fn kernel_counts_match_the_text_and_the_readme() {
    let table = readme_table();
    assert_eq!(table.len(), 21, "README table rows");
    let mut kernels = 0;
    for (name, text) in files("ptx-modern") {
        let out = ptx::parse(&text, &Limits::default());
        let m = &out.module;
        let list = m.function_list();
        let entries = list
            .iter()
            .filter(|e| e.kind == FunctionKind::Entry)
            .count();
        let externs = list.iter().filter(|e| e.linkage == Linkage::Extern).count();
        let init_arrays = m
            .globals
            .iter()
            .filter(|g| g.init.is_some() && !g.dims.is_empty())
            .count();
        let calls = m
            .functions
            .iter()
            .flat_map(|f| &f.instructions)
            .filter(|i| i.call.is_some())
            .count();
        let got = [entries, externs, init_arrays, calls];
        assert_eq!(got, text_counts(&text), "{name}: counts from the text");
        let row = table.iter().find(|(n, _)| *n == name);
        assert_eq!(row.map(|(_, r)| *r), Some(got), "{name}: README row");
        // Every entry has a body and is in the name list.
        let names = m.function_names();
        for e in list.iter().filter(|e| e.kind == FunctionKind::Entry) {
            assert!(e.defined && names.contains(&e.name), "{name}: {}", e.name);
        }
        kernels += entries;
    }
    assert_eq!(kernels, 314);
}

/// `call`s to functions without a body in the module (`__assertfail`, `malloc`, `free`,
/// `vprintf`) are typed external; calls to `.func`s of the module are typed defined; the
/// indirect calls of FunctionPointers go through `.callprototype` labels.
#[test]
fn calls_are_typed_by_their_callee() {
    let out = ptx::parse(&modern("simpleAssert.ptx"), &Limits::default());
    let f = out
        .module
        .function(Some("_Z10testKerneli"))
        .expect("kernel");
    let calls: Vec<_> = f
        .instructions
        .iter()
        .filter_map(|i| i.call.as_ref())
        .collect();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].callee_name(), Some("__assertfail"));
    assert_eq!(calls[0].callee, Callee::External);
    assert!(calls[0].uni && calls[0].returns.is_empty());
    assert_eq!(calls[0].args.len(), 5);
    assert!(f.instructions.iter().any(|i| i.is_external_call()));

    let out = ptx::parse(&modern("newdelete.ptx"), &Limits::default());
    let mut external = std::collections::BTreeSet::new();
    let mut kinds = [0usize; 3];
    for i in out.module.functions.iter().flat_map(|f| &f.instructions) {
        if let Some(c) = &i.call {
            match c.callee {
                Callee::External => {
                    kinds[0] += 1;
                    external.insert(c.callee_name().unwrap_or("").to_string());
                }
                Callee::Defined => kinds[1] += 1,
                // Virtual calls of the C++ classes.
                Callee::Indirect => kinds[2] += 1,
                Callee::Unknown => panic!("newdelete: unknown callee at {:?}", i.span),
            }
        }
    }
    assert_eq!(
        external.into_iter().collect::<Vec<_>>(),
        vec!["free", "malloc"]
    );
    assert_eq!(kinds.iter().sum::<usize>(), 17);
    assert!(kinds[0] > 0 && kinds[2] > 0, "{kinds:?}");
    let malloc = out
        .module
        .function_list()
        .into_iter()
        .find(|e| e.name == "malloc")
        .expect("malloc listed");
    assert!(malloc.external && !malloc.defined && malloc.linkage == Linkage::Extern);

    let out = ptx::parse(&modern("FunctionPointers.ptx"), &Limits::default());
    let f = out
        .module
        .functions
        .iter()
        .find(|f| f.has_body && f.kind == FunctionKind::Entry && !f.prototypes.is_empty())
        .expect("a kernel with indirect calls");
    for c in f.instructions.iter().filter_map(|i| i.call.as_ref()) {
        match &c.target {
            CallTarget::Indirect { register, via, .. } => {
                assert!(register.starts_with("%rd"));
                let via = via.as_deref().expect("prototype");
                assert!(f.prototypes.iter().any(|p| p.name == via));
                assert_eq!(c.callee, Callee::Indirect);
                assert_eq!(c.returns.len(), 1);
            }
            CallTarget::Direct { .. } => {}
        }
    }
    let p = &f.prototypes[0];
    assert_eq!((p.returns.len(), p.params.len()), (1, 10));
}

/// Module-scope data: the libcu++ `__xform` table's bytes, printf strings' bytes, function
/// addresses kept as symbols (no bytes), `.extern .shared` unsized arrays.
#[test]
fn module_data_is_recorded() {
    let out = ptx::parse(&modern("FunctionPointers.ptx"), &Limits::default());
    let m = &out.module;
    let x = m
        .globals
        .iter()
        .find(|g| g.name.ends_with("__xform"))
        .expect("__xform");
    assert_eq!(x.size_bytes(), Some(16));
    assert_eq!(
        x.init.as_ref().and_then(|i| i.bytes.clone()),
        Some(vec![3, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0])
    );
    let p = m.global("pComputeSobel").expect("pComputeSobel");
    let init = p.init.as_ref().expect("init");
    assert_eq!(init.bytes, None);
    assert_eq!(
        init.values,
        vec![InitValue::Address {
            symbol: "_Z12ComputeSobelhhhhhhhhhf".into(),
            offset: 0,
            generic: false
        }]
    );
    let lb = m.global("LocalBlock").expect("LocalBlock");
    assert_eq!(
        (lb.linkage, lb.dims.clone(), lb.align),
        (Linkage::Extern, vec![None], Some(16))
    );

    let out = ptx::parse(&modern("simpleAssert.ptx"), &Limits::default());
    let s = out.module.global("$str").expect("$str");
    let bytes = s
        .init
        .as_ref()
        .and_then(|i| i.bytes.clone())
        .expect("bytes");
    assert_eq!(bytes, b"gtid < N\0".to_vec());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Modern modules (the ones under 100 KB) with one byte range deleted never panic the
    /// parser, and every diagnostic is located inside the text.
    #[test]
    fn modern_files_with_a_hole_never_panic(file in 0usize..32, a in 0usize..100_000, len in 0usize..600) {
        let small: Vec<(String, String)> = files("ptx-modern").into_iter().filter(|(_, t)| t.len() < 100_000).collect();
        if let Some((_, text)) = small.get(file % small.len().max(1)) {
            let mutated = with_hole(text, a, len);
            let out = ptx::parse(&mutated, &Limits::default());
            let lines = mutated.lines().count().max(1) as u32;
            for d in &out.diagnostics {
                prop_assert!(d.line >= 1 && d.line <= lines && d.column >= 1, "{d:?}");
            }
        }
    }
}
