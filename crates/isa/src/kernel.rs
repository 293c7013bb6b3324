//! A parsed kernel and the result of parsing.

use crate::diagnostic::Diagnostic;
use crate::instruction::Instruction;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The input languages Warpbound reads. Only some have parsers yet; the facade reports the
/// others as unsupported rather than guessing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
    #[serde(rename = "pws-csv")]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Kernel {
    pub dialect: Dialect,
    pub function: String,
    /// Target architecture when the listing says (`sm_35`, `sm_61`, ...).
    pub arch: Option<String>,
    pub instructions: Vec<Instruction>,
    /// Label name → code address.
    pub labels: BTreeMap<String, u64>,
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
