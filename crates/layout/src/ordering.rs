//! Step 4: crossing reduction.
//!
//! The order of nodes within each layer decides how many edges cross. Finding
//! the best order is NP-hard, so this uses the classic barycenter heuristic:
//!
//! * A *downward* pass walks layers 1, 2, … and sorts each by the mean
//!   position of every node's neighbours in the layer above; an *upward*
//!   pass walks from the second-to-last layer up, using the layer below.
//!   Passes alternate, downward first, [`crate::Options::sweeps`] in all.
//! * Sorting is stable with an explicit tie-break on the previous position,
//!   so equal barycenters never reorder arbitrarily and the result is
//!   deterministic.
//! * A node with no neighbours on the reference layer keeps its slot; the
//!   others are sorted into the remaining slots.
//! * After every pass the crossings between all adjacent layers are counted
//!   (sort the segments by upper position and count inversions of the lower
//!   positions with a Fenwick tree, O(E log V)); the ordering with the fewest
//!   crossings seen, the starting one included, is the result. Sweeping stops
//!   early at zero crossings or when two passes in a row change nothing.
//!
//! The starting order is node id within each layer (dummies after real
//! nodes), which for a CFG numbered in program order already puts the
//! fall-through path first.

use crate::proper::ProperGraph;

/// Orders every layer of `graph` to reduce edge crossings, with at most
/// `sweeps` barycenter passes. Returns the node ids of each layer, left to
/// right.
pub(crate) fn order(graph: &ProperGraph, sweeps: usize) -> Vec<Vec<usize>> {
    let mut layers = graph.initial_layers();
    let mut pos = vec![0usize; graph.node_count()];
    for row in &layers {
        write_positions(row, &mut pos);
    }
    let mut best = layers.clone();
    let mut best_crossings = crossings(graph, &layers, &pos);
    let mut quiet_passes = 0;
    for pass in 0..sweeps {
        if best_crossings == 0 || quiet_passes >= 2 {
            break;
        }
        let changed = if pass % 2 == 0 {
            sweep_down(graph, &mut layers, &mut pos)
        } else {
            sweep_up(graph, &mut layers, &mut pos)
        };
        quiet_passes = if changed { 0 } else { quiet_passes + 1 };
        let count = crossings(graph, &layers, &pos);
        if count < best_crossings {
            best_crossings = count;
            best.clone_from(&layers);
        }
    }
    best
}

fn write_positions(row: &[usize], pos: &mut [usize]) {
    for (p, &node) in row.iter().enumerate() {
        if let Some(slot) = pos.get_mut(node) {
            *slot = p;
        }
    }
}

/// One downward pass; returns whether any layer changed.
fn sweep_down(graph: &ProperGraph, layers: &mut [Vec<usize>], pos: &mut [usize]) -> bool {
    let mut changed = false;
    for row in layers.iter_mut().skip(1) {
        let reference: &[usize] = pos;
        changed |= reorder(row, |node| {
            barycenter(
                graph.up[node].iter().map(|&s| graph.segments[s].upper),
                reference,
            )
        });
        write_positions(row, pos);
    }
    changed
}

/// One upward pass; returns whether any layer changed.
fn sweep_up(graph: &ProperGraph, layers: &mut [Vec<usize>], pos: &mut [usize]) -> bool {
    let mut changed = false;
    let above_last = layers.len().saturating_sub(1);
    for row in layers[..above_last].iter_mut().rev() {
        let reference: &[usize] = pos;
        changed |= reorder(row, |node| {
            barycenter(
                graph.down[node].iter().map(|&s| graph.segments[s].lower),
                reference,
            )
        });
        write_positions(row, pos);
    }
    changed
}

/// Mean position of `neighbours`, or `None` if there are none.
fn barycenter(neighbours: impl Iterator<Item = usize>, pos: &[usize]) -> Option<f64> {
    let mut sum = 0.0;
    let mut count = 0usize;
    for n in neighbours {
        sum += pos.get(n).copied().unwrap_or(0) as f64;
        count += 1;
    }
    (count > 0).then(|| sum / count as f64)
}

/// Sorts `row` by barycenter (nodes without one keep their slot) and
/// returns whether the order changed. The caller updates positions.
fn reorder(row: &mut Vec<usize>, barycenter_of: impl Fn(usize) -> Option<f64>) -> bool {
    let mut movable: Vec<(f64, usize, usize)> = Vec::with_capacity(row.len());
    let mut fixed = vec![false; row.len()];
    for (p, &node) in row.iter().enumerate() {
        match barycenter_of(node) {
            Some(b) => movable.push((b, p, node)),
            None => fixed[p] = true,
        }
    }
    movable.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut sorted = movable.into_iter().map(|m| m.2);
    let new_row: Vec<usize> = row
        .iter()
        .zip(&fixed)
        .map(|(&node, &keep)| {
            if keep {
                node
            } else {
                sorted.next().unwrap_or(node)
            }
        })
        .collect();
    let changed = new_row != *row;
    *row = new_row;
    changed
}

/// Number of pairwise segment crossings between all adjacent layers.
pub(crate) fn crossings(graph: &ProperGraph, layers: &[Vec<usize>], pos: &[usize]) -> u64 {
    let mut total = 0u64;
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for (l, row) in layers.iter().enumerate() {
        let Some(next) = layers.get(l + 1) else {
            break;
        };
        pairs.clear();
        for &node in row {
            for &s in &graph.down[node] {
                let lower = graph.segments[s].lower;
                pairs.push((pos[node], pos.get(lower).copied().unwrap_or(0)));
            }
        }
        pairs.sort_unstable();
        total += inversions(pairs.iter().map(|p| p.1), next.len());
    }
    total
}

/// Counts pairs `i < j` with `values[i] > values[j]`, for values below
/// `bound`, with a Fenwick tree.
fn inversions(values: impl Iterator<Item = usize>, bound: usize) -> u64 {
    let mut tree = vec![0u64; bound + 1];
    let mut total = 0u64;
    for (seen, v) in (0u64..).zip(values) {
        let v = v.min(bound.saturating_sub(1));
        // number of earlier values <= v
        let mut at_most = 0u64;
        let mut i = v + 1;
        while i > 0 {
            at_most += tree[i];
            i &= i - 1;
        }
        total += seen - at_most;
        let mut i = v + 1;
        while i <= bound {
            tree[i] += 1;
            i += i & i.wrapping_neg();
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layering::longest_path;
    use crate::proper::EdgeInput;

    fn graph(n: usize, edges: &[(usize, usize)]) -> ProperGraph {
        let inputs = EdgeInput::forward(edges);
        let layer = longest_path(n, edges);
        ProperGraph::build(&vec![(10.0, 10.0); n], &vec![0.0; n], &layer, &inputs)
    }

    fn count(g: &ProperGraph, layers: &[Vec<usize>]) -> u64 {
        let mut pos = vec![0; g.node_count()];
        for row in layers {
            write_positions(row, &mut pos);
        }
        crossings(g, layers, &pos)
    }

    #[test]
    fn inversion_count_matches_brute_force() {
        let values = [3, 1, 4, 1, 5, 0, 2, 6, 5, 3];
        let mut brute = 0;
        for i in 0..values.len() {
            for j in i + 1..values.len() {
                if values[i] > values[j] {
                    brute += 1;
                }
            }
        }
        assert_eq!(inversions(values.iter().copied(), 7), brute);
    }

    #[test]
    fn counts_a_single_crossing() {
        // layer 0: [0, 1], layer 1: [2, 3]; 0 -> 3 and 1 -> 2 cross.
        let g = graph(4, &[(0, 3), (1, 2)]);
        assert_eq!(count(&g, &g.initial_layers()), 1);
    }

    #[test]
    fn shared_endpoints_do_not_cross() {
        let g = graph(4, &[(0, 2), (0, 3), (1, 3)]);
        assert_eq!(count(&g, &g.initial_layers()), 0);
    }

    #[test]
    fn simple_crossing_is_removed() {
        let g = graph(4, &[(0, 3), (1, 2)]);
        let layers = order(&g, 8);
        assert_eq!(count(&g, &layers), 0);
    }

    #[test]
    fn scrambled_tree_is_untangled_by_a_downward_pass() {
        // 0 -> 1, 0 -> 2; 1 -> 5, 1 -> 6; 2 -> 3, 2 -> 4: id order crosses.
        let g = graph(7, &[(0, 1), (0, 2), (1, 5), (1, 6), (2, 3), (2, 4)]);
        assert_eq!(count(&g, &g.initial_layers()), 4);
        let layers = order(&g, 1);
        assert_eq!(count(&g, &layers), 0);
        assert_eq!(layers[2], vec![5, 6, 3, 4]);
    }

    #[test]
    fn converging_sources_need_an_upward_pass() {
        // Sources 0..4 feed 5 and 4 alternately; only reordering layer 0 helps.
        let g = graph(7, &[(0, 5), (1, 4), (2, 5), (3, 4), (4, 6), (5, 6)]);
        assert!(count(&g, &g.initial_layers()) > 0);
        let layers = order(&g, 8);
        assert_eq!(count(&g, &layers), 0);
        assert_eq!(layers[0], vec![0, 2, 1, 3]);
    }

    #[test]
    fn never_worse_than_the_start() {
        let edges = [
            (0, 3),
            (0, 4),
            (1, 3),
            (1, 5),
            (2, 4),
            (2, 5),
            (3, 6),
            (5, 6),
            (4, 7),
        ];
        let g = graph(8, &edges);
        let start = count(&g, &g.initial_layers());
        for sweeps in 0..6 {
            assert!(count(&g, &order(&g, sweeps)) <= start);
        }
        assert_eq!(order(&g, 0), g.initial_layers());
    }

    #[test]
    fn nodes_without_neighbours_keep_their_slot() {
        let mut row = vec![10, 11, 12, 13];
        let changed = reorder(&mut row, |n| match n {
            10 => Some(3.0),
            12 => Some(1.0),
            _ => None,
        });
        assert!(changed);
        assert_eq!(row, vec![12, 11, 10, 13]);
    }

    #[test]
    fn ties_keep_previous_order() {
        let mut row = vec![4, 2, 7];
        let changed = reorder(&mut row, |_| Some(1.0));
        assert!(!changed);
        assert_eq!(row, vec![4, 2, 7]);
    }
}
