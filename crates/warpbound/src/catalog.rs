//! The shapes of the API's self-description: dialects, modes, their parameters and presets.
//!
//! The page builds its forms from a [`Catalog`] (no parameter is hard-coded in the frontend)
//! and the CLI validates `--mode`, `--preset` and `--set` against it.
//!
//! This module holds the types only and imports nothing of the modes: each mode describes
//! itself (`crate::modes`), and [`crate::modes::catalog`] gathers the descriptions. That
//! keeps the dependency one way — modes → catalogue types — so a mode can be added without
//! touching this file.

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
    /// For a choice, its values; for a text parameter, common values a form may suggest
    /// (any other valid text is accepted too).
    pub choices: Vec<String>,
    /// Fold the parameter belongs to in a form (`""`: always shown; `"budgets"`, …), so the
    /// page can keep rarely changed numbers out of the way without knowing their names.
    #[serde(default)]
    pub group: String,
}

impl ParamInfo {
    /// A number parameter: `default` must lie within `min..=max` (a test checks every mode).
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

    /// A text parameter whose format `meaning` explains (the mode checks it when decoding).
    pub fn text(name: &str, meaning: &str, default: &str) -> Self {
        ParamInfo {
            kind: ParamKind::Text,
            default: serde_json::json!(default),
            ..ParamInfo::number(name, meaning, "", 0.0, 0.0, 0.0)
        }
    }

    /// The same text parameter with values a form suggests (others stay valid).
    pub fn suggesting(mut self, values: &[&str]) -> Self {
        self.choices = values.iter().map(|v| v.to_string()).collect();
        self
    }

    /// The same parameter in form fold `group`.
    pub fn in_group(mut self, group: &str) -> Self {
        self.group = group.into();
        self
    }

    /// An on/off parameter.
    pub fn flag(name: &str, meaning: &str, default: bool) -> Self {
        ParamInfo {
            kind: ParamKind::Flag,
            min: 0.0,
            max: 1.0,
            default: serde_json::json!(default),
            ..ParamInfo::number(name, meaning, "", 0.0, 1.0, 0.0)
        }
    }

    /// A parameter that takes one of `choices`.
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
    /// client can show the effective numbers. Read from the method crate that owns the
    /// hardware description, never restated here.
    pub values: BTreeMap<String, serde_json::Value>,
}

/// One analysis mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModeInfo {
    pub name: String,
    /// Former names still accepted wherever a mode is named (requests, `--mode`, saved
    /// links), so renaming a mode breaks nobody's links.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    pub title: String,
    pub description: String,
    /// Dialects the mode accepts.
    pub dialects: Vec<String>,
    pub params: Vec<ParamInfo>,
    pub presets: Vec<PresetInfo>,
    /// The preset applied when a request names none, per dialect (e.g. the simulator's
    /// `gcn3` machine for GCN3 kernels); dialects not listed start from the defaults.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub default_presets: BTreeMap<String, String>,
}

impl ModeInfo {
    /// Whether `name` names this mode, by its name or a former one.
    pub fn answers_to(&self, name: &str) -> bool {
        self.name == name || self.aliases.iter().any(|a| a == name)
    }

    /// The preset a request gets: the one it names, else the mode's default for `dialect`.
    pub fn preset_for(&self, named: Option<&str>, dialect: &str) -> Option<&PresetInfo> {
        let name = named.or_else(|| self.default_presets.get(dialect).map(String::as_str))?;
        self.presets.iter().find(|p| p.name == name)
    }
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

impl Catalog {
    /// The mode `name` names, by its name or an alias.
    pub fn mode(&self, name: &str) -> Option<&ModeInfo> {
        self.modes.iter().find(|m| m.answers_to(name))
    }
}
