//! Every PTX file of the corpus either analyses or fails with a located diagnostic; the
//! kernels whose addresses and branches depend only on thread ids and parameters analyse.

#[path = "../../isa/tests/common/robustness.rs"]
mod robustness;

use isa::ptx::{Function, ScalarType};
use isa::{ptx, Limits};
use roundrobin::presets::{fermi_gpgpusim, gem5_gpu_table7};
use roundrobin::{analyze, Dim3, Launch, Overrides, ParamValue};
use std::path::PathBuf;

fn corpus() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/ptx");
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("corpus dir").flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "ptx") {
            let name = p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            out.push((name, std::fs::read_to_string(&p).expect("read")));
        }
    }
    out.sort();
    out
}

/// Pointers far apart, integers 64, floats 1.0, structs zeroed.
fn launch_for(f: &Function) -> Launch {
    let params = f
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| match ScalarType::from_modifier(&p.ty) {
            _ if !p.dims.is_empty() => {
                ParamValue::Bytes(vec![0; p.size_bytes().unwrap_or(8) as usize])
            }
            Some(ScalarType::U64) | Some(ScalarType::S64) | Some(ScalarType::B64) => {
                ParamValue::Int(0x1000_0000 * (i as i64 + 1))
            }
            Some(t) if t.is_float() => ParamValue::Float(1.0),
            _ => ParamValue::Int(64),
        })
        .collect();
    Launch {
        grid: Dim3::new(2, 1, 1),
        block: Dim3::new(64, 1, 1),
        params,
    }
}

#[test]
fn corpus_analyses_or_reports_a_located_error() {
    let files = corpus();
    assert_eq!(files.len(), 18);
    let mut ok = Vec::new();
    for (name, text) in &files {
        let out = ptx::parse(text, &Limits::default());
        let f = out.module.function(None).expect("entry");
        let lines = text.lines().count() as u32;
        for config in [fermi_gpgpusim().config, gem5_gpu_table7().config] {
            match analyze(f, &launch_for(f), &config, &Overrides::default()) {
                Ok(r) => {
                    assert!(r.wcet.cycles > 0, "{name}");
                    ok.push(name.clone());
                }
                Err(d) => {
                    assert!(d.is_error());
                    assert!(d.line <= lines, "{name}: {d}");
                    assert!(d.line == 0 || d.column >= 1, "{name}: {d}");
                    println!("{name}: {d}");
                }
            }
        }
    }
    ok.dedup();
    println!("analysed: {ok:?}");
    for must in [
        "gaussian___Z4Fan1PfS_ii.ptx",
        "gaussian___Z4Fan2PfS_S_iii.ptx",
        "celer_memset-zero_thrust__thrust_parallel_for_fill.ptx",
    ] {
        assert!(ok.iter().any(|n| n == must), "{must} should analyse");
    }
}

mod fuzz {
    use super::*;
    use crate::robustness::with_hole;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Corpus files with a byte range deleted: parsing and analysis never panic; any
        /// error is located inside the text (or global, line 0).
        #[test]
        fn mutated_corpus_never_panics(file in 0usize..18, a in 0usize..20_000, len in 0usize..200) {
            let files = corpus();
            let (_, text) = &files[file % files.len()];
            let mutated = with_hole(text, a, len);
            let out = ptx::parse(&mutated, &Limits::default());
            if let Some(f) = out.module.function(None) {
                let mut config = fermi_gpgpusim().config;
                config.budgets.max_warp_steps = 20_000;
                if let Err(d) = analyze(f, &launch_for(f), &config, &Overrides::default()) {
                    prop_assert!(d.line <= mutated.lines().count() as u32);
                }
            }
        }
    }
}
