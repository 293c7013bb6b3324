//! Located messages for the user.

use crate::span::Span;

/// How bad a diagnostic is. `Error` means the requested result could not be produced
/// (the CLI exits 1); warnings and notes accompany a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

/// Which step of a request a diagnostic comes from, so a user can tell "my kernel does not
/// parse" from "the analysis cannot bound it" from "the simulator cannot run it". Set by the
/// facade; `None` where no one said.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    /// The request itself: a parameter, a mode, a dialect.
    Request,
    /// Reading the kernel text.
    Parse,
    /// The mode's analysis (graphs, bounds, schedules).
    Analysis,
    /// A simulator run.
    Simulation,
}

/// A message tied to a place in the input. Line and column are 1-based; a diagnostic about
/// the request as a whole (not about the text) uses line 0, column 0.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub severity: Severity,
    pub line: u32,
    pub column: u32,
    /// Length of the offending text in characters (0 when it is a point).
    pub len: u32,
    pub message: String,
    /// The step it comes from ([`Stage`]).
    pub stage: Option<Stage>,
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
            stage: None,
        }
    }

    /// The same diagnostic labelled with `stage`, unless it has one already.
    pub fn in_stage(mut self, stage: Stage) -> Self {
        self.stage.get_or_insert(stage);
        self
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
