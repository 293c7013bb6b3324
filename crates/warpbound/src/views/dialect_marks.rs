//! The report's `dialect_hint` and `cuda_source`: the mark in a text that did not parse which
//! shows what the text is instead (`isa::dialect_guess`), for the page's "switch to …" offer
//! and the CLI's hint.

use crate::dialect::Dialect;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A dialect and the mark that decided it (`isa::dialect_guess::DialectGuess`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct DialectGuess {
    pub dialect: Dialect,
    /// 1-based line of the mark (0 for a file name).
    pub line: u32,
    /// The mark, as written (or the file extension).
    pub evidence: String,
}

/// A mark of CUDA C++ source: where it is and what it is
/// (`isa::dialect_guess::SourceMark`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SourceMark {
    /// 1-based line of the mark.
    pub line: u32,
    /// The mark, as written.
    pub evidence: String,
}

impl From<isa::dialect_guess::DialectGuess> for DialectGuess {
    fn from(g: isa::dialect_guess::DialectGuess) -> Self {
        DialectGuess {
            dialect: g.dialect.into(),
            line: g.line,
            evidence: g.evidence,
        }
    }
}

impl From<isa::dialect_guess::SourceMark> for SourceMark {
    fn from(m: isa::dialect_guess::SourceMark) -> Self {
        SourceMark {
            line: m.line,
            evidence: m.evidence,
        }
    }
}
