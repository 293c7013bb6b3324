//! Method (a): the paper's binary ILP (Fig. 3), short and long work-conserving constraints,
//! against method (b) — the memoised state search, which never looks at the ILP — and the
//! independent schedule validator of `common`.
//!
//! **The full range.** Every instance with at most 4 warps and at most 6 transformed
//! instructions — all 126 strings over {L, C}, σ_L, σ_C ∈ {1, 2}, both constraint variants:
//! 4,032 ILPs — is solved to optimality by the propagating branch and bound
//! (`IlpSolver::Propagation`), and each optimum must equal the search's, its witness must be
//! a valid work-conserving schedule, and both must respect the safe bound (and Eq. 5–7 when
//! σ = 1; for σ > 1 Eq. 5–7 is not a bound, see `bounds.rs`). The cc 2.1 case σ_C = 3 is
//! swept for 4 warps too. The sweep is split into tests that `cargo test` runs in parallel.
//!
//! **The LP-based branch and bound** (`IlpSolver::LpBranchAndBound`, an LP by `microlp` at
//! every node) solves the same model; its bound stays near the horizon until most of the
//! schedule is fixed, so it is checked on every instance up to 3 instructions and 2 warps and
//! a few larger ones.

mod common;

use common::{tr, validate};
use makespan::{
    build_ilp, exact, pessimistic, safe_bound, solve_ilp, Budget, Error, IlpSolver, IlpVariant,
    Schedule, Transformed,
};

const VARIANTS: [IlpVariant; 2] = [IlpVariant::Short, IlpVariant::Long];

fn budget() -> Budget {
    Budget {
        max_states: 1_000_000,
        max_search_steps: 100_000_000,
        max_ilp_variables: 5_000,
        max_bb_nodes: 1_000_000,
        max_lp_solves: 1_000_000,
    }
}

/// (a) = (b), the ILP witness is valid, and both respect the bounds.
fn check(t: &Transformed, w: u32, v: IlpVariant, solver: IlpSolver) -> Result<(), String> {
    let (by_ilp, stats) = solve_ilp(t, w, v, solver, &budget()).map_err(|e| e.to_string())?;
    if let Some(lp) = stats.lp_bound {
        if lp + 1e-6 < by_ilp.makespan as f64 {
            return Err(format!(
                "LP bound {lp} below the optimum {}",
                by_ilp.makespan
            ));
        }
    }
    compare(t, w, v, &by_ilp)
}

/// Checks an ILP schedule against the search.
fn compare(t: &Transformed, w: u32, v: IlpVariant, by_ilp: &Schedule) -> Result<(), String> {
    let by_search = exact(t, w, &budget()).map_err(|e| e.to_string())?;
    if by_ilp.makespan != by_search.makespan {
        return Err(format!(
            "{} W={w} sigma {}/{} {v:?}: ILP {} vs search {}",
            t.text, t.sigma_l, t.sigma_c, by_ilp.makespan, by_search.makespan
        ));
    }
    validate(t, w, by_ilp).map_err(|e| format!("{} W={w} {v:?}: ILP witness: {e}", t.text))?;
    validate(t, w, &by_search)?;
    if by_ilp.makespan > safe_bound(t, w) {
        return Err("above the safe bound".into());
    }
    if t.sigma_l == 1 && t.sigma_c == 1 && by_ilp.makespan > pessimistic(t, w) {
        return Err("above Eq. 5-7 with sigma 1".into());
    }
    Ok(())
}

/// Every string over {L, C} of length `1..=max_len`.
fn strings(max_len: usize) -> Vec<String> {
    (1..=max_len)
        .flat_map(|len| {
            (0..1u32 << len).map(move |mask| {
                (0..len)
                    .map(|i| if mask >> i & 1 == 1 { 'C' } else { 'L' })
                    .collect()
            })
        })
        .collect()
}

/// Checks every string up to 6 instructions for the given warps, sigmas and variant with the
/// propagating solver; returns how many ILPs were solved.
fn sweep(warps: &[u32], sigmas: &[(u32, u32)], variant: IlpVariant) -> usize {
    let mut solved = 0;
    for s in strings(6) {
        for &(sl, sc) in sigmas {
            let t = tr(&s, sl, sc);
            for &w in warps {
                if let Err(e) = check(&t, w, variant, IlpSolver::Propagation) {
                    panic!("{e}");
                }
                solved += 1;
            }
        }
    }
    solved
}

const SIGMAS: [(u32, u32); 4] = [(1, 1), (2, 1), (1, 2), (2, 2)];

#[test]
fn every_instance_up_to_three_warps_short() {
    assert_eq!(sweep(&[1, 2, 3], &SIGMAS, IlpVariant::Short), 126 * 4 * 3);
}

#[test]
fn every_instance_up_to_three_warps_long() {
    assert_eq!(sweep(&[1, 2, 3], &SIGMAS, IlpVariant::Long), 126 * 4 * 3);
}

#[test]
fn every_instance_with_four_warps_short_sigma_1() {
    assert_eq!(sweep(&[4], &SIGMAS[..2], IlpVariant::Short), 126 * 2);
}

#[test]
fn every_instance_with_four_warps_short_sigma_2() {
    assert_eq!(sweep(&[4], &SIGMAS[2..], IlpVariant::Short), 126 * 2);
}

#[test]
fn every_instance_with_four_warps_long_sigma_1() {
    assert_eq!(sweep(&[4], &SIGMAS[..2], IlpVariant::Long), 126 * 2);
}

#[test]
fn every_instance_with_four_warps_long_sigma_2() {
    assert_eq!(sweep(&[4], &SIGMAS[2..], IlpVariant::Long), 126 * 2);
}

#[test]
fn cc21_sigma_3_with_four_warps() {
    // Compute capability 2.1: 48 cores for 32-thread warps give σ_C = 3 (§3 generalised).
    assert_eq!(sweep(&[4], &[(1, 3)], IlpVariant::Short), 126);
    assert_eq!(sweep(&[4], &[(1, 3)], IlpVariant::Long), 126);
}

#[test]
fn lp_branch_and_bound_on_every_tiny_instance() {
    let mut checked = 0;
    for s in strings(3) {
        for (sl, sc) in [(1, 1), (2, 1), (1, 2)] {
            let t = tr(&s, sl, sc);
            for w in 1..=2 {
                for v in VARIANTS {
                    check(&t, w, v, IlpSolver::LpBranchAndBound)
                        .expect("ILP agrees with the search");
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 14 * 3 * 2 * 2);
}

#[test]
fn lp_branch_and_bound_on_larger_fixed_instances() {
    let lp = IlpSolver::LpBranchAndBound;
    check(&tr("LC", 1, 1), 4, IlpVariant::Short, lp).expect("agree");
    check(&tr("LC", 1, 1), 4, IlpVariant::Long, lp).expect("agree");
    check(&tr("LLC", 1, 1), 3, IlpVariant::Short, lp).expect("agree");
    check(&tr("CC", 1, 2), 4, IlpVariant::Short, lp).expect("agree");
    check(&tr("LLLL", 2, 1), 2, IlpVariant::Long, lp).expect("agree");
}

#[test]
fn fig2_setting_by_both_solvers() {
    // Fig. 2: 4 warps, "LLC", σ_L = σ_C = 1. The L unit serialises 8 instructions; the
    // worst work-conserving schedule keeps one warp waiting for it until the other three are
    // through both L instructions (cycles 1–6), then that warp runs L, L, C alone (7–9):
    // makespan 9, while Eq. 5–7 gives 4·3 = 12, which is also the ILP's horizon and its root
    // LP bound (the relaxation is no tighter than the horizon).
    let t = tr("LLC", 1, 1);
    for v in VARIANTS {
        let (s, stats) = solve_ilp(&t, 4, v, IlpSolver::Propagation, &budget()).expect("solves");
        assert_eq!(s.makespan, 9);
        assert_eq!(stats.lp_bound, Some(12.0));
        assert!(stats.nodes > 1 && stats.variables == 144, "{stats:?}");
        validate(&t, 4, &s).expect("valid witness");
    }
    let (s, stats) = solve_ilp(
        &t,
        4,
        IlpVariant::Short,
        IlpSolver::LpBranchAndBound,
        &budget(),
    )
    .expect("solves");
    assert_eq!(s.makespan, 9);
    assert_eq!(stats.cache_hits, 0);
}

#[test]
fn fig2_ilp_size() {
    // Fig. 3's counts for Fig. 2's setting (W = 4, "LLC", T = 12), after dropping the
    // variables fixed to 0 by Eq. 17-18: x has 4*3*(12-3+1) = 120 entries, plus 12 E_t and
    // 12 G_t. Short form: 4*3*12 = 144 work-conserving rows; long form 2*4*12 = 96.
    let t = tr("LLC", 1, 1);
    let b = budget();
    let short = build_ilp(&t, 4, IlpVariant::Short, &b).expect("fits");
    let long = build_ilp(&t, 4, IlpVariant::Long, &b).expect("fits");
    assert_eq!(short.horizon, 12);
    assert_eq!(short.program.objective.len(), 144);
    let work_conserving = |m: &makespan::IlpModel| {
        m.program
            .constraints
            .iter()
            .filter(|c| c.relation == ipet::branch_and_bound::Relation::Ge && c.rhs >= 1.0)
            .count()
    };
    assert_eq!(work_conserving(&short), 144);
    assert_eq!(work_conserving(&long), 96);
    // The branching order lists every variable once, cycle by cycle.
    let order = short.branching_order();
    assert_eq!(order.len(), 144);
    let mut seen = [false; 144];
    for &(v, _) in &order {
        assert!(!seen[v]);
        seen[v] = true;
    }
}

#[test]
fn budget_errors() {
    let t = tr("LLCLL", 1, 1);
    let tiny_vars = Budget {
        max_ilp_variables: 10,
        ..budget()
    };
    for solver in [IlpSolver::Propagation, IlpSolver::LpBranchAndBound] {
        assert_eq!(
            solve_ilp(&t, 3, IlpVariant::Short, solver, &tiny_vars).map(|(s, _)| s),
            Err(Error::Budget {
                what: "max_ilp_variables".into(),
                limit: 10
            })
        );
        // Huge instances are refused before anything is allocated.
        assert!(matches!(
            solve_ilp(&t, u32::MAX, IlpVariant::Long, solver, &Budget::default()),
            Err(Error::Budget { .. })
        ));
        // Each solver has its own node limit, and only that one stops it.
        let (what, tiny_nodes) = match solver {
            IlpSolver::Propagation => (
                "max_bb_nodes",
                Budget {
                    max_bb_nodes: 1,
                    max_lp_solves: 0,
                    ..budget()
                },
            ),
            IlpSolver::LpBranchAndBound => (
                "max_lp_solves",
                Budget {
                    max_lp_solves: 1,
                    max_bb_nodes: 0,
                    ..budget()
                },
            ),
        };
        assert_eq!(
            solve_ilp(&tr("LLC", 1, 1), 3, IlpVariant::Short, solver, &tiny_nodes).map(|(s, _)| s),
            Err(Error::Budget {
                what: what.into(),
                limit: 1
            })
        );
    }
}

#[test]
fn no_work_is_zero() {
    let b = budget();
    for solver in [IlpSolver::Propagation, IlpSolver::LpBranchAndBound] {
        let (s, stats) =
            solve_ilp(&tr("LC", 1, 1), 0, IlpVariant::Short, solver, &b).expect("no work");
        assert_eq!((s, stats.nodes), (Schedule::empty(), 0));
        let (s, _) = solve_ilp(&tr("", 1, 1), 3, IlpVariant::Long, solver, &b).expect("no work");
        assert_eq!(s, Schedule::empty());
    }
}

/// A reader for the LP files `IlpModel::lp_text` writes, written from the CPLEX LP format's
/// description: `(objective terms, rows as (terms, relation, rhs), binaries)`.
type LpRow = (Vec<(f64, String)>, String, f64);
fn read_lp(text: &str) -> (Vec<(f64, String)>, Vec<LpRow>, Vec<String>) {
    let mut section = "";
    let (mut obj_tokens, mut row_tokens, mut binaries) = (Vec::new(), Vec::new(), Vec::new());
    for line in text.lines() {
        let l = line.trim();
        match l {
            "Maximize" | "Subject To" | "Binary" | "End" => {
                section = l;
                continue;
            }
            _ if l.starts_with('\\') => continue,
            _ => {}
        }
        let tokens = l.split_whitespace().map(str::to_string);
        match section {
            "Maximize" => obj_tokens.extend(tokens),
            "Subject To" => row_tokens.extend(tokens),
            "Binary" => binaries.extend(tokens),
            _ => panic!("text outside a section: {l}"),
        }
    }
    fn terms(tokens: &[String]) -> Vec<(f64, String)> {
        tokens
            .chunks(3)
            .map(|c| {
                let sign = if c[0] == "-" { -1.0 } else { 1.0 };
                (
                    sign * c[1].parse::<f64>().expect("coefficient"),
                    c[2].clone(),
                )
            })
            .collect()
    }
    assert_eq!(obj_tokens[0], "obj:");
    let objective = terms(&obj_tokens[1..]);
    let mut rows = Vec::new();
    let mut k = 0;
    while k < row_tokens.len() {
        assert!(
            row_tokens[k].ends_with(':'),
            "row name, got {}",
            row_tokens[k]
        );
        let start = k + 1;
        let rel = (start..row_tokens.len())
            .find(|&j| ["<=", ">=", "="].contains(&row_tokens[j].as_str()))
            .expect("relation");
        let rhs: f64 = row_tokens[rel + 1].parse().expect("rhs");
        rows.push((terms(&row_tokens[start..rel]), row_tokens[rel].clone(), rhs));
        k = rel + 2;
    }
    (objective, rows, binaries)
}

/// The LP file is the model: every row of `build_ilp` is there, every variable is binary, and
/// the state search's witness — warps renamed so the last to finish is `W − 1` (§5.1), with
/// `E_t`/`G_t` set where all lanes are busy — satisfies every row with objective = makespan.
#[test]
fn lp_text_holds_the_search_witness() {
    let b = budget();
    for (s, sl, sc, w) in [
        ("LLC", 1, 1, 4),
        ("LCCL", 2, 1, 3),
        ("CLLC", 1, 2, 3),
        ("LL", 2, 2, 4),
    ] {
        let t = tr(s, sl, sc);
        let witness = exact(&t, w, &b).expect("search");
        for v in VARIANTS {
            let m = build_ilp(&t, w, v, &b).expect("fits");
            let text = m.lp_text();
            let (objective, rows, binaries) = read_lp(&text);
            assert_eq!(rows.len(), m.program.constraints.len());
            assert_eq!(binaries.len(), m.program.objective.len());
            let last = witness
                .slots
                .iter()
                .max_by_key(|x| (x.cycle, x.warp))
                .expect("slots")
                .warp;
            let rename = |x: u32| match x {
                _ if x == last => w - 1,
                _ if x == w - 1 => last,
                _ => x,
            };
            let mut value: std::collections::HashMap<String, f64> =
                binaries.iter().map(|n| (n.clone(), 0.0)).collect();
            let mut busy: std::collections::HashMap<(char, u64), u32> = Default::default();
            for x in &witness.slots {
                let kind = if x.unit == isa::lc::LcOp::L {
                    "LS"
                } else {
                    "CC"
                };
                let name = format!("{kind}_w{}_i{}_t{}", rename(x.warp), x.instr, x.cycle);
                assert!(value.contains_key(&name), "{name} is a variable");
                value.insert(name, 1.0);
                *busy.entry((x.unit.letter(), x.cycle)).or_default() += 1;
            }
            for ((u, cycle), n) in busy {
                let (sigma, name) = if u == 'L' { (sl, "E") } else { (sc, "G") };
                if n == sigma {
                    value.insert(format!("{name}_t{cycle}"), 1.0);
                }
            }
            let eval =
                |terms: &[(f64, String)]| -> f64 { terms.iter().map(|(c, n)| c * value[n]).sum() };
            assert_eq!(eval(&objective), witness.makespan as f64, "{s} {v:?}");
            for (k, (terms, rel, rhs)) in rows.iter().enumerate() {
                let lhs = eval(terms);
                let ok = match rel.as_str() {
                    "<=" => lhs <= *rhs,
                    ">=" => lhs >= *rhs,
                    _ => lhs == *rhs,
                };
                assert!(
                    ok,
                    "{s} W={w} {v:?}: row r{} fails: {lhs} {rel} {rhs}",
                    k + 1
                );
            }
        }
    }
}
