//! Predictable wavefront splitting (PWS) on GCN3 — Klashtorny et al., *Predictable
//! Wavefront Splitting*: the wavefront CFG with branch serialisation blocks, Select
//! (Alg. 1) and Prune (Alg. 2), the wavefront WCET (Lemma 5.1), the kernel WCET for no
//! splitting, dynamic wavefront splitting (Lemma 5.7) and PWS (Lemma 5.5), plus an exact
//! optimal split selection, which the paper leaves open.
//!
//! What this crate *is*: pure analysis. Inputs are a wavefront CFG — built from a parsed
//! GCN3 function ([`from_gcn::build_from_gcn`], with loops unrolled by [`unroll`]) or read
//! from the CSV format of the paper's public split-point solver ([`csv::read_csv`]) — and
//! [`Hardware`]/[`Launch`] parameters; the output is one serialisable [`PwsResult`] from
//! [`analyze`].
//!
//! What it is *not*: a timing model of GCN3. Block costs are inputs (a latency table
//! derived from gem5's defaults, per-block values, or unit cost, see [`block_cost`]); no
//! caches, memory interference or scheduling are modelled beyond the paper's lemmas. It
//! does no I/O, uses no clocks or randomness, and never panics on input: every problem is
//! an [`Error`] carrying a located [`isa::Diagnostic`], and everything that can grow is
//! bounded by a [`Budget`].

pub mod analyze;
pub mod block_cost;
pub mod budget;
pub mod csv;
pub mod error;
pub mod from_gcn;
pub mod graph;
pub mod hardware;
pub mod kernel;
pub mod optimal;
pub mod prune;
pub mod select;
pub mod structure;
pub mod timeline;
pub mod unroll;
pub mod wcet;

pub use analyze::{
    analyze, analyze_observed, Candidate, NodeReport, Options, PerModel, PwsResult, SplitMode,
    SplitSets,
};
pub use block_cost::{parse_block_costs, CostModel, LatencyTable};
pub use budget::Budget;
pub use csv::{read_csv, write_csv};
pub use error::{Error, ErrorKind};
pub use from_gcn::{
    build_from_gcn, build_from_gcn_program, build_from_gcn_program_observed, GcnGraph,
    GcnGraphOptions,
};
pub use graph::{LineRange, Node, NodeKind, WavefrontCfg};
pub use hardware::{presets, Hardware, HardwarePreset, Launch};
pub use kernel::KernelBound;
pub use structure::{BranchShape, Item, Split, Structure};
pub use timeline::{Interval, IntervalKind, Timeline};
pub use unroll::{unroll, unroll_observed, LoopBounds, UnrolledLoop};
