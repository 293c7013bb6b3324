//! The `makespan` mode: worst-case makespan of W warps on one SM (Berezovskyi, Bletsas,
//! Andersson, ECRTS 2012) on an L/C string — the paper's "kernel instruction string" (§3).
//!
//! The string is given directly (dialect `lc`, optionally in the paper's configuration-file
//! form, Fig. 4), or reduced from a real kernel — SASS, PTX, GCN3 or Sim-D — along its
//! straight-line path, memory accesses → L and every other instruction → C (see
//! [`crate::lc_reduction`], which also fills the report's instruction-to-letter `mapping`).

use crate::catalog::{ModeInfo, ParamInfo, PresetInfo};
use crate::kernel_text;
use crate::lc_reduction;
use crate::mode::{Mode, ModeDetails, ModeInput, ModeOutput};
use crate::params::limits::{self, budget};
use crate::report::SimulationReport;
use crate::report::{IlpExport, MakespanDetails, MappedInstruction, ParamSource, Wcet};
use crate::simulator;
use crate::views;
use isa::lc::{LcOp, LcProgram};
use isa::{Diagnostic, Dialect, Severity};
use std::collections::BTreeMap;
use web_time::Instant;

/// The mode.
pub const MODE: Mode = Mode {
    name: "makespan",
    aliases: &[],
    describe,
    run,
};

fn describe() -> ModeInfo {
    let b = makespan::Budget::default();
    // The paper's machine (§3) gives the defaults.
    let m = makespan::Machine::fermi_cc20();
    let mut params = vec![
        ParamInfo::number(
            "warps",
            "number of warps W on the SM (a warp_number in the text is used unless this is set)",
            "warps",
            1.0,
            1e6,
            8.0,
        ),
        ParamInfo::number(
            "ls_units",
            "load/store units L per SM (ls_unit_number in the text, else the preset, unless set)",
            "units",
            1.0,
            1024.0,
            f64::from(m.ls_units),
        ),
        ParamInfo::number(
            "cores",
            "CUDA cores C per SM (cuda_core_number in the text, else the preset, unless set)",
            "cores",
            1.0,
            1024.0,
            f64::from(m.cores),
        ),
        ParamInfo::number(
            "warp_size",
            "threads per warp S (warp_size in the text, else the preset, unless set)",
            "threads",
            1.0,
            1024.0,
            f64::from(m.warp_size),
        ),
        ParamInfo::flag(
            "exact",
            "compute the exact worst case over all work-conserving schedules",
            true,
        ),
        ParamInfo::choice(
            "method",
            "exact method: state search (fast), or the paper's binary ILP (Fig. 3) with short or long work-conserving constraints (a few warps and instructions)",
            &["search", "ilp-short", "ilp-long"],
            "search",
        ),
        ParamInfo::choice(
            "ilp_solver",
            "branch and bound for the ILP methods: propagation (every row propagated at every node, a cache of solved residual programs, the LP relaxation by microlp at the root; proves 4 warps × 6 instructions in milliseconds) or lp (an LP by microlp at every node; only for tiny instances)",
            &["propagation", "lp"],
            "propagation",
        ),
        ParamInfo::choice(
            "ilp_export",
            "also write the paper's ILP (Fig. 3) as a CPLEX LP file for an external solver, with short or long work-conserving constraints",
            &["none", "short", "long"],
            "none",
        ),
        ParamInfo::number(
            "estimate_x",
            "x of the tractable estimate T(W, x) (Eq. 42–43): largest warp group solved exactly; 0 = no estimate",
            "warps",
            0.0,
            1e4,
            0.0,
        ),
        budget("max_states", "most scheduler states memoised by the exact search (memory: 16–40 bytes each)", "states", 1e9, b.max_states),
        budget("max_search_steps", "most successor states the exact search generates (its time budget: a few million per second natively; the T(W, x) curve gets half as many)", "steps", 1e11, b.max_search_steps),
        budget("max_ilp_variables", "most binary ILP variables", "variables", 1e7, b.max_ilp_variables),
        budget("max_bb_nodes", "most nodes of the propagating ILP branch and bound (about 15 µs each)", "nodes", 1e7, b.max_bb_nodes),
        budget("max_lp_solves", "most LP solves of the LP-based ILP branch and bound (ilp_solver=lp; milliseconds each)", "solves", 1e7, b.max_lp_solves),
        ParamInfo::flag(
            "simulate",
            "also run the simulator on the makespan paper's SM (one-cycle instructions, these unit counts) with W warps and show observed vs bound",
            false,
        ),
    ];
    params.extend(limits::params());
    ModeInfo {
        name: String::new(),
        aliases: Vec::new(),
        title: "Worst-case makespan of warps (Berezovskyi et al.)".into(),
        description: "Worst-case makespan of W warps sharing the load/store units and \
                      CUDA cores of one SM under any work-conserving scheduler: sigma \
                      transformation, pessimistic bound (Eq. 5–7), exact worst case with \
                      a witness schedule, and the estimate T(W, x) (Eq. 42–43). SASS, \
                      PTX, GCN3 and Sim-D kernels are reduced to an L/C string along \
                      their straight-line path (memory accesses L, everything else C)."
            .into(),
        dialects: ["lc", "sass", "ptx", "gcn", "simd"]
            .map(String::from)
            .to_vec(),
        params,
        // The named SMs and their sources are the makespan crate's.
        presets: makespan::presets()
            .into_iter()
            .map(
                |makespan::MachinePreset {
                     name,
                     source,
                     machine: m,
                 }| PresetInfo {
                    name: name.into(),
                    source: source.into(),
                    values: BTreeMap::from([
                        ("ls_units".to_string(), serde_json::json!(m.ls_units)),
                        ("cores".to_string(), serde_json::json!(m.cores)),
                        ("warp_size".to_string(), serde_json::json!(m.warp_size)),
                    ]),
                },
            )
            .collect(),
        default_presets: BTreeMap::new(),
    }
}

/// A machine or launch size: the value and whether the request set it (a configuration
/// file's value wins over a preset or default, not over the request).
#[derive(Debug, Clone, Copy)]
struct Setting {
    value: u32,
    from_request: bool,
}

impl Setting {
    fn decode(p: &crate::params::Params, name: &str) -> Result<Setting, Diagnostic> {
        Ok(Setting {
            value: p.u32(name)?,
            from_request: p.source(name)? == ParamSource::Request,
        })
    }

    /// The request's value, else the configuration file's, else the preset's or default.
    fn or_file(self, file: Option<u64>) -> u32 {
        match file {
            Some(f) if !self.from_request => u32::try_from(f).unwrap_or(u32::MAX),
            _ => self.value,
        }
    }
}

/// The mode's parameters, decoded once.
struct MakespanParams {
    warps: Setting,
    ls_units: Setting,
    cores: Setting,
    warp_size: Setting,
    /// `None`: no exact value; else the exact method by its parameter name and its ILP
    /// variant (`None` for the state search).
    exact: Option<(String, Option<makespan::IlpVariant>)>,
    /// The method's name even without `exact` (the details report it).
    method: String,
    solver: makespan::IlpSolver,
    ilp_export: Option<(String, makespan::IlpVariant)>,
    estimate_x: u32,
    budget: makespan::Budget,
    simulate: bool,
}

fn variant(name: &str) -> Option<makespan::IlpVariant> {
    match name {
        "ilp-short" | "short" => Some(makespan::IlpVariant::Short),
        "ilp-long" | "long" => Some(makespan::IlpVariant::Long),
        _ => None,
    }
}

impl MakespanParams {
    fn decode(p: &crate::params::Params) -> Result<Self, Diagnostic> {
        let method = p.text("method")?.to_string();
        let export = p.text("ilp_export")?;
        Ok(MakespanParams {
            warps: Setting::decode(p, "warps")?,
            ls_units: Setting::decode(p, "ls_units")?,
            cores: Setting::decode(p, "cores")?,
            warp_size: Setting::decode(p, "warp_size")?,
            exact: p.flag("exact")?.then(|| (method.clone(), variant(&method))),
            method,
            solver: match p.text("ilp_solver")? {
                "lp" => makespan::IlpSolver::LpBranchAndBound,
                _ => makespan::IlpSolver::Propagation,
            },
            ilp_export: variant(export).map(|v| (export.to_string(), v)),
            estimate_x: p.u32("estimate_x")?,
            budget: makespan::Budget {
                max_states: p.usize("max_states")?,
                max_search_steps: p.usize("max_search_steps")?,
                max_ilp_variables: p.usize("max_ilp_variables")?,
                max_bb_nodes: p.usize("max_bb_nodes")?,
                max_lp_solves: p.usize("max_lp_solves")?,
            },
            simulate: p.flag("simulate")?,
        })
    }
}

fn run(input: &ModeInput) -> ModeOutput {
    let p = match MakespanParams::decode(input.params) {
        Ok(p) => p,
        Err(d) => return ModeOutput::failed([d]),
    };
    let request = input.request;
    let mut out = ModeOutput::default();
    let t = Instant::now();
    match request.dialect {
        Dialect::Lc => {
            // An L/C string (or the configuration file of Berezovskyi et al., Fig. 4).
            let (program, d) = isa::lc::parse(&request.source);
            out.time("parse", t);
            let failed = d.iter().any(Diagnostic::is_error);
            out.diagnostics.extend(d);
            if !failed {
                let t = Instant::now();
                analyse(
                    &program.kernel,
                    &program,
                    Vec::new(),
                    &p,
                    input.progress,
                    &mut out,
                );
                out.time("makespan", t);
            }
        }
        Dialect::Sass => {
            // A SASS kernel's straight-line path on its block graph.
            let Some(s) = kernel_text::sass(input, &mut out) else {
                return out;
            };
            let t = Instant::now();
            let (ops, mapping) = lc_reduction::sass(&s.kernel, &s.graph);
            analyse(
                &ops,
                &LcProgram::default(),
                mapping,
                &p,
                input.progress,
                &mut out,
            );
            out.time("makespan", t);
        }
        dialect => {
            // A PTX, GCN3 or Sim-D kernel reduced to an L/C string along its straight-line
            // path: no configuration file, so warps and units come from the parameters.
            let reduced = lc_reduction::from_text(
                dialect,
                &request.source,
                request.function.as_deref(),
                &input.limits,
                &mut out,
            );
            out.time("parse", t);
            if let Some((ops, mapping)) = reduced {
                let t = Instant::now();
                analyse(
                    &ops,
                    &LcProgram::default(),
                    mapping,
                    &p,
                    input.progress,
                    &mut out,
                );
                out.time("makespan", t);
            }
        }
    }
    out
}

/// Analyses an L/C string (`file` holds values from a configuration file).
fn analyse(
    ops: &[LcOp],
    file: &LcProgram,
    mapping: Vec<MappedInstruction>,
    p: &MakespanParams,
    progress: isa::Observer,
    out: &mut ModeOutput,
) {
    let warps = p.warps.or_file(file.warp_number);
    let machine = makespan::Machine {
        ls_units: p.ls_units.or_file(file.ls_unit_number),
        cores: p.cores.or_file(file.cuda_core_number),
        warp_size: p.warp_size.or_file(file.warp_size),
    };
    let t = match makespan::transform(ops, &machine) {
        Ok(t) => t,
        Err(e) => {
            out.diagnostics
                .push(Diagnostic::global(Severity::Error, e.to_string()));
            return;
        }
    };
    let budget = &p.budget;
    let pessimistic = makespan::pessimistic(&t, warps);
    let safe = makespan::safe_bound(&t, warps);
    let mut ilp_solve = None;
    let exact = p.exact.as_ref().and_then(|(_, variant)| {
        let r = match variant {
            Some(v) => makespan::solve_ilp_observed(&t, warps, *v, p.solver, budget, progress).map(|(s, stats)| {
                ilp_solve = Some(stats);
                s
            }),
            None => makespan::exact_observed(&t, warps, budget, progress),
        };
        r.map_err(|e| {
            out.diagnostics.push(Diagnostic::global(
                Severity::Warning,
                format!(
                    "no exact makespan for {warps} warps on the {}-instruction string: {e}; wcet.cycles is the safe bound {safe} (the estimate T(W, x) of Eq. 42–43 can undershoot the exact value, and Eq. 5–7 is unsafe for σ > 1)",
                    t.instrs.len(),
                ),
            ))
        })
        .ok()
    });
    let estimate = (p.estimate_x > 0)
        .then(|| {
            makespan::estimate_observed(&t, warps, p.estimate_x, budget, progress)
                .map_err(|e| {
                    out.diagnostics.push(Diagnostic::global(
                        Severity::Warning,
                        format!("no estimate: {e}"),
                    ))
                })
                .ok()
        })
        .flatten();
    // The estimate of Eq. 42–43 can undershoot the exact worst case (see the makespan crate's
    // tests), and Eq. 5–7 too when σ > 1: without an exact value, use the safe bound.
    let cycles = exact.as_ref().map_or(safe, |s| s.makespan);
    out.wcet = Some(Wcet {
        cycles,
        cost_model: "one cycle per (sub-warp) instruction".into(),
        assumed_loop_bounds: Vec::new(),
    });
    if let Some(s) = &exact {
        out.schedule = Some(views::schedule::makespan(&t, s));
    }
    // The convergence plot of T(W, x) (Figs. 6 and 7) with the pessimistic bound. The curve
    // is a view, not the answer: it gets half the exact search's step budget, so the whole
    // mode stays within 1.5 × max_search_steps.
    let curve_budget = makespan::Budget {
        max_search_steps: budget.max_search_steps / 2,
        ..budget.clone()
    };
    let (curve, stopped) = makespan::estimate_curve_partial_observed(
        &t,
        warps,
        warps.clamp(1, 16),
        &curve_budget,
        progress,
    );
    if let Some(e) = stopped {
        let reach = curve.len();
        out.diagnostics.push(Diagnostic::global(
            Severity::Note,
            if reach == 0 {
                format!("no T(W, x) curve: the exact T(1) alone exceeds the budget ({e})")
            } else {
                format!("the T(W, x) curve stops at x = {reach}: the exact T({}) exceeds the budget ({e})", reach + 1)
            },
        ));
    }
    out.plots.extend(views::plot::estimate_curve(
        warps,
        &t.text,
        &curve,
        pessimistic,
    ));
    if p.simulate {
        simulate(
            ops,
            file.kernel_span,
            warps,
            &machine,
            (cycles, exact.is_some()),
            progress,
            out,
        );
    }
    let ilp = p
        .ilp_export
        .as_ref()
        .and_then(|(name, v)| export_ilp(&t, warps, name, *v, budget, out));
    out.details = ModeDetails::Makespan(Box::new(MakespanDetails {
        warps,
        ls_units: machine.ls_units,
        cores: machine.cores,
        warp_size: machine.warp_size,
        original: isa::lc::to_text(ops),
        transformed: t.text.clone(),
        sigma_l: t.sigma_l,
        sigma_c: t.sigma_c,
        pessimistic,
        safe_bound: safe,
        exact: exact.as_ref().map(|s| s.makespan),
        method: p.method.clone(),
        estimate,
        schedule: exact.map(|s| s.slots).unwrap_or_default(),
        mapping,
        ilp,
        ilp_solve,
    }));
}

/// `ilp_export=short|long`: the model of Fig. 3 as LP text, within `max_ilp_variables`.
fn export_ilp(
    t: &makespan::Transformed,
    warps: u32,
    name: &str,
    variant: makespan::IlpVariant,
    budget: &makespan::Budget,
    out: &mut ModeOutput,
) -> Option<IlpExport> {
    match makespan::build_ilp(t, warps, variant, budget) {
        Ok(m) => Some(IlpExport {
            variant: name.to_string(),
            variables: m.program.objective.len(),
            constraints: m.program.constraints.len(),
            lp: m.lp_text(),
        }),
        Err(e) => {
            out.diagnostics.push(Diagnostic::global(
                Severity::Warning,
                format!("no ILP export: {e}"),
            ));
            None
        }
    }
}

/// `simulate=true`: the simulator's `makespan` machine (one-cycle instructions, σ lanes per
/// unit type, work-conserving issue) with this request's units and warp size runs the
/// original string on `warps` warps — one of the work-conserving schedules the exact
/// worst case ranges over, so observed ≤ exact.
fn simulate(
    ops: &[LcOp],
    span: isa::Span,
    warps: u32,
    m: &makespan::Machine,
    (bound, exact): (u64, bool),
    progress: isa::Observer,
    out: &mut ModeOutput,
) {
    let Some(mut machine) = simulator::preset_machine(Some("makespan")) else {
        return;
    };
    machine.cores = m.cores;
    machine.ls_units = m.ls_units;
    machine.warp_size = m.warp_size;
    machine.warps_per_sm = machine.warps_per_sm.max(warps);
    let launch = sim::Launch {
        block: [m.warp_size.saturating_mul(warps), 1, 1],
        ..sim::Launch::default()
    };
    match sim::run_lc_observed(
        ops,
        span,
        &launch,
        &machine,
        &sim::Budget::default(),
        progress,
    ) {
        Ok(s) => {
            let what = if exact {
                "the exact worst-case makespan"
            } else {
                "the safe bound"
            };
            out.simulation = Some(SimulationReport::against(s, Some(bound), what));
        }
        Err(e) => out.diagnostics.extend(
            e.diagnostics
                .into_iter()
                .map(|d| d.in_stage(isa::Stage::Simulation)),
        ),
    }
}
