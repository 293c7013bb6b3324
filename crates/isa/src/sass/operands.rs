//! Operand syntax of SASS listings.
//!
//! Accepted forms (Fermi to Pascal, cuobjdump / nvdisasm / CuAssembler spellings):
//! registers `R12`, `RZ`, `UR4`, predicates `P0`, `!P1`, `PT`/`pt`, special registers
//! `SR_TID.X`/`SR_Tid_X`, constant-bank references `c[0x0][0x140]` and `c [0x1] [0x100]`
//! (possibly indexed by a register, `c[0x3][R8]`), memory references `[R2+0x4]`, immediates
//! (hex, decimal, floating point, `+INF`, relocations `32@lo(sym)`), labels `` `(.L_x_3) ``,
//! prefixes `-`, `~`, `!`, `|x|` and dot-suffixes `.reuse`, `.H1`, `.CC`.
//! Anything else becomes [`OperandKind::Other`] so unknown syntax never blocks analysis.

use crate::operand::{Address, Immediate, Operand, OperandKind, Register};
use crate::span::Span;

/// Splits an operand list at top-level commas, returning byte ranges relative to `text`.
pub(crate) fn split_operands(text: &str) -> Vec<(usize, usize)> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, ch) in text.char_indices() {
        match ch {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            ',' if depth <= 0 => {
                parts.push((start, i));
                start = i + 1;
            }
            _ => {}
        }
    }
    if !text[start..].trim().is_empty() || !parts.is_empty() {
        parts.push((start, text.len()));
    }
    parts
        .into_iter()
        .map(|(s, e)| trim_range(text, s, e))
        .collect()
}

pub(crate) fn trim_range(text: &str, mut s: usize, mut e: usize) -> (usize, usize) {
    let bytes = text.as_bytes();
    while s < e && bytes[s].is_ascii_whitespace() {
        s += 1;
    }
    while e > s && bytes[e - 1].is_ascii_whitespace() {
        e -= 1;
    }
    (s, e)
}

/// Parses one operand; `span` locates `text` in the source.
pub(crate) fn parse_operand(text: &str, span: Span) -> Operand {
    let mut op = Operand {
        kind: OperandKind::Other {
            text: text.to_string(),
        },
        negated: false,
        inverted: false,
        absolute: false,
        suffixes: Vec::new(),
        text: text.to_string(),
        span,
    };
    let mut rest = text.trim();
    // Suffixes after an absolute value, `|R10|.reuse`: the register is still read.
    let mut outer_suffixes = "";
    loop {
        if let Some(r) = rest.strip_prefix('-') {
            if looks_numeric(r) {
                break;
            }
            op.negated = true;
            rest = r.trim_start();
        } else if let Some(r) = rest.strip_prefix('!') {
            op.negated = true;
            rest = r.trim_start();
        } else if let Some(r) = rest.strip_prefix('~') {
            op.inverted = true;
            rest = r.trim_start();
        } else if let Some((inner, tail)) = absolute_value(rest) {
            op.absolute = true;
            rest = inner.trim();
            outer_suffixes = tail;
        } else if let Some(r) = rest.strip_prefix('+') {
            if looks_numeric(r) || r.starts_with("INF") || r.starts_with("QNAN") {
                break;
            }
            rest = r.trim_start();
        } else {
            break;
        }
    }
    if let Some(kind) = parse_core(rest, &mut op.suffixes) {
        if push_suffixes(outer_suffixes, &mut op.suffixes).is_some() {
            op.kind = kind;
        }
    }
    op
}

/// `|x|` or `|x|.suffix…` → `x` and the suffix text after the closing bar.
fn absolute_value(s: &str) -> Option<(&str, &str)> {
    let inner = s.strip_prefix('|')?;
    let close = inner.rfind('|')?;
    let tail = &inner[close + 1..];
    (tail.is_empty() || tail.starts_with('.')).then_some((&inner[..close], tail))
}

fn looks_numeric(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_digit())
        || s.starts_with("INF")
        || s.starts_with("QNAN")
        || s.starts_with("NAN")
}

fn parse_core(s: &str, suffixes: &mut Vec<String>) -> Option<OperandKind> {
    if s.is_empty() {
        return None;
    }
    // Labels: `(.L_x_3) with a leading backtick, or a bare parenthesised name (JCAL `(vprintf)).
    if let Some(inner) = s.strip_prefix("`(").and_then(|r| r.strip_suffix(')')) {
        return Some(OperandKind::Label {
            name: inner.trim().to_string(),
        });
    }
    if let Some(rest) = strip_const_prefix(s) {
        return parse_constant(rest, suffixes);
    }
    if s.starts_with('[') {
        let close = s.find(']')?;
        let address = parse_address(&s[1..close])?;
        push_suffixes(&s[close + 1..], suffixes)?;
        return Some(OperandKind::Memory { address });
    }
    if let Some(value) = parse_immediate(s) {
        return Some(OperandKind::Immediate { value });
    }
    let (head, tail) = split_suffixes(s);
    let reg = parse_register(head)?;
    push_suffixes(tail, suffixes)?;
    Some(OperandKind::Register { reg })
}

/// `c[` or `c [` → the text after `c`.
fn strip_const_prefix(s: &str) -> Option<&str> {
    let r = s.strip_prefix('c')?;
    let trimmed = r.trim_start();
    trimmed.starts_with('[').then_some(trimmed)
}

fn parse_constant(s: &str, suffixes: &mut Vec<String>) -> Option<OperandKind> {
    let close1 = s.find(']')?;
    let bank = parse_int(s[1..close1].trim())?;
    let rest = s[close1 + 1..].trim_start();
    if !rest.starts_with('[') {
        return None;
    }
    let close2 = rest.find(']')?;
    let address = parse_address(&rest[1..close2])?;
    push_suffixes(&rest[close2 + 1..], suffixes)?;
    Some(OperandKind::Constant {
        bank: u32::try_from(bank).ok()?,
        address,
    })
}

/// `R2`, `R2+0x4`, `R7+-0x4`, `0x10`, `R2.64+0x8`, `R1+R2` is not valid SASS → None.
fn parse_address(s: &str) -> Option<Address> {
    let s = s.trim();
    let mut base = None;
    let mut offset: i64 = 0;
    if s.is_empty() {
        return Some(Address { base, offset });
    }
    let mut terms = Vec::new();
    let mut start = 0;
    for (i, ch) in s.char_indices() {
        if ch == '+' && i > start {
            terms.push(&s[start..i]);
            start = i + 1;
        }
    }
    terms.push(&s[start..]);
    for term in terms {
        let term = term.trim();
        if let Some(v) = parse_int(term) {
            offset = offset.checked_add(v)?;
        } else {
            let (head, _tail) = split_suffixes(term);
            let reg = parse_register(head)?;
            if base.is_some() {
                return None;
            }
            base = Some(reg);
        }
    }
    Some(Address { base, offset })
}

/// Splits `R2.H1.reuse` into `R2` and `.H1.reuse`. Special registers keep their dotted axis
/// (`SR_TID.X`) because the axis is part of the name.
fn split_suffixes(s: &str) -> (&str, &str) {
    if s.len() > 3 && s.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("SR_")) {
        return (s, "");
    }
    match s.find('.') {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    }
}

fn push_suffixes(tail: &str, suffixes: &mut Vec<String>) -> Option<()> {
    let tail = tail.trim();
    if tail.is_empty() {
        return Some(());
    }
    let tail = tail.strip_prefix('.')?;
    for part in tail.split('.') {
        if part.is_empty() || !part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return None;
        }
        suffixes.push(part.to_string());
    }
    Some(())
}

pub(crate) fn parse_register(s: &str) -> Option<Register> {
    let upper = s.to_ascii_uppercase();
    match upper.as_str() {
        "RZ" => return Some(Register::Zero),
        "PT" => return Some(Register::True),
        "URZ" => return Some(Register::Zero),
        "UPT" => return Some(Register::True),
        "CC" => return Some(Register::CarryFlag),
        _ => {}
    }
    if upper.starts_with("SR_") && upper.len() > 3 {
        if !upper
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        {
            return None;
        }
        return Some(Register::Special(upper));
    }
    let numbered = |prefix: &str| -> Option<u32> {
        let digits = upper.strip_prefix(prefix)?;
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) || digits.len() > 4 {
            return None;
        }
        digits.parse().ok()
    };
    // Case matters for R/P: lowercase `pt` is accepted above, but `r1` is not SASS.
    if s.starts_with('R') {
        return numbered("R").map(Register::Gpr);
    }
    if s.starts_with("UR") {
        return numbered("UR").map(Register::Uniform);
    }
    if s.starts_with("UP") {
        return numbered("UP").map(Register::UniformPred);
    }
    if s.starts_with('P') {
        return numbered("P").map(Register::Pred);
    }
    None
}

/// An integer of a SASS operand (`0x10`, `-0x4`, `12`), surrounding blanks ignored: the
/// forms of [`crate::number::parse_int`].
pub(crate) fn parse_int(s: &str) -> Option<i64> {
    crate::number::parse_int(s.trim())
}

fn parse_immediate(s: &str) -> Option<Immediate> {
    if let Some(v) = parse_int(s) {
        return Some(Immediate::Int(v));
    }
    // Relocations: `32@lo(GlobalC2)`, `32@hi(sym)`, `32@fn(sym)`.
    if let Some(at) = s.find('@') {
        if s[..at].chars().all(|c| c.is_ascii_digit()) && s.ends_with(')') && at > 0 {
            return Some(Immediate::Symbol(s.to_string()));
        }
    }
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    let neg = s.starts_with('-');
    let special = match body {
        "INF" => Some(f64::INFINITY),
        "QNAN" | "NAN" => Some(f64::NAN),
        _ => None,
    };
    if let Some(v) = special {
        return Some(Immediate::Float(if neg { -v } else { v }));
    }
    if body.starts_with(|c: char| c.is_ascii_digit())
        && body.contains(['.', 'e', 'E'])
        && body
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
    {
        let v: f64 = body.parse().ok()?;
        return Some(Immediate::Float(if neg { -v } else { v }));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(s: &str) -> Operand {
        parse_operand(s, Span::default())
    }

    #[test]
    fn registers_with_suffixes_and_prefixes() {
        let o = op("-|R5|");
        assert_eq!(o.register(), Some(&Register::Gpr(5)));
        assert!(o.negated && o.absolute);
        let o = op("R2.H1.reuse");
        assert_eq!(o.register(), Some(&Register::Gpr(2)));
        assert_eq!(o.suffixes, vec!["H1", "reuse"]);
        let o = op("~R5");
        assert!(o.inverted);
        // Corpus (sm_70+): `FMNMX R9, |R10|.reuse, R8, !PT`.
        let o = op("|R10|.reuse");
        assert_eq!(o.register(), Some(&Register::Gpr(10)));
        assert!(o.absolute);
        assert_eq!(o.suffixes, vec!["reuse"]);
        assert!(matches!(op("|R10|x").kind, OperandKind::Other { .. }));
        assert_eq!(op("pt").register(), Some(&Register::True));
        let o = op("!P1");
        assert_eq!(o.register(), Some(&Register::Pred(1)));
        assert!(o.negated);
    }

    #[test]
    fn special_registers_keep_their_axis() {
        assert_eq!(
            op("SR_TID.X").register(),
            Some(&Register::Special("SR_TID.X".into()))
        );
        assert_eq!(
            op("SR_CTAid_X").register(),
            Some(&Register::Special("SR_CTAID_X".into()))
        );
    }

    #[test]
    fn constant_banks_in_all_spellings() {
        for text in ["c[0x0][0x140]", "c [0x0] [0x140]"] {
            match op(text).kind {
                OperandKind::Constant { bank, address } => {
                    assert_eq!(bank, 0);
                    assert_eq!(address.offset, 0x140);
                    assert_eq!(address.base, None);
                }
                other => panic!("{text}: {other:?}"),
            }
        }
        let o = op("c[0x0] [0x14].H1");
        assert_eq!(o.suffixes, vec!["H1"]);
        match op("c[0x3][R8]").kind {
            OperandKind::Constant { bank: 3, address } => {
                assert_eq!(address.base, Some(Register::Gpr(8)))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn memory_references() {
        match op("[R7+0x660]").kind {
            OperandKind::Memory { address } => {
                assert_eq!(address.base, Some(Register::Gpr(7)));
                assert_eq!(address.offset, 0x660);
            }
            other => panic!("{other:?}"),
        }
        match op("[R2+-0x4]").kind {
            OperandKind::Memory { address } => assert_eq!(address.offset, -4),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn immediates() {
        assert_eq!(
            op("-0x30f423e").kind,
            OperandKind::Immediate {
                value: Immediate::Int(-0x30f423e)
            }
        );
        assert_eq!(
            op("-6.75539944105574400000e+15").kind,
            OperandKind::Immediate {
                value: Immediate::Float(-6.755399441055744e15)
            }
        );
        assert!(matches!(
            op("32@lo(GlobalC2)").kind,
            OperandKind::Immediate {
                value: Immediate::Symbol(_)
            }
        ));
        assert!(matches!(
            op("+INF").kind,
            OperandKind::Immediate {
                value: Immediate::Float(f) } if f.is_infinite()
        ));
    }

    #[test]
    fn labels_and_unknown_forms() {
        assert_eq!(
            op("`(.L_x_3)").kind,
            OperandKind::Label {
                name: ".L_x_3".into()
            }
        );
        // Fermi condition-code tests read the CC register.
        let cc = op("CC.NEU");
        assert_eq!(cc.register(), Some(&Register::CarryFlag));
        assert_eq!(cc.suffixes, vec!["NEU"]);
        assert!(matches!(op("2D").kind, OperandKind::Other { .. }));
    }

    #[test]
    fn non_ascii_text_never_splits_inside_a_character() {
        // Found by the robustness property test: a 4-byte character first.
        let o = op("𐊓$ஜM");
        assert!(matches!(o.kind, OperandKind::Other { .. }));
        let o = op("é.x");
        assert!(matches!(o.kind, OperandKind::Other { .. }));
    }

    #[test]
    fn top_level_commas_only() {
        let t = "R1, c [0x1] [0x100], [R2+0x4]";
        let parts: Vec<&str> = split_operands(t).iter().map(|&(s, e)| &t[s..e]).collect();
        assert_eq!(parts, vec!["R1", "c [0x1] [0x100]", "[R2+0x4]"]);
        assert!(split_operands("   ").is_empty());
    }
}
