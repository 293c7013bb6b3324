//! Loop bounds inferred from the code (issue #38), end to end: the Collatz kernel bounded by
//! its counter without any input from the user, every default-bounded loop reported, the
//! precedence of given bounds, and — the soundness check — the simulator's iteration
//! counts never above an inferred bound, on generated kernels (property test) and on every
//! corpus kernel the simulator runs.

#[path = "common/corpus.rs"]
mod corpus;

use isa::Dialect;
use proptest::prelude::*;
use std::collections::BTreeMap;
use warpbound::{analyze, Report, Request};

fn request(
    src: &str,
    dialect: Dialect,
    mode: &str,
    params: &[(&str, serde_json::Value)],
) -> Report {
    let mut req = Request::new(src, dialect);
    req.mode = Some(mode.into());
    for (k, v) in params {
        req.params.insert((*k).into(), v.clone());
    }
    analyze(&req)
}

fn kernel(path: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../tests/kernels/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("test kernel")
}

/// Issue #38's student: the Collatz loop `while (x != 1 && c < 1000)` in warp-cfg with
/// nothing set but the simulation. The bound comes from the counter (1000 runs of the
/// header), not from the default, holds for the simulated run, and no warning calls it an
/// assumption.
#[test]
fn collatz_is_bounded_by_its_counter() {
    for arch in ["sm_70", "sm_75", "sm_86", "sm_90"] {
        let src = kernel(&format!("sass/{arch}/collatz_capped.sass"));
        let r = request(
            &src,
            Dialect::Sass,
            "warp-cfg",
            &[("simulate", serde_json::json!(true))],
        );
        assert!(!r.has_errors(), "{arch}: {:?}", r.diagnostics);
        assert_eq!(r.loop_bounds.len(), 1, "{arch}");
        let l = &r.loop_bounds[0];
        assert_eq!(
            (l.bound, l.bound_from.as_str()),
            (Some(1000), "inferred"),
            "{arch}"
        );
        let reason = l.reason.as_deref().unwrap_or("");
        assert!(
            reason.contains("+= 1 from 0") && reason.contains("1000"),
            "{reason}"
        );
        let wcet = r.wcet.as_ref().expect("bound");
        assert!(wcet.assumed_loop_bounds.is_empty());
        let sim = r.simulation.as_ref().expect("run");
        assert_eq!(
            sim.holds,
            Some(true),
            "{arch}: {} > {}",
            sim.run.cycles,
            wcet.cycles
        );
        assert!(sim.loop_iterations[0].iterations <= 1000);
        assert!(!r
            .diagnostics
            .iter()
            .any(|d| d.message.contains("assumption")));
    }
}

/// A loop the code cannot bound (it runs on loaded data) gets the default, a warning at its
/// header saying so and how to give a bound, and the WCET lists it as assumed.
#[test]
fn a_loop_on_data_is_an_announced_assumption() {
    let data_loop = "/*0000*/ S2R R0, SR_TID.X ;\n/*0010*/ LDG.E R0, [R2.64] ;\n\
/*0020*/ ISETP.NE.AND P0, PT, R0, RZ, PT ;\n/*0030*/ @P0 BRA 0x10 ;\n/*0040*/ EXIT ;\n";
    let r = request(data_loop, Dialect::Sass, "warp-cfg", &[]);
    let w = r.wcet.as_ref().expect("bound");
    let assumed = w
        .assumed_loop_bounds
        .iter()
        .find(|a| a.header == "0x10")
        .expect("the loop is listed as assumed");
    assert_eq!((assumed.bound, assumed.from.as_str()), (10, "default"));
    assert_eq!(r.loop_bounds[0].bound_from, "default");
    let warning = r
        .diagnostics
        .iter()
        .find(|d| d.severity == warpbound::Severity::Warning && d.message.contains("0x10"))
        .expect("a warning at the loop");
    assert_eq!(warning.line, 2);
    for hint in [
        "assumption",
        "loop_bounds",
        "--loop-bound",
        "loop_bounds=observed",
    ] {
        assert!(
            warning.message.contains(hint),
            "{hint}: {}",
            warning.message
        );
    }
    // The same in the block mode, which shares the warp-level CFG's bound.
    let r = request(data_loop, Dialect::Sass, "block", &[]);
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.severity == warpbound::Severity::Warning && d.message.contains("assumption")));
    assert!(r
        .wcet
        .as_ref()
        .is_some_and(|w| w.assumed_loop_bounds.iter().any(|a| a.header == "0x10")));
}

/// The precedence rule on one loop (`R1 += 1 from 0` while `R1 < 10`: 10 runs): a given
/// bound below it is used, one above it is replaced, both with a note.
#[test]
fn given_bounds_below_are_used_above_are_replaced() {
    let src = "/*0000*/ MOV R1, RZ ;\n/*0010*/ IADD3 R1, R1, 0x1, RZ ;\n\
/*0020*/ ISETP.GE.AND P0, PT, R1, 0xa, PT ;\n/*0030*/ @!P0 BRA 0x10 ;\n/*0040*/ EXIT ;\n";
    let with = |n: u64| {
        let mut req = Request::new(src, Dialect::Sass);
        req.mode = Some("warp-cfg".into());
        req.loop_bounds.insert("0x10".into(), n);
        analyze(&req)
    };
    let r = with(4);
    assert_eq!(r.loop_bounds[0].bound, Some(4));
    assert_eq!(r.loop_bounds[0].bound_from, "given");
    assert_eq!(r.loop_bounds[0].inferred, Some(10));
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.message.contains("given bound 4 is used")));
    let r = with(50);
    assert_eq!(r.loop_bounds[0].bound, Some(10));
    assert_eq!(r.loop_bounds[0].bound_from, "inferred");
    assert!(r.diagnostics.iter().any(|d| d
        .message
        .contains("given bound 50 is more than the code allows")));
    // Unit cost: MOV, then 10 × 3 instructions, then EXIT.
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(32));
}

/// nvcc's unrolled `for (i = 0; i < n; i++)` (a 16-step loop, an 8 step, a 4-step loop
/// starting from the count the 16-step one leaves, a remainder loop), simulated for several
/// `n` on every architecture: each loop's runs stay within its inferred bound, and the
/// bounds are those counts exactly (the warp's threads all run the same count).
#[test]
fn unrolled_loops_run_exactly_their_inferred_counts() {
    for arch in ["sm_61", "sm_70", "sm_75", "sm_86", "sm_90"] {
        let src = kernel(&format!("sass/{arch}/counted_loops.sass"));
        for n in [0u32, 3, 5, 17, 64, 100, 103, 200] {
            let mut req = Request::new(src.as_str(), Dialect::Sass);
            req.mode = Some("warp-cfg".into());
            req.function = Some("_Z5sum_nPKfPfi".into());
            req.params
                .insert("simulate".into(), serde_json::json!(true));
            req.params.insert(
                "params".into(),
                serde_json::json!(format!("0x100000,0,0x200000,0,{n}")),
            );
            req.params.insert(
                "memory".into(),
                serde_json::json!("a@0x100000 256 const 1; out@0x200000 64 const 0"),
            );
            let r = analyze(&req);
            assert!(!r.has_errors(), "{arch} n={n}: {:?}", r.diagnostics);
            let sim = r.simulation.as_ref().expect("run");
            for o in &sim.loop_iterations {
                let row = r
                    .loop_bounds
                    .iter()
                    .find(|l| l.header == o.header)
                    .expect("a row per loop");
                let inferred = row.inferred.unwrap_or(u64::MAX);
                assert!(
                    o.iterations <= inferred,
                    "{arch} n={n} {}: {} > {inferred}",
                    o.header,
                    o.iterations
                );
                if o.iterations > 0 && row.inferred.is_some() {
                    assert_eq!(
                        o.iterations,
                        inferred,
                        "{arch} n={n} {}: {}",
                        o.header,
                        row.reason.as_deref().unwrap_or("")
                    );
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Generated kernels: counted loops in PTX, run on the simulator.

/// Where a counter starts, what it is compared with, and its step.
#[derive(Debug, Clone, Copy)]
enum Init {
    Const(i32),
    Tid,
    GlobalId,
}

#[derive(Debug, Clone, Copy)]
enum Limit {
    Const(i32),
    /// The kernel parameter `n`.
    Param,
    /// `blockDim.x`.
    Ntid,
    /// `n + blockDim.x`.
    ParamPlusNtid,
}

#[derive(Debug, Clone, Copy)]
enum Step {
    Const(i32),
    /// `blockDim.x · gridDim.x` (a grid-stride loop).
    Grid,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Test {
    /// `while (i < limit)`, tested before the body.
    Top,
    /// `do … while (i + step < limit)`, after the update (a rotated loop).
    Bottom,
    /// `do … while (i != limit)` after the update, with the step dividing the distance.
    NotEqual,
    /// `for (i = limit; i > init; i -= step)`.
    Down,
    /// `while (i <= limit)`.
    TopLe,
    /// `for (i = limit; i >= init; i -= step)`.
    DownGe,
    /// `for (i = limit; i > 0; i >>= 1)` (a reduction tree).
    Halve,
}

#[derive(Debug, Clone)]
struct Case {
    init: Init,
    limit: Limit,
    step: Step,
    test: Test,
    /// A data-dependent early exit: `if (a[i & 63] == k) break;`.
    data_exit: Option<u32>,
    /// An inner loop `for (j = 0; j < i_or_const; j++)` (triangular when `None`).
    inner: Option<Option<u32>>,
    n: i32,
    grid: u32,
    block: u32,
    seed: u64,
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop_oneof![
            (0i32..20).prop_map(Init::Const),
            Just(Init::Tid),
            Just(Init::GlobalId)
        ],
        prop_oneof![
            (0i32..120).prop_map(Limit::Const),
            Just(Limit::Param),
            Just(Limit::Ntid),
            Just(Limit::ParamPlusNtid)
        ],
        prop_oneof![(1i32..9).prop_map(Step::Const), Just(Step::Grid)],
        prop_oneof![
            Just(Test::Top),
            Just(Test::Bottom),
            Just(Test::NotEqual),
            Just(Test::Down),
            Just(Test::TopLe),
            Just(Test::DownGe),
            Just(Test::Halve)
        ],
        proptest::option::weighted(0.3, 0u32..8),
        proptest::option::weighted(0.3, proptest::option::of(1u32..6)),
        -5i32..150,
        1u32..3,
        prop_oneof![Just(32u32), Just(64), Just(96)],
        any::<u64>(),
    )
        .prop_map(
            |(init, limit, step, test, data_exit, inner, n, grid, block, seed)| Case {
                init,
                limit,
                step,
                test,
                data_exit,
                inner,
                n,
                grid,
                block,
                seed,
            },
        )
}

/// The PTX of a case: `.entry k(.param .u64 a, .param .u32 n)`; the loop header is
/// `$L_head`, the inner loop's `$L_inner`.
fn ptx(c: &Case) -> String {
    let init = match c.init {
        Init::Const(k) => format!("mov.u32 %r10, {k};"),
        Init::Tid => "mov.u32 %r10, %r2;".into(),
        Init::GlobalId => "mad.lo.s32 %r10, %r4, %r3, %r2;".into(),
    };
    let limit = match c.limit {
        Limit::Const(k) => format!("mov.u32 %r11, {k};"),
        Limit::Param => "mov.u32 %r11, %r1;".into(),
        Limit::Ntid => "mov.u32 %r11, %r3;".into(),
        Limit::ParamPlusNtid => "add.s32 %r11, %r1, %r3;".into(),
    };
    let step = match c.step {
        Step::Const(k) => format!("mov.u32 %r12, {k};"),
        Step::Grid => "mul.lo.s32 %r12, %r3, %r5;".into(),
    };
    let data = c.data_exit.map_or(String::new(), |k| {
        format!(
            "and.b32 %r20, %r10, 63;\nmul.wide.u32 %rd2, %r20, 4;\nadd.s64 %rd3, %rd1, %rd2;\n\
             ld.global.u32 %r21, [%rd3];\nsetp.eq.u32 %p2, %r21, {k};\n@%p2 bra $L_exit;"
        )
    });
    let inner = match c.inner {
        None => String::new(),
        Some(lim) => {
            let l = lim.map_or("mov.u32 %r31, %r10;".to_string(), |k| {
                format!("mov.u32 %r31, {k};")
            });
            format!(
                "{l}\nmov.u32 %r30, 0;\nsetp.ge.s32 %p3, %r30, %r31;\n@%p3 bra $L_inner_done;\n\
                 $L_inner:\nadd.s32 %r30, %r30, 1;\nsetp.lt.s32 %p4, %r30, %r31;\n@%p4 bra $L_inner;\n\
                 $L_inner_done:"
            )
        }
    };
    // A ≠ exit needs a uniform start and a constant step (module doc of
    // `loopbound::trip_count`): the limit is put on the counter's path, init + step·m.
    let (test, limit) = match (c.test, c.init, c.step) {
        (Test::NotEqual, Init::Const(a), Step::Const(st)) => {
            let m = c.n.rem_euclid(30);
            (Test::NotEqual, format!("mov.u32 %r11, {};", a + st * m))
        }
        (Test::NotEqual, _, _) => (Test::Bottom, limit),
        (t, _, _) => (t, limit),
    };
    let body = match test {
        Test::Top => format!(
            "$L_head:\nsetp.lt.s32 %p1, %r10, %r11;\n@!%p1 bra $L_exit;\n{data}\n{inner}\n\
             add.s32 %r10, %r10, %r12;\nbra.uni $L_head;"
        ),
        Test::Bottom => format!(
            "setp.ge.s32 %p1, %r10, %r11;\n@%p1 bra $L_exit;\n$L_head:\n{data}\n{inner}\n\
             add.s32 %r10, %r10, %r12;\nsetp.lt.s32 %p1, %r10, %r11;\n@%p1 bra $L_head;"
        ),
        Test::NotEqual => format!(
            "setp.ge.s32 %p1, %r10, %r11;\n@%p1 bra $L_exit;\n$L_head:\n{data}\n{inner}\n\
             add.s32 %r10, %r10, %r12;\nsetp.ne.s32 %p1, %r10, %r11;\n@%p1 bra $L_head;"
        ),
        Test::Down => format!(
            "mov.u32 %r14, %r10;\nmov.u32 %r10, %r11;\n$L_head:\nsetp.le.s32 %p1, %r10, %r14;\n\
             @%p1 bra $L_exit;\n{data}\n{inner}\nsub.s32 %r10, %r10, %r12;\nbra.uni $L_head;"
        ),
        Test::TopLe => format!(
            "$L_head:\nsetp.gt.s32 %p1, %r10, %r11;\n@%p1 bra $L_exit;\n{data}\n{inner}\n\
             add.s32 %r10, %r10, %r12;\nbra.uni $L_head;"
        ),
        Test::Halve => format!(
            "mov.u32 %r10, %r11;\n$L_head:\nsetp.le.s32 %p1, %r10, 0;\n@%p1 bra $L_exit;\n\
             {data}\n{inner}\nshr.u32 %r10, %r10, 1;\nbra.uni $L_head;"
        ),
        Test::DownGe => format!(
            "mov.u32 %r14, %r10;\nmov.u32 %r10, %r11;\n$L_head:\nsetp.lt.s32 %p1, %r10, %r14;\n\
             @%p1 bra $L_exit;\n{data}\n{inner}\nsub.s32 %r10, %r10, %r12;\nbra.uni $L_head;"
        ),
    };
    format!(
        ".version 7.0\n.target sm_70\n.address_size 64\n\n\
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)\n{{\n\
.reg .pred %p<8>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<8>;\n\
ld.param.u64 %rd1, [k_param_0];\nld.param.u32 %r1, [k_param_1];\n\
mov.u32 %r2, %tid.x;\nmov.u32 %r3, %ntid.x;\nmov.u32 %r4, %ctaid.x;\nmov.u32 %r5, %nctaid.x;\n\
{init}\n{limit}\n{step}\n{body}\n$L_exit:\nret;\n}}\n"
    )
}

/// The case run on the simulator (most header runs per entry of each loop, by label) and
/// the bounds inference gives for the same launch (via the `rr` mode's report).
/// Per loop label: the most header runs one thread made per entry in the run, and the bound
/// inference gives.
type Counts = (BTreeMap<String, u64>, BTreeMap<String, Option<u64>>);

fn run_case(c: &Case) -> Result<Counts, String> {
    let src = ptx(c);
    let parsed = isa::ptx::parse(&src, &isa::Limits::default());
    if parsed.has_errors() {
        return Err(format!("{:?}\n{src}", parsed.diagnostics));
    }
    let f = parsed.module.function(None).ok_or("no kernel")?;
    let launch = sim::Launch {
        grid: [c.grid, 1, 1],
        block: [c.block, 1, 1],
        params: vec![0x10_0000, 0, c.n as u32],
        trace: true,
        ..sim::Launch::default()
    };
    let memory = sim::MemoryInit::closed(vec![sim::ArrayInit {
        name: "a".into(),
        address: 0x10_0000,
        words: 64,
        fill: sim::Fill::Random {
            seed: c.seed,
            below: 8,
        },
    }]);
    let machine = sim::presets()
        .into_iter()
        .find(|p| p.name == "unit-cost")
        .ok_or("preset")?
        .machine;
    // The loop counts come from the run's trace: every issue recorded (the default
    // `max_timeline_entries`, 100 000, truncates a nested loop's 200 000, and the counts
    // read from a truncated trace fall short).
    let budget = sim::Budget {
        max_steps: 2_000_000,
        max_timeline_entries: 2_000_000,
        ..sim::Budget::default()
    };
    let run = sim::run_ptx(f, &launch, &machine, &memory, &budget).map_err(|e| format!("{e}"))?;
    let observed: BTreeMap<String, u64> = warpbound::observed_loops::of_ptx_run(f, &run)
        .into_iter()
        .map(|l| (l.header, l.iterations))
        .collect();
    let graph = isa::flow::build(&isa::ptx::flows(f));
    let analysis = loopbound::analyse(loopbound::ptx::lower(f, &graph));
    let env = |i: &loopbound::Input| match i {
        loopbound::Input::Param { name, .. } if name.ends_with("param_1") => {
            Some(loopbound::Interval::point(i128::from(c.n as u32)))
        }
        loopbound::Input::Tid(0) => loopbound::Interval::new(0, i128::from(c.block) - 1),
        loopbound::Input::Ctaid(0) => loopbound::Interval::new(0, i128::from(c.grid) - 1),
        loopbound::Input::Ntid(0) => Some(loopbound::Interval::point(i128::from(c.block))),
        loopbound::Input::Nctaid(0) => Some(loopbound::Interval::point(i128::from(c.grid))),
        _ => None,
    };
    let inferred = analysis
        .evaluate(&env)
        .into_iter()
        .map(|b| (b.key, b.bound))
        .collect();
    Ok((observed, inferred))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Soundness: no loop runs its header more often per entry than its inferred bound.
    /// Exactness (what makes an off-by-one in a trip count fail): every generated loop gets
    /// a bound, and for the outer loop without a data exit, whose worst thread (`tid` 0,
    /// block 0) is in the launch, the bound is what the run observed — unless the launch
    /// never enters the loop, where the bound is 1.
    #[test]
    fn simulated_iterations_never_exceed_inferred_bounds(c in case()) {
        let (observed, inferred) = run_case(&c).map_err(TestCaseError::fail)?;
        for (label, &runs) in &observed {
            let bound = inferred.get(label).copied().flatten();
            prop_assert!(bound.is_some(), "{label}: no bound\n{}", ptx(&c));
            prop_assert!(runs <= bound.unwrap_or(0), "{label}: observed {runs} > inferred {bound:?}\n{}", ptx(&c));
        }
        let outer = observed.get("$L_head").copied();
        if c.data_exit.is_none() {
            if let Some(runs) = outer {
                let bound = inferred.get("$L_head").copied().flatten();
                prop_assert_eq!(Some(runs.max(1)), bound, "exact outer count\n{}", ptx(&c));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// The corpus: observed ≤ inferred wherever both exist.

/// Every function of every corpus listing, as the `--set loop_bounds=observed` sweep runs
/// it: the modes check each observed count against the inferred bound and report an error
/// when one is above (never seen here), and the report's loop table and the run's counts
/// are compared again.
#[test]
fn corpus_runs_never_exceed_inferred_bounds() {
    let mut checked = 0;
    let sass = corpus::sass_dirs();
    let sets: [(&[&str], &str, Dialect, &str); 3] = [
        (&sass, "sass", Dialect::Sass, "warp-cfg"),
        (&["ptx", "ptx-modern"], "ptx", Dialect::Ptx, "rr"),
        (&["gcn"], "s", Dialect::Gcn, "pws"),
    ];
    for (dirs, ext, dialect, mode) in sets {
        for path in corpus::files(dirs, ext) {
            let src = std::fs::read_to_string(&path).expect("corpus file");
            let mut params = vec![("simulate", serde_json::json!(true))];
            if mode != "pws" {
                params.push(("loop_bounds", serde_json::json!("observed")));
            }
            let r = request(&src, dialect, mode, &params);
            assert!(
                !r.diagnostics
                    .iter()
                    .any(|d| d.message.contains("bug of the loop-bound inference")),
                "{}: {:?}",
                corpus::name(&path),
                r.diagnostics
            );
            let Some(sim) = &r.simulation else { continue };
            // A run retried with a larger block (warps that wait for each other) is not of
            // the launch the bounds were inferred for; the modes skip it too.
            if sim.run.warps.len() > 1 {
                continue;
            }
            for o in &sim.loop_iterations {
                let Some(n) = r
                    .loop_bounds
                    .iter()
                    .find(|l| l.header == o.header)
                    .and_then(|l| l.inferred)
                else {
                    continue;
                };
                checked += 1;
                assert!(
                    o.iterations <= n,
                    "{}: loop {} observed {} > inferred {n}",
                    corpus::name(&path),
                    o.header,
                    o.iterations
                );
            }
        }
    }
    eprintln!("corpus: {checked} observed loops compared with their inferred bounds");
    assert!(checked >= 20, "only {checked} loops compared");
}
