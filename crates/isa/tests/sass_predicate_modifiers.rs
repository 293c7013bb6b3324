//! The modifiers of compares and predicate logic (`ISETP`, `FSETP`, `DSETP`, `PSETP`,
//! `PLOP3`, …) are checked: an unknown one is an error (`isa_table::predicate_modifiers`).
//! This test reads every real listing we have — the shared corpus (`sass/`, `sass-modern/`),
//! this repository's own nvcc output (`tests/kernels/sass`, `tests/kernels/dump`) and the
//! gallery's listings — and checks that none trips the check, and that the listings do use
//! these opcodes (so the check is tried on real text, not on nothing).

use isa::sass::isa_table;
use isa::{sass, Limits};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn corpus_root() -> PathBuf {
    std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("../shared/corpus"))
}

/// Every listing file under `dir`, recursively.
fn listings(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            listings(&path, out);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("sass" | "cuasm" | "nvdisasm")
        ) {
            out.push(path);
        }
    }
}

#[test]
fn no_real_listing_has_an_unknown_compare_modifier() {
    let mut files = Vec::new();
    for dir in [
        corpus_root().join("sass"),
        corpus_root().join("sass-modern"),
        repo().join("tests/kernels/sass"),
        repo().join("tests/kernels/dump"),
        repo().join("www/examples"),
    ] {
        listings(&dir, &mut files);
    }
    files.sort();
    assert!(
        files.len() >= 150,
        "expected the corpus and our own listings, found {}",
        files.len()
    );
    // Per checked opcode: how many instructions, and which modifiers they carry.
    let mut seen: BTreeMap<String, (usize, BTreeSet<String>)> = BTreeMap::new();
    let mut tripped = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable listing");
        let first = sass::parse(&text, None, &Limits::default());
        // A dump or a listing of several functions: each function is read on its own.
        let mut outs = vec![];
        for name in first.functions.iter().skip(1) {
            outs.push(sass::parse(&text, Some(name), &Limits::default()));
        }
        outs.push(first);
        for out in &outs {
            for d in &out.diagnostics {
                if d.message.contains("is not a modifier of") {
                    tripped.push(format!("{}:{}: {}", path.display(), d.line, d.message));
                }
            }
            for ins in out.kernel.iter().flat_map(|k| &k.instructions) {
                let name = &ins.opcode.name;
                if isa_table::predicate_modifiers(name).is_some() {
                    let entry = seen.entry(name.clone()).or_default();
                    entry.0 += 1;
                    entry.1.extend(ins.opcode.modifiers.iter().cloned());
                }
            }
        }
    }
    assert!(
        tripped.is_empty(),
        "real listings tripped the check:\n{}",
        tripped.join("\n")
    );
    for (name, least) in [
        ("ISETP", 1000),
        ("FSETP", 100),
        ("DSETP", 10),
        ("PSETP", 10),
        ("PLOP3", 10),
    ] {
        let n = seen.get(name).map_or(0, |s| s.0);
        assert!(
            n >= least,
            "{name}: {n} instructions in the listings, expected at least {least}"
        );
    }
    for (name, (n, modifiers)) in &seen {
        eprintln!("{name}: {n} instructions, modifiers {modifiers:?}");
    }
}
