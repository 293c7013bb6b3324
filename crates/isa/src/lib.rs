//! The kernel IR every Warpbound analysis reads, and one parser module per assembly dialect.
//!
//! What this crate *is*: plain data describing a GPU kernel at the instruction level
//! ([`Kernel`], [`Instruction`], [`Operand`]), parsers that turn listing text into that data
//! with located [`Diagnostic`]s, and the thread-level basic-block graph ([`blocks`]) that every
//! control-flow analysis starts from.
//!
//! What it is *not*: it does no I/O, knows nothing about timing, and has no notion of warps
//! or divergence — those belong to the analysis crates that read the IR.
//!
//! Invariants kept here:
//! - Every item derived from source text carries a [`Span`] (1-based line and column), so any
//!   later analysis can point the user back at the text.
//! - Parsing never panics and never loops on hostile input; it is bounded by [`Limits`].
//! - Unknown opcodes parse generically (operands, reads, writes), so analyses can still run.

pub mod blocks;
pub mod control_bits;
pub mod diagnostic;
pub mod dialect_guess;
pub mod dominance;
pub mod flow;
pub mod gcn;
pub mod instruction;
pub mod kernel;
pub mod lc;
pub mod limits;
pub mod number;
pub mod operand;
pub mod progress;
pub mod ptx;
pub mod sass;
pub mod simd;
pub mod source_text;
pub mod span;
pub mod spelling;
pub mod verify;

pub use blocks::{Block, BlockGraph, EdgeKind};
pub use control_bits::ControlBits;
pub use diagnostic::{Diagnostic, Severity, Stage};
pub use instruction::{ControlKind, Guard, Instruction, Opcode, ResourceClass};
pub use kernel::{Dialect, FunctionResources, Kernel, ParseOutput};
pub use limits::Limits;
pub use operand::{Address, Immediate, Operand, OperandKind, Register};
pub use progress::{Observer, Progress, Task};
pub use span::Span;
