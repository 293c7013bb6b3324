//! The `simulate` mode, and `simulate=true` on the bounding modes: a run of the SIMT
//! simulator (crate `sim`) on the request's launch and memory — observed cycles, per-warp
//! timelines as the schedule, the stepper's steps, and the final memory.
//!
//! Memory comes from the request's `memory` field (the `sim::MemoryInit` JSON), or from the
//! `memory` text parameter: arrays separated by `;`, each `NAME@ADDRESS WORDS FILL ARGS…` with
//! FILL one of `const V`, `iota START STEP`, `random SEED BELOW`, `words V V …`,
//! `floats X X …` — e.g. `x@0x1000 256 iota 0 1; y@0x2000 256 const 0`.

use crate::catalog::{ParamInfo, PresetInfo};
use crate::params::Params;
use crate::report::{Report, ScheduleItem, ScheduleView};
use cfg::TimingClass;
use isa::{Diagnostic, Kernel, Severity};
use std::collections::BTreeMap;

/// Launch, memory and budget parameters of a simulator run (group `simulation`): what a
/// bounding mode adds for `simulate=true`.
pub fn launch_params() -> Vec<ParamInfo> {
    params()
        .into_iter()
        .filter(|p| p.group.is_empty() || p.group == "budgets")
        .map(|p| {
            let g = if p.group.is_empty() {
                "simulation"
            } else {
                "budgets"
            };
            p.in_group(g)
        })
        .collect()
}

/// The machine parameters a request can set, with the first preset's values as defaults.
pub fn params() -> Vec<ParamInfo> {
    let m = sim::presets()
        .into_iter()
        .next()
        .map(|p| p.machine)
        .unwrap_or_else(|| sim::presets()[0].machine.clone());
    let b = sim::Budget::default();
    let mut v = vec![
        ParamInfo::text("grid", "grid dimensions X,Y,Z (blocks)", "1,1,1"),
        ParamInfo::text("block", "block dimensions X,Y,Z (threads)", "32,1,1"),
        ParamInfo::text(
            "params",
            "kernel parameters as 32-bit words, comma-separated (kernel parameter k is the word at c[0x0][0x140 + 4k]; decimals are stored as floats)",
            "",
        ),
        ParamInfo::text(
            "memory",
            "global memory: `NAME@ADDR WORDS FILL ARGS` separated by `;` — FILL is const V, iota START STEP, random SEED BELOW, words V…, floats X… (e.g. x@0x1000 64 iota 0 1)",
            "",
        ),
        ParamInfo::number("shared_bytes", "shared memory per block", "bytes", 0.0, 1e8, 0.0),
        ParamInfo::number("warp", "global warp id the stepper records", "warp", 0.0, 1e9, 0.0),
        ParamInfo::flag(
            "trace",
            "record every issue, unit occupancy, memory transaction and the stepper's steps; off: only cycles, counts and the final memory (long runs are about twice as fast)",
            true,
        ),
    ];
    v.extend(machine_params(&m));
    for (name, meaning, default) in [
        ("max_cycles", "most simulated cycles", b.max_cycles),
        ("max_steps", "most issued warp-instructions", b.max_steps),
        (
            "max_timeline_entries",
            "most timeline entries recorded",
            b.max_timeline_entries as u64,
        ),
        (
            "max_stepper_steps",
            "most stepper steps recorded",
            b.max_stepper_steps as u64,
        ),
        ("max_blocks", "most thread blocks", b.max_blocks),
        (
            "max_memory_words",
            "most words of global memory",
            b.max_memory_words,
        ),
        (
            "max_sim_stack_depth",
            "deepest activation stack",
            b.max_stack_depth as u64,
        ),
    ] {
        v.push(ParamInfo::number(name, meaning, "", 1.0, 1e12, default as f64).in_group("budgets"));
    }
    v
}

/// The machine fields as parameters (group `machine`, latencies in `latencies`).
fn machine_params(m: &sim::Machine) -> Vec<ParamInfo> {
    let num = |name: &str, meaning: &str, max: f64, v: u32| {
        ParamInfo::number(name, meaning, "", 1.0, max, f64::from(v)).in_group("machine")
    };
    let mut v = vec![
        ParamInfo::choice(
            "scheduler",
            "warp scheduler",
            &[
                "loose_round_robin",
                "greedy_then_oldest",
                "pure_round_robin",
                "greedy_then_round_robin",
            ],
            scheduler_name(m.scheduler),
        )
        .in_group("machine"),
        num("warp_size", "threads per warp", 64.0, m.warp_size),
        num(
            "warps_per_sm",
            "resident warps per SM",
            4096.0,
            m.warps_per_sm,
        ),
        num(
            "issue_width",
            "instructions issued per cycle",
            4096.0,
            m.issue_width,
        ),
        num("cores", "CUDA cores per SM", 1e4, m.cores),
        num("ls_units", "load/store units per SM", 1e4, m.ls_units),
        num(
            "sfu_units",
            "special-function units per SM",
            1e4,
            m.sfu_units,
        ),
        num(
            "transaction_cycles",
            "cycles each extra 128-byte transaction of a warp-instruction adds",
            1e6,
            m.transaction_cycles.max(1),
        ),
    ];
    for c in TimingClass::ALL {
        v.push(
            ParamInfo::number(
                &format!("latency_{}", c.name()),
                &format!("issue to write-back of a {} instruction", c.name()),
                "cycles",
                1.0,
                1e6,
                m.latency.latency_of(c) as f64,
            )
            .in_group("latencies"),
        );
        v.push(
            ParamInfo::number(
                &format!("interval_{}", c.name()),
                &format!("initiation interval of the {} class", c.name()),
                "cycles",
                1.0,
                1e6,
                m.latency.interval_of(c) as f64,
            )
            .in_group("latencies"),
        );
    }
    v
}

fn scheduler_name(s: sim::Scheduler) -> &'static str {
    match s {
        sim::Scheduler::LooseRoundRobin => "loose_round_robin",
        sim::Scheduler::GreedyThenOldest => "greedy_then_oldest",
        sim::Scheduler::PureRoundRobin => "pure_round_robin",
        sim::Scheduler::GreedyThenRoundRobin => "greedy_then_round_robin",
    }
}

fn machine_values(m: &sim::Machine) -> BTreeMap<String, serde_json::Value> {
    let mut v = BTreeMap::from([
        (
            "scheduler".to_string(),
            serde_json::json!(scheduler_name(m.scheduler)),
        ),
        ("warp_size".to_string(), serde_json::json!(m.warp_size)),
        (
            "warps_per_sm".to_string(),
            serde_json::json!(m.warps_per_sm),
        ),
        ("issue_width".to_string(), serde_json::json!(m.issue_width)),
        ("cores".to_string(), serde_json::json!(m.cores)),
        ("ls_units".to_string(), serde_json::json!(m.ls_units)),
        ("sfu_units".to_string(), serde_json::json!(m.sfu_units)),
        (
            "transaction_cycles".to_string(),
            serde_json::json!(m.transaction_cycles.max(1)),
        ),
    ]);
    for c in TimingClass::ALL {
        v.insert(
            format!("latency_{}", c.name()),
            serde_json::json!(m.latency.latency_of(c)),
        );
        v.insert(
            format!("interval_{}", c.name()),
            serde_json::json!(m.latency.interval_of(c)),
        );
    }
    v
}

/// The simulator's presets as parameter values.
pub fn presets() -> Vec<PresetInfo> {
    sim::presets()
        .into_iter()
        .map(|p| PresetInfo {
            name: p.name.into(),
            source: p.source.into(),
            values: machine_values(&p.machine),
        })
        .collect()
}

/// A named preset's machine as it is (the first preset for an unknown name).
pub fn preset_machine(name: &str) -> sim::Machine {
    let all = sim::presets();
    all.iter()
        .find(|x| x.name == name)
        .or_else(|| all.first())
        .map(|x| x.machine.clone())
        .unwrap_or_else(|| sim::presets()[0].machine.clone())
}

/// The machine of a request: the named preset (or the first) with every parameter applied.
pub fn machine(p: &Params, preset: Option<&str>) -> sim::Machine {
    let all = sim::presets();
    let mut m = all
        .iter()
        .find(|x| Some(x.name) == preset)
        .or_else(|| all.first())
        .map(|x| x.machine.clone())
        .unwrap_or_else(|| sim::presets()[0].machine.clone());
    let u = |k: &str| u32::try_from(p.get_usize(k)).unwrap_or(u32::MAX);
    m.scheduler = match p.choice("scheduler") {
        "greedy_then_oldest" => sim::Scheduler::GreedyThenOldest,
        "pure_round_robin" => sim::Scheduler::PureRoundRobin,
        "greedy_then_round_robin" => sim::Scheduler::GreedyThenRoundRobin,
        _ => sim::Scheduler::LooseRoundRobin,
    };
    m.warp_size = u("warp_size");
    m.warps_per_sm = u("warps_per_sm");
    m.issue_width = u("issue_width");
    m.cores = u("cores");
    m.ls_units = u("ls_units");
    m.sfu_units = u("sfu_units");
    m.transaction_cycles = u("transaction_cycles");
    for c in TimingClass::ALL {
        m.latency
            .latency
            .insert(c, u(&format!("latency_{}", c.name())).max(1));
        m.latency
            .interval
            .insert(c, u(&format!("interval_{}", c.name())).max(1));
    }
    m
}

fn parse_int(t: &str) -> Option<i64> {
    let (neg, t) = t.strip_prefix('-').map_or((false, t), |r| (true, r));
    let v = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => i64::from_str_radix(h, 16).ok()?,
        None => t.parse::<i64>().ok()?,
    };
    Some(if neg { -v } else { v })
}

/// A 32-bit word from `t`: an integer (two's complement when negative) or a decimal (its
/// single-precision bits).
fn word(t: &str) -> Option<u32> {
    match parse_int(t) {
        Some(v) if (-(1i64 << 31)..(1i64 << 32)).contains(&v) => Some(v as u32),
        Some(_) => None,
        None => t
            .parse::<f32>()
            .ok()
            .filter(|f| f.is_finite())
            .map(f32::to_bits),
    }
}

fn param_words(text: &str) -> Result<Vec<u32>, Diagnostic> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            word(t).ok_or_else(|| {
                Diagnostic::global(
                    Severity::Error,
                    format!("parameter `params`: `{t}` is not a 32-bit integer or a decimal"),
                )
            })
        })
        .collect()
}

/// Parses the `memory` text parameter (see the module doc).
pub fn parse_memory(text: &str) -> Result<sim::MemoryInit, Diagnostic> {
    let mut arrays = Vec::new();
    for (i, item) in text
        .split(';')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .enumerate()
    {
        let bad = |why: &str| {
            Diagnostic::global(
                Severity::Error,
                format!("parameter `memory`, array {}: {why} (write NAME@ADDRESS WORDS FILL ARGS, e.g. x@0x1000 64 iota 0 1)", i + 1),
            )
        };
        let words: Vec<&str> = item.split_whitespace().collect();
        let [head, len, fill, args @ ..] = words.as_slice() else {
            return Err(bad("expected at least a name@address, a length and a fill"));
        };
        let (name, address) = head
            .split_once('@')
            .ok_or_else(|| bad("no @ADDRESS after the name"))?;
        let address = parse_int(address)
            .and_then(|a| u64::try_from(a).ok())
            .ok_or_else(|| bad("the address is not a number"))?;
        let len = parse_int(len)
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| bad("the length is not a whole number of words"))?;
        let nums = |n: usize| -> Result<Vec<u32>, Diagnostic> {
            if args.len() != n {
                return Err(bad(&format!("`{fill}` takes {n} argument(s)")));
            }
            args.iter()
                .map(|a| word(a).ok_or_else(|| bad(&format!("`{a}` is not a number"))))
                .collect()
        };
        let fill = match *fill {
            "const" => sim::Fill::Constant { value: nums(1)?[0] },
            "iota" => {
                let v = nums(2)?;
                sim::Fill::Iota {
                    start: v[0],
                    step: v[1],
                }
            }
            "random" => {
                let v = nums(2)?;
                sim::Fill::Random {
                    seed: u64::from(v[0]),
                    below: v[1],
                }
            }
            "words" => sim::Fill::Words {
                values: args
                    .iter()
                    .map(|a| word(a).ok_or_else(|| bad(&format!("`{a}` is not a number"))))
                    .collect::<Result<_, _>>()?,
            },
            "floats" => sim::Fill::Floats {
                values: args
                    .iter()
                    .map(|a| {
                        a.parse::<f32>()
                            .map_err(|_| bad(&format!("`{a}` is not a decimal")))
                    })
                    .collect::<Result<_, _>>()?,
            },
            other => return Err(bad(&format!("unknown fill `{other}`"))),
        };
        arrays.push(sim::ArrayInit {
            name: name.to_string(),
            address,
            words: len,
            fill,
        });
    }
    Ok(sim::MemoryInit { arrays })
}

fn dim3(p: &Params, name: &str) -> Result<[u32; 3], Diagnostic> {
    let v = p.numbers(name, 1, 3)?;
    let mut out = [1u32; 3];
    for (i, x) in v.iter().enumerate() {
        out[i] = u32::try_from(*x).ok().filter(|&x| x >= 1).ok_or_else(|| {
            Diagnostic::global(
                Severity::Error,
                format!("parameter `{name}`: every dimension must be between 1 and 4294967295"),
            )
        })?;
    }
    Ok(out)
}

fn budget(p: &Params) -> sim::Budget {
    sim::Budget {
        max_cycles: p.get_usize("max_cycles") as u64,
        max_steps: p.get_usize("max_steps") as u64,
        max_timeline_entries: p.get_usize("max_timeline_entries"),
        max_stepper_steps: p.get_usize("max_stepper_steps"),
        max_blocks: p.get_usize("max_blocks") as u64,
        max_memory_words: p.get_usize("max_memory_words") as u64,
        max_stack_depth: p.get_usize("max_sim_stack_depth"),
    }
}

/// Runs the simulator on `machine` for the request's launch and memory; diagnostics go into
/// `report` on failure.
pub fn simulate_on(
    kernel: &Kernel,
    p: &Params,
    machine: &sim::Machine,
    memory: Option<&sim::MemoryInit>,
    report: &mut Report,
) -> Option<sim::Simulation> {
    run_with(p, memory, report, |launch, memory, budget| {
        sim::run(kernel, launch, machine, memory, budget)
    })
}

/// The request's launch (grid, block, parameter words, shared memory, stepper warp).
fn launch(p: &Params, report: &mut Report) -> Option<sim::Launch> {
    match (
        dim3(p, "grid"),
        dim3(p, "block"),
        param_words(p.text("params")),
    ) {
        (Ok(grid), Ok(block), Ok(params)) => Some(sim::Launch {
            grid,
            block,
            params,
            shared_bytes: u32::try_from(p.get_usize("shared_bytes")).unwrap_or(u32::MAX),
            stepper_warp: u32::try_from(p.get_usize("warp")).unwrap_or(u32::MAX),
            // Analysis modes with `simulate=true` have no `trace` parameter: always traced.
            trace: p.flag_or("trace", true),
        }),
        (g, b, w) => {
            report
                .diagnostics
                .extend(g.err().into_iter().chain(b.err()).chain(w.err()));
            None
        }
    }
}

/// Resolves launch and memory from the request, then runs `simulate`; its errors become the
/// report's diagnostics.
fn run_with(
    p: &Params,
    memory: Option<&sim::MemoryInit>,
    report: &mut Report,
    simulate: impl FnOnce(
        &sim::Launch,
        &sim::MemoryInit,
        &sim::Budget,
    ) -> Result<sim::Simulation, sim::SimError>,
) -> Option<sim::Simulation> {
    let launch = launch(p, report)?;
    run_launch(&launch, p, memory, report, simulate)
}

/// [`run_with`] for a launch the caller built (a mode whose own parameters give it).
pub(crate) fn run_launch(
    launch: &sim::Launch,
    p: &Params,
    memory: Option<&sim::MemoryInit>,
    report: &mut Report,
    simulate: impl FnOnce(
        &sim::Launch,
        &sim::MemoryInit,
        &sim::Budget,
    ) -> Result<sim::Simulation, sim::SimError>,
) -> Option<sim::Simulation> {
    let parsed;
    let memory = match memory {
        Some(m) => m,
        None => match parse_memory(p.text("memory")) {
            Ok(m) => {
                parsed = m;
                &parsed
            }
            Err(d) => {
                report.diagnostics.push(d);
                return None;
            }
        },
    };
    match simulate(launch, memory, &budget(p)) {
        Ok(s) => Some(s),
        Err(e) => {
            report.diagnostics.extend(e.diagnostics);
            None
        }
    }
}

/// A kernel as the request wrote it: dialect, text, and the function to run.
pub struct KernelText<'a> {
    pub dialect: isa::Dialect,
    pub source: &'a str,
    pub function: Option<&'a str>,
}

/// Simulates a kernel the simulator reads from its own dialect rather than through
/// `isa::Kernel`: a PTX function (post-dominator reconvergence), a GCN3 function (exec
/// mask, the `.amdhsa_*` register layout), or an L/C string (every warp of the launch runs
/// it). Parse errors are the report's diagnostics.
pub fn simulate_text(
    kernel: &KernelText,
    limits: &isa::Limits,
    p: &Params,
    machine: &sim::Machine,
    memory: Option<&sim::MemoryInit>,
    report: &mut Report,
) -> Option<sim::Simulation> {
    let (source, function) = (kernel.source, kernel.function);
    match kernel.dialect {
        isa::Dialect::Ptx => {
            let parsed = isa::ptx::parse(source, limits);
            let failed = parsed.diagnostics.iter().any(Diagnostic::is_error);
            report
                .diagnostics
                .extend(parsed.diagnostics.iter().cloned());
            if failed {
                return None;
            }
            let Some(f) = parsed.module.function(function) else {
                report.diagnostics.push(Diagnostic::global(
                    Severity::Error,
                    match function {
                        Some(name) => format!("no kernel `{name}` in the PTX module"),
                        None => "the PTX module has no kernel".to_string(),
                    },
                ));
                return None;
            };
            run_with(p, memory, report, |launch, memory, budget| {
                sim::run_ptx(f, launch, machine, memory, budget)
            })
        }
        isa::Dialect::Gcn => run_with(p, memory, report, |launch, memory, budget| {
            sim::gcn::run_source(source, function, launch, machine, memory, budget)
        }),
        isa::Dialect::Lc => {
            let (prog, d) = isa::lc::parse(source);
            let failed = d.iter().any(Diagnostic::is_error);
            report.diagnostics.extend(d);
            if failed {
                return None;
            }
            run_with(p, memory, report, |launch, _, budget| {
                sim::run_lc(&prog.kernel, prog.kernel_span, launch, machine, budget)
            })
        }
        other => {
            report.diagnostics.push(Diagnostic::global(
                Severity::Error,
                format!("the simulator does not run `{}` kernels", other.name()),
            ));
            None
        }
    }
}

/// Records `s` in the report next to the bound it is checked against: the report's
/// `simulation` object gains `bound: {cycles, what}` — the value the page compares the
/// observed cycles with (instead of `wcet.cycles`, when the two measure different things),
/// or `cycles: null` and in `what` why this run has no comparable bound.
pub fn attach(report: &mut Report, s: &sim::Simulation, bound: Option<u64>, what: &str) {
    let mut v = serde_json::to_value(s).unwrap_or(serde_json::Value::Null);
    if let serde_json::Value::Object(o) = &mut v {
        o.insert(
            "bound".into(),
            serde_json::json!({ "cycles": bound, "what": what }),
        );
    }
    report.simulation = Some(v);
}

/// The per-warp timelines of a kernel given as text, labelled by source line.
pub fn schedule_view_of_text(source: &str, s: &sim::Simulation) -> ScheduleView {
    let lines: Vec<&str> = source.lines().collect();
    schedule_view_by(s, &|i: &sim::Issue| {
        let text = lines
            .get((i.line as usize).saturating_sub(1))
            .map_or("", |l| l.trim());
        format!("line {}: {text}", i.line)
    })
}

/// The per-warp timelines as a Gantt chart: one lane per warp (the first 64), one box per
/// issued instruction from issue to completion.
pub fn schedule_view(kernel: &Kernel, s: &sim::Simulation) -> ScheduleView {
    schedule_view_by(s, &|i: &sim::Issue| {
        kernel.instructions.get(i.index as usize).map_or_else(
            || format!("line {}", i.line),
            |ins| format!("{:#06x} line {}: {}", ins.address, i.line, ins.text),
        )
    })
}

fn schedule_view_by(s: &sim::Simulation, label: &dyn Fn(&sim::Issue) -> String) -> ScheduleView {
    let warps: Vec<_> = s.warps.iter().take(64).collect();
    let items = warps
        .iter()
        .enumerate()
        .flat_map(|(lane, w)| {
            w.issues.iter().map(move |i| ScheduleItem {
                lane,
                start: i.issue,
                length: i.complete.saturating_sub(i.issue).max(1),
                group: w.warp,
                label: label(i),
            })
        })
        .collect();
    ScheduleView {
        cycles: s.cycles,
        lanes: warps.iter().map(|w| format!("warp {}", w.warp)).collect(),
        items,
        group_name: "warp".into(),
        group_labels: Vec::new(),
    }
}
