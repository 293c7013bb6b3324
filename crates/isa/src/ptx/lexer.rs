//! PTX tokens with their places in the text.
//!
//! PTX is free-form: statements end at `;`, except the debug directives `.loc`, `.file` and
//! `.section`-like lines, which end at the end of their line. The lexer therefore keeps the
//! line of every token so the parser can stop such directives at a line break.

use crate::span::Span;

/// What a token is. Words are maximal runs of identifier characters and dots, so
/// `ld.global.f32`, `%tid.x`, `$L__BB0_2`, `0f3F800000` and `1.5` are one word each.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TokenKind {
    Word(String),
    /// A quoted string (only used by `.file` and `.pragma`).
    Str(String),
    /// One punctuation character: `, ; : [ ] { } ( ) < > + - ! @ | =` and anything else
    /// that is not part of a word.
    Punct(char),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

impl Token {
    pub fn is_punct(&self, c: char) -> bool {
        self.kind == TokenKind::Punct(c)
    }

    pub fn word(&self) -> Option<&str> {
        match &self.kind {
            TokenKind::Word(w) => Some(w),
            _ => None,
        }
    }
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '%' | '.')
}

/// A lexical error: an unterminated block comment or string.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LexError {
    pub span: Span,
    pub message: String,
}

/// Splits `text` into tokens. Comments (`//` to end of line, `/* ... */`) are dropped.
/// Never panics; column numbers count characters.
pub(crate) fn tokenize(text: &str) -> (Vec<Token>, Vec<LexError>) {
    let mut tokens = Vec::new();
    let mut errors = Vec::new();
    let mut in_block_comment: Option<Span> = None;
    for (idx, line) in text.lines().enumerate() {
        let line_no = u32::try_from(idx + 1).unwrap_or(u32::MAX);
        let chars: Vec<(usize, char)> = line.char_indices().collect();
        let mut i = 0usize;
        let col = |k: usize| u32::try_from(k + 1).unwrap_or(u32::MAX);
        while i < chars.len() {
            let c = chars[i].1;
            if in_block_comment.is_some() {
                if c == '*' && chars.get(i + 1).map(|x| x.1) == Some('/') {
                    in_block_comment = None;
                    i += 2;
                } else {
                    i += 1;
                }
                continue;
            }
            if c.is_whitespace() {
                i += 1;
                continue;
            }
            if c == '/' {
                match chars.get(i + 1).map(|x| x.1) {
                    Some('/') => break,
                    Some('*') => {
                        in_block_comment = Some(Span::new(line_no, col(i), 2));
                        i += 2;
                        continue;
                    }
                    _ => {}
                }
            }
            if c == '"' {
                let start = i;
                i += 1;
                let mut s = String::new();
                let mut closed = false;
                while i < chars.len() {
                    let d = chars[i].1;
                    if d == '\\' {
                        if let Some(&(_, e)) = chars.get(i + 1) {
                            s.push(e);
                        }
                        i += 2;
                        continue;
                    }
                    if d == '"' {
                        closed = true;
                        i += 1;
                        break;
                    }
                    s.push(d);
                    i += 1;
                }
                let span = Span::new(line_no, col(start), len_u32(i - start));
                if !closed {
                    errors.push(LexError {
                        span,
                        message: "unterminated string".to_string(),
                    });
                }
                tokens.push(Token {
                    kind: TokenKind::Str(s),
                    span,
                });
                continue;
            }
            if is_word_char(c) {
                let start = i;
                loop {
                    while i < chars.len() && is_word_char(chars[i].1) {
                        i += 1;
                    }
                    // `L2::cache_hint`, `shared::cta`, `mbarrier::complete_tx::bytes`: a `::`
                    // between word characters is part of a modifier (PTX ISA 8.x).
                    let joins = chars.get(i).map(|x| x.1) == Some(':')
                        && chars.get(i + 1).map(|x| x.1) == Some(':')
                        && chars.get(i + 2).is_some_and(|x| is_word_char(x.1));
                    if !joins {
                        break;
                    }
                    i += 2;
                }
                // Decimal exponent: `1.5e-3` is one number.
                let mut word: String = chars[start..i].iter().map(|x| x.1).collect();
                if looks_like_decimal_mantissa(&word)
                    && matches!(chars.get(i).map(|x| x.1), Some('+') | Some('-'))
                    && chars.get(i + 1).is_some_and(|x| x.1.is_ascii_digit())
                {
                    word.push(chars[i].1);
                    i += 1;
                    while i < chars.len() && chars[i].1.is_ascii_digit() {
                        word.push(chars[i].1);
                        i += 1;
                    }
                }
                tokens.push(Token {
                    kind: TokenKind::Word(word),
                    span: Span::new(line_no, col(start), len_u32(i - start)),
                });
                continue;
            }
            tokens.push(Token {
                kind: TokenKind::Punct(c),
                span: Span::new(line_no, col(i), 1),
            });
            i += 1;
        }
    }
    if let Some(span) = in_block_comment {
        errors.push(LexError {
            span,
            message: "unterminated /* comment".to_string(),
        });
    }
    (tokens, errors)
}

fn len_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// `12e`, `1.5e`, `1.5E`: a decimal number whose exponent sign follows.
fn looks_like_decimal_mantissa(w: &str) -> bool {
    let Some(body) = w.strip_suffix(['e', 'E']) else {
        return false;
    };
    !body.is_empty()
        && body.chars().next().is_some_and(|c| c.is_ascii_digit())
        && body.chars().all(|c| c.is_ascii_digit() || c == '.')
        && !body.starts_with("0x")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        tokenize(text)
            .0
            .into_iter()
            .map(|t| match t.kind {
                TokenKind::Word(w) => w,
                TokenKind::Str(s) => format!("\"{s}\""),
                TokenKind::Punct(c) => c.to_string(),
            })
            .collect()
    }

    #[test]
    fn instruction_with_address_and_guard() {
        assert_eq!(
            words("@!%p1 ld.global.f32 %f1, [%rd8+4]; // c"),
            vec![
                "@",
                "!",
                "%p1",
                "ld.global.f32",
                "%f1",
                ",",
                "[",
                "%rd8",
                "+",
                "4",
                "]",
                ";"
            ]
        );
    }

    #[test]
    fn comments_and_exponents() {
        assert_eq!(words("/* a\n b */ x 1.5e-3 y"), vec!["x", "1.5e-3", "y"]);
        let (t, e) = tokenize("a /* never closed");
        assert_eq!(t.len(), 1);
        assert_eq!(e.len(), 1);
    }

    #[test]
    fn double_colons_join_modifiers() {
        assert_eq!(
            words("ld.global.L1::evict_last.v4.f32 x; L: a :: b"),
            vec![
                "ld.global.L1::evict_last.v4.f32",
                "x",
                ";",
                "L",
                ":",
                "a",
                ":",
                ":",
                "b"
            ]
        );
    }

    #[test]
    fn spans_are_one_based_characters() {
        let (t, _) = tokenize("\n  mov.u32 %r1, %tid.x;");
        assert_eq!(t[0].span, Span::new(2, 3, 7));
        assert_eq!(t[3].span, Span::new(2, 16, 6));
    }
}
