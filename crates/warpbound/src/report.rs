//! What comes back: the report and its views.
//!
//! Every mode fills the same [`Report`]: diagnostics, the parsed kernel, a control-flow graph
//! with its drawing, and (for bounding modes, as they arrive) `wcet.cycles` plus details under
//! a key named after the mode. Views are flat, JSON-friendly copies of the analysis results;
//! the page renders them and computes nothing of its own.

use isa::{Diagnostic, Dialect, EdgeKind, ResourceClass};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The result of one request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub schema_version: u32,
    pub mode: String,
    pub dialect: Dialect,
    /// Sorted by line, then column; request-level diagnostics (line 0) first.
    pub diagnostics: Vec<Diagnostic>,
    pub kernel: Option<KernelView>,
    pub cfg: Option<CfgView>,
    /// Wall-clock time of each stage, in milliseconds (`parse`, `cfg`, `layout`, `total`).
    pub timings_ms: BTreeMap<String, f64>,
}

impl Report {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// The parsed kernel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KernelView {
    pub function: String,
    /// All functions found in the text (the request may name any of them).
    pub functions: Vec<String>,
    pub arch: Option<String>,
    pub instructions: Vec<InstructionView>,
}

/// One instruction, flattened for tables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InstructionView {
    pub index: usize,
    pub address: u64,
    pub line: u32,
    pub column: u32,
    /// Instruction text as written (guard, opcode, operands).
    pub text: String,
    pub guard: Option<String>,
    /// Full mnemonic with modifiers, e.g. `ISETP.GE.AND`.
    pub opcode: String,
    pub operands: Vec<String>,
    pub reads: Vec<String>,
    pub writes: Vec<String>,
    /// Control-flow kind: `fallthrough`, `branch`, `ssy`, `pbk`, `sync`, `brk`, `exit`, ...
    pub control: String,
    pub target: Option<u64>,
    pub class: ResourceClass,
    /// Block of the CFG holding the instruction (absent when no CFG was built).
    pub block: Option<usize>,
}

/// A control-flow graph and its drawing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CfgView {
    /// `thread` for the basic-block graph of one thread.
    pub kind: String,
    pub entry: usize,
    pub nodes: Vec<CfgNode>,
    pub edges: Vec<CfgEdge>,
    /// Coordinates for drawing, computed here so the page only renders.
    pub layout: layout::Layout,
}

/// One basic block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CfgNode {
    pub id: usize,
    /// Address of the first and last instruction.
    pub start: u64,
    pub end: u64,
    /// Number of instructions.
    pub instructions: usize,
    /// Index of the first and last instruction in `kernel.instructions`.
    pub first: usize,
    pub last: usize,
    /// Source lines of the first and last instruction.
    pub line_start: u32,
    pub line_end: u32,
    pub reachable: bool,
    /// Text lines to show in the node.
    pub label: Vec<String>,
}

/// One edge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CfgEdge {
    pub from: usize,
    pub to: usize,
    pub kind: EdgeKind,
}
