//! The facade: one versioned `Request -> Report` API over every Warpbound analysis.
//!
//! This crate is the contract shared by the `warpbound` CLI (which prints the [`Report`] as
//! JSON) and the wasm module behind the playground (which hands the same structure to the
//! page). It owns the serde types, the catalogue of modes, parameters and presets
//! ([`catalog`]), and the dispatch from a request to the analysis crates.
//!
//! It is *not* where analyses live: it parses parameters, calls into the method crates and
//! shapes their results into report views. It does no I/O.
//!
//! Versioning: [`SCHEMA_VERSION`] changes whenever a field changes meaning or disappears;
//! adding fields does not change it.

pub mod analyze;
pub mod catalog;
mod lc_reduction;
mod makespan_mode;
pub mod params;
mod pws_mode;
pub mod report;
pub mod request;
mod rr_mode;
mod sim_mode;
mod simd_mode;
mod thread_cfg_mode;
pub mod views;
mod warp_mode;

pub use analyze::analyze;
pub use catalog::{catalog, Catalog, ModeInfo, ParamInfo, PresetInfo};
pub use report::{
    CfgEdge, CfgNode, CfgView, CostTerm, InstructionView, KernelView, LoopView, Report,
    WarpCfgDetails, Wcet,
};
pub use request::Request;

/// Version of the request and report JSON shapes.
pub const SCHEMA_VERSION: u32 = 1;
