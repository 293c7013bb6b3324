//! Asking for a report and reading it in the facade's tests: a SASS request in one call,
//! the report's error messages and the words of a simulated array. Included by path (`#[path = "common/report.rs"]`); each test uses only some of it.

#![allow(dead_code)]

use warpbound::{analyze, Dialect, Report, Request};

/// The report of mode `mode` on the SASS listing `src` with the parameters `params`.
pub fn analyze_sass(src: &str, mode: &str, params: &[(&str, serde_json::Value)]) -> Report {
    let mut req = Request::new(src, Dialect::Sass);
    req.mode = Some(mode.into());
    for (k, v) in params {
        req.params.insert((*k).into(), v.clone());
    }
    analyze(&req)
}

/// The messages of the report's errors, in order.
pub fn errors(r: &Report) -> Vec<&str> {
    r.diagnostics
        .iter()
        .filter(|d| d.severity == warpbound::Severity::Error)
        .map(|d| d.message.as_str())
        .collect()
}

/// The words of the first simulated array whose name `is_it` accepts; panics (with the
/// report's diagnostics) when nothing was simulated, and when no array is accepted.
pub fn simulated_array(r: &Report, is_it: impl Fn(&str) -> bool) -> &[u32] {
    let Some(s) = r.simulation.as_ref() else {
        panic!("no simulation: {:?}", r.diagnostics);
    };
    match s.run.memory.iter().find(|a| is_it(&a.name)) {
        Some(a) => &a.words,
        None => panic!("no such array: {:?}", r.diagnostics),
    }
}

/// The words of the simulated array `name`.
pub fn array<'a>(r: &'a Report, name: &str) -> &'a [u32] {
    simulated_array(r, |n| n == name)
}
