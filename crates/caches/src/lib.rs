//! Huangfu's cache analyses (PhD thesis, 2017): the L1 bypass heuristic (Ch. 3, Eq. 3.1),
//! reuse distance (§6.3, Table 5), worst-case L1 misses under warp-based load/store
//! reordering (Ch. 4, §4.4.5–4.4.6), and the shared last-level cache Simple and Access
//! Interval methods (Ch. 6, Figs. 31, 33, 34), with the hit/miss levels that feed the
//! round-robin timing model's memory latency (§6.5).
//!
//! What this crate *is*: pure functions over address traces (line numbers in a known order
//! per SM or core) and an LRU model. What it is *not*: it does not compute addresses — the
//! kernel analyzer in the `roundrobin` crate produces the traces — and it knows no timing
//! beyond the three level latencies.
//!
//! Invariants: no I/O, no panics on any input, deterministic (ordered maps only), and every
//! potentially large computation takes an explicit budget whose error names it.

pub mod bypass;
pub mod l1_reorder;
pub mod levels;
pub mod lru;
pub mod reuse_distance;
pub mod shared_llc;

pub use bypass::{should_bypass, LineUse, LoadTransaction, SmBypass};
pub use l1_reorder::{
    AccessKind, AccessOrder, L1Estimate, LineOutcome, MemoryAccess, OrderedAccess, StorePolicy,
    WarpAccesses,
};
pub use levels::{access_level, LevelLatencies, MemoryLevel};
pub use lru::{CacheGeometry, LruCache};
pub use reuse_distance::{reuse_distances, reuse_distances_in_sets};
pub use shared_llc::{LlcMethod, LlcOutcome, LlcResult, Position};
