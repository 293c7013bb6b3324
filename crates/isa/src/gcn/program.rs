//! The typed representation of a GCN3 listing: functions, instructions, operands, registers,
//! and the control and execute-mask classification that wavefront analyses read.

use std::collections::BTreeMap;

use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// Everything parsed from one `.s` text: its functions (kernels) and every diagnostic.
#[derive(Debug, Clone, PartialEq)]
pub struct GcnProgram {
    /// Target named by `.amdgcn_target` or `.amdhsa_code_object`-style directives, if any.
    pub target: Option<String>,
    pub functions: Vec<GcnFunction>,
    pub diagnostics: Vec<Diagnostic>,
}

impl GcnProgram {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The function called `name`, or the first one when `name` is `None`.
    pub fn function(&self, name: Option<&str>) -> Option<&GcnFunction> {
        match name {
            Some(n) => self.functions.iter().find(|f| f.name == n),
            None => self.functions.first(),
        }
    }

    /// Names of the functions in listing order: kernels and the `.text` functions they
    /// call alike (see [`GcnFunction::kernel`]).
    pub fn function_names(&self) -> Vec<&str> {
        self.functions.iter().map(|f| f.name.as_str()).collect()
    }

    /// The function a [`GcnControl::Call`] or [`GcnControl::TailCall`] reaches, or why
    /// there is none: the symbol is not defined in this listing (an external function such
    /// as a device-library builtin or `vprintf`), or it names a label inside a function.
    /// The message names the symbol and says why no bound can be given.
    pub fn callee(&self, symbol: &str) -> Result<&GcnFunction, String> {
        if let Some(f) = self.functions.iter().find(|f| f.name == symbol) {
            return Ok(f);
        }
        if let Some(f) = self
            .functions
            .iter()
            .find(|f| f.labels.contains_key(symbol))
        {
            return Err(format!(
                "call to `{symbol}`, a label inside function `{}` rather than a function: declare it with `.globl {symbol}` or `.type {symbol},@function` so that it is analysed as one",
                f.name
            ));
        }
        Err(format!(
            "call to `{symbol}`, which is not defined in this listing (an external function, e.g. a device-library builtin or `vprintf`): its code and cost are unknown, so no bound would be safe"
        ))
    }
}

/// One function: the instructions between its entry label and its end, in text order.
#[derive(Debug, Clone, PartialEq)]
pub struct GcnFunction {
    pub name: String,
    /// Span of the entry label (or of the first instruction for label-less snippets).
    pub span: Span,
    pub instructions: Vec<GcnInstruction>,
    /// Label name → index of the instruction that follows it (may equal
    /// `instructions.len()` for a label at the very end).
    pub labels: BTreeMap<String, usize>,
    /// Where each label is defined.
    pub label_spans: BTreeMap<String, Span>,
    /// LLVM's `; %bb.N:` block comments: instruction index → block name (`%bb.3`). These
    /// name fall-through blocks that have no real label.
    pub block_comments: BTreeMap<usize, String>,
    /// Named as a kernel by an `.amdhsa_kernel` (code object v3+) or `.amdgpu_hsa_kernel`
    /// (v2) directive; `false` for the `.text` functions kernels call — and for snippets
    /// without descriptors.
    pub kernel: bool,
    /// The `.amdhsa_*` directives of the function's `.amdhsa_kernel NAME …
    /// .end_amdhsa_kernel` block (code object V3+ kernel descriptor; LLVM AMDGPU Usage,
    /// "Code Object V3 Kernel Descriptor"): directive name, dot included
    /// (`.amdhsa_user_sgpr_kernarg_segment_ptr`) → value, read once here for every consumer
    /// (the simulator's initial register state). Empty without a block. A directive
    /// written twice keeps its last value; one whose value is not an integer of
    /// [`crate::number::parse_uint`] is left out.
    pub descriptor: BTreeMap<String, u64>,
}

impl GcnFunction {
    /// The symbols this function calls ([`GcnControl::Call`] and [`GcnControl::TailCall`]),
    /// in order of first appearance.
    pub fn callees(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for ins in &self.instructions {
            if let Some(c) = ins.control.callee() {
                if !out.contains(&c) {
                    out.push(c);
                }
            }
        }
        out
    }
}

/// A register as the data-flow facts need it. 64-bit pairs such as `exec` and `vcc` are one
/// register; `exec_lo`/`exec_hi` count as `exec` (and likewise for `vcc`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GcnReg {
    Sgpr(u32),
    Vgpr(u32),
    /// Trap-handler temporaries `ttmpN`.
    Ttmp(u32),
    Exec,
    Vcc,
    Scc,
    M0,
    FlatScratch,
    /// Any other named register (`xnack_mask`, `tba`, ...), lower-cased.
    Other(String),
}

/// What an operand denotes.
#[derive(Debug, Clone, PartialEq)]
pub enum GcnOperandKind {
    /// `s5` or `s[0:1]`: `count` consecutive scalar registers from `first`.
    Sgpr { first: u32, count: u32 },
    /// `v2` or `v[2:3]`.
    Vgpr { first: u32, count: u32 },
    /// `ttmp4` or `ttmp[4:5]`.
    Ttmp { first: u32, count: u32 },
    /// A named register: `exec`, `vcc`, `scc`, `m0`, `flat_scratch`, `exec_lo`, ...
    Special { name: String },
    /// Integer literal (decimal, `0x` hex, negative).
    Int { value: i64 },
    /// Floating-point literal (`0.5`, `-4.0`).
    Float { value: f64 },
    /// A code label used as a branch target.
    Label { name: String },
    /// `vmcnt(N) expcnt(N) lgkmcnt(N)` of `s_waitcnt` (absent counters are `None`).
    Waitcnt {
        vmcnt: Option<u32>,
        expcnt: Option<u32>,
        lgkmcnt: Option<u32>,
    },
    /// Anything else (`off`, `hwreg(...)`, relocations such as `sym@rel32@lo+4`), as text.
    Expr { text: String },
}

/// One operand with its source modifiers.
#[derive(Debug, Clone, PartialEq)]
pub struct GcnOperand {
    pub kind: GcnOperandKind,
    /// `-x`
    pub negated: bool,
    /// `|x|` or `abs(x)`
    pub absolute: bool,
    /// `sext(x)`: the SDWA integer source modifier (sign-extend the selected byte or word;
    /// LLVM *AMDGPU Operand Syntax*, "SDWA modifiers").
    pub sext: bool,
    pub text: String,
    pub span: Span,
}

impl GcnOperand {
    /// The registers this operand names (a range expands to each register).
    pub fn registers(&self) -> Vec<GcnReg> {
        match &self.kind {
            GcnOperandKind::Sgpr { first, count } => (0..*count)
                .map(|i| GcnReg::Sgpr(first.saturating_add(i)))
                .collect(),
            GcnOperandKind::Vgpr { first, count } => (0..*count)
                .map(|i| GcnReg::Vgpr(first.saturating_add(i)))
                .collect(),
            GcnOperandKind::Ttmp { first, count } => (0..*count)
                .map(|i| GcnReg::Ttmp(first.saturating_add(i)))
                .collect(),
            GcnOperandKind::Special { name } => vec![special_register(name)],
            _ => Vec::new(),
        }
    }

    /// True for `exec`, `exec_lo` or `exec_hi`.
    pub fn is_exec(&self) -> bool {
        matches!(&self.kind, GcnOperandKind::Special { name } if name.starts_with("exec"))
    }
}

/// Maps a register name to the register it belongs to (`exec_lo` → `exec`).
pub fn special_register(name: &str) -> GcnReg {
    match name {
        "exec" | "exec_lo" | "exec_hi" => GcnReg::Exec,
        "vcc" | "vcc_lo" | "vcc_hi" => GcnReg::Vcc,
        "scc" => GcnReg::Scc,
        "m0" => GcnReg::M0,
        "flat_scratch" | "flat_scratch_lo" | "flat_scratch_hi" => GcnReg::FlatScratch,
        other => GcnReg::Other(other.to_string()),
    }
}

/// A trailing instruction modifier: `offset:4`, `glc`, `slc`, `offen`, `clamp`, ...
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GcnModifier {
    pub name: String,
    pub value: Option<String>,
    pub span: Span,
}

/// Condition of a scalar (wavefront-uniform) conditional branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScalarCondition {
    Scc0,
    Scc1,
    Vccz,
    Vccnz,
    /// `s_cbranch_cdbgsys*` and other rarely used scalar conditions.
    Other,
}

/// Condition of an execute-mask branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExecCondition {
    /// `s_cbranch_execz`: taken when no work-item is active.
    Execz,
    /// `s_cbranch_execnz`: taken when some work-item is active.
    Execnz,
}

/// How an instruction changes control flow.
///
/// A GCN wavefront has a single program counter: every branch is taken or not by the
/// wavefront as a whole. *Scalar* branches test `scc`/`vcc`, which are wavefront-uniform, so
/// they are not divergence. *Exec* branches test whether the execute mask is empty; the
/// compiler uses them to skip a path no work-item needs, which is how divergent paths are
/// serialised (PWS §4.2, Fig. 7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GcnControl {
    Fallthrough,
    /// `s_cbranch_scc0/scc1/vccz/vccnz`.
    ScalarBranch {
        condition: ScalarCondition,
        target: String,
        /// Instruction index of the target once resolved.
        target_index: Option<usize>,
    },
    /// `s_cbranch_execz/execnz`.
    ExecBranch {
        condition: ExecCondition,
        target: String,
        target_index: Option<usize>,
    },
    /// `s_branch`.
    Jump {
        target: String,
        target_index: Option<usize>,
    },
    /// `s_endpgm`.
    EndProgram,
    /// The PWS `split sA, sB` instruction (PWS §4.1, Fig. 3): split the wavefront into two
    /// split wavefronts at the branch that follows.
    Split,
    /// The PWS `merge` instruction (PWS §4.1): rejoin two split wavefronts.
    Merge,
    /// A call (the analogue of SASS `CAL`): `s_swappc_b64 D, S` whose pair `S` holds a
    /// symbol's address — set in the same block by `s_getpc_b64` + `s_add_u32`/
    /// `s_addc_u32` with `sym@rel32@lo`/`@hi`, by a `s_load_dwordx2` from the GOT slot
    /// `sym@gotpcrel32@lo`/`@hi`, or by `s_mov_b32` of `sym@abs32@lo`/`@hi` — or
    /// `s_call_b64 D, sym` (GFX9). The return address goes to the pair `D`
    /// (`s[30:31]` in LLVM's calling convention, AMDGPU-Usage "Call Convention").
    Call {
        callee: String,
        /// First SGPR of `D`.
        return_pair: u32,
        /// Index of the callee's first instruction in this instruction list; only a
        /// linked image ([`super::link()`]) has one.
        target_index: Option<usize>,
    },
    /// `s_setpc_b64 S` whose pair holds a symbol's address (as for [`GcnControl::Call`]):
    /// a tail call — the callee returns to this function's caller.
    TailCall {
        callee: String,
        target_index: Option<usize>,
    },
    /// `s_setpc_b64 s[30:31]`: return to the caller through the return address of LLVM's
    /// calling convention (the analogue of SASS `RET`).
    Return,
    /// `s_setpc_b64`/`s_swappc_b64` with an unknown target, `s_trap`, `s_rfe_b64`, the
    /// fork/join instructions: target not statically known
    /// ([`GcnInstruction::control_problem`] says why).
    Indirect,
}

impl GcnControl {
    /// True when the instruction ends a basic block.
    pub fn ends_block(&self) -> bool {
        matches!(
            self,
            GcnControl::ScalarBranch { .. }
                | GcnControl::ExecBranch { .. }
                | GcnControl::Jump { .. }
                | GcnControl::EndProgram
                | GcnControl::Indirect
                | GcnControl::Call { .. }
                | GcnControl::TailCall { .. }
                | GcnControl::Return
        )
    }

    /// The symbol a call or tail call reaches.
    pub fn callee(&self) -> Option<&str> {
        match self {
            GcnControl::Call { callee, .. } | GcnControl::TailCall { callee, .. } => Some(callee),
            _ => None,
        }
    }

    /// The label this instruction may jump to.
    pub fn target(&self) -> Option<&str> {
        match self {
            GcnControl::ScalarBranch { target, .. }
            | GcnControl::ExecBranch { target, .. }
            | GcnControl::Jump { target, .. } => Some(target),
            _ => None,
        }
    }

    /// The resolved instruction index of [`GcnControl::target`].
    pub fn target_index(&self) -> Option<usize> {
        match self {
            GcnControl::ScalarBranch { target_index, .. }
            | GcnControl::ExecBranch { target_index, .. }
            | GcnControl::Jump { target_index, .. } => *target_index,
            _ => None,
        }
    }

    /// True when execution may continue at the next instruction (after a call: once the
    /// callee returns).
    pub fn falls_through(&self) -> bool {
        !matches!(
            self,
            GcnControl::Jump { .. }
                | GcnControl::EndProgram
                | GcnControl::Indirect
                | GcnControl::TailCall { .. }
                | GcnControl::Return
        )
    }
}

/// What an instruction does to the execute mask — the building blocks of branch
/// serialisation (PWS §4.2: a BSB is "a sequence of instructions that serializes the
/// execution of divergent paths").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExecEffect {
    /// Leaves `exec` alone.
    None,
    /// Narrows `exec` to the work-items of a path: `s_and_saveexec_b64`,
    /// `s_and_b64 exec, exec, X`, `s_andn2_b64 exec, exec, X`, `v_cmpx_*`.
    Narrow,
    /// Flips `exec` to the work-items of the other path: `s_or_saveexec_b64` and
    /// `s_xor_b64 exec, exec, X` (the start of a branch serialisation block, as the
    /// public PWS solver recognises it).
    Flip,
    /// Restores the saved mask at the reconvergence point: `s_or_b64 exec, exec, X`.
    Restore,
    /// Any other write to `exec` (`s_mov_b64 exec, ...`).
    Set,
}

/// Which unit executes the instruction, for latency tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GcnUnit {
    /// Scalar ALU (`s_*` arithmetic, logic, moves, compares).
    Salu,
    /// Vector ALU, 32-bit or smaller operations.
    Valu,
    /// Vector ALU, 64-bit floating-point and other double-rate operations (`*_f64`).
    ValuF64,
    /// Scalar memory (`s_load_*`, `s_buffer_load_*`, `s_store_*`).
    ScalarMemory,
    /// Vector memory (`flat_*`, `global_*`, `buffer_*`, `tbuffer_*`, `image_*`).
    VectorMemory,
    /// Local data share (`ds_*`).
    Lds,
    /// Branches and `s_endpgm`.
    Branch,
    /// `s_waitcnt`.
    Waitcnt,
    /// `s_barrier`.
    Barrier,
    /// `s_nop`, `split`, `merge` and anything not classified above.
    Other,
}

impl GcnUnit {
    /// The unit's name as reports spell it (`valu_f64`, `vector_memory`).
    pub fn name(self) -> &'static str {
        match self {
            GcnUnit::Salu => "salu",
            GcnUnit::Valu => "valu",
            GcnUnit::ValuF64 => "valu_f64",
            GcnUnit::ScalarMemory => "scalar_memory",
            GcnUnit::VectorMemory => "vector_memory",
            GcnUnit::Lds => "lds",
            GcnUnit::Branch => "branch",
            GcnUnit::Waitcnt => "waitcnt",
            GcnUnit::Barrier => "barrier",
            GcnUnit::Other => "other",
        }
    }
}

/// One instruction.
#[derive(Debug, Clone, PartialEq)]
pub struct GcnInstruction {
    /// Mnemonic, lower-cased, with its encoding suffix (`v_add_u32_e32`).
    pub opcode: String,
    pub opcode_span: Span,
    pub operands: Vec<GcnOperand>,
    pub modifiers: Vec<GcnModifier>,
    /// Registers read, implicit ones included (`exec` for vector operations, `scc` for
    /// `s_cbranch_scc*`, ...), sorted and deduplicated.
    pub reads: Vec<GcnReg>,
    /// Registers written, implicit ones included, sorted and deduplicated.
    pub writes: Vec<GcnReg>,
    pub control: GcnControl,
    pub exec_effect: ExecEffect,
    pub unit: GcnUnit,
    /// The instruction text without comment.
    pub text: String,
    pub span: Span,
}

impl GcnInstruction {
    /// Why an analysis cannot follow this instruction's control flow, as a message naming
    /// the construct: `Some` for [`GcnControl::Indirect`] only.
    pub fn control_problem(&self) -> Option<String> {
        if self.control != GcnControl::Indirect {
            return None;
        }
        let text = self.text.trim();
        Some(match self.opcode.as_str() {
            "s_setpc_b64" | "s_swappc_b64" => format!(
                "`{text}`: the target pair is neither set from a symbol in this block (`s_getpc_b64` + `s_add_u32`/`s_addc_u32` with `sym@rel32@lo`/`@hi`, a `s_load_dwordx2` from `sym@gotpcrel32@lo`/`@hi`, or `s_mov_b32` of `sym@abs32@lo`/`@hi`) nor the return address `s[30:31]`: the jump target is not statically known, so no bound would be safe"
            ),
            "s_trap" => format!(
                "`{text}` enters the trap handler, whose code is not in the listing: its cost is unknown, so no bound would be safe"
            ),
            "s_rfe_b64" | "s_rfe_restore_b64" => format!(
                "`{text}` returns from a trap handler to an address in registers: the target is not statically known"
            ),
            _ => format!(
                "`{text}`: the fork/join control stack (GCN3 ISA §4.6) is not supported: the target is not statically known"
            ),
        })
    }
}
