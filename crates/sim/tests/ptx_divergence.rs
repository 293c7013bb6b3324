//! PTX divergence with post-dominator reconvergence (issue #7 item 3): hand-derived traces
//! of which lanes run which instruction, stack contents in the stepper, final memory.
//!
//! Every kernel runs one warp of 4 lanes on the `unit-cost` machine (warp size 4), so a
//! mask is 4 bits (bit i = lane i) and, with latency 1 and one issue per cycle, the
//! observed cycles equal the number of issued warp-instructions.

use isa::Limits;
use sim::{ArrayInit, Budget, Fill, Launch, Machine, MemoryInit, Simulation};

fn machine() -> Machine {
    Machine {
        warp_size: 4,
        ..sim::presets()
            .into_iter()
            .find(|p| p.name == "unit-cost")
            .map(|p| p.machine)
            .expect("preset")
    }
}

fn run(src: &str) -> Simulation {
    let parsed = isa::ptx::parse(src, &Limits::default());
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let f = parsed.module.function(None).expect("function");
    let launch = Launch {
        block: [4, 1, 1],
        params: vec![0x1000, 0],
        ..Launch::default()
    };
    let memory = MemoryInit {
        arrays: vec![ArrayInit {
            name: "out".into(),
            address: 0x1000,
            words: 4,
            fill: Fill::Constant { value: 0 },
        }],
        open: None,
    };
    sim::run_ptx(f, &launch, &machine(), &memory, &Budget::default()).expect("runs")
}

/// `(instruction index, active mask)` of each step of warp 0.
fn trace(s: &Simulation) -> Vec<(usize, u64)> {
    s.stepper
        .steps
        .iter()
        .map(|st| (st.index, st.active.bits))
        .collect()
}

fn steps(ranges: &[(std::ops::RangeInclusive<usize>, u64)]) -> Vec<(usize, u64)> {
    ranges
        .iter()
        .flat_map(|(r, m)| r.clone().map(move |i| (i, *m)))
        .collect()
}

const HEADER: &str = ".version 7.0\n.target sm_52\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n.reg .pred %p<3>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<4>;\n";
const STORE_R: &str =
    "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd3, %rd2, %rd3;\nst.global.u32 [%rd3], %REG;\nret;\n}\n";

fn kernel(body: &str, result: &str) -> String {
    format!(
        "{HEADER}ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\n{body}{}",
        STORE_R.replace("%REG", result)
    )
}

#[test]
fn if_else_runs_taken_side_first_and_joins_at_ipdom() {
    // 0 ld.param, 1 cvta, 2 mov tid, 3 setp, 4 @%p1 bra THEN, 5 mov 20, 6 bra.uni JOIN,
    // 7 THEN: mov 10, 8 JOIN: add, 9 mul.wide, 10 add.s64, 11 st, 12 ret.
    // The branch's ipdom is 8. Lanes 0,1 (tid < 2, mask 0b0011) take it and run 7 first
    // (taken path on top), then lanes 2,3 (0b1100) run 5, 6; all four join at 8.
    let src = kernel(
        "setp.lt.u32 %p1, %r1, 2;\n@%p1 bra THEN;\nmov.u32 %r2, 20;\nbra.uni JOIN;\nTHEN:\nmov.u32 %r2, 10;\nJOIN:\nadd.s32 %r3, %r2, %r1;\n",
        "%r3",
    );
    let s = run(&src);
    let expected = steps(&[
        (0..=4, 0b1111),
        (7..=7, 0b0011),
        (5..=6, 0b1100),
        (8..=12, 0b1111),
    ]);
    assert_eq!(trace(&s), expected);
    // out[i] = (i < 2 ? 10 : 20) + i.
    assert_eq!(s.memory[0].words, vec![10, 11, 22, 23]);
    // Stack while the taken side runs: the reconvergence entry waits at 8 (SYNC) with all
    // lanes, the not-taken path at 5, the taken path on top at 7.
    let at7 = &s.stepper.steps[5].stack;
    let view: Vec<(cfg::Tag, usize, u64)> =
        at7.iter().map(|e| (e.tag, e.pc, e.mask.bits)).collect();
    assert_eq!(
        view,
        vec![
            (cfg::Tag::Sync, 8, 0b1111),
            (cfg::Tag::Nil, 5, 0b1100),
            (cfg::Tag::Nil, 7, 0b0011)
        ]
    );
    // Both paths are popped at the branch's immediate post-dominator, instruction 8; the
    // waiting entry reconverges only at the exit.
    let rpcs: Vec<Option<u64>> = at7.iter().map(|e| e.reconverges_at).collect();
    assert_eq!(rpcs, vec![None, Some(64), Some(64)]);
    // PTX program counters are 8 bytes per instruction (GPGPU-Sim numbering).
    assert_eq!(s.stepper.steps[5].address, 56);
    assert_eq!(s.issued, 13);
    assert_eq!(s.cycles, 13);
    let depth: Vec<usize> = s.warps[0].stack_depth.iter().map(|d| d.depth).collect();
    assert_eq!(depth, vec![1, 3, 2, 1, 0]);
}

#[test]
fn nested_if_reconverges_inner_then_outer() {
    // 3 mov r2=0, 4 setp tid<2, 5 @!p1 bra END, 6 add 1, 7 setp tid==0, 8 @!p2 bra INNER,
    // 9 add 10, 10 INNER: add 100, 11 END: mul.wide, 12 add.s64, 13 st, 14 ret.
    // ipdom(5) = 11, ipdom(8) = 10. At 5 lanes 2,3 take the branch straight to their
    // reconvergence point (popped at once); lanes 0,1 run 6-8; at 8 lane 1 jumps to 10 (its
    // reconvergence point), lane 0 runs 9; lanes 0,1 run 10; all run 11-14.
    let src = kernel(
        "mov.u32 %r2, 0;\nsetp.lt.u32 %p1, %r1, 2;\n@!%p1 bra END;\nadd.s32 %r2, %r2, 1;\nsetp.eq.u32 %p2, %r1, 0;\n@!%p2 bra INNER;\nadd.s32 %r2, %r2, 10;\nINNER:\nadd.s32 %r2, %r2, 100;\nEND:\n",
        "%r2",
    );
    let s = run(&src);
    let expected = steps(&[
        (0..=5, 0b1111),
        (6..=8, 0b0011),
        (9..=9, 0b0001),
        (10..=10, 0b0011),
        (11..=14, 0b1111),
    ]);
    assert_eq!(trace(&s), expected);
    // lane 0: 1 + 10 + 100; lane 1: 1 + 100; lanes 2, 3: 0.
    assert_eq!(s.memory[0].words, vec![111, 101, 0, 0]);
    let at9: Vec<(cfg::Tag, usize, u64)> = s.stepper.steps[9]
        .stack
        .iter()
        .map(|e| (e.tag, e.pc, e.mask.bits))
        .collect();
    assert_eq!(
        at9,
        vec![
            (cfg::Tag::Sync, 11, 0b1111),
            (cfg::Tag::Sync, 10, 0b0011),
            (cfg::Tag::Nil, 9, 0b0001)
        ]
    );
}

#[test]
fn loop_with_divergent_exit_keeps_constant_depth() {
    // 3 r2=0, 4 r3=0, 5 LOOP: r2+=1, 6 r3+=r2, 7 setp r2<=tid, 8 @p1 bra LOOP, 9.. store r3.
    // Lane i runs the body i+1 times: sum = (i+1)(i+2)/2 = 1, 3, 6, 10. Active masks of the
    // body: 1111, then lanes 1-3 (0b1110), lanes 2-3 (0b1100), lane 3 (0b1000). ipdom(8) = 9;
    // from the second divergence on the branch's reconvergence point equals the top's, so
    // the path replaces the top and the depth stays 2.
    let src = kernel(
        "mov.u32 %r2, 0;\nmov.u32 %r3, 0;\nLOOP:\nadd.s32 %r2, %r2, 1;\nadd.s32 %r3, %r3, %r2;\nsetp.le.u32 %p1, %r2, %r1;\n@%p1 bra LOOP;\n",
        "%r3",
    );
    let s = run(&src);
    let expected = steps(&[
        (0..=4, 0b1111),
        (5..=8, 0b1111),
        (5..=8, 0b1110),
        (5..=8, 0b1100),
        (5..=8, 0b1000),
        (9..=12, 0b1111),
    ]);
    assert_eq!(trace(&s), expected);
    assert_eq!(s.memory[0].words, vec![1, 3, 6, 10]);
    let max_depth = s.warps[0].stack_depth.iter().map(|d| d.depth).max();
    assert_eq!(max_depth, Some(2));
    assert_eq!(s.issued, 25);
    assert_eq!(s.cycles, 25);
}

#[test]
fn early_exit_of_some_lanes() {
    // 3 setp tid>=2, 4 @p1 ret (lanes 2,3 leave), 5 mov r2 = 7, 6.. store r2 for lanes 0,1.
    let src = kernel(
        "setp.ge.u32 %p1, %r1, 2;\n@%p1 ret;\nmov.u32 %r2, 7;\n",
        "%r2",
    );
    let s = run(&src);
    assert_eq!(trace(&s), steps(&[(0..=4, 0b1111), (5..=9, 0b0011)]));
    assert_eq!(s.memory[0].words, vec![7, 7, 0, 0]);
}

#[test]
fn stepper_text_keeps_the_guard() {
    // Issue #39: the stepper showed `bra THEN` for `@%p1 bra THEN`, which reads as a branch
    // every lane takes. Steps 3 and 4 are the compare and the guarded branch; a negated guard
    // keeps its `!`.
    let src = kernel(
        "setp.lt.u32 %p1, %r1, 2;\n@%p1 bra THEN;\n@!%p1 mov.u32 %r2, 20;\nbra.uni JOIN;\nTHEN:\nmov.u32 %r2, 10;\nJOIN:\nadd.s32 %r3, %r2, %r1;\n",
        "%r3",
    );
    let s = run(&src);
    let texts: Vec<String> = s.stepper.steps.iter().map(|x| x.text.to_string()).collect();
    assert_eq!(texts[3], "setp.lt.u32 %p1, %r1, 2");
    assert_eq!(texts[4], "@%p1 bra THEN");
    assert!(
        texts.iter().any(|t| t == "@!%p1 mov.u32 %r2, 20"),
        "{texts:?}"
    );
}
