//! `.entry`/`.func` headers and their performance-tuning directives, parameter lists, and
//! function bodies with their nested scopes, `.callprototype` and `.branchtargets` (PTX ISA
//! §11.2–§11.4, §9.7).

use super::registers::RegEntry;
use super::Parser;
use crate::number::parse_c_uint;
use crate::ptx::call::CallPrototype;
use crate::ptx::instruction::StateSpace;
use crate::ptx::lexer::TokenKind;
use crate::ptx::module::{Function, FunctionDirective, FunctionKind, Linkage, VarDecl};
use crate::span::Span;
use std::collections::BTreeMap;

impl<'a> Parser<'a> {
    pub(super) fn parse_function(&mut self, linkage: Linkage) {
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
                    // A missing `]` is not reported for parameters.
                    let (dim, _closed) = self.array_dimension();
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
}
