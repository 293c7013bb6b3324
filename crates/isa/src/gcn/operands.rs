//! Operand and modifier syntax of LLVM's AMDGPU assembly: register ranges, literals,
//! `s_waitcnt` counters, source modifiers and trailing `name:value` modifiers.

use crate::diagnostic::Diagnostic;
use crate::number::parse_int;
use crate::span::Span;

use super::program::{GcnModifier, GcnOperand, GcnOperandKind};
use super::strictness::SPECIAL_REGISTERS;

/// Flags that may trail the operand list without a value.
const FLAG_MODIFIERS: &[&str] = &[
    "glc",
    "slc",
    "dlc",
    "nv",
    "tfe",
    "lds",
    "offen",
    "idxen",
    "addr64",
    "clamp",
    "gds",
    "da",
    "r128",
    "a16",
    "lwe",
    "unorm",
    "d16",
    "mul",
    "div",
    "sext",
    "done",
    "compr",
    "vm",
    "high",
    "row_mirror",
    "row_half_mirror",
    "bound_ctrl",
    "wave_shl",
    "wave_rol",
    "wave_shr",
    "wave_ror",
    "row_bcast",
];

/// One comma-separated piece of the operand text: where it starts (byte offset in the
/// line) and its text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Piece<'a> {
    pub start: usize,
    pub text: &'a str,
}

/// Splits `text` (starting at byte `base` of the line) at commas outside brackets and
/// parentheses. Empty pieces are kept so the caller can report them.
pub(crate) fn split_top_level(text: &str, base: usize) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut depth: i32 = 0;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth <= 0 => {
                out.push(piece(text, base, start, i));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(piece(text, base, start, text.len()));
    out
}

fn piece(text: &str, base: usize, start: usize, end: usize) -> Piece<'_> {
    let raw = &text[start..end];
    let lead = raw.len() - raw.trim_start().len();
    Piece {
        start: base + start + lead,
        text: raw.trim(),
    }
}

/// Splits a piece at whitespace outside brackets: the first word is the operand, the rest
/// are trailing modifiers (`v7 offset:4`, `v[2:3] glc`).
pub(crate) fn split_words(p: Piece<'_>) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut depth: i32 = 0;
    let mut start: Option<usize> = None;
    for (i, c) in p.text.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ => {}
        }
        if c.is_whitespace() && depth <= 0 {
            if let Some(s) = start.take() {
                out.push(Piece {
                    start: p.start + s,
                    text: &p.text[s..i],
                });
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push(Piece {
            start: p.start + s,
            text: &p.text[s..],
        });
    }
    out
}

/// Is this word a trailing modifier rather than an operand?
pub(crate) fn is_modifier(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    if FLAG_MODIFIERS.contains(&lower.as_str()) {
        return true;
    }
    match lower.split_once(':') {
        // `name:value` where the name is a plain identifier; register ranges such as
        // `s[0:1]` have a bracket before the colon and are operands.
        Some((name, _)) => {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        }
        None => false,
    }
}

pub(crate) fn parse_modifier(p: Piece<'_>, line_no: u32, line: &str) -> GcnModifier {
    let span = Span::in_line(line_no, line, p.start, p.start + p.text.len());
    match p.text.split_once(':') {
        Some((n, v)) => GcnModifier {
            name: n.to_ascii_lowercase(),
            value: Some(v.to_string()),
            span,
        },
        None => GcnModifier {
            name: p.text.to_ascii_lowercase(),
            value: None,
            span,
        },
    }
}

/// Parses one operand word. Unknown syntax becomes [`GcnOperandKind::Expr`]; only
/// malformed register syntax (`v[3:1]`, `s[x]`) is an error.
pub(crate) fn parse_operand(
    p: Piece<'_>,
    line_no: u32,
    line: &str,
    label_operand: bool,
) -> Result<GcnOperand, Diagnostic> {
    let span = Span::in_line(line_no, line, p.start, p.start + p.text.len());
    let mut body = p.text;
    let mut negated = false;
    let mut absolute = false;
    if let Some(rest) = body.strip_prefix('-') {
        if !rest.is_empty() && !rest.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
            negated = true;
            body = rest;
        }
    }
    if body.len() >= 2 && body.starts_with('|') && body.ends_with('|') {
        absolute = true;
        body = &body[1..body.len() - 1];
    } else if let Some(inner) = body.strip_prefix("abs(").and_then(|r| r.strip_suffix(')')) {
        absolute = true;
        body = inner;
    } else if let Some(inner) = body.strip_prefix("neg(").and_then(|r| r.strip_suffix(')')) {
        negated = true;
        body = inner;
    }
    let mut sext = false;
    if let Some(inner) = body.strip_prefix("sext(").and_then(|r| r.strip_suffix(')')) {
        sext = true;
        body = inner.trim();
    }
    let kind = if label_operand {
        GcnOperandKind::Label {
            name: body.to_string(),
        }
    } else {
        classify(body).map_err(|m| Diagnostic::error(span, m))?
    };
    Ok(GcnOperand {
        kind,
        negated,
        absolute,
        sext,
        text: p.text.to_string(),
        span,
    })
}

fn classify(body: &str) -> Result<GcnOperandKind, String> {
    let lower = body.to_ascii_lowercase();
    for (prefix, make) in [
        ("ttmp", RegFile::Ttmp),
        ("s", RegFile::Sgpr),
        ("v", RegFile::Vgpr),
    ] {
        if let Some(rest) = lower.strip_prefix(prefix) {
            if let Some(kind) = register_range(rest, make)? {
                return Ok(kind);
            }
        }
    }
    if SPECIAL_REGISTERS.contains(&lower.as_str()) {
        return Ok(GcnOperandKind::Special { name: lower });
    }
    if let Some(v) = parse_int(&lower) {
        return Ok(GcnOperandKind::Int { value: v });
    }
    if lower.contains('.')
        && lower
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e'))
    {
        if let Ok(f) = lower.parse::<f64>() {
            if f.is_finite() {
                return Ok(GcnOperandKind::Float { value: f });
            }
        }
    }
    Ok(GcnOperandKind::Expr {
        text: body.to_string(),
    })
}

#[derive(Clone, Copy)]
enum RegFile {
    Sgpr,
    Vgpr,
    Ttmp,
}

/// `5` → one register; `[2:3]` → a range. `None` when the text is not register syntax at
/// all (e.g. `scc`, `sym`), an error when it is register syntax but malformed.
fn register_range(rest: &str, file: RegFile) -> Result<Option<GcnOperandKind>, String> {
    let (first, count) = if let Some(inner) = rest.strip_prefix('[') {
        let Some(inner) = inner.strip_suffix(']') else {
            return Err(format!("unclosed register range `[{inner}`"));
        };
        let Some((a, b)) = inner.split_once(':') else {
            return match inner.trim().parse::<u32>() {
                Ok(a) => {
                    check_register(file, a, 1)?;
                    Ok(Some(make(file, a, 1)))
                }
                Err(_) => Err(format!("malformed register range `[{inner}]`")),
            };
        };
        let (Ok(a), Ok(b)) = (a.trim().parse::<u32>(), b.trim().parse::<u32>()) else {
            return Err(format!("malformed register range `[{inner}]`"));
        };
        if b < a || b - a >= 64 {
            return Err(format!("register range `[{inner}]` is empty or too wide"));
        }
        (a, b - a + 1)
    } else if !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()) {
        match rest.parse::<u32>() {
            Ok(a) => (a, 1),
            Err(_) => return Err(format!("register number `{rest}` is too large")),
        }
    } else {
        return Ok(None);
    };
    check_register(file, first, count)?;
    Ok(Some(make(file, first, count)))
}

/// Registers that exist, tuples aligned as LLVM's assembler requires (AMDGPU operand
/// syntax: "SGPR and TTMP tuples of 64 bits start at an even register, wider ones at a
/// multiple of 4"): `v0`–`v255`, `s0`–`s105`, `ttmp0`–`ttmp15`.
fn check_register(file: RegFile, first: u32, count: u32) -> Result<(), String> {
    let (prefix, limit) = match file {
        RegFile::Sgpr => ("s", 106),
        RegFile::Vgpr => ("v", 256),
        RegFile::Ttmp => ("ttmp", 16),
    };
    let last = first.saturating_add(count - 1);
    if last >= limit {
        return Err(format!(
            "register {prefix}{last} does not exist (GFX8/GFX9 have {prefix}0–{prefix}{})",
            limit - 1
        ));
    }
    if matches!(file, RegFile::Sgpr | RegFile::Ttmp) && count > 1 {
        let align = if count == 2 { 2 } else { 4 };
        if !first.is_multiple_of(align) {
            return Err(format!(
                "misaligned register tuple {prefix}[{first}:{last}]: a {}-bit tuple of {} must start at a multiple of {align}",
                32 * count,
                if prefix == "s" { "SGPRs" } else { "TTMPs" }
            ));
        }
    }
    Ok(())
}

fn make(file: RegFile, first: u32, count: u32) -> GcnOperandKind {
    match file {
        RegFile::Sgpr => GcnOperandKind::Sgpr { first, count },
        RegFile::Vgpr => GcnOperandKind::Vgpr { first, count },
        RegFile::Ttmp => GcnOperandKind::Ttmp { first, count },
    }
}

/// Parses the operand text of `s_waitcnt`: `vmcnt(0) lgkmcnt(0)` (optionally joined by
/// `&`), or a raw integer.
pub(crate) fn parse_waitcnt(
    text: &str,
    start: usize,
    line_no: u32,
    line: &str,
) -> Result<GcnOperand, Diagnostic> {
    let span = Span::in_line(line_no, line, start, start + text.len());
    let trimmed = text.trim();
    if let Some(v) = parse_int(trimmed) {
        if !(0..=0xffff).contains(&v) {
            return Err(Diagnostic::error(
                span,
                format!("s_waitcnt immediate {v} does not fit in 16 bits"),
            ));
        }
        return Ok(GcnOperand {
            kind: GcnOperandKind::Int { value: v },
            negated: false,
            absolute: false,
            sext: false,
            text: trimmed.to_string(),
            span,
        });
    }
    let (mut vm, mut exp, mut lgkm) = (None, None, None);
    for word in trimmed
        .split(|c: char| c.is_whitespace() || c == '&' || c == ',')
        .filter(|w| !w.is_empty())
    {
        let Some((name, rest)) = word.split_once('(') else {
            return Err(Diagnostic::error(
                span,
                format!("expected a counter such as `vmcnt(0)`, found `{word}`"),
            ));
        };
        let Some(n) = rest
            .strip_suffix(')')
            .and_then(|n| n.trim().parse::<u32>().ok())
        else {
            return Err(Diagnostic::error(
                span,
                format!("malformed counter value in `{word}`"),
            ));
        };
        // Counter widths: GCN3 ISA §4.4 / Vega ISA §4.4 (`S_WAITCNT`): vmcnt 4 bits on
        // GFX8 and 6 on GFX9, expcnt 3 bits, lgkmcnt 4 bits.
        let (slot, max) = match name.trim_end_matches("_sat") {
            "vmcnt" => (&mut vm, 63),
            "expcnt" => (&mut exp, 7),
            "lgkmcnt" => (&mut lgkm, 15),
            other => {
                let (_, hits) = super::spelling::nearest(
                    &other.to_ascii_lowercase(),
                    ["vmcnt", "expcnt", "lgkmcnt"].into_iter(),
                );
                let hint = if hits.is_empty() {
                    " (expected vmcnt, expcnt or lgkmcnt)".to_string()
                } else {
                    format!("; did you mean {}?", super::spelling::or_list(&hits))
                };
                return Err(Diagnostic::error(
                    span,
                    format!("unknown s_waitcnt counter `{other}`{hint}"),
                ));
            }
        };
        if slot.is_some() {
            return Err(Diagnostic::error(
                span,
                format!("s_waitcnt counter `{name}` given twice"),
            ));
        }
        if n > max {
            return Err(Diagnostic::error(
                span,
                format!("s_waitcnt counter `{name}({n})` is out of range (at most {max})"),
            ));
        }
        *slot = Some(n);
    }
    Ok(GcnOperand {
        kind: GcnOperandKind::Waitcnt {
            vmcnt: vm,
            expcnt: exp,
            lgkmcnt: lgkm,
        },
        negated: false,
        absolute: false,
        sext: false,
        text: trimmed.to_string(),
        span,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(text: &str) -> GcnOperandKind {
        let p = Piece { start: 0, text };
        match parse_operand(p, 1, text, false) {
            Ok(o) => o.kind,
            Err(d) => panic!("{d}"),
        }
    }

    #[test]
    fn register_ranges_and_specials() {
        assert_eq!(op("s[0:1]"), GcnOperandKind::Sgpr { first: 0, count: 2 });
        assert_eq!(op("v7"), GcnOperandKind::Vgpr { first: 7, count: 1 });
        assert_eq!(op("v[2:3]"), GcnOperandKind::Vgpr { first: 2, count: 2 });
        assert_eq!(
            op("exec"),
            GcnOperandKind::Special {
                name: "exec".into()
            }
        );
        assert_eq!(op("0xffff"), GcnOperandKind::Int { value: 0xffff });
        assert_eq!(op("-16"), GcnOperandKind::Int { value: -16 });
        assert_eq!(op("0.5"), GcnOperandKind::Float { value: 0.5 });
    }

    #[test]
    fn malformed_range_is_an_error() {
        let p = Piece {
            start: 0,
            text: "v[3:1]",
        };
        assert!(parse_operand(p, 1, "v[3:1]", false).is_err());
    }

    #[test]
    fn modifiers_are_recognised() {
        assert!(is_modifier("offset:4"));
        assert!(is_modifier("glc"));
        assert!(!is_modifier("v7"));
        assert!(!is_modifier("s[0:1]"));
    }
}
