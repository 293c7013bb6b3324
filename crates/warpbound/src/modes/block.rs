//! The `block` mode (issue #27): the WCET of a thread block of a real SASS kernel — W warps
//! each following its own path through the warp-level CFG, sharing the SM's issue slot —
//! as the worst-case response time of its warps (crate `block`, after Jeanmougin, Carle and
//! Rochange, ECRTS 2025). Each warp's isolated time is the `warp-cfg` bound (the same warp
//! CFG, cost model and loop bounds); the warp-instructions it issues are the same IPET under
//! cost `unit`. With `simulate=true` the simulator runs the block under loose round-robin
//! and greedy-then-oldest in the bound's own setting (one instruction per cycle, the cost
//! model's latencies) and the report puts every run next to the bound.

use crate::catalog::{ModeInfo, ParamInfo};
use crate::mode::{Mode, ModeDetails, ModeInput, ModeOutput};
use crate::observed_loops;
use crate::report::{BlockDetails, BlockGrowth, BlockRun, SimulationReport, Wcet};
use crate::simulator;
use crate::warp_analysis::{self, Cost, ParsedSass, WarpCfgParams};
use isa::{Diagnostic, Kernel, Severity};
use std::collections::BTreeMap;
use web_time::Instant;

mod runs;

use runs::{
    block_launch, gantt, growth_plot, issued, last_warp, observe_growth, observed, simulate_block,
    GrowthRuns,
};

/// The mode.
pub const MODE: Mode = Mode {
    name: "block",
    aliases: &[],
    describe,
    run,
};

/// Threads per warp of every SASS target.
const WARP_SIZE: u64 = 32;

/// CUDA's limit on the threads of one block (every architecture since Fermi).
const MAX_THREADS: u64 = 1024;

/// Largest block the growth plot goes to, in warps (a 1024-thread block).
const MAX_PLOT_WARPS: usize = 32;

/// Most blocks (1, 2, … warps) simulated for the growth plot's observed points.
const MAX_OBSERVED_GROWTH: usize = 8;

/// Most warps the growth plot gets the exact makespan for (straight-line code, `sm=makespan`).
const MAX_EXACT_GROWTH: usize = 8;

/// Most boxes in the block's Gantt chart (issues close in time merge beyond it).
const MAX_GANTT_ITEMS: usize = 4000;

fn describe() -> ModeInfo {
    let mut params: Vec<ParamInfo> = warp_analysis::params()
        .into_iter()
        .map(|mut p| {
            if p.name == "block" {
                p.meaning = "thread block dimensions X,Y,Z: the block whose WCET is bounded \
                             (warps = threads / 32, rounded up; at most 1024 threads)"
                    .into();
                p.default = serde_json::json!("128,1,1");
                p.group = String::new();
            }
            p
        })
        .collect();
    params.insert(
        0,
        ParamInfo::choice(
            "sm",
            "the SM the block shares: issue-slot = one warp-instruction issues per cycle, the \
             cost model's latencies (the warp-cfg setting); makespan = the unit machine of \
             Berezovskyi et al. §2–3 (memory instructions on ls_units load/store units, the \
             others on cores CUDA cores, σ lanes of k cycles each, one-cycle latencies, any \
             number of warps per cycle), whose exact worst case the makespan mode computes for \
             straight-line code",
            &["issue-slot", "makespan"],
            "issue-slot",
        ),
    );
    params.insert(
        1,
        ParamInfo::number(
            "ls_units",
            "sm=makespan: load/store units per SM (Fermi cc 2.0: 16)",
            "units",
            1.0,
            1024.0,
            16.0,
        ),
    );
    params.insert(
        2,
        ParamInfo::number(
            "cores",
            "sm=makespan: CUDA cores per SM (Fermi cc 2.0: 32; cc 2.1: 48)",
            "cores",
            1.0,
            1024.0,
            32.0,
        ),
    );
    params.insert(
        3,
        ParamInfo::choice(
            "scheduler",
            "warp scheduler the simulator runs the block under (simulate=true): any = loose \
             round-robin (lrr), greedy-then-oldest (gto) and two random work-conserving \
             schedulers (a random order of the ready warps every cycle, seeds 1 and 2); random = \
             four of those; the bound holds for every work-conserving scheduler",
            &["any", "lrr", "gto", "random"],
            "any",
        ),
    );
    ModeInfo {
        name: String::new(),
        aliases: Vec::new(),
        title: "Thread-block WCET (response time)".into(),
        description: "Bounds a thread block of W warps of the kernel, sharing one issue slot: \
                      each warp's time alone (the warp-cfg bound) plus the issue slots the \
                      other W − 1 warps can take from it (their warp-instructions, the IPET \
                      bound under unit cost) — the worst-case response time of the block's \
                      warps, after Jeanmougin, Carle and Rochange (ECRTS 2025). Latencies of \
                      different warps overlap; only issue slots add up. Kernels with barriers \
                      get the bound per barrier phase when every warp passes them alike \
                      (outside branches that split the block, in loops whose exits are the \
                      same for the whole block), else the serialised bound (W × the warp \
                      bound)."
            .into(),
        dialects: vec!["sass".into()],
        params,
        presets: warp_analysis::presets(),
        default_presets: BTreeMap::new(),
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

/// Whether the kernel waits at thread-block barriers (`BAR.SYNC`, `BAR.RED`, `BAR.ARV` and
/// the sm_70+ forms: every `BAR` opcode counts, conservatively).
fn has_barriers(kernel: &Kernel) -> bool {
    kernel.instructions.iter().any(|i| i.opcode.name == "BAR")
}

/// The unit machine of `sm=makespan`: `(k, σ)` of the load/store units and of the cores
/// for warps of 32 (Berezovskyi et al. §3).
#[derive(Debug, Clone, Copy)]
struct Units {
    ls_units: u32,
    cores: u32,
    load_store: block::UnitKind,
    core: block::UnitKind,
}

impl Units {
    fn decode(params: &crate::params::Params) -> Result<Option<Units>, Diagnostic> {
        // Read whatever the model (so no parameter goes unread); used by `makespan` only.
        let (ls_units, cores) = (params.u32("ls_units")?, params.u32("cores")?);
        if params.text("sm")? != "makespan" {
            return Ok(None);
        }
        let kind = |units: u32| -> Result<block::UnitKind, Diagnostic> {
            let (cycles, lanes) = makespan::sigma_factor(units, WARP_SIZE as u32)
                .map_err(|e| Diagnostic::global(Severity::Error, e.to_string()))?;
            Ok(block::UnitKind { lanes, cycles })
        };
        Ok(Some(Units {
            ls_units,
            cores,
            load_store: kind(ls_units)?,
            core: kind(cores)?,
        }))
    }

    /// The cost model of one warp alone on this machine: each instruction its unit's k.
    fn cost(&self) -> Cost {
        Cost::Units {
            load_store: u64::from(self.load_store.cycles),
            core: u64::from(self.core.cycles),
        }
    }
}

/// Budget of the exact makespan search on straight-line code: the makespan mode's default,
/// so that both modes give the same value on the same kernel.
fn exact_budget() -> makespan::Budget {
    makespan::Budget::default()
}

fn run(input: &ModeInput) -> ModeOutput {
    let p = match WarpCfgParams::decode(input) {
        Ok(p) => p,
        Err(d) => return ModeOutput::failed([d]),
    };
    let params = input.params;
    let (scheduler, dims, units) = match (
        params.text("scheduler"),
        simulator::dim3(params, "block"),
        Units::decode(params),
    ) {
        (Ok(s), Ok(d), Ok(u)) => (s.to_string(), d, u),
        (s, d, u) => return ModeOutput::failed(s.err().into_iter().chain(d.err()).chain(u.err())),
    };
    let threads = dims.iter().map(|&d| u64::from(d)).product::<u64>();
    if threads > MAX_THREADS {
        return ModeOutput::failed([Diagnostic::global(
            Severity::Error,
            format!(
                "parameter `block`: {threads} threads; a thread block has at most {MAX_THREADS}"
            ),
        )]);
    }
    let warps = threads.div_ceil(WARP_SIZE) as usize;
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
            &block_launch(run, dims).watching(observed_loops::watch(&parsed.sass.graph)),
            &p,
            units,
            &scheduler,
            input.progress,
            &mut out,
        );
        out.time("simulate", t);
    }
    let loops = observed(&parsed, &runs);
    out.diagnostics
        .extend(crate::loop_inference::check_observed(&inference, &loops));
    if p.observed {
        if !warp_analysis::observe_bounds(
            &loops,
            !runs.is_empty(),
            input,
            &mut p.loop_bounds,
            &mut out,
        ) {
            return out;
        }
    } else {
        warp_analysis::raise_defaults_to_observed(&loops, &mut p.loop_bounds, &mut out);
    }
    out.loop_bounds = crate::loop_inference::rows(&inference, &p.loop_bounds);
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
    let phases = (barriers && p.its.is_none()).then(|| {
        let lb = &p.loop_bounds;
        let timing = |ins: &isa::Instruction| match &p.cost {
            Cost::Latency(table) => {
                let class = cfg::TimingClass::of(ins);
                block::Timing {
                    latency: table.latency_of(class),
                    interval: table.interval_of(class),
                }
            }
            Cost::Unit | Cost::Units { .. } => block::Timing::UNIT,
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
        out.diagnostics.push(barrier_note(phases.as_ref(), &bound));
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
        serialised_because: phases.as_ref().and_then(|r| r.as_ref().err()).cloned(),
        barrier_phases: phases.and_then(Result::ok),
        bound,
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
) -> Diagnostic {
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

/// The unit machine's closed-form bound for `warps` warps (`extra`: the warp's work on the
/// load/store units and on the cores); serialised with barriers.
fn units_formula(
    u: &Units,
    isolated: u64,
    extra: &[u64],
    warps: usize,
    barriers: bool,
) -> block::BlockBound {
    let profile = block::UnitProfile {
        isolated,
        work: extra.to_vec(),
    };
    let kinds = [u.load_store, u.core];
    let b = block::units_response_time(&vec![profile; warps], &kinds);
    if barriers {
        let serial = block::WarpProfile {
            isolated,
            issues: isolated,
        };
        return block::response_time(&vec![serial; warps], true);
    }
    b
}

/// Whether the code reachable from the entry is one path: every block reached has at most
/// one successor and none is reached twice (what the L/C reduction walks, whole).
fn is_straight_line(graph: &isa::BlockGraph) -> bool {
    let edges = graph.edges();
    let mut seen = vec![false; graph.blocks.len()];
    let mut b = 0usize;
    loop {
        match seen.get_mut(b) {
            Some(s) if !*s => *s = true,
            _ => return false,
        }
        let mut outs = edges.iter().filter(|e| e.0 == b);
        match (outs.next(), outs.next()) {
            (None, _) => return true,
            (Some(e), None) => b = e.1,
            _ => return false,
        }
    }
}

/// The L/C string of a straight-line kernel (one path, [`is_straight_line`], no barriers)
/// on the unit machine, ready for the exact makespan search; `None` for other code.
fn straight_line_string(
    parsed: &ParsedSass,
    u: &Units,
    barriers: bool,
) -> Option<Result<makespan::Transformed, makespan::Error>> {
    let graph = &parsed.sass.graph;
    if barriers || !is_straight_line(graph) {
        return None;
    }
    let (ops, _) = crate::lc_reduction::sass(&parsed.sass.kernel, graph);
    let machine = makespan::Machine {
        ls_units: u.ls_units,
        cores: u.cores,
        warp_size: WARP_SIZE as u32,
    };
    Some(makespan::transform(&ops, &machine))
}

/// [`units_formula`], and on straight-line code the exact worst-case makespan of the L/C
/// reduction (crate `makespan`) — never above the formula, which bounds it — so that on such
/// code the block mode gives the makespan mode's exact value. `exact` is that value, if
/// computed.
fn units_bound(
    string: Option<&Result<makespan::Transformed, makespan::Error>>,
    u: &Units,
    isolated: u64,
    extra: &[u64],
    warps: usize,
    barriers: bool,
) -> (block::BlockBound, Option<Result<u64, makespan::Error>>) {
    let formula = units_formula(u, isolated, extra, warps, barriers);
    let Some(string) = string else {
        return (formula, None);
    };
    let exact = match string {
        Ok(t) => makespan::exact_makespan(t, warps as u32, &exact_budget()).map(|(v, _)| v),
        Err(e) => Err(e.clone()),
    };
    match exact {
        Ok(v) => (formula.capped_by_exact(v), Some(Ok(v))),
        Err(e) => (formula, Some(Err(e))),
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
    let mut machine = simulator::preset_machine(Some("unit-cost"))?;
    machine.latency = match &p.cost {
        Cost::Latency(table) => table.clone(),
        Cost::Unit | Cost::Units { .. } => cfg::LatencyTable::unit(),
    };
    machine.issue_width = 1;
    machine.transaction_cycles = 0;
    machine.scheduler = scheduler;
    machine.thread_scheduling = crate::params::its::thread_scheduling(p.its);
    Some(machine)
}
