//! Every SASS listing of the shared corpus parses without error, and the parser finds exactly
//! as many instructions as there are address comments (`/*0a48*/`), counted independently.

use isa::{blocks, sass, Limits};
use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
        .join("sass")
}

/// Counts `/*hhhh*/` comments (hex digits only, no `0x`): one per instruction in every
/// listing format we read. Written without the parser's code on purpose.
fn count_address_comments(text: &str) -> usize {
    let mut n = 0;
    for line in text.lines() {
        let mut rest = line;
        while let Some(p) = rest.find("/*") {
            let after = &rest[p + 2..];
            let Some(q) = after.find("*/") else { break };
            let inner = &after[..q];
            if !inner.is_empty() && inner.bytes().all(|b| b.is_ascii_hexdigit()) {
                n += 1;
                break;
            }
            rest = &after[q + 2..];
        }
    }
    n
}

fn corpus_files() -> Vec<PathBuf> {
    let dir = corpus_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus missing at {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("sass" | "cuasm")
            )
        })
        .collect();
    files.sort();
    assert!(
        files.len() >= 19,
        "expected the 19 SASS corpus files, found {}",
        files.len()
    );
    files
}

#[test]
fn every_corpus_listing_parses_with_the_right_instruction_count() {
    for path in corpus_files() {
        let text = std::fs::read_to_string(&path).expect("readable corpus file");
        let out = sass::parse(&text, None, &Limits::default());
        let errors: Vec<_> = out.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        let kernel = out.kernel.expect("a kernel");
        // Each corpus file holds one function; count over the whole file.
        assert_eq!(out.functions.len(), 1, "{}", path.display());
        assert_eq!(
            kernel.instructions.len(),
            count_address_comments(&text),
            "{}",
            path.display()
        );
    }
}

#[test]
fn every_corpus_listing_has_a_block_graph_with_the_entry_reachable() {
    for path in corpus_files() {
        let text = std::fs::read_to_string(&path).expect("readable corpus file");
        let kernel = sass::parse(&text, None, &Limits::default())
            .kernel
            .expect("a kernel");
        let g = blocks::build(&kernel, &Limits::default());
        assert!(g.blocks[0].reachable, "{}", path.display());
        // Blocks partition the instructions.
        let total: usize = g.blocks.iter().map(|b| b.len()).sum();
        assert_eq!(total, kernel.instructions.len(), "{}", path.display());
        let errors: Vec<_> = g.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
    }
}
