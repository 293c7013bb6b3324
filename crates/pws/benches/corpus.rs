//! Speed of the whole PWS analysis in optimal mode (structure, Select, optimal split
//! selection, Prune, longest path, kernel bounds, timelines) on every graph derived from
//! the corpus: the 77 graphs of the public solver and the 20 GCN kernels (loops unrolled
//! with bound 10). Target: every graph under 100 ms.
//!
//! Before criterion's sampling, each graph is timed once and the slowest is printed, so the
//! per-graph maximum is visible even though criterion measures whole sweeps.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use criterion::{criterion_group, Criterion};
use isa::Limits;
use pws::{
    analyze, build_from_gcn, read_csv, Budget, GcnGraphOptions, Hardware, LoopBounds, Options,
    SplitMode, WavefrontCfg,
};

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

fn files(sub: &str, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(corpus().join(sub))
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().and_then(|x| x.to_str()) == Some(ext));
    v.sort();
    v
}

fn graphs() -> Vec<(String, WavefrontCfg)> {
    let mut out = Vec::new();
    for sub in ["pws/rodinia", "pws/synthetic"] {
        for p in files(sub, "csv") {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            match read_csv(&text, 1_000_000) {
                Ok(g) => out.push((p.display().to_string(), g)),
                Err(e) => panic!("{}: {e}", p.display()),
            }
        }
    }
    let options = GcnGraphOptions {
        loop_bounds: LoopBounds {
            default: Some(10),
            ..LoopBounds::default()
        },
        ..GcnGraphOptions::default()
    };
    for p in files("gcn", "s") {
        let text = std::fs::read_to_string(&p).unwrap_or_default();
        let prog = isa::gcn::parse(&text, &Limits::default());
        let Some(f) = prog.function(None) else {
            panic!("{}: no function", p.display())
        };
        match build_from_gcn(f, &options, &Budget::default()) {
            Ok(g) => out.push((p.display().to_string(), g.cfg)),
            Err(e) => panic!("{}: {e}", p.display()),
        }
    }
    out
}

fn options() -> (Hardware, Options) {
    let hw = Hardware {
        s: 3,
        ..Hardware::gem5_gcn3()
    };
    let o = Options {
        mode: SplitMode::Optimal,
        ..Options::default()
    };
    (hw, o)
}

fn bench_corpus(c: &mut Criterion) {
    let all = graphs();
    let (hw, o) = options();
    let mut slowest = (0.0f64, String::new(), 0usize);
    for (name, g) in &all {
        let t = Instant::now();
        let r = analyze(g, &hw, &o);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        if let Err(e) = r {
            panic!("{name}: {e}");
        }
        if ms > slowest.0 {
            slowest = (ms, name.clone(), g.nodes.len());
        }
    }
    println!(
        "{} graphs; slowest single analysis: {:.2} ms ({} nodes) {}",
        all.len(),
        slowest.0,
        slowest.2,
        slowest.1
    );
    let mut group = c.benchmark_group("pws optimal");
    group.sample_size(10);
    group.bench_function("all 97 corpus graphs", |b| {
        b.iter(|| {
            for (_, g) in &all {
                let _ = black_box(analyze(black_box(g), &hw, &o));
            }
        })
    });
    let mut largest: Vec<&(String, WavefrontCfg)> = all.iter().collect();
    largest.sort_by_key(|(_, g)| std::cmp::Reverse(g.nodes.len()));
    for (name, g) in largest.into_iter().take(3) {
        let short = name.rsplit('/').next().unwrap_or(name).to_string();
        group.bench_function(format!("{short} ({} nodes)", g.nodes.len()), |b| {
            b.iter(|| analyze(black_box(g), &hw, &o))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_corpus);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
