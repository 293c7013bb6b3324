//! `UnknownData::Pessimistic` (crate `both_sides`): kernels whose branches, loop exits and
//! addresses depend on loaded data get a WCET that pays for every outcome, with numbers
//! derived by hand.
//!
//! Setting of every hand computation: one warp of 32 threads (so N = 1 active warp, below
//! every pipeline capacity: LI_inst = 0 and LI = 1 per one-instruction segment), one block
//! on one SM (no competing SM), per-instruction segments, the Fermi preset's latencies:
//! LE of an arithmetic instruction 8 + 1 + 4 = 13, of a global access with N_coal
//! transactions L_base + 5 · N_coal = 200 + 5 · N_coal (Eq. 5.6). With one warp the T_ij
//! recurrence (Eq. 5.2) is a sum: WCET = Σ over executed instructions of (LI + LE).

mod common;

use common::ptx_kernels::{gather, if_else, kernel, walk};
use isa::{ptx, Limits};
use roundrobin::presets::fermi_gpgpusim;
use roundrobin::{
    analyze, Config, Dim3, Launch, Overrides, ParamValue, RrResult, Segmentation, UnknownData,
};

const ARITH: u64 = 1 + 13;

fn mem(n_coal: u64) -> u64 {
    1 + 200 + 5 * n_coal
}

fn config(bounds: &[(&str, u64)], default: Option<u64>) -> Config {
    let mut c = fermi_gpgpusim().config;
    c.segmentation = Segmentation::PerInstruction;
    c.unknown_data = UnknownData::Pessimistic;
    c.loop_bounds.per_label = bounds.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    c.loop_bounds.default = default;
    c
}

fn launch() -> Launch {
    Launch {
        grid: Dim3::new(1, 1, 1),
        block: Dim3::new(32, 1, 1),
        params: vec![ParamValue::Int(0x10_0000)],
    }
}

fn run(text: &str, config: &Config) -> Result<RrResult, isa::Diagnostic> {
    let out = ptx::parse(text, &Limits::default());
    assert!(!out.has_errors(), "{:?}", out.diagnostics);
    let f = out.module.function(None).expect("kernel");
    analyze(f, &launch(), config, &Overrides::default())
}

#[test]
fn data_dependent_if_else_pays_both_sides() {
    let r = run(&if_else(), &config(&[], None)).expect("analysable");
    // Before the branch: 4 arithmetic, the load (one 128-byte segment: 32 × 4 bytes at
    // 1 MiB), setp, bra. Taken side (POS): 2 adds. Not-taken side: sub, bra END. After:
    // the store (same segment), ret.
    let prefix = 4 * ARITH + mem(1) + 2 * ARITH;
    let taken = 2 * ARITH;
    let not_taken = 2 * ARITH;
    let after = mem(1) + ARITH;
    assert_eq!(r.wcet.cycles, prefix + taken + not_taken + after);
    assert_eq!(r.wcet.cycles, 566);
    // Either real path alone costs 538: paying both sides adds the other side's 28.
    assert_eq!(prefix + taken + after, 538);
    assert_eq!(r.estimates.values.n_coal, 1);
    assert!(r.wcet.safe);
    // Both sides ran with all 32 threads, taken side first (Alg. 4), then reconverged.
    assert_eq!(r.traces[0].basic_blocks, vec![0, 2, 1, 3]);
    assert!(r.traces[0].active.iter().all(|&a| a == 32));
    // The branch is listed with its line.
    let kinds: Vec<_> = r.assumptions.iter().map(|a| (a.kind, a.line)).collect();
    assert_eq!(
        kinds,
        vec![(roundrobin::report::AssumptionKind::BothSides, 10)]
    );
    assert!(r
        .notes
        .iter()
        .any(|d| d.line == 10 && d.message.contains("both sides")));
}

#[test]
fn the_thesis_analyzer_still_refuses_it() {
    let mut c = config(&[], None);
    c.unknown_data = UnknownData::Refuse;
    let e = run(&if_else(), &c).expect_err("input-dependent branch");
    assert_eq!(e.line, 10);
    assert!(e.message.contains("§4.4.6.1"));
}

#[test]
fn data_dependent_loop_takes_its_bound() {
    let r = run(&walk(), &config(&[("LOOP", 3)], Some(10))).expect("bounded");
    // 6 arithmetic before the loop; the header runs 3 times (the bound for LOOP, not the
    // default 10): the load and 4 arithmetic (add, add, setp, bra) each; then the store and
    // ret. Every load of the walk is one segment (rows are 128 bytes apart).
    let iteration = mem(1) + 4 * ARITH;
    assert_eq!(r.wcet.cycles, 6 * ARITH + 3 * iteration + mem(1) + ARITH);
    assert_eq!(r.wcet.cycles, 1090);
    assert_eq!(r.traces[0].basic_blocks, vec![0, 1, 1, 1, 2]);
    assert_eq!(r.loop_bounds.len(), 1);
    assert_eq!(
        (r.loop_bounds[0].label.as_str(), r.loop_bounds[0].bound),
        ("LOOP", 3)
    );
    assert_eq!(r.loop_bounds[0].source, "loop_bounds");
    assert_eq!(r.loop_bounds[0].line, 10);
    // Each iteration's walk address is known on its path: rows 0, 128, 256 above the base.
    let rows: Vec<u64> = r
        .accesses
        .iter()
        .filter(|a| a.kind == caches::AccessKind::Load)
        .map(|a| a.segments[0])
        .collect();
    assert_eq!(rows, vec![0x10_0000, 0x10_0080, 0x10_0100]);

    // The default applies to a loop without its own bound.
    let d = run(&walk(), &config(&[], Some(5))).expect("default bound");
    assert_eq!(d.wcet.cycles, 6 * ARITH + 5 * iteration + mem(1) + ARITH);
    assert_eq!(d.loop_bounds[0].source, "default_loop_bound");
    assert!(d
        .notes
        .iter()
        .any(|n| n.line == 10 && n.message.contains("at most 5 times")));

    // No bound at all: a located error naming the loop and how to bound it.
    let e = run(&walk(), &config(&[], None)).expect_err("no bound");
    assert_eq!(e.line, 10);
    assert!(e.message.contains("`LOOP`") && e.message.contains("default_loop_bound"));
}

/// A loop with a known trip count and a data-dependent early exit (`for (j < 4) if
/// (a[j·32 + i] < 0) return;`) needs no bound: the counter decides, and the early exit is a
/// branch paid both ways in every iteration.
#[test]
fn known_trip_count_with_a_data_dependent_exit_needs_no_bound() {
    let text = kernel(
        3,
        "\
mov.u32 %r4, 0;
LOOP:
ld.global.u32 %r2, [%rd3];
setp.lt.s32 %p1, %r2, 0;
@%p1 bra DONE;
add.s64 %rd3, %rd3, 128;
add.s32 %r4, %r4, 1;
setp.lt.s32 %p2, %r4, 4;
@%p2 bra LOOP;
DONE:
ret;
}
",
    );
    let r = run(&text, &config(&[], None)).expect("no bound needed");
    // Five arithmetic before the loop; four iterations of the load, setp, bra and the
    // counter's add, add, setp, bra; then ret. The early exit's taken side starts at its
    // reconvergence point (DONE), so paying it costs nothing more.
    let iteration = mem(1) + 2 * ARITH + 4 * ARITH;
    assert_eq!(r.wcet.cycles, 5 * ARITH + 4 * iteration + ARITH);
    assert!(r.loop_bounds.is_empty());
}

/// Values across sides: the not-taken side sees the registers as they were at the branch
/// (not what the taken side, or a branch nested in it, wrote); after the join a register
/// keeps its value where both sides agree and becomes unknown where they differ.
#[test]
fn each_side_starts_from_the_values_at_the_branch() {
    let text = kernel(
        3,
        "\
mov.u64 %rd5, %rd3;
mov.u64 %rd6, %rd3;
ld.global.u32 %r2, [%rd3];
setp.gt.s32 %p1, %r2, 0;
@%p1 bra POS;
st.global.u32 [%rd5], %r2;
add.s64 %rd6, %rd3, 0;
bra END;
POS:
add.s64 %rd5, %rd3, 4096;
setp.gt.s32 %p2, %r2, 7;
@%p2 bra BIG;
add.s64 %rd5, %rd5, 4096;
BIG:
st.global.u32 [%rd5], %r2;
END:
st.global.u32 [%rd6+12288], %r2;
st.global.u32 [%rd5], %r2;
ret;
}
",
    );
    let r = run(&text, &config(&[], None)).expect("analysable");
    let seen: Vec<(u32, Vec<u64>, u32)> = r
        .accesses
        .iter()
        .map(|a| (a.line, a.segments.clone(), a.unknown_transactions))
        .collect();
    assert_eq!(
        seen,
        vec![
            (10, vec![0x10_0000], 0),
            // Taken side, after the nested branch: base + 4096 or + 8192.
            (22, vec![], 32),
            // Not-taken side: %rd5 restored to the base across both branches.
            (13, vec![0x10_0000], 0),
            // %rd6 is the base on both sides: known.
            (24, vec![0x10_3000], 0),
            // %rd5 differs between the sides: unknown.
            (25, vec![], 32),
        ]
    );
}

#[test]
fn unknown_address_is_costed_uncoalesced() {
    let r = run(&gather(), &config(&[], None)).expect("analysable");
    let gather = &r.accesses[1];
    assert_eq!(gather.line, 11);
    assert!(gather.segments.is_empty());
    assert_eq!(gather.unknown_transactions, 32);
    // N_coal is the kernel's maximum: the gather's 32 transactions (Eq. 5.5–5.6), so every
    // global access is charged LE = 200 + 5 · 32 = 360.
    assert_eq!(r.estimates.values.n_coal, 32);
    assert_eq!(r.coalescing.max, 32);
    assert_eq!(r.wcet.cycles, 7 * ARITH + 3 * mem(32));
    assert_eq!(r.wcet.cycles, 1181);
    assert_eq!(
        r.assumptions.iter().map(|a| a.line).collect::<Vec<_>>(),
        vec![11]
    );
}

/// A guarded exit on unknown data keeps the threads running; a store guarded by unknown
/// data counts them.
#[test]
fn guarded_exit_and_access_on_unknown_data() {
    let text = kernel(
        3,
        "\
ld.global.u32 %r2, [%rd3];
setp.eq.s32 %p1, %r2, 0;
@%p1 exit;
setp.gt.s32 %p2, %r2, 5;
@%p2 st.global.u32 [%rd3+4096], %r2;
ret;
}
",
    );
    let r = run(&text, &config(&[], None)).expect("analysable");
    assert_eq!(r.traces[0].active, vec![32; 10]);
    let store = &r.accesses[1];
    assert_eq!((store.line, store.segments.len()), (12, 1));
    let kinds: Vec<_> = r.assumptions.iter().map(|a| a.kind).collect();
    use roundrobin::report::AssumptionKind::*;
    assert_eq!(kinds, vec![GuardedExit, GuardedAccess]);
}

/// Soundness of the both-sides rule within the model: on random structured kernels whose
/// branches, loop exits, exits and addresses depend on data, the WCET with the data
/// unknown is at least the WCET of the same kernel with the data known (any values given
/// by a formula of the thread id), instruction for instruction the same shape.
mod soundness {
    use super::*;
    use proptest::prelude::*;

    #[derive(Debug, Clone)]
    enum Stmt {
        Add,
        Store(u8),
        /// `if (data < k) then else`.
        If(u32, Vec<Stmt>, Vec<Stmt>),
        /// `if (data == k) exit`.
        Exit(u32),
        /// `c = data & 3; do { body; c-- } while (c > 0)`: at most 3 iterations.
        DataLoop(Vec<Stmt>),
        /// A counted loop with a known trip count.
        Loop(u32, Vec<Stmt>),
        /// A gather at `p + 4·(data & 31)`.
        Gather,
    }

    fn stmt() -> impl Strategy<Value = Stmt> {
        let leaf = prop_oneof![
            Just(Stmt::Add),
            (0u8..3).prop_map(Stmt::Store),
            Just(Stmt::Gather),
        ];
        leaf.prop_recursive(3, 20, 3, |inner| {
            prop_oneof![
                (
                    0u32..8,
                    proptest::collection::vec(inner.clone(), 0..3),
                    proptest::collection::vec(inner.clone(), 0..3)
                )
                    .prop_map(|(k, a, b)| Stmt::If(k, a, b)),
                proptest::collection::vec(inner.clone(), 1..3).prop_map(Stmt::DataLoop),
                (1u32..4, proptest::collection::vec(inner, 1..3))
                    .prop_map(|(n, b)| Stmt::Loop(n, b)),
            ]
        })
    }

    /// Exits only at the top level: a guarded exit inside a branch or loop leaves the
    /// branches before it without a reconvergence point before the kernel's end, so their
    /// two sides each run to the end, and nested ones multiply (the step budget stops them;
    /// see the `both_sides` module).
    fn top() -> impl Strategy<Value = Stmt> {
        prop_oneof![4 => stmt(), 1 => (0u32..8).prop_map(Stmt::Exit)]
    }

    /// Values per thread: `((tid · a + b) >> 2) & 7` when known.
    #[derive(Debug, Clone, Copy)]
    struct Data {
        known: bool,
        a: u32,
        b: u32,
    }

    /// `%d<id>` := a data value: a load into `%d<id>` (kept in both variants, so the costs
    /// match) and four arithmetic instructions computing the value from it (unknown) or
    /// from the thread id (known). Both variants read or rewrite `%d<id>` right after the
    /// load, so dependency segmentation cuts them alike.
    fn data(id: u32, d: Data, out: &mut String) {
        out.push_str(&format!("ld.global.u32 %d{id}, [%rd3+8192];\n"));
        if d.known {
            out.push_str(&format!("mul.lo.u32 %d{id}, %r1, {};\n", d.a));
        } else {
            out.push_str(&format!("mov.u32 %d{id}, %d{id};\n"));
        }
        out.push_str(&format!(
            "add.u32 %d{id}, %d{id}, {};\nshr.u32 %d{id}, %d{id}, 2;\nand.b32 %d{id}, %d{id}, 7;\n",
            d.b
        ));
    }

    fn emit(stmts: &[Stmt], d: Data, out: &mut String, next: &mut u32) {
        for s in stmts {
            let id = *next;
            *next += 1;
            match s {
                Stmt::Add => out.push_str("add.s32 %r8, %r8, %r1;\n"),
                Stmt::Store(k) => out.push_str(&format!(
                    "st.global.u32 [%rd3+{}], %r8;\n",
                    4096 * *k as u32
                )),
                Stmt::Exit(k) => {
                    data(id, d, out);
                    out.push_str(&format!(
                        "setp.eq.u32 %p{id}, %d{id}, {k};\n@%p{id} exit;\n"
                    ));
                }
                Stmt::Gather => {
                    data(id, d, out);
                    out.push_str(&format!(
                        "mul.wide.u32 %g{id}, %d{id}, 4;\nadd.s64 %g{id}, %rd1, %g{id};\n\
                         ld.global.u32 %r9, [%g{id}];\n"
                    ));
                }
                Stmt::If(k, a, b) => {
                    data(id, d, out);
                    out.push_str(&format!(
                        "setp.lt.u32 %p{id}, %d{id}, {k};\n@%p{id} bra T{id};\n"
                    ));
                    emit(b, d, out, next);
                    out.push_str(&format!("bra E{id};\nT{id}:\n"));
                    emit(a, d, out, next);
                    out.push_str(&format!("E{id}:\n"));
                }
                Stmt::DataLoop(body) => {
                    data(id, d, out);
                    out.push_str(&format!("and.b32 %c{id}, %d{id}, 3;\nL{id}:\n"));
                    emit(body, d, out, next);
                    out.push_str(&format!(
                        "sub.s32 %c{id}, %c{id}, 1;\nsetp.gt.s32 %q{id}, %c{id}, 0;\n@%q{id} bra L{id};\n"
                    ));
                }
                Stmt::Loop(n, body) => {
                    out.push_str(&format!("mov.u32 %c{id}, 0;\nL{id}:\n"));
                    emit(body, d, out, next);
                    out.push_str(&format!(
                        "add.u32 %c{id}, %c{id}, 1;\nsetp.lt.u32 %q{id}, %c{id}, {n};\n@%q{id} bra L{id};\n"
                    ));
                }
            }
        }
    }

    fn kernel(body: &[Stmt], d: Data) -> String {
        let mut s = String::from(
            ".entry k(.param .u64 p)\n{ .reg .pred %p<512>, %q<512>; .reg .b32 %r<16>, %c<512>, \
             %d<512>; .reg .b64 %rd<8>, %g<512>;\nld.param.u64 %rd1, [p];\n\
             mov.u32 %r1, %tid.x;\nmov.u32 %r8, 0;\nmul.wide.u32 %rd2, %r1, 4;\n\
             add.s64 %rd3, %rd1, %rd2;\n",
        );
        let mut next = 0;
        emit(body, d, &mut s, &mut next);
        s.push_str("ret;\n}\n");
        s
    }

    fn result(text: &str, segmentation: Segmentation, threads: u32) -> RrResult {
        let out = ptx::parse(text, &Limits::default());
        assert!(!out.has_errors(), "{:?}\n{text}", out.diagnostics);
        let f = out.module.function(None).expect("k");
        let mut c = config(&[], Some(4));
        c.segmentation = segmentation;
        let launch = Launch {
            grid: Dim3::new(1, 1, 1),
            block: Dim3::new(threads, 1, 1),
            params: vec![ParamValue::Int(1 << 20)],
        };
        analyze(f, &launch, &c, &Overrides::default()).unwrap_or_else(|d| panic!("{d}\n{text}"))
    }

    /// Whether `short` is a subsequence of `long`.
    fn subsequence(short: &[usize], long: &[usize]) -> bool {
        let mut it = long.iter();
        short.iter().all(|x| it.any(|y| y == x))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// One warp: Eq. 5.1–5.3 is a sum along the warp's segments, so the analysed
        /// (longer) trace bounds every real one.
        #[test]
        fn unknown_data_bounds_every_known_data(
            body in proptest::collection::vec(top(), 1..5),
            a in 0u32..64,
            b in 0u32..64,
            per_instruction in any::<bool>(),
        ) {
            let seg = if per_instruction {
                Segmentation::PerInstruction
            } else {
                Segmentation::Dependency
            };
            let unknown = result(&kernel(&body, Data { known: false, a, b }), seg, 32).wcet.cycles;
            let known = result(&kernel(&body, Data { known: true, a, b }), seg, 32).wcet.cycles;
            prop_assert!(known <= unknown, "known {known} > unknown {unknown}");
        }

        /// Several warps: every warp's real trace is a subsequence of its analysed one, and
        /// it executes no more thread-instructions.
        #[test]
        fn every_real_warp_trace_is_in_the_analysed_one(
            body in proptest::collection::vec(top(), 1..5),
            a in 0u32..64,
            b in 0u32..64,
        ) {
            let seg = Segmentation::PerInstruction;
            let unknown = result(&kernel(&body, Data { known: false, a, b }), seg, 72);
            let known = result(&kernel(&body, Data { known: true, a, b }), seg, 72);
            for (k, u) in known.traces.iter().zip(&unknown.traces) {
                prop_assert!(subsequence(&k.steps, &u.steps));
                let work = |t: &roundrobin::report::TraceSummary| t.active.iter().map(|&x| x as u64).sum::<u64>();
                prop_assert!(work(k) <= work(u));
            }
            prop_assert!(known.coalescing.max <= unknown.coalescing.max);
        }
    }
}

/// What is *not* guaranteed: with several warps, strict round robin (Eq. 5.2: a warp waits
/// for its turn, and the scheduler waits for the warp whose turn it is) has scheduling
/// anomalies. Here two warps (40 threads: 32 + 8) run a loop with a data-dependent empty
/// if/else. With the data known (`d = ((33·tid) >> 2) & 7 < 3`), warp 1's 8 threads all
/// skip the `bra E0` block: its program is two segments shorter, its loads fall one turn
/// earlier against warp 0's, and the kernel takes 1320 cycles; with the data unknown both
/// warps run both sides and the model gives 1140. The both-sides WCET bounds every warp's
/// trace, and the kernel's WCET for one warp per SM, but not the model's value of every
/// multi-warp realisation: the report says so (`wcet.caveat`).
#[test]
fn strict_round_robin_has_scheduling_anomalies() {
    let kernel = |first: &str| {
        format!(
            ".entry k(.param .u64 p)
{{ .reg .pred %p<4>, %q<4>; .reg .b32 %r<16>, %c<4>, %d<4>; .reg .b64 %rd<8>;
ld.param.u64 %rd1, [p];
mov.u32 %r1, %tid.x;
mov.u32 %r8, 0;
mul.wide.u32 %rd2, %r1, 4;
add.s64 %rd3, %rd1, %rd2;
mov.u32 %c1, 0;
L1:
ld.global.u32 %d0, [%rd3+8192];
{first}
add.u32 %d0, %d0, 0;
shr.u32 %d0, %d0, 2;
and.b32 %d0, %d0, 7;
setp.lt.u32 %p0, %d0, 3;
@%p0 bra T0;
bra E0;
T0:
E0:
st.global.u32 [%rd3], %r8;
add.u32 %c1, %c1, 1;
setp.lt.u32 %q1, %c1, 2;
@%q1 bra L1;
ret;
}}
"
        )
    };
    let mut c = config(&[], None);
    c.segmentation = Segmentation::Dependency;
    let launch = Launch {
        grid: Dim3::new(1, 1, 1),
        block: Dim3::new(40, 1, 1),
        params: vec![ParamValue::Int(1 << 20)],
    };
    let run = |text: &str| {
        let out = ptx::parse(text, &Limits::default());
        let f = out.module.function(None).expect("k");
        analyze(f, &launch, &c, &Overrides::default()).expect("analysable")
    };
    let known = run(&kernel("mul.lo.u32 %d0, %r1, 33;"));
    let unknown = run(&kernel("mov.u32 %d0, %d0;"));
    assert_eq!(known.traces[1].basic_blocks, vec![0, 1, 3, 1, 3, 4]);
    assert_eq!(unknown.traces[1].basic_blocks, vec![0, 1, 2, 3, 1, 2, 3, 4]);
    assert_eq!((known.wcet.cycles, unknown.wcet.cycles), (1320, 1140));
    assert!(unknown.wcet.caveat.is_some());
    assert!(known.wcet.caveat.is_none());
}
