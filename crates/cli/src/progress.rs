//! `--progress`: the facade's progress reports (`isa::progress`) as lines on standard error,
//! at most one every [`INTERVAL`] per task, the first at once. The clock is read here, in the
//! CLI: the analysis crates never read one.

use std::cell::Cell;
use std::io::Write;
use std::time::{Duration, Instant};
use warpbound::{Progress, Task};

/// Least time between two lines of one task.
pub const INTERVAL: Duration = Duration::from_millis(500);

/// The state of the progress line: when and for which task the last line was printed.
#[derive(Default)]
pub struct Line {
    last: Cell<Option<(Task, Instant)>>,
    started: Cell<Option<Instant>>,
}

impl Line {
    /// Prints `p` when its task changed or [`INTERVAL`] has passed since the last line.
    pub fn report(&self, p: &Progress) {
        let now = Instant::now();
        let started = *self.started.get().get_or_insert(now);
        self.started.set(Some(started));
        if let Some((task, at)) = self.last.get() {
            if task == p.task && now.duration_since(at) < INTERVAL {
                return;
            }
        }
        self.last.set(Some((p.task, now)));
        let line = format!(
            "warpbound: {:>6.1} s  {}",
            now.duration_since(started).as_secs_f64(),
            describe(p)
        );
        // A closed standard error is not a reason to stop the analysis.
        let _ = writeln!(std::io::stderr(), "{line}");
    }
}

/// `exact makespan search: 131,072 of 2,000,000 search steps (6.6 %), longest schedule so
/// far 97 (at most 112)`.
pub fn describe(p: &Progress) -> String {
    let t = p.task;
    let share = if p.budget > 0 {
        format!(" ({:.1} %)", 100.0 * p.done as f64 / p.budget as f64)
    } else {
        String::new()
    };
    let mut s = format!(
        "{}: {} of {} {}{share}",
        t.label(),
        grouped(p.done),
        grouped(p.budget),
        t.unit()
    );
    if let (Some(label), Some(b)) = (t.bound_label(), p.best_bound) {
        s.push_str(&format!(", {label} {}", grouped(b)));
        if let Some(u) = p.upper_bound {
            s.push_str(&format!(" (at most {})", grouped(u)));
        }
    }
    s
}

/// `1234567` → `1,234,567`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_reads_as_a_sentence() {
        let p = Progress {
            task: Task::MakespanSearch,
            done: 131_072,
            budget: 2_000_000,
            best_bound: Some(97),
            upper_bound: Some(1_120),
        };
        assert_eq!(
            describe(&p),
            "exact makespan search: 131,072 of 2,000,000 search steps (6.6 %), longest schedule so far 97 (at most 1,120)"
        );
        let w = Progress {
            task: Task::WarpCfg,
            done: 5,
            budget: 0,
            best_bound: None,
            upper_bound: None,
        };
        assert_eq!(describe(&w), "warp-level CFG: 5 of 0 abstract states");
        let rr = Progress {
            task: Task::RoundRobinAnalyzer,
            done: 65_536,
            budget: 2_000_000,
            best_bound: None,
            upper_bound: None,
        };
        assert_eq!(
            describe(&rr),
            "round-robin analyzer (warp traces): 65,536 of 2,000,000 warp instructions (3.3 %)"
        );
        let simd = Progress {
            task: Task::SimdExecution,
            done: 16_384,
            budget: 20_000_000,
            best_bound: Some(2_095_517),
            upper_bound: None,
        };
        assert_eq!(
            describe(&simd),
            "Sim-D execution: 16,384 of 20,000,000 phase instances (0.1 %), cycle 2,095,517"
        );
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
    }
}
