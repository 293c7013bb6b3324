//! The `block` mode's runs and what is drawn from them: the block simulated under each
//! scheduler in the bound's setting, the loop counts observed, the growth plot's runs of
//! 1, 2, … warps, the Gantt chart of the worst run and the plot of the bound by warps, and
//! the schedulers and the SM of the runs (moved out of `block.rs`, which keeps the bound).

use super::units::Units;
use super::{MAX_GANTT_ITEMS, MAX_OBSERVED_GROWTH, WARP_SIZE};
use crate::mode::ModeOutput;
use crate::report::{BlockGrowth, PlotView, ScheduleItem, ScheduleView, Series};
use crate::simulator::{self, SimRun};
use crate::warp_analysis::{ParsedSass, WarpCfgParams};

/// `run` as one block of `dims` threads.
pub(super) fn block_launch(run: &SimRun, dims: [u32; 3]) -> SimRun {
    let mut run = run.clone();
    run.launch.grid = [1, 1, 1];
    run.launch.block = dims;
    run.block_retry = false;
    run
}

/// Runs the block (`run`, one block already) under each scheduler `scheduler` names. The first run's diagnostics go to
/// the report; the others add only what the first did not say.
pub(super) fn simulate_block(
    parsed: &ParsedSass,
    run: &SimRun,
    p: &WarpCfgParams,
    units: Option<Units>,
    scheduler: &str,
    progress: isa::Observer,
    out: &mut ModeOutput,
) -> Vec<(&'static str, sim::Simulation)> {
    // The runs share one `max_steps` (issue #37 item 3: the mode's time is the budget's, not
    // a multiple of it).
    let machines = schedulers(scheduler)
        .into_iter()
        .filter_map(|(name, s)| Some((name, machine(p, units, s)?)))
        .collect();
    crate::shared_allowance::runs_sharing_max_steps(
        parsed.runnable(),
        run,
        machines,
        "the block's runs",
        progress,
        &mut out.diagnostics,
        &mut out.arguments,
    )
}

/// The warp-instructions `runs` issued in all.
pub(super) fn issued(runs: &[(&str, sim::Simulation)]) -> u64 {
    runs.iter().map(|(_, s)| s.issued).sum()
}

/// How the growth plot's runs are made: under `scheduler`, at most `2 × cycles + 1000`
/// cycles each ([`observe_growth`]), reporting to `progress`.
pub(super) struct GrowthRuns<'a> {
    pub(super) scheduler: &'static str,
    pub(super) cycles: u64,
    /// What the block's own runs left of `max_steps` (the growth runs share it).
    pub(super) steps: u64,
    pub(super) progress: isa::Observer<'a>,
}

/// Observed cycles for blocks of 1, 2, … warps (at most [`MAX_OBSERVED_GROWTH`] and the
/// block's own), untraced, under `scheduler`; stops at the first run that fails. A smaller
/// block gets at most `2 × cycles + 1000` cycles, `cycles` the block's own run: a kernel
/// whose warps wait for each other (a spin on a shared flag) would otherwise spin to the
/// simulator's budget with fewer warps than it needs, and the plot does not need that point.
pub(super) fn observe_growth(
    parsed: &ParsedSass,
    run: &SimRun,
    p: &WarpCfgParams,
    units: Option<Units>,
    sims: &GrowthRuns,
    growth: &mut [BlockGrowth],
    warps: usize,
) {
    let (scheduler, cycles) = (sims.scheduler, sims.cycles);
    let Some((_, s)) = schedulers(scheduler).into_iter().next() else {
        return;
    };
    let Some(machine) = machine(p, units, s) else {
        return;
    };
    let mut left = sims.steps;
    for g in growth.iter_mut().take(warps.min(MAX_OBSERVED_GROWTH)) {
        if left == 0 {
            return;
        }
        let threads = (g.warps as u64 * WARP_SIZE) as u32;
        let mut r = block_launch(run, [threads, 1, 1]);
        r.launch.trace = false;
        r.budget.max_steps = left;
        r.budget.max_cycles = r
            .budget
            .max_cycles
            .min(cycles.saturating_mul(2).saturating_add(1000));
        let mut scratch = Vec::new();
        let mut arguments = None;
        let Some(sim) = simulator::run_kernel(
            parsed.runnable(),
            &r,
            &machine,
            &mut scratch,
            &mut arguments,
            sims.progress,
        ) else {
            return;
        };
        left = left.saturating_sub(sim.issued);
        g.observed = Some(sim.cycles);
    }
}

/// The warp (index in the block) that finished last.
pub(super) fn last_warp(s: &sim::Simulation) -> usize {
    s.warps
        .iter()
        .enumerate()
        .max_by_key(|&(i, w)| (w.finished, i))
        .map_or(0, |(i, _)| i)
}

/// The block's Gantt chart: one lane per warp with its issue cycles (issues close in time
/// merged so that at most [`MAX_GANTT_ITEMS`] boxes are drawn), and a lane with the bound.
pub(super) fn gantt(s: &sim::Simulation, bound: u64, warps: usize) -> ScheduleView {
    let mut gap = 0u64;
    let items = loop {
        let items = issue_boxes(s, gap);
        if items.len() <= MAX_GANTT_ITEMS || gap > s.cycles {
            break items;
        }
        gap = gap * 2 + 1;
    };
    let mut items = items;
    let lanes: Vec<String> = (0..warps)
        .map(|w| format!("warp {w}"))
        .chain(["bound".to_string()])
        .collect();
    items.push(ScheduleItem {
        lane: warps,
        start: 0,
        length: bound,
        group: warps as u32,
        label: format!("block bound {bound}"),
    });
    ScheduleView {
        cycles: bound.max(s.cycles),
        group_labels: lanes.clone(),
        lanes,
        items,
        group_name: "warp".into(),
    }
}

/// Each warp's issues as boxes, merging issues at most `gap` cycles apart.
pub(super) fn issue_boxes(s: &sim::Simulation, gap: u64) -> Vec<ScheduleItem> {
    let mut items = Vec::new();
    for (lane, w) in s.warps.iter().enumerate() {
        let mut open: Option<(u64, u64, u64)> = None; // start, end, issues
        let close = |(start, end, n): (u64, u64, u64), items: &mut Vec<ScheduleItem>| {
            items.push(ScheduleItem {
                lane,
                start,
                length: end - start,
                group: lane as u32,
                label: format!("{n} issue{}", if n == 1 { "" } else { "s" }),
            });
        };
        for i in &w.issues {
            open = match open {
                Some((start, end, n)) if i.issue <= end + gap => Some((start, i.issue + 1, n + 1)),
                Some(o) => {
                    close(o, &mut items);
                    Some((i.issue, i.issue + 1, 1))
                }
                None => Some((i.issue, i.issue + 1, 1)),
            };
        }
        if let Some(o) = open {
            close(o, &mut items);
        }
    }
    items
}

/// How the bound grows with the warps of the block, against serialising and the runs.
pub(super) fn growth_plot(growth: &[BlockGrowth], cost_model: &str) -> PlotView {
    let points = |f: &dyn Fn(&BlockGrowth) -> Option<u64>| -> Vec<[f64; 2]> {
        growth
            .iter()
            .filter_map(|g| f(g).map(|v| [g.warps as f64, v as f64]))
            .collect()
    };
    let mut series = vec![
        Series {
            name: "block bound".into(),
            style: "line".into(),
            points: points(&|g| Some(g.bound)),
        },
        Series {
            name: "serialised (W × warp bound)".into(),
            style: "dashed".into(),
            points: points(&|g| Some(g.serialised)),
        },
    ];
    let exact = points(&|g| g.exact);
    if !exact.is_empty() {
        series.push(Series {
            name: "exact makespan (Berezovskyi et al., straight-line code)".into(),
            style: "line".into(),
            points: exact,
        });
    }
    let observed = points(&|g| g.observed);
    if !observed.is_empty() {
        series.push(Series {
            name: "observed".into(),
            style: "line".into(),
            points: observed,
        });
    }
    PlotView {
        title: "Block bound by number of warps".into(),
        x_label: "warps in the block".into(),
        y_label: format!("cycles ({cost_model} cost)"),
        series,
    }
}

/// The schedulers `scheduler` names, with their short names: `any` runs loose round-robin,
/// greedy-then-oldest and two random work-conserving schedulers (a random order of the
/// ready warps every cycle, seeds 1 and 2); `random` four of those.
fn schedulers(name: &str) -> Vec<(&'static str, sim::Scheduler)> {
    let lrr = ("lrr", sim::Scheduler::LooseRoundRobin);
    let gto = ("gto", sim::Scheduler::GreedyThenOldest);
    let random = [
        ("random-1", sim::Scheduler::Random(1)),
        ("random-2", sim::Scheduler::Random(2)),
        ("random-3", sim::Scheduler::Random(3)),
        ("random-4", sim::Scheduler::Random(4)),
    ];
    match name {
        "lrr" => vec![lrr],
        "gto" => vec![gto],
        "random" => random.to_vec(),
        _ => vec![lrr, gto, random[0], random[1]],
    }
}

/// The SM the block runs on: the analysis's setting (one instruction per cycle, the cost
/// model's latencies, no memory transaction costs; or the makespan machine), with
/// `scheduler`.
fn machine(
    p: &WarpCfgParams,
    units: Option<Units>,
    scheduler: sim::Scheduler,
) -> Option<sim::Machine> {
    if let Some(u) = units {
        // The simulator's `makespan` preset is Berezovskyi et al.'s SM (its doc).
        let mut machine = simulator::preset_machine(Some("makespan"))?;
        machine.ls_units = u.ls_units;
        machine.cores = u.cores;
        machine.scheduler = scheduler;
        return Some(machine);
    }
    let mut machine = p.cost.machine(p.its)?;
    machine.scheduler = scheduler;
    Some(machine)
}
