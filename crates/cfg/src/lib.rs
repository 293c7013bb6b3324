//! Warp-level control-flow graphs of SASS kernels by abstract interpretation, after
//! Jeanmougin, Carle, Sotin, Rochange, *Warp-Level CFG Construction for GPU Kernel WCET
//! Analysis* (WCET 2023).
//!
//! What this crate is: the SIMT activation-stack semantics of Fermi–Pascal (§2) as a concrete
//! executor ([`concrete`], the oracle, on the [`activation_stack`] the simulator also runs),
//! and its abstraction (§3): the stack-graph domain with pop and filter, the thread-group
//! relations domain, the per-group agreement domain with strong and weak updates, and
//! Algorithm 1's condition management, explored to a fixpoint into a [`WarpCfg`] whose edges
//! say where thread divergence can take the warp.
//!
//! What it is not: it computes no times (see the `ipet` crate) and reads no text (see `isa`).
//!
//! Beyond the paper: `CAL`/`RET` are handled context-sensitively by pushing a `CALL`
//! activation point that `RET` unwinds to (as `BRK` to `PBK`), so a subroutine's blocks are
//! duplicated per call site; `BAR` ends a block; a `BRX` whose candidate targets are known
//! is a multi-way divergent branch ([`indirect`]), without them a located "unsupported" error.

pub mod activation_stack;
pub mod analysis;
pub mod barriers;
pub mod concrete;
pub mod consts;
pub mod control;
pub mod groups;
pub mod indirect;
pub mod interleaving;
pub mod latency;
pub mod options;
pub mod ptx;
pub mod regset;
pub mod spin;
pub mod state;
pub mod thread_groups;
pub mod transfer;
pub mod verify;
pub mod warp_cfg;

pub use analysis::{build, build_observed};
pub use latency::{LatencyTable, TimingClass};
pub use options::Options;
pub use state::{Entry, Point, Tag};
pub use warp_cfg::{Resumption, WarpCfg, WarpEdge, WarpEdgeKind, WarpNode};
