//! Source locations.

/// A location in the pasted text: 1-based line and column (counted in characters, as an
/// editor shows them) and a length in characters. Every IR item derived from text has one,
/// which is how diagnostics of any later analysis reach the right place in the editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub line: u32,
    pub column: u32,
    pub len: u32,
}

impl Span {
    pub fn new(line: u32, column: u32, len: u32) -> Self {
        Span { line, column, len }
    }

    /// The span of `byte_start..byte_end` within `line_text`, which is line `line` of the source.
    /// Byte offsets are clamped to char boundaries so hostile UTF-8 never panics.
    pub fn in_line(line: u32, line_text: &str, byte_start: usize, byte_end: usize) -> Self {
        let start = floor_char_boundary(line_text, byte_start);
        let end = floor_char_boundary(line_text, byte_end.max(start));
        let column = line_text[..start].chars().count() as u32 + 1;
        let len = line_text[start..end].chars().count() as u32;
        Span { line, column, len }
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_not_bytes() {
        let line = "é  MOV R1";
        let byte = line.find("MOV").unwrap_or(0);
        let span = Span::in_line(3, line, byte, byte + 3);
        assert_eq!(span, Span::new(3, 4, 3));
    }

    #[test]
    fn offsets_inside_a_character_are_clamped() {
        let span = Span::in_line(1, "éa", 1, 3);
        assert_eq!(span.column, 1);
    }
}
