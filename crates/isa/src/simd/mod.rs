//! Sim-D assembly (`.sas`, Spliet & Mullins, *Sim-D: a SIMD accelerator for hard real-time
//! systems*): a typed front end for the WCET analysis of the `phases` crate.
//!
//! What this module *is*: the file format — `.data` and `.sp_data` buffer mappings
//! (`idx addr dim_x dim_y [f|d "file"]`), `.text` with labels, `//` comments, the WCET
//! annotations `#bound branchcycle T N [P]` and `#bound value V`, and instructions over the
//! vector (`vN`), scalar (`sN`), predicate (`pN`) and special-purpose (`vc.*`, `sc.*`)
//! register files — parsed into a [`Program`] with 1-based spans on every item.
//!
//! What it is *not*: no timing, no basic blocks, no control-flow graph (those belong to the
//! `phases` crate, which follows §5 of the paper). Sim-D's structured control flow (CSTACK)
//! does not map onto the SASS-centred [`crate::Kernel`] IR, so this dialect keeps its own
//! typed representation, like [`crate::lc`].
//!
//! Invariants: parsing never panics, is bounded by [`Limits`], and reports every problem as a
//! [`Diagnostic`] with line and column. Unknown mnemonics parse generically (first register
//! operand written, the rest read) with a warning.

pub mod opcode;
pub mod opcode_docs;
pub mod operand;
mod parser;
pub mod program;

pub use opcode::{Category, Op, OpSpec};
pub use operand::{Operand, OperandKind, Reg};
pub use parser::MAX_BUFFER_ID;
pub use program::{
    BranchCycle, Buffer, BufferInput, InputFormat, Instruction, Label, Program, ValueBound,
};

use crate::diagnostic::Diagnostic;
use crate::limits::Limits;

/// What [`parse`] returns: the program (whenever the text could be read) and all diagnostics.
#[derive(Debug, Clone, PartialEq)]
pub struct SimdParse {
    pub program: Option<Program>,
    pub diagnostics: Vec<Diagnostic>,
}

impl SimdParse {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Parses a `.sas` file.
pub fn parse(text: &str, limits: &Limits) -> SimdParse {
    let (program, diagnostics) = parser::parse(text, limits);
    SimdParse {
        program,
        diagnostics,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Program {
        let out = parse(text, &Limits::default());
        assert!(!out.has_errors(), "{:?}", out.diagnostics);
        out.program.unwrap_or_default()
    }

    #[test]
    fn sections_buffers_labels_annotations() {
        let p = ok(
            ".data\n 0 0x40 7 7 f \"in.bin\" // x\n.sp_data\n 1 0x100 32 4\n.text\n\
                    start:\n #bound branchcycle 2 1\n sicj.l start, s3\n exit\n",
        );
        let b = &p.buffers[&0];
        assert_eq!((b.addr, b.dim_x, b.dim_y), (0x40, 7, 7));
        assert_eq!(b.input.as_ref().map(|i| i.path.as_str()), Some("in.bin"));
        assert_eq!(p.sp_buffers[&1].words(), 128);
        assert_eq!(p.label_index("start"), Some(0));
        let j = &p.instructions[0];
        assert_eq!((j.op, j.subop), (Some(Op::Sicj), Some(4)));
        let bc = j.branch_cycle.unwrap_or(BranchCycle {
            taken: 0,
            not_taken: 0,
            start: 9,
            span: Default::default(),
        });
        assert_eq!((bc.taken, bc.not_taken, bc.start), (2, 1, 0));
        assert_eq!((j.span.line, j.span.column), (8, 2));
        assert_eq!(j.src(1).and_then(Operand::register), Some(Reg::Scalar(3)));
    }

    #[test]
    fn omittable_slots_are_skipped_by_shape() {
        // ldgcidx has no named destination; `exit p0` fills its only source slot.
        let p = ok(".text\n ldgcidx 0, s4\n exit p0\n smovssp sc.sd_period_cnt s15\n");
        assert!(p.instructions[0].dst.is_none());
        assert_eq!(p.instructions[0].src_reg(1), Some(Reg::Scalar(4)));
        assert_eq!(p.instructions[1].src_reg(0), Some(Reg::Predicate(0)));
        assert_eq!(
            p.instructions[2].dst_reg(),
            Some(Reg::ScalarSpecial(operand::SSP_SD_PERIOD_CNT))
        );
    }

    #[test]
    fn errors_are_located() {
        let out = parse(".text\n  itest p0, v1\n  j nowhere\n", &Limits::default());
        let errs: Vec<(u32, u32)> = out
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| (d.line, d.column))
            .collect();
        assert_eq!(errs, vec![(2, 3), (3, 5)]);
    }

    #[test]
    fn unknown_opcodes_parse_generically() {
        let out = parse(".text\n frobnicate v1, v2, s3\n", &Limits::default());
        assert!(!out.has_errors());
        let p = out.program.unwrap_or_default();
        let i = &p.instructions[0];
        assert_eq!(
            (i.op, i.dst_reg(), i.srcs.len()),
            (None, Some(Reg::Vector(1)), 2)
        );
    }

    /// A misspelt arithmetic op is a warning with a hint; a misspelt branch, control-stack
    /// push, predicate test or DRAM transfer is an error at the mnemonic, since reading it
    /// generically would drop a branch or a request and lower the bound.
    #[test]
    fn misspellings_by_the_role_of_the_nearest_op() {
        let cases = [
            (" iadd3 v1, v2, v3\n", false, "did you mean `iadd`?"),
            (" cpsh.if e\n", true, "did you mean `cpush`?"),
            (" bar e, p0\n", true, "did you mean `bra`?"),
            (" tset.eq p0, v1\n", true, "did you mean `test`?"),
            (" ldglinn v1, 0\n", true, "did you mean `ldglin`?"),
        ];
        for (line, is_error, hint) in cases {
            let text = format!(".data\n0 0 32 32\n.text\n{line}e:\n exit\n");
            let out = parse(&text, &Limits::default());
            let d = out
                .diagnostics
                .iter()
                .find(|d| d.message.contains("unknown opcode"))
                .unwrap_or_else(|| panic!("{line}: {:?}", out.diagnostics));
            assert_eq!(d.is_error(), is_error, "{line}: {}", d.message);
            assert!(d.message.contains(hint), "{line}: {}", d.message);
            assert_eq!((d.line, d.column), (4, 2), "{line}");
        }
    }
}
