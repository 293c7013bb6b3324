//! The `simd` mode: phase-based WCET of a Sim-D kernel (Spliet & Mullins §4–5, crate
//! `phases`), for the NDRange and work-group width of the request.
//!
//! The report carries the crate's whole result under `details.simd` (in the facade's wire
//! types, `views::simd_parts` and `simd_run`), the better of the two scheduling policies as
//! `wcet.cycles` (§4.2: the compiler may pick either), the basic-block CFG with its
//! stack-annotated edges, and that policy's two-slot schedule as the Gantt chart.

use crate::catalog::{ModeInfo, ParamInfo, PresetInfo};
use crate::kernel_text;
use crate::mode::{Mode, ModeDetails, ModeInput, ModeOutput};
use crate::params::{limits, Params};
use crate::report::{SimdExecutionReport, Wcet};
use crate::views;
use isa::{Diagnostic, Severity};
use std::collections::BTreeMap;

/// The mode.
pub const MODE: Mode = Mode {
    name: "simd",
    aliases: &[],
    describe,
    run,
};

/// Parameters of the mode (defaults: the reference implementation's configuration).
fn describe() -> ModeInfo {
    let c = phases::Config::reference();
    let b = phases::Budget::default();
    let budget = |name: &str, meaning: &str, unit: &str, default: u64| {
        ParamInfo::number(name, meaning, unit, 1.0, 1e12, default as f64).in_group("budgets")
    };
    let mut params = vec![
        ParamInfo::text(
            "ndrange",
            "NDRange X,Y in work-items (launch.tsv's -d)",
            "1024,32",
        ),
        ParamInfo::number(
            "wg_width",
            "work-group width N (a power of two, 32–1024); a work-group holds 1024 work-items, height 1024/N",
            "work-items",
            32.0,
            1024.0,
            32.0,
        ),
        ParamInfo::choice(
            "dram",
            "DRAM configuration (Sim-D Table 1)",
            &phases::DramPreset::ALL.map(|d| d.name()),
            c.dram.name(),
        ),
        ParamInfo::number(
            "decode_stages",
            "instruction decode stages: 1 (reference implementation) or 3 (paper, §3.1)",
            "stages",
            1.0,
            3.0,
            f64::from(c.pipeline.decode_stages),
        ),
        ParamInfo::number(
            "execute_stages",
            "execute stages: 3 (reference implementation) or 5 (paper, §3.1)",
            "stages",
            3.0,
            64.0,
            f64::from(c.pipeline.execute_stages),
        ),
        ParamInfo::number(
            "sp_bus_words",
            "scratchpad bus width (Table 3: 4–32; the reference build uses 4)",
            "32-bit words/cycle",
            1.0,
            1024.0,
            c.sp_bus_words as f64,
        ),
        ParamInfo::number(
            "schedule_work_groups",
            "work-groups drawn in the schedule, from the start of the kernel",
            "work-groups",
            1.0,
            1e4,
            c.schedule_work_groups as f64,
        ),
        budget(
            "max_dag_nodes",
            "most DAG nodes created while unrolling loops (§5.4)",
            "nodes",
            b.max_dag_nodes,
        ),
        budget(
            "max_pipeline_cycles",
            "most simulated pipeline cycles (§5.3)",
            "cycles",
            b.max_pipeline_cycles,
        ),
        budget(
            "max_stride_periods",
            "most periods of one DRAM stride request examined (§3.2.1)",
            "periods",
            b.max_stride_periods,
        ),
        budget(
            "max_sp_stride_words",
            "most words walked for one scratchpad stride request (§3.3)",
            "words",
            b.max_sp_stride_words,
        ),
        budget(
            "max_schedule_intervals",
            "most intervals in the schedule (Gantt) data",
            "intervals",
            b.max_schedule_intervals,
        ),
        budget(
            "max_dram_sim_steps",
            "most DRAM controller steps simulated for the 2D tile requests (every start offset, as the reference tool does)",
            "steps",
            c.max_dram_sim_steps,
        ),
        ParamInfo::flag(
            "simulate",
            "execute the launch next to the bound (phases::execution): every work-group runs a path, DRAM tiles cost what the controller model gives at their actual addresses, refresh at its real times; reported as simd_execution",
            false,
        ),
        ParamInfo::choice(
            "scheduler",
            "work-group scheduler of the execution (§4.2, Fig. 4, Fig. 7): unconstrained (greedy, slots drift), pairwise (greedy + the pairwise-work-group constraint), sp-as-access / sp-as-compute (the two policies the WCET bounds)",
            &phases::execution::Scheduler::ALL.map(|s| s.name()),
            "sp-as-access",
        ),
        ParamInfo::choice(
            "path",
            "path of each work-group in the execution: launch (the branches its id and the launch decide, through a three-valued interpreter of the program; where a condition depends on loaded data or is not modelled, the fallback chooses; loops never beyond their bounds), worst (the critical path of §5.5) or random (each branch and unrolled loop exit taken at random, loops at or below their bounds; seeded)",
            &["launch", "worst", "random"],
            "launch",
        ),
        ParamInfo::choice(
            "fallback",
            "path=launch, at a choice the interpreter cannot decide: worst (the critical path's edge, or the one starting the longest remaining path) or random (seeded)",
            &["worst", "random"],
            "worst",
        ),
        ParamInfo::number(
            "seed",
            "seed of path=random and of fallback=random",
            "",
            0.0,
            4294967295.0,
            0.0,
        ),
        budget(
            "max_sim_phases",
            "most phase instances the execution runs (work-groups × phases)",
            "phases",
            phases::execution::DEFAULT_MAX_PHASES,
        ),
    ];
    params.extend(limits::params());
    ModeInfo {
        name: String::new(),
        aliases: Vec::new(),
        title: "Phase-based WCET on Sim-D (Spliet & Mullins)".into(),
        description: "Splits the kernel into compute and DRAM/scratchpad access phases \
                      (CFG with control-stack-annotated edges, loops unrolled with the \
                      #bound annotations, critical path), prices them with the in-order \
                      pipeline and the DDR4 timing of Table 1, and bounds the kernel \
                      WCET for both scheduling policies (Eq. 10–19), with the worst-case \
                      schedule of two work-group slots."
            .into(),
        dialects: vec!["simd".into()],
        params,
        presets: presets(),
        default_presets: BTreeMap::new(),
    }
}

/// The crate's named configurations (`phases::Config::presets`), as parameter values.
fn presets() -> Vec<PresetInfo> {
    phases::Config::presets()
        .into_iter()
        .map(|(name, source, c)| PresetInfo {
            name: name.into(),
            source: source.into(),
            values: BTreeMap::from([
                ("dram".to_string(), serde_json::json!(c.dram.name())),
                (
                    "decode_stages".to_string(),
                    serde_json::json!(c.pipeline.decode_stages),
                ),
                (
                    "execute_stages".to_string(),
                    serde_json::json!(c.pipeline.execute_stages),
                ),
                (
                    "sp_bus_words".to_string(),
                    serde_json::json!(c.sp_bus_words),
                ),
            ]),
        })
        .collect()
}

/// The mode's parameters, decoded once.
struct SimdParams {
    /// NDRange X and Y, or what is wrong with the `ndrange` text.
    ndrange: Result<(u64, u64), Diagnostic>,
    wg_width: u64,
    config: phases::Config,
    simulate: bool,
    scheduler: phases::execution::Scheduler,
    path: phases::execution::PathChoice,
    max_sim_phases: u64,
}

impl SimdParams {
    fn decode(p: &Params) -> Result<Self, Diagnostic> {
        let mut c = phases::Config::reference();
        if let Some(d) = phases::DramPreset::from_name(p.text("dram")?) {
            c.dram = d;
        }
        c.pipeline.decode_stages = p.u32("decode_stages")?;
        c.pipeline.execute_stages = p.u32("execute_stages")?;
        c.sp_bus_words = p.u64("sp_bus_words")?;
        c.schedule_work_groups = p.u64("schedule_work_groups")?;
        c.budget = phases::Budget {
            max_dag_nodes: p.u64("max_dag_nodes")?,
            max_pipeline_cycles: p.u64("max_pipeline_cycles")?,
            max_stride_periods: p.u64("max_stride_periods")?,
            max_sp_stride_words: p.u64("max_sp_stride_words")?,
            max_schedule_intervals: p.u64("max_schedule_intervals")?,
        };
        c.max_dram_sim_steps = p.u64("max_dram_sim_steps")?;
        Ok(SimdParams {
            ndrange: p.numbers("ndrange", 2, 2).map(|v| (v[0], v[1])),
            wg_width: p.u64("wg_width")?,
            config: c,
            simulate: p.flag("simulate")?,
            scheduler: phases::execution::Scheduler::from_name(p.text("scheduler")?)
                .unwrap_or(phases::execution::Scheduler::SpAsAccess),
            path: {
                use phases::execution::{Fallback, PathChoice};
                let seed = p.u64("seed")?;
                let fallback = match p.text("fallback")? {
                    "random" => Fallback::Random { seed },
                    _ => Fallback::Worst,
                };
                match p.text("path")? {
                    "random" => PathChoice::Random { seed },
                    "worst" => PathChoice::Worst,
                    _ => PathChoice::FromLaunch { fallback },
                }
            },
            max_sim_phases: p.u64("max_sim_phases")?,
        })
    }
}

fn run(input: &ModeInput) -> ModeOutput {
    let p = match SimdParams::decode(input.params) {
        Ok(p) => p,
        Err(d) => return ModeOutput::failed([d]),
    };
    let mut out = ModeOutput::default();
    let started = web_time::Instant::now();
    analyse(input, &p, &mut out);
    out.time("simd", started);
    out
}

fn analyse(input: &ModeInput, p: &SimdParams, out: &mut ModeOutput) {
    let Some((program, failed)) =
        kernel_text::simd(&input.request.source, &input.limits, &mut out.diagnostics)
    else {
        return;
    };
    let mut view = views::kernel::simd(&program);
    if failed {
        out.kernel = Some(view);
        return;
    }
    let (x, y) = match &p.ndrange {
        Ok(nd) => *nd,
        Err(d) => {
            out.diagnostics.push(d.clone());
            out.kernel = Some(view);
            return;
        }
    };
    let launch = phases::Launch::new(x, y, p.wg_width);
    let (result, dag) = match phases::analyze_with_dag(&program, &launch, &p.config) {
        Ok(r) => r,
        Err(e) => {
            out.diagnostics.extend(e.diagnostics);
            out.kernel = Some(view);
            return;
        }
    };
    for b in &result.blocks {
        for ins in view
            .instructions
            .iter_mut()
            .skip(b.first_instruction)
            .take(b.instruction_count)
        {
            ins.block = Some(b.id);
        }
    }
    out.diagnostics.extend(result.diagnostics.iter().cloned());
    let best = if result.sp_as_compute.wcet < result.sp_as_access.wcet {
        &result.sp_as_compute
    } else {
        &result.sp_as_access
    };
    out.wcet = Some(Wcet {
        cycles: best.wcet,
        cost_model: format!(
            "compute cycles at {} MHz, {}",
            result.config.compute_clock_mhz,
            match best.policy {
                phases::Policy::SpAsAccess => "scratchpad as access",
                phases::Policy::SpAsCompute => "scratchpad as compute",
            }
        ),
        assumed_loop_bounds: Vec::new(),
    });
    out.graph = Some(views::graph::simd_timed(&result));
    out.schedule = Some(views::schedule::phases(&best.schedule));
    out.kernel = Some(view);
    let execution = if p.simulate {
        let started = web_time::Instant::now();
        let e = execute(
            &result,
            &dag,
            &program,
            p,
            input.progress,
            &mut out.diagnostics,
        );
        out.time("simd_execution", started);
        e.map(Box::new)
    } else {
        None
    };
    out.details = ModeDetails::Simd(Box::new(result), execution);
}

/// `simulate=true`: the execution under the chosen scheduler, its Gantt chart on the
/// worst-case schedule's time axis (the policy's WCET schedule for a policy scheduler, the
/// better policy's for the greedy ones, as `report.schedule` shows), and a note with the
/// verdict.
fn execute(
    result: &phases::SimdResult,
    dag: &phases::dag::Dag,
    program: &isa::simd::Program,
    p: &SimdParams,
    progress: isa::Observer,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<SimdExecutionReport> {
    use phases::execution::{Options, Scheduler};
    let mut o = Options::new(p.scheduler, p.path, &p.config);
    o.max_phases = p.max_sim_phases;
    let run = match phases::execution::execute_observed(result, dag, program, &o, progress) {
        Ok(r) => r,
        Err(e) => {
            diagnostics.extend(e.diagnostics);
            return None;
        }
    };
    let upload = result.upload.cycles;
    let mut shifted = run.schedule.clone();
    for iv in &mut shifted.intervals {
        iv.start = iv.start.saturating_sub(upload);
        iv.end = iv.end.saturating_sub(upload);
    }
    shifted.makespan = shifted.makespan.saturating_sub(upload);
    let policy = match p.scheduler {
        Scheduler::SpAsAccess => &result.sp_as_access,
        Scheduler::SpAsCompute => &result.sp_as_compute,
        _ if result.sp_as_compute.wcet < result.sp_as_access.wcet => &result.sp_as_compute,
        _ => &result.sp_as_access,
    };
    let wcet_shown_end = policy.schedule.makespan;
    let mut gantt = views::schedule::phases(&shifted);
    gantt.cycles = gantt.cycles.max(wcet_shown_end);
    let what = match p.scheduler.policy() {
        Some(_) => "the policy's WCET",
        None => "WCET^U (the paper bounds only the two policies)",
    };
    diagnostics.push(Diagnostic::global(
        Severity::Note,
        format!(
            "execution ({}): {} cycles, {} {} ({} cycles){}{}",
            p.scheduler.name(),
            run.cycles,
            if run.within_bound { "within" } else { "ABOVE" },
            what,
            run.bound,
            if run.requests_above_wcet.is_empty() {
                String::new()
            } else {
                format!(
                    "; {} requests cost more at their address than their WCET cost",
                    run.requests_above_wcet.len()
                )
            },
            match &run.decisions {
                Some(d) if d.decided + d.fallback == 0 => format!(
                    "; path=launch: no choice to make (the unrolled DAG is one path), {} work-groups exited early",
                    d.early_exits
                ),
                Some(d) => format!(
                    "; path=launch: {} choices decided from the work-group ids, {} by the fallback ({} capped at a loop bound), {} of {} work-groups wholly decided, {} exited early",
                    d.decided,
                    d.fallback,
                    d.capped,
                    d.work_groups_all_decided,
                    run.work_groups,
                    d.early_exits
                ),
                None => String::new(),
            }
        ),
    ));
    Some(SimdExecutionReport {
        observed_shown_end: shifted.makespan,
        wcet_shown_end,
        gantt,
        run: (&run).into(),
    })
}
