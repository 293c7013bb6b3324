//! Behaviour of the public `layered` function, checked only through its
//! output, the way the renderer sees it.

use layout::{layered, Layout, NodeSize, Options, PlacedNode, RoutedEdge};

const EPS: f64 = 1e-6;

fn boxes(n: usize) -> Vec<NodeSize> {
    (0..n)
        .map(|i| NodeSize {
            width: 60.0 + 10.0 * (i % 3) as f64,
            height: 24.0 + 8.0 * (i % 2) as f64,
        })
        .collect()
}

fn run(n: usize, edges: &[(usize, usize)]) -> Layout {
    layered(&boxes(n), edges, &Options::default())
}

fn centre(node: &PlacedNode) -> f64 {
    node.x + node.width / 2.0
}

fn edge(layout: &Layout, index: usize) -> &RoutedEdge {
    match layout.edges.iter().find(|e| e.index == index) {
        Some(e) => e,
        None => panic!("edge {index} missing from {layout:?}"),
    }
}

fn on_border(p: [f64; 2], n: &PlacedNode) -> bool {
    let inside_x = p[0] >= n.x - EPS && p[0] <= n.x + n.width + EPS;
    let inside_y = p[1] >= n.y - EPS && p[1] <= n.y + n.height + EPS;
    let on_x = (p[0] - n.x).abs() < EPS || (p[0] - n.x - n.width).abs() < EPS;
    let on_y = (p[1] - n.y).abs() < EPS || (p[1] - n.y - n.height).abs() < EPS;
    inside_x && inside_y && (on_x || on_y)
}

/// Whether segment a-b passes through the open interior of node `n`.
fn segment_enters_box(a: [f64; 2], b: [f64; 2], n: &PlacedNode) -> bool {
    let (x0, x1) = (n.x + EPS, n.x + n.width - EPS);
    let (y0, y1) = (n.y + EPS, n.y + n.height - EPS);
    if x0 >= x1 || y0 >= y1 {
        return false;
    }
    // Liang-Barsky clipping against the shrunken box.
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let mut t0: f64 = 0.0;
    let mut t1: f64 = 1.0;
    for (p, q) in [
        (-dx, a[0] - x0),
        (dx, x1 - a[0]),
        (-dy, a[1] - y0),
        (dy, y1 - a[1]),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    t0 < t1
}

/// Whether two segments properly cross (touching ends do not count).
fn segments_cross(a: [f64; 2], b: [f64; 2], c: [f64; 2], d: [f64; 2]) -> bool {
    fn orient(p: [f64; 2], q: [f64; 2], r: [f64; 2]) -> f64 {
        (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    }
    let d1 = orient(c, d, a);
    let d2 = orient(c, d, b);
    let d3 = orient(a, b, c);
    let d4 = orient(a, b, d);
    d1 * d2 < -EPS && d3 * d4 < -EPS
}

fn geometric_crossings(layout: &Layout) -> usize {
    let mut count = 0;
    for (i, e) in layout.edges.iter().enumerate() {
        for f in &layout.edges[i + 1..] {
            for a in e.points.windows(2) {
                for b in f.points.windows(2) {
                    if segments_cross(a[0], a[1], b[0], b[1]) {
                        count += 1;
                    }
                }
            }
        }
    }
    count
}

/// Checks every invariant the renderer relies on.
fn check_invariants(
    sizes: &[NodeSize],
    edges: &[(usize, usize)],
    options: &Options,
    layout: &Layout,
) {
    let n = sizes.len();
    let gap = options.node_gap;
    assert_eq!(layout.nodes.len(), n);
    assert!(layout.width.is_finite() && layout.height.is_finite());
    for (id, node) in layout.nodes.iter().enumerate() {
        assert_eq!(node.id, id);
        assert_eq!(node.width, sizes[id].width);
        assert_eq!(node.height, sizes[id].height);
        for v in [node.x, node.y] {
            assert!(v.is_finite());
        }
        assert!(node.x >= -EPS && node.x + node.width <= layout.width + EPS);
        assert!(node.y >= -EPS && node.y + node.height <= layout.height + EPS);
    }
    // Same layer: same top, and boxes separated by at least the gap.
    for a in &layout.nodes {
        for b in &layout.nodes {
            if a.id < b.id && a.layer == b.layer {
                assert_eq!(a.y, b.y);
                let apart = a.x + a.width + gap <= b.x + EPS || b.x + b.width + gap <= a.x + EPS;
                assert!(apart, "overlap in layer {}: {a:?} {b:?}", a.layer);
            }
        }
    }
    // Valid edges only, in input order, each once.
    let valid: Vec<usize> = (0..edges.len())
        .filter(|&i| edges[i].0 < n && edges[i].1 < n)
        .collect();
    let got: Vec<usize> = layout.edges.iter().map(|e| e.index).collect();
    assert_eq!(got, valid);
    for e in &layout.edges {
        assert_eq!((e.from, e.to), edges[e.index]);
        assert!(e.points.len() >= 2);
        for p in &e.points {
            assert!(p[0].is_finite() && p[1].is_finite());
            assert!(p[0] >= -EPS && p[0] <= layout.width + EPS, "{p:?} outside");
            assert!(p[1] >= -EPS && p[1] <= layout.height + EPS, "{p:?} outside");
        }
        let (first, last) = (e.points[0], e.points[e.points.len() - 1]);
        assert!(
            on_border(first, &layout.nodes[e.from]),
            "start {first:?} of {e:?}"
        );
        assert!(
            on_border(last, &layout.nodes[e.to]),
            "end {last:?} of {e:?}"
        );
        if e.from == e.to {
            assert!(!e.back);
        } else if e.back {
            assert!(layout.nodes[e.from].layer > layout.nodes[e.to].layer);
        } else {
            assert!(layout.nodes[e.from].layer < layout.nodes[e.to].layer);
        }
        // No edge passes through any box.
        for seg in e.points.windows(2) {
            for node in &layout.nodes {
                assert!(
                    !segment_enters_box(seg[0], seg[1], node),
                    "edge {} segment {seg:?} crosses node {node:?}",
                    e.index
                );
            }
        }
    }
}

/// A tiny deterministic linear congruential generator (Knuth's MMIX
/// constants), so the random tests need no dependency and never change.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, bound: u64) -> usize {
        (self.next() % bound) as usize
    }
}

#[test]
fn chain_is_one_straight_column() {
    let l = run(3, &[(0, 1), (1, 2)]);
    let layers: Vec<usize> = l.nodes.iter().map(|n| n.layer).collect();
    assert_eq!(layers, vec![0, 1, 2]);
    assert!(l.nodes[0].y < l.nodes[1].y && l.nodes[1].y < l.nodes[2].y);
    assert!((centre(&l.nodes[0]) - centre(&l.nodes[1])).abs() < EPS);
    assert!((centre(&l.nodes[1]) - centre(&l.nodes[2])).abs() < EPS);
    assert!(l.edges.iter().all(|e| !e.back));
    // A straight chain edge is vertical.
    for e in &l.edges {
        assert!(e.points.iter().all(|p| (p[0] - e.points[0][0]).abs() < EPS));
    }
    check_invariants(&boxes(3), &[(0, 1), (1, 2)], &Options::default(), &l);
}

#[test]
fn diamond_puts_the_arms_side_by_side() {
    let edges = [(0, 1), (0, 2), (1, 3), (2, 3)];
    let l = run(4, &edges);
    let layers: Vec<usize> = l.nodes.iter().map(|n| n.layer).collect();
    assert_eq!(layers, vec![0, 1, 1, 2]);
    assert!(l.nodes[3].y > l.nodes[1].y);
    assert_eq!(geometric_crossings(&l), 0);
    // Entry and join are centred between the arms.
    let mid = (centre(&l.nodes[1]) + centre(&l.nodes[2])) / 2.0;
    assert!((centre(&l.nodes[0]) - mid).abs() < 1.0);
    assert!((centre(&l.nodes[3]) - mid).abs() < 1.0);
    check_invariants(&boxes(4), &edges, &Options::default(), &l);
}

#[test]
fn loop_has_exactly_one_back_edge_drawn_upward() {
    let edges = [(0, 1), (1, 2), (2, 1)];
    let l = run(3, &edges);
    let layers: Vec<usize> = l.nodes.iter().map(|n| n.layer).collect();
    assert_eq!(layers, vec![0, 1, 2]);
    let back: Vec<usize> = l.edges.iter().filter(|e| e.back).map(|e| e.index).collect();
    assert_eq!(back, vec![2]);
    // The back edge leaves the top of 2 and enters the bottom of 1.
    let e = edge(&l, 2);
    let (first, last) = (e.points[0], e.points[e.points.len() - 1]);
    assert!((first[1] - l.nodes[2].y).abs() < EPS);
    assert!((last[1] - (l.nodes[1].y + l.nodes[1].height)).abs() < EPS);
    // It runs beside the forward edge 1 -> 2, not on top of it.
    let forward = edge(&l, 1);
    assert!((forward.points[0][0] - last[0]).abs() > 1.0);
    check_invariants(&boxes(3), &edges, &Options::default(), &l);
}

#[test]
fn long_edge_bends_through_dummy_nodes() {
    // 0 -> 1 -> 2 -> 3 and 0 -> 3 spanning three layers.
    let edges = [(0, 1), (1, 2), (2, 3), (0, 3)];
    let l = run(4, &edges);
    assert_eq!(l.nodes[3].layer, 3);
    let e = edge(&l, 3);
    assert!(e.points.len() >= 4, "{e:?}");
    let interior = &e.points[1..e.points.len() - 1];
    assert!(interior.len() >= 2);
    // The long edge is routed beside the chain, never through nodes 1 and 2.
    check_invariants(&boxes(4), &edges, &Options::default(), &l);
    // And points go steadily down.
    for w in e.points.windows(2) {
        assert!(w[1][1] >= w[0][1] - EPS);
    }
}

#[test]
fn long_back_edge_goes_up_through_dummies() {
    // Loop 1 -> 2 -> 3 -> 4 with latch 4 -> 1.
    let edges = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 1), (4, 5)];
    let l = run(6, &edges);
    let e = edge(&l, 4);
    assert!(e.back);
    assert!(e.points.len() >= 4);
    for w in e.points.windows(2) {
        assert!(w[1][1] <= w[0][1] + EPS, "back edge must climb: {e:?}");
    }
    assert_eq!(l.edges.iter().filter(|e| e.back).count(), 1);
    check_invariants(&boxes(6), &edges, &Options::default(), &l);
}

#[test]
fn self_loops_stick_out_to_the_right_and_nest() {
    let edges = [(0, 1), (1, 1), (1, 1), (1, 2)];
    let l = run(3, &edges);
    let node = &l.nodes[1];
    let right = node.x + node.width;
    let mut widths = Vec::new();
    for index in [1, 2] {
        let e = edge(&l, index);
        assert!(!e.back);
        assert!(e.points.len() >= 3);
        assert!(e.points.iter().all(|p| p[0] >= right - EPS));
        let out = e.points.iter().map(|p| p[0]).fold(f64::MIN, f64::max);
        assert!(out > right + 1.0);
        widths.push(out);
    }
    assert!(widths[0] < widths[1], "second loop must enclose the first");
    assert_eq!(
        l.nodes.iter().map(|n| n.layer).collect::<Vec<_>>(),
        vec![0, 1, 2]
    );
    check_invariants(&boxes(3), &edges, &Options::default(), &l);
}

#[test]
fn parallel_edges_do_not_overlap() {
    let edges = [(0, 1), (0, 1), (0, 1)];
    let l = run(2, &edges);
    let starts: Vec<f64> = l.edges.iter().map(|e| e.points[0][0]).collect();
    assert!(starts[0] + 1.0 < starts[1] && starts[1] + 1.0 < starts[2]);
    assert_eq!(geometric_crossings(&l), 0);
    check_invariants(&boxes(2), &edges, &Options::default(), &l);
}

#[test]
fn crossing_free_drawing_is_found() {
    // In id order layer 1 would be [2, 3] and both edges would cross.
    let edges = [(0, 3), (1, 2)];
    let l = run(4, &edges);
    assert!(centre(&l.nodes[0]) < centre(&l.nodes[1]));
    assert!(centre(&l.nodes[3]) < centre(&l.nodes[2]));
    assert_eq!(geometric_crossings(&l), 0);

    // A bigger one that needs an upward pass: sources 0..4 alternate
    // between the two nodes of layer 1.
    let edges = [(0, 5), (1, 4), (2, 5), (3, 4), (4, 6), (5, 6)];
    let l = run(7, &edges);
    assert_eq!(geometric_crossings(&l), 0);
    check_invariants(&boxes(7), &edges, &Options::default(), &l);

    // A scrambled binary tree of depth 3.
    let edges = [
        (0, 2),
        (0, 1),
        (1, 6),
        (1, 3),
        (2, 5),
        (2, 4),
        (3, 10),
        (4, 8),
        (5, 12),
        (6, 7),
        (3, 14),
        (4, 11),
        (5, 9),
        (6, 13),
    ];
    let l = run(15, &edges);
    assert_eq!(geometric_crossings(&l), 0);
    check_invariants(&boxes(15), &edges, &Options::default(), &l);
}

#[test]
fn out_of_range_edges_are_ignored() {
    let edges = [(0, 1), (0, 7), (usize::MAX, 1), (1, 2), (3, 3), (2, 0)];
    let l = run(3, &edges);
    let got: Vec<usize> = l.edges.iter().map(|e| e.index).collect();
    assert_eq!(got, vec![0, 3, 5]);
    assert!(edge(&l, 5).back);
    check_invariants(&boxes(3), &edges, &Options::default(), &l);
    // Same as without the bad edges, apart from the indices.
    let clean = run(3, &[(0, 1), (1, 2), (2, 0)]);
    assert_eq!(l.nodes, clean.nodes);
    for (a, b) in l.edges.iter().zip(&clean.edges) {
        assert_eq!(a.points, b.points);
    }
}

#[test]
fn empty_graph_is_just_the_margins() {
    let options = Options {
        margin: 10.0,
        ..Options::default()
    };
    let l = layered(&[], &[(0, 1), (2, 2)], &options);
    assert_eq!(l.width, 20.0);
    assert_eq!(l.height, 20.0);
    assert!(l.nodes.is_empty() && l.edges.is_empty());
}

#[test]
fn single_node_is_placed_at_the_margin() {
    let sizes = [NodeSize {
        width: 100.0,
        height: 40.0,
    }];
    let l = layered(&sizes, &[], &Options::default());
    assert_eq!((l.nodes[0].x, l.nodes[0].y), (16.0, 16.0));
    assert_eq!((l.width, l.height), (132.0, 72.0));
}

#[test]
fn hostile_numbers_stay_finite() {
    let sizes = [
        NodeSize {
            width: f64::NAN,
            height: f64::INFINITY,
        },
        NodeSize {
            width: -4.0,
            height: f64::NEG_INFINITY,
        },
        NodeSize {
            width: 1e300,
            height: 1e300,
        },
        NodeSize {
            width: 0.0,
            height: 0.0,
        },
    ];
    let options = Options {
        layer_gap: f64::NAN,
        node_gap: f64::INFINITY,
        margin: -3.0,
        sweeps: usize::MAX,
    };
    let edges = [(0, 1), (1, 2), (2, 3), (3, 0), (0, 3), (2, 2)];
    let l = layered(&sizes, &edges, &options);
    assert!(l.width.is_finite() && l.height.is_finite());
    for n in &l.nodes {
        assert!([n.x, n.y, n.width, n.height]
            .iter()
            .all(|v| v.is_finite() && *v >= 0.0));
    }
    for e in &l.edges {
        assert!(e.points.iter().flatten().all(|v| v.is_finite()));
    }
}

#[test]
fn zero_sized_nodes_and_gaps_do_not_panic() {
    let sizes = vec![
        NodeSize {
            width: 0.0,
            height: 0.0
        };
        5
    ];
    let options = Options {
        layer_gap: 0.0,
        node_gap: 0.0,
        margin: 0.0,
        sweeps: 3,
    };
    let edges = [(0, 1), (0, 1), (1, 2), (0, 4), (4, 0), (3, 3)];
    let l = layered(&sizes, &edges, &options);
    assert_eq!(l.edges.len(), edges.len());
    assert!(l.edges.iter().all(|e| e.points.len() >= 2));
}

#[test]
fn same_input_gives_identical_output() {
    let mut rng = Lcg(7);
    for _ in 0..20 {
        let n = 1 + rng.below(40);
        let sizes = boxes(n);
        let edges: Vec<(usize, usize)> = (0..rng.below(80))
            .map(|_| (rng.below(n as u64), rng.below(n as u64)))
            .collect();
        let a = layered(&sizes, &edges, &Options::default());
        let b = layered(&sizes, &edges, &Options::default());
        assert_eq!(a, b);
        // Bit-identical, not just equal up to -0.0 == 0.0.
        let bits = |l: &Layout| -> Vec<u64> {
            l.nodes
                .iter()
                .flat_map(|n| [n.x, n.y])
                .chain(
                    l.edges
                        .iter()
                        .flat_map(|e| e.points.iter().flatten().copied()),
                )
                .map(f64::to_bits)
                .collect()
        };
        assert_eq!(bits(&a), bits(&b));
    }
}

#[test]
fn random_graphs_keep_all_invariants() {
    let mut rng = Lcg(0x5eed);
    for round in 0..200 {
        let n = 1 + rng.below(60);
        let sizes: Vec<NodeSize> = (0..n)
            .map(|_| NodeSize {
                width: 20.0 + rng.below(120) as f64,
                height: 16.0 + rng.below(64) as f64,
            })
            .collect();
        let edge_count = rng.below(2 * n as u64 + 1);
        let edges: Vec<(usize, usize)> = (0..edge_count)
            .map(|_| {
                // Mostly CFG-like forward edges, some back edges, self loops
                // and the odd out-of-range endpoint.
                let a = rng.below(n as u64);
                let b = match rng.below(10) {
                    0 => a,
                    1 => n + rng.below(3),
                    2 | 3 => rng.below(n as u64),
                    _ => (a + 1 + rng.below(4)).min(n - 1),
                };
                (a, b)
            })
            .collect();
        let options = if round % 4 == 3 {
            Options {
                layer_gap: rng.below(80) as f64,
                node_gap: rng.below(40) as f64,
                margin: rng.below(30) as f64,
                sweeps: rng.below(12),
            }
        } else {
            Options::default()
        };
        let l = layered(&sizes, &edges, &options);
        check_invariants(&sizes, &edges, &options, &l);
        // Every node is at its margin distance from the left or further, and
        // the canvas ends a margin beyond the farthest drawing.
        let min_x = l.nodes.iter().map(|n| n.x).fold(f64::INFINITY, f64::min);
        assert!(min_x >= options.margin - EPS);
        let max_bottom = l.nodes.iter().map(|n| n.y + n.height).fold(0.0, f64::max);
        assert!((l.height - max_bottom - options.margin).abs() < EPS);
    }
}

#[test]
fn two_thousand_node_cfg_lays_out() {
    // A long program: fall-through chain, a forward branch every 5 blocks,
    // a loop back edge every 50, an early exit every 97.
    let n = 2000;
    let mut edges = Vec::new();
    for i in 0..n - 1 {
        edges.push((i, i + 1));
        if i % 5 == 0 && i + 3 < n {
            edges.push((i, i + 3));
        }
        if i % 50 == 49 {
            edges.push((i, i - 20));
        }
        if i % 97 == 0 {
            edges.push((i, n - 1));
        }
    }
    let l = run(n, &edges);
    assert_eq!(l.nodes.len(), n);
    assert_eq!(l.edges.len(), edges.len());
    assert!(l.edges.iter().filter(|e| e.back).count() >= 39);
    assert!(l.nodes[n - 1].layer >= n / 2);
    assert!(l.width.is_finite() && l.height.is_finite());
    // Serialises (finite numbers only) as the wasm bridge will.
    for e in &l.edges {
        assert!(e.points.iter().flatten().all(|v| v.is_finite()));
    }
}
