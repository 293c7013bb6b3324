//! Line-level `.sas` parsing: sections, buffer mappings, labels, `#bound` annotations and
//! instructions.

use super::opcode::{shape, Category, Op};
use super::operand::{parse_operand, Operand};
use super::program::{
    BranchCycle, Buffer, BufferInput, InputFormat, Instruction, Label, Program, ValueBound,
};
use crate::diagnostic::Diagnostic;
use crate::limits::Limits;
use crate::number::parse_uint;
use crate::span::Span;

/// Highest buffer id (32 mapping slots per BufToPhysXlat unit, Sim-D §3.2.4).
pub const MAX_BUFFER_ID: u32 = 31;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    Data,
    SpData,
    Text,
}

/// A token of a line and its byte range.
struct Token<'a> {
    text: &'a str,
    start: usize,
}

/// Splits at blanks and commas.
fn tokens(line: &str, from: usize) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line[from..].char_indices() {
        let i = i + from;
        if c.is_whitespace() || c == ',' {
            if let Some(s) = start.take() {
                out.push(Token {
                    text: &line[s..i],
                    start: s,
                });
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push(Token {
            text: &line[s..],
            start: s,
        });
    }
    out
}

/// The line without its `//` comment (a `//` inside double quotes is part of a path).
fn strip_comment(line: &str) -> &str {
    let mut in_quotes = false;
    let bytes = line.as_bytes();
    for i in 0..bytes.len() {
        match bytes[i] {
            b'"' => in_quotes = !in_quotes,
            b'/' if !in_quotes && bytes.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => {}
        }
    }
    line
}

struct Parser<'a> {
    line_no: u32,
    line: &'a str,
    diags: Vec<Diagnostic>,
    program: Program,
    pending_cycle: Option<BranchCycle>,
    pending_value: Option<ValueBound>,
}

impl<'a> Parser<'a> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::in_line(self.line_no, self.line, start, end)
    }

    fn tok_span(&self, t: &Token<'_>) -> Span {
        self.span(t.start, t.start + t.text.len())
    }

    fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    fn warning(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::warning(span, msg));
    }

    /// `idx addr dim_x dim_y [f|d|n "path"]`.
    fn data_line(&mut self, code: &str, section: Section) {
        let toks = tokens(code, 0);
        let names = ["buffer id", "address", "X dimension", "Y dimension"];
        let mut nums = [0u64; 4];
        for (k, name) in names.iter().enumerate() {
            let Some(t) = toks.get(k) else {
                let end = code.trim_end().len();
                let span = self.span(end, end);
                self.error(span, format!("expected {name} (unsigned integer)"));
                return;
            };
            match parse_uint(t.text) {
                Some(v) => nums[k] = v,
                None => {
                    let span = self.tok_span(t);
                    self.error(
                        span,
                        format!("expected {name} (unsigned integer), got `{}`", t.text),
                    );
                    return;
                }
            }
        }
        let first = self.tok_span(&toks[0]);
        let id = nums[0];
        if id > u64::from(MAX_BUFFER_ID) {
            self.error(
                first,
                format!("buffer id {id} exceeds the limit of {MAX_BUFFER_ID}"),
            );
            return;
        }
        let mut input = None;
        if let Some(t) = toks.get(4) {
            let format = match t.text {
                "f" => Some(InputFormat::Binary),
                "d" => Some(InputFormat::Decimal),
                "n" => Some(InputFormat::None),
                _ => None,
            };
            match format {
                Some(format) if section == Section::Data => {
                    let rest = code[t.start + t.text.len()..].trim();
                    let path = rest.trim_matches('"').to_string();
                    input = Some(BufferInput { format, path });
                }
                _ => {
                    let span = self.tok_span(t);
                    self.error(
                        span,
                        format!("unexpected `{}` after the buffer dimensions (expected f, d or n and a file name)", t.text),
                    );
                    return;
                }
            }
        }
        let last = toks.get(3).map_or(first, |t| self.tok_span(t));
        let span = Span::new(
            first.line,
            first.column,
            (last.column + last.len).saturating_sub(first.column),
        );
        let buffer = Buffer {
            id: id as u32,
            addr: nums[1],
            dim_x: nums[2],
            dim_y: nums[3],
            input,
            span,
        };
        let map = match section {
            Section::Data => &mut self.program.buffers,
            _ => &mut self.program.sp_buffers,
        };
        if map.insert(id as u32, buffer).is_some() {
            self.warning(
                first,
                format!("buffer {id} is defined again; the later definition wins"),
            );
        }
    }

    /// `#bound branchcycle T N [P]` or `#bound value V`.
    fn directive(&mut self, code: &str, hash: usize) {
        let toks = tokens(code, hash + 1);
        let whole = self.span(hash, code.trim_end().len());
        match toks.first().map(|t| t.text) {
            Some("bound") => {}
            Some(other) => {
                let span = self.tok_span(&toks[0]);
                self.warning(
                    span,
                    format!("unknown directive `#{other}` ignored (only #bound is known)"),
                );
                return;
            }
            None => {
                self.warning(whole, "empty directive ignored");
                return;
            }
        }
        let nums: Vec<Option<u64>> = toks.iter().skip(2).map(|t| parse_uint(t.text)).collect();
        match toks.get(1).map(|t| t.text) {
            Some("branchcycle") => {
                let bad = nums.len() < 2 || nums.len() > 3 || nums.iter().any(Option::is_none);
                let v: Vec<u64> = nums.iter().flatten().copied().collect();
                if bad || v.iter().any(|&x| x > u64::from(u32::MAX)) {
                    self.error(whole, "expected `#bound branchcycle TAKEN NOT_TAKEN [START]` with unsigned integers");
                    return;
                }
                if self.pending_cycle.is_some() {
                    self.warning(
                        whole,
                        "a second branchcycle annotation replaces the first before any instruction",
                    );
                }
                self.pending_cycle = Some(BranchCycle {
                    taken: v[0] as u32,
                    not_taken: v[1] as u32,
                    start: v.get(2).copied().unwrap_or(0) as u32,
                    span: whole,
                });
            }
            Some("value") => match nums.as_slice() {
                [Some(v)] => {
                    self.pending_value = Some(ValueBound {
                        value: *v,
                        span: whole,
                    })
                }
                _ => self.error(whole, "expected `#bound value V` with an unsigned integer"),
            },
            Some(other) => {
                let span = self.tok_span(&toks[1]);
                self.error(
                    span,
                    format!("unknown bound `{other}` (expected branchcycle or value)"),
                );
            }
            None => self.error(
                whole,
                "expected `#bound branchcycle ...` or `#bound value V`",
            ),
        }
    }

    fn text_line(&mut self, code: &str) {
        let start = code.len() - code.trim_start().len();
        if code[start..].starts_with('#') {
            self.directive(code, start);
            return;
        }
        let toks = tokens(code, start);
        let Some(first) = toks.first() else { return };
        // Label definition: `name:` (the Sim-D assembler ignores the rest of the line).
        let colon = match (first.text.find(':'), toks.get(1)) {
            (Some(c), _) => Some(c),
            (None, Some(t)) if t.text.starts_with(':') => Some(first.text.len()),
            _ => None,
        };
        if let Some(colon) = colon {
            let name = &first.text[..colon];
            let span = self.span(first.start, first.start + colon);
            let valid = !name.is_empty()
                && name
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !valid {
                self.error(span, format!("`{name}` is not a valid label name"));
                return;
            }
            let rest_start = code[first.start + colon..]
                .find(':')
                .map_or(code.len(), |c| first.start + colon + c + 1);
            let after = code[rest_start..].trim();
            if !after.is_empty() {
                let s = rest_start + code[rest_start..].find(after).unwrap_or(0);
                let sp = self.span(s, s + after.len());
                self.warning(sp, "text after a label is ignored (as the Sim-D assembler does); put the instruction on its own line");
            }
            let index = self.program.instructions.len();
            if let Some(prev) = self.program.labels.get(name) {
                let line = prev.span.line;
                self.error(
                    span,
                    format!("label `{name}` is already defined on line {line}"),
                );
                return;
            }
            self.program.labels.insert(
                name.to_string(),
                Label {
                    name: name.to_string(),
                    index,
                    span,
                },
            );
            return;
        }
        self.instruction(code, &toks);
    }

    fn instruction(&mut self, code: &str, toks: &[Token<'_>]) {
        let Some(first) = toks.first() else { return };
        let text_end = code.trim_end().len();
        let span = self.span(first.start, text_end);
        let (mnemonic, subop_text) = match first.text.split_once('.') {
            Some((m, s)) => (m, Some(s)),
            None => (first.text, None),
        };
        let op = Op::from_name(mnemonic);
        let mut operands = Vec::new();
        for t in &toks[1..] {
            let sp = self.tok_span(t);
            match parse_operand(t.text, sp) {
                Ok(o) => operands.push(o),
                Err(msg) => {
                    self.error(sp, msg);
                    return;
                }
            }
        }
        let mut inst = Instruction {
            index: self.program.instructions.len(),
            mnemonic: mnemonic.to_string(),
            op,
            subop: None,
            subop_text: subop_text.map(str::to_string),
            dst: None,
            srcs: Vec::new(),
            branch_cycle: self.pending_cycle.take(),
            value_bound: None,
            text: code[first.start..text_end].to_string(),
            span,
        };
        if let Some(v) = self.pending_value.take() {
            if op == Some(Op::SMovSsp) {
                inst.value_bound = Some(v);
            } else {
                self.warning(
                    v.span,
                    "spurious value annotation: only a following smovssp uses it",
                );
            }
        }
        let mnem_span = self.span(first.start, first.start + first.text.len());
        match op {
            Some(op) => {
                if !self.assign_operands(op, &mut inst, operands, subop_text, mnem_span) {
                    return;
                }
            }
            None => {
                // A near miss of an instruction that shapes the phases — control flow, a
                // predicate, a DRAM or scratchpad transfer — read generically would drop a
                // branch or a request from the analysis and lower the bound: an error.
                let near =
                    crate::spelling::nearest(mnemonic, Op::ALL.iter().map(|o| o.spec().name), 2)
                        .and_then(|(name, _)| Op::from_name(name));
                let hint = near.map_or(String::new(), |o| {
                    format!(" (did you mean `{}`?)", o.spec().name)
                });
                if let Some(o) = near.filter(|o| {
                    matches!(
                        o.category(),
                        Category::ControlFlow | Category::Predicate | Category::LoadStore
                    )
                }) {
                    self.error(
                        mnem_span,
                        format!(
                            "unknown opcode `{mnemonic}`{hint}: `{}` is a {} instruction, and reading a misspelling of it generically could drop a branch or a memory request from the analysis",
                            o.spec().name,
                            match o.category() {
                                Category::ControlFlow => "control-flow",
                                Category::Predicate => "predicate",
                                _ => "DRAM/scratchpad transfer",
                            }
                        ),
                    );
                    return;
                }
                self.warning(
                    mnem_span,
                    format!("unknown opcode `{mnemonic}`{hint}: parsed generically (first register written, others read) and timed as a scalar instruction"),
                );
                let mut it = operands.into_iter();
                let first = it.next();
                match first {
                    Some(o) if o.register().is_some() => inst.dst = Some(o),
                    Some(o) => inst.srcs.push(Some(o)),
                    None => {}
                }
                inst.srcs.extend(it.map(Some));
            }
        }
        self.program.instructions.push(inst);
    }

    /// Places operands into the destination and source slots of `op`, skipping omittable
    /// slots whose shape does not match (the Sim-D assembler's rule).
    fn assign_operands(
        &mut self,
        op: Op,
        inst: &mut Instruction,
        operands: Vec<Operand>,
        subop_text: Option<&str>,
        mnem_span: Span,
    ) -> bool {
        let spec = op.spec();
        match (subop_text, spec.subops.is_empty()) {
            (Some(s), false) => match spec.subops.iter().position(|x| *x == s && !x.is_empty()) {
                Some(i) => inst.subop = Some(i),
                None => {
                    let list: Vec<&str> = spec
                        .subops
                        .iter()
                        .copied()
                        .filter(|x| !x.is_empty())
                        .collect();
                    self.error(
                        mnem_span,
                        format!(
                            "`{}` has no sub-operation `.{s}` (known: {})",
                            spec.name,
                            list.join(", ")
                        ),
                    );
                    return false;
                }
            },
            (Some(s), true) => {
                self.error(
                    mnem_span,
                    format!("`{}` takes no sub-operation, got `.{s}`", spec.name),
                );
                return false;
            }
            (None, false) if spec.subop_optional => inst.subop = Some(0),
            (None, false) => {
                let list: Vec<&str> = spec.subops.to_vec();
                self.error(
                    mnem_span,
                    format!(
                        "`{}` needs a sub-operation (one of .{})",
                        spec.name,
                        list.join(", .")
                    ),
                );
                return false;
            }
            (None, true) => {}
        }
        let mut it = operands.into_iter();
        if spec.dst & shape::OMIT == 0 {
            match it.next() {
                Some(o) if o.shape() & spec.dst != 0 => inst.dst = Some(o),
                Some(o) => {
                    self.error(
                        o.span,
                        format!("`{}` cannot be the destination of `{}`", o.text, spec.name),
                    );
                    return false;
                }
                None => {
                    self.error(
                        mnem_span,
                        format!("`{}` needs a destination operand", spec.name),
                    );
                    return false;
                }
            }
        }
        let mut slot = 0;
        for o in it {
            loop {
                let Some(&mask) = spec.srcs.get(slot) else {
                    self.error(
                        o.span,
                        format!(
                            "too many operands for `{}` (it takes {} source operands)",
                            spec.name,
                            spec.srcs.len()
                        ),
                    );
                    return false;
                };
                if o.shape() & mask != 0 {
                    inst.srcs.push(Some(o));
                    slot += 1;
                    break;
                }
                if mask & shape::OMIT == 0 {
                    self.error(
                        o.span,
                        format!(
                            "operand {} of `{}` cannot be `{}`",
                            slot + 1,
                            spec.name,
                            o.text
                        ),
                    );
                    return false;
                }
                inst.srcs.push(None);
                slot += 1;
            }
        }
        if let Some(&mask) = spec.srcs.get(slot) {
            if mask & shape::OMIT == 0 {
                self.error(
                    mnem_span,
                    format!(
                        "`{}` needs {} source operand(s), got {slot}",
                        spec.name,
                        spec.srcs.iter().filter(|m| *m & shape::OMIT == 0).count()
                    ),
                );
                return false;
            }
        }
        true
    }
}

/// Parses Sim-D assembly. Never panics; every problem is a located diagnostic. The program
/// is returned whenever the text could be read, together with warnings; callers should treat
/// any error diagnostic as fatal for analysis.
pub fn parse(text: &str, limits: &Limits) -> (Option<Program>, Vec<Diagnostic>) {
    if text.len() > limits.max_input_bytes {
        return (
            None,
            vec![Diagnostic::global(
                crate::diagnostic::Severity::Error,
                format!(
                    "input is {} bytes, over the budget max_input_bytes = {}; raise max_input_bytes to parse it",
                    text.len(),
                    limits.max_input_bytes
                ),
            )],
        );
    }
    let mut p = Parser {
        line_no: 0,
        line: "",
        diags: Vec::new(),
        program: Program::default(),
        pending_cycle: None,
        pending_value: None,
    };
    let mut section = Section::Data;
    for (k, line) in text.lines().enumerate() {
        p.line_no = u32::try_from(k + 1).unwrap_or(u32::MAX);
        p.line = line;
        let code = strip_comment(line);
        let trimmed = code.trim();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(name) = trimmed.strip_prefix('.') {
            let start = code.len() - code.trim_start().len();
            section = match name {
                "data" => Section::Data,
                "sp_data" => Section::SpData,
                "text" => Section::Text,
                other => {
                    let span = p.span(start, start + trimmed.len());
                    p.warning(span, format!("unknown section `.{other}` ignored"));
                    continue;
                }
            };
            continue;
        }
        match section {
            Section::Text => p.text_line(code),
            s => p.data_line(code, s),
        }
        if p.program.instructions.len() > limits.max_instructions {
            let span = p.span(0, line.len());
            p.error(span, format!("more than max_instructions = {} instructions; raise max_instructions to parse this file", limits.max_instructions));
            return (None, p.diags);
        }
    }
    if let Some(c) = p.pending_cycle.take() {
        p.warning(
            c.span,
            "branchcycle annotation with no instruction after it is ignored",
        );
    }
    if let Some(v) = p.pending_value.take() {
        p.warning(
            v.span,
            "value annotation with no instruction after it is ignored",
        );
    }
    // Resolve branch targets.
    let mut unresolved = Vec::new();
    for inst in &p.program.instructions {
        if let Some(op) = inst.op {
            if let Some(src) = inst.src(0) {
                let wants_label = matches!(op, Op::J | Op::Sicj | Op::Bra | Op::Call | Op::CPush);
                match (&src.kind, wants_label) {
                    (super::operand::OperandKind::Label { name }, true)
                        if !p.program.labels.contains_key(name) =>
                    {
                        unresolved.push((src.span, format!("unknown branch target `{name}`")));
                    }
                    (super::operand::OperandKind::Label { .. }, true) => {}
                    (super::operand::OperandKind::Label { name }, false) => {
                        unresolved
                            .push((src.span, format!("`{name}` is not a number or register")));
                    }
                    (_, true) => unresolved.push((
                        src.span,
                        format!(
                            "`{}` needs a label as its branch target, got `{}`",
                            op.name(),
                            src.text
                        ),
                    )),
                    _ => {}
                }
            }
            for s in inst.srcs.iter().skip(1).flatten() {
                if let super::operand::OperandKind::Label { name } = &s.kind {
                    unresolved.push((s.span, format!("`{name}` is not a number or register")));
                }
            }
        }
    }
    for (span, msg) in unresolved {
        p.error(span, msg);
    }
    (Some(p.program), p.diags)
}
