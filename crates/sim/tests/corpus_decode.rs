//! Simulator coverage of real compiler output (issue #26 item 1): every function of every
//! listing in the corpus (`../shared/corpus/sass`, Fermi–Pascal, and
//! `../shared/corpus/sass-modern/sm_*`, `nvcc` 11.8) is decoded with `sim::sass_coverage`
//! for a launch of 256 zero parameter words, and the instructions that would stop a run
//! are counted per directory and opcode. The table is printed (`cargo test -p sim --test
//! corpus_decode -- --nocapture`); `docs/simulator-coverage.md` records it.
//!
//! Up to sm_61 the only instructions allowed to stop are the [`EXCEPTIONS`]: they need
//! data a listing does not carry. The sm_70+ directories are measured and their totals
//! checked against the documented numbers (a change must update the doc).
//!
//! The corpus is read in place (never copied into the repository); a missing directory is
//! skipped with a note.

use isa::Limits;
use sim::Launch;
use std::collections::BTreeMap;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus");

/// What may still stop a run on Fermi–Pascal listings: (opcode, part of the reason, why).
/// The first group needs data a `cuobjdump -sass` listing does not carry; the second is not
/// modelled yet (`docs/simulator-coverage.md` lists both with their counts).
const EXCEPTIONS: &[(&str, &str, &str)] = &[
    ("", "constant bank 1", "Fermi's driver bank (stack pointer)"),
    ("", "constant bank 2", "the compiler's constant table"),
    ("", "constant bank 3", "the compiler's constant table"),
    ("MOV32I", "relocation", "an address the linker fills in"),
    (
        "JCAL",
        "",
        "a call to an absolute address outside the listing (vprintf, malloc)",
    ),
    (
        "BRX",
        "",
        "an indirect branch: targets from a constant bank 2 switch table",
    ),
    (
        "XMAD",
        "modifier .CSFU",
        "XMAD's .CSFU: no listing's sequence fixes its meaning",
    ),
    (
        "BRA",
        "on the condition code",
        "branches on the condition code (BRA CC.NEU): NVIDIA documents neither which flags \
         `.CC` sets from an ISET/FSET result nor which a test reads",
    ),
];

/// Undecodable instructions per sm_70+ directory as measured (see the doc's table).
const MODERN_EXPECTED: &[(&str, usize)] = &[
    ("sass-modern/sm_70", 37),
    ("sass-modern/sm_75", 37),
    ("sass-modern/sm_86", 40),
    ("sass-modern/sm_90", 60),
];

/// One directory's measurement: instructions decoded, and the failures by
/// (opcode, reason) with their count.
#[derive(Default)]
struct Tally {
    files: usize,
    functions: usize,
    instructions: usize,
    failures: BTreeMap<(String, String), usize>,
}

impl Tally {
    fn failed(&self) -> usize {
        self.failures.values().sum()
    }
}

/// `cannot simulate LEA.HI.X: why` → (`LEA`, `why`).
fn classify(msg: &str) -> (String, String) {
    let Some(rest) = msg.strip_prefix("cannot simulate ") else {
        return ("(operand)".into(), msg.to_string());
    };
    let (name, why) = rest.split_once(": ").unwrap_or((rest, ""));
    let base = name.split('.').next().unwrap_or(name);
    // Keep numbers out of the reason so that one cause is one row.
    let why: String = if why.contains('`') {
        let mut out = String::new();
        let mut inside = false;
        for ch in why.chars() {
            if ch == '`' {
                inside = !inside;
                if inside {
                    out.push_str("`…`");
                }
            } else if !inside {
                out.push(ch);
            }
        }
        out
    } else {
        why.to_string()
    };
    (base.to_string(), why)
}

fn measure(dir: &str) -> Option<Tally> {
    let path = format!("{CORPUS}/{dir}");
    let Ok(entries) = std::fs::read_dir(&path) else {
        println!("note: {path} is absent, skipped");
        return None;
    };
    let mut files: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "sass" || e == "cuasm"))
        .collect();
    files.sort();
    let launch = Launch {
        params: vec![0; 256],
        ..Launch::default()
    };
    let limits = Limits::default();
    let mut t = Tally::default();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable listing");
        t.files += 1;
        let first = isa::sass::parse(&text, None, &limits);
        for name in &first.functions {
            let out = isa::sass::parse(&text, Some(name), &limits);
            let Some(mut kernel) = out.kernel else {
                panic!("{}: function {name} does not parse", f.display());
            };
            // The Fermi listings print no architecture line; their file names give it
            // (constant bank 0 is laid out differently before Kepler).
            let fname = f.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if kernel.arch.is_none() && fname.starts_with("FERMI_sm20") {
                kernel.arch = Some("sm_20".into());
            }
            t.functions += 1;
            t.instructions += kernel.instructions.len();
            for (_, msg) in sim::sass_coverage(&kernel, &launch) {
                *t.failures.entry(classify(&msg)).or_default() += 1;
            }
        }
    }
    Some(t)
}

fn print(dir: &str, t: &Tally) {
    println!(
        "== {dir}: {} files, {} functions, {} instructions, {} undecodable",
        t.files,
        t.functions,
        t.instructions,
        t.failed()
    );
    for ((op, why), n) in &t.failures {
        println!("{n:6}  {op:10} {why}");
    }
}

#[test]
fn fermi_to_pascal_listings_decode_but_for_missing_data() {
    let mut unexplained = Vec::new();
    for dir in ["sass", "sass-modern/sm_61"] {
        let Some(t) = measure(dir) else { continue };
        print(dir, &t);
        for ((op, why), n) in &t.failures {
            let listed = EXCEPTIONS
                .iter()
                .any(|(o, pat, _)| (o.is_empty() || o == op) && why.contains(pat));
            if !listed {
                unexplained.push(format!("{dir}: {n} × {op}: {why}"));
            }
        }
    }
    assert!(
        unexplained.is_empty(),
        "instructions without semantics:\n{}",
        unexplained.join("\n")
    );
}

#[test]
fn volta_to_hopper_listings_as_documented() {
    let mut changed = Vec::new();
    for &(dir, expected) in MODERN_EXPECTED {
        let Some(t) = measure(dir) else { continue };
        print(dir, &t);
        if t.failed() != expected {
            changed.push(format!(
                "{dir}: {} undecodable, documented {expected}",
                t.failed()
            ));
        }
    }
    assert!(
        changed.is_empty(),
        "update docs/simulator-coverage.md and MODERN_EXPECTED:\n{}",
        changed.join("\n")
    );
}
