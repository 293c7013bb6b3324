//! Every mode, with its default parameters, on every file of `../shared/corpus`: what a new
//! user gets in their first minutes with real compiler output.
//!
//! Asserted for every (file, mode) pair the catalogue allows:
//! - no panic;
//! - every error diagnostic is located (line > 0) or names the budget that stopped the
//!   analysis — a user always learns where or why;
//! - on Linux, the peak memory of the analysis stays under 256 MB.
//!
//! Measured and printed, not asserted (a busy machine must not fail the test command): the
//! time of each analysis, the slowest five, and the largest peak memory. With
//! `WARPBOUND_STRICT_PERF=1` (on an idle machine, optimised build) each analysis must also
//! finish within 1 s.

#[path = "../../isa/tests/corpus_walk/mod.rs"]
mod corpus_walk;

use isa::Dialect;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use warpbound::{analyze, catalog, Request};

fn corpus_dir() -> PathBuf {
    std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
}

/// The dialect of a corpus file, from its extension.
fn dialect_of(path: &Path) -> Option<Dialect> {
    match path.extension()?.to_str()? {
        "sass" | "cuasm" => Some(Dialect::Sass),
        "ptx" => Some(Dialect::Ptx),
        "s" => Some(Dialect::Gcn),
        "sas" => Some(Dialect::Simd),
        "csv" => Some(Dialect::PwsCsv),
        _ => None,
    }
}

/// Peak resident memory since the last reset, in bytes (Linux: `VmHWM`, reset by writing 5
/// to `clear_refs`); `None` where that is not available.
fn peak_memory(reset: bool) -> Option<u64> {
    if reset {
        std::fs::write("/proc/self/clear_refs", "5").ok()?;
    }
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Whether an unlocated error says which budget stopped the analysis.
fn names_a_budget(message: &str) -> bool {
    message.contains("budget") || message.contains("raise `") || message.contains("(raise ")
}

#[test]
fn every_mode_on_every_corpus_file() {
    let root = corpus_dir();
    let paths: Vec<PathBuf> = corpus_walk::every_file(&root)
        .into_iter()
        .filter(|p| dialect_of(p).is_some())
        .collect();
    assert!(
        paths.len() >= 300,
        "{} corpus files under {}",
        paths.len(),
        root.display()
    );
    let cat = catalog();
    let strict = std::env::var("WARPBOUND_STRICT_PERF").is_ok_and(|v| v == "1");
    let mut times: Vec<(Duration, String)> = Vec::new();
    let mut failures: Vec<String> = Vec::new();
    let mut peak_max = (0u64, String::new());
    let mut outcomes = std::collections::BTreeMap::<String, (usize, usize)>::new();
    for path in &paths {
        let Some(dialect) = dialect_of(path) else {
            continue;
        };
        let Ok(bytes) = std::fs::read(path) else {
            failures.push(format!("{}: unreadable", path.display()));
            continue;
        };
        let (text, _) = isa::source_text::decode(&bytes);
        let rel = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        for mode in cat
            .modes
            .iter()
            .filter(|m| m.dialects.iter().any(|d| d == dialect.name()))
        {
            let mut req = Request::new(text.clone(), dialect);
            req.mode = Some(mode.name.clone());
            req.timings = false;
            let what = format!("{rel} --mode {}", mode.name);
            peak_memory(true);
            let started = Instant::now();
            let result = std::panic::catch_unwind(|| analyze(&req));
            let elapsed = started.elapsed();
            if let Some(peak) = peak_memory(false) {
                if peak > peak_max.0 {
                    peak_max = (peak, what.clone());
                }
                if peak > 256 << 20 {
                    failures.push(format!("{what}: peak memory {} MB", peak >> 20));
                }
            }
            times.push((elapsed, what.clone()));
            let report = match result {
                Ok(r) => r,
                Err(_) => {
                    failures.push(format!("{what}: panicked"));
                    continue;
                }
            };
            let entry = outcomes.entry(mode.name.clone()).or_default();
            if report.has_errors() {
                entry.1 += 1;
            } else {
                entry.0 += 1;
            }
            for d in report.diagnostics.iter().filter(|d| d.is_error()) {
                if d.line == 0 && !names_a_budget(&d.message) {
                    failures.push(format!("{what}: unlocated error: {}", d.message));
                }
            }
            if strict && elapsed > Duration::from_secs(1) {
                failures.push(format!("{what}: {elapsed:?} (over 1 s)"));
            }
        }
    }
    times.sort_by_key(|t| std::cmp::Reverse(t.0));
    println!("{} analyses; the slowest five:", times.len());
    for (t, what) in times.iter().take(5) {
        println!("  {:>9.1} ms  {what}", t.as_secs_f64() * 1e3);
    }
    println!(
        "largest peak memory: {} MB ({})",
        peak_max.0 >> 20,
        peak_max.1
    );
    for (mode, (ok, err)) in &outcomes {
        println!("  {mode:>9}: {ok} without error, {err} with a located or budget error");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
