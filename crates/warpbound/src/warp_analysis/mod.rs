//! The warp-level analysis the `warp-cfg` and `block` modes share (a mode never imports
//! another: both ask this module): their parameters and cost models ([`parameters`]), a SASS
//! kernel read for the analysis with the targets of its indirect calls and branches
//! ([`indirect`]), its warp-level CFG (crate `cfg`) bounded by IPET (crate `ipet`)
//! ([`sass`]), the IPET plumbing the PTX reading of `warp-cfg` uses too ([`ipet_bound`],
//! [`shared_loops`]), and the SASS loop bounds inferred from the code or observed in a run
//! ([`loop_bounds`]), and a thread block's size ([`thread_block`]).

mod indirect;
pub(crate) mod ipet_bound;
mod loop_bounds;
mod parameters;
mod sass;
pub(crate) mod shared_loops;
pub(crate) mod thread_block;

pub(crate) use loop_bounds::{apply_runs, infer_sass, observe_bounds, raise_defaults_to_observed};
pub(crate) use parameters::{params, presets, Cost, WarpCfgParams};
pub(crate) use sass::{bound, bound_with_extras, parse_sass, ParsedSass};
