//! Why a simulation gave no result.

use isa::Diagnostic;

/// A run that stopped: every cause is a located [`Diagnostic`] — at the instruction that
/// could not be simulated, or at line 0 for a problem with the request (machine, launch,
/// memory) or an exhausted budget, whose message names the budget to raise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimError {
    pub diagnostics: Vec<Diagnostic>,
}

impl SimError {
    pub fn at(span: isa::Span, message: impl Into<String>) -> Self {
        SimError {
            diagnostics: vec![Diagnostic::error(span, message)],
        }
    }

    pub fn request(message: impl Into<String>) -> Self {
        SimError {
            diagnostics: vec![Diagnostic::global(isa::Severity::Error, message)],
        }
    }

    /// An exhausted budget: names the parameter and its value.
    pub fn budget(name: &str, limit: impl std::fmt::Display, what: &str) -> Self {
        SimError::request(format!(
            "simulation stopped: {what} exceeds the budget {name} = {limit} (raise {name})"
        ))
    }

    /// Whether `message` is [`SimError::budget`]'s for the budget `name`: what a mode that
    /// shares one time allowance between a run and an analysis reads from a run that stopped.
    pub fn is_budget_stop(message: &str, name: &str) -> bool {
        message.starts_with("simulation stopped: ")
            && message.contains(&format!(" exceeds the budget {name} = "))
    }

    /// The first message (for tests and plain-text output).
    pub fn message(&self) -> &str {
        self.diagnostics.first().map_or("", |d| d.message.as_str())
    }
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, d) in self.diagnostics.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SimError {}
