//! The playground's (and any JavaScript user's) entry into Warpbound.
//!
//! A thin binding: requests and reports cross the boundary as JSON — `serde_json` on the Rust
//! side, the engine's own `JSON.parse`/`JSON.stringify` on the JavaScript side — so the page
//! receives plain objects and numbers, and the module carries one serializer instead of two
//! (it used to include `serde-wasm-bindgen` as well: ~150 KB of wasm for the same job).
//! Nothing analytic lives here.

use wasm_bindgen::prelude::*;

/// Installs the panic hook so a bug shows its message in the console instead of
/// `unreachable executed`.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, JsError> {
    let text = serde_json::to_string(value)
        .map_err(|e| JsError::new(&format!("cannot convert the result: {e}")))?;
    js_sys::JSON::parse(&text).map_err(|_| JsError::new("cannot convert the result"))
}

fn request_of(text: &str) -> Result<warpbound::Request, JsError> {
    serde_json::from_str(text).map_err(|e| JsError::new(&format!("not a Warpbound request: {e}")))
}

/// Runs one analysis. `request` has the shape of `warpbound::Request`
/// (`{source, dialect, function?, mode?, preset?, params?, loop_bounds?, memory?, timings?}`);
/// the result is the report. A malformed request throws an `Error` naming the offending field.
#[wasm_bindgen]
pub fn analyze(request: JsValue) -> Result<JsValue, JsError> {
    let text = js_sys::JSON::stringify(&request)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| JsError::new("not a Warpbound request: not JSON-serialisable"))?;
    to_js(&warpbound::analyze(&request_of(&text)?))
}

/// Runs one analysis on a request given as JSON text and returns the report as pretty JSON
/// text, exactly as the `warpbound` CLI prints it (so with `"timings": false` in the request
/// the two are byte-identical — the determinism check of issue #10).
#[wasm_bindgen]
pub fn analyze_json(request: &str) -> Result<String, JsError> {
    serde_json::to_string_pretty(&warpbound::analyze(&request_of(request)?))
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
