//! A typo must never lower a bound: the front ends are strict so that a misspelt opcode or
//! register is reported rather than read as something that makes the bound smaller.
//!
//! Property: take a small kernel that `warp-cfg` bounds, mutate one opcode mnemonic or one
//! special-register name by one keystroke (delete, insert, replace or swap two neighbouring
//! characters), and analyse it again. Either the front end says something new (an error or a
//! warning that the original did not get), or the bound is not lower than the original's.
//!
//! Mutations that land on another real name — an opcode NVIDIA lists for the listing's
//! generation, or a known special register in any spelling (`SR_TID.X` → `SR_TID.Y`) — are
//! skipped: they are different programs, not typos any front end can see.
//!
//! The kernels: a divergent if/else (hand-written, divergence on `SR_TID.X`)
//! and small cuda-samples kernels for sm_61 and sm_86 from the shared corpus.

use isa::sass::{isa_table, special_registers};
use isa::{sass, Dialect, Limits, OperandKind, Register};
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::OnceLock;
use warpbound::{analyze, Report, Request, Severity};

/// If/else on the thread index (Fig. 1 of Jeanmougin et al., the page's gallery example, also
/// in warp_cfg.rs): divergent, bound 10 under the unit cost model.
const ITE_TID: &str = include_str!("../../../www/examples/fig1-if-then-else.sass");

/// Small corpus kernels (relative to the corpus root); those `warp-cfg` cannot bound are
/// skipped when the kernels are loaded.
const CORPUS_KERNELS: &[&str] = &[
    "sass-modern/sm_61/simpleVoteIntrinsics__VoteAnyKernel3.sass",
    "sass-modern/sm_61/scan__scanExclusiveShared.sass",
    "sass-modern/sm_61/particles__reorderDataAndFindCellStartD.sass",
    "sass-modern/sm_61/reduction__reduce4_256.sass",
    "sass-modern/sm_86/simpleVoteIntrinsics__VoteAnyKernel3.sass",
    "sass-modern/sm_86/scan__scanExclusiveShared.sass",
    "sass-modern/sm_86/particles__reorderDataAndFindCellStartD.sass",
    "sass-modern/sm_86/simpleAtomicIntrinsics__testKernel.sass",
];

fn corpus_root() -> PathBuf {
    std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
}

fn run(text: &str) -> Report {
    let mut req = Request::new(text, Dialect::Sass);
    req.mode = Some("warp-cfg".into());
    req.timings = false;
    analyze(&req)
}

/// Errors and warnings, by place and text.
fn complaints(r: &Report) -> BTreeSet<(u32, u32, String)> {
    r.diagnostics
        .iter()
        .filter(|d| d.severity != Severity::Note)
        .map(|d| (d.line, d.column, d.message.clone()))
        .collect()
}

/// A name that can be mutated: its line (0-based), byte range in that line, and whether it is
/// an opcode (else a special register).
#[derive(Debug, Clone)]
struct Site {
    line: usize,
    start: usize,
    end: usize,
    opcode: bool,
}

struct Kernel {
    name: String,
    text: String,
    arch: Option<String>,
    cycles: u64,
    complaints: BTreeSet<(u32, u32, String)>,
    sites: Vec<Site>,
}

/// Byte offset of a 1-based character column (the corpus is ASCII; anything else is skipped).
fn byte_of(line: &str, column: u32) -> Option<usize> {
    line.char_indices()
        .nth(column.checked_sub(1)? as usize)
        .map(|(b, _)| b)
}

fn load(name: &str, text: String) -> Option<Kernel> {
    let original = run(&text);
    let cycles = original.wcet.as_ref()?.cycles;
    if original.diagnostics.iter().any(|d| d.is_error()) {
        return None;
    }
    let parsed = sass::parse(&text, None, &Limits::default());
    let kernel = parsed.kernel?;
    let lines: Vec<&str> = text.lines().collect();
    let mut sites = Vec::new();
    for ins in &kernel.instructions {
        let span = ins.opcode.span;
        let Some(line) = lines.get(span.line as usize - 1) else {
            continue;
        };
        if let Some(start) = byte_of(line, span.column) {
            sites.push(Site {
                line: span.line as usize - 1,
                start,
                end: start + ins.opcode.name.len(),
                opcode: true,
            });
        }
        for op in &ins.operands {
            if let OperandKind::Register {
                reg: Register::Special(_),
            } = op.kind
            {
                if let Some(start) = byte_of(line, op.span.column) {
                    sites.push(Site {
                        line: span.line as usize - 1,
                        start,
                        end: start + op.text.len(),
                        opcode: false,
                    });
                }
            }
        }
    }
    Some(Kernel {
        name: name.to_string(),
        arch: kernel.arch,
        text,
        cycles,
        complaints: complaints(&original),
        sites,
    })
}

fn kernels() -> &'static [Kernel] {
    static KERNELS: OnceLock<Vec<Kernel>> = OnceLock::new();
    KERNELS.get_or_init(|| {
        let mut all: Vec<Kernel> = load("ITE_TID", ITE_TID.to_string()).into_iter().collect();
        for rel in CORPUS_KERNELS {
            let path = corpus_root().join(rel);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("corpus file {} missing: {e}", path.display()));
            all.extend(load(rel, text));
        }
        all
    })
}

#[derive(Debug, Clone, Copy)]
enum Edit {
    Delete,
    Insert(char),
    Replace(char),
    Transpose,
}

fn mutate(name: &str, edit: Edit, at: usize) -> String {
    let mut chars: Vec<char> = name.chars().collect();
    let n = chars.len();
    match edit {
        Edit::Delete if n > 0 => {
            chars.remove(at % n);
        }
        Edit::Insert(c) => chars.insert(at % (n + 1), c),
        Edit::Replace(c) if n > 0 => chars[at % n] = c,
        Edit::Transpose if n > 1 => chars.swap(at % (n - 1), at % (n - 1) + 1),
        _ => {}
    }
    chars.into_iter().collect()
}

/// Another real name: not a typo a front end could catch.
fn is_real_name(kernel: &Kernel, site: &Site, name: &str) -> bool {
    if site.opcode {
        let family = kernel.arch.as_deref().and_then(isa_table::Family::of_arch);
        isa_table::lookup(name).is_some_and(|o| family.is_none_or(|f| o.families.contains(f)))
    } else {
        special_registers::canonical(name).is_some()
    }
}

fn edit_strategy() -> impl Strategy<Value = Edit> {
    let c = prop::sample::select(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.abcdefghijklmnopqrstuvwxyz"
            .chars()
            .collect::<Vec<_>>(),
    );
    prop_oneof![
        Just(Edit::Delete),
        c.clone().prop_map(Edit::Insert),
        c.prop_map(Edit::Replace),
        Just(Edit::Transpose),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn a_one_keystroke_typo_never_lowers_the_bound_silently(
        k in any::<prop::sample::Index>(),
        // Half of the mutations hit a special register: the names that decide divergence.
        special in any::<bool>(),
        s in any::<prop::sample::Index>(),
        edit in edit_strategy(),
        at in 0usize..16,
    ) {
        let all = kernels();
        prop_assume!(!all.is_empty());
        let kernel = &all[k.index(all.len())];
        let wanted: Vec<&Site> = kernel.sites.iter().filter(|x| x.opcode != special).collect();
        let pool: Vec<&Site> = if wanted.is_empty() { kernel.sites.iter().collect() } else { wanted };
        prop_assume!(!pool.is_empty());
        let site = pool[s.index(pool.len())];
        let lines: Vec<&str> = kernel.text.lines().collect();
        let line = lines[site.line];
        let before = &line[site.start..site.end];
        let after = mutate(before, edit, at);
        prop_assume!(after != before && !is_real_name(kernel, site, &after));
        let new_line = format!("{}{}{}", &line[..site.start], after, &line[site.end..]);
        let mut text: Vec<&str> = lines.clone();
        text[site.line] = &new_line;
        let text = text.join("\n");

        let r = run(&text);
        let new: Vec<_> = complaints(&r).difference(&kernel.complaints).cloned().collect();
        if new.is_empty() {
            if let Some(w) = &r.wcet {
                prop_assert!(
                    w.cycles >= kernel.cycles,
                    "{}: `{before}` -> `{after}` on line {} lowered the bound {} -> {} silently",
                    kernel.name, site.line + 1, kernel.cycles, w.cycles
                );
            }
        }
    }
}

#[test]
fn the_mutated_kernels_are_bounded_and_varied() {
    let all = kernels();
    assert!(all.iter().any(|k| k.name == "ITE_TID"));
    assert!(
        all.iter().any(|k| k.arch.as_deref() == Some("sm_61")),
        "no sm_61 kernel bounded"
    );
    assert!(
        all.iter().any(|k| k.arch.as_deref() == Some("sm_86")),
        "no sm_86 kernel bounded"
    );
    for k in all {
        assert!(
            k.sites.iter().any(|s| !s.opcode),
            "{}: no special register",
            k.name
        );
    }
}

/// The issue's example: `CTAID.X` for `SR_CTAID.X` made the if/else uniform (bound 10 → 8
/// here) without a word; now it is an error and no bound is given.
#[test]
fn the_ctaid_typo_of_the_issue_is_an_error() {
    let r = run(&ITE_TID.replace("SR_TID.X", "CTAID.X"));
    assert!(r.wcet.is_none());
    let s2r = ITE_TID
        .lines()
        .position(|l| l.contains("S2R R0, SR_TID.X"))
        .map(|i| i as u32 + 1);
    assert!(r.diagnostics.iter().any(|d| d.is_error()
        && Some(d.line) == s2r
        && d.message.contains("did you mean SR_CTAID.X?")));
    // Spelt right, the uniform reading is legitimate and lower.
    let uniform = run(&ITE_TID.replace("SR_TID.X", "SR_CTAID.X"));
    assert_eq!(uniform.wcet.as_ref().map(|w| w.cycles), Some(8));
}
