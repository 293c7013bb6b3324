//! `.reg` declarations and the scopes that make them visible: every `%name` of a body is
//! checked against them and against the special registers (PTX ISA §5.1.1, chapter 10).

use super::Parser;
use crate::number::parse_c_uint;
use crate::ptx::module::{Function, RegDecl};
use crate::ptx::special_registers;
use crate::span::Span;

/// A `.reg` declaration visible in the current scope.
pub(super) struct RegEntry {
    /// `%r` for a family `%r<7>`, `%temp` for a single register.
    pub(super) name: String,
    pub(super) count: Option<u32>,
    pub(super) pred: bool,
}

impl<'a> Parser<'a> {
    /// `.reg .b32 %r<7>;` or `.reg .f32 %f1, %f2;` or `.reg .v4 .f32 %v;`
    pub(super) fn parse_reg_decl(&mut self, func: &mut Function) {
        let Some(kw) = self.bump() else { return };
        let mut ty = String::new();
        while let Some(t) = self.peek() {
            match t.word() {
                Some(w) if w.starts_with('.') => {
                    if !ty.is_empty() {
                        ty.push('.');
                    }
                    ty.push_str(&w[1..]);
                    self.pos += 1;
                }
                _ => break,
            }
        }
        let pred = ty == "pred";
        loop {
            let Some(t) = self.peek() else {
                self.error(kw.span, "unterminated .reg declaration");
                return;
            };
            if t.is_punct(';') {
                self.pos += 1;
                return;
            }
            if t.is_punct(',') {
                self.pos += 1;
                continue;
            }
            let Some(name) = t.word() else {
                self.error(t.span, "expected a register name");
                self.skip_statement();
                return;
            };
            self.pos += 1;
            let mut count = None;
            if self.peek().is_some_and(|x| x.is_punct('<')) {
                self.pos += 1;
                count = self
                    .peek_word()
                    .and_then(parse_c_uint)
                    .and_then(|n| u32::try_from(n).ok());
                if count.is_some() {
                    self.pos += 1;
                }
                if self.peek().is_some_and(|x| x.is_punct('>')) {
                    self.pos += 1;
                } else {
                    self.error(t.span, "expected `<count>` in register declaration");
                    self.skip_statement();
                    return;
                }
            }
            self.regs.push(RegEntry {
                name: name.to_string(),
                count,
                pred,
            });
            func.regs.push(RegDecl {
                ty: ty.clone(),
                name: name.to_string(),
                count,
                span: t.span,
            });
        }
    }

    /// The declaration in scope for register `name` (`%r12` matches `%r<13>` or `%r12`).
    pub(super) fn find_reg(&self, name: &str) -> Option<&RegEntry> {
        let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (prefix, index) = name.split_at(name.len() - digits);
        let index: Option<u64> = if digits > 0 && digits < 10 {
            index.parse().ok()
        } else {
            None
        };
        self.regs.iter().rev().find(|r| match r.count {
            None => r.name == name,
            Some(n) => r.name == prefix && index.is_some_and(|i| i < u64::from(n)),
        })
    }

    /// Checks one `%word` of an instruction: a special register with a valid component, or a
    /// register declared in scope. Returns whether it is a declared predicate register.
    pub(super) fn check_percent_word(&mut self, w: &str, span: Span) -> bool {
        let Some(rest) = w.strip_prefix('%') else {
            return false;
        };
        let (name, component) = match rest.split_once('.') {
            Some((n, c)) => (n, Some(c)),
            None => (rest, None),
        };
        if special_registers::is_special(name) {
            if let Err(m) = special_registers::check_component(name, component) {
                self.error(span, m);
            }
            return false;
        }
        if let Some(r) = self.find_reg(w) {
            return r.pred;
        }
        match special_registers::misspelt(rest) {
            Some(s) => self.error(
                span,
                format!("unknown special register `{w}` (did you mean `%{s}`?)"),
            ),
            None => self.error(
                span,
                format!("register `{w}` is not declared (no `.reg` in scope declares it)"),
            ),
        }
        false
    }
}
