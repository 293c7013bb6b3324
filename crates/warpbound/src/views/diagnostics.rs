//! The report's `diagnostics`: each message the page lists under the editor and marks in
//! the text, as the facade spells it. The modes and the method crates make `isa::Diagnostic`s;
//! [`crate::analyze()`] converts them here, once, when the report is finished, so a change
//! inside `isa` cannot change the JSON.

use crate::views::wire_view::wire_enum;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

wire_enum! {
    /// How bad a diagnostic is (`isa::Severity`). `error` means the requested result could not
    /// be produced (the CLI exits 1); warnings and notes accompany a result. Ordered as the
    /// report sorts: errors first.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
    #[serde(rename_all = "lowercase")]
    pub enum Severity mirrors isa::Severity {
        Error,
        Warning,
        Note,
    }
}

wire_enum! {
    /// Which step of the request a diagnostic comes from (`isa::Stage`), so a user can tell "my
    /// kernel does not parse" from "the analysis cannot bound it" from "the simulator cannot
    /// run it".
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
    #[serde(rename_all = "lowercase")]
    pub enum Stage mirrors isa::Stage {
        /// The request itself: a parameter, a mode, a dialect.
        Request,
        /// Reading the kernel text.
        Parse,
        /// The mode's analysis (graphs, bounds, schedules).
        Analysis,
        /// A simulator run.
        Simulation,
    }
}

/// A message tied to a place in the input (`isa::Diagnostic`): what the page lists and
/// underlines. Line and column are 1-based; a diagnostic about the request as a whole uses
/// line 0, column 0.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub struct Diagnostic {
    pub severity: Severity,
    pub line: u32,
    pub column: u32,
    /// Length of the offending text in characters (0 when it is a point).
    pub len: u32,
    pub message: String,
    /// The step it comes from; absent where no one said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stage: Option<Stage>,
}

impl Diagnostic {
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl std::fmt::Display for Diagnostic {
    /// As `isa::Diagnostic` prints (its `Display` is the one format): `line:column:
    /// severity: message`, or `severity: message` for the request (line 0).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        isa::Diagnostic::from(self).fmt(f)
    }
}

impl From<&Diagnostic> for isa::Diagnostic {
    fn from(d: &Diagnostic) -> Self {
        isa::Diagnostic {
            severity: d.severity.into(),
            line: d.line,
            column: d.column,
            len: d.len,
            message: d.message.clone(),
            stage: d.stage.map(isa::Stage::from),
        }
    }
}

impl From<isa::Diagnostic> for Diagnostic {
    fn from(d: isa::Diagnostic) -> Self {
        Diagnostic {
            severity: d.severity.into(),
            line: d.line,
            column: d.column,
            len: d.len,
            message: d.message,
            stage: d.stage.map(Stage::from),
        }
    }
}

impl From<&isa::Diagnostic> for Diagnostic {
    fn from(d: &isa::Diagnostic) -> Self {
        Diagnostic::from(d.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use isa::Span;

    #[test]
    fn converted_diagnostics_print_and_sort_as_isa_s() {
        let made = [
            isa::Diagnostic::note(Span::new(3, 2, 1), "n"),
            isa::Diagnostic::error(Span::new(3, 2, 4), "e").in_stage(isa::Stage::Parse),
            isa::Diagnostic::global(isa::Severity::Warning, "w"),
        ];
        for d in &made {
            let view = Diagnostic::from(d);
            assert_eq!(view.to_string(), d.to_string());
            assert_eq!(view.is_error(), d.is_error());
        }
        let key = |s: isa::Severity| Severity::from(s);
        assert!(key(isa::Severity::Error) < key(isa::Severity::Warning));
        assert!(key(isa::Severity::Warning) < key(isa::Severity::Note));
        let json = serde_json::to_string(&Diagnostic::from(&made[1])).expect("json");
        assert_eq!(
            json,
            r#"{"severity":"error","line":3,"column":2,"len":4,"message":"e","stage":"parse"}"#
        );
        let json = serde_json::to_string(&Diagnostic::from(&made[2])).expect("json");
        assert_eq!(
            json,
            r#"{"severity":"warning","line":0,"column":0,"len":0,"message":"w"}"#
        );
    }
}
