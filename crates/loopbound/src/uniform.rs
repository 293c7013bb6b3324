//! Which values and branches are the same in every thread of a thread block — *block-uniform*
//! — read from the symbolic pass: the divergence analysis of Karrenberg and Hack ("Whole-
//! function vectorization", CGO 2011) and of Coutinho, Sampaio, Pereira and Meira
//! ("Divergence analysis and optimizations", PACT 2011), with the threads of a block in place
//! of a SIMD group's lanes.
//!
//! Why here: the `block` crate's per-phase rule needs the branches every thread of a block
//! takes the same way (all warps must leave a loop around a barrier in the same iteration),
//! and what decides a branch is this crate's polynomials over launch inputs.
//!
//! **Atoms.** Launch inputs other than `tid` are the same in every thread of a block: kernel
//! parameters and constant-bank words, `ctaid` (one block), `ntid`, `nctaid`, GCN3's kernarg
//! and dispatch words. `tid` is not, nor any [`Atom::Opaque`] (a load, a vote, a shuffle, a
//! float, whatever the lowering does not model: different per thread as far as this crate
//! knows), nor the unknown registers at a root or where an irreducible edge enters. A
//! function node is uniform when its operands are; a polynomial or a truth value when all
//! its atoms are.
//!
//! **Branches and joins.** A block's branch is uniform when every edge condition is (and the
//! lowering stated them: [`crate::ir::Block::unknown_conditions`]). A join's value (an
//! [`Atom::Entry`] where predecessors bring different values, a loop header's φ) is uniform
//! when every value brought is *and* no divergent branch decides which predecessor a thread
//! arrives from: a divergent branch marks the blocks reachable from it before its immediate
//! post-dominator, and that post-dominator, whose joins are then divergent (the influence
//! region of Karrenberg and Hack, §4); a divergent branch leaving a loop also marks the
//! loop's header (threads leave in different iterations: temporal divergence). An exit atom
//! is uniform when the φ it is the last value of is.
//!
//! The marking is a greatest fixpoint: start from the divergent atoms above and propagate
//! through values, branches and joins until nothing changes — monotone, so at most one pass
//! per atom or block that turns divergent.
//!
//! **What it guarantees.** Follow two threads of one block along their paths, pairing their
//! visits: while both are outside the region of every divergent branch they have taken, they
//! are at the same block, and at a divergent branch both next meet at its post-dominator (or
//! end). At paired visits every uniform value is the same in both: launch inputs agree; every
//! atom defined inside a divergent branch's region is divergent (joins there are marked, and
//! the loops there have their headers marked); a uniform φ receives, in both threads, the
//! value of the same predecessor (the branches that chose it were uniform), which is uniform
//! and so equal by induction; and a uniform branch then sends both the same way. The `block`
//! crate's per-phase rule rests on exactly this.

use crate::expr::{Atom, AtomId, Bool, Store, Value, ValueId};
use crate::ir::Var;
use crate::{Analysis, Input};
use isa::dominance::DominatorTree;
use std::collections::HashMap;

/// The block-uniform values and branches of one analysis.
#[derive(Debug, Clone)]
pub struct Uniformity {
    value_divergent: Vec<bool>,
    branch_divergent: Vec<bool>,
}

impl Uniformity {
    /// Whether every thread of a block that leaves block `b` at a paired visit (module doc)
    /// leaves it along the same edge — or, for a block that may end the thread (a guarded
    /// `EXIT` whose fall-through is its one edge), every such thread ends there or none does.
    pub fn uniform_branch(&self, b: usize) -> bool {
        !self.branch_divergent.get(b).copied().unwrap_or(true)
    }

    /// Whether value `v` is the same in every thread of a block at paired visits.
    pub fn uniform_value(&self, v: ValueId) -> bool {
        !self
            .value_divergent
            .get(v as usize)
            .copied()
            .unwrap_or(true)
    }
}

/// What decides whether an atom is divergent.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// Divergent whatever the rest (`tid`, an opaque result, an unknown register).
    Divergent,
    /// Uniform whatever the rest (a launch input other than `tid`).
    Uniform,
    /// Its operands decide (a function node, read with the values).
    Func,
    /// A join of the symbolic pass at `block` (its alternatives in `Symbolic::joins`).
    Join { block: usize },
    /// The φ of `var` at loop header `header`.
    Phi { header: usize, var: Var },
    /// An exit atom: the φ whose last value it is decides (none found: divergent).
    Exit { phi: Option<AtomId> },
}

/// Runs the analysis (module doc).
pub(crate) fn run(a: &Analysis) -> Uniformity {
    let p = &a.program;
    let loops = &a.loops;
    let sym = &a.sym;
    let s = &sym.store;
    let n = p.blocks.len();
    let (_, atom_count) = s.len();
    let entries: HashMap<(usize, Var), AtomId> = (0..atom_count as AtomId)
        .filter_map(|id| match *s.get_atom(id) {
            Atom::Entry { block, var } => Some(((block, var), id)),
            _ => None,
        })
        .collect();
    let kinds: Vec<Kind> = (0..atom_count as AtomId)
        .map(|id| kind(a, id, &entries))
        .collect();
    let succ: Vec<Vec<usize>> = p
        .blocks
        .iter()
        .map(|b| {
            let mut t: Vec<usize> = b.edges.iter().map(|e| e.to).filter(|&t| t < n).collect();
            t.sort_unstable();
            t.dedup();
            t
        })
        .collect();
    let pdom = DominatorTree::post_dominators(
        n,
        succ.iter()
            .enumerate()
            .flat_map(|(b, ts)| ts.iter().map(move |&t| (b, t))),
        (0..n).filter(|&b| succ[b].is_empty()),
    );
    let reachable = |b: usize| loops.dom.is_reachable(b);
    let mut atom_divergent: Vec<bool> =
        kinds.iter().map(|k| matches!(k, Kind::Divergent)).collect();
    let mut branch_divergent = vec![false; n];
    // Blocks some divergent branch decides the arrival at: their joins are divergent.
    let mut marked = vec![false; n];
    loop {
        let values = divergent_values(s, &atom_divergent);
        let mut changed = false;
        for b in 0..n {
            if !reachable(b) || branch_divergent[b] {
                continue;
            }
            let block = &p.blocks[b];
            let divergent = block.unknown_conditions
                || sym.conds[b]
                    .iter()
                    .any(|&c| values.get(c as usize).copied().unwrap_or(true));
            if !divergent {
                continue;
            }
            branch_divergent[b] = true;
            changed = true;
            if succ[b].len() > 1 {
                mark_region(b, &succ, &pdom, &mut marked);
                for l in loops.loops.iter().filter(|l| l.contains(b)) {
                    if succ[b].iter().any(|&t| !l.contains(t)) {
                        marked[l.header] = true;
                    }
                }
            }
        }
        for (id, k) in kinds.iter().enumerate() {
            if atom_divergent[id] {
                continue;
            }
            let brought = |v: ValueId| values.get(v as usize).copied().unwrap_or(true);
            let divergent = match *k {
                Kind::Divergent => true,
                Kind::Uniform | Kind::Func => false,
                Kind::Join { block } => {
                    marked[block]
                        || sym
                            .joins
                            .get(&(id as AtomId))
                            .is_none_or(|alts| alts.iter().any(|&(_, v)| brought(v)))
                }
                Kind::Phi { header, var } => {
                    marked[header]
                        || loops.preds[header]
                            .iter()
                            .filter(|&&q| reachable(q))
                            .any(|&q| sym.out[q].get(var as usize).is_none_or(|&v| brought(v)))
                }
                Kind::Exit { phi } => phi.is_none_or(|f| atom_divergent[f as usize]),
            };
            if divergent {
                atom_divergent[id] = true;
                changed = true;
            }
        }
        if !changed {
            return Uniformity {
                value_divergent: values,
                branch_divergent,
            };
        }
    }
}

/// How atom `id` is decided.
fn kind(a: &Analysis, id: AtomId, entries: &HashMap<(usize, Var), AtomId>) -> Kind {
    match a.sym.store.get_atom(id) {
        Atom::Input(Input::Tid(_)) => Kind::Divergent,
        Atom::Input(_) => Kind::Uniform,
        Atom::Opaque { .. } => Kind::Divergent,
        Atom::Func { .. } => Kind::Func,
        Atom::Exit { header, var, .. } => Kind::Exit {
            phi: entries.get(&(*header, *var)).copied(),
        },
        &Atom::Entry { block, var } => {
            if a.sym.joins.contains_key(&id) {
                return Kind::Join { block };
            }
            let phi = !a.loops.retreating.get(block).copied().unwrap_or(true)
                && !a.program.roots.contains(&block)
                && a.loops
                    .of_header(block)
                    .is_some_and(|l| a.sym.written[l].get(var as usize).copied() == Some(true));
            if phi {
                Kind::Phi { header: block, var }
            } else {
                // A root's registers, an irreducible entry, an unreached block.
                Kind::Divergent
            }
        }
    }
}

/// Every stored value's divergence given the atoms' (function nodes read from their
/// operands). Values are stored after their operands, so one pass in id order suffices; an
/// operand stored later (never made by the store) counts as divergent.
fn divergent_values(s: &Store, atom_divergent: &[bool]) -> Vec<bool> {
    let (value_count, atom_count) = s.len();
    let mut out = vec![false; value_count];
    let mut funcs: Vec<Option<bool>> = vec![None; atom_count];
    for v in 0..value_count {
        let before = |x: ValueId, out: &[bool]| (x as usize) >= v || out[x as usize];
        let mut atom = |a: AtomId, out: &[bool]| -> bool {
            let i = a as usize;
            match s.get_atom(a) {
                Atom::Func { args, .. } => {
                    *funcs[i].get_or_insert_with(|| args.iter().any(|&x| before(x, out)))
                }
                _ => atom_divergent.get(i).copied().unwrap_or(true),
            }
        };
        let divergent = match s.get(v as ValueId) {
            Value::Int { terms, .. } => terms
                .iter()
                .any(|(m, _)| m.as_slice().iter().any(|&a| atom(a, &out))),
            Value::Bool(b) => match *b {
                Bool::Const(_) => false,
                Bool::Atom(a) => atom(a, &out),
                Bool::Cmp { a, b, .. } | Bool::And(a, b) | Bool::Or(a, b) => {
                    before(a, &out) || before(b, &out)
                }
                Bool::Not(a) => before(a, &out),
            },
        };
        out[v] = divergent;
    }
    out
}

/// Marks the blocks a divergent branch at `b` decides the arrival at: those reachable from
/// it before its immediate post-dominator, and that post-dominator.
fn mark_region(b: usize, succ: &[Vec<usize>], pdom: &DominatorTree, marked: &mut [bool]) {
    let n = succ.len();
    let stop = pdom.idom(b);
    let mut seen = vec![false; n];
    let mut stack: Vec<usize> = succ[b].clone();
    while let Some(x) = stack.pop() {
        if Some(x) == stop || x >= n || seen[x] {
            continue;
        }
        seen[x] = true;
        marked[x] = true;
        stack.extend(&succ[x]);
    }
    if let Some(j) = stop.filter(|&j| j < n) {
        marked[j] = true;
    }
}
