//! The `makespan` mode's parameters: the catalogue entry (warps, machine, exact method, ILP
//! export, estimate, budgets), the crate's machine presets, and their decoding
//! ([`MakespanParams`]; moved out of `makespan.rs`, which keeps the analysis).

use crate::catalog::{ModeInfo, ParamInfo, PresetInfo};
use crate::params::limits::{self, budget};
use crate::report::ParamSource;
use isa::Diagnostic;
use std::collections::BTreeMap;

pub(super) fn describe() -> ModeInfo {
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
pub(super) struct Setting {
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
    pub(super) fn or_file(self, file: Option<u64>) -> u32 {
        match file {
            Some(f) if !self.from_request => u32::try_from(f).unwrap_or(u32::MAX),
            _ => self.value,
        }
    }
}

/// The mode's parameters, decoded once.
pub(super) struct MakespanParams {
    pub(super) warps: Setting,
    pub(super) ls_units: Setting,
    pub(super) cores: Setting,
    pub(super) warp_size: Setting,
    /// `None`: no exact value; else the exact method by its parameter name and its ILP
    /// variant (`None` for the state search).
    pub(super) exact: Option<(String, Option<makespan::IlpVariant>)>,
    /// The method's name even without `exact` (the details report it).
    pub(super) method: String,
    pub(super) solver: makespan::IlpSolver,
    pub(super) ilp_export: Option<(String, makespan::IlpVariant)>,
    pub(super) estimate_x: u32,
    pub(super) budget: makespan::Budget,
    pub(super) simulate: bool,
}

fn variant(name: &str) -> Option<makespan::IlpVariant> {
    match name {
        "ilp-short" | "short" => Some(makespan::IlpVariant::Short),
        "ilp-long" | "long" => Some(makespan::IlpVariant::Long),
        _ => None,
    }
}

impl MakespanParams {
    pub(super) fn decode(p: &crate::params::Params) -> Result<Self, Diagnostic> {
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
