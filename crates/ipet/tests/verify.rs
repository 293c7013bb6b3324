//! The loop structure verifier (`ipet::verify`): the loops of every graph IPET is given for
//! the shared corpus — the thread-level graph of every SASS, PTX and GCN3 function and the
//! warp-level CFG of every SASS and PTX one — pass it, and hand-broken loop structures are
//! rejected with the error that names the loop and what breaks.

#[path = "../../isa/tests/corpus_walk/mod.rs"]
mod corpus_walk;

use ipet::verify::{verify_loops, VerifyError};
use ipet::{Cfg, Loop, LoopStructure};
use isa::{blocks, flow, gcn, ptx, Limits};

/// A graph of `nodes` unit-cost nodes, entered at 0.
fn graph(nodes: usize, edges: impl IntoIterator<Item = (usize, usize)>, exits: Vec<usize>) -> Cfg {
    Cfg {
        costs: vec![1; nodes],
        edges: edges.into_iter().collect(),
        entry: 0,
        exits,
    }
}

/// Finds the loops of `g` (the debug build checks them on the way) and checks them again.
/// Returns how many loops it found.
fn check(g: &Cfg, what: &str) -> usize {
    if g.costs.is_empty() {
        return 0;
    }
    let s = LoopStructure::new(g).unwrap_or_else(|e| panic!("{what}: {e:?}"));
    verify_loops(g, s.loops()).unwrap_or_else(|e| panic!("{what}: {e}"));
    s.loops().len()
}

fn warp(w: &cfg::WarpCfg) -> Cfg {
    let mut g = graph(
        w.nodes.len(),
        w.edges.iter().map(|e| (e.from, e.to)),
        vec![w.exit],
    );
    g.entry = w.entry;
    g
}

#[test]
fn every_sass_corpus_function_has_verified_loops() {
    let (mut graphs, mut loops) = (0, 0);
    for (what, k) in corpus_walk::sass_kernels() {
        let g = blocks::build(&k, &Limits::default());
        let edges = g.edges().into_iter().map(|(a, b, _)| (a, b));
        loops += check(&graph(g.blocks.len(), edges, Vec::new()), &what);
        graphs += 1;
        if let Ok(w) = cfg::build(&k, &g, &cfg::Options::default()) {
            loops += check(&warp(&w), &format!("{what} (warp-level)"));
            graphs += 1;
        }
    }
    assert!(
        graphs >= 200 && loops >= 100,
        "{graphs} graphs, {loops} loops"
    );
}

#[test]
fn every_ptx_and_gcn_corpus_function_has_verified_loops() {
    let (mut graphs, mut loops) = (0, 0);
    for (what, f) in corpus_walk::ptx_functions() {
        let g = flow::build(&ptx::flows(&f));
        let edges = g.edges.iter().map(|&(a, b, _)| (a, b));
        loops += check(&graph(g.blocks.len(), edges, Vec::new()), &what);
        graphs += 1;
        if let Ok(p) = cfg::ptx::build(&f, &cfg::Options::default()) {
            loops += check(&warp(&p.warp), &format!("{what} (warp-level)"));
            graphs += 1;
        }
    }
    for (what, f) in corpus_walk::gcn_functions() {
        let g = flow::build(&gcn::flows(&f));
        let edges = g.edges.iter().map(|&(a, b, _)| (a, b));
        loops += check(&graph(g.blocks.len(), edges, Vec::new()), &what);
        graphs += 1;
    }
    assert!(
        graphs >= 150 && loops >= 50,
        "{graphs} graphs, {loops} loops"
    );
}

/// 0 → 1 → 2 → 1 (back edge), 2 → 3 → 4 → 3 (back edge), 4 → 5: two loops in sequence.
fn two_loops() -> (Cfg, Vec<Loop>) {
    let g = graph(
        6,
        [(0, 1), (1, 2), (2, 1), (2, 3), (3, 4), (4, 3), (4, 5)],
        vec![5],
    );
    let loops = LoopStructure::new(&g).expect("valid").into_loops();
    assert_eq!(loops.len(), 2);
    assert_eq!(verify_loops(&g, &loops), Ok(()));
    (g, loops)
}

#[test]
fn a_body_node_the_header_does_not_dominate_is_rejected() {
    let (g, mut loops) = two_loops();
    // Node 0 (the entry) added to the first loop: its header, 1, does not dominate it.
    loops[0].body.insert(0, 0);
    assert_eq!(
        verify_loops(&g, &loops),
        Err(VerifyError::NotDominated { header: 1, node: 0 })
    );
}

#[test]
fn a_loop_naming_a_missing_node_or_edge_is_rejected() {
    let (g, loops) = two_loops();
    let mut m = loops.clone();
    m[1].body.push(6);
    assert_eq!(
        verify_loops(&g, &m),
        Err(VerifyError::MissingNode { header: 3, node: 6 })
    );
    let mut m = loops;
    m[0].back_edges = vec![7];
    assert_eq!(
        verify_loops(&g, &m),
        Err(VerifyError::MissingEdge { header: 1, edge: 7 })
    );
}

#[test]
fn wrong_back_and_entry_edges_are_rejected() {
    let (g, loops) = two_loops();
    // Edge 1 (1 → 2) does not go back to the header.
    let mut m = loops.clone();
    m[0].back_edges = vec![1];
    assert_eq!(
        verify_loops(&g, &m),
        Err(VerifyError::BackEdge { header: 1, edge: 1 })
    );
    // The edge into the loop (0 → 1) left out of its entry edges.
    let mut m = loops;
    m[0].entry_edges.clear();
    assert_eq!(
        verify_loops(&g, &m),
        Err(VerifyError::Entry { header: 1, edge: 0 })
    );
}

#[test]
fn overlapping_loops_are_rejected() {
    let (g, mut loops) = two_loops();
    // The first loop grows into the second one's header (3 is dominated by 1), without
    // holding its whole body.
    loops[0].body = vec![1, 2, 3];
    loops[0].entry_edges = vec![0];
    assert_eq!(
        verify_loops(&g, &loops),
        Err(VerifyError::Overlap {
            a: 1,
            b: 3,
            node: 3
        })
    );
}

/// 0 → 1, 0 → 2, 1 ⇄ 2: a cycle entered at both of its nodes, an irreducible region.
fn irreducible() -> (Cfg, Vec<Loop>) {
    let g = graph(4, [(0, 1), (0, 2), (1, 2), (2, 1), (2, 3)], vec![3]);
    let loops = LoopStructure::new(&g).expect("valid").into_loops();
    assert_eq!(loops.len(), 1);
    assert!(loops[0].irreducible);
    assert_eq!(verify_loops(&g, &loops), Ok(()));
    (g, loops)
}

#[test]
fn an_irreducible_region_stated_as_a_natural_loop_is_rejected() {
    let (g, mut loops) = irreducible();
    loops[0].irreducible = false;
    assert_eq!(
        verify_loops(&g, &loops),
        Err(VerifyError::Header {
            header: 1,
            what: "a natural loop is entered through its header alone"
        })
    );
    // With the header as its only entry, 1 still does not dominate 2.
    loops[0].entry_nodes = vec![1];
    assert_eq!(
        verify_loops(&g, &loops),
        Err(VerifyError::NotDominated { header: 1, node: 2 })
    );
}

#[test]
fn a_natural_loop_stated_as_irreducible_is_rejected() {
    let (g, mut loops) = two_loops();
    loops[0].irreducible = true;
    assert_eq!(
        verify_loops(&g, &loops),
        Err(VerifyError::Reducible {
            header: 1,
            dominator: 1
        })
    );
}
