//! L/C strings in the simulator (issue #7, L/C dialect): with the `makespan` preset the
//! simulator is one work-conserving schedule of the makespan paper's setting (Berezovskyi
//! et al. §2–3), so its observed makespan never exceeds the exact worst case
//! (`makespan::exact`), and equals it where only one schedule exists (one warp).

use isa::lc::LcOp;
use proptest::prelude::*;
use sim::{Budget, Launch, Machine};

fn preset_makespan() -> Machine {
    sim::presets()
        .into_iter()
        .find(|p| p.name == "makespan")
        .map(|p| p.machine)
        .expect("preset")
}

fn observed(ops: &[LcOp], warps: u32, m: &Machine) -> u64 {
    let launch = Launch {
        block: [32 * warps, 1, 1],
        trace: false,
        ..Launch::default()
    };
    sim::run_lc(ops, isa::Span::new(1, 1, 0), &launch, m, &Budget::default())
        .expect("runs")
        .cycles
}

fn exact(ops: &[LcOp], warps: u32, m: &Machine) -> u64 {
    let units: Vec<makespan::Unit> = ops
        .iter()
        .map(|o| match o {
            LcOp::L => makespan::Unit::L,
            LcOp::C => makespan::Unit::C,
        })
        .collect();
    let mm = makespan::Machine {
        ls_units: m.ls_units,
        cores: m.cores,
        warp_size: m.warp_size,
    };
    let t = makespan::transform(&units, &mm).expect("transform");
    makespan::exact(&t, warps, &makespan::Budget::default())
        .expect("exact")
        .makespan
}

#[test]
fn one_warp_takes_its_transformed_length() {
    // "LLCLL" (the paper's running example) on Fermi cc 2.0: σ transformation makes each L
    // two sub-warp cycles on the 16 LSUs and each C one on the 32 cores: 4·2 + 1 = 9.
    let (prog, d) = isa::lc::parse("LLCLL");
    assert!(d.is_empty());
    let m = preset_makespan();
    assert_eq!(observed(&prog.kernel, 1, &m), 9);
    assert_eq!(exact(&prog.kernel, 1, &m), 9);
}

#[test]
fn two_warps_of_lc_overlap_hand_derived() {
    // "LC", two warps, σ_L = 1 lane of 2 cycles, σ_C = 1 lane of 1 cycle. Loose round-robin:
    // w0 L at 0..2; w1 waits for the LSU lane, L at 2..4; w0 C at 2 (its slot is 2), done
    // at 3; w1 C at 4, done at 5. Observed 5, and the worst case is also 5 (the LSU is the
    // bottleneck: 4 cycles of L, then one C).
    let ops = [LcOp::L, LcOp::C];
    let m = preset_makespan();
    assert_eq!(observed(&ops, 2, &m), 5);
    assert_eq!(exact(&ops, 2, &m), 5);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn observed_never_exceeds_exact(
        letters in proptest::collection::vec(any::<bool>(), 1..7),
        warps in 1u32..5,
        cc21 in any::<bool>(),
    ) {
        let ops: Vec<LcOp> = letters.iter().map(|&l| if l { LcOp::L } else { LcOp::C }).collect();
        let m = Machine { cores: if cc21 { 48 } else { 32 }, ..preset_makespan() };
        let obs = observed(&ops, warps, &m);
        let ex = exact(&ops, warps, &m);
        prop_assert!(obs <= ex, "{ops:?} W={warps}: observed {obs} > exact {ex}");
        if warps == 1 {
            prop_assert_eq!(obs, ex);
        }
    }
}
