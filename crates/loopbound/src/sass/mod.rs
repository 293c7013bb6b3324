//! SASS lowered to the [`Program`] of the inference: the thread-level block graph of
//! `isa::blocks` (one block per block), each instruction's writes as ops ([`ops`]), 64-bit
//! carry chains and `ISETP….EX` compares rebuilt as 64-bit values ([`chains`]), Maxwell and
//! Pascal `XMAD` multiply sequences as one product ([`xmad`]), and each edge's condition
//! from its block's last instruction.
//!
//! The graph is `isa::blocks`'s without its call and return edges: a block ending in a call
//! continues at the instruction after the call with every register unknown (the callee may
//! write any), and each call target is a root of its own, analysed with unknown registers.
//! That is the graph the `warp-cfg` mode keys loop bounds on (headers by byte address).
//!
//! Edge conditions are *necessary* conditions: an edge whose condition the lowering cannot
//! state (`BRA.DIV`, a condition-code test, an indirect jump) gets `true`.

mod bitwise;
mod chains;
mod ops;
mod xmad;

use crate::ir::{Block, Edge, Program, Term, Var};
use isa::{BlockGraph, ControlKind, EdgeKind, Instruction, Kernel, OperandKind, Register};
use std::collections::HashMap;

/// Lowers `kernel` with its block graph `graph` (from `isa::blocks::build`).
pub fn lower(kernel: &Kernel, graph: &BlockGraph) -> Program {
    let mut l = Lowering {
        p: Program::default(),
        vars: HashMap::new(),
    };
    let n = graph.blocks.len();
    let edges = graph.edges();
    let mut roots = vec![0];
    for &(_, to, kind) in &edges {
        if kind == EdgeKind::Call && !roots.contains(&to) {
            roots.push(to);
        }
    }
    let mut chains = chains::find(kernel, graph);
    let mut products = xmad::find(kernel, graph);
    for blk in &graph.blocks {
        let first = &kernel.instructions[blk.first];
        let mut block = Block {
            key: format!("{:#06x}", first.address),
            line: first.span.line,
            first: blk.first,
            ..Block::default()
        };
        for i in blk.first..=blk.last {
            let ins = &kernel.instructions[i];
            let mut out = Vec::new();
            if !chains.lower(&mut l, kernel, i, &mut out)
                && !products.lower(&mut l, i, ins, &mut out)
            {
                ops::lower(&mut l, ins, &mut out);
            }
            block.ops.extend(out);
        }
        let last = &kernel.instructions[blk.last];
        block.clobbers_all = matches!(last.control, ControlKind::Call(_));
        l.p.blocks.push(block);
    }
    for &(from, to, kind) in &edges {
        let last = &kernel.instructions[graph.blocks[from].last];
        let when = match kind {
            EdgeKind::Call => continue,
            EdgeKind::Return if last.control == ControlKind::Ret => continue,
            // An indirect call's return point (`PRET` … `BRX`): the callee is unknown.
            EdgeKind::Return => {
                l.p.blocks[from].clobbers_all = true;
                Term::Bool(true)
            }
            _ => {
                if !condition_known(last) {
                    l.p.blocks[from].unknown_conditions = true;
                }
                l.edge_condition(last, kind)
            }
        };
        l.p.blocks[from].edges.push(Edge { to, when });
    }
    // A call continues after it (its return edges are not followed).
    for (b, blk) in graph.blocks.iter().enumerate() {
        let last = &kernel.instructions[blk.last];
        if matches!(last.control, ControlKind::Call(Some(_))) && b + 1 < n {
            let edge = Edge {
                to: b + 1,
                when: Term::Bool(true),
            };
            if !l.p.blocks[b].edges.contains(&edge) {
                l.p.blocks[b].edges.push(edge);
            }
        }
    }
    l.p.roots = roots;
    l.p
}

/// The lowering's state: the program and the variable of each register.
pub(crate) struct Lowering {
    pub(crate) p: Program,
    vars: HashMap<Register, Var>,
}

impl Lowering {
    /// The variable of register `r` (`None` for `RZ`, `PT` and registers the inference does
    /// not track).
    pub(crate) fn var(&mut self, r: &Register) -> Option<Var> {
        if let Some(&v) = self.vars.get(r) {
            return Some(v);
        }
        let width = match r {
            Register::Gpr(_) | Register::Uniform(_) => 32,
            Register::Pred(_) | Register::UniformPred(_) | Register::CarryFlag => 1,
            _ => return None,
        };
        let v = self.p.add_var(r.to_string(), width);
        self.vars.insert(r.clone(), v);
        Some(v)
    }

    /// A temporary of `width` bits.
    pub(crate) fn temp(&mut self, name: String, width: u32) -> Var {
        self.p.add_var(name, width)
    }

    /// The instruction's guard as a truth value (`None`: unguarded or `@PT`).
    pub(crate) fn guard(&mut self, ins: &Instruction) -> Option<Term> {
        let g = ins.guard.as_ref()?;
        if g.reg == Register::True {
            return g.negated.then_some(Term::Bool(false));
        }
        let t = match self.var(&g.reg) {
            Some(v) => Term::Var(v),
            None => Term::Unknown { width: 1 },
        };
        Some(if g.negated { Term::not(t) } else { t })
    }

    /// A predicate operand as a truth value.
    pub(crate) fn predicate(&mut self, op: &isa::Operand) -> Term {
        let t = match op.register() {
            Some(Register::True) => Term::Bool(true),
            Some(r) if r.is_predicate() => match self.var(r) {
                Some(v) => Term::Var(v),
                None => Term::Unknown { width: 1 },
            },
            _ => Term::Unknown { width: 1 },
        };
        if op.negated || op.inverted {
            Term::not(t)
        } else {
            t
        }
    }

    /// The condition under which a thread takes edge `kind` out of the block ending in
    /// `last` (module doc: necessary, `true` when unknown).
    fn edge_condition(&mut self, last: &Instruction, kind: EdgeKind) -> Term {
        let guard = self.guard(last);
        if !condition_known(last) {
            return Term::Bool(true);
        }
        // `@P0 BRA P1, target`: taken where both hold.
        let extra: Option<Term> = match last.control {
            ControlKind::Branch(_) => last
                .operands
                .iter()
                .find(|o| o.register().is_some_and(Register::is_predicate))
                .map(|o| self.predicate(o)),
            _ => None,
        };
        let taken = match (guard, extra) {
            (None, None) => Term::Bool(true),
            (Some(g), None) => g,
            (None, Some(e)) => e,
            (Some(g), Some(e)) => Term::and(g, e),
        };
        let acts = last.control.jumps_or_halts() || last.control == ControlKind::Ret;
        match kind {
            EdgeKind::Fallthrough if acts => Term::not(taken),
            EdgeKind::Fallthrough => Term::Bool(true),
            _ => taken,
        }
    }
}

/// Whether the lowering states when a thread takes the edges out of a block ending in
/// `last`: not for `BRA.DIV`/`BRA.CONV` (taken on the warp's convergence, not on a value of
/// the thread), a condition-code test or an indirect jump, whose edges all get `true`.
pub fn condition_known(last: &Instruction) -> bool {
    let warp_state = last.opcode.name == "BRA"
        && (last.opcode.has_modifier("DIV") || last.opcode.has_modifier("CONV"));
    !(warp_state || last.tests_condition_code() || matches!(last.control, ControlKind::Indirect))
}

/// Whether operand `o` is `RZ`/`URZ`.
pub(crate) fn is_zero(o: &isa::Operand) -> bool {
    matches!(
        o.kind,
        OperandKind::Register {
            reg: Register::Zero
        }
    )
}
