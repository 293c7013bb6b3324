//! Strict checks of operand shapes: the operands that decide divergence, agreement and control
//! must be what they look like.
//!
//! The operand parser ([`super::operands`]) never fails: text it cannot read becomes
//! [`OperandKind::Other`], which reads and writes no register. That keeps odd but legal syntax
//! (texture shapes `2D`, channel masks `R`, dependency sets `{1}`) from blocking an analysis,
//! but it also means a typo silently removes a data dependency: `S2R R0, CTAID.X` reads no
//! special register, so `R0` looks uniform and a divergent branch on it looks uniform too —
//! a lower bound than the real time. This module reports such operands as located errors:
//!
//! - special registers must be known names (in any accepted spelling, see
//!   [`super::special_registers`]), and the source of `S2R`/`CS2R`/`S2UR` must be one;
//! - memory and constant operands must have balanced brackets and an address expression
//!   (`[R2]`, `[R2+0x10]`, `[R2.64+-0x4]`, `[UR4]`, `[R2.U32+UR4+0x8]`, `[0x10]`,
//!   `c[0x0][0x160]`, `c[0x3][R2+0x4]`, `cx[UR4][R2]`, `desc[UR4][R2.64]`, `gdesc[UR4]`);
//! - registers must be in range (`R0`–`R255`, `UR0`–`UR63`, `P0`–`P6`, `UP0`–`UP6`, plus
//!   `RZ`, `URZ`, `PT`, `UPT`) and a register-like word that is no register (`Q3`, `r3`)
//!   is an error with a hint;
//! - compare-and-set instructions write predicates: their destinations must be predicates;
//! - two words in one operand (`R0 0x1`, a missing comma) are an error except in the
//!   register-plus-offset form of `BRX`/`JMX`/`CALL`/`RET` (`BRX R2 -0x40`).

use super::isa_table;
use super::operands::{parse_int, parse_register};
use super::special_registers;
use crate::diagnostic::Diagnostic;
use crate::instruction::Instruction;
use crate::operand::{Operand, OperandKind, Register};

/// Highest register numbers: `R255` is `RZ` and `UR63` is `URZ` on the generations that have
/// them, `P7`/`UP7` are `PT`/`UPT` and are printed that way.
const MAX_GPR: u32 = 255;
const MAX_UNIFORM: u32 = 63;
const MAX_PREDICATE: u32 = 6;

/// Opcodes whose leading operands are predicate destinations (compare-and-set and predicate
/// logic), with how many.
fn predicate_destinations(name: &str) -> usize {
    match name {
        "ISETP" | "FSETP" | "DSETP" | "HSETP2" | "VSETP" | "CSETP" | "UISETP" | "PSETP"
        | "UPSETP" | "PLOP3" | "UPLOP3" => 2,
        "FCHK" => 1,
        _ => 0,
    }
}

/// Opcodes that name a convergence barrier `B0`–`B15` (and unknown opcodes, which are
/// reported by name already and may be a misspelt one of these).
fn allows_barrier_names(name: &str) -> bool {
    matches!(name, "BSSY" | "BSYNC" | "BREAK" | "BMOV") || isa_table::lookup(name).is_none()
}

/// Opcodes whose target may be written `Rn offset` (register plus a relative offset).
fn allows_register_offset(name: &str) -> bool {
    matches!(
        name,
        "BRX" | "JMX" | "BRXU" | "JMXU" | "CALL" | "RET" | "CAL" | "JCAL"
    )
}

/// Appends a located error for every operand of `instr` whose shape is wrong.
pub(crate) fn check(instr: &Instruction, out: &mut Vec<Diagnostic>) {
    let name = instr.opcode.name.as_str();
    if let Some(g) = &instr.guard {
        if let Some(msg) = register_range(&g.reg) {
            out.push(Diagnostic::error(g.span, format!("invalid guard: {msg}")));
        }
    }
    for op in &instr.operands {
        if let Some(msg) = operand_problem(name, op) {
            out.push(Diagnostic::error(op.span, msg));
        }
    }
    let dests = predicate_destinations(name);
    for op in instr.operands.iter().take(dests) {
        let is_pred = op.register().is_some_and(Register::is_predicate);
        // Shapes already reported (a register out of range, a misspelling) are not repeated.
        if !is_pred && operand_problem(name, op).is_none() {
            out.push(Diagnostic::error(
                op.span,
                format!(
                    "`{name}` writes predicates here: expected P0..P6 or PT (UP0..UP6 or UPT \
                     for uniform predicates), found `{}`",
                    op.text
                ),
            ));
        }
    }
    if matches!(name, "S2R" | "CS2R" | "S2UR") {
        check_special_register_source(instr, out);
    }
}

/// `S2R Rd, SR_x`: the second operand must be a special register.
fn check_special_register_source(instr: &Instruction, out: &mut Vec<Diagnostic>) {
    let name = instr.opcode.name.as_str();
    let Some(src) = instr.operands.get(1) else {
        out.push(Diagnostic::error(
            instr.opcode.span,
            format!(
                "`{name}` needs a destination and a special register, e.g. `{name} R0, SR_TID.X`"
            ),
        ));
        return;
    };
    let ok = match &src.kind {
        OperandKind::Register {
            reg: Register::Special(_),
        } => true, // its name is checked with every operand
        OperandKind::Other { text } => name == "CS2R" && text.eq_ignore_ascii_case("SRZ"),
        _ => false,
    };
    if !ok && operand_problem(name, src).is_none() {
        let hint = special_registers::suggestion(&src.text)
            .map(|s| format!("; did you mean {s}?"))
            .unwrap_or_default();
        out.push(Diagnostic::error(
            src.span,
            format!(
                "`{name}` reads a special register, but `{}` is not one (expected a name such as \
                 SR_TID.X or SR_CTAID.X){hint}",
                src.text
            ),
        ));
    }
}

/// What is wrong with one operand, if anything.
fn operand_problem(opcode: &str, op: &Operand) -> Option<String> {
    let text = op.text.trim();
    if text.contains(['[', ']']) {
        return memory_shape(text).err();
    }
    match &op.kind {
        OperandKind::Register { reg } => register_problem(reg),
        OperandKind::Other { .. } => other_problem(opcode, text),
        _ => None,
    }
}

fn register_problem(reg: &Register) -> Option<String> {
    if let Register::Special(s) = reg {
        if special_registers::canonical(s).is_some() {
            return None;
        }
        let hint = special_registers::nearest(s, 2)
            .map(|k| format!("; did you mean {k}?"))
            .unwrap_or_default();
        return Some(format!("unknown special register `{s}`{hint}"));
    }
    register_range(reg)
}

fn register_range(reg: &Register) -> Option<String> {
    match *reg {
        Register::Gpr(n) if n > MAX_GPR => Some(format!(
            "`R{n}` does not exist: registers are R0..R{MAX_GPR} and RZ"
        )),
        Register::Uniform(n) if n > MAX_UNIFORM => Some(format!(
            "`UR{n}` does not exist: uniform registers are UR0..UR{MAX_UNIFORM} and URZ"
        )),
        Register::Pred(n) if n > MAX_PREDICATE => Some(format!(
            "`P{n}` does not exist: predicates are P0..P{MAX_PREDICATE} and PT"
        )),
        Register::UniformPred(n) if n > MAX_PREDICATE => Some(format!(
            "`UP{n}` does not exist: uniform predicates are UP0..UP{MAX_PREDICATE} and UPT"
        )),
        _ => None,
    }
}

/// `Q3`, `r3`, `RR3`: one or more letters then digits.
fn looks_like_register(word: &str) -> bool {
    let letters = word
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(word.len());
    letters > 0
        && letters < word.len()
        && word[..letters]
            .chars()
            .all(|c| c.is_ascii_alphabetic() || c == '_')
        && word[letters..].chars().all(|c| c.is_ascii_digit())
}

/// The register spelling `word` most likely meant: its digits after the nearest register
/// prefix (`Q3` → `R3`, `UQ4` → `UR4`, `p0` → `P0`).
fn register_hint(word: &str) -> Option<String> {
    let letters = word.find(|c: char| c.is_ascii_digit())?;
    let (prefix, digits) = word.split_at(letters);
    let upper = prefix.to_ascii_uppercase();
    let (best, _) = crate::spelling::nearest(&upper, ["R", "UR", "P", "UP"], 2)?;
    Some(format!("{best}{digits}"))
}

fn other_problem(opcode: &str, text: &str) -> Option<String> {
    let core = text.trim_start_matches(['-', '!', '~', '+']).trim();
    if core.contains(char::is_whitespace) {
        let first = core.split_whitespace().next().unwrap_or("");
        let register_first = parse_register(first).is_some_and(|r| !r.is_predicate());
        if allows_register_offset(opcode) && register_first {
            return None;
        }
        return Some(format!(
            "operand `{text}` has two parts: a comma is probably missing (it would be read as \
             no register at all)"
        ));
    }
    if core.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("SR_")) {
        let hint = special_registers::nearest(core, 2)
            .map(|k| format!("; did you mean {k}?"))
            .unwrap_or_default();
        return Some(format!("unknown special register `{core}`{hint}"));
    }
    if !looks_like_register(core) {
        return None;
    }
    let upper = core.to_ascii_uppercase();
    let numbered = |p: &str| {
        upper
            .strip_prefix(p)
            .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
    };
    if allows_barrier_names(opcode) && core.starts_with('B') && numbered("B") {
        return None;
    }
    if opcode == "DEPBAR" && core.starts_with("SB") && numbered("SB") {
        return None;
    }
    let hint = register_hint(core)
        .map(|h| format!("; did you mean {h}?"))
        .unwrap_or_default();
    Some(format!(
        "`{core}` is not a register (R0..R255, RZ, UR0..UR63, URZ, P0..P6, PT, UP0..UP6, UPT){hint}"
    ))
}

/// Checks an operand with brackets: `[addr]`, `c[bank][addr]`, `cx[URn][addr]`,
/// `desc[URn][addr]`, `gdesc[URn]`, each optionally followed by `.suffix`es and wrapped in
/// `-`, `~` or `|…|`.
pub(crate) fn memory_shape(text: &str) -> Result<(), String> {
    let bad = |why: &str| Err(format!("malformed memory operand `{text}`: {why}"));
    let mut depth = 0i32;
    for ch in text.chars() {
        match ch {
            '[' => depth += 1,
            ']' => depth -= 1,
            _ => {}
        }
        if !(0..=1).contains(&depth) {
            return bad("brackets do not match");
        }
    }
    if depth != 0 {
        return bad("a `]` is missing");
    }
    let mut rest = text.trim().trim_start_matches(['-', '~']).trim_start();
    let mut abs = false;
    if let Some(r) = rest.strip_prefix('|') {
        rest = r;
        abs = true;
    }
    // Prefix: nothing, `c`, `cx`, `desc` or `gdesc`, each followed by a bracket.
    let prefix_end = rest.find('[').unwrap_or(rest.len());
    let prefix = rest[..prefix_end].trim();
    rest = &rest[prefix_end..];
    let (first, after) = bracket(rest)?;
    let rest = match prefix {
        "" => {
            address(first).map_err(|e| format!("malformed memory operand `{text}`: {e}"))?;
            after
        }
        "c" | "cx" => {
            let bank_ok = parse_int(first).is_some_and(|v| v >= 0)
                || uniform_register(first.trim()).is_some();
            if !bank_ok {
                return bad("the constant bank must be a number such as 0x0 or a uniform register");
            }
            let (second, after) = bracket(after.trim_start()).map_err(|_| {
                format!("malformed memory operand `{text}`: a constant needs `c[bank][offset]`")
            })?;
            address(second).map_err(|e| format!("malformed memory operand `{text}`: {e}"))?;
            after
        }
        "desc" => {
            if uniform_register(first.trim()).is_none() {
                return bad("a memory descriptor is a uniform register, as in desc[UR4][R2.64]");
            }
            let (second, after) = bracket(after.trim_start()).map_err(|_| {
                format!("malformed memory operand `{text}`: expected desc[URn][address]")
            })?;
            address(second).map_err(|e| format!("malformed memory operand `{text}`: {e}"))?;
            after
        }
        "gdesc" => {
            if uniform_register(first.trim()).is_none() {
                return bad("a global memory descriptor is a uniform register, as in gdesc[UR4]");
            }
            after
        }
        other => {
            return Err(format!(
                "malformed memory operand `{text}`: `{other}` before `[` (expected c[…][…], \
                 desc[…][…] or […])"
            ))
        }
    };
    let mut rest = rest.trim();
    if abs {
        match rest.strip_suffix('|') {
            Some(r) => rest = r.trim_end(),
            None => return bad("`|` is not closed"),
        }
    }
    if rest.is_empty() {
        return Ok(());
    }
    let suffixes = rest.strip_prefix('.').unwrap_or("");
    if suffixes.is_empty()
        || !suffixes
            .split('.')
            .all(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    {
        return bad(&format!("unexpected `{rest}` after the address"));
    }
    Ok(())
}

/// Splits `[inner]rest` into `inner` and `rest`.
fn bracket(s: &str) -> Result<(&str, &str), String> {
    let inner = s
        .strip_prefix('[')
        .ok_or_else(|| "expected `[`".to_string())?;
    let close = inner
        .find(']')
        .ok_or_else(|| "a `]` is missing".to_string())?;
    Ok((&inner[..close], &inner[close + 1..]))
}

fn uniform_register(s: &str) -> Option<Register> {
    parse_register(s)
        .filter(|r| matches!(r, Register::Uniform(n) if *n <= MAX_UNIFORM) || s == "URZ")
}

/// An address expression: terms joined by `+` (an offset may be negative, `+-0x4`): at most
/// one register (with `.64`, `.U32`, `.X4`… suffixes), at most one uniform register and at most
/// one offset.
fn address(inner: &str) -> Result<(), String> {
    let inner = inner.trim();
    if inner.is_empty() {
        return Err("the address is empty".to_string());
    }
    let (mut gprs, mut uniforms, mut offsets) = (0, 0, 0);
    let mut start = 0;
    let mut terms = Vec::new();
    for (i, ch) in inner.char_indices() {
        // A `+` splits terms unless it is the sign right after another `+`.
        if ch == '+' && i > start {
            terms.push(&inner[start..i]);
            start = i + 1;
        }
    }
    terms.push(&inner[start..]);
    for term in terms {
        let term = term.trim();
        if term.is_empty() {
            return Err("an empty term between `+`".to_string());
        }
        if parse_int(term).is_some() {
            offsets += 1;
            continue;
        }
        let (head, tail) = match term.find('.') {
            Some(p) => (&term[..p], &term[p + 1..]),
            None => (term, ""),
        };
        if !tail.is_empty()
            && !tail
                .split('.')
                .all(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric()))
        {
            return Err(format!("`{term}` has a malformed suffix"));
        }
        match parse_register(head) {
            Some(r @ (Register::Gpr(_) | Register::Zero)) => {
                if let Some(msg) = register_range(&r) {
                    return Err(msg);
                }
                if head.starts_with("UR") {
                    uniforms += 1;
                } else {
                    gprs += 1;
                }
            }
            Some(r @ Register::Uniform(_)) => {
                if let Some(msg) = register_range(&r) {
                    return Err(msg);
                }
                uniforms += 1;
            }
            _ => {
                let hint = if looks_like_register(head) {
                    register_hint(head)
                        .map(|h| format!(" (did you mean {h}?)"))
                        .unwrap_or_default()
                } else {
                    String::new()
                };
                return Err(format!(
                    "`{term}` is not a register or an offset{hint}; an address is [Rn], \
                     [Rn+offset], [URn], [Rn+URn+offset] or [offset]"
                ));
            }
        }
    }
    if gprs > 1 || uniforms > 1 || offsets > 1 {
        return Err(
            "an address has at most one register, one uniform register and one offset".to_string(),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_address_shape_of_the_corpus_is_accepted() {
        for ok in [
            "[R2]",
            "[R2+0x10]",
            "[R2.64+-0x4]",
            "[R7+-0x4]",
            "[UR4]",
            "[R2.U32+UR4+0x8]",
            "[R2.64+UR4]",
            "[R8.X4+URZ]",
            "[R0.X4+0x660]",
            "[RZ]",
            "[0x10]",
            "c[0x0][0x160]",
            "c [0x1] [0x100]",
            "c[0x0] [0x14].H1",
            "c[0x3][R2+0x4]",
            "c[0x0][RZ]",
            "-c[0x0][0x10]",
            "|c[0x0][0x10]|",
            "cx[UR4][R2]",
            "desc[UR4][R2.64]",
            "desc[UR4][R2.64+0x10]",
            "gdesc[UR8].tnspB",
        ] {
            assert_eq!(memory_shape(ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn malformed_addresses_are_rejected() {
        for bad in [
            "[R2",
            "R2]",
            "[[R2]]",
            "[]",
            "[R2+]",
            "[Q3]",
            "[R2+R3]",
            "[R2+0x4+0x8]",
            "[R300]",
            "c[R2][0x10]",
            "c[0x0]",
            "desc[R2][R4]",
            "x[R2]",
            "[R2]junk",
        ] {
            assert!(memory_shape(bad).is_err(), "{bad}");
        }
        assert!(memory_shape("[Q3]").is_err_and(|e| e.contains("did you mean R3?")));
    }

    #[test]
    fn register_like_words() {
        assert!(looks_like_register("Q3"));
        assert!(looks_like_register("r3"));
        assert!(!looks_like_register("2D"));
        assert!(!looks_like_register("R"));
        assert!(!looks_like_register("RGBA"));
        assert_eq!(register_hint("Q3").as_deref(), Some("R3"));
        assert_eq!(register_hint("UQ4").as_deref(), Some("UR4"));
        assert_eq!(register_hint("p0").as_deref(), Some("P0"));
        assert!(other_problem("IADD", "Q3").is_some());
        assert!(other_problem("BSSY", "B0").is_none());
        assert!(other_problem("IADD", "B0").is_some());
        assert!(other_problem("DEPBAR", "SB5").is_none());
        assert!(other_problem("CALL", "R14 0x0").is_none());
        assert!(other_problem("IADD", "R0 0x1").is_some());
        assert!(other_problem("TEX", "2D").is_none());
        assert!(other_problem("TEXS", "R").is_none());
        assert!(other_problem("DEPBAR", "{1}").is_none());
        // Never slices inside a character.
        assert!(other_problem("IADD", "aa\u{20ac}").is_none());
        assert!(memory_shape("[\u{20ac}]").is_err());
    }
}
