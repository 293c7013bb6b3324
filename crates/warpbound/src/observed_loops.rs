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

/// The most iterations per entry one thread made of each loop `(header block, in body?)`,
/// from block entries `(block, mask of the threads entering it)` of runs of `threads`-thread
/// warps: one list per warp, in issue order (module doc); 0 for a loop nobody entered.
fn most_iterations(
    loops: &[(usize, Vec<bool>)],
    warps: &[Vec<(usize, u64)>],
    threads: usize,
) -> Vec<u64> {
    // One pass per thread over its block entries, looking up the loops headed by each block
    // (a pass per loop and thread took seconds on thousands of loops).
    let mut by_header: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (li, (header, _)) in loops.iter().enumerate() {
        by_header.entry(*header).or_default().push(li);
    }
    let mut most = vec![0u64; loops.len()];
    let mut count = vec![0u64; loops.len()];
    for visits in warps {
        for t in 0..threads.min(64) {
            count.iter_mut().for_each(|c| *c = 0);
            let mut prev: Option<usize> = None;
            for &(block, _) in visits.iter().filter(|v| v.1 >> t & 1 == 1) {
                for &li in by_header.get(&block).into_iter().flatten() {
                    // An entry is an arrival at the header from outside the body (or the
                    // thread's first block): a path that leaves the body and comes back in
                    // below the header (a call's excursion, `BRA.DIV` to a slow path that
                    // jumps back) continues the same entry, which can only count more.
                    let body = &loops[li].1;
                    if !prev.is_some_and(|p| body.get(p).copied().unwrap_or(false)) {
                        count[li] = 0;
                    }
                    count[li] += 1;
                    most[li] = most[li].max(count[li]);
                }
                prev = Some(block);
            }
        }
    }
    most
}

/// Per loop header of the SASS `graph`, from block entries of runs (see
/// [`most_iterations`]).
pub fn count(
    kernel: &Kernel,
    graph: &BlockGraph,
    warps: &[Vec<(usize, u64)>],
    threads: usize,
) -> Vec<ObservedLoop> {
    let n = graph.blocks.len();
    let loops: Vec<(usize, Vec<bool>)> = loops(graph)
        .into_iter()
        .map(|(h, body)| {
            let mut inside = vec![false; n];
            for b in body.into_iter().filter(|&b| b < n) {
                inside[b] = true;
            }
            (h, inside)
        })
        .collect();
    let most = most_iterations(&loops, warps, threads);
    by_header_address(kernel, graph, loops.iter().map(|(h, _)| *h).zip(most))
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
    let loops: Vec<(usize, Vec<bool>)> = found
        .loops
        .iter()
        .map(|l| (l.header, l.body.clone()))
        .collect();
    let warps = entries(run, |pc| {
        let b = *cf.block_of.get(pc)?;
        (cf.blocks.get(b)?.start == pc).then_some(b)
    });
    let most = most_iterations(&loops, &warps, lanes(run));
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
    let found: Vec<(usize, Vec<bool>)> = ipet::find_loops(&program)
        .into_iter()
        .filter(|l| !l.irreducible)
        .map(|l| {
            let mut inside = vec![false; n];
            for b in l.body.into_iter().filter(|&b| b < n) {
                inside[b] = true;
            }
            (l.header, inside)
        })
        .collect();
    let warps = entries(run, |pc| {
        let b = graph.block_of(pc)?;
        (graph.blocks.get(b)?.first == pc).then_some(b)
    });
    let most = most_iterations(&found, &warps, lanes(run));
    let mut label_of: BTreeMap<usize, &String> = BTreeMap::new();
    for (l, &i) in &f.labels {
        label_of.entry(i).or_insert(l);
    }
    found
        .iter()
        .zip(most)
        .filter_map(|((h, _), most)| {
            let first = graph.blocks.get(*h)?.first;
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

/// Each warp's block entries `(block, active threads)` in issue order: the issues of an
/// instruction that `block_at` names the first of a block.
fn entries(
    run: &sim::Simulation,
    block_at: impl Fn(usize) -> Option<usize>,
) -> Vec<Vec<(usize, u64)>> {
    run.warps
        .iter()
        .map(|w| {
            w.issues
                .iter()
                .filter_map(|i| Some((block_at(i.index as usize)?, i.active)))
                .collect()
        })
        .collect()
}

/// When a PTX or GCN3 run's trace was cut by `max_timeline_entries`: its loop counts come
/// from the recorded issues only (no loop watch for these dialects yet, unlike SASS), so they
/// may fall short of the run's — a warning, since `loop_bounds=observed` and the bounds a run
/// raises rest on them.
pub fn truncation_warning(run: &sim::Simulation) -> Option<isa::Diagnostic> {
    run.timeline_truncated.then(|| {
        let entries: usize = run.warps.iter().map(|w| w.issues.len()).sum();
        isa::Diagnostic::global(
            isa::Severity::Warning,
            format!(
                "the run's loop iterations are counted from its first {entries} issues, the \
                 ones its trace recorded (max_timeline_entries): a loop may have run more \
                 often; raise max_timeline_entries for whole counts"
            ),
        )
    })
}

/// The warp width of a run (32 when it issued nothing).
fn lanes(run: &sim::Simulation) -> usize {
    run.warps
        .iter()
        .flat_map(|w| w.issues.first())
        .map(|i| usize::from(i.lanes))
        .max()
        .unwrap_or(32)
}

/// The loops of the SASS `graph` for the simulator to count as it runs
/// (`sim::Launch::loops`), in the order [`of_run`] reads its counts back: each loop's header
/// instruction and the instructions of its body's blocks.
pub fn watch(graph: &BlockGraph) -> Vec<sim::WatchedLoop> {
    loops(graph)
        .into_iter()
        .filter_map(|(h, body)| {
            let header = graph.blocks.get(h)?.first;
            let body = body
                .iter()
                .filter_map(|&b| graph.blocks.get(b))
                .flat_map(|b| b.first..=b.last)
                .collect();
            Some(sim::WatchedLoop { header, body })
        })
        .collect()
}

/// Per loop header of `graph`, from a simulation of `kernel`: the counts the simulator made
/// as it ran when its launch watched [`watch`]'s loops (whole even when the trace was cut);
/// else from the trace — each warp's issues of a block's first instruction are its block
/// entries (the active threads enter) — and empty without one.
pub fn of_run(kernel: &Kernel, graph: &BlockGraph, run: &sim::Simulation) -> Vec<ObservedLoop> {
    let found = loops(graph);
    if !run.loop_counts.is_empty() && run.loop_counts.len() == found.len() {
        let counts = found
            .iter()
            .map(|(h, _)| *h)
            .zip(run.loop_counts.iter().copied());
        return by_header_address(kernel, graph, counts);
    }
    let mut first: BTreeMap<usize, usize> = BTreeMap::new();
    for (b, block) in graph.blocks.iter().enumerate() {
        first.insert(block.first, b);
    }
    let warps = entries(run, |pc| first.get(&pc).copied());
    if warps.iter().all(Vec::is_empty) {
        return Vec::new();
    }
    count(kernel, graph, &warps, lanes(run))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Loop header 1, body {1, 2}; block 5 is outside (a call's excursion or a slow path that
    /// jumps back in at 2). Thread 0: 0 1 2 5 2 1 2 1 3 → one entry, 3 header runs. Thread 1:
    /// enters twice (0 1 2 1 3 … 4 1 3): 2 runs, then 1. Most: 3. A loop nobody enters: 0.
    #[test]
    fn an_excursion_out_of_the_body_continues_the_entry() {
        let body = vec![false, true, true, false, false, false];
        let t0 = 0b01;
        let t1 = 0b10;
        let both = t0 | t1;
        let warp = vec![
            (0, both),
            (1, both),
            (2, both),
            (5, t0),
            (2, t0),
            (1, both),
            (2, t0),
            (3, t1),
            (1, t0),
            (3, t0),
            (4, t1),
            (1, t1),
            (3, t1),
        ];
        assert_eq!(
            most_iterations(&[(1, body.clone())], std::slice::from_ref(&warp), 2),
            vec![3]
        );
        // Thread 1 alone: entries of 2 and 1 runs.
        let only_t1: Vec<(usize, u64)> = warp.iter().filter(|v| v.1 & t1 != 0).copied().collect();
        assert_eq!(
            most_iterations(&[(1, body.clone())], &[only_t1], 2),
            vec![2]
        );
        assert_eq!(
            most_iterations(&[(4, vec![false; 6])], &[vec![(0, both)]], 2),
            vec![0]
        );
    }
}
