//! The `layout` of a report's graph: canvas size, node boxes and edge polylines, the facade's
//! copy of `layout::Layout` (computed by the `layout` crate in [`super::graph`]), so the page
//! only draws.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A complete drawing of a graph (`layout::Layout`): the page strokes it as it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct Layout {
    /// Width of the canvas; every coordinate lies in `[0, width]`.
    pub width: f64,
    /// Height of the canvas; every coordinate lies in `[0, height]`.
    pub height: f64,
    /// One entry per node, in id order.
    pub nodes: Vec<PlacedNode>,
    /// One entry per drawn edge, in the graph's edge order.
    pub edges: Vec<RoutedEdge>,
}

/// Where one node's box is drawn (`layout::PlacedNode`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct PlacedNode {
    /// The node's id in the graph (`CfgNode::id`).
    pub id: usize,
    /// Layer (row) of the node, 0 at the top.
    pub layer: usize,
    /// Left edge of the box.
    pub x: f64,
    /// Top edge of the box.
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// The drawn path of one edge (`layout::RoutedEdge`): a polyline around the node boxes, the
/// arrow head at its last point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct RoutedEdge {
    /// Position of the edge in the graph's `edges`.
    pub index: usize,
    /// Source and target node ids.
    pub from: usize,
    pub to: usize,
    /// Whether the edge closes a cycle (a loop's back edge); self loops are not.
    pub back: bool,
    /// At least two points, from the border of `from` to the border of `to`.
    pub points: Vec<[f64; 2]>,
}

impl From<layout::Layout> for Layout {
    fn from(l: layout::Layout) -> Self {
        Layout {
            width: l.width,
            height: l.height,
            nodes: l
                .nodes
                .into_iter()
                .map(|n| PlacedNode {
                    id: n.id,
                    layer: n.layer,
                    x: n.x,
                    y: n.y,
                    width: n.width,
                    height: n.height,
                })
                .collect(),
            edges: l
                .edges
                .into_iter()
                .map(|e| RoutedEdge {
                    index: e.index,
                    from: e.from,
                    to: e.to,
                    back: e.back,
                    points: e.points,
                })
                .collect(),
        }
    }
}
