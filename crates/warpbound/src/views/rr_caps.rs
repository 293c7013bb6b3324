//! How much of the round-robin model's per-instance detail a report carries.
//!
//! Why: the model schedules every executed segment instance of every warp, and the result
//! keeps them all (the Gantt's intervals, each segment's issue times, each warp's executed
//! steps). For a loop-heavy kernel that is millions of entries: Parboil mri-gridding's
//! `gridding_GPU` with one warp gave a 553 MB report (1.4 million Gantt intervals, 8.5
//! million trace steps), a second of serialisation after the 1.5 s analysis and more than
//! a browser tab holds. The WCET and every total are computed before the cut and do not
//! change; the views show the first [`MAX_REPORT_ENTRIES`] of each list, and a note says
//! what was left out, as the simulator's `max_timeline_entries` does for its timeline.

use isa::{Diagnostic, Severity};
use roundrobin::RrResult;

/// Most entries the report keeps of each per-instance list (the Gantt's intervals over all
/// its rows, the segments' issue times over all segments, each trace's steps).
pub const MAX_REPORT_ENTRIES: usize = 20_000;

/// Cuts `r`'s per-instance lists to [`MAX_REPORT_ENTRIES`]; the notes saying what each cut
/// left out.
pub fn cap(r: &mut RrResult) -> Vec<Diagnostic> {
    let mut notes = Vec::new();
    let mut left = MAX_REPORT_ENTRIES;
    let mut total = 0usize;
    for row in &mut r.gantt {
        total += row.intervals.len();
        row.intervals.truncate(left);
        left -= row.intervals.len();
    }
    if total > MAX_REPORT_ENTRIES {
        notes.push(note(format!(
            "the report's Gantt chart shows the first {MAX_REPORT_ENTRIES} of {total} scheduled \
             segment instances (the WCET counts all of them)"
        )));
    }
    let mut left = MAX_REPORT_ENTRIES;
    let mut total = 0usize;
    for s in &mut r.segments {
        for w in &mut s.t {
            total += w.times.len();
            w.times.truncate(left);
            left -= w.times.len();
        }
        s.t.retain(|w| !w.times.is_empty());
    }
    if total > MAX_REPORT_ENTRIES {
        notes.push(note(format!(
            "the report lists the first {MAX_REPORT_ENTRIES} of {total} segment issue times \
             (T_ij)"
        )));
    }
    let mut cut = 0usize;
    for t in &mut r.traces {
        let longest = t.steps.len().max(t.basic_blocks.len());
        if longest > MAX_REPORT_ENTRIES {
            cut += 1;
        }
        t.steps.truncate(MAX_REPORT_ENTRIES);
        t.active.truncate(MAX_REPORT_ENTRIES);
        t.basic_blocks.truncate(MAX_REPORT_ENTRIES);
    }
    if cut > 0 {
        notes.push(note(format!(
            "the execution traces of {cut} warp(s) are cut to their first {MAX_REPORT_ENTRIES} \
             steps and basic blocks"
        )));
    }
    notes
}

fn note(message: String) -> Diagnostic {
    Diagnostic::global(Severity::Note, message)
}
