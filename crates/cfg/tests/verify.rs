//! The warp-level CFG verifier (`cfg::verify`): every graph built from the shared corpus
//! (SASS of every generation, PTX) passes it, and hand-broken graphs are rejected with the
//! error that names what was broken.

mod common;
#[path = "../../isa/tests/corpus_walk/mod.rs"]
mod corpus_walk;

use cfg::verify::{verify, VerifyError};
use cfg::{Entry, Options, Point, Tag, WarpCfg, WarpEdge, WarpEdgeKind, WarpNode};
use isa::{blocks, ptx, Limits};

/// Every function of every SASS listing (`sass`, `sass-modern`): each warp-level CFG the
/// builder completes passes the verifier (the builder's own debug check ran too).
#[test]
fn every_sass_corpus_warp_cfg_verifies() {
    let mut built = 0;
    for (what, k) in corpus_walk::sass_kernels() {
        let g = blocks::build(&k, &Limits::default());
        if let Ok(w) = cfg::build(&k, &g, &Options::default()) {
            verify(&w, g.blocks.len()).unwrap_or_else(|e| panic!("{what}: {e}"));
            built += 1;
        }
    }
    assert!(built >= 100, "only {built} SASS warp-level CFGs built");
}

/// Every function with a body of every PTX module (`ptx`, `ptx-modern`).
#[test]
fn every_ptx_corpus_warp_cfg_verifies() {
    let mut built = 0;
    for (what, f) in corpus_walk::ptx_functions() {
        if let Ok(p) = cfg::ptx::build(&f, &Options::default()) {
            verify(&p.warp, p.graph.blocks.len()).unwrap_or_else(|e| panic!("{what}: {e}"));
            built += 1;
        }
    }
    assert!(built >= 60, "only {built} PTX warp-level CFGs built");
}

/// A divergent if-then-else in a convergence-barrier region (sm_70 and later), whose graph
/// has pending paths, barrier entries and a resumption: the base of the mutations below.
const IF_THEN_ELSE: &str = "
    /*0000*/ S2R R0, SR_TID.X ;
    /*0010*/ ISETP.GE.AND P0, PT, R0, 0x10, PT ;
    /*0020*/ BSSY B0, 0x80 ;
    /*0030*/ @P0 BRA 0x60 ;
    /*0040*/ IADD3 R1, R0, 0x1, RZ ;
    /*0050*/ BRA 0x70 ;
    /*0060*/ IADD3 R1, R0, 0x2, RZ ;
    /*0070*/ BSYNC B0 ;
    /*0080*/ STG.E [R2], R1 ;
    /*0090*/ EXIT ;
";

fn base() -> (WarpCfg, usize) {
    let (_, g, w) = common::warp(IF_THEN_ELSE, &Options::default());
    assert_eq!(verify(&w, g.blocks.len()), Ok(()));
    (w, g.blocks.len())
}

/// What `verify` says of a badly nested entry.
fn nesting(node: usize, entry: usize, what: &'static str) -> Result<(), VerifyError> {
    Err(VerifyError::Nesting { node, entry, what })
}

/// What `verify` says of a malformed entry.
fn entry_error(node: usize, entry: usize, what: &'static str) -> Result<(), VerifyError> {
    Err(VerifyError::Entry { node, entry, what })
}

/// A node other than the entry and the exit, with a non-empty stack.
fn node_with_stack(w: &WarpCfg) -> usize {
    w.nodes
        .iter()
        .position(|n| !n.stack.is_empty())
        .expect("the divergent branch leaves entries pending")
}

#[test]
fn an_edge_to_a_missing_node_is_rejected() {
    let (mut w, blocks) = base();
    let nodes = w.nodes.len();
    w.edges.push(WarpEdge {
        from: w.entry,
        to: nodes,
        kind: WarpEdgeKind::Taken,
    });
    let edge = w.edges.len() - 1;
    assert_eq!(
        verify(&w, blocks),
        Err(VerifyError::EdgeEnd {
            edge,
            from: w.entry,
            to: nodes,
            nodes
        })
    );
}

#[test]
fn an_edge_out_of_the_exit_is_rejected() {
    let (mut w, blocks) = base();
    w.edges.push(WarpEdge {
        from: w.exit,
        to: w.entry,
        kind: WarpEdgeKind::Taken,
    });
    let edge = w.edges.len() - 1;
    assert_eq!(verify(&w, blocks), Err(VerifyError::EdgeFromExit { edge }));
}

#[test]
fn a_missing_entry_a_missing_block_and_a_renumbered_node_are_rejected() {
    let (w, blocks) = base();
    let nodes = w.nodes.len();
    let mut m = w.clone();
    m.entry = nodes;
    assert_eq!(
        verify(&m, blocks),
        Err(VerifyError::MissingNode {
            which: "entry",
            node: nodes,
            nodes
        })
    );
    // With a thread-level graph of one block, the first node of another block names a
    // missing one.
    let node = w
        .nodes
        .iter()
        .position(|n| n.block.is_some_and(|b| b >= 1))
        .expect("several blocks");
    assert_eq!(
        verify(&w, 1),
        Err(VerifyError::MissingBlock {
            node,
            block: w.nodes[node].block.expect("a block"),
            blocks: 1
        })
    );
    let mut m = w.clone();
    m.nodes[2].id = 7;
    assert_eq!(
        verify(&m, blocks),
        Err(VerifyError::NodeId { node: 2, id: 7 })
    );
    let mut m = w;
    let exit = m.exit;
    m.nodes[exit].block = Some(0);
    assert_eq!(
        verify(&m, blocks),
        Err(VerifyError::ExitNotVirtual { exit })
    );
}

#[test]
fn a_resumption_of_a_missing_edge_is_rejected() {
    let (mut w, blocks) = base();
    assert!(!w.resumptions.is_empty(), "{w:?}");
    let edges = w.edges.len();
    w.resumptions[0].edge = edges;
    assert_eq!(
        verify(&w, blocks),
        Err(VerifyError::Resumption {
            index: 0,
            edge: edges
        })
    );
}

#[test]
fn an_unreachable_node_is_rejected() {
    let (mut w, blocks) = base();
    // A node of block 0 that no edge enters.
    let node = w.nodes.len();
    w.nodes.push(WarpNode {
        id: node,
        block: Some(0),
        stack: Vec::new(),
        agreed_registers: 0,
    });
    assert_eq!(verify(&w, blocks), Err(VerifyError::Unreachable { node }));
}

#[test]
fn a_point_pending_twice_is_rejected() {
    let (mut w, blocks) = base();
    let node = node_with_stack(&w);
    let again = w.nodes[node].stack[0].clone();
    w.nodes[node].stack.push(again);
    let entry = w.nodes[node].stack.len() - 1;
    assert_eq!(
        verify(&w, blocks),
        entry_error(node, entry, "activation point already pending below")
    );
}

#[test]
fn several_points_outside_a_cycle_are_rejected() {
    let (mut w, blocks) = base();
    let node = node_with_stack(&w);
    let e = &mut w.nodes[node].stack[0];
    e.points.push(Point {
        pc: usize::MAX - 5,
        tag: Tag::Nil,
    });
    e.repeated = false;
    assert_eq!(
        verify(&w, blocks),
        entry_error(node, 0, "several points but not a cycle")
    );
}

/// `w` with `node`'s stack changed by `change`, and the index of the stack's top after it.
fn with_stack(w: &WarpCfg, node: usize, change: impl FnOnce(&mut Vec<Entry>)) -> (WarpCfg, usize) {
    let mut m = w.clone();
    change(&mut m.nodes[node].stack);
    let top = m.nodes[node].stack.len().saturating_sub(1);
    (m, top)
}

#[test]
fn badly_nested_sass_entries_are_rejected() {
    let (w, blocks) = base();
    let node = node_with_stack(&w);
    let (m, top) = with_stack(&w, node, |s| s.push(Entry::any()));
    let what = "\"any stack\" above the bottom, or with other points";
    assert_eq!(verify(&m, blocks), nesting(node, top, what));
    let (m, top) = with_stack(&w, node, |s| s.push(Entry::single(0, Tag::WarpSync)));
    let what = "the saved warp above the bottom";
    assert_eq!(verify(&m, blocks), nesting(node, top, what));
    let (m, top) = with_stack(&w, node, |s| s.push(Entry::single(0, Tag::Rpc)));
    let what = "SASS and post-dominator entries in one stack";
    assert_eq!(verify(&m, blocks), nesting(node, top, what));
}

/// A PTX if-then-else: the taken path runs first, the other waits above the reconvergence
/// entry at the branch's immediate post-dominator.
const PTX_IF_THEN_ELSE: &str = "
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 16;
    @%p1 bra THEN;
    add.s32 %r2, %r1, 1;
    bra.uni JOIN;
THEN:
    add.s32 %r2, %r1, 2;
JOIN:
    add.s32 %r3, %r2, %r2;
    ret;
}
";

fn ptx_base() -> (WarpCfg, usize) {
    let module = ptx::parse(PTX_IF_THEN_ELSE, &Limits::default()).module;
    let p = cfg::ptx::build(&module.functions[0], &Options::default()).expect("warp CFG");
    assert_eq!(verify(&p.warp, p.graph.blocks.len()), Ok(()));
    (p.warp, p.graph.blocks.len())
}

#[test]
fn badly_nested_post_dominator_entries_are_rejected() {
    let (w, blocks) = ptx_base();
    // The divergent path's node: a reconvergence entry, the pending path, the running rpc.
    let node = w
        .nodes
        .iter()
        .position(|n| n.stack.iter().any(|e| e.has_tag(Tag::Path)))
        .expect("a pending path");
    let stack = w.nodes[node].stack.clone();
    assert!(
        matches!(stack[0].points[0].tag, Tag::Ipdom { .. }),
        "{stack:?}"
    );
    assert!(
        stack.last().is_some_and(|e| e.has_tag(Tag::Rpc)),
        "{stack:?}"
    );
    // The reconvergence entry as a cycle.
    let (m, _) = with_stack(&w, node, |s| s[0].repeated = true);
    let what = "a reconvergence point repeated";
    assert_eq!(verify(&m, blocks), nesting(node, 0, what));
    // The pending path without the reconvergence entry its running sibling rejoins.
    let (m, top) = with_stack(&w, node, |s| drop(s.remove(0)));
    let elsewhere = "the running path does not reconverge at the innermost reconvergence entry";
    assert_eq!(verify(&m, blocks), nesting(node, top, elsewhere));
    // The running path's reconvergence point below the top.
    let (m, _) = with_stack(&w, node, |s| {
        let rpc = s.pop().expect("rpc");
        s.insert(1, rpc);
    });
    let what = "the running path's reconvergence point below the top";
    assert_eq!(verify(&m, blocks), nesting(node, 1, what));
    // The running path reconverging elsewhere than the innermost reconvergence entry.
    let top = stack.len() - 1;
    let moved = Entry::single(stack[top].points[0].pc + 1, Tag::Rpc);
    let (m, _) = with_stack(&w, node, |s| s[top] = moved);
    assert_eq!(verify(&m, blocks), nesting(node, top, elsewhere));
}
