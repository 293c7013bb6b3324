//! Dispatch from a [`Request`] to the analyses, and shaping of their results.

use crate::catalog::{catalog, DEFAULT_MODE};
use crate::params;
use crate::report::{CfgEdge, CfgNode, CfgView, InstructionView, KernelView, Report};
use crate::request::Request;
use crate::SCHEMA_VERSION;
use isa::{blocks, BlockGraph, ControlKind, Diagnostic, Dialect, Kernel, Limits, Severity};
use std::collections::BTreeMap;
use web_time::Instant;

/// Runs the request. Never panics on any input: every problem becomes a diagnostic.
pub fn analyze(request: &Request) -> Report {
    let started = Instant::now();
    let mode = request
        .mode
        .clone()
        .unwrap_or_else(|| DEFAULT_MODE.to_string());
    let mut report = Report {
        schema_version: SCHEMA_VERSION,
        mode: mode.clone(),
        dialect: request.dialect,
        diagnostics: Vec::new(),
        kernel: None,
        cfg: None,
        timings_ms: BTreeMap::new(),
    };
    let diags = &mut report.diagnostics;
    if request.schema_version != SCHEMA_VERSION {
        diags.push(Diagnostic::global(
            Severity::Error,
            format!(
                "request schema_version {} is not supported (this build speaks {SCHEMA_VERSION})",
                request.schema_version
            ),
        ));
    }
    let cat = catalog();
    let Some(info) = cat.mode(&mode) else {
        let names: Vec<&str> = cat.modes.iter().map(|m| m.name.as_str()).collect();
        diags.push(Diagnostic::global(
            Severity::Error,
            format!("unknown mode `{mode}` (available: {})", names.join(", ")),
        ));
        return finish(report, started);
    };
    if let Some(preset) = &request.preset {
        if !info.presets.iter().any(|p| &p.name == preset) {
            let names: Vec<&str> = info.presets.iter().map(|p| p.name.as_str()).collect();
            diags.push(Diagnostic::global(
                Severity::Error,
                format!(
                    "mode `{mode}` has no preset `{preset}` (available: {})",
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                ),
            ));
        }
    }
    if !info.dialects.iter().any(|d| d == request.dialect.name()) {
        diags.push(Diagnostic::global(
            Severity::Error,
            format!(
                "dialect `{}` is not supported by mode `{mode}` yet (supported: {})",
                request.dialect.name(),
                info.dialects.join(", ")
            ),
        ));
    }
    let p = params::resolve(&info.params, &request.params, &mode, diags);
    if diags.iter().any(Diagnostic::is_error) {
        return finish(report, started);
    }
    let limits = Limits {
        max_input_bytes: p.get_usize("max_input_bytes"),
        max_instructions: p.get_usize("max_instructions"),
        max_cfg_states: p.get_usize("max_cfg_states"),
    };

    let t = Instant::now();
    let parsed = match request.dialect {
        Dialect::Sass => isa::sass::parse(&request.source, request.function.as_deref(), &limits),
        // Unreachable while the catalogue lists only SASS for every mode.
        other => {
            diags.push(Diagnostic::global(
                Severity::Error,
                format!("no parser for dialect `{}` yet", other.name()),
            ));
            return finish(report, started);
        }
    };
    report.timings_ms.insert("parse".into(), ms(t));
    let parse_failed = parsed.has_errors();
    report.diagnostics.extend(parsed.diagnostics);
    let Some(kernel) = parsed.kernel else {
        return finish(report, started);
    };
    let mut view = kernel_view(&kernel, parsed.functions);
    if !parse_failed {
        let t = Instant::now();
        let graph = blocks::build(&kernel, &limits);
        report.timings_ms.insert("cfg".into(), ms(t));
        report.diagnostics.extend(graph.diagnostics.iter().cloned());
        for ins in view.instructions.iter_mut() {
            ins.block = graph.block_of(ins.index);
        }
        let t = Instant::now();
        report.cfg = Some(cfg_view(&kernel, &graph));
        report.timings_ms.insert("layout".into(), ms(t));
    }
    report.kernel = Some(view);
    finish(report, started)
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn finish(mut report: Report, started: Instant) -> Report {
    report
        .diagnostics
        .sort_by_key(|d| (d.line, d.column, d.severity));
    report.diagnostics.dedup();
    report.timings_ms.insert("total".into(), ms(started));
    report
}

fn control_name(c: ControlKind) -> &'static str {
    match c {
        ControlKind::Fallthrough => "fallthrough",
        ControlKind::Branch(_) => "branch",
        ControlKind::Ssy(_) => "ssy",
        ControlKind::Pbk(_) => "pbk",
        ControlKind::Pcnt(_) => "pcnt",
        ControlKind::Pret(_) => "pret",
        ControlKind::Sync => "sync",
        ControlKind::Brk => "brk",
        ControlKind::Cont => "cont",
        ControlKind::Exit => "exit",
        ControlKind::Call(_) => "call",
        ControlKind::Ret => "ret",
        ControlKind::Barrier => "barrier",
        ControlKind::Indirect => "indirect",
    }
}

fn kernel_view(kernel: &Kernel, functions: Vec<String>) -> KernelView {
    let instructions = kernel
        .instructions
        .iter()
        .enumerate()
        .map(|(index, ins)| {
            let mut opcode = ins.opcode.name.clone();
            for m in &ins.opcode.modifiers {
                opcode.push('.');
                opcode.push_str(m);
            }
            InstructionView {
                index,
                address: ins.address,
                line: ins.span.line,
                column: ins.span.column,
                text: ins.text.clone(),
                guard: ins
                    .guard
                    .as_ref()
                    .map(|g| format!("@{}{}", if g.negated { "!" } else { "" }, g.reg)),
                opcode,
                operands: ins.operands.iter().map(|o| o.text.clone()).collect(),
                reads: ins.reads.iter().map(ToString::to_string).collect(),
                writes: ins.writes.iter().map(ToString::to_string).collect(),
                control: control_name(ins.control).into(),
                target: ins.control.target(),
                class: ins.class,
                block: None,
            }
        })
        .collect();
    KernelView {
        function: kernel.function.clone(),
        functions,
        arch: kernel.arch.clone(),
        instructions,
    }
}

/// Pixel metrics the layout uses to size node boxes for their labels (monospace 12px text).
const CHAR_WIDTH: f64 = 7.4;
const LINE_HEIGHT: f64 = 16.0;
const NODE_PADDING: f64 = 10.0;

fn cfg_view(kernel: &Kernel, graph: &BlockGraph) -> CfgView {
    let nodes: Vec<CfgNode> = graph
        .blocks
        .iter()
        .map(|b| {
            let n = b.len();
            CfgNode {
                id: b.id,
                start: b.start,
                end: b.end,
                instructions: n,
                first: b.first,
                last: b.last,
                line_start: kernel.instructions[b.first].span.line,
                line_end: kernel.instructions[b.last].span.line,
                reachable: b.reachable,
                label: vec![
                    format!("B{}  {:#06x}–{:#06x}", b.id, b.start, b.end),
                    format!(
                        "{n} instr · {}",
                        kernel.instructions[b.last].opcode.name.to_lowercase()
                    ),
                ],
            }
        })
        .collect();
    let edges: Vec<CfgEdge> = graph
        .edges()
        .into_iter()
        .map(|(from, to, kind)| CfgEdge { from, to, kind })
        .collect();
    let sizes: Vec<layout::NodeSize> = nodes
        .iter()
        .map(|n| {
            let chars = n.label.iter().map(|l| l.chars().count()).max().unwrap_or(0);
            layout::NodeSize {
                width: chars as f64 * CHAR_WIDTH + 2.0 * NODE_PADDING,
                height: n.label.len() as f64 * LINE_HEIGHT + NODE_PADDING,
            }
        })
        .collect();
    let pairs: Vec<(usize, usize)> = edges.iter().map(|e| (e.from, e.to)).collect();
    let drawing = layout::layered(&sizes, &pairs, &layout::Options::default());
    CfgView {
        kind: "thread".into(),
        entry: 0,
        nodes,
        edges,
        layout: drawing,
    }
}
