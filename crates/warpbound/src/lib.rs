//! The facade: one versioned `Request -> Report` API over every Warpbound analysis.
//!
//! This crate is the contract shared by the `warpbound` CLI (which prints the [`Report`] as
//! JSON) and the wasm module behind the playground (which hands the same structure to the
//! page). It owns the serde types, the catalogue of modes, parameters and presets
//! ([`catalog()`]), and the way from a request to the analysis crates.
//!
//! It is *not* where analyses live: it reads parameters, calls into the method crates and
//! shapes their results into report views. It does no I/O.
//!
//! Layout, leaves first (no module imports one that imports it back):
//! - [`catalog`], [`report`], [`request`]: the serde shapes of the API, and `schema`: their
//!   version;
//! - [`params`]: a request's parameters resolved with their provenance, the one number
//!   reader, loop bounds, the shared budgets;
//! - [`views`]: instruction tables, graph drawings, Gantt charts, plots;
//! - `kernel_text`: each dialect parsed and its function chosen the same way for every mode;
//! - `simulator`: the simulator's parameters and runs, for the `simulate` mode and for
//!   `simulate=true` next to a bound;
//! - `loop_inference`: the launch a request describes, for the `loopbound` crate's inferred
//!   loop bounds, and the check of observed counts against them;
//! - `lc_reduction`: real kernels reduced to the L/C strings of the makespan model (the
//!   `makespan` and `block` modes);
//! - `warp_analysis`: the warp-level analysis the `warp-cfg` and `block` modes share
//!   (parameters and cost models, SASS indirect targets, the warp-level CFG and its IPET
//!   bound, SASS loop bounds);
//! - `mode`: what a mode is ([`mode::Mode`]: name, description, `run`) and returns;
//! - `modes`: one module per mode and the table [`modes::ALL`]; a mode never imports another
//!   (what modes share is in the modules above);
//! - [`analyze()`]: validation, parameter resolution, running the mode, assembling the
//!   report; [`analyze_with_progress()`] the same, telling an observer how long work goes
//!   ([`Progress`]).
//!
//! Versioning: [`SCHEMA_VERSION`] changes whenever a field changes meaning or disappears;
//! adding fields does not change it.

pub mod analyze;
pub mod auto_memory;
pub mod catalog;
mod context;
pub mod dialect;
mod gcn_launch;
mod kernel_occupancy;
mod kernel_text;
mod lc_reduction;
mod loop_inference;
pub mod memory_init;
pub mod mode;
pub mod modes;
pub mod observed_loops;
pub mod opcode_docs;
pub mod params;
mod ptx_launch;
pub mod report;
pub mod request;
mod schema;
mod shared_allowance;
mod simulator;
pub mod typescript;
pub mod views;
mod warp_analysis;

pub use analyze::{analyze, analyze_with_progress};
pub use catalog::{Catalog, ModeInfo, ParamInfo, PresetInfo};
pub use dialect::Dialect;
pub use isa::dialect_guess;
pub use isa::progress::{Progress, Task};
pub use memory_init::MemoryInit;
pub use modes::catalog;
pub use opcode_docs::{opcode_doc, opcode_tables, OpcodeDoc, OpcodeTable};
pub use report::{
    BlockDetails, CfgEdge, CfgNode, CfgView, CostTerm, Details, InstructionView, KernelView,
    LoopView, ParamSource, Report, ResolvedParam, SimBound, SimdDetails, SimulationReport,
    WarpCfgDetails, Wcet,
};
pub use request::Request;
pub use schema::SCHEMA_VERSION;
pub use views::diagnostics::{Diagnostic, Severity, Stage};
