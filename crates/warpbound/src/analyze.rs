//! From a [`Request`] to a [`Report`]: validate the request, find its mode in the table
//! ([`crate::modes::ALL`]), resolve its parameters, run the mode and assemble the report
//! from what the mode returned. Nothing here depends on which mode runs or on the dialect:
//! each mode decides what it does with each dialect it accepts.

use crate::mode::{ModeDetails, ModeInput, ModeOutput};
use crate::modes;
use crate::params::{self, limits};
use crate::report::{Details, Report, SimdDetails};
use crate::request::Request;
use crate::schema::{READABLE_REQUEST_VERSIONS, SCHEMA_VERSION};
use isa::{Diagnostic, Progress, Severity, Stage};
use std::collections::BTreeMap;
use web_time::Instant;

/// Runs the request. Never panics on any input: every problem becomes a diagnostic.
pub fn analyze(request: &Request) -> Report {
    analyze_with_progress(request, &isa::progress::silent)
}

/// [`analyze`], telling `progress` every so often how the long parts of the work go: the
/// exact makespan search, the branch and bounds (IPET, the makespan ILP), the warp-level CFG's
/// fixpoint and the simulator each report the work done against its budget and, where there
/// is one, the best bound so far ([`Progress`]). The report is the same as [`analyze`]'s: the
/// observer only watches.
pub fn analyze_with_progress(request: &Request, progress: &dyn Fn(&Progress)) -> Report {
    let started = Instant::now();
    let mode = match request.mode.as_deref() {
        None => Some(modes::default_mode()),
        Some(name) => modes::find(name),
    };
    let mut report = Report {
        schema_version: SCHEMA_VERSION,
        // The current name, also for a request that used a former one.
        mode: mode.map_or_else(
            || request.mode.clone().unwrap_or_default(),
            |m| m.name.to_string(),
        ),
        dialect: request.dialect,
        preset: None,
        params: Vec::new(),
        diagnostics: Vec::new(),
        dialect_hint: None,
        cuda_source: None,
        kernel: None,
        cfg: None,
        wcet: None,
        schedule: None,
        plots: Vec::new(),
        arguments: None,
        simulation: None,
        loop_bounds: Vec::new(),
        occupancy: None,
        timings_ms: BTreeMap::new(),
        details: None,
    };
    // The diagnostics as the modes and method crates make them; `finish` converts them to
    // the report's own type once they are complete.
    let mut diags: Vec<Diagnostic> = Vec::new();
    if !READABLE_REQUEST_VERSIONS.contains(&request.schema_version) {
        diags.push(Diagnostic::global(
            Severity::Error,
            format!(
                "request schema_version {} is not supported (this build speaks {SCHEMA_VERSION})",
                request.schema_version
            ),
        ));
    }
    let Some(mode) = mode else {
        let names: Vec<&str> = modes::ALL.iter().map(|m| m.name).collect();
        diags.push(Diagnostic::global(
            Severity::Error,
            format!(
                "unknown mode `{}` (available: {})",
                report.mode,
                names.join(", ")
            ),
        ));
        return finish(report, diags, started, request);
    };
    let info = mode.info();
    if let Some(preset) = &request.preset {
        if !info.presets.iter().any(|p| &p.name == preset) {
            let names: Vec<&str> = info.presets.iter().map(|p| p.name.as_str()).collect();
            diags.push(Diagnostic::global(
                Severity::Error,
                format!(
                    "mode `{}` has no preset `{preset}` (available: {})",
                    mode.name,
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                ),
            ));
        }
    }
    let dialect = request.dialect.name();
    if !info.dialects.iter().any(|d| d == dialect) {
        diags.push(Diagnostic::global(
            Severity::Error,
            format!(
                "dialect `{dialect}` is not supported by mode `{}` yet (supported: {})",
                mode.name,
                info.dialects.join(", ")
            ),
        ));
    }
    let preset = info.preset_for(request.preset.as_deref(), dialect);
    let params = params::resolve(&info, preset, &request.params, &mut diags);
    report.preset = preset.map(|p| p.name.clone());
    report.params = params.listing();
    if diags.iter().any(Diagnostic::is_error) {
        return finish(report, diags, started, request);
    }
    let limits = match limits::decode(&params) {
        Ok(l) => l,
        Err(d) => {
            diags.push(d);
            return finish(report, diags, started, request);
        }
    };
    let input = ModeInput {
        request,
        params: &params,
        preset: preset.map(|p| p.name.as_str()),
        limits,
        context: crate::context::Context::new(request, limits),
        progress,
    };
    let mut out = (mode.run)(&input);
    // What the mode said that no step labelled is its analysis (a `simulate` run's, the
    // simulation); parsers and the simulator label theirs where they are made.
    let own = if mode.name == "simulate" {
        Stage::Simulation
    } else {
        Stage::Analysis
    };
    out.diagnostics = std::mem::take(&mut out.diagnostics)
        .into_iter()
        .map(|d| d.in_stage(own))
        .collect();
    assemble(&mut report, &mut diags, out);
    finish(report, diags, started, request)
}

/// Puts each part of a mode's output in its report field (its diagnostics in `diags`).
fn assemble(report: &mut Report, diags: &mut Vec<Diagnostic>, out: ModeOutput) {
    diags.extend(out.diagnostics);
    report.kernel = out.kernel;
    report.cfg = out.graph;
    report.wcet = out.wcet;
    report.schedule = out.schedule;
    report.plots = out.plots;
    if let Some(s) = out.simulation.as_ref().filter(|s| s.run.stepper.truncated) {
        diags.push(
            Diagnostic::global(
                Severity::Warning,
                format!(
                    "the stepper recorded the first {} instructions of warp {} \
                     (max_stepper_steps); the run went on to the end",
                    s.run.stepper.steps.len(),
                    s.run.stepper.warp
                ),
            )
            .in_stage(Stage::Simulation),
        );
    }
    report.simulation = out.simulation;
    report.arguments = out.arguments;
    if let Some(w) = report.wcet.as_mut() {
        w.assumed_loop_bounds = out
            .loop_bounds
            .iter()
            .filter(|l| matches!(l.bound_from.as_str(), "default" | "observed"))
            .filter_map(|l| {
                Some(crate::report::AssumedLoopBound {
                    header: l.header.clone(),
                    line: l.line,
                    bound: l.bound?,
                    from: l.bound_from.clone(),
                })
            })
            .collect();
    }
    report.loop_bounds = out.loop_bounds;
    report.occupancy = out.occupancy;
    report.timings_ms.extend(out.timings_ms);
    report.details = match out.details {
        ModeDetails::None => None,
        ModeDetails::WarpCfg(d) => Some(Details::WarpCfg(d)),
        ModeDetails::Makespan(d) => Some(Details::Makespan(d)),
        ModeDetails::Simd(d, e) => Some(Details::Simd(Box::new(SimdDetails {
            analysis: (&*d).into(),
            execution: e.map(|e| *e),
        }))),
        ModeDetails::Pws(d) => Some(Details::Pws(Box::new((&*d).into()))),
        ModeDetails::Rr(d) => Some(Details::Rr(Box::new((&*d).into()))),
        ModeDetails::Block(d) => Some(Details::Block(d)),
        ModeDetails::Launch(d) => Some(Details::Launch(d)),
    };
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// Whether reading the text failed: only such errors (not request errors at line 0, nor an
/// analysis or a run of a text that parsed) call for another dialect or say it is CUDA source.
fn text_did_not_parse(diags: &[Diagnostic]) -> bool {
    diags
        .iter()
        .any(|d| d.is_error() && d.line > 0 && d.stage == Some(Stage::Parse))
}

/// A text that fails to parse in the requested dialect but carries the mark of another:
/// one error, located at the mark and listed before the text's own errors, that names the
/// dialect to choose; the parse errors are kept (the text may also be a broken kernel of the
/// requested dialect), the first 20 of them.
fn hint_other_dialect(report: &mut Report, diags: &mut Vec<Diagnostic>, request: &Request) {
    if !text_did_not_parse(diags) {
        return;
    }
    let Some(g) = isa::dialect_guess::guess(&request.source) else {
        return;
    };
    if crate::Dialect::from(g.dialect) == request.dialect {
        return;
    }
    let (want, got) = (g.dialect.name(), request.dialect.name());
    let d = Diagnostic {
        severity: Severity::Error,
        line: g.line,
        column: 1,
        len: 0,
        message: format!(
            "this text looks like {} (`{}` on line {}), not {}: choose the `{want}` dialect \
             (CLI: --dialect {want}, or leave --dialect out to have it detected)",
            want.to_uppercase(),
            g.evidence,
            g.line,
            got.to_uppercase()
        ),
        stage: Some(isa::Stage::Parse),
    };
    // The text is most likely in the other dialect: a few parse errors show the mismatch,
    // hundreds (one per line) only hide the hint.
    const KEPT: usize = 20;
    let errors = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    if errors > KEPT {
        let mut seen = 0;
        diags.retain(|d| {
            if d.severity != Severity::Error {
                return true;
            }
            seen += 1;
            seen <= KEPT
        });
        diags.push(
            Diagnostic::global(
                Severity::Note,
                format!(
                    "{} more errors not listed: the text reads as {} at almost every line",
                    errors - KEPT,
                    want.to_uppercase()
                ),
            )
            .in_stage(Stage::Parse),
        );
    }
    insert_first_located(diags, d);
    report.dialect_hint = Some(g.into());
}

/// A text that fails to parse and is CUDA C++ source (no dialect's mark, a CUDA one): its
/// parse errors, one per line of C++, say nothing useful. One error, located at the mark,
/// replaces them and says how to get what Warpbound reads: SASS (nvcc's cubin, listed by
/// cuobjdump or nvdisasm) or PTX (`nvcc -ptx`).
fn hint_cuda_source(report: &mut Report, diags: &mut Vec<Diagnostic>, request: &Request) {
    if report.dialect_hint.is_some() || !text_did_not_parse(diags) {
        return;
    }
    let Some(mark) = isa::dialect_guess::cuda_source(&request.source) else {
        return;
    };
    diags.retain(|d| !(d.line > 0 && d.stage == Some(Stage::Parse)));
    let d = Diagnostic {
        severity: Severity::Error,
        line: mark.line,
        column: 1,
        len: 0,
        message: format!(
            "this is CUDA C++ source (`{}` on line {}), not {}: Warpbound analyses compiled \
             kernels. Compile it and paste the result: SASS with `nvcc -cubin -arch=sm_86 \
             kernel.cu` then `cuobjdump -sass kernel.cubin` (or `nvdisasm kernel.cubin`), or \
             PTX with `nvcc -ptx kernel.cu` (dialect ptx)",
            mark.evidence,
            mark.line,
            request.dialect.name().to_uppercase()
        ),
        stage: Some(Stage::Parse),
    };
    insert_first_located(diags, d);
    report.cuda_source = Some(mark.into());
}

/// Puts `d` after the request's own diagnostics (line 0), before every located one.
fn insert_first_located(diags: &mut Vec<Diagnostic>, d: Diagnostic) {
    let at = diags.iter().take_while(|d| d.line == 0).count();
    diags.insert(at, d);
}

fn finish(
    mut report: Report,
    mut diags: Vec<Diagnostic>,
    started: Instant,
    request: &Request,
) -> Report {
    // A listing of several functions analysed for one the user did not name: say so, and
    // name the others (the page offers them in its function menu, the CLI takes --function).
    if request.function.is_none() {
        if let Some(k) = &report.kernel {
            let others: Vec<&str> = k
                .functions
                .iter()
                .map(String::as_str)
                .filter(|f| *f != k.function)
                .collect();
            if !others.is_empty() {
                const SHOWN: usize = 8;
                let mut list = others
                    .iter()
                    .take(SHOWN)
                    .map(|f| format!("`{f}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                if others.len() > SHOWN {
                    list.push_str(&format!(" and {} more", others.len() - SHOWN));
                }
                diags.push(Diagnostic::global(
                    Severity::Note,
                    format!(
                        "the text holds {} functions; analysed `{}` (the first kernel); the others: {list} (choose one with the function menu or --function)",
                        others.len() + 1,
                        k.function
                    ),
                ));
            }
        }
    }
    // Whatever is still unlabelled is about the request (its schema, mode, preset,
    // dialect, parameters, the function chosen).
    for d in &mut diags {
        d.stage.get_or_insert(Stage::Request);
    }
    diags.sort_by_key(|d| (d.line, d.column, d.severity));
    diags.dedup();
    // First, whatever its line: it explains the errors after it.
    hint_other_dialect(&mut report, &mut diags, request);
    hint_cuda_source(&mut report, &mut diags, request);
    report.diagnostics = diags.into_iter().map(Into::into).collect();
    if request.timings {
        report.timings_ms.insert("total".into(), ms(started));
    } else {
        report.timings_ms.clear();
    }
    report
}
