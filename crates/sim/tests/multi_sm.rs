//! Several SMs (issue #41 item 2, `sim::Gpu`): hand-derived cycle counts of launches in
//! waves, the dispatcher's placement, global memory shared by the SMs, and bad settings.

mod common;

use common::{array, in_out_memory, preset, run};
use sim::{Gpu, Launch, MemoryInit};

/// Four independent instructions: on the unit-cost SM a lone warp issues at 0, 1, 2, 3 and
/// its EXIT completes at 4, so a one-warp block takes 4 cycles.
const STRAIGHT: &str = "MOV R1, 0x1;\nMOV R2, 0x2;\nMOV R3, 0x3;\nEXIT;\n";

fn launch(blocks: u32, sms: u32, blocks_per_sm: u32) -> Launch {
    Launch {
        grid: [blocks, 1, 1],
        block: [32, 1, 1],
        gpu: Gpu { sms, blocks_per_sm },
        ..Launch::default()
    }
}

fn dispatched(s: &sim::Simulation) -> Vec<u64> {
    s.warps.iter().map(|w| w.dispatched).collect()
}

#[test]
fn four_blocks_on_two_sms_one_block_each_run_in_two_waves() {
    // Wave 1: block 0 on SM 0, block 1 on SM 1, both issue at 0..=3 (freed at 3, the last
    // issue) and end at 4. At cycle 4 both SMs are empty: block 2 goes to SM 0 (fewest
    // blocks, lowest index), block 3 to SM 1; they end at 4 + 4 = 8.
    let s = run(
        STRAIGHT,
        &launch(4, 2, 1),
        &preset("unit-cost"),
        &MemoryInit::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.cycles, 8);
    assert_eq!(s.block_sms, vec![0, 1, 0, 1]);
    assert_eq!(dispatched(&s), vec![0, 0, 4, 4]);
    let finished: Vec<u64> = s.warps.iter().map(|w| w.finished).collect();
    assert_eq!(finished, vec![4, 4, 8, 8]);
    assert_eq!(s.issued, 16);
}

#[test]
fn one_sm_with_one_block_slot_runs_the_blocks_one_after_another() {
    // Four waves of one block: dispatched at 0, 4, 8, 12; the run ends at 16.
    let s = run(
        STRAIGHT,
        &launch(4, 1, 1),
        &preset("unit-cost"),
        &MemoryInit::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.cycles, 16);
    assert_eq!(dispatched(&s), vec![0, 4, 8, 12]);
    // One SM: no per-block SM list (the report of a one-SM run is as before).
    assert!(s.block_sms.is_empty());
    // Without the block limit all four are resident at once and share the issue slot:
    // 16 issues, one per cycle, also 16 cycles, but every block dispatched at 0.
    let all = run(
        STRAIGHT,
        &launch(4, 1, 0),
        &preset("unit-cost"),
        &MemoryInit::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(all.cycles, 16);
    assert_eq!(dispatched(&all), vec![0, 0, 0, 0]);
}

#[test]
fn two_blocks_per_sm_on_two_sms_keep_every_issue_slot_busy() {
    // 8 blocks, 2 SMs × 2 slots, placed breadth first: SM 0 gets blocks 0, 2, then 4, 6;
    // SM 1 blocks 1, 3, 5, 7. Each SM issues one of its 4 × 4 = 16 warp-instructions per
    // cycle with no idle cycle (a freed slot is refilled the next cycle while the other
    // block still issues), so the last EXIT issues at 15 and completes at 16.
    let s = run(
        STRAIGHT,
        &launch(8, 2, 2),
        &preset("unit-cost"),
        &MemoryInit::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.block_sms, vec![0, 1, 0, 1, 0, 1, 0, 1]);
    assert_eq!(s.cycles, 16);
    assert_eq!(s.issued, 32);
    // Blocks 0–3 at 0; block 0 issues at 0, 2, 4, 6 under loose round-robin (it alternates
    // with block 2), is freed at 6, so blocks 4 and 5 arrive at 7 and blocks 6 and 7 at 8.
    assert_eq!(dispatched(&s), vec![0, 0, 0, 0, 7, 7, 8, 8]);
}

#[test]
fn more_sms_than_blocks_leave_sms_idle() {
    // 3 blocks on 8 SMs: one wave, 4 cycles; SMs 3–7 never get a block.
    let s = run(
        STRAIGHT,
        &launch(3, 8, 1),
        &preset("unit-cost"),
        &MemoryInit::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.cycles, 4);
    assert_eq!(s.block_sms, vec![0, 1, 2]);
}

#[test]
fn global_memory_is_shared_by_the_sms() {
    // Every block writes its index + 100 to out[ctaid]: blocks on both SMs land in one
    // array.
    let src = "S2R R0, SR_CTAID.X;\nSHL R2, R0, 0x2;\nIADD R6, R2, 0x2000;\n\
               IADD R5, R0, 0x64;\nSTG [R6], R5;\nEXIT;\n";
    let s = run(
        src,
        &launch(6, 2, 1),
        &preset("unit-cost"),
        &in_out_memory(&[0], 6),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(array(&s, "out"), &[100, 101, 102, 103, 104, 105]);
    assert_eq!(s.block_sms, vec![0, 1, 0, 1, 0, 1]);
}

#[test]
fn bad_sm_counts_are_errors_not_panics() {
    for sms in [0, Gpu::MAX_SMS + 1] {
        let e = run(
            STRAIGHT,
            &launch(4, sms, 1),
            &preset("unit-cost"),
            &MemoryInit::default(),
        )
        .expect_err("refused");
        assert!(e.to_string().contains("sms"), "{e}");
    }
}

#[test]
fn a_huge_grid_stops_at_the_block_budget() {
    let e = run(
        STRAIGHT,
        &Launch {
            grid: [u32::MAX, u32::MAX, 1],
            ..launch(1, 132, 32)
        },
        &preset("unit-cost"),
        &MemoryInit::default(),
    )
    .expect_err("over max_blocks");
    assert!(e.to_string().contains("max_blocks"), "{e}");
}
