//! Substitution of atoms by values: how a loop's φs become its exit values
//! ([`crate::symbolic`]).

use super::{Atom, AtomId, Bool, Store, Value, ValueId};
use std::collections::HashMap;

impl Store {
    /// `v` with every atom of `map` replaced by its value (polynomials, function nodes and
    /// truth values rebuilt through the store's operations, so they simplify as before);
    /// `memo` caches the results of one map. Values no mapped atom's block reaches are
    /// returned as they are, cheaply.
    pub fn subst(
        &mut self,
        v: ValueId,
        map: &HashMap<AtomId, ValueId>,
        blocks: &[usize],
        memo: &mut HashMap<ValueId, ValueId>,
        depth: usize,
    ) -> ValueId {
        if !self.value_blocks[v as usize]
            .iter()
            .any(|b| blocks.contains(b))
        {
            return v;
        }
        if let Some(&r) = memo.get(&v) {
            return r;
        }
        if depth > 48 {
            return v;
        }
        let r = match self.get(v).clone() {
            Value::Int { width, terms } => {
                let mut acc = self.int(width, 0);
                for (m, c) in terms {
                    let mut prod = self.int(width, c);
                    for &a in m.as_slice() {
                        let x = self.subst_atom(a, width, map, blocks, memo, depth);
                        prod = self.mul(prod, x);
                    }
                    acc = self.add(acc, prod);
                }
                acc
            }
            Value::Bool(b) => match b {
                Bool::Const(_) => v,
                Bool::Atom(a) => self.subst_atom(a, 1, map, blocks, memo, depth),
                Bool::Cmp { op, signed, a, b } => {
                    let x = self.subst(a, map, blocks, memo, depth + 1);
                    let y = self.subst(b, map, blocks, memo, depth + 1);
                    self.cmp(op, signed, x, y)
                }
                Bool::Not(a) => {
                    let x = self.subst(a, map, blocks, memo, depth + 1);
                    self.not(x)
                }
                Bool::And(a, b) | Bool::Or(a, b) => {
                    let x = self.subst(a, map, blocks, memo, depth + 1);
                    let y = self.subst(b, map, blocks, memo, depth + 1);
                    if matches!(self.get(v), Value::Bool(Bool::And(..))) {
                        self.and(x, y)
                    } else {
                        self.or(x, y)
                    }
                }
            },
        };
        memo.insert(v, r);
        r
    }

    fn subst_atom(
        &mut self,
        a: AtomId,
        width: u32,
        map: &HashMap<AtomId, ValueId>,
        blocks: &[usize],
        memo: &mut HashMap<ValueId, ValueId>,
        depth: usize,
    ) -> ValueId {
        if let Some(&x) = map.get(&a) {
            return x;
        }
        match self.get_atom(a).clone() {
            Atom::Func { op, width: w, args } => {
                let args: Vec<ValueId> = args
                    .iter()
                    .map(|&x| self.subst(x, map, blocks, memo, depth + 1))
                    .collect();
                self.func(op, w, args)
            }
            _ => self.of_atom(a, width),
        }
    }
}
