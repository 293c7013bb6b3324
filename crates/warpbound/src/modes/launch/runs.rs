//! The `launch` mode's runs and its Gantt chart: the grid simulated on the GPU's SMs
//! (`sim::Gpu`) in the bound's setting under each scheduler, and the chart of SMs × time
//! with each block and its wave, next to the bound's two phases.

use crate::mode::ModeOutput;
use crate::report::{ScheduleItem, ScheduleView};
use crate::simulator::SimRun;
use crate::views::launch_parts::LaunchRun;
use crate::warp_analysis::{ParsedSass, WarpCfgParams};

/// Most blocks drawn in the Gantt chart (the rest are in the run's numbers).
const MAX_GANTT_BLOCKS: usize = 4000;

/// The GPU a run uses: `sms` SMs of `blocks_per_sm` blocks of `warps_per_block` warps.
#[derive(Clone, Copy)]
pub(super) struct Shape {
    pub(super) sms: u32,
    pub(super) blocks_per_sm: u32,
    pub(super) warps_per_block: u32,
}

/// Runs the grid of `run` on the GPU `shape` under each scheduler `scheduler` names,
/// sharing `max_steps` (each run gets what the ones before left). The first run's
/// diagnostics go to the report; the others add only what the first did not say.
pub(super) fn simulate_launch(
    parsed: &ParsedSass,
    run: &SimRun,
    p: &WarpCfgParams,
    shape: Shape,
    scheduler: &str,
    progress: isa::Observer,
    out: &mut ModeOutput,
) -> Vec<(&'static str, sim::Simulation)> {
    let mut run = run.clone();
    run.block_retry = false;
    run.launch.trace = false;
    run.launch.gpu = sim::Gpu {
        sms: shape.sms,
        blocks_per_sm: shape.blocks_per_sm,
    };
    let machines = schedulers(scheduler)
        .into_iter()
        .filter_map(|(name, s)| {
            let mut machine = p.cost.machine(p.its)?;
            machine.scheduler = s;
            // The SM holds exactly the occupancy's blocks: its warp slots are theirs.
            machine.warps_per_sm = shape.blocks_per_sm.saturating_mul(shape.warps_per_block);
            Some((name, machine))
        })
        .collect();
    crate::shared_allowance::runs_sharing_max_steps(
        parsed.runnable(),
        &run,
        machines,
        "the launch's runs",
        progress,
        &mut out.diagnostics,
        &mut out.arguments,
    )
}

/// The schedulers `name` names: `any` is loose round-robin, greedy-then-oldest and a
/// random work-conserving one (seed 1).
fn schedulers(name: &str) -> Vec<(&'static str, sim::Scheduler)> {
    let lrr = ("lrr", sim::Scheduler::LooseRoundRobin);
    let gto = ("gto", sim::Scheduler::GreedyThenOldest);
    let random = ("random-1", sim::Scheduler::Random(1));
    match name {
        "lrr" => vec![lrr],
        "gto" => vec![gto],
        "random" => vec![random],
        _ => vec![lrr, gto, random],
    }
}

/// Per block of `s`: its SM, first dispatch and last finish.
fn blocks(s: &sim::Simulation) -> Vec<(u32, u64, u64)> {
    let mut v: Vec<(u32, u64, u64)> = Vec::new();
    for w in &s.warps {
        let b = w.block as usize;
        if v.len() <= b {
            v.resize(b + 1, (0, u64::MAX, 0));
        }
        let e = &mut v[b];
        e.0 = s.block_sms.get(b).copied().unwrap_or(0);
        e.1 = e.1.min(w.dispatched);
        e.2 = e.2.max(w.finished);
    }
    v
}

/// What a run says for the report: cycles, SMs used, the most blocks one SM ran.
pub(super) fn launch_run(name: &str, s: &sim::Simulation, bound: u64) -> LaunchRun {
    let per_sm = per_sm_counts(s);
    LaunchRun {
        scheduler: name.into(),
        cycles: s.cycles,
        sms_used: per_sm.iter().filter(|&&n| n > 0).count() as u64,
        most_blocks_on_one_sm: per_sm.iter().copied().max().unwrap_or(0),
        holds: s.cycles <= bound,
    }
}

fn per_sm_counts(s: &sim::Simulation) -> Vec<u64> {
    let mut per_sm: Vec<u64> = Vec::new();
    for (sm, _, _) in blocks(s) {
        let sm = sm as usize;
        if per_sm.len() <= sm {
            per_sm.resize(sm + 1, 0);
        }
        per_sm[sm] += 1;
    }
    per_sm
}

/// The Gantt chart: with a run, one lane per SM that ran a block, each block a box grouped
/// by its wave (the `k`-th block an SM received is in wave `⌊k / m⌋ + 1`); and a lane with
/// the bound's two phases: until the last dispatch, and the final phase.
pub(super) fn gantt(
    run: Option<&sim::Simulation>,
    bound: &launch::LaunchBound,
    blocks_per_sm: u64,
) -> ScheduleView {
    let mut lanes = Vec::new();
    let mut items = Vec::new();
    let mut waves = 0u64;
    if let Some(s) = run {
        let all = blocks(s);
        let sms = all.iter().map(|b| b.0 as usize + 1).max().unwrap_or(0);
        lanes = (0..sms).map(|i| format!("SM {i}")).collect();
        let mut received = vec![0u64; sms];
        for (b, &(sm, start, end)) in all.iter().enumerate().take(MAX_GANTT_BLOCKS) {
            let k = received[sm as usize];
            received[sm as usize] += 1;
            let wave = k / blocks_per_sm.max(1);
            waves = waves.max(wave + 1);
            items.push(ScheduleItem {
                lane: sm as usize,
                start,
                length: end.saturating_sub(start),
                group: wave as u32,
                label: format!("block {b} (wave {})", wave + 1),
            });
        }
    }
    let lane = lanes.len();
    lanes.push("bound".into());
    let d = bound.last_dispatch;
    if d > 0 {
        items.push(ScheduleItem {
            lane,
            start: 0,
            length: d,
            group: waves as u32,
            label: format!(
                "last block dispatched by {d}: {} issues + {} stalls",
                bound.dispatch_issues, bound.dispatch_stalls
            ),
        });
    }
    items.push(ScheduleItem {
        lane,
        start: d,
        length: bound.final_phase.cycles,
        group: waves as u32 + 1,
        label: format!(
            "final phase: {} blocks' warps, {} cycles",
            bound.final_blocks, bound.final_phase.cycles
        ),
    });
    let group_labels = (1..=waves)
        .map(|w| format!("wave {w}"))
        .chain([
            "bound: until the last dispatch".into(),
            "bound: final phase".into(),
        ])
        .collect();
    ScheduleView {
        cycles: bound.cycles.max(run.map_or(0, |s| s.cycles)),
        lanes,
        items,
        group_name: "wave".into(),
        group_labels,
    }
}
