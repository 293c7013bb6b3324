//! Every kernel file of the shared corpus is recognised as its own dialect from its content
//! alone (no file name), and the file name agrees: a pasted or named real kernel is read as
//! what it is (`isa::dialect_guess`).

#[path = "corpus_walk/mod.rs"]
mod corpus_walk;

use isa::dialect_guess::{from_file_name, guess};
use isa::Dialect;
use std::path::PathBuf;

fn corpus() -> PathBuf {
    std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
}

#[test]
fn every_corpus_kernel_is_recognised_by_its_content() {
    let root = corpus();
    let all = corpus_walk::every_file(&root);
    let mut checked = 0;
    let mut wrong = Vec::new();
    for path in &all {
        let name = path.to_string_lossy();
        let want = match path.extension().and_then(|e| e.to_str()) {
            Some("sass" | "cuasm") => Dialect::Sass,
            Some("ptx") => Dialect::Ptx,
            Some("s") => Dialect::Gcn,
            Some("sas") => Dialect::Simd,
            Some("csv") if name.contains("/pws/") => Dialect::PwsCsv,
            _ => continue,
        };
        let text = std::fs::read_to_string(path).expect("readable");
        let got = guess(&text);
        if got.as_ref().map(|g| g.dialect) != Some(want) {
            wrong.push(format!("{name}: {got:?}"));
        }
        assert_eq!(
            from_file_name(&name).map(|g| g.dialect),
            Some(want),
            "{name}"
        );
        checked += 1;
    }
    assert!(
        checked >= 290,
        "only {checked} corpus files found under {}",
        root.display()
    );
    assert!(
        wrong.is_empty(),
        "{} of {checked} misread:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
