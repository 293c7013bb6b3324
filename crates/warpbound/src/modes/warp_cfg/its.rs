//! `warp-cfg --set its=SCHEDULER`: one warp of the SASS kernel run twice by the concrete
//! executors of `cfg` — in the stack order the warp-level CFG follows ([`cfg::concrete`]) and
//! under independent thread scheduling with the chosen scheduler ([`cfg::interleaving`]) —
//! so a lecture can show what ITS changes on sm_70 and later: the order of the issued
//! instructions, and where it changes which or how many (the executor's departures, see the
//! `cfg::barriers` module doc). Both runs use the same data (the executors' deterministic
//! model of values, not the simulator's memory): the differences come from the schedule
//! alone.

use crate::params::its::name;
use crate::report::{InterleavingView, IssueView};
use cfg::interleaving::{self, Outcome, Scheduler};
use isa::{BlockGraph, Diagnostic, Kernel, Severity};

/// Warp width of both runs.
const THREADS: usize = 32;
/// Issues allowed to each run.
const MAX_STEPS: usize = 100_000;
/// Issues listed in the report (the count is always complete).
const LISTED: usize = 2_000;

/// Runs both orders and describes them; a note says what changed.
pub(super) fn run(
    kernel: &Kernel,
    blocks: &BlockGraph,
    scheduler: Scheduler,
    diagnostics: &mut Vec<Diagnostic>,
) -> InterleavingView {
    let stack = cfg::concrete::run(kernel, blocks, THREADS, 0, MAX_STEPS);
    let stack_issues: usize = stack
        .visits
        .iter()
        .map(|v| blocks.blocks[v.block].last + 1 - blocks.blocks[v.block].first)
        .sum();
    let t = interleaving::run(kernel, blocks, THREADS, 0, scheduler, MAX_STEPS);
    let address = |pc: usize| kernel.instructions.get(pc).map_or(0, |i| i.address);
    let outcome = match &t.outcome {
        Outcome::Finished => "finished".to_string(),
        Outcome::StepLimit => format!("stopped after {MAX_STEPS} issues"),
        Outcome::Deadlock(groups) => format!(
            "deadlock: {} groups wait and nothing can release them",
            groups.len()
        ),
        Outcome::Unsupported(why) => format!("not run: {why}"),
    };
    let departures: Vec<String> = t
        .departures
        .iter()
        .map(|d| match d {
            interleaving::Departure::ScatteredRelease { pcs, .. } => format!(
                "waiters at {} released apart (WARPSYNCs at different places match)",
                pcs.iter()
                    .map(|&p| format!("{:#06x}", address(p)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            interleaving::Departure::SharedBarrier { barrier, pc } => format!(
                "BSSY B{barrier} at {:#06x} joined groups that never reconverged",
                address(*pc)
            ),
            interleaving::Departure::ConvergenceTest { pc } => {
                format!("BRA.DIV/BRA.CONV at {:#06x} saw the schedule", address(*pc))
            }
            interleaving::Departure::WarpSyncJoin { pc } => format!(
                "WARPSYNC at {:#06x} rejoined groups the stack order keeps apart",
                address(*pc)
            ),
        })
        .collect();
    diagnostics.push(Diagnostic::global(
        Severity::Note,
        format!(
            "independent thread scheduling ({}, one warp of {THREADS} threads on the executors' model of data, not the launch's): {} instructions issued ({}), against {} in the stack order the warp-level CFG follows{}",
            name(scheduler),
            t.issues.len(),
            outcome,
            stack_issues,
            if departures.is_empty() {
                String::new()
            } else {
                format!("; where the orders part: {}", departures.join("; "))
            }
        ),
    ));
    InterleavingView {
        scheduler: name(scheduler),
        outcome,
        threads: THREADS,
        issues: t.issues.len(),
        stack_order_issues: stack_issues,
        departures,
        order: t
            .issues
            .iter()
            .take(LISTED)
            .map(|i| IssueView {
                address: address(i.pc),
                mask: i.mask,
            })
            .collect(),
    }
}
