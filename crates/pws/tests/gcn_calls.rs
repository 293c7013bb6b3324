//! Calls in the wavefront CFG: callees inlined at each call site, with
//! hand-derived `E_WF`; located errors for external callees and recursion.

#[path = "common/gcn_kernels.rs"]
mod gcn_kernels;

use gcn_kernels::{call, TAIL_CALLS};
use isa::gcn::{self, GcnProgram};
use isa::Limits;
use pws::{
    analyze, build_from_gcn, build_from_gcn_program, Budget, CostModel, GcnGraph, GcnGraphOptions,
    Hardware, LoopBounds, NodeKind, Options, SplitMode,
};

const LOCAL: &str = include_str!("../../isa/tests/data/gcn_call_local.s");
const EXTERNAL: &str = include_str!("../../isa/tests/data/gcn_call_external.s");

fn program(text: &str) -> GcnProgram {
    let p = gcn::parse(text, &Limits::default());
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    p
}

fn unit() -> GcnGraphOptions {
    GcnGraphOptions {
        cost: CostModel::Unit,
        ..GcnGraphOptions::default()
    }
}

fn graph(p: &GcnProgram, f: &str, options: &GcnGraphOptions) -> Result<GcnGraph, pws::Error> {
    let f = p.function(Some(f)).unwrap_or_else(|| panic!("no `{f}`"));
    build_from_gcn_program(p, f, options, &Budget::default())
}

fn hw(s: u32, e_s: u64, e_m: u64) -> Hardware {
    Hardware {
        s,
        e_s,
        e_m,
        ..Hardware::gem5_gcn3()
    }
}

/// `_Z5stepsPj` calls `_Z4stepj` twice. Unit cost, by hand: the kernel has 18 instructions
/// in three blocks (the calls end blocks), the callee 14 in five — B0 (6: `s_waitcnt` …
/// `s_cbranch_execz`), the then-path (1), the BSB (3), the else-path (2) and the
/// reconvergence block ending in `s_setpc_b64` (2). Without splitting every block runs:
/// `E_WF = 18 + 2 · 14 = 46`. Splitting both (sequential) callee branches with `S = 1`
/// and free splits runs each callee's paths side by side, `6 + 3 + max(1, 2) + 2 = 13`
/// instead of 14 (Alg. 2 lines 11 and 18): `E_WF = 18 + 2 · 13 = 44` (Lemma 5.1 with
/// `e_s = e_m = 0`); with `e_s = e_m = 1` the two splits would cost 4 more than they save,
/// and the optimal set is empty.
#[test]
fn inlined_calls_e_wf_by_hand() {
    let p = program(LOCAL);
    let g = graph(&p, "_Z5stepsPj", &unit()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.blocks.nodes.len(), 3 + 2 * 5);
    let copies = g
        .blocks
        .nodes
        .iter()
        .filter(|n| n.label == "_Z4stepj/.LBB0_2")
        .count();
    assert_eq!(copies, 2, "one copy of the callee per call site");
    let kinds = |k: NodeKind| g.cfg.nodes.iter().filter(|n| n.kind == k).count();
    assert_eq!((kinds(NodeKind::Branch), kinds(NodeKind::Bsb)), (2, 2));
    assert_eq!(g.cfg.total_cost(), Some(46));
    let free = Options {
        mode: SplitMode::Optimal,
        ..Options::default()
    };
    let r = analyze(&g.cfg, &hw(1, 0, 0), &free).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.e_wf.no_split, 46);
    assert_eq!(r.e_wf.pws, 44);
    assert_eq!(r.splits.chosen.len(), 2);
    let r = analyze(&g.cfg, &hw(1, 1, 1), &free).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.e_wf.pws, 46);
    assert!(r.splits.chosen.is_empty());
}

#[test]
fn an_external_callee_is_a_located_error() {
    let p = program(EXTERNAL);
    let e = graph(&p, "_Z4sinsPf", &unit()).expect_err("unknown cost");
    assert_eq!(e.diagnostic.line, 20, "the `s_swappc_b64`");
    assert!(e.diagnostic.message.contains("`__ocml_sin_f32`"));
    assert!(e.diagnostic.message.contains("no bound would be safe"));
}

#[test]
fn the_function_alone_cannot_follow_a_call() {
    let p = program(LOCAL);
    let f = p.function(Some("_Z5stepsPj")).expect("kernel");
    let e = build_from_gcn(f, &unit(), &Budget::default()).expect_err("no callee code");
    assert_eq!(e.diagnostic.line, 44, "the first `s_swappc_b64`");
    assert!(e.diagnostic.message.contains("`_Z4stepj`"));
}

#[test]
fn recursion_is_a_located_error() {
    let text = format!(
        "\t.type f,@function\nf:\n{}  s_setpc_b64 s[30:31]\n\t.type g,@function\ng:\n{}  s_setpc_b64 s[30:31]\n",
        call("g"),
        call("f")
    );
    let e = graph(&program(&text), "f", &unit()).expect_err("recursion");
    assert_eq!(e.diagnostic.line, 13);
    assert!(
        e.diagnostic
            .message
            .contains("recursive call `f` → `g` → `f`"),
        "{}",
        e.diagnostic.message
    );
}

/// A loop in the callee takes the bound given for its own label. By hand: the kernel's
/// call block (4) and `s_endpgm` (1), the callee's entry (1), three iterations of the
/// 4-instruction body, its return block (1): 4 + 1 + 12 + 1 + 1 = 19.
#[test]
fn a_loop_in_the_callee_is_bounded_by_its_label() {
    let text = "\t.type f,@function
f:
  s_mov_b32 s6, 0
.LBB0_1:
  v_add_u32_e32 v0, 1, v0
  s_add_i32 s6, s6, 1
  s_cmp_lt_i32 s6, 3
  s_cbranch_scc1 .LBB0_1
; %bb.2:
  s_setpc_b64 s[30:31]
\t.type k,@function
k:
  s_getpc_b64 s[16:17]
  s_add_u32 s16, s16, f@rel32@lo+4
  s_addc_u32 s17, s17, f@rel32@hi+12
  s_swappc_b64 s[30:31], s[16:17]
  s_endpgm
";
    let p = program(text);
    let mut options = unit();
    options.loop_bounds = LoopBounds {
        per_header: [(".LBB0_1".to_string(), 3)].into_iter().collect(),
        default: None,
    };
    let g = graph(&p, "k", &options).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.loops.len(), 1);
    assert_eq!(g.loops[0].header, "f/.LBB0_1");
    let r = analyze(&g.cfg, &hw(1, 1, 1), &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.e_wf.no_split, 19);
}

/// `g` tail-calls `f`, whose return goes back to `k`: 4 (call block) + 5 (`g`) + 2 (`f`)
/// + 1 (`s_endpgm`) = 12.
#[test]
fn a_tail_call_returns_to_the_caller_of_the_caller() {
    let g = graph(&program(TAIL_CALLS), "k", &unit()).unwrap_or_else(|e| panic!("{e}"));
    let labels: Vec<&str> = g.blocks.nodes.iter().map(|n| n.label.as_str()).collect();
    assert_eq!(labels, vec!["k", "B1", "g", "g/f"]);
    assert_eq!(
        g.blocks.nodes[3].successors,
        vec![1],
        "f returns after k's call"
    );
    let r = analyze(&g.cfg, &hw(1, 1, 1), &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.e_wf.no_split, 12);
}
