//! The stepper's per-lane register values (issue #25): what a SASS instruction reads, before
//! it, and writes, after it, for every lane of the stepper's warp. Values by hand in the
//! comments.

mod common;

use common::{preset, run};
use sim::{Budget, Launch, MemoryInit};

const SRC: &str = "code for sm_61
/*0000*/ S2R R0, SR_TID.X ;
/*0008*/ SHL R2, R0, 0x2 ;
/*0010*/ ISETP.LT.AND P0, PT, R0, 0x3, PT ;
/*0018*/ @P0 IADD R2, R2, 0x100 ;
/*0020*/ EXIT ;
";

fn values<'a>(step: &'a sim::Step, name: &str, written: bool) -> &'a [u32] {
    &step
        .registers
        .iter()
        .find(|r| r.name == name && r.written == written)
        .unwrap_or_else(|| panic!("{name} ({written}) at {}", step.text))
        .values
}

#[test]
fn steps_carry_the_values_each_lane_reads_and_writes() {
    let launch = Launch {
        block: [8, 1, 1],
        ..Launch::default()
    };
    let s = run(SRC, &launch, &preset("unit-cost"), &MemoryInit::default()).expect("runs");
    let steps = &s.stepper.steps;
    assert_eq!(steps.len(), 5);
    // S2R writes the lane's thread index (lanes 8.. of the warp do not exist: 0).
    assert_eq!(
        &values(&steps[0], "R0", true)[..9],
        &[0, 1, 2, 3, 4, 5, 6, 7, 0]
    );
    // SHL reads R0 and writes R2 = 4·tid.
    assert_eq!(&values(&steps[1], "R0", false)[..4], &[0, 1, 2, 3]);
    assert_eq!(&values(&steps[1], "R2", true)[..4], &[0, 4, 8, 12]);
    // ISETP writes P0 = tid < 3 as 0/1.
    assert_eq!(&values(&steps[2], "P0", true)[..5], &[1, 1, 1, 0, 0]);
    // The guarded IADD: lanes 0..2 add 0x100, lane 3 keeps 12; it reads its guard P0 too.
    assert_eq!(
        &values(&steps[3], "R2", true)[..4],
        &[0x100, 0x104, 0x108, 12]
    );
    assert_eq!(&values(&steps[3], "P0", false)[..4], &[1, 1, 1, 0]);
    // EXIT reads and writes nothing the stepper shows.
    assert!(steps[4].registers.is_empty());
}

#[test]
fn a_truncated_stepper_attaches_nothing_to_its_last_step() {
    // Two steps recorded, then the budget: the last recorded step (SHL) keeps its own
    // values only, not those of the instructions after it.
    let budget = Budget {
        max_stepper_steps: 2,
        ..Budget::default()
    };
    let k = common::kernel(SRC);
    let s = sim::run(
        &k,
        &Launch::default(),
        &preset("unit-cost"),
        &MemoryInit::default(),
        &budget,
    )
    .expect("runs");
    assert!(s.stepper.truncated);
    let last = &s.stepper.steps[1];
    let names: Vec<(&str, bool)> = last
        .registers
        .iter()
        .map(|r| (r.name.as_str(), r.written))
        .collect();
    assert_eq!(names, [("R0", false), ("R2", true)]);
}

#[test]
fn only_the_first_steps_carry_values() {
    // A loop of two instructions run 3000 times: 6002 steps, the first
    // MAX_STEPS_WITH_REGISTERS (4096) with values, the rest without.
    let src = "code for sm_61
/*0000*/ MOV R1, RZ ;
/*0008*/ IADD R1, R1, 0x1 ;
/*0010*/ ISETP.LT.AND P0, PT, R1, 0xbb8, PT ;
/*0018*/ @P0 BRA 0x8 ;
/*0020*/ EXIT ;
";
    let launch = Launch {
        block: [1, 1, 1],
        ..Launch::default()
    };
    let s = run(src, &launch, &preset("unit-cost"), &MemoryInit::default()).expect("runs");
    let steps = &s.stepper.steps;
    assert_eq!(steps.len(), 2 + 3 * 3000);
    let last = sim::MAX_STEPS_WITH_REGISTERS - 1;
    assert!(!steps[last].registers.is_empty());
    assert!(steps[last + 1..].iter().all(|st| st.registers.is_empty()));
}
