//! Every SASS listing of the shared corpus — `sass/` (Fermi to Pascal) and `sass-modern/`
//! (cuda-samples for sm_61, sm_70, sm_75, sm_86, sm_90) — under the strict front end: the same
//! instruction counts as before the strict checks existed (recorded below), no error, no
//! unknown opcode, no warning at all except the address gaps of two sm_90 listings, and every
//! opcode the listings use is in the ISA table.

use isa::sass::isa_table;
use isa::{sass, Limits, Severity};
use std::path::{Path, PathBuf};

fn corpus_root() -> PathBuf {
    std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
}

/// Instruction counts recorded with the parser as it was before the strict checks (commit
/// 3ef9e9c), per file relative to the corpus root. They equal the number of address comments
/// of each file (sass-modern/README.md's table) for every file.
const COUNTS: &[(&str, usize)] = &[
    ("sass/FERMI_sm20_mgpu__FindMaxIndexLoop.sass", 127),
    ("sass/FERMI_sm20_mgpu__HistogramReduce_2_1.sass", 107),
    ("sass/FERMI_sm20_mgpu__MatrixEncode_count.sass", 212),
    ("sass/FERMI_sm20_mgpu__SegScanUpsweepKeys.sass", 154),
    ("sass/FERMI_sm20_mgpu__SegScanUpsweepPacked.sass", 144),
    ("sass/celer_cbrt_cbrt___Z7cu_cbrtPd.sass", 56),
    ("sass/celer_cbrt_pow___Z6cu_powPd.sass", 182),
    ("sass/celer_logs_exp___Z5myexpPd.sass", 49),
    ("sass/celer_logs_log10___Z7mylog10Pd.sass", 78),
    ("sass/celer_logs_log2___Z6mylog2Pd.sass", 78),
    (
        "sass/celer_memset-zero_thrust__thrust_parallel_for_fill.sass",
        35,
    ),
    (
        "sass/celer_memset-zero_thrust__thrust_parallel_for_transform.sass",
        42,
    ),
    ("sass/celer_pow_pow___Z6cu_powPd.sass", 168),
    ("sass/celer_range_native-linear___Z4movejdPd.sass", 77),
    ("sass/cuassembler_sm61___Z5childPii.cuasm", 54),
    ("sass/cuassembler_sm61___Z7argtestPiS_S_.cuasm", 240),
    (
        "sass/rodinia_backprop___Z22bpnn_layerforward_CUDAPfS_S_S_ii.sass",
        186,
    ),
    (
        "sass/rodinia_backprop___Z24bpnn_adjust_weights_cudaPfiS_iS_S_.sass",
        96,
    ),
    ("sass/rodinia_nn___Z6euclidP7latLongPfiff.sass", 72),
    ("sass-modern/sm_61/FunctionPointers__SobelTex.sass", 174),
    ("sass-modern/sm_61/Mandelbrot__Mandelbrot0_float.sass", 432),
    (
        "sass-modern/sm_61/binaryPartitionCG__oddEvenCountAndSumCG.sass",
        282,
    ),
    ("sass-modern/sm_61/eigenvalues__bisectKernel.sass", 612),
    ("sass-modern/sm_61/histogram__histogram256Kernel.sass", 210),
    ("sass-modern/sm_61/matrixMul__MatrixMulCUDA_32.sass", 144),
    (
        "sass-modern/sm_61/mergeSort__bitonicMergeElementaryIntervals_0.sass",
        396,
    ),
    (
        "sass-modern/sm_61/mergeSort__mergeElementaryIntervals_0.sass",
        264,
    ),
    ("sass-modern/sm_61/newdelete__containerConsume.sass", 372),
    (
        "sass-modern/sm_61/particles__reorderDataAndFindCellStartD.sass",
        84,
    ),
    ("sass-modern/sm_61/reduction__cg_reduce_int.sass", 90),
    (
        "sass-modern/sm_61/reduction__multi_warp_cg_reduce_256_128.sass",
        240,
    ),
    ("sass-modern/sm_61/reduction__reduce4_256.sass", 78),
    ("sass-modern/sm_61/reduction__reduce7_256_pow2.sass", 108),
    ("sass-modern/sm_61/scan__scanExclusiveShared.sass", 54),
    ("sass-modern/sm_61/shfl_scan__shfl_scan_test.sass", 126),
    ("sass-modern/sm_61/simpleAssert__testKernel.sass", 24),
    (
        "sass-modern/sm_61/simpleAtomicIntrinsics__testKernel.sass",
        114,
    ),
    (
        "sass-modern/sm_61/simpleVoteIntrinsics__VoteAnyKernel3.sass",
        36,
    ),
    (
        "sass-modern/sm_61/sortingNetworks__bitonicSortShared.sass",
        102,
    ),
    (
        "sass-modern/sm_61/sortingNetworks__oddEvenMergeSortShared.sass",
        96,
    ),
    ("sass-modern/sm_61/transpose__transposeDiagonal.sass", 114),
    (
        "sass-modern/sm_61/warpAggregatedAtomicsCG__filter_arr.sass",
        66,
    ),
    (
        "sass-modern/sm_61/warpAggregatedAtomicsCG__mapToBuckets.sass",
        6,
    ),
    ("sass-modern/sm_70/FunctionPointers__SobelTex.sass", 200),
    ("sass-modern/sm_70/Mandelbrot__Mandelbrot0_float.sass", 392),
    (
        "sass-modern/sm_70/binaryPartitionCG__oddEvenCountAndSumCG.sass",
        392,
    ),
    ("sass-modern/sm_70/eigenvalues__bisectKernel.sass", 632),
    ("sass-modern/sm_70/histogram__histogram256Kernel.sass", 192),
    ("sass-modern/sm_70/matrixMul__MatrixMulCUDA_32.sass", 128),
    (
        "sass-modern/sm_70/mergeSort__bitonicMergeElementaryIntervals_0.sass",
        424,
    ),
    (
        "sass-modern/sm_70/mergeSort__mergeElementaryIntervals_0.sass",
        280,
    ),
    ("sass-modern/sm_70/newdelete__containerConsume.sass", 360),
    (
        "sass-modern/sm_70/particles__reorderDataAndFindCellStartD.sass",
        72,
    ),
    ("sass-modern/sm_70/reduction__cg_reduce_int.sass", 104),
    (
        "sass-modern/sm_70/reduction__multi_warp_cg_reduce_256_128.sass",
        288,
    ),
    ("sass-modern/sm_70/reduction__reduce4_256.sass", 104),
    ("sass-modern/sm_70/reduction__reduce7_256_pow2.sass", 112),
    ("sass-modern/sm_70/scan__scanExclusiveShared.sass", 48),
    ("sass-modern/sm_70/shfl_scan__shfl_scan_test.sass", 136),
    ("sass-modern/sm_70/simpleAssert__testKernel.sass", 24),
    (
        "sass-modern/sm_70/simpleAtomicIntrinsics__testKernel.sass",
        120,
    ),
    (
        "sass-modern/sm_70/simpleVoteIntrinsics__VoteAnyKernel3.sass",
        32,
    ),
    (
        "sass-modern/sm_70/sortingNetworks__bitonicSortShared.sass",
        96,
    ),
    (
        "sass-modern/sm_70/sortingNetworks__oddEvenMergeSortShared.sass",
        88,
    ),
    ("sass-modern/sm_70/transpose__transposeDiagonal.sass", 72),
    (
        "sass-modern/sm_70/warpAggregatedAtomicsCG__filter_arr.sass",
        80,
    ),
    (
        "sass-modern/sm_70/warpAggregatedAtomicsCG__mapToBuckets.sass",
        104,
    ),
    ("sass-modern/sm_75/FunctionPointers__SobelTex.sass", 200),
    ("sass-modern/sm_75/Mandelbrot__Mandelbrot0_float.sass", 384),
    (
        "sass-modern/sm_75/binaryPartitionCG__oddEvenCountAndSumCG.sass",
        368,
    ),
    ("sass-modern/sm_75/eigenvalues__bisectKernel.sass", 608),
    ("sass-modern/sm_75/histogram__histogram256Kernel.sass", 184),
    ("sass-modern/sm_75/matrixMul__MatrixMulCUDA_32.sass", 120),
    (
        "sass-modern/sm_75/mergeSort__bitonicMergeElementaryIntervals_0.sass",
        392,
    ),
    (
        "sass-modern/sm_75/mergeSort__mergeElementaryIntervals_0.sass",
        232,
    ),
    ("sass-modern/sm_75/newdelete__containerConsume.sass", 376),
    (
        "sass-modern/sm_75/particles__reorderDataAndFindCellStartD.sass",
        64,
    ),
    ("sass-modern/sm_75/reduction__cg_reduce_int.sass", 104),
    (
        "sass-modern/sm_75/reduction__multi_warp_cg_reduce_256_128.sass",
        272,
    ),
    ("sass-modern/sm_75/reduction__reduce4_256.sass", 96),
    ("sass-modern/sm_75/reduction__reduce7_256_pow2.sass", 104),
    ("sass-modern/sm_75/scan__scanExclusiveShared.sass", 48),
    ("sass-modern/sm_75/shfl_scan__shfl_scan_test.sass", 128),
    ("sass-modern/sm_75/simpleAssert__testKernel.sass", 32),
    (
        "sass-modern/sm_75/simpleAtomicIntrinsics__testKernel.sass",
        112,
    ),
    (
        "sass-modern/sm_75/simpleVoteIntrinsics__VoteAnyKernel3.sass",
        32,
    ),
    (
        "sass-modern/sm_75/sortingNetworks__bitonicSortShared.sass",
        88,
    ),
    (
        "sass-modern/sm_75/sortingNetworks__oddEvenMergeSortShared.sass",
        88,
    ),
    ("sass-modern/sm_75/transpose__transposeDiagonal.sass", 72),
    (
        "sass-modern/sm_75/warpAggregatedAtomicsCG__filter_arr.sass",
        80,
    ),
    (
        "sass-modern/sm_75/warpAggregatedAtomicsCG__mapToBuckets.sass",
        104,
    ),
    ("sass-modern/sm_86/FunctionPointers__SobelTex.sass", 208),
    ("sass-modern/sm_86/Mandelbrot__Mandelbrot0_float.sass", 392),
    (
        "sass-modern/sm_86/binaryPartitionCG__oddEvenCountAndSumCG.sass",
        144,
    ),
    ("sass-modern/sm_86/eigenvalues__bisectKernel.sass", 600),
    ("sass-modern/sm_86/histogram__histogram256Kernel.sass", 192),
    ("sass-modern/sm_86/matrixMul__MatrixMulCUDA_32.sass", 128),
    (
        "sass-modern/sm_86/mergeSort__bitonicMergeElementaryIntervals_0.sass",
        392,
    ),
    (
        "sass-modern/sm_86/mergeSort__mergeElementaryIntervals_0.sass",
        240,
    ),
    ("sass-modern/sm_86/newdelete__containerConsume.sass", 408),
    (
        "sass-modern/sm_86/particles__reorderDataAndFindCellStartD.sass",
        72,
    ),
    ("sass-modern/sm_86/reduction__cg_reduce_int.sass", 72),
    (
        "sass-modern/sm_86/reduction__multi_warp_cg_reduce_256_128.sass",
        256,
    ),
    ("sass-modern/sm_86/reduction__reduce4_256.sass", 104),
    ("sass-modern/sm_86/reduction__reduce7_256_pow2.sass", 96),
    ("sass-modern/sm_86/scan__scanExclusiveShared.sass", 56),
    ("sass-modern/sm_86/shfl_scan__shfl_scan_test.sass", 120),
    ("sass-modern/sm_86/simpleAssert__testKernel.sass", 40),
    (
        "sass-modern/sm_86/simpleAtomicIntrinsics__testKernel.sass",
        56,
    ),
    (
        "sass-modern/sm_86/simpleVoteIntrinsics__VoteAnyKernel3.sass",
        40,
    ),
    (
        "sass-modern/sm_86/sortingNetworks__bitonicSortShared.sass",
        96,
    ),
    (
        "sass-modern/sm_86/sortingNetworks__oddEvenMergeSortShared.sass",
        96,
    ),
    ("sass-modern/sm_86/transpose__transposeDiagonal.sass", 80),
    (
        "sass-modern/sm_86/warpAggregatedAtomicsCG__filter_arr.sass",
        88,
    ),
    (
        "sass-modern/sm_86/warpAggregatedAtomicsCG__mapToBuckets.sass",
        112,
    ),
    ("sass-modern/sm_90/FunctionPointers__SobelTex.sass", 256),
    ("sass-modern/sm_90/Mandelbrot__Mandelbrot0_float.sass", 408),
    (
        "sass-modern/sm_90/binaryPartitionCG__oddEvenCountAndSumCG.sass",
        128,
    ),
    ("sass-modern/sm_90/eigenvalues__bisectKernel.sass", 680),
    ("sass-modern/sm_90/histogram__histogram256Kernel.sass", 200),
    ("sass-modern/sm_90/matrixMul__MatrixMulCUDA_32.sass", 144),
    (
        "sass-modern/sm_90/mergeSort__bitonicMergeElementaryIntervals_0.sass",
        439,
    ),
    (
        "sass-modern/sm_90/mergeSort__mergeElementaryIntervals_0.sass",
        295,
    ),
    ("sass-modern/sm_90/newdelete__containerConsume.sass", 480),
    (
        "sass-modern/sm_90/particles__reorderDataAndFindCellStartD.sass",
        80,
    ),
    ("sass-modern/sm_90/reduction__cg_reduce_int.sass", 72),
    (
        "sass-modern/sm_90/reduction__multi_warp_cg_reduce_256_128.sass",
        256,
    ),
    ("sass-modern/sm_90/reduction__reduce4_256.sass", 120),
    ("sass-modern/sm_90/reduction__reduce7_256_pow2.sass", 96),
    ("sass-modern/sm_90/scan__scanExclusiveShared.sass", 64),
    ("sass-modern/sm_90/shfl_scan__shfl_scan_test.sass", 112),
    ("sass-modern/sm_90/simpleAssert__testKernel.sass", 40),
    (
        "sass-modern/sm_90/simpleAtomicIntrinsics__testKernel.sass",
        56,
    ),
    (
        "sass-modern/sm_90/simpleVoteIntrinsics__VoteAnyKernel3.sass",
        32,
    ),
    (
        "sass-modern/sm_90/sortingNetworks__bitonicSortShared.sass",
        112,
    ),
    (
        "sass-modern/sm_90/sortingNetworks__oddEvenMergeSortShared.sass",
        112,
    ),
    ("sass-modern/sm_90/transpose__transposeDiagonal.sass", 88),
    (
        "sass-modern/sm_90/warpAggregatedAtomicsCG__filter_arr.sass",
        80,
    ),
    (
        "sass-modern/sm_90/warpAggregatedAtomicsCG__mapToBuckets.sass",
        104,
    ),
];

/// Address gaps (instruction words `cuobjdump` printed without a mnemonic) per file: the only
/// warnings the corpus may produce.
const GAPS: &[(&str, usize)] = &[
    (
        "sass-modern/sm_90/mergeSort__bitonicMergeElementaryIntervals_0.sass",
        1,
    ),
    (
        "sass-modern/sm_90/mergeSort__mergeElementaryIntervals_0.sass",
        17,
    ),
];

fn listing(rel: &str) -> String {
    let path = corpus_root().join(rel);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("corpus file {} missing: {e}", path.display()))
}

/// Every listing file under the corpus folders, relative to the root.
fn corpus_files() -> Vec<String> {
    let root = corpus_root();
    let mut dirs = vec![root.join("sass")];
    for arch in ["sm_61", "sm_70", "sm_75", "sm_86", "sm_90"] {
        dirs.push(root.join("sass-modern").join(arch));
    }
    let mut files = Vec::new();
    for dir in dirs {
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("corpus missing at {}: {e}", dir.display()));
        for e in entries.filter_map(Result::ok) {
            let p = e.path();
            if matches!(
                p.extension().and_then(|x| x.to_str()),
                Some("sass" | "cuasm")
            ) {
                let rel = p.strip_prefix(&root).unwrap_or(Path::new(""));
                files.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn the_recorded_counts_cover_every_corpus_file() {
    let recorded: std::collections::BTreeSet<String> =
        COUNTS.iter().map(|(f, _)| f.to_string()).collect();
    let found: std::collections::BTreeSet<String> = corpus_files().into_iter().collect();
    let missing: Vec<_> = found.difference(&recorded).collect();
    let gone: Vec<_> = recorded.difference(&found).collect();
    assert!(
        missing.is_empty() && gone.is_empty(),
        "not recorded: {missing:?}; recorded but absent: {gone:?}"
    );
    assert_eq!(COUNTS.len(), 139);
}

#[test]
fn every_listing_keeps_its_count_with_no_error_and_no_unexplained_warning() {
    for &(rel, count) in COUNTS {
        let text = listing(rel);
        let out = sass::parse(&text, None, &Limits::default());
        let errors: Vec<_> = out.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert!(errors.is_empty(), "{rel}: {errors:?}");
        let kernel = out.kernel.unwrap_or_else(|| panic!("{rel}: no kernel"));
        assert_eq!(kernel.instructions.len(), count, "{rel}");
        let (relocations, warnings): (Vec<_>, Vec<_>) = out
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .partition(|d| d.message.contains("unresolved relocation"));
        // Calls of runtime functions (`JCAL 0x0`, `CALL.ABS.NOINC 0x0`, or by name in
        // CuAssembler/nvdisasm text: ``JCAL `(vprintf)``) get one warning each.
        let calls_to_zero = text
            .lines()
            .filter(|l| {
                let body = l.split(";").next().unwrap_or("");
                (body.contains("JCAL ") || body.contains("CALL.ABS"))
                    && (body.trim_end().ends_with(" 0x0") || body.contains("`("))
            })
            .count();
        assert_eq!(relocations.len(), calls_to_zero, "{rel}: {relocations:?}");
        assert!(
            warnings
                .iter()
                .all(|d| d.message.contains("missing between")),
            "{rel}: {warnings:?}"
        );
        let gaps = GAPS.iter().find(|(f, _)| *f == rel).map_or(0, |(_, n)| *n);
        assert_eq!(warnings.len(), gaps, "{rel}: {warnings:?}");
    }
}

#[test]
fn every_corpus_opcode_is_in_the_table_for_its_generation() {
    for &(rel, _) in COUNTS {
        let text = listing(rel);
        let out = sass::parse(&text, None, &Limits::default());
        let Some(kernel) = out.kernel else {
            panic!("{rel}: no kernel")
        };
        let family = kernel.arch.as_deref().and_then(isa_table::Family::of_arch);
        for ins in &kernel.instructions {
            let info = isa_table::lookup(&ins.opcode.name)
                .unwrap_or_else(|| panic!("{rel}: `{}` not in the table", ins.opcode.name));
            if let Some(f) = family {
                assert!(
                    info.families.contains(f),
                    "{rel}: `{}` not listed for {f:?}",
                    info.name
                );
            }
        }
    }
}
