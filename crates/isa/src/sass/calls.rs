//! Calls that never return, read as the branches they are (issue #37 item 4).
//!
//! nvcc for Volta and later sometimes leaves a loop through a predicated call into the
//! kernel's tail: `@P2 CALL.REL.NOINC 0x1650 ; BRA 0x810`, where the code at 0x1650 ends in
//! `EXIT` and no `RET` can be reached from it (parboil `gridding_GPU`, cub's radix-sort
//! kernels). On these architectures a call keeps its return address in a register (the
//! callee returns with `RET.REL.NODEC Rn`), not on a hardware stack, and no convergence
//! barrier is involved: a call whose callee never returns is a jump that also writes a
//! register nobody reads. Read as a call, it made every analysis follow return addresses
//! that are never used — one more pending return per loop iteration, until the thread-level
//! CFG's state budget ran out — so such calls become branches here, once, for every
//! analysis and the simulator.
//!
//! Only the `.NOINC` calls of sm_70 and later (`CALL.REL.NOINC`, `CALL.ABS.NOINC`) are read
//! so; Fermi–Pascal `CAL`/`JCAL` push onto the reconvergence stack, whose later pops a
//! branch would not make. "Never returns" is decided conservatively: from the target,
//! following every branch and fall-through (a nested call counted as returning),
//! no `RET` is reachable, and no indirect branch or branch to an unknown place is either.

use crate::diagnostic::Diagnostic;
use crate::instruction::{ControlKind, Instruction};
use std::collections::BTreeMap;

/// Rewrites each `.NOINC` call whose callee never returns (module doc) into a branch, with
/// a note at the call.
pub(super) fn read_calls_that_never_return(
    instructions: &mut [Instruction],
    diags: &mut Vec<Diagnostic>,
) {
    let index: BTreeMap<u64, usize> = instructions
        .iter()
        .enumerate()
        .map(|(i, ins)| (ins.address, i))
        .collect();
    let mut verdict: BTreeMap<usize, bool> = BTreeMap::new();
    for i in 0..instructions.len() {
        let ins = &instructions[i];
        let ControlKind::Call(Some(t)) = ins.control else {
            continue;
        };
        if !(ins.opcode.name == "CALL" && ins.opcode.has_modifier("NOINC")) {
            continue;
        }
        let Some(&start) = index.get(&t) else {
            continue;
        };
        let returns = *verdict
            .entry(start)
            .or_insert_with(|| may_return(instructions, &index, start));
        if !returns {
            diags.push(Diagnostic::note(
                ins.opcode.span,
                format!(
                    "`{}` at {:#06x} leads to code that never returns (no RET is reachable from \
                     {t:#06x}): it is read as a branch to {t:#06x}",
                    ins.text.trim(),
                    ins.address
                ),
            ));
            instructions[i].control = ControlKind::Branch(Some(t));
        }
    }
}

/// Whether a `RET` (or a place the analysis cannot follow) is reachable from instruction
/// `start`, a nested call counted as returning to its next instruction (without entering
/// its callee, whose `RET` is its own).
fn may_return(instructions: &[Instruction], index: &BTreeMap<u64, usize>, start: usize) -> bool {
    let mut seen = vec![false; instructions.len()];
    let mut work = vec![start];
    while let Some(i) = work.pop() {
        let Some(ins) = instructions.get(i) else {
            // Running off the end of the listing: nothing known, so it may return.
            return true;
        };
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        let guarded = ins.guard.is_some();
        let mut next = |a: Option<u64>| -> bool {
            match a.and_then(|a| index.get(&a)) {
                Some(&j) => {
                    work.push(j);
                    true
                }
                None => false,
            }
        };
        match ins.control {
            ControlKind::Ret => return true,
            ControlKind::Exit => {
                if guarded {
                    work.push(i + 1);
                }
            }
            ControlKind::Branch(t) => {
                if !next(t) {
                    return true;
                }
                let on_convergence =
                    ins.opcode.has_modifier("DIV") || ins.opcode.has_modifier("CONV");
                if guarded || on_convergence || ins.tests_condition_code() {
                    work.push(i + 1);
                }
            }
            // A nested call is taken to return to its next instruction: its callee's own
            // `RET` is not ours (and were it never to return, this only adds paths).
            ControlKind::Call(_) => work.push(i + 1),
            ControlKind::Indirect => return true,
            // The reconvergence stack of Fermi–Pascal (`SYNC`, `BRK`, `CONT`, …) sends threads
            // to places this walk does not track.
            ControlKind::Sync
            | ControlKind::Brk
            | ControlKind::Cont
            | ControlKind::Ssy(_)
            | ControlKind::Pbk(_)
            | ControlKind::Pcnt(_)
            | ControlKind::Pret(_) => return true,
            _ => work.push(i + 1),
        }
    }
    false
}
