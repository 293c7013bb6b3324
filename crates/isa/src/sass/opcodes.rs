//! What a SASS opcode does, as far as the IR needs to know: its control-flow kind, the unit it
//! occupies, and which registers it reads and writes.
//!
//! Opcodes not named here are ordinary ALU instructions whose first operand is the destination.
//! This is the generic rule that lets unknown opcodes still take part in every analysis.

use crate::instruction::{ControlKind, Guard, Opcode, ResourceClass};
use crate::operand::{Operand, OperandKind, Register};

/// Control-flow kind before targets are resolved to addresses (the parser resolves them).
pub(crate) fn control_kind(op: &Opcode, sync_flag_allowed: bool) -> ControlKind {
    match op.name.as_str() {
        "BRA" | "JMP" => ControlKind::Branch(None),
        "SSY" => ControlKind::Ssy(None),
        "PBK" => ControlKind::Pbk(None),
        "PCNT" => ControlKind::Pcnt(None),
        "PRET" => ControlKind::Pret(None),
        "SYNC" => ControlKind::Sync,
        "BRK" => ControlKind::Brk,
        "CONT" => ControlKind::Cont,
        "EXIT" | "KIL" | "KILL" => ControlKind::Exit,
        "CAL" | "JCAL" | "CALL" => ControlKind::Call(None),
        // `RTT` returns from a trap handler: a return, as far as the listing is concerned.
        "RET" | "RTT" => ControlKind::Ret,
        "BAR" => ControlKind::Barrier,
        // Targets computed at run time; `LONGJMP` (Fermi) goes where `PLONGJMP` said.
        "BRX" | "JMX" | "BRXU" | "JMXU" | "LONGJMP" => ControlKind::Indirect,
        // Volta and later: convergence barriers (the barrier number is read from the
        // operands by `with_barrier`).
        "BSSY" => ControlKind::Bssy {
            barrier: 0,
            target: None,
        },
        "BSYNC" => ControlKind::Bsync { barrier: 0 },
        "BREAK" => ControlKind::Break { barrier: 0 },
        "WARPSYNC" if op.has_modifier("ALL") => ControlKind::WarpSync,
        _ if sync_flag_allowed && op.has_modifier("S") => ControlKind::Sync,
        _ => ControlKind::Fallthrough,
    }
}

/// `CALL.REL.NOINC R14 0x0` (Volta and later): the callee is in a register, so the call is
/// indirect, not a call of the address `0x0`.
pub(crate) fn is_register_indirect_call(op: &Opcode, operands: &[Operand]) -> bool {
    op.name == "CALL" && indirect_target_register(operands).is_some()
}

/// The register an indirect branch or call takes its target from: the first word of its
/// first operand (`BRX R14 -0x200`, `JMX R2`, `CALL.REL.NOINC R14 0x0`), if a register.
pub(crate) fn indirect_target_register(operands: &[Operand]) -> Option<Register> {
    let first_word = operands.first()?.text.split_whitespace().next()?;
    super::operands::parse_register(first_word)
        .filter(|r| matches!(r, Register::Gpr(_) | Register::Uniform(_)))
}

/// The barrier instruction with the barrier register its first operand names (`BSSY B1,
/// 0x210`, `BSYNC B0`, `BREAK B1`): `None` for other instructions, an error when the operand
/// is not `B0`…`B15`.
pub(crate) fn with_barrier(
    kind: ControlKind,
    operands: &[Operand],
) -> Option<Result<ControlKind, String>> {
    kind.barrier()?;
    let named = operands.first().and_then(|o| {
        let n: u8 = o.text.strip_prefix('B')?.parse().ok()?;
        (n < 16 && o.text.len() <= 3).then_some(n)
    });
    let Some(barrier) = named else {
        return Some(Err(format!(
            "a convergence-barrier instruction names its barrier register first (`B0`…`B15`), found `{}`",
            operands.first().map_or("", |o| o.text.as_str())
        )));
    };
    Some(Ok(match kind {
        ControlKind::Bssy { target, .. } => ControlKind::Bssy { barrier, target },
        ControlKind::Bsync { .. } => ControlKind::Bsync { barrier },
        _ => ControlKind::Break { barrier },
    }))
}

/// `WARPSYNC 0xffffffff` names the whole warp as `WARPSYNC.ALL` does.
pub(crate) fn is_full_warp_sync(op: &Opcode, operands: &[Operand]) -> bool {
    use crate::operand::Immediate;
    op.name == "WARPSYNC"
        && op.modifiers.is_empty()
        && matches!(
            operands,
            [Operand {
                kind: OperandKind::Immediate {
                    value: Immediate::Int(0xffff_ffff)
                },
                ..
            }]
        )
}

/// `JCAL 0x0` (Kepler–Pascal) and `CALL.ABS.NOINC 0x0` (Volta and later) call an absolute
/// address that the linker fills in: in a `cuobjdump` listing of a cubin it is still `0x0`,
/// the unresolved relocation of a runtime function (`vprintf`, `__assertfail`, `malloc`).
/// Address 0 is the kernel's own first instruction, so reading it literally would make every
/// `printf` a recursive call of the kernel.
pub(crate) fn is_unresolved_call(ins: &crate::Instruction, address: u64) -> bool {
    address == 0
        && matches!(ins.control, ControlKind::Call(_))
        && (ins.opcode.name == "JCAL" || ins.opcode.has_modifier("ABS"))
}

/// True when the opcode names a code address among its operands.
pub(crate) fn has_code_target(kind: ControlKind) -> bool {
    matches!(
        kind,
        ControlKind::Branch(_)
            | ControlKind::Ssy(_)
            | ControlKind::Pbk(_)
            | ControlKind::Pcnt(_)
            | ControlKind::Pret(_)
            | ControlKind::Call(_)
    )
}

/// The functional unit. Generic `LD`/`ST` (Fermi+ generic addressing) are charged as global
/// memory, the conservative choice; conversions stay on the ALU.
pub(crate) fn resource_class(op: &Opcode, control: ControlKind) -> ResourceClass {
    match op.name.as_str() {
        "MUFU" | "RRO" => ResourceClass::Sfu,
        "LD" | "ST" | "LDG" | "STG" | "LDU" | "ATOM" | "RED" | "CCTL" | "CCTLL" => {
            ResourceClass::LoadStoreGlobal
        }
        "LDS" | "STS" | "LDSLK" | "STSCUL" | "STUL" | "ATOMS" | "LDSM" => {
            ResourceClass::LoadStoreShared
        }
        "LDL" | "STL" => ResourceClass::LoadStoreLocal,
        "LDC" => ResourceClass::Constant,
        "TEX" | "TLD" | "TLD4" | "TXQ" | "TEXS" | "TLDS" | "TLD4S" | "TXD" | "TMML" | "SULD"
        | "SUST" | "SURED" | "SUATOM" | "SULDGA" | "SUSTGA" => ResourceClass::Texture,
        "MEMBAR" | "DEPBAR" | "TEXDEPBAR" => ResourceClass::Control,
        _ if control != ControlKind::Fallthrough && control != ControlKind::Sync => {
            ResourceClass::Control
        }
        _ if control == ControlKind::Sync && op.name == "SYNC" => ResourceClass::Control,
        _ => ResourceClass::Alu,
    }
}

/// The resource class of an instruction of base opcode `name` with `modifiers`, without a
/// guard or operands: `resource_class` after `control_kind`, as the parser computes it.
/// Operands change it only for `WARPSYNC` (the mask `0xffffffff` is a full-warp sync, as
/// `.ALL` is) and a call or branch through a register (control either way); a guard that is
/// never true (`@!PT`) makes any instruction a fallthrough.
pub fn resource_class_of(name: &str, modifiers: &[&str]) -> ResourceClass {
    let op = Opcode {
        name: name.to_string(),
        modifiers: modifiers.iter().map(|m| m.to_string()).collect(),
        span: crate::Span::default(),
    };
    resource_class(&op, control_kind(&op, false))
}

/// Opcodes without a destination operand: every register they name is read.
fn has_no_destination(name: &str, class: ResourceClass) -> bool {
    class == ResourceClass::Control
        || matches!(
            name,
            "ST" | "STG"
                | "STS"
                | "STL"
                | "RED"
                | "STSCUL"
                | "STUL"
                | "SUST"
                | "SURED"
                | "CCTL"
                | "CCTLL"
                | "NOP"
        )
}

/// How many leading operands are destinations.
fn destination_count(name: &str, operands: &[Operand]) -> usize {
    let is_predicate = |o: &Operand| o.register().is_some_and(|r| r.is_predicate());
    let set_predicate = name.ends_with("SETP") || name == "PSETP";
    if set_predicate || name == "PLOP3" {
        // `ISETP.GE.AND P0, PT, R5, R9, PT`, `PLOP3.LUT P0, PT, PT, PT, PT, 0x8, 0x0`: two
        // predicate destinations, then predicate sources.
        operands
            .iter()
            .take(2)
            .take_while(|o| o.register().is_some())
            .count()
    } else if matches!(name, "VOTE" | "VOTEU") {
        // `VOTE.ANY R0, PT, P0`: the ballot and a predicate; `VOTE.ALL P2, P0`: a predicate
        // only (the second is the voted source).
        match operands {
            [first, second, ..] if !is_predicate(first) && first.register().is_some() => {
                1 + usize::from(is_predicate(second))
            }
            [first, ..] if first.register().is_some() => 1,
            _ => 0,
        }
    } else if matches!(
        name,
        "SHFL" | "LOP3" | "ULOP3" | "IADD3" | "UIADD3" | "LEA" | "ULEA" | "IMAD" | "UIMAD"
    ) {
        // Predicates printed before the register destination are written too (`SHFL.IDX PT,
        // R3, …`, `LOP3.LUT P0, RZ, R4, …`, `LEA.HI.X P0, R9, R4, …`), and so are the carries
        // right after it (`IADD3 R6, P0, P1, R2, …`); carry-ins come last (`IADD3.X R7, RZ, R3,
        // RZ, P0, !PT`) and are read. `LOP3.LUT R0, R4, 0x1, …` writes R0 only.
        let leading = operands.iter().take_while(|o| is_predicate(o)).count();
        let register = operands
            .get(leading)
            .is_some_and(|o| o.register().is_some() && !is_predicate(o));
        if register {
            let carries = operands[leading + 1..]
                .iter()
                .take_while(|o| is_predicate(o))
                .count();
            leading + 1 + carries
        } else {
            leading
        }
    } else {
        usize::from(
            operands
                .first()
                .is_some_and(|o| matches!(o.kind, OperandKind::Register { .. })),
        )
    }
}

/// Register width multiplier (1, 2 or 4 consecutive registers) for destination and sources.
/// `.64`/`.128` size modifiers and double-precision arithmetic use register pairs; for
/// conversions the first type modifier sizes the destination and the second the source.
fn widths(op: &Opcode) -> (u32, u32) {
    let size = |m: &str| -> Option<u32> {
        match m {
            "64" | "F64" | "S64" | "U64" => Some(2),
            "128" => Some(4),
            "F32" | "S32" | "U32" | "F16" | "S16" | "U16" | "S8" | "U8" | "32" => Some(1),
            _ => None,
        }
    };
    if matches!(op.name.as_str(), "F2F" | "F2I" | "I2F" | "I2I") {
        let mut types = op.modifiers.iter().filter_map(|m| size(m));
        let dst = types.next().unwrap_or(1);
        let src = types.next().unwrap_or(1);
        return (dst, src);
    }
    if matches!(
        op.name.as_str(),
        "DADD" | "DMUL" | "DFMA" | "DMNMX" | "DSET"
    ) {
        return (2, 2);
    }
    if op.name == "DSETP" {
        return (1, 2);
    }
    let w = op
        .modifiers
        .iter()
        .find_map(|m| match m.as_str() {
            "64" => Some(2),
            "128" => Some(4),
            _ => None,
        })
        .unwrap_or(1);
    (w, w)
}

fn widen(reg: &Register, width: u32, out: &mut Vec<Register>) {
    match reg {
        Register::Gpr(n) => {
            for k in 0..width {
                out.push(Register::Gpr(n.saturating_add(k)));
            }
        }
        other => out.push(other.clone()),
    }
}

/// Reads and writes of one instruction, in operand order, deduplicated, without `RZ`/`PT`.
pub(crate) fn data_flow(
    op: &Opcode,
    operands: &[Operand],
    guard: Option<&Guard>,
    class: ResourceClass,
) -> (Vec<Register>, Vec<Register>) {
    let mut reads = Vec::new();
    let mut writes = Vec::new();
    if let Some(g) = guard {
        reads.push(g.reg.clone());
    }
    let name = op.name.as_str();
    let dests = if has_no_destination(name, class) {
        0
    } else {
        destination_count(name, operands)
    };
    let (dst_w, src_w) = widths(op);
    // 64-bit addressing (`.E`) reads a register pair as the address.
    let wide_address = op.has_modifier("E");
    let is_memory = matches!(
        class,
        ResourceClass::LoadStoreGlobal
            | ResourceClass::LoadStoreShared
            | ResourceClass::LoadStoreLocal
    );
    for (i, operand) in operands.iter().enumerate() {
        match &operand.kind {
            OperandKind::Register { reg } if i < dests => {
                widen(reg, if reg.is_predicate() { 1 } else { dst_w }, &mut writes);
                if operand.suffixes.iter().any(|s| s == "CC") {
                    writes.push(Register::CarryFlag);
                }
            }
            OperandKind::Register { reg } => {
                // Store data and arithmetic sources use the instruction's data width.
                let w = if reg.is_predicate() { 1 } else { src_w };
                widen(reg, w, &mut reads);
            }
            OperandKind::Memory { address } | OperandKind::Constant { address, .. } => {
                if let Some(base) = &address.base {
                    let w = if wide_address && is_memory { 2 } else { 1 };
                    widen(base, w, &mut reads);
                }
            }
            _ => {}
        }
    }
    if op.has_modifier("X") {
        reads.push(Register::CarryFlag);
    }
    (normalize(reads), normalize(writes))
}

fn normalize(mut regs: Vec<Register>) -> Vec<Register> {
    regs.retain(Register::is_storage);
    let mut seen = std::collections::BTreeSet::new();
    regs.retain(|r| seen.insert(r.clone()));
    regs
}
