//! Located messages for the user.

use crate::span::Span;
use serde::{Deserialize, Serialize};

/// How bad a diagnostic is. `Error` means the requested result could not be produced
/// (the CLI exits 1); warnings and notes accompany a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Note,
}

/// A message tied to a place in the input. Line and column are 1-based; a diagnostic about
/// the request as a whole (not about the text) uses line 0, column 0.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub line: u32,
    pub column: u32,
    /// Length of the offending text in characters (0 when it is a point).
    pub len: u32,
    pub message: String,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Self {
        Self::at(Severity::Error, span, message)
    }

    pub fn warning(span: Span, message: impl Into<String>) -> Self {
        Self::at(Severity::Warning, span, message)
    }

    pub fn note(span: Span, message: impl Into<String>) -> Self {
        Self::at(Severity::Note, span, message)
    }

    /// A diagnostic about the request rather than a place in the text.
    pub fn global(severity: Severity, message: impl Into<String>) -> Self {
        Self::at(severity, Span::default(), message)
    }

    fn at(severity: Severity, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            line: span.line,
            column: span.column,
            len: span.len,
            message: message.into(),
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        };
        if self.line == 0 {
            write!(f, "{sev}: {}", self.message)
        } else {
            write!(f, "{}:{}: {sev}: {}", self.line, self.column, self.message)
        }
    }
}
