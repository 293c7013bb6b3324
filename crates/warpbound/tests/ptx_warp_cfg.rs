//! `warp-cfg` on PTX: the divergence analysis, the post-dominator stack's warp-level CFG
//! and its IPET bound, on hand-checked kernels, the course example with a `printf`, and
//! generated kernels whose simulated executions must be paths of the graph within the bound.

use isa::Dialect;
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use warpbound::report::{CfgView, WarpCfgDetails};
use warpbound::{analyze, Report, Request};

fn run(src: &str, params: &[(&str, serde_json::Value)]) -> Report {
    let mut req = Request::new(src, Dialect::Ptx);
    req.mode = Some("warp-cfg".into());
    req.timings = false;
    for (k, v) in params {
        req.params.insert(k.to_string(), v.clone());
    }
    analyze(&req)
}

fn errors(r: &Report) -> Vec<String> {
    r.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.clone())
        .collect()
}

fn wcet(r: &Report) -> u64 {
    r.wcet
        .as_ref()
        .unwrap_or_else(|| panic!("no bound: {:?}", errors(r)))
        .cycles
}

fn details(r: &Report) -> &WarpCfgDetails {
    r.warp_cfg()
        .unwrap_or_else(|| panic!("no details: {:?}", errors(r)))
}

fn graph(r: &Report) -> &CfgView {
    r.cfg.as_ref().expect("graph")
}

/// Edges as (from block, to block or None for exit, kind), sorted, deduplicated.
fn block_edges(g: &CfgView) -> BTreeSet<(Option<usize>, Option<usize>, String)> {
    g.edges
        .iter()
        .map(|e| (g.nodes[e.from].block, g.nodes[e.to].block, e.kind.clone()))
        .collect()
}

fn kernel(body: &str, params: &str) -> String {
    format!(
        ".version 7.8\n.target sm_86\n.address_size 64\n\n.visible .entry k({params})\n{{\n\
         .reg .pred %p<64>;\n.reg .b32 %r<64>;\n.reg .b64 %rd<16>;\n{body}}}\n"
    )
}

/// if (tid < 16) r = tid + 2; else r = tid + 1; — blocks B0 [0..2], B1 [3..4] (else),
/// B2 [5] (then), B3 [6..7] (join).
const IF_ELSE: &str = "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 16;\n@%p1 bra THEN;\n\
add.s32 %r2, %r1, 1;\nbra.uni JOIN;\nTHEN:\nadd.s32 %r2, %r1, 2;\nJOIN:\n\
mov.u32 %r3, %r2;\nret;\n";

#[test]
fn divergent_if_else_runs_both_sides_and_reconverges_at_the_join() {
    let r = run(&kernel(IF_ELSE, ""), &[]);
    // Hand-derived (pdom.rs rules, taken side first): s0 B0; uniform outcomes s1 = B2,
    // s2 = B1; the divergence s3 = B2 with B1 pending and the warp waiting at B3; B2 reaches
    // B3 → the pending B1 runs (s5), reaches B3 → the warp reconverges at B3 (s4, the same
    // state as after a uniform branch).
    let g = graph(&r);
    assert_eq!(g.nodes.len(), 7, "6 states and the exit");
    let expected: BTreeSet<_> = [
        (Some(0), Some(2), "taken"),
        (Some(0), Some(1), "fallthrough"),
        (Some(0), Some(2), "divergence"),
        (Some(2), Some(3), "fallthrough"),
        (Some(1), Some(3), "taken"),
        (Some(2), Some(1), "divergence"),
        (Some(1), Some(3), "reconvergence"),
        (Some(3), None, "exit"),
    ]
    .into_iter()
    .map(|(a, b, k)| (a, b, k.to_string()))
    .collect();
    assert_eq!(block_edges(g), expected);
    // The warp pays both sides: 3 + 1 + 2 + 2 = every instruction once.
    assert_eq!(wcet(&r), 8);
    let d = details(&r);
    assert_eq!(d.divergent_branches.len(), 1);
    assert_eq!(d.divergent_branches[0].guard, "%p1");
    assert_eq!(
        d.divergent_branches[0].reason,
        "%p1 ← %r1 ← %tid.x (line 10)"
    );
}

#[test]
fn a_uniform_guard_takes_one_side() {
    // The same if/else on a kernel parameter: no lane can disagree.
    let body = IF_ELSE.replace("mov.u32 %r1, %tid.x;", "ld.param.u32 %r1, [n];");
    let r = run(&kernel(&body, ".param .u32 n"), &[]);
    assert_eq!(
        graph(&r).nodes.len(),
        5,
        "B0, B1, B2, B3 once each, and the exit"
    );
    assert!(!block_edges(graph(&r))
        .iter()
        .any(|(_, _, k)| k == "divergence"));
    // The longer side: 3 + max(2, 1) + 2.
    assert_eq!(wcet(&r), 7);
}

#[test]
fn loop_with_a_divergent_exit_keeps_its_counter_uniform_inside() {
    // for (c = 0; c < tid; ) c++; then a branch on the counter after the loop.
    // Blocks: B0 [0..1], B1 [2..4] (loop), B2 [5..6] (after: varying counter), B3 [7], B4 [8].
    let body = "mov.u32 %r1, %tid.x;\nmov.u32 %r2, 0;\nLOOP:\nadd.s32 %r2, %r2, 1;\n\
setp.lt.u32 %p1, %r2, %r1;\n@%p1 bra LOOP;\nsetp.eq.u32 %p2, %r2, 3;\n@%p2 bra SKIP;\n\
add.s32 %r3, %r2, 1;\nSKIP:\nret;\n";
    let r = run(&kernel(body, ""), &[("default_loop_bound", 4.into())]);
    let d = details(&r);
    let lines: Vec<(u32, &str)> = d
        .divergent_branches
        .iter()
        .map(|b| (b.line, b.reason.as_str()))
        .collect();
    assert_eq!(
        lines,
        vec![
            (15, "%p1 ← %r1 ← %tid.x (line 10)"),
            (
                17,
                "%p2 ← %r2 ← written under the divergent branch of line 15 and read after it reconverges"
            )
        ]
    );
    // The loop B1 appears twice in the warp-level CFG: before its exit first diverges (all
    // lanes iterating) and after (the lanes that stay). The copies are phases of one loop
    // and share its bound (no pending path resumes inside it). The code bounds it: c + 1 <
    // tid ≤ 31 gives 31 runs of the header (issue #38), so: B0 2 + B1 3 · 31 + B2 2 + B3 1 +
    // B4 1 = 99, not 2 + 3·31 + 3·31 + 4 with a bound per copy.
    assert_eq!(wcet(&r), 99);
    assert_eq!(
        graph(&r)
            .nodes
            .iter()
            .filter(|n| n.block == Some(1))
            .count(),
        2
    );
}

#[test]
fn course_example_with_printf_has_its_divergence_edge_and_reconvergence_point() {
    let src = include_str!("../../../www/examples/warp-cfg-ptx-printf.ptx");
    let r = run(src, &[]);
    assert!(errors(&r).is_empty(), "{:?}", errors(&r));
    // The vprintf call is costed as one instruction, and said so.
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.message.contains("`call vprintf`") && d.line == 72));
    let d = details(&r);
    let found: Vec<(u32, &str)> = d
        .divergent_branches
        .iter()
        .map(|b| (b.line, b.reason.as_str()))
        .collect();
    assert_eq!(
        found,
        vec![
            (44, "%p1 ← %r1 ← %r6 ← %tid.x (line 41)"),
            (51, "%p2 ← %r2 ← ld.global.u32 (line 49)"),
        ]
    );
    // The if (a[i] > 0) branch ends the block of lines 46–51; its divergence edge leads to
    // the then-side (lines 55–57) with the else-side pending, and both reconverge at the
    // `ret` of $L__BB0_4 (line 82).
    let g = graph(&r);
    let line_of = |n: usize| g.nodes[n].line_start;
    let edges: BTreeSet<(u32, u32, String)> = g
        .edges
        .iter()
        .filter(|e| g.nodes[e.to].block.is_some())
        .map(|e| (line_of(e.from), line_of(e.to), e.kind.clone()))
        .collect();
    assert!(edges.contains(&(46, 55, "divergence".into())), "{edges:?}");
    assert!(
        edges.contains(&(60, 82, "reconvergence".into())),
        "{edges:?}"
    );
    assert!(edges.contains(&(55, 52, "divergence".into())), "{edges:?}");
    // Everything runs once on the worst path: all 30 instructions.
    assert_eq!(wcet(&r), 30);
}

/// A generated structured kernel: the thread id in %r0, its element a[tid] in %r1, a
/// running value in %r2.
#[derive(Debug, Clone)]
enum Stmt {
    Arith(u8),
    If(Cond, Vec<Stmt>, Vec<Stmt>),
    Loop(Trip, Vec<Stmt>),
    Exit(u8),
    Store,
}

#[derive(Debug, Clone, Copy)]
enum Cond {
    Tid(u8),
    Data(u8),
    Uniform(u8),
    Running(u8),
}

#[derive(Debug, Clone, Copy)]
enum Trip {
    Const(u8),
    Data,
}

fn stmt() -> impl Strategy<Value = Stmt> {
    let leaf = prop_oneof![
        (0u8..4).prop_map(Stmt::Arith),
        (0u8..16).prop_map(Stmt::Exit),
        Just(Stmt::Store),
    ];
    leaf.prop_recursive(2, 12, 3, |inner| {
        let cond = prop_oneof![
            (0u8..32).prop_map(Cond::Tid),
            (0u8..16).prop_map(Cond::Data),
            (0u8..4).prop_map(Cond::Uniform),
            (0u8..8).prop_map(Cond::Running),
        ];
        let trip = prop_oneof![(1u8..5).prop_map(Trip::Const), Just(Trip::Data)];
        prop_oneof![
            (
                cond,
                prop::collection::vec(inner.clone(), 0..3),
                prop::collection::vec(inner.clone(), 0..3)
            )
                .prop_map(|(c, t, e)| Stmt::If(c, t, e)),
            (trip, prop::collection::vec(inner, 1..3)).prop_map(|(t, b)| Stmt::Loop(t, b)),
        ]
    })
}

struct Gen {
    out: String,
    labels: usize,
    regs: usize,
    preds: usize,
}

impl Gen {
    fn label(&mut self) -> String {
        self.labels += 1;
        format!("L{}", self.labels)
    }
    fn reg(&mut self) -> String {
        self.regs += 1;
        format!("%r{}", self.regs)
    }
    fn pred(&mut self) -> String {
        self.preds += 1;
        format!("%p{}", self.preds)
    }
    fn emit(&mut self, s: &Stmt) {
        match s {
            Stmt::Arith(k) => match k % 2 {
                0 => self.out += &format!("add.s32 %r2, %r2, {k};\n"),
                _ => self.out += "xor.b32 %r2, %r2, %r1;\n",
            },
            Stmt::Store => self.out += "st.global.u32 [%rd2], %r2;\n",
            Stmt::Exit(k) => {
                let p = self.pred();
                self.out += &format!("setp.eq.u32 {p}, %r1, {k};\n@{p} exit;\n");
            }
            Stmt::If(c, then, els) => {
                let p = self.pred();
                self.out += &match c {
                    Cond::Tid(k) => format!("setp.lt.u32 {p}, %r0, {k};\n"),
                    Cond::Data(k) => format!("setp.gt.u32 {p}, %r1, {k};\n"),
                    Cond::Uniform(k) => format!("setp.eq.u32 {p}, %r3, {k};\n"),
                    Cond::Running(k) => format!("setp.lt.u32 {p}, %r2, {k};\n"),
                };
                let (l_else, l_join) = (self.label(), self.label());
                self.out += &format!("@!{p} bra {l_else};\n");
                for s in then {
                    self.emit(s);
                }
                self.out += &format!("bra.uni {l_join};\n{l_else}:\n");
                for s in els {
                    self.emit(s);
                }
                self.out += &format!("{l_join}:\n");
            }
            Stmt::Loop(trip, body) => {
                let (c, lim, p) = (self.reg(), self.reg(), self.pred());
                self.out += &match trip {
                    Trip::Const(k) => format!("mov.u32 {lim}, {k};\n"),
                    // 1..=4 iterations, different per lane.
                    Trip::Data => format!("and.b32 {lim}, %r1, 3;\nadd.s32 {lim}, {lim}, 1;\n"),
                };
                let head = self.label();
                self.out += &format!("mov.u32 {c}, 0;\n{head}:\n");
                for s in body {
                    self.emit(s);
                }
                self.out += &format!(
                    "add.s32 {c}, {c}, 1;\nsetp.lt.u32 {p}, {c}, {lim};\n@{p} bra {head};\n"
                );
            }
        }
    }
}

fn generated(stmts: &[Stmt]) -> String {
    let mut g = Gen {
        out: String::new(),
        labels: 0,
        regs: 3,
        preds: 0,
    };
    g.out += "ld.param.u64 %rd1, [a];\ncvta.to.global.u64 %rd1, %rd1;\nmov.u32 %r0, %tid.x;\n\
mul.wide.u32 %rd2, %r0, 4;\nadd.s64 %rd2, %rd1, %rd2;\nld.global.u32 %r1, [%rd2];\n\
mov.u32 %r2, 0;\nld.param.u32 %r3, [n];\n";
    for s in stmts {
        g.emit(s);
    }
    g.out += "st.global.u32 [%rd2], %r2;\nret;\n";
    kernel(&g.out, ".param .u64 a, .param .u32 n")
}

/// Whether the warp's block visits (a block starts where an issue is a block's first
/// instruction) are a walk of the warp-level CFG from its entry that ends at the exit.
fn is_path(g: &CfgView, visits: &[usize]) -> bool {
    let mut succ: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for e in &g.edges {
        succ.entry(e.from).or_default().push(e.to);
    }
    let mut at: BTreeSet<usize> = BTreeSet::from([g.entry]);
    if g.nodes[g.entry].block != visits.first().copied() {
        return false;
    }
    for &b in &visits[1..] {
        at = at
            .iter()
            .flat_map(|n| succ.get(n).into_iter().flatten())
            .copied()
            .filter(|&m| g.nodes[m].block == Some(b))
            .collect();
        if at.is_empty() {
            return false;
        }
    }
    at.iter().any(|n| {
        succ.get(n)
            .is_some_and(|s| s.iter().any(|&m| g.nodes[m].kind == "exit"))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    /// Soundness against the PTX simulator (its PDOM stack is the model the graph
    /// abstracts): for every generated kernel and several memory contents, one warp's
    /// executed blocks are a path of the warp-level CFG, and its unit-cost cycles stay
    /// within the IPET bound (loops run at most 4 times, the default bound given).
    #[test]
    fn simulated_warps_follow_the_graph_within_the_bound(
        stmts in prop::collection::vec(stmt(), 1..4),
        seeds in prop::collection::vec(0u32..1000, 3),
        n in 0u32..4,
    ) {
        let src = generated(&stmts);
        for seed in seeds {
            let r = run(&src, &[
                ("default_loop_bound", 4.into()),
                ("simulate", true.into()),
                ("params", format!("0x1000,0,{n}").into()),
                ("memory", format!("a@0x1000 32 random {seed} 16").into()),
            ]);
            // A kernel whose `exit`s inside loops leave the warp unreconverged until the end
            // can outgrow the ILP budgets or the LP solver's numerics (execution counts of
            // 1e13 in a region nested twenty deep; a located error, no bound to check):
            // rejected, not passed.
            prop_assume!(!errors(&r)
                .iter()
                .any(|e| e.contains("budget")
                    || e.contains("LP solver failed")
                    || e.contains("numerical trouble")));
            prop_assert!(errors(&r).is_empty(), "{:?}\n{src}", errors(&r));
            let bound = wcet(&r);
            let sim = r.simulation.as_ref().expect("simulation");
            prop_assert_eq!(sim.run.warps.len(), 1);
            let g = graph(&r);
            let first: BTreeMap<usize, usize> = g
                .nodes
                .iter()
                .filter_map(|n| n.block.map(|b| (n.first, b)))
                .collect();
            let visits: Vec<usize> = sim.run.warps[0]
                .issues
                .iter()
                .filter_map(|i| first.get(&(i.index as usize)).copied())
                .collect();
            prop_assert!(is_path(g, &visits), "blocks {visits:?} are not a path\n{src}");
            prop_assert!(
                sim.run.cycles <= bound,
                "observed {} > bound {bound}\n{src}",
                sim.run.cycles
            );
        }
    }
}

#[test]
fn a_group_that_resumes_inside_a_loop_iterates_it_again() {
    // B may break out of the loop, so the branch at the header reconverges only at the
    // loop's exit E: lanes 0–15 (side A) run the loop to its end while lanes 16–31 wait at
    // B; when A's lanes reach E (from the latch, inside the loop) B's resume inside the
    // loop and run their own iterations. The loop's copies share the bound 4 per *start*,
    // and that resumption is one: without it the bound would be below what runs.
    let body = "ld.param.u64 %rd1, [a];\ncvta.to.global.u64 %rd1, %rd1;\nmov.u32 %r0, %tid.x;\n\
mul.wide.u32 %rd2, %r0, 4;\nadd.s64 %rd2, %rd1, %rd2;\nld.global.u32 %r1, [%rd2];\n\
mov.u32 %r4, 0;\nLOOP:\nadd.s32 %r4, %r4, 1;\nsetp.lt.u32 %p1, %r0, 16;\n@%p1 bra A;\n\
setp.eq.u32 %p2, %r1, 0;\n@%p2 bra E;\nbra.uni LATCH;\nA:\nadd.s32 %r2, %r2, 1;\nLATCH:\n\
setp.lt.u32 %p3, %r4, 4;\n@%p3 bra LOOP;\nE:\nret;\n";
    let r = run(
        &kernel(body, ".param .u64 a"),
        &[
            ("default_loop_bound", 4.into()),
            ("simulate", true.into()),
            ("params", "0x1000,0".into()),
            ("memory", "a@0x1000 32 const 5".into()),
        ],
    );
    let bound = wcet(&r);
    let sim = r.simulation.as_ref().expect("simulation");
    // The header (instruction 7) runs once for all lanes, 3 more times for A's and 3 more
    // for B's: 7 executions of a loop bounded by 4.
    let headers = sim.run.warps[0]
        .issues
        .iter()
        .filter(|i| i.index == 7)
        .count();
    assert_eq!(headers, 7);
    assert!(
        sim.run.cycles <= bound,
        "observed {} > bound {bound}",
        sim.run.cycles
    );
}
