//! The typed Sim-D program: buffer mappings (`.data`, `.sp_data`), instructions of `.text`,
//! labels and the WCET annotations (`#bound`).

use super::opcode::{Category, Op};
use super::operand::{Operand, Reg};
use crate::span::Span;
use std::collections::BTreeMap;

/// How a DRAM buffer's initial contents are given (only meaningful to the simulator; the
/// WCET analysis reads addresses and dimensions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputFormat {
    /// `f`: raw binary file.
    Binary,
    /// `d`: decimal text values.
    Decimal,
    /// `n`: no input.
    None,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BufferInput {
    pub format: InputFormat,
    pub path: String,
}

/// One buffer mapping, `idx addr dim_x dim_y [f|d "file"]`: the BufToPhysXlat entry of
/// Sim-D §3.2.4 (physical address, x- and y-dimension in 32-bit words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Buffer {
    pub id: u32,
    /// Byte address (DRAM, or scratchpad for `.sp_data`).
    pub addr: u64,
    /// Width in 32-bit words (the period of a 2D stride request).
    pub dim_x: u64,
    /// Height in rows.
    pub dim_y: u64,
    pub input: Option<BufferInput>,
    pub span: Span,
}

impl Buffer {
    /// Size in 32-bit words.
    pub fn words(&self) -> u64 {
        self.dim_x.saturating_mul(self.dim_y)
    }
}

/// `#bound branchcycle T N [P]`: the annotated branch is taken `T` times, then not taken `N`
/// times, repeating, starting at position `P` of that cycle (Sim-D §5.4's annotation-based
/// loop bounds; the cycle semantics are those of the reference tool's `Metadata`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BranchCycle {
    pub taken: u32,
    pub not_taken: u32,
    pub start: u32,
    pub span: Span,
}

/// `#bound value V`: an upper bound on the value a register-sourced `smovssp` writes into a
/// stride-descriptor register (Sim-D §5.3: "developers may need to annotate these registers
/// with upper bounds").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValueBound {
    pub value: u64,
    pub span: Span,
}

/// One instruction of `.text`.
#[derive(Debug, Clone, PartialEq)]
pub struct Instruction {
    /// Position in the program (0-based); also its instruction-memory address.
    pub index: usize,
    /// The mnemonic as written, without sub-operation.
    pub mnemonic: String,
    /// The known op, or `None` for an unknown mnemonic (parsed generically: first register
    /// operand written, the rest read).
    pub op: Option<Op>,
    /// Sub-operation index into the op's list (`None` if the op has none or it is unknown).
    pub subop: Option<usize>,
    /// The sub-operation as written (`ez`, `if`, `vec2`, ...).
    pub subop_text: Option<String>,
    pub dst: Option<Operand>,
    /// Source operands by slot; a slot the text skipped (an omittable operand of another
    /// shape) is `None`.
    pub srcs: Vec<Option<Operand>>,
    pub branch_cycle: Option<BranchCycle>,
    pub value_bound: Option<ValueBound>,
    /// The instruction text without comment.
    pub text: String,
    pub span: Span,
}

impl Instruction {
    pub fn category(&self) -> Option<Category> {
        self.op.map(Op::category)
    }

    /// Vector instructions are issued once per 128-lane sub-vector (Sim-D §5.3).
    pub fn is_vector(&self) -> bool {
        self.op.is_some_and(|o| o.spec().vector)
    }

    pub fn src(&self, slot: usize) -> Option<&Operand> {
        self.srcs.get(slot).and_then(Option::as_ref)
    }

    /// The register read in source slot `slot`, if that slot holds a register.
    pub fn src_reg(&self, slot: usize) -> Option<Reg> {
        self.src(slot).and_then(Operand::register)
    }

    pub fn dst_reg(&self) -> Option<Reg> {
        self.dst.as_ref().and_then(Operand::register)
    }

    /// The label this instruction branches to (first source of `j`, `sicj`, `bra`, `call`,
    /// `cpush`).
    pub fn target_label(&self) -> Option<&str> {
        match self.op? {
            Op::J | Op::Sicj | Op::Bra | Op::Call | Op::CPush => self.src(0)?.label(),
            _ => None,
        }
    }

    /// Ends a basic block (Sim-D §5.1): every DRAM/scratchpad request and every control-flow
    /// instruction except `cpush`.
    pub fn ends_block(&self) -> bool {
        match self.op {
            Some(Op::CPush) => false,
            Some(op) => matches!(op.category(), Category::LoadStore | Category::ControlFlow),
            None => false,
        }
    }
}

/// A branch-target label: it names the instruction that follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub name: String,
    /// Index of the next instruction (equal to the instruction count at the end of text).
    pub index: usize,
    pub span: Span,
}

/// A parsed `.sas` file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Program {
    /// DRAM buffers by id (`.data`).
    pub buffers: BTreeMap<u32, Buffer>,
    /// Scratchpad buffers by id (`.sp_data`).
    pub sp_buffers: BTreeMap<u32, Buffer>,
    pub instructions: Vec<Instruction>,
    pub labels: BTreeMap<String, Label>,
}

impl Program {
    /// Index of the instruction a label names.
    pub fn label_index(&self, name: &str) -> Option<usize> {
        self.labels.get(name).map(|l| l.index)
    }
}
