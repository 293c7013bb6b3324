//! The strict front end: what an opcode outside the [`isa_table`](super::isa_table) may be,
//! and which operand names must be real registers.
//!
//! House rule: an unknown opcode is analysed generically (first operand written, the rest
//! read) with a *warning* naming it — unless treating it generically could hide a change
//! of control flow, divergence or agreement. Then it is an *error*. The rules, in order:
//!
//! 1. **Family.** The name belongs to a control or execute-mask family: `s_cbranch_*`,
//!    `s_branch*`, `s_call*`, `s_endpgm*`, `s_rfe*`, `s_trap*`, `s_*pc*` (program
//!    counter), `s_set*` (machine state), `s_*exec*` or `v_cmpx*` (execute mask).
//! 2. **Writes.** By the generic rule plus the implicit writes the parser knows from the
//!    name (`s_cmp*` and the SCC-setting ALU prefixes, `*saveexec*`, `v_cmpx*`, carry
//!    outs), it writes `exec`, `vcc` or `scc`.
//! 3. **Neighbour.** A table name within Damerau–Levenshtein distance 2
//!    ([`spelling::MAX_HINT_DISTANCE`]) is a control, execute-mask or condition
//!    instruction ([`Role::is_critical`]).
//!
//! Every message says how the opcode is (or would be) treated and, when a table name is
//! within distance 2, asks "did you mean …?".
//!
//! Register names: an operand that is a plain identifier of three or more characters,
//! within distance 2 of a named register (`exec`, `vcc_hi`, `flat_scratch`, ...), not
//! itself a known operand word (`off`, export targets) and not a symbol defined in the
//! listing, is an error "unknown register" with the hint.

use std::collections::HashMap;

use super::isa_table::{entries, Role};
use super::program::GcnReg;
use super::spelling::{self, MAX_HINT_DISTANCE};

/// Named registers of GFX8/GFX9 as LLVM spells them (AMDGPU operand syntax).
pub(crate) const SPECIAL_REGISTERS: &[&str] = &[
    "exec",
    "exec_lo",
    "exec_hi",
    "vcc",
    "vcc_lo",
    "vcc_hi",
    "scc",
    "m0",
    "flat_scratch",
    "flat_scratch_lo",
    "flat_scratch_hi",
    "xnack_mask",
    "xnack_mask_lo",
    "xnack_mask_hi",
    "tba",
    "tba_lo",
    "tba_hi",
    "tma",
    "tma_lo",
    "tma_hi",
    "vccz",
    "execz",
    "src_scc",
    "src_execz",
    "src_vccz",
    "lds_direct",
    "src_lds_direct",
    "src_shared_base",
    "src_shared_limit",
    "src_private_base",
    "src_private_limit",
    "src_pops_exiting_wave_id",
    "shared_base",
    "shared_limit",
    "private_base",
    "private_limit",
    "pops_exiting_wave_id",
];

/// Operand words that are neither registers nor symbols: `off` (no address/offset
/// register) and the export targets of `exp`.
fn is_operand_keyword(w: &str) -> bool {
    if matches!(w, "off" | "mrtz" | "null") {
        return true;
    }
    let numbered = |prefix: &str, max: u32| {
        w.strip_prefix(prefix)
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| n <= max)
    };
    numbered("mrt", 7) || numbered("pos", 3) || numbered("param", 31)
}

/// Verdict on one unknown opcode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verdict {
    Warning(String),
    Error(String),
}

/// The name-only facts about an unknown mnemonic, computed once per parse.
#[derive(Debug, Clone)]
struct NameFacts {
    family: Option<&'static str>,
    /// Nearest table names (with the unknown's encoding suffix re-attached when it fits).
    hints: Vec<String>,
    /// The role of the first nearest name that is critical, if any.
    critical_neighbour: Option<(String, Role)>,
}

/// Per-parse cache of [`NameFacts`].
#[derive(Default)]
pub(crate) struct UnknownOpcodes {
    cache: HashMap<String, NameFacts>,
}

impl UnknownOpcodes {
    /// The verdict on `opcode` (lower case, not in the table) whose registers written — by
    /// the generic rule and the name's implicit writes — are `writes`.
    pub(crate) fn judge(&mut self, opcode: &str, writes: &[GcnReg]) -> Verdict {
        let facts = self
            .cache
            .entry(opcode.to_string())
            .or_insert_with(|| name_facts(opcode))
            .clone();
        let hint = if facts.hints.is_empty() {
            String::new()
        } else {
            let names: Vec<&str> = facts.hints.iter().map(String::as_str).collect();
            format!("; did you mean {}?", spelling::or_list(&names))
        };
        let generic = "treated generically (first operand written, the rest read)";
        if let Some(why) = facts.family {
            return Verdict::Error(format!(
                "unknown opcode `{opcode}`: {why}; it must be recognised, not {generic}{hint}"
            ));
        }
        let critical: Vec<&str> = writes
            .iter()
            .filter_map(|r| match r {
                GcnReg::Exec => Some("exec"),
                GcnReg::Vcc => Some("vcc"),
                GcnReg::Scc => Some("scc"),
                _ => None,
            })
            .collect();
        if !critical.is_empty() {
            return Verdict::Error(format!(
                "unknown opcode `{opcode}` would write {} (first operand written, the rest read, plus the writes its name implies), which decides branches and the execute mask; it must be recognised{hint}",
                spelling::or_list(&critical).replace(" or ", " and ")
            ));
        }
        if let Some((name, role)) = facts.critical_neighbour {
            let what = match role {
                Role::Control => "a control-flow instruction",
                Role::ExecMask => "an execute-mask instruction",
                _ => "a compare that sets a branch condition",
            };
            return Verdict::Error(format!(
                "unknown opcode `{opcode}`{hint} `{name}` is {what}; a misspelling of it must not be {generic}, as that could hide a change of control flow, divergence or agreement"
            ));
        }
        Verdict::Warning(format!("unknown opcode `{opcode}`: {generic}{hint}"))
    }
}

/// Rule 1: the control and execute-mask families.
fn family(opcode: &str) -> Option<&'static str> {
    let s = opcode.strip_prefix("s_");
    if let Some(rest) = s {
        if ["cbranch", "branch", "call", "endpgm", "rfe", "trap"]
            .iter()
            .any(|p| rest.starts_with(p))
        {
            return Some("`s_cbranch_*`, `s_branch*`, `s_call*`, `s_endpgm*`, `s_rfe*` and `s_trap*` change control flow");
        }
        if rest.contains("pc") {
            return Some("`s_*pc*` instructions read or write the program counter");
        }
        if rest.starts_with("set") {
            return Some("`s_set*` instructions set machine state (hardware registers, halting, VSKIP, GPR indexing)");
        }
        if rest.contains("exec") {
            return Some("`s_*exec*` instructions write the execute mask");
        }
    }
    if opcode.starts_with("v_cmpx") {
        return Some("`v_cmpx*` instructions write the execute mask");
    }
    None
}

fn name_facts(opcode: &str) -> NameFacts {
    let names = || entries().iter().map(|e| e.name.as_str());
    let (mut best, mut hits) = spelling::nearest(opcode, names());
    let mut hints: Vec<String> = hits.iter().map(|h| h.to_string()).collect();
    // A known encoding suffix on a misspelt stem: compare the stem too.
    for suffix in ["_e32", "_e64", "_sdwa", "_dpp"] {
        if let Some(stem) = opcode.strip_suffix(suffix) {
            let (d, h) = spelling::nearest(stem, names());
            if d < best {
                best = d;
                hits = h;
                hints = hits
                    .iter()
                    .map(|n| {
                        let fits = entries()
                            .iter()
                            .find(|e| e.name == *n)
                            .is_some_and(|e| e.encoding.suffixes().contains(&suffix));
                        if fits {
                            format!("{n}{suffix}")
                        } else {
                            n.to_string()
                        }
                    })
                    .collect();
            }
        }
    }
    let critical_neighbour = if best <= MAX_HINT_DISTANCE {
        hits.iter().find_map(|n| {
            entries()
                .iter()
                .find(|e| e.name == *n && e.role.is_critical())
                .map(|e| (e.name.clone(), e.role))
        })
    } else {
        None
    };
    NameFacts {
        family: family(opcode),
        hints,
        critical_neighbour,
    }
}

/// The hint for a plain-identifier operand that looks like a misspelt register, or `None`
/// when it is a register, a keyword, too short, or not close to any register name.
pub(crate) fn misspelt_register(word: &str) -> Option<String> {
    let lower = word.to_ascii_lowercase();
    let ident = lower
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && lower.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !ident
        || lower.len() < 3
        || SPECIAL_REGISTERS.contains(&lower.as_str())
        || is_operand_keyword(&lower)
    {
        return None;
    }
    // Trap temporaries `ttmp0`–`ttmp15` are candidates too (they parse as registers).
    let ttmps: Vec<String> = (0..16).map(|i| format!("ttmp{i}")).collect();
    let (_, hits) = spelling::nearest(
        &lower,
        SPECIAL_REGISTERS
            .iter()
            .copied()
            .chain(ttmps.iter().map(String::as_str)),
    );
    (!hits.is_empty()).then(|| {
        format!(
            "unknown register `{word}`: did you mean {}? (a misspelt register would be read as a symbol)",
            spelling::or_list(&hits)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(op: &str, writes: &[GcnReg]) -> Verdict {
        UnknownOpcodes::default().judge(op, writes)
    }

    #[test]
    fn misspelt_branch_is_an_error_with_a_hint() {
        let Verdict::Error(m) = judge("s_cbranch_exez", &[]) else {
            panic!("expected an error")
        };
        assert!(m.contains("`s_cbranch_execz`"), "{m}");
    }

    #[test]
    fn unknown_writers_of_exec_vcc_scc_are_errors() {
        assert!(matches!(
            judge("v_future_b32", &[GcnReg::Vcc]),
            Verdict::Error(_)
        ));
        assert!(matches!(
            judge("s_future_b32", &[GcnReg::Scc]),
            Verdict::Error(_)
        ));
        assert!(matches!(judge("s_getpcx", &[]), Verdict::Error(_)));
        assert!(matches!(judge("s_setfoo", &[]), Verdict::Error(_)));
        assert!(matches!(judge("s_foo_exec", &[]), Verdict::Error(_)));
    }

    #[test]
    fn near_a_compare_is_an_error_far_from_everything_a_warning() {
        let Verdict::Error(m) = judge("v_cmp_gt_u23", &[GcnReg::Vgpr(1)]) else {
            panic!("expected an error")
        };
        assert!(m.contains("`v_cmp_gt_u32`"), "{m}");
        let Verdict::Warning(m) = judge("v_add_f23_e32", &[GcnReg::Vgpr(1)]) else {
            panic!("expected a warning")
        };
        assert!(m.contains("`v_add_f32_e32`"), "{m}");
        let Verdict::Warning(m) = judge("v_future_op_b32", &[GcnReg::Vgpr(1)]) else {
            panic!("expected a warning")
        };
        assert!(!m.contains("did you mean"), "{m}");
    }

    #[test]
    fn register_misspellings() {
        assert!(misspelt_register("exce").is_some_and(|m| m.contains("`exec`")));
        assert!(misspelt_register("vcc_h1").is_some_and(|m| m.contains("`vcc_hi`")));
        assert!(misspelt_register("tmp5").is_some_and(|m| m.contains("`ttmp5`")));
        assert!(misspelt_register("exec").is_none());
        assert!(misspelt_register("mrt0").is_none());
        assert!(misspelt_register("off").is_none());
        assert!(misspelt_register("my_symbol").is_none());
    }
}
