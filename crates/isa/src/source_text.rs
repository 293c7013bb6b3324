//! Turning the bytes of a file into the text every parser reads.
//!
//! Listings are ASCII in practice, but files arrive with stray bytes: a Latin-1 `©` in a
//! comment, a truncated download, a UTF-16 export. Refusing the whole file for one byte helps
//! nobody, so the bytes are decoded lossily (each invalid sequence becomes U+FFFD) and the
//! first bad byte gets a located error: the user sees where the file is broken, and every
//! line that is fine is still parsed and analysed. The error keeps the exit status at 1,
//! because a replaced byte inside an instruction could change its meaning.

use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// Decodes `bytes` as UTF-8, replacing invalid sequences by U+FFFD. Returns the text and,
/// when something was replaced, one error at the first invalid byte (1-based line, and the
/// column in characters, as an editor counts them) saying how many sequences were replaced.
pub fn decode(bytes: &[u8]) -> (String, Option<Diagnostic>) {
    let first_bad = match std::str::from_utf8(bytes) {
        Ok(s) => return (s.to_string(), None),
        Err(e) => e.valid_up_to(),
    };
    let text = String::from_utf8_lossy(bytes).into_owned();
    // One U+FFFD per maximal invalid sequence, as `from_utf8_lossy` replaces them.
    let replaced = bytes
        .utf8_chunks()
        .filter(|c| !c.invalid().is_empty())
        .count();
    // Everything before the first bad byte is valid UTF-8.
    let before = std::str::from_utf8(&bytes[..first_bad]).unwrap_or_default();
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |p| p + 1);
    let column = before[line_start..].chars().count() + 1;
    let bad = bytes[first_bad];
    let message = format!(
        "byte 0x{bad:02X} is not valid UTF-8: the file is not plain text in UTF-8 (Latin-1 or \
         UTF-16 export?); {replaced} invalid sequence{} replaced by U+FFFD and the rest parsed",
        if replaced == 1 { " was" } else { "s were" }
    );
    let span = Span::new(
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(column).unwrap_or(u32::MAX),
        1,
    );
    (text, Some(Diagnostic::error(span, message)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_text_passes_unchanged() {
        let (text, d) = decode("MOV R1, R2 ;\né\n".as_bytes());
        assert_eq!(text, "MOV R1, R2 ;\né\n");
        assert_eq!(d, None);
    }

    #[test]
    fn first_bad_byte_is_located_in_characters() {
        // Line 2: "é" (two bytes, one character), then the Latin-1 byte 0xA9.
        let mut bytes = b"EXIT ;\n".to_vec();
        bytes.extend_from_slice("é".as_bytes());
        bytes.push(0xA9);
        bytes.extend_from_slice(b" x\n\xFF\n");
        let (text, d) = decode(&bytes);
        let d = d.expect("a diagnostic");
        assert_eq!((d.line, d.column, d.len), (2, 2, 1));
        assert!(d.is_error());
        assert!(d.message.contains("0xA9"), "{}", d.message);
        assert!(d.message.contains("2 invalid sequences"), "{}", d.message);
        assert_eq!(text, "EXIT ;\né\u{FFFD} x\n\u{FFFD}\n");
    }

    #[test]
    fn a_bad_first_byte_is_line_one_column_one() {
        let (_, d) = decode(&[0xFE, b'a']);
        let d = d.expect("a diagnostic");
        assert_eq!((d.line, d.column), (1, 1));
        assert!(
            d.message.contains("1 invalid sequence was"),
            "{}",
            d.message
        );
    }
}
