//! Registers per thread estimated from the instructions of a SASS listing, for listings that
//! do not say it (a `cuobjdump -sass` listing prints no `EIATTR_REGCOUNT`; a whole `nvdisasm`
//! dump does, [`crate::FunctionResources::registers`]).
//!
//! The estimate is the highest general register the function names, plus one, plus the
//! registers ptxas allocates beyond those a listing shows ([`reserved`]: 2 from Volta on,
//! none before). A register operand
//! of a 64- or 128-bit access names the first of two or four consecutive registers (`LDG.E.64
//! R4, [R2.64]` writes R4 and R5 and reads R2 and R3), so such operands count their width.
//! What it is not: the count ptxas made. It misses the upper halves of pairs whose width the
//! opcode does not spell (`F2F.F64.F32`), registers only a callee in another section uses,
//! and whatever else ptxas allocated without naming it; `docs/occupancy.md` measures the
//! error against `cuobjdump -res-usage` on the sweep's kernels.

use crate::instruction::Instruction;
use crate::kernel::Kernel;
use crate::operand::{OperandKind, Register};

/// Registers ptxas counts beyond the highest one a listing names, from Volta (sm_70) on:
/// `REG` of `cuobjdump -res-usage` minus (highest `Rn` + 1), measured on the sweep's kernels
/// (docs/occupancy.md: 2 on every function compiled for sm_70, sm_75, sm_86 and sm_90).
pub const RESERVED_VOLTA_ON: u32 = 2;

/// The reserve for a listing of `arch` (`sm_61`, …): [`RESERVED_VOLTA_ON`] from sm_70 on and
/// when the listing names no architecture, 0 before sm_70 (measured: `REG` = highest + 1 on
/// every function compiled for sm_61).
pub fn reserved(arch: Option<&str>) -> u32 {
    let digits = arch
        .and_then(|a| a.strip_prefix("sm_"))
        .map(|d| d.trim_end_matches(|c: char| !c.is_ascii_digit()));
    match digits.and_then(|d| d.parse::<u32>().ok()) {
        Some(n) if n < 70 => 0,
        _ => RESERVED_VOLTA_ON,
    }
}

/// A register count estimated from a listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegisterEstimate {
    /// The highest general register named (a wide operand's last register), if any.
    pub highest: Option<u32>,
    /// `highest + 1 + reserved` (or `reserved` when no general register is named).
    pub registers: u32,
    /// The reserve added ([`reserved`] of the listing's architecture).
    pub reserved: u32,
}

/// The estimate for `kernel`'s instructions.
pub fn estimate_registers(kernel: &Kernel) -> RegisterEstimate {
    let highest = kernel.instructions.iter().filter_map(highest_in).max();
    let reserved = reserved(kernel.arch.as_deref());
    RegisterEstimate {
        highest,
        registers: highest.map_or(reserved, |h| h.saturating_add(1).saturating_add(reserved)),
        reserved,
    }
}

/// Consecutive registers one data operand of `ins` names: 4 for `.128` accesses, 2 for
/// `.64` accesses, `.WIDE` products (the destination) and double-precision arithmetic.
fn data_width(ins: &Instruction, destination: bool) -> u32 {
    let op = &ins.opcode;
    if op.has_modifier("128") {
        4
    } else if op.has_modifier("64")
        || (destination && op.has_modifier("WIDE"))
        || matches!(op.name.as_str(), "DADD" | "DMUL" | "DFMA" | "DMNMX")
    {
        2
    } else {
        1
    }
}

/// The highest general register `ins` names, with operand widths.
fn highest_in(ins: &Instruction) -> Option<u32> {
    ins.operands
        .iter()
        .enumerate()
        .filter_map(|(i, o)| {
            let (reg, width) = match &o.kind {
                OperandKind::Register { reg } => (reg, data_width(ins, i == 0)),
                // An address register is a pair when it says so (`[R2.64]`).
                OperandKind::Memory { address } | OperandKind::Constant { address, .. } => {
                    let wide = o.suffixes.iter().any(|s| s == "64") || o.text.contains(".64");
                    (address.base.as_ref()?, if wide { 2 } else { 1 })
                }
                _ => return None,
            };
            match reg {
                Register::Gpr(n) => Some(n.saturating_add(width - 1)),
                _ => None,
            }
        })
        .max()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;

    fn estimate(text: &str) -> RegisterEstimate {
        let out = crate::sass::parse(text, None, &Limits::default());
        estimate_registers(&out.kernel.expect("kernel"))
    }

    #[test]
    fn highest_register_plus_one_plus_reserved() {
        // R7 is the highest: 8 registers named, 10 with the two ptxas reserves.
        let e = estimate(
            "/*0000*/ MOV R1, c[0x0][0x28] ;\n/*0010*/ IADD3 R7, R2, R3, RZ ;\n/*0020*/ EXIT ;\n",
        );
        assert_eq!(
            e,
            RegisterEstimate {
                highest: Some(7),
                registers: 10,
                reserved: 2
            }
        );
        // A Pascal listing: no reserve.
        let pascal = "\tcode for sm_61\n\t\tFunction : k\n/*0008*/ MOV R7, R2 ;\n/*0010*/ EXIT ;\n";
        assert_eq!(estimate(pascal).registers, 8);
        assert_eq!(reserved(Some("sm_90")), 2);
        assert_eq!(reserved(Some("sm_52")), 0);
        assert_eq!(reserved(Some("sm_100")), 2);
        assert_eq!(reserved(None), 2);
    }

    #[test]
    fn wide_operands_count_their_registers() {
        // LDG.E.64 writes R32 and R33; the address [R20.64] is R20–R21.
        let e = estimate("/*0000*/ LDG.E.64 R32, [R20.64] ;\n/*0010*/ EXIT ;\n");
        assert_eq!(e.highest, Some(33));
        // DADD reads and writes pairs; IMAD.WIDE writes one.
        assert_eq!(estimate("/*0000*/ DADD R4, R10, R6 ;\n").highest, Some(11));
        assert_eq!(
            estimate("/*0000*/ IMAD.WIDE R16, R16, R48, c[0x0][0x160] ;\n").highest,
            Some(48)
        );
        assert_eq!(
            estimate("/*0000*/ IMAD.WIDE R50, R16, R48, c[0x0][0x160] ;\n").highest,
            Some(51)
        );
        // A 64-bit address alone: `[R20.64]` is R20 and R21.
        assert_eq!(
            estimate("/*0000*/ STG.E [R20.64], R4 ;\n").highest,
            Some(21)
        );
        // A 128-bit load: four registers.
        assert_eq!(estimate("/*0000*/ LDS.128 R8, [R2] ;\n").highest, Some(11));
    }

    #[test]
    fn no_general_register() {
        assert_eq!(
            estimate("/*0000*/ EXIT ;\n"),
            RegisterEstimate {
                highest: None,
                registers: RESERVED_VOLTA_ON,
                reserved: RESERVED_VOLTA_ON
            }
        );
    }
}
