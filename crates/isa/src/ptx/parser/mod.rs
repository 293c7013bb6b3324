//! Token stream → [`Module`]. Recovers at `;` and `}` so one bad statement costs one
//! diagnostic, never the whole file. No recursion on user-controlled nesting: scopes and
//! initializer braces are counted, operand brackets are split one level deep.
//!
//! Grammar followed: PTX ISA 8.5 chapter 4 "Syntax" (statements, labels, `{ }` scopes),
//! chapter 5 "State Spaces, Types, and Variables" (declarations, §5.4.4 initializers),
//! chapter 11 "Directives" (module, function, linking, debugging directives), §9.7
//! "Control Flow Instructions" (`call` with return and argument lists, `.callprototype`).
//! Every instruction is checked against the ISA table ([`super::isa_table`]) and every
//! `%name` against the special registers and the `.reg` declarations in scope; see
//! `Parser::check_opcode` for the strictness rules.
//!
//! This module holds the cursor, the diagnostics and the module-level statements; one
//! submodule per part of the grammar adds its `Parser` methods: `variables` (declarations and
//! initializers), `function` (headers, parameters, bodies), `registers` (`.reg` scopes and
//! `%name` checks), `statement` (one instruction), `operands` and `strictness` (opcodes and
//! modifiers the ISA table does not know).

use super::lexer::{Token, TokenKind};
use super::module::{Directive, Linkage, Module};
use crate::diagnostic::Diagnostic;
use crate::limits::Limits;
use crate::span::Span;
use registers::RegEntry;

mod function;
mod operands;
mod registers;
mod statement;
mod strictness;
mod variables;

/// Most tokens one debug `.section` body, or one initializer, may hold before the parser
/// gives up on it (each is bounded by the input anyway; this keeps a missing `}` from
/// swallowing the rest of the file silently).
const MAX_BLOCK_TOKENS: usize = 10_000_000;

/// Most diagnostics one parse reports before it stops.
const MAX_DIAGNOSTICS: usize = 10_000;

pub(crate) struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    pub diagnostics: Vec<Diagnostic>,
    pub module: Module,
    instructions_seen: usize,
    limits: Limits,
    stopped: bool,
    /// Registers declared in the enclosing scopes of the function being parsed.
    regs: Vec<RegEntry>,
    /// `regs.len()` at each open `{`.
    scope_marks: Vec<usize>,
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
            regs: Vec::new(),
            scope_marks: Vec::new(),
        }
    }

    fn peek(&self) -> Option<&'a Token> {
        self.toks.get(self.pos)
    }

    fn peek_at(&self, k: usize) -> Option<&'a Token> {
        self.toks.get(self.pos + k)
    }

    fn peek_word(&self) -> Option<&'a str> {
        self.peek().and_then(|t| t.word())
    }

    /// The next token and its word, not consumed. At the end of the input: an error
    /// `at_end` located at `start`. On punctuation or a string: an error `not_a_word` at the
    /// token, and the statement is skipped.
    fn expect_word(
        &mut self,
        start: Span,
        at_end: &str,
        not_a_word: &str,
    ) -> Option<(&'a Token, &'a str)> {
        let Some(tok) = self.peek() else {
            self.error(start, at_end);
            return None;
        };
        let Some(word) = tok.word() else {
            self.error(tok.span, not_a_word);
            self.skip_statement();
            return None;
        };
        Some((tok, word))
    }

    fn bump(&mut self) -> Option<&'a Token> {
        let t = self.toks.get(self.pos);
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.push(Diagnostic::error(span, message));
    }

    fn warning(&mut self, span: Span, message: impl Into<String>) {
        self.push(Diagnostic::warning(span, message));
    }

    /// Keeps at most [`MAX_DIAGNOSTICS`]; the parse stops at the next statement after that.
    fn push(&mut self, d: Diagnostic) {
        if self.diagnostics.len() < MAX_DIAGNOSTICS {
            self.diagnostics.push(d);
        } else if !self.stopped {
            self.stopped = true;
            self.diagnostics.push(Diagnostic::error(
                Span::new(d.line, d.column, d.len),
                format!("more than {MAX_DIAGNOSTICS} diagnostics: parsing stopped here"),
            ));
        }
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

    /// `@@DWARF ...` lines (older `-G` output, §11.5 "Debugging Directives"): skipped. The cursor is on the first
    /// `@`; returns false when this is not such a line.
    fn skip_dwarf_line(&mut self) -> bool {
        let (Some(a), Some(b), Some(c)) = (self.peek(), self.peek_at(1), self.peek_at(2)) else {
            return false;
        };
        if a.is_punct('@') && b.is_punct('@') && c.word() == Some("DWARF") {
            let line = a.span.line;
            while self.peek().is_some_and(|t| t.span.line == line) {
                self.pos += 1;
            }
            return true;
        }
        false
    }

    /// `.section .debug_info { ... }` (§11.5 "Debugging Directives"): the name is kept, the body skipped.
    fn parse_section(&mut self, kw: &'a Token) {
        self.pos += 1;
        let name = self.peek_word().unwrap_or_default().to_string();
        let mut seen = 0usize;
        while let Some(t) = self.peek() {
            if t.is_punct('{') || t.span.line != kw.span.line {
                break;
            }
            self.pos += 1;
        }
        if self.peek().is_some_and(|t| t.is_punct('{')) {
            let mut depth = 0usize;
            while let Some(t) = self.bump() {
                seen += 1;
                if t.is_punct('{') {
                    depth += 1;
                } else if t.is_punct('}') {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        break;
                    }
                }
                if self.peek().is_none() || seen > MAX_BLOCK_TOKENS {
                    self.error(kw.span, format!("`.section {name}` is not closed by `}}`"));
                    break;
                }
            }
        }
        self.module.directives.push(Directive {
            name: ".section".to_string(),
            text: name,
            span: kw.span,
        });
    }

    pub fn parse_module(&mut self) {
        let mut linkage: Option<(Linkage, Span)> = None;
        while let Some(t) = self.peek() {
            if self.stopped {
                return;
            }
            let w = match &t.kind {
                TokenKind::Word(w) => w.as_str(),
                TokenKind::Punct('@') if self.skip_dwarf_line() => continue,
                TokenKind::Punct(';') => {
                    self.pos += 1;
                    continue;
                }
                _ => {
                    self.error(t.span, "unexpected token outside a function");
                    self.pos += 1;
                    continue;
                }
            };
            let link = linkage.take();
            match w {
                ".version" => {
                    self.pos += 1;
                    let rest = self.take_line(t.span.line);
                    self.module.version = Some(join(&rest));
                }
                ".target" => {
                    // `.target sm_86`, `.target sm_52, debug`, `.target sm_30, texmode_independent`
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
                        Ok(n @ (32 | 64)) => self.module.address_size = Some(n),
                        _ => self.error(t.span, format!("bad .address_size `{text}` (32 or 64)")),
                    }
                }
                ".visible" | ".extern" | ".weak" | ".common" => {
                    let l = match w {
                        ".visible" => Linkage::Visible,
                        ".extern" => Linkage::Extern,
                        ".weak" => Linkage::Weak,
                        _ => Linkage::Common,
                    };
                    if let Some((_, sp)) = link {
                        self.error(sp, "two linking directives on one declaration");
                    }
                    linkage = Some((l, t.span));
                    self.pos += 1;
                }
                ".entry" | ".func" => {
                    self.parse_function(link.map_or(Linkage::Internal, |(l, _)| l));
                }
                ".global" | ".const" | ".shared" | ".local" | ".tex" => {
                    let l = link.map_or(Linkage::Internal, |(l, _)| l);
                    for mut d in self.parse_var_decl(true) {
                        d.linkage = l;
                        self.module.globals.push(d);
                    }
                }
                ".section" => self.parse_section(t),
                ".file" | ".loc" => {
                    self.pos += 1;
                    let rest = self.take_line(t.span.line);
                    self.module.directives.push(Directive {
                        name: w.to_string(),
                        text: join(&rest),
                        span: t.span,
                    });
                }
                ".pragma" | ".alias" => {
                    // `.pragma "nounroll";`, `.alias fa, f;` (§11.4, §11.2)
                    self.pos += 1;
                    let mut rest = Vec::new();
                    while let Some(x) = self.peek() {
                        self.pos += 1;
                        if x.is_punct(';') {
                            break;
                        }
                        rest.push(x);
                    }
                    self.module.directives.push(Directive {
                        name: w.to_string(),
                        text: join(&rest),
                        span: t.span,
                    });
                }
                _ if w.starts_with('.') => {
                    self.error(t.span, format!("unknown module directive `{w}`"));
                    self.pos += 1;
                    self.skip_statement();
                }
                _ => {
                    self.error(
                        t.span,
                        format!("`{w}` outside a function: expected a directive"),
                    );
                    self.pos += 1;
                    self.skip_statement();
                }
            }
        }
        if let Some((_, sp)) = linkage {
            self.error(sp, "linking directive without a declaration");
        }
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
