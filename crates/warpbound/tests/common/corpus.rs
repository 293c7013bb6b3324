//! Helpers of the facade's tests on the shared corpus (`corpus_soundness.rs`,
//! `ptx_corpus_soundness.rs`): its files, read in place, and what stopped a report.
//! Included by path (`#[path = "common/corpus.rs"]`); each test uses only some of it.

#![allow(dead_code)]

use std::path::PathBuf;

/// Each architecture of our listings and of `sass-modern`, with the `warp-cfg` latency
/// preset of its generation.
pub const ARCHS: [(&str, &str); 5] = [
    ("sm_61", "pascal-gp102"),
    ("sm_70", "volta-qv100"),
    ("sm_75", "turing-rtx2060"),
    ("sm_86", "ampere-rtx3070"),
    ("sm_90", "hopper-h100"),
];

/// Each SASS directory of the corpus (our listings, then `sass-modern`'s architectures)
/// with the latency preset of its architecture.
pub const SASS_DIRS: [(&str, &str); 6] = [
    ("sass", "pascal-gp102"),
    ("sass-modern/sm_61", "pascal-gp102"),
    ("sass-modern/sm_70", "volta-qv100"),
    ("sass-modern/sm_75", "turing-rtx2060"),
    ("sass-modern/sm_86", "ampere-rtx3070"),
    ("sass-modern/sm_90", "hopper-h100"),
];

/// The directories of [`SASS_DIRS`].
pub fn sass_dirs() -> [&'static str; 6] {
    SASS_DIRS.map(|(dir, _)| dir)
}

/// The files ending in `.{ext}` of each `../shared/corpus/{dir}`, sorted per directory; a
/// missing directory is skipped with a note (the corpus is not part of the repository).
pub fn files(dirs: &[&str], ext: &str) -> Vec<PathBuf> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus");
    let mut out = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(format!("{root}/{dir}")) else {
            eprintln!("corpus directory {root}/{dir} is missing: skipped");
            continue;
        };
        let mut found: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == ext))
            .collect();
        found.sort();
        out.extend(found);
    }
    out
}

/// A file's name, for tables and messages.
pub fn name(path: &std::path::Path) -> String {
    path.file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into())
}

/// The last error of a report (the one that stopped it; earlier ones explain it), cut to
/// `chars` characters.
pub fn stop(r: &warpbound::Report, chars: usize) -> String {
    r.diagnostics
        .iter()
        .filter(|d| d.severity == warpbound::Severity::Error)
        .map(|d| d.message.as_str())
        .next_back()
        .unwrap_or("no bound")
        .chars()
        .take(chars)
        .collect()
}
