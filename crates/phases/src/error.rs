//! Errors of the analysis: every one carries an [`isa::Diagnostic`] (line and column when it
//! is about the program text, line 0 when it is about the request).

use isa::{Diagnostic, Severity, Span};

/// What went wrong, broadly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The program text has errors (parse diagnostics).
    Parse,
    /// The program violates a restriction of the Sim-D WCET method (§5.2, §5.4, §5.5).
    Program,
    /// The launch (NDRange, work-group width) or configuration is invalid.
    Request,
    /// An explicit budget was exhausted; the message names it and how to raise it.
    Budget,
}

/// An analysis error with its located diagnostic(s).
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    pub kind: ErrorKind,
    pub diagnostics: Vec<Diagnostic>,
}

impl Error {
    pub fn at(span: Span, message: impl Into<String>) -> Self {
        Error {
            kind: ErrorKind::Program,
            diagnostics: vec![Diagnostic::error(span, message)],
        }
    }

    pub fn request(message: impl Into<String>) -> Self {
        Error {
            kind: ErrorKind::Request,
            diagnostics: vec![Diagnostic::global(Severity::Error, message)],
        }
    }

    /// A budget ran out: `what` is the budget's parameter name.
    pub fn budget(what: &str, limit: u64, needed_for: impl std::fmt::Display) -> Self {
        Error {
            kind: ErrorKind::Budget,
            diagnostics: vec![Diagnostic::global(
                Severity::Error,
                format!("budget {what} = {limit} exhausted by {needed_for}; raise {what} to analyse this kernel"),
            )],
        }
    }

    /// Points the diagnostics that have no location (line 0) at `span`: used to name the
    /// request instruction whose analysis exhausted a budget.
    pub fn located(mut self, span: Span) -> Self {
        for d in &mut self.diagnostics {
            if d.line == 0 {
                d.line = span.line;
                d.column = span.column;
                d.len = span.len;
            }
        }
        self
    }

    pub fn parse(diagnostics: Vec<Diagnostic>) -> Self {
        Error {
            kind: ErrorKind::Parse,
            diagnostics,
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut first = true;
        for d in self.diagnostics.iter().filter(|d| d.is_error()) {
            if !first {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
            first = false;
        }
        if first {
            write!(f, "analysis failed")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}
