//! The playground's (and any JavaScript user's) entry into Warpbound.
//!
//! A thin binding: it converts JavaScript values to the facade's [`warpbound::Request`] and
//! the [`warpbound::Report`] back, with `serde-wasm-bindgen` in JSON-compatible mode so the
//! page receives plain objects and numbers. Nothing analytic lives here.

use serde::Serialize;
use std::cell::Cell;
use wasm_bindgen::prelude::*;

thread_local! {
    /// The `performance` object of whatever global the module runs in — a window, a worker,
    /// Node: each has one — looked up once; `None` where there is none.
    static PERFORMANCE: Option<web_sys::Performance> = global_performance();
}

/// `globalThis.performance`, read from the global object itself (not through `window`, which
/// a worker and Node lack).
fn global_performance() -> Option<web_sys::Performance> {
    let value = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("performance")).ok()?;
    if value.is_undefined() || value.is_null() {
        return None;
    }
    // Not `dyn_into`, whose `instanceof Performance` needs a global `Performance` class: only
    // `now` is called, which every host's object has.
    Some(value.unchecked_into())
}

/// Milliseconds since the global's time origin, by `performance.now()`; 0 without one.
fn now_ms() -> f64 {
    PERFORMANCE.with(|p| p.as_ref().map_or(0.0, web_sys::Performance::now))
}

/// Installs the panic hook so a bug shows its message in the console instead of
/// `unreachable executed`.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    value.serialize(&serializer).or_else(|_| {
        // A number beyond 2^53 (a large random-scheduler seed, say) has no exact JavaScript
        // number, and the JSON-compatible conversion refuses it; the JSON text rounds it as
        // `JSON.parse` does, so the page still gets its report.
        let text = serde_json::to_string(value)
            .map_err(|e| JsError::new(&format!("cannot convert the result: {e}")))?;
        js_sys::JSON::parse(&text).map_err(|_| JsError::new("cannot convert the result"))
    })
}

/// The TypeScript declarations of `Request`, `Report` and every type they reach, generated
/// from the facade's Rust types (`warpbound::typescript`) and committed next to them, where a
/// test pins them: wasm-bindgen appends this text to the package's `warpbound.d.ts`, so
/// [`analyze`] is typed `analyze(request: Request): Report` rather than `any`.
#[wasm_bindgen(typescript_custom_section)]
const WIRE_TYPES: &str = include_str!("../../warpbound/bindings/warpbound.d.ts");

/// Runs one analysis. `request` has the shape of `warpbound::Request`
/// (`{source, dialect, function?, mode?, preset?, params?}`); the result is the report.
/// A malformed request throws an `Error` naming the offending field.
#[wasm_bindgen(unchecked_return_type = "Report")]
pub fn analyze(
    #[wasm_bindgen(unchecked_param_type = "Request")] request: JsValue,
) -> Result<JsValue, JsError> {
    let request: warpbound::Request = serde_wasm_bindgen::from_value(request)
        .map_err(|e| JsError::new(&format!("not a Warpbound request: {e}")))?;
    to_js(&warpbound::analyze(&request))
}

/// Least time between two progress calls to JavaScript, in milliseconds: the worker posts
/// each to the page, and twenty a second are plenty for a progress bar.
const PROGRESS_INTERVAL_MS: f64 = 50.0;

/// One progress report as JavaScript receives it: the analysis crate's [`warpbound::Progress`]
/// with its task's labels, and the time since the analysis started.
#[derive(Serialize)]
struct ProgressMessage<'a> {
    /// The task's key (`makespan-search`, `ipet-branch-and-bound`, `warp-cfg`, ...).
    task: &'a str,
    /// Its title ("exact makespan search").
    label: &'a str,
    /// What `done` counts ("search steps").
    unit: &'a str,
    /// The parameter that is `budget`.
    parameter: &'a str,
    done: u64,
    budget: u64,
    /// What `best_bound` is ("longest schedule so far"), when the task has one.
    bound_label: Option<&'a str>,
    best_bound: Option<u64>,
    upper_bound: Option<u64>,
    /// Milliseconds since the analysis started, by `performance.now()`.
    elapsed_ms: f64,
}

/// Runs one analysis like [`analyze`], calling `progress` with a plain object
/// `{task, label, unit, parameter, done, budget, bound_label, best_bound, upper_bound,
/// elapsed_ms}` while long work runs (at most every 50 ms of `performance.now()`), and
/// returns `{report, elapsed_ms}`: the report (the same as `analyze`'s) and the whole call's
/// time measured here. An exception thrown by `progress` is ignored.
#[wasm_bindgen(unchecked_return_type = "{ report: Report, elapsed_ms: number }")]
pub fn analyze_with_progress(
    #[wasm_bindgen(unchecked_param_type = "Request")] request: JsValue,
    progress: &js_sys::Function,
) -> Result<JsValue, JsError> {
    let started = now_ms();
    let request: warpbound::Request = serde_wasm_bindgen::from_value(request)
        .map_err(|e| JsError::new(&format!("not a Warpbound request: {e}")))?;
    let last = Cell::new(f64::NEG_INFINITY);
    let observe = |p: &warpbound::Progress| {
        let t = now_ms();
        if t - last.get() < PROGRESS_INTERVAL_MS {
            return;
        }
        last.set(t);
        let message = ProgressMessage {
            task: p.task.key(),
            label: p.task.label(),
            unit: p.task.unit(),
            parameter: p.task.parameter(),
            done: p.done,
            budget: p.budget,
            bound_label: p.task.bound_label(),
            best_bound: p.best_bound,
            upper_bound: p.upper_bound,
            elapsed_ms: t - started,
        };
        if let Ok(value) = to_js(&message) {
            // The page's trouble is not the analysis's: a throwing callback is ignored.
            let _ = progress.call1(&JsValue::NULL, &value);
        }
    };
    let report = warpbound::analyze_with_progress(&request, &observe);
    #[derive(Serialize)]
    struct Answer {
        report: warpbound::Report,
        elapsed_ms: f64,
    }
    to_js(&Answer {
        report,
        elapsed_ms: now_ms() - started,
    })
}

/// Runs one analysis on a request given as JSON text and returns the report as pretty JSON
/// text, exactly as the `warpbound` CLI prints it (so with `"timings": false` in the request
/// the two are byte-identical: a report depends only on its request, whichever build made
/// it, which `tests/pkg` checks).
#[wasm_bindgen]
pub fn analyze_json(request: &str) -> Result<String, JsError> {
    let request: warpbound::Request = serde_json::from_str(request)
        .map_err(|e| JsError::new(&format!("not a Warpbound request: {e}")))?;
    serde_json::to_string_pretty(&warpbound::analyze(&request))
        .map_err(|e| JsError::new(&format!("cannot write the report: {e}")))
}

/// Dialects, modes, their parameters and hardware presets: what the page builds its forms from.
#[wasm_bindgen]
pub fn catalog() -> Result<JsValue, JsError> {
    to_js(&warpbound::catalog())
}

/// The version of the analysis package.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Opcode documentation: for every dialect with opcodes, its table (`{dialect, classes, case,
/// suffixes, opcodes: {NAME: {description, latency_class, also?, depends_on?}}}`), what the
/// page shows when an opcode is hovered. Called once, when the worker starts, so hovering
/// never waits for an analysis.
#[wasm_bindgen]
pub fn opcode_docs() -> Result<JsValue, JsError> {
    to_js(&warpbound::opcode_tables())
}

/// The documentation of one mnemonic as written (`ld.global.f32`, `ISETP.GE.AND`) in
/// `dialect` (`sass`, `ptx`, `gcn`, `simd`, `lc`); `null` for an unknown opcode or dialect.
#[wasm_bindgen]
pub fn opcode_doc(dialect: &str, mnemonic: &str) -> Result<JsValue, JsError> {
    let doc =
        warpbound::Dialect::from_name(dialect).and_then(|d| warpbound::opcode_doc(d, mnemonic));
    to_js(&doc)
}

/// What a text looks like, decided as the CLI decides for a file given without `--dialect`
/// (`isa::dialect_guess`): `{dialect, line, evidence}` for a dialect's mark, `{cuda: true,
/// line, evidence}` for CUDA C++ source (which must be compiled first), `null` when neither
/// shows. The page asks when a kernel is pasted, so pasted PTX is read as PTX at once.
#[wasm_bindgen]
pub fn guess_dialect(text: &str) -> Result<JsValue, JsError> {
    #[derive(Serialize)]
    struct Guess {
        #[serde(skip_serializing_if = "Option::is_none")]
        dialect: Option<&'static str>,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        cuda: bool,
        line: u32,
        evidence: String,
    }
    use warpbound::dialect_guess::{cuda_source, guess};
    let found = match guess(text) {
        Some(g) => Some(Guess {
            dialect: Some(g.dialect.name()),
            cuda: false,
            line: g.line,
            evidence: g.evidence,
        }),
        None => cuda_source(text).map(|m| Guess {
            dialect: None,
            cuda: true,
            line: m.line,
            evidence: m.evidence,
        }),
    };
    to_js(&found)
}
