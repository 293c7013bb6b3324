//! Induction variables of a loop and the comparisons on them that every further iteration
//! needs (the loop's [`Fact`]s).
//!
//! A variable `v` the loop writes has the header φ `X = Entry(header, v)`. Its value at each
//! latch, read from the symbolic pass, says how it evolves per iteration:
//!
//! - **linear**: `X + s` with `s` invariant in the loop (added or subtracted a constant, a
//!   parameter, a launch dimension, or a value computed before the loop); where paths in the
//!   body join with different updates, each alternative's step counts, and a guarded update
//!   (`@P0 IADD3 R3, R3, 1`) has the steps `{1, 0}` — a zero step, so no bound from it;
//! - **halving**: `X >> k` (logical) or `X / d`, `k ≥ 1`, `d ≥ 2` (reduction trees);
//! - **scaling**: `c · X`, `c ≥ 2` (doubling strides).
//!
//! A 64-bit variable held in a register pair is the node `Concat(hi, lo)` of the two φs, with
//! its evolution read the same way (the lowerings rebuild 64-bit sums from carry chains, so
//! the pair's next value simplifies to `Concat(hi, lo) + s`).
//!
//! A literal `a op b` of [`crate::exits`] becomes a fact when one side is `c·X + e` for one
//! induction variable `X` (constant `c`, `e` invariant) and the other side is invariant; for
//! halving and scaling variables, when one side is `X` itself or its next value. Invariance:
//! no atom of the value is defined inside the loop ([`Store::invariant`]); the values of
//! enclosing loops' φs are invariant here and get their ranges when the enclosing loop is
//! bounded (triangular nests).

use crate::exits::Literal;
use crate::expr::{Atom, AtomId, Store, Value, ValueId};
use crate::ir::{FuncOp, Program, Var};
use crate::loops::Loop;
use crate::symbolic::Symbolic;

/// How an induction variable changes per iteration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Evolution {
    /// `next = X + s` for one of `steps` (each invariant).
    Linear { steps: Vec<ValueId> },
    /// `next = X >> k` (`ShrU`) or `X / d` (`DivU`), `by` = `k` or `d`.
    Halving { op: FuncOp, by: i128 },
    /// `next = factor · X`.
    Scaling { factor: i128 },
}

/// An induction variable of one loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Iv {
    /// The φ atom (or the pair node).
    pub atom: AtomId,
    pub value: ValueId,
    /// The registers (`R7`, `R5:R4`).
    pub name: String,
    pub width: u32,
    /// Its values on entry, one per entering edge.
    pub inits: Vec<ValueId>,
    /// Its next values, one per latch.
    pub nexts: Vec<ValueId>,
    pub evolution: Evolution,
}

/// Where the induction variable sits in a fact's compared side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// `side = coef · X + offset`.
    Linear { coef: i128, offset: ValueId },
    /// `side = X` (halving or scaling).
    Current,
    /// `side = next value of X` (halving or scaling).
    Next,
}

/// A necessary condition of the next iteration on one induction variable:
/// `side op limit`, read at the end of block `at`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact {
    pub iv: usize,
    pub at: usize,
    pub op: crate::ir::CmpOp,
    pub signed: bool,
    pub side: ValueId,
    pub limit: ValueId,
    pub shape: Shape,
    /// Linear: the side's first value `coef · init + offset`, one per init.
    pub starts: Vec<ValueId>,
    /// Linear: `limit − start`, one per init (symbolic, so shared atoms cancel).
    pub distances: Vec<ValueId>,
    /// Linear: `coef · step`, one per step.
    pub steps: Vec<ValueId>,
    /// Threads leave the loop at `at` exactly when this comparison fails
    /// ([`crate::exits::Literal::sole`]).
    pub sole: bool,
}

/// What one variable's φ stands for.
enum Candidate {
    Single(Var),
    /// A register pair `hi:lo`.
    Pair(Var, Var),
}

/// The induction variables and facts of loop `l`.
pub fn analyse(
    p: &Program,
    l: &Loop,
    li: usize,
    sym: &mut Symbolic,
    literals: &[Literal],
) -> (Vec<Iv>, Vec<Fact>) {
    let inside = |b: usize| l.contains(b);
    let mut ivs: Vec<Iv> = Vec::new();
    if l.entries.is_empty() || p.roots.contains(&l.header) {
        return (ivs, Vec::new());
    }
    let mut candidates: Vec<Candidate> = (0..p.vars.len() as Var)
        .filter(|&v| sym.written[li][v as usize] && p.width(v) > 1)
        .map(Candidate::Single)
        .collect();
    // Register pairs the literals compare as 64-bit values.
    for lit in literals {
        for side in [lit.a, lit.b] {
            for atom in atoms_of(&sym.store, side) {
                if let Some((hi, lo)) = pair_of(&sym.store, atom, l.header) {
                    if !candidates
                        .iter()
                        .any(|c| matches!(c, Candidate::Pair(h, o) if *h == hi && *o == lo))
                    {
                        candidates.push(Candidate::Pair(hi, lo));
                    }
                }
            }
        }
    }
    for c in candidates {
        if let Some(iv) = induction(p, l, sym, &c, &inside) {
            ivs.push(iv);
        }
    }
    let mut facts = Vec::new();
    for lit in literals {
        for (i, iv) in ivs.iter().enumerate() {
            if let Some(f) = fact(&mut sym.store, iv, i, lit, &inside) {
                facts.push(f);
            }
        }
    }
    (ivs, facts)
}

/// The atoms of an integer value's monomials.
fn atoms_of(s: &Store, v: ValueId) -> Vec<AtomId> {
    let mut out: Vec<AtomId> = s
        .terms(v)
        .iter()
        .flat_map(|(m, _)| m.as_slice().to_vec())
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// `(hi, lo)` when `atom` is `Concat(Entry(header, hi), Entry(header, lo))`.
fn pair_of(s: &Store, atom: AtomId, header: usize) -> Option<(Var, Var)> {
    let Atom::Func {
        op: FuncOp::Concat,
        args,
        ..
    } = s.get_atom(atom)
    else {
        return None;
    };
    let var = |v: ValueId| match s.as_atom(v).map(|a| s.get_atom(a)) {
        Some(Atom::Entry { block, var }) if *block == header => Some(*var),
        _ => None,
    };
    Some((var(*args.first()?)?, var(*args.get(1)?)?))
}

/// The candidate's value at the end of block `b` (a latch or an entering block).
fn value_at(p: &Program, sym: &mut Symbolic, c: &Candidate, b: usize) -> Option<ValueId> {
    match *c {
        Candidate::Single(v) => sym.out.get(b)?.get(v as usize).copied(),
        Candidate::Pair(hi, lo) => {
            let h = *sym.out.get(b)?.get(hi as usize)?;
            let l = *sym.out.get(b)?.get(lo as usize)?;
            let w = p.width(hi) + p.width(lo);
            Some(sym.store.func(FuncOp::Concat, w, vec![h, l]))
        }
    }
}

fn induction(
    p: &Program,
    l: &Loop,
    sym: &mut Symbolic,
    c: &Candidate,
    inside: &dyn Fn(usize) -> bool,
) -> Option<Iv> {
    let h = l.header;
    let (value, name, width) = match *c {
        Candidate::Single(v) => {
            let w = p.width(v);
            let x = sym.store.atom_value(Atom::Entry { block: h, var: v }, w);
            (x, p.vars[v as usize].name.clone(), w)
        }
        Candidate::Pair(hi, lo) => {
            let w = p.width(hi) + p.width(lo);
            let xh = sym
                .store
                .atom_value(Atom::Entry { block: h, var: hi }, p.width(hi));
            let xl = sym
                .store
                .atom_value(Atom::Entry { block: h, var: lo }, p.width(lo));
            let x = sym.store.func(FuncOp::Concat, w, vec![xh, xl]);
            let name = format!("{}:{}", p.vars[hi as usize].name, p.vars[lo as usize].name);
            (x, name, w)
        }
    };
    let atom = sym.store.as_atom(value)?;
    let nexts: Vec<ValueId> = l
        .latches
        .iter()
        .map(|&b| value_at(p, sym, c, b))
        .collect::<Option<_>>()?;
    let inits: Vec<ValueId> = l
        .entries
        .iter()
        .map(|&b| value_at(p, sym, c, b))
        .collect::<Option<_>>()?;
    // Inits come from outside the loop; a value defined inside would be a bug of the pass.
    if !inits.iter().all(|&v| sym.store.invariant(v, inside)) {
        return None;
    }
    let evolution = evolution(sym, &nexts, value, width, inside)?;
    Some(Iv {
        atom,
        value,
        name,
        width,
        inits,
        nexts,
        evolution,
    })
}

fn evolution(
    sym: &mut Symbolic,
    nexts: &[ValueId],
    x: ValueId,
    width: u32,
    inside: &dyn Fn(usize) -> bool,
) -> Option<Evolution> {
    let mut steps = Vec::new();
    let mut linear = true;
    for &n in nexts {
        match steps_of(sym, n, x, inside, 0) {
            Some(s) => {
                for v in s {
                    if !steps.contains(&v) {
                        steps.push(v);
                    }
                }
            }
            None => {
                linear = false;
                break;
            }
        }
    }
    if linear && !steps.is_empty() {
        return Some(Evolution::Linear { steps });
    }
    // Geometric: every latch brings the same update of X.
    let first = *nexts.first()?;
    if !nexts.iter().all(|&n| n == first) {
        return None;
    }
    let s = &sym.store;
    if let Some(a) = s.as_atom(first) {
        if let Atom::Func { op, args, .. } = s.get_atom(a) {
            if let ([arg, by], FuncOp::ShrU | FuncOp::DivU) = (args.as_slice(), *op) {
                let k = s.as_const(*by)?;
                let ok = if *op == FuncOp::ShrU { k >= 1 } else { k >= 2 };
                if *arg == x && ok && k < i128::from(width) * 4 {
                    return Some(Evolution::Halving { op: *op, by: k });
                }
            }
        }
    }
    if let [(m, c)] = s.terms(first) {
        if m.len() == 1 && s.as_atom(x) == Some(m[0]) && *c >= 2 {
            return Some(Evolution::Scaling { factor: *c });
        }
    }
    None
}

/// The steps `s` with `next = X + s` along the paths that reach `next`, each invariant.
fn steps_of(
    sym: &mut Symbolic,
    next: ValueId,
    x: ValueId,
    inside: &dyn Fn(usize) -> bool,
    depth: usize,
) -> Option<Vec<ValueId>> {
    if depth > 8 {
        return None;
    }
    if sym.store.width(next) != sym.store.width(x) {
        return None;
    }
    let d = sym.store.sub(next, x);
    if sym.store.invariant(d, inside) {
        return Some(vec![d]);
    }
    let atom = sym.store.as_atom(next)?;
    let alts: Vec<ValueId> = match sym.store.get_atom(atom).clone() {
        Atom::Entry { .. } => sym.joins.get(&atom)?.iter().map(|a| a.1).collect(),
        Atom::Func {
            op: FuncOp::Select,
            args,
            ..
        } => args.get(1..3)?.to_vec(),
        _ => return None,
    };
    let mut out = Vec::new();
    for a in alts {
        for s in steps_of(sym, a, x, inside, depth + 1)? {
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    Some(out)
}

/// The fact literal `lit` gives on `iv`, if its sides have the right shape.
fn fact(
    s: &mut Store,
    iv: &Iv,
    index: usize,
    lit: &Literal,
    inside: &dyn Fn(usize) -> bool,
) -> Option<Fact> {
    let has = |s: &Store, v: ValueId| s.terms(v).iter().any(|(m, _)| m.contains(&iv.atom));
    let (side, op, limit) = if has(s, lit.a) && !has(s, lit.b) {
        (lit.a, lit.op, lit.b)
    } else if has(s, lit.b) && !has(s, lit.a) {
        (lit.b, lit.op.swapped(), lit.a)
    } else if !matches!(iv.evolution, Evolution::Linear { .. }) {
        // Geometric updates are atoms of their own: the side may be the next value.
        if iv.nexts.first() == Some(&lit.a) {
            (lit.a, lit.op, lit.b)
        } else if iv.nexts.first() == Some(&lit.b) {
            (lit.b, lit.op.swapped(), lit.a)
        } else {
            return None;
        }
    } else {
        return None;
    };
    if s.width(side) != iv.width || !s.invariant(limit, inside) {
        return None;
    }
    let base = |shape: Shape| Fact {
        iv: index,
        at: lit.at,
        op,
        signed: lit.signed,
        side,
        limit,
        shape,
        starts: Vec::new(),
        distances: Vec::new(),
        steps: Vec::new(),
        sole: lit.sole,
    };
    match &iv.evolution {
        Evolution::Linear { steps } => {
            // side = coef · X + offset, X in no other monomial.
            let mut coef = None;
            for (m, c) in s.terms(side) {
                if m.contains(&iv.atom) {
                    if m.len() != 1 || coef.is_some() {
                        return None;
                    }
                    coef = Some(*c);
                }
            }
            let coef = coef?;
            let k = s.int(iv.width, coef);
            let cx = s.mul(k, iv.value);
            let offset = s.sub(side, cx);
            if !s.invariant(offset, inside) {
                return None;
            }
            let mut f = base(Shape::Linear { coef, offset });
            for &init in &iv.inits {
                let ci = s.mul(k, init);
                let start = s.add(ci, offset);
                f.distances.push(s.sub(limit, start));
                f.starts.push(start);
            }
            for &st in steps {
                f.steps.push(s.mul(k, st));
            }
            Some(f)
        }
        Evolution::Halving { .. } | Evolution::Scaling { .. } => {
            if side == iv.value {
                Some(base(Shape::Current))
            } else if iv.nexts.iter().all(|&n| n == side) {
                Some(base(Shape::Next))
            } else {
                None
            }
        }
    }
}

/// Whether value `v` is an integer (not a truth value).
pub fn is_int(s: &Store, v: ValueId) -> bool {
    matches!(s.get(v), Value::Int { .. })
}
