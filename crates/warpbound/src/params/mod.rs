//! A request's parameters resolved against its mode's declaration ([`ParamInfo`] list).
//!
//! Every declared parameter gets one value — the request's, else the preset's, else the
//! catalogue default — checked once against its kind and range, and remembering where it
//! came from ([`ParamSource`]): the report lists them so the page can mark each field, and a
//! mode can tell "the user asked for 16 units" from "16 is the default" (the makespan
//! mode's configuration file sits between the two).
//!
//! Modes read the values once, into their own typed parameter struct, at the start of their
//! run. Reading a name the mode did not declare is an internal error, never a silent zero;
//! and a test runs every mode to check that it reads each parameter it declares.

pub mod gcn_args;
pub mod gcn_kernarg;
pub mod its;
pub mod kernel_args;
pub mod limits;
pub mod loop_bounds;
pub mod number;
pub mod sass_args;

pub use loop_bounds::LoopBounds;

use crate::catalog::{ModeInfo, ParamInfo, ParamKind, PresetInfo};
use crate::report::{ParamSource, ResolvedParam};
use isa::{Diagnostic, Severity};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

/// A checked parameter value. Choices are `Text` (one of the declared choices).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Number(f64),
    Flag(bool),
    Text(String),
}

impl Value {
    /// The value as the report writes it: whole numbers without a fraction.
    fn to_json(&self) -> serde_json::Value {
        match self {
            Value::Number(v) if v.fract() == 0.0 && v.abs() < 9.0e15 => {
                serde_json::json!(*v as i64)
            }
            Value::Number(v) => serde_json::json!(v),
            Value::Flag(b) => serde_json::json!(b),
            Value::Text(t) => serde_json::json!(t),
        }
    }
}

/// One declared parameter with its resolved value.
#[derive(Debug, Clone)]
struct Entry {
    name: String,
    value: Value,
    source: ParamSource,
}

/// The resolved parameters of one request, in declaration order.
#[derive(Debug)]
pub struct Params {
    mode: String,
    entries: Vec<Entry>,
    /// Names a mode has read: what the declared-versus-read test compares.
    read: RefCell<BTreeSet<String>>,
}

impl Params {
    /// The resolved parameters for the report.
    pub fn listing(&self) -> Vec<ResolvedParam> {
        self.entries
            .iter()
            .map(|e| ResolvedParam {
                name: e.name.clone(),
                value: e.value.to_json(),
                source: e.source,
            })
            .collect()
    }

    fn entry(&self, name: &str) -> Result<&Entry, Diagnostic> {
        self.read.borrow_mut().insert(name.to_string());
        self.entries.iter().find(|e| e.name == name).ok_or_else(|| {
            Diagnostic::global(
                Severity::Error,
                format!(
                    "internal: mode `{}` reads a parameter it does not declare: `{name}`",
                    self.mode
                ),
            )
        })
    }

    fn wrong_kind(&self, name: &str, wanted: &str) -> Diagnostic {
        Diagnostic::global(
            Severity::Error,
            format!(
                "internal: mode `{}` reads `{name}` as a {wanted}, which it is not declared as",
                self.mode
            ),
        )
    }

    /// Where `name`'s value came from.
    pub fn source(&self, name: &str) -> Result<ParamSource, Diagnostic> {
        self.entry(name).map(|e| e.source)
    }

    /// An on/off parameter.
    pub fn flag(&self, name: &str) -> Result<bool, Diagnostic> {
        match self.entry(name)?.value {
            Value::Flag(b) => Ok(b),
            _ => Err(self.wrong_kind(name, "flag")),
        }
    }

    /// A number parameter (within its declared range).
    pub fn number(&self, name: &str) -> Result<f64, Diagnostic> {
        match self.entry(name)?.value {
            Value::Number(v) => Ok(v),
            _ => Err(self.wrong_kind(name, "number")),
        }
    }

    /// A number parameter as a count: the fraction dropped, negative values 0, and values
    /// beyond `u64` saturated (ranges keep real requests far below).
    pub fn u64(&self, name: &str) -> Result<u64, Diagnostic> {
        // `as` from f64 saturates and maps NaN to 0.
        self.number(name).map(|v| v as u64)
    }

    /// [`Params::u64`], saturated to `u32`.
    pub fn u32(&self, name: &str) -> Result<u32, Diagnostic> {
        self.u64(name).map(|v| u32::try_from(v).unwrap_or(u32::MAX))
    }

    /// [`Params::u64`], saturated to `usize`.
    pub fn usize(&self, name: &str) -> Result<usize, Diagnostic> {
        self.u64(name)
            .map(|v| usize::try_from(v).unwrap_or(usize::MAX))
    }

    /// A text or choice parameter.
    pub fn text(&self, name: &str) -> Result<&str, Diagnostic> {
        match &self.entry(name)?.value {
            Value::Text(t) => Ok(t),
            _ => Err(self.wrong_kind(name, "text")),
        }
    }

    /// A text parameter holding comma-separated whole numbers (`1024,768`), `min..=max` of
    /// them; the error names the parameter.
    pub fn numbers(&self, name: &str, min: usize, max: usize) -> Result<Vec<u64>, Diagnostic> {
        let text = self.text(name)?;
        let bad = || {
            Diagnostic::global(
                Severity::Error,
                format!(
                    "parameter `{name}` = `{text}`: expected {} whole number{} separated by commas",
                    if min == max {
                        min.to_string()
                    } else {
                        format!("{min} to {max}")
                    },
                    if max == 1 { "" } else { "s" }
                ),
            )
        };
        if text.trim().is_empty() {
            return if min == 0 { Ok(Vec::new()) } else { Err(bad()) };
        }
        let v: Option<Vec<u64>> = text.split(',').map(number::unsigned).collect();
        match v {
            Some(v) if (min..=max).contains(&v.len()) => Ok(v),
            _ => Err(bad()),
        }
    }

    /// Declared names no mode code has read yet (what the declared-versus-read test checks).
    pub fn unread(&self) -> Vec<String> {
        let read = self.read.borrow();
        self.entries
            .iter()
            .filter(|e| !read.contains(&e.name))
            .map(|e| e.name.clone())
            .collect()
    }
}

/// Resolves the request's `overrides` over `preset`'s values over the defaults of `mode`.
/// Unknown names, non-numbers, out-of-range values and unknown choices in the request are
/// request-level errors in `diags` naming the parameter (the value then stays the preset's
/// or the default); a preset or default that does not fit its declaration is an internal
/// error (the catalogue tests rule that out).
pub fn resolve(
    mode: &ModeInfo,
    preset: Option<&PresetInfo>,
    overrides: &BTreeMap<String, serde_json::Value>,
    diags: &mut Vec<Diagnostic>,
) -> Params {
    let mut out = Params {
        mode: mode.name.clone(),
        entries: Vec::with_capacity(mode.params.len()),
        read: RefCell::new(BTreeSet::new()),
    };
    for p in &mode.params {
        let value = check(p, &p.default).unwrap_or_else(|why| {
            diags.push(internal(&mode.name, "default", &why));
            Value::Number(0.0)
        });
        out.entries.push(Entry {
            name: p.name.clone(),
            value,
            source: ParamSource::Default,
        });
    }
    let mut set = |name: &str, value: &serde_json::Value, source: ParamSource| {
        let Some(i) = mode.params.iter().position(|p| p.name == name) else {
            return Err(unknown(mode, name));
        };
        let value = check(&mode.params[i], value)?;
        out.entries[i].value = value;
        out.entries[i].source = source;
        Ok(())
    };
    if let Some(preset) = preset {
        for (name, value) in &preset.values {
            if let Err(why) = set(name, value, ParamSource::Preset) {
                diags.push(internal(
                    &mode.name,
                    &format!("preset `{}`", preset.name),
                    &why,
                ));
            }
        }
    }
    for (name, value) in overrides {
        if let Err(why) = set(name, value, ParamSource::Request) {
            diags.push(Diagnostic::global(Severity::Error, why));
        }
    }
    out
}

fn internal(mode: &str, what: &str, why: &str) -> Diagnostic {
    Diagnostic::global(
        Severity::Error,
        format!("internal: mode `{mode}`, {what}: {why}"),
    )
}

/// The message for a name the mode does not declare, with the nearest declared name.
fn unknown(mode: &ModeInfo, name: &str) -> String {
    let known: Vec<&str> = mode.params.iter().map(|p| p.name.as_str()).collect();
    let hint = isa::spelling::nearest(name, known.iter().copied(), 2)
        .map(|(near, _)| format!(" (did you mean `{near}`?)"))
        .unwrap_or_default();
    format!(
        "mode `{}` has no parameter `{name}`{hint}; it has: {}",
        mode.name,
        known.join(", ")
    )
}

/// Checks one value against its declaration; the error says what is expected.
fn check(info: &ParamInfo, value: &serde_json::Value) -> Result<Value, String> {
    let name = &info.name;
    match info.kind {
        ParamKind::Number => {
            let v = match value {
                serde_json::Value::Number(n) => n.as_f64(),
                serde_json::Value::String(s) => number::real(s),
                _ => None,
            }
            .ok_or_else(|| format!("parameter `{name}` must be a number, got {value}"))?;
            if v >= info.min && v <= info.max {
                Ok(Value::Number(v))
            } else {
                Err(format!(
                    "parameter `{name}` = {v} is outside {}..={} {}",
                    info.min, info.max, info.unit
                ))
            }
        }
        ParamKind::Flag => flag(value)
            .map(Value::Flag)
            .ok_or_else(|| format!("parameter `{name}` is on or off (true/false), got {value}")),
        ParamKind::Text => {
            let text = match value {
                serde_json::Value::String(s) => Some(s.trim().to_string()),
                serde_json::Value::Number(n) => Some(n.to_string()),
                serde_json::Value::Array(items) => items
                    .iter()
                    .map(|v| v.as_number().map(ToString::to_string))
                    .collect::<Option<Vec<String>>>()
                    .map(|parts| parts.join(",")),
                _ => None,
            };
            match text {
                Some(t) if t.len() <= 100_000 => Ok(Value::Text(t)),
                _ => Err(format!(
                    "parameter `{name}` must be text ({}), got {value}",
                    info.meaning
                )),
            }
        }
        ParamKind::Choice => {
            let text = value
                .as_str()
                .map(str::to_string)
                .unwrap_or(value.to_string());
            if info.choices.contains(&text) {
                Ok(Value::Text(text))
            } else {
                Err(format!(
                    "parameter `{name}` is one of {}, got {value}",
                    info.choices.join(", ")
                ))
            }
        }
    }
}

fn flag(v: &serde_json::Value) -> Option<bool> {
    match v {
        serde_json::Value::Bool(b) => Some(*b),
        serde_json::Value::Number(n) => match n.as_u64() {
            Some(0) => Some(false),
            Some(1) => Some(true),
            _ => None,
        },
        serde_json::Value::String(s) => match s.trim() {
            "true" | "1" | "on" | "yes" => Some(true),
            "false" | "0" | "off" | "no" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode() -> ModeInfo {
        ModeInfo {
            name: "m".into(),
            aliases: Vec::new(),
            title: String::new(),
            description: String::new(),
            dialects: Vec::new(),
            params: {
                let mut v = limits::params();
                v.push(ParamInfo::flag("simulate", "", false));
                v
            },
            presets: Vec::new(),
            default_presets: BTreeMap::new(),
        }
    }

    #[test]
    fn request_over_preset_over_default_with_provenance() {
        let m = mode();
        let preset = PresetInfo {
            name: "p".into(),
            source: String::new(),
            values: BTreeMap::from([
                ("max_instructions".to_string(), serde_json::json!(700)),
                ("max_cfg_states".to_string(), serde_json::json!(9)),
            ]),
        };
        let o = BTreeMap::from([("max_instructions".to_string(), serde_json::json!("0x1f4"))]);
        let mut diags = Vec::new();
        let p = resolve(&m, Some(&preset), &o, &mut diags);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(p.usize("max_instructions"), Ok(500));
        assert_eq!(p.source("max_instructions"), Ok(ParamSource::Request));
        assert_eq!(p.usize("max_cfg_states"), Ok(9));
        assert_eq!(p.source("max_cfg_states"), Ok(ParamSource::Preset));
        assert_eq!(
            p.usize("max_input_bytes"),
            Ok(isa::Limits::default().max_input_bytes)
        );
        assert_eq!(p.source("max_input_bytes"), Ok(ParamSource::Default));
        let listed = p.listing();
        assert_eq!(listed[1].value, serde_json::json!(500));
        assert_eq!(listed[3].value, serde_json::json!(false));
    }

    #[test]
    fn unknown_names_and_bad_values_are_errors() {
        let o = BTreeMap::from([
            ("max_instruction".to_string(), serde_json::json!(1)),
            ("max_cfg_states".to_string(), serde_json::json!(0)),
            ("simulate".to_string(), serde_json::json!("maybe")),
        ]);
        let mut diags = Vec::new();
        let p = resolve(&mode(), None, &o, &mut diags);
        // In the request's (name) order.
        let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(diags.len(), 3, "{messages:?}");
        assert!(messages[0].contains("`max_cfg_states` = 0 is outside"));
        assert!(messages[1].contains("no parameter `max_instruction`"));
        assert!(messages[1].contains("did you mean `max_instructions`?"));
        assert!(messages[2].contains("on or off"));
        // The rejected values leave the defaults in place.
        assert_eq!(p.source("max_cfg_states"), Ok(ParamSource::Default));
    }

    #[test]
    fn reading_an_undeclared_name_is_an_internal_error() {
        let p = resolve(&mode(), None, &BTreeMap::new(), &mut Vec::new());
        let e = p.flag("simulat").expect_err("undeclared");
        assert!(e.message.contains("internal"), "{}", e.message);
        assert!(p.number("simulate").is_err());
        assert!(p.unread().contains(&"max_input_bytes".to_string()));
    }
}
