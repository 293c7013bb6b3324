//! Decoding of control flow: the data effect of the control opcodes (none, or a block
//! barrier), the refused forms (`WARPSYNC.EXCLUSIVE`, `BMOV` other than `.CLEAR`), and each
//! instruction's control effect ([`control`]).

use super::*;

/// The sm_70+ forms of this family (`None`: not one of them).
pub(super) fn volta(c: &Ctx, name: &str, m: &mut Mods) -> DecodeResult<Option<Op>> {
    let ins = c.ins;
    let o = |i: usize| ins.operands.get(i);
    Ok(Some(match name {
        "WARPSYNC"
            if m.left
                .iter()
                .any(|t| matches!(*t, "EXCLUSIVE" | "COLLECTIVE")) =>
        {
            return Err(cannot(ins, UNDOCUMENTED_WARPSYNC));
        }
        "ENDCOLLECTIVE" => return Err(cannot(ins, UNDOCUMENTED_WARPSYNC)),
        "BSSY" | "BSYNC" | "BREAK" | "YIELD" | "WARPSYNC" | "CALL" | "RET" | "BRA" | "EXIT" => {
            for hint in ["REL", "NOINC", "NODEC", "ABS", "DIV", "CONV", "U", "ALL"] {
                m.take(hint);
            }
            Op::Nop
        }
        "BMOV" => {
            // Saving and restoring a barrier's threads in a register (around calls) is not
            // modelled; clearing a barrier that is free is nothing to do, as in the analysis.
            m.take("32");
            if !(m.take("CLEAR") && o(0).and_then(Operand::register) == Some(&Register::Zero)) {
                return Err(cannot(
                    ins,
                    "only `BMOV.32.CLEAR RZ, Bn` is modelled: saving a convergence barrier's \
                     threads in a register and restoring them (`BMOV.32.CLEAR R2, B6` … \
                     `BMOV.32 B6, R2` around a call) needs the barrier's membership as a \
                     value, which neither the activation stack nor the analysis keeps",
                ));
            }
            Op::Nop
        }
        _ => return Ok(None),
    }))
}

/// The forms of this family common to every architecture (`None`: not one of them).
pub(super) fn common(c: &Ctx, name: &str, m: &mut Mods) -> DecodeResult<Option<Op>> {
    let ins = c.ins;
    let o = |i: usize| ins.operands.get(i);
    Ok(Some(match name {
        "NOP" | "MEMBAR" | "DEPBAR" => {
            m.left.clear();
            Op::Nop
        }
        "BRA" | "SSY" | "PBK" | "PCNT" | "PRET" | "SYNC" | "BRK" | "CONT" | "EXIT" | "RET"
        | "CAL" | "KIL" => {
            m.take("U");
            Op::Nop
        }
        // Fermi's `__syncthreads()`: a barrier whose thread count goes nowhere.
        "BAR" if m.take("RED") => {
            m.take("POPC");
            let discarded = |i: usize| o(i).and_then(Operand::register) == Some(&Register::Zero);
            if !(ins.operands.len() == 2 && discarded(0) && discarded(1)) {
                return Err(cannot(ins, "only `BAR.RED.POPC RZ, RZ` is modelled"));
            }
            Op::Barrier
        }
        "BAR" => {
            m.take("DEFER_BLOCKING");
            if !m.take("SYNC") || ins.operands.len() != 1 {
                return Err(cannot(ins, "only `BAR.SYNC <barrier>` is modelled"));
            }
            Op::Barrier
        }
        _ => return Ok(None),
    }))
}

/// Why branches and tests on the condition code (`@!P0 BRA CC.NEU` after `ISET.GE.U32.AND
/// RZ.CC, …`, `FSET.NEU.FTZ.AND RZ.CC, |R7|, +INF, PT` … `@!P3 BRA CC.EQ`, `CSETP.NEU.AND`:
/// Maxwell–Pascal, 30 branches in the Rodinia/Parboil listings, mostly in the `pow`/`exp`
/// special-case paths) are refused. The warp-level analysis already treats such a branch as
/// splitting the warp whichever way the flags go (`cfg`'s transfer); a run needs the flags'
/// values. NVIDIA's instruction set reference names the `.CC` forms and `CSETP` ("Test
/// Condition Code And Set Predicate") but documents neither which flags an `ISET`/`FSET`
/// with `.CC` sets from its result nor which flags a test such as `NEU` or `EQ` reads.
/// The simulator models the carry and zero flags only where a documented PTX operation pins
/// them down (the 64-bit adds and comparisons of `.CC`/`.X`); a guess here would decide
/// branches.
pub(super) const CONDITION_CODE: &str = "branches and tests on the condition code (CC.NEU, \
     CC.EQ, CSETP) are not modelled: NVIDIA does not document which flags `.CC` sets from an \
     ISET/FSET result nor which flags a test reads (the warp-level analysis treats the \
     branch as splitting the warp either way)";

/// Why `WARPSYNC.EXCLUSIVE`, `WARPSYNC.COLLECTIVE` and `ENDCOLLECTIVE` (sm_86/sm_90 code of
/// cooperative groups) are refused: NVIDIA documents `WARPSYNC` only as "synchronize
/// threads in warp" (CUDA Binary Utilities, instruction set reference), not these forms;
/// `.COLLECTIVE` names a code address (an entry for threads that arrive diverged?), so a
/// guess could change the paths a warp takes.
const UNDOCUMENTED_WARPSYNC: &str = "undocumented form of WARPSYNC (NVIDIA documents \
     `WARPSYNC` only as \"synchronize threads in warp\"; what `.EXCLUSIVE`, `.COLLECTIVE` \
     and `ENDCOLLECTIVE` add — and where `.COLLECTIVE`'s code address sends a warp — is not \
     public, and a guess could change the paths the warp takes)";

/// The control effect of instruction `i` (`block_at[i]`: the block starting at `i`, for the
/// `BREAK`s fused with their branch). Convergence barriers and `WARPSYNC` drive the shared
/// activation stack as `cfg::concrete::run` does, so the simulated warp takes the paths the
/// analysis predicts.
pub(super) fn control(
    ins: &Instruction,
    kernel: &Kernel,
    block_at: &[Option<usize>],
    i: usize,
) -> DecodeResult<Control> {
    let idx = |t: Option<u64>| -> DecodeResult<usize> {
        t.and_then(|a| kernel.index_of(a))
            .ok_or_else(|| cannot(ins, "the target is not an instruction of this listing"))
    };
    Ok(match ins.control {
        ControlKind::Fallthrough | ControlKind::Barrier => Control::Next,
        ControlKind::Bsync { barrier } => Control::Bsync(barrier),
        ControlKind::Break { barrier } => {
            if cfg::barriers::fused_break_at(kernel, block_at, i).is_none() {
                return Err(cannot(
                    ins,
                    "a BREAK not followed by a branch on the same guard is not modelled",
                ));
            }
            Control::Break(barrier)
        }
        ControlKind::WarpSync => Control::WarpSync,
        ControlKind::Branch(t) => {
            if ins
                .operands
                .iter()
                .any(|o| o.register() == Some(&Register::CarryFlag))
            {
                return Err(cannot(ins, CONDITION_CODE));
            }
            let mut also = None;
            for (reg, neg) in ins.branch_predicates() {
                let idx = match reg {
                    Register::Pred(n) if *n < 7 => *n as u8,
                    Register::UniformPred(n) if *n < 7 => UPRED + *n as u8,
                    _ => return Err(cannot(ins, "unexpected predicate operand of BRA")),
                };
                if also.replace(PredSrc { idx, neg }).is_some() {
                    return Err(cannot(ins, "BRA with more than one predicate operand"));
                }
            }
            Control::Branch {
                target: idx(t)?,
                also,
                uniform: ins.opcode.has_modifier("U"),
                convergence: (ins.guard.is_none() && cfg::barriers::on_convergence(ins))
                    .then(|| ins.opcode.has_modifier("DIV")),
            }
        }
        ControlKind::Ssy(_)
        | ControlKind::Pbk(_)
        | ControlKind::Pcnt(_)
        | ControlKind::Pret(_)
        | ControlKind::Bssy { .. } => {
            let Some((tag, t)) = cfg::Tag::pushed_by(ins.control) else {
                return Err(cannot(ins, "not a reconvergence instruction"));
            };
            Control::Prepare {
                tag,
                target: idx(t)?,
            }
        }
        ControlKind::Sync | ControlKind::Brk | ControlKind::Cont | ControlKind::Ret => {
            Control::Halt(cfg::Tag::unwound_by(ins.control))
        }
        ControlKind::Exit => Control::Halt(None),
        // A predicated call splits the callers from the others (`ActivationStack::call`).
        ControlKind::Call(Some(t)) => Control::Call {
            target: idx(Some(t))?,
        },
        ControlKind::Call(None) => {
            return Err(cannot(ins, "the callee is outside this listing"));
        }
        ControlKind::Indirect => return Err(cannot(ins, "indirect branch targets are not known")),
    })
}
