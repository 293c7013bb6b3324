//! Step 5: coordinates.
//!
//! **Vertical.** Layer 0's row starts at the margin; every further row starts
//! `layer_gap` below the bottom of the tallest box of the row above. Boxes
//! are top-aligned in their row. The row's *band* (top to tallest bottom)
//! holds all its boxes, so the space between two bands is free for edges.
//!
//! **Horizontal.** Each layer starts packed left to right (a box, its
//! self-loop room, then the gap: `node_gap` next to a real node, half of it
//! between two dummies) and centred on 0. Then a number of passes, alternately
//! top-down and bottom-up, re-place one layer at a time: every node wants its
//! centre at the weighted mean of its neighbours' centres on both adjacent
//! layers (segment weights favour straight long edges), and the layer is
//! moved to the positions that minimise the weighted squared distance to
//! those wishes while keeping its order and minimum gaps. That constrained
//! fit is solved exactly in linear time: subtracting from each node the
//! cumulative minimum separation turns the gap constraints into "sorted
//! ascending", which is isotonic regression, solved by pool adjacent
//! violators. Each pass therefore never increases the total weighted squared
//! edge length (plus a tiny pull toward the current position, which also
//! places nodes without neighbours), so the drawing settles rather than
//! oscillates. Finally everything is shifted so the leftmost box or edge bend
//! is at the margin.

use crate::proper::ProperGraph;
use crate::Params;

/// Number of placement passes (alternating top-down and bottom-up).
const PASSES: usize = 24;

/// Weight of a node's pull toward its current centre; small, so it only
/// matters for nodes without neighbours and to break ties.
const INERTIA: f64 = 1e-3;

/// Positions computed for the proper graph.
#[derive(Debug, Clone)]
pub(crate) struct Coordinates {
    /// Left edge of every node (dummies included; a dummy's centre is its
    /// left edge, as it has no width).
    pub x: Vec<f64>,
    /// Top of every layer's row.
    pub layer_top: Vec<f64>,
    /// Height of every layer's band (its tallest box).
    pub layer_height: Vec<f64>,
}

impl Coordinates {
    /// Top edge of `node`'s box.
    pub(crate) fn top_of(&self, node: usize, graph: &ProperGraph) -> f64 {
        self.layer_top[graph.layer[node]]
    }

    /// Bottom of the band of `node`'s layer.
    pub(crate) fn band_bottom_of(&self, node: usize, graph: &ProperGraph) -> f64 {
        let l = graph.layer[node];
        self.layer_top[l] + self.layer_height[l]
    }

    /// Horizontal centre of `node`.
    pub(crate) fn centre_of(&self, node: usize, graph: &ProperGraph) -> f64 {
        self.x[node] + graph.width[node] / 2.0
    }
}

/// Computes coordinates for `graph` with the layer orders `layers`.
pub(crate) fn assign(graph: &ProperGraph, layers: &[Vec<usize>], params: &Params) -> Coordinates {
    let mut layer_top = Vec::with_capacity(layers.len());
    let mut layer_height = Vec::with_capacity(layers.len());
    let mut y = params.margin;
    for row in layers {
        let tallest = row.iter().map(|&n| graph.height[n]).fold(0.0, f64::max);
        layer_top.push(y);
        layer_height.push(tallest);
        y += tallest + params.layer_gap;
    }

    let mut x = vec![0.0; graph.node_count()];
    for row in layers {
        let mut cursor = 0.0;
        for (i, &node) in row.iter().enumerate() {
            if i > 0 {
                cursor += separation(graph, row[i - 1], node, params.node_gap);
            }
            x[node] = cursor;
        }
        let half = (cursor + row.last().map_or(0.0, |&n| graph.width[n])) / 2.0;
        for &node in row {
            x[node] -= half;
        }
    }

    for pass in 0..PASSES {
        if pass % 2 == 0 {
            for row in layers {
                place_layer(graph, row, &mut x, params.node_gap);
            }
        } else {
            for row in layers.iter().rev() {
                place_layer(graph, row, &mut x, params.node_gap);
            }
        }
    }

    let min_left = layers
        .iter()
        .flatten()
        .map(|&n| x[n])
        .fold(f64::INFINITY, f64::min);
    if min_left.is_finite() {
        let shift = params.margin - min_left;
        for v in &mut x {
            *v += shift;
        }
    }

    Coordinates {
        x,
        layer_top,
        layer_height,
    }
}

/// Minimum distance from the left edge of `left` to the left edge of the
/// next node `right` in the same layer.
fn separation(graph: &ProperGraph, left: usize, right: usize, node_gap: f64) -> f64 {
    let gap = if graph.is_dummy(left) && graph.is_dummy(right) {
        node_gap / 2.0
    } else {
        node_gap
    };
    graph.width[left] + graph.right_pad[left] + gap
}

/// Moves the nodes of one layer to the best order-preserving positions
/// given their neighbours' current centres.
fn place_layer(graph: &ProperGraph, row: &[usize], x: &mut [f64], node_gap: f64) {
    let mut offsets = Vec::with_capacity(row.len());
    let mut wishes = Vec::with_capacity(row.len());
    let mut weights = Vec::with_capacity(row.len());
    let mut offset = 0.0;
    for (i, &node) in row.iter().enumerate() {
        if i > 0 {
            offset += separation(graph, row[i - 1], node, node_gap);
        }
        let half = graph.width[node] / 2.0;
        let mut weight = INERTIA;
        let mut pull = INERTIA * (x[node] + half);
        for &s in graph.up[node].iter().chain(&graph.down[node]) {
            let seg = &graph.segments[s];
            let other = if seg.upper == node {
                seg.lower
            } else {
                seg.upper
            };
            weight += seg.weight;
            pull += seg.weight * (x[other] + graph.width[other] / 2.0);
        }
        let wanted_left = pull / weight - half;
        offsets.push(offset);
        wishes.push(wanted_left - offset);
        weights.push(weight);
    }
    let fitted = isotonic(&wishes, &weights);
    let mut previous: Option<(usize, f64)> = None;
    for ((&node, &y), &off) in row.iter().zip(&fitted).zip(&offsets) {
        let mut left = y + off;
        // Guard the gaps against rounding in the fit.
        if let Some((prev, prev_left)) = previous {
            left = left.max(prev_left + separation(graph, prev, node, node_gap));
        }
        x[node] = left;
        previous = Some((node, left));
    }
}

/// Weighted least-squares fit of a non-decreasing sequence to `values`
/// (pool adjacent violators). All weights must be positive.
fn isotonic(values: &[f64], weights: &[f64]) -> Vec<f64> {
    // (total weight, weighted sum, number of values)
    let mut blocks: Vec<(f64, f64, usize)> = Vec::with_capacity(values.len());
    for (&v, &w) in values.iter().zip(weights) {
        blocks.push((w, w * v, 1));
        while let [.., a, b] = blocks.as_slice() {
            if a.1 / a.0 <= b.1 / b.0 {
                break;
            }
            let merged = (a.0 + b.0, a.1 + b.1, a.2 + b.2);
            blocks.pop();
            if let Some(last) = blocks.last_mut() {
                *last = merged;
            }
        }
    }
    let mut fitted = Vec::with_capacity(values.len());
    for (weight, sum, count) in blocks {
        fitted.extend(std::iter::repeat_n(sum / weight, count));
    }
    fitted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proper::EdgeInput;
    use crate::Options;

    #[test]
    fn isotonic_keeps_sorted_input() {
        assert_eq!(
            isotonic(&[1.0, 2.0, 5.0], &[1.0, 1.0, 1.0]),
            vec![1.0, 2.0, 5.0]
        );
    }

    #[test]
    fn isotonic_pools_violators_by_weight() {
        // 4 then 1 with weights 1 and 3 pool to (4 + 3) / 4.
        assert_eq!(
            isotonic(&[4.0, 1.0, 9.0], &[1.0, 3.0, 1.0]),
            vec![1.75, 1.75, 9.0]
        );
        // A later violation can swallow several earlier blocks.
        assert_eq!(
            isotonic(&[1.0, 3.0, 5.0, 0.0], &[1.0; 4]),
            vec![1.0, 8.0 / 3.0, 8.0 / 3.0, 8.0 / 3.0]
        );
    }

    fn build(n: usize, edges: &[(usize, usize)], layer: &[usize]) -> ProperGraph {
        let inputs = EdgeInput::forward(edges);
        ProperGraph::build(&vec![(40.0, 20.0); n], &vec![0.0; n], layer, &inputs)
    }

    fn params() -> Params {
        Params::new(&Options::default())
    }

    #[test]
    fn parent_is_centred_over_two_children() {
        let g = build(3, &[(0, 1), (0, 2)], &[0, 1, 1]);
        let layers = vec![vec![0], vec![1, 2]];
        let c = assign(&g, &layers, &params());
        let mid = (c.centre_of(1, &g) + c.centre_of(2, &g)) / 2.0;
        assert!((c.centre_of(0, &g) - mid).abs() < 1e-6);
        assert!(c.x[2] - (c.x[1] + 40.0) >= 28.0 - 1e-9);
    }

    #[test]
    fn rows_stack_by_tallest_box() {
        let inputs = [EdgeInput {
            index: 0,
            from: 0,
            to: 2,
            back: false,
        }];
        let g = ProperGraph::build(
            &[(10.0, 30.0), (10.0, 50.0), (10.0, 10.0)],
            &[0.0; 3],
            &[0, 0, 1],
            &inputs,
        );
        let layers = vec![vec![0, 1], vec![2]];
        let c = assign(&g, &layers, &params());
        assert_eq!(c.layer_top, vec![16.0, 16.0 + 50.0 + 56.0]);
        assert_eq!(c.layer_height, vec![50.0, 10.0]);
    }

    #[test]
    fn leftmost_node_sits_on_the_margin() {
        let g = build(4, &[(0, 2), (1, 3)], &[0, 0, 1, 1]);
        let layers = vec![vec![0, 1], vec![2, 3]];
        let c = assign(&g, &layers, &params());
        let min = c.x.iter().copied().fold(f64::INFINITY, f64::min);
        assert!((min - 16.0).abs() < 1e-9);
    }
}
