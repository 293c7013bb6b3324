//! Explicit limits for everything in this crate that can grow with the input.

/// Limits on graph size and solver work. Hitting one is an [`Error`](crate::Error) of kind
/// [`Budget`](crate::ErrorKind::Budget) whose message names the field to raise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Most nodes of a wavefront CFG, after loop unrolling (parameter `max_unrolled_nodes`).
    pub max_unrolled_nodes: usize,
    /// Most items of the branch tree the structural analysis builds; only unstructured
    /// graphs (paths that join outside their branch) make it larger than the node count
    /// (parameter `max_tree_items`).
    pub max_tree_items: usize,
    /// Deepest branch nesting followed by the (recursive) structural analysis
    /// (parameter `max_nesting`).
    pub max_nesting: usize,
    /// Most Pareto points the optimal split selection may create in total
    /// (parameter `max_pareto_points`).
    pub max_pareto_points: usize,
    /// Most intervals in a dispatch timeline; longer timelines are cut and flagged
    /// (parameter `max_timeline_intervals`).
    pub max_timeline_intervals: usize,
}

impl Default for Budget {
    /// 200 000 nodes, 1 000 000 tree items, nesting 256, 2 000 000 Pareto points, 2 000
    /// timeline intervals: every graph of the corpus fits with room to spare.
    fn default() -> Self {
        Budget {
            max_unrolled_nodes: 200_000,
            max_tree_items: 1_000_000,
            max_nesting: 256,
            max_pareto_points: 2_000_000,
            max_timeline_intervals: 2_000,
        }
    }
}
