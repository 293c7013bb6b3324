//! Bitwise SASS instructions whose value is a function of one or two registers: the
//! funnel shifts `SHF` that are plain shifts, `LOP3.LUT` of at most two non-`RZ` operands,
//! and `PLOP3.LUT` truth tables over predicates.

use super::ops::{constant, int};
use super::{is_zero, Lowering};
use crate::ir::{CmpOp, FuncOp, Term};
use isa::{Instruction, Register};

/// The truth value of a 3-input LUT over predicates (bit `4a + 2b + c`).
pub(super) fn lut_predicate(lut: i128, x: &[Term; 3]) -> Term {
    let mut acc = Term::Bool(false);
    for row in 0..8 {
        if lut >> row & 1 == 0 {
            continue;
        }
        let lit = |k: usize| {
            if row >> (2 - k) & 1 == 1 {
                x[k].clone()
            } else {
                Term::not(x[k].clone())
            }
        };
        acc = Term::or(acc, Term::and(Term::and(lit(0), lit(1)), lit(2)));
    }
    acc
}

/// `SHF`: the forms that are plain shifts of one register (module doc of [`super`]).
pub(super) fn shf(l: &mut Lowering, ins: &Instruction) -> Option<Vec<(Register, Term)>> {
    let o = &ins.operands;
    if o.len() != 4 {
        return None;
    }
    let has = |m: &str| ins.opcode.has_modifier(m);
    let k = constant(&o[2]).filter(|k| (0..32).contains(k))?;
    let d = o[0].register()?.clone();
    let left = has("L");
    let hi = has("HI");
    if has("W") {
        return None;
    }
    let t = match (left, hi) {
        // Low word of (b:a) << k: a << k.
        (true, false) => Term::mul(int(l, &o[1]), Term::int(32, 1 << k)),
        // High word of (b:a) << k with a = 0: b << k.
        (true, true) if is_zero(&o[1]) => Term::mul(int(l, &o[3]), Term::int(32, 1 << k)),
        // High word of (b:a) >> k: b >> k.
        (false, true) => {
            let op = if has("S32") || has("S64") {
                FuncOp::ShrS
            } else {
                FuncOp::ShrU
            };
            Term::func(op, 32, vec![int(l, &o[3]), Term::int(32, k)])
        }
        // Low word of (b:a) >> k with b = 0: a >> k (logical).
        (false, false) if is_zero(&o[3]) => {
            Term::func(FuncOp::ShrU, 32, vec![int(l, &o[1]), Term::int(32, k)])
        }
        _ => return None,
    };
    Some(vec![(d, t)])
}

/// `LOP3.LUT`: a function of at most two non-`RZ` operands, and its predicate (`≠ 0`).
pub(super) fn lop3(l: &mut Lowering, ins: &Instruction) -> Option<Vec<(Register, Term)>> {
    let o = &ins.operands;
    let preds = o
        .iter()
        .take_while(|x| x.register().is_some_and(Register::is_predicate))
        .count();
    let d = o.get(preds)?.register()?.clone();
    let (ia, ib, ic) = (preds + 1, preds + 2, preds + 3);
    let lut = constant(o.get(preds + 4)?)?;
    let tail_ok = o
        .get(preds + 5)
        .is_none_or(|p| p.register() == Some(&Register::True) && (p.negated || p.inverted));
    let srcs = [&o.get(ia)?, &o.get(ib)?, &o.get(ic)?];
    // Inputs that are RZ are constant 0; the others are the function's variables.
    let vars: Vec<usize> = (0..3).filter(|&k| !is_zero(srcs[k])).collect();
    let f = |bits: [bool; 3]| -> bool {
        let row = (usize::from(bits[0]) << 2) | (usize::from(bits[1]) << 1) | usize::from(bits[2]);
        lut >> row & 1 == 1
    };
    let table: Vec<bool> = (0..1usize << vars.len())
        .map(|row| {
            let mut bits = [false; 3];
            for (i, &k) in vars.iter().enumerate() {
                bits[k] = row >> (vars.len() - 1 - i) & 1 == 1;
            }
            f(bits)
        })
        .collect();
    let t: Vec<Term> = vars.iter().map(|&k| int(l, srcs[k])).collect();
    let not = |x: Term| Term::func(FuncOp::Not, 32, vec![x]);
    let bin = |op: FuncOp, a: Term, b: Term| Term::func(op, 32, vec![a, b]);
    let value = match (t.as_slice(), table.as_slice()) {
        ([], [false]) => Term::int(32, 0),
        ([], [true]) => Term::int(32, -1),
        ([x], [false, true]) => x.clone(),
        ([x], [true, false]) => not(x.clone()),
        ([_], [false, false]) => Term::int(32, 0),
        ([_], [true, true]) => Term::int(32, -1),
        // Rows: (x, y) = 00, 01, 10, 11.
        ([x, y], [false, false, false, true]) => bin(FuncOp::And, x.clone(), y.clone()),
        ([x, y], [false, true, true, true]) => bin(FuncOp::Or, x.clone(), y.clone()),
        ([x, y], [false, true, true, false]) => bin(FuncOp::Xor, x.clone(), y.clone()),
        ([x, y], [false, false, true, false]) => bin(FuncOp::And, x.clone(), not(y.clone())),
        ([x, y], [false, true, false, false]) => bin(FuncOp::And, not(x.clone()), y.clone()),
        ([x, _], [false, false, true, true]) => x.clone(),
        ([_, y], [false, true, false, true]) => y.clone(),
        ([x, _], [true, true, false, false]) => not(x.clone()),
        ([_, y], [true, false, true, false]) => not(y.clone()),
        _ => return None,
    };
    let mut out = Vec::new();
    if d != Register::Zero {
        out.push((d, value.clone()));
    }
    if preds >= 1 && tail_ok {
        if let Some(p) = o[0].register().filter(|r| **r != Register::True) {
            out.push((
                p.clone(),
                Term::cmp(CmpOp::Ne, false, value, Term::int(32, 0)),
            ));
        }
    }
    Some(out)
}
