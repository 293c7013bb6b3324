//! The page's gallery, pinned: every example of `www/examples/manifest.json` (the files the
//! page bundles) is analysed with the request the page sends for it, without timings, and its
//! report is compared with `tests/snapshots/gallery/<id>.json`. A change in any number of any
//! example's report fails here with the first differing JSON path, and shows in review as a
//! diff of the snapshot.
//!
//! After an intended change, rewrite the snapshots (and drop those of removed examples) with
//!
//! ```sh
//! WARPBOUND_BLESS=1 cargo test -p warpbound --test gallery
//! ```
//!
//! and review `git diff crates/warpbound/tests/snapshots/gallery`.

use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::PathBuf;
use warpbound::{analyze, Request};

/// `www/examples/manifest.json`; the page reads it in `www/src/examples.js`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    papers: Vec<Paper>,
    examples: Vec<Example>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Paper {
    id: String,
    title: String,
}

/// One gallery example: its kernel file and the request fields the page sends with it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Example {
    id: String,
    paper: String,
    title: String,
    dialect: String,
    /// File under `www/examples/`.
    kernel: String,
    /// Text the editor shows above the kernel file's text (part of the request's source).
    #[serde(default)]
    kernel_header: String,
    mode: String,
    #[serde(default)]
    preset: Option<String>,
    #[serde(default)]
    params: Map<String, Value>,
    #[serde(default)]
    loop_bounds: BTreeMap<String, u64>,
    /// The tab the page opens the example on (absent: the tab stays as it is).
    #[serde(default)]
    view: Option<String>,
    blurb: String,
}

/// The page's tabs (`data-view` in index.html).
const TABS: [&str; 7] = [
    "graph",
    "summary",
    "schedule",
    "plots",
    "stepper",
    "instructions",
    "json",
];

/// The file extension of each dialect's kernels.
fn extension(dialect: &str) -> Option<&'static str> {
    Some(match dialect {
        "sass" => "sass",
        "ptx" => "ptx",
        "gcn" => "s",
        "simd" => "sas",
        "lc" => "lc",
        "pws-csv" => "csv",
        _ => return None,
    })
}

fn examples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../www/examples")
}

fn snapshots_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/gallery")
}

fn manifest() -> Manifest {
    let path = examples_dir().join("manifest.json");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text the page puts in the editor for `ex`.
fn source(ex: &Example) -> String {
    let path = examples_dir().join(&ex.kernel);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    format!("{}{text}", ex.kernel_header)
}

/// The request the page sends when it opens `ex` (`requestOf` in www/src/examples.js), as
/// JSON, without timings so that the report depends on the request alone.
fn request(ex: &Example) -> Request {
    let mut r = json!({
        "schema_version": 3,
        "source": source(ex),
        "dialect": ex.dialect,
        "mode": ex.mode,
        "timings": false,
    });
    if !ex.params.is_empty() {
        r["params"] = Value::Object(ex.params.clone());
    }
    if let Some(preset) = &ex.preset {
        r["preset"] = json!(preset);
    }
    if !ex.loop_bounds.is_empty() {
        r["loop_bounds"] = json!(ex.loop_bounds);
    }
    serde_json::from_value(r).unwrap_or_else(|e| panic!("{}: not a request: {e}", ex.id))
}

/// Every place where `got` and `want` differ, in document order: its JSON path and both
/// values (an array of another length differs at `.length` after its common items).
fn differences(path: &str, got: &Value, want: &Value, out: &mut Vec<(String, String, String)>) {
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => {
            let keys: BTreeSet<&String> = g.keys().chain(w.keys()).collect();
            for k in keys {
                let at = format!("{path}.{k}");
                match (g.get(k), w.get(k)) {
                    (Some(a), Some(b)) => differences(&at, a, b, out),
                    (a, b) => out.push((at, shown(a), shown(b))),
                }
            }
        }
        (Value::Array(g), Value::Array(w)) => {
            for (i, (a, b)) in g.iter().zip(w).enumerate() {
                differences(&format!("{path}[{i}]"), a, b, out);
            }
            if g.len() != w.len() {
                let at = format!("{path}.length");
                out.push((at, g.len().to_string(), w.len().to_string()));
            }
        }
        _ if got != want => out.push((path.to_string(), shown(Some(got)), shown(Some(want)))),
        _ => {}
    }
}

/// A value for a message: compact JSON, at most 200 characters.
fn shown(v: Option<&Value>) -> String {
    let Some(v) = v else {
        return "(absent)".into();
    };
    let s = v.to_string();
    match s.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s,
    }
}

#[test]
fn the_manifest_names_existing_kernels_papers_and_tabs() {
    let m = manifest();
    let papers: BTreeSet<&str> = m.papers.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(papers.len(), m.papers.len(), "paper ids are unique");
    assert!(m.papers.iter().all(|p| !p.title.is_empty()));
    let mut ids = BTreeSet::new();
    let mut kernels: BTreeMap<&str, usize> = BTreeMap::new();
    for ex in &m.examples {
        assert!(
            ids.insert(ex.id.as_str()),
            "{}: the id is used twice",
            ex.id
        );
        assert!(
            papers.contains(ex.paper.as_str()),
            "{}: no paper {:?}",
            ex.id,
            ex.paper
        );
        assert!(!ex.title.is_empty() && !ex.blurb.is_empty(), "{}", ex.id);
        let ext = extension(&ex.dialect).unwrap_or_else(|| panic!("{}: dialect?", ex.id));
        assert!(
            ex.kernel.ends_with(&format!(".{ext}")),
            "{}: a {} kernel is a .{ext} file, not {}",
            ex.id,
            ex.dialect,
            ex.kernel
        );
        assert!(
            examples_dir().join(&ex.kernel).is_file(),
            "{}: {} is missing",
            ex.id,
            ex.kernel
        );
        *kernels.entry(ex.kernel.as_str()).or_default() += 1;
        if let Some(view) = &ex.view {
            assert!(TABS.contains(&view.as_str()), "{}: no tab {view:?}", ex.id);
        }
    }
    // A kernel of its own is named after its example; only a shared one has another name.
    for ex in &m.examples {
        let own = format!("{}.{}", ex.id, extension(&ex.dialect).unwrap_or_default());
        assert!(
            ex.kernel == own || kernels[ex.kernel.as_str()] > 1,
            "{}: its kernel file is {own}, not {}",
            ex.id,
            ex.kernel
        );
    }
    for p in &m.papers {
        assert!(
            m.examples.iter().any(|x| x.paper == p.id),
            "paper {} has no example",
            p.id
        );
    }
    // Every file beside the manifest is some example's kernel (the page bundles them all).
    for entry in fs::read_dir(examples_dir()).unwrap_or_else(|e| panic!("{e}")) {
        let name = entry
            .unwrap_or_else(|e| panic!("{e}"))
            .file_name()
            .to_string_lossy()
            .into_owned();
        assert!(
            name == "manifest.json" || kernels.contains_key(name.as_str()),
            "www/examples/{name} belongs to no example"
        );
    }
}

#[test]
fn every_example_matches_its_snapshot() {
    let bless = std::env::var_os("WARPBOUND_BLESS").is_some_and(|v| v == "1");
    let dir = snapshots_dir();
    let m = manifest();
    let mut failures = Vec::new();
    for ex in &m.examples {
        let report = analyze(&request(ex));
        let got = serde_json::to_value(&report).unwrap_or_else(|e| panic!("{}: {e}", ex.id));
        let errors: Vec<&Value> = got["diagnostics"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| d["severity"] == "error")
            .collect();
        if !errors.is_empty() {
            failures.push(format!("{}: the report has errors: {errors:?}", ex.id));
        }
        let file = dir.join(format!("{}.json", ex.id));
        if bless {
            let text = serde_json::to_string_pretty(&got).unwrap_or_else(|e| panic!("{e}"));
            fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            fs::write(&file, text + "\n").unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            continue;
        }
        let want: Value = match fs::read_to_string(&file) {
            Ok(text) => {
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
            }
            Err(e) => {
                failures.push(format!("{}: no snapshot ({}: {e})", ex.id, file.display()));
                continue;
            }
        };
        let mut diff = Vec::new();
        differences("$", &got, &want, &mut diff);
        if let Some((path, g, w)) = diff.first() {
            let more: Vec<&str> = diff[1..].iter().take(8).map(|d| d.0.as_str()).collect();
            failures.push(format!(
                "{}: the report differs from its snapshot in {} place(s), first at {path}\n    \
                 now:      {g}\n    snapshot: {w}{}",
                ex.id,
                diff.len(),
                if more.is_empty() {
                    String::new()
                } else {
                    format!(
                        "\n    then at {}{}",
                        more.join(", "),
                        if diff.len() > 9 { ", …" } else { "" }
                    )
                }
            ));
        }
    }
    // Snapshots of examples the manifest no longer has.
    let ids: BTreeSet<String> = m
        .examples
        .iter()
        .map(|x| format!("{}.json", x.id))
        .collect();
    for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !ids.contains(&name) {
            if bless {
                fs::remove_file(entry.path()).unwrap_or_else(|e| panic!("{name}: {e}"));
            } else {
                failures.push(format!("{name}: a snapshot of no example"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n\nIf the change is intended: WARPBOUND_BLESS=1 cargo test -p warpbound --test gallery",
        failures.join("\n")
    );
}
