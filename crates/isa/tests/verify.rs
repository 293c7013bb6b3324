//! The thread-level graph verifier (`isa::verify`): the graph of every function of the
//! shared corpus (SASS blocks, PTX and GCN3 flow graphs) passes it, and hand-broken graphs
//! are rejected with the error that names what was broken.

use isa::flow::{self, Flow};
use isa::verify::{verify_blocks, verify_flow, VerifyError};
use isa::{blocks, gcn, ptx, sass, EdgeKind, Limits};
use std::path::{Path, PathBuf};

fn corpus_dir() -> PathBuf {
    std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
}

/// The files below `dir` (recursively) whose extension is `ext`, sorted.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut work = vec![dir.to_path_buf()];
    while let Some(d) = work.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                work.push(p);
            } else if p.extension().and_then(|e| e.to_str()) == Some(ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_sass_corpus_block_graph_verifies() {
    let root = corpus_dir();
    let limits = Limits::default();
    let mut paths = files(&root.join("sass"), "sass");
    paths.extend(files(&root.join("sass-modern"), "sass"));
    assert!(paths.len() >= 19 + 100, "{} SASS files", paths.len());
    let mut checked = 0;
    for path in paths {
        let text = read(&path);
        let functions = sass::parse(&text, None, &limits).functions;
        let names: Vec<Option<&str>> = match functions.len() {
            0 | 1 => vec![None],
            _ => functions.iter().map(|f| Some(f.as_str())).collect(),
        };
        for name in names {
            let Some(k) = sass::parse(&text, name, &limits).kernel else {
                continue;
            };
            let g = blocks::build(&k, &limits);
            verify_blocks(&g, k.instructions.len())
                .unwrap_or_else(|e| panic!("{} {name:?}: {e}", path.display()));
            checked += 1;
        }
    }
    assert!(checked >= 119, "{checked} SASS functions");
}

#[test]
fn every_ptx_and_gcn_corpus_flow_graph_verifies() {
    let root = corpus_dir();
    let limits = Limits::default();
    let mut checked = 0;
    let mut paths = files(&root.join("ptx"), "ptx");
    paths.extend(files(&root.join("ptx-modern"), "ptx"));
    assert!(paths.len() >= 39, "{} PTX files", paths.len());
    for path in paths {
        for f in &ptx::parse(&read(&path), &limits).module.functions {
            let g = flow::build(&ptx::flows(f));
            verify_flow(&g, f.instructions.len())
                .unwrap_or_else(|e| panic!("{} {}: {e}", path.display(), f.name));
            checked += 1;
        }
    }
    let paths = files(&root.join("gcn"), "s");
    assert!(paths.len() >= 20, "{} GCN3 files", paths.len());
    for path in paths {
        for f in &gcn::parse(&read(&path), &limits).functions {
            let g = flow::build(&gcn::flows(f));
            verify_flow(&g, f.instructions.len())
                .unwrap_or_else(|e| panic!("{} {}: {e}", path.display(), f.name));
            checked += 1;
        }
    }
    assert!(checked >= 80, "{checked} PTX and GCN3 functions");
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
