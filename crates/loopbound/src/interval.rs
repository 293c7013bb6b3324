//! Intervals of integers and the evaluation of symbolic values over them, for one launch.
//!
//! An interval of a `w`-bit value holds *representatives*: integers congruent modulo 2^w to
//! the machine value, for every thread and parameter the launch allows. Polynomials evaluate
//! term by term (ring operations commute with reduction modulo 2^w, see [`crate::expr`]);
//! a function node first reads its operands' machine values — an interval is turned into the
//! unsigned (or signed) machine range only when it lies within one window of 2^w values,
//! otherwise nothing is known ([`Interval::unsigned`], [`Interval::signed`]) — and then
//! applies the function's monotonicity. Anything not known evaluates to `None`, which no
//! caller turns into a bound.

use crate::expr::{Atom, AtomId, Bool, Store, Value, ValueId};
use crate::ir::{FuncOp, Input};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// Magnitude beyond which an interval is given up (no value of 64 bits or products of two
/// comes near it, so reaching it means an unbounded combination).
const LIMIT: i128 = 1 << 100;

/// A closed interval `lo..=hi` of integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Interval {
    pub lo: i128,
    pub hi: i128,
}

impl Interval {
    pub fn new(lo: i128, hi: i128) -> Option<Interval> {
        (lo <= hi && lo.abs() <= LIMIT && hi.abs() <= LIMIT).then_some(Interval { lo, hi })
    }

    pub fn point(v: i128) -> Interval {
        Interval { lo: v, hi: v }
    }

    pub fn is_point(self) -> bool {
        self.lo == self.hi
    }

    pub fn plus(self, o: Interval) -> Option<Interval> {
        Interval::new(self.lo.checked_add(o.lo)?, self.hi.checked_add(o.hi)?)
    }

    pub fn negated(self) -> Option<Interval> {
        Interval::new(-self.hi, -self.lo)
    }

    pub fn minus(self, o: Interval) -> Option<Interval> {
        self.plus(o.negated()?)
    }

    pub fn times(self, o: Interval) -> Option<Interval> {
        let c = [
            self.lo.checked_mul(o.lo)?,
            self.lo.checked_mul(o.hi)?,
            self.hi.checked_mul(o.lo)?,
            self.hi.checked_mul(o.hi)?,
        ];
        Interval::new(*c.iter().min()?, *c.iter().max()?)
    }

    pub fn hull(self, o: Interval) -> Interval {
        Interval {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }

    /// The unsigned machine values of a `width`-bit value with these representatives, when
    /// they lie in one window `k·2^w ..< (k+1)·2^w`.
    pub fn unsigned(self, width: u32) -> Option<Interval> {
        let m = 1i128 << width.min(100);
        let k = self.lo.div_euclid(m);
        (self.hi.div_euclid(m) == k).then(|| Interval {
            lo: self.lo - k * m,
            hi: self.hi - k * m,
        })
    }

    /// The signed machine values, when the representatives lie in one window
    /// `k·2^w − 2^(w−1) ..< k·2^w + 2^(w−1)`.
    pub fn signed(self, width: u32) -> Option<Interval> {
        let m = 1i128 << width.min(100);
        let h = m / 2;
        let k = (self.lo + h).div_euclid(m);
        ((self.hi + h).div_euclid(m) == k).then(|| Interval {
            lo: self.lo - k * m,
            hi: self.hi - k * m,
        })
    }

    /// The machine values in the given signedness.
    pub fn machine(self, width: u32, signed: bool) -> Option<Interval> {
        if signed {
            self.signed(width)
        } else {
            self.unsigned(width)
        }
    }

    /// The window offset `k·2^w` that [`Interval::machine`] subtracts.
    pub fn window(self, width: u32, signed: bool) -> Option<i128> {
        let m = self.machine(width, signed)?;
        Some(self.lo - m.lo)
    }
}

/// `op` applied to constant operands `(value, width)`, with the machine semantics; `None`
/// when undefined (division by zero, a shift by a non-constant amount).
pub fn apply(op: FuncOp, width: u32, args: &[(i128, u32)]) -> Option<i128> {
    let iv: Vec<(Interval, u32)> = args.iter().map(|&(v, w)| (Interval::point(v), w)).collect();
    let r = func(op, width, &iv, None)?;
    r.is_point().then_some(r.lo)
}

/// The interval of `op(args)` from its operands' intervals (representatives, each with its
/// width); `cond` is the truth of a `Select`'s condition when known.
pub fn func(
    op: FuncOp,
    width: u32,
    args: &[(Interval, u32)],
    cond: Option<bool>,
) -> Option<Interval> {
    let u = |i: usize| -> Option<Interval> {
        let (v, w) = args.get(i)?;
        v.unsigned(*w)
    };
    let s = |i: usize| -> Option<Interval> {
        let (v, w) = args.get(i)?;
        v.signed(*w)
    };
    let shift = |i: usize| -> Option<u32> {
        let k = u(i)?;
        (k.is_point() && k.lo < i128::from(width)).then_some(k.lo as u32)
    };
    let full = Interval::new(0, (1i128 << width.min(100)) - 1)?;
    match op {
        FuncOp::ShrU => {
            let (x, k) = (u(0)?, shift(1)?);
            Interval::new(x.lo >> k, x.hi >> k)
        }
        FuncOp::ShrS => {
            let (x, k) = (s(0)?, shift(1)?);
            Interval::new(x.lo >> k, x.hi >> k)
        }
        FuncOp::And => {
            let (x, y) = (u(0)?, u(1)?);
            if x.is_point() && y.is_point() {
                return Some(Interval::point(x.lo & y.lo));
            }
            Interval::new(0, x.hi.min(y.hi))
        }
        FuncOp::Or | FuncOp::Xor => {
            let (x, y) = (u(0)?, u(1)?);
            if x.is_point() && y.is_point() {
                let r = if op == FuncOp::Or {
                    x.lo | y.lo
                } else {
                    x.lo ^ y.lo
                };
                return Some(Interval::point(r));
            }
            Some(full)
        }
        FuncOp::Not => {
            let x = u(0)?;
            Interval::new(full.hi - x.hi, full.hi - x.lo)
        }
        FuncOp::MinS | FuncOp::MaxS | FuncOp::MinU | FuncOp::MaxU => {
            let signed = matches!(op, FuncOp::MinS | FuncOp::MaxS);
            let (x, y) = if signed {
                (s(0)?, s(1)?)
            } else {
                (u(0)?, u(1)?)
            };
            if matches!(op, FuncOp::MinS | FuncOp::MinU) {
                Interval::new(x.lo.min(y.lo), x.hi.min(y.hi))
            } else {
                Interval::new(x.lo.max(y.lo), x.hi.max(y.hi))
            }
        }
        FuncOp::DivU => {
            let (x, d) = (u(0)?, u(1)?);
            if !d.is_point() || d.lo == 0 {
                return None;
            }
            Interval::new(x.lo / d.lo, x.hi / d.lo)
        }
        FuncOp::DivS => {
            let (x, d) = (s(0)?, s(1)?);
            if !d.is_point() || d.lo == 0 {
                return None;
            }
            let (a, b) = (x.lo / d.lo, x.hi / d.lo);
            Interval::new(a.min(b), a.max(b))
        }
        FuncOp::RemU => {
            let (x, d) = (u(0)?, u(1)?);
            if !d.is_point() || d.lo == 0 {
                return None;
            }
            if x.is_point() {
                return Some(Interval::point(x.lo % d.lo));
            }
            Interval::new(0, (d.lo - 1).min(x.hi))
        }
        FuncOp::RemS => {
            let (x, d) = (s(0)?, s(1)?);
            if !d.is_point() || d.lo == 0 {
                return None;
            }
            if x.is_point() {
                return Some(Interval::point(x.lo % d.lo));
            }
            let m = d.lo.abs() - 1;
            Interval::new(if x.lo < 0 { -m } else { 0 }, if x.hi > 0 { m } else { 0 })
        }
        FuncOp::AbsS => {
            let x = s(0)?;
            if x.lo >= 0 {
                Some(x)
            } else if x.hi <= 0 {
                x.negated()
            } else {
                Interval::new(0, (-x.lo).max(x.hi))
            }
        }
        FuncOp::Zext => u(0),
        FuncOp::Sext => s(0),
        FuncOp::Low => u(0)?.unsigned(width),
        FuncOp::Concat => {
            let (hi, lo) = (s(0)?, u(1)?);
            let w = args.get(1)?.1;
            let m = 1i128 << w;
            Interval::new(
                hi.lo.checked_mul(m)?.checked_add(lo.lo)?,
                hi.hi.checked_mul(m)?.checked_add(lo.hi)?,
            )
        }
        FuncOp::Hi => {
            let x = s(0)?;
            let w = args.first()?.1 / 2;
            Interval::new(x.lo >> w, x.hi >> w)
        }
        FuncOp::Select => {
            let (a, b) = (args.get(1)?.0, args.get(2)?.0);
            match cond {
                Some(true) => Some(a),
                Some(false) => Some(b),
                None => Some(a.hull(b)),
            }
        }
        FuncOp::Add => args.first()?.0.plus(args.get(1)?.0),
        FuncOp::Mul => args.first()?.0.times(args.get(1)?.0),
    }
}

/// Evaluates values of one [`Store`] for one launch.
pub struct Evaluator<'a> {
    store: &'a Store,
    inputs: &'a dyn Fn(&Input) -> Option<Interval>,
    /// Intervals of atoms established by the analysis (a bounded loop's induction variable
    /// at its header), and the alternatives of join atoms.
    known: &'a RefCell<HashMap<AtomId, Interval>>,
    joins: &'a HashMap<AtomId, Vec<(usize, ValueId)>>,
    /// Edges `(from, to)` no thread of the launch takes: a join's alternatives from them
    /// are left out.
    dead: Option<&'a RefCell<HashSet<(usize, usize)>>>,
    memo: RefCell<HashMap<ValueId, Option<Interval>>>,
}

/// Deepest chain of function nodes and joins followed.
const MAX_DEPTH: usize = 48;

impl<'a> Evaluator<'a> {
    pub fn new(
        store: &'a Store,
        inputs: &'a dyn Fn(&Input) -> Option<Interval>,
        known: &'a RefCell<HashMap<AtomId, Interval>>,
        joins: &'a HashMap<AtomId, Vec<(usize, ValueId)>>,
        dead: Option<&'a RefCell<HashSet<(usize, usize)>>>,
    ) -> Self {
        Evaluator {
            store,
            inputs,
            known,
            joins,
            dead,
            memo: RefCell::new(HashMap::new()),
        }
    }

    /// Forgets what was evaluated (after `known` grew: values read as unknown before may now
    /// be known).
    pub fn clear_memo(&self) {
        self.memo.borrow_mut().clear();
    }

    /// Representatives of integer value `v` for every thread of the launch.
    pub fn int(&self, v: ValueId) -> Option<Interval> {
        self.int_depth(v, 0)
    }

    fn int_depth(&self, v: ValueId, depth: usize) -> Option<Interval> {
        if depth > MAX_DEPTH {
            return None;
        }
        if let Some(r) = self.memo.borrow().get(&v) {
            return *r;
        }
        let r = match self.store.get(v) {
            Value::Int { terms, .. } => {
                let mut acc = Interval::point(0);
                let mut ok = true;
                for (m, c) in terms {
                    let mut p = Interval::point(*c);
                    for &a in m {
                        match self.atom(a, depth).and_then(|x| p.times(x)) {
                            Some(x) => p = x,
                            None => {
                                ok = false;
                                break;
                            }
                        }
                    }
                    match ok.then(|| acc.plus(p)).flatten() {
                        Some(x) => acc = x,
                        None => {
                            ok = false;
                            break;
                        }
                    }
                }
                ok.then_some(acc)
            }
            Value::Bool(_) => self
                .truth_depth(v, depth)
                .map(|b| Interval::point(b as i128)),
        };
        self.memo.borrow_mut().insert(v, r);
        r
    }

    fn atom(&self, a: AtomId, depth: usize) -> Option<Interval> {
        if let Some(&k) = self.known.borrow().get(&a) {
            return Some(k);
        }
        match self.store.get_atom(a) {
            Atom::Input(i) => (self.inputs)(i),
            Atom::Entry { block, .. } => {
                let alts = self.joins.get(&a)?;
                let mut out: Option<Interval> = None;
                for &(pred, v) in alts {
                    if self
                        .dead
                        .is_some_and(|d| d.borrow().contains(&(pred, *block)))
                    {
                        continue;
                    }
                    let x = self.int_depth(v, depth + 1)?;
                    out = Some(out.map_or(x, |o| o.hull(x)));
                }
                out
            }
            Atom::Opaque { .. } | Atom::Exit { .. } => None,
            Atom::Func { op, width, args } => {
                let mut iv = Vec::with_capacity(args.len());
                let mut cond = None;
                for (i, &x) in args.iter().enumerate() {
                    if *op == FuncOp::Select && i == 0 {
                        cond = self.truth_depth(x, depth + 1);
                        iv.push((Interval::point(0), 1));
                        continue;
                    }
                    iv.push((self.int_depth(x, depth + 1)?, self.store.width(x)));
                }
                func(*op, *width, &iv, cond)
            }
        }
    }

    /// Whether truth value `v` holds for every thread (`Some(true)`), for none
    /// (`Some(false)`), or is not decided.
    pub fn truth(&self, v: ValueId) -> Option<bool> {
        self.truth_depth(v, 0)
    }

    fn truth_depth(&self, v: ValueId, depth: usize) -> Option<bool> {
        if depth > MAX_DEPTH {
            return None;
        }
        let Value::Bool(b) = self.store.get(v) else {
            return None;
        };
        match *b {
            Bool::Const(k) => Some(k),
            // A predicate where paths join: decided when every live alternative agrees.
            Bool::Atom(a) => {
                let Atom::Entry { block, .. } = self.store.get_atom(a) else {
                    return None;
                };
                let alts = self.joins.get(&a)?;
                let mut out: Option<bool> = None;
                for &(pred, v) in alts {
                    if self
                        .dead
                        .is_some_and(|d| d.borrow().contains(&(pred, *block)))
                    {
                        continue;
                    }
                    let k = self.truth_depth(v, depth + 1)?;
                    if out.is_some_and(|o| o != k) {
                        return None;
                    }
                    out = Some(k);
                }
                out
            }
            Bool::Not(x) => self.truth_depth(x, depth + 1).map(|k| !k),
            Bool::And(x, y) => {
                match (
                    self.truth_depth(x, depth + 1),
                    self.truth_depth(y, depth + 1),
                ) {
                    (Some(false), _) | (_, Some(false)) => Some(false),
                    (Some(true), Some(true)) => Some(true),
                    _ => None,
                }
            }
            Bool::Or(x, y) => {
                match (
                    self.truth_depth(x, depth + 1),
                    self.truth_depth(y, depth + 1),
                ) {
                    (Some(true), _) | (_, Some(true)) => Some(true),
                    (Some(false), Some(false)) => Some(false),
                    _ => None,
                }
            }
            Bool::Cmp { op, signed, a, b } => {
                let w = self.store.width(a);
                let x = self.int_depth(a, depth + 1)?.machine(w, signed)?;
                let y = self.int_depth(b, depth + 1)?.machine(w, signed)?;
                let all = op.holds(x.lo, y.hi)
                    && op.holds(x.hi, y.lo)
                    && op.holds(x.lo, y.lo)
                    && op.holds(x.hi, y.hi);
                let monotone = !matches!(op, crate::ir::CmpOp::Eq | crate::ir::CmpOp::Ne);
                if monotone {
                    // For an order, the four corners decide.
                    let none = !op.holds(x.lo, y.hi)
                        && !op.holds(x.hi, y.lo)
                        && !op.holds(x.lo, y.lo)
                        && !op.holds(x.hi, y.hi);
                    if all {
                        Some(true)
                    } else if none {
                        Some(false)
                    } else {
                        None
                    }
                } else {
                    let disjoint = x.hi < y.lo || y.hi < x.lo;
                    let same_point = x.is_point() && y.is_point() && x.lo == y.lo;
                    let eq = op == crate::ir::CmpOp::Eq;
                    if same_point {
                        Some(eq)
                    } else if disjoint {
                        Some(!eq)
                    } else {
                        None
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_of_representatives() {
        // −1 as a 32-bit value is 0xffff_ffff unsigned; 2^32 + 5 is 5.
        let w = 32;
        assert_eq!(
            Interval::point(-1).unsigned(w),
            Some(Interval::point(0xffff_ffff))
        );
        assert_eq!(
            Interval::point((1 << 32) + 5).signed(w),
            Some(Interval::point(5))
        );
        // An interval across 2^31 has no signed reading, but an unsigned one.
        let across = Interval::new((1 << 31) - 2, (1 << 31) + 2).expect("interval");
        assert_eq!(across.signed(w), None);
        assert!(across.unsigned(w).is_some());
        // −2..2 has no unsigned reading.
        assert_eq!(Interval::new(-2, 2).expect("interval").unsigned(w), None);
    }

    #[test]
    fn functions_on_constants() {
        assert_eq!(
            apply(FuncOp::ShrU, 32, &[(-2, 32), (1, 32)]),
            Some(0x7fff_ffff)
        );
        assert_eq!(apply(FuncOp::ShrS, 32, &[(-2, 32), (1, 32)]), Some(-1));
        assert_eq!(apply(FuncOp::And, 32, &[(64, 32), (3, 32)]), Some(0));
        assert_eq!(apply(FuncOp::And, 32, &[(67, 32), (-4, 32)]), Some(64));
        assert_eq!(apply(FuncOp::DivU, 32, &[(7, 32), (0, 32)]), None);
        assert_eq!(
            apply(FuncOp::Concat, 64, &[(1, 32), (-1, 32)]),
            Some((1 << 32) + 0xffff_ffff)
        );
        assert_eq!(apply(FuncOp::Sext, 64, &[(0xffff_fffe, 32)]), Some(-2));
    }
}
