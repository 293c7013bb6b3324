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
    let m = report.makespan.as_ref().expect("makespan details");
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
        assert_eq!(p.budget, 4_000_000, "the default max_steps");
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
        .makespan
        .as_ref()
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
