//! The register values the stepper shows per lane (issue #25: "per-lane register and
//! predicate values for the registers the instruction reads/writes"): read from the warp's
//! register file before the instruction (its sources) and after it (its destinations).

use super::semantics::WarpRegs;
use crate::simulation::{RegisterValues, MAX_STEP_REGISTERS};
use isa::Register;

/// Index of `UPn` in the predicate masks (after P0..P6 and PT).
const UNIFORM_PRED_BASE: u32 = 8;

/// The values of the storage registers among `which` (general, predicate, uniform — row
/// `ubase + n`, as the decoder placed them — and the carry flag), at most
/// [`MAX_STEP_REGISTERS`], each once.
pub(super) fn of(
    regs: &WarpRegs,
    ubase: u16,
    which: &[Register],
    written: bool,
) -> Vec<RegisterValues> {
    let ws = regs.ws;
    let mut out: Vec<RegisterValues> = Vec::new();
    for r in which {
        if out.len() == MAX_STEP_REGISTERS {
            break;
        }
        let name = r.to_string();
        if out.iter().any(|v| v.name == name) {
            continue;
        }
        let bit = |mask: u64| (0..ws).map(|l| (mask >> l & 1) as u32).collect::<Vec<_>>();
        let values = match r {
            Register::Gpr(n) if *n < 252 => (0..ws).map(|l| regs.reg(*n as u16, l)).collect(),
            Register::Uniform(n) if *n < 63 => {
                (0..ws).map(|l| regs.reg(ubase + *n as u16, l)).collect()
            }
            Register::Pred(n) if *n < 7 => bit(regs.pred[*n as usize]),
            Register::UniformPred(n) if *n < 7 => bit(regs.pred[(UNIFORM_PRED_BASE + n) as usize]),
            Register::CarryFlag => bit(regs.cc),
            _ => continue,
        };
        out.push(RegisterValues {
            name,
            written,
            values,
        });
    }
    out
}
