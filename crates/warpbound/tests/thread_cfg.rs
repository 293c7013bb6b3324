//! The default mode on every dialect: any pasted kernel gets its instruction table, its
//! function list and a thread-level control-flow graph. Graphs are checked against ones
//! derived by hand from the listings below and from corpus files.

use isa::Dialect;
use std::path::PathBuf;
use warpbound::{analyze, Report, Request};

fn corpus(rel: &str) -> String {
    let dir = std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
        });
    std::fs::read_to_string(dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn run(source: &str, dialect: Dialect, function: Option<&str>) -> Report {
    let mut req = Request::new(source, dialect);
    req.function = function.map(str::to_string);
    req.timings = false;
    analyze(&req)
}

/// An edge as `(from, to, kind)`.
type Edge = (usize, usize, String);

/// `(first, last)` instruction of every node, and the edges.
fn shape(r: &Report) -> (Vec<(usize, usize)>, Vec<Edge>) {
    let cfg = r.cfg.as_ref().expect("a graph");
    let nodes = cfg.nodes.iter().map(|n| (n.first, n.last)).collect();
    let mut edges: Vec<_> = cfg
        .edges
        .iter()
        .map(|e| (e.from, e.to, e.kind.clone()))
        .collect();
    edges.sort();
    (nodes, edges)
}

fn e(from: usize, to: usize, kind: &str) -> Edge {
    (from, to, kind.to_string())
}

/// A data-dependent if/else as nvcc writes it, plus a `.func` and a second kernel.
const PTX_IF_ELSE: &str = ".version 7.8
.target sm_86
.address_size 64

.func (.param .b32 r) twice(.param .b32 x)
{
.reg .b32 %r<3>;
ld.param.b32 %r1, [x];
add.s32 %r2, %r1, %r1;
st.param.b32 [r], %r2;
ret;
}

.visible .entry k(.param .u64 a)
{
.reg .pred %p<2>;
.reg .b32 %r<6>;
.reg .b64 %rd<3>;
ld.param.u64 %rd1, [a];
ld.global.u32 %r1, [%rd1];
setp.gt.s32 %p1, %r1, 0;
@!%p1 bra $L__BB0_2;
add.s32 %r2, %r1, %r1;
bra.uni $L__BB0_3;
$L__BB0_2:
neg.s32 %r2, %r1;
$L__BB0_3:
st.global.u32 [%rd1], %r2;
ret;
}

.visible .entry other()
{
ret;
}
";

#[test]
fn ptx_if_else_with_its_reconvergence_block_and_the_function_list() {
    let r = run(PTX_IF_ELSE, Dialect::Ptx, None);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let k = r.kernel.as_ref().expect("kernel");
    assert_eq!(k.function, "k");
    assert_eq!(k.functions, vec!["twice", "k", "other"]);
    // 0..3: ld, ld, setp, @!p bra | 4..5: add, bra | 6: neg | 7..8: st, ret
    let (nodes, edges) = shape(&r);
    assert_eq!(nodes, vec![(0, 3), (4, 5), (6, 6), (7, 8)]);
    assert_eq!(
        edges,
        vec![
            e(0, 1, "fallthrough"),
            e(0, 2, "taken"),
            e(1, 3, "taken"),
            e(2, 3, "fallthrough")
        ]
    );
    assert_eq!(k.instructions[6].block, Some(2));
    // The other functions are named in a note.
    let note = r
        .diagnostics
        .iter()
        .find(|d| d.message.contains("holds 3 functions"))
        .expect("a note naming the others");
    assert!(note.message.contains("`twice`") && note.message.contains("`other`"));
    // Naming one picks it, without the note.
    let r = run(PTX_IF_ELSE, Dialect::Ptx, Some("twice"));
    assert_eq!(
        r.kernel.as_ref().map(|k| k.function.as_str()),
        Some("twice")
    );
    assert_eq!(shape(&r).0, vec![(0, 3)]);
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
}

const GCN_EXEC_SKIP: &str = "k:
  v_cmp_gt_u32_e32 vcc, 4, v0
  s_and_saveexec_b64 s[0:1], vcc
  s_cbranch_execz BB0_2
  v_mov_b32_e32 v1, 1
BB0_2:
  s_or_b64 exec, exec, s[0:1]
  s_endpgm
";

#[test]
fn gcn_exec_skip_branch() {
    let r = run(GCN_EXEC_SKIP, Dialect::Gcn, None);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let (nodes, edges) = shape(&r);
    assert_eq!(nodes, vec![(0, 2), (3, 3), (4, 5)]);
    assert_eq!(
        edges,
        vec![
            e(0, 1, "fallthrough"),
            e(0, 2, "taken"),
            e(1, 2, "fallthrough")
        ]
    );
}

#[test]
fn sim_d_blocks_end_at_requests() {
    // cnn_relu: sldg | ldglin | ldglin | add max add max stglin | stglin | exit
    let r = run(&corpus("simd/cnn_relu.sas"), Dialect::Simd, None);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let (nodes, edges) = shape(&r);
    assert_eq!(nodes, vec![(0, 0), (1, 1), (2, 2), (3, 7), (8, 8), (9, 9)]);
    assert_eq!(
        edges,
        (0..5)
            .map(|i| e(i, i + 1, "fallthrough"))
            .collect::<Vec<_>>()
    );
}

#[test]
fn lc_string_is_one_block_and_a_solver_graph_is_shown_as_it_is() {
    let r = run("LLCLL", Dialect::Lc, None);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let k = r.kernel.as_ref().expect("kernel");
    let ops: Vec<&str> = k.instructions.iter().map(|i| i.opcode.as_str()).collect();
    assert_eq!(ops, vec!["L", "L", "C", "L", "L"]);
    assert_eq!(shape(&r), (vec![(0, 4)], vec![]));

    // Fig. 2 of the PWS paper: 13 blocks, 18 edges, costs as in the file.
    let r = run(&corpus("pws/fig2.csv"), Dialect::PwsCsv, None);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let cfg = r.cfg.as_ref().expect("graph");
    assert_eq!(cfg.nodes.len(), 13);
    assert_eq!(cfg.edges.len(), 18);
    let costs: Vec<u64> = cfg.nodes.iter().filter_map(|n| n.cost).collect();
    assert_eq!(costs, vec![1, 3, 0, 2, 1, 2, 0, 1, 3, 0, 5, 1, 1]);
}

/// Every corpus file of every dialect gets a graph in the default mode, with every
/// instruction in a block.
#[test]
fn every_corpus_file_gets_a_thread_graph() {
    let dir = std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
        });
    let mut seen = 0;
    for (sub, ext, dialect) in [
        ("ptx", "ptx", Dialect::Ptx),
        ("ptx-modern", "ptx", Dialect::Ptx),
        ("gcn", "s", Dialect::Gcn),
        ("simd", "sas", Dialect::Simd),
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join(sub))
            .expect("corpus folder")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == ext))
            .collect();
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).expect("read");
            let r = run(&text, dialect, None);
            let name = f.display();
            assert!(!r.has_errors(), "{name}: {:?}", r.diagnostics);
            let k = r.kernel.as_ref().expect("kernel");
            let cfg = r.cfg.as_ref().expect("graph");
            assert!(!cfg.nodes.is_empty(), "{name}");
            assert!(
                k.instructions.iter().all(|i| i.block.is_some()),
                "{name}: an instruction outside every block"
            );
            let covered: usize = cfg.nodes.iter().map(|n| n.instructions).sum();
            assert_eq!(covered, k.instructions.len(), "{name}");
            seen += 1;
        }
    }
    assert!(seen >= 60, "{seen} files");
}
