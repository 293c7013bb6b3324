//! A parsed kernel and the result of parsing.

use crate::diagnostic::Diagnostic;
use crate::instruction::Instruction;
use std::collections::BTreeMap;

/// The input languages Warpbound reads. Only some have parsers yet; the facade reports the
/// others as unsupported rather than guessing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// NVIDIA SASS from `cuobjdump -sass`, `nvdisasm` or CuAssembler `.cuasm`.
    Sass,
    /// AMD GCN3 assembly (HIP/LLVM `.s`).
    Gcn,
    Ptx,
    /// Sim-D assembly (`.sas`).
    Simd,
    /// Abstract instruction strings over {L, C} (Berezovskyi et al.).
    Lc,
    /// A wavefront CFG in the CSV format of the public PWS split-point solver
    /// (`wcet,is_bsb_node,is_reconv_node,successors`; parsed by the `pws` crate).
    PwsCsv,
}

impl Dialect {
    pub const ALL: [Dialect; 6] = [
        Dialect::Sass,
        Dialect::Gcn,
        Dialect::Ptx,
        Dialect::Simd,
        Dialect::Lc,
        Dialect::PwsCsv,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Dialect::Sass => "sass",
            Dialect::Gcn => "gcn",
            Dialect::Ptx => "ptx",
            Dialect::Simd => "simd",
            Dialect::Lc => "lc",
            Dialect::PwsCsv => "pws-csv",
        }
    }

    pub fn from_name(s: &str) -> Option<Dialect> {
        Dialect::ALL.into_iter().find(|d| d.name() == s)
    }
}

/// One function of a listing, as straight instruction order plus its labels.
#[derive(Debug, Clone, PartialEq)]
pub struct Kernel {
    pub dialect: Dialect,
    pub function: String,
    /// Target architecture when the listing says (`sm_35`, `sm_61`, ...).
    pub arch: Option<String>,
    pub instructions: Vec<Instruction>,
    /// Label name → code address.
    pub labels: BTreeMap<String, u64>,
    /// What the cubin declares about the function's use of the SM, when the text says it (a
    /// whole `nvdisasm` dump: its `.nv.info`, `.nv.shared.NAME` and `.nv.constant0.NAME`
    /// sections). Plain data kept for an occupancy analysis; no analysis reads it yet.
    pub resources: Option<FunctionResources>,
}

/// The per-function numbers of a cubin that bound how many blocks fit on an SM (registers,
/// shared memory) or that a launch must provide (parameter bank, stack), as `nvdisasm`
/// prints them. Each is `None` when the text does not say it; `cuobjdump -res-usage` prints
/// the same numbers for the same cubin (`REG`, `SHARED`, `CONSTANT[0]`, `STACK`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FunctionResources {
    /// A kernel entry (`.other NAME,@"STO_CUDA_ENTRY …"`), not a device function: only entries
    /// are launched, so only their numbers limit occupancy.
    pub entry: bool,
    /// Registers per thread: `EIATTR_REGCOUNT` of `.nv.info`, else the code section's
    /// `.sectioninfo @"SHI_REGISTERS=N"`.
    pub registers: Option<u32>,
    /// Static shared memory per block, in bytes: the size of `.nv.shared.NAME` (its `.zero N`);
    /// 0 in a whole dump (one with a `.nv.info` section) that has no such section.
    pub shared_bytes: Option<u64>,
    /// Size of constant bank 0 (launch configuration and parameters), in bytes: the size of
    /// `.nv.constant0.NAME`.
    pub constant0_bytes: Option<u64>,
    /// Per-thread stack, in bytes: `EIATTR_MIN_STACK_SIZE` of `.nv.info` (the number
    /// `cuobjdump -res-usage` prints as `STACK`; equal to `EIATTR_FRAME_SIZE` in every cubin
    /// checked).
    pub stack_bytes: Option<u64>,
    /// `EIATTR_MAX_STACK_SIZE` of `.nv.info`, in bytes, kept as printed: it is 0 for kernels
    /// whose frame is not (a kernel calling `vprintf` with a 16-byte frame), so it is not the
    /// stack a thread needs — that is [`FunctionResources::stack_bytes`].
    pub max_stack_bytes: Option<u64>,
}

impl Kernel {
    /// Index of the instruction at `address`, if there is one. Instructions are in address
    /// order, so this is a binary search.
    pub fn index_of(&self, address: u64) -> Option<usize> {
        self.instructions
            .binary_search_by_key(&address, |i| i.address)
            .ok()
    }
}

/// What a parser returns: the selected function (if parsing got that far), the names of all
/// functions in the text, and every diagnostic found on the way.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseOutput {
    pub kernel: Option<Kernel>,
    pub functions: Vec<String>,
    pub diagnostics: Vec<Diagnostic>,
}

impl ParseOutput {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}
