//! One time allowance for a simulation and the analysis beside it (issue #37 item 3).
//!
//! Why: every budget is calibrated so that one piece of work ends within about 2 s natively
//! (`docs/performance.md`). A mode that runs the simulator *and* an analysis (`rr` and `pws`
//! with `simulate=true`) ran two such pieces one after the other: Rodinia myocyte's
//! `solver_2` took 1.1 s to exhaust the run's `max_cycles`, then 2 s to exhaust the
//! analyzer's `max_warp_steps`. Budgets must stay deterministic (a wall clock would make the
//! same request give different reports), so the sharing is in the budgets' own currency:
//!
//! 1. beside an analysis, the run's time budgets (`max_steps`, `max_cycles`) default to half
//!    the simulator's own ([`beside_analysis`]): a run that needs more still runs in the
//!    `simulate` mode, or here with the budget raised;
//! 2. the fraction `u` of those budgets the run used ([`used`]; 1 when it stopped at one of
//!    them) is taken, halved, from the analysis's step budget ([`analysis_budget`]):
//!    `B · (1 − u/2)` (nothing when `u` is under a tenth: a run of under about 0.1 s).
//!
//! With the run's full budget worth about 0.85 s and the analysis's about 2 s, the two end
//! within `0.85·u + 2·(1 − u/2) = 2 − 0.15·u` seconds, whatever the run did; the analysis
//! keeps at least half its budget. A note says what the analysis was given and why.

use crate::catalog::ParamInfo;
use isa::{Diagnostic, Severity};

/// A run that used less than this fraction of its time budgets takes nothing from the
/// analysis.
const SMALL_RUN: f64 = 0.1;

/// The run's budgets that measure time.
const TIME_BUDGETS: [&str; 2] = ["max_steps", "max_cycles"];

/// The simulator's parameter `p` as a mode that runs an analysis after the run declares it:
/// the time budgets at half their default (module doc, rule 1).
pub fn beside_analysis(mut p: ParamInfo) -> ParamInfo {
    if TIME_BUDGETS.contains(&p.name.as_str()) {
        if let Some(d) = p.default.as_f64() {
            p.default = serde_json::json!((d / 2.0).floor());
            p.meaning = format!(
                "{} (beside this mode's analysis: half the simulator's own, since the run and \
                 the analysis share one time allowance)",
                p.meaning
            );
        }
    }
    p
}

/// The fraction of its time budgets the run used: its issued warp-instructions and cycles
/// against `budget`, the larger; 1 when it stopped at either (its diagnostics say so, from
/// [`sim::error::SimError::budget`]); 0 when it did not run.
pub fn used(
    run: Option<&sim::Simulation>,
    budget: &sim::Budget,
    diagnostics: &[Diagnostic],
) -> f64 {
    if let Some(s) = run {
        let part = |x: u64, of: u64| if of == 0 { 1.0 } else { x as f64 / of as f64 };
        return part(s.issued, budget.max_steps)
            .max(part(s.cycles, budget.max_cycles))
            .min(1.0);
    }
    let stopped = diagnostics.iter().any(|d| {
        TIME_BUDGETS
            .iter()
            .any(|name| sim::error::SimError::is_budget_stop(&d.message, name))
    });
    if stopped {
        1.0
    } else {
        0.0
    }
}

/// The analysis's step budget `budget` after a run that used `used` of its own (module doc,
/// rule 2), and the note saying so when it is smaller; `name` is the parameter.
pub fn analysis_budget(budget: u64, used: f64, name: &str) -> (u64, Option<Diagnostic>) {
    let given = scaled(budget, used);
    (given, note(used, &[(name, budget, given)]))
}

/// `budget · (1 − used/2)`, rounded up, never below half of `budget`; the whole budget
/// after a run that used under a tenth of its own (under about 0.1 s: not worth a note in
/// every report of a small kernel).
pub fn scaled(budget: u64, used: f64) -> u64 {
    let used = used.clamp(0.0, 1.0);
    if used < SMALL_RUN {
        return budget;
    }
    let given = ((budget as f64) * (1.0 - used / 2.0)).ceil() as u64;
    given.clamp(budget.div_ceil(2), budget)
}

/// The note for budgets `(name, before, after)` scaled after a run that used `used`: `None`
/// when none changed.
pub fn note(used: f64, budgets: &[(&str, u64, u64)]) -> Option<Diagnostic> {
    let changed: Vec<String> = budgets
        .iter()
        .filter(|(_, before, after)| before != after)
        .map(|(name, before, after)| format!("{name} = {before} × (1 − {used:.2}/2) = {after}"))
        .collect();
    if changed.is_empty() {
        return None;
    }
    Some(Diagnostic::global(
        Severity::Note,
        format!(
            "simulate=true: the run used {:.0} % of its time budgets, so the analysis had {} \
             (the run and the analysis share one time allowance; raise {} for more)",
            used * 100.0,
            changed.join(", "),
            budgets
                .iter()
                .filter(|(_, b, a)| b != a)
                .map(|x| x.0)
                .collect::<Vec<_>>()
                .join(" or "),
        ),
    ))
}

/// Runs `kernel` as `run` on each named machine in turn, the runs sharing one `max_steps`:
/// each gets what the ones before left (a mode's time is the budget's, not a multiple of it),
/// and a run stopped by the budget leaves nothing. The first run's diagnostics go to
/// `diags`; the others add only what the first did not say. Returns the runs made and the
/// names of those the budget left out (`what` names the runs in the note about them).
pub(crate) fn runs_sharing_max_steps(
    kernel: &isa::Kernel,
    run: &crate::simulator::SimRun,
    machines: Vec<(&'static str, sim::Machine)>,
    what: &str,
    progress: isa::Observer,
    diags: &mut Vec<Diagnostic>,
    arguments: &mut Option<crate::report::KernelArguments>,
) -> Vec<(&'static str, sim::Simulation)> {
    let mut runs = Vec::new();
    let mut skipped = Vec::new();
    let mut left = run.budget.max_steps;
    for (i, (name, machine)) in machines.into_iter().enumerate() {
        if i > 0 && left == 0 {
            skipped.push(name);
            continue;
        }
        let mut this = run.clone();
        this.budget.max_steps = left;
        let mut said = Vec::new();
        let result =
            crate::simulator::run_kernel(kernel, &this, &machine, &mut said, arguments, progress);
        for d in said {
            if i == 0 || !diags.contains(&d) {
                diags.push(d);
            }
        }
        match result {
            Some(sim) => {
                left = left.saturating_sub(sim.issued);
                runs.push((name, sim));
            }
            None => left = 0,
        }
    }
    if !skipped.is_empty() {
        diags.push(Diagnostic::global(
            Severity::Note,
            format!(
                "{what} share max_steps = {}: the runs before used it up, so none was made \
                 under {} (raise max_steps to make them)",
                run.budget.max_steps,
                skipped.join(", ")
            ),
        ));
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_analysis_keeps_what_the_run_left_halved() {
        // 2 000 000 · (1 − 0.5/2) = 1 500 000.
        let (b, note) = analysis_budget(2_000_000, 0.5, "max_warp_steps");
        assert_eq!(b, 1_500_000);
        assert!(note.expect("a note").message.contains("= 1500000"));
        // A run that stopped at its budget: half.
        assert_eq!(analysis_budget(2_000_000, 1.0, "x").0, 1_000_000);
        // No run, or a short one: the whole budget, and no note.
        assert_eq!(analysis_budget(2_000_000, 0.0, "x"), (2_000_000, None));
        assert_eq!(analysis_budget(2_000_000, 0.09, "x"), (2_000_000, None));
        assert_eq!(analysis_budget(2_000_000, 0.1, "x").0, 1_900_000);
        assert_eq!(analysis_budget(7, 1.0, "x").0, 4);
    }

    #[test]
    fn a_run_stopped_at_a_time_budget_used_all_of_it() {
        let stop = sim::error::SimError::budget("max_cycles", 25_000_000, "cycle 25000001");
        let b = sim::Budget::default();
        assert_eq!(used(None, &b, &stop.diagnostics), 1.0);
        let other = sim::error::SimError::request("no such opcode");
        assert_eq!(used(None, &b, &other.diagnostics), 0.0);
        let memory = sim::error::SimError::budget("max_memory_words", 10, "words");
        assert_eq!(used(None, &b, &memory.diagnostics), 0.0);
    }

    #[test]
    fn only_the_time_budgets_are_halved() {
        let p = |n: &str| ParamInfo::number(n, "m", "", 1.0, 1e12, 3_000_001.0);
        assert_eq!(
            beside_analysis(p("max_steps")).default,
            serde_json::json!(1_500_000.0)
        );
        assert_eq!(
            beside_analysis(p("max_cycles")).default,
            serde_json::json!(1_500_000.0)
        );
        assert_eq!(
            beside_analysis(p("max_blocks")).default,
            serde_json::json!(3_000_001.0)
        );
    }
}
