//! Every GCN listing of the shared corpus parses without error, the parser finds as many
//! instructions as a naive independent count, and hostile text never panics the parser.

use isa::gcn::{self, ExecEffect, GcnControl};
use isa::Limits;
use proptest::prelude::*;
use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
        .join("gcn")
}

fn corpus_files() -> Vec<PathBuf> {
    let dir = corpus_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus missing at {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("s"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 20,
        "expected the 20 GCN corpus files, found {}",
        files.len()
    );
    files
}

/// Lines whose first word starts with an instruction-family prefix. Written without the
/// parser's code on purpose: directives start with `.`, comments with `;`, labels end with
/// `:` and the YAML metadata never starts with these prefixes.
fn naive_instruction_count(text: &str) -> usize {
    text.lines()
        .filter(|l| {
            let t = l.trim_start();
            let word = t.split_whitespace().next().unwrap_or("");
            !word.ends_with(':')
                && ["s_", "v_", "flat_", "global_", "ds_", "buffer_"]
                    .iter()
                    .any(|p| word.starts_with(p))
        })
        .count()
}

#[test]
fn every_corpus_listing_parses_with_the_naive_instruction_count() {
    for path in corpus_files() {
        let text = std::fs::read_to_string(&path).expect("readable corpus file");
        let p = gcn::parse(&text, &Limits::default());
        assert!(!p.has_errors(), "{}: {:?}", path.display(), p.diagnostics);
        assert_eq!(
            p.functions.len(),
            1,
            "{}: one kernel per file",
            path.display()
        );
        let f = &p.functions[0];
        assert_eq!(
            f.instructions.len(),
            naive_instruction_count(&text),
            "{}",
            path.display()
        );
        assert!(
            matches!(
                f.instructions.last().map(|i| &i.control),
                Some(GcnControl::EndProgram)
            ),
            "{}: kernels end with s_endpgm",
            path.display()
        );
        // Every branch target resolved.
        for ins in &f.instructions {
            if ins.control.target().is_some() {
                assert!(ins.control.target_index().is_some(), "{}", ins.text);
            }
        }
        // File names start with the kernel's benchmark, the function is the mangled name.
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        assert!(stem.ends_with(&f.name) || stem.contains(&f.name[..f.name.len().min(8)]));
    }
}

/// Instructions per corpus kernel, recorded before the front end became strict: the
/// ISA table must not change what is parsed.
const COUNTS: &[(&str, usize)] = &[
    ("backprop___Z22bpnn_layerforward_CUDAPfS_S_S_ii.s", 203),
    ("backprop___Z24bpnn_adjust_weights_cudaPfiS_iS_S_.s", 106),
    ("bfs___Z6KernelP4NodePiPbS2_S2_S1_i.s", 88),
    ("bfs___Z7Kernel2PbS_S_S_i.s", 34),
    ("bptree__findK.s", 160),
    ("gaussian___Z4Fan1PfS_ii.s", 64),
    ("gaussian___Z4Fan2PfS_S_iii.s", 86),
    (
        "hipexamples_vectoradd___Z15vectorset_floatPKfS0_Pf__gfx900.s",
        15,
    ),
    ("hotspot___Z14calculate_tempiPfS_S_iiiiffffff.s", 240),
    ("kmeans___Z11kmeansPointPfS_iiiPiS_S_S0_.s", 95),
    ("lud___Z12lud_diagonalPfii.s", 140),
    ("lud___Z12lud_internalPfii.s", 84),
    ("lud___Z13lud_perimeterPfii.s", 260),
    ("nn___Z6euclidP7latLongPfiff.s", 76),
    ("nw___Z20needle_cuda_shared_1PiS_iiii.s", 158),
    ("nw___Z20needle_cuda_shared_2PiS_iiii.s", 163),
    ("pathfinder___Z14dynproc_kerneliPiS_S_iiii.s", 122),
    ("prefix_sum___Z16block_prefix_sumPfii.s", 129),
    ("srad_v2___Z11srad_cuda_2PfS_S_S_S_S_iiff.s", 253),
    (
        "streamcluster___Z19kernel_compute_costiilP5PointiiPfS1_PiPb.s",
        129,
    ),
];

#[test]
fn corpus_has_no_unknown_opcode_and_the_recorded_instruction_counts() {
    let files = corpus_files();
    assert_eq!(files.len(), COUNTS.len());
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable corpus file");
        let p = gcn::parse(&text, &Limits::default());
        assert!(
            p.diagnostics.is_empty(),
            "{}: no warning expected: {:?}",
            path.display(),
            p.diagnostics
        );
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let expected = COUNTS.iter().find(|(n, _)| *n == name).map(|c| c.1);
        assert_eq!(Some(p.functions[0].instructions.len()), expected, "{name}");
        for ins in &p.functions[0].instructions {
            assert!(
                gcn::describe(&ins.opcode).is_some(),
                "{name}: `{}` is not in the ISA table",
                ins.opcode
            );
        }
    }
}

#[test]
fn lud_perimeter_has_three_branch_serialisation_blocks() {
    // `grep -c s_or_saveexec` on the file gives 3: each is an exec flip starting a BSB.
    let path = corpus_dir().join("lud___Z13lud_perimeterPfii.s");
    let text = std::fs::read_to_string(path).expect("readable corpus file");
    let p = gcn::parse(&text, &Limits::default());
    let f = &p.functions[0];
    let or_saveexec = f
        .instructions
        .iter()
        .filter(|i| i.opcode == "s_or_saveexec_b64")
        .count();
    assert_eq!(or_saveexec, 3);
    assert!(f
        .instructions
        .iter()
        .filter(|i| i.opcode == "s_or_saveexec_b64")
        .all(|i| i.exec_effect == ExecEffect::Flip));
}

const SEED_LINES: &[&str] = &[
    "\t.text",
    "\t.globl\t_Z4Fan1PfS_ii",
    "\t.type\t_Z4Fan1PfS_ii,@function",
    "_Z4Fan1PfS_ii:                          ; @_Z4Fan1PfS_ii",
    "; %bb.0:",
    "\ts_load_dword s0, s[4:5], 0x4",
    "\ts_waitcnt lgkmcnt(0)",
    "\tv_cmp_gt_i32_e32 vcc, s0, v2",
    "\ts_and_saveexec_b64 s[0:1], vcc",
    "\ts_cbranch_execz BB0_2",
    "\tsplit s0, s1",
    "\tmerge",
    "\tds_write_b32 v1, v7 offset:4",
    "\tflat_load_dword v5, v[2:3]",
    "BB0_2:",
    "\ts_or_b64 exec, exec, s[0:1]",
    "\ts_or_saveexec_b64 s[4:5], s[4:5]",
    "\ts_xor_b64 exec, exec, s[4:5]",
    "\ts_branch BB0_2",
    "\ts_endpgm",
    "\t.section\t.rodata,#alloc",
    "\t.amdhsa_kernel _Z4Fan1PfS_ii",
    "\t.end_amdhsa_kernel",
    "\tv_fma_f32 v2, -v4, |v5|, v6",
];

fn check(text: &str) {
    let p = gcn::parse(text, &Limits::default());
    let lines = text.lines().count().max(1) as u32;
    for d in &p.diagnostics {
        assert!(
            d.line == 0 || (d.line >= 1 && d.line <= lines),
            "{d:?} outside {lines} lines"
        );
        assert!(d.line == 0 || d.column >= 1, "{d:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        check(&text);
    }

    #[test]
    fn shuffled_and_mutated_listings_never_panic(
        picks in proptest::collection::vec(0usize..SEED_LINES.len(), 0..30),
        cut in proptest::collection::vec((0usize..SEED_LINES.len(), 0usize..40, "\\PC{0,3}"), 0..6),
    ) {
        let mut lines: Vec<String> = picks.iter().map(|&i| SEED_LINES[i].to_string()).collect();
        for (i, at, junk) in cut {
            if let Some(l) = lines.get_mut(i) {
                let mut at = at.min(l.len());
                while !l.is_char_boundary(at) { at -= 1; }
                l.insert_str(at, &junk);
            }
        }
        check(&lines.join("\n"));
    }
}
