//! Layered (Sugiyama-style) layout of directed graphs, used by Warpbound to
//! draw kernel control-flow graphs.
//!
//! # What this crate is
//!
//! A pure, deterministic function, [`layered`], that takes node sizes and a
//! list of directed edges and returns every coordinate a renderer needs: the
//! top-left corner of each node and a polyline for each edge. The browser
//! front end only turns this [`Layout`] into SVG elements; it does no
//! geometry of its own, so everything that decides how a drawing looks lives
//! here and can be tested natively.
//!
//! # What this crate is not
//!
//! It does no rendering (no SVG, no text measurement: callers pass node sizes
//! in), no I/O, no threads, no clocks and no randomness. It compiles to
//! `wasm32-unknown-unknown`, and the same input always gives a bit-identical
//! output, so a layout can be cached, diffed and snapshot-tested.
//!
//! # The pipeline
//!
//! Each step lives in its own module:
//!
//! 1. **Cycle removal** (`acyclic`): an iterative depth-first search from the
//!    nodes in index order (node 0 is normally the kernel entry) marks every
//!    edge that reaches a node still on the DFS stack as a *back edge*. Back
//!    edges are reversed for the following steps and reported with
//!    [`RoutedEdge::back`] set. Self loops take no part in layering; they are
//!    drawn as a small loop on the node's right side.
//! 2. **Layer assignment** (`layering`): longest path from the sources of the
//!    now acyclic graph, so a CFG reads top to bottom in roughly program order.
//! 3. **Dummy nodes** (`proper`): an edge spanning more than one layer gets a
//!    zero-width dummy node on every layer it passes, so that it takes part in
//!    ordering and spacing and is routed between nodes rather than through
//!    them.
//! 4. **Crossing reduction** (`ordering`): barycenter heuristic in
//!    alternating downward and upward sweeps, ties broken by previous
//!    position; the ordering with the fewest crossings seen is kept.
//! 5. **Coordinates** (`coordinates`): each layer's row starts below the
//!    tallest node of the previous row plus [`Options::layer_gap`]; x
//!    positions start packed and are then pulled toward the (weighted) mean
//!    of their neighbours' centres, a layer at a time, by an exact
//!    order-preserving least-squares fit that keeps the minimum gaps.
//! 6. **Edge routing** (`routing`): each edge is a polyline from a port on
//!    the bottom border of its upper node, through its dummy nodes, to a port
//!    on the top border of its lower node; a back edge is the same line
//!    traversed the other way, so it leaves the *top* of its source and
//!    enters the *bottom* of its target.
//! 7. **Bounding box**: [`Layout::width`] and [`Layout::height`] enclose
//!    everything plus [`Options::margin`].
//!
//! # Robustness
//!
//! [`layered`] never panics. Edges with an out-of-range endpoint are ignored
//! and left out of the output. Negative or NaN sizes are treated as 0, NaN
//! options fall back to their defaults and negative ones to 0, and every
//! length (infinity included) is capped at [`MAX_EXTENT`], so every output
//! number is finite.

#![warn(missing_docs)]

mod acyclic;
mod coordinates;
mod layering;
mod ordering;
mod proper;
mod routing;

/// Largest width, height, gap or margin the layout accepts; larger (or
/// infinite) values are clamped to it.
///
/// Why: sums of many clamped lengths stay far below `f64::MAX`, so the output
/// never contains infinities or NaN, which JSON cannot carry and SVG cannot
/// draw.
pub const MAX_EXTENT: f64 = 1.0e6;

/// Most crossing-reduction sweeps run, whatever [`Options::sweeps`] asks for.
///
/// Why: the sweeps are the only loop whose length the caller controls; the cap
/// keeps a careless `usize::MAX` from hanging a browser tab.
pub const MAX_SWEEPS: usize = 256;

/// Size of one node's box, as measured by the caller (for example from the
/// rendered text of a basic block).
///
/// Why: this crate does no text measurement, so the caller tells it how much
/// room each node needs.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeSize {
    /// Width of the node's box.
    pub width: f64,
    /// Height of the node's box.
    pub height: f64,
}

/// Spacing and effort settings for [`layered`].
///
/// Why: the front end tunes spacing to its font and zoom, and may trade
/// crossing-reduction effort for speed on very large graphs.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Vertical distance between the bottom of the tallest node of a layer
    /// and the top of the next layer; the room edges have to bend in.
    pub layer_gap: f64,
    /// Minimum horizontal distance between two boxes of one layer. Two dummy
    /// nodes (edge bends) need only half of it.
    pub node_gap: f64,
    /// Empty border around the whole drawing.
    pub margin: f64,
    /// Number of crossing-reduction passes; each pass is one direction,
    /// alternating downward and upward, starting downward. Capped at
    /// [`MAX_SWEEPS`]; 0 keeps the initial order.
    pub sweeps: usize,
}

impl Default for Options {
    /// Spacing that suits monospace basic-block labels at the default zoom.
    fn default() -> Self {
        Options {
            layer_gap: 56.0,
            node_gap: 28.0,
            margin: 16.0,
            sweeps: 8,
        }
    }
}

/// Where one input node ended up.
///
/// Why: the renderer draws the node's box exactly here.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedNode {
    /// Index of the node in the `sizes` slice given to [`layered`].
    pub id: usize,
    /// Layer (row) of the node, 0 at the top.
    pub layer: usize,
    /// Left edge of the box.
    pub x: f64,
    /// Top edge of the box.
    pub y: f64,
    /// Width of the box (the input width after clamping).
    pub width: f64,
    /// Height of the box (the input height after clamping).
    pub height: f64,
}

/// The drawn path of one input edge.
///
/// Why: edges are polylines computed here so that they avoid node boxes; the
/// renderer only strokes them and adds an arrow head at the last point.
#[derive(Debug, Clone, PartialEq)]
pub struct RoutedEdge {
    /// Position of the edge in the `edges` slice given to [`layered`], so the
    /// caller can attach its own labels or styles.
    pub index: usize,
    /// Source node id.
    pub from: usize,
    /// Target node id.
    pub to: usize,
    /// Whether the edge closes a cycle (a loop back edge in a CFG), found by
    /// the depth-first search. Self loops are not back edges.
    pub back: bool,
    /// At least two points; the first lies on the border of `from` and the
    /// last on the border of `to`.
    pub points: Vec<[f64; 2]>,
}

/// A complete drawing: canvas size, node boxes and edge polylines.
///
/// Why: this is the whole contract with the renderer; nothing is computed in
/// the browser.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Width of the canvas; every coordinate lies in `[0, width]`.
    pub width: f64,
    /// Height of the canvas; every coordinate lies in `[0, height]`.
    pub height: f64,
    /// One entry per input node, in id order.
    pub nodes: Vec<PlacedNode>,
    /// One entry per valid input edge, in input order; edges with an
    /// out-of-range endpoint are left out.
    pub edges: Vec<RoutedEdge>,
}

/// Options after clamping, used by every step.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Params {
    pub layer_gap: f64,
    pub node_gap: f64,
    pub margin: f64,
    pub sweeps: usize,
}

impl Params {
    fn new(options: &Options) -> Self {
        let defaults = Options::default();
        Params {
            layer_gap: clean_length(options.layer_gap, defaults.layer_gap),
            node_gap: clean_length(options.node_gap, defaults.node_gap),
            margin: clean_length(options.margin, defaults.margin),
            sweeps: options.sweeps.min(MAX_SWEEPS),
        }
    }

    /// How far a self loop sticks out of the right border of its node.
    pub(crate) fn loop_extent(&self) -> f64 {
        (self.node_gap * 0.5).clamp(8.0, 24.0)
    }
}

/// Clamps a length into `[0, MAX_EXTENT]`, replacing NaN by `fallback`.
fn clean_length(value: f64, fallback: f64) -> f64 {
    if value.is_nan() {
        fallback
    } else {
        value.clamp(0.0, MAX_EXTENT)
    }
}

/// Lays out a directed graph in layers, top to bottom.
///
/// `sizes[i]` is the box of node `i`; `edges` are `(from, to)` pairs of node
/// indices. Self loops and parallel edges are allowed; edges naming a node
/// outside `sizes` are ignored. The depth-first search that finds back edges
/// visits roots in index order, so node 0 should be the entry of a CFG.
///
/// Why a single function: the renderer needs nothing but the result, and a
/// pure function of its inputs is trivially deterministic and testable.
pub fn layered(sizes: &[NodeSize], edges: &[(usize, usize)], options: &Options) -> Layout {
    let params = Params::new(options);
    let n = sizes.len();
    if n == 0 {
        return Layout {
            width: 2.0 * params.margin,
            height: 2.0 * params.margin,
            nodes: Vec::new(),
            edges: Vec::new(),
        };
    }
    let boxes: Vec<(f64, f64)> = sizes
        .iter()
        .map(|s| (clean_length(s.width, 0.0), clean_length(s.height, 0.0)))
        .collect();

    // Step 1: back edges; split valid edges into self loops and layered ones.
    let back = acyclic::back_edges(n, edges);
    let mut self_loops: Vec<(usize, usize)> = Vec::new();
    let mut routed: Vec<proper::EdgeInput> = Vec::new();
    for (index, &(from, to)) in edges.iter().enumerate() {
        if from >= n || to >= n {
            continue;
        }
        if from == to {
            self_loops.push((index, from));
        } else {
            routed.push(proper::EdgeInput {
                index,
                from,
                to,
                back: back.get(index).copied().unwrap_or(false),
            });
        }
    }

    // Step 2: layers.
    let dag: Vec<(usize, usize)> = routed.iter().map(|e| e.upper_lower()).collect();
    let layer = layering::longest_path(n, &dag);

    // Step 3: dummy nodes. Nodes with self loops get room on their right.
    let mut right_pad = vec![0.0; n];
    for &(_, node) in &self_loops {
        right_pad[node] = params.loop_extent();
    }
    let graph = proper::ProperGraph::build(&boxes, &right_pad, &layer, &routed);

    // Step 4: ordering.
    let layers = ordering::order(&graph, params.sweeps);

    // Step 5: coordinates.
    let coords = coordinates::assign(&graph, &layers, &params);

    // Step 6: routing.
    let mut routed_edges = routing::route(&graph, &layers, &coords);
    routed_edges.extend(routing::self_loops(&graph, &coords, &self_loops, &params));
    routed_edges.sort_by_key(|e| e.index);

    let nodes: Vec<PlacedNode> = (0..n)
        .map(|id| PlacedNode {
            id,
            layer: graph.layer[id],
            x: coords.x[id],
            y: coords.top_of(id, &graph),
            width: graph.width[id],
            height: graph.height[id],
        })
        .collect();

    // Step 7: bounding box.
    let mut max_x = params.margin;
    let mut max_y = params.margin;
    for node in &nodes {
        max_x = max_x.max(node.x + node.width + graph.right_pad[node.id]);
        max_y = max_y.max(node.y + node.height);
    }
    for edge in &routed_edges {
        for p in &edge.points {
            max_x = max_x.max(p[0]);
            max_y = max_y.max(p[1]);
        }
    }

    Layout {
        width: max_x + params.margin,
        height: max_y + params.margin,
        nodes,
        edges: routed_edges,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_options_match_documented_values() {
        let o = Options::default();
        assert_eq!(o.layer_gap, 56.0);
        assert_eq!(o.node_gap, 28.0);
        assert_eq!(o.margin, 16.0);
        assert_eq!(o.sweeps, 8);
    }

    #[test]
    fn bad_options_are_sanitised() {
        let p = Params::new(&Options {
            layer_gap: f64::NAN,
            node_gap: -5.0,
            margin: f64::INFINITY,
            sweeps: usize::MAX,
        });
        assert_eq!(p.layer_gap, 56.0);
        assert_eq!(p.node_gap, 0.0);
        assert_eq!(p.margin, MAX_EXTENT);
        assert_eq!(p.sweeps, MAX_SWEEPS);
    }
}
