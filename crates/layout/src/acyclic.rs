//! Step 1: cycle removal.
//!
//! Layering needs an acyclic graph. A depth-first search is run from every
//! not yet visited node in index order (so from the CFG entry, node 0,
//! first), following each node's out-edges in input order. An edge whose
//! target is still on the DFS stack closes a cycle: it is a *back edge*, and
//! the later steps lay it out as if it pointed the other way. In a reducible
//! CFG these are exactly the loop back edges, which is what a reader expects
//! to see drawn upward.
//!
//! The search keeps an explicit stack instead of recursing, because CFGs of
//! unrolled kernels reach thousands of nodes and a recursive walk could
//! overflow the (small) wasm stack.
//!
//! Reversing all back edges leaves a DAG: in the search's reverse postorder
//! every other edge already points forward, and a reversed back edge points
//! from a DFS ancestor to its descendant, which is forward too.

/// DFS colour of a node.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Unvisited,
    OnStack,
    Done,
}

/// Returns, for each edge of `edges`, whether it is a back edge.
///
/// Self loops and edges with an endpoint `>= node_count` are never back
/// edges (they take no part in the search).
pub(crate) fn back_edges(node_count: usize, edges: &[(usize, usize)]) -> Vec<bool> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); node_count];
    for (index, &(from, to)) in edges.iter().enumerate() {
        if from < node_count && to < node_count && from != to {
            out[from].push(index);
        }
    }

    let mut state = vec![State::Unvisited; node_count];
    let mut back = vec![false; edges.len()];
    // (node, position of the next out-edge to look at)
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..node_count {
        if state[root] != State::Unvisited {
            continue;
        }
        state[root] = State::OnStack;
        stack.push((root, 0));
        while let Some(top) = stack.last_mut() {
            let (node, next) = *top;
            match out[node].get(next) {
                Some(&edge) => {
                    top.1 += 1;
                    let target = edges[edge].1;
                    match state[target] {
                        State::Unvisited => {
                            state[target] = State::OnStack;
                            stack.push((target, 0));
                        }
                        State::OnStack => back[edge] = true,
                        State::Done => {}
                    }
                }
                None => {
                    state[node] = State::Done;
                    stack.pop();
                }
            }
        }
    }
    back
}

#[cfg(test)]
mod tests {
    use super::back_edges;

    #[test]
    fn chain_has_no_back_edges() {
        assert_eq!(back_edges(3, &[(0, 1), (1, 2)]), vec![false, false]);
    }

    #[test]
    fn loop_latch_is_the_back_edge() {
        // 0 -> 1 -> 2 -> 1, 2 -> 3
        let b = back_edges(4, &[(0, 1), (1, 2), (2, 1), (2, 3)]);
        assert_eq!(b, vec![false, false, true, false]);
    }

    #[test]
    fn nested_loops_and_parallel_back_edges() {
        // 0 -> 1 -> 2 -> 3, 3 -> 2 (inner, twice), 3 -> 1 (outer)
        let b = back_edges(4, &[(0, 1), (1, 2), (2, 3), (3, 2), (3, 2), (3, 1)]);
        assert_eq!(b, vec![false, false, false, true, true, true]);
    }

    #[test]
    fn cross_edges_are_not_back_edges() {
        // diamond: 0 -> 1 -> 3, 0 -> 2 -> 3: 2 -> 3 reaches a finished node.
        let b = back_edges(4, &[(0, 1), (0, 2), (1, 3), (2, 3)]);
        assert_eq!(b, vec![false; 4]);
    }

    #[test]
    fn self_loops_and_bad_edges_are_skipped() {
        let b = back_edges(2, &[(0, 0), (0, 9), (9, 0), (0, 1), (1, 0)]);
        assert_eq!(b, vec![false, false, false, false, true]);
    }

    #[test]
    fn roots_are_visited_in_index_order() {
        // Cycle 0 <-> 1: visiting 0 first makes 1 -> 0 the back edge.
        assert_eq!(back_edges(2, &[(1, 0), (0, 1)]), vec![true, false]);
    }

    #[test]
    fn deep_chain_does_not_overflow() {
        let n = 200_000;
        let edges: Vec<(usize, usize)> =
            (0..n - 1).map(|i| (i, i + 1)).chain([(n - 1, 0)]).collect();
        let b = back_edges(n, &edges);
        assert_eq!(b.iter().filter(|&&x| x).count(), 1);
        assert!(b[n - 1]);
    }
}
