//! Loop bounds from the code: induction variables, the comparisons that end their loops, and
//! the trip counts that follow, on one thread's control-flow graph of a SASS, PTX or GCN3
//! function.
//!
//! **What it is.** [`analyse`] reads a [`Program`] (a dialect lowered by [`sass`], [`ptx`] or
//! [`gcn`]) once: its natural loops ([`loops`]), one symbolic pass giving every variable's
//! value as a polynomial over launch inputs and φ atoms ([`symbolic`], [`expr`]), the
//! comparisons every further iteration needs ([`exits`]) and the induction variables they
//! compare ([`induction`]). The result is symbolic in kernel parameters and launch
//! dimensions; [`Analysis::evaluate`] turns it into numbers for one launch — intervals of
//! `tid`/`ctaid` over the launch, the request's parameter words ([`interval`]) — safely for
//! every thread: the bound is the maximum over threads ([`trip_count`]). Each bound carries
//! its reason (`R7 += 1 from 0, … while R7 + 1 < 1000 at 0x0180 → ≤ 1000`).
//!
//! **What it is not.** Not a value analysis of memory (a loop that exits on loaded data gets
//! no bound from that exit), not a whole-program analysis (SASS subroutines are analysed on
//! their own, their callers assume nothing about the registers a call leaves), and never a
//! guess: whenever wrap-around, an unknown step sign, a step that may not divide a `≠`
//! distance, a redefinition on some path, or an unknown input could make the count wrong,
//! the loop gets no bound and a reason saying why.
//!
//! **Semantics of a bound.** `N` bounds the runs of the loop's header per thread and per
//! entry into the loop — what the `warp-cfg` mode's `loop_bounds` mean (Jeanmougin et al.,
//! WCET 2023, §4.1: "loop bounds are given per loop of the thread-level CFG"), what
//! `ipet::LoopBounds` constrain, and what `simulation.loop_iterations` observes.
//!
//! **Uniformity.** [`Analysis::uniformity`] reads the same symbolic values for another
//! question: which branches every thread of a thread block takes the same way (their
//! conditions depend on parameters, block ids and launch dimensions only — no `tid`, no
//! loaded data, no vote or shuffle — and no divergent branch decides the values they
//! compare), the condition under which the `block` crate extends its per-phase rule to
//! barriers inside loops ([`uniform`]).
//!
//! Pure Rust, no I/O, deterministic; linear in blocks × variables plus the facts (each a
//! truth table of at most 2^10 rows and a constant number of interval evaluations).

pub mod exits;
pub mod expr;
pub mod gcn;
pub mod induction;
pub mod interval;
pub mod ir;
pub mod loops;
pub mod ptx;
pub mod sass;
pub mod symbolic;
pub mod trip_count;
pub mod uniform;

mod evaluate;
mod flow;
mod reason;

pub use interval::Interval;
pub use ir::{Input, Program};

use expr::{Atom, AtomId};
use induction::{Fact, Iv};
use loops::Loops;
use std::collections::HashMap;
use symbolic::Symbolic;

/// A program's loops with their induction variables and facts, symbolic in the launch.
#[derive(Debug, Clone)]
pub struct Analysis {
    pub program: Program,
    pub loops: Loops,
    pub sym: Symbolic,
    /// Per loop (index into `loops.loops`): its induction variables and facts.
    pub ivs: Vec<Vec<Iv>>,
    pub facts: Vec<Vec<Fact>>,
}

/// Analyses `program`.
pub fn analyse(program: Program) -> Analysis {
    let loops = Loops::new(&program);
    let mut sym = symbolic::run(&program, &loops);
    let mut ivs = Vec::with_capacity(loops.loops.len());
    let mut facts = Vec::with_capacity(loops.loops.len());
    for (li, l) in loops.loops.iter().enumerate() {
        let lits = exits::literals(&program, &loops, l, &sym);
        let (v, f) = induction::analyse(&program, l, li, &mut sym, &lits);
        ivs.push(v);
        facts.push(f);
    }
    Analysis {
        program,
        loops,
        sym,
        ivs,
        facts,
    }
}

/// The bound of one loop for one launch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopBound {
    /// The header block (index into the program's blocks).
    pub block: usize,
    /// The header's key (SASS address `0x0100`, PTX or GCN3 label).
    pub key: String,
    pub line: u32,
    /// Most header runs per thread and per entry, for every thread of the launch; `None`:
    /// no bound from the code.
    pub bound: Option<u64>,
    /// Why this bound (the induction variable, its start and step, the exit, the count), or
    /// why there is none.
    pub reason: String,
    /// The count as a formula of the launch inputs (`⌈(n − tid.x) / (ntid.x·nctaid.x)⌉ + 1`),
    /// when there is a bound.
    pub formula: Option<String>,
    /// Launch inputs the bound depends on (parameters, launch dimensions).
    pub inputs: Vec<Input>,
    /// Nesting depth (1: outermost).
    pub depth: usize,
}

impl Analysis {
    /// Every loop's bound for the launch whose inputs `inputs` gives (unsigned machine
    /// values; `None`: not known), outer loops first.
    pub fn evaluate(&self, inputs: &dyn Fn(&Input) -> Option<Interval>) -> Vec<LoopBound> {
        self.evaluate_named(inputs, &|i: &Input| i.to_string())
    }

    /// [`Analysis::evaluate`], naming inputs in reasons with `name`.
    pub fn evaluate_named(
        &self,
        inputs: &dyn Fn(&Input) -> Option<Interval>,
        name: &dyn Fn(&Input) -> String,
    ) -> Vec<LoopBound> {
        evaluate::run(self, inputs, name)
    }

    /// Which values and branches are the same in every thread of a thread block
    /// ([`uniform`]): what the `block` crate's per-phase rule asks of a loop around a barrier.
    pub fn uniformity(&self) -> uniform::Uniformity {
        uniform::run(self)
    }

    /// The launch inputs a fact's numbers depend on.
    pub(crate) fn inputs_of(&self, iv: &Iv, f: &Fact) -> Vec<Input> {
        let s = &self.sym.store;
        let mut seen: Vec<Input> = Vec::new();
        let mut stack: Vec<expr::ValueId> = vec![f.limit];
        stack.extend(&f.starts);
        stack.extend(&f.steps);
        stack.extend(&iv.inits);
        let mut visited = std::collections::HashSet::new();
        while let Some(v) = stack.pop() {
            if !visited.insert(v) || visited.len() > 4096 {
                continue;
            }
            for (m, _) in s.terms(v) {
                for &a in m {
                    push_atom(s, a, &mut stack, &mut seen, &self.sym.joins);
                }
            }
            if let expr::Value::Bool(b) = s.get(v) {
                match *b {
                    expr::Bool::Cmp { a, b, .. } | expr::Bool::And(a, b) | expr::Bool::Or(a, b) => {
                        stack.extend([a, b])
                    }
                    expr::Bool::Not(a) => stack.push(a),
                    expr::Bool::Atom(a) => push_atom(s, a, &mut stack, &mut seen, &self.sym.joins),
                    expr::Bool::Const(_) => {}
                }
            }
        }
        seen.sort();
        seen
    }
}

fn push_atom(
    s: &expr::Store,
    a: AtomId,
    stack: &mut Vec<expr::ValueId>,
    seen: &mut Vec<Input>,
    joins: &HashMap<AtomId, Vec<(usize, expr::ValueId)>>,
) {
    match s.get_atom(a) {
        Atom::Input(i) => {
            if !seen.contains(i) {
                seen.push(i.clone());
            }
        }
        Atom::Func { args, .. } => stack.extend(args),
        Atom::Entry { .. } => {
            if let Some(alts) = joins.get(&a) {
                stack.extend(alts.iter().map(|x| x.1));
            }
        }
        Atom::Opaque { .. } | Atom::Exit { .. } => {}
    }
}
