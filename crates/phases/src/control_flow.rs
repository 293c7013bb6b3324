//! Step 2 (§5.2): control-flow analysis with control-stack-annotated edges.
//!
//! Sim-D's vector control flow uses a control stack (CSTACK) of (PC, mask, type) entries
//! (§3.1). When a CMASK write disables every work-item, the decoder injects `cpop`s that
//! unwind the stack, so a block ending in `cmask`, `brk` or `ret` may continue at the target
//! of *any* stack entry. Each edge is annotated with the stack state (branch target, entry
//! type) at the end of its source block, and with the number of entries popped to take it.
//! All incoming edges of a block must carry the same stack state, which bounds the number of
//! edges a priori (§5.2's restriction; it forbids stack growth in loops and recursion). The
//! reference tool only prints a violation and carries on; we reject it with a located error,
//! as §5.2 says the CFA enforces it (no corpus kernel violates it).
//!
//! Like the reference tool, the stack is tracked in program (address) order, which is exact
//! for the structured code the restriction admits: `cpush.T target` pushes (T, target),
//! `bra target` pushes (run, target), `call` pushes (return, next block); only `cpop`
//! pops. Edge rules per terminator:
//! * branch target (`j`, `sicj`, `call`): a jump edge;
//! * fall-through unless the terminator is `j`, `call` or `cpop`;
//! * `cpop`: a jump to the popped entry's target;
//! * `bra`: an injected-cpop edge (1 pop) to its own entry's target (all work-items may
//!   take the branch);
//! * `call`: a jump edge (1 pop) to the return point;
//! * `cmask`, `brk`, `ret`: one injected-cpop edge per stack entry, popping 1, 2, … entries.

use crate::basic_blocks::{block_at, BasicBlock};
use crate::error::Error;
use isa::simd::{Op, Program};
use isa::Diagnostic;

/// Type of a CSTACK entry (the `cpush` sub-operation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StackKind {
    /// `cpush.if`, `bra`: restore the run mask at the end of an if/else block.
    Run,
    /// `cpush.brk`: loop break point.
    Break,
    /// `cpush.jc`, `call`: return point.
    Return,
}

/// One entry of an edge's stack annotation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StackEntry {
    /// Block the entry returns to.
    pub target: usize,
    pub kind: StackKind,
}

/// Edge classes, which §5.3 prices differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EdgeKind {
    /// Falls through to the next block: the warm-minus-cold pipeline penalty.
    Fallthrough,
    /// A taken branch: a pipeline flush.
    Jump,
    /// A decoder-injected `cpop`: one `cpop` execution per popped entry.
    CpopInjected,
}

/// A CFG edge with its stack annotation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CfgEdge {
    pub from: usize,
    pub to: usize,
    pub kind: EdgeKind,
    /// CSTACK entries popped to take this edge.
    pub cpops: u32,
    /// The stack state on this edge, bottom first.
    pub stack: Vec<StackEntry>,
}

/// The control-flow graph: edges in creation order (per source block: branch target first,
/// then fall-through, then stack edges — the order the DAG construction visits them).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ControlFlow {
    pub edges: Vec<CfgEdge>,
    /// Edge indices leaving each block, in creation order.
    pub out: Vec<Vec<usize>>,
    /// Deepest stack seen.
    pub max_stack_depth: usize,
    /// Non-fatal findings (e.g. a `brk` with no break entry on the stack).
    pub warnings: Vec<Diagnostic>,
}

fn target_block(program: &Program, blocks: &[BasicBlock], inst: usize) -> Result<usize, Error> {
    let i = &program.instructions[inst];
    let name = i.target_label().unwrap_or("");
    program
        .label_index(name)
        .and_then(|idx| block_at(blocks, idx))
        .ok_or_else(|| {
            Error::at(
                i.span,
                format!("branch target `{name}` names no instruction"),
            )
        })
}

/// Builds the CFG of §5.2 and checks the equal-stack-state rule.
pub fn analyse(program: &Program, blocks: &[BasicBlock]) -> Result<ControlFlow, Error> {
    let mut cf = ControlFlow {
        out: vec![Vec::new(); blocks.len()],
        ..ControlFlow::default()
    };
    let mut stack: Vec<StackEntry> = Vec::new();
    for b in blocks {
        let next = blocks.get(b.id + 1).map(|n| n.id);
        for k in b.first..b.end {
            let inst = &program.instructions[k];
            let entry = match inst.op {
                Some(Op::CPush) => {
                    let kind = match inst.subop {
                        Some(1) => StackKind::Break,
                        Some(2) => StackKind::Return,
                        _ => StackKind::Run,
                    };
                    Some(StackEntry {
                        target: target_block(program, blocks, k)?,
                        kind,
                    })
                }
                Some(Op::Bra) => Some(StackEntry {
                    target: target_block(program, blocks, k)?,
                    kind: StackKind::Run,
                }),
                Some(Op::Call) => match next {
                    Some(n) => Some(StackEntry {
                        target: n,
                        kind: StackKind::Return,
                    }),
                    None => {
                        return Err(Error::at(
                            inst.span,
                            "call at the end of the program has no return point",
                        ))
                    }
                },
                _ => None,
            };
            if let Some(e) = entry {
                stack.push(e);
                cf.max_stack_depth = cf.max_stack_depth.max(stack.len());
            }
        }
        let Some(next) = next else { break };
        let last = &program.instructions[b.last()];
        let add = |cf: &mut ControlFlow, to, kind, cpops, stack: Vec<StackEntry>| {
            cf.out[b.id].push(cf.edges.len());
            cf.edges.push(CfgEdge {
                from: b.id,
                to,
                kind,
                cpops,
                stack,
            });
        };
        let op = last.op;
        if matches!(op, Some(Op::J | Op::Sicj | Op::Call)) {
            let t = target_block(program, blocks, b.last())?;
            add(&mut cf, t, EdgeKind::Jump, 0, stack.clone());
        }
        if !matches!(op, Some(Op::J | Op::CPop | Op::Call)) {
            add(&mut cf, next, EdgeKind::Fallthrough, 0, stack.clone());
        }
        match op {
            Some(Op::CPop) => {
                let Some(top) = stack.pop() else {
                    return Err(Error::at(last.span, "cpop with an empty control stack"));
                };
                add(&mut cf, top.target, EdgeKind::Jump, 0, stack.clone());
            }
            Some(Op::Bra) | Some(Op::Call) => {
                let mut rest = stack.clone();
                if let Some(top) = rest.pop() {
                    let kind = if op == Some(Op::Call) {
                        EdgeKind::Jump
                    } else {
                        EdgeKind::CpopInjected
                    };
                    add(&mut cf, top.target, kind, 1, rest);
                }
            }
            Some(o @ (Op::Brk | Op::Ret | Op::CMask)) => {
                let wanted = match o {
                    Op::Brk => StackKind::Break,
                    Op::Ret => StackKind::Return,
                    _ => StackKind::Run,
                };
                let mut rest = stack.clone();
                let mut found = false;
                let mut depth = 0;
                while let Some(top) = rest.pop() {
                    depth += 1;
                    found |= top.kind == wanted;
                    add(
                        &mut cf,
                        top.target,
                        EdgeKind::CpopInjected,
                        depth,
                        rest.clone(),
                    );
                }
                if !found {
                    cf.warnings.push(Diagnostic::warning(
                        last.span,
                        format!(
                            "`{}` finds no {wanted:?} entry on the control stack",
                            o.name()
                        ),
                    ));
                }
            }
            _ => {}
        }
    }
    check_equal_stacks(program, blocks, &cf)?;
    Ok(cf)
}

/// §5.2: all incoming edges of a block must have an equal stack state.
fn check_equal_stacks(
    program: &Program,
    blocks: &[BasicBlock],
    cf: &ControlFlow,
) -> Result<(), Error> {
    let mut first: Vec<Option<usize>> = vec![None; blocks.len()];
    for (k, e) in cf.edges.iter().enumerate() {
        match first[e.to] {
            None => first[e.to] = Some(k),
            Some(f) if cf.edges[f].stack != e.stack => {
                let span = program.instructions[blocks[e.to].first].span;
                return Err(Error::at(
                    span,
                    format!(
                        "this block is entered with different control-stack states (from blocks {} and {}); Sim-D's CFA requires equal stack states on all incoming edges (§5.2) — in-line shared code",
                        cf.edges[f].from, e.from
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::basic_blocks::split;
    use isa::simd::parse;
    use isa::Limits;

    fn cfg(text: &str) -> Result<ControlFlow, Error> {
        let p = parse(text, &Limits::default()).program.unwrap_or_default();
        analyse(&p, &split(&p))
    }

    /// An if-block: `cpush.if end; itest; cmask p0; add; cpop; end: exit`.
    /// Blocks: B0 [cpush, itest, cmask], B1 [add, cpop], B2 [exit].
    /// B0 → B1 fall-through with stack [(run, B2)]; B0 → B2 injected cpop (1 pop, empty stack);
    /// B1 → B2 jump by cpop (empty stack). B2's incoming stacks agree (both empty).
    #[test]
    fn if_block_stack_annotations() {
        let c = cfg(".text\n cpush.if end\n itest.ez p0, v0\n cmask p0\n add v0, v0, v0\n cpop\nend:\n exit\n");
        let c = c.unwrap_or_default();
        let got: Vec<(usize, usize, EdgeKind, u32, usize)> = c
            .edges
            .iter()
            .map(|e| (e.from, e.to, e.kind, e.cpops, e.stack.len()))
            .collect();
        assert_eq!(
            got,
            vec![
                (0, 1, EdgeKind::Fallthrough, 0, 1),
                (0, 2, EdgeKind::CpopInjected, 1, 0),
                (1, 2, EdgeKind::Jump, 0, 0),
            ]
        );
        assert_eq!(
            c.edges[0].stack,
            vec![StackEntry {
                target: 2,
                kind: StackKind::Run
            }]
        );
        assert_eq!(c.max_stack_depth, 1);
    }

    /// Jumping into an if-block from outside enters it with an empty stack while the fall
    /// through carries the pushed entry: rejected by the equal-stack rule.
    #[test]
    fn unequal_incoming_stacks_are_rejected() {
        let e = cfg(
            ".text\n sicj.ez inner, s0\n cpush.if end\ninner:\n cmask p0\n cpop\nend:\n exit\n",
        );
        let e = e.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains("§5.2"), "{e}");
    }
}
