//! Token stream → [`Module`]. Recovers at `;` and `}` so one bad statement costs one
//! diagnostic, never the whole file. No recursion on user-controlled nesting: scopes are
//! counted, operand brackets are split one level deep.

use super::instruction::{AddressBase, Guard, Instruction, Operand, OperandKind, StateSpace};
use super::lexer::{Token, TokenKind};
use super::module::{Directive, Function, FunctionKind, Module, RegDecl, VarDecl};
use crate::diagnostic::Diagnostic;
use crate::limits::Limits;
use crate::span::Span;
use std::collections::BTreeMap;

/// Special registers PTX defines (ISA §10); any other `%name` is a virtual register.
const SPECIAL_REGISTERS: &[&str] = &[
    "tid",
    "ntid",
    "ctaid",
    "nctaid",
    "laneid",
    "warpid",
    "nwarpid",
    "smid",
    "nsmid",
    "gridid",
    "clock",
    "clock64",
    "lanemask_eq",
    "lanemask_le",
    "lanemask_lt",
    "lanemask_ge",
    "lanemask_gt",
    "globaltimer",
    "dynamic_smem_size",
    "total_smem_size",
];

pub(crate) struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    pub diagnostics: Vec<Diagnostic>,
    pub module: Module,
    instructions_seen: usize,
    limits: Limits,
    stopped: bool,
}

impl<'a> Parser<'a> {
    pub fn new(toks: &'a [Token], limits: &Limits) -> Self {
        Parser {
            toks,
            pos: 0,
            diagnostics: Vec::new(),
            module: Module::default(),
            instructions_seen: 0,
            limits: *limits,
            stopped: false,
        }
    }

    fn peek(&self) -> Option<&'a Token> {
        self.toks.get(self.pos)
    }

    fn peek_at(&self, k: usize) -> Option<&'a Token> {
        self.toks.get(self.pos + k)
    }

    fn bump(&mut self) -> Option<&'a Token> {
        let t = self.toks.get(self.pos);
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic::error(span, message));
    }

    /// Skips to just after the next `;` (or to a `}` / end, which is left in place).
    fn skip_statement(&mut self) {
        while let Some(t) = self.peek() {
            if t.is_punct(';') {
                self.pos += 1;
                return;
            }
            if t.is_punct('}') {
                return;
            }
            self.pos += 1;
        }
    }

    /// Consumes the rest of the current line (for `.loc`, `.file`, `.version`, ...).
    fn take_line(&mut self, line: u32) -> Vec<&'a Token> {
        let mut out = Vec::new();
        while let Some(t) = self.peek() {
            if t.span.line != line {
                break;
            }
            if t.is_punct(';') {
                self.pos += 1;
                break;
            }
            out.push(t);
            self.pos += 1;
        }
        out
    }

    pub fn parse_module(&mut self) {
        while let Some(t) = self.peek() {
            if self.stopped {
                return;
            }
            match &t.kind {
                TokenKind::Word(w) => match w.as_str() {
                    ".version" => {
                        self.pos += 1;
                        let rest = self.take_line(t.span.line);
                        self.module.version = Some(join(&rest));
                    }
                    ".target" => {
                        self.pos += 1;
                        let rest = self.take_line(t.span.line);
                        self.module.target = rest
                            .iter()
                            .filter_map(|x| x.word().map(str::to_string))
                            .collect();
                    }
                    ".address_size" => {
                        self.pos += 1;
                        let rest = self.take_line(t.span.line);
                        let text = join(&rest);
                        match text.parse::<u32>() {
                            Ok(n) => self.module.address_size = Some(n),
                            Err(_) => self.error(t.span, format!("bad .address_size `{text}`")),
                        }
                    }
                    ".visible" | ".extern" | ".weak" | ".common" => {
                        // Linkage: applies to the following declaration.
                        self.pos += 1;
                    }
                    ".entry" | ".func" => self.parse_function(),
                    ".global" | ".const" | ".shared" | ".local" => {
                        if let Some(d) = self.parse_var_decl() {
                            self.module.globals.push(d);
                        }
                    }
                    ".file" | ".loc" | ".section" | ".pragma" => {
                        self.pos += 1;
                        let rest = self.take_line(t.span.line);
                        self.module.directives.push(Directive {
                            name: w.clone(),
                            text: join(&rest),
                            span: t.span,
                        });
                    }
                    _ if w.starts_with('.') => {
                        self.pos += 1;
                        let rest = self.take_line(t.span.line);
                        self.module.directives.push(Directive {
                            name: w.clone(),
                            text: join(&rest),
                            span: t.span,
                        });
                    }
                    _ => {
                        self.error(
                            t.span,
                            format!("`{w}` outside a function: expected a directive"),
                        );
                        self.pos += 1;
                        self.skip_statement();
                    }
                },
                _ => {
                    self.error(t.span, "unexpected token outside a function");
                    self.pos += 1;
                }
            }
        }
    }

    /// `.global .align 4 .b8 name[16] = {...};` and similar, up to and including `;`.
    /// The cursor is on the state-space word.
    fn parse_var_decl(&mut self) -> Option<VarDecl> {
        let start = self.peek()?.span;
        let mut space = StateSpace::Generic;
        let mut align = None;
        let mut ty = String::new();
        let mut name: Option<String> = None;
        let mut dims = Vec::new();
        while let Some(t) = self.peek() {
            if t.is_punct(';') {
                self.pos += 1;
                break;
            }
            if t.is_punct('}') && name.is_none() {
                break;
            }
            if t.is_punct('=') {
                // Initializer: skip it (bounded by the statement's `;`).
                self.skip_statement();
                break;
            }
            if t.is_punct(',') && name.is_some() {
                // `.shared .u32 a, b;` — keep the first name, skip the rest.
                self.skip_statement();
                break;
            }
            if t.is_punct('[') {
                self.pos += 1;
                let mut dim = None;
                if let Some(n) = self.peek().and_then(|x| x.word()).and_then(parse_uint) {
                    dim = Some(n);
                    self.pos += 1;
                }
                if self.peek().is_some_and(|x| x.is_punct(']')) {
                    self.pos += 1;
                } else {
                    let sp = self.peek().map(|x| x.span).unwrap_or(start);
                    self.error(sp, "expected `]` in array declaration");
                    self.skip_statement();
                    return None;
                }
                dims.push(dim);
                continue;
            }
            let Some(w) = t.word() else {
                self.error(t.span, "unexpected token in declaration");
                self.skip_statement();
                return None;
            };
            self.pos += 1;
            if let Some(s) = w.strip_prefix('.') {
                if let Some(sp) = StateSpace::from_modifier(s) {
                    space = sp;
                } else if s == "align" {
                    align = self.peek().and_then(|x| x.word()).and_then(parse_uint);
                    if align.is_some() {
                        self.pos += 1;
                    }
                } else if s.starts_with('v') && s[1..].chars().all(|c| c.is_ascii_digit()) {
                    // vector type prefix: keep in the type string
                    ty = format!("{s}.");
                } else if name.is_none() {
                    ty.push_str(s);
                }
            } else if name.is_none() {
                name = Some(w.to_string());
            }
        }
        let Some(name) = name else {
            self.error(start, "declaration without a name");
            return None;
        };
        Some(VarDecl {
            space,
            align,
            ty,
            name,
            dims,
            span: start,
        })
    }

    fn parse_function(&mut self) {
        let Some(kw) = self.bump() else { return };
        let kind = if kw.word() == Some(".entry") {
            FunctionKind::Entry
        } else {
            FunctionKind::Func
        };
        let mut returns = Vec::new();
        // `.func (.param .b32 retval) name (...)`
        if kind == FunctionKind::Func && self.peek().is_some_and(|t| t.is_punct('(')) {
            returns = self.parse_param_list();
        }
        let Some(name_tok) = self.peek() else {
            self.error(kw.span, "function without a name");
            return;
        };
        let Some(name) = name_tok.word().filter(|w| !w.starts_with('.')) else {
            self.error(name_tok.span, "expected a function name");
            self.skip_statement();
            return;
        };
        self.pos += 1;
        let params = if self.peek().is_some_and(|t| t.is_punct('(')) {
            self.parse_param_list()
        } else {
            Vec::new()
        };
        // Performance directives (`.maxntid 256, 1, 1`, `.minnctapersm 1`, ...).
        while let Some(t) = self.peek() {
            if t.is_punct('{') || t.is_punct(';') {
                break;
            }
            if t.word().is_some_and(|w| w == ".entry" || w == ".func") {
                break;
            }
            self.pos += 1;
        }
        let mut func = Function {
            kind,
            name: name.to_string(),
            name_span: name_tok.span,
            params,
            returns,
            regs: Vec::new(),
            vars: Vec::new(),
            instructions: Vec::new(),
            labels: BTreeMap::new(),
            label_spans: BTreeMap::new(),
            has_body: false,
        };
        match self.peek() {
            Some(t) if t.is_punct(';') => {
                self.pos += 1;
            }
            Some(t) if t.is_punct('{') => {
                self.pos += 1;
                func.has_body = true;
                self.parse_body(&mut func);
            }
            _ => {
                self.error(name_tok.span, format!("function `{name}` has no body"));
            }
        }
        self.module.functions.push(func);
    }

    /// `( .param .u64 a, .param .align 8 .b8 b[16] )`; the cursor is on `(`.
    fn parse_param_list(&mut self) -> Vec<VarDecl> {
        let open = self.bump().map(|t| t.span).unwrap_or_default();
        let mut out = Vec::new();
        loop {
            let Some(t) = self.peek() else {
                self.error(open, "unclosed parameter list");
                return out;
            };
            if t.is_punct(')') {
                self.pos += 1;
                return out;
            }
            if t.is_punct(',') {
                self.pos += 1;
                continue;
            }
            let start = t.span;
            let mut space = StateSpace::Param;
            let mut align = None;
            let mut ty = String::new();
            let mut name = None;
            let mut dims = Vec::new();
            while let Some(t) = self.peek() {
                if t.is_punct(',') || t.is_punct(')') {
                    break;
                }
                if t.is_punct('{') || t.is_punct(';') {
                    self.error(t.span, "unclosed parameter list");
                    return out;
                }
                self.pos += 1;
                if t.is_punct('[') {
                    let mut dim = None;
                    if let Some(n) = self.peek().and_then(|x| x.word()).and_then(parse_uint) {
                        dim = Some(n);
                        self.pos += 1;
                    }
                    if self.peek().is_some_and(|x| x.is_punct(']')) {
                        self.pos += 1;
                    }
                    dims.push(dim);
                    continue;
                }
                let Some(w) = t.word() else { continue };
                if let Some(s) = w.strip_prefix('.') {
                    if s == "param" || s == "reg" {
                        space = if s == "reg" {
                            StateSpace::Generic
                        } else {
                            StateSpace::Param
                        };
                    } else if s == "align" {
                        align = self.peek().and_then(|x| x.word()).and_then(parse_uint);
                        if align.is_some() {
                            self.pos += 1;
                        }
                    } else if s == "ptr" || StateSpace::from_modifier(s).is_some() {
                        // `.ptr .global .align 4`: attributes of pointer params.
                    } else {
                        ty = s.to_string();
                    }
                } else {
                    name = Some(w.to_string());
                }
            }
            match name {
                Some(name) => out.push(VarDecl {
                    space,
                    align,
                    ty,
                    name,
                    dims,
                    span: start,
                }),
                None => self.error(start, "parameter without a name"),
            }
        }
    }

    fn parse_body(&mut self, func: &mut Function) {
        let mut depth = 1usize;
        while let Some(t) = self.peek() {
            if self.stopped {
                return;
            }
            if t.is_punct('{') {
                depth += 1;
                self.pos += 1;
                continue;
            }
            if t.is_punct('}') {
                depth -= 1;
                self.pos += 1;
                if depth == 0 {
                    return;
                }
                continue;
            }
            if t.is_punct(';') {
                self.pos += 1;
                continue;
            }
            match &t.kind {
                TokenKind::Word(w) if w.starts_with('.') => match w.as_str() {
                    ".reg" => self.parse_reg_decl(func),
                    ".shared" | ".local" | ".const" | ".global" | ".param" => {
                        if let Some(d) = self.parse_var_decl() {
                            func.vars.push(d);
                        }
                    }
                    ".loc" | ".file" | ".section" => {
                        self.pos += 1;
                        self.take_line(t.span.line);
                    }
                    _ => {
                        // `.pragma "nounroll";` and other directives: generic, to `;`.
                        self.pos += 1;
                        while let Some(x) = self.peek() {
                            if x.is_punct(';') {
                                self.pos += 1;
                                break;
                            }
                            if x.is_punct('}') || x.is_punct('{') || x.span.line != t.span.line {
                                break;
                            }
                            self.pos += 1;
                        }
                    }
                },
                TokenKind::Word(w)
                    if self.peek_at(1).is_some_and(|x| x.is_punct(':')) && !w.starts_with('%') =>
                {
                    if func.labels.contains_key(w) {
                        self.error(t.span, format!("label `{w}` defined twice"));
                    } else {
                        func.labels.insert(w.clone(), func.instructions.len());
                        func.label_spans.insert(w.clone(), t.span);
                    }
                    self.pos += 2;
                }
                TokenKind::Word(_) | TokenKind::Punct('@') => {
                    if let Some(ins) = self.parse_instruction() {
                        self.instructions_seen += 1;
                        if self.instructions_seen > self.limits.max_instructions {
                            self.error(
                                ins.span,
                                format!(
                                    "more than {} instructions (raise max_instructions)",
                                    self.limits.max_instructions
                                ),
                            );
                            self.stopped = true;
                            return;
                        }
                        func.instructions.push(ins);
                    }
                }
                _ => {
                    self.error(t.span, "unexpected token in function body");
                    self.pos += 1;
                    self.skip_statement();
                }
            }
        }
        self.error(
            func.name_span,
            format!("body of `{}` is not closed by `}}`", func.name),
        );
    }

    /// `.reg .b32 %r<7>;` or `.reg .f32 %f1, %f2;`
    fn parse_reg_decl(&mut self, func: &mut Function) {
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
                    .peek()
                    .and_then(|x| x.word())
                    .and_then(parse_uint)
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
            func.regs.push(RegDecl {
                ty: ty.clone(),
                name: name.to_string(),
                count,
                span: t.span,
            });
        }
    }

    /// `[@[!]%p] opcode[.mod]* operands ;`
    fn parse_instruction(&mut self) -> Option<Instruction> {
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
                }
                _ => {
                    let sp = self.peek().map(|t| t.span).unwrap_or(start);
                    self.error(sp, "expected a predicate register after `@`");
                    self.skip_statement();
                    return None;
                }
            }
        }
        let Some(op_tok) = self.peek() else {
            self.error(start, "guard without an instruction");
            return None;
        };
        let Some(mnemonic) = op_tok.word() else {
            self.error(op_tok.span, "expected an opcode");
            self.skip_statement();
            return None;
        };
        if !mnemonic.starts_with(|c: char| c.is_ascii_alphabetic()) {
            self.error(op_tok.span, format!("`{mnemonic}` is not an opcode"));
            self.skip_statement();
            return None;
        }
        self.pos += 1;
        let mut parts = mnemonic.split('.');
        let opcode = parts.next().unwrap_or_default().to_string();
        let modifiers: Vec<String> = parts
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect();
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
            let prev = self.toks.get(self.pos.wrapping_sub(1));
            if depth == 0
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
        for g in &groups {
            if g.is_empty() {
                self.error(end, "empty operand");
                continue;
            }
            operands.push(parse_operand(g));
        }
        Some(Instruction {
            guard,
            opcode,
            modifiers,
            operands,
            span: merge(start, end),
            opcode_span: op_tok.span,
        })
    }
}

fn join(toks: &[&Token]) -> String {
    let mut s = String::new();
    for t in toks {
        match &t.kind {
            TokenKind::Word(w) => {
                if !s.is_empty() && !s.ends_with([',', '[', '{', '(', '+', '-', '!', '|']) {
                    s.push(' ');
                }
                s.push_str(w);
            }
            TokenKind::Str(x) => {
                if !s.is_empty() {
                    s.push(' ');
                }
                s.push('"');
                s.push_str(x);
                s.push('"');
            }
            TokenKind::Punct(c) => s.push(*c),
        }
    }
    s
}

/// The span from the start of `a` to the end of `b` (on `a`'s line).
fn merge(a: Span, b: Span) -> Span {
    if a.line == b.line && b.column >= a.column {
        Span::new(a.line, a.column, b.column + b.len - a.column)
    } else {
        a
    }
}

fn parse_uint(w: &str) -> Option<u64> {
    let w = w.strip_suffix(['U', 'u']).unwrap_or(w);
    if let Some(h) = w.strip_prefix("0x").or_else(|| w.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if let Some(b) = w.strip_prefix("0b").or_else(|| w.strip_prefix("0B")) {
        u64::from_str_radix(b, 2).ok()
    } else if w.len() > 1 && w.starts_with('0') && w.chars().all(|c| c.is_ascii_digit()) {
        u64::from_str_radix(&w[1..], 8).ok()
    } else {
        w.parse::<u64>().ok()
    }
}

/// A numeric literal: integer or float.
fn parse_number(w: &str) -> Option<OperandKind> {
    if !w.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    if let Some(h) = w.strip_prefix("0f").or_else(|| w.strip_prefix("0F")) {
        if h.len() == 8 {
            let bits = u32::from_str_radix(h, 16).ok()?;
            return Some(OperandKind::Float {
                value: f32::from_bits(bits) as f64,
            });
        }
    }
    if let Some(h) = w.strip_prefix("0d").or_else(|| w.strip_prefix("0D")) {
        if h.len() == 16 {
            let bits = u64::from_str_radix(h, 16).ok()?;
            return Some(OperandKind::Float {
                value: f64::from_bits(bits),
            });
        }
    }
    if let Some(v) = parse_uint(w) {
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
fn parse_operand(toks: &[&Token]) -> Operand {
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
        if SPECIAL_REGISTERS.contains(&name) {
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
    let int_of = |t: &Token| -> Option<i64> { t.word().and_then(parse_uint).map(|v| v as i64) };
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
