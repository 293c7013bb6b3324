//! The `rr` mode: Huangfu's PTX kernel analyzer, pure round-robin timing model, coalescing,
//! competing-SM estimate and cache analyses (crates `roundrobin` and `caches`), for the grid,
//! block and parameter values of the request.
//!
//! `wcet.cycles` is the model's WCET; in `avg` mode (or with overridden estimates) it is an
//! estimate, not a safe bound, and the cost model says so. The `rr` object is the crate's
//! result, with per-warp traces cut to the first [`MAX_TRACES`] warps; the T_ij schedule is
//! the Gantt chart (one lane per warp, one box per code-segment instance).

use crate::catalog::{ParamInfo, PresetInfo};
use crate::params::Params;
use crate::report::{
    CfgEdge, CfgNode, InstructionView, KernelView, Report, ScheduleItem, ScheduleView, Wcet,
};
use crate::views::draw;
use isa::ptx::Function;
use isa::{Diagnostic, Limits, ResourceClass, Severity};
use std::collections::BTreeMap;

/// Warps whose execution traces the report keeps (the analysis follows all of them).
pub const MAX_TRACES: usize = 64;
/// Warps drawn as Gantt lanes.
const MAX_LANES: usize = 64;

fn timing_fields(t: &roundrobin::TimingParams) -> Vec<(&'static str, &'static str, u64)> {
    vec![
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

fn hardware_fields(c: &roundrobin::Config) -> Vec<(&'static str, &'static str, f64, f64)> {
    vec![
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

/// Parameters of the mode; defaults from the `fermi-gpgpusim` preset.
pub fn params() -> Vec<ParamInfo> {
    let c = roundrobin::presets::fermi_gpgpusim().config;
    let b = roundrobin::Budgets::default();
    let mut v = vec![
        ParamInfo::text("grid", "grid dimensions X,Y,Z (blocks)", "1,1,1"),
        ParamInfo::text("block", "block dimensions X,Y,Z (threads)", "32,1,1"),
        ParamInfo::text(
            "params",
            "kernel parameter values in declaration order, comma-separated (integers or decimals; pointers are byte addresses)",
            "",
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
    ] {
        v.push(ParamInfo::number(name, meaning, "", 1.0, 1e12, default as f64).in_group("budgets"));
    }
    // The simulator's memory and budgets (grid, block and parameters are the model's own).
    v.extend(
        crate::sim_mode::launch_params()
            .into_iter()
            .filter(|x| !matches!(x.name.as_str(), "grid" | "block" | "params")),
    );
    v
}

/// The crate's presets as parameter values (and whether they carry caches).
pub fn presets() -> Vec<PresetInfo> {
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

fn config(p: &Params, preset: Option<&str>) -> roundrobin::Config {
    let base = roundrobin::presets::all()
        .into_iter()
        .find(|x| Some(x.name) == preset)
        .unwrap_or_else(roundrobin::presets::fermi_gpgpusim);
    let cache_source = base
        .config
        .caches
        .or_else(|| roundrobin::presets::gem5_gpu_table7().config.caches);
    let mut c = base.config;
    let u32_of = |k: &str| u32::try_from(p.get_usize(k)).unwrap_or(u32::MAX);
    let u64_of = |k: &str| p.get_usize(k) as u64;
    c.warp_size = u32_of("warp_size");
    c.sms = u32_of("sms");
    c.memory_partitions = u32_of("memory_partitions");
    c.partition_interleave_bytes = u64_of("partition_interleave_bytes");
    c.max_warps_per_sm = u32_of("max_warps_per_sm");
    c.max_blocks_per_sm = u32_of("max_blocks_per_sm");
    c.segment_bytes = u64_of("segment_bytes");
    c.t_competing_sm = p.get("t_competing_sm");
    c.t_d2center = p.get("t_d2center");
    let t = &mut c.timing;
    t.sp_pipeline_capacity = u32_of("sp_pipeline_capacity");
    t.sfu_pipeline_capacity = u32_of("sfu_pipeline_capacity");
    t.mem_pipeline_capacity = u32_of("mem_pipeline_capacity");
    t.l_initial = u64_of("l_initial");
    t.l_initiation = u64_of("l_initiation");
    t.l_execution = u64_of("l_execution");
    t.sp_pipeline_length = u64_of("sp_pipeline_length");
    t.sfu_pipeline_length = u64_of("sfu_pipeline_length");
    t.mem_pipeline_length = u64_of("mem_pipeline_length");
    t.l_base = u64_of("l_base");
    t.l_shared = u64_of("l_shared");
    c.mode = if p.choice("timing_mode") == "avg" {
        roundrobin::Mode::Avg
    } else {
        roundrobin::Mode::Max
    };
    c.segmentation = if p.choice("segmentation") == "per-instruction" {
        roundrobin::Segmentation::PerInstruction
    } else {
        roundrobin::Segmentation::Dependency
    };
    c.caches = if p.flag("caches") { cache_source } else { None };
    c.budgets = roundrobin::Budgets {
        max_warp_steps: u64_of("max_warp_steps"),
        max_warps: u64_of("max_warps"),
        max_segments: u64_of("max_segments"),
        max_cache_accesses: u64_of("max_cache_accesses"),
    };
    c
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

/// Kernel parameter values: integers (decimal or 0x-hex, negative allowed) or decimals.
fn param_values(text: &str) -> Result<Vec<roundrobin::ParamValue>, Diagnostic> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            let int = t
                .strip_prefix("0x")
                .map(|h| i64::from_str_radix(h, 16).ok())
                .unwrap_or_else(|| t.parse::<i64>().ok());
            match (int, t.parse::<f64>()) {
                (Some(i), _) => Ok(roundrobin::ParamValue::Int(i)),
                (None, Ok(f)) if f.is_finite() => Ok(roundrobin::ParamValue::Float(f)),
                _ => Err(Diagnostic::global(
                    Severity::Error,
                    format!("parameter `params`: `{t}` is not a number"),
                )),
            }
        })
        .collect()
}

/// The text a span covers (spans count characters from column 1).
pub(crate) fn text_at(lines: &[&str], span: isa::Span) -> String {
    lines
        .get(span.line.saturating_sub(1) as usize)
        .map(|l| {
            l.chars()
                .skip(span.column.saturating_sub(1) as usize)
                .take(span.len.max(1) as usize)
                .collect::<String>()
        })
        .unwrap_or_default()
        .trim()
        .trim_end_matches(';')
        .to_string()
}

pub(crate) fn kernel_view(f: &Function, functions: Vec<String>, source: &str) -> KernelView {
    let lines: Vec<&str> = source.lines().collect();
    let instructions = f
        .instructions
        .iter()
        .enumerate()
        .map(|(index, ins)| InstructionView {
            index,
            address: Function::pc(index),
            line: ins.span.line,
            column: ins.span.column,
            text: text_at(&lines, ins.span),
            guard: ins.guard.as_ref().map(|g| text_at(&lines, g.span)),
            opcode: ins.mnemonic(),
            operands: ins
                .operands
                .iter()
                .map(|o| text_at(&lines, o.span))
                .collect(),
            reads: Vec::new(),
            writes: Vec::new(),
            control: if ins.opcode == "bra" {
                "branch".into()
            } else {
                "fallthrough".into()
            },
            target: None,
            class: if ins.has_modifier("global") {
                ResourceClass::LoadStoreGlobal
            } else if ins.has_modifier("shared") {
                ResourceClass::LoadStoreShared
            } else {
                ResourceClass::Alu
            },
            block: None,
        })
        .collect();
    KernelView {
        function: f.name.clone(),
        functions,
        arch: None,
        instructions,
    }
}

/// The kernel a request names (`function`), else the module's first kernel with a body,
/// together with the names of every kernel with a body (the page's function selector). When
/// there is none, says so as an error — unless the text already failed to parse (`failed`),
/// whose diagnostics explain it — and gives `None`. Shared by every mode that reads PTX.
pub(crate) fn pick_kernel<'a>(
    parsed: &'a isa::ptx::Parsed,
    function: Option<&str>,
    failed: bool,
    report: &mut Report,
) -> Option<(&'a isa::ptx::Function, Vec<String>)> {
    let names: Vec<String> = parsed
        .module
        .functions
        .iter()
        .filter(|f| f.has_body)
        .map(|f| f.name.clone())
        .collect();
    match parsed.module.function(function) {
        Some(f) => Some((f, names)),
        None => {
            if !failed {
                report.diagnostics.push(Diagnostic::global(
                    Severity::Error,
                    match function {
                        Some(n) => {
                            format!("no kernel `{n}` with a body (found: {})", names.join(", "))
                        }
                        None => "no kernel with a body in the text".to_string(),
                    },
                ));
            }
            None
        }
    }
}

/// Runs the mode.
pub fn run(
    source: &str,
    function: Option<&str>,
    limits: &Limits,
    p: &Params,
    preset: Option<&str>,
    memory: Option<&sim::MemoryInit>,
    report: &mut Report,
) {
    let parsed = isa::ptx::parse(source, limits);
    let failed = parsed.has_errors();
    report
        .diagnostics
        .extend(parsed.diagnostics.iter().cloned());
    let Some((f, names)) = pick_kernel(&parsed, function, failed, report) else {
        return;
    };
    let mut view = kernel_view(f, names, source);
    if failed {
        report.kernel = Some(view);
        return;
    }
    if let Ok(cf) = roundrobin::control_flow::build(f) {
        for (i, ins) in view.instructions.iter_mut().enumerate() {
            ins.block = cf.block_of.get(i).copied();
        }
        report.cfg = Some(cfg_view(f, &cf));
    }
    let launch = match (
        dim3(p, "grid"),
        dim3(p, "block"),
        param_values(p.text("params")),
    ) {
        (Ok(grid), Ok(block), Ok(params)) => roundrobin::Launch {
            grid,
            block,
            params,
        },
        (g, b, v) => {
            report
                .diagnostics
                .extend(g.err().into_iter().chain(b.err()).chain(v.err()));
            report.kernel = Some(view);
            return;
        }
    };
    let nonzero = |k: &str| u32::try_from(p.get_usize(k)).ok().filter(|&v| v > 0);
    let overrides = roundrobin::Overrides {
        n_coal: nonzero("n_coal"),
        competing_sms: nonzero("competing_sms"),
        active_warps: nonzero("active_warps"),
    };
    let config = config(p, preset);
    let mut result = match roundrobin::analyze(f, &launch, &config, &overrides) {
        Ok(r) => r,
        Err(d) => {
            report.diagnostics.push(d);
            report.kernel = Some(view);
            return;
        }
    };
    report.diagnostics.extend(result.notes.iter().cloned());
    if result.traces.len() > MAX_TRACES {
        report.diagnostics.push(Diagnostic::global(
            Severity::Note,
            format!(
                "the report keeps the execution traces of the first {MAX_TRACES} of {} warps",
                result.traces.len()
            ),
        ));
        result.traces.truncate(MAX_TRACES);
    }
    report.wcet = Some(Wcet {
        cycles: result.wcet.cycles,
        cost_model: if result.wcet.safe {
            "round-robin model, max mode: safe under the model's assumptions".into()
        } else {
            format!(
                "round-robin model — {}: an estimate, not a safe bound",
                result.mode_label
            )
        },
    });
    report.schedule = Some(schedule_view(&result));
    report.kernel = Some(view);
    if p.flag("simulate") {
        simulate(f, &launch, &config, p, &result, memory, report);
    }
    report.rr = Some(result);
}

/// The simulator's machine in the round-robin model's setting: pure round-robin issue of
/// one instruction per cycle, 32-wide units, each class's latency the model's execution
/// latency LE (Eq. 5.6: Length_pipeline + L_initiation + L_execution for arithmetic,
/// L_base + Length_pipeline for a global access, plus Length_pipeline per extra
/// transaction; shared memory L_shared + Length_pipeline), no L1.
fn model_machine(c: &roundrobin::Config) -> sim::Machine {
    use cfg::TimingClass as T;
    let t = &c.timing;
    let mut m = crate::sim_mode::preset_machine("gpgpusim-like");
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
    m
}

/// Kernel parameter values laid out as the PTX ABI places them (declaration order, each at
/// its alignment, little-endian), as 32-bit words for the simulator.
fn param_words(f: &Function, values: &[roundrobin::ParamValue]) -> Vec<u32> {
    let mut bytes: Vec<u8> = Vec::new();
    for (decl, v) in f.params.iter().zip(values) {
        let size = decl.size_bytes().unwrap_or(8).min(64) as usize;
        let align = decl.align.map_or(size.max(1), |a| a.clamp(1, 64) as usize);
        bytes.resize(bytes.len().div_ceil(align) * align, 0);
        let raw: Vec<u8> = match v {
            roundrobin::ParamValue::Int(i) => i.to_le_bytes().to_vec(),
            roundrobin::ParamValue::Float(x) if size == 4 => (*x as f32).to_le_bytes().to_vec(),
            roundrobin::ParamValue::Float(x) => x.to_le_bytes().to_vec(),
            roundrobin::ParamValue::Bytes(b) => b.clone(),
        };
        bytes.extend((0..size).map(|k| raw.get(k).copied().unwrap_or(0)));
    }
    bytes
        .chunks(4)
        .map(|c| c.iter().rev().fold(0u32, |w, &b| (w << 8) | u32::from(b)))
        .collect()
}

/// `simulate=true`: runs the kernel on the simulator in the model's setting
/// ([`model_machine`]) for the same launch. The model's WCET is checked against it only where
/// the two agree on what they describe: max mode, per-instruction segments (with dependency
/// segments the model lets a warp issue a whole segment back to back, which pure
/// round-robin does not), and one block (the model spreads blocks over all SMs, the
/// simulator has one).
fn simulate(
    f: &Function,
    launch: &roundrobin::Launch,
    config: &roundrobin::Config,
    p: &Params,
    r: &roundrobin::RrResult,
    memory: Option<&sim::MemoryInit>,
    report: &mut Report,
) {
    let d = |x: &roundrobin::Dim3| [x.x, x.y, x.z];
    let sim_launch = sim::Launch {
        grid: d(&launch.grid),
        block: d(&launch.block),
        params: param_words(f, &launch.params),
        ..sim::Launch::default()
    };
    let machine = model_machine(config);
    let Some(s) = crate::sim_mode::run_launch(&sim_launch, p, memory, report, |l, m, b| {
        sim::run_ptx(f, l, &machine, m, b)
    }) else {
        return;
    };
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
    match why_not {
        None => crate::sim_mode::attach(
            report,
            &s,
            Some(r.wcet.cycles),
            "the round-robin model's WCET (max mode, per-instruction segments)",
        ),
        Some(why) => crate::sim_mode::attach(report, &s, None, why),
    }
}

fn cfg_view(f: &Function, cf: &roundrobin::control_flow::ControlFlow) -> crate::report::CfgView {
    let nodes = cf
        .blocks
        .iter()
        .map(|b| {
            let last = b.end.saturating_sub(1).max(b.start);
            let line = |i: usize| f.instructions.get(i).map_or(0, |x| x.span.line);
            let tail = f
                .instructions
                .get(last)
                .map_or(String::new(), |x| x.mnemonic());
            CfgNode {
                id: b.id,
                kind: "block".into(),
                block: Some(b.id),
                context: String::new(),
                cost: None,
                count: None,
                start: Function::pc(b.start),
                end: Function::pc(last),
                instructions: b.end.saturating_sub(b.start),
                first: b.start,
                last,
                line_start: line(b.start),
                line_end: line(last),
                reachable: true,
                label: vec![
                    format!(
                        "B{}  pc {}–{}",
                        b.id,
                        Function::pc(b.start),
                        Function::pc(last)
                    ),
                    format!("{} instr · {tail}", b.end.saturating_sub(b.start)),
                ],
                role: String::new(),
            }
        })
        .collect();
    let mut edges = Vec::new();
    for b in &cf.blocks {
        if let Some(t) = b.taken {
            edges.push(CfgEdge {
                from: b.id,
                to: t,
                kind: "taken".into(),
                count: None,
            });
        }
        if let Some(t) = b.fallthrough {
            edges.push(CfgEdge {
                from: b.id,
                to: t,
                kind: "fallthrough".into(),
                count: None,
            });
        }
    }
    draw("thread", nodes, edges)
}

fn schedule_view(r: &roundrobin::RrResult) -> ScheduleView {
    let rows: Vec<_> = r.gantt.iter().take(MAX_LANES).collect();
    let lanes = rows
        .iter()
        .map(|g| format!("b{} w{}", g.block, g.warp))
        .collect();
    let items = rows
        .iter()
        .enumerate()
        .flat_map(|(lane, g)| {
            g.intervals.iter().map(move |iv| ScheduleItem {
                lane,
                start: iv.start,
                length: iv.end.saturating_sub(iv.start),
                group: u32::try_from(iv.segment).unwrap_or(u32::MAX),
                label: format!(
                    "segment {}: T = {}, issued until {}, done at {}",
                    iv.segment, iv.start, iv.issue_end, iv.end
                ),
            })
        })
        .collect();
    ScheduleView {
        cycles: r.gantt.iter().map(|g| g.end).max().unwrap_or(0),
        lanes,
        items,
        group_name: "segment".into(),
        group_labels: r
            .segments
            .iter()
            .map(|s| format!("segment {}: {}", s.id, s.opcode))
            .collect(),
    }
}
