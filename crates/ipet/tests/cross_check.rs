//! `solve` against independent methods:
//!
//! * structured programs (sequences, if-then-else, while loops with `break` and
//!   conditional exits) generated from a tiny LCG, whose WCET is recomputed by an explicit
//!   search over execution paths with one iteration counter per loop entry;
//! * arbitrary small graphs (LCG and proptest), where `solve` must never panic and every
//!   answer must be a consistent execution-count vector at least as long as every simple
//!   path.

#[path = "common/lcg.rs"]
mod lcg;

use lcg::Lcg;
use std::collections::{BTreeMap, HashMap};

use ipet::{find_loops, solve, Budget, Cfg, Error, LoopBounds, Solution};
use proptest::prelude::*;

/// A while loop as the generator built it: header, node range of the body (header
/// included), bound, nesting depth and pending `break` nodes.
#[derive(Clone, Debug)]
struct GenLoop {
    header: usize,
    end: usize,
    bound: u64,
    depth: usize,
    breaks: Vec<usize>,
}

impl GenLoop {
    fn contains(&self, v: usize) -> bool {
        (self.header..self.end).contains(&v)
    }
}

/// Builds a structured (hence reducible) CFG. Statements append nodes in order, so every
/// loop body is a contiguous node range starting at its header.
struct Gen {
    rng: Lcg,
    costs: Vec<u64>,
    edges: Vec<(usize, usize)>,
    exits: Vec<usize>,
    loops: Vec<GenLoop>,
    open: Vec<usize>,
    features: [usize; 4], // if, while, break, exit-if
}

impl Gen {
    fn node(&mut self) -> usize {
        let c = self.rng.below(21);
        self.costs.push(c);
        self.costs.len() - 1
    }

    fn connect(&mut self, from: &[usize], to: usize) {
        for &f in from {
            self.edges.push((f, to));
        }
    }

    fn seq(&mut self, depth: usize, mut dangling: Vec<usize>, len: u64) -> Vec<usize> {
        for _ in 0..len {
            dangling = self.stmt(depth, dangling);
        }
        dangling
    }

    fn stmt(&mut self, depth: usize, dangling: Vec<usize>) -> Vec<usize> {
        let small = self.costs.len() < 22;
        let choice = self.rng.below(10);
        match choice {
            4 | 5 if depth < 3 && small => {
                self.features[0] += 1;
                let c = self.node();
                self.connect(&dangling, c);
                let then_len = self.rng.below(3);
                let mut out = self.seq(depth + 1, vec![c], then_len);
                let else_len = self.rng.below(3);
                out.extend(self.seq(depth + 1, vec![c], else_len));
                out
            }
            6 | 7 if depth < 3 && small => {
                self.features[1] += 1;
                let h = self.node();
                self.connect(&dangling, h);
                let id = self.loops.len();
                let bound = 1 + self.rng.below(4);
                self.loops.push(GenLoop {
                    header: h,
                    end: h + 1,
                    bound,
                    depth: self.open.len() + 1,
                    breaks: Vec::new(),
                });
                self.open.push(id);
                let body_len = self.rng.below(3);
                let body_end = self.seq(depth + 1, vec![h], body_len);
                self.connect(&body_end, h);
                self.open.pop();
                self.loops[id].end = self.costs.len();
                let mut out = vec![h];
                out.extend(self.loops[id].breaks.iter().copied());
                out
            }
            8 if !self.open.is_empty() => {
                self.features[2] += 1;
                let n = self.node();
                self.connect(&dangling, n);
                if let Some(&inner) = self.open.last() {
                    self.loops[inner].breaks.push(n);
                }
                vec![n]
            }
            9 => {
                self.features[3] += 1;
                let n = self.node();
                self.connect(&dangling, n);
                self.exits.push(n);
                vec![n]
            }
            _ => {
                let n = self.node();
                self.connect(&dangling, n);
                vec![n]
            }
        }
    }

    fn program(seed: u64) -> Gen {
        let mut g = Gen {
            rng: Lcg(seed),
            costs: Vec::new(),
            edges: Vec::new(),
            exits: Vec::new(),
            loops: Vec::new(),
            open: Vec::new(),
            features: [0; 4],
        };
        let len = 1 + g.rng.below(6);
        let dangling = g.seq(0, Vec::new(), len);
        let end = g.node();
        g.connect(&dangling, end);
        g
    }

    fn cfg(&self) -> Cfg {
        Cfg {
            costs: self.costs.clone(),
            edges: self.edges.clone(),
            entry: 0,
            exits: self.exits.clone(),
        }
    }
}

/// Longest execution by explicit search over paths: each loop keeps a counter of header
/// executions since the current entry into the loop (reset on entry from outside,
/// incremented on a back edge, cleared on leaving); a step that would push a counter past
/// the loop's bound is not allowed. Memoised on (node, counters), which is exact because
/// the remaining best path depends on nothing else.
fn brute_force(g: &Gen) -> Option<u64> {
    let n = g.costs.len();
    let mut succ = vec![Vec::new(); n];
    for &(u, v) in &g.edges {
        succ[u].push(v);
    }
    let mut is_exit = vec![false; n];
    for &x in &g.exits {
        is_exit[x] = true;
    }
    for (u, s) in succ.iter().enumerate() {
        if s.is_empty() {
            is_exit[u] = true;
        }
    }
    let mut start = vec![0u64; g.loops.len()];
    for (i, l) in g.loops.iter().enumerate() {
        if l.header == 0 {
            start[i] = 1;
        }
    }
    let mut memo: HashMap<(usize, Vec<u64>), Option<u64>> = HashMap::new();
    longest(g, &succ, &is_exit, 0, start, &mut memo)
}

fn longest(
    g: &Gen,
    succ: &[Vec<usize>],
    is_exit: &[bool],
    v: usize,
    counters: Vec<u64>,
    memo: &mut HashMap<(usize, Vec<u64>), Option<u64>>,
) -> Option<u64> {
    if let Some(&r) = memo.get(&(v, counters.clone())) {
        return r;
    }
    let mut best = if is_exit[v] { Some(0) } else { None };
    'edges: for &w in &succ[v] {
        let mut next = counters.clone();
        for (i, l) in g.loops.iter().enumerate() {
            if w == l.header {
                next[i] = if l.contains(v) { next[i] + 1 } else { 1 };
                if next[i] > l.bound {
                    continue 'edges;
                }
            } else if l.contains(v) && !l.contains(w) {
                next[i] = 0;
            }
        }
        if let Some(rest) = longest(g, succ, is_exit, w, next, memo) {
            best = Some(best.map_or(rest, |b: u64| b.max(rest)));
        }
    }
    let r = best.map(|b| b + g.costs[v]);
    memo.insert((v, counters), r);
    r
}

/// Test 7: exact agreement with path enumeration on structured programs.
#[test]
fn structured_programs_match_path_enumeration() {
    let mut with_loops = 0;
    let mut nested = 0;
    let mut features = [0usize; 4];
    let graphs = 400;
    for seed in 0..graphs {
        let g = Gen::program(seed * 7919 + 17);
        for (a, b) in features.iter_mut().zip(g.features) {
            *a += b;
        }
        let cfg = g.cfg();

        // Loop detection agrees with the generator's loops.
        let mut found: Vec<(usize, Vec<usize>, usize, bool)> = find_loops(&cfg)
            .into_iter()
            .map(|l| (l.header, l.body, l.depth, l.irreducible))
            .collect();
        found.sort();
        let mut want: Vec<(usize, Vec<usize>, usize, bool)> = g
            .loops
            .iter()
            .map(|l| (l.header, (l.header..l.end).collect(), l.depth, false))
            .collect();
        want.sort();
        assert_eq!(found, want, "seed {seed}: loops of {cfg:?}");

        let bounds = LoopBounds {
            per_header: g
                .loops
                .iter()
                .map(|l| (l.header, l.bound))
                .collect::<BTreeMap<_, _>>(),
            default: None,
        };
        let expected = brute_force(&g).expect("structured programs always terminate");
        let s = solve(&cfg, &bounds, &Budget::default())
            .unwrap_or_else(|e| panic!("seed {seed}: {e} for {cfg:?}"));
        assert!(s.integral, "seed {seed}");
        assert_eq!(s.wcet, expected, "seed {seed}: {cfg:?} bounds {bounds:?}");
        check_consistent(&cfg, &s);
        if !g.loops.is_empty() {
            with_loops += 1;
        }
        if g.loops.iter().any(|l| l.depth > 1) {
            nested += 1;
        }
    }
    // The generator must actually exercise what it claims to.
    assert!(with_loops >= 150, "{with_loops} graphs with loops");
    assert!(nested >= 30, "{nested} graphs with nested loops");
    assert!(
        features.iter().all(|&f| f >= 30),
        "feature counts {features:?}"
    );
}

/// Checks a solution against the graph exactly: flow conservation, one end, node counts
/// from edges, the WCET from counts, loop bounds, LP bound ≥ WCET.
fn check_consistent(cfg: &Cfg, s: &Solution) {
    let n = cfg.costs.len();
    let mut inflow = vec![0u64; n];
    let mut outflow = vec![0u64; n];
    inflow[cfg.entry] += 1;
    for (&(u, v), &c) in cfg.edges.iter().zip(&s.edge_counts) {
        outflow[u] += c;
        inflow[v] += c;
    }
    let ends: u64 = s.exit_counts.iter().map(|&(_, c)| c).sum();
    assert_eq!(ends, 1);
    for &(x, c) in &s.exit_counts {
        outflow[x] += c;
    }
    assert_eq!(inflow, outflow);
    assert_eq!(inflow, s.node_counts);
    let wcet: u64 = s
        .node_counts
        .iter()
        .zip(&cfg.costs)
        .map(|(a, b)| a * b)
        .sum();
    assert_eq!(wcet, s.wcet);
    assert!(s.lp_bound >= s.wcet as f64 - 1e-6 * (1.0 + s.wcet as f64));
    for l in &s.loops {
        let bound = l.bound.expect("solved loops carry their bound");
        let count: u64 = l.entry_nodes.iter().map(|&v| s.node_counts[v]).sum();
        let mut entries: u64 = l.entry_edges.iter().map(|&e| s.edge_counts[e]).sum();
        if l.entry_nodes.contains(&cfg.entry) {
            entries += 1;
        }
        assert!(count <= bound * entries, "loop {l:?}");
    }
}

/// Most expensive simple path from the entry to an exit (exhaustive DFS), if any.
fn best_simple_path(cfg: &Cfg) -> Option<u64> {
    let n = cfg.costs.len();
    let mut succ = vec![Vec::new(); n];
    for &(u, v) in &cfg.edges {
        succ[u].push(v);
    }
    let mut is_exit = vec![false; n];
    for &x in &cfg.exits {
        is_exit[x] = true;
    }
    for (u, s) in succ.iter().enumerate() {
        if s.is_empty() {
            is_exit[u] = true;
        }
    }
    fn dfs(
        v: usize,
        acc: u64,
        on: &mut [bool],
        succ: &[Vec<usize>],
        is_exit: &[bool],
        cost: &[u64],
        best: &mut Option<u64>,
    ) {
        let acc = acc + cost[v];
        if is_exit[v] {
            *best = Some(best.map_or(acc, |b| b.max(acc)));
        }
        on[v] = true;
        for &w in &succ[v] {
            if !on[w] {
                dfs(w, acc, on, succ, is_exit, cost, best);
            }
        }
        on[v] = false;
    }
    let mut best = None;
    let mut on = vec![false; n];
    dfs(
        cfg.entry, 0, &mut on, &succ, &is_exit, &cfg.costs, &mut best,
    );
    best
}

/// Runs `solve` on an arbitrary graph and checks whatever comes back.
fn check_arbitrary(cfg: &Cfg) -> Result<Solution, Error> {
    let n = cfg.costs.len();
    let valid = cfg.entry < n
        && cfg.edges.iter().all(|&(u, v)| u < n && v < n)
        && cfg.exits.iter().all(|&x| x < n);
    // A default of n lets every simple path through: each loop or region is entered at
    // least once on it and its entry nodes (at most n) run at most once each.
    let bounds = LoopBounds::with_default(n.max(1) as u64);
    let r = solve(cfg, &bounds, &Budget::default());
    match &r {
        Ok(s) => {
            assert!(valid);
            check_consistent(cfg, s);
            let simple = best_simple_path(cfg).expect("a solution implies a path");
            assert!(s.wcet >= simple, "wcet {} < simple path {simple}", s.wcet);
            assert!(s.integral);
        }
        Err(Error::InvalidGraph(_)) => assert!(!valid),
        Err(Error::NoPath) => {
            assert!(valid);
            assert_eq!(best_simple_path(cfg), None, "a path exists: {cfg:?}");
        }
        Err(e) => panic!("unexpected error {e} for {cfg:?}"),
    }
    // The documented default bound of 3 must not panic either.
    let _ = solve(cfg, &LoopBounds::with_default(3), &Budget::default());
    r
}

/// Test 7 (second half): thousands of arbitrary small graphs, reducible or not.
#[test]
fn arbitrary_graphs_never_panic_and_are_consistent() {
    let mut rng = Lcg(0xdead_beef);
    let mut ok = 0;
    let mut irreducible = 0;
    let mut branched = 0;
    for _ in 0..3000 {
        let n = 1 + rng.below(7) as usize;
        let m = rng.below(14) as usize;
        let edges = (0..m)
            .map(|_| (rng.below(n as u64) as usize, rng.below(n as u64) as usize))
            .collect();
        let exits = (0..rng.below(3))
            .map(|_| rng.below(n as u64) as usize)
            .collect();
        let costs = (0..n).map(|_| rng.below(30)).collect();
        let cfg = Cfg {
            costs,
            edges,
            entry: rng.below(n as u64) as usize,
            exits,
        };
        if let Ok(s) = check_arbitrary(&cfg) {
            ok += 1;
            if s.loops.iter().any(|l| l.irreducible) {
                irreducible += 1;
            }
            if s.bb_nodes > 1 {
                branched += 1;
            }
        }
    }
    assert!(ok > 1000, "{ok} solved");
    assert!(irreducible > 100, "{irreducible} irreducible");
    assert!(branched > 10, "{branched} needed branching");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any graph, valid or not: `solve` returns `Ok` or an expected `Err`, never panics.
    #[test]
    fn solve_never_panics(
        n in 1usize..8,
        edges in prop::collection::vec((0usize..9, 0usize..9), 0..16),
        entry in 0usize..9,
        exits in prop::collection::vec(0usize..9, 0..3),
        costs in prop::collection::vec(0u64..1000, 8),
    ) {
        let cfg = Cfg { costs: costs[..n].to_vec(), edges, entry, exits };
        let _ = check_arbitrary(&cfg);
        let _ = find_loops(&cfg);
    }
}
