//! Helpers of the facade's soundness tests on generated barrier code (`shared_loop_bounds.rs`,
//! `interleaving_bounds.rs`): the warp-cfg bound of a SASS text, parsing, and the loop counts
//! a concrete run observed. Included by path (`#[path = "common/observed.rs"]`).

use isa::{blocks, sass, BlockGraph, Dialect, Kernel, Limits};
use std::collections::BTreeMap;
use warpbound::{analyze, Request};

/// The unit-cost warp-cfg bound of `src` with these loop bounds.
pub fn bound(src: &str, loop_bounds: &BTreeMap<String, u64>, default: u64) -> Result<u64, String> {
    let mut req = Request::new(src, Dialect::Sass);
    req.mode = Some("warp-cfg".into());
    req.loop_bounds = loop_bounds.clone();
    req.params
        .insert("default_loop_bound".into(), serde_json::json!(default));
    let r = analyze(&req);
    r.wcet
        .as_ref()
        .map(|w| w.cycles)
        .ok_or_else(|| format!("no WCET: {:?}", r.diagnostics))
}

pub fn parse(src: &str) -> (Kernel, BlockGraph) {
    let out = sass::parse(src, None, &Limits::default());
    let k = out.kernel.expect("kernel");
    let g = blocks::build(&k, &Limits::default());
    (k, g)
}

/// Per loop header address, the most times one thread ran the header in one entry into the
/// loop, at least 1, from a run's block entries `(block, active mask)`: the facade's own
/// count (`warpbound::observed_loops`), which `loop_bounds=observed` uses.
pub fn observed_loop_bounds(
    k: &Kernel,
    g: &BlockGraph,
    visits: &[(usize, u64)],
    threads: usize,
) -> BTreeMap<String, u64> {
    warpbound::observed_loops::count(k, g, &[visits.to_vec()], threads)
        .into_iter()
        .map(|l| (l.header, l.iterations.max(1)))
        .collect()
}
