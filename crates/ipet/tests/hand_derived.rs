//! Small graphs whose worst-case path and counts are derived by hand in the comments.

use std::collections::BTreeMap;

use ipet::{find_loops, solve, Budget, Cfg, Error, LoopBounds, Solution};

fn cfg(costs: &[u64], edges: &[(usize, usize)], entry: usize, exits: &[usize]) -> Cfg {
    Cfg {
        costs: costs.to_vec(),
        edges: edges.to_vec(),
        entry,
        exits: exits.to_vec(),
    }
}

fn bounds(per_header: &[(usize, u64)], default: Option<u64>) -> LoopBounds {
    LoopBounds {
        per_header: per_header.iter().copied().collect::<BTreeMap<_, _>>(),
        default,
    }
}

fn solved(g: &Cfg, b: &LoopBounds) -> Solution {
    solve(g, b, &Budget::default()).expect("the graph should solve")
}

/// Test 1. Diamond 0→{1,2}→3, costs [1,5,2,1]: the worst path is 0,1,3 = 1+5+1 = 7.
#[test]
fn diamond_takes_the_expensive_branch() {
    let g = cfg(&[1, 5, 2, 1], &[(0, 1), (0, 2), (1, 3), (2, 3)], 0, &[]);
    let s = solved(&g, &LoopBounds::default());
    assert_eq!(s.wcet, 7);
    assert_eq!(s.edge_counts, vec![1, 0, 1, 0]);
    assert_eq!(s.node_counts, vec![1, 1, 0, 1]);
    assert_eq!(s.exit_counts, vec![(3, 1)]);
    assert!(s.loops.is_empty());
    assert!(s.integral);
    assert_eq!(s.bb_nodes, 1);
    // 4 edges + 1 exit. Rows: nodes 1 and 2 conserve flow; node 0 (the entry) and node 3
    // are passed exactly once, so they get "out-flow = 1" rows and node 3 an "in-flow = 1"
    // row too: 5 rows, no loop rows. The sink edge is then a block of its own, solved
    // without an LP, so one LP solve in all.
    assert_eq!((s.variables, s.constraints), (5, 5));
    assert!((s.lp_bound - 7.0).abs() < 1e-6);
    assert_eq!(s.safe_bound(), 7);
}

/// The loop of test 2: 0→1, 1→2, 2→1 (back edge), 1→3.
fn simple_loop() -> Cfg {
    cfg(&[1, 1, 10, 1], &[(0, 1), (1, 2), (2, 1), (1, 3)], 0, &[])
}

/// Test 2. Header 1 bounded by 5 runs 5 times; the body (node 2) runs 4 times:
/// 1·1 + 5·1 + 4·10 + 1·1 = 47.
#[test]
fn bounded_loop_header_runs_n_times_body_n_minus_one() {
    let s = solved(&simple_loop(), &bounds(&[(1, 5)], None));
    assert_eq!(s.wcet, 47);
    assert_eq!(s.node_counts, vec![1, 5, 4, 1]);
    assert_eq!(s.edge_counts, vec![1, 4, 4, 1]);
    assert_eq!(s.loops.len(), 1);
    let l = &s.loops[0];
    assert_eq!(l.header, 1);
    assert_eq!(l.body, vec![1, 2]);
    assert_eq!(l.back_edges, vec![2]);
    assert_eq!(l.entry_edges, vec![0]);
    assert_eq!(l.bound, Some(5));
    assert!(!l.irreducible);
    assert_eq!(l.depth, 1);
}

/// Test 3. Nested loops: outer header 1 (bound 4), inner header 2 (bound 3).
/// 0→1, 1→2, 2→3, 3→2 (inner back), 2→4, 4→1 (outer back), 1→5.
/// Outer header runs 4 times → the outer body (entry into the inner loop) runs 3 times.
/// Inner header runs ≤ 3 per entry → 9 times; inner body (3) 9 − 3 = 6 times; node 4 runs 3.
/// Costs [1,1,1,10,2,1]: 1 + 4 + 9 + 60 + 6 + 1 = 81.
#[test]
fn nested_loops_multiply_per_entry() {
    let g = cfg(
        &[1, 1, 1, 10, 2, 1],
        &[(0, 1), (1, 2), (2, 3), (3, 2), (2, 4), (4, 1), (1, 5)],
        0,
        &[],
    );
    let s = solved(&g, &bounds(&[(1, 4), (2, 3)], None));
    assert_eq!(s.wcet, 81);
    assert_eq!(s.node_counts, vec![1, 4, 9, 6, 3, 1]);
    assert_eq!(s.edge_counts, vec![1, 3, 6, 6, 3, 3, 1]);
    let shape: Vec<(usize, Vec<usize>, usize, Option<u64>)> = s
        .loops
        .iter()
        .map(|l| (l.header, l.body.clone(), l.depth, l.bound))
        .collect();
    assert_eq!(
        shape,
        vec![
            (1, vec![1, 2, 3, 4], 1, Some(4)),
            (2, vec![2, 3], 2, Some(3))
        ]
    );
    // Swapping the bounds changes the answer: inner 4 per entry × 2 entries = 8 headers,
    // 6 bodies; outer 3 headers, 2 latches: 1 + 3 + 8 + 60 + 4 + 1 = 77.
    let s = solved(&g, &bounds(&[(1, 3), (2, 4)], None));
    assert_eq!(s.wcet, 77);
}

/// Test 4. No bound and no default → NoBound naming the header; default 10 → 10 runs.
#[test]
fn missing_bound_is_an_error_and_default_applies() {
    let err = solve(&simple_loop(), &LoopBounds::default(), &Budget::default())
        .expect_err("an unbounded loop must be rejected");
    assert_eq!(err, Error::NoBound { header: 1 });
    assert!(err.to_string().contains("header node 1"));

    // Default 10: header 10, body 9: 1 + 10 + 90 + 1 = 102.
    let s = solved(&simple_loop(), &LoopBounds::with_default(10));
    assert_eq!(s.wcet, 102);
    assert_eq!(s.loops[0].bound, Some(10));
    // A per-header bound wins over the default.
    let s = solved(&simple_loop(), &bounds(&[(1, 2)], Some(10)));
    assert_eq!(s.wcet, 1 + 2 + 10 + 1);
}

/// Test 5 (and a natural fractional LP for test 6). 0→1, 0→2, 1→2, 2→1, 1→3: the cycle
/// {1,2} has two entries, so it is irreducible. Default 10 bounds count(1)+count(2) ≤ 10.
/// Costs [1,3,2,1]. Flow gives count(1) = count(2) + x01 and the bound 2·count(2)+x01 ≤ 10.
/// LP: x01 = 1, count(2) = 4.5, count(1) = 5.5 → 1 + 16.5 + 9 + 1 = 27.5 (fractional).
/// Integers: enter at 2 (x01 = 0): count(1) = count(2) = 5 → 1 + 15 + 10 + 1 = 27;
/// enter at 1: count(2) = 4, count(1) = 5 → 1 + 15 + 8 + 1 = 25. Optimum 27.
#[test]
fn irreducible_region_is_reported_and_bounded() {
    let g = cfg(
        &[1, 3, 2, 1],
        &[(0, 1), (0, 2), (1, 2), (2, 1), (1, 3)],
        0,
        &[],
    );
    let loops = find_loops(&g);
    assert_eq!(loops.len(), 1);
    let r = &loops[0];
    assert!(r.irreducible);
    assert_eq!(r.header, 1);
    assert_eq!(r.body, vec![1, 2]);
    assert_eq!(r.entry_nodes, vec![1, 2]);
    assert_eq!(r.entry_edges, vec![0, 1]);
    assert_eq!(r.back_edges, vec![2, 3]);
    assert_eq!(r.bound, None);

    let err = solve(&g, &LoopBounds::default(), &Budget::default())
        .expect_err("an unbounded region must be rejected");
    assert_eq!(err, Error::NoBound { header: 1 });

    let s = solved(&g, &LoopBounds::with_default(10));
    assert_eq!(s.wcet, 27);
    assert_eq!(s.node_counts, vec![1, 5, 5, 1]);
    assert_eq!(s.edge_counts, vec![0, 1, 4, 5, 1]);
    assert!((s.lp_bound - 27.5).abs() < 1e-6, "lp bound {}", s.lp_bound);
    assert!(s.integral);
    assert!(
        s.bb_nodes > 1,
        "the fractional root must have been branched on"
    );
    assert_eq!(s.loops[0].bound, Some(10));

    // A per-header bound on either entry node applies; the largest wins.
    let s = solved(&g, &bounds(&[(2, 4), (1, 2)], Some(100)));
    // count(1)+count(2) ≤ 4: enter at 2 → 2 and 2 → 1 + 6 + 4 + 1 = 12.
    assert_eq!(s.wcet, 12);
}

/// Test 6 at the IPET level: when the branch-and-bound budget is exhausted before any
/// integer path is found, the result is a `NoIntegerSolution` error carrying the LP optimum,
/// which is still a safe bound (at least the integer optimum); the deterministic search on
/// the graph above finds (and proves) 27 with its second branching solve (third LP solve).
#[test]
fn branch_and_bound_budget_without_incumbent_is_an_error() {
    let g = cfg(
        &[1, 3, 2, 1],
        &[(0, 1), (0, 2), (1, 2), (2, 1), (1, 3)],
        0,
        &[],
    );
    for max_bb_nodes in [0, 1] {
        let budget = Budget {
            max_bb_nodes,
            ..Budget::default()
        };
        let err = solve(&g, &LoopBounds::with_default(10), &budget)
            .expect_err("the root LP is fractional and no integer path is found yet");
        let Error::NoIntegerSolution { bound, limit } = err else {
            panic!("{err:?}");
        };
        assert_eq!(limit, max_bb_nodes);
        // The root LP's optimum is 27 as well, at a fractional vertex.
        assert_eq!(bound, 27);
    }
    let budget = Budget {
        max_bb_nodes: 2,
        ..Budget::default()
    };
    let s = solve(&g, &LoopBounds::with_default(10), &budget).expect("2 branches suffice");
    assert!(s.integral);
    assert_eq!((s.wcet, s.bb_nodes), (27, 3));
}

/// Test 6, budget hit *with* an incumbent. Edges 0→3, 3→4, 4→2, 0→1, 1→4, 6→6, 4→1;
/// costs [8,2,8,3,2,4,3]. Nodes 5 and 6 are unreachable (6 has an unbounded self loop,
/// which is ignored). {1,4} is irreducible (entered at 1 from 0 and at 4 from 3), so
/// count(1)+count(4) ≤ 10. With a = x01 (and x34 = 1 − a): count(4) = count(1) + 1 − a,
/// objective 21 + 4·count(1) − 5a subject to 2·count(1) + 1 − a ≤ 10.
/// LP: a = 0, count(1) = 4.5 → 39. Integers: a = 0, count(1) = 4 → 37 (optimum);
/// a = 1, count(1) = 5 → 36. After one branching solve the search has only found 36: it
/// is flagged non-integral, under-estimates, and `safe_bound` falls back to the LP's 39.
#[test]
fn branch_and_bound_budget_with_incumbent_is_flagged() {
    let g = cfg(
        &[8, 2, 8, 3, 2, 4, 3],
        &[(0, 3), (3, 4), (4, 2), (0, 1), (1, 4), (6, 6), (4, 1)],
        0,
        &[],
    );
    let b = LoopBounds::with_default(10);
    let full = solved(&g, &b);
    assert!(full.integral);
    assert_eq!(full.wcet, 37);
    assert_eq!(full.node_counts, vec![1, 4, 1, 1, 5, 0, 0]);
    assert_eq!(full.safe_bound(), 37);
    assert!((full.lp_bound - 39.0).abs() < 1e-6);

    let budget = Budget {
        max_bb_nodes: 1,
        ..Budget::default()
    };
    let partial = solve(&g, &b, &budget).expect("an incumbent exists after one branch");
    assert!(!partial.integral);
    assert_eq!(partial.bb_nodes, 2);
    assert_eq!(partial.wcet, 36);
    assert_eq!(partial.node_counts, vec![1, 5, 1, 0, 5, 0, 0]);
    assert!((partial.lp_bound - 39.0).abs() < 1e-6);
    assert_eq!(partial.safe_bound(), 39);
}

/// Test 8. Budget limits name the exceeded limit and the needed size.
#[test]
fn budget_errors_name_the_limit() {
    let g = cfg(&[1, 5, 2, 1], &[(0, 1), (0, 2), (1, 2), (2, 3)], 0, &[]);
    let err = solve(
        &g,
        &LoopBounds::default(),
        &Budget {
            max_variables: 3,
            ..Budget::default()
        },
    )
    .expect_err("5 variables exceed 3");
    assert_eq!(
        err,
        Error::Budget {
            what: "max_variables",
            limit: 3,
            needed: 5
        }
    );
    assert!(err.to_string().contains("max_variables"));
    let err = solve(
        &g,
        &LoopBounds::default(),
        &Budget {
            max_constraints: 2,
            ..Budget::default()
        },
    )
    .expect_err("4 rows exceed 2");
    assert_eq!(
        err,
        Error::Budget {
            what: "max_constraints",
            limit: 2,
            needed: 4
        }
    );
    // Nodes 0, 2, 3 are passed exactly once (0 needs only its out-flow row): 6 rows.
    // A limit below one row per node fails early; 5 fails on the exact count.
    let err = solve(
        &g,
        &LoopBounds::default(),
        &Budget {
            max_constraints: 5,
            ..Budget::default()
        },
    )
    .expect_err("6 rows exceed 5");
    assert_eq!(
        err,
        Error::Budget {
            what: "max_constraints",
            limit: 5,
            needed: 6
        }
    );
    // Exactly at the limit is fine.
    let s = solve(
        &g,
        &LoopBounds::default(),
        &Budget {
            max_variables: 5,
            max_constraints: 6,
            max_lp_size: 11,
            max_bb_nodes: 1,
        },
    )
    .expect("fits exactly");
    assert_eq!(s.wcet, 1 + 5 + 2 + 1);
    assert_eq!((s.variables, s.constraints), (5, 6));
}

/// The largest independent part handed to the LP solver is limited before anything is
/// solved. In the diamond 0→{1,2}, 1→2, 2→3 the edges 0→1, 0→2 and 1→2 share rows (node 2's
/// in-flow, node 1's flow) and form one part with the rows that hold them; edge 2→3 and the
/// exit are pinned by the rows of nodes passed exactly once, a part of their own.
#[test]
fn largest_lp_part_is_limited() {
    let g = cfg(&[1, 5, 2, 1], &[(0, 1), (0, 2), (1, 2), (2, 3)], 0, &[]);
    let limited = |max_lp_size| {
        solve(
            &g,
            &LoopBounds::default(),
            &Budget {
                max_lp_size,
                ..Budget::default()
            },
        )
    };
    let err = limited(1).expect_err("every part with an LP is larger than 1");
    let Error::Budget {
        what,
        limit,
        needed,
    } = err
    else {
        panic!("{err:?}");
    };
    assert_eq!((what, limit), ("max_lp_size", 1));
    assert!((2..=11).contains(&needed), "{needed}");
    assert!(err.to_string().contains("max_lp_size"));
    // Exactly the largest part's size is enough, one less is not.
    assert_eq!(limited(needed).map(|s| s.wcet), Ok(1 + 5 + 2 + 1));
    assert!(limited(needed - 1).is_err());
}

/// A loop at the entry node is entered once by the start of execution itself.
#[test]
fn loop_at_entry_counts_the_start_as_its_entry() {
    // 0→0 self loop, 0→1 exit. Bound 3: node 0 runs 3 times.
    let g = cfg(&[4, 1], &[(0, 0), (0, 1)], 0, &[]);
    let loops = find_loops(&g);
    assert_eq!(loops.len(), 1);
    assert_eq!(loops[0].header, 0);
    assert_eq!(loops[0].back_edges, vec![0]);
    assert!(loops[0].entry_edges.is_empty());
    let s = solved(&g, &bounds(&[(0, 3)], None));
    assert_eq!(s.node_counts, vec![3, 1]);
    assert_eq!(s.edge_counts, vec![2, 1]);
    assert_eq!(s.wcet, 13);
}

/// Parallel edges are separate variables; self loops inside the body work too.
#[test]
fn parallel_edges_and_self_loops() {
    // 0⇉1 (two parallel edges), 1→1 self loop, 1→2.
    let g = cfg(&[1, 2, 1], &[(0, 1), (0, 1), (1, 1), (1, 2)], 0, &[]);
    let s = solved(&g, &bounds(&[(1, 4)], None));
    assert_eq!(s.node_counts, vec![1, 4, 1]);
    assert_eq!(s.edge_counts[0] + s.edge_counts[1], 1);
    assert_eq!(s.edge_counts[2..], [3, 1]);
    assert_eq!(s.wcet, 1 + 8 + 1);
}

/// An exit node with successors may end execution there or continue.
#[test]
fn listed_exit_with_successors() {
    // 0→1, 1→2, 2→1; node 1 is the only exit. Bound 3 on header 1: 0,1,2,1,2,1.
    let g = cfg(&[1, 1, 5], &[(0, 1), (1, 2), (2, 1)], 0, &[1]);
    let s = solved(&g, &bounds(&[(1, 3)], None));
    assert_eq!(s.node_counts, vec![1, 3, 2]);
    assert_eq!(s.exit_counts, vec![(1, 1)]);
    assert_eq!(s.wcet, 1 + 3 + 10);
    // An extra exit that is more expensive to reach wins.
    let g = cfg(&[1, 1, 5, 100], &[(0, 1), (1, 2), (2, 1), (2, 3)], 0, &[1]);
    let s = solved(&g, &bounds(&[(1, 3)], None));
    assert_eq!(s.exit_counts, vec![(1, 0), (3, 1)]);
    // 0,1,2,1,2,1,2,3: header 3 times, node 2 three times (the last one exits to 3).
    assert_eq!(s.node_counts, vec![1, 3, 3, 1]);
    assert_eq!(s.wcet, 1 + 3 + 15 + 100);
}

/// Unreachable nodes get count 0 and their loops need no bound.
#[test]
fn unreachable_loops_are_ignored() {
    // 0→1 (exit); 2↔3 unreachable cycle with no bound; 3→1.
    let g = cfg(&[1, 1, 50, 50], &[(0, 1), (2, 3), (3, 2), (3, 1)], 0, &[]);
    assert!(find_loops(&g).is_empty());
    let s = solved(&g, &LoopBounds::default());
    assert_eq!(s.node_counts, vec![1, 1, 0, 0]);
    assert_eq!(s.wcet, 2);
}

/// No exit reachable, or bounds that forbid every path, is NoPath.
#[test]
fn no_path_errors() {
    // 0→1, 1→1: the only reachable non-entry node loops forever.
    let g = cfg(&[1, 1], &[(0, 1), (1, 1)], 0, &[]);
    let err = solve(&g, &LoopBounds::with_default(10), &Budget::default())
        .expect_err("no exit is reachable");
    assert_eq!(err, Error::NoPath);
    assert_eq!(err.to_string(), "no path from the entry to an exit");
    // Bound 0 on a loop every path must enter.
    let err = solve(&simple_loop(), &bounds(&[(1, 0)], None), &Budget::default())
        .expect_err("header 1 may not run, yet every path runs it");
    assert_eq!(err, Error::NoPath);
}

/// Malformed graphs are InvalidGraph, never a panic.
#[test]
fn invalid_graphs_are_rejected() {
    let b = LoopBounds::with_default(10);
    let budget = Budget::default();
    let cases = [
        cfg(&[], &[], 0, &[]),
        cfg(&[1, 1], &[(0, 2)], 0, &[]),
        cfg(&[1, 1], &[(0, 1)], 2, &[]),
        cfg(&[1, 1], &[(0, 1)], 0, &[7]),
    ];
    for g in &cases {
        match solve(g, &b, &budget) {
            Err(Error::InvalidGraph(msg)) => assert!(!msg.is_empty()),
            other => panic!("expected InvalidGraph for {g:?}, got {other:?}"),
        }
        assert!(find_loops(g).is_empty());
    }
}

/// A nested irreducible region: the cycle 3↔4 avoids the outer region's entry nodes 1 and
/// 2, so it must be bounded separately, or the LP would be unbounded.
#[test]
fn nested_irreducible_region_is_bounded() {
    // 0→1, 0→2, 1⇄2, 1→3, 2→4, 3⇄4, 3→5, 4→1. No node but 0 dominates 1..4, so there
    // are no back edges; {1,2,3,4} is one SCC entered at 1 and 2, and {3,4} (entered at 3
    // from 1 and at 4 from 2) remains strongly connected once 1 and 2 are removed.
    let g = cfg(
        &[1, 1, 1, 7, 7, 1],
        &[
            (0, 1),
            (0, 2),
            (1, 2),
            (2, 1),
            (1, 3),
            (2, 4),
            (3, 4),
            (4, 3),
            (3, 5),
            (4, 1),
        ],
        0,
        &[],
    );
    let loops = find_loops(&g);
    let regions: Vec<(usize, Vec<usize>, Vec<usize>, usize)> = loops
        .iter()
        .map(|l| (l.header, l.body.clone(), l.entry_nodes.clone(), l.depth))
        .collect();
    assert_eq!(
        regions,
        vec![
            (1, vec![1, 2, 3, 4], vec![1, 2], 1),
            (3, vec![3, 4], vec![3, 4], 2)
        ]
    );
    assert!(loops.iter().all(|l| l.irreducible));
    assert_eq!(loops[1].entry_edges, vec![4, 5]);
    // Default 2. Outer: count(1)+count(2) ≤ 2·1. Inner: count(3)+count(4) ≤ 2·(x13+x24),
    // and x13+x24 ≤ count(1)+count(2) ≤ 2, so count(3)+count(4) ≤ 4. The path
    // 0,2,4,3,4,1,3,5 meets both limits: 1 + (1+1) + 7·4 + 1 = 32, the maximum.
    let s = solved(&g, &LoopBounds::with_default(2));
    assert_eq!(s.wcet, 32);
    assert_eq!(s.node_counts, vec![1, 1, 1, 2, 2, 1]);
    assert!(s.integral);
}

/// Solutions and errors are plain values: a copy compares equal, a different one does not,
/// and an error says what ran out.
#[test]
fn solutions_and_errors_are_plain_values() {
    let s = solved(&simple_loop(), &bounds(&[(1, 5)], None));
    let copy: Solution = s.clone();
    assert_eq!(copy, s);
    let other = solved(&simple_loop(), &bounds(&[(1, 6)], None));
    assert_ne!(other, s);
    let e = Error::Budget {
        what: "max_variables",
        limit: 1,
        needed: 2,
    };
    assert_eq!(e.clone(), e);
    assert!(e.to_string().contains("max_variables"), "{e}");
}

/// Large graphs stay fast because nodes passed exactly once split the LP: a 10 000-node
/// chain needs no LP at all, and 500 loops separated by straight-line blocks need one small
/// LP each. The WCETs follow from the structure.
#[test]
fn large_graphs_split_into_small_problems() {
    let n = 10_000;
    let chain = cfg(
        &vec![3; n],
        &(0..n - 1).map(|i| (i, i + 1)).collect::<Vec<_>>(),
        0,
        &[],
    );
    let s = solved(&chain, &LoopBounds::default());
    assert_eq!(s.wcet, 3 * n as u64);
    assert_eq!(s.bb_nodes, 0);

    // Loop i: header h (cost 1) → a (i % 7) or b (i % 5) → join j (1) → h; h → gap g (2).
    let k = 500;
    let (mut costs, mut edges, mut prev) = (vec![1u64], Vec::new(), 0);
    let mut expected = 1 + 1; // entry and final node
    for i in 0..k {
        let h = costs.len();
        costs.extend([1, (i % 7) as u64, (i % 5) as u64, 1, 2]);
        let (a, b, j, g) = (h + 1, h + 2, h + 3, h + 4);
        edges.extend([(prev, h), (h, a), (h, b), (a, j), (b, j), (j, h), (h, g)]);
        prev = g;
        // Header 10 times, 9 iterations through the dearer branch and the join, gap once.
        expected += 10 + 9 * ((i % 7).max(i % 5) as u64 + 1) + 2;
    }
    let end = costs.len();
    costs.push(1);
    edges.push((prev, end));
    let s = solved(&cfg(&costs, &edges, 0, &[]), &LoopBounds::with_default(10));
    assert_eq!(s.wcet, expected);
    assert!(s.integral);
    assert_eq!(s.bb_nodes, k, "one LP per loop, no branching");
    assert_eq!(s.loops.len(), k);
}

/// The loops of a [`ipet::LoopStructure`] are those [`ipet::find_loops`] reports, and its
/// `solve` gives what [`ipet::solve`] gives: a caller can key bounds by the loops it shows
/// and solve without finding them twice.
#[test]
fn loop_structure_is_find_loops_then_solve() {
    // 0 -> 1 (header) -> 2 -> 1, 1 -> 3 (exit).
    let cfg = ipet::Cfg {
        costs: vec![1, 2, 5, 1],
        edges: vec![(0, 1), (1, 2), (2, 1), (1, 3)],
        entry: 0,
        exits: vec![3],
    };
    let structure = ipet::LoopStructure::new(&cfg).expect("valid graph");
    assert_eq!(structure.loops(), ipet::find_loops(&cfg).as_slice());
    let header = structure.loops()[0].header;
    let bounds = ipet::LoopBounds {
        per_header: [(header, 4)].into_iter().collect(),
        default: None,
    };
    let budget = ipet::Budget::default();
    let once = structure.solve(&bounds, &budget).expect("solution");
    assert_eq!(once, ipet::solve(&cfg, &bounds, &budget).expect("solution"));
    assert_eq!(once.wcet, 1 + 4 * 2 + 3 * 5 + 1);
    let bad = ipet::Cfg { entry: 9, ..cfg };
    assert!(matches!(
        ipet::LoopStructure::new(&bad),
        Err(ipet::Error::InvalidGraph(_))
    ));
}
