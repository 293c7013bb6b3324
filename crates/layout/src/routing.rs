//! Step 6: edge routing.
//!
//! Every layered edge is first drawn top-down along its chain in the proper
//! graph:
//!
//! 1. it leaves a *port* on the bottom border of its upper node. A node's
//!    bottom ports are spread evenly over its width, one per downward
//!    segment, ordered by the position of the segment's other end (then by
//!    edge index), so edges fanning out of a branch do not start on top of
//!    each other or cross right at the node;
//! 2. if the box is shorter than its row's band, it drops straight down to
//!    the bottom of the band;
//! 3. through each dummy node it runs vertically across that row's band, at
//!    the dummy's x, which coordinate assignment kept at least a gap away
//!    from every box;
//! 4. it ends at a port on the top border of its lower node (spread the same
//!    way as bottom ports).
//!
//! All slanted pieces therefore lie between rows, where there are no boxes,
//! and all vertical pieces lie in a node's own column or a dummy's free
//! column, so no edge crosses a node box. Parallel edges get distinct ports
//! paired in the same order at both ends, so they run side by side.
//!
//! A back edge `a → b` (`a` below `b`) is the same line walked bottom-up: it
//! leaves the *top* of `a` and arrives at the *bottom* of `b`, so the arrow
//! head visibly points up into the loop header.
//!
//! A self loop is a rectangle stuck to the node's right border: out to the
//! right at one height, down, and back in lower; several self loops on one
//! node nest. The room it needs was reserved in coordinate assignment.

use crate::coordinates::Coordinates;
use crate::proper::ProperGraph;
use crate::{Params, RoutedEdge};

/// Routes every chain of `graph` (all edges but self loops).
pub(crate) fn route(
    graph: &ProperGraph,
    layers: &[Vec<usize>],
    coords: &Coordinates,
) -> Vec<RoutedEdge> {
    let mut pos = vec![0usize; graph.node_count()];
    for row in layers {
        for (p, &node) in row.iter().enumerate() {
            pos[node] = p;
        }
    }

    // x of each segment's end on its upper node and on its lower node.
    let mut bottom_port = vec![0.0; graph.segments.len()];
    let mut top_port = vec![0.0; graph.segments.len()];
    for node in 0..graph.node_count() {
        spread_ports(
            graph,
            coords,
            node,
            &graph.down[node],
            &mut bottom_port,
            |s| pos[graph.segments[s].lower],
        );
        spread_ports(graph, coords, node, &graph.up[node], &mut top_port, |s| {
            pos[graph.segments[s].upper]
        });
    }

    let mut edges = Vec::with_capacity(graph.chains.len());
    for chain in &graph.chains {
        let (Some(&first_seg), Some(&last_seg)) = (chain.segments.first(), chain.segments.last())
        else {
            continue;
        };
        let (Some(&upper), Some(&lower)) = (chain.nodes.first(), chain.nodes.last()) else {
            continue;
        };
        let mut points: Vec<[f64; 2]> = Vec::with_capacity(2 * chain.nodes.len() + 2);
        let start_x = bottom_port[first_seg];
        points.push([start_x, coords.top_of(upper, graph) + graph.height[upper]]);
        points.push([start_x, coords.band_bottom_of(upper, graph)]);
        for &dummy in &chain.nodes[1..chain.nodes.len() - 1] {
            let x = coords.centre_of(dummy, graph);
            points.push([x, coords.top_of(dummy, graph)]);
            points.push([x, coords.band_bottom_of(dummy, graph)]);
        }
        points.push([top_port[last_seg], coords.top_of(lower, graph)]);
        points.dedup();
        if points.len() < 2 {
            // Degenerate (zero-size boxes with no gap): keep a valid polyline.
            points.push(points[0]);
        }
        if chain.edge.back {
            points.reverse();
        }
        edges.push(RoutedEdge {
            index: chain.edge.index,
            from: chain.edge.from,
            to: chain.edge.to,
            back: chain.edge.back,
            points,
        });
    }
    edges
}

/// Assigns x positions to the ends of `segments` on `node`, spread over the
/// node's width in the order of `key` (then segment id, i.e. edge order).
fn spread_ports(
    graph: &ProperGraph,
    coords: &Coordinates,
    node: usize,
    segments: &[usize],
    out: &mut [f64],
    key: impl Fn(usize) -> usize,
) {
    let mut sorted: Vec<usize> = segments.to_vec();
    sorted.sort_by_key(|&s| (key(s), s));
    let count = sorted.len() as f64;
    let left = coords.x[node];
    let width = graph.width[node];
    for (k, &s) in sorted.iter().enumerate() {
        out[s] = left + width * (k as f64 + 1.0) / (count + 1.0);
    }
}

/// Draws the self loops `(edge index, node)` on the right side of their
/// nodes; loops on one node nest, the first one innermost.
pub(crate) fn self_loops(
    graph: &ProperGraph,
    coords: &Coordinates,
    loops: &[(usize, usize)],
    params: &Params,
) -> Vec<RoutedEdge> {
    let mut per_node = vec![0usize; graph.real_count];
    for &(_, node) in loops {
        per_node[node] += 1;
    }
    let mut seen = vec![0usize; graph.real_count];
    let extent = params.loop_extent();
    let mut edges = Vec::with_capacity(loops.len());
    for &(index, node) in loops {
        let total = per_node[node] as f64;
        let k = seen[node] as f64 + 1.0;
        seen[node] += 1;
        let right = coords.x[node] + graph.width[node];
        let top = coords.top_of(node, graph);
        let height = graph.height[node];
        let middle = top + height / 2.0;
        let half_span = (height / 2.0) * k / (total + 1.0);
        let out = right + extent * k / total;
        edges.push(RoutedEdge {
            index,
            from: node,
            to: node,
            back: false,
            points: vec![
                [right, middle - half_span],
                [out, middle - half_span],
                [out, middle + half_span],
                [right, middle + half_span],
            ],
        });
    }
    edges
}
