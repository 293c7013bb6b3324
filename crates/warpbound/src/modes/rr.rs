//! The `rr` mode: Huangfu's PTX kernel analyzer, pure round-robin timing model, coalescing,
//! competing-SM estimate and cache analyses (crates `roundrobin` and `caches`), for the grid,
//! block and parameter values of the request.
//!
//! Kernel parameters the request does not give are chosen automatically (`params=auto`,
//! [`crate::params::kernel_args`]) and listed in `report.arguments`. Branches, loop exits and
//! addresses that depend on data the analyzer does not know are paid for in the worst case
//! (`unknown_data=pessimistic`, the `roundrobin` crate's `both_sides`): loops that exit on
//! such data take their bound from `loop_bounds` (keyed by the header's label) or
//! `default_loop_bound`, as in the `warp-cfg` mode; each assumption is a located note.
//!
//! `wcet.cycles` is the model's WCET; in `avg` mode (or with overridden estimates) it is an
//! estimate, not a safe bound, and the cost model says so. The `rr` object is the crate's
//! result, with per-warp traces cut to the first [`MAX_TRACES`] warps; the T_ij schedule is
//! the Gantt chart (one lane per warp, one box per code-segment instance).

use crate::auto_memory;
use crate::catalog::{ModeInfo, ParamInfo, PresetInfo};
use crate::kernel_text;
use crate::mode::{Mode, ModeDetails, ModeInput, ModeOutput};
use crate::observed_loops;
use crate::params::kernel_args;
use crate::params::{limits, LoopBounds, Params};
use crate::report::ArgumentSource;
use crate::report::{SimulationReport, Wcet};
use crate::simulator::{self, SimRequest, SimRun};
use crate::views;
use isa::{Diagnostic, Severity};
use std::collections::BTreeMap;

/// The mode.
pub const MODE: Mode = Mode {
    name: "rr",
    aliases: &[],
    describe,
    run,
};

/// Warps whose execution traces the report keeps (the analysis follows all of them).
pub const MAX_TRACES: usize = 64;

/// The timing parameters (Fig. 24) as `(parameter, meaning, value)`.
fn timing_fields(t: &roundrobin::TimingParams) -> [(&'static str, &'static str, u64); 11] {
    [
        (
            "sp_pipeline_capacity",
            "warps the SP pipeline holds at once (Eq. 5.4)",
            u64::from(t.sp_pipeline_capacity),
        ),
        (
            "sfu_pipeline_capacity",
            "warps the SFU pipeline holds at once",
            u64::from(t.sfu_pipeline_capacity),
        ),
        (
            "mem_pipeline_capacity",
            "warps the memory pipeline holds at once",
            u64::from(t.mem_pipeline_capacity),
        ),
        (
            "l_initial",
            "initial latency of an instruction (cycles)",
            t.l_initial,
        ),
        (
            "l_initiation",
            "initiation interval (cycles)",
            t.l_initiation,
        ),
        ("l_execution", "execution latency (cycles)", t.l_execution),
        (
            "sp_pipeline_length",
            "SP pipeline length (cycles)",
            t.sp_pipeline_length,
        ),
        (
            "sfu_pipeline_length",
            "SFU pipeline length (cycles)",
            t.sfu_pipeline_length,
        ),
        (
            "mem_pipeline_length",
            "memory pipeline length (cycles)",
            t.mem_pipeline_length,
        ),
        (
            "l_base",
            "L_base: base latency of a global memory transaction (Eq. 5.5)",
            t.l_base,
        ),
        (
            "l_shared",
            "shared-memory access latency (cycles)",
            t.l_shared,
        ),
    ]
}

/// The hardware parameters as `(parameter, meaning, minimum, value)`.
fn hardware_fields(c: &roundrobin::Config) -> [(&'static str, &'static str, f64, f64); 9] {
    [
        ("warp_size", "threads per warp", 1.0, f64::from(c.warp_size)),
        ("sms", "streaming multiprocessors", 1.0, f64::from(c.sms)),
        (
            "memory_partitions",
            "memory partitions (Alg. 6)",
            1.0,
            f64::from(c.memory_partitions),
        ),
        (
            "partition_interleave_bytes",
            "address interleaving between partitions (bytes)",
            1.0,
            c.partition_interleave_bytes as f64,
        ),
        (
            "max_warps_per_sm",
            "resident warps per SM",
            1.0,
            f64::from(c.max_warps_per_sm),
        ),
        (
            "max_blocks_per_sm",
            "resident blocks per SM",
            1.0,
            f64::from(c.max_blocks_per_sm),
        ),
        (
            "segment_bytes",
            "coalescing segment size (Alg. 5)",
            1.0,
            c.segment_bytes as f64,
        ),
        (
            "t_competing_sm",
            "threshold on competing accesses (Alg. 6)",
            0.0,
            c.t_competing_sm,
        ),
        (
            "t_d2center",
            "threshold on Distance2Center (Alg. 6)",
            0.0,
            c.t_d2center,
        ),
    ]
}

fn describe() -> ModeInfo {
    let c = roundrobin::presets::fermi_gpgpusim().config;
    let b = roundrobin::Budgets::default();
    let mut v = vec![
        ParamInfo::text("grid", "grid dimensions X,Y,Z (blocks)", "1,1,1"),
        ParamInfo::text("block", "block dimensions X,Y,Z (threads)", "32,1,1"),
        ParamInfo::text(
            "params",
            "kernel parameter values in declaration order, comma-separated (integers or decimals; pointers are byte addresses); empty or `auto`: chosen automatically — pointers 1 MiB apart from 0x100000 (256-byte aligned), integers 64, floats 1.0, structs zero (listed in the report's arguments)",
            "",
        ),
        ParamInfo::choice(
            "unknown_data",
            "branches, loop exits and global addresses that depend on data the analyzer does not know (loaded from memory): pessimistic = pay for every outcome (both sides of such a branch, loops bounded by loop_bounds / default_loop_bound, one transaction per thread for such an address), each listed as a note; refuse = a located error, as the thesis's analyzer (§4.4.6.1)",
            &["pessimistic", "refuse"],
            "pessimistic",
        ),
        ParamInfo::number(
            "default_loop_bound",
            "bound for loops that exit on unknown data and that neither the code (a counter beside the data exit, inferred for the launch) nor loop_bounds (keyed by the header's label, e.g. $L__BB0_3) bounds: the header runs at most N times per entry (0: every such loop needs its own bound); each use is a warning; 10 as in the warp-cfg mode",
            "iterations",
            0.0,
            1e6,
            10.0,
        ),
        ParamInfo::choice(
            "timing_mode",
            "max: safe WCET (hard real-time); avg: average-case estimate (soft real-time)",
            &["max", "avg"],
            "max",
        ),
        ParamInfo::choice(
            "segmentation",
            "code segments: dependency = independent instructions share a segment (reproduces Fig. 24); per-instruction = §5.3.1 literally",
            &["dependency", "per-instruction"],
            "dependency",
        ),
        ParamInfo::flag(
            "caches",
            "cache analyses (L1 under reordering, shared LLC) classifying each access as L1 hit, L2 hit or L2 miss for LE (needs a preset with caches, e.g. gem5-gpu-table7)",
            false,
        ),
        ParamInfo::flag(
            "simulate",
            "also run the simulator in the model's setting (pure round-robin, the model's latencies, one SM) on this launch and show observed vs the model",
            false,
        ),
        ParamInfo::choice(
            "loop_bounds",
            "`observed`: loops the request gives no bound take the most iterations one thread made per entry in the simulation of this launch (simulation.loop_iterations; the run is made even with simulate off; a loop nobody entered gets 1): the bound of the run just watched. `given`: loop_bounds and default_loop_bound",
            &["given", "observed"],
            "given",
        ),
        ParamInfo::number("n_coal", "override N_coal (Eq. 5.5–5.6) for what-if exploration; 0 = the analyzer's value", "transactions", 0.0, 1e6, 0.0),
        ParamInfo::number("competing_sms", "override N_CompetingSM; 0 = the Alg. 6 estimate", "SMs", 0.0, 1e4, 0.0),
        ParamInfo::number("active_warps", "override N, the active warps of Eq. 5.4; 0 = from the launch", "warps", 0.0, 1e6, 0.0),
    ];
    for (name, meaning, min, default) in hardware_fields(&c) {
        v.push(ParamInfo::number(name, meaning, "", min, 1e9, default).in_group("hardware"));
    }
    for (name, meaning, default) in timing_fields(&c.timing) {
        v.push(
            ParamInfo::number(name, meaning, "", 0.0, 1e9, default as f64).in_group("latencies"),
        );
    }
    for (name, meaning, default) in [
        (
            "max_warp_steps",
            "most warp instructions the analyzer follows",
            b.max_warp_steps,
        ),
        ("max_warps", "most warps in the launch", b.max_warps),
        (
            "max_segments",
            "most code-segment instances scheduled",
            b.max_segments,
        ),
        (
            "max_cache_accesses",
            "most accesses the cache analyses process",
            b.max_cache_accesses,
        ),
        (
            "max_fork_values",
            "most register values kept at once for branches on unknown data whose two sides are followed",
            b.max_fork_values,
        ),
    ] {
        v.push(ParamInfo::number(name, meaning, "", 1.0, 1e12, default as f64).in_group("budgets"));
    }
    // The simulator's memory and budgets (grid, block and parameters are the model's own).
    v.extend(
        simulator::launch_params()
            .into_iter()
            .filter(|x| !matches!(x.name.as_str(), "grid" | "block" | "params"))
            .map(crate::shared_allowance::beside_analysis),
    );
    v.extend(limits::params());
    ModeInfo {
        name: String::new(),
        aliases: Vec::new(),
        title: "PTX analyzer and round-robin timing model (Huangfu)".into(),
        description: "Follows every warp of the launch through the PTX kernel (post-dominator \
                      reconvergence, register values, global addresses), coalesces its \
                      accesses into 128-byte segments, estimates competing SMs over the \
                      memory partitions, optionally classifies accesses with the L1/LLC \
                      cache analyses, and schedules code segments round-robin \
                      (Eq. 5.1–5.7) for the kernel WCET."
            .into(),
        dialects: vec!["ptx".into()],
        params: v,
        presets: presets(),
        default_presets: BTreeMap::new(),
    }
}

/// The crate's presets as parameter values (and whether they carry caches).
fn presets() -> Vec<PresetInfo> {
    roundrobin::presets::all()
        .into_iter()
        .map(|p| {
            let mut values: BTreeMap<String, serde_json::Value> = hardware_fields(&p.config)
                .into_iter()
                .map(|(k, _, _, v)| (k.to_string(), serde_json::json!(v)))
                .collect();
            for (k, _, v) in timing_fields(&p.config.timing) {
                values.insert(k.to_string(), serde_json::json!(v));
            }
            values.insert(
                "caches".into(),
                serde_json::json!(p.config.caches.is_some()),
            );
            PresetInfo {
                name: p.name.into(),
                source: p.source.into(),
                values,
            }
        })
        .collect()
}

/// The mode's parameters, decoded once.
struct RrParams {
    /// The launch, or what is malformed in it (reported once the kernel is read); empty
    /// `params` with `auto` true: chosen once the kernel is read.
    launch: Result<roundrobin::Launch, Vec<Diagnostic>>,
    auto: bool,
    config: roundrobin::Config,
    overrides: roundrobin::Overrides,
    simulate: SimRequest,
    /// `loop_bounds` keys written as numbers: PTX names loops by label, so these match none.
    bound_keys: Vec<u64>,
    /// `loop_bounds=observed`.
    observed: bool,
}

impl RrParams {
    fn decode(input: &ModeInput) -> Result<Self, Diagnostic> {
        let p = input.params;
        let nonzero = |k: &str| p.u32(k).map(|v| (v > 0).then_some(v));
        let text = p.text("params")?;
        let auto = kernel_args::is_auto(text);
        let values = if auto {
            Ok(Vec::new())
        } else {
            kernel_args::parse_values(text)
        };
        let launch = match (dim3(p, "grid"), dim3(p, "block"), values) {
            (Ok(grid), Ok(block), Ok(params)) => Ok(roundrobin::Launch {
                grid,
                block,
                params,
            }),
            (g, b, v) => Err(g.err().into_iter().chain(b.err()).chain(v.err()).collect()),
        };
        let mut config = config(p, input.preset)?;
        let observed = p.text("loop_bounds")? == "observed";
        let bounds = LoopBounds::decode(&input.request.loop_bounds, p.u64("default_loop_bound")?);
        config.loop_bounds = roundrobin::LoopBounds {
            per_label: bounds.per_label,
            default: bounds.default,
            from_code: Default::default(),
        };
        Ok(RrParams {
            launch,
            auto,
            bound_keys: bounds.per_address.into_keys().collect(),
            config,
            overrides: roundrobin::Overrides {
                n_coal: nonzero("n_coal")?,
                competing_sms: nonzero("competing_sms")?,
                active_warps: nonzero("active_warps")?,
            },
            simulate: SimRequest::decode_or_force(
                p,
                input.request.memory.as_ref(),
                SimRun::decode_rest,
                observed,
            )?,
            observed,
        })
    }
}

/// The model's configuration: the preset's (for its cache geometry, which is not a
/// parameter) with every parameter applied.
fn config(p: &Params, preset: Option<&str>) -> Result<roundrobin::Config, Diagnostic> {
    let base = roundrobin::presets::all()
        .into_iter()
        .find(|x| Some(x.name) == preset)
        .unwrap_or_else(roundrobin::presets::fermi_gpgpusim);
    let cache_source = base
        .config
        .caches
        .or_else(|| roundrobin::presets::gem5_gpu_table7().config.caches);
    let mut c = base.config;
    c.warp_size = p.u32("warp_size")?;
    c.sms = p.u32("sms")?;
    c.memory_partitions = p.u32("memory_partitions")?;
    c.partition_interleave_bytes = p.u64("partition_interleave_bytes")?;
    c.max_warps_per_sm = p.u32("max_warps_per_sm")?;
    c.max_blocks_per_sm = p.u32("max_blocks_per_sm")?;
    c.segment_bytes = p.u64("segment_bytes")?;
    c.t_competing_sm = p.number("t_competing_sm")?;
    c.t_d2center = p.number("t_d2center")?;
    let t = &mut c.timing;
    t.sp_pipeline_capacity = p.u32("sp_pipeline_capacity")?;
    t.sfu_pipeline_capacity = p.u32("sfu_pipeline_capacity")?;
    t.mem_pipeline_capacity = p.u32("mem_pipeline_capacity")?;
    t.l_initial = p.u64("l_initial")?;
    t.l_initiation = p.u64("l_initiation")?;
    t.l_execution = p.u64("l_execution")?;
    t.sp_pipeline_length = p.u64("sp_pipeline_length")?;
    t.sfu_pipeline_length = p.u64("sfu_pipeline_length")?;
    t.mem_pipeline_length = p.u64("mem_pipeline_length")?;
    t.l_base = p.u64("l_base")?;
    t.l_shared = p.u64("l_shared")?;
    c.mode = match p.text("timing_mode")? {
        "avg" => roundrobin::Mode::Avg,
        _ => roundrobin::Mode::Max,
    };
    c.segmentation = match p.text("segmentation")? {
        "per-instruction" => roundrobin::Segmentation::PerInstruction,
        _ => roundrobin::Segmentation::Dependency,
    };
    c.caches = if p.flag("caches")? {
        cache_source
    } else {
        None
    };
    c.budgets = roundrobin::Budgets {
        max_warp_steps: p.u64("max_warp_steps")?,
        max_warps: p.u64("max_warps")?,
        max_segments: p.u64("max_segments")?,
        max_cache_accesses: p.u64("max_cache_accesses")?,
        max_fork_values: p.u64("max_fork_values")?,
    };
    c.unknown_data = match p.text("unknown_data")? {
        "refuse" => roundrobin::UnknownData::Refuse,
        _ => roundrobin::UnknownData::Pessimistic,
    };
    Ok(c)
}

fn dim3(p: &Params, name: &str) -> Result<roundrobin::Dim3, Diagnostic> {
    let v = p.numbers(name, 1, 3)?;
    let at = |i: usize| v.get(i).copied().unwrap_or(1);
    let fits = |x: u64| u32::try_from(x).ok().filter(|&x| x >= 1);
    match (fits(at(0)), fits(at(1)), fits(at(2))) {
        (Some(x), Some(y), Some(z)) => Ok(roundrobin::Dim3::new(x, y, z)),
        _ => Err(Diagnostic::global(
            Severity::Error,
            format!("parameter `{name}`: every dimension must be between 1 and 4294967295"),
        )),
    }
}

fn run(input: &ModeInput) -> ModeOutput {
    let p = match RrParams::decode(input) {
        Ok(p) => p,
        Err(d) => return ModeOutput::failed([d]),
    };
    let mut out = ModeOutput::default();
    let started = web_time::Instant::now();
    analyse(input, &p, &mut out);
    out.time("rr", started);
    out
}

fn analyse(input: &ModeInput, p: &RrParams, out: &mut ModeOutput) {
    let request = input.request;
    let source = request.source.as_str();
    let Some(ptx) = kernel_text::ptx(
        source,
        request.function.as_deref(),
        &input.limits,
        &mut out.diagnostics,
    ) else {
        return;
    };
    let f = ptx.function();
    let mut view = ptx.view(source);
    if ptx.failed {
        out.kernel = Some(view);
        return;
    }
    if let Ok(cf) = roundrobin::control_flow::build(f) {
        for (i, ins) in view.instructions.iter_mut().enumerate() {
            ins.block = cf.block_of.get(i).copied();
        }
        out.graph = Some(views::graph::rr(f, &cf, &view));
    }
    out.kernel = Some(view);
    let mut launch = match &p.launch {
        Ok(l) => l.clone(),
        Err(d) => {
            out.diagnostics.extend(d.iter().cloned());
            return;
        }
    };
    for a in &p.bound_keys {
        out.diagnostics.push(Diagnostic::global(
            Severity::Warning,
            format!(
                "loop bound key `{a:#x}` is not a label: PTX loops are named by the label of \
                 their header (e.g. $L__BB0_3)"
            ),
        ));
    }
    let source = if p.auto && !f.params.is_empty() {
        launch.params = kernel_args::auto(f);
        ArgumentSource::Auto
    } else {
        ArgumentSource::Request
    };
    if launch.params.len() == f.params.len() {
        let args = kernel_args::report(f, &launch.params, source, false);
        if source == ArgumentSource::Auto {
            out.diagnostics.push(kernel_args::auto_note(&args, false));
        }
        out.arguments = Some(args);
    }
    // Loops the code bounds: their bounds replace the default (and larger given ones).
    let inferred_for = crate::loop_inference::Launch {
        grid: [launch.grid.x, launch.grid.y, launch.grid.z],
        block: [launch.block.x, launch.block.y, launch.block.z],
        block_min: None,
        words: Some(kernel_args::words(f, &launch.params)),
    };
    let inference = crate::loop_inference::ptx(f, Some(&inferred_for));
    let mut config = p.config.clone();
    let mut bounds = crate::params::LoopBounds {
        per_label: config.loop_bounds.per_label.clone(),
        default: config.loop_bounds.default,
        ..Default::default()
    };
    bounds.apply_inferred(&inference.loops, &mut out.diagnostics);
    config.loop_bounds.per_label = bounds.per_label.clone();
    config.loop_bounds.from_code = bounds
        .provenance
        .iter()
        .filter(|(_, v)| v.from == crate::params::loop_bounds::BoundFrom::Inferred)
        .filter_map(|(k, _)| match k {
            crate::params::loop_bounds::LoopKey::Label(l) => Some(l.clone()),
            _ => None,
        })
        .collect();
    let launch = &launch;
    // The run first: its loop counts may be the bounds.
    let mut used = 0.0;
    let sim = match p.simulate.run(&mut out.diagnostics) {
        Some(run) => {
            let k = crate::ptx_launch::PtxKernel {
                module: ptx.module(),
                function: f,
            };
            let from = out.diagnostics.len();
            let s = run_simulator(k, launch, &p.config, (run, p.auto), input.progress, out);
            used = crate::shared_allowance::used(s.as_ref(), &run.budget, &out.diagnostics[from..]);
            s
        }
        None => None,
    };
    let (steps, note) = crate::shared_allowance::analysis_budget(
        config.budgets.max_warp_steps,
        used,
        "max_warp_steps",
    );
    config.budgets.max_warp_steps = steps;
    out.diagnostics.extend(note);
    let loops = sim
        .as_ref()
        .map(|s| observed_loops::of_ptx_run(f, s))
        .unwrap_or_default();
    out.diagnostics
        .extend(sim.as_ref().and_then(observed_loops::truncation_warning));
    if sim
        .as_ref()
        .is_some_and(|s| crate::loop_inference::same_launch(s, Some(&inferred_for), 32))
    {
        out.diagnostics
            .extend(crate::loop_inference::check_observed(&inference, &loops));
    }
    let mut raised = Vec::new();
    if p.observed {
        if sim.is_none() {
            out.diagnostics.push(Diagnostic::global(
                Severity::Error,
                "loop_bounds=observed takes the loop counts of a simulation, and the simulation \
                 did not run (see its errors)",
            ));
            return;
        }
        let mut taken = Vec::new();
        for l in &loops {
            if input.request.loop_bounds.contains_key(&l.header)
                || config.loop_bounds.from_code.contains(&l.header)
            {
                continue;
            }
            let n = l.iterations.max(1);
            config.loop_bounds.per_label.insert(l.header.clone(), n);
            bounds.observed(
                crate::params::loop_bounds::LoopKey::Label(l.header.clone()),
                n,
            );
            taken.push(format!("{} = {n}", l.header));
        }
        out.diagnostics.push(Diagnostic::global(
            Severity::Note,
            format!(
                "loop_bounds=observed: loop bounds from the iterations the simulation observed \
                 (most per entry by one thread; the bound holds for this run, not for every \
                 input): {}",
                if taken.is_empty() {
                    "none (no loops)".to_string()
                } else {
                    taken.join(", ")
                }
            ),
        ));
    } else {
        // The analyzer runs a loop to its end where the data is known and needs a bound only
        // where it is not: the warning is given only for loops it bounded.
        for l in &loops {
            let key = crate::params::loop_bounds::LoopKey::Label(l.header.clone());
            let span = isa::Span::new(l.line, 1, 0);
            if let Some(d) = bounds.raise_default(key, l.iterations, span) {
                config
                    .loop_bounds
                    .per_label
                    .insert(l.header.clone(), l.iterations);
                raised.push((l.header.clone(), d));
            }
        }
    }
    let mut result =
        match roundrobin::analyze_observed(f, launch, &config, &p.overrides, input.progress) {
            Ok(r) => r,
            Err(d) => {
                out.diagnostics.push(d);
                return;
            }
        };
    out.diagnostics.extend(result.notes.iter().cloned());
    out.diagnostics.extend(
        raised
            .into_iter()
            .filter(|(label, _)| result.loop_bounds.iter().any(|u| u.label == *label))
            .map(|(_, d)| d),
    );
    out.diagnostics
        .extend(crate::views::rr_caps::cap(&mut result));
    if result.traces.len() > MAX_TRACES {
        out.diagnostics.push(Diagnostic::global(
            Severity::Note,
            format!(
                "the report keeps the execution traces of the first {MAX_TRACES} of {} warps",
                result.traces.len()
            ),
        ));
        result.traces.truncate(MAX_TRACES);
    }
    if let Some(c) = &result.wcet.caveat {
        out.diagnostics.push(Diagnostic::global(
            Severity::Warning,
            format!("round-robin WCET: {c}"),
        ));
    }
    out.wcet = Some(Wcet {
        cycles: result.wcet.cycles,
        cost_model: if result.wcet.safe && result.wcet.caveat.is_some() {
            "round-robin model, max mode, unknown data paid for in the worst case per warp \
             (see the warning: not guaranteed across several warps)"
                .into()
        } else if result.wcet.safe {
            "round-robin model, max mode: safe under the model's assumptions".into()
        } else {
            format!(
                "round-robin model — {}: an estimate, not a safe bound",
                result.mode_label
            )
        },
        assumed_loop_bounds: Vec::new(),
    });
    out.loop_bounds = result
        .loop_bounds
        .iter()
        .map(|u| {
            let keys = [crate::params::loop_bounds::LoopKey::Label(u.label.clone())];
            let (from, prov) = bounds.source(&keys);
            let from = if u.source == "default_loop_bound" {
                crate::params::loop_bounds::BoundFrom::Default
            } else {
                from
            };
            crate::report::LoopBoundRow {
                header: u.label.clone(),
                line: u.line,
                bound: Some(u.bound),
                bound_from: from.name().into(),
                reason: prov.and_then(|p| p.reason.clone()),
                inferred: prov.and_then(|p| p.inferred),
                formula: prov.and_then(|p| p.formula.clone()),
            }
        })
        .collect();
    out.schedule = Some(views::schedule::round_robin(&result));
    if let Some(s) = sim {
        compare(s, launch, &config, &result, out);
        if let Some(r) = &mut out.simulation {
            r.loop_iterations = loops;
        }
    }
    out.details = ModeDetails::Rr(Box::new(result));
}

/// The simulator's machine in the round-robin model's setting: pure round-robin issue of
/// one instruction per cycle, 32-wide units, each class's latency the model's execution
/// latency LE (Eq. 5.6: Length_pipeline + L_initiation + L_execution for arithmetic,
/// L_base + Length_pipeline for a global access, plus Length_pipeline per extra
/// transaction; shared memory L_shared + Length_pipeline), no L1.
fn model_machine(c: &roundrobin::Config) -> Option<sim::Machine> {
    use cfg::TimingClass as T;
    let t = &c.timing;
    let mut m = simulator::preset_machine(Some("gpgpusim-like"))?;
    m.scheduler = sim::Scheduler::PureRoundRobin;
    m.issue_width = 1;
    m.l1 = None;
    m.warp_size = c.warp_size;
    m.cores = c.warp_size;
    m.ls_units = c.warp_size;
    m.sfu_units = c.warp_size;
    m.transaction_cycles = u32::try_from(t.mem_pipeline_length).unwrap_or(u32::MAX);
    let arith = t.sp_pipeline_length + t.l_initiation + t.l_execution;
    for class in T::ALL {
        let l = match class {
            T::Global | T::Local | T::Texture => t.l_base + t.mem_pipeline_length,
            T::Shared => t.l_shared + t.mem_pipeline_length,
            T::Sfu => t.sfu_pipeline_length + t.l_initiation + t.l_execution,
            _ => arith,
        };
        m.latency
            .latency
            .insert(class, u32::try_from(l.max(1)).unwrap_or(u32::MAX));
        m.latency.interval.insert(class, 1);
    }
    Some(m)
}

/// `simulate=true` (or `loop_bounds=observed`): runs the kernel on the simulator in the
/// model's setting ([`model_machine`]) for the same launch; automatic pointers with no
/// `memory` given get automatic buffers ([`crate::auto_memory`]), and with `auto`
/// (`params` chosen automatically) the launch is completed as `crate::ptx_launch` says.
fn run_simulator(
    k: crate::ptx_launch::PtxKernel,
    launch: &roundrobin::Launch,
    config: &roundrobin::Config,
    (run, auto): (&SimRun, bool),
    progress: isa::Observer,
    out: &mut ModeOutput,
) -> Option<sim::Simulation> {
    let d = |x: &roundrobin::Dim3| [x.x, x.y, x.z];
    let f = k.function;
    let mut sim_launch = sim::Launch {
        grid: d(&launch.grid),
        block: d(&launch.block),
        params: kernel_args::words(f, &launch.params),
        ..run.launch.clone()
    };
    let notes = crate::ptx_launch::prepare(
        k,
        &mut sim_launch,
        out.arguments.as_mut(),
        &run.memory,
        auto,
    );
    let machine = model_machine(config)?;
    let from = out.diagnostics.len();
    out.diagnostics.extend(notes);
    let result = auto_memory::run_on(&run.memory, out.arguments.as_mut(), |m| {
        crate::ptx_launch::run(k, &sim_launch, &machine, m, &run.budget, progress)
    });
    simulator::simulation_stage(&mut out.diagnostics, from);
    result
        .map_err(|d| {
            let from = out.diagnostics.len();
            out.diagnostics.extend(d);
            simulator::simulation_stage(&mut out.diagnostics, from);
        })
        .ok()
}

/// The run next to the model's WCET, compared only where the two agree on what they
/// describe: max mode, per-instruction segments (with dependency segments the model lets a
/// warp issue a whole segment back to back, which pure round-robin does not), and one block
/// (the model spreads blocks over all SMs, the simulator has one).
fn compare(
    s: sim::Simulation,
    launch: &roundrobin::Launch,
    config: &roundrobin::Config,
    r: &roundrobin::RrResult,
    out: &mut ModeOutput,
) {
    let why_not = if !r.wcet.safe {
        Some("the model runs in avg mode: an estimate, not a bound")
    } else if config.segmentation != roundrobin::Segmentation::PerInstruction {
        Some("with segmentation=dependency the model issues a segment back to back; set segmentation=per-instruction to compare")
    } else if launch.grid.x * launch.grid.y * launch.grid.z != 1 {
        Some(
            "the model spreads blocks over all SMs, the simulator runs one; compare with one block",
        )
    } else {
        None
    };
    out.simulation = Some(match why_not {
        None => SimulationReport::against(
            s,
            Some(r.wcet.cycles),
            "the round-robin model's WCET (max mode, per-instruction segments)",
        ),
        Some(why) => SimulationReport::against(s, None, why),
    });
}
