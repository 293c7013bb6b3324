//! The `its` parameter (SASS sm_70+): which scheduler runs a diverged warp's thread groups
//! under independent thread scheduling (`cfg::thread_groups`) — `round-robin`, `newest`,
//! `random:SEED` — or empty for the stack order. `warp-cfg` reads it for its comparison
//! of the two orders and for its simulation, `simulate` for its run.

use cfg::interleaving::Scheduler;

/// Values a form offers for `its`: off (the stack order) and each scheduler.
pub const SUGGESTED: [&str; 5] = ["", "round-robin", "newest", "random:1", "random:2"];
use isa::{Diagnostic, Severity};

/// The scheduler `its` names, `None` for off.
pub fn decode(text: &str) -> Result<Option<Scheduler>, Diagnostic> {
    let t = text.trim();
    let s = match t {
        "" | "off" => return Ok(None),
        "round-robin" => Scheduler::RoundRobin,
        "newest" => Scheduler::Newest,
        _ => match t
            .strip_prefix("random:")
            .and_then(crate::params::number::unsigned)
        {
            Some(seed) => Scheduler::Random(seed),
            None => {
                return Err(Diagnostic::global(
                    Severity::Error,
                    format!(
                        "its: `{t}` is not a scheduler (round-robin, newest, random:SEED or empty)"
                    ),
                ))
            }
        },
    };
    Ok(Some(s))
}

/// The text `its` takes for a scheduler.
pub fn name(s: Scheduler) -> String {
    match s {
        Scheduler::RoundRobin => "round-robin".into(),
        Scheduler::Newest => "newest".into(),
        Scheduler::Random(seed) => format!("random:{seed}"),
    }
}

/// The simulator's thread scheduling for `its` (`None`: the stack order).
pub fn thread_scheduling(its: Option<Scheduler>) -> sim::ThreadScheduling {
    match its {
        None => sim::ThreadScheduling::StackOrder,
        Some(Scheduler::RoundRobin) => sim::ThreadScheduling::RoundRobin,
        Some(Scheduler::Newest) => sim::ThreadScheduling::Newest,
        Some(Scheduler::Random(seed)) => sim::ThreadScheduling::Random(seed),
    }
}
