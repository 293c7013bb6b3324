//! Step 3: dummy nodes, making the layered graph *proper*.
//!
//! After layering, an edge may span several layers. Every such edge is cut
//! into unit-length *segments* by a zero-size dummy node on each layer it
//! passes. Dummies are ordinary nodes for the next two steps: crossing
//! reduction orders them among the real nodes, and coordinate assignment
//! keeps them apart from real nodes by the node gap. The routed edge then
//! passes through the dummies' positions, which are between boxes, so long
//! edges go around nodes instead of through them.
//!
//! Node ids `0..real_count` are the input nodes; dummies follow, created in
//! input edge order (so ids, and everything derived from them, are
//! deterministic). Back edges are stored in their layering direction
//! (upper node first); `Chain::edge.back` remembers to reverse them when
//! routing.

/// One input edge as the layout steps see it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EdgeInput {
    /// Position in the caller's edge list.
    pub index: usize,
    /// Caller's source node.
    pub from: usize,
    /// Caller's target node.
    pub to: usize,
    /// Whether cycle removal reversed this edge.
    pub back: bool,
}

impl EdgeInput {
    /// `(upper, lower)`: the edge in layering direction.
    pub(crate) fn upper_lower(&self) -> (usize, usize) {
        if self.back {
            (self.to, self.from)
        } else {
            (self.from, self.to)
        }
    }
}

#[cfg(test)]
impl EdgeInput {
    /// Test graphs: `(from, to)` pairs as edges none of which was reversed, numbered in order.
    pub(crate) fn forward(edges: &[(usize, usize)]) -> Vec<EdgeInput> {
        edges
            .iter()
            .enumerate()
            .map(|(index, &(from, to))| EdgeInput {
                index,
                from,
                to,
                back: false,
            })
            .collect()
    }
}

/// An edge between two adjacent layers of the proper graph.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Segment {
    /// Node on the upper layer.
    pub upper: usize,
    /// Node on the lower layer.
    pub lower: usize,
    /// How strongly coordinate assignment pulls the two ends into line:
    /// 1 between real nodes, 2 next to a dummy, 8 between two dummies, so
    /// long edges come out straight (the weighting Gansner et al. use).
    pub weight: f64,
}

/// The path of one input edge through the proper graph.
#[derive(Debug, Clone)]
pub(crate) struct Chain {
    /// The input edge.
    pub edge: EdgeInput,
    /// Upper real node, dummies top to bottom, lower real node.
    pub nodes: Vec<usize>,
    /// `nodes.len() - 1` segment ids, top to bottom.
    pub segments: Vec<usize>,
}

/// The layered graph with dummy nodes.
#[derive(Debug, Clone)]
pub(crate) struct ProperGraph {
    /// Number of real (input) nodes; ids at or above it are dummies.
    pub real_count: usize,
    /// Number of layers.
    pub layer_count: usize,
    /// Layer of every node.
    pub layer: Vec<usize>,
    /// Box width of every node (0 for dummies).
    pub width: Vec<f64>,
    /// Box height of every node (0 for dummies).
    pub height: Vec<f64>,
    /// Extra room kept free right of a node (for its self loops).
    pub right_pad: Vec<f64>,
    /// All segments, in creation order.
    pub segments: Vec<Segment>,
    /// Per node: ids of segments whose lower end it is.
    pub up: Vec<Vec<usize>>,
    /// Per node: ids of segments whose upper end it is.
    pub down: Vec<Vec<usize>>,
    /// One chain per layered input edge, in input order.
    pub chains: Vec<Chain>,
}

impl ProperGraph {
    /// Builds the proper graph from real node boxes, their right padding,
    /// their layers and the non-self-loop edges.
    pub(crate) fn build(
        boxes: &[(f64, f64)],
        right_pad: &[f64],
        layer: &[usize],
        edges: &[EdgeInput],
    ) -> Self {
        let real_count = boxes.len();
        let mut graph = ProperGraph {
            real_count,
            layer_count: layer.iter().max().map_or(0, |&m| m + 1),
            layer: layer.to_vec(),
            width: boxes.iter().map(|b| b.0).collect(),
            height: boxes.iter().map(|b| b.1).collect(),
            right_pad: right_pad.to_vec(),
            segments: Vec::new(),
            up: vec![Vec::new(); real_count],
            down: vec![Vec::new(); real_count],
            chains: Vec::with_capacity(edges.len()),
        };
        for edge in edges {
            let (upper, lower) = edge.upper_lower();
            let (Some(&top), Some(&bottom)) = (layer.get(upper), layer.get(lower)) else {
                continue;
            };
            let mut nodes = vec![upper];
            for l in top + 1..bottom {
                nodes.push(graph.add_dummy(l));
            }
            nodes.push(lower);
            let segments = nodes
                .windows(2)
                .map(|pair| graph.add_segment(pair[0], pair[1]))
                .collect();
            graph.chains.push(Chain {
                edge: *edge,
                nodes,
                segments,
            });
        }
        graph
    }

    /// Total number of nodes, dummies included.
    pub(crate) fn node_count(&self) -> usize {
        self.layer.len()
    }

    /// Whether `node` is a dummy.
    pub(crate) fn is_dummy(&self, node: usize) -> bool {
        node >= self.real_count
    }

    fn add_dummy(&mut self, layer: usize) -> usize {
        let id = self.layer.len();
        self.layer.push(layer);
        self.width.push(0.0);
        self.height.push(0.0);
        self.right_pad.push(0.0);
        self.up.push(Vec::new());
        self.down.push(Vec::new());
        self.layer_count = self.layer_count.max(layer + 1);
        id
    }

    fn add_segment(&mut self, upper: usize, lower: usize) -> usize {
        let dummies = usize::from(self.is_dummy(upper)) + usize::from(self.is_dummy(lower));
        let weight = match dummies {
            0 => 1.0,
            1 => 2.0,
            _ => 8.0,
        };
        let id = self.segments.len();
        self.segments.push(Segment {
            upper,
            lower,
            weight,
        });
        self.down[upper].push(id);
        self.up[lower].push(id);
        id
    }

    /// The nodes of every layer, real nodes by id then dummies by creation:
    /// the deterministic starting order for crossing reduction.
    pub(crate) fn initial_layers(&self) -> Vec<Vec<usize>> {
        let mut layers = vec![Vec::new(); self.layer_count];
        for (node, &l) in self.layer.iter().enumerate() {
            if let Some(row) = layers.get_mut(l) {
                row.push(node);
            }
        }
        layers
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(index: usize, from: usize, to: usize, back: bool) -> EdgeInput {
        EdgeInput {
            index,
            from,
            to,
            back,
        }
    }

    #[test]
    fn long_edge_gets_one_dummy_per_inner_layer() {
        // 0 -> 1 -> 2 -> 3 and 0 -> 3 (spans 3 layers).
        let boxes = [(10.0, 10.0); 4];
        let edges = [
            edge(0, 0, 1, false),
            edge(1, 1, 2, false),
            edge(2, 2, 3, false),
            edge(3, 0, 3, false),
        ];
        let g = ProperGraph::build(&boxes, &[0.0; 4], &[0, 1, 2, 3], &edges);
        assert_eq!(g.node_count(), 6);
        assert_eq!(g.layer[4], 1);
        assert_eq!(g.layer[5], 2);
        assert_eq!(g.chains[3].nodes, vec![0, 4, 5, 3]);
        assert_eq!(g.chains[3].segments.len(), 3);
        assert_eq!(g.segments.len(), 6);
        let weights: Vec<f64> = g.chains[3]
            .segments
            .iter()
            .map(|&s| g.segments[s].weight)
            .collect();
        assert_eq!(weights, vec![2.0, 8.0, 2.0]);
        for s in &g.segments {
            assert_eq!(g.layer[s.upper] + 1, g.layer[s.lower]);
        }
        assert_eq!(
            g.initial_layers(),
            vec![vec![0], vec![1, 4], vec![2, 5], vec![3]]
        );
    }

    #[test]
    fn back_edge_is_stored_upper_first() {
        let boxes = [(10.0, 10.0); 2];
        let g = ProperGraph::build(&boxes, &[0.0; 2], &[0, 1], &[edge(0, 1, 0, true)]);
        assert_eq!(g.chains[0].nodes, vec![0, 1]);
        assert_eq!(g.segments[0].upper, 0);
        assert_eq!(g.segments[0].lower, 1);
    }
}
