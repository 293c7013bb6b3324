//! The timing class the simulator charges an instruction of each dialect with, by the same
//! functions its front ends decode with (exported for the page's opcode documentation, which
//! must show the class a run actually uses). SASS instructions take [`cfg::TimingClass::of`]
//! directly.

use cfg::TimingClass;
use isa::gcn::GcnUnit;
use isa::lc::LcOp;

/// A PTX instruction: memory by state space, `.f64` arithmetic on the double-precision units,
/// transcendental approximations on the SFUs, control flow and barriers as control.
pub fn ptx(ins: &isa::ptx::Instruction) -> TimingClass {
    crate::ptx::program::class_of(ins)
}

/// A GCN3 instruction executed by `unit`.
pub fn gcn(unit: GcnUnit) -> TimingClass {
    crate::gcn::front_end::class_of(unit).0
}

/// A letter of an L/C string.
pub fn lc(op: LcOp) -> TimingClass {
    crate::lc::class_of(op)
}
