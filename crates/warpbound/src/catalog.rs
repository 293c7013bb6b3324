//! The self-description of the API: dialects, modes, their parameters and presets.
//!
//! The page builds its forms from this (no parameter is hard-coded in the frontend) and the
//! CLI validates `--mode`, `--preset` and `--set` against it.

use crate::SCHEMA_VERSION;
use serde::{Deserialize, Serialize};

/// One tunable of a mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParamInfo {
    pub name: String,
    pub meaning: String,
    pub unit: String,
    pub min: f64,
    pub max: f64,
    pub default: f64,
}

/// A named set of hardware parameters, with where its numbers come from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PresetInfo {
    pub name: String,
    pub source: String,
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

fn budget(name: &str, meaning: &str, unit: &str, max: f64, default: usize) -> ParamInfo {
    ParamInfo {
        name: name.into(),
        meaning: meaning.into(),
        unit: unit.into(),
        min: 1.0,
        max,
        default: default as f64,
    }
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
            }
            .into(),
            supported: matches!(d, isa::Dialect::Sass),
        })
        .collect();
    Catalog {
        schema_version: SCHEMA_VERSION,
        version: env!("CARGO_PKG_VERSION").into(),
        dialects,
        default_mode: DEFAULT_MODE.into(),
        modes: vec![ModeInfo {
            name: DEFAULT_MODE.into(),
            title: "Parse and thread-level CFG".into(),
            description: "Parses the kernel and builds its thread-level basic-block control-flow \
                          graph: fallthrough and taken edges, SYNC/BRK/RET edges to the \
                          reconvergence or return point that the SSY/PBK/CAL stack names."
                .into(),
            dialects: vec!["sass".into()],
            params: budget_params(),
            presets: Vec::new(),
        }],
    }
}

impl Catalog {
    pub fn mode(&self, name: &str) -> Option<&ModeInfo> {
        self.modes.iter().find(|m| m.name == name)
    }
}
