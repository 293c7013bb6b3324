//! Reading a request's parameter overrides against a mode's [`ParamInfo`] list.

use crate::catalog::{ParamInfo, ParamKind};
use isa::{Diagnostic, Severity};
use std::collections::BTreeMap;

/// Resolved parameters: every parameter of the mode, override or default. Flags are stored
/// as 0/1 and choices as their text.
#[derive(Debug, Clone, Default)]
pub struct Params {
    values: BTreeMap<String, f64>,
    choices: BTreeMap<String, String>,
}

impl Params {
    pub fn flag(&self, name: &str) -> bool {
        self.get(name) != 0.0
    }

    /// A flag that only some modes declare: `default` where this mode has no such parameter.
    pub fn flag_or(&self, name: &str, default: bool) -> bool {
        self.values.get(name).map_or(default, |&v| v != 0.0)
    }

    pub fn choice(&self, name: &str) -> &str {
        self.choices.get(name).map_or("", String::as_str)
    }

    /// A text parameter's value (see [`crate::catalog::ParamKind::Text`]).
    pub fn text(&self, name: &str) -> &str {
        self.choice(name)
    }

    /// A text parameter holding comma-separated whole numbers (`1024,768`), checked for
    /// its count (`min..=max` numbers); the error names the parameter.
    pub fn numbers(&self, name: &str, min: usize, max: usize) -> Result<Vec<u64>, Diagnostic> {
        let text = self.text(name);
        let bad =
            || {
                Diagnostic::global(
                    Severity::Error,
                    format!(
                    "parameter `{name}` = `{text}`: expected {} whole number{} separated by commas",
                    if min == max { min.to_string() } else { format!("{min} to {max}") },
                    if max == 1 { "" } else { "s" }
                ),
                )
            };
        if text.trim().is_empty() {
            return if min == 0 { Ok(Vec::new()) } else { Err(bad()) };
        }
        let v: Option<Vec<u64>> = text
            .split(',')
            .map(|t| {
                parse_number(t)
                    .filter(|x| x.fract() == 0.0 && *x >= 0.0 && *x < 9.0e15)
                    .map(|x| x as u64)
            })
            .collect();
        match v {
            Some(v) if (min..=max).contains(&v.len()) => Ok(v),
            _ => Err(bad()),
        }
    }

    /// Value of `name`; modes only ask for names they declared, so absence is a bug caught
    /// in tests, and the fallback is the neutral 0.
    pub fn get(&self, name: &str) -> f64 {
        self.values.get(name).copied().unwrap_or(0.0)
    }

    pub fn get_usize(&self, name: &str) -> usize {
        let v = self.get(name);
        if v.is_finite() && v > 0.0 {
            v.min(usize::MAX as f64) as usize
        } else {
            0
        }
    }
}

/// Checks `overrides` against `declared`: unknown names, non-numbers and out-of-range values
/// are request-level errors naming the parameter and its valid range.
pub fn resolve(
    declared: &[ParamInfo],
    overrides: &BTreeMap<String, serde_json::Value>,
    mode: &str,
    diags: &mut Vec<Diagnostic>,
) -> Params {
    let mut out = Params::default();
    for p in declared {
        match p.kind {
            ParamKind::Choice | ParamKind::Text => {
                out.choices
                    .insert(p.name.clone(), p.default.as_str().unwrap_or("").to_string());
            }
            ParamKind::Flag => {
                let on = p.default.as_bool().unwrap_or(false);
                out.values.insert(p.name.clone(), f64::from(u8::from(on)));
            }
            ParamKind::Number => {
                out.values
                    .insert(p.name.clone(), p.default.as_f64().unwrap_or(0.0));
            }
        }
    }
    for (name, value) in overrides {
        let Some(info) = declared.iter().find(|p| &p.name == name) else {
            let known: Vec<&str> = declared.iter().map(|p| p.name.as_str()).collect();
            diags.push(Diagnostic::global(
                Severity::Error,
                format!(
                    "mode `{mode}` has no parameter `{name}` (it has: {})",
                    known.join(", ")
                ),
            ));
            continue;
        };
        match info.kind {
            ParamKind::Number => {
                let number = match value {
                    serde_json::Value::Number(n) => n.as_f64(),
                    serde_json::Value::String(s) => parse_number(s),
                    _ => None,
                };
                match number {
                    Some(v) if v >= info.min && v <= info.max => {
                        out.values.insert(name.clone(), v);
                    }
                    Some(v) => diags.push(Diagnostic::global(
                        Severity::Error,
                        format!(
                            "parameter `{name}` = {v} is outside {}..={} {}",
                            info.min, info.max, info.unit
                        ),
                    )),
                    None => diags.push(Diagnostic::global(
                        Severity::Error,
                        format!("parameter `{name}` must be a number, got {value}"),
                    )),
                }
            }
            ParamKind::Flag => match parse_flag(value) {
                Some(on) => {
                    out.values.insert(name.clone(), f64::from(u8::from(on)));
                }
                None => diags.push(Diagnostic::global(
                    Severity::Error,
                    format!("parameter `{name}` is on or off (true/false), got {value}"),
                )),
            },
            ParamKind::Text => {
                let text = match value {
                    serde_json::Value::String(s) => Some(s.trim().to_string()),
                    serde_json::Value::Number(n) => Some(n.to_string()),
                    serde_json::Value::Array(items) => {
                        let parts: Option<Vec<String>> = items
                            .iter()
                            .map(|v| v.as_number().map(|n| n.to_string()))
                            .collect();
                        parts.map(|p| p.join(","))
                    }
                    _ => None,
                };
                match text {
                    Some(t) if t.len() <= 100_000 => {
                        out.choices.insert(name.clone(), t);
                    }
                    _ => diags.push(Diagnostic::global(
                        Severity::Error,
                        format!(
                            "parameter `{name}` must be text ({}), got {value}",
                            info.meaning
                        ),
                    )),
                }
            }
            ParamKind::Choice => {
                let text = value
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or(value.to_string());
                if info.choices.contains(&text) {
                    out.choices.insert(name.clone(), text);
                } else {
                    diags.push(Diagnostic::global(
                        Severity::Error,
                        format!(
                            "parameter `{name}` is one of {}, got {value}",
                            info.choices.join(", ")
                        ),
                    ));
                }
            }
        }
    }
    out
}

fn parse_flag(v: &serde_json::Value) -> Option<bool> {
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

fn parse_number(s: &str) -> Option<f64> {
    let t = s.trim();
    if let Some(hex) = t.strip_prefix("0x") {
        return u64::from_str_radix(hex, 16).ok().map(|v| v as f64);
    }
    t.parse::<f64>().ok().filter(|v| v.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::budget_params;

    #[test]
    fn overrides_defaults_and_errors() {
        let declared = budget_params();
        let mut o = BTreeMap::new();
        o.insert("max_instructions".to_string(), serde_json::json!("500"));
        o.insert("bogus".to_string(), serde_json::json!(1));
        o.insert("max_cfg_states".to_string(), serde_json::json!(0));
        let mut diags = Vec::new();
        let p = resolve(&declared, &o, "cfg", &mut diags);
        assert_eq!(p.get_usize("max_instructions"), 500);
        assert_eq!(
            p.get_usize("max_input_bytes"),
            isa::Limits::default().max_input_bytes
        );
        assert_eq!(diags.len(), 2);
        assert!(diags[0].message.contains("no parameter `bogus`"));
        assert!(diags[1].message.contains("outside"));
    }
}
