//! Warp-level CFGs of PTX functions (beyond the paper, which reads SASS): PTX has no
//! reconvergence instructions, so the divergence of each branch comes from a divergence
//! analysis ([`divergence`]) and the reconvergence from the post-dominator stack
//! ([`pdom`]). The result is the same [`crate::WarpCfg`] the SASS analysis builds, so IPET,
//! the graph view and the report read both alike.
//!
//! What it is not: a model of Volta-and-later independent thread scheduling (see
//! [`crate::barriers`] for SASS), nor of calls: a `call` is one instruction here, and the
//! caller of [`build`] adds the callee's own bound.

pub mod divergence;
pub mod pdom;
pub mod reads_writes;

pub use divergence::Divergence;

use crate::{Options, WarpCfg};
use isa::flow::FlowGraph;
use isa::progress::{self, Observer};
use isa::ptx::Function;
use isa::Diagnostic;

/// The immediate post-dominator of each block of `graph` (`None`: only the function's
/// exit post-dominates it, or the exit is unreachable from it).
pub fn ipdom(graph: &FlowGraph) -> Vec<Option<usize>> {
    let n = graph.blocks.len();
    let tree = isa::dominance::DominatorTree::post_dominators(
        n,
        graph.edges.iter().map(|&(a, b, _)| (a, b)),
        graph.blocks.iter().filter(|b| b.exits).map(|b| b.id),
    );
    (0..n).map(|b| tree.idom(b).filter(|&d| d < n)).collect()
}

/// The flow graph, divergence verdicts and warp-level CFG of `f`.
pub struct PtxWarp {
    pub graph: FlowGraph,
    pub divergence: Divergence,
    /// The warp-level CFG; its `resumptions` are the edges that resume a pending path.
    pub warp: WarpCfg,
}

/// Builds the warp-level CFG of the PTX function `f`.
pub fn build(f: &Function, options: &Options) -> Result<PtxWarp, Diagnostic> {
    build_observed(f, options, &progress::silent)
}

/// [`build`], telling `observer` how the exploration of stack shapes goes
/// ([`pdom::build_observed`]). The result does not depend on the observer.
pub fn build_observed(
    f: &Function,
    options: &Options,
    observer: Observer,
) -> Result<PtxWarp, Diagnostic> {
    let graph = isa::flow::build(&isa::ptx::flows(f));
    let ipdom = ipdom(&graph);
    let divergence = divergence::analyse(f, &graph, &ipdom);
    let built = pdom::build_observed(f, &graph, &ipdom, &divergence, options, observer)?;
    Ok(PtxWarp {
        graph,
        divergence,
        warp: built,
    })
}
