//! 64-bit values in register pairs: carry chains and extended compares, rebuilt as one
//! 64-bit value so that a 64-bit counter is an induction variable like a 32-bit one.
//!
//! A **carry chain** is a low add that writes a carry (`IADD3 Rlo, Pc, a, b, RZ`, or
//! Maxwell's `IADD Rlo.CC, a, b`) and, later in the same block, the high add that reads it
//! (`IADD3.X Rhi, A, B, C, Pc, !PT`, `IMAD.X Rhi, RZ, RZ, A, Pc`, `IADD.X Rhi, A, B`). The
//! pair's value is exactly `Σ lo + 2^32 · Σ hi` in 64-bit arithmetic, counting a negated low
//! operand `−x` as `2^32 − x` (the adder adds `~x + 1`, whose carry is the borrow) and an
//! inverted one `~x` as `2^32 − 1 − x`; operands pair up into `Concat(hi, lo)` atoms. The
//! chain is taken only when neither instruction is guarded and nothing between them writes
//! the carry or a high operand, and the low destination is not a high operand.
//!
//! An **extended compare** is `ISETP.op.U32.AND Plo, PT, a, b, PT` followed by
//! `ISETP.op.bop.EX Pd, Pe, A, B, Pc, Plo`: the 64-bit comparison `A:a op B:b` (signed unless
//! the `.EX` is `.U32`) combined with `Pc` — the semantics of the `.EX` forms (the high
//! compare decides unless the high words are equal, then the low one does).

use super::ops::{self, cmp_op, combine, int};
use super::{is_zero, Lowering};
use crate::ir::{FuncOp, Op, Term, Var};
use isa::{BlockGraph, Instruction, Kernel, Register};
use std::collections::HashMap;

/// The rewrites found in a kernel.
pub(crate) struct Chains {
    /// Low add index → its high add index.
    lo: HashMap<usize, usize>,
    /// High add index → low add index.
    hi: HashMap<usize, usize>,
    /// `.EX` compare index → its low compare index.
    ex: HashMap<usize, usize>,
    /// The 64-bit temporary of each chain, by low index.
    temps: HashMap<usize, Var>,
}

/// Finds the chains of `kernel`, block by block.
pub(crate) fn find(kernel: &Kernel, graph: &BlockGraph) -> Chains {
    let mut c = Chains {
        lo: HashMap::new(),
        hi: HashMap::new(),
        ex: HashMap::new(),
        temps: HashMap::new(),
    };
    let ins = &kernel.instructions;
    for b in &graph.blocks {
        for i in b.first..=b.last {
            if let Some(carry) = carry_out(&ins[i]) {
                let Some(j) = (i + 1..=b.last).find(|&j| reads(&ins[j], &carry)) else {
                    continue;
                };
                let Some(highs) = high_operands(&ins[j], &carry) else {
                    continue;
                };
                let lo_dst = ins[i].operands[0].register().cloned();
                let clean = (i + 1..j).all(|k| {
                    ops::writes(&ins[k])
                        .iter()
                        .all(|w| *w != carry && !highs.contains(w))
                });
                if clean && lo_dst.is_some_and(|d| !highs.contains(&d)) {
                    c.lo.insert(i, j);
                    c.hi.insert(j, i);
                }
            }
            if is_ex(&ins[i]) {
                if let Some(k) = low_compare(ins, b.first, i) {
                    c.ex.insert(i, k);
                }
            }
        }
    }
    c
}

/// The carry a low add writes: a predicate (`IADD3 Rlo, Pc, …`) or the condition code.
fn carry_out(ins: &Instruction) -> Option<Register> {
    if ins.guard.is_some() || ins.opcode.has_modifier("X") {
        return None;
    }
    let o = &ins.operands;
    match ins.opcode.name.as_str() {
        "IADD3" | "UIADD3" if o.len() == 5 => {
            let p = o[1].register()?;
            // At most two non-zero addends: the carry is then 0 or 1.
            let zeros = o[2..].iter().filter(|x| is_zero(x)).count();
            (p.is_predicate() && *p != Register::True && zeros >= 1).then(|| p.clone())
        }
        "IADD" if o.len() == 3 && o[0].suffixes.iter().any(|s| s == "CC") => {
            Some(Register::CarryFlag)
        }
        _ => None,
    }
}

fn reads(ins: &Instruction, r: &Register) -> bool {
    ins.reads.contains(r) || (*r == Register::CarryFlag && ins.opcode.has_modifier("X"))
}

/// The high operands (register and constant terms' registers) of a high add reading
/// `carry`, when it has a supported form.
fn high_operands(ins: &Instruction, carry: &Register) -> Option<Vec<Register>> {
    if ins.guard.is_some() || !ins.opcode.has_modifier("X") {
        return None;
    }
    let o = &ins.operands;
    let srcs: &[isa::Operand] = match (ins.opcode.name.as_str(), carry) {
        ("IADD3" | "UIADD3", Register::Pred(_) | Register::UniformPred(_)) if o.len() == 6 => {
            let c_in = o[4].register()?;
            let second = o[5].register()?;
            let no_second = *second == Register::True && (o[5].negated || o[5].inverted);
            if c_in != carry || o[4].negated || o[4].inverted || !no_second {
                return None;
            }
            &o[1..4]
        }
        ("IMAD", Register::Pred(_)) if o.len() == 5 => {
            if o[4].register()? != carry || o[4].negated || !(is_zero(&o[1]) || is_zero(&o[2])) {
                return None;
            }
            &o[3..4]
        }
        ("IADD", Register::CarryFlag) if o.len() == 3 => &o[1..3],
        _ => return None,
    };
    Some(
        srcs.iter()
            .flat_map(|x| x.registers())
            .filter(Register::is_storage)
            .collect(),
    )
}

fn is_ex(ins: &Instruction) -> bool {
    matches!(ins.opcode.name.as_str(), "ISETP" | "UISETP")
        && ins.opcode.has_modifier("EX")
        && ins.operands.len() == 6
}

/// The low compare an `.EX` compare at `j` continues (scanning back in its block).
fn low_compare(ins: &[Instruction], first: usize, j: usize) -> Option<usize> {
    let ex = &ins[j];
    let plo = ex.operands[5].register()?.clone();
    if ex.operands[5].negated || !plo.is_predicate() {
        return None;
    }
    let k = (first..j)
        .rev()
        .find(|&k| ops::writes(&ins[k]).contains(&plo))?;
    let lo = &ins[k];
    let ok = lo.opcode.name == ex.opcode.name
        && !lo.opcode.has_modifier("EX")
        && lo.opcode.has_modifier("U32")
        && lo.opcode.has_modifier("AND")
        && lo.guard.is_none()
        && lo.operands.len() == 5
        && lo.operands[0].register() == Some(&plo)
        && lo.operands[4].register() == Some(&Register::True)
        && !lo.operands[4].negated
        && cmp_op(lo).is_some()
        && cmp_op(lo) == cmp_op(ex);
    if !ok {
        return None;
    }
    let sources: Vec<Register> = lo.operands[2..4]
        .iter()
        .flat_map(|x| x.registers())
        .collect();
    let clean = (k + 1..j).all(|m| ops::writes(&ins[m]).iter().all(|w| !sources.contains(w)));
    clean.then_some(k)
}

impl Chains {
    /// Lowers instruction `i` when it is part of a chain; whether it was.
    pub(crate) fn lower(
        &mut self,
        l: &mut Lowering,
        kernel: &Kernel,
        i: usize,
        out: &mut Vec<Op>,
    ) -> bool {
        let ins = &kernel.instructions;
        if let Some(&j) = self.lo.get(&i) {
            let t = l.temp(format!("pair@{:#x}", ins[i].address), 64);
            let value = pair_value(l, &ins[i], &ins[j]);
            out.push(Op {
                dst: t,
                value,
                guard: None,
            });
            self.temps.insert(i, t);
            let lo = ins[i].operands[0].register().cloned();
            let modelled = lo
                .map(|r| {
                    vec![(
                        r,
                        Term::Trunc {
                            width: 32,
                            term: Box::new(Term::Var(t)),
                        },
                    )]
                })
                .unwrap_or_default();
            ops::emit(l, &ins[i], None, modelled, out);
            return true;
        }
        if let Some(lo) = self.hi.get(&i) {
            let Some(&t) = self.temps.get(lo) else {
                return false;
            };
            let hi = ins[i].operands[0].register().cloned();
            let modelled = hi
                .map(|r| vec![(r, Term::func(FuncOp::Hi, 32, vec![Term::Var(t)]))])
                .unwrap_or_default();
            ops::emit(l, &ins[i], None, modelled, out);
            return true;
        }
        if let Some(&k) = self.ex.get(&i) {
            let (ex, lo) = (&ins[i], &ins[k]);
            let guard = l.guard(ex);
            if guard == Some(Term::Bool(false)) {
                return true;
            }
            let Some(op) = cmp_op(ex) else {
                return false;
            };
            let pair = |l: &mut Lowering, hi: &isa::Operand, lo: &isa::Operand| {
                Term::func(FuncOp::Concat, 64, vec![int(l, hi), int(l, lo)])
            };
            let a = pair(l, &ex.operands[2], &lo.operands[2]);
            let b = pair(l, &ex.operands[3], &lo.operands[3]);
            let cmp = Term::cmp(op, !ex.opcode.has_modifier("U32"), a, b);
            let c = l.predicate(&ex.operands[4]);
            let Some(pd) = combine(ex, 0, cmp, c) else {
                return false;
            };
            let modelled = ex.operands[0]
                .register()
                .filter(|r| **r != Register::True)
                .map(|r| vec![(r.clone(), pd)])
                .unwrap_or_default();
            ops::emit(l, ex, guard, modelled, out);
            return true;
        }
        false
    }
}

/// The 64-bit value of the chain `lo` (low add) + `hi` (high add) (module doc).
fn pair_value(l: &mut Lowering, lo: &Instruction, hi: &Instruction) -> Term {
    let two32 = 1i128 << 32;
    let mut constant: i128 = 0;
    // (sign, term) of the non-constant operands.
    let mut lows: Vec<(i128, Term)> = Vec::new();
    let mut highs: Vec<(i128, Term)> = Vec::new();
    let lo_srcs: &[isa::Operand] = if lo.opcode.name == "IADD" {
        &lo.operands[1..3]
    } else {
        &lo.operands[2..5]
    };
    for o in lo_srcs {
        if let Some(c) = ops::constant(o) {
            constant += c.rem_euclid(two32);
            continue;
        }
        let t = magnitude(l, o);
        if o.negated {
            constant += two32;
            lows.push((-1, t));
        } else if o.inverted {
            constant += two32 - 1;
            lows.push((-1, t));
        } else {
            lows.push((1, t));
        }
    }
    let hi_srcs: &[isa::Operand] = match hi.opcode.name.as_str() {
        "IMAD" => &hi.operands[3..4],
        "IADD" => &hi.operands[1..3],
        _ => &hi.operands[1..4],
    };
    for o in hi_srcs {
        if let Some(c) = ops::constant(o) {
            constant += two32 * c;
            continue;
        }
        let t = magnitude(l, o);
        if o.negated {
            highs.push((-1, t));
        } else if o.inverted {
            constant -= two32;
            highs.push((-1, t));
        } else {
            highs.push((1, t));
        }
    }
    let zero = || Term::int(32, 0);
    let mut acc = Term::int(64, constant);
    for sign in [1i128, -1] {
        let ls: Vec<Term> = lows
            .iter()
            .filter(|(s, _)| *s == sign)
            .map(|x| x.1.clone())
            .collect();
        let hs: Vec<Term> = highs
            .iter()
            .filter(|(s, _)| *s == sign)
            .map(|x| x.1.clone())
            .collect();
        for k in 0..ls.len().max(hs.len()) {
            let h = hs.get(k).cloned().unwrap_or_else(zero);
            let lw = ls.get(k).cloned().unwrap_or_else(zero);
            let c = Term::func(FuncOp::Concat, 64, vec![h, lw]);
            acc = if sign > 0 {
                Term::add(acc, c)
            } else {
                Term::sub(acc, c)
            };
        }
    }
    acc
}

/// Operand `o` as a 32-bit value without its negation or inversion, which the pair's sum
/// applies itself (as a sign and a constant).
fn magnitude(l: &mut Lowering, o: &isa::Operand) -> Term {
    let plain = isa::Operand {
        negated: false,
        inverted: false,
        ..o.clone()
    };
    int(l, &plain)
}
