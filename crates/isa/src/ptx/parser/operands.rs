//! Operands from their tokens: registers, numbers, addresses `[base+offset]`, vectors
//! `{a, b}`, lists `(a, b)` and negations, split one bracket level deep.

use super::{join, merge};
use crate::number::{parse_c_uint, parse_digits};
use crate::ptx::instruction::{AddressBase, Operand, OperandKind};
use crate::ptx::lexer::{Token, TokenKind};
use crate::ptx::special_registers;
use crate::span::Span;

/// A numeric literal: integer or float.
pub(super) fn parse_number(w: &str) -> Option<OperandKind> {
    if !w.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    if let Some(h) = w.strip_prefix("0f").or_else(|| w.strip_prefix("0F")) {
        if h.len() == 8 {
            let bits = u32::try_from(parse_digits(h, 16)?).ok()?;
            return Some(OperandKind::Float {
                value: f32::from_bits(bits) as f64,
            });
        }
    }
    if let Some(h) = w.strip_prefix("0d").or_else(|| w.strip_prefix("0D")) {
        if h.len() == 16 {
            let bits = parse_digits(h, 16)?;
            return Some(OperandKind::Float {
                value: f64::from_bits(bits),
            });
        }
    }
    if let Some(v) = parse_c_uint(w) {
        return Some(OperandKind::Int { value: v as i64 });
    }
    if w.contains(['.', 'e', 'E']) && !w.starts_with("0x") {
        if let Ok(v) = w.parse::<f64>() {
            return Some(OperandKind::Float { value: v });
        }
    }
    None
}

fn operand_span(toks: &[&Token]) -> Span {
    match (toks.first(), toks.last()) {
        (Some(a), Some(b)) => merge(a.span, b.span),
        _ => Span::default(),
    }
}

fn other(toks: &[&Token]) -> Operand {
    Operand {
        kind: OperandKind::Other { text: join(toks) },
        span: operand_span(toks),
    }
}

/// One operand from its tokens (commas at depth 0 already removed).
pub(super) fn parse_operand(toks: &[&Token]) -> Operand {
    let span = operand_span(toks);
    let Some(first) = toks.first() else {
        return other(toks);
    };
    let last = toks.last().map(|t| &t.kind);
    if first.is_punct('[') && last == Some(&TokenKind::Punct(']')) {
        return parse_address(&toks[1..toks.len() - 1])
            .map_or_else(|| other(toks), |kind| Operand { kind, span });
    }
    if (first.is_punct('{') && last == Some(&TokenKind::Punct('}')))
        || (first.is_punct('(') && last == Some(&TokenKind::Punct(')')))
    {
        let inner = &toks[1..toks.len() - 1];
        let mut elements = Vec::new();
        for part in inner.split(|t| t.is_punct(',')) {
            if part.is_empty() {
                continue;
            }
            // Elements are simple operands; nested brackets stay generic.
            if part
                .iter()
                .any(|t| t.is_punct('{') || t.is_punct('[') || t.is_punct('('))
            {
                elements.push(other(part));
            } else {
                elements.push(parse_operand(part));
            }
        }
        let kind = if first.is_punct('{') {
            OperandKind::Vector { elements }
        } else {
            OperandKind::List { elements }
        };
        return Operand { kind, span };
    }
    if first.is_punct('!') && toks.len() == 2 {
        let inner = parse_operand(&toks[1..]);
        return Operand {
            kind: OperandKind::Not {
                inner: Box::new(inner),
            },
            span,
        };
    }
    if first.is_punct('-') && toks.len() == 2 {
        if let Some(w) = toks[1].word() {
            match parse_number(w) {
                Some(OperandKind::Int { value }) => {
                    return Operand {
                        kind: OperandKind::Int {
                            value: value.wrapping_neg(),
                        },
                        span,
                    }
                }
                Some(OperandKind::Float { value }) => {
                    return Operand {
                        kind: OperandKind::Float { value: -value },
                        span,
                    }
                }
                _ => {}
            }
        }
    }
    if toks.len() == 1 {
        if let Some(w) = first.word() {
            return Operand {
                kind: simple_word(w),
                span,
            };
        }
    }
    other(toks)
}

fn simple_word(w: &str) -> OperandKind {
    if w == "_" {
        return OperandKind::Sink;
    }
    if let Some(rest) = w.strip_prefix('%') {
        let (name, component) = match rest.split_once('.') {
            Some((n, c)) => (n, Some(c.to_string())),
            None => (rest, None),
        };
        if special_registers::is_special(name) {
            return OperandKind::Special {
                name: name.to_string(),
                component,
            };
        }
        return OperandKind::Register {
            name: w.to_string(),
        };
    }
    if let Some(n) = parse_number(w) {
        return n;
    }
    OperandKind::Symbol {
        name: w.to_string(),
    }
}

/// Inside `[...]`: `base`, `base+off`, `base-off`, `off`.
fn parse_address(toks: &[&Token]) -> Option<OperandKind> {
    let base_of = |t: &Token| -> Option<AddressBase> {
        let w = t.word()?;
        if w.starts_with('%') {
            Some(AddressBase::Register(w.to_string()))
        } else if w.starts_with(|c: char| c.is_ascii_digit()) {
            None
        } else {
            Some(AddressBase::Symbol(w.to_string()))
        }
    };
    let int_of = |t: &Token| -> Option<i64> { t.word().and_then(parse_c_uint).map(|v| v as i64) };
    match toks {
        [a] => {
            if let Some(b) = base_of(a) {
                Some(OperandKind::Address {
                    base: Some(b),
                    offset: 0,
                })
            } else {
                Some(OperandKind::Address {
                    base: None,
                    offset: int_of(a)?,
                })
            }
        }
        [a, sign, n] if sign.is_punct('+') || sign.is_punct('-') => {
            let b = base_of(a)?;
            let v = int_of(n)?;
            Some(OperandKind::Address {
                base: Some(b),
                offset: if sign.is_punct('-') {
                    v.wrapping_neg()
                } else {
                    v
                },
            })
        }
        [a, plus, minus, n] if plus.is_punct('+') && minus.is_punct('-') => {
            let b = base_of(a)?;
            let v = int_of(n)?;
            Some(OperandKind::Address {
                base: Some(b),
                offset: v.wrapping_neg(),
            })
        }
        _ => None,
    }
}
