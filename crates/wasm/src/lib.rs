//! The playground's (and any JavaScript user's) entry into Warpbound.
//!
//! A thin binding: it converts JavaScript values to the facade's [`warpbound::Request`] and
//! the [`warpbound::Report`] back, with `serde-wasm-bindgen` in JSON-compatible mode so the
//! page receives plain objects and numbers. Nothing analytic lives here.

use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Installs the panic hook so a bug shows its message in the console instead of
/// `unreachable executed`.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    value
        .serialize(&serializer)
        .map_err(|e| JsError::new(&format!("cannot convert the result: {e}")))
}

/// Runs one analysis. `request` has the shape of `warpbound::Request`
/// (`{source, dialect, function?, mode?, preset?, params?}`); the result is the report.
/// A malformed request throws an `Error` naming the offending field.
#[wasm_bindgen]
pub fn analyze(request: JsValue) -> Result<JsValue, JsError> {
    let request: warpbound::Request = serde_wasm_bindgen::from_value(request)
        .map_err(|e| JsError::new(&format!("not a Warpbound request: {e}")))?;
    to_js(&warpbound::analyze(&request))
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
