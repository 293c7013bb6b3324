//! An instruction's timing facts on a machine (crate docs, "Timing model"): its class's
//! slot, its unit, cycles per issue, latency and initiation interval. The three engines look
//! them up once per instruction and run rather than per issue (the latency table is a map).

use crate::machine::{Machine, Unit};
use cfg::TimingClass;

/// Timing facts of one instruction.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Timing {
    /// The class's position in `TimingClass::ALL` (a warp's `class_free` slot).
    pub class_idx: usize,
    pub unit: Unit,
    /// The unit's position in `Unit::ALL` (lane and occupancy arrays).
    pub unit_idx: usize,
    /// Cycles one warp-instruction occupies a lane of the unit (the sigma transformation).
    pub cycles: u64,
    pub latency: u64,
    pub interval: u64,
}

impl Timing {
    pub fn of(machine: &Machine, class: TimingClass) -> Self {
        let unit = machine.unit(class);
        Timing {
            class_idx: class_index(class),
            unit,
            unit_idx: unit_index(unit),
            cycles: u64::from(machine.lanes_and_cycles(unit).1),
            latency: machine.latency.latency_of(class),
            interval: machine.latency.interval_of(class),
        }
    }
}

/// The position of `c` in `TimingClass::ALL`.
pub(crate) fn class_index(c: TimingClass) -> usize {
    TimingClass::ALL.iter().position(|&x| x == c).unwrap_or(0)
}

/// The position of `u` in `Unit::ALL`.
pub(crate) fn unit_index(u: Unit) -> usize {
    Unit::ALL.iter().position(|&x| x == u).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_of_the_gcn3_preset() {
        // gcn3: a vector ALU instruction occupies the 16-lane SIMD 64 / 16 = 4 cycles,
        // latency 5; global memory latency 102 on the load/store unit.
        let m = crate::machine::gcn3();
        let alu = Timing::of(&m, TimingClass::Alu);
        assert_eq!(
            (alu.unit, alu.cycles, alu.latency, alu.interval),
            (Unit::Core, 4, 5, 1)
        );
        let g = Timing::of(&m, TimingClass::Global);
        assert_eq!((g.unit, g.latency), (Unit::LoadStore, 102));
        assert_eq!(unit_index(Unit::Sfu), 2);
        assert_eq!(TimingClass::ALL[alu.class_idx], TimingClass::Alu);
    }
}
