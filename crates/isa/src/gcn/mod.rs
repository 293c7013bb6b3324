//! AMD GCN3 assembly as LLVM/HIP prints it (`clang -save-temps`, `.s`), plus the two PWS
//! instructions `split sA, sB` and `merge` (Klashtorny et al., *Predictable Wavefront
//! Splitting*, §4.1, Fig. 3).
//!
//! What this module *is*: a line-oriented parser into a typed per-dialect representation
//! ([`GcnProgram`]): functions, labels, instructions with opcode, operands, trailing
//! modifiers, register reads/writes, a control classification ([`GcnControl`]: scalar
//! branch, exec branch, jump, end of program, split, merge) and the instruction's effect
//! on the execute mask ([`ExecEffect`]) — the facts from which a wavefront CFG with branch
//! serialisation blocks is built (that lives in the `pws` crate).
//!
//! The front end is strict where control flow is at stake (module `strictness`), because a
//! misread instruction could lower a bound: mnemonics are checked against the GFX8/GFX9
//! table of [`isa_table`]; an unknown one is parsed generically (first operand written, the
//! rest read) with a warning naming it — or is an error, with a "did you mean …?" hint, when
//! it could change control flow, divergence or agreement. Register names and ranges, and the
//! `s_waitcnt` counters, are checked too. Calls are typed ([`GcnControl::Call`],
//! [`GcnControl::TailCall`], [`GcnControl::Return`]; module [`calls`]) and [`link()`] builds
//! a function's image with its callees.
//!
//! What it is *not*: an assembler or a validator of operand types; directives other than
//! the few that delimit functions and sections are skipped, and the `.amdgpu_metadata`
//! YAML block is skipped whole. An `.amdhsa_kernel` descriptor block marks its function
//! as a kernel ([`GcnFunction::kernel`]) and its `.amdhsa_*` directives are kept as
//! numbers ([`GcnFunction::descriptor`]); nothing else in it is read.
//!
//! Syntax handled: comments (`;` and `//` to the end of the line), labels (`BB0_1:`,
//! `.LBB0_1:`, `_Z4Fan1PfS_ii:`), directives, scalar/vector/flat/global/buffer/ds
//! instructions, `s_waitcnt vmcnt(0) lgkmcnt(0)`, register operands (`s[0:1]`, `v[2:3]`,
//! `ttmp4`), named registers (`exec`, `vcc`, `scc`, `m0`, ...), integer and float literals,
//! source modifiers (`-v1`, `|v2|`, `abs(...)`), trailing modifiers (`offset:4`, `glc`).
//! Parsing never panics and is bounded by [`Limits`]; every error is a [`Diagnostic`] with
//! 1-based line and column.

pub mod calls;
mod flow;
pub mod isa_table;
pub mod link;
pub mod metadata;
mod operands;
pub mod program;
mod semantics;
mod spelling;
mod strictness;

use std::collections::{BTreeMap, HashSet};

pub use calls::{parse_reloc, Reloc, RelocKind};
pub use flow::flows;
pub use isa_table::{describe, IsaEntry};
pub use link::{link, Linked};
pub use program::{
    special_register, ExecCondition, ExecEffect, GcnControl, GcnFunction, GcnInstruction,
    GcnModifier, GcnOperand, GcnOperandKind, GcnProgram, GcnReg, GcnUnit, ScalarCondition,
};
pub use semantics::unit;

use crate::diagnostic::{Diagnostic, Severity};
use crate::limits::Limits;
use crate::span::Span;

use operands::{
    is_modifier, parse_modifier, parse_operand, parse_waitcnt, split_top_level, split_words,
};

/// Most diagnostics kept; more would only flood the editor.
const MAX_DIAGNOSTICS: usize = 200;

/// Parses a GCN3 listing. Always returns; look at [`GcnProgram::diagnostics`].
pub fn parse(text: &str, limits: &Limits) -> GcnProgram {
    let mut p = Parser::new(limits);
    if text.len() > limits.max_input_bytes {
        p.diag(Diagnostic::global(
            Severity::Error,
            format!(
                "budget max_input_bytes exceeded: the text has {} bytes, the limit is {} (raise `max_input_bytes`)",
                text.len(),
                limits.max_input_bytes
            ),
        ));
        return p.finish();
    }
    for (i, line) in text.lines().enumerate() {
        let line_no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        if p.stopped {
            break;
        }
        p.line(line_no, line);
    }
    if p.functions.is_empty() && p.current.is_none() && !p.has_error() {
        p.diag(Diagnostic::global(
            Severity::Error,
            "no GCN instructions found (expected a kernel such as `_Z4Fan1PfS_ii:` followed by instructions)",
        ));
    }
    p.finish()
}

struct Parser {
    unknown: strictness::UnknownOpcodes,
    /// Operands that look like misspelt registers, reported at the end unless they turn
    /// out to be symbols of the listing: (word, error).
    suspects: Vec<(String, Diagnostic)>,
    /// Symbols defined by `.set`/`.equ` (labels and declared names are known otherwise).
    symbols: HashSet<String>,
    /// Names given to `.amdhsa_kernel` / `.amdgpu_hsa_kernel`.
    kernels: Vec<String>,
    /// The `.amdhsa_kernel` block being read, by kernel name.
    in_descriptor: Option<String>,
    /// Every descriptor block's `.amdhsa_*` directives, by kernel name.
    descriptors: BTreeMap<String, BTreeMap<String, u64>>,
    max_instructions: usize,
    instruction_count: usize,
    target: Option<String>,
    functions: Vec<GcnFunction>,
    current: Option<GcnFunction>,
    declared: Vec<String>,
    pending_labels: Vec<(String, Span)>,
    pending_block_comment: Option<String>,
    in_text: bool,
    skip_until: Option<&'static str>,
    diagnostics: Vec<Diagnostic>,
    stopped: bool,
}

impl Parser {
    fn new(limits: &Limits) -> Self {
        Parser {
            unknown: strictness::UnknownOpcodes::default(),
            suspects: Vec::new(),
            symbols: HashSet::new(),
            kernels: Vec::new(),
            in_descriptor: None,
            descriptors: BTreeMap::new(),
            max_instructions: limits.max_instructions,
            instruction_count: 0,
            target: None,
            functions: Vec::new(),
            current: None,
            declared: Vec::new(),
            pending_labels: Vec::new(),
            pending_block_comment: None,
            in_text: true,
            skip_until: None,
            diagnostics: Vec::new(),
            stopped: false,
        }
    }

    fn has_error(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    fn diag(&mut self, d: Diagnostic) {
        if self.diagnostics.len() < MAX_DIAGNOSTICS {
            self.diagnostics.push(d);
        }
    }

    fn finish(mut self) -> GcnProgram {
        self.end_function();
        for f in &mut self.functions {
            resolve_targets(f, &mut self.diagnostics);
            calls::resolve_calls(f);
            f.kernel = self.kernels.contains(&f.name);
            f.descriptor = self.descriptors.remove(&f.name).unwrap_or_default();
        }
        // Misspelt registers, unless the word is a symbol of the listing after all.
        let mut known = std::mem::take(&mut self.symbols);
        known.extend(self.declared.iter().cloned());
        for f in &self.functions {
            known.insert(f.name.clone());
            known.extend(f.labels.keys().cloned());
        }
        for (word, d) in std::mem::take(&mut self.suspects) {
            if !known.contains(&word) {
                self.diag(d);
            }
        }
        self.diagnostics.truncate(MAX_DIAGNOSTICS);
        GcnProgram {
            target: self.target,
            functions: self.functions,
            diagnostics: self.diagnostics,
        }
    }

    fn end_function(&mut self) {
        if let Some(f) = self.current.take() {
            self.functions.push(f);
        }
        self.pending_labels.clear();
        self.pending_block_comment = None;
    }

    fn start_function(&mut self, name: String, span: Span) {
        self.end_function();
        self.current = Some(GcnFunction {
            name,
            span,
            instructions: Vec::new(),
            labels: BTreeMap::new(),
            label_spans: BTreeMap::new(),
            block_comments: BTreeMap::new(),
            kernel: false,
            descriptor: BTreeMap::new(),
        });
    }

    fn line(&mut self, line_no: u32, line: &str) {
        let (code_end, comment) = split_comment(line);
        let code = &line[..code_end];
        let trimmed = code.trim();
        if let Some(end) = self.skip_until {
            if trimmed.starts_with(end) {
                self.skip_until = None;
                self.in_descriptor = None;
            } else if let Some(kernel) = &self.in_descriptor {
                // `.amdhsa_<field> <value>`: one directive of the kernel descriptor.
                let mut words = trimmed.split_whitespace();
                if let (Some(key), Some(value)) = (words.next(), words.next()) {
                    if let (true, Some(v)) = (
                        key.starts_with(".amdhsa_"),
                        crate::number::parse_uint(value),
                    ) {
                        self.descriptors
                            .entry(kernel.clone())
                            .or_default()
                            .insert(key.to_string(), v);
                    }
                }
            }
            return;
        }
        if trimmed.is_empty() {
            if let Some(c) = comment {
                let c = c.trim_start_matches([';', '/']).trim();
                if let Some(rest) = c.strip_prefix("%bb.") {
                    let name = rest
                        .split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                        .next()
                        .unwrap_or_default();
                    self.pending_block_comment = Some(format!("%bb.{name}"));
                }
            }
            return;
        }
        let mut rest_start = code.len() - code.trim_start().len();
        // Labels (possibly several, possibly followed by an instruction).
        loop {
            let rest = &code[rest_start..];
            let Some(len) = label_len(rest) else { break };
            let name = &rest[..len];
            let span = Span::in_line(line_no, line, rest_start, rest_start + len);
            self.label(name, span);
            rest_start += len + 1;
            rest_start += code[rest_start..].len() - code[rest_start..].trim_start().len();
        }
        let rest = &code[rest_start..];
        if rest.trim().is_empty() {
            return;
        }
        if rest.starts_with('.') {
            self.directive(rest.trim_end(), line_no, line, rest_start);
            return;
        }
        if !self.in_text {
            return;
        }
        self.instruction(rest.trim_end(), rest_start, line_no, line);
    }

    fn label(&mut self, name: &str, span: Span) {
        let is_function = self.declared.iter().any(|d| d == name);
        let alias = self
            .current
            .as_ref()
            .is_some_and(|f| name.strip_suffix("$local") == Some(f.name.as_str()));
        if name.starts_with(".Lfunc_end") {
            return;
        }
        if is_function && !alias {
            self.start_function(name.to_string(), span);
            return;
        }
        match self.current.as_mut() {
            Some(f) => {
                let at = f.instructions.len();
                f.labels.insert(name.to_string(), at);
                f.label_spans.insert(name.to_string(), span);
            }
            None => self.pending_labels.push((name.to_string(), span)),
        }
    }

    fn directive(&mut self, text: &str, line_no: u32, line: &str, start: usize) {
        let (name, args) = match text.find(char::is_whitespace) {
            Some(i) => (&text[..i], text[i..].trim()),
            None => (text, ""),
        };
        match name {
            ".amdgpu_metadata" => self.skip_until = Some(".end_amdgpu_metadata"),
            ".amdhsa_kernel" => {
                self.kernels.push(args.trim().to_string());
                self.in_descriptor = Some(args.trim().to_string());
                self.skip_until = Some(".end_amdhsa_kernel");
            }
            ".amdgpu_hsa_kernel" => self.kernels.push(args.trim().to_string()),
            ".set" | ".equ" | ".equiv" => {
                if let Some((sym, _)) = args.split_once(',') {
                    self.symbols.insert(sym.trim().to_string());
                }
            }
            ".text" => self.in_text = true,
            ".section" => {
                let sec = args.split([',', ' ', '\t']).next().unwrap_or_default();
                self.in_text = sec.starts_with(".text");
                if !self.in_text {
                    self.end_function();
                }
            }
            ".type" => {
                if let Some((sym, kind)) = args.split_once(',') {
                    if kind.trim().trim_start_matches(['@', '%']) == "function" {
                        self.declared.push(sym.trim().to_string());
                    }
                }
            }
            ".globl" | ".global" => {
                let sym = args.trim();
                if !sym.is_empty() {
                    self.declared.push(sym.to_string());
                }
            }
            ".amdgcn_target" => {
                self.target = Some(args.trim_matches('"').to_string());
            }
            _ => {
                let _ = (line_no, line, start);
            }
        }
    }

    fn instruction(&mut self, text: &str, start: usize, line_no: u32, line: &str) {
        if self.instruction_count >= self.max_instructions {
            let span = Span::in_line(line_no, line, start, start + text.len());
            self.diag(Diagnostic::error(
                span,
                format!(
                    "budget max_instructions exceeded: more than {} instructions (raise `max_instructions`)",
                    self.max_instructions
                ),
            ));
            self.stopped = true;
            return;
        }
        let span = Span::in_line(line_no, line, start, start + text.len());
        if self.current.is_none() {
            let name = self
                .pending_labels
                .first()
                .map_or_else(|| "kernel".to_string(), |(n, _)| n.clone());
            let pending = std::mem::take(&mut self.pending_labels);
            self.start_function(name, span);
            if let Some(f) = self.current.as_mut() {
                for (n, s) in pending {
                    f.labels.insert(n.clone(), 0);
                    f.label_spans.insert(n, s);
                }
            }
        }
        let mnemonic_len = text.find(char::is_whitespace).unwrap_or(text.len());
        let mnemonic = &text[..mnemonic_len];
        let opcode_span = Span::in_line(line_no, line, start, start + mnemonic_len);
        if mnemonic.is_empty()
            || !mnemonic
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
            || mnemonic.starts_with(|c: char| c.is_ascii_digit())
        {
            self.diag(Diagnostic::error(
                opcode_span,
                format!("expected an instruction mnemonic, found `{mnemonic}`"),
            ));
            return;
        }
        let opcode = mnemonic.to_ascii_lowercase();
        let op_text = &text[mnemonic_len..];
        let op_start = start + mnemonic_len;
        let mut operands = Vec::new();
        let mut modifiers = Vec::new();
        let mut errors = Vec::new();
        if !op_text.trim().is_empty() {
            if opcode == "s_waitcnt" {
                let lead = op_text.len() - op_text.trim_start().len();
                match parse_waitcnt(op_text.trim(), op_start + lead, line_no, line) {
                    Ok(o) => operands.push(o),
                    Err(d) => errors.push(d),
                }
            } else {
                let label_op = semantics::takes_label(&opcode);
                for (pi, piece) in split_top_level(op_text, op_start).into_iter().enumerate() {
                    if piece.text.is_empty() {
                        errors.push(Diagnostic::error(
                            Span::in_line(line_no, line, piece.start, piece.start),
                            "empty operand",
                        ));
                        continue;
                    }
                    for (wi, word) in split_words(piece).into_iter().enumerate() {
                        if (wi > 0 || pi > 0) && is_modifier(word.text) {
                            modifiers.push(parse_modifier(word, line_no, line));
                            continue;
                        }
                        match parse_operand(word, line_no, line, label_op && pi == 0 && wi == 0) {
                            Ok(o) => operands.push(o),
                            Err(d) => errors.push(d),
                        }
                    }
                }
            }
        }
        match opcode.as_str() {
            "split" => {
                let ok = operands.len() == 2
                    && operands
                        .iter()
                        .all(|o| matches!(o.kind, GcnOperandKind::Sgpr { .. }));
                if !ok {
                    errors.push(Diagnostic::error(
                        span,
                        "`split` takes two scalar registers holding the split mask, e.g. `split s0, s1` (PWS §4.1, Fig. 3)",
                    ));
                }
            }
            "merge" if !operands.is_empty() => errors.push(Diagnostic::error(
                span,
                "`merge` takes no operands (PWS §4.1, Fig. 3)",
            )),
            _ => {}
        }
        if semantics::takes_label(&opcode) && operands.is_empty() {
            errors.push(Diagnostic::error(
                span,
                format!("`{opcode}` needs a target label"),
            ));
        }
        let had_errors = !errors.is_empty();
        for e in errors {
            self.diag(e);
        }
        if had_errors {
            return;
        }
        let target = operands.first().and_then(|o| match &o.kind {
            GcnOperandKind::Label { name } if semantics::takes_label(&opcode) => Some(name.clone()),
            _ => None,
        });
        let control = semantics::control(&opcode, target.as_deref());
        let exec_effect = semantics::exec_effect(&opcode, &operands);
        let unit = semantics::unit(&opcode);
        let (mut reads, writes) = semantics::data_flow(&opcode, &operands, &control);
        if semantics::sdwa_preserves(&opcode, &modifiers) {
            // The destination's unselected bits are kept: it is read as well.
            if let Some(d) = operands.first() {
                reads.extend(d.registers());
                reads.sort();
                reads.dedup();
            }
        }
        // The strict front end (module `strictness`): unknown opcodes, misspelt registers.
        if isa_table::lookup(&opcode).is_none() {
            match self.unknown.judge(&opcode, &writes) {
                strictness::Verdict::Warning(m) => self.diag(Diagnostic::warning(opcode_span, m)),
                strictness::Verdict::Error(m) => {
                    self.diag(Diagnostic::error(opcode_span, m));
                    return;
                }
            }
        }
        for o in &operands {
            if let GcnOperandKind::Expr { text } = &o.kind {
                if let Some(m) = strictness::misspelt_register(text) {
                    if self.suspects.len() < MAX_DIAGNOSTICS {
                        self.suspects
                            .push((text.clone(), Diagnostic::error(o.span, m)));
                    }
                }
            }
        }
        self.instruction_count += 1;
        let block_comment = self.pending_block_comment.take();
        if let Some(f) = self.current.as_mut() {
            if let Some(c) = block_comment {
                f.block_comments.insert(f.instructions.len(), c);
            }
            f.instructions.push(GcnInstruction {
                opcode,
                opcode_span,
                operands,
                modifiers,
                reads,
                writes,
                control,
                exec_effect,
                unit,
                text: text.to_string(),
                span,
            });
        }
    }
}

/// Byte index where the comment starts (or the line length) and the comment text.
fn split_comment(line: &str) -> (usize, Option<&str>) {
    let mut in_string = false;
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'"' => in_string = !in_string,
            b';' if !in_string => return (i, Some(&line[i..])),
            b'/' if !in_string && bytes.get(i + 1) == Some(&b'/') => return (i, Some(&line[i..])),
            _ => {}
        }
    }
    (line.len(), None)
}

/// Length of a label name if `s` starts with `name:` (the colon right after the name).
fn label_len(s: &str) -> Option<usize> {
    let mut len = 0;
    for c in s.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$' | '%') {
            len += c.len_utf8();
        } else {
            break;
        }
    }
    if len == 0 || !s[len..].starts_with(':') || s[len..].starts_with("::") {
        return None;
    }
    Some(len)
}

/// Resolves every branch target of `f` to an instruction index, reporting unknown labels.
fn resolve_targets(f: &mut GcnFunction, diagnostics: &mut Vec<Diagnostic>) {
    for ins in &mut f.instructions {
        let Some(name) = ins.control.target().map(str::to_string) else {
            continue;
        };
        let idx = f.labels.get(&name).copied();
        if idx.is_none() && diagnostics.len() < MAX_DIAGNOSTICS {
            let span = ins.operands.first().map_or(ins.span, |o| o.span);
            diagnostics.push(Diagnostic::error(
                span,
                format!("undefined label `{name}` in function `{}`", f.name),
            ));
        }
        match &mut ins.control {
            GcnControl::ScalarBranch { target_index, .. }
            | GcnControl::ExecBranch { target_index, .. }
            | GcnControl::Jump { target_index, .. } => *target_index = idx,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fig. 1a of the PWS paper, in real mnemonics (the paper writes `s_cmp_le`, `v_add`).
    const FIG1A: &str = "BB0:\n  s_cmp_le_i32 s0, 0\n  s_cbranch_scc1 BB2\nBB1:\n  v_add_u32_e32 v0, vcc, 1, v0\nBB2:\n  s_endpgm\n";

    #[test]
    fn fig1a_kernel_parses_with_a_scalar_branch() {
        let p = parse(FIG1A, &Limits::default());
        assert!(!p.has_errors(), "{:?}", p.diagnostics);
        let f = &p.functions[0];
        assert_eq!(f.instructions.len(), 4);
        assert_eq!(
            f.instructions[1].control,
            GcnControl::ScalarBranch {
                condition: ScalarCondition::Scc1,
                target: "BB2".into(),
                target_index: Some(3)
            }
        );
        assert_eq!(f.instructions[1].reads, vec![GcnReg::Scc]);
        assert_eq!(f.instructions[0].writes, vec![GcnReg::Scc]);
        assert_eq!(f.instructions[3].control, GcnControl::EndProgram);
    }

    #[test]
    fn split_merge_and_exec_effects() {
        let text = "k:\n v_cmp_gt_u32_e32 vcc, 32, v0\n split s0, s1\n s_and_saveexec_b64 s[2:3], vcc\n s_xor_b64 s[2:3], exec, s[2:3]\n s_cbranch_execz BB0_2\n v_mov_b32 v1, 0\nBB0_2:\n s_or_saveexec_b64 s[2:3], s[2:3]\n s_xor_b64 exec, exec, s[2:3]\n s_or_b64 exec, exec, s[2:3]\n merge\n s_endpgm\n";
        let p = parse(text, &Limits::default());
        assert!(!p.has_errors(), "{:?}", p.diagnostics);
        let ins = &p.functions[0].instructions;
        assert_eq!(ins[1].control, GcnControl::Split);
        assert_eq!(ins[2].exec_effect, ExecEffect::Narrow);
        assert_eq!(ins[3].exec_effect, ExecEffect::None);
        assert!(matches!(
            ins[4].control,
            GcnControl::ExecBranch {
                condition: ExecCondition::Execz,
                target_index: Some(6),
                ..
            }
        ));
        assert_eq!(ins[6].exec_effect, ExecEffect::Flip);
        assert_eq!(ins[7].exec_effect, ExecEffect::Flip);
        assert_eq!(ins[8].exec_effect, ExecEffect::Restore);
        assert_eq!(ins[9].control, GcnControl::Merge);
        // s_and_saveexec reads vcc and exec, writes s[2:3], exec and scc.
        assert_eq!(ins[2].reads, vec![GcnReg::Exec, GcnReg::Vcc]);
        assert_eq!(
            ins[2].writes,
            vec![GcnReg::Sgpr(2), GcnReg::Sgpr(3), GcnReg::Exec, GcnReg::Scc]
        );
    }

    #[test]
    fn operands_modifiers_and_waitcnt() {
        let text = "k:\n ds_write_b32 v1, v7 offset:4\n s_waitcnt vmcnt(0) lgkmcnt(0)\n flat_load_dword v5, v[2:3] glc\n s_endpgm\n";
        let p = parse(text, &Limits::default());
        assert!(!p.has_errors(), "{:?}", p.diagnostics);
        let ins = &p.functions[0].instructions;
        assert_eq!(ins[0].modifiers[0].name, "offset");
        assert_eq!(ins[0].modifiers[0].value.as_deref(), Some("4"));
        assert!(ins[0].writes.is_empty(), "a store writes no register");
        assert_eq!(
            ins[1].operands[0].kind,
            GcnOperandKind::Waitcnt {
                vmcnt: Some(0),
                expcnt: None,
                lgkmcnt: Some(0)
            }
        );
        assert_eq!(ins[2].modifiers[0].name, "glc");
        assert_eq!(ins[2].writes, vec![GcnReg::Vgpr(5)]);
    }

    #[test]
    fn sdwa_preserve_reads_the_destination() {
        let text = "k:\n v_or_b32_sdwa v15, v26, v27 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE\n v_or_b32_sdwa v15, v26, v27 dst_sel:WORD_1 dst_unused:UNUSED_PAD\n v_or_b32_sdwa v15, v26, v27 dst_sel:BYTE_0\n s_endpgm\n";
        let p = parse(text, &Limits::default());
        assert!(!p.has_errors(), "{:?}", p.diagnostics);
        let ins = &p.functions[0].instructions;
        assert!(ins[0].reads.contains(&GcnReg::Vgpr(15)));
        assert!(!ins[1].reads.contains(&GcnReg::Vgpr(15)));
        assert!(
            ins[2].reads.contains(&GcnReg::Vgpr(15)),
            "preserve is the default"
        );
    }

    #[test]
    fn sdwa_selects_and_sext_operands() {
        // hipcc output for gfx803 (rodinia dwt2d, RecursiveGaussian).
        let text = "k:\n v_lshrrev_b16_sdwa v7, v5, sext(v4) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_0\n v_cvt_i32_f32_sdwa v25, v1 dst_sel:BYTE_1 dst_unused:UNUSED_PAD src0_sel:DWORD\n s_endpgm\n";
        let p = parse(text, &Limits::default());
        assert!(!p.has_errors(), "{:?}", p.diagnostics);
        let ins = &p.functions[0].instructions;
        assert_eq!(ins[0].operands.len(), 3);
        assert_eq!(
            ins[0].operands[2].kind,
            GcnOperandKind::Vgpr { first: 4, count: 1 }
        );
        assert!(ins[0].operands[2].sext && !ins[0].operands[1].sext);
        assert!(ins[0].reads.contains(&GcnReg::Vgpr(4)));
        let m: Vec<_> = ins[0]
            .modifiers
            .iter()
            .map(|m| (m.name.as_str(), m.value.as_deref()))
            .collect();
        assert_eq!(
            m,
            vec![
                ("dst_sel", Some("DWORD")),
                ("dst_unused", Some("UNUSED_PAD")),
                ("src0_sel", Some("DWORD")),
                ("src1_sel", Some("BYTE_0")),
            ]
        );
        assert_eq!(ins[1].operands.len(), 2);
        assert_eq!(ins[1].modifiers[0].value.as_deref(), Some("BYTE_1"));
    }

    #[test]
    fn errors_are_located() {
        let p = parse(
            "k:\n s_branch NOWHERE\n v_mov_b32 v[3:1], 0\n",
            &Limits::default(),
        );
        let lines: Vec<(u32, u32)> = p.diagnostics.iter().map(|d| (d.line, d.column)).collect();
        assert!(lines.contains(&(2, 11)), "{:?}", p.diagnostics);
        assert!(lines.contains(&(3, 12)), "{:?}", p.diagnostics);
    }

    #[test]
    fn local_labels_and_block_comments() {
        let text = "\t.globl f\n\t.type f,@function\nf:\n; %bb.0:\n s_cbranch_scc1 .LBB0_2\n; %bb.1:                                ; %Flow\n s_nop 0\n.LBB0_2:\n s_endpgm\n.Lfunc_end0:\n";
        let p = parse(text, &Limits::default());
        assert!(!p.has_errors(), "{:?}", p.diagnostics);
        let f = &p.functions[0];
        assert_eq!(f.name, "f");
        assert_eq!(f.labels.get(".LBB0_2"), Some(&2));
        assert_eq!(f.instructions[0].control.target_index(), Some(2));
        assert_eq!(f.block_comments.get(&1).map(String::as_str), Some("%bb.1"));
        assert_eq!(f.block_comments.get(&0).map(String::as_str), Some("%bb.0"));
    }

    /// The descriptor block of `k` (after its code, in `.rodata`, as LLVM prints it) is
    /// read into `k`'s `descriptor`; another kernel's block does not apply to it.
    #[test]
    fn amdhsa_descriptor_is_read_once_into_the_function() {
        let text = "\t.globl k\n\t.type k,@function\nk:\n s_endpgm\n.Lfunc_end0:\n\
                    \t.section\t.rodata,#alloc\n\t.amdhsa_kernel k\n\
                    \t\t.amdhsa_user_sgpr_dispatch_ptr 1 ; comment\n\
                    \t\t.amdhsa_group_segment_fixed_size 2048\n\
                    \t\t.amdhsa_system_vgpr_workitem_id 0x2\n\
                    \t\t.amdhsa_float_round_mode_32 symbolic\n\
                    \t.end_amdhsa_kernel\n\t.amdhsa_kernel other\n\
                    \t\t.amdhsa_user_sgpr_queue_ptr 1\n\t.end_amdhsa_kernel\n";
        let p = parse(text, &Limits::default());
        assert!(!p.has_errors(), "{:?}", p.diagnostics);
        let k = p.function(Some("k")).expect("k");
        assert!(k.kernel);
        let want: BTreeMap<String, u64> = [
            (".amdhsa_user_sgpr_dispatch_ptr", 1),
            (".amdhsa_group_segment_fixed_size", 2048),
            (".amdhsa_system_vgpr_workitem_id", 2),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        assert_eq!(k.descriptor, want);
        assert_eq!(link(&p, k).function.descriptor, want);
    }

    #[test]
    fn unknown_opcodes_parse_generically() {
        let p = parse(
            "k:\n v_future_op_b32 v1, s[2:3], v4\n s_endpgm\n",
            &Limits::default(),
        );
        assert!(!p.has_errors(), "{:?}", p.diagnostics);
        assert_eq!(p.diagnostics.len(), 1, "one warning: {:?}", p.diagnostics);
        assert!(p.diagnostics[0]
            .message
            .contains("unknown opcode `v_future_op_b32`: treated generically"));
        let i = &p.functions[0].instructions[0];
        assert_eq!(i.opcode, "v_future_op_b32");
        assert_eq!(i.unit, GcnUnit::Valu);
        assert_eq!(i.writes, vec![GcnReg::Vgpr(1)]);
        assert_eq!(
            i.reads,
            vec![
                GcnReg::Sgpr(2),
                GcnReg::Sgpr(3),
                GcnReg::Vgpr(4),
                GcnReg::Exec
            ]
        );
    }

    #[test]
    fn instruction_budget_is_enforced() {
        let limits = Limits {
            max_instructions: 2,
            ..Limits::default()
        };
        let p = parse("k:\n s_nop 0\n s_nop 0\n s_nop 0\n", &limits);
        assert!(p
            .diagnostics
            .iter()
            .any(|d| d.message.contains("max_instructions")));
    }
}
