//! The `pws` mode's parameters: the catalogue entry (split choice, block costs, launch,
//! hardware, budgets, the simulator's splitting and launch), the crate's hardware presets,
//! and their decoding ([`PwsParams`]; moved out of `pws.rs`, which keeps the analysis).

use crate::catalog::{ModeInfo, ParamInfo, PresetInfo};
use crate::mode::ModeInput;
use crate::params::{limits, LoopBounds, Params};
use crate::simulator::{self, SimRequest, SimRun};
use isa::{Diagnostic, Severity};
use std::collections::BTreeMap;

/// The hardware fields as `(parameter, meaning, minimum, maximum, value)`; `S` is separate
/// (ungrouped: the parameter users change most).
fn hardware_fields(h: &pws::Hardware) -> [(&'static str, &'static str, f64, f64, u64); 7] {
    [
        ("n_cu", "N_CU: compute units", 1.0, 1e4, h.n_cu),
        ("n_simd", "N_SIMD: SIMD units per CU", 1.0, 1e3, h.n_simd),
        (
            "n_wfc",
            "N_WFC: wavefront contexts per SIMD",
            1.0,
            1e3,
            h.n_wfc,
        ),
        (
            "n_wiwf",
            "N_WIWF: work-items per wavefront",
            1.0,
            1e4,
            h.n_wiwf,
        ),
        (
            "d",
            "d: worst-case wavefront initialisation delay",
            0.0,
            1e9,
            h.d,
        ),
        ("e_s", "e_s: worst-case delay of one split", 0.0, 1e9, h.e_s),
        ("e_m", "e_m: worst-case delay of one merge", 0.0, 1e9, h.e_m),
    ]
}

/// Parameters of the mode. Hardware defaults: the `gem5-gcn3` preset.
pub(super) fn describe() -> ModeInfo {
    let h = pws::Hardware::gem5_gcn3();
    let launch = pws::Launch::default();
    let b = pws::Budget::default();
    let budget = |name: &str, meaning: &str, default: usize| {
        ParamInfo::number(name, meaning, "", 1.0, 1e9, default as f64).in_group("budgets")
    };
    let mut v = vec![
        ParamInfo::choice(
            "split",
            "split points: none; marked = the programmer's marks filtered by Select (Alg. 1, the paper's method); optimal = the set minimising E_WF within S contexts",
            &["none", "marked", "optimal"],
            "optimal",
        ),
        ParamInfo::number(
            "S",
            "SpSIMD units (split-wavefront contexts) per wavefront",
            "contexts",
            0.0,
            64.0,
            f64::from(h.s),
        ),
        ParamInfo::text(
            "marks",
            "node ids marked for splitting besides `split` instructions (comma-separated; click branch nodes in the graph)",
            "",
        ),
        ParamInfo::choice(
            "cost",
            "block costs (GCN input): latency = gem5 GCN3 per-instruction latencies, unit = one per instruction, per-block = the block_costs table",
            &["latency", "unit", "per-block"],
            "latency",
        ),
        ParamInfo::text(
            "block_costs",
            "cost=per-block: `label,cost` pairs separated by `;` (e.g. BB0_1,120;BB0_2,40)",
            "",
        ),
        ParamInfo::number(
            "default_loop_bound",
            "loops are unrolled before Select/Prune: iterations of loops neither the code (scalar counters, inferred for the launch) nor loop_bounds (keyed by header label) bounds, each reported as an assumption; 0 = every such loop needs one",
            "iterations",
            0.0,
            1e6,
            10.0,
        ),
        ParamInfo::number(
            "workgroups",
            "G: workgroups of the launch",
            "workgroups",
            1.0,
            1e9,
            launch.workgroups as f64,
        ),
        ParamInfo::number(
            "work_items_per_group",
            "N_WIWG: work-items per workgroup",
            "work-items",
            1.0,
            1e6,
            launch.work_items_per_group as f64,
        ),
    ];
    for (name, meaning, min, max, default) in hardware_fields(&h) {
        let unit = match name {
            "n_cu" => "CUs",
            "n_simd" => "SIMDs",
            "n_wfc" => "contexts",
            "n_wiwf" => "work-items",
            _ => "cycles",
        };
        v.push(
            ParamInfo::number(name, meaning, unit, min, max, default as f64).in_group("hardware"),
        );
    }
    v.extend([
        budget(
            "max_unrolled_nodes",
            "most wavefront-CFG nodes after unrolling",
            b.max_unrolled_nodes,
        ),
        budget("max_tree_items", "most branch-tree items", b.max_tree_items),
        budget("max_nesting", "deepest branch nesting followed", b.max_nesting),
        budget(
            "max_pareto_points",
            "most Pareto points of the optimal split selection",
            b.max_pareto_points,
        ),
        budget(
            "max_timeline_intervals",
            "most intervals of a dispatch timeline",
            b.max_timeline_intervals,
        ),
        ParamInfo::flag(
            "simulate",
            "also run the simulator on the GCN3 kernel (gem5's SIMD for cost=latency, one cycle per instruction for cost=unit) and show observed vs E_WF for one wavefront",
            false,
        ),
        ParamInfo::choice(
            "sim_splitting",
            "splitting in the simulator: none, DWS (split at every divergent branch while a context is free) or PWS (split at the kernel's `split` instructions); S, e_s and e_m as above",
            &["none", "dws", "pws"],
            "none",
        )
        .in_group("simulation"),
    ]);
    v.extend(simulator::launch_params().into_iter().map(|mut x| {
        x = crate::shared_allowance::beside_analysis(x);
        if x.name == "block" {
            x.default = serde_json::json!("64,1,1");
            x.meaning = "block dimensions X,Y,Z (work-items; 64 = one wavefront)".into();
        } else if x.name == "params" {
            x.meaning = "kernel arguments as 32-bit words from the kernarg segment's start (a 64-bit pointer is two words, low first)".into();
        }
        x
    }));
    v.extend(crate::kernel_occupancy::params(false));
    v.extend(limits::params());
    ModeInfo {
        name: String::new(),
        aliases: Vec::new(),
        title: "Predictable wavefront splitting on GCN3 (Klashtorny et al.)".into(),
        description: "Builds the wavefront CFG of a GCN3 kernel (divergent branches, \
                      branch serialization blocks, reconvergence nodes; loops unrolled) \
                      or reads a split-point solver graph, chooses split points (the \
                      programmer's marks through Select, or the optimal set), prunes the \
                      serialized paths (Alg. 2) and bounds the wavefront and kernel WCET \
                      without splitting, with DWS and with PWS (Lemmas 5.1–5.7)."
            .into(),
        dialects: vec!["gcn".into(), "pws-csv".into()],
        params: v,
        presets: presets(),
        default_presets: BTreeMap::new(),
    }
}

/// The crate's hardware presets (`pws::presets`), as parameter values.
fn presets() -> Vec<PresetInfo> {
    pws::presets()
        .into_iter()
        .map(|p| {
            let h = p.hardware;
            let mut values: BTreeMap<String, serde_json::Value> = hardware_fields(&h)
                .into_iter()
                .map(|(name, _, _, _, v)| (name.to_string(), serde_json::json!(v)))
                .collect();
            values.insert("S".to_string(), serde_json::json!(h.s));
            PresetInfo {
                name: p.name.into(),
                source: p.source.into(),
                values,
            }
        })
        .collect()
}

/// The simulator's splitting (`sim_splitting`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum SimSplitting {
    None,
    Dws,
    Pws,
}

/// The mode's parameters, decoded once. Values only some inputs need are kept with their
/// error, which is reported where they are used (a CSV graph has no block costs to read).
pub(super) struct PwsParams {
    /// The `cost` choice, for the report's cost-model text.
    pub(super) cost_name: String,
    pub(super) cost: Result<pws::CostModel, Diagnostic>,
    pub(super) loop_bounds: LoopBounds,
    pub(super) hardware: pws::Hardware,
    pub(super) options: pws::Options,
    pub(super) marks: Result<Vec<usize>, Diagnostic>,
    /// No marks besides the kernel's own `split` instructions.
    pub(super) own_marks_only: bool,
    pub(super) simulate: SimRequest,
    pub(super) sim_splitting: SimSplitting,
    /// The occupancy's overrides (`registers`; `shared_bytes` adds dynamic LDS).
    pub(super) occupancy: crate::kernel_occupancy::OccupancyParams,
}

impl PwsParams {
    pub(super) fn decode(input: &ModeInput) -> Result<Self, Diagnostic> {
        let p = input.params;
        let cost_name = p.text("cost")?.to_string();
        let block_costs = p.text("block_costs")?;
        let cost = match cost_name.as_str() {
            "unit" => Ok(pws::CostModel::Unit),
            "per-block" => pws::parse_block_costs(&block_costs.replace(';', "\n"))
                .map(|costs| pws::CostModel::PerBlock { costs })
                .map_err(|e| {
                    Diagnostic::global(
                        Severity::Error,
                        format!("parameter `block_costs`: {}", e.diagnostic.message),
                    )
                }),
            _ => Ok(pws::CostModel::default()),
        };
        let split = p.text("split")?;
        Ok(PwsParams {
            cost,
            loop_bounds: LoopBounds::decode(
                &input.request.loop_bounds,
                p.u64("default_loop_bound")?,
            ),
            hardware: hardware(p)?,
            options: pws::Options {
                mode: match split {
                    "none" => pws::SplitMode::None,
                    "marked" => pws::SplitMode::Marked,
                    _ => pws::SplitMode::Optimal,
                },
                launch: pws::Launch {
                    workgroups: p.u64("workgroups")?,
                    work_items_per_group: p.u64("work_items_per_group")?,
                },
                marked: Vec::new(),
                budget: pws::Budget {
                    max_unrolled_nodes: p.usize("max_unrolled_nodes")?,
                    max_tree_items: p.usize("max_tree_items")?,
                    max_nesting: p.usize("max_nesting")?,
                    max_pareto_points: p.usize("max_pareto_points")?,
                    max_timeline_intervals: p.usize("max_timeline_intervals")?,
                },
            },
            marks: p
                .numbers("marks", 0, usize::MAX)
                .map(|v| v.into_iter().map(|x| x as usize).collect()),
            own_marks_only: split == "marked" && p.text("marks")?.trim().is_empty(),
            simulate: SimRequest::decode(p, input.request.memory.as_ref(), SimRun::decode)?,
            sim_splitting: match p.text("sim_splitting")? {
                "dws" => SimSplitting::Dws,
                "pws" => SimSplitting::Pws,
                _ => SimSplitting::None,
            },
            occupancy: crate::kernel_occupancy::OccupancyParams::decode(p, false)?,
            cost_name,
        })
    }
}

fn hardware(p: &Params) -> Result<pws::Hardware, Diagnostic> {
    Ok(pws::Hardware {
        n_cu: p.u64("n_cu")?,
        n_simd: p.u64("n_simd")?,
        n_wfc: p.u64("n_wfc")?,
        n_wiwf: p.u64("n_wiwf")?,
        s: p.u32("S")?,
        d: p.u64("d")?,
        e_s: p.u64("e_s")?,
        e_m: p.u64("e_m")?,
    })
}
