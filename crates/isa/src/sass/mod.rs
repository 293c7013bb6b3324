//! NVIDIA SASS listings (Fermi to Hopper): `cuobjdump -sass`, `nvdisasm` and CuAssembler
//! `.cuasm` output.
//!
//! A file may hold several functions (`Function : name` headers, or `.section .text.name`
//! directives in CuAssembler files and whole `nvdisasm` dumps, whose data sections are
//! skipped: [`nvdisasm`]); the caller names one, by default the first (in a dump, the first
//! kernel entry). Instructions
//! may come without address comments (hand-written teaching kernels): they are then placed
//! 8 bytes apart from address 0, and branch targets may name labels.
//!
//! The front end is strict where a typo could lower a bound: every opcode
//! is looked up in [`isa_table`] (an unknown one is a warning, or an error when it could be
//! control flow: [`opcode_checks`]), operand shapes are checked ([`operand_shapes`]: special
//! registers, memory operands, predicate destinations, register names), branch targets must
//! resolve, and gaps between instruction addresses are reported ([`address_gaps`]).

mod address_gaps;
mod calls;
mod encodings;
pub mod isa_table;
mod line;
mod nvdisasm;
mod opcode_checks;
mod opcodes;
mod operand_shapes;
mod operands;
pub mod register_estimate;
pub mod special_registers;

pub use opcodes::resource_class_of;

use crate::control_bits::ControlBits;
use crate::diagnostic::Diagnostic;
use crate::instruction::{ControlKind, Guard, Instruction, Opcode};
use crate::kernel::{Dialect, Kernel, ParseOutput};
use crate::limits::Limits;
use crate::operand::{Immediate, OperandKind};
use crate::span::Span;
use isa_table::Family;
use std::collections::BTreeMap;

/// Spacing of instructions that come without an address comment.
const SYNTHETIC_STRIDE: u64 = 8;

/// A branch target as written: an address or a label, with where it was written.
#[derive(Debug, Clone)]
enum TargetRef {
    Address(u64, Span),
    Label(String, Span),
}

struct Pending {
    instr: Instruction,
    explicit_address: bool,
    target: Option<TargetRef>,
    /// Encoding words of the function printed before this instruction's line.
    words_before: usize,
}

#[derive(Default)]
struct FunctionText {
    name: String,
    header_line: u32,
    instrs: Vec<Pending>,
    /// Label → index of the next instruction (== instrs.len() when it ends the function).
    labels: Vec<(String, usize, Span)>,
    /// The 64-bit words of its encoding comments, in text order ([`encodings`]).
    words: Vec<u64>,
}

/// Parses SASS text and returns the function named `function` (or the first one).
pub fn parse(text: &str, function: Option<&str>, limits: &Limits) -> ParseOutput {
    let mut diagnostics = Vec::new();
    if text.len() > limits.max_input_bytes {
        diagnostics.push(Diagnostic::error(
            Span::new(1, 1, 0),
            format!(
                "input is {} bytes, over the budget of {} bytes (raise max_input_bytes)",
                text.len(),
                limits.max_input_bytes
            ),
        ));
        return ParseOutput {
            kernel: None,
            functions: Vec::new(),
            diagnostics,
        };
    }
    let mut functions: Vec<FunctionText> = Vec::new();
    let mut sections = nvdisasm::Sections::new();
    let mut arch: Option<String> = None;
    let mut count = 0usize;
    let mut pair_open = false;
    for (idx, raw_line) in text.lines().enumerate() {
        let line_no = u32::try_from(idx + 1).unwrap_or(u32::MAX);
        let line = match raw_line.find("//") {
            Some(p) => &raw_line[..p],
            None => raw_line,
        };
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(name) = function_header(trimmed) {
            sections.leave();
            functions.push(FunctionText {
                name: name.to_string(),
                header_line: line_no,
                ..Default::default()
            });
            continue;
        }
        match sections.line(trimmed) {
            nvdisasm::Step::Pass => {}
            nvdisasm::Step::Skip => continue,
            nvdisasm::Step::Function(name) => {
                functions.push(FunctionText {
                    name: name.to_string(),
                    header_line: line_no,
                    ..Default::default()
                });
                continue;
            }
            nvdisasm::Step::Arch(a) => {
                arch.get_or_insert(a);
                continue;
            }
            nvdisasm::Step::UnknownDirective(word) => {
                let col = line.find(word).unwrap_or(0);
                diagnostics.push(Diagnostic::note(
                    Span::in_line(line_no, line, col, col + word.len()),
                    format!("directive `{word}` in a code section is not read (ignored)"),
                ));
                continue;
            }
        }
        let parts = line::scan(line);
        if let Some((s, e)) = parts.bad_address {
            diagnostics.push(Diagnostic::error(
                Span::in_line(line_no, line, s, e),
                "address comment is not a hexadecimal number",
            ));
            continue;
        }
        if parts.address.is_none() && parts.control_code.is_none() {
            if parts.body.is_none() {
                // An encoding-only line (a control word, a second instruction word) or a
                // lone brace.
                if !parts.encodings.is_empty() {
                    current(&mut functions, line_no)
                        .words
                        .extend(&parts.encodings);
                }
                continue;
            }
            match classify_other(trimmed) {
                Other::Label(name) => {
                    let col = line.find(trimmed).unwrap_or(0);
                    let span = Span::in_line(line_no, line, col, col + name.len());
                    let f = current(&mut functions, line_no);
                    let at = f.instrs.len();
                    f.labels.push((name.to_string(), at, span));
                    continue;
                }
                Other::Arch(a) => {
                    arch.get_or_insert(a);
                    continue;
                }
                Other::Ignored => continue,
                Other::Instruction => {}
                Other::Unknown => {
                    let col = line.find(trimmed).unwrap_or(0);
                    diagnostics.push(Diagnostic::error(
                        Span::in_line(line_no, line, col, line.len()),
                        "unrecognized line: expected an instruction such as `/*0008*/ MOV R1, R2 ;`, \
                         a label, a directive or a `Function :` header",
                    ));
                    continue;
                }
            }
        }
        let Some((bs, be)) = parts.body else {
            let (s, e) = parts
                .address
                .map(|(_, s, e)| (s, e))
                .or(parts.control_code)
                .unwrap_or((0, line.len()));
            diagnostics.push(Diagnostic::error(
                Span::in_line(line_no, line, s, e),
                "address comment without an instruction",
            ));
            continue;
        };
        count += 1;
        if count > limits.max_instructions {
            diagnostics.push(Diagnostic::error(
                Span::in_line(line_no, line, bs, be),
                format!(
                    "more than {} instructions: over the instruction budget (raise max_instructions)",
                    limits.max_instructions
                ),
            ));
            break;
        }
        let sync_flag_allowed = arch.as_deref().is_none_or(is_pre_maxwell);
        match parse_instruction(line, line_no, bs, be, sync_flag_allowed) {
            Ok((mut instr, target)) => {
                let strict = opcode_checks::Target {
                    arch: arch.as_deref(),
                    family: arch.as_deref().and_then(Family::of_arch),
                    sync_flag_allowed,
                };
                opcode_checks::check(&instr, strict, &mut diagnostics);
                operand_shapes::check(&instr, &mut diagnostics);
                instr.address = parts.address.map(|a| a.0).unwrap_or(0);
                instr.control_code = parts.control_code.map(|(s, e)| line[s..e].to_string());
                instr.control_bits = instr
                    .control_code
                    .as_deref()
                    .and_then(ControlBits::from_cuasm);
                instr.annotation = parts.annotation.map(|(s, e)| line[s..e].trim().to_string());
                instr.dual_issued = pair_open && !parts.opens_pair;
                if parts.opens_pair {
                    pair_open = true;
                }
                if parts.closes_pair {
                    pair_open = false;
                }
                let f = current(&mut functions, line_no);
                f.instrs.push(Pending {
                    instr,
                    explicit_address: parts.address.is_some(),
                    target,
                    words_before: f.words.len(),
                });
                f.words.extend(&parts.encodings);
            }
            Err(d) => diagnostics.push(d),
        }
    }

    let names: Vec<String> = functions
        .iter()
        .filter(|f| !f.instrs.is_empty())
        .map(|f| f.name.clone())
        .collect();
    let chosen = match function {
        Some(name) => {
            let found = functions.iter().position(|f| f.name == name);
            if found.is_none() {
                let span = functions
                    .first()
                    .map(|f| Span::new(f.header_line.max(1), 1, 0))
                    .unwrap_or(Span::new(1, 1, 0));
                diagnostics.push(Diagnostic::error(
                    span,
                    format!(
                        "no function named `{name}`; the text has: {}",
                        if names.is_empty() {
                            "none".to_string()
                        } else {
                            names.join(", ")
                        }
                    ),
                ));
            }
            found
        }
        // A dump's device functions come before its kernels when they have sections of their
        // own: the first entry, else the first function.
        None => functions
            .iter()
            .position(|f| !f.instrs.is_empty() && sections.is_entry(&f.name))
            .or_else(|| functions.iter().position(|f| !f.instrs.is_empty())),
    };
    let kernel = match chosen {
        Some(i) => {
            let f = std::mem::take(&mut functions[i]);
            let mut kernel = finish_function(f, arch, &mut diagnostics);
            kernel.resources = sections.resources(&kernel.function);
            Some(kernel)
        }
        None => {
            if function.is_none() && !diagnostics.iter().any(Diagnostic::is_error) {
                diagnostics.push(Diagnostic::error(
                    Span::new(1, 1, 0),
                    "no instructions found: paste a SASS listing (cuobjdump -sass, nvdisasm or .cuasm)",
                ));
            }
            None
        }
    };
    ParseOutput {
        kernel,
        functions: names,
        diagnostics,
    }
}

fn is_pre_maxwell(arch: &str) -> bool {
    arch.strip_prefix("sm_")
        .and_then(|v| v.parse::<u32>().ok())
        .is_some_and(|v| v < 50)
}

fn current(functions: &mut Vec<FunctionText>, line_no: u32) -> &mut FunctionText {
    if functions.is_empty() {
        functions.push(FunctionText {
            name: "kernel".to_string(),
            header_line: line_no,
            ..Default::default()
        });
    }
    let last = functions.len() - 1;
    &mut functions[last]
}

fn function_header(trimmed: &str) -> Option<&str> {
    let rest = trimmed.strip_prefix("Function")?;
    let name = rest.trim_start().strip_prefix(':')?.trim();
    (!name.is_empty()).then_some(name)
}

enum Other<'a> {
    Label(&'a str),
    Arch(String),
    Ignored,
    Instruction,
    Unknown,
}

fn is_label_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'))
}

fn classify_other(trimmed: &str) -> Other<'_> {
    if let Some(name) = trimmed.strip_suffix(':') {
        if is_label_name(name) {
            return Other::Label(name);
        }
    }
    // Directives are read by `nvdisasm::Sections`; a line left here that starts with a dot
    // (`.a-b:`, not a label name) is no instruction either.
    if trimmed.starts_with('.') {
        return Other::Ignored;
    }
    if let Some(rest) = trimmed.strip_prefix("code for ") {
        return Other::Arch(rest.trim().to_string());
    }
    if let Some(rest) = trimmed.strip_prefix("arch = ") {
        return Other::Arch(rest.trim().to_string());
    }
    let is_rule = trimmed.chars().all(|c| matches!(c, '=' | '-' | '.'));
    let is_key_value = trimmed.contains(" = ") && !trimmed.contains(';');
    if is_rule || is_key_value || (trimmed.ends_with("code:") && trimmed.contains(' ')) {
        return Other::Ignored;
    }
    if trimmed == "{" || trimmed == "}" {
        return Other::Ignored;
    }
    let first = trimmed.split_whitespace().next().unwrap_or("");
    let opcode = first
        .strip_prefix('@')
        .map_or(first, |_| trimmed.split_whitespace().nth(1).unwrap_or(""));
    // `EXIT;` — hand-written input often has no space before the semicolon.
    let opcode = opcode.trim_end_matches(';');
    if valid_opcode(opcode) {
        Other::Instruction
    } else {
        Other::Unknown
    }
}

fn valid_opcode(tok: &str) -> bool {
    let mut parts = tok.split('.');
    let Some(name) = parts.next() else {
        return false;
    };
    let name_ok = name.starts_with(|c: char| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    name_ok
        && parts.all(|m| !m.is_empty() && m.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
}

/// Parses `@!P0 OPCODE.MOD op, op, ...` found at `line[bs..be]`.
fn parse_instruction(
    line: &str,
    line_no: u32,
    bs: usize,
    be: usize,
    sync_flag_allowed: bool,
) -> Result<(Instruction, Option<TargetRef>), Diagnostic> {
    let body = &line[bs..be];
    let span_of = |s: usize, e: usize| Span::in_line(line_no, line, bs + s, bs + e);
    let token_end = |from: usize| -> usize {
        body[from..]
            .find(char::is_whitespace)
            .map_or(body.len(), |p| from + p)
    };
    let skip = |from: usize| -> usize {
        body[from..]
            .find(|c: char| !c.is_whitespace())
            .map_or(body.len(), |p| from + p)
    };
    let mut pos = 0;
    let mut guard = None;
    if body.starts_with('@') {
        let end = token_end(0);
        let tok = &body[1..end];
        let (negated, reg_text) = match tok.strip_prefix('!') {
            Some(r) => (true, r),
            None => (false, tok),
        };
        let reg = operands::parse_register(reg_text)
            .filter(|r| r.is_predicate())
            .ok_or_else(|| {
                Diagnostic::error(
                    span_of(0, end),
                    format!(
                        "invalid guard `{}`: expected @P0..@P6, @!Pn or @PT",
                        &body[..end]
                    ),
                )
            })?;
        guard = Some(Guard {
            reg,
            negated,
            span: span_of(0, end),
        });
        pos = skip(end);
    }
    let op_end = token_end(pos);
    let op_text = &body[pos..op_end];
    if !valid_opcode(op_text) {
        let what = if op_text.is_empty() {
            "missing opcode".to_string()
        } else {
            format!("`{op_text}` is not a SASS opcode (expected upper-case letters, digits and `.MODIFIER`s)")
        };
        return Err(Diagnostic::error(span_of(pos, op_end.max(pos + 1)), what));
    }
    let mut pieces = op_text.split('.');
    let opcode = Opcode {
        name: pieces.next().unwrap_or_default().to_string(),
        modifiers: pieces.map(str::to_string).collect(),
        span: span_of(pos, op_end),
    };
    let ops_start = skip(op_end);
    let ops_text = &body[ops_start..];
    let operand_list: Vec<_> = operands::split_operands(ops_text)
        .into_iter()
        .map(|(s, e)| {
            operands::parse_operand(&ops_text[s..e], span_of(ops_start + s, ops_start + e))
        })
        .collect();
    if let Some(empty) = operand_list.iter().find(|o| o.text.is_empty()) {
        return Err(Diagnostic::error(empty.span, "empty operand"));
    }

    let mut control = opcodes::control_kind(&opcode, sync_flag_allowed);
    if opcodes::is_full_warp_sync(&opcode, &operand_list) {
        control = ControlKind::WarpSync;
    }
    if let Some(named) = opcodes::with_barrier(control, &operand_list) {
        control = named.map_err(|why| Diagnostic::error(opcode.span, why))?;
    }
    if opcodes::is_register_indirect_call(&opcode, &operand_list) {
        // `CALL.REL.NOINC R14 0x0`: the callee address is in a register.
        control = ControlKind::Indirect;
    }
    let sync_flag = control == ControlKind::Sync && opcode.name != "SYNC";
    if guard.as_ref().is_some_and(Guard::is_never_true) {
        control = ControlKind::Fallthrough;
    }
    let mut operand_list = operand_list;
    let target = if opcodes::has_code_target(control) {
        // A bare identifier (`BRA loop`, `CAL sub`) names a label in hand-written input.
        for o in operand_list.iter_mut() {
            if let OperandKind::Other { text } = &o.kind {
                if is_label_name(text) {
                    o.kind = OperandKind::Label { name: text.clone() };
                }
            }
        }
        let found = last_code_target(&operand_list);
        if found.is_none() && opcode.name != "JCAL" {
            return Err(Diagnostic::error(
                opcode.span,
                format!("`{}` needs a target address or label", opcode.name),
            ));
        }
        found
    } else if let ControlKind::Bssy { .. } = control {
        // The reconvergence point of a convergence barrier is an instruction too, an address
        // or (hand-written) a label: `BSSY B0, 0x1f0`, `BSSY B0, join`.
        if let Some(o) = operand_list.iter_mut().skip(1).last() {
            if let OperandKind::Other { text } = &o.kind {
                if is_label_name(text) {
                    o.kind = OperandKind::Label { name: text.clone() };
                }
            }
        }
        let found = last_code_target(&operand_list);
        if found.is_none() {
            return Err(Diagnostic::error(
                opcode.span,
                "`BSSY` needs a barrier and a reconvergence address, e.g. `BSSY B0, 0x1f0`",
            ));
        }
        found
    } else {
        None
    };
    let class = opcodes::resource_class(&opcode, control);
    let (mut reads, writes) = opcodes::data_flow(&opcode, &operand_list, guard.as_ref(), class);
    if control == ControlKind::Indirect {
        // `BRX R14 -0x200`, `CALL.REL.NOINC R14 0x0`: the register-plus-offset operand is one
        // token to the operand parser, but the target register is read (threads that disagree
        // on it go to different targets).
        if let Some(r) = opcodes::indirect_target_register(&operand_list) {
            if !reads.contains(&r) {
                reads.push(r);
            }
        }
    }
    let instr = Instruction {
        address: 0,
        guard,
        opcode,
        operands: operand_list,
        writes,
        reads,
        control,
        class,
        sync_flag,
        dual_issued: false,
        control_code: None,
        control_bits: None,
        indirect_targets: Vec::new(),
        annotation: None,
        text: body.to_string(),
        span: span_of(0, body.len()),
    };
    Ok((instr, target))
}

/// The last operand that is a code address or a label: where every control instruction puts
/// its target.
fn last_code_target(operands: &[crate::operand::Operand]) -> Option<TargetRef> {
    operands.iter().rev().find_map(|o| match &o.kind {
        OperandKind::Immediate {
            value: Immediate::Int(v),
        } => Some(TargetRef::Address(*v as u64, o.span)),
        OperandKind::Label { name } => Some(TargetRef::Label(name.clone(), o.span)),
        _ => None,
    })
}

/// Assigns addresses, binds labels and resolves branch targets of one function.
fn finish_function(f: FunctionText, arch: Option<String>, diags: &mut Vec<Diagnostic>) -> Kernel {
    let mut instrs: Vec<Pending> = f.instrs;
    let any_explicit = instrs.iter().any(|p| p.explicit_address);
    let mut next = 0u64;
    let mut synthetic = 0usize;
    for p in instrs.iter_mut() {
        if !p.explicit_address {
            p.instr.address = next;
            synthetic += 1;
        }
        next = p.instr.address.saturating_add(SYNTHETIC_STRIDE);
    }
    if synthetic > 0 {
        let first = instrs.iter().find(|p| !p.explicit_address);
        let span = first.map(|p| p.instr.span).unwrap_or_default();
        let message = if any_explicit {
            format!("{synthetic} instructions without an address comment were placed 8 bytes after their predecessor")
        } else {
            "no address comments: instructions are placed 8 bytes apart from 0x0".to_string()
        };
        diags.push(Diagnostic::note(span, message));
    }
    let refs: Vec<&Instruction> = instrs.iter().map(|p| &p.instr).collect();
    let explicit: Vec<bool> = instrs.iter().map(|p| p.explicit_address).collect();
    let family = arch.as_deref().and_then(Family::of_arch);
    address_gaps::check(&refs, &explicit, family, diags);
    if explicit.iter().all(|e| *e) {
        let addresses: Vec<u64> = instrs.iter().map(|p| p.instr.address).collect();
        let before: Vec<usize> = instrs.iter().map(|p| p.words_before).collect();
        if let Some(bits) = encodings::control_bits(&addresses, &before, &f.words, family) {
            for (p, b) in instrs.iter_mut().zip(bits) {
                p.instr.control_bits = Some(b);
            }
        }
    }
    // Addresses must increase so that an address names one instruction.
    for w in instrs.windows(2) {
        if w[1].instr.address <= w[0].instr.address {
            diags.push(Diagnostic::error(
                w[1].instr.span,
                format!(
                    "address {:#06x} does not follow {:#06x}: listing addresses must increase",
                    w[1].instr.address, w[0].instr.address
                ),
            ));
        }
    }
    let mut labels = BTreeMap::new();
    for (name, at, _span) in &f.labels {
        if let Some(p) = instrs.get(*at) {
            labels.insert(name.clone(), p.instr.address);
        }
    }
    let addresses: std::collections::BTreeSet<u64> =
        instrs.iter().map(|p| p.instr.address).collect();
    let mut out = Vec::with_capacity(instrs.len());
    for mut p in instrs {
        if let Some(t) = p.target.take() {
            let resolved = match t {
                TargetRef::Address(a, span) if opcodes::is_unresolved_call(&p.instr, a) => {
                    diags.push(Diagnostic::warning(
                        span,
                        format!(
                            "`{}` to address {a:#x} is an unresolved relocation: a call to a \
                             runtime function outside the listing (`vprintf`, `__assertfail`, \
                             `malloc`, ...). It is analysed as one instruction that returns: \
                             the callee's own time is not in the bound",
                            p.instr.opcode.name
                        ),
                    ));
                    None
                }
                TargetRef::Address(a, span) => {
                    if addresses.contains(&a) {
                        Some(a)
                    } else if let Some(skip) = control_word_slot(a, &addresses) {
                        Some(skip)
                    } else {
                        diags.push(Diagnostic::error(
                            span,
                            format!(
                                "target {a:#06x} is not the address of an instruction in `{}`",
                                f.name
                            ),
                        ));
                        None
                    }
                }
                TargetRef::Label(name, span) => match labels.get(&name) {
                    Some(&a) => Some(a),
                    None if opcodes::is_unresolved_call(&p.instr, 0) => {
                        // nvdisasm names the symbol a `cuobjdump` listing leaves at 0x0: the
                        // same opaque call, the same warning, with the callee's name.
                        diags.push(Diagnostic::warning(
                            span,
                            format!(
                                "`{}` to `{name}` is an unresolved relocation: a call to a \
                                 function outside this one (a runtime function such as \
                                 `vprintf` or `__assertfail`, or another function of the \
                                 cubin). It is analysed as one instruction that returns: the \
                                 callee's own time is not in the bound",
                                p.instr.opcode.name
                            ),
                        ));
                        None
                    }
                    None if matches!(p.instr.control, ControlKind::Call(_)) => {
                        diags.push(Diagnostic::note(
                            span,
                            format!("call to `{name}` outside this listing is treated as an opaque instruction"),
                        ));
                        None
                    }
                    None => {
                        diags.push(Diagnostic::error(span, format!("unknown label `{name}`")));
                        None
                    }
                },
            };
            p.instr.control = with_target(p.instr.control, resolved);
        }
        if p.instr.control == ControlKind::Indirect && p.instr.opcode.name != "CALL" {
            p.instr.indirect_targets = branch_targets(&p.instr, &labels, &f.name, diags);
        }
        out.push(p.instr);
    }
    calls::read_calls_that_never_return(&mut out, diags);
    Kernel {
        dialect: Dialect::Sass,
        function: f.name,
        arch,
        instructions: out,
        labels,
        resources: None,
    }
}

/// The targets nvdisasm lists for an indirect branch, `(*"BRANCH_TARGETS .L_x_1,.L_x_2"*)`,
/// as addresses; a label the listing does not define is an error.
///
/// A list naming the function's own section label (`.text.NAME`) is not believed: nvdisasm
/// (CUDA 11.8) prints that for sm_90 cubins whose `EIATTR_INDIRECT_BRANCH_TARGETS` entries all
/// sit at offset 0 of the section, while the jump table sends the branch elsewhere. Taking it
/// literally would drop the real successors, so the branch keeps no targets (as in a
/// `cuobjdump` listing, where the analyses ask for them).
fn branch_targets(
    ins: &Instruction,
    labels: &BTreeMap<String, u64>,
    function: &str,
    diags: &mut Vec<Diagnostic>,
) -> Vec<u64> {
    let Some(list) = ins
        .annotation
        .as_deref()
        .and_then(|a| a.trim().strip_prefix("BRANCH_TARGETS"))
    else {
        return Vec::new();
    };
    let section_label = format!(".text.{function}");
    let names: Vec<&str> = list
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    if names.contains(&section_label.as_str()) {
        diags.push(Diagnostic::warning(
            ins.span,
            format!(
                "`{}`: the listed branch target `{section_label}` is the start of the function \
                 (a jump-table entry at offset 0, as nvdisasm prints for some sm_90 cubins), \
                 not a plausible target: the list is not used",
                ins.opcode.name
            ),
        ));
        return Vec::new();
    }
    let mut out = Vec::new();
    for name in names {
        match labels.get(name) {
            Some(&a) if !out.contains(&a) => out.push(a),
            Some(_) => {}
            None => diags.push(Diagnostic::error(
                ins.span,
                format!(
                    "`{}`: branch target `{name}` is not a label of this function",
                    ins.opcode.name
                ),
            )),
        }
    }
    out
}

/// Kepler–Pascal place a scheduling control word at the start of each instruction group
/// (every 0x40 bytes on Kepler, 0x20 on Maxwell/Pascal) and compilers may branch to that slot;
/// the hardware continues at the first instruction after it.
fn control_word_slot(a: u64, addresses: &std::collections::BTreeSet<u64>) -> Option<u64> {
    let next = a.checked_add(8)?;
    (a.is_multiple_of(0x20) && addresses.contains(&next)).then_some(next)
}

fn with_target(kind: ControlKind, t: Option<u64>) -> ControlKind {
    match kind {
        ControlKind::Branch(_) => ControlKind::Branch(t),
        ControlKind::Ssy(_) => ControlKind::Ssy(t),
        ControlKind::Pbk(_) => ControlKind::Pbk(t),
        ControlKind::Pcnt(_) => ControlKind::Pcnt(t),
        ControlKind::Pret(_) => ControlKind::Pret(t),
        ControlKind::Call(_) => ControlKind::Call(t),
        ControlKind::Bssy { barrier, .. } => ControlKind::Bssy { barrier, target: t },
        other => other,
    }
}
