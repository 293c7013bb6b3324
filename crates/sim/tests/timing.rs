//! Timing model: hand-derived schedules, schedulers, L1 and coalescing latencies, barriers,
//! and a cross-check of single-warp straight-line cycles against `cfg::latency`.

mod common;

use common::{array, kernel, preset, run};
use proptest::prelude::*;
use sim::{ArrayInit, Budget, Fill, Launch, Machine, MemoryInit, Scheduler};

fn issues(s: &sim::Simulation, warp: usize) -> Vec<u64> {
    s.warps[warp].issues.iter().map(|i| i.issue).collect()
}

#[test]
fn dependent_chain_on_the_gpgpusim_like_sm() {
    // ALU latency 6 (cfg::LatencyTable::pascal_gp102): S2R issues 0, writes R0 at 6; the
    // dependent IADDs issue 6 and 12; EXIT (control, latency 1) issues at 13. The last
    // result is written at 18 — the same as cfg::latency's test of this block.
    let src = "S2R R0, SR_TID.X;\nIADD R1, R0, 0x1;\nIADD R2, R1, 0x1;\nEXIT;\n";
    let s = run(
        src,
        &Launch::default(),
        &preset("gpgpusim-like"),
        &MemoryInit::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(issues(&s, 0), vec![0, 6, 12, 13]);
    assert_eq!(s.cycles, 18);
}

fn one_array(words: u32) -> MemoryInit {
    MemoryInit {
        arrays: vec![ArrayInit {
            name: "a".into(),
            address: 0x1000,
            words,
            fill: Fill::Iota { start: 0, step: 1 },
        }],
        open: None,
    }
}

#[test]
fn l1_hit_and_miss_latencies() {
    // MOV32I issues 0 (R0 ready at 6). The first LDG issues 6, takes the 16 LSUs 2 cycles
    // (warp of 32) and misses: 6 + 2 - 1 + 302 = 309. The second LDG of the same line issues
    // at 8 (LSU free again), hits: 8 + 1 + 82 = 91. EXIT issues at 10. Observed: 309.
    let src = "MOV32I R0, 0x1000;\nLDG R2, [R0];\nLDG R3, [R0];\nEXIT;\n";
    let s = run(
        src,
        &Launch::default(),
        &preset("gpgpusim-like"),
        &one_array(32),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(issues(&s, 0), vec![0, 6, 8, 10]);
    let done: Vec<u64> = s.warps[0].issues.iter().map(|i| i.complete).collect();
    assert_eq!(done, vec![6, 309, 91, 11]);
    assert_eq!(s.cycles, 309);
    let l1 = s.l1.expect("l1");
    assert_eq!((l1.hits, l1.misses), (1, 1));
}

#[test]
fn uncoalesced_load_pays_per_transaction() {
    // Stride of 128 bytes: 32 segments. Without L1: 302 + 31 × 4 = 426 cycles of latency,
    // issued at 6 on 2 LSU cycles: complete 6 + 1 + 426 = 433.
    let src = "S2R R0, SR_TID.X;\nSHL R1, R0, 0x7;\nLDG R2, [R1+0x1000];\nEXIT;\n";
    let m = Machine {
        l1: None,
        ..preset("gpgpusim-like")
    };
    let s = run(src, &Launch::default(), &m, &one_array(32 * 32)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.transactions[0].segments.len(), 32);
    assert_eq!(s.warps[0].issues[2].issue, 12);
    assert_eq!(s.cycles, 12 + 1 + 302 + 31 * 4);
    // Each lane got its word: lane t reads a[32 t] = 32 t (checked through the address list).
    assert_eq!(s.transactions[0].lane_addresses()[3], 0x1000 + 3 * 128);
    assert_eq!(s.transactions[0].stride, Some(128));
    assert_eq!(s.transactions[0].lanes.count(), 32);
}

fn two_warps(scheduler: Scheduler) -> (Vec<u64>, Vec<u64>, u64) {
    let src = "MOV R1, 0x1;\nMOV R2, 0x2;\nMOV R3, 0x3;\nEXIT;\n";
    let m = Machine {
        scheduler,
        issue_width: 1,
        ..preset("gpgpusim-like")
    };
    let launch = Launch {
        block: [64, 1, 1],
        ..Launch::default()
    };
    let s = run(src, &launch, &m, &MemoryInit::default()).unwrap_or_else(|e| panic!("{e}"));
    (issues(&s, 0), issues(&s, 1), s.cycles)
}

#[test]
fn greedy_then_oldest_versus_loose_round_robin() {
    // Independent instructions, one issue per cycle. GTO keeps warp 0 until it finishes
    // (0..3), then warp 1 (4..7); the last MOV (cycle 6) completes at 12. LRR alternates:
    // warp 0 at even cycles, warp 1 at odd ones; the last MOV (5) completes at 11.
    assert_eq!(
        two_warps(Scheduler::GreedyThenOldest),
        (vec![0, 1, 2, 3], vec![4, 5, 6, 7], 12)
    );
    assert_eq!(
        two_warps(Scheduler::LooseRoundRobin),
        (vec![0, 2, 4, 6], vec![1, 3, 5, 7], 11)
    );
    assert_eq!(
        two_warps(Scheduler::PureRoundRobin),
        (vec![0, 2, 4, 6], vec![1, 3, 5, 7], 11)
    );
    assert_eq!(
        two_warps(Scheduler::GreedyThenRoundRobin),
        (vec![0, 1, 2, 3], vec![4, 5, 6, 7], 12)
    );
}

#[test]
fn pure_round_robin_waits_for_the_warp_whose_turn_it_is() {
    // Warp 0 (tid < 32) runs a dependent chain of IADDs, warp 1 jumps to independent MOVs.
    // Both: S2R at 0/1, ISETP at 6/7 and BRA at 12/13 (each waits 6 cycles for its operand).
    // Warp 0's IADDs issue at 14, 20, 26 (latency 6), its EXIT at 27 (LRR) or 28 (PRR).
    // Loose round-robin fills warp 0's stalls with warp 1: MOVs at 15, 16, 17, EXIT 18.
    // Pure round-robin gives warp 1 one instruction per turn and then waits for warp 0:
    // MOVs at 15, 21, 27, EXIT 29.
    let src = "
S2R R0, SR_TID.X;
ISETP.GE.U32.AND P0, PT, R0, 0x20, PT;
@P0 BRA 0x40;
IADD R1, R0, 0x1;
IADD R1, R1, 0x1;
IADD R1, R1, 0x1;
EXIT;
NOP;
MOV R1, 0x1;
MOV R2, 0x1;
MOV R3, 0x1;
EXIT;
";
    let launch = Launch {
        block: [64, 1, 1],
        ..Launch::default()
    };
    let run_with = |scheduler| {
        let m = Machine {
            scheduler,
            issue_width: 1,
            ..preset("gpgpusim-like")
        };
        run(src, &launch, &m, &MemoryInit::default()).unwrap_or_else(|e| panic!("{e}"))
    };
    let lrr = run_with(Scheduler::LooseRoundRobin);
    let prr = run_with(Scheduler::PureRoundRobin);
    // Both warps issue the same instructions either way.
    assert_eq!(lrr.issued, prr.issued);
    assert_eq!(issues(&lrr, 0), vec![0, 6, 12, 14, 20, 26, 27]);
    assert_eq!(issues(&lrr, 1), vec![1, 7, 13, 15, 16, 17, 18]);
    assert_eq!(issues(&prr, 0), vec![0, 6, 12, 14, 20, 26, 28]);
    assert_eq!(issues(&prr, 1), vec![1, 7, 13, 15, 21, 27, 29]);
    // In pure RR, consecutive issues alternate warps while both are live.
    let mut all: Vec<(u64, u32)> = prr
        .warps
        .iter()
        .flat_map(|w| w.issues.iter().map(move |i| (i.issue, w.warp)))
        .collect();
    all.sort();
    let alternating = all.windows(2).take(8).all(|p| p[0].1 != p[1].1);
    assert!(alternating, "{all:?}");
}

#[test]
fn barrier_orders_shared_memory() {
    // Each thread writes its tid to shared[tid], waits at BAR.SYNC, then copies
    // shared[63 - tid] to out[tid]. Greedy-then-oldest would run warp 0 to the end first;
    // the barrier makes it wait for warp 1's writes.
    let src = "
S2R R0, SR_TID.X;
SHL R1, R0, 0x2;
STS [R1], R0;
BAR.SYNC 0x0;
IADD R2, -R1, 0xfc;
LDS R3, [R2];
STG [R1+0x1000], R3;
EXIT;
";
    let launch = Launch {
        block: [64, 1, 1],
        shared_bytes: 256,
        ..Launch::default()
    };
    let mem = MemoryInit {
        arrays: vec![ArrayInit {
            name: "out".into(),
            address: 0x1000,
            words: 64,
            fill: Fill::Constant { value: 7 },
        }],
        open: None,
    };
    for name in ["unit-cost", "gpgpusim-like", "makespan"] {
        let s = run(src, &launch, &preset(name), &mem).unwrap_or_else(|e| panic!("{e}"));
        let out = array(&s, "out");
        for t in 0..64u32 {
            assert_eq!(out[t as usize], 63 - t, "{name}: out[{t}]");
        }
    }
}

/// Straight-line ALU instructions over R0..R5 (no memory, no SFU, no control but the final
/// EXIT), as text.
fn alu_line(op: u8, d: u8, a: u8, b: u8) -> String {
    match op % 6 {
        0 => format!("IADD R{d}, R{a}, R{b};"),
        1 => format!("MOV32I R{d}, 0x{:x};", u32::from(a) * 77 + u32::from(b)),
        2 => format!("LOP.XOR R{d}, R{a}, R{b};"),
        3 => format!("ISETP.GT.AND P{}, PT, R{a}, R{b}, PT;", d % 3),
        4 => format!("@P{} IADD32I R{d}, R{a}, 0x3;", b % 3),
        _ => format!("DADD R{}, R{}, R{};", 2 * (d % 3), 2 * (a % 3), 2 * (b % 3)),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// One warp, straight-line code, every unit one cycle per warp-instruction: the
    /// simulator's cycles equal cfg::latency's drained in-order schedule (an independent
    /// implementation of the same scoreboard rules) for the Pascal latency table.
    #[test]
    fn single_warp_matches_the_in_order_latency_model(
        lines in prop::collection::vec((0u8..6, 0u8..6, 0u8..6, 0u8..6), 1..24)
    ) {
        let mut src: String = lines.iter().map(|&(o, d, a, b)| alu_line(o, d, a, b) + "\n").collect();
        src.push_str("EXIT;\n");
        let k = kernel(&src);
        let table = cfg::LatencyTable::pascal_gp102();
        let m = Machine {
            latency: table.clone(),
            ..preset("gpgpusim-like")
        };
        let s = sim::run(&k, &Launch::default(), &m, &MemoryInit::default(), &Budget::default())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(s.cycles, cfg::latency::block_cycles(&k.instructions, &table));
    }
}

#[test]
fn blocks_run_in_waves_when_the_sm_is_full() {
    // 4 blocks of one warp, 2 warp slots, unit cost: blocks 0 and 1 are dispatched at 0 and
    // share the issue slot (LRR alternates, 3 instructions each: cycles 0..5); block 2 is
    // dispatched when block 0 has finished — its EXIT issued at cycle 4, so at cycle 5 —
    // and block 3 when block 1 finishes (EXIT at 5, so at 6). At cycle 5 loose round-robin
    // prefers warp 1 (next after warp 0, which issued last), so warp 2 starts at 6 and then
    // alternates with warp 3: 6, 8, 10; warp 3's EXIT at 11 completes at 12.
    let src = "S2R R0, SR_CTAID.X;\nIADD R1, R0, 0x1;\nEXIT;\n";
    let m = Machine {
        warps_per_sm: 2,
        ..preset("unit-cost")
    };
    let launch = Launch {
        grid: [4, 1, 1],
        stepper_warp: 2,
        ..Launch::default()
    };
    let s = run(src, &launch, &m, &MemoryInit::default()).unwrap_or_else(|e| panic!("{e}"));
    let dispatched: Vec<u64> = s.warps.iter().map(|w| w.dispatched).collect();
    assert_eq!(dispatched, vec![0, 0, 5, 6]);
    assert_eq!(issues(&s, 2), vec![6, 8, 10]);
    assert_eq!(issues(&s, 3), vec![7, 9, 11]);
    assert_eq!(s.cycles, 12);
    // The stepper follows the requested warp: warp 2 (block 2).
    assert_eq!(s.stepper.warp, 2);
    let cycles: Vec<u64> = s.stepper.steps.iter().map(|st| st.cycle).collect();
    assert_eq!(cycles, vec![6, 8, 10]);
}
