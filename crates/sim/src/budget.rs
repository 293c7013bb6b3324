//! Limits on one simulation, so hostile or runaway kernels end with an error naming the
//! budget instead of hanging a browser tab.

/// Every budget of a run. Exceeding one stops the run with a [`crate::SimError`] naming it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Most simulated cycles (parameter `max_cycles`).
    pub max_cycles: u64,
    /// Most warp-instructions issued, over all warps (parameter `max_steps`).
    pub max_steps: u64,
    /// Most entries recorded in the timelines, the unit occupancy and the transaction list,
    /// each (parameter `max_timeline_entries`).
    pub max_timeline_entries: usize,
    /// Most steps the stepper records for its warp (parameter `max_stepper_steps`).
    pub max_stepper_steps: usize,
    /// Most thread blocks in the grid (parameter `max_blocks`).
    pub max_blocks: u64,
    /// Most 32-bit words of global memory the request may declare (parameter
    /// `max_memory_words`).
    pub max_memory_words: u64,
    /// Deepest activation stack of a warp (parameter `max_stack_depth`).
    pub max_stack_depth: usize,
}

impl Default for Budget {
    /// Sized for teaching kernels in a browser: a million warp-instructions take about
    /// 0.2 s natively (see the throughput benchmark).
    fn default() -> Self {
        Budget {
            max_cycles: 50_000_000,
            // About 1.4 s of a traced run natively before the budget error (about 2 M
            // warp-instructions/s traced, report included; issue #37 item 3: every default
            // budget answers within about 2 s). The real-kernel sweep's longest successful
            // run issues under a million (docs/real-kernel-sweep.md), so 4 M only made the
            // runs that cannot finish take 2 s to say so.
            max_steps: 3_000_000,
            // A traced run's per-warp issue lists, unit occupancy and transactions: 100 000
            // entries each keep a report of a large run to tens of MB (200 000 made
            // histo_final's block report 99 MB, a second of serialising).
            max_timeline_entries: 100_000,
            max_stepper_steps: 20_000,
            max_blocks: 4_096,
            max_memory_words: 16 << 20,
            max_stack_depth: 1_024,
        }
    }
}

impl Budget {
    /// Room reserved up front for a traced run's transaction and step lists (a few thousand
    /// records): their regrowth copies were a fifth of a traced run. Nothing untraced.
    pub(crate) fn trace_room(&self, trace: bool, limit: usize) -> usize {
        if trace {
            limit.min(1 << 12)
        } else {
            0
        }
    }

    /// Room for a warp's issue list before any warp has finished (later warps reserve the
    /// last finished warp's count): its share of the timeline budget, at most 8 192
    /// entries (~400 KB).
    pub(crate) fn issue_room(&self, trace: bool, warps: u64) -> usize {
        if trace {
            (self.max_timeline_entries / warps.max(1) as usize).min(1 << 13)
        } else {
            0
        }
    }
}
