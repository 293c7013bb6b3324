//! Progress reports of long work through the facade (`analyze_with_progress`): each long
//! task reports often, its work count never falls and stays within its budget, its interim
//! bound is a lower bound on the final value that never falls (every value sought is a
//! maximum), and the report is byte for byte the one `analyze` gives without an observer.

use isa::Dialect;
use std::cell::RefCell;
use warpbound::{analyze, analyze_with_progress, Progress, Report, Request, Task};

fn request(
    src: &str,
    dialect: Dialect,
    mode: &str,
    params: &[(&str, serde_json::Value)],
) -> Request {
    let mut req = Request::new(src, dialect);
    req.mode = Some(mode.into());
    req.timings = false;
    for (k, v) in params {
        req.params.insert(k.to_string(), v.clone());
    }
    req
}

/// The report with progress, the reports seen, and the same request's report without.
fn observed(req: &Request) -> (Report, Vec<Progress>) {
    let seen = RefCell::new(Vec::new());
    let report = analyze_with_progress(req, &|p: &Progress| seen.borrow_mut().push(*p));
    let plain = analyze(req);
    assert_eq!(
        serde_json::to_string(&report).expect("a report serialises"),
        serde_json::to_string(&plain).expect("a report serialises"),
        "the observer changed the report"
    );
    assert!(!report.has_errors(), "{:?}", report.diagnostics);
    (report, seen.into_inner())
}

/// The reports of `task`, checked: at least `at_least` of them, `done` never falling and
/// within the budget, `best_bound` never falling.
fn of_task(seen: &[Progress], task: Task, at_least: usize) -> Vec<Progress> {
    let mine: Vec<Progress> = seen.iter().filter(|p| p.task == task).copied().collect();
    assert!(
        mine.len() >= at_least,
        "{task:?}: {} reports, expected at least {at_least}",
        mine.len()
    );
    for w in mine.windows(2) {
        assert!(w[0].done <= w[1].done, "{task:?}: done fell: {w:?}");
        if let (Some(a), Some(b)) = (w[0].best_bound, w[1].best_bound) {
            assert!(a <= b, "{task:?}: the best bound fell: {w:?}");
        }
    }
    for p in &mine {
        assert!(p.done <= p.budget, "{task:?}: over budget: {p:?}");
    }
    mine
}

#[test]
fn exact_makespan_search_reports_a_rising_lower_bound_up_to_the_worst_case() {
    // 8 warps on "LLCLLCLLC" (fermi cc 2.0: 15 transformed instructions): about a million
    // search steps, a few hundred milliseconds.
    let req = request(
        "LLCLLCLLC",
        Dialect::Lc,
        "makespan",
        &[("warps", serde_json::json!(8))],
    );
    let (report, seen) = observed(&req);
    let m = report.makespan().expect("makespan details");
    let exact = m
        .exact
        .expect("the exact worst case within the default budget");
    assert_eq!(exact, 99);
    let mine = of_task(&seen, Task::MakespanSearch, 10);
    for p in &mine {
        assert_eq!(p.budget, 10_000_000, "the default max_search_steps");
        // The worst case is a maximum: a schedule found so far is at most as long.
        let best = p.best_bound.expect("the search always knows a schedule");
        assert!(best <= exact, "{p:?} above the exact {exact}");
        let upper = p.upper_bound.expect("the start state's bound");
        assert!(upper >= exact, "{p:?} below the exact {exact}");
    }
    // The lower bound does rise during the search (it is not a constant).
    let first = mine[0].best_bound.unwrap_or(0);
    let last = mine[mine.len() - 1].best_bound.unwrap_or(0);
    assert!(first < last, "no rise: {first} → {last}");
}

#[test]
fn simulation_reports_instructions_issued_and_the_cycle_reached() {
    // 32 blocks of 32 warps, each running a 600-instruction L/C string: 614 400
    // warp-instructions, a report every 65 536.
    let src = "LC".repeat(300);
    let req = request(
        &src,
        Dialect::Lc,
        "simulate",
        &[
            ("grid", serde_json::json!("32")),
            ("block", serde_json::json!("1024")),
            ("trace", serde_json::json!(false)),
        ],
    );
    let (report, seen) = observed(&req);
    let s = report.simulation.as_ref().expect("a run");
    assert_eq!(s.run.issued, 614_400);
    let mine = of_task(&seen, Task::Simulation, 9);
    for (i, p) in mine.iter().enumerate() {
        assert_eq!(p.budget, 3_000_000, "the default max_steps");
        // Reports come after each 65 536 issues (checked once per simulated cycle).
        assert!(p.done >= (i as u64 + 1) * 65_536, "{p:?}");
        let cycle = p.best_bound.expect("the cycle reached");
        assert!(
            cycle <= s.run.cycles,
            "{p:?} past the run's {} cycles",
            s.run.cycles
        );
    }
}

/// Fig. 1's divergent if-then-else `n` times in a row (SASS, Fermi's SSY/SYNC stack).
fn diamonds(n: usize) -> String {
    let mut lines = vec![
        "S2R R0, SR_TID.X ;".to_string(),
        "ISETP.GE.AND P0, PT, R0, 0x10, PT ;".to_string(),
    ];
    for _ in 0..n {
        let at = lines.len() * 8;
        lines.push(format!("SSY {:#x} ;", at + 6 * 8));
        lines.push(format!("@P0 BRA {:#x} ;", at + 4 * 8));
        lines.push("IADD R1, R1, 0x1 ;".into());
        lines.push("SYNC ;".into());
        lines.push("IADD R1, R1, -0x1 ;".into());
        lines.push("SYNC ;".into());
    }
    lines.push("EXIT ;".into());
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| format!("/*{:04x}*/ {l}\n", i * 8))
        .collect()
}

#[test]
fn warp_cfg_fixpoint_reports_abstract_states() {
    // 100 divergent diamonds: 401 abstract states (four per diamond and the entry), a
    // report every 64 blocks run.
    let req = request(&diamonds(100), Dialect::Sass, "warp-cfg", &[]);
    let (report, seen) = observed(&req);
    let nodes = report.cfg.as_ref().expect("a graph").nodes.len() as u64;
    assert_eq!(nodes, 402, "the states and the exit node");
    let mine = of_task(&seen, Task::WarpCfg, 4);
    for p in &mine {
        assert_eq!(p.budget, 20_000, "the default max_states");
        assert!(p.done < nodes, "{p:?}: more states than the graph has");
        assert_eq!(p.best_bound, None);
    }
    assert!(mine[mine.len() - 1].done > 300, "{mine:?}");
}

#[test]
fn a_short_request_reports_nothing() {
    let src = include_str!("../../../www/examples/makespan-fig2.lc");
    let req = request(src, Dialect::Lc, "makespan", &[]);
    let (_, seen) = observed(&req);
    assert_eq!(seen, Vec::new());
}

#[test]
fn makespan_ilp_reports_its_nodes_and_incumbent() {
    // The paper's ILP (Fig. 3, short constraints) for 4 warps on LCLCLC: about 46 000 nodes of
    // the propagating 0/1 branch and bound, a report every 1 024.
    let req = request(
        "LCLCLC",
        Dialect::Lc,
        "makespan",
        &[
            ("warps", serde_json::json!(4)),
            ("method", serde_json::json!("ilp-short")),
        ],
    );
    let (report, seen) = observed(&req);
    let exact = report
        .makespan()
        .and_then(|m| m.exact)
        .expect("the ILP is solved within the default budget");
    assert_eq!(exact, 27);
    let mine = of_task(&seen, Task::BinaryBranchAndBound, 20);
    for p in &mine {
        assert_eq!(p.budget, 50_000, "the default max_bb_nodes");
        // The objective is the last warp's completion (Eq. 13): an incumbent is a schedule.
        assert!(p.best_bound.is_none_or(|b| b <= exact), "{p:?}");
        assert_eq!(p.upper_bound, Some(36), "the root LP's cap");
    }
    assert_eq!(mine[mine.len() - 1].best_bound, Some(exact), "{mine:?}");
}

/// Reports of `task` carry no bound (the tasks whose work has no value that rises).
fn without_bounds(mine: &[Progress]) {
    for p in mine {
        assert_eq!((p.best_bound, p.upper_bound), (None, None), "{p:?}");
    }
}

#[test]
fn makespan_curve_and_estimate_report_the_steps_of_their_searches_together() {
    // The T(W, x) curve of 8 warps on "LLCLLCLLC" searches T(1), …, T(8) on half the step
    // budget; the estimate for x = 8 the same on the whole budget. T(8) alone is about a
    // million steps, so both report dozens of times, counting on across the searches.
    let req = request(
        "LLCLLCLLC",
        Dialect::Lc,
        "makespan",
        &[
            ("warps", serde_json::json!(8)),
            ("estimate_x", serde_json::json!(8)),
        ],
    );
    let (report, seen) = observed(&req);
    let m = report.makespan().expect("makespan details");
    assert_eq!(m.exact, Some(99));
    let curve = of_task(&seen, Task::MakespanCurve, 20);
    assert!(
        curve.iter().all(|p| p.budget == 5_000_000),
        "half of max_search_steps"
    );
    without_bounds(&curve);
    let estimate = of_task(&seen, Task::MakespanEstimate, 20);
    assert!(estimate.iter().all(|p| p.budget == 10_000_000));
    without_bounds(&estimate);
    // The curve's count goes on past the last search's own (T(8) alone is below it).
    let exact_steps = of_task(&seen, Task::MakespanSearch, 1)
        .last()
        .map_or(0, |p| p.done);
    assert!(curve[curve.len() - 1].done > exact_steps, "{curve:?}");
}

/// `n` divergent if-then-else diamonds in a row (PTX: the branch depends on `%tid.x`).
fn ptx_diamonds(n: usize) -> String {
    let mut s = String::from(
        ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n\
         .reg .pred %p<2>;\n.reg .b32 %r<4>;\nmov.u32 %r1, %tid.x;\n\
         setp.lt.u32 %p1, %r1, 16;\n",
    );
    for i in 0..n {
        s += &format!(
            "@%p1 bra ELSE{i};\nadd.s32 %r2, %r2, 1;\nbra END{i};\nELSE{i}:\n\
             sub.s32 %r2, %r2, 1;\nEND{i}:\n"
        );
    }
    s + "ret;\n}\n"
}

#[test]
fn ptx_warp_cfg_reports_the_stack_shapes_found() {
    // 100 divergent diamonds: four states each, a report every 64 states explored.
    let req = request(&ptx_diamonds(100), Dialect::Ptx, "warp-cfg", &[]);
    let (report, seen) = observed(&req);
    assert!(report.wcet.is_some());
    let mine = of_task(&seen, Task::PtxWarpCfg, 5);
    without_bounds(&mine);
    for p in &mine {
        assert_eq!(p.budget, 20_000, "the default max_states");
    }
    assert!(mine[mine.len() - 1].done > 300, "{mine:?}");
}

#[test]
fn rr_analyzer_reports_the_warp_instructions_it_executed() {
    // One warp counting to 70 000: three instructions per iteration, 210 000 warp
    // instructions, a report every 65 536.
    let src = ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n\
               .reg .pred %p<2>;\n.reg .b32 %r<2>;\nmov.u32 %r1, 0;\nLOOP:\n\
               add.s32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 70000;\n@%p1 bra LOOP;\nret;\n}\n";
    let req = request(src, Dialect::Ptx, "rr", &[]);
    let (report, seen) = observed(&req);
    let steps: usize = report
        .rr()
        .expect("rr details")
        .traces
        .iter()
        .map(|t| t.steps.len())
        .sum();
    // The report keeps the first 20 000 steps of a trace (`views::rr_caps`) and says so;
    // the three progress reports below show that all 210 002 ran.
    assert_eq!(steps, 20_000);
    assert!(report
        .diagnostics
        .iter()
        .any(|d| d.message.contains("cut to their first 20000 steps")));
    let mine = of_task(&seen, Task::RoundRobinAnalyzer, 3);
    without_bounds(&mine);
    for (i, p) in mine.iter().enumerate() {
        assert_eq!(p.budget, 1_800_000, "the default max_warp_steps");
        assert_eq!(p.done, (i as u64 + 1) * 65_536, "{p:?}");
    }
}

/// A GCN3 kernel whose loop body is `blocks` blocks joined by jumps, with `divergent` an
/// if-else on the work-item id in it (splittable).
fn gcn_loop(blocks: usize, divergent: bool, trips: u32) -> String {
    let mut s = String::from("k:\n  s_mov_b32 s0, 0\nBB0_1:\n");
    if divergent {
        s += "  v_cmp_gt_u32_e32 vcc, 32, v0\n  s_and_saveexec_b64 s[4:5], vcc\n\
              s_xor_b64 s[4:5], exec, s[4:5]\n  s_cbranch_execz BB1_1\n\
              v_mad_f32 v1, v1, v2, v3\nBB1_1:\n  s_or_saveexec_b64 s[4:5], s[4:5]\n\
              s_xor_b64 exec, exec, s[4:5]\n  s_cbranch_execz BB1_2\n\
              v_mul_f32_e32 v1, v1, v2\n  v_mul_f32_e32 v1, v1, v2\nBB1_2:\n\
              s_or_b64 exec, exec, s[4:5]\n";
    }
    for i in 0..blocks {
        s += &format!("  v_mad_f32 v1, v1, v2, v3\n  s_branch BB2_{i}\nBB2_{i}:\n");
    }
    s + &format!(
        "  s_add_u32 s0, s0, 1\n  s_cmp_lt_u32 s0, {trips}\n  s_cbranch_scc1 BB0_1\n  s_endpgm\n"
    )
}

#[test]
fn pws_unrolling_reports_the_nodes_of_the_graph() {
    // A loop of 21 blocks unrolled 60 times (the bound inferred from s0 < 60): about 1 260 nodes, a report after 1 024.
    let req = request(&gcn_loop(20, false, 60), Dialect::Gcn, "pws", &[]);
    let (report, seen) = observed(&req);
    assert!(report.pws().is_some());
    let mine = of_task(&seen, Task::PwsUnroll, 1);
    without_bounds(&mine);
    for p in &mine {
        assert_eq!(p.budget, 200_000, "the default max_unrolled_nodes");
        assert!(p.done >= 1_024, "{p:?}");
    }
}

#[test]
fn pws_split_selection_reports_pareto_points() {
    // A splittable if-else unrolled 150 times (inferred from s0 < 150): the optimal selection weighs every number of
    // splits along the sequence, tens of thousands of Pareto points.
    let req = request(
        &gcn_loop(0, true, 150),
        Dialect::Gcn,
        "pws",
        &[("max_nesting", serde_json::json!(1_000))],
    );
    let (report, seen) = observed(&req);
    let p = report.pws().expect("pws details");
    assert_eq!(p.splits.optimal.as_ref().map(Vec::len), Some(150));
    let mine = of_task(&seen, Task::PwsSplitSelection, 1);
    without_bounds(&mine);
    for p in &mine {
        assert_eq!(p.budget, 2_000_000, "the default max_pareto_points");
    }
}

#[test]
fn simd_execution_reports_phases_and_the_cycle_reached() {
    // The gallery's loop kernel on 8 192 work-groups of four phases: 32 768 phase
    // instances, a report every 16 384.
    let src = include_str!("../../../www/examples/simd-loop.sas");
    let req = request(
        src,
        Dialect::Simd,
        "simd",
        &[
            ("ndrange", serde_json::json!("262144,32")),
            ("simulate", serde_json::json!(true)),
        ],
    );
    let (report, seen) = observed(&req);
    let run = &report
        .simd()
        .and_then(|s| s.execution.as_ref())
        .expect("an execution")
        .run;
    assert_eq!(run.phase_instances, 32_768);
    let mine = of_task(&seen, Task::SimdExecution, 2);
    for (i, p) in mine.iter().enumerate() {
        assert_eq!(p.budget, 20_000_000, "the default max_sim_phases");
        assert_eq!(p.done, (i as u64 + 1) * 16_384, "{p:?}");
        let cycle = p.best_bound.expect("the cycle reached");
        assert!(
            cycle <= run.cycles,
            "{p:?} past the run's {} cycles",
            run.cycles
        );
    }
}
