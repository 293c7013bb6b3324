//! Active-mask spin loops: the convergence waits nvcc (11.x) emits for Volta and Turing at
//! the back edges of loops that hold warp-synchronous code.
//!
//! The listing (e.g. `shfl_scan_test`, `reduce7`, `filter_arr` on sm_70/sm_75) reads:
//!
//! ```text
//! L:  VOTE.ANY R10, PT, PT ;          // the threads running here now
//!     YIELD ;
//!     VOTE.ANY R11, PT, PT ;          // ... and a moment later
//!     LOP3.LUT P0, RZ, R10, R11, RZ, 0xc, !PT ;   // P0 = (R11 & ~R10) != 0: someone arrived
//!     @!P0 BRA.U head ;               // nobody new: go round the loop
//!     BRA L ;                         // else wait again
//! ```
//!
//! Turing reads the second mask through the uniform datapath (`VOTEU.ANY UR4, UPT, PT`,
//! compared by `LOP3.LUT P0, RZ, R4, UR4, RZ, 0xc, !PT`); it is the same mask.
//!
//! `VOTE.ANY Rd, PT, PT` writes the mask of the threads executing it (PTX `activemask`). Both
//! votes of one block are executed by the same threads unless another group of the warp
//! reaches the same instruction in between and the scheduler merges it — under independent
//! thread scheduling only a group that is itself running can arrive, that is a pending
//! divergent path (a `NIL` entry of the stack graph; a group waiting at a barrier, a
//! `WARPSYNC` or a return point cannot reach this instruction before it is released). So
//! where the abstract stack holds no pending path, the two masks are equal and a predicate
//! computed from them by `LOP3.LUT` is known: with `a = b` and `c = 0` the lookup table reads
//! only its bits 0 (`a = b = 0`) and 6 (`a = b = 1`), so the result is 0 for every mask when
//! both are clear (the `0xc` above: `~a & b`), and all ones when both are set. With pending
//! paths the predicate stays unknown and the loop is bounded as any other loop.
//!
//! Without this the spin loop is a loop of the warp-level CFG with the default bound, paid on
//! every iteration of the enclosing loop (`shfl_scan_test` on sm_70: 1 048 cycles against 246
//! on sm_61).

use isa::{BlockGraph, ControlKind, Instruction, Kernel, OperandKind, Register};
use std::collections::{BTreeMap, BTreeSet};

/// For each instruction index, the value of its guard's predicate register (before the
/// guard's negation) when the executing group is the only running one, if the block's
/// active-mask reads determine it.
pub fn known_guards(kernel: &Kernel, blocks: &BlockGraph) -> Vec<Option<bool>> {
    let mut out = vec![None; kernel.instructions.len()];
    for b in &blocks.blocks {
        let Some(instrs) = kernel.instructions.get(b.first..=b.last) else {
            continue;
        };
        let mut masks: BTreeSet<Register> = BTreeSet::new();
        let mut known: BTreeMap<Register, bool> = BTreeMap::new();
        for (k, ins) in instrs.iter().enumerate() {
            if let Some(g) = &ins.guard {
                out[b.first + k] = known.get(&g.reg).copied();
            }
            let mask_vote = active_mask_vote(ins);
            let predicate = mask_compare(ins, &masks);
            for w in &ins.writes {
                masks.remove(w);
                known.remove(w);
            }
            if let Some(r) = mask_vote {
                masks.insert(r);
            }
            if let Some((p, v)) = predicate {
                known.insert(p, v);
            }
            if ins.control != ControlKind::Fallthrough {
                // Anything that may change the running group ends what is known.
                masks.clear();
                known.clear();
            }
        }
    }
    out
}

fn unguarded(ins: &Instruction) -> bool {
    ins.guard.as_ref().is_none_or(|g| g.is_always_true())
}

fn reg(ins: &Instruction, i: usize) -> Option<&Register> {
    ins.operands.get(i).and_then(|o| o.register())
}

/// Operand `i` is `PT` (the parser reads the uniform `UPT` as the same), not negated.
fn is_pt(ins: &Instruction, i: usize) -> bool {
    ins.operands
        .get(i)
        .is_some_and(|o| !o.negated && o.register() == Some(&Register::True))
}

/// `VOTE.ANY Rd, PT, PT` or `VOTEU.ANY URd, UPT, PT` (unguarded): the destination receives
/// the active mask.
fn active_mask_vote(ins: &Instruction) -> Option<Register> {
    if !matches!(ins.opcode.name.as_str(), "VOTE" | "VOTEU")
        || !ins.opcode.has_modifier("ANY")
        || !unguarded(ins)
        || ins.operands.len() != 3
        || !is_pt(ins, 1)
        || !is_pt(ins, 2)
    {
        return None;
    }
    match reg(ins, 0)? {
        r @ (Register::Gpr(_) | Register::Uniform(_)) => Some(r.clone()),
        _ => None,
    }
}

/// `LOP3.LUT Pp, RZ, Ra, Rb, RZ, lut, !PT` (unguarded) with `Ra`, `Rb` both active masks:
/// `Pp` and its value (module doc).
fn mask_compare(ins: &Instruction, masks: &BTreeSet<Register>) -> Option<(Register, bool)> {
    if ins.opcode.name != "LOP3" || !unguarded(ins) || ins.operands.len() != 7 {
        return None;
    }
    if ins.opcode.modifiers.iter().any(|m| m != "LUT") {
        return None; // `.PAND` and friends combine the predicate otherwise
    }
    let p = match reg(ins, 0)? {
        r @ Register::Pred(_) => r.clone(),
        _ => return None,
    };
    let inputs_are_masks = [2, 3].iter().all(|&i| {
        ins.operands[i]
            .register()
            .is_some_and(|r| masks.contains(r))
            && !ins.operands[i].inverted
            && !ins.operands[i].negated
    });
    let c_zero = reg(ins, 4) == Some(&Register::Zero);
    let false_input =
        ins.operands[6].negated && ins.operands[6].register() == Some(&Register::True);
    let lut = match &ins.operands[5].kind {
        OperandKind::Immediate {
            value: isa::Immediate::Int(v),
        } => *v,
        _ => return None,
    };
    if !(inputs_are_masks && c_zero && false_input && reg(ins, 1) == Some(&Register::Zero)) {
        return None;
    }
    match (lut & 1 != 0, lut >> 6 & 1 != 0) {
        (false, false) => Some((p, false)),
        (true, true) => Some((p, true)),
        _ => None,
    }
}
