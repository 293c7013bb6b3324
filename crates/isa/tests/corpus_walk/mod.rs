//! Every function of the shared corpus (`../shared/corpus`, or `WARPBOUND_CORPUS`), read in
//! place, for the verifier tests of the crates that build graphs (`isa`, `cfg`, `ipet`
//! include this one file with `#[path]`, so the walk is written once).

#![allow(dead_code)]

use isa::gcn::GcnFunction;
use isa::{gcn, ptx, sass, Kernel, Limits};
use std::path::{Path, PathBuf};

/// The corpus folder: `WARPBOUND_CORPUS`, or `../shared/corpus` beside the repository.
pub fn corpus_dir() -> PathBuf {
    std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
}

/// The text of the corpus file `rel` (a path below the corpus folder); panics when it
/// cannot be read.
pub fn read(rel: &str) -> String {
    let path = corpus_dir().join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The files below the corpus folders `dirs` (recursively) whose extension is `ext`, sorted,
/// with their text.
fn files(dirs: &[&str], ext: &str) -> Vec<(PathBuf, String)> {
    let root = corpus_dir();
    let mut out = Vec::new();
    let mut work: Vec<PathBuf> = dirs.iter().map(|d| root.join(d)).collect();
    while let Some(d) = work.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                work.push(p);
            } else if p.extension().and_then(|e| e.to_str()) == Some(ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out.into_iter()
        .map(|p| {
            let text =
                std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, text)
        })
        .collect()
}

/// Every file below `dir` (recursively), sorted; none where `dir` cannot be read.
pub fn every_file(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

fn label(path: &Path, function: &str) -> String {
    format!("{} {function}", path.display())
}

/// Every function of every SASS listing (`sass`, `sass-modern`), each with its label.
pub fn sass_kernels() -> Vec<(String, Kernel)> {
    let limits = Limits::default();
    let listings = files(&["sass", "sass-modern"], "sass");
    assert!(listings.len() >= 19 + 100, "{} SASS files", listings.len());
    let mut out = Vec::new();
    for (path, text) in listings {
        let functions = sass::parse(&text, None, &limits).functions;
        let names: Vec<Option<&str>> = match functions.len() {
            0 | 1 => vec![None],
            _ => functions.iter().map(|f| Some(f.as_str())).collect(),
        };
        for name in names {
            if let Some(k) = sass::parse(&text, name, &limits).kernel {
                out.push((label(&path, name.unwrap_or("")), k));
            }
        }
    }
    out
}

/// Every function (bodies and prototypes) of every PTX module (`ptx`, `ptx-modern`).
pub fn ptx_functions() -> Vec<(String, ptx::Function)> {
    let modules = files(&["ptx", "ptx-modern"], "ptx");
    assert!(modules.len() >= 39, "{} PTX files", modules.len());
    let mut out = Vec::new();
    for (path, text) in modules {
        for f in ptx::parse(&text, &Limits::default()).module.functions {
            out.push((label(&path, &f.name), f));
        }
    }
    out
}

/// Every function of every GCN3 listing (`gcn`).
pub fn gcn_functions() -> Vec<(String, GcnFunction)> {
    let listings = files(&["gcn"], "s");
    assert!(listings.len() >= 20, "{} GCN3 files", listings.len());
    let mut out = Vec::new();
    for (path, text) in listings {
        for f in gcn::parse(&text, &Limits::default()).functions {
            out.push((label(&path, &f.name), f));
        }
    }
    out
}
