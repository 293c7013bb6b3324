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

use super::call::{Call, CallPrototype, CallTarget, Callee};
use super::instruction::{AddressBase, Guard, Instruction, Operand, OperandKind, StateSpace};
use super::isa_table::{self, OpClass};
use super::lexer::{Token, TokenKind};
use super::module::{
    Directive, Function, FunctionDirective, FunctionKind, InitValue, Initializer, Linkage, Module,
    RegDecl, VarDecl,
};
use super::special_registers;
use crate::diagnostic::Diagnostic;
use crate::limits::Limits;
use crate::number::{parse_c_uint, parse_digits};
use crate::span::Span;
use std::collections::BTreeMap;

/// Most tokens one debug `.section` body, or one initializer, may hold before the parser
/// gives up on it (each is bounded by the input anyway; this keeps a missing `}` from
/// swallowing the rest of the file silently).
const MAX_BLOCK_TOKENS: usize = 10_000_000;

/// Most diagnostics one parse reports before it stops.
const MAX_DIAGNOSTICS: usize = 10_000;

/// Largest variable whose zero-filled bytes an initializer materialises (16 MiB); a larger
/// one keeps its values only ([`Initializer::bytes`] is `None`).
const MAX_INIT_BYTES: usize = 16 << 20;

/// A `.reg` declaration visible in the current scope.
struct RegEntry {
    /// `%r` for a family `%r<7>`, `%temp` for a single register.
    name: String,
    count: Option<u32>,
    pred: bool,
}

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

    /// `.global .align 4 .v4 .b8 name[16] = {...};` and similar, up to and including `;`;
    /// several declarators (`.shared .u32 a, b[4];`) give several items. The cursor is on
    /// the state-space word. `with_init`: initializers are allowed (module scope, `.const`
    /// and `.global` in bodies).
    fn parse_var_decl(&mut self, with_init: bool) -> Vec<VarDecl> {
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
            let Some(name_tok) = self.peek() else {
                self.error(start, "unterminated declaration");
                return out;
            };
            let Some(name) = name_tok.word() else {
                self.error(name_tok.span, "expected a variable name");
                self.skip_statement();
                return out;
            };
            self.pos += 1;
            let mut dims = Vec::new();
            while self.peek().is_some_and(|x| x.is_punct('[')) {
                self.pos += 1;
                let mut dim = None;
                if let Some(n) = self.peek_word().and_then(parse_c_uint) {
                    dim = Some(n);
                    self.pos += 1;
                }
                if self.peek().is_some_and(|x| x.is_punct(']')) {
                    self.pos += 1;
                } else {
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
        let ty = super::instruction::ScalarType::from_modifier(&decl.ty)?;
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
                            super::instruction::ScalarType::F64 => (value as f64).to_bits(),
                            _ => u64::from((value as f32).to_bits()),
                        }
                    } else {
                        value as u64
                    }
                }
                InitValue::Float { value } => match ty {
                    super::instruction::ScalarType::F64 => value.to_bits(),
                    super::instruction::ScalarType::F32 => u64::from((value as f32).to_bits()),
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

    fn parse_function(&mut self, linkage: Linkage) {
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
        let Some(name) = name_tok.word().filter(|w| !w.starts_with(['.', '%'])) else {
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
        let mut func = Function {
            kind,
            name: name.to_string(),
            name_span: name_tok.span,
            linkage,
            params,
            returns,
            regs: Vec::new(),
            vars: Vec::new(),
            instructions: Vec::new(),
            labels: BTreeMap::new(),
            label_spans: BTreeMap::new(),
            has_body: false,
            directives: Vec::new(),
            prototypes: Vec::new(),
            target_lists: BTreeMap::new(),
        };
        self.parse_header_directives(&mut func);
        match self.peek() {
            Some(t) if t.is_punct(';') => {
                self.pos += 1;
            }
            Some(t) if t.is_punct('{') => {
                self.pos += 1;
                func.has_body = true;
                if linkage == Linkage::Extern {
                    self.error(
                        name_tok.span,
                        format!("`.extern` function `{name}` has a body"),
                    );
                }
                self.parse_body(&mut func);
            }
            _ => {
                self.error(
                    name_tok.span,
                    format!("function `{name}` has no body and no `;`"),
                );
            }
        }
        self.module.functions.push(func);
    }

    /// `.maxntid 256, 1, 1`, `.reqntid`, `.minnctapersm 1`, `.maxnreg 32`, `.noreturn`, ...
    /// between the parameter list and the body (PTX ISA §11.4, §11.7).
    fn parse_header_directives(&mut self, func: &mut Function) {
        const KNOWN: &[&str] = &[
            "maxntid",
            "reqntid",
            "minnctapersm",
            "maxnctapersm",
            "maxnreg",
            "maxclusterrank",
            "reqnctapercluster",
            "explicitcluster",
            "noreturn",
            "blocksareclusters",
        ];
        while let Some(t) = self.peek() {
            let Some(w) = t.word() else { return };
            let Some(d) = w.strip_prefix('.') else {
                self.error(
                    t.span,
                    format!("unexpected `{w}` in the header of `{}`", func.name),
                );
                self.pos += 1;
                continue;
            };
            if matches!(d, "entry" | "func") {
                return;
            }
            self.pos += 1;
            if !KNOWN.contains(&d) {
                self.error(
                    t.span,
                    format!(
                        "unknown function directive `{w}` in the header of `{}`",
                        func.name
                    ),
                );
            }
            let mut values = Vec::new();
            while let Some(n) = self.peek_word().and_then(parse_c_uint) {
                values.push(n);
                self.pos += 1;
                if self.peek().is_some_and(|x| x.is_punct(',')) {
                    self.pos += 1;
                } else {
                    break;
                }
            }
            func.directives.push(FunctionDirective {
                name: d.to_string(),
                values,
                text: None,
                span: t.span,
            });
        }
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
            let mut vector = 1;
            let mut name: Option<(String, Span)> = None;
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
                    if let Some(n) = self.peek_word().and_then(parse_c_uint) {
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
                        align = self.peek_word().and_then(parse_c_uint);
                        if align.is_some() {
                            self.pos += 1;
                        }
                    } else if let Some(n) = s.strip_prefix('v').and_then(|n| n.parse::<u32>().ok())
                    {
                        vector = n;
                    } else if s == "ptr" || StateSpace::from_modifier(s).is_some() {
                        // `.ptr .global .align 4`: attributes of pointer params.
                    } else {
                        ty = s.to_string();
                    }
                } else {
                    name = Some((w.to_string(), t.span));
                }
            }
            match name {
                Some((name, span)) => out.push(VarDecl {
                    space,
                    align,
                    ty,
                    name,
                    dims,
                    span,
                    vector,
                    linkage: Linkage::Internal,
                    init: None,
                }),
                None => self.error(start, "parameter without a name"),
            }
        }
    }

    fn parse_body(&mut self, func: &mut Function) {
        self.regs.clear();
        self.scope_marks.clear();
        for r in &func.returns {
            // `.reg` return/parameter declarations of a `.func` are registers.
            if r.space == StateSpace::Generic {
                self.regs.push(RegEntry {
                    name: r.name.clone(),
                    count: None,
                    pred: r.ty == "pred",
                });
            }
        }
        for p in &func.params {
            if p.space == StateSpace::Generic {
                self.regs.push(RegEntry {
                    name: p.name.clone(),
                    count: None,
                    pred: p.ty == "pred",
                });
            }
        }
        let mut depth = 1usize;
        while let Some(t) = self.peek() {
            if self.stopped {
                return;
            }
            if t.is_punct('{') {
                depth += 1;
                self.scope_marks.push(self.regs.len());
                self.pos += 1;
                continue;
            }
            if t.is_punct('}') {
                depth -= 1;
                self.pos += 1;
                if depth == 0 {
                    return;
                }
                if let Some(m) = self.scope_marks.pop() {
                    self.regs.truncate(m);
                }
                continue;
            }
            if t.is_punct(';') {
                self.pos += 1;
                continue;
            }
            if t.is_punct('@') && self.skip_dwarf_line() {
                continue;
            }
            match &t.kind {
                TokenKind::Word(w) if w.starts_with('.') => match w.as_str() {
                    ".reg" => self.parse_reg_decl(func),
                    ".shared" | ".local" | ".const" | ".global" | ".param" => {
                        let init = matches!(w.as_str(), ".const" | ".global");
                        let decls = self.parse_var_decl(init);
                        func.vars.extend(decls);
                    }
                    ".loc" | ".file" => {
                        self.pos += 1;
                        self.take_line(t.span.line);
                    }
                    ".pragma" => {
                        self.pos += 1;
                        let mut text = String::new();
                        while let Some(x) = self.peek() {
                            self.pos += 1;
                            match &x.kind {
                                TokenKind::Punct(';') => break,
                                TokenKind::Str(s) => {
                                    if !text.is_empty() {
                                        text.push_str(", ");
                                    }
                                    text.push_str(s);
                                }
                                _ => {}
                            }
                        }
                        func.directives.push(FunctionDirective {
                            name: "pragma".to_string(),
                            values: Vec::new(),
                            text: Some(text),
                            span: t.span,
                        });
                    }
                    _ => {
                        self.error(
                            t.span,
                            format!("unknown directive `{w}` in a function body"),
                        );
                        self.pos += 1;
                        self.skip_statement();
                    }
                },
                TokenKind::Word(w)
                    if self.peek_at(1).is_some_and(|x| x.is_punct(':')) && !w.starts_with('%') =>
                {
                    let after = self.peek_at(2).and_then(|x| x.word());
                    match after {
                        Some(".callprototype") => {
                            self.pos += 3;
                            self.parse_callprototype(func, w, t.span);
                        }
                        Some(".branchtargets" | ".calltargets") => {
                            self.pos += 3;
                            self.parse_target_list(func, w, t.span);
                        }
                        _ => {
                            if func.labels.contains_key(w) {
                                self.error(t.span, format!("label `{w}` defined twice"));
                            } else {
                                func.labels.insert(w.clone(), func.instructions.len());
                                func.label_spans.insert(w.clone(), t.span);
                            }
                            self.pos += 2;
                        }
                    }
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

    /// After `label : .callprototype`: `(.param .b32 _) _ (.param .b32 _, …) [.noreturn];`
    fn parse_callprototype(&mut self, func: &mut Function, name: &str, span: Span) {
        let mut returns = Vec::new();
        if self.peek().is_some_and(|t| t.is_punct('(')) {
            returns = self.parse_param_list();
        }
        if self.peek_word() == Some("_") {
            self.pos += 1;
        } else {
            let sp = self.peek().map_or(span, |t| t.span);
            self.error(sp, "expected `_` in `.callprototype`");
            self.skip_statement();
            return;
        }
        let mut params = Vec::new();
        if self.peek().is_some_and(|t| t.is_punct('(')) {
            params = self.parse_param_list();
        }
        let mut noreturn = false;
        if self.peek_word() == Some(".noreturn") {
            noreturn = true;
            self.pos += 1;
        }
        if self.peek().is_some_and(|t| t.is_punct(';')) {
            self.pos += 1;
        } else {
            let sp = self.peek().map_or(span, |t| t.span);
            self.error(sp, "expected `;` after `.callprototype`");
            self.skip_statement();
        }
        func.prototypes.push(CallPrototype {
            name: name.to_string(),
            returns,
            params,
            noreturn,
            span,
        });
    }

    /// After `label : .branchtargets` / `.calltargets`: `a, b, c;`
    fn parse_target_list(&mut self, func: &mut Function, name: &str, span: Span) {
        let mut names = Vec::new();
        while let Some(t) = self.peek() {
            self.pos += 1;
            match &t.kind {
                TokenKind::Punct(';') => break,
                TokenKind::Punct(',') => {}
                TokenKind::Word(w) => names.push(w.clone()),
                _ => {
                    self.error(t.span, "expected a name in a target list");
                    self.skip_statement();
                    break;
                }
            }
        }
        if func.target_lists.insert(name.to_string(), names).is_some() {
            self.error(span, format!("target list `{name}` defined twice"));
        }
    }

    /// `.reg .b32 %r<7>;` or `.reg .f32 %f1, %f2;` or `.reg .v4 .f32 %v;`
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
    fn find_reg(&self, name: &str) -> Option<&RegEntry> {
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
    fn check_percent_word(&mut self, w: &str, span: Span) -> bool {
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

    /// The strictness rules for opcodes and modifiers (README "PTX strictness"):
    ///
    /// 1. An opcode in the ISA table with every modifier listed for it: accepted.
    /// 2. A known opcode with a modifier the table does not list for it:
    ///    - an **error** when the opcode is a control, barrier or warp-collective instruction
    ///      (`bar.uni` is not `bra.uni`; `shfl.snyc` is not `shfl.sync`): a misread there
    ///      changes control flow, divergence or agreement;
    ///    - an **error** when the modifier is within edit distance 2 of a state space
    ///      (`ld.globl`): the space decides which memory the access reads or writes, and a
    ///      generic reading would silently change the address interpretation and its cost;
    ///    - otherwise a **warning** ("ignored"), with the nearest valid modifier.
    /// 3. An opcode not in the table: a **warning** naming it, saying it is read generically
    ///    (first operand written, the rest read), with "did you mean" from the nearest table
    ///    name (edit distance ≤ 2); an **error** instead when that nearest name is a control,
    ///    barrier or warp-collective instruction, or when the instruction writes a predicate.
    fn check_opcode(&mut self, ins: &Instruction, writes_pred: bool) {
        // The common case first, without building any string.
        if let Some((info, taken)) = isa_table::lookup(&ins.opcode, &ins.modifiers) {
            if ins.modifiers.iter().skip(taken).all(|m| info.allows(m)) {
                return;
            }
        }
        let mnemonic = ins.mnemonic();
        let span = ins.opcode_span;
        match isa_table::lookup(&ins.opcode, &ins.modifiers) {
            Some((info, taken)) => {
                for m in ins.modifiers.iter().skip(taken) {
                    if info.allows(m) {
                        continue;
                    }
                    let near_mod = info
                        .modifiers()
                        .filter(|x| x.len().abs_diff(m.len()) <= 2)
                        .map(|x| (isa_table::edit_distance(m, x), x))
                        .min_by_key(|(d, _)| *d)
                        .filter(|(d, _)| *d <= 2);
                    // The nearer of: another opcode that takes every modifier written
                    // (`bar.uni` → `bra.uni`), or a modifier of this one (`.snyc` → `.sync`);
                    // a tie goes to the modifier.
                    let hint = match (swapped_opcode(ins, info.name), near_mod) {
                        (Some((d, o)), Some((dm, _))) if d < dm => {
                            format!(" (did you mean `{o}`?)")
                        }
                        (Some((_, o)), None) => format!(" (did you mean `{o}`?)"),
                        (_, Some((_, x))) => format!(" (did you mean `.{x}`?)"),
                        (None, None) => String::new(),
                    };
                    let near_space = STATE_SPACES.iter().any(|s| {
                        s.len().abs_diff(m.len()) <= 2 && isa_table::edit_distance(m, s) <= 2
                    });
                    if info.class.steers_control() {
                        self.error(
                            span,
                            format!(
                                "`.{m}` is not a modifier of `{}` in `{mnemonic}`{hint}: \
                                 a {} instruction is never read generically",
                                info.name,
                                info.class.name()
                            ),
                        );
                    } else if near_space
                        && matches!(
                            info.class,
                            OpClass::Memory | OpClass::Async | OpClass::Texture | OpClass::Alu
                        )
                        && (info.allows("global") || info.allows("shared"))
                    {
                        self.error(
                            span,
                            format!(
                                "`.{m}` is not a state space of `{}` in `{mnemonic}`{hint}: \
                                 the space decides which memory is accessed",
                                info.name
                            ),
                        );
                    } else {
                        self.warning(
                            span,
                            format!(
                                "unknown modifier `.{m}` of `{}` in `{mnemonic}` is ignored{hint}",
                                info.name
                            ),
                        );
                    }
                }
            }
            None => {
                // Compare the opcode with and without its first modifiers against the table;
                // among the nearest rows prefer one that takes the remaining modifiers, then
                // one that steers control (a tie must not hide a control-flow typo).
                let mut best: Option<(&'static isa_table::OpInfo, usize)> = None;
                let mut best_key = (usize::MAX, true, true);
                let mut cand = ins.opcode.clone();
                for k in 0..=ins.modifiers.len().min(3) {
                    if k > 0 {
                        cand.push('.');
                        cand.push_str(&ins.modifiers[k - 1]);
                    }
                    let rest = &ins.modifiers[k..];
                    for o in isa_table::OPCODES {
                        if o.name.len().abs_diff(cand.len()) > 2 {
                            continue;
                        }
                        let d = isa_table::edit_distance(&cand, o.name);
                        if d > 2 || d > best_key.0 {
                            continue;
                        }
                        let key = (
                            d,
                            !rest.iter().all(|m| o.allows(m)),
                            !o.class.steers_control(),
                        );
                        if key < best_key {
                            best_key = key;
                            best = Some((o, d));
                        }
                    }
                }
                let near = best.filter(|(_, d)| *d <= 2);
                let hint = near.map_or(String::new(), |(o, _)| {
                    format!(" (did you mean `{}`?)", o.name)
                });
                if let Some((o, _)) = near.filter(|(o, _)| o.class.steers_control()) {
                    self.error(
                        span,
                        format!(
                            "unknown opcode `{mnemonic}`{hint}: not read generically, because \
                             `{}` is a {} instruction and a misreading could change control \
                             flow, divergence or agreement",
                            o.name,
                            o.class.name()
                        ),
                    );
                } else if writes_pred {
                    self.error(
                        span,
                        format!(
                            "unknown opcode `{mnemonic}`{hint} writes a predicate: not read \
                             generically, because predicates steer branches and divergence"
                        ),
                    );
                } else {
                    self.warning(
                        span,
                        format!(
                            "unknown opcode `{mnemonic}`{hint}: read generically (first \
                             operand written, the rest read)"
                        ),
                    );
                }
            }
        }
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

/// State spaces as modifiers (for the "is this a misspelt space" check).
const STATE_SPACES: &[&str] = &["global", "shared", "local", "param", "const"];

/// When a known opcode carries a modifier it does not accept, another opcode within edit
/// distance 2 that accepts *every* modifier written (`bar.uni` → `bra.uni`), with its
/// distance. Families whose modifiers are unchecked are never suggested.
fn swapped_opcode(ins: &Instruction, current: &str) -> Option<(usize, String)> {
    let mut best: Option<(usize, &str)> = None;
    for o in isa_table::OPCODES {
        if o.name == current
            || o.name.contains('.')
            || !o.checks_modifiers()
            || o.name.len().abs_diff(ins.opcode.len()) > 2
        {
            continue;
        }
        let d = isa_table::edit_distance(&ins.opcode, o.name);
        if d == 0 || d > 2 {
            continue;
        }
        if ins.modifiers.iter().all(|m| o.allows(m)) && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, o.name));
        }
    }
    best.map(|(d, name)| {
        let mut s = name.to_string();
        for m in &ins.modifiers {
            s.push('.');
            s.push_str(m);
        }
        (d, s)
    })
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

/// A numeric literal: integer or float.
fn parse_number(w: &str) -> Option<OperandKind> {
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
