//! Native timing of the analyses on the real SASS corpus (criterion).
//! `cargo bench -p warpbound` prints the median per kernel and mode.

use criterion::{criterion_group, criterion_main, Criterion};
use isa::Dialect;
use std::path::PathBuf;
use warpbound::{analyze, Request};

fn corpus() -> Vec<(String, String)> {
    let dir = std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
        .join("sass");
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
        for (name, text) in corpus() {
            let mut req = Request::new(text, Dialect::Sass);
            req.mode = Some(mode.into());
            group.bench_function(&name, |b| b.iter(|| analyze(&req)));
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
