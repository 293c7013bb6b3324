//! Native timing of every analysis mode on real inputs (criterion): the SASS corpus for `cfg`
//! and `warp-cfg`, the GCN corpus and the solver's Fig. 2 graph for `pws`, the Sim-D corpus
//! with its `launch.tsv` for `simd`, a Rodinia PTX kernel for `rr`, and the makespan paper's
//! settings. `cargo bench -p warpbound` prints the median per input and mode.

use criterion::{criterion_group, criterion_main, Criterion};
use isa::Dialect;
use std::path::PathBuf;
use warpbound::{analyze, Request};

fn corpus_dir() -> PathBuf {
    std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
}

fn corpus(sub: &str) -> Vec<(String, String)> {
    let dir = corpus_dir().join(sub);
    let mut v: Vec<(String, String)> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .filter_map(|e| {
                    let name = e.file_name().to_string_lossy().to_string();
                    std::fs::read_to_string(e.path()).ok().map(|t| (name, t))
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn bench(c: &mut Criterion) {
    for mode in ["cfg", "warp-cfg"] {
        let mut group = c.benchmark_group(mode);
        group.sample_size(20);
        for (name, text) in corpus("sass") {
            let mut req = Request::new(text, Dialect::Sass);
            req.mode = Some(mode.into());
            group.bench_function(&name, |b| b.iter(|| analyze(&req)));
        }
        group.finish();
    }
}

fn request(
    text: &str,
    dialect: Dialect,
    mode: &str,
    params: &[(&str, serde_json::Value)],
) -> Request {
    let mut req = Request::new(text, dialect);
    req.mode = Some(mode.into());
    for (k, v) in params {
        req.params.insert(k.to_string(), v.clone());
    }
    req
}

fn bench_other_modes(c: &mut Criterion) {
    let mut group = c.benchmark_group("pws");
    group.sample_size(20);
    for (name, text) in corpus("gcn") {
        let req = request(&text, Dialect::Gcn, "pws", &[]);
        group.bench_function(&name, |b| b.iter(|| analyze(&req)));
    }
    if let Ok(text) = std::fs::read_to_string(corpus_dir().join("pws/fig2.csv")) {
        let req = request(&text, Dialect::PwsCsv, "pws", &[]);
        group.bench_function("fig2.csv", |b| b.iter(|| analyze(&req)));
    }
    group.finish();

    let mut group = c.benchmark_group("simd");
    group.sample_size(10);
    let launches =
        std::fs::read_to_string(corpus_dir().join("simd/launch.tsv")).unwrap_or_default();
    for line in launches.lines().skip(1) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (Some(d), Some(file)) = (
            words
                .iter()
                .position(|w| *w == "-d")
                .and_then(|i| words.get(i + 1)),
            words.iter().find(|w| w.ends_with(".sas")),
        ) else {
            continue;
        };
        let width = words
            .iter()
            .position(|w| *w == "-w")
            .and_then(|i| words.get(i + 1))
            .unwrap_or(&"32");
        let name = file.rsplit('/').next().unwrap_or(file);
        let Ok(text) = std::fs::read_to_string(corpus_dir().join("simd").join(name)) else {
            continue;
        };
        let req = request(
            &text,
            Dialect::Simd,
            "simd",
            &[
                ("ndrange", (*d).into()),
                ("wg_width", width.parse::<u64>().unwrap_or(32).into()),
            ],
        );
        group.bench_function(name, |b| b.iter(|| analyze(&req)));
    }
    group.finish();

    let mut group = c.benchmark_group("rr");
    group.sample_size(20);
    if let Ok(text) = std::fs::read_to_string(corpus_dir().join("ptx/gaussian___Z4Fan1PfS_ii.ptx"))
    {
        let req = request(
            &text,
            Dialect::Ptx,
            "rr",
            &[
                ("grid", "4,1,1".into()),
                ("block", "128,1,1".into()),
                ("params", "0,4096,16,0".into()),
            ],
        );
        group.bench_function("gaussian Fan1 <<<4,128>>>", |b| b.iter(|| analyze(&req)));
    }
    group.finish();

    let mut group = c.benchmark_group("makespan");
    group.sample_size(10);
    for (name, text, warps) in [
        ("LLCLL sigma 1", "LLCLL", 32),
        ("LLCLL sigma 1", "LLCLL", 64),
    ] {
        let req = request(
            text,
            Dialect::Lc,
            "makespan",
            &[
                ("warps", warps.into()),
                ("ls_units", 32.into()),
                ("cores", 32.into()),
            ],
        );
        group.bench_function(format!("{name} W={warps}"), |b| b.iter(|| analyze(&req)));
    }
    group.finish();
}

criterion_group!(benches, bench, bench_other_modes);
criterion_main!(benches);
