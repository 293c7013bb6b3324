//! Properties over random structured wavefront graphs (sequences, if-then-else with BSB and
//! reconvergence, if-then, uniform branches, nesting).

mod common;

use std::collections::BTreeSet;

use proptest::prelude::*;
use pws::optimal::{exhaustive, optimal};
use pws::prune::prune;
use pws::structure::{contexts_needed, max_splits};
use pws::timeline::path_time;
use pws::wcet::{ipet_wcet, longest_path};
use pws::{analyze, read_csv, write_csv, Budget, Hardware, Launch, Options, SplitMode, Structure};

fn subset(seed: u64, of: &BTreeSet<usize>) -> BTreeSet<usize> {
    let mut rng = common::Rng::new(seed);
    of.iter().copied().filter(|_| rng.below(2) == 0).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// The dynamic programme finds the same optimum as trying every subset.
    #[test]
    fn optimal_matches_exhaustive_search(seed in any::<u64>(), s in 0u32..4, cost in 0u64..4) {
        let g = common::random_graph(seed, 7, 9);
        let st = Structure::of(&g, &Budget::default()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assume!(st.shapes.len() <= 12);
        let o = optimal(&g, &st, s, cost, &Budget::default()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let (best, _) = exhaustive(&g, &st, s, cost, 12).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(o.objective, best);
        prop_assert!(o.contexts <= s);
        prop_assert_eq!(contexts_needed(&st.tree, &|b| o.splits.contains(&b)), o.contexts);
        // The set it reports really reaches that value through Prune + longest path.
        let pr = prune(&g, &st, &o.splits);
        let lp = longest_path(&g, &st, &pr.removed).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(lp + o.splits.len() as u64 * cost, o.objective);
    }

    /// The DWS split count is the size of the largest split set within S contexts, found
    /// by trying every subset.
    #[test]
    fn dws_split_count_is_the_largest_feasible_set(seed in any::<u64>(), s in 0u32..4) {
        let g = common::random_graph(seed, 7, 9);
        let st = Structure::of(&g, &Budget::default()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let cands: Vec<usize> = st.shapes.keys().copied().collect();
        prop_assume!(cands.len() <= 12);
        let mut largest = 0u64;
        for mask in 0u32..(1 << cands.len()) {
            let set: BTreeSet<usize> = cands.iter().enumerate()
                .filter(|(i, _)| mask >> i & 1 == 1).map(|(_, &u)| u).collect();
            if contexts_needed(&st.tree, &|b| set.contains(&b)) <= s {
                largest = largest.max(set.len() as u64);
            }
        }
        prop_assert_eq!(max_splits(&st.tree, s), largest);
    }

    /// Three independent computations of IPET(C_out) agree: the longest path of the pruned
    /// graph, Alg. 2's F[entry], and the branch-tree time; and IPET (LP) agrees too.
    #[test]
    fn prune_longest_path_and_tree_time_agree(seed in any::<u64>(), pick in any::<u64>()) {
        let g = common::random_graph(seed, 8, 20);
        let st = Structure::of(&g, &Budget::default()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let all: BTreeSet<usize> = st.shapes.keys().copied().collect();
        let set = subset(pick, &all);
        let pr = prune(&g, &st, &set);
        let lp = longest_path(&g, &st, &pr.removed).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(pr.f[g.entry], lp);
        prop_assert_eq!(path_time(&g, &st.tree, &set), lp);
        if seed % 4 == 0 {
            let ip = ipet_wcet(&g, &pr.removed).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(ip, lp);
        }
        // Pruning never lengthens the worst case.
        prop_assert!(lp <= longest_path(&g, &st, &[]).unwrap_or(u64::MAX));
    }

    /// Lemma 5.8 (PWS ≤ DWS) and PWS ≤ no splitting at kernel level, with the optimal
    /// split set; with Select's set, PWS ≤ DWS.
    #[test]
    fn lemma_5_8_pws_at_most_dws_and_no_split(
        seed in any::<u64>(), s in 0u32..4, es in 0u64..5, em in 0u64..5, d in 0u64..5,
        groups in 1u64..500, wg in prop::sample::select(vec![64u64, 128, 256, 1024]),
    ) {
        let g = common::random_graph(seed, 8, 30);
        let hw = Hardware { s, e_s: es, e_m: em, d, ..Hardware::gem5_gcn3() };
        let launch = Launch { workgroups: groups, work_items_per_group: wg };
        for mode in [SplitMode::Optimal, SplitMode::Marked] {
            let options = Options { mode, launch, ..Options::default() };
            let r = analyze(&g, &hw, &options).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let select = r.candidates.iter().find(|c| c.source == "select").cloned();
            prop_assert!(select.as_ref().is_some_and(|c| c.feasible), "Select stays within S");
            if mode == SplitMode::Optimal {
                prop_assert!(r.e_kernel.pws <= r.e_kernel.dws);
                prop_assert!(r.e_kernel.pws <= r.e_kernel.no_split);
                prop_assert!(r.e_wf.pws <= r.e_wf.no_split);
            } else {
                // With DWS charged for every split it can make (not just S), Lemma 5.6
                // holds for any feasible set, Select's included.
                prop_assert!(r.e_wf.pws <= r.e_wf.dws, "Lemma 5.6");
                prop_assert!(r.e_kernel.pws <= r.e_kernel.dws);
            }
        }
    }

    /// Export then import keeps costs, successors and flags.
    #[test]
    fn csv_round_trip(seed in any::<u64>()) {
        let g = common::random_graph(seed, 8, 1000);
        let text = write_csv(&g);
        let h = read_csv(&text, 10_000).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(h.nodes.len(), g.nodes.len());
        for (a, b) in g.nodes.iter().zip(&h.nodes) {
            prop_assert_eq!(a.cost, b.cost);
            prop_assert_eq!(&a.successors, &b.successors);
            prop_assert_eq!(a.reconv, b.reconv);
            prop_assert_eq!(a.kind == pws::NodeKind::Bsb, b.kind == pws::NodeKind::Bsb);
        }
        prop_assert_eq!(write_csv(&h), text);
    }

    /// Hostile CSV never panics, and errors point inside the text.
    #[test]
    fn hostile_csv_never_panics(body in "[0-9TrueFals,;\\n -]{0,200}") {
        let text = format!("wcet,is_bsb_node,is_reconv_node,successors\n{body}");
        if let Err(e) = read_csv(&text, 1000) {
            let lines = text.lines().count() as u32;
            prop_assert!(e.diagnostic.line <= lines.max(1));
        } else if let Ok(g) = read_csv(&text, 1000) {
            // Whatever parsed is analysable or rejected with an error, never a panic.
            let _ = analyze(&g, &Hardware::gem5_gcn3(), &Options::default());
        }
    }
}
