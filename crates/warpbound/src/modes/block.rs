//! The `block` mode (issue #27): the WCET of a thread block of a real SASS kernel — W warps
//! each following its own path through the warp-level CFG, sharing the SM's issue slot —
//! as the worst-case response time of its warps (crate `block`, after Jeanmougin, Carle and
//! Rochange, ECRTS 2025). Each warp's isolated time is the `warp-cfg` bound (the same warp
//! CFG, cost model and loop bounds); the warp-instructions it issues are the same IPET under
//! cost `unit`. With `simulate=true` the simulator runs the block under loose round-robin
//! and greedy-then-oldest in the bound's own setting (one instruction per cycle, the cost
//! model's latencies) and the report puts every run next to the bound.

use super::warp_cfg::{self, Cost, ParsedSass, WarpCfgParams};
use crate::catalog::{ModeInfo, ParamInfo};
use crate::mode::{Mode, ModeDetails, ModeInput, ModeOutput};
use crate::observed_loops::{self, ObservedLoop};
use crate::report::{
    BlockDetails, BlockGrowth, BlockRun, PlotView, ScheduleItem, ScheduleView, Series,
    SimulationReport, Wcet,
};
use crate::simulator::{self, SimRun};
use isa::{Diagnostic, Kernel, Severity};
use std::collections::BTreeMap;
use web_time::Instant;

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
    let mut params: Vec<ParamInfo> = warp_cfg::params()
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
                      get the serialised bound (W × the warp bound)."
            .into(),
        dialects: vec!["sass".into()],
        params,
        presets: warp_cfg::presets(),
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

/// When every barrier of `kernel` is a plain `BAR.SYNC 0` that every warp passes once, in the
/// same order, their number `P` (the condition of `block::phased_response_time`); `None`
/// otherwise. Checked on the thread CFG `graph`: each barrier is unguarded, in no loop (no
/// cycle through its block), and on every path from the entry to every place a thread can
/// end (each block holding an `EXIT`/`KIL`/`RET` is dominated by the barrier's block, or the
/// barrier comes first in the same block); every branch that may split a warp before a
/// barrier reconverges at or before it (every warp arrives converged, once); the kernel makes
/// no calls or indirect jumps (the CFG would not show the callee's barriers and exits).
fn phased_barriers(kernel: &Kernel, graph: &isa::BlockGraph) -> Option<u64> {
    let ins = &kernel.instructions;
    let stops = |i: &isa::Instruction| {
        matches!(
            i.opcode.name.as_str(),
            "CAL" | "JCAL" | "CALL" | "BRX" | "JMX" | "JMP" | "PRET" | "RET"
        )
    };
    if ins.iter().any(stops) {
        return None;
    }
    let block_of = |i: usize| graph.blocks.iter().find(|b| b.first <= i && i <= b.last);
    let edges = graph.edges();
    let dom = isa::dominance::DominatorTree::dominators(
        graph.blocks.len(),
        edges.iter().map(|e| (e.0, e.1)),
        0,
    );
    // Blocks on a cycle: a block reaches itself.
    let succ = |b: usize| edges.iter().filter(move |e| e.0 == b).map(|e| e.1);
    let on_cycle = |b: usize| {
        let mut seen = vec![false; graph.blocks.len()];
        let mut stack: Vec<usize> = succ(b).collect();
        while let Some(x) = stack.pop() {
            if x == b {
                return true;
            }
            if let Some(s) = seen.get_mut(x) {
                if !*s {
                    *s = true;
                    stack.extend(succ(x));
                }
            }
        }
        false
    };
    let ends: Vec<usize> = (0..ins.len())
        .filter(|&i| matches!(ins[i].opcode.name.as_str(), "EXIT" | "KIL"))
        .collect();
    let mut count = 0u64;
    for (i, bar) in ins
        .iter()
        .enumerate()
        .filter(|(_, x)| x.opcode.name == "BAR")
    {
        let plain = bar.opcode.has_modifier("SYNC")
            && bar.guard.is_none()
            && bar.operands.len() == 1
            && bar.operands[0]
                .text
                .trim()
                .trim_start_matches("0x")
                .trim_start_matches('0')
                .is_empty()
            && bar
                .opcode
                .modifiers
                .iter()
                .all(|m| m == "SYNC" || m == "DEFER_BLOCKING");
        let b = block_of(i)?;
        if !plain || !b.reachable || on_cycle(b.id) {
            return None;
        }
        for &e in &ends {
            let eb = block_of(e)?;
            let first = if eb.id == b.id {
                i < e
            } else {
                dom.dominates(b.id, eb.id)
            };
            if eb.reachable && !first {
                return None;
            }
        }
        // Every warp reaches the barrier converged, once: each branch that may split a warp
        // (a guarded control instruction) before the barrier lies in a reconvergence region
        // (SSY, PBK, PCNT, PRET, BSSY: from the push to its target, contiguous in SASS) that
        // closes at or before the barrier. A region open across the barrier is fine when no
        // such branch precedes the barrier inside it (nvcc's `SSY; …; BAR.SYNC; @P1 SYNC`).
        // A block the barrier's does not dominate runs before it (every path to an exit
        // passes the barrier).
        let before = |at: usize| match block_of(at) {
            Some(x) if x.id == b.id => at < i,
            Some(x) => !dom.dominates(b.id, x.id),
            None => true,
        };
        let regions: Vec<(usize, u64)> = ins
            .iter()
            .enumerate()
            .filter_map(|(k, push)| match push.control {
                isa::ControlKind::Ssy(Some(t))
                | isa::ControlKind::Pbk(Some(t))
                | isa::ControlKind::Pcnt(Some(t))
                | isa::ControlKind::Pret(Some(t))
                | isa::ControlKind::Bssy {
                    target: Some(t), ..
                } => Some((k, t)),
                _ => None,
            })
            .collect();
        for (c, x) in ins.iter().enumerate() {
            let splits = x.guard.is_some() && x.control != isa::ControlKind::Fallthrough;
            if !splits || !before(c) {
                continue;
            }
            let enclosed = regions.iter().any(|&(k, t)| {
                before(k) && ins[k].address < x.address && x.address < t && t <= bar.address
            });
            if !enclosed {
                return None;
            }
        }
        count += 1;
    }
    Some(count)
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
    let Some(parsed) = warp_cfg::parse_sass(input, &p, &mut out) else {
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
        warp_cfg::infer_sass(&parsed.sass, launch.as_ref(), &mut p.loop_bounds, &mut out);
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
        if !warp_cfg::observe_bounds(
            &loops,
            !runs.is_empty(),
            input,
            &mut p.loop_bounds,
            &mut out,
        ) {
            return out;
        }
    } else {
        warp_cfg::raise_defaults_to_observed(&loops, &mut p.loop_bounds, &mut out);
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
    let warp = warp_cfg::bound_with_extras(
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
    // Barriers every warp passes once, in order, on the stack-ordered machine: per phase.
    let phased = phased_barriers(&parsed.sass.kernel, &parsed.sass.graph)
        .filter(|_| barriers && p.its.is_none());
    let lambda = match &p.cost {
        Cost::Latency(table) => table
            .latency
            .values()
            .chain(table.interval.values())
            .copied()
            .max()
            .map_or(1, u64::from),
        Cost::Unit | Cost::Units { .. } => 1,
    };
    let (bound, growth_of) = match (&units, phased) {
        (None, Some(count)) => (
            block::phased_response_time(&vec![profile; warps], count, lambda),
            (1..=MAX_PLOT_WARPS.max(warps))
                .map(|w| {
                    let b = block::phased_response_time(&vec![profile; w], count, lambda);
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
    if let (Some(count), None) = (
        phased.filter(|_| bound.rule == block::Rule::BarrierPhases),
        &units,
    ) {
        out.diagnostics.push(Diagnostic::global(
            Severity::Note,
            format!(
                "the kernel's {count} barrier(s) lie outside every branch and loop, so every warp \
                 passes them once, in the same order: the bound is the response time per barrier \
                 phase, C + (W − 1)·I + P·(2λ − 1) with P = {count}, λ = {lambda} (the largest \
                 latency or interval: results in flight across a barrier; crates/block has the \
                 proof)"
            ),
        ));
    } else if barriers {
        out.diagnostics.push(Diagnostic::global(
            Severity::Note,
            "the kernel waits at barriers (BAR) inside a branch or loop, or in a form other than \
             BAR.SYNC 0: the block bound is the serialised one, W × the warp bound (while one \
             warp waits at a barrier, the others may wait for their own latencies one after \
             another; crates/block says why the serialised bound holds)",
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
    let (ops, _) = super::makespan::lc_reduction::sass(&parsed.sass.kernel, graph);
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

/// `run` as one block of `dims` threads.
fn block_launch(run: &SimRun, dims: [u32; 3]) -> SimRun {
    let mut run = run.clone();
    run.launch.grid = [1, 1, 1];
    run.launch.block = dims;
    run.block_retry = false;
    run
}

/// Runs the block (`run`, one block already) under each scheduler `scheduler` names. The first run's diagnostics go to
/// the report; the others add only what the first did not say.
fn simulate_block(
    parsed: &ParsedSass,
    run: &SimRun,
    p: &WarpCfgParams,
    units: Option<Units>,
    scheduler: &str,
    progress: isa::Observer,
    out: &mut ModeOutput,
) -> Vec<(&'static str, sim::Simulation)> {
    let mut runs = Vec::new();
    // The runs share one `max_steps` (issue #37 item 3: the mode's time is the budget's, not
    // a multiple of it): each gets what the ones before left.
    let mut left = run.budget.max_steps;
    let mut skipped = Vec::new();
    for (i, (name, s)) in schedulers(scheduler).into_iter().enumerate() {
        let Some(machine) = machine(p, units, s) else {
            continue;
        };
        if i > 0 && left == 0 {
            skipped.push(name);
            continue;
        }
        let mut this = run.clone();
        this.budget.max_steps = left;
        let mut diags = Vec::new();
        let result = simulator::run_kernel(
            parsed.runnable(),
            &this,
            &machine,
            &mut diags,
            &mut out.arguments,
            progress,
        );
        for d in diags {
            if i == 0 || !out.diagnostics.contains(&d) {
                out.diagnostics.push(d);
            }
        }
        match result {
            Some(sim) => {
                left = left.saturating_sub(sim.issued);
                runs.push((name, sim));
            }
            // A run stopped by the shared budget leaves nothing for the others.
            None => left = 0,
        }
    }
    if !skipped.is_empty() {
        out.diagnostics.push(Diagnostic::global(
            Severity::Note,
            format!(
                "the block's runs share max_steps = {}: the runs before used it up, so the \
                 block was not run under {} (raise max_steps to run them)",
                run.budget.max_steps,
                skipped.join(", ")
            ),
        ));
    }
    runs
}

/// The warp-instructions `runs` issued in all.
fn issued(runs: &[(&str, sim::Simulation)]) -> u64 {
    runs.iter().map(|(_, s)| s.issued).sum()
}

/// Per loop header, the most iterations any run observed.
fn observed(parsed: &ParsedSass, runs: &[(&str, sim::Simulation)]) -> Vec<ObservedLoop> {
    let mut most: BTreeMap<String, ObservedLoop> = BTreeMap::new();
    for (_, s) in runs {
        for l in observed_loops::of_run(&parsed.sass.kernel, &parsed.sass.graph, s) {
            match most.get_mut(&l.header) {
                Some(m) => m.iterations = m.iterations.max(l.iterations),
                None => {
                    most.insert(l.header.clone(), l);
                }
            }
        }
    }
    most.into_values().collect()
}

/// How the growth plot's runs are made: under `scheduler`, at most `2 × cycles + 1000`
/// cycles each ([`observe_growth`]), reporting to `progress`.
struct GrowthRuns<'a> {
    scheduler: &'static str,
    cycles: u64,
    /// What the block's own runs left of `max_steps` (the growth runs share it).
    steps: u64,
    progress: isa::Observer<'a>,
}

/// Observed cycles for blocks of 1, 2, … warps (at most [`MAX_OBSERVED_GROWTH`] and the
/// block's own), untraced, under `scheduler`; stops at the first run that fails. A smaller
/// block gets at most `2 × cycles + 1000` cycles, `cycles` the block's own run: a kernel
/// whose warps wait for each other (a spin on a shared flag) would otherwise spin to the
/// simulator's budget with fewer warps than it needs, and the plot does not need that point.
fn observe_growth(
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
fn last_warp(s: &sim::Simulation) -> usize {
    s.warps
        .iter()
        .enumerate()
        .max_by_key(|&(i, w)| (w.finished, i))
        .map_or(0, |(i, _)| i)
}

/// The block's Gantt chart: one lane per warp with its issue cycles (issues close in time
/// merged so that at most [`MAX_GANTT_ITEMS`] boxes are drawn), and a lane with the bound.
fn gantt(s: &sim::Simulation, bound: u64, warps: usize) -> ScheduleView {
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
fn issue_boxes(s: &sim::Simulation, gap: u64) -> Vec<ScheduleItem> {
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
fn growth_plot(growth: &[BlockGrowth], cost_model: &str) -> PlotView {
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
