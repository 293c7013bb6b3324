//! What the parser says about an opcode: unknown (warning or error), not of the listing's
//! architecture, or carrying a modifier that would change control flow in an unknown way —
//! on a control instruction, or on a compare whose predicate decides a branch.
//!
//! The rule of the strict front ends: a typo must never lower a bound. An
//! unknown opcode is read generically — an ALU instruction that writes its first operand and
//! reads the rest — and gets a warning, *unless* it could be something that changes control
//! flow, divergence or agreement; then it is an error, because the generic reading would drop
//! a branch, a reconvergence point, a barrier or a predicate. An unknown opcode counts as
//! possibly control when
//!
//! 1. the nearest opcode of [`isa_table`] (at most two edits away, ties broken by table order,
//!    control-like opcodes first) is control flow, SIMT stack, convergence or barrier;
//! 2. its first operand is a predicate (it would write a predicate, the source of divergence);
//! 3. its first operand — where an ordinary instruction has its destination — is a code
//!    address or a label (`SSX 0x40`, `FOO `(.L_x_3)``), or any operand is a label.

use super::isa_table::{self, Family, OpcodeInfo};
use crate::diagnostic::Diagnostic;
use crate::instruction::Instruction;
use crate::operand::{Immediate, OperandKind};

/// Unknown names this close to a table opcode get a hint, and are errors when that opcode is
/// control-like.
const HINT_DISTANCE: usize = 2;

/// The listing's architecture as the checks need it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Target<'a> {
    /// `sm_61`, as the listing spells it.
    pub arch: Option<&'a str>,
    pub family: Option<Family>,
    /// Fermi/Kepler (or unknown): any opcode may carry the `.S` sync flag.
    pub sync_flag_allowed: bool,
}

/// Appends the diagnostics about `instr`'s opcode.
pub(crate) fn check(instr: &Instruction, target: Target<'_>, out: &mut Vec<Diagnostic>) {
    match isa_table::lookup(&instr.opcode.name) {
        Some(info) => {
            check_architecture(instr, info, target, out);
            check_control_modifiers(instr, target, out);
            check_predicate_modifiers(instr, target, out);
        }
        None => out.push(unknown_opcode(instr)),
    }
}

/// The nearest table opcode to an unknown name, for a hint.
pub(crate) fn nearest(name: &str) -> Option<&'static OpcodeInfo> {
    let (hit, _) = crate::spelling::nearest(
        name,
        isa_table::OPCODES.iter().map(|o| o.name),
        HINT_DISTANCE,
    )?;
    isa_table::lookup(hit)
}

fn unknown_opcode(instr: &Instruction) -> Diagnostic {
    let name = &instr.opcode.name;
    let near = nearest(name);
    let head = match near {
        Some(o) => format!("unknown opcode `{name}` (did you mean {}?)", o.name),
        None => format!("unknown opcode `{name}`"),
    };
    let first = instr.operands.first();
    let reason = if let Some(o) = near.filter(|o| o.role.is_control_like()) {
        Some(format!(
            "it is close to {}, a {} instruction",
            o.name,
            o.role.name()
        ))
    } else if first.is_some_and(|o| o.register().is_some_and(|r| r.is_predicate())) {
        Some("its first operand is a predicate, so it would write one".to_string())
    } else if first.is_some_and(|o| {
        matches!(
            o.kind,
            OperandKind::Immediate {
                value: Immediate::Int(_)
            } | OperandKind::Label { .. }
        ) || matches!(&o.kind, OperandKind::Other { text } if super::is_label_name(text))
    }) || instr
        .operands
        .iter()
        .any(|o| matches!(o.kind, OperandKind::Label { .. }))
    {
        Some("it names a code address where only control instructions have one".to_string())
    } else {
        None
    };
    match reason {
        Some(why) => Diagnostic::error(
            instr.opcode.span,
            format!(
                "{head}: it may change control flow ({why}); reading it as an ordinary \
                 instruction could drop a branch and lower the bound"
            ),
        ),
        None => Diagnostic::warning(
            instr.opcode.span,
            format!(
                "{head}: read as an ALU instruction that writes its first operand and reads the \
                 rest"
            ),
        ),
    }
}

/// An opcode NVIDIA does not list for the listing's generation: a warning, or an error when
/// its role touches control flow (the analyses would model an instruction that generation
/// does not have, e.g. `SYNCS` for `SYNC` on sm_61).
fn check_architecture(
    instr: &Instruction,
    info: &OpcodeInfo,
    target: Target<'_>,
    out: &mut Vec<Diagnostic>,
) {
    let Some(family) = target.family else {
        return;
    };
    if info.families.contains(family) {
        return;
    }
    let arch = target.arch.unwrap_or("this architecture");
    let message = format!(
        "`{}` is not an instruction of {arch} ({}): NVIDIA lists it for {}",
        info.name,
        family.name(),
        info.families.describe()
    );
    out.push(if info.role.is_control_like() {
        Diagnostic::error(
            instr.opcode.span,
            format!(
                "{message}; a {} instruction must match the architecture",
                info.role.name()
            ),
        )
    } else {
        Diagnostic::warning(instr.opcode.span, format!("{message}; read as listed"))
    });
}

/// Modifiers of control instructions change control flow (`BRA.U`, `BRA.DIV`, `CALL.ABS`,
/// `VOTE.ALL`): an unknown one is an error.
fn check_control_modifiers(instr: &Instruction, target: Target<'_>, out: &mut Vec<Diagnostic>) {
    let name = instr.opcode.name.as_str();
    let Some(allowed) = isa_table::control_modifiers(name) else {
        return;
    };
    for m in &instr.opcode.modifiers {
        if allowed.contains(&m.as_str()) || (target.sync_flag_allowed && m == "S") {
            continue;
        }
        let expected = if allowed.is_empty() {
            "it takes none".to_string()
        } else {
            format!("expected one of {}", allowed.join(", "))
        };
        out.push(Diagnostic::error(
            instr.opcode.span,
            format!(
                "`.{m}` is not a modifier of {name} ({expected}); modifiers of control \
                 instructions change control flow, so an unknown one cannot be ignored"
            ),
        ));
    }
}

/// Modifiers of compares and predicate logic decide the predicates branches test
/// (`ISETP.GE.AND` against `ISETP.GE.OR`): an unknown one — a typo such as `ISETP.GE.ADN` —
/// is an error, with the nearest known modifier as a hint.
fn check_predicate_modifiers(instr: &Instruction, target: Target<'_>, out: &mut Vec<Diagnostic>) {
    let name = instr.opcode.name.as_str();
    let Some(allowed) = isa_table::predicate_modifiers(name) else {
        return;
    };
    for m in &instr.opcode.modifiers {
        if allowed.contains(&m.as_str()) || (target.sync_flag_allowed && m == "S") {
            continue;
        }
        let hint = crate::spelling::nearest(m, allowed.iter().copied(), HINT_DISTANCE)
            .map(|(near, _)| format!(" (did you mean .{near}?)"))
            .unwrap_or_default();
        out.push(Diagnostic::error(
            instr.opcode.span,
            format!(
                "`.{m}` is not a modifier of {name}{hint}: it may be one of {}; the predicate \
                 {name} writes decides branches, so an unknown modifier cannot be ignored",
                allowed.join(", ")
            ),
        ));
    }
}
