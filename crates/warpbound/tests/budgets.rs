//! Every budget of every mode, exceeded on purpose: the request still gets a report, with a
//! message that names the budget's parameter and says to raise it — a user who hits a budget
//! learns which number to change instead of waiting or guessing.
//! Budgets of the crates underneath are also tested there (`ipet` branch-and-bound nodes on
//! a fractional LP, `makespan` ILP sizes); these tests check what the user sees.

use isa::Dialect;
use warpbound::Severity;
use warpbound::{analyze, Report, Request};

const CORPUS_KERNEL: &str = "sass/FERMI_sm20_mgpu__HistogramReduce_2_1.sass";

fn corpus(rel: &str) -> String {
    let dir = std::env::var_os("WARPBOUND_CORPUS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
        });
    std::fs::read_to_string(dir.join(rel)).expect("corpus file")
}

fn run(source: &str, dialect: Dialect, mode: &str, params: &[(&str, serde_json::Value)]) -> Report {
    let mut req = Request::new(source, dialect);
    req.mode = Some(mode.into());
    for (k, v) in params {
        req.params.insert(k.to_string(), v.clone());
    }
    analyze(&req)
}

/// The one message that mentions `raise <param>` (error or warning, as `severity`).
fn says_raise(r: &Report, param: &str, severity: Severity) {
    let hit = r.diagnostics.iter().find(|d| {
        d.message.contains(&format!("raise {param}"))
            || d.message.contains(&format!("raise `{param}`"))
    });
    let d = hit.unwrap_or_else(|| panic!("no message says to raise {param}: {:?}", r.diagnostics));
    assert_eq!(d.severity, severity, "{}", d.message);
}

#[test]
fn input_size() {
    let r = run(
        &corpus(CORPUS_KERNEL),
        Dialect::Sass,
        "cfg",
        &[("max_input_bytes", 100.into())],
    );
    says_raise(&r, "max_input_bytes", Severity::Error);
    assert!(r.kernel.is_none());
}

#[test]
fn instruction_count() {
    let r = run(
        &corpus(CORPUS_KERNEL),
        Dialect::Sass,
        "cfg",
        &[("max_instructions", 10.into())],
    );
    says_raise(&r, "max_instructions", Severity::Error);
}

#[test]
fn thread_level_cfg_states() {
    let r = run(
        &corpus(CORPUS_KERNEL),
        Dialect::Sass,
        "cfg",
        &[("max_cfg_states", 3.into())],
    );
    says_raise(&r, "max_cfg_states", Severity::Error);
    assert!(r.cfg.is_none());
}

#[test]
fn abstract_states() {
    let r = run(
        &corpus(CORPUS_KERNEL),
        Dialect::Sass,
        "warp-cfg",
        &[("max_states", 5.into())],
    );
    says_raise(&r, "max_states", Severity::Error);
    assert!(r.wcet.is_none());
}

#[test]
fn activation_stack_depth() {
    let r = run(
        &corpus(CORPUS_KERNEL),
        Dialect::Sass,
        "warp-cfg",
        &[("max_stack_depth", 1.into())],
    );
    says_raise(&r, "max_stack_depth", Severity::Error);
}

#[test]
fn ilp_variables_and_constraints() {
    // HistogramReduce_2_1: 106 variables and 70 constraints (53 nodes, 105 edges).
    let r = run(
        &corpus(CORPUS_KERNEL),
        Dialect::Sass,
        "warp-cfg",
        &[("max_ilp_variables", 10.into())],
    );
    says_raise(&r, "max_ilp_variables", Severity::Error);
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.message.contains("needs 106")));
    let r = run(
        &corpus(CORPUS_KERNEL),
        Dialect::Sass,
        "warp-cfg",
        &[("max_ilp_constraints", 10.into())],
    );
    says_raise(&r, "max_ilp_constraints", Severity::Error);
    assert!(r.wcet.is_none());
}

#[test]
fn exact_makespan_states() {
    // No exact value: the report keeps the safe bound and says which budget stopped it.
    let r = run(
        "LLCLL",
        Dialect::Lc,
        "makespan",
        &[("warps", 16.into()), ("max_states", 5.into())],
    );
    says_raise(&r, "max_states", Severity::Warning);
    let m = r.makespan().expect("makespan details");
    assert!(m.exact.is_none());
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(m.safe_bound));
}

#[test]
fn makespan_ilp_variables_and_nodes() {
    let ilp = |extra: (&str, serde_json::Value)| {
        run(
            "LLC",
            Dialect::Lc,
            "makespan",
            &[("warps", 3.into()), ("method", "ilp-short".into()), extra],
        )
    };
    says_raise(
        &ilp(("max_ilp_variables", 5.into())),
        "max_ilp_variables",
        Severity::Warning,
    );
    says_raise(
        &ilp(("max_bb_nodes", 1.into())),
        "max_bb_nodes",
        Severity::Warning,
    );
    let lp = run(
        "LLC",
        Dialect::Lc,
        "makespan",
        &[
            ("warps", 3.into()),
            ("method", "ilp-short".into()),
            ("ilp_solver", "lp".into()),
            ("max_lp_solves", 1.into()),
        ],
    );
    says_raise(&lp, "max_lp_solves", Severity::Warning);
}
