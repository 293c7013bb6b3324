//! PTX front-end speed, which every PTX analysis pays first: parsing the largest corpus
//! module, `reduction.ptx` (629 KB, 213 kernels, nvcc 11.8), and a small single-kernel file,
//! natively.
//!
//! `cargo bench -p isa --bench ptx_parse`. The corpus is read from `../shared/corpus`
//! (`WARPBOUND_CORPUS` to read it elsewhere); a missing file skips its benchmark.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use isa::{ptx, Limits};
use std::path::PathBuf;

fn corpus(rel: &str) -> Option<String> {
    let base = std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
        });
    std::fs::read_to_string(base.join(rel)).ok()
}

fn parse(c: &mut Criterion) {
    let mut g = c.benchmark_group("ptx-parse");
    for (name, rel) in [
        ("reduction", "ptx-modern/reduction.ptx"),
        ("simpleAssert", "ptx-modern/simpleAssert.ptx"),
    ] {
        let Some(text) = corpus(rel) else {
            eprintln!("skipping {name}: {rel} not found");
            continue;
        };
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| {
                let out = ptx::parse(std::hint::black_box(&text), &Limits::default());
                assert!(out.diagnostics.is_empty());
                out.module.functions.len()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, parse);
criterion_main!(benches);
