//! The 77 solver graphs and the 20 GCN listings of the shared corpus.

mod common;

use std::collections::BTreeSet;

use isa::gcn;
use isa::Limits;
use pws::timeline::path_time;
use pws::wcet::{ipet_wcet, longest_path};
use pws::{
    analyze, build_from_gcn, write_csv, Budget, CostModel, GcnGraphOptions, Hardware, LoopBounds,
    Options, SplitMode, Structure,
};

#[test]
fn every_solver_csv_reads_and_writes_back_identically() {
    let files = common::corpus_csvs();
    assert_eq!(files.len(), 77, "MANIFEST lists 77 solver graphs");
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
        let g = common::read(&path);
        assert_eq!(write_csv(&g), text, "{}", path.display());
    }
}

#[test]
fn every_solver_graph_is_analysed_in_every_mode() {
    for path in common::corpus_csvs() {
        let g = common::read(&path);
        let s = Structure::of(&g, &Budget::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for k in [1u32, 2, 3] {
            let hw = Hardware {
                s: k,
                e_s: 1000,
                e_m: 1000,
                ..Hardware::gem5_gcn3()
            };
            // Mark every splittable branch, as the paper does for its synthetic benchmarks
            // ("we annotate as many split points as there are SpSIMD units").
            let options = Options {
                mode: SplitMode::Optimal,
                marked: s.shapes.keys().copied().collect(),
                ..Options::default()
            };
            let r =
                analyze(&g, &hw, &options).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let opt = r.candidates.iter().find(|c| c.source == "optimal").cloned();
            let opt = opt.unwrap_or_else(|| panic!("{}: no optimal candidate", path.display()));
            assert!(opt.feasible);
            for c in &r.candidates {
                if c.feasible {
                    assert!(
                        opt.e_wf <= c.e_wf,
                        "{}: optimal {} > {} {}",
                        path.display(),
                        opt.e_wf,
                        c.source,
                        c.e_wf
                    );
                }
            }
            assert!(opt.e_wf <= r.e_wf.no_split);
            assert!(r.e_kernel.pws <= r.e_kernel.no_split);
            assert!(r.e_kernel.pws <= r.e_kernel.dws, "Lemma 5.8");
            // The branch-tree time of the chosen set equals the pruned graph's longest path.
            let chosen: BTreeSet<usize> = r.splits.chosen.iter().copied().collect();
            assert_eq!(
                path_time(&g, &s.tree, &chosen),
                r.ipet_pruned,
                "{}",
                path.display()
            );
            // Select never needs more than S contexts.
            let sel = r.candidates.iter().find(|c| c.source == "select");
            assert!(sel.is_some_and(|c| c.feasible), "{}", path.display());
        }
    }
}

#[test]
fn small_solver_graphs_agree_with_ipet() {
    let mut checked = 0;
    for path in common::corpus_csvs() {
        let g = common::read(&path);
        if g.nodes.len() > 120 {
            continue;
        }
        let s = Structure::of(&g, &Budget::default()).unwrap_or_else(|e| panic!("{e}"));
        let all: BTreeSet<usize> = s.shapes.keys().copied().collect();
        let pr = pws::prune::prune(&g, &s, &all);
        for removed in [Vec::new(), pr.removed.clone()] {
            let lp = longest_path(&g, &s, &removed).unwrap_or_else(|e| panic!("{e}"));
            let ip = ipet_wcet(&g, &removed).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(lp, ip, "{}", path.display());
        }
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} graphs checked");
}

fn gcn_files() -> Vec<std::path::PathBuf> {
    let dir = common::corpus().join("gcn");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{e}"))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().and_then(|x| x.to_str()) == Some("s"))
        .collect();
    files.sort();
    files
}

fn gcn_graph(path: &std::path::Path, cost: CostModel, bound: u64) -> pws::GcnGraph {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{e}"));
    let p = gcn::parse(&text, &Limits::default());
    assert!(!p.has_errors(), "{}", path.display());
    let f = p.function(None).unwrap_or_else(|| panic!("no function"));
    let options = GcnGraphOptions {
        cost,
        loop_bounds: LoopBounds {
            default: Some(bound),
            ..LoopBounds::default()
        },
    };
    build_from_gcn(f, &options, &Budget::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_gcn_kernel_unrolls_to_the_ipet_bound_of_its_loops() {
    // Unrolling each loop N times and taking the longest path must give exactly what IPET
    // computes on the cyclic block graph with "header at most N times per entry".
    let mut with_loops = 0;
    for path in gcn_files() {
        for bound in [1u64, 3] {
            let g = gcn_graph(&path, CostModel::default(), bound);
            let s = Structure::of(&g.cfg, &Budget::default()).unwrap_or_else(|e| panic!("{e}"));
            let unrolled = longest_path(&g.cfg, &s, &[]).unwrap_or_else(|e| panic!("{e}"));
            let cyclic = ipet::solve(
                &g.blocks.to_ipet(&[]),
                &ipet::LoopBounds::with_default(bound),
                &ipet::Budget::default(),
            )
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(unrolled, cyclic.wcet, "{} bound {bound}", path.display());
            if !g.loops.is_empty() && bound == 3 {
                with_loops += 1;
            }
        }
    }
    assert!(with_loops >= 8, "only {with_loops} kernels with loops");
}

#[test]
fn every_gcn_kernel_is_analysed() {
    for path in gcn_files() {
        let g = gcn_graph(&path, CostModel::default(), 4);
        let options = Options {
            mode: SplitMode::Optimal,
            ..Options::default()
        };
        let r = analyze(&g.cfg, &Hardware::gem5_gcn3(), &options)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(r.e_wf.pws <= r.e_wf.no_split);
        assert!(r.e_kernel.pws <= r.e_kernel.dws);
        assert!(r.nodes.iter().all(|n| n.lines.is_some()));
    }
}

#[test]
fn gaussian_kernels_have_the_solver_graph_shape() {
    // The solver's gaussian-000/001 graphs were extracted from the same listings: same
    // nodes, successors and BSB/reconvergence flags (only the measured weights differ).
    for (kernel, csv) in [
        ("gaussian___Z4Fan1PfS_ii.s", "gaussian-000.csv"),
        ("gaussian___Z4Fan2PfS_S_iii.s", "gaussian-001.csv"),
    ] {
        let g = gcn_graph(
            &common::corpus().join("gcn").join(kernel),
            CostModel::Unit,
            1,
        );
        let solver = common::read(&common::corpus().join("pws/rodinia").join(csv));
        assert_eq!(g.cfg.nodes.len(), solver.nodes.len(), "{kernel}");
        for (a, b) in g.cfg.nodes.iter().zip(&solver.nodes) {
            assert_eq!(a.successors, b.successors, "{kernel}");
            assert_eq!(a.reconv, b.reconv, "{kernel}");
            assert_eq!(a.kind, b.kind, "{kernel}");
        }
    }
}

#[test]
fn lud_perimeter_if_else_becomes_branch_bsb_reconv() {
    // lud_perimeter: `s_and_saveexec` + `s_xor` + `s_cbranch_execz BB1_5` (branch), BB1_5
    // `s_or_saveexec` + `s_xor exec` + `s_cbranch_execz BB1_10` (BSB), BB1_10 restores exec.
    let g = gcn_graph(
        &common::corpus().join("gcn/lud___Z13lud_perimeterPfii.s"),
        CostModel::Unit,
        2,
    );
    let b = &g.blocks;
    let idx = |l: &str| {
        b.nodes
            .iter()
            .position(|n| n.label == l)
            .unwrap_or(usize::MAX)
    };
    assert_eq!(b.nodes[0].kind, pws::NodeKind::Branch);
    assert_eq!(b.nodes[idx("BB1_5")].kind, pws::NodeKind::Bsb);
    assert!(b.nodes[idx("BB1_10")].reconv);
    let s = Structure::of(&g.cfg, &Budget::default()).unwrap_or_else(|e| panic!("{e}"));
    let entry_shape = s.shapes.get(&0).copied();
    assert!(entry_shape.is_some_and(|sh| g.cfg.nodes[sh.bsb.unwrap_or(0)].label == "BB1_5"));
}
