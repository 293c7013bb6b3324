//! Helpers of the facade's soundness tests on generated barrier code (`shared_loop_bounds.rs`,
//! `interleaving_bounds.rs`): the warp-cfg bound of a SASS text, parsing, and the loop counts
//! a concrete run observed. Included by path (`#[path = "common/observed.rs"]`).

use isa::{blocks, sass, BlockGraph, Dialect, EdgeKind, Kernel, Limits};
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
/// loop, at least 1, from a run's block entries `(block, active mask)` (each thread's own
/// entries keep their order whatever the interleaving). Loops as the mode's shared bounds see them (the thread-level block graph
/// without call and return edges) and with those edges (so that loops inside subroutines,
/// which only the per-copy bounds keyed by address limit, get their counts too).
pub fn observed_loop_bounds(
    k: &Kernel,
    g: &BlockGraph,
    visits: &[(usize, u64)],
    threads: usize,
) -> BTreeMap<String, u64> {
    let program = |with_calls: bool| ipet::Cfg {
        costs: vec![0; g.blocks.len()],
        edges: g
            .edges()
            .iter()
            .filter(|e| with_calls || !matches!(e.2, EdgeKind::Call | EdgeKind::Return))
            .map(|&(a, b, _)| (a, b))
            .collect(),
        entry: 0,
        exits: Vec::new(),
    };
    let mut out = BTreeMap::new();
    for l in [false, true]
        .into_iter()
        .flat_map(|with_calls| ipet::find_loops(&program(with_calls)))
    {
        let mut most = 1;
        for t in 0..threads {
            let (mut inside, mut count) = (false, 0u64);
            for &(block, _) in visits.iter().filter(|v| v.1 >> t & 1 == 1) {
                let now = l.body.binary_search(&block).is_ok();
                if now && !inside {
                    count = 0;
                }
                if block == l.header {
                    count += 1;
                    most = most.max(count);
                }
                inside = now;
            }
        }
        let address = k.instructions[g.blocks[l.header].first].address;
        let e = out.entry(format!("{address:#x}")).or_insert(1);
        *e = (*e).max(most);
    }
    out
}
