//! Step 2: layer assignment.
//!
//! Every node gets the length of the longest path reaching it from a source
//! of the acyclic graph (back edges already reversed). Sources sit on layer
//! 0 and every edge points at least one layer down. For a CFG this puts a
//! block below all of its forward predecessors, so the drawing reads top to
//! bottom in roughly program order, and a join point sits below both arms
//! of the branch that leads to it.
//!
//! The computation is Kahn's topological sort (first-in first-out, seeded
//! with the sources in index order), relaxing `layer[to] = max(layer[to],
//! layer[from] + 1)` along each edge: O(V + E).

use std::collections::VecDeque;

/// Longest-path layer of each of `node_count` nodes for the DAG `edges`
/// (`(upper, lower)` pairs, all endpoints `< node_count`).
///
/// If `edges` had a cycle (it cannot, by construction) the nodes on it would
/// keep the layer reached so far instead of looping or panicking.
pub(crate) fn longest_path(node_count: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut successors: Vec<Vec<usize>> = vec![Vec::new(); node_count];
    let mut in_degree = vec![0usize; node_count];
    for &(from, to) in edges {
        if from < node_count && to < node_count {
            successors[from].push(to);
            in_degree[to] += 1;
        }
    }
    let mut layer = vec![0usize; node_count];
    let mut queue: VecDeque<usize> = (0..node_count).filter(|&v| in_degree[v] == 0).collect();
    while let Some(node) = queue.pop_front() {
        for &next in &successors[node] {
            layer[next] = layer[next].max(layer[node] + 1);
            in_degree[next] -= 1;
            if in_degree[next] == 0 {
                queue.push_back(next);
            }
        }
    }
    layer
}

#[cfg(test)]
mod tests {
    use super::longest_path;

    #[test]
    fn chain() {
        assert_eq!(longest_path(3, &[(0, 1), (1, 2)]), vec![0, 1, 2]);
    }

    #[test]
    fn join_goes_below_longest_arm() {
        // 0 -> 1 -> 2 -> 3 and the shortcut 0 -> 3.
        assert_eq!(
            longest_path(4, &[(0, 3), (0, 1), (1, 2), (2, 3)]),
            vec![0, 1, 2, 3]
        );
    }

    #[test]
    fn isolated_nodes_and_several_sources() {
        assert_eq!(longest_path(4, &[(2, 1)]), vec![0, 1, 0, 0]);
    }

    #[test]
    fn every_edge_points_down() {
        let edges = [(0, 1), (0, 2), (1, 3), (2, 3), (3, 4), (1, 4), (0, 4)];
        let layer = longest_path(5, &edges);
        for &(a, b) in &edges {
            assert!(layer[a] < layer[b], "{a} -> {b}: {layer:?}");
        }
    }

    #[test]
    fn cycle_does_not_hang() {
        let layer = longest_path(3, &[(0, 1), (1, 2), (2, 1)]);
        assert_eq!(layer.len(), 3);
        assert_eq!(layer[0], 0);
    }
}
