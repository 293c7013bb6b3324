//! Speed of the exact search (method (b)) on Fig. 6's kernel "LLCLL" with σ_L = σ_C = 1,
//! and of the paper's ILP (method (a), Fig. 3) under the propagating branch and bound.
//!
//! Targets: W = 32 under 50 ms, W = 64 under 1 s. W = 128 takes seconds and about half a
//! gigabyte, so it is timed once (outside criterion's sampling) and printed. The ILP group
//! times Fig. 2's setting, the hardest instance of the tested range (4 warps, "LLCCCC"), and
//! Fig. 6's kernel with 6 warps (the paper's CPLEX needed minutes from 9 warps on); the
//! `ilp lp` group times the LP-based branch and bound on two small instances.

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, Criterion};
use isa::lc::LcOp;
use makespan::{exact, exact_makespan, solve_ilp, Budget, IlpSolver, IlpVariant, Transformed};

fn string(s: &str) -> Transformed {
    let units = s
        .chars()
        .map(|c| if c == 'L' { LcOp::L } else { LcOp::C })
        .collect();
    match Transformed::from_sigmas(units, 1, 1) {
        Ok(t) => t,
        Err(e) => panic!("{e}"),
    }
}

fn llcll() -> Transformed {
    string("LLCLL")
}

fn budget() -> Budget {
    Budget {
        max_states: 60_000_000,
        ..Budget::default()
    }
}

fn bench_exact(c: &mut Criterion) {
    let t = llcll();
    let b = budget();
    let mut group = c.benchmark_group("exact LLCLL sigma 1");
    group.sample_size(10);
    for w in [32u32, 64] {
        group.bench_function(format!("W={w}"), |bench| {
            bench.iter(|| exact(black_box(&t), black_box(w), &b))
        });
    }
    group.finish();
}

fn bench_ilp(c: &mut Criterion) {
    let b = Budget {
        max_ilp_variables: 100_000,
        max_bb_nodes: 10_000_000,
        ..Budget::default()
    };
    let mut group = c.benchmark_group("ilp propagation");
    group.sample_size(10);
    for (s, w) in [("LLC", 4u32), ("LLCCCC", 4), ("LLCLL", 6)] {
        let t = string(s);
        for (v, name) in [(IlpVariant::Short, "short"), (IlpVariant::Long, "long")] {
            group.bench_function(format!("{s} W={w} {name}"), |bench| {
                bench.iter(|| solve_ilp(black_box(&t), w, v, IlpSolver::Propagation, &b))
            });
        }
    }
    group.finish();
}

/// The LP-at-every-node branch and bound (`ilp_solver=lp`, `ipet::branch_and_bound`) on
/// instances small enough for it: what the LP solver costs per node.
fn bench_ilp_lp(c: &mut Criterion) {
    let b = Budget {
        max_ilp_variables: 100_000,
        max_lp_solves: 1_000_000,
        ..Budget::default()
    };
    let mut group = c.benchmark_group("ilp lp");
    group.sample_size(10);
    for (s, w) in [("LLC", 2u32), ("LCC", 3)] {
        let t = string(s);
        group.bench_function(format!("{s} W={w} short"), |bench| {
            bench.iter(|| {
                solve_ilp(
                    black_box(&t),
                    w,
                    IlpVariant::Short,
                    IlpSolver::LpBranchAndBound,
                    &b,
                )
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_exact, bench_ilp, bench_ilp_lp);

fn main() {
    benches();
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--test" || a == "--list") {
        return;
    }
    let t = llcll();
    let start = Instant::now();
    let r = exact(&t, 128, &budget());
    let elapsed = start.elapsed();
    match r {
        Ok(s) => println!(
            "exact LLCLL sigma 1/W=128 (one run, witness included): makespan {} in {:.2?}",
            s.makespan, elapsed
        ),
        Err(e) => println!("exact LLCLL sigma 1/W=128: {e}"),
    }
    if let Ok((_, stats)) = exact_makespan(&t, 64, &budget()) {
        println!("exact LLCLL sigma 1/W=64: {} states memoised", stats.states);
    }
    Criterion::default().configure_from_args().final_summary();
}
