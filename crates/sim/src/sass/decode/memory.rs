//! Decoding of loads, stores and atomics in global, shared and local memory.

use super::*;

/// The sm_70+ forms of this family (`None`: not one of them).
pub(super) fn volta(c: &Ctx, name: &str, m: &mut Mods) -> DecodeResult<Option<Op>> {
    let ins = c.ins;
    let o = |i: usize| ins.operands.get(i);
    Ok(Some(match name {
        "ATOM" | "ATOMG" | "ATOMS" | "RED" | "REDG" => {
            let space = if name == "ATOMS" {
                Space::Shared
            } else {
                Space::Global
            };
            let wide = m.take("E");
            for scope in ["STRONG", "GPU", "SYS", "CTA", "32"] {
                m.take(scope);
            }
            let signed = m.take("S32");
            m.take("U32");
            // `ATOMS.POPC.INC` adds one per lane (the hardware counts the lanes at once).
            let popc_inc = m.take("POPC") && m.take("INC");
            let op = if popc_inc {
                AtomOp::Add
            } else {
                m.take_any(|t| {
                    Some(match t {
                        "ADD" => AtomOp::Add,
                        "INC" => AtomOp::Inc,
                        "DEC" => AtomOp::Dec,
                        "MIN" => AtomOp::Min { signed },
                        "MAX" => AtomOp::Max { signed },
                        "AND" => AtomOp::And,
                        "OR" => AtomOp::Or,
                        "XOR" => AtomOp::Xor,
                        "EXCH" => AtomOp::Exch,
                        "CAS" => AtomOp::Cas,
                        _ => return None,
                    })
                })
                .ok_or_else(|| cannot(ins, "unknown atomic operation"))?
            };
            if m.left
                .iter()
                .any(|t| matches!(*t, "64" | "F32" | "F16x2" | "BF16x2"))
            {
                return Err(cannot(ins, "only 32-bit integer atomics are modelled"));
            }
            // RED [a], v; ATOMS d, [a], v (POPC.INC: d, [a]); ATOM(G) p, d, [a], v (CAS: cmp, v).
            let reduce = name.starts_with("RED");
            let k = match name {
                "RED" | "REDG" => 0,
                "ATOMS" => 1,
                // Kepler–Pascal `ATOM d, [a], v` has no predicate destination.
                _ if !c.volta => 1,
                _ => {
                    if c.pred_dest(o(0))? != PT {
                        return Err(cannot(ins, "a predicate result of an atomic"));
                    }
                    2
                }
            };
            let cas = op == AtomOp::Cas;
            let operands = k + 1 + usize::from(!popc_inc) + usize::from(cas);
            operand_count(ins, operands)?;
            let (cmp, v) = if popc_inc {
                (
                    zero(),
                    Src {
                        kind: SrcKind::Value(1, None),
                        ..zero()
                    },
                )
            } else if cas {
                (c.src(o(k + 1))?, c.src(o(k + 2))?)
            } else {
                (zero(), c.src(o(k + 1))?)
            };
            Op::Atomic {
                space,
                op,
                d: if reduce { RZ_DEST } else { c.dest(o(k - 1))? },
                addr: c.addr(o(k), wide)?,
                v,
                cmp,
            }
        }
        _ => return Ok(None),
    }))
}

/// The forms of this family common to every architecture (`None`: not one of them).
pub(super) fn common(c: &Ctx, name: &str, m: &mut Mods) -> DecodeResult<Option<Op>> {
    let ins = c.ins;
    let o = |i: usize| ins.operands.get(i);
    Ok(Some(match name {
        "LDG" | "LD" | "LDS" | "LDU" | "LDL" => {
            memory_operands(c)?;
            let space = match ins.opcode.name.as_str() {
                "LDS" => Space::Shared,
                "LDL" => Space::Local,
                _ => Space::Global,
            };
            let wide = m.take("E");
            // Cache operators, scopes and orderings change where the data is cached and
            // whom it is visible to, not its value in a one-SM run without other writers.
            for op in [
                "CG", "CA", "CS", "CV", "CI", "LU", "U", "SYS", "STRONG", "GPU", "CTA", "CONSTANT",
                "EF", "EL", "NA", "LTC64B", "LTC128B",
            ] {
                m.take(op);
            }
            let (bytes, sign_extend) = size(m);
            Op::Load {
                space,
                d: c.dest(o(0))?,
                addr: c.addr(o(1), wide)?,
                bytes,
                sign_extend,
            }
        }
        "STG" | "ST" | "STS" | "STL" => {
            memory_operands(c)?;
            let space = match ins.opcode.name.as_str() {
                "STS" => Space::Shared,
                "STL" => Space::Local,
                _ => Space::Global,
            };
            let wide = m.take("E");
            for op in [
                "CG", "CS", "WB", "WT", "U", "SYS", "STRONG", "GPU", "CTA", "EF", "EL", "NA",
            ] {
                m.take(op);
            }
            let (bytes, _) = size(m);
            Op::Store {
                space,
                v: c.src(o(1))?,
                addr: c.addr(o(0), wide)?,
                bytes,
            }
        }
        _ => return Ok(None),
    }))
}

/// A load or store has an address and a register; Kepler–Pascal generic `LD`/`ST` may end
/// with a predicate (`ST.E.64 [R8], R6, P0`, set by the `LEA.HI.X P0, …` that formed the
/// address), ignored: *uncertain* — NVIDIA does not document it; the value moved does not
/// depend on it for an address inside the simulated arrays.
fn memory_operands(c: &Ctx) -> DecodeResult<()> {
    let ins = c.ins;
    let trailing_pred = !c.volta
        && ins.operands.len() == 3
        && matches!(
            ins.operands[2].register(),
            Some(Register::Pred(_) | Register::True)
        );
    if trailing_pred {
        return Ok(());
    }
    operand_count(ins, 2)
}
