//! The `block` mode (issue #27): the WCET of a thread block of a real SASS kernel — W warps
//! each following its own path through the warp-level CFG, sharing the SM's issue slot —
//! as the worst-case response time of its warps (crate `block`, after Jeanmougin, Carle and
//! Rochange, ECRTS 2025). Each warp's isolated time is the `warp-cfg` bound (the same warp
//! CFG, cost model and loop bounds); the warp-instructions it issues are the same IPET under
//! cost `unit`. With `simulate=true` the simulator runs the block under loose round-robin
//! and greedy-then-oldest in the bound's own setting (one instruction per cycle, the cost
//! model's latencies) and the report puts every run next to the bound.

use crate::kernel_occupancy::{self, OccupancyParams};
use crate::mode::{Mode, ModeDetails, ModeInput, ModeOutput};
use crate::observed_loops;
use crate::report::{BlockDetails, BlockGrowth, BlockRun, SimulationReport, Wcet};
use crate::simulator;
use crate::warp_analysis::{self, apply_runs, Cost, WarpCfgParams};
use isa::{Diagnostic, Kernel, Severity};
use web_time::Instant;

mod parameters;
mod runs;
mod units;

use parameters::describe;
use runs::{
    block_launch, gantt, growth_plot, issued, last_warp, observe_growth, simulate_block, GrowthRuns,
};
use units::{straight_line_string, units_bound, Units};

/// The mode.
pub const MODE: Mode = Mode {
    name: "block",
    aliases: &[],
    describe,
    run,
};

use crate::warp_analysis::thread_block::{self, WARP_SIZE};

/// Largest block the growth plot goes to, in warps (a 1024-thread block).
const MAX_PLOT_WARPS: usize = 32;

/// Most blocks (1, 2, … warps) simulated for the growth plot's observed points.
const MAX_OBSERVED_GROWTH: usize = 8;

/// Most warps the growth plot gets the exact makespan for (straight-line code, `sm=makespan`).
const MAX_EXACT_GROWTH: usize = 8;

/// Most boxes in the block's Gantt chart (issues close in time merge beyond it).
const MAX_GANTT_ITEMS: usize = 4000;

/// Whether the kernel waits at thread-block barriers (`BAR.SYNC`, `BAR.RED`, `BAR.ARV` and
/// the sm_70+ forms: every `BAR` opcode counts, conservatively).
fn has_barriers(kernel: &Kernel) -> bool {
    kernel.instructions.iter().any(|i| i.opcode.name == "BAR")
}

fn run(input: &ModeInput) -> ModeOutput {
    let p = match WarpCfgParams::decode(input) {
        Ok(p) => p,
        Err(d) => return ModeOutput::failed([d]),
    };
    let params = input.params;
    let (scheduler, dims, units, occupancy) = match (
        params.text("scheduler"),
        simulator::dim3(params, "block"),
        Units::decode(params),
        OccupancyParams::decode(params, true),
    ) {
        (Ok(s), Ok(d), Ok(u), Ok(o)) => (s.to_string(), d, u, o),
        (s, d, u, o) => {
            return ModeOutput::failed(
                s.err()
                    .into_iter()
                    .chain(d.err())
                    .chain(u.err())
                    .chain(o.err()),
            )
        }
    };
    let (threads, warps) = match thread_block::threads_and_warps(&dims) {
        Ok(t) => t,
        Err(d) => return ModeOutput::failed([d]),
    };
    let warps = warps as usize;
    let mut out = ModeOutput::default();
    let mut p = p;
    if let Some(u) = &units {
        if params.source("cost").ok() != Some(crate::report::ParamSource::Default) {
            out.diagnostics.push(Diagnostic::global(
                Severity::Warning,
                "sm=makespan has one-cycle latencies and the unit occupancies of its machine: \
                 `cost` and the latency parameters are not read",
            ));
        }
        p.cost = u.cost();
    }
    let Some(parsed) = warp_analysis::parse_sass(input, &p, &mut out) else {
        return out;
    };
    out.occupancy = kernel_occupancy::sass(
        &parsed.sass.kernel,
        threads,
        &occupancy,
        &mut out.diagnostics,
    );
    // The bound covers the block and the growth plot's smaller blocks (1, 2, … warps of
    // `[32·W, 1, 1]`): loops on blockDim are bounded for every block size between.
    let launch = crate::loop_inference::Launch::of(params).map(|mut l| {
        let grown = (WARP_SIZE as usize * warps.min(MAX_OBSERVED_GROWTH)) as u32;
        l.grid = [1, 1, 1];
        l.block = [dims[0].max(grown), dims[1], dims[2]];
        l.block_min = Some([dims[0].min(WARP_SIZE as u32), 1, 1]);
        l
    });
    let inference =
        warp_analysis::infer_sass(&parsed.sass, launch.as_ref(), &mut p.loop_bounds, &mut out);
    let mut runs = Vec::new();
    if let Some(run) = p.simulate.run(&mut out.diagnostics) {
        let t = Instant::now();
        if run.launch.grid != [1, 1, 1] {
            out.diagnostics.push(Diagnostic::global(
                Severity::Warning,
                "the block mode simulates one thread block: `grid` is ignored",
            ));
        }
        runs = simulate_block(
            &parsed,
            &block_launch(run, dims).watching(observed_loops::watch(&parsed.sass)),
            &p,
            units,
            &scheduler,
            input.progress,
            &mut out,
        );
        out.time("simulate", t);
    }
    let Some(loops) = apply_runs(&parsed.sass, &runs, &inference, input, &mut p, &mut out) else {
        return out;
    };
    let t = Instant::now();
    let extras = match &units {
        None => vec![Cost::Unit],
        Some(u) => vec![
            Cost::Units {
                load_store: u64::from(u.load_store.cycles),
                core: 0,
            },
            Cost::Units {
                load_store: 0,
                core: u64::from(u.core.cycles),
            },
        ],
    };
    let warp = warp_analysis::bound_with_extras(
        &parsed.sass,
        &p,
        input,
        &parsed.functions,
        &extras,
        &mut out,
    );
    out.time("warp_cfg+ipet", t);
    let Some((isolated, extra)) = warp else {
        return out;
    };
    let barriers = has_barriers(&parsed.sass.kernel);
    let issues = match &units {
        None => extra.first().copied().unwrap_or(isolated),
        Some(u) => {
            // Instructions issued: each costs at least one cycle of its unit's k.
            let l = extra.first().copied().unwrap_or(0) / u64::from(u.load_store.cycles.max(1));
            let c = extra.get(1).copied().unwrap_or(0) / u64::from(u.core.cycles.max(1));
            l + c
        }
    };
    let profile = block::WarpProfile { isolated, issues };
    // Barriers every warp passes the same number of times, in order, on the stack-ordered
    // machine: per phase (crate `block`), with the loop bounds and the cost model the warp
    // bound used.
    let t = Instant::now();
    // Under `cost=control` the per-phase rule's carry (what may be in flight at a barrier)
    // is not derived for the control bits' timing: the serialised bound is used.
    let control = matches!(p.cost, Cost::Control(_));
    let phases = (barriers && p.its.is_none() && !control).then(|| {
        let lb = &p.loop_bounds;
        let timing = |ins: &isa::Instruction| match &p.cost {
            Cost::Latency(table) => {
                let class = cfg::TimingClass::of(ins);
                block::Timing {
                    latency: table.latency_of(class),
                    interval: table.interval_of(class),
                }
            }
            Cost::Unit | Cost::Units { .. } | Cost::Control(_) => block::Timing::UNIT,
        };
        block::barrier_phases(
            &parsed.sass.kernel,
            &parsed.sass.graph,
            &|header| lb.per_address.get(&header).copied().or(lb.default),
            &timing,
        )
    });
    if phases.is_some() {
        out.time("barrier_phases", t);
    }
    let phased = phases
        .as_ref()
        .and_then(|r| r.as_ref().ok())
        .map(|x| x.carry);
    let (bound, growth_of) = match (&units, phased) {
        (None, Some(carry)) => (
            block::phased_response_time(&vec![profile; warps], carry),
            (1..=MAX_PLOT_WARPS.max(warps))
                .map(|w| {
                    let b = block::phased_response_time(&vec![profile; w], carry);
                    (w, b.cycles, b.serialised, None)
                })
                .collect(),
        ),
        (None, None) => (
            block::response_time(&vec![profile; warps], barriers),
            block::growth(profile, barriers, MAX_PLOT_WARPS.max(warps))
                .into_iter()
                .map(|(w, b, s)| (w, b, s, None))
                .collect(),
        ),
        (Some(u), _) => {
            let t = Instant::now();
            let string = straight_line_string(&parsed, u, barriers);
            let (b, exact) = units_bound(string.as_ref(), u, isolated, &extra, warps, barriers);
            if let Some(Err(e)) = exact {
                out.diagnostics.push(Diagnostic::global(
                    Severity::Note,
                    format!(
                        "straight-line code: the exact makespan was not computed ({e}); the \
                         bound is the closed-form one"
                    ),
                ));
            }
            // Exact values for the plot up to MAX_EXACT_GROWTH warps, stopping at the first
            // search that runs out of budget (more warps only cost more).
            let mut searching = true;
            let mut growth: Vec<(usize, u64, u64, Option<u64>)> = Vec::new();
            for w in 1..=MAX_PLOT_WARPS.max(warps) {
                let s = string
                    .as_ref()
                    .filter(|_| searching && w <= MAX_EXACT_GROWTH);
                let (g, exact) = units_bound(s, u, isolated, &extra, w, barriers);
                searching &= !matches!(exact, Some(Err(_)));
                growth.push((w, g.cycles, g.serialised, exact.and_then(Result::ok)));
            }
            out.time("makespan", t);
            (b, growth)
        }
    };
    if units.is_none() && barriers {
        out.diagnostics
            .push(barrier_note(phases.as_ref(), &bound, control));
    } else if barriers {
        out.diagnostics.push(Diagnostic::global(
            Severity::Note,
            "the kernel waits at barriers (BAR): on the makespan machine the block bound is the \
             serialised one, W × the warp bound",
        ));
    }
    let cost_model = p.cost.name();
    out.wcet = Some(Wcet {
        cycles: bound.cycles,
        cost_model: cost_model.into(),
        assumed_loop_bounds: Vec::new(),
    });
    let mut growth: Vec<BlockGrowth> = growth_of
        .into_iter()
        .map(|(w, b, s, exact)| BlockGrowth {
            warps: w,
            bound: b,
            serialised: s,
            exact,
            observed: None,
        })
        .collect();
    if let (Some(run), Some(first)) = (p.simulate.run(&mut Vec::new()), runs.first()) {
        let cycles = runs.iter().map(|(_, s)| s.cycles).max().unwrap_or(0);
        let sims = GrowthRuns {
            scheduler: first.0,
            cycles,
            steps: run.budget.max_steps.saturating_sub(issued(&runs)),
            progress: input.progress,
        };
        observe_growth(&parsed, run, &p, units, &sims, &mut growth, warps);
    }
    let block_runs: Vec<BlockRun> = runs
        .iter()
        .map(|(name, s)| BlockRun {
            scheduler: (*name).into(),
            cycles: s.cycles,
            last_warp: last_warp(s),
            holds: s.cycles <= bound.cycles,
        })
        .collect();
    out.plots.push(growth_plot(&growth, cost_model));
    out.plots
        .extend(out.occupancy.as_ref().map(|o| o.curve_plot()));
    if let Some(worst) = runs.into_iter().max_by_key(|(_, s)| s.cycles) {
        out.schedule = Some(gantt(&worst.1, bound.cycles, warps));
        let what = match &units {
            None => format!(
                "the block bound: {warps} warps, one issue per cycle, the cost model's \
                 latencies (worst of the simulated schedulers: {})",
                worst.0
            ),
            Some(u) => format!(
                "the block bound: {warps} warps on the makespan machine ({} load/store units, \
                 {} cores; worst of the simulated schedulers: {})",
                u.ls_units, u.cores, worst.0
            ),
        };
        let mut report = SimulationReport::against(worst.1, Some(bound.cycles), what);
        report.loop_iterations = loops;
        out.simulation = Some(report);
    }
    let warp_cfg = match std::mem::take(&mut out.details) {
        ModeDetails::WarpCfg(d) => Some(d),
        _ => None,
    };
    out.details = ModeDetails::Block(Box::new(BlockDetails {
        wcet: bound.cycles,
        warps,
        threads,
        warp_wcet: isolated,
        warp_issues: issues,
        barriers,
        serialised_because: phases
            .as_ref()
            .and_then(|r| r.as_ref().err())
            .map(Into::into),
        barrier_phases: phases
            .as_ref()
            .and_then(|r| r.as_ref().ok())
            .map(Into::into),
        bound: (&bound).into(),
        scheduler,
        sm: if units.is_some() {
            "makespan"
        } else {
            "issue-slot"
        }
        .into(),
        runs: block_runs,
        growth,
        warp_cfg,
    }));
    out
}

/// The note saying which barrier rule the bound of a kernel with barriers took and why
/// (`phases`: what `block::barrier_phases` said; `None` under independent thread
/// scheduling, where it is not asked).
fn barrier_note(
    phases: Option<&Result<block::BarrierPhases, block::Serialised>>,
    bound: &block::BlockBound,
    control: bool,
) -> Diagnostic {
    if control {
        return Diagnostic::global(
            Severity::Note,
            "the kernel waits at barriers (BAR): under cost=control the block bound is the \
             serialised one, W × the warp bound (the per-phase rule's carry, what may be in \
             flight at a barrier, is derived for the latency model only)",
        );
    }
    let Some(phases) = phases else {
        return Diagnostic::global(
            Severity::Note,
            "the kernel waits at barriers (BAR) and its warps run under independent thread \
             scheduling (`its`), where a warp may reach a barrier in parts: the block bound is \
             the serialised one, W × the warp bound",
        );
    };
    let text = match phases {
        Ok(x) if bound.rule == block::Rule::BarrierPhases => {
            let looped = x.barriers.iter().filter(|b| !b.loops.is_empty()).count();
            let lambdas = x
                .barriers
                .iter()
                .map(|b| format!("{:#x}: {} × λ {}", b.address, b.instances, b.lambda))
                .collect::<Vec<_>>()
                .join(", ");
            format!(
                "every warp passes the kernel's barriers the same number of times, in the same \
                 order, whole ({} barrier instruction(s), {looped} of them in loops whose exits \
                 are the same for the whole block): the bound is the response time per barrier \
                 phase, C + (W − 1)·I + Σ P_b·λ_b = … + {} with P = {} barrier instances (each \
                 barrier P_b times: the bounds of the loops around it) and λ_b the largest \
                 latency or interval that may still be in flight when a warp passes it \
                 ({lambdas}; crates/block has the proof)",
                x.barriers.len(),
                x.carry,
                x.instances
            )
        }
        Ok(x) => format!(
            "every warp passes the kernel's barriers the same number of times, in the same \
             order (P = {} barrier instances), but the per-phase bound C + (W − 1)·I + \
             Σ P_b·λ_b (= … + {}) is not below the serialised one, W × the warp bound, which is \
             used",
            x.instances, x.carry
        ),
        Err(why) => format!(
            "the kernel waits at barriers (BAR) and {why}: the block bound is the serialised \
             one, W × the warp bound (while one warp waits at a barrier, the others may wait \
             for their own latencies one after another; crates/block says why the serialised \
             bound holds)"
        ),
    };
    Diagnostic::global(Severity::Note, text)
}
