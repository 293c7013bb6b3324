//! Huangfu's PTX kernel analyzer and pure round-robin WCET timing model (PhD thesis, VCU
//! 2017, Ch. 4–5), with the coalescing and competing-SM estimates it needs and, through the
//! `caches` crate, the cache-aware memory latencies of Ch. 6.
//!
//! What this crate *is*: given a PTX kernel ([`isa::ptx::Function`]), its launch
//! ([`Launch`]: grid, block, parameter values) and an architecture [`Config`], it
//!
//! 1. runs every warp through the CFG with a post-dominator reconvergence stack, tracking
//!    register values and global addresses (Alg. 1–4, [`analyzer`]);
//! 2. coalesces addresses into 128-byte segments (Alg. 5, [`coalescing`]) and estimates the
//!    maximal/average coalesced accesses (Table 2) and competing SMs (Alg. 6,
//!    [`competing`]);
//! 3. cuts the code into segments with issue/execution latencies (Eq. 5.4–5.7,
//!    [`code_segments`]), schedules them round-robin (Eq. 5.1–5.3, [`schedule`]) and reports
//!    the WCET, a Gantt chart and per-warp traces ([`report::RrResult`]).
//!
//! What it is *not*: a simulator. Values loaded from memory are unknown. Kernels whose
//! branches or addresses depend on them are rejected with a located diagnostic, as the
//! thesis's analyzer does (§4.4.6.1, [`UnknownData::Refuse`], the default of the presets),
//! or, with [`UnknownData::Pessimistic`], paid for in the worst case: both sides of such a
//! branch, loops bounded by [`LoopBounds`], one transaction per thread for such an address
//! ([`both_sides`]), each listed in [`RrResult::assumptions`]. The `max` mode is the safe
//! bound of §5.3.3.3; the `avg` mode is an estimate and is labelled as such.
//!
//! Invariants: pure (no I/O, clocks or randomness), deterministic (ordered maps only), no
//! panics on any input, and every potentially large computation bounded by a named budget
//! ([`config::Budgets`]).

pub mod analyzer;
pub mod both_sides;
pub mod coalescing;
pub mod code_segments;
pub mod competing;
pub mod config;
pub mod control_flow;
mod decoded;
pub mod launch;
pub mod loops;
mod model;
pub mod presets;
pub mod report;
pub mod schedule;
mod semantics;

pub use config::{
    Budgets, CacheConfig, Config, LoopBounds, Mode, Overrides, Segmentation, TimingParams,
    UnknownData,
};
pub use launch::{Dim3, Launch, ParamValue};
pub use model::{analyze, analyze_observed};
pub use report::RrResult;
