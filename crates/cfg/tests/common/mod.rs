//! Shared helpers: parse SASS text, build both graphs, describe edges by block address.

#![allow(dead_code)]

use cfg::{Options, WarpCfg, WarpEdgeKind};
use isa::{blocks, sass, BlockGraph, Kernel, Limits};

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
