//! Dispatch from a [`Request`] to the analyses, and shaping of their results.

use crate::catalog::{catalog, DEFAULT_MODE, MAKESPAN_MODE, SIM_MODE, WARP_CFG_MODE};
use crate::params;
use crate::report::Report;
use crate::request::Request;
use crate::views::{kernel_view, thread_cfg_view};
use crate::SCHEMA_VERSION;
use crate::{
    lc_reduction, makespan_mode, pws_mode, rr_mode, sim_mode, simd_mode, thread_cfg_mode, warp_mode,
};
use isa::{blocks, Diagnostic, Dialect, Limits, Severity};
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
        wcet: None,
        schedule: None,
        plots: Vec::new(),
        makespan: None,
        simd: None,
        pws: None,
        rr: None,
        simulation: None,
        warp_cfg: None,
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
        return finish(report, started, request);
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
    // The simulator's machine for a dialect without a named preset: GCN3 wavefronts of 64
    // on gem5's SIMD, L/C strings on the makespan paper's SM.
    let preset = request.preset.clone().or_else(|| {
        (mode == SIM_MODE)
            .then(|| match request.dialect {
                Dialect::Gcn => Some("gcn3".to_string()),
                Dialect::Lc => Some("makespan".to_string()),
                _ => None,
            })
            .flatten()
    });
    // Preset values first, then the request's own parameters over them.
    let mut given = info
        .presets
        .iter()
        .find(|x| Some(&x.name) == preset.as_ref())
        .map(|x| x.values.clone())
        .unwrap_or_default();
    given.extend(request.params.clone());
    let p = params::resolve(&info.params, &given, &mode, diags);
    if diags.iter().any(Diagnostic::is_error) {
        return finish(report, started, request);
    }
    let limits = Limits {
        max_input_bytes: p.get_usize("max_input_bytes"),
        max_instructions: p.get_usize("max_instructions"),
        max_cfg_states: p.get_usize("max_cfg_states"),
    };

    let t = Instant::now();
    if mode == SIM_MODE && request.dialect != Dialect::Sass {
        let machine = sim_mode::machine(&p, preset.as_deref());
        let text = sim_mode::KernelText {
            dialect: request.dialect,
            source: &request.source,
            function: request.function.as_deref(),
        };
        if let Some(s) = sim_mode::simulate_text(
            &text,
            &limits,
            &p,
            &machine,
            request.memory.as_ref(),
            &mut report,
        ) {
            report.schedule = Some(sim_mode::schedule_view_of_text(&request.source, &s));
            report.simulation = serde_json::to_value(&s).ok();
        }
        report.timings_ms.insert("simulate".into(), ms(t));
        return finish(report, started, request);
    }
    if mode == DEFAULT_MODE && request.dialect != Dialect::Sass {
        thread_cfg_mode::run(
            request.dialect,
            &request.source,
            request.function.as_deref(),
            &limits,
            &mut report,
        );
        if p.flag("simulate") {
            report.diagnostics.push(Diagnostic::global(
                Severity::Warning,
                format!(
                    "simulate: this mode runs the simulator on SASS only; choose the `{SIM_MODE}` mode to simulate a {} kernel",
                    request.dialect.name()
                ),
            ));
        }
        report.timings_ms.insert("cfg".into(), ms(t));
        return finish(report, started, request);
    }
    if request.dialect == Dialect::Lc {
        // An L/C string (or the configuration file of Berezovskyi et al., Fig. 4).
        let (prog, d) = isa::lc::parse(&request.source);
        report.timings_ms.insert("parse".into(), ms(t));
        let failed = d.iter().any(Diagnostic::is_error);
        report.diagnostics.extend(d);
        if !failed {
            let t = Instant::now();
            makespan_mode::run(
                &prog.kernel,
                &prog,
                Vec::new(),
                &p,
                &request.params,
                request.preset.as_deref(),
                &mut report,
            );
            report.timings_ms.insert("makespan".into(), ms(t));
        }
        return finish(report, started, request);
    }
    if mode == MAKESPAN_MODE
        && matches!(request.dialect, Dialect::Ptx | Dialect::Gcn | Dialect::Simd)
    {
        // A real kernel reduced to an L/C string along its straight-line path (SASS takes
        // the same route below, on its block graph).
        let reduced = lc_reduction::from_text(
            request.dialect,
            &request.source,
            request.function.as_deref(),
            &limits,
            &mut report,
        );
        report.timings_ms.insert("parse".into(), ms(t));
        if let Some(reduction) = reduced {
            let t = Instant::now();
            makespan_mode::run_reduced(reduction, &p, request, &mut report);
            report.timings_ms.insert("makespan".into(), ms(t));
        }
        return finish(report, started, request);
    }
    if matches!(request.dialect, Dialect::Gcn | Dialect::PwsCsv) {
        pws_mode::run(request, &limits, &p, &mut report);
        report.timings_ms.insert("pws".into(), ms(t));
        return finish(report, started, request);
    }
    if request.dialect == Dialect::Ptx {
        rr_mode::run(
            &request.source,
            request.function.as_deref(),
            &limits,
            &p,
            request.preset.as_deref(),
            request.memory.as_ref(),
            &mut report,
        );
        report.timings_ms.insert("rr".into(), ms(t));
        return finish(report, started, request);
    }
    if request.dialect == Dialect::Simd {
        simd_mode::run(&request.source, &limits, &p, &mut report);
        report.timings_ms.insert("simd".into(), ms(t));
        return finish(report, started, request);
    }
    let parsed = match request.dialect {
        Dialect::Sass => isa::sass::parse(&request.source, request.function.as_deref(), &limits),
        // Unreachable while the catalogue lists no other dialect for these modes.
        other => {
            diags.push(Diagnostic::global(
                Severity::Error,
                format!("no parser for dialect `{}` yet", other.name()),
            ));
            return finish(report, started, request);
        }
    };
    report.timings_ms.insert("parse".into(), ms(t));
    let parse_failed = parsed.has_errors();
    report.diagnostics.extend(parsed.diagnostics);
    let Some(kernel) = parsed.kernel else {
        return finish(report, started, request);
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
        if graph.diagnostics.iter().any(Diagnostic::is_error) {
            report.kernel = Some(view);
            return finish(report, started, request);
        }
        let t = Instant::now();
        match mode.as_str() {
            WARP_CFG_MODE => {
                warp_mode::run(&kernel, &graph, &p, &request.loop_bounds, &mut report);
                report.timings_ms.insert("warp_cfg+ipet".into(), ms(t));
                if p.flag("simulate") {
                    // The analysis's own setting: one warp in isolation, in-order issue with
                    // the cost model's latencies (all 1 for cost=unit), no contention.
                    let t = Instant::now();
                    let mut m = sim_mode::preset_machine("unit-cost");
                    m.latency = match p.choice("cost") {
                        "latency" => warp_mode::latency_table(&p),
                        _ => cfg::LatencyTable::unit(),
                    };
                    m.transaction_cycles = 0;
                    if let Some(s) =
                        sim_mode::simulate_on(&kernel, &p, &m, request.memory.as_ref(), &mut report)
                    {
                        report.simulation = serde_json::to_value(&s).ok();
                    }
                    report.timings_ms.insert("simulate".into(), ms(t));
                }
            }
            SIM_MODE => {
                let preset = request.preset.as_deref();
                let machine = sim_mode::machine(&p, preset);
                if let Some(s) = sim_mode::simulate_on(
                    &kernel,
                    &p,
                    &machine,
                    request.memory.as_ref(),
                    &mut report,
                ) {
                    report.schedule = Some(sim_mode::schedule_view(&kernel, &s));
                    report.simulation = serde_json::to_value(&s).ok();
                }
                report.cfg = Some(thread_cfg_view(&kernel, &graph));
                report.timings_ms.insert("simulate".into(), ms(t));
            }
            MAKESPAN_MODE => {
                let reduction = lc_reduction::sass(&kernel, &graph);
                makespan_mode::run_reduced(reduction, &p, request, &mut report);
                report.timings_ms.insert("makespan".into(), ms(t));
            }
            _ => {
                report.cfg = Some(thread_cfg_view(&kernel, &graph));
                report.timings_ms.insert("layout".into(), ms(t));
                if p.flag("simulate") {
                    let t = Instant::now();
                    let m = sim_mode::preset_machine("unit-cost");
                    if let Some(s) =
                        sim_mode::simulate_on(&kernel, &p, &m, request.memory.as_ref(), &mut report)
                    {
                        report.schedule = Some(sim_mode::schedule_view(&kernel, &s));
                        sim_mode::attach(
                            &mut report,
                            &s,
                            None,
                            "this mode computes no bound (the warp-cfg mode does)",
                        );
                    }
                    report.timings_ms.insert("simulate".into(), ms(t));
                }
            }
        }
    }
    report.kernel = Some(view);
    finish(report, started, request)
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn finish(mut report: Report, started: Instant, request: &Request) -> Report {
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
                report.diagnostics.push(Diagnostic::global(
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
    let timings = request.timings;
    report
        .diagnostics
        .sort_by_key(|d| (d.line, d.column, d.severity));
    report.diagnostics.dedup();
    if timings {
        report.timings_ms.insert("total".into(), ms(started));
    } else {
        report.timings_ms.clear();
    }
    report
}
