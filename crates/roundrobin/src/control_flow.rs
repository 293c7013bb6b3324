//! Basic blocks of a PTX function and their immediate post-dominators — the CFG of Alg. 1
//! line 2 (`GenerateKernelCFG`) and the reconvergence points of Alg. 4 line 22
//! (`FindImmediatePostdominator`, after Fung et al. [56]).

use isa::dominance::DominatorTree;
use isa::ptx::{Function, OperandKind};
use isa::Diagnostic;

/// A maximal straight-line run of instructions `start..end`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BasicBlock {
    pub id: usize,
    pub start: usize,
    pub end: usize,
    /// Target of the block's final `bra`, if any.
    pub taken: Option<usize>,
    /// The block control falls into (after a guarded `bra`, or no branch at all).
    pub fallthrough: Option<usize>,
    /// True if threads may leave the kernel at the end of this block (`ret`/`exit`, or the
    /// end of the code), guarded or not.
    pub exits: bool,
}

/// The CFG with immediate post-dominators; `None` means the virtual exit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ControlFlow {
    pub blocks: Vec<BasicBlock>,
    /// Block of every instruction.
    pub block_of: Vec<usize>,
    pub ipdom: Vec<Option<usize>>,
}

impl ControlFlow {
    /// Successor blocks (the virtual exit is not listed).
    pub fn successors(&self, b: usize) -> Vec<usize> {
        let bb = &self.blocks[b];
        let mut v: Vec<usize> = bb.taken.into_iter().chain(bb.fallthrough).collect();
        v.dedup();
        v
    }
}

fn ends_block(f: &Function, i: usize) -> bool {
    matches!(
        f.instructions[i].opcode.as_str(),
        "bra" | "ret" | "exit" | "brx"
    )
}

/// Splits `f` into basic blocks and computes post-dominators. Fails on a `bra` whose label
/// is unknown or an indirect branch, with the instruction's location.
pub fn build(f: &Function) -> Result<ControlFlow, Diagnostic> {
    let n = f.instructions.len();
    let mut leader = vec![false; n + 1];
    leader[0] = true;
    leader[n] = true;
    for &t in f.labels.values() {
        if t <= n {
            leader[t] = true;
        }
    }
    for i in 0..n {
        if ends_block(f, i) {
            leader[i + 1] = true;
        }
    }
    let starts: Vec<usize> = (0..n).filter(|&i| leader[i]).collect();
    let mut block_of = vec![0usize; n];
    let mut blocks = Vec::with_capacity(starts.len());
    for (id, &s) in starts.iter().enumerate() {
        let e = starts.get(id + 1).copied().unwrap_or(n);
        for b in block_of.iter_mut().take(e).skip(s) {
            *b = id;
        }
        blocks.push(BasicBlock {
            id,
            start: s,
            end: e,
            taken: None,
            fallthrough: None,
            exits: false,
        });
    }
    let block_at = |i: usize, block_of: &[usize]| -> Option<usize> { block_of.get(i).copied() };
    for bb in &mut blocks {
        let last = bb.end - 1;
        let ins = &f.instructions[last];
        let next = block_at(bb.end, &block_of);
        match ins.opcode.as_str() {
            "bra" => {
                let target = match ins.operands.first().map(|o| &o.kind) {
                    Some(OperandKind::Symbol { name }) => f.labels.get(name).copied(),
                    _ => None,
                };
                let Some(t) = target else {
                    return Err(Diagnostic::error(
                        ins.span,
                        "branch target is not a label of this function",
                    ));
                };
                match block_at(t, &block_of) {
                    Some(tb) => bb.taken = Some(tb),
                    // A label at the very end: branching there leaves the kernel.
                    None => bb.exits = true,
                }
                if ins.guard.is_some() {
                    bb.fallthrough = next;
                    if next.is_none() {
                        bb.exits = true;
                    }
                }
            }
            "brx" => {
                return Err(Diagnostic::error(
                    ins.span,
                    "indirect branch `brx` cannot be analysed",
                ))
            }
            "ret" | "exit" => {
                bb.exits = true;
                if ins.guard.is_some() {
                    bb.fallthrough = next;
                }
            }
            _ => {
                bb.fallthrough = next;
                if next.is_none() {
                    bb.exits = true;
                }
            }
        }
    }
    let mut cf = ControlFlow {
        ipdom: vec![None; blocks.len()],
        blocks,
        block_of,
    };
    cf.ipdom = post_dominators(&cf);
    Ok(cf)
}

/// Immediate post-dominators of the blocks, from the workspace's one dominance
/// implementation ([`isa::dominance`]) on the CFG plus a virtual exit that every exiting
/// block leads to. The virtual exit, and blocks that cannot reach it (endless loops), are
/// `None`.
fn post_dominators(cf: &ControlFlow) -> Vec<Option<usize>> {
    let n = cf.blocks.len();
    let edges: Vec<(usize, usize)> = (0..n)
        .flat_map(|b| cf.successors(b).into_iter().map(move |s| (b, s)))
        .collect();
    let exits = (0..n).filter(|&b| cf.blocks[b].exits);
    let tree = DominatorTree::post_dominators(n, edges, exits);
    (0..n).map(|b| tree.idom(b).filter(|&d| d != n)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use isa::{ptx, Limits};

    fn cfg_of(body: &str) -> ControlFlow {
        let text = format!(".entry k()\n{{ .reg .pred %p<16>; .reg .b32 %r<32>; .reg .b64 %rd<32>; .reg .f32 %f<16>;\n{body}\n}}\n");
        let out = ptx::parse(&text, &Limits::default());
        assert!(!out.has_errors(), "{:?}", out.diagnostics);
        build(out.module.function(None).expect("k")).expect("cfg")
    }

    #[test]
    fn if_then_else_reconverges_at_the_join() {
        // B0: setp; @p bra ELSE | B1: add; bra END | B2 (ELSE): sub | B3 (END): ret
        let cf = cfg_of(
            "setp.eq.s32 %p1, %r1, 0;\n@%p1 bra ELSE;\nadd.s32 %r2, %r2, 1;\nbra END;\n\
             ELSE:\nsub.s32 %r2, %r2, 1;\nEND:\nret;",
        );
        assert_eq!(cf.blocks.len(), 4);
        assert_eq!(cf.blocks[0].taken, Some(2));
        assert_eq!(cf.blocks[0].fallthrough, Some(1));
        assert_eq!(cf.ipdom, vec![Some(3), Some(3), Some(3), None]);
    }

    #[test]
    fn loop_exit_post_dominates_the_body() {
        // B0: mov | B1 (L): add; setp; @p bra L | B2: ret
        let cf = cfg_of(
            "mov.u32 %r1, 0;\nL:\nadd.s32 %r1, %r1, 1;\nsetp.lt.s32 %p1, %r1, 4;\n@%p1 bra L;\nret;",
        );
        assert_eq!(cf.blocks.len(), 3);
        assert_eq!(cf.ipdom, vec![Some(1), Some(2), None]);
    }

    #[test]
    fn guarded_exit_reconverges_at_the_virtual_exit() {
        let cf = cfg_of("@%p1 exit;\nadd.s32 %r1, %r1, 1;\nret;");
        assert_eq!(cf.blocks.len(), 2);
        assert!(cf.blocks[0].exits);
        assert_eq!(cf.ipdom, vec![None, None]);
    }
}
