//! What the parsers' robustness tests share (`parser_robustness.rs`, `ptx_corpus.rs`, each
//! including this file by path): the check that every diagnostic lies inside the text, and
//! listings shuffled and mutated from seed lines.

#![allow(dead_code)]

use isa::Diagnostic;

/// Every diagnostic names a line of `text` (1 to its line count) and a column from 1.
pub fn assert_inside(diagnostics: &[Diagnostic], text: &str) {
    let lines = text.lines().count().max(1) as u32;
    for d in diagnostics {
        assert!(
            d.line >= 1 && d.line <= lines,
            "{d:?} outside {lines} lines"
        );
        assert!(d.column >= 1, "{d:?}");
    }
}

/// A listing of the seed lines `picks` chooses, each `(index, at, insert)`: line `index`
/// with `insert` put in at byte `at` (or at its end; moved back to a character boundary).
pub fn mutated(lines: &[&str], picks: &[(usize, usize, String)]) -> String {
    let text: Vec<String> = picks
        .iter()
        .map(|(i, at, insert)| {
            let line = lines[*i];
            let mut cut = (*at).min(line.len());
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            format!("{}{}{}", &line[..cut], insert, &line[cut..])
        })
        .collect();
    text.join("\n")
}

/// `text` with the bytes from `a` to `a + len` deleted (both ends cut to the text and moved
/// back to a character boundary).
pub fn with_hole(text: &str, a: usize, len: usize) -> String {
    let mut a = a.min(text.len());
    while !text.is_char_boundary(a) {
        a -= 1;
    }
    let mut b = (a + len).min(text.len());
    while !text.is_char_boundary(b) {
        b -= 1;
    }
    format!("{}{}", &text[..a], &text[b..])
}
