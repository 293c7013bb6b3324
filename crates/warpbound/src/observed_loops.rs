//! Loop iteration counts observed in a run (issue #26 item 3): per loop header of the
//! thread-level block graph, the most times one thread ran the header in one entry into the
//! loop. `simulation.loop_iterations` reports them, and `warp-cfg --set
//! loop_bounds=observed` takes them as loop bounds, so a user gets the bound of the run they
//! just watched without typing a bound.
//!
//! Counting per thread, not per warp, is what the warp-level CFG's bound needs: a loop bound
//! there limits how often the header runs per entry for the threads that run it together
//! (Jeanmougin et al. §4.1 bound loops of the thread-level CFG and carry them to the warp
//! level), and a warp iterates as long as its slowest thread. Each thread's own block entries
//! keep their order whatever the interleaving of divergent paths, so the count does not
//! depend on the stack order or independent thread scheduling.
//!
//! Loops are those of the block graph without call and return edges (the ones the warp-cfg
//! mode bounds by header address) and with them (loops inside subroutines); a header found
//! both ways keeps the larger count.

use isa::{BlockGraph, EdgeKind, Kernel};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One loop and how often its header ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObservedLoop {
    /// The header's address (as `loop_bounds` keys it, `0x…`).
    pub header: String,
    /// The header's source line.
    pub line: u32,
    /// The most times one thread ran the header in one entry into the loop; 0: no thread
    /// entered it.
    pub iterations: u64,
}

/// The loops of `graph` (header block, sorted body blocks), with and without call edges.
fn loops(graph: &BlockGraph) -> Vec<(usize, Vec<usize>)> {
    let program = |with_calls: bool| ipet::Cfg {
        costs: vec![0; graph.blocks.len()],
        edges: graph
            .edges()
            .iter()
            .filter(|e| with_calls || !matches!(e.2, EdgeKind::Call | EdgeKind::Return))
            .map(|&(a, b, _)| (a, b))
            .collect(),
        entry: 0,
        exits: Vec::new(),
    };
    [false, true]
        .into_iter()
        .flat_map(|with_calls| ipet::find_loops(&program(with_calls)))
        .map(|l| (l.header, l.body))
        .collect()
}

/// Per loop header, from block entries `(block, mask of the threads entering it)` of runs of
/// `threads`-thread warps: one list per warp, in issue order (module doc).
pub fn count(
    kernel: &Kernel,
    graph: &BlockGraph,
    warps: &[Vec<(usize, u64)>],
    threads: usize,
) -> Vec<ObservedLoop> {
    let mut out: BTreeMap<u64, ObservedLoop> = BTreeMap::new();
    for (header, body) in loops(graph) {
        let mut most = 0;
        for visits in warps {
            for t in 0..threads.min(64) {
                let (mut inside, mut n) = (false, 0u64);
                for &(block, _) in visits.iter().filter(|v| v.1 >> t & 1 == 1) {
                    let now = body.binary_search(&block).is_ok();
                    if now && !inside {
                        n = 0;
                    }
                    if block == header {
                        n += 1;
                        most = most.max(n);
                    }
                    inside = now;
                }
            }
        }
        let Some(ins) = graph
            .blocks
            .get(header)
            .and_then(|b| kernel.instructions.get(b.first))
        else {
            continue;
        };
        let e = out.entry(ins.address).or_insert(ObservedLoop {
            header: format!("{:#x}", ins.address),
            line: ins.span.line,
            iterations: 0,
        });
        e.iterations = e.iterations.max(most);
    }
    out.into_values().collect()
}

/// [`count`] for a traced simulation of `kernel`: each warp's issues of a block's first
/// instruction are its block entries (the active threads enter). Empty without a trace.
pub fn of_run(kernel: &Kernel, graph: &BlockGraph, run: &sim::Simulation) -> Vec<ObservedLoop> {
    let mut first: BTreeMap<usize, usize> = BTreeMap::new();
    for (b, block) in graph.blocks.iter().enumerate() {
        first.insert(block.first, b);
    }
    let warps: Vec<Vec<(usize, u64)>> = run
        .warps
        .iter()
        .map(|w| {
            w.issues
                .iter()
                .filter_map(|i| Some((*first.get(&(i.index as usize))?, i.active)))
                .collect()
        })
        .collect();
    let threads = run
        .warps
        .iter()
        .flat_map(|w| w.issues.first())
        .map(|i| usize::from(i.lanes))
        .max()
        .unwrap_or(32);
    if warps.iter().all(Vec::is_empty) {
        return Vec::new();
    }
    count(kernel, graph, &warps, threads)
}
