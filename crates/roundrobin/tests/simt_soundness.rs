//! Soundness of the analyzer's reconvergence stack against an execution without SIMT:
//! with a warp size of 1 every "warp" is one thread running alone, so its trace is the
//! thread's own execution. On random structured kernels (nested if/else on thread ids,
//! counted loops, guarded exits, loads and stores at thread-distinct addresses), every
//! thread must execute the same instructions, and touch the same bytes, whether it runs
//! alone or inside a 32-thread warp with divergence and reconvergence.
//! Also: the WCET never decreases when a latency grows (Eq. 5.1–5.3 are max-plus).

use isa::{ptx, Limits};
use proptest::prelude::*;
use roundrobin::presets::fermi_gpgpusim;
use roundrobin::{analyze, Dim3, Launch, Overrides, ParamValue, RrResult};
use std::collections::BTreeMap;

#[derive(Debug, Clone)]
enum Stmt {
    Load(u8),
    Store(u8),
    Add,
    If(u8, u32, Vec<Stmt>, Vec<Stmt>),
    Loop(u32, Vec<Stmt>),
    Exit(u32),
}

fn stmt() -> impl Strategy<Value = Stmt> {
    let leaf = prop_oneof![
        (0u8..4).prop_map(Stmt::Load),
        (0u8..4).prop_map(Stmt::Store),
        Just(Stmt::Add),
        (0u32..40).prop_map(Stmt::Exit),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            (
                0u8..4,
                0u32..40,
                proptest::collection::vec(inner.clone(), 0..3),
                proptest::collection::vec(inner.clone(), 0..3)
            )
                .prop_map(|(c, k, a, b)| Stmt::If(c, k, a, b)),
            (1u32..4, proptest::collection::vec(inner, 1..3)).prop_map(|(n, b)| Stmt::Loop(n, b)),
        ]
    })
}

fn emit(stmts: &[Stmt], out: &mut String, next: &mut u32) {
    for s in stmts {
        let id = *next;
        *next += 1;
        match s {
            Stmt::Load(k) => out.push_str(&format!(
                "ld.global.u32 %r9, [%rd3+{}];\n",
                4096 * *k as u32
            )),
            Stmt::Store(k) => out.push_str(&format!(
                "st.global.u32 [%rd3+{}], %r1;\n",
                4096 * *k as u32
            )),
            Stmt::Add => out.push_str("add.s32 %r8, %r8, %r1;\n"),
            Stmt::Exit(c) => {
                out.push_str(&format!("setp.eq.u32 %p{id}, %r1, {c};\n@%p{id} exit;\n"))
            }
            Stmt::If(c, k, a, b) => {
                let cmp = ["lt", "ge", "eq", "ne"][*c as usize % 4];
                out.push_str(&format!(
                    "setp.{cmp}.u32 %p{id}, %r1, {k};\n@%p{id} bra T{id};\n"
                ));
                emit(b, out, next);
                out.push_str(&format!("bra E{id};\nT{id}:\n"));
                emit(a, out, next);
                out.push_str(&format!("E{id}:\n"));
            }
            Stmt::Loop(n, body) => {
                out.push_str(&format!("mov.u32 %c{id}, 0;\nL{id}:\n"));
                emit(body, out, next);
                out.push_str(&format!(
                    "add.u32 %c{id}, %c{id}, 1;\nsetp.lt.u32 %q{id}, %c{id}, {n};\n@%q{id} bra L{id};\n"
                ));
            }
        }
    }
}

fn kernel(body: &[Stmt]) -> String {
    let mut s = String::from(
        ".entry k(.param .u64 p)\n{ .reg .pred %p<1024>, %q<1024>; .reg .b32 %r<32>, %c<1024>; .reg .b64 %rd<32>;\nld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n\
         mov.u32 %r8, 0;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n",
    );
    let mut next = 0;
    emit(body, &mut s, &mut next);
    s.push_str("ret;\n}\n");
    s
}

fn run(text: &str, warp_size: u32, l_base: u64) -> RrResult {
    let out = ptx::parse(text, &Limits::default());
    assert!(!out.has_errors(), "{:?}\n{text}", out.diagnostics);
    let f = out.module.function(None).expect("k");
    let mut config = fermi_gpgpusim().config;
    config.warp_size = warp_size;
    config.timing.l_base = l_base;
    let launch = Launch {
        grid: Dim3::new(1, 1, 1),
        block: Dim3::new(40, 1, 1),
        params: vec![ParamValue::Int(1 << 20)],
    };
    analyze(f, &launch, &config, &Overrides::default()).unwrap_or_else(|d| panic!("{d}\n{text}"))
}

/// Thread-instructions executed per instruction index.
fn executions(r: &RrResult) -> BTreeMap<usize, u64> {
    let mut m = BTreeMap::new();
    for t in &r.traces {
        for (&i, &a) in t.steps.iter().zip(&t.active) {
            *m.entry(i).or_insert(0) += a as u64;
        }
    }
    m
}

/// Bytes touched per (pc, segment), summed over executions (addresses are thread-distinct).
fn bytes(r: &RrResult) -> BTreeMap<(u64, u64), u64> {
    let mut m = BTreeMap::new();
    for a in &r.accesses {
        for (s, u) in a.segments.iter().zip(&a.used_bytes) {
            *m.entry((a.pc, *s)).or_insert(0) += *u as u64;
        }
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn warp_execution_matches_threads_alone(body in proptest::collection::vec(stmt(), 1..6)) {
        let text = kernel(&body);
        let warps = run(&text, 32, 200);
        let alone = run(&text, 1, 200);
        prop_assert_eq!(executions(&warps), executions(&alone));
        prop_assert_eq!(bytes(&warps), bytes(&alone));
    }

    #[test]
    fn wcet_is_monotone_in_l_base(body in proptest::collection::vec(stmt(), 1..5), extra in 1u64..300) {
        let text = kernel(&body);
        let a = run(&text, 32, 200);
        let b = run(&text, 32, 200 + extra);
        prop_assert!(a.wcet.cycles <= b.wcet.cycles);
        // Issue intervals of one SM never overlap (one instruction issued at a time) and each
        // warp's segments follow each other (Eq. 5.2's second term).
        let mut issues: Vec<(u64, u64)> = Vec::new();
        for g in &a.gantt {
            for w in g.intervals.windows(2) {
                prop_assert!(w[1].start >= w[0].end);
            }
            issues.extend(g.intervals.iter().map(|i| (i.start, i.issue_end)));
        }
        issues.sort_unstable();
        for w in issues.windows(2) {
            prop_assert!(w[1].0 >= w[0].1);
        }
    }
}
