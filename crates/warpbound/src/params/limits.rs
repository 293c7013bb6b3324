//! The budgets every mode shares: the limits of parsing and thread-level graph building
//! (`isa::Limits`), as request parameters.

use super::Params;
use crate::catalog::ParamInfo;
use isa::{Diagnostic, Limits};

/// A budget parameter (form fold `budgets`): at least 1, at most `max`.
pub fn budget(name: &str, meaning: &str, unit: &str, max: f64, default: usize) -> ParamInfo {
    ParamInfo::number(name, meaning, unit, 1.0, max, default as f64).in_group("budgets")
}

/// `max_input_bytes`, `max_instructions` and `max_cfg_states`, which every mode declares
/// (they bound parsing and graph building, whatever the mode does next).
pub fn params() -> Vec<ParamInfo> {
    let d = Limits::default();
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

/// The limits a request sets.
pub fn decode(p: &Params) -> Result<Limits, Diagnostic> {
    Ok(Limits {
        max_input_bytes: p.usize("max_input_bytes")?,
        max_instructions: p.usize("max_instructions")?,
        max_cfg_states: p.usize("max_cfg_states")?,
    })
}
