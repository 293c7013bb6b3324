//! What a caller asks for.

use crate::dialect::Dialect;
use crate::memory_init::MemoryInit;
use crate::schema::SCHEMA_VERSION;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use ts_rs::TS;

/// One analysis request: the kernel text, which function of it, which analysis mode with
/// which hardware preset and parameter overrides. The page and `warpbound analyze --request`
/// send exactly this JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// Absent: the current version (so TypeScript declares it optional).
    #[serde(default = "current_version")]
    #[ts(as = "Option<u32>", optional)]
    pub schema_version: u32,
    /// The pasted kernel text.
    pub source: String,
    /// Absent: SASS.
    #[serde(default = "default_dialect")]
    #[ts(as = "Option<Dialect>", optional)]
    pub dialect: Dialect,
    /// Function to analyse when the text holds several; default the first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
    /// Analysis mode (see [`crate::catalog`]); absent means `cfg`: parse and build the
    /// thread-level control-flow graph.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// Named hardware preset of the mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// Parameter overrides, `name → value` (numbers or strings).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, serde_json::Value>,
    /// Loop bounds by loop-header address (`"0x18"` or `"24"`): the header executes at most
    /// N times per entry into the loop.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub loop_bounds: BTreeMap<String, u64>,
    /// Global memory for the simulator (`simulate` mode, or `simulate=true`): named arrays
    /// with their fill; when absent, the `memory` text parameter is used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub memory: Option<MemoryInit>,
    /// Record wall-clock timings in `report.timings_ms` (default). Without them the report is
    /// a pure function of the request: byte-identical natively and in wasm.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub timings: bool,
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

fn current_version() -> u32 {
    SCHEMA_VERSION
}

fn default_dialect() -> Dialect {
    Dialect::Sass
}

impl Request {
    /// The dialect as the parsers and method crates name it.
    pub(crate) fn parser_dialect(&self) -> isa::Dialect {
        self.dialect.into()
    }

    /// A request with defaults for everything but the text.
    pub fn new(source: impl Into<String>, dialect: impl Into<Dialect>) -> Self {
        Request {
            schema_version: SCHEMA_VERSION,
            source: source.into(),
            dialect: dialect.into(),
            function: None,
            mode: None,
            preset: None,
            params: BTreeMap::new(),
            loop_bounds: BTreeMap::new(),
            memory: None,
            timings: true,
        }
    }
}
