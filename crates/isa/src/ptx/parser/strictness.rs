//! What the parser says about an opcode or modifier the ISA table does not know: a warning,
//! or an error when it could hide control flow (see [`Parser::check_opcode`]).

use super::Parser;
use crate::ptx::instruction::Instruction;
use crate::ptx::isa_table::{self, OpClass};

impl<'a> Parser<'a> {
    /// The strictness rules for opcodes and modifiers (README "PTX strictness"):
    ///
    /// 1. An opcode in the ISA table with every modifier listed for it: accepted.
    /// 2. A known opcode with a modifier the table does not list for it:
    ///    - an **error** when the opcode is a control, barrier or warp-collective instruction
    ///      (`bar.uni` is not `bra.uni`; `shfl.snyc` is not `shfl.sync`): a misread there
    ///      changes control flow, divergence or agreement;
    ///    - an **error** when the modifier is within edit distance 2 of a state space
    ///      (`ld.globl`): the space decides which memory the access reads or writes, and a
    ///      generic reading would silently change the address interpretation and its cost;
    ///    - otherwise a **warning** ("ignored"), with the nearest valid modifier.
    /// 3. An opcode not in the table: a **warning** naming it, saying it is read generically
    ///    (first operand written, the rest read), with "did you mean" from the nearest table
    ///    name (edit distance ≤ 2); an **error** instead when that nearest name is a control,
    ///    barrier or warp-collective instruction, or when the instruction writes a predicate.
    pub(super) fn check_opcode(&mut self, ins: &Instruction, writes_pred: bool) {
        // The common case first, without building any string.
        if let Some((info, taken)) = isa_table::lookup(&ins.opcode, &ins.modifiers) {
            if ins.modifiers.iter().skip(taken).all(|m| info.allows(m)) {
                return;
            }
        }
        let mnemonic = ins.mnemonic();
        let span = ins.opcode_span;
        match isa_table::lookup(&ins.opcode, &ins.modifiers) {
            Some((info, taken)) => {
                for m in ins.modifiers.iter().skip(taken) {
                    if info.allows(m) {
                        continue;
                    }
                    let near_mod = info
                        .modifiers()
                        .filter(|x| x.len().abs_diff(m.len()) <= 2)
                        .map(|x| (isa_table::edit_distance(m, x), x))
                        .min_by_key(|(d, _)| *d)
                        .filter(|(d, _)| *d <= 2);
                    // The nearer of: another opcode that takes every modifier written
                    // (`bar.uni` → `bra.uni`), or a modifier of this one (`.snyc` → `.sync`);
                    // a tie goes to the modifier.
                    let hint = match (swapped_opcode(ins, info.name), near_mod) {
                        (Some((d, o)), Some((dm, _))) if d < dm => {
                            format!(" (did you mean `{o}`?)")
                        }
                        (Some((_, o)), None) => format!(" (did you mean `{o}`?)"),
                        (_, Some((_, x))) => format!(" (did you mean `.{x}`?)"),
                        (None, None) => String::new(),
                    };
                    let near_space = STATE_SPACES.iter().any(|s| {
                        s.len().abs_diff(m.len()) <= 2 && isa_table::edit_distance(m, s) <= 2
                    });
                    if info.class.steers_control() {
                        self.error(
                            span,
                            format!(
                                "`.{m}` is not a modifier of `{}` in `{mnemonic}`{hint}: \
                                 a {} instruction is never read generically",
                                info.name,
                                info.class.name()
                            ),
                        );
                    } else if near_space
                        && matches!(
                            info.class,
                            OpClass::Memory | OpClass::Async | OpClass::Texture | OpClass::Alu
                        )
                        && (info.allows("global") || info.allows("shared"))
                    {
                        self.error(
                            span,
                            format!(
                                "`.{m}` is not a state space of `{}` in `{mnemonic}`{hint}: \
                                 the space decides which memory is accessed",
                                info.name
                            ),
                        );
                    } else {
                        self.warning(
                            span,
                            format!(
                                "unknown modifier `.{m}` of `{}` in `{mnemonic}` is ignored{hint}",
                                info.name
                            ),
                        );
                    }
                }
            }
            None => {
                // Compare the opcode with and without its first modifiers against the table;
                // among the nearest rows prefer one that takes the remaining modifiers, then
                // one that steers control (a tie must not hide a control-flow typo).
                let mut best: Option<(&'static isa_table::OpInfo, usize)> = None;
                let mut best_key = (usize::MAX, true, true);
                let mut cand = ins.opcode.clone();
                for k in 0..=ins.modifiers.len().min(3) {
                    if k > 0 {
                        cand.push('.');
                        cand.push_str(&ins.modifiers[k - 1]);
                    }
                    let rest = &ins.modifiers[k..];
                    for o in isa_table::OPCODES {
                        if o.name.len().abs_diff(cand.len()) > 2 {
                            continue;
                        }
                        let d = isa_table::edit_distance(&cand, o.name);
                        if d > 2 || d > best_key.0 {
                            continue;
                        }
                        let key = (
                            d,
                            !rest.iter().all(|m| o.allows(m)),
                            !o.class.steers_control(),
                        );
                        if key < best_key {
                            best_key = key;
                            best = Some((o, d));
                        }
                    }
                }
                let near = best.filter(|(_, d)| *d <= 2);
                let hint = near.map_or(String::new(), |(o, _)| {
                    format!(" (did you mean `{}`?)", o.name)
                });
                if let Some((o, _)) = near.filter(|(o, _)| o.class.steers_control()) {
                    self.error(
                        span,
                        format!(
                            "unknown opcode `{mnemonic}`{hint}: not read generically, because \
                             `{}` is a {} instruction and a misreading could change control \
                             flow, divergence or agreement",
                            o.name,
                            o.class.name()
                        ),
                    );
                } else if writes_pred {
                    self.error(
                        span,
                        format!(
                            "unknown opcode `{mnemonic}`{hint} writes a predicate: not read \
                             generically, because predicates steer branches and divergence"
                        ),
                    );
                } else {
                    self.warning(
                        span,
                        format!(
                            "unknown opcode `{mnemonic}`{hint}: read generically (first \
                             operand written, the rest read)"
                        ),
                    );
                }
            }
        }
    }
}

/// State spaces as modifiers (for the "is this a misspelt space" check).
const STATE_SPACES: &[&str] = &["global", "shared", "local", "param", "const"];

/// When a known opcode carries a modifier it does not accept, another opcode within edit
/// distance 2 that accepts *every* modifier written (`bar.uni` → `bra.uni`), with its
/// distance. Families whose modifiers are unchecked are never suggested.
fn swapped_opcode(ins: &Instruction, current: &str) -> Option<(usize, String)> {
    let mut best: Option<(usize, &str)> = None;
    for o in isa_table::OPCODES {
        if o.name == current
            || o.name.contains('.')
            || !o.checks_modifiers()
            || o.name.len().abs_diff(ins.opcode.len()) > 2
        {
            continue;
        }
        let d = isa_table::edit_distance(&ins.opcode, o.name);
        if d == 0 || d > 2 {
            continue;
        }
        if ins.modifiers.iter().all(|m| o.allows(m)) && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, o.name));
        }
    }
    best.map(|(d, name)| {
        let mut s = name.to_string();
        for m in &ins.modifiers {
            s.push('.');
            s.push_str(m);
        }
        (d, s)
    })
}
