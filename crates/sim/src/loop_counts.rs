//! Loop iterations of a finished run, read from its trace: per loop of a block graph, the
//! most times one thread ran the loop's header in one entry into the loop — the count the
//! loop watch (`cycle_loop::loop_watch`, [`crate::WatchedLoop`]) makes as a run goes, for
//! runs that did not watch (PTX and GCN3 launches) or whose loops are known only after.
//!
//! Counting per thread, not per warp, is what a warp-level bound needs: a loop bound there
//! limits how often the header runs per entry for the threads that run it together
//! (Jeanmougin et al. §4.1 bound loops of the thread-level CFG and carry them to the warp
//! level), and a warp iterates as long as its slowest thread. Each thread's own block entries
//! keep their order whatever the interleaving of divergent paths, so the count does not
//! depend on the stack order or independent thread scheduling.
//!
//! Which loops, and how they are named, is the caller's: it finds them in its own graph and
//! says which instruction starts which block.

use crate::Simulation;
use std::collections::BTreeMap;

/// A loop of a block graph: its header block and, per block, whether the body holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockLoop {
    pub header: usize,
    pub body: Vec<bool>,
}

impl BlockLoop {
    /// The loop headed by `header` whose body is the blocks `body` of a graph of `blocks`
    /// blocks (indices past the graph are ignored).
    pub fn new(header: usize, body: &[usize], blocks: usize) -> Self {
        let mut inside = vec![false; blocks];
        for &b in body.iter().filter(|&&b| b < blocks) {
            inside[b] = true;
        }
        BlockLoop {
            header,
            body: inside,
        }
    }

    fn holds(&self, block: usize) -> bool {
        self.body.get(block).copied().unwrap_or(false)
    }
}

/// Per loop, the most iterations per entry one thread of `run` made (0: nobody entered it),
/// from the trace: each warp's issues of an instruction that `block_at` names the first of
/// a block are its block entries (the active threads enter). `None` when the trace holds no
/// block entry at all (no trace, or a run that issued nothing).
pub fn from_trace(
    run: &Simulation,
    loops: &[BlockLoop],
    block_at: impl Fn(usize) -> Option<usize>,
) -> Option<Vec<u64>> {
    let warps: Vec<Vec<(usize, u64)>> = run
        .warps
        .iter()
        .map(|w| {
            w.issues
                .iter()
                .filter_map(|i| Some((block_at(i.index as usize)?, i.active)))
                .collect()
        })
        .collect();
    if warps.iter().all(Vec::is_empty) {
        return None;
    }
    Some(most_iterations(loops, &warps, lanes(run)))
}

/// The loops for a run to count as it goes (`Launch::loops`), in the same order: each loop's
/// header instruction and the instructions of its body's blocks; `range` gives a block's
/// first and last instruction (`None`: no such block, the loop is left out).
pub fn watched(
    loops: &[BlockLoop],
    range: impl Fn(usize) -> Option<(usize, usize)>,
) -> Vec<crate::WatchedLoop> {
    loops
        .iter()
        .filter_map(|l| {
            let header = range(l.header)?.0;
            let body = (0..l.body.len())
                .filter(|&b| l.body[b])
                .filter_map(&range)
                .flat_map(|(first, last)| first..=last)
                .collect();
            Some(crate::WatchedLoop { header, body })
        })
        .collect()
}

/// When a run's trace was cut by its timeline budget: loop counts read from it
/// ([`from_trace`]) come from the recorded issues only and may fall short of the run's — a
/// warning, since bounds taken from a run rest on them.
pub fn truncation_warning(run: &Simulation) -> Option<isa::Diagnostic> {
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

/// The most iterations per entry one thread made of each loop, from block entries
/// `(block, mask of the threads entering it)` of runs of `threads`-thread warps: one list
/// per warp, in issue order (the count [`from_trace`] makes, for entries from elsewhere, such
/// as a concrete executor's).
pub fn most_iterations(
    loops: &[BlockLoop],
    warps: &[Vec<(usize, u64)>],
    threads: usize,
) -> Vec<u64> {
    // One pass per thread over its block entries, looking up the loops headed by each block
    // (a pass per loop and thread took seconds on thousands of loops).
    let mut by_header: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (li, l) in loops.iter().enumerate() {
        by_header.entry(l.header).or_default().push(li);
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
                    if !prev.is_some_and(|p| loops[li].holds(p)) {
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

/// The warp width of a run (32 when it issued nothing).
fn lanes(run: &Simulation) -> usize {
    run.warps
        .iter()
        .flat_map(|w| w.issues.first())
        .map(|i| usize::from(i.lanes))
        .max()
        .unwrap_or(32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The count from a trace agrees with the loop watch's on the watch's own scenario
    /// (`cycle_loop::loop_watch`, `an_excursion_out_of_the_body_continues_the_entry`: one
    /// block per instruction, loop header 1 with body {1, 2}, 5 an excursion that comes back
    /// in at 2; most runs in one entry 3, and 0 for a loop nobody enters): two counts made
    /// independently, one as the run goes and one afterwards.
    #[test]
    fn a_trace_counts_what_the_loop_watch_counts() {
        use crate::cycle_loop::loop_watch::LoopWatch;
        let (t0, t1) = (0b01, 0b10);
        let both = t0 | t1;
        let trace = [
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
            (6, t1),
            (1, t1),
            (3, t1),
        ];
        let blocks = [BlockLoop::new(1, &[1, 2], 7), BlockLoop::new(4, &[4], 7)];
        let from_trace = most_iterations(&blocks, &[trace.to_vec()], 2);
        let mut watch = LoopWatch::new(&watched(&blocks, |b| (b < 7).then_some((b, b))));
        for (pc, m) in trace {
            watch.issue(0, pc, m);
        }
        assert_eq!(from_trace, [3, 0]);
        assert_eq!(watch.most, from_trace);
        // Thread 1 alone: entries of 2 and 1 runs.
        let only_t1: Vec<(usize, u64)> = trace.iter().filter(|v| v.1 & t1 != 0).copied().collect();
        assert_eq!(most_iterations(&blocks[..1], &[only_t1], 2), [2]);
    }

    /// Blocks 0: 0..=1, 1: 2..=4, 2: 5..=5; the loop headed by 1 with body {1, 2} watches
    /// header instruction 2 and instructions 2, 3, 4, 5; a loop whose header has no range is
    /// left out.
    #[test]
    fn watched_loops_are_instruction_ranges() {
        let ranges = [(0, 1), (2, 4), (5, 5)];
        let range = |b: usize| ranges.get(b).copied();
        let loops = [BlockLoop::new(1, &[1, 2], 3), BlockLoop::new(7, &[], 3)];
        let w = watched(&loops, range);
        assert_eq!(w.len(), 1);
        assert_eq!((w[0].header, w[0].body.clone()), (2, vec![2, 3, 4, 5]));
    }
}
