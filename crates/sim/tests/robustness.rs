//! No panics on any input: every corpus kernel and random instruction soup either runs or
//! stops with located diagnostics.

mod common;

use common::preset;
use proptest::prelude::*;
use sim::{ArrayInit, Budget, Fill, Launch, MemoryInit};

fn small_budget() -> Budget {
    Budget {
        max_steps: 20_000,
        max_cycles: 200_000,
        ..Budget::default()
    }
}

fn check(k: &isa::Kernel) -> Result<(), String> {
    let launch = Launch {
        block: [64, 1, 1],
        params: vec![0x1000; 16],
        shared_bytes: 4096,
        ..Launch::default()
    };
    let mem = MemoryInit {
        arrays: vec![ArrayInit {
            name: "data".into(),
            address: 0x1000,
            words: 4096,
            fill: Fill::Random { seed: 1, below: 0 },
        }],
        open: None,
    };
    for name in ["unit-cost", "makespan", "gpgpusim-like"] {
        match sim::run(k, &launch, &preset(name), &mem, &small_budget()) {
            Ok(s) => {
                if s.issued == 0 {
                    return Err("a run without instructions".into());
                }
            }
            Err(e) => {
                if e.diagnostics.is_empty() || !e.diagnostics.iter().all(|d| d.is_error()) {
                    return Err(format!("{name}: an error without error diagnostics: {e:?}"));
                }
            }
        }
    }
    Ok(())
}

#[test]
fn every_corpus_kernel_runs_or_reports() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/sass");
    let mut seen = 0;
    let mut ran = 0;
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    entries.sort();
    for path in entries {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let out = isa::sass::parse(&text, None, &isa::Limits::default());
        let Some(k) = out.kernel else { continue };
        seen += 1;
        check(&k).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let unit = sim::run(
            &k,
            &Launch::default(),
            &preset("unit-cost"),
            &MemoryInit::default(),
            &small_budget(),
        );
        if let Err(e) = &unit {
            // A located error names a line of the file (or is about the request: line 0).
            let lines = text.lines().count() as u32;
            assert!(e.diagnostics[0].line <= lines, "{}: {e}", path.display());
        } else {
            ran += 1;
        }
    }
    assert!(seen >= 19, "only {seen} corpus kernels");
    // Real kernels read their pointers from parameters the default launch does not define,
    // so none runs to completion on it; what matters is that each stops with a diagnostic.
    assert_eq!(ran, 0);
}

const OPS: [&str; 24] = [
    "MOV",
    "IADD",
    "IADD.X",
    "ISETP.LT.AND",
    "FSETP.GT.AND",
    "SEL",
    "LOP.AND",
    "LOP3.LUT",
    "XMAD.MRG",
    "SHL",
    "SHR.U32",
    "FFMA",
    "F2I.TRUNC",
    "I2F.F32.S32",
    "LDG.E",
    "STG.E",
    "LDS",
    "STS",
    "S2R",
    "BRA",
    "SSY",
    "SYNC",
    "BRK",
    "MUFU.RCP",
];
const ARGS: [&str; 12] = [
    "R0",
    "R1",
    "R2",
    "RZ",
    "P0",
    "PT",
    "!P1",
    "0x10",
    "c[0x0][0x140]",
    "[R2]",
    "SR_TID.X",
    "c[0x0][0x8]",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Random (mostly meaningless) instructions with random operands, optionally guarded,
    /// ending in EXIT: the simulator never panics.
    #[test]
    fn random_instructions_never_panic(
        lines in prop::collection::vec(
            (0usize..24, prop::collection::vec(0usize..12, 0..5), prop::option::of(0usize..3)),
            1..12
        )
    ) {
        let mut src = String::new();
        for (op, args, guard) in &lines {
            if let Some(g) = guard {
                src += ["@P0 ", "@!P1 ", "@PT "][*g];
            }
            let mut text = OPS[*op].to_string();
            if OPS[*op] == "BRA" || OPS[*op] == "SSY" {
                text += " 0x0";
            } else if !args.is_empty() {
                text += " ";
                text += &args.iter().map(|&a| ARGS[a]).collect::<Vec<_>>().join(", ");
            }
            src += &text;
            src += ";\n";
        }
        src += "EXIT;\n";
        let out = isa::sass::parse(&src, None, &isa::Limits::default());
        if let Some(k) = out.kernel {
            check(&k).map_err(TestCaseError::fail)?;
        }
    }
}

/// Launch dimensions whose product overflows 64 bits are a budget error, not a panic.
#[test]
fn launch_larger_than_64_bits_is_refused() {
    let k = isa::sass::parse("EXIT ;", None, &isa::Limits::default())
        .kernel
        .expect("kernel");
    let huge = Launch {
        grid: [u32::MAX; 3],
        block: [u32::MAX; 3],
        ..Launch::default()
    };
    assert_eq!(huge.blocks(), u64::MAX);
    assert_eq!(huge.threads_per_block(), u64::MAX);
    let e = sim::run(
        &k,
        &huge,
        &preset("unit-cost"),
        &MemoryInit::default(),
        &Budget::default(),
    )
    .expect_err("refused");
    assert!(e
        .diagnostics
        .iter()
        .any(|d| d.message.contains("max_blocks")));
}
