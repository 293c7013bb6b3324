//! A GCN snippet with the paper's `split`/`merge` instructions, end to end: parse, build
//! `C_BSB`, analyse, and the Fig. 9b timeline.

#[path = "common/gcn_kernels.rs"]
mod gcn_kernels;

use gcn_kernels::if_else_with_split;
use isa::gcn;
use isa::Limits;
use pws::{
    analyze, build_from_gcn, Budget, CostModel, GcnGraphOptions, Hardware, IntervalKind, Launch,
    NodeKind, Options, SplitMode,
};

/// `k`: three `v_add` on lanes 0..14, five `v_mul` on the others.
fn if_else() -> String {
    if_else_with_split(
        15,
        ("v_add_f32_e32 v1, v1, v2", 3),
        ("v_mul_f32_e32 v1, v1, v2", 5),
    )
}

fn graph(text: &str) -> pws::GcnGraph {
    let p = gcn::parse(text, &Limits::default());
    assert!(!p.has_errors(), "{:?}", p.diagnostics);
    let f = p.function(None).unwrap_or_else(|| panic!("no function"));
    let options = GcnGraphOptions {
        cost: CostModel::Unit,
        ..GcnGraphOptions::default()
    };
    build_from_gcn(f, &options, &Budget::default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn split_instruction_marks_the_branch_and_pws_runs_both_paths_in_parallel() {
    let g = graph(&if_else());
    let kinds: Vec<NodeKind> = g.cfg.nodes.iter().map(|n| n.kind).collect();
    assert_eq!(
        kinds,
        vec![
            NodeKind::Branch,
            NodeKind::Plain,
            NodeKind::Bsb,
            NodeKind::Plain,
            NodeKind::Reconv
        ]
    );
    assert!(g.cfg.nodes[0].marked);
    assert_eq!(
        g.cfg.nodes[0].lines.map(|l| (l.first, l.last)),
        Some((2, 6))
    );
    // Unit costs (split/merge excluded): 4, 3, 3 (BSB), 5, 2.
    let costs: Vec<u64> = g.cfg.nodes.iter().map(|n| n.cost).collect();
    assert_eq!(costs, vec![4, 3, 3, 5, 2]);
    let hw = Hardware {
        s: 1,
        d: 1,
        e_s: 1,
        e_m: 1,
        ..Hardware::gem5_gcn3()
    };
    let options = Options {
        mode: SplitMode::Marked,
        launch: Launch::default(),
        ..Options::default()
    };
    let r = analyze(&g.cfg, &hw, &options).unwrap_or_else(|e| panic!("{e}"));
    // No split: 4 + 3 + 3 + 5 + 2 = 17. Split: 4 + 3 + max(3, 5) + 2 = 14, the first path
    // is shorter so the edge 0 → 1 goes; E_WF = 14 + 1·(1 + 1) = 16 (Lemma 5.1).
    // DWS: 17 + 1·2 = 19. Kernels with DS = 1, d = 1: 18, 1 + 2·19 = 39, 17.
    assert_eq!(r.splits.marked, vec![0]);
    assert_eq!(r.splits.select, vec![0]);
    assert_eq!(r.pruned_edges, vec![(0, 1)]);
    assert_eq!((r.e_wf.no_split, r.e_wf.dws, r.e_wf.pws), (17, 19, 16));
    assert_eq!(
        (r.e_kernel.no_split, r.e_kernel.dws, r.e_kernel.pws),
        (18, 39, 17)
    );
    // Fig. 9b for PWS: init [0,1), branch [1,5), BSB [5,8), first path [8,11) on the SIMD,
    // second path [8,13) on the SpSIMD, join [13,15), split/merge delays [15,17).
    let tl = &r.timeline.pws;
    assert_eq!(tl.lanes, vec!["WG slot 0 · SIMD", "WG slot 0 · SpSIMD 1"]);
    let bars: Vec<(usize, u64, u64)> = tl
        .intervals
        .iter()
        .map(|i| (i.lane, i.start, i.end))
        .collect();
    assert_eq!(
        bars,
        vec![
            (0, 0, 1),
            (0, 1, 5),
            (0, 5, 8),
            (0, 8, 11),
            (1, 8, 13),
            (0, 13, 15),
            (0, 15, 17)
        ]
    );
    assert_eq!(tl.intervals[4].kind, IntervalKind::SplitWavefront);
    assert_eq!(tl.end, 17);
    // DWS: the split wavefront runs after the wavefront on the same SIMD.
    let dws: Vec<(u64, u64)> = r
        .timeline
        .dws
        .intervals
        .iter()
        .map(|i| (i.start, i.end))
        .collect();
    assert_eq!(dws, vec![(0, 1), (1, 20), (20, 39)]);
}

#[test]
fn split_elsewhere_is_ignored_with_a_warning() {
    let g = graph("k:\n split s0, s1\n v_mov_b32 v0, 0\n s_endpgm\n");
    assert!(!g.cfg.nodes[0].marked);
    assert_eq!(g.warnings.len(), 1);
    assert_eq!((g.warnings[0].line, g.warnings[0].column), (2, 2));
}

#[test]
fn loops_are_unrolled_with_per_header_bounds() {
    // A bottom-tested loop (header BB0_1, 2 blocks) with bound 3 → 3 copies of the body.
    let text = "k:\n s_mov_b32 s0, 0\nBB0_1:\n s_add_u32 s0, s0, 1\n s_cmp_lt_u32 s0, 10\n s_cbranch_scc1 BB0_1\n; %bb.2:\n s_endpgm\n";
    let p = gcn::parse(text, &Limits::default());
    let f = p.function(None).unwrap_or_else(|| panic!("no function"));
    let mut options = GcnGraphOptions {
        cost: CostModel::Unit,
        ..GcnGraphOptions::default()
    };
    options.loop_bounds.per_header.insert("BB0_1".into(), 3);
    let g = build_from_gcn(f, &options, &Budget::default()).unwrap_or_else(|e| panic!("{e}"));
    let labels: Vec<&str> = g.cfg.nodes.iter().map(|n| n.label.as_str()).collect();
    assert_eq!(labels, vec!["k", "BB0_1", "BB0_1#2", "BB0_1#3", "%bb.2"]);
    assert_eq!(g.loops.len(), 1);
    assert_eq!(g.loops[0].bound, 3);
    // Without a bound and without default: a named error.
    options.loop_bounds.per_header.clear();
    let e = build_from_gcn(f, &options, &Budget::default())
        .err()
        .map(|e| e.to_string());
    assert!(e.is_some_and(|m| m.contains("BB0_1")));
    // The unrolling budget names its parameter.
    options.loop_bounds.default = Some(1_000_000);
    let e = build_from_gcn(f, &options, &Budget::default())
        .err()
        .map(|e| e.to_string());
    assert!(e.is_some_and(|m| m.contains("max_unrolled_nodes")));
}
