//! The `layout` of a report's graph: canvas size, node boxes and edge polylines, the facade's
//! copy of `layout::Layout` (computed by the `layout` crate in [`super::graph`]), so the page
//! only draws.

use super::wire_view::wire_view;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

wire_view! {
    /// A complete drawing of a graph (`layout::Layout`): the page strokes it as it is.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
    pub struct Layout from layout::Layout as l {
        /// Width of the canvas; every coordinate lies in `[0, width]`.
        width: f64,
        /// Height of the canvas; every coordinate lies in `[0, height]`.
        height: f64,
        /// One entry per node, in id order.
        nodes: Vec<PlacedNode> = l.nodes.iter().map(PlacedNode::from).collect(),
        /// One entry per drawn edge, in the graph's edge order.
        edges: Vec<RoutedEdge> = l.edges.iter().map(RoutedEdge::from).collect(),
    }
}

wire_view! {
    /// Where one node's box is drawn (`layout::PlacedNode`).
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
    pub struct PlacedNode from layout::PlacedNode as n {
        /// The node's id in the graph (`CfgNode::id`).
        id: usize,
        /// Layer (row) of the node, 0 at the top.
        layer: usize,
        /// Left edge of the box.
        x: f64,
        /// Top edge of the box.
        y: f64,
        width: f64,
        height: f64,
    }
}

wire_view! {
    /// The drawn path of one edge (`layout::RoutedEdge`): a polyline around the node boxes,
    /// the arrow head at its last point.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
    pub struct RoutedEdge from layout::RoutedEdge as e {
        /// Position of the edge in the graph's `edges`.
        index: usize,
        /// Source and target node ids.
        from: usize,
        to: usize,
        /// Whether the edge closes a cycle (a loop's back edge); self loops are not.
        back: bool,
        /// At least two points, from the border of `from` to the border of `to`.
        points: Vec<[f64; 2]>,
    }
}
