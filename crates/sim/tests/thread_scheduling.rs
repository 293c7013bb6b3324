//! Independent thread scheduling in the simulator (issue #23 item 5): a diverged sm_70+ warp
//! run as thread groups under the schedulers of `cfg::thread_groups`, against the stack
//! order on the same data. Hand-derived issue orders, the stepper's groups and barrier
//! registers, equal results and equal (instruction, mask) multisets where the orders only
//! reorder, and the deadlock ITS has where the stack order does not.

mod common;

use common::{array, kernel, preset};
use sim::{ArrayInit, Budget, Fill, Launch, Machine, MemoryInit, Simulation, ThreadScheduling};
use std::collections::BTreeMap;

/// `if (tid < 16) r = 1; else r = 2;` inside `BSSY B0`/`BSYNC B0`, then `out[tid] = r + 100`.
const IF_ELSE: &str = "code for sm_86
/*0000*/ S2R R0, SR_TID.X ;
/*0010*/ BSSY B0, 0x80 ;
/*0020*/ ISETP.GE.U32.AND P0, PT, R0, 0x10, PT ;
/*0030*/ @P0 BRA 0x60 ;
/*0040*/ MOV R20, 0x1 ;
/*0050*/ BRA 0x70 ;
/*0060*/ MOV R20, 0x2 ;
/*0070*/ BSYNC B0 ;
/*0080*/ IADD3 R20, R20, 0x64, RZ ;
/*0090*/ IMAD.SHL.U32 R2, R0, 0x4, RZ ;
/*00a0*/ STG [R2+0x2000], R20 ;
/*00b0*/ EXIT ;
";

/// `r = 0; while (true) { r++; if (r >= tid) break; }`, as nvcc lays it out (the shape of
/// `bitonicMergeElementaryIntervals` in the sass-modern corpus): the loop's region `B1`, the
/// `if`'s region `B0` inside it, `BREAK B0` and a branch to `BSYNC B1` for the threads that
/// leave. Lane `t` leaves after `max(1, t)` iterations, so `out[t] = max(1, t)`.
const LOOP_BREAK: &str = "code for sm_86
/*0000*/ S2R R0, SR_TID.X ;
/*0010*/ MOV R20, RZ ;
/*0020*/ BSSY B1, 0xb0 ;
/*0030*/ IADD3 R20, R20, 0x1, RZ ;
/*0040*/ BSSY B0, 0x90 ;
/*0050*/ ISETP.GE.U32.AND P0, PT, R20, R0, PT ;
/*0060*/ @P0 BREAK B0 ;
/*0070*/ @P0 BRA 0xa0 ;
/*0080*/ BSYNC B0 ;
/*0090*/ BRA 0x30 ;
/*00a0*/ BSYNC B1 ;
/*00b0*/ IMAD.SHL.U32 R2, R0, 0x4, RZ ;
/*00c0*/ STG [R2+0x2000], R20 ;
/*00d0*/ EXIT ;
";

const LOW: u64 = 0x0000_ffff;
const HIGH: u64 = 0xffff_0000;
const ALL: u64 = 0xffff_ffff;

fn machine(order: ThreadScheduling) -> Machine {
    Machine {
        thread_scheduling: order,
        ..preset("unit-cost")
    }
}

fn out_array() -> MemoryInit {
    MemoryInit {
        arrays: vec![ArrayInit {
            name: "out".into(),
            address: 0x2000,
            words: 32,
            fill: Fill::Constant { value: 0 },
        }],
        open: None,
    }
}

fn run(src: &str, order: ThreadScheduling) -> Result<Simulation, String> {
    sim::run(
        &kernel(src),
        &Launch::default(),
        &machine(order),
        &out_array(),
        &Budget::default(),
    )
    .map_err(|e| e.to_string())
}

/// The stepper warp's issues: (address, active mask).
fn issues(s: &Simulation) -> Vec<(u64, u64)> {
    s.stepper
        .steps
        .iter()
        .map(|st| (st.address, st.active.bits))
        .collect()
}

fn multiset(v: &[(u64, u64)]) -> BTreeMap<(u64, u64), usize> {
    let mut m = BTreeMap::new();
    for &p in v {
        *m.entry(p).or_insert(0) += 1;
    }
    m
}

#[test]
fn round_robin_alternates_the_two_sides_of_an_if_else() {
    let s = run(IF_ELSE, ThreadScheduling::RoundRobin).expect("runs");
    // After the divergent branch the taken side (lanes 16–31) is the newer group and issues
    // first, then one instruction of each group in turn until both wait at BSYNC B0.
    assert_eq!(
        issues(&s),
        vec![
            (0x00, ALL),
            (0x10, ALL),
            (0x20, ALL),
            (0x30, ALL),
            (0x60, HIGH),
            (0x40, LOW),
            (0x70, HIGH),
            (0x50, LOW),
            (0x70, LOW),
            (0x80, ALL),
            (0x90, ALL),
            (0xa0, ALL),
            (0xb0, ALL),
        ]
    );
    let out = array(&s, "out");
    assert!(out[..16].iter().all(|&v| v == 101), "{out:?}");
    assert!(out[16..].iter().all(|&v| v == 102), "{out:?}");
    // The stack order runs one side, then the other: the same pairs, the same result.
    let stack = run(IF_ELSE, ThreadScheduling::StackOrder).expect("runs");
    assert_eq!(multiset(&issues(&stack)), multiset(&issues(&s)));
    assert_ne!(issues(&stack), issues(&s));
    assert_eq!(array(&stack, "out"), out);
    assert!(stack.stepper.steps.iter().all(|st| st.groups.is_none()));
}

#[test]
fn the_stepper_shows_groups_waits_and_barrier_registers() {
    let s = run(IF_ELSE, ThreadScheduling::RoundRobin).expect("runs");
    let steps = &s.stepper.steps;
    assert!(steps.iter().all(|st| st.stack.is_empty()));
    // Step 5 (0x40, lanes 0–15): both groups run, the low one issues; B0 holds the warp.
    let g = steps[5].groups.as_ref().expect("groups");
    let view: Vec<(u64, u64, Option<&str>, bool)> = g
        .groups
        .iter()
        .map(|x| (x.address, x.mask.bits, x.waiting.as_deref(), x.issuing))
        .collect();
    assert_eq!(
        view,
        vec![(0x40, LOW, None, true), (0x70, HIGH, None, false)]
    );
    assert_eq!(
        g.barriers
            .iter()
            .map(|b| (b.barrier, b.mask.bits))
            .collect::<Vec<_>>(),
        vec![(0, ALL)]
    );
    // Step 7 (0x50): the high group waits at BSYNC B0.
    let g = steps[7].groups.as_ref().expect("groups");
    assert_eq!(g.groups[1].waiting.as_deref(), Some("BSYNC B0"));
    assert!(g.groups[0].issuing);
    // Step 9 (0x80): released as one group; B0 is empty again.
    let g = steps[9].groups.as_ref().expect("groups");
    assert_eq!(g.groups.len(), 1);
    assert_eq!(g.groups[0].mask.bits, ALL);
    assert!(g.barriers.is_empty());
    // Before the BSSY (step 1) no barrier records anyone.
    assert!(steps[1]
        .groups
        .as_ref()
        .expect("groups")
        .barriers
        .is_empty());
}

#[test]
fn a_loop_left_through_break_issues_the_stack_orders_pairs_under_every_scheduler() {
    let stack = run(LOOP_BREAK, ThreadScheduling::StackOrder).expect("runs");
    let expected: Vec<u32> = (0..32u32).map(|t| t.max(1)).collect();
    assert_eq!(array(&stack, "out"), expected.as_slice());
    let mut orders = vec![ThreadScheduling::RoundRobin, ThreadScheduling::Newest];
    orders.extend((0..20).map(ThreadScheduling::Random));
    for order in orders {
        let s = run(LOOP_BREAK, order).expect("runs");
        assert_eq!(array(&s, "out"), expected.as_slice(), "{order:?}");
        assert_eq!(
            multiset(&issues(&s)),
            multiset(&issues(&stack)),
            "{order:?}"
        );
    }
    // Iteration k (k = 1..31) issues 0x30 for lanes k..31 (lanes 0 and 1 leave together).
    let at_0x30: Vec<u64> = issues(&stack)
        .into_iter()
        .filter(|&(a, _)| a == 0x30)
        .map(|(_, m)| m)
        .collect();
    assert_eq!(at_0x30.len(), 31);
    assert_eq!(at_0x30[0], ALL);
    assert_eq!(at_0x30[1], ALL & !0b11);
}

#[test]
fn a_warpsync_inside_a_region_deadlocks_under_its_only() {
    // Lanes 0–15 wait at a full-warp WARPSYNC for lanes 16–31, which wait at BSYNC B0 for
    // them: `__syncwarp()` in one side of a branch breaks its contract. The stack order runs
    // the WARPSYNC side on alone (the warp-level CFG's reading); ITS deadlocks, and says so
    // at the instruction.
    let src = "code for sm_86
/*0000*/ S2R R0, SR_TID.X ;
/*0010*/ BSSY B0, 0x60 ;
/*0020*/ ISETP.GE.U32.AND P0, PT, R0, 0x10, PT ;
/*0030*/ @P0 BRA 0x50 ;
/*0040*/ WARPSYNC 0xffffffff ;
/*0050*/ BSYNC B0 ;
/*0060*/ EXIT ;
";
    run(src, ThreadScheduling::StackOrder).expect("the stack order finishes");
    for order in [ThreadScheduling::RoundRobin, ThreadScheduling::Newest] {
        let e = run(src, order).expect_err("ITS deadlocks");
        assert!(
            e.contains("deadlocks under independent thread scheduling"),
            "{e}"
        );
        // Located at the WARPSYNC (line 6), the last instruction issued.
        assert!(e.starts_with("6:"), "located: {e}");
    }
}

#[test]
fn the_pascal_stack_is_refused_under_its_at_its_instruction() {
    let src = "code for sm_61
/*0008*/ S2R R0, SR_TID.X ;
/*0010*/ SSY 0x30 ;
/*0018*/ SYNC ;
/*0030*/ EXIT ;
";
    let e = run(src, ThreadScheduling::RoundRobin).expect_err("refused");
    assert!(e.contains("Fermi–Pascal stack instruction `SSY`"), "{e}");
}
