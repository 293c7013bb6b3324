//! One line per Sim-D mnemonic, for hover help: what the instruction does, in our words,
//! from the instruction list of the Sim-D reference implementation and the paper (Spliet &
//! Mullins, §3.1–§3.2: vector and scalar register files, the control stack CSTACK, DRAM and
//! scratchpad transfers). Sub-operations (`.ez`, `.if`, `.vec2`, `.neg`, `.i2f`) are named
//! in the line of the mnemonic that takes them.
//!
//! What this is not: the timing class (the `phases` crate's pipeline reads
//! [`Op::category`] and the access predicates of [`Op`]; the page's documentation derives
//! the class from those) or an operand grammar ([`super::OpSpec`]).

use super::Op;

/// The one-line description of `op`. The match is exhaustive, so a new mnemonic cannot be
/// added without its line.
pub fn description(op: Op) -> &'static str {
    match op {
        Op::Nop => "No operation",
        Op::Test => "Per lane, compare a float with zero (.ez .nz .g .ge .l .le) into a predicate",
        Op::ITest => {
            "Per lane, compare an integer with zero (.ez .nz .g .ge .l .le) into a predicate"
        }
        Op::PBool => "Combine two predicates per lane (.and .or .nand .nor)",
        Op::J => "Jump to a label (uniform, no divergence)",
        Op::Sicj => "Jump to a label if a scalar register compares with zero (.ez .nz .g …)",
        Op::Bra => {
            "Divergent branch: lanes whose predicate holds jump; pushes an if-entry on CSTACK"
        }
        Op::Call => "Call a subroutine for the lanes of a predicate; pushes the return point",
        Op::CPush => {
            "Push a control-stack entry: end of an if/else (.if), loop break (.brk), return (.jc)"
        }
        Op::CMask => {
            "Switch off the lanes whose predicate is false; pops CSTACK when no lane is left"
        }
        Op::CPop => "Pop the control stack and restore the lanes it saved",
        Op::Ret => "Return the lanes of a predicate from a subroutine",
        Op::Brk => "Leave the loop for the lanes of a predicate",
        Op::Exit => "End the work-items of a predicate (all of them without one)",
        Op::Mad => "FP32 multiply-add per lane (.neg: negated product)",
        Op::Mul => "FP32 multiply per lane (.neg: negated result)",
        Op::Add => "FP32 add per lane (.neg: negate the second operand)",
        Op::Min => "FP32 minimum per lane",
        Op::Max => "FP32 maximum per lane",
        Op::Abs => "FP32 absolute value per lane",
        Op::Mov => "Move an immediate or a vector special register into a vector register",
        Op::MovVsp => "Write a vector special register (per-lane state such as the lane mask)",
        Op::SMovSsp => "Write a scalar special register (a DRAM stride descriptor field, …)",
        Op::Cvt => "Convert per lane between integer and float (.i2f .f2i)",
        Op::SCvt => "Convert a scalar between integer and float (.i2f .f2i)",
        Op::BufQuery => "Read a buffer's width (.dim_x) or height (.dim_y) into a scalar register",
        Op::IAdd => "Integer add per lane",
        Op::ISub => "Integer subtract per lane",
        Op::IMul => "Integer multiply per lane",
        Op::IMad => "Integer multiply-add per lane",
        Op::IMin => "Integer minimum per lane",
        Op::IMax => "Integer maximum per lane",
        Op::Shl => "Shift left per lane",
        Op::Shr => "Shift right per lane",
        Op::And => "Bitwise AND per lane",
        Op::Or => "Bitwise OR per lane",
        Op::Xor => "Bitwise XOR per lane",
        Op::Not => "Bitwise NOT per lane",
        Op::SMov => "Move an immediate or a scalar special register into a scalar register",
        Op::SIAdd => "Scalar integer add",
        Op::SISub => "Scalar integer subtract",
        Op::SIMul => "Scalar integer multiply",
        Op::SIMad => "Scalar integer multiply-add",
        Op::SIMin => "Scalar integer minimum",
        Op::SIMax => "Scalar integer maximum",
        Op::SINeg => "Scalar integer negate",
        Op::SIBFind => "Scalar bit find: the position of a set bit of a scalar register",
        Op::SShl => "Scalar shift left",
        Op::SShr => "Scalar shift right",
        Op::SIDiv => "Scalar integer divide (the non-pipelined divider)",
        Op::SIMod => "Scalar integer remainder (the non-pipelined divider)",
        Op::SAnd => "Scalar bitwise AND",
        Op::SOr => "Scalar bitwise OR",
        Op::SNot => "Scalar bitwise NOT",
        Op::Rcp => "Reciprocal per lane, on the RCP units",
        Op::Rsqrt => "Reciprocal square root per lane, on the RCP units",
        Op::Sin => "Sine per lane, on the RCP units",
        Op::Cos => "Cosine per lane, on the RCP units",
        Op::LdgLin => "Load a linear tile from DRAM into vector registers (.vec2 .vec4: 2/4 words)",
        Op::StgLin => "Store vector registers to a linear tile in DRAM (.vec2 .vec4: 2/4 words)",
        Op::LdgBIdx => "Load from DRAM through an index buffer spanning the whole buffer",
        Op::StgBIdx => "Store to DRAM through an index buffer spanning the whole buffer",
        Op::LdgCIdx => "Load a strided tile from DRAM as the stride descriptor says",
        Op::StgCIdx => "Store a strided tile to DRAM as the stride descriptor says",
        Op::LdgIdxIt => "Load one DRAM word per work-item at its own index, one after another",
        Op::StgIdxIt => "Store one DRAM word per work-item at its own index, one after another",
        Op::Ldg2SpTile => "Copy a tile from DRAM into the scratchpad",
        Op::Stg2SpTile => "Copy a tile from the scratchpad to DRAM",
        Op::Sldg => "Load one word from DRAM into a scalar register",
        Op::Sldsp => "Load one word from the scratchpad into a scalar register",
        Op::LdspLin => "Load a linear region of the scratchpad into vector registers",
        Op::StspLin => "Store vector registers to a linear region of the scratchpad",
        Op::LdspBIdx => "Load from the scratchpad at a per-lane index",
        Op::StspBIdx => "Store to the scratchpad at a per-lane index",
        Op::PrintSgpr => "Debug: print a scalar register",
        Op::PrintVgpr => "Debug: print a vector register",
        Op::PrintPr => "Debug: print a predicate register",
        Op::PrintCmask => "Debug: print the control mask (.if .brk .jc .exit)",
        Op::PrintTrace => "Debug: print a trace marker",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_op_has_a_short_line() {
        for &op in Op::ALL {
            let d = description(op);
            assert!(!d.is_empty() && d.chars().count() <= 100, "{}", op.name());
        }
    }
}
