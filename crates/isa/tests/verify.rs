//! The thread-level graph verifier (`isa::verify`): the graph of every function of the
//! shared corpus (SASS blocks, PTX and GCN3 flow graphs) passes it, and hand-broken graphs
//! are rejected with the error that names what was broken.

#[path = "corpus_walk/mod.rs"]
mod corpus_walk;

use isa::flow::{self, Flow};
use isa::verify::{verify_blocks, verify_flow, VerifyError};
use isa::{blocks, gcn, ptx, sass, EdgeKind, Limits};

#[test]
fn every_sass_corpus_block_graph_verifies() {
    let kernels = corpus_walk::sass_kernels();
    assert!(kernels.len() >= 119, "{} SASS functions", kernels.len());
    for (what, k) in kernels {
        let g = blocks::build(&k, &Limits::default());
        verify_blocks(&g, k.instructions.len()).unwrap_or_else(|e| panic!("{what}: {e}"));
    }
}

#[test]
fn every_ptx_and_gcn_corpus_flow_graph_verifies() {
    let ptx = corpus_walk::ptx_functions();
    let gcn = corpus_walk::gcn_functions();
    assert!(
        ptx.len() + gcn.len() >= 80,
        "{} functions",
        ptx.len() + gcn.len()
    );
    for (what, f) in ptx {
        let g = flow::build(&ptx::flows(&f));
        verify_flow(&g, f.instructions.len()).unwrap_or_else(|e| panic!("{what}: {e}"));
    }
    for (what, f) in gcn {
        let g = flow::build(&gcn::flows(&f));
        verify_flow(&g, f.instructions.len()).unwrap_or_else(|e| panic!("{what}: {e}"));
    }
}

fn branch(target: usize) -> Flow {
    Flow::Branch {
        target: Some(target),
        conditional: true,
    }
}

/// 0: a conditional branch to 2 | 1 | 2: the end; blocks {0}, {1}, {2}.
fn diamond() -> (flow::FlowGraph, usize) {
    let flows = [branch(2), Flow::Next, Flow::End { conditional: false }];
    let g = flow::build(&flows);
    assert_eq!(g.blocks.len(), 3);
    assert_eq!(verify_flow(&g, flows.len()), Ok(()));
    (g, flows.len())
}

#[test]
fn an_edge_to_a_missing_block_is_rejected() {
    let (mut g, n) = diamond();
    g.edges.push((2, 3, EdgeKind::Taken));
    let edge = g.edges.len() - 1;
    assert_eq!(
        verify_flow(&g, n),
        Err(VerifyError::EdgeEnd {
            edge,
            from: 2,
            to: 3,
            blocks: 3
        })
    );
}

#[test]
fn blocks_that_do_not_cover_the_instructions_are_rejected() {
    let (g, n) = diamond();
    let mut m = g.clone();
    m.blocks[1].first = 2;
    assert_eq!(
        verify_flow(&m, n),
        Err(VerifyError::Partition {
            block: 1,
            what: "does not start where the previous block ended"
        })
    );
    assert_eq!(
        verify_flow(&g, n + 1),
        Err(VerifyError::Partition {
            block: 2,
            what: "the blocks end before the last instruction"
        })
    );
    let mut m = g;
    m.blocks[2].id = 5;
    assert_eq!(
        verify_flow(&m, n),
        Err(VerifyError::BlockId { block: 2, id: 5 })
    );
}

#[test]
fn unsorted_edges_and_wrong_reachability_are_rejected() {
    let (g, n) = diamond();
    let mut m = g.clone();
    m.edges.swap(0, 1);
    assert_eq!(verify_flow(&m, n), Err(VerifyError::EdgeOrder { edge: 1 }));
    let mut m = g;
    m.edges.retain(|e| e.1 != 1);
    assert_eq!(
        verify_flow(&m, n),
        Err(VerifyError::Reachability { block: 1 })
    );
}

#[test]
fn a_block_graph_edge_out_of_an_unreached_block_is_rejected() {
    let text = "
        /*0000*/ ISETP.GE.AND P0, PT, R0, 0x10, PT ;
        /*0010*/ @P0 BRA 0x30 ;
        /*0020*/ IADD3 R1, R0, 0x1, RZ ;
        /*0030*/ EXIT ;
    ";
    let k = sass::parse(text, None, &Limits::default())
        .kernel
        .expect("kernel");
    let g = blocks::build(&k, &Limits::default());
    let n = k.instructions.len();
    assert_eq!(verify_blocks(&g, n), Ok(()));
    let mut m = g.clone();
    m.blocks[1].reachable = false;
    assert_eq!(
        verify_blocks(&m, n),
        Err(VerifyError::Reachability { block: 1 })
    );
    let mut m = g;
    m.blocks[1].last = n;
    assert_eq!(
        verify_blocks(&m, n),
        Err(VerifyError::Partition {
            block: 1,
            what: "ends after the last instruction"
        })
    );
}
