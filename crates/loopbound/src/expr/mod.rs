//! Symbolic values: polynomials over atoms with w-bit wrap-around, and truth values over
//! comparisons of them, hash-consed in one [`Store`].
//!
//! Why polynomials: an induction variable is recognised by *algebra* — the value at the latch
//! minus the value at the header is a loop-invariant step — and a trip count by the distance
//! between the compared sides. Addition, subtraction and multiplication modulo 2^w are ring
//! operations, so a polynomial of the operands' values modulo 2^w gives the machine result
//! modulo 2^w *whatever wrapped in between*: no intermediate overflow check is needed, only
//! one on the final values that a comparison reads (done in [`crate::trip_count`]).
//! Everything else (shifts, masks, min/max, divisions, extensions, selections) is an atom
//! [`Atom::Func`] of its operands: exact, and evaluated on intervals when the operands are
//! known ([`crate::interval`]).
//!
//! Atoms are the unknowns: launch [`Input`]s, the value of a variable where paths disagree
//! ([`Atom::Entry`]: a loop header's φ or a join), unmodelled results ([`Atom::Opaque`]) and
//! function nodes. Which atoms are loop-invariant is decided by where they are defined
//! ([`Store::defined_in`]).
//!
//! Size limits keep every operation cheap: a polynomial of more than [`MAX_TERMS`] terms or a
//! monomial of degree above [`MAX_DEGREE`] becomes a function node of its operands instead.

mod fx_hash;
mod monomial;
mod show;
mod subst;

pub use fx_hash::{FxHasher, FxMap};
pub use monomial::Monomial;

use crate::ir::{CmpOp, FuncOp, Input, Var};
use fx_hash::fx_hash;

pub type AtomId = u32;
pub type ValueId = u32;

/// Most terms of one polynomial.
pub const MAX_TERMS: usize = 16;
/// Highest degree of a monomial.
pub const MAX_DEGREE: usize = 3;

/// An unknown of the symbolic values.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Atom {
    Input(Input),
    /// The value of `var` on entry to `block`, where the paths that reach it may bring
    /// different values: a loop header's φ, a join, or a root.
    Entry {
        block: usize,
        var: Var,
    },
    /// The `slot`-th unknown result computed in `block` (a load, a float, a clobber).
    Opaque {
        block: usize,
        slot: u32,
    },
    /// The value the φ of `var` at loop header `header` has in the iteration that leaves the
    /// loop from block `from`: what values flowing out of a loop are written in, so that the
    /// value a counter leaves with can be known exactly ([`crate::symbolic`]).
    Exit {
        header: usize,
        from: usize,
        var: Var,
    },
    /// A non-ring function of values; `width` is the result's.
    Func {
        op: FuncOp,
        width: u32,
        args: Vec<ValueId>,
    },
}

/// A truth value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Bool {
    Const(bool),
    /// An unknown truth value (an opaque predicate, a predicate at a join).
    Atom(AtomId),
    Cmp {
        op: CmpOp,
        signed: bool,
        a: ValueId,
        b: ValueId,
    },
    Not(ValueId),
    And(ValueId, ValueId),
    Or(ValueId, ValueId),
}

/// A symbolic value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Value {
    /// `Σ coef · monomial` modulo 2^width, coefficients in the signed range, sorted by
    /// monomial, none zero; the constant term has the empty monomial.
    Int {
        width: u32,
        terms: Vec<(Monomial, i128)>,
    },
    Bool(Bool),
}

/// The values and atoms of one analysis, each stored once.
#[derive(Debug, Default, Clone)]
pub struct Store {
    atoms: Vec<Atom>,
    /// Atoms by hash (the ids of the atoms with that hash).
    atom_ids: FxMap<u64, Vec<AtomId>>,
    values: Vec<Value>,
    /// Values by hash.
    value_ids: FxMap<u64, Vec<ValueId>>,
    /// For each atom, the blocks its definition depends on (sorted; empty for inputs).
    defined: Vec<Vec<usize>>,
    /// For each value, the blocks the definitions of its atoms depend on (sorted), computed
    /// once when the value is stored.
    value_blocks: Vec<Vec<usize>>,
}

/// `c` modulo 2^width in the signed range.
pub fn wrap(c: i128, width: u32) -> i128 {
    if width >= 128 {
        return c;
    }
    let m = 1i128 << width;
    let r = c.rem_euclid(m);
    if r >= m / 2 {
        r - m
    } else {
        r
    }
}

impl Store {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn atom(&mut self, a: Atom) -> AtomId {
        let h = fx_hash(&a);
        if let Some(ids) = self.atom_ids.get(&h) {
            if let Some(&id) = ids.iter().find(|&&i| self.atoms[i as usize] == a) {
                return id;
            }
        }
        let defined = match &a {
            Atom::Input(_) => Vec::new(),
            Atom::Entry { block, .. } | Atom::Opaque { block, .. } => vec![*block],
            Atom::Exit { header, .. } => vec![*header],
            Atom::Func { args, .. } => {
                let mut d: Vec<usize> = args
                    .iter()
                    .flat_map(|&v| self.value_blocks[v as usize].iter().copied())
                    .collect();
                d.sort_unstable();
                d.dedup();
                d
            }
        };
        let id = self.atoms.len() as AtomId;
        self.atoms.push(a);
        self.atom_ids.entry(h).or_default().push(id);
        self.defined.push(defined);
        id
    }

    /// How many values and atoms are stored.
    pub fn len(&self) -> (usize, usize) {
        (self.values.len(), self.atoms.len())
    }

    pub fn get_atom(&self, a: AtomId) -> &Atom {
        &self.atoms[a as usize]
    }

    pub fn get(&self, v: ValueId) -> &Value {
        &self.values[v as usize]
    }

    fn intern(&mut self, v: Value) -> ValueId {
        let h = fx_hash(&v);
        if let Some(ids) = self.value_ids.get(&h) {
            if let Some(&id) = ids.iter().find(|&&i| self.values[i as usize] == v) {
                return id;
            }
        }
        let mut blocks: Vec<usize> = match &v {
            Value::Int { terms, .. } => terms
                .iter()
                .flat_map(|(m, _)| m.iter())
                .flat_map(|&a| self.defined[a as usize].iter().copied())
                .collect(),
            Value::Bool(b) => match *b {
                Bool::Const(_) => Vec::new(),
                Bool::Atom(a) => self.defined[a as usize].clone(),
                Bool::Cmp { a, b, .. } | Bool::And(a, b) | Bool::Or(a, b) => {
                    let mut x = self.value_blocks[a as usize].clone();
                    x.extend(&self.value_blocks[b as usize]);
                    x
                }
                Bool::Not(a) => self.value_blocks[a as usize].clone(),
            },
        };
        blocks.sort_unstable();
        blocks.dedup();
        let id = self.values.len() as ValueId;
        self.values.push(v);
        self.value_ids.entry(h).or_default().push(id);
        self.value_blocks.push(blocks);
        id
    }

    /// The blocks whose definitions `v` depends on.
    pub fn blocks_of(&self, v: ValueId) -> Vec<usize> {
        self.value_blocks[v as usize].clone()
    }

    /// Whether atom `a` is defined (depends only on definitions) outside the blocks for
    /// which `inside` holds: then it keeps its value during one entry into a loop whose
    /// body is `inside`.
    pub fn atom_outside(&self, a: AtomId, inside: impl Fn(usize) -> bool) -> bool {
        self.defined[a as usize]
            .iter()
            .all(|&b| b != usize::MAX && !inside(b))
    }

    /// Whether value `v` is invariant in the loop whose body is `inside`.
    pub fn invariant(&self, v: ValueId, inside: &dyn Fn(usize) -> bool) -> bool {
        self.value_blocks[v as usize]
            .iter()
            .all(|&b| b != usize::MAX && !inside(b))
    }

    /// Width in bits (1 for a truth value).
    pub fn width(&self, v: ValueId) -> u32 {
        match self.get(v) {
            Value::Int { width, .. } => *width,
            Value::Bool(_) => 1,
        }
    }

    /// The polynomial's terms (empty for a truth value).
    pub fn terms(&self, v: ValueId) -> &[(Monomial, i128)] {
        match self.get(v) {
            Value::Int { terms, .. } => terms,
            Value::Bool(_) => &[],
        }
    }

    /// The constant an integer value is, if it is one.
    pub fn as_const(&self, v: ValueId) -> Option<i128> {
        match self.get(v) {
            Value::Int { terms, .. } => match terms.as_slice() {
                [] => Some(0),
                [(m, c)] if m.is_empty() => Some(*c),
                _ => None,
            },
            Value::Bool(_) => None,
        }
    }

    /// The atom an integer value is (coefficient 1, no constant), if it is one.
    pub fn as_atom(&self, v: ValueId) -> Option<AtomId> {
        match self.get(v) {
            Value::Int { terms, .. } => match terms.as_slice() {
                [(m, 1)] if m.len() == 1 => Some(m[0]),
                _ => None,
            },
            Value::Bool(Bool::Atom(a)) => Some(*a),
            Value::Bool(_) => None,
        }
    }

    pub fn int(&mut self, width: u32, c: i128) -> ValueId {
        let c = wrap(c, width);
        let terms = if c == 0 {
            Vec::new()
        } else {
            vec![(Monomial::default(), c)]
        };
        self.intern(Value::Int { width, terms })
    }

    pub fn boolean(&mut self, b: bool) -> ValueId {
        self.intern(Value::Bool(Bool::Const(b)))
    }

    /// The value that is atom `a`, `width` bits wide (1: a truth value).
    pub fn of_atom(&mut self, a: AtomId, width: u32) -> ValueId {
        if width == 1 {
            self.intern(Value::Bool(Bool::Atom(a)))
        } else {
            self.intern(Value::Int {
                width,
                terms: vec![(Monomial::of(&[a]).unwrap_or_default(), 1)],
            })
        }
    }

    /// A fresh-looking atom value: `atom` as a `width`-bit value.
    pub fn atom_value(&mut self, atom: Atom, width: u32) -> ValueId {
        let a = self.atom(atom);
        self.of_atom(a, width)
    }

    fn poly(&mut self, width: u32, mut terms: Vec<(Monomial, i128)>) -> ValueId {
        terms.sort_by_key(|a| a.0);
        let mut out: Vec<(Monomial, i128)> = Vec::with_capacity(terms.len());
        for (m, c) in terms {
            match out.last_mut() {
                Some((lm, lc)) if *lm == m => *lc = wrap(lc.wrapping_add(c), width),
                _ => out.push((m, wrap(c, width))),
            }
        }
        out.retain(|(_, c)| *c != 0);
        self.intern(Value::Int { width, terms: out })
    }

    /// A node standing for `op(args)` when the polynomial would be too large.
    fn node(&mut self, op: FuncOp, width: u32, args: Vec<ValueId>) -> ValueId {
        self.atom_value(Atom::Func { op, width, args }, width)
    }

    fn int_terms(&self, v: ValueId) -> Option<(u32, Vec<(Monomial, i128)>)> {
        match self.get(v) {
            Value::Int { width, terms } => Some((*width, terms.clone())),
            Value::Bool(_) => None,
        }
    }

    /// `a + b`, or a node when the widths differ.
    pub fn add(&mut self, a: ValueId, b: ValueId) -> ValueId {
        match (self.int_terms(a), self.int_terms(b)) {
            (Some((wa, ta)), Some((wb, tb))) if wa == wb => {
                let mut t = ta;
                t.extend(tb);
                let v = self.poly(wa, t);
                if self.terms(v).len() > MAX_TERMS {
                    return self.node(FuncOp::Add, wa, vec![a, b]);
                }
                v
            }
            _ => self.node(FuncOp::Add, self.width(a), vec![a, b]),
        }
    }

    pub fn neg(&mut self, a: ValueId) -> ValueId {
        match self.int_terms(a) {
            Some((w, t)) => {
                let t = t.into_iter().map(|(m, c)| (m, c.wrapping_neg())).collect();
                self.poly(w, t)
            }
            None => a,
        }
    }

    pub fn sub(&mut self, a: ValueId, b: ValueId) -> ValueId {
        let nb = self.neg(b);
        self.add(a, nb)
    }

    pub fn mul(&mut self, a: ValueId, b: ValueId) -> ValueId {
        let (Some((wa, ta)), Some((wb, tb))) = (self.int_terms(a), self.int_terms(b)) else {
            return self.node(FuncOp::Mul, self.width(a), vec![a, b]);
        };
        if wa != wb || ta.len() * tb.len() > 4 * MAX_TERMS {
            return self.node(FuncOp::Mul, wa, vec![a, b]);
        }
        let mut t = Vec::with_capacity(ta.len() * tb.len());
        for (ma, ca) in &ta {
            for (mb, cb) in &tb {
                let Some(m) = ma.times(mb) else {
                    return self.node(FuncOp::Mul, wa, vec![a, b]);
                };
                t.push((m, ca.wrapping_mul(*cb)));
            }
        }
        let v = self.poly(wa, t);
        if self.terms(v).len() > MAX_TERMS {
            return self.node(FuncOp::Mul, wa, vec![a, b]);
        }
        v
    }

    /// The low `width` bits of `a` (a ring homomorphism: coefficients reduce, and atoms
    /// congruent to a narrower value modulo 2^width — `Concat`, `Zext`, `Sext` — are replaced
    /// by it).
    pub fn trunc(&mut self, a: ValueId, width: u32) -> ValueId {
        let Some((w, terms)) = self.int_terms(a) else {
            return a;
        };
        if width >= w {
            return a;
        }
        let mut acc = self.int(width, 0);
        for (m, c) in terms {
            let mut prod = self.int(width, c);
            for &atom in m.as_slice() {
                let low = match self.get_atom(atom).clone() {
                    Atom::Func {
                        op: FuncOp::Concat,
                        args,
                        ..
                    } if args.len() == 2 && self.width(args[1]) >= width => {
                        Some(self.trunc(args[1], width))
                    }
                    Atom::Func {
                        op: FuncOp::Zext | FuncOp::Sext,
                        args,
                        ..
                    } if args.len() == 1 && self.width(args[0]) >= width => {
                        Some(self.trunc(args[0], width))
                    }
                    _ => None,
                };
                let factor = match low {
                    Some(l) => l,
                    None => {
                        let whole = self.of_atom(atom, w);
                        self.node(FuncOp::Low, width, vec![whole])
                    }
                };
                prod = self.mul(prod, factor);
            }
            acc = self.add(acc, prod);
        }
        acc
    }

    /// `op(args)` with the simplifications that keep induction variables recognisable.
    pub fn func(&mut self, op: FuncOp, width: u32, args: Vec<ValueId>) -> ValueId {
        if let Some(v) = self.fold(op, width, &args) {
            return v;
        }
        match (op, args.as_slice()) {
            (FuncOp::Select, [c, a, b]) => {
                if a == b {
                    return *a;
                }
                if let Value::Bool(Bool::Const(k)) = self.get(*c) {
                    return if *k { *a } else { *b };
                }
            }
            (FuncOp::Concat, [hi, lo]) => {
                // Concat(Hi(x), low half of x) is x.
                if let Some(Atom::Func {
                    op: FuncOp::Hi,
                    args: inner,
                    ..
                }) = self.as_atom(*hi).map(|a| self.get_atom(a).clone())
                {
                    if let [x] = inner.as_slice() {
                        let low = self.trunc(*x, self.width(*lo));
                        if low == *lo && self.width(*x) == width {
                            return *x;
                        }
                    }
                }
            }
            (FuncOp::Hi, [x]) => {
                if let Some(Atom::Func {
                    op: FuncOp::Concat,
                    args: inner,
                    ..
                }) = self.as_atom(*x).map(|a| self.get_atom(a).clone())
                {
                    if let [h, _] = inner.as_slice() {
                        return *h;
                    }
                }
            }
            (FuncOp::Zext | FuncOp::Sext, [x]) if self.width(*x) == width => return *x,
            (FuncOp::ShrU | FuncOp::ShrS, [x, k]) if self.as_const(*k) == Some(0) => return *x,
            _ => {}
        }
        self.node(op, width, args)
    }

    /// `op(args)` when every operand is a constant.
    fn fold(&mut self, op: FuncOp, width: u32, args: &[ValueId]) -> Option<ValueId> {
        if op == FuncOp::Select {
            return None;
        }
        let vals: Vec<(i128, u32)> = args
            .iter()
            .map(|&a| Some((self.as_const(a)?, self.width(a))))
            .collect::<Option<_>>()?;
        let r = crate::interval::apply(op, width, &vals)?;
        Some(self.int(width, r))
    }

    /// The truth value whose all-ones/zero mask `v` is (Maxwell–Pascal `ISET` results
    /// combined by `LOP`): `Select(c, −1, 0)` is `c`, `Not`, `And`, `Or` and `Xor` of masks
    /// the same operations on their truth values; `None` when `v` is not such a mask.
    fn mask(&mut self, v: ValueId, depth: usize) -> Option<ValueId> {
        if depth > 16 {
            return None;
        }
        let w = self.width(v);
        match self.as_const(v) {
            Some(0) => return Some(self.boolean(false)),
            Some(c) if wrap(c, w) == -1 => return Some(self.boolean(true)),
            Some(_) => return None,
            None => {}
        }
        let Atom::Func { op, args, .. } = self.get_atom(self.as_atom(v)?).clone() else {
            return None;
        };
        match (op, args.as_slice()) {
            (FuncOp::Select, [c, a, b]) => {
                let (x, y) = (self.as_const(*a)?, self.as_const(*b)?);
                match (wrap(x, w), wrap(y, w)) {
                    (-1, 0) => Some(*c),
                    (0, -1) => Some(self.not(*c)),
                    _ => None,
                }
            }
            (FuncOp::Not, [x]) => {
                let m = self.mask(*x, depth + 1)?;
                Some(self.not(m))
            }
            (FuncOp::And | FuncOp::Or | FuncOp::Xor, [x, y]) => {
                let (mx, my) = (self.mask(*x, depth + 1)?, self.mask(*y, depth + 1)?);
                Some(match op {
                    FuncOp::And => self.and(mx, my),
                    FuncOp::Or => self.or(mx, my),
                    _ => self.xor(mx, my),
                })
            }
            _ => None,
        }
    }

    /// `a op b` on `width`-bit integers.
    pub fn cmp(&mut self, op: CmpOp, signed: bool, a: ValueId, b: ValueId) -> ValueId {
        if matches!(op, CmpOp::Ne | CmpOp::Eq) && self.as_const(b) == Some(0) {
            // A mask tested against zero is its truth value; a selection of a nonzero
            // constant and zero is its condition.
            let truth = self.mask(a, 0).or_else(|| {
                let Atom::Func {
                    op: FuncOp::Select,
                    args,
                    ..
                } = self.get_atom(self.as_atom(a)?).clone()
                else {
                    return None;
                };
                let (c, x, y) = (args[0], self.as_const(args[1])?, self.as_const(args[2])?);
                let w = self.width(a);
                match (wrap(x, w) != 0, wrap(y, w) != 0) {
                    (true, false) => Some(c),
                    (false, true) => Some(self.not(c)),
                    _ => None,
                }
            });
            if let Some(t) = truth {
                return if op == CmpOp::Ne { t } else { self.not(t) };
            }
        }
        if a == b {
            return self.boolean(matches!(op, CmpOp::Le | CmpOp::Ge | CmpOp::Eq));
        }
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            let w = self.width(a);
            let (x, y) = if signed {
                (wrap(x, w), wrap(y, w))
            } else {
                (unsigned(x, w), unsigned(y, w))
            };
            return self.boolean(op.holds(x, y));
        }
        self.intern(Value::Bool(Bool::Cmp { op, signed, a, b }))
    }

    pub fn not(&mut self, a: ValueId) -> ValueId {
        match self.get(a).clone() {
            Value::Bool(Bool::Const(k)) => self.boolean(!k),
            Value::Bool(Bool::Not(x)) => x,
            _ => self.intern(Value::Bool(Bool::Not(a))),
        }
    }

    pub fn and(&mut self, a: ValueId, b: ValueId) -> ValueId {
        match (self.get(a).clone(), self.get(b).clone()) {
            (Value::Bool(Bool::Const(false)), _) | (_, Value::Bool(Bool::Const(false))) => {
                self.boolean(false)
            }
            (Value::Bool(Bool::Const(true)), _) => b,
            (_, Value::Bool(Bool::Const(true))) => a,
            _ if a == b => a,
            _ => {
                let (x, y) = (a.min(b), a.max(b));
                self.intern(Value::Bool(Bool::And(x, y)))
            }
        }
    }

    pub fn or(&mut self, a: ValueId, b: ValueId) -> ValueId {
        match (self.get(a).clone(), self.get(b).clone()) {
            (Value::Bool(Bool::Const(true)), _) | (_, Value::Bool(Bool::Const(true))) => {
                self.boolean(true)
            }
            (Value::Bool(Bool::Const(false)), _) => b,
            (_, Value::Bool(Bool::Const(false))) => a,
            _ if a == b => a,
            _ => {
                let (x, y) = (a.min(b), a.max(b));
                self.intern(Value::Bool(Bool::Or(x, y)))
            }
        }
    }

    pub fn xor(&mut self, a: ValueId, b: ValueId) -> ValueId {
        let (na, nb) = (self.not(a), self.not(b));
        let l = self.and(a, nb);
        let r = self.and(na, b);
        self.or(l, r)
    }

    /// `cond ? a : b` for values of any width.
    pub fn select(&mut self, cond: ValueId, a: ValueId, b: ValueId) -> ValueId {
        if self.width(a) == 1 && self.width(b) == 1 {
            let x = self.and(cond, a);
            let nc = self.not(cond);
            let y = self.and(nc, b);
            return self.or(x, y);
        }
        let w = self.width(a);
        self.func(FuncOp::Select, w, vec![cond, a, b])
    }
}

/// `c` modulo 2^width in `0..2^width`.
pub fn unsigned(c: i128, width: u32) -> i128 {
    if width >= 128 {
        return c;
    }
    c.rem_euclid(1i128 << width)
}
