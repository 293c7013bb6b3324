//! Loop iteration counts observed in a run (issue #26 item 3), named as each mode's
//! `loop_bounds` key loops: `simulation.loop_iterations` reports them, and `warp-cfg --set
//! loop_bounds=observed` takes them as loop bounds, so a user gets the bound of the run they
//! just watched without typing a bound. The counting is the simulator's
//! ([`sim::loop_counts`]: per thread, the most header runs in one entry); this module finds
//! the loops in each dialect's graph and names them.
//!
//! SASS loops are those of the block graph without call and return edges (the ones the
//! warp-cfg mode bounds by header address) and with them (loops inside subroutines); a header
//! found both ways keeps the larger count.

use crate::kernel_text::Sass;
use isa::{BlockGraph, EdgeKind, Kernel};
use serde::{Deserialize, Serialize};
use sim::loop_counts::{self, BlockLoop};
use std::collections::BTreeMap;
use ts_rs::TS;

/// One loop and how often its header ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ObservedLoop {
    /// The header's address (as `loop_bounds` keys it, `0x…`).
    pub header: String,
    /// The header's source line.
    pub line: u32,
    /// The most times one thread ran the header in one entry into the loop; 0: no thread
    /// entered it.
    pub iterations: u64,
}

/// The loops of `graph`, with and without call edges.
pub(crate) fn loops(graph: &BlockGraph) -> Vec<BlockLoop> {
    let n = graph.blocks.len();
    let program = |with_calls: bool| ipet::Cfg {
        costs: vec![0; n],
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
        .map(|l| BlockLoop::new(l.header, &l.body, n))
        .collect()
}

/// Per loop header of the SASS `graph`, from block entries `(block, mask of the threads
/// entering it)` of runs of `threads`-thread warps, one list per warp in issue order (a
/// concrete executor's, for tests that check bounds against it).
pub fn count(
    kernel: &Kernel,
    graph: &BlockGraph,
    warps: &[Vec<(usize, u64)>],
    threads: usize,
) -> Vec<ObservedLoop> {
    let found = loops(graph);
    let most = loop_counts::most_iterations(&found, warps, threads);
    by_header_address(kernel, graph, found.iter().map(|l| l.header).zip(most))
}

/// One row per header address of the SASS `graph`: the most iterations of the loops headed
/// there (`(header block, iterations)` pairs; a block reached in several contexts heads
/// several).
fn by_header_address(
    kernel: &Kernel,
    graph: &BlockGraph,
    counts: impl Iterator<Item = (usize, u64)>,
) -> Vec<ObservedLoop> {
    let mut out: BTreeMap<u64, ObservedLoop> = BTreeMap::new();
    for (header, most) in counts {
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

/// Per loop of the PTX function `f` (its natural loops, named by their header's label as the
/// `rr` mode's `loop_bounds` key them: `roundrobin::loops`), from a traced run of it.
pub fn of_ptx_run(f: &isa::ptx::Function, run: &sim::Simulation) -> Vec<ObservedLoop> {
    let Ok(cf) = roundrobin::control_flow::build(f) else {
        return Vec::new();
    };
    let found = roundrobin::loops::find(f, &cf);
    let loops: Vec<BlockLoop> = found
        .loops
        .iter()
        .map(|l| BlockLoop {
            header: l.header,
            body: l.body.clone(),
        })
        .collect();
    let most = loop_counts::from_trace(run, &loops, |pc| {
        let b = *cf.block_of.get(pc)?;
        (cf.blocks.get(b)?.start == pc).then_some(b)
    })
    .unwrap_or_else(|| vec![0; loops.len()]);
    found
        .loops
        .iter()
        .zip(most)
        .map(|(l, most)| ObservedLoop {
            header: l.label.clone(),
            line: l.span.line,
            iterations: most,
        })
        .collect()
}

/// Per loop of the GCN3 function `f` (natural loops of its wavefront CFG, `isa::flow`, named
/// by their header's label as the `pws` mode's `loop_bounds` key them), from a traced run of
/// it (the kernel's instructions first in the simulated image).
pub fn of_gcn_run(f: &isa::gcn::GcnFunction, run: &sim::Simulation) -> Vec<ObservedLoop> {
    let graph = isa::flow::build(&isa::gcn::flows(f));
    let program = ipet::Cfg {
        costs: vec![0; graph.blocks.len()],
        edges: graph.edges.iter().map(|&(a, b, _)| (a, b)).collect(),
        entry: 0,
        exits: Vec::new(),
    };
    let n = graph.blocks.len();
    let found: Vec<BlockLoop> = ipet::find_loops(&program)
        .into_iter()
        .filter(|l| !l.irreducible)
        .map(|l| BlockLoop::new(l.header, &l.body, n))
        .collect();
    let most = loop_counts::from_trace(run, &found, |pc| {
        let b = graph.block_of(pc)?;
        (graph.blocks.get(b)?.first == pc).then_some(b)
    })
    .unwrap_or_else(|| vec![0; found.len()]);
    let mut label_of: BTreeMap<usize, &String> = BTreeMap::new();
    for (l, &i) in &f.labels {
        label_of.entry(i).or_insert(l);
    }
    found
        .iter()
        .zip(most)
        .filter_map(|(l, most)| {
            let first = graph.blocks.get(l.header)?.first;
            let label = label_of
                .get(&first)
                .map(|l| (*l).clone())
                .or_else(|| f.block_comments.get(&first).cloned())?;
            Some(ObservedLoop {
                header: label,
                line: f.instructions.get(first).map_or(0, |i| i.span.line),
                iterations: most,
            })
        })
        .collect()
}

/// The loops of the SASS kernel for the simulator to count as it runs
/// (`sim::Launch::loops`), in the order [`of_run`] reads its counts back.
pub(crate) fn watch(sass: &Sass) -> Vec<sim::WatchedLoop> {
    let graph = &sass.graph;
    loop_counts::watched(sass.loops(), |b| {
        graph.blocks.get(b).map(|b| (b.first, b.last))
    })
}

/// Per loop header of `graph`, from a simulation of `kernel`: the counts the simulator made
/// as it ran when its launch watched [`watch`]'s loops (whole even when the trace was cut);
/// else from the trace, and empty without one.
pub(crate) fn of_run(sass: &Sass, run: &sim::Simulation) -> Vec<ObservedLoop> {
    let (kernel, graph, found) = (&sass.kernel, &sass.graph, sass.loops());
    let headers = found.iter().map(|l| l.header);
    if !run.loop_counts.is_empty() && run.loop_counts.len() == found.len() {
        return by_header_address(kernel, graph, headers.zip(run.loop_counts.iter().copied()));
    }
    let mut first: BTreeMap<usize, usize> = BTreeMap::new();
    for (b, block) in graph.blocks.iter().enumerate() {
        first.insert(block.first, b);
    }
    match loop_counts::from_trace(run, found, |pc| first.get(&pc).copied()) {
        Some(most) => by_header_address(kernel, graph, headers.zip(most)),
        None => Vec::new(),
    }
}
