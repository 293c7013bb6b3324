//! Variable declarations of every state space: attributes, declarators, array dimensions and
//! initializers (PTX ISA §5.4), and the bytes an initializer materialises.

use super::operands::parse_number;
use super::{merge, Parser, MAX_BLOCK_TOKENS};
use crate::number::parse_c_uint;
use crate::ptx::instruction::{OperandKind, ScalarType, StateSpace};
use crate::ptx::module::{InitValue, Initializer, Linkage, VarDecl};
use crate::span::Span;

/// Largest variable whose zero-filled bytes an initializer materialises (16 MiB); a larger
/// one keeps its values only ([`Initializer::bytes`] is `None`).
const MAX_INIT_BYTES: usize = 16 << 20;

impl<'a> Parser<'a> {
    /// The inside of an array dimension `[n]` or `[]`, the cursor just after `[`: the count if
    /// one is written, and whether the `]` followed (consumed if so).
    pub(super) fn array_dimension(&mut self) -> (Option<u64>, bool) {
        let mut dim = None;
        if let Some(n) = self.peek_word().and_then(parse_c_uint) {
            dim = Some(n);
            self.pos += 1;
        }
        let closed = self.peek().is_some_and(|x| x.is_punct(']'));
        if closed {
            self.pos += 1;
        }
        (dim, closed)
    }

    /// `.global .align 4 .v4 .b8 name[16] = {...};` and similar, up to and including `;`;
    /// several declarators (`.shared .u32 a, b[4];`) give several items. The cursor is on
    /// the state-space word. `with_init`: initializers are allowed (module scope, `.const`
    /// and `.global` in bodies).
    pub(super) fn parse_var_decl(&mut self, with_init: bool) -> Vec<VarDecl> {
        let mut out = Vec::new();
        let Some(start) = self.peek().map(|t| t.span) else {
            return out;
        };
        let mut space = StateSpace::Generic;
        let mut align = None;
        let mut ty = String::new();
        let mut vector = 1u32;
        // Attributes up to the first name.
        while let Some(w) = self.peek_word().and_then(|w| w.strip_prefix('.')) {
            self.pos += 1;
            if let Some(sp) = StateSpace::from_modifier(w) {
                space = sp;
            } else if w == "align" {
                align = self.peek_word().and_then(parse_c_uint);
                if align.is_some() {
                    self.pos += 1;
                } else {
                    let sp = self.peek().map_or(start, |t| t.span);
                    self.error(sp, "`.align` needs a byte count");
                }
            } else if let Some(n) = w.strip_prefix('v').and_then(|n| n.parse::<u32>().ok()) {
                vector = n;
            } else if w == "ptr" || w == "attribute" {
                // `.ptr .global .align 4` on parameters
            } else {
                ty = w.to_string();
            }
        }
        loop {
            let Some((name_tok, name)) = self.expect_word(
                start,
                "unterminated declaration",
                "expected a variable name",
            ) else {
                return out;
            };
            self.pos += 1;
            let mut dims = Vec::new();
            while self.peek().is_some_and(|x| x.is_punct('[')) {
                self.pos += 1;
                let (dim, closed) = self.array_dimension();
                if !closed {
                    let sp = self.peek().map_or(name_tok.span, |x| x.span);
                    self.error(sp, "expected `]` in array declaration");
                    self.skip_statement();
                    return out;
                }
                dims.push(dim);
            }
            // `.reg .b32 %r<4>` style counts are not variables; `<n>` is only for registers.
            let mut decl = VarDecl {
                space,
                align,
                ty: ty.clone(),
                name: name.to_string(),
                dims,
                span: name_tok.span,
                vector,
                linkage: Linkage::Internal,
                init: None,
            };
            if self.peek().is_some_and(|x| x.is_punct('=')) {
                let eq = self.bump().map_or(name_tok.span, |t| t.span);
                if !with_init {
                    self.error(eq, "this variable cannot have an initializer");
                }
                decl.init = self.parse_initializer(&mut decl, eq);
            }
            out.push(decl);
            match self.peek() {
                Some(t) if t.is_punct(';') => {
                    self.pos += 1;
                    return out;
                }
                Some(t) if t.is_punct(',') => {
                    self.pos += 1;
                }
                Some(t) => {
                    self.error(t.span, "expected `;` after the declaration");
                    self.skip_statement();
                    return out;
                }
                None => {
                    self.error(name_tok.span, "expected `;` after the declaration");
                    return out;
                }
            }
        }
    }

    /// After `=`: a scalar, a symbol (`sym`, `sym+8`, `generic(sym)`) or a `{…}` list,
    /// nested lists flattened (PTX ISA §5.4.4). Fills an unsized first dimension from the
    /// number of values. Stops before `,` or `;` at depth 0.
    fn parse_initializer(&mut self, decl: &mut VarDecl, eq: Span) -> Option<Initializer> {
        let mut values = Vec::new();
        let mut depth = 0usize;
        let mut end = eq;
        let mut ok = true;
        let mut seen = 0usize;
        // Values per innermost list, to size `[]` from a nested list (`{{1,2},{3,4}}`).
        while let Some(t) = self.peek() {
            seen += 1;
            if seen > MAX_BLOCK_TOKENS {
                self.error(eq, "initializer too long");
                return None;
            }
            // `;` ends the declaration at any depth (an unclosed `{` is reported below).
            if t.is_punct(';') || (depth == 0 && t.is_punct(',')) {
                break;
            }
            end = t.span;
            if t.is_punct('{') {
                depth += 1;
                self.pos += 1;
                continue;
            }
            if t.is_punct('}') {
                if depth == 0 {
                    self.error(t.span, "unbalanced `}` in initializer");
                    return None;
                }
                depth -= 1;
                self.pos += 1;
                continue;
            }
            if t.is_punct(',') {
                self.pos += 1;
                continue;
            }
            match self.parse_init_value() {
                Some(v) => values.push(v),
                None => {
                    ok = false;
                    let sp = self.peek().map_or(t.span, |x| x.span);
                    self.error(sp, "expected a number, a symbol or `generic(symbol)`");
                    // Skip to the next separator (the failing token itself is never one:
                    // `,`, `{`, `}` and `;` are handled above, so each round consumes).
                    while let Some(x) = self.peek() {
                        if x.is_punct(',') || x.is_punct('}') || x.is_punct(';') {
                            break;
                        }
                        self.pos += 1;
                    }
                }
            }
        }
        if depth != 0 {
            self.error(eq, "initializer is not closed by `}`");
            return None;
        }
        if !ok {
            return None;
        }
        let span = merge(eq, end);
        // `a[] = {…}`: the size comes from the initializer (first dimension only).
        if decl.dims.first() == Some(&None) {
            let inner: u64 = decl.dims.iter().skip(1).map(|d| d.unwrap_or(1)).product();
            let n = (values.len() as u64).div_ceil(inner.max(1));
            if let Some(d) = decl.dims.first_mut() {
                *d = Some(n);
            }
        }
        let bytes = self.init_bytes(decl, &values, span);
        Some(Initializer {
            values,
            bytes,
            span,
        })
    }

    /// One value: `-5`, `0f3F800000`, `1.5`, `sym`, `sym+8`, `generic(sym)+8`.
    fn parse_init_value(&mut self) -> Option<InitValue> {
        let mut neg = false;
        if self.peek().is_some_and(|t| t.is_punct('-')) {
            neg = true;
            self.pos += 1;
        }
        let w = self.peek_word()?;
        if let Some(k) = parse_number(w) {
            self.pos += 1;
            return Some(match k {
                OperandKind::Int { value } => InitValue::Int {
                    value: if neg { value.wrapping_neg() } else { value },
                },
                OperandKind::Float { value } => InitValue::Float {
                    value: if neg { -value } else { value },
                },
                _ => return None,
            });
        }
        if neg || w.starts_with(['%', '.']) {
            return None;
        }
        self.pos += 1;
        let (symbol, generic) = if w == "generic" && self.peek().is_some_and(|t| t.is_punct('(')) {
            self.pos += 1;
            let s = self.peek_word()?.to_string();
            self.pos += 1;
            if !self.peek().is_some_and(|t| t.is_punct(')')) {
                return None;
            }
            self.pos += 1;
            (s, true)
        } else {
            (w.to_string(), false)
        };
        let mut offset = 0i64;
        if let Some(sign) = self
            .peek()
            .filter(|t| t.is_punct('+') || t.is_punct('-'))
            .map(|t| t.is_punct('-'))
        {
            self.pos += 1;
            let v = self.peek_word().and_then(parse_c_uint)? as i64;
            self.pos += 1;
            offset = if sign { v.wrapping_neg() } else { v };
        }
        Some(InitValue::Address {
            symbol,
            offset,
            generic,
        })
    }

    /// The variable's bytes when every value is a constant: each value stored in the element
    /// type (little-endian), then zero-filled to the declared size (§5.4.4).
    fn init_bytes(&mut self, decl: &VarDecl, values: &[InitValue], span: Span) -> Option<Vec<u8>> {
        let ty = ScalarType::from_modifier(&decl.ty)?;
        let width = ty.bytes() as usize;
        let scalars = decl
            .size_bytes()
            .map(|s| usize::try_from(s / width.max(1) as u64).unwrap_or(usize::MAX));
        if let Some(n) = scalars {
            if values.len() > n {
                self.error(
                    span,
                    format!(
                        "{} values for `{}`, which holds {n}",
                        values.len(),
                        decl.name
                    ),
                );
                return None;
            }
        }
        let mut bytes = Vec::with_capacity(values.len() * width);
        for v in values {
            let raw: u64 = match *v {
                InitValue::Int { value } => {
                    if ty.is_float() {
                        match ty {
                            ScalarType::F64 => (value as f64).to_bits(),
                            _ => u64::from((value as f32).to_bits()),
                        }
                    } else {
                        value as u64
                    }
                }
                InitValue::Float { value } => match ty {
                    ScalarType::F64 => value.to_bits(),
                    ScalarType::F32 => u64::from((value as f32).to_bits()),
                    _ => value as i64 as u64,
                },
                InitValue::Address { .. } => return None,
            };
            bytes.extend_from_slice(&raw.to_le_bytes()[..width.min(8)]);
        }
        if let Some(total) = decl.size_bytes().and_then(|s| usize::try_from(s).ok()) {
            if bytes.len() < total {
                if total > MAX_INIT_BYTES {
                    // Not materialised: the values stay in `values`.
                    return None;
                }
                bytes.resize(total, 0);
            }
        }
        Some(bytes)
    }
}
