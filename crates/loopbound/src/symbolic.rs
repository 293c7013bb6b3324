//! One symbolic pass over a lowered program: the value of every variable at the end of every
//! block, as a [`Store`] value, and every edge's condition.
//!
//! Blocks are visited once, in reverse post-order. On entry to a block, a variable keeps the
//! value its predecessors agree on; where they disagree it becomes the atom
//! [`Atom::Entry`] of that block — at a join with its alternatives recorded (so intervals can
//! be taken over them), at a loop header (for the variables the loop writes) as the header's
//! φ, whose evolution around the loop [`crate::induction`] then reads from the latches. A
//! block entered by an irreducible edge, a root, or a block nobody reaches starts with every
//! variable unknown. One pass suffices because a header's φ stands for whatever the back
//! edges bring: the pass never needs the back edges' values before it has computed them.
//!
//! Values leaving a loop are written in its exit atoms ([`Atom::Exit`]): along an edge from
//! the loop to outside, each φ of the loop becomes the φ *of the iteration that left*, per
//! exit block. A counter's value after the loop is then `exit − 16` rather than `φ − 16`,
//! and [`crate::Analysis::evaluate`] gives the exit atom the one value the counter has when
//! its exit test fails, where that is known exactly — what lets the 4-step loop behind a
//! 16-step one (nvcc's unrolled loops) start from a known count.
//!
//! Cost: linear in blocks × variables (one value per pair) plus the ops.

use crate::expr::{Atom, AtomId, Store, ValueId};
use crate::ir::{Input, Program, Term};
use crate::loops::Loops;
use std::collections::HashMap;

/// The pass's result.
#[derive(Debug, Clone)]
pub struct Symbolic {
    pub store: Store,
    /// `out[b][v]`: variable `v` at the end of block `b`.
    pub out: Vec<Vec<ValueId>>,
    /// `conds[b][i]`: the condition of `program.blocks[b].edges[i]`.
    pub conds: Vec<Vec<ValueId>>,
    /// The alternatives of each join atom: the value each predecessor brings, with the
    /// predecessor (`usize::MAX` for a root's initial value).
    pub joins: HashMap<AtomId, Vec<(usize, ValueId)>>,
    /// The condition under which control passes from one block to another (the edges'
    /// conditions or-ed), for pruning what a launch cannot reach.
    pub edge_conds: HashMap<(usize, usize), ValueId>,
    /// `written[l][v]`: loop `l` (index into [`Loops::loops`]) writes variable `v`.
    pub written: Vec<Vec<bool>>,
    /// The exit atoms made where values leave loops.
    pub exits: Vec<ExitAtom>,
}

/// An [`Atom::Exit`]: the φ of `var` of loop `lp` in the iteration that leaves it from
/// block `from`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExitAtom {
    pub atom: AtomId,
    pub lp: usize,
    pub from: usize,
    pub var: crate::ir::Var,
}

/// Runs the pass.
pub fn run(p: &Program, loops: &Loops) -> Symbolic {
    let n = p.blocks.len();
    let nv = p.vars.len();
    let mut store = Store::new();
    let mut written = vec![vec![false; nv]; loops.loops.len()];
    for (li, l) in loops.loops.iter().enumerate() {
        for (b, block) in p.blocks.iter().enumerate() {
            if !l.contains(b) {
                continue;
            }
            if block.clobbers_all {
                written[li].iter_mut().for_each(|w| *w = true);
            }
            for op in &block.ops {
                if let Some(w) = written[li].get_mut(op.dst as usize) {
                    *w = true;
                }
            }
        }
    }
    let header_loop: HashMap<usize, usize> = loops
        .loops
        .iter()
        .enumerate()
        .map(|(i, l)| (l.header, i))
        .collect();
    let mut out: Vec<Vec<ValueId>> = vec![Vec::new(); n];
    let mut conds: Vec<Vec<ValueId>> = vec![Vec::new(); n];
    let mut done = vec![false; n];
    let mut joins: HashMap<AtomId, Vec<(usize, ValueId)>> = HashMap::new();
    let mut exits: Vec<ExitAtom> = Vec::new();
    let first_root = p.roots.first().copied();
    let initial = {
        // The first root's known values, evaluated in an empty state.
        let mut slot = 0;
        let empty = Vec::new();
        let mut vals: HashMap<usize, ValueId> = HashMap::new();
        for (v, t) in &p.initial {
            let x = eval(&mut store, p, t, &empty, usize::MAX, &mut slot);
            vals.insert(*v as usize, x);
        }
        vals
    };
    for &b in &loops.rpo {
        let entry_of = |store: &mut Store, v: usize| {
            store.atom_value(
                Atom::Entry {
                    block: b,
                    var: v as u32,
                },
                p.width(v as u32),
            )
        };
        let is_root = p.roots.contains(&b);
        let sources: Vec<usize> = loops.preds[b]
            .iter()
            .copied()
            .filter(|&q| done[q] && loops.order[q] < loops.order[b])
            .collect();
        // What each source brings: its state, with the φs of the loops the edge leaves
        // written as their exit values (module doc).
        let brought_by: Vec<Option<Vec<ValueId>>> = sources
            .iter()
            .map(|&q| {
                let left: Vec<usize> = (0..loops.loops.len())
                    .filter(|&li| loops.loops[li].contains(q) && !loops.loops[li].contains(b))
                    .collect();
                if left.is_empty() {
                    return None;
                }
                let mut map: HashMap<AtomId, ValueId> = HashMap::new();
                let mut blocks = Vec::new();
                for &li in &left {
                    let h = loops.loops[li].header;
                    blocks.push(h);
                    for (v, _) in written[li].iter().enumerate().filter(|w| *w.1) {
                        let w = p.width(v as u32);
                        let phi = store.atom(Atom::Entry {
                            block: h,
                            var: v as u32,
                        });
                        let exit = store.atom_value(
                            Atom::Exit {
                                header: h,
                                from: q,
                                var: v as u32,
                            },
                            w,
                        );
                        if let Some(a) = store.as_atom(exit) {
                            exits.push(ExitAtom {
                                atom: a,
                                lp: li,
                                from: q,
                                var: v as u32,
                            });
                        }
                        map.insert(phi, exit);
                    }
                }
                let mut memo = HashMap::new();
                Some(
                    out[q]
                        .iter()
                        .map(|&x| store.subst(x, &map, &blocks, &mut memo, 0))
                        .collect(),
                )
            })
            .collect();
        let value = |q_index: usize, v: usize| -> ValueId {
            match &brought_by[q_index] {
                Some(env) => env[v],
                None => out[sources[q_index]][v],
            }
        };
        let mut env: Vec<ValueId> = Vec::with_capacity(nv);
        let header = header_loop.get(&b).copied();
        for v in 0..nv {
            let in_loop = header.is_some_and(|l| written[l].get(v).copied().unwrap_or(false));
            if loops.retreating[b] || in_loop {
                env.push(entry_of(&mut store, v));
                continue;
            }
            let root_value = if is_root {
                match (Some(b) == first_root).then(|| initial.get(&v)).flatten() {
                    Some(&x) => Some(x),
                    None => {
                        env.push(entry_of(&mut store, v));
                        continue;
                    }
                }
            } else {
                None
            };
            // The common case first, without allocating: every source agrees.
            let mut brought = root_value
                .into_iter()
                .chain((0..sources.len()).map(|i| value(i, v)));
            let Some(first) = brought.next() else {
                env.push(entry_of(&mut store, v));
                continue;
            };
            if brought.all(|x| x == first) {
                env.push(first);
                continue;
            }
            let alts: Vec<(usize, ValueId)> = root_value
                .map(|x| (usize::MAX, x))
                .into_iter()
                .chain(sources.iter().enumerate().map(|(i, &q)| (q, value(i, v))))
                .collect();
            let e = entry_of(&mut store, v);
            if let Some(a) = store.as_atom(e) {
                joins.insert(a, alts);
            }
            env.push(e);
        }
        let block = &p.blocks[b];
        let mut slot: u32 = 0;
        for op in &block.ops {
            let d = op.dst as usize;
            if d >= nv {
                continue;
            }
            let mut value = eval(&mut store, p, &op.value, &env, b, &mut slot);
            if let Some(g) = &op.guard {
                let g = eval(&mut store, p, g, &env, b, &mut slot);
                value = store.select(g, value, env[d]);
            }
            env[d] = value;
        }
        if block.clobbers_all {
            for (v, slot_value) in env.iter_mut().enumerate() {
                *slot_value = store.atom_value(
                    Atom::Opaque {
                        block: b,
                        slot: u32::MAX - v as u32,
                    },
                    p.width(v as u32),
                );
            }
        }
        conds[b] = block
            .edges
            .iter()
            .map(|e| eval(&mut store, p, &e.when, &env, b, &mut slot))
            .collect();
        out[b] = env;
        done[b] = true;
    }
    let mut edge_conds: HashMap<(usize, usize), ValueId> = HashMap::new();
    for (b, block) in p.blocks.iter().enumerate() {
        for (e, &c) in block.edges.iter().zip(&conds[b]) {
            let merged = match edge_conds.get(&(b, e.to)) {
                Some(&old) => store.or(old, c),
                None => c,
            };
            edge_conds.insert((b, e.to), merged);
        }
    }
    exits.sort_by_key(|e| e.atom);
    exits.dedup_by_key(|e| e.atom);
    Symbolic {
        store,
        out,
        conds,
        joins,
        edge_conds,
        written,
        exits,
    }
}

/// The value of `t` in state `env` inside block `b`; `slot` numbers its unknowns.
fn eval(
    s: &mut Store,
    p: &Program,
    t: &Term,
    env: &[ValueId],
    b: usize,
    slot: &mut u32,
) -> ValueId {
    fn fresh(s: &mut Store, b: usize, slot: &mut u32, width: u32) -> ValueId {
        *slot += 1;
        s.atom_value(
            Atom::Opaque {
                block: b,
                slot: *slot,
            },
            width,
        )
    }
    match t {
        Term::Var(v) => match env.get(*v as usize) {
            Some(&x) => x,
            None => fresh(s, b, slot, p.width(*v)),
        },
        Term::Const { width, value } => s.int(*width, *value),
        Term::Bool(k) => s.boolean(*k),
        Term::Input { input, width } => s.atom_value(Atom::Input(input.clone()), *width),
        Term::Add(a, c) => {
            let (x, y) = (eval(s, p, a, env, b, slot), eval(s, p, c, env, b, slot));
            s.add(x, y)
        }
        Term::Sub(a, c) => {
            let (x, y) = (eval(s, p, a, env, b, slot), eval(s, p, c, env, b, slot));
            s.sub(x, y)
        }
        Term::Mul(a, c) => {
            let (x, y) = (eval(s, p, a, env, b, slot), eval(s, p, c, env, b, slot));
            s.mul(x, y)
        }
        Term::Neg(a) => {
            let x = eval(s, p, a, env, b, slot);
            s.neg(x)
        }
        Term::Trunc { width, term } => {
            let x = eval(s, p, term, env, b, slot);
            s.trunc(x, *width)
        }
        Term::Func { op, width, args } => {
            let xs: Vec<ValueId> = args.iter().map(|a| eval(s, p, a, env, b, slot)).collect();
            s.func(*op, *width, xs)
        }
        Term::Cmp {
            op,
            signed,
            a,
            b: c,
        } => {
            let (x, y) = (eval(s, p, a, env, b, slot), eval(s, p, c, env, b, slot));
            if s.width(x) != s.width(y) || s.width(x) == 1 {
                return fresh(s, b, slot, 1);
            }
            s.cmp(*op, *signed, x, y)
        }
        Term::Not(a) => {
            let x = eval(s, p, a, env, b, slot);
            s.not(x)
        }
        Term::And(a, c) => {
            let (x, y) = (eval(s, p, a, env, b, slot), eval(s, p, c, env, b, slot));
            s.and(x, y)
        }
        Term::Or(a, c) => {
            let (x, y) = (eval(s, p, a, env, b, slot), eval(s, p, c, env, b, slot));
            s.or(x, y)
        }
        Term::Xor(a, c) => {
            let (x, y) = (eval(s, p, a, env, b, slot), eval(s, p, c, env, b, slot));
            s.xor(x, y)
        }
        Term::Load {
            base,
            offset,
            width,
        } => {
            let x = eval(s, p, base, env, b, slot);
            match load(s, x, *offset) {
                Some(input) if *width == 32 => s.atom_value(Atom::Input(input), 32),
                _ => fresh(s, b, slot, *width),
            }
        }
        Term::Unknown { width } => fresh(s, b, slot, *width),
    }
}

/// The launch input a 32-bit load from `base + offset` reads, when `base` is one of the
/// launch's pointers plus a constant.
fn load(s: &Store, base: ValueId, offset: i64) -> Option<Input> {
    let mut pointer = None;
    let mut constant = 0i128;
    for (m, c) in s.terms(base) {
        match (m.as_slice(), *c) {
            ([], c) => constant = c,
            ([a], 1) => pointer = Some(*a),
            _ => return None,
        }
    }
    let off = i64::try_from(constant).ok()?.checked_add(offset)?;
    match s.get_atom(pointer?) {
        Atom::Input(Input::KernargPointer) => Some(Input::Kernarg { offset: off }),
        Atom::Input(Input::DispatchPointer) => Some(Input::Dispatch { offset: off }),
        _ => None,
    }
}
