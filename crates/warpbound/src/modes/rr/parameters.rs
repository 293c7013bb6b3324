//! The `rr` mode's parameters: the catalogue entry (the model's hardware and timing fields,
//! its budgets, the simulator's memory and budgets), the crate's presets, and their decoding
//! into the model's configuration ([`RrParams`]; moved out of `rr.rs`, which keeps the run).

use crate::catalog::{ModeInfo, ParamInfo, PresetInfo};
use crate::mode::ModeInput;
use crate::params::kernel_args;
use crate::params::{limits, LoopBounds, Params};
use crate::simulator::{self, SimRequest, SimRun};
use isa::{Diagnostic, Severity};
use std::collections::BTreeMap;

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

pub(super) fn describe() -> ModeInfo {
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
pub(super) struct RrParams {
    /// The launch, or what is malformed in it (reported once the kernel is read); empty
    /// `params` with `auto` true: chosen once the kernel is read.
    pub(super) launch: Result<roundrobin::Launch, Vec<Diagnostic>>,
    pub(super) auto: bool,
    pub(super) config: roundrobin::Config,
    pub(super) overrides: roundrobin::Overrides,
    pub(super) simulate: SimRequest,
    /// `loop_bounds` keys written as numbers: PTX names loops by label, so these match none.
    pub(super) bound_keys: Vec<u64>,
    /// `loop_bounds=observed`.
    pub(super) observed: bool,
}

impl RrParams {
    pub(super) fn decode(input: &ModeInput) -> Result<Self, Diagnostic> {
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
