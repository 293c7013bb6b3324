//! Worst-case makespan of GPU warps on one streaming multiprocessor, after Berezovskyi,
//! Bletsas and Andersson, "Makespan Computation for GPU Threads Running on a Single
//! Streaming Multiprocessor" (ECRTS 2012).
//!
//! **What is computed.** `W` identical warps run the same straight-line kernel, abstracted to
//! a string over `L` (load/store unit) and `C` (CUDA core) instructions (§3) — the IR's
//! `isa::lc::LcOp`, parsed by `isa::lc`. Scheduling is work-conserving (§2) but otherwise
//! unknown, so the *worst-case makespan* — cycles until the last warp finishes, maximised
//! over every work-conserving schedule — is what a timing analysis needs (not any single
//! thread's WCET).
//!
//! **Pipeline.**
//! 1. [`transform`] (§3, Fig. 1): split every instruction into sub-warp instructions so that
//!    all take one cycle and the per-cycle warp capacities `σ_L`, `σ_C` are integers.
//! 2. [`pessimistic`] (§4, Eq. 5–7): a closed-form bound, `O(1)`; [`safe_bound`] is a
//!    variant that stays valid for `σ > 1`.
//! 3. [`exact`]: the exact worst case by memoised search over multisets of warp progress, with
//!    a witness [`Schedule`] — the default exact method.
//! 4. [`exact_ilp`] / [`solve_ilp`] (§5, Fig. 3): the paper's binary ILP, short or long
//!    work-conserving constraints ([`IlpVariant`]), solved by a propagating branch and
//!    bound with a residual-program cache (or, for tiny instances, LP-based branch and
//!    bound: [`IlpSolver`]) — the independent cross-check of (3), equal to it on every
//!    instance up to 4 warps and 6 instructions; [`IlpModel::lp_text`] writes it as a
//!    CPLEX LP file for other solvers.
//! 5. [`estimate`] / [`estimate_curve`] (§5.6, Eq. 42–43): `min_y ⌈W/y⌉·T(y)` from exact
//!    values for few warps (Figs. 6 and 7). Note: despite the paper's claim this is *not*
//!    always an upper bound (see [`estimate`]'s module docs for a counterexample).
//!
//! **Guarantees.** No panics on any input (errors are [`Error`] values; a [`Budget`] caps the
//! work of the exact methods), no threads, clocks, I/O or randomness: the crate runs
//! unchanged on `wasm32-unknown-unknown` and gives the same answer every time.

mod bounds;
mod estimate;
mod exact;
mod ilp;
mod lp_text;
mod model;
mod presets;
mod schedule;

pub use bounds::{pessimistic, safe_bound};
pub use estimate::{
    estimate, estimate_curve, estimate_curve_partial, estimate_curve_partial_observed,
    estimate_observed, Estimate,
};
pub use exact::{exact, exact_makespan, exact_observed, SearchStats};
pub use ilp::{
    build_ilp, exact_ilp, solve_ilp, solve_ilp_observed, IlpModel, IlpSolver, IlpStats, IlpVariant,
};
pub use model::{sigma_factor, transform, Error, Machine, Transformed, Unit, MAX_TRANSFORMED_LEN};
pub use presets::{preset, presets, MachinePreset};
pub use schedule::{Budget, Schedule, Slot};
