//! One instruction statement: guard, opcode with modifiers, operands; and the typed view of
//! a `call` built from its generic operands.

use super::operands::parse_operand;
use super::{merge, Parser};
use crate::ptx::call::{Call, CallTarget, Callee};
use crate::ptx::instruction::{Guard, Instruction, OperandKind};
use crate::ptx::lexer::Token;
use crate::ptx::special_registers;
use crate::span::Span;

impl<'a> Parser<'a> {
    /// `[@[!]%p] opcode[.mod]* operands ;`
    pub(super) fn parse_instruction(&mut self) -> Option<Instruction> {
        let first = self.peek()?;
        let start = first.span;
        let mut guard = None;
        if first.is_punct('@') {
            self.pos += 1;
            let mut negated = false;
            if self.peek().is_some_and(|t| t.is_punct('!')) {
                negated = true;
                self.pos += 1;
            }
            match self.peek().and_then(|t| t.word().map(|w| (t, w))) {
                Some((t, w)) if w.starts_with('%') => {
                    guard = Some(Guard {
                        reg: w.to_string(),
                        negated,
                        span: merge(start, t.span),
                    });
                    self.pos += 1;
                    let special = w.strip_prefix('%').is_some_and(|n| {
                        special_registers::is_special(n.split('.').next().unwrap_or(n))
                    });
                    let is_pred = self.check_percent_word(w, t.span);
                    if !is_pred && !special && self.find_reg(w).is_some() {
                        self.error(t.span, format!("guard `{w}` is not a `.pred` register"));
                    }
                }
                _ => {
                    let sp = self.peek().map(|t| t.span).unwrap_or(start);
                    self.error(sp, "expected a predicate register after `@`");
                    self.skip_statement();
                    return None;
                }
            }
        }
        let (op_tok, mnemonic) =
            self.expect_word(start, "guard without an instruction", "expected an opcode")?;
        if !mnemonic.starts_with(|c: char| c.is_ascii_alphabetic()) {
            self.error(op_tok.span, format!("`{mnemonic}` is not an opcode"));
            self.skip_statement();
            return None;
        }
        self.pos += 1;
        let op_pos = self.pos;
        let mut parts = mnemonic.split('.');
        let opcode = parts.next().unwrap_or_default().to_string();
        let modifiers: Vec<String> = parts
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect();
        let is_call = opcode == "call";
        // Collect operand tokens up to `;` at bracket depth 0.
        let mut groups: Vec<Vec<&'a Token>> = Vec::new();
        let mut cur: Vec<&'a Token> = Vec::new();
        let mut depth = 0i32;
        let mut end = op_tok.span;
        loop {
            let Some(t) = self.peek() else {
                self.error(
                    op_tok.span,
                    format!("`{mnemonic}` is not terminated by `;`"),
                );
                return None;
            };
            if depth == 0 && t.is_punct(';') {
                end = t.span;
                self.pos += 1;
                break;
            }
            if depth == 0 && t.is_punct('}') {
                self.error(t.span, format!("`{mnemonic}` is not terminated by `;`"));
                return None;
            }
            // A word on a new line right after a complete operand: the `;` is missing.
            // Report it and end the instruction here so the next line parses on its own.
            // (`call` is written over several lines by nvcc, so it is exempt.)
            let prev = self.toks.get(self.pos.wrapping_sub(1));
            if depth == 0
                && !is_call
                && self.pos > op_pos
                && t.span.line > end.line
                && t.word().is_some()
                && prev.is_some_and(|p| !p.is_punct(',') && !p.is_punct('+') && !p.is_punct('-'))
            {
                self.error(
                    Span::new(end.line, end.column + end.len, 0),
                    format!("missing `;` after `{mnemonic}`"),
                );
                break;
            }
            if t.is_punct('[') || t.is_punct('{') || t.is_punct('(') {
                depth += 1;
            } else if t.is_punct(']') || t.is_punct('}') || t.is_punct(')') {
                depth -= 1;
                if depth < 0 {
                    self.error(t.span, "unbalanced bracket");
                    self.skip_statement();
                    return None;
                }
            }
            self.pos += 1;
            if depth == 0 && t.is_punct(',') {
                groups.push(std::mem::take(&mut cur));
            } else {
                cur.push(t);
            }
            end = t.span;
        }
        if !cur.is_empty() {
            groups.push(cur);
        }
        let mut operands = Vec::new();
        let mut writes_pred = false;
        for (i, g) in groups.iter().enumerate() {
            if g.is_empty() {
                self.error(end, "empty operand");
                continue;
            }
            for t in g {
                if let Some(w) = t.word().filter(|w| w.starts_with('%')) {
                    let pred = self.check_percent_word(w, t.span);
                    writes_pred |= pred && i == 0;
                }
            }
            operands.push(parse_operand(g));
        }
        let mut ins = Instruction {
            guard,
            opcode,
            modifiers,
            operands,
            span: merge(start, end),
            opcode_span: op_tok.span,
            call: None,
        };
        self.check_opcode(&ins, writes_pred);
        if is_call {
            ins.call = self.type_call(&ins);
        }
        Some(ins)
    }

    /// `call{.uni} (ret), target, (args){, proto};` from the generic operands.
    fn type_call(&mut self, ins: &Instruction) -> Option<Call> {
        let mut ops = ins.operands.iter().peekable();
        let mut returns = Vec::new();
        if let Some(OperandKind::List { elements }) = ops.peek().map(|o| &o.kind) {
            returns = elements.clone();
            ops.next();
        }
        let Some(target_op) = ops.next() else {
            self.error(ins.span, "`call` needs a target");
            return None;
        };
        let mut args = Vec::new();
        if let Some(OperandKind::List { elements }) = ops.peek().map(|o| &o.kind) {
            args = elements.clone();
            ops.next();
        }
        let via = match ops.next().map(|o| (&o.kind, o.span)) {
            None => None,
            Some((OperandKind::Symbol { name }, _)) => Some(name.clone()),
            Some((_, sp)) => {
                self.error(sp, "expected a `.callprototype` or `.calltargets` label");
                None
            }
        };
        if let Some(extra) = ops.next() {
            self.error(
                extra.span,
                "unexpected operand after the call's target list",
            );
        }
        let target = match &target_op.kind {
            OperandKind::Symbol { name } => {
                if let Some(v) = &via {
                    self.error(
                        target_op.span,
                        format!("direct call to `{name}` with a prototype `{v}`"),
                    );
                }
                CallTarget::Direct {
                    name: name.clone(),
                    span: target_op.span,
                }
            }
            OperandKind::Register { name } => CallTarget::Indirect {
                register: name.clone(),
                span: target_op.span,
                via,
            },
            _ => {
                self.error(
                    target_op.span,
                    "call target must be a function name or a register",
                );
                return None;
            }
        };
        let callee = match target {
            CallTarget::Direct { .. } => Callee::Unknown,
            CallTarget::Indirect { .. } => Callee::Indirect,
        };
        Some(Call {
            uni: ins.has_modifier("uni"),
            returns,
            target,
            args,
            callee,
        })
    }
}
