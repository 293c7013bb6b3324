//! Shared helpers: parse SASS text, build both graphs, describe edges by block address.

#![allow(dead_code)]

use cfg::concrete::{self, BlockVisit, Outcome};
use cfg::{Options, WarpCfg, WarpEdgeKind};
use isa::{blocks, sass, BlockGraph, Kernel, Limits};
use std::collections::BTreeSet;
mod stack_match;
use stack_match::stack_matches;

pub fn kernel(src: &str) -> (Kernel, BlockGraph) {
    let out = sass::parse(src, None, &Limits::default());
    assert!(!out.has_errors(), "{:?}", out.diagnostics);
    let k = out.kernel.expect("kernel");
    let g = blocks::build(&k, &Limits::default());
    (k, g)
}

pub fn warp(src: &str, options: &Options) -> (Kernel, BlockGraph, WarpCfg) {
    let (k, g) = kernel(src);
    let w = cfg::build(&k, &g, options).unwrap_or_else(|d| panic!("{d}"));
    (k, g, w)
}

/// Edges of one kind as (from block start address, to block start address or None = exit).
pub fn edges_of(
    k: &Kernel,
    g: &BlockGraph,
    w: &WarpCfg,
    kind: WarpEdgeKind,
) -> Vec<(u64, Option<u64>)> {
    let addr = |b: Option<usize>| b.map(|b| k.instructions[g.blocks[b].first].address);
    let mut v: Vec<_> = w
        .block_edges()
        .into_iter()
        .filter(|e| e.2 == kind)
        .map(|(f, t, _)| (addr(f).unwrap_or(u64::MAX), addr(t)))
        .collect();
    v.sort();
    v.dedup();
    v
}

pub fn dump(k: &Kernel, g: &BlockGraph, w: &WarpCfg) -> String {
    let mut s = String::new();
    for n in &w.nodes {
        let b = n
            .block
            .map(|b| format!("{:#06x}", k.instructions[g.blocks[b].first].address))
            .unwrap_or("EXIT".into());
        let st: Vec<String> = n
            .stack
            .iter()
            .map(|e| {
                let pts: Vec<String> = e
                    .points
                    .iter()
                    .map(|p| format!("{:?}@{}", p.tag, p.pc))
                    .collect();
                format!("{}{}", pts.join("|"), if e.repeated { "*" } else { "" })
            })
            .collect();
        s += &format!("n{} {} [{}]\n", n.id, b, st.join(","));
    }
    for e in &w.edges {
        s += &format!("  n{} -> n{} {}\n", e.from, e.to, e.kind.name());
    }
    s
}

/// The concrete pending entries as (next instruction, tag).
fn points(pending: &[concrete::ConcreteEntry]) -> Vec<(usize, cfg::Tag)> {
    pending.iter().map(|e| (e.pc, e.tag)).collect()
}

fn matching(w: &WarpCfg, v: &BlockVisit) -> BTreeSet<usize> {
    w.nodes
        .iter()
        .filter(|n| n.block == Some(v.block) && stack_matches(&n.stack, &points(&v.pending)))
        .map(|n| n.id)
        .collect()
}

/// Checks that the trace is a path of `w`; returns a description of the first mismatch.
pub fn check_trace(w: &WarpCfg, visits: &[BlockVisit], finished: bool) -> Result<(), String> {
    let mut current: BTreeSet<usize> = matching(w, &visits[0]);
    if !current.contains(&w.entry) {
        return Err("entry state not matched".into());
    }
    current = BTreeSet::from([w.entry]);
    for (k, v) in visits.iter().enumerate().skip(1) {
        let targets = matching(w, v);
        let next: BTreeSet<usize> = w
            .edges
            .iter()
            .filter(|e| current.contains(&e.from) && targets.contains(&e.to))
            .map(|e| e.to)
            .collect();
        if next.is_empty() {
            return Err(format!(
                "step {k}: no edge from {current:?} to a node matching block {} with pending {:?}",
                v.block, v.pending
            ));
        }
        current = next;
    }
    if finished
        && !w
            .edges
            .iter()
            .any(|e| current.contains(&e.from) && e.to == w.exit)
    {
        return Err(format!("no exit edge from {current:?}"));
    }
    Ok(())
}

/// Runs the concrete executor on `src` for each data seed and warp size (1, 4, 8, 32 threads)
/// and checks every finished run is a path of the warp-level CFG; returns how many were checked.
pub fn check_kernel(src: &str, data_seeds: &[u64], options: &Options) -> Result<usize, String> {
    let (k, g) = kernel(src);
    let w = cfg::build(&k, &g, options).map_err(|d| format!("analysis failed: {d}"))?;
    let mut checked = 0;
    for &seed in data_seeds {
        for threads in [1usize, 4, 8, 32] {
            let t = concrete::run(&k, &g, threads, seed, 20_000);
            match t.outcome {
                Outcome::Finished => {}
                Outcome::StepLimit => continue,
                Outcome::Unsupported(why) => return Err(format!("executor: {why}")),
            }
            check_trace(&w, &t.visits, true)
                .map_err(|e| format!("{e}\nthreads {threads} seed {seed}\n{}", dump(&k, &g, &w)))?;
            checked += 1;
        }
    }
    Ok(checked)
}
