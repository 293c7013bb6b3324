//! Issue by control bits (issue #42): random structured kernels (`common::generated`) with
//! random control bits — stall counts, write and read scoreboard barriers on any
//! instruction, random wait masks — simulated on one warp with `Machine::control_bits`,
//! against the warp-CFG + IPET bound whose node costs are `cfg::control::node_costs` under
//! the same latency table. Observed ≤ bound, and equal for straight-line kernels (one path:
//! the analysis's model is the simulator's to the cycle).

mod common;

use common::generated::{cases, generate, ipet_bound_with, memory, single_warp, verdict, Shape};
use common::kernel;
use isa::ControlBits;
use proptest::prelude::*;
use sim::{Budget, Machine, SplitMix64};

/// The warp-cfg bound's own machine under `cost=control` with the Pascal latencies.
fn machine() -> Machine {
    let mut m = common::preset("unit-cost");
    m.latency = cfg::LatencyTable {
        latency: cfg::LatencyTable::pascal_gp102().latency,
        interval: cfg::LatencyTable::unit().interval,
    };
    m.control_bits = true;
    m
}

/// Random control bits for every instruction of `k`.
fn scatter_bits(k: &mut isa::Kernel, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    let mut pick = |n: u64| rng.next_u64() % n;
    for ins in &mut k.instructions {
        let barrier = |v: u64| (v < 6).then_some(v as u8);
        ins.control_bits = Some(ControlBits {
            stall: pick(16) as u8,
            yield_hint: pick(2) == 0,
            write_barrier: barrier(pick(10)),
            read_barrier: barrier(pick(14)),
            wait_mask: if pick(3) == 0 { pick(64) as u8 } else { 0 },
            reuse: 0,
        });
    }
}

fn check(shape: &Shape, threads: u32, uniform: u32) -> Result<(u64, u64, u32), String> {
    let (src, loops, branches) = generate(shape);
    let mut k = kernel(&src);
    scatter_bits(&mut k, shape.seed ^ 0xc0de);
    let m = machine();
    let s = sim::run(
        &k,
        &single_warp(threads, uniform),
        &m,
        &memory(shape.seed ^ 0x5eed),
        &Budget::default(),
    )
    .map_err(|e| format!("{e}\n{src}"))?;
    let bound = ipet_bound_with(&k, &loops, |k, g, w| {
        cfg::control::node_costs(k, g, w, &m.latency).map_err(|e| format!("{e:?}"))
    })?;
    if s.cycles > bound {
        return Err(format!("observed {} > bound {bound}\n{src}", s.cycles));
    }
    Ok((s.cycles, bound, branches + loops.len() as u32))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// Observed ≤ bound, equal on straight-line code (module doc).
    #[test]
    fn control_bits_run_never_exceeds_the_control_bound((shape, threads, uniform) in cases()) {
        verdict(check(&shape, threads, uniform))?;
    }
}

/// By hand: `S2R` stall 1; `LDG` (global 302 cycles on Pascal) setting barrier 1, stall 2;
/// an `IADD`, stall 4; the consumer waiting on barrier 1, stall 1; `EXIT`, stall 1. Issues
/// at 0, 1, 3, then 303 (the barrier clears 302 cycles after the load's issue at 1, not at
/// 3 + 4 = 7), 304; the warp is done at 305.
#[test]
fn a_waiting_consumer_issues_when_the_load_completes() {
    let mut k =
        kernel("S2R R0, SR_TID.X;\nLDG R5, [R1];\nIADD R6, R6, R0;\nIADD R7, R5, R6;\nEXIT;\n");
    let bits = |stall, wb, wait| ControlBits {
        stall,
        yield_hint: false,
        write_barrier: wb,
        read_barrier: None,
        wait_mask: wait,
        reuse: 0,
    };
    k.instructions[0].control_bits = Some(bits(1, None, 0));
    k.instructions[1].control_bits = Some(bits(2, Some(1), 0));
    k.instructions[2].control_bits = Some(bits(4, None, 0));
    k.instructions[3].control_bits = Some(bits(1, None, 0b10));
    k.instructions[4].control_bits = Some(bits(1, None, 0));
    // R1 is 0: the load reads the first word of `memory`'s array at 0x1000.
    k.instructions[1] = kernel("LDG R5, [R1+0x1000];\n").instructions[0].clone();
    k.instructions[1].control_bits = Some(bits(2, Some(1), 0));
    let launch = sim::Launch {
        block: [1, 1, 1],
        params: vec![0x1000, 0x2000, 0],
        ..sim::Launch::default()
    };
    let s = sim::run(&k, &launch, &machine(), &memory(1), &Budget::default()).expect("runs");
    let issues: Vec<u64> = s.warps[0].issues.iter().map(|i| i.issue).collect();
    assert_eq!(issues, [0, 1, 3, 303, 304]);
    assert_eq!(s.cycles, 305);
    let no_bits = {
        let mut k = k.clone();
        k.instructions[2].control_bits = None;
        sim::run(&k, &launch, &machine(), &memory(1), &Budget::default())
    };
    assert!(no_bits.is_err_and(|e| e.to_string().contains("control bits")));
}
