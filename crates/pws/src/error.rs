//! Everything that can go wrong, as a located [`Diagnostic`] plus a coarse kind.

use isa::{Diagnostic, Severity, Span};

/// What kind of problem stopped the analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// Malformed input text (CSV graph, block-cost table, GCN listing).
    Input,
    /// A graph the method cannot handle (cycle left after unrolling, irreducible loop,
    /// node index out of range, unreachable exit).
    Graph,
    /// A [`Budget`](crate::Budget) limit was hit; the message names the limit.
    Budget,
    /// Inconsistent hardware or launch parameters (e.g. a workgroup larger than the GPU).
    Hardware,
    /// A number does not fit in 64 bits.
    Overflow,
    /// The IPET solver failed.
    Ipet,
}

/// An error with the place in the input it refers to (line 0 when it is about the request
/// as a whole).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub diagnostic: Diagnostic,
}

impl Error {
    /// An error at a place in the text.
    pub fn at(kind: ErrorKind, span: Span, message: impl Into<String>) -> Self {
        Error {
            kind,
            diagnostic: Diagnostic::error(span, message),
        }
    }

    /// An error about the request as a whole.
    pub fn global(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            diagnostic: Diagnostic::global(Severity::Error, message),
        }
    }

    /// A budget error naming the budget and how to raise it.
    pub fn budget(name: &str, limit: usize, what: impl std::fmt::Display) -> Self {
        Error::global(
            ErrorKind::Budget,
            format!("budget {name} exceeded ({what}; the limit is {limit}): raise `{name}`"),
        )
    }

    pub fn overflow(what: &str) -> Self {
        Error::global(
            ErrorKind::Overflow,
            format!("{what} does not fit in 64 bits"),
        )
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.diagnostic.fmt(f)
    }
}

impl std::error::Error for Error {}

impl From<ipet::Error> for Error {
    fn from(e: ipet::Error) -> Self {
        Error::global(ErrorKind::Ipet, format!("IPET: {e}"))
    }
}
