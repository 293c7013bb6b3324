//! The schema pin: the TypeScript declarations of the request and the report
//! (`warpbound::typescript::declarations`, generated from the Rust wire types) must equal the
//! committed `crates/warpbound/bindings/warpbound.d.ts`, which the JavaScript package ships.
//! A change to any wire type — a field renamed, added or made optional — fails here until
//! it is reviewed and blessed with
//!
//! ```sh
//! WARPBOUND_BLESS=1 cargo test -p warpbound --test typescript
//! ```
//!
//! (and then `SCHEMA_VERSION` bumped if a field changed meaning or disappeared).

use std::fs;
use std::path::PathBuf;
use warpbound::typescript::declarations;

fn committed_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bindings/warpbound.d.ts")
}

#[test]
fn declarations_match_the_committed_file() {
    let got = declarations();
    let path = committed_path();
    if std::env::var_os("WARPBOUND_BLESS").is_some_and(|v| v == "1") {
        fs::write(&path, &got).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let want = fs::read_to_string(&path).unwrap_or_default();
    if got != want {
        let line = got
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(got.lines().count().min(want.lines().count()));
        panic!(
            "{} differs from the wire types at line {}:\n  generated: {:?}\n  committed: {:?}\n\n\
             If the change is intended: WARPBOUND_BLESS=1 cargo test -p warpbound --test typescript",
            path.display(),
            line + 1,
            got.lines().nth(line),
            want.lines().nth(line)
        );
    }
}

/// The declarations without their doc comments (which may hold any bracket).
fn without_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("/**") {
        out.push_str(&rest[..start]);
        rest = rest[start..]
            .split_once("*/")
            .map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    out
}

/// The top-level fields of `export type NAME = { … };`, in order.
fn fields_of(text: &str, name: &str) -> Vec<String> {
    let text = without_comments(text);
    let head = format!("export type {name} = {{");
    let start = text
        .find(&head)
        .unwrap_or_else(|| panic!("no declaration of {name}"));
    let (mut depth, mut fields, mut current) = (0i32, Vec::new(), String::new());
    for c in text[start + head.len()..].chars() {
        match c {
            '{' | '[' | '<' | '(' => depth += 1,
            '}' | ']' | '>' | ')' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            break;
        }
        if depth == 0 && c == ',' {
            fields.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    fields
        .iter()
        .filter_map(|f| f.split(':').next())
        .map(|k| k.trim().trim_end_matches('?').trim_matches('"').to_string())
        .filter(|k| !k.is_empty())
        .collect()
}

#[test]
fn the_request_and_the_report_are_declared_with_their_fields() {
    let text = declarations();
    assert_eq!(
        fields_of(&text, "Request"),
        [
            "schema_version",
            "source",
            "dialect",
            "function",
            "mode",
            "preset",
            "params",
            "loop_bounds",
            "memory",
            "timings"
        ]
    );
    let report = fields_of(&text, "Report");
    assert_eq!(report.first().map(String::as_str), Some("schema_version"));
    for key in [
        "diagnostics",
        "kernel",
        "cfg",
        "wcet",
        "simulation",
        "details",
    ] {
        assert!(report.iter().any(|f| f == key), "Report lacks {key}");
    }
    // Optional where the JSON may leave the key out; integers are numbers, not bigints.
    assert!(text.contains("wcet?: Wcet | null"), "wcet is optional");
    assert_eq!(
        fields_of(&text, "Wcet"),
        ["cycles", "cost_model", "assumed_loop_bounds"]
    );
    let flat = without_comments(&text)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(flat.contains(
        "export type Wcet = { cycles: number, cost_model: string, \
         assumed_loop_bounds?: Array<AssumedLoopBound>, };"
    ));
    assert!(!text.contains("bigint"));
    // The details: one key, the mode that ran.
    assert!(text.contains(
        r#"export type Details = { "warp-cfg": WarpCfgDetails } | { "block": BlockDetails }"#
    ));
}

#[test]
fn every_dialect_is_in_the_declared_union() {
    let text = declarations();
    let line = text
        .lines()
        .find(|l| l.starts_with("export type Dialect = "))
        .expect("Dialect declared");
    let names: Vec<&str> = line
        .trim_start_matches("export type Dialect = ")
        .trim_end_matches(';')
        .split(" | ")
        .map(|n| n.trim_matches('"'))
        .collect();
    let all: Vec<&str> = warpbound::Dialect::ALL.iter().map(|d| d.name()).collect();
    assert_eq!(names, all);
}

#[test]
fn the_declared_diagnostic_has_the_keys_of_a_real_one() {
    let request = warpbound::Request::new("  /*0000*/ FOO R1 ;", warpbound::Dialect::Sass);
    let report =
        serde_json::to_value(warpbound::analyze(&request)).unwrap_or_else(|e| panic!("{e}"));
    let first = &report["diagnostics"][0];
    let keys: Vec<&String> = first.as_object().expect("a diagnostic").keys().collect();
    let declared = fields_of(&declarations(), "Diagnostic");
    assert_eq!(
        keys,
        ["column", "len", "line", "message", "severity", "stage"]
            .iter()
            .collect::<Vec<_>>()
    );
    for k in keys {
        assert!(declared.contains(k), "Diagnostic lacks {k}");
    }
}

/// Every key a gallery report has at its top level, and in its details, is declared.
#[test]
fn every_key_of_the_gallery_snapshots_is_declared() {
    let text = declarations();
    let report = fields_of(&text, "Report");
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/gallery");
    let mut files = 0;
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{e}")) {
        let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let json: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for key in json.as_object().into_iter().flat_map(|o| o.keys()) {
            assert!(
                report.contains(key),
                "{}: Report lacks {key}",
                path.display()
            );
        }
        files += 1;
    }
    assert!(files >= 10, "{files} snapshots");
}

/// The hand-written declarations of method-crate types agree with what the gallery's
/// reports hold: every instruction class is in the `ResourceClass` union, and every drawn
/// graph's layout has exactly the declared `Layout` keys.
#[test]
fn the_hand_written_shapes_match_the_gallery_reports() {
    let text = declarations();
    let classes = text
        .lines()
        .find_map(|l| l.strip_prefix("export type ResourceClass = "))
        .expect("ResourceClass declared");
    let layout = fields_of(&text, "Layout");
    assert_eq!(layout, ["width", "height", "nodes", "edges"]);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/gallery");
    let (mut instructions, mut layouts) = (0, 0);
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{e}")) {
        let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
        let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
        for ins in json["kernel"]["instructions"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let class = ins["class"].as_str().unwrap_or_default();
            assert!(classes.contains(&format!("\"{class}\"")), "{class}");
            instructions += 1;
        }
        if let Some(l) = json["cfg"]["layout"].as_object() {
            let mut keys: Vec<&String> = l.keys().collect();
            let mut want: Vec<&String> = layout.iter().collect();
            keys.sort();
            want.sort();
            assert_eq!(keys, want, "{}", path.display());
            layouts += 1;
        }
    }
    assert!(
        instructions > 100 && layouts > 10,
        "{instructions} {layouts}"
    );
}
