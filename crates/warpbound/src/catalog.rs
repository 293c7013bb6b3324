//! The self-description of the API: dialects, modes, their parameters and presets.
//!
//! The page builds its forms from this (no parameter is hard-coded in the frontend) and the
//! CLI validates `--mode`, `--preset` and `--set` against it.

use crate::SCHEMA_VERSION;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How a parameter's value is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParamKind {
    /// A number within `min..=max`.
    Number,
    /// On or off (`true`/`false`, `1`/`0`, `on`/`off`).
    Flag,
    /// One of `choices`.
    Choice,
    /// Free text in a format the meaning describes (e.g. `X,Y,Z`); the mode validates it and
    /// names the parameter in its error.
    Text,
}

/// One tunable of a mode: what the page renders a form field from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParamInfo {
    pub name: String,
    pub meaning: String,
    pub unit: String,
    pub kind: ParamKind,
    pub min: f64,
    pub max: f64,
    pub default: serde_json::Value,
    pub choices: Vec<String>,
    /// Fold the parameter belongs to in a form (`""`: always shown; `"budgets"`, …), so the
    /// page can keep rarely changed numbers out of the way without knowing their names.
    #[serde(default)]
    pub group: String,
}

impl ParamInfo {
    pub fn number(name: &str, meaning: &str, unit: &str, min: f64, max: f64, default: f64) -> Self {
        ParamInfo {
            name: name.into(),
            meaning: meaning.into(),
            unit: unit.into(),
            kind: ParamKind::Number,
            min,
            max,
            default: serde_json::json!(default),
            choices: Vec::new(),
            group: String::new(),
        }
    }

    pub fn text(name: &str, meaning: &str, default: &str) -> Self {
        ParamInfo {
            kind: ParamKind::Text,
            default: serde_json::json!(default),
            ..ParamInfo::number(name, meaning, "", 0.0, 0.0, 0.0)
        }
    }

    /// The same parameter in form fold `group`.
    pub fn in_group(mut self, group: &str) -> Self {
        self.group = group.into();
        self
    }

    pub fn flag(name: &str, meaning: &str, default: bool) -> Self {
        ParamInfo {
            kind: ParamKind::Flag,
            min: 0.0,
            max: 1.0,
            default: serde_json::json!(default),
            ..ParamInfo::number(name, meaning, "", 0.0, 1.0, 0.0)
        }
    }

    pub fn choice(name: &str, meaning: &str, choices: &[&str], default: &str) -> Self {
        ParamInfo {
            kind: ParamKind::Choice,
            default: serde_json::json!(default),
            choices: choices.iter().map(|c| c.to_string()).collect(),
            ..ParamInfo::number(name, meaning, "", 0.0, 0.0, 0.0)
        }
    }
}

/// A named set of hardware parameters, with where its numbers come from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PresetInfo {
    pub name: String,
    pub source: String,
    /// The parameter values the preset sets (explicit request parameters still win), so a
    /// client can show the effective numbers.
    pub values: BTreeMap<String, serde_json::Value>,
}

/// One analysis mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModeInfo {
    pub name: String,
    pub title: String,
    pub description: String,
    /// Dialects the mode accepts.
    pub dialects: Vec<String>,
    pub params: Vec<ParamInfo>,
    pub presets: Vec<PresetInfo>,
}

/// A dialect and whether this build can parse it yet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DialectInfo {
    pub name: String,
    pub title: String,
    pub supported: bool,
}

/// Everything a client needs to build a request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Catalog {
    pub schema_version: u32,
    pub version: String,
    pub dialects: Vec<DialectInfo>,
    pub default_mode: String,
    pub modes: Vec<ModeInfo>,
}

/// Name of the mode used when a request names none.
pub const DEFAULT_MODE: &str = "cfg";

/// Warp-level CFG by abstract interpretation + IPET (Jeanmougin et al.).
pub const WARP_CFG_MODE: &str = "warp-cfg";

/// Worst-case makespan of warps on one SM (Berezovskyi et al.).
pub const MAKESPAN_MODE: &str = "makespan";
/// Phase-based WCET of a Sim-D kernel (Spliet & Mullins).
pub const SIMD_MODE: &str = "simd";
/// A run of the SIMT simulator.
pub const SIM_MODE: &str = "simulate";
/// Huangfu's PTX analyzer and round-robin timing model.
pub const RR_MODE: &str = "rr";
/// Predictable wavefront splitting on GCN3 (Klashtorny et al.).
pub const PWS_MODE: &str = "pws";

/// Parameters of the `makespan` mode.
fn makespan_params() -> Vec<ParamInfo> {
    let b = makespan::Budget::default();
    let mut v = vec![
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
            16.0,
        ),
        ParamInfo::number(
            "cores",
            "CUDA cores C per SM (cuda_core_number in the text, else the preset, unless set)",
            "cores",
            1.0,
            1024.0,
            32.0,
        ),
        ParamInfo::number(
            "warp_size",
            "threads per warp S (warp_size in the text, else the preset, unless set)",
            "threads",
            1.0,
            1024.0,
            32.0,
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
    v.extend(budget_params());
    v
}

/// Parameters of the default (thread-level CFG) mode: budgets, and `simulate` with the launch.
fn cfg_params() -> Vec<ParamInfo> {
    let mut v = vec![ParamInfo::flag(
        "simulate",
        "also run the simulator (unit-cost machine: every issued instruction one cycle) on the request's launch; this mode computes no bound to compare with",
        false,
    )];
    v.extend(crate::sim_mode::launch_params());
    v.extend(budget_params());
    v
}

/// Parameters of the `warp-cfg` mode.
fn warp_cfg_params() -> Vec<ParamInfo> {
    let d = cfg::Options::default();
    let b = ipet::Budget::default();
    let mut v = vec![
        ParamInfo::number(
            "default_loop_bound",
            "bound for loops not listed in loop_bounds: the header runs at most N times per \
             entry into the loop (0: every loop needs its own bound); 10 as in §4.1",
            "iterations",
            0.0,
            1e6,
            10.0,
        ),
        ParamInfo::choice(
            "cost",
            "block cost model: unit = every instruction 1 cycle (the paper's evaluation, §4.1); \
             latency = in-order issue with the per-class latencies below, pipeline drained at \
             block ends (conservative across blocks)",
            &["unit", "latency"],
            "unit",
        ),
    ];
    v.extend(latency_params());
    v.extend([
        ParamInfo::flag(
            "agreement",
            "agreement analysis (§3.3); off: every guarded branch may diverge",
            d.agreement,
        ),
        ParamInfo::flag(
            "pending_agreement",
            "track agreement for pending groups too; off: only for active (§4.2)",
            d.pending_agreement,
        ),
        ParamInfo::flag(
            "groups",
            "thread-group relations (§3.2); off: no relation between groups is known",
            d.groups,
        ),
        ParamInfo::flag(
            "cyclic_stacks",
            "cyclic activation-stack graphs (§3.1); off: limitation to acyclic graphs",
            d.cyclic_stacks,
        ),
        budget(
            "max_states",
            "most abstract states (warp-CFG nodes)",
            "states",
            1e7,
            d.max_states,
        ),
        budget(
            "max_stack_depth",
            "deepest activation stack followed",
            "entries",
            1e4,
            d.max_stack_depth,
        ),
        budget(
            "max_ilp_variables",
            "most ILP variables",
            "variables",
            1e7,
            b.max_variables,
        ),
        budget(
            "max_ilp_constraints",
            "most ILP constraints",
            "constraints",
            1e7,
            b.max_constraints,
        ),
        budget(
            "max_lp_size",
            "largest independent part of the ILP handed to the LP solver (variables plus constraints): an LP solve cannot be interrupted, its size bounds its time",
            "variables + constraints",
            1e7,
            b.max_lp_size,
        ),
        budget(
            "max_bb_nodes",
            "most branch-and-bound nodes (LP solves; a solve on a part of more than 256 variables and constraints counts one more per further 256)",
            "nodes",
            1e7,
            b.max_bb_nodes,
        ),
    ]);
    v.push(ParamInfo::flag(
        "simulate",
        "also run the simulator in the analysis's setting (one warp in isolation, the cost model's latencies) and show observed vs bound",
        false,
    ));
    v.extend(crate::sim_mode::launch_params());
    v.extend(budget_params());
    v
}

/// `latency_<class>` and `interval_<class>` parameters of the `latency` cost model, with the
/// Pascal GP102 table as defaults (see `cfg::LatencyTable::pascal_gp102` for the sources).
fn latency_params() -> Vec<ParamInfo> {
    let t = cfg::LatencyTable::pascal_gp102();
    let mut v = Vec::new();
    for c in cfg::TimingClass::ALL {
        v.push(
            ParamInfo::number(
                &format!("latency_{}", c.name()),
                &format!(
                    "cost=latency: cycles from issue to write-back of a {} instruction",
                    class_meaning(c)
                ),
                "cycles",
                1.0,
                1e5,
                t.latency_of(c) as f64,
            )
            .in_group("latencies"),
        );
    }
    for c in [cfg::TimingClass::DoublePrecision, cfg::TimingClass::Sfu] {
        v.push(ParamInfo::number(
            &format!("interval_{}", c.name()),
            &format!(
                "cost=latency: initiation interval of the {} unit (cycles between two of the warp's instructions)",
                class_meaning(c)
            ),
            "cycles",
            1.0,
            1e4,
            t.interval_of(c) as f64,
        )
        .in_group("latencies"));
    }
    v
}

fn class_meaning(c: cfg::TimingClass) -> &'static str {
    use cfg::TimingClass as T;
    match c {
        T::Alu => "integer/FP32 ALU",
        T::DoublePrecision => "double-precision (DADD/DMUL/DFMA…)",
        T::Sfu => "special-function (MUFU)",
        T::Shared => "shared-memory",
        T::Global => "global-memory",
        T::Local => "local-memory",
        T::Constant => "constant-cache load (LDC)",
        T::Texture => "texture/surface",
        T::Control => "control",
    }
}

/// Named settings of the `warp-cfg` mode: the paper's unit costs, and Pascal latencies.
fn warp_cfg_presets() -> Vec<PresetInfo> {
    let t = cfg::LatencyTable::pascal_gp102();
    let mut pascal: BTreeMap<String, serde_json::Value> =
        BTreeMap::from([("cost".to_string(), serde_json::json!("latency"))]);
    for c in cfg::TimingClass::ALL {
        pascal.insert(
            format!("latency_{}", c.name()),
            serde_json::json!(t.latency_of(c)),
        );
    }
    for c in [cfg::TimingClass::DoublePrecision, cfg::TimingClass::Sfu] {
        pascal.insert(
            format!("interval_{}", c.name()),
            serde_json::json!(t.interval_of(c)),
        );
    }
    vec![
        PresetInfo {
            name: "paper-unit".into(),
            source: "Jeanmougin et al. §4.1: every instruction costs one cycle".into(),
            values: BTreeMap::from([("cost".to_string(), serde_json::json!("unit"))]),
        },
        PresetInfo {
            name: "pascal-gp102".into(),
            source: "Pascal GP102 (TITAN X, cc 6.1), one warp in isolation: ALU 6 cycles \
                     (NVIDIA Volta Tuning Guide §1.4.3: dependent FMA issue latency six cycles on \
                     Pascal); FP64 8/8, SFU 20/4, shared 24, L1 82 + L2/ROP 120 + DRAM 100 = 302 \
                     for global/local/constant/texture (GPGPU-Sim tested config SM6_TITANX)"
                .into(),
            values: pascal,
        },
    ]
}

fn numbers(pairs: &[(&str, u64)]) -> BTreeMap<String, serde_json::Value> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), serde_json::json!(v)))
        .collect()
}

fn budget(name: &str, meaning: &str, unit: &str, max: f64, default: usize) -> ParamInfo {
    ParamInfo::number(name, meaning, unit, 1.0, max, default as f64).in_group("budgets")
}

/// Budget parameters every mode accepts (they bound parsing and graph building).
pub(crate) fn budget_params() -> Vec<ParamInfo> {
    let d = isa::Limits::default();
    vec![
        budget(
            "max_input_bytes",
            "largest accepted kernel text",
            "bytes",
            64.0 * 1024.0 * 1024.0,
            d.max_input_bytes,
        ),
        budget(
            "max_instructions",
            "most instructions parsed",
            "instructions",
            10_000_000.0,
            d.max_instructions,
        ),
        budget(
            "max_cfg_states",
            "most (block, reconvergence stack) states explored for SYNC/BRK/RET edges",
            "states",
            100_000_000.0,
            d.max_cfg_states,
        ),
    ]
}

/// The catalogue of this build.
pub fn catalog() -> Catalog {
    let dialects = isa::Dialect::ALL
        .iter()
        .map(|d| DialectInfo {
            name: d.name().into(),
            title: match d {
                isa::Dialect::Sass => "NVIDIA SASS",
                isa::Dialect::Gcn => "AMD GCN3 assembly",
                isa::Dialect::Ptx => "PTX",
                isa::Dialect::Simd => "Sim-D assembly",
                isa::Dialect::Lc => "L/C instruction string",
                isa::Dialect::PwsCsv => "PWS solver graph (CSV)",
            }
            .into(),
            supported: matches!(
                d,
                isa::Dialect::Sass
                    | isa::Dialect::Lc
                    | isa::Dialect::Simd
                    | isa::Dialect::Gcn
                    | isa::Dialect::PwsCsv
                    | isa::Dialect::Ptx
            ),
        })
        .collect();
    Catalog {
        schema_version: SCHEMA_VERSION,
        version: env!("CARGO_PKG_VERSION").into(),
        dialects,
        default_mode: DEFAULT_MODE.into(),
        modes: vec![
            ModeInfo {
                name: DEFAULT_MODE.into(),
                title: "Parse and thread-level CFG".into(),
                description: "Parses the kernel, lists its functions and builds its thread-level \
                          basic-block control-flow graph: fallthrough and taken edges; for SASS \
                          also SYNC/BRK/RET edges to the reconvergence or return point that the \
                          SSY/PBK/CAL stack names; for Sim-D the decoder-injected cpop edges \
                          (§5.2); a PWS solver graph as it is."
                    .into(),
                dialects: ["sass", "ptx", "gcn", "simd", "lc", "pws-csv"]
                    .into_iter()
                    .map(String::from)
                    .collect(),
                params: cfg_params(),
                presets: Vec::new(),
            },
            ModeInfo {
                name: WARP_CFG_MODE.into(),
                title: "Warp-level CFG and WCET (Jeanmougin et al.)".into(),
                description: "Builds the warp-level control-flow graph by abstract interpretation \
                          of the SIMT activation stack (stack graph, thread groups, agreement), \
                          with an edge wherever thread divergence can take the warp, then bounds \
                          the WCET by IPET (ILP solved with branch and bound)."
                    .into(),
                dialects: vec!["sass".into()],
                params: warp_cfg_params(),
                presets: warp_cfg_presets(),
            },
            ModeInfo {
                name: MAKESPAN_MODE.into(),
                title: "Worst-case makespan of warps (Berezovskyi et al.)".into(),
                description: "Worst-case makespan of W warps sharing the load/store units and \
                              CUDA cores of one SM under any work-conserving scheduler: sigma \
                              transformation, pessimistic bound (Eq. 5–7), exact worst case with \
                              a witness schedule, and the estimate T(W, x) (Eq. 42–43). SASS, \
                              PTX, GCN3 and Sim-D kernels are reduced to an L/C string along \
                              their straight-line path (memory accesses L, everything else C)."
                    .into(),
                dialects: vec![
                    "lc".into(),
                    "sass".into(),
                    "ptx".into(),
                    "gcn".into(),
                    "simd".into(),
                ],
                params: makespan_params(),
                presets: vec![
                    PresetInfo {
                        name: "fermi-cc2.0".into(),
                        source: "Fermi compute capability 2.0: 32 CUDA cores and 16 load/store \
                                 units per SM, warps of 32 threads (NVIDIA CUDA C Programming \
                                 Guide, compute capability 2.x; Berezovskyi et al. §3)"
                            .into(),
                        values: numbers(&[("ls_units", 16), ("cores", 32), ("warp_size", 32)]),
                    },
                    PresetInfo {
                        name: "fermi-cc2.1".into(),
                        source: "Fermi compute capability 2.1: 48 CUDA cores and 16 load/store \
                                 units per SM, warps of 32 threads (NVIDIA CUDA C Programming \
                                 Guide, compute capability 2.x; Berezovskyi et al. §3)"
                            .into(),
                        values: numbers(&[("ls_units", 16), ("cores", 48), ("warp_size", 32)]),
                    },
                ],
            },
            ModeInfo {
                name: SIM_MODE.into(),
                title: "Simulate: an observed execution with a divergence stepper".into(),
                description: "Runs the kernel on a cycle-level SIMT simulator for a launch (grid, \
                              block, parameters, global memory): functional semantics, the \
                              activation stack, a warp scheduler, per-class latencies, coalescing \
                              and an optional L1. Shows each warp's issued instructions, the final \
                              memory, and a step-by-step view of one warp's lanes and stack."
                    .into(),
                dialects: vec!["sass".into(), "ptx".into(), "gcn".into(), "lc".into()],
                params: {
                    let mut v = crate::sim_mode::params();
                    v.extend(budget_params());
                    v
                },
                presets: crate::sim_mode::presets(),
            },
            ModeInfo {
                name: RR_MODE.into(),
                title: "PTX analyzer and round-robin timing model (Huangfu)".into(),
                description:
                    "Follows every warp of the launch through the PTX kernel (post-dominator \
                              reconvergence, register values, global addresses), coalesces its \
                              accesses into 128-byte segments, estimates competing SMs over the \
                              memory partitions, optionally classifies accesses with the L1/LLC \
                              cache analyses, and schedules code segments round-robin \
                              (Eq. 5.1–5.7) for the kernel WCET."
                        .into(),
                dialects: vec!["ptx".into()],
                params: {
                    let mut v = crate::rr_mode::params();
                    v.extend(budget_params());
                    v
                },
                presets: crate::rr_mode::presets(),
            },
            ModeInfo {
                name: PWS_MODE.into(),
                title: "Predictable wavefront splitting on GCN3 (Klashtorny et al.)".into(),
                description: "Builds the wavefront CFG of a GCN3 kernel (divergent branches, \
                              branch serialization blocks, reconvergence nodes; loops unrolled) \
                              or reads a split-point solver graph, chooses split points (the \
                              programmer's marks through Select, or the optimal set), prunes the \
                              serialized paths (Alg. 2) and bounds the wavefront and kernel WCET \
                              without splitting, with DWS and with PWS (Lemmas 5.1–5.7)."
                    .into(),
                dialects: vec!["gcn".into(), "pws-csv".into()],
                params: {
                    let mut v = crate::pws_mode::params();
                    v.extend(budget_params());
                    v
                },
                presets: crate::pws_mode::presets(),
            },
            ModeInfo {
                name: SIMD_MODE.into(),
                title: "Phase-based WCET on Sim-D (Spliet & Mullins)".into(),
                description: "Splits the kernel into compute and DRAM/scratchpad access phases \
                              (CFG with control-stack-annotated edges, loops unrolled with the \
                              #bound annotations, critical path), prices them with the in-order \
                              pipeline and the DDR4 timing of Table 1, and bounds the kernel \
                              WCET for both scheduling policies (Eq. 10–19), with the worst-case \
                              schedule of two work-group slots."
                    .into(),
                dialects: vec!["simd".into()],
                params: {
                    let mut v = crate::simd_mode::params();
                    v.extend(budget_params());
                    v
                },
                presets: crate::simd_mode::presets(),
            },
        ],
    }
}

impl Catalog {
    pub fn mode(&self, name: &str) -> Option<&ModeInfo> {
        self.modes.iter().find(|m| m.name == name)
    }
}
