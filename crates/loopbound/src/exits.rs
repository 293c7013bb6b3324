//! What a thread must satisfy to go around a loop once more: the comparisons implied by the
//! loop's "stay" conditions at the blocks every iteration passes.
//!
//! A block `u` of the loop that dominates every latch is passed by every iteration that
//! returns to the header (a path from the header to a latch that avoided `u` would, with the
//! path from the entry to the header — which avoids the body — avoid `u`). A thread leaves
//! `u` for the loop only along an edge into the body, so the disjunction of those edges'
//! conditions, `stay(u)`, held in every iteration but the last. Any literal `stay(u)`
//! implies is a *necessary* condition of the next iteration; a data-dependent exit beside it
//! (`x != 1 && c < 1000`) only ends the loop earlier, which the literal `c < 1000` still
//! bounds. Exits that are not edges (a guarded `EXIT`, a return) only shorten the loop too.
//!
//! Implication is decided on the truth table of the condition's leaves (comparisons and
//! unknown predicates taken as independent propositions: real dependencies only remove rows,
//! so an implication found this way holds). Conditions with more than [`MAX_LEAVES`] leaves
//! are skipped.

use crate::expr::{Bool, Store, Value, ValueId};
use crate::ir::{CmpOp, Program};
use crate::loops::{Loop, Loops};
use crate::symbolic::Symbolic;

/// Most distinct leaves of a stay condition examined (2^n rows).
pub const MAX_LEAVES: usize = 10;

/// A comparison every further iteration needs: `a op b`, read at the end of block `at`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Literal {
    pub at: usize,
    pub op: CmpOp,
    pub signed: bool,
    pub a: ValueId,
    pub b: ValueId,
    /// The stay condition at `at` *is* this comparison: threads leave the loop there exactly
    /// when it fails (so the iteration they leave in is known when the count is).
    pub sole: bool,
}

/// The literals of loop `l`, from every block that dominates all its latches.
pub fn literals(p: &Program, loops: &Loops, l: &Loop, sym: &Symbolic) -> Vec<Literal> {
    let mut out = Vec::new();
    for u in 0..p.blocks.len() {
        if !l.contains(u) || !l.latches.iter().all(|&x| loops.dominates(u, x)) {
            continue;
        }
        let Some(conds) = sym.conds.get(u) else {
            continue;
        };
        let staying: Vec<ValueId> = p.blocks[u]
            .edges
            .iter()
            .zip(conds)
            .filter(|(e, _)| l.contains(e.to))
            .map(|(_, &c)| c)
            .collect();
        if staying.is_empty() {
            continue;
        }
        let single = (staying.len() == 1).then(|| staying[0]);
        for (leaf, polarity) in implied(&sym.store, staying) {
            if let Value::Bool(Bool::Cmp { op, signed, a, b }) = sym.store.get(leaf) {
                let sole = single.is_some_and(|c| {
                    (polarity && c == leaf)
                        || (!polarity && sym.store.get(c) == &Value::Bool(Bool::Not(leaf)))
                });
                let op = if polarity { *op } else { op.negated() };
                out.push(Literal {
                    at: u,
                    op,
                    signed: *signed,
                    a: *a,
                    b: *b,
                    sole,
                });
            }
        }
    }
    out
}

/// The leaves (comparisons, unknown predicates) `stay` (a disjunction of truth values)
/// implies, each with the polarity it must have.
pub fn implied(s: &Store, stay: Vec<ValueId>) -> Vec<(ValueId, bool)> {
    let mut leaves = Vec::new();
    for &c in &stay {
        collect_leaves(s, c, &mut leaves, 0);
    }
    if leaves.is_empty() || leaves.len() > MAX_LEAVES {
        return Vec::new();
    }
    // For each leaf: can it be true / false in a row where `stay` holds?
    let mut can_true = vec![false; leaves.len()];
    let mut can_false = vec![false; leaves.len()];
    let mut any = false;
    for row in 0u32..(1 << leaves.len()) {
        let holds = stay
            .iter()
            .any(|&c| truth(s, c, &leaves, row, 0) == Some(true));
        if !holds {
            continue;
        }
        any = true;
        for i in 0..leaves.len() {
            if row >> i & 1 == 1 {
                can_true[i] = true;
            } else {
                can_false[i] = true;
            }
        }
    }
    if !any {
        // `stay` never holds: the loop never repeats; no comparison is needed to say so,
        // and the caller gets none (it falls back to other literals or no bound).
        return Vec::new();
    }
    leaves
        .iter()
        .enumerate()
        .filter_map(|(i, &leaf)| match (can_true[i], can_false[i]) {
            (true, false) => Some((leaf, true)),
            (false, true) => Some((leaf, false)),
            _ => None,
        })
        .collect()
}

fn collect_leaves(s: &Store, v: ValueId, out: &mut Vec<ValueId>, depth: usize) {
    if out.len() > MAX_LEAVES || depth > 32 {
        // Too many: make the caller give up.
        while out.len() <= MAX_LEAVES {
            out.push(ValueId::MAX);
        }
        return;
    }
    match s.get(v) {
        Value::Bool(Bool::Const(_)) => {}
        Value::Bool(Bool::Atom(_)) | Value::Bool(Bool::Cmp { .. }) | Value::Int { .. } => {
            if !out.contains(&v) {
                out.push(v);
            }
        }
        Value::Bool(Bool::Not(x)) => collect_leaves(s, *x, out, depth + 1),
        Value::Bool(Bool::And(x, y)) | Value::Bool(Bool::Or(x, y)) => {
            collect_leaves(s, *x, out, depth + 1);
            collect_leaves(s, *y, out, depth + 1);
        }
    }
}

/// `v` under the assignment `row` of `leaves` (bit i = leaf i).
fn truth(s: &Store, v: ValueId, leaves: &[ValueId], row: u32, depth: usize) -> Option<bool> {
    if depth > 40 {
        return None;
    }
    if let Some(i) = leaves.iter().position(|&l| l == v) {
        return Some(row >> i & 1 == 1);
    }
    match s.get(v) {
        Value::Bool(Bool::Const(k)) => Some(*k),
        Value::Bool(Bool::Not(x)) => truth(s, *x, leaves, row, depth + 1).map(|k| !k),
        Value::Bool(Bool::And(x, y)) => {
            Some(truth(s, *x, leaves, row, depth + 1)? && truth(s, *y, leaves, row, depth + 1)?)
        }
        Value::Bool(Bool::Or(x, y)) => {
            Some(truth(s, *x, leaves, row, depth + 1)? || truth(s, *y, leaves, row, depth + 1)?)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::Atom;
    use crate::ir::Input;

    /// `(x ≠ 1) ∧ (c < 1000)` (the Collatz loop's stay condition) implies `c < 1000` and
    /// `x ≠ 1`; `(x ≠ 1) ∨ (c < 1000)` implies neither; `¬((c ≥ 1000) ∨ P)` implies
    /// `c < 1000` (the negated leaf) and `¬P`.
    #[test]
    fn conjuncts_are_implied_disjuncts_are_not() {
        let mut s = Store::new();
        let x = s.atom_value(Atom::Input(Input::Tid(0)), 32);
        let c = s.atom_value(Atom::Input(Input::Ctaid(0)), 32);
        let one = s.int(32, 1);
        let k = s.int(32, 1000);
        let ne = s.cmp(CmpOp::Ne, false, x, one);
        let lt = s.cmp(CmpOp::Lt, true, c, k);
        let both = s.and(ne, lt);
        let got = implied(&s, vec![both]);
        assert_eq!(got, vec![(ne, true), (lt, true)]);
        let either = s.or(ne, lt);
        assert!(implied(&s, vec![either]).is_empty());
        let ge = s.cmp(CmpOp::Ge, true, c, k);
        let p = s.atom_value(Atom::Opaque { block: 0, slot: 1 }, 1);
        let or = s.or(ge, p);
        let stay = s.not(or);
        let got = implied(&s, vec![stay]);
        assert!(got.contains(&(ge, false)));
        assert!(got.contains(&(p, false)));
        // Two edges into the loop: one under `lt`, one under `ne`: nothing is implied.
        assert!(implied(&s, vec![lt, ne]).is_empty());
    }
}
