//! Thread-level control flow of a PTX function ([`crate::flow`]): PTX ISA 8.5 §9.7.13
//! (control-flow instructions) read for one thread.

use super::{Function, OperandKind};
use crate::flow::Flow;

/// One [`Flow`] per instruction of `f`: `bra` jumps (conditional under a guard), `brx.idx`
/// jumps to one of its `.branchtargets`, `ret`/`exit`/`trap` leave the function, everything
/// else — calls included, the callee returns — continues at the next instruction.
pub fn flows(f: &Function) -> Vec<Flow> {
    let label = |name: &str| f.labels.get(name).copied();
    f.instructions
        .iter()
        .map(|ins| {
            let conditional = ins.guard.is_some();
            match ins.opcode.as_str() {
                "bra" => Flow::Branch {
                    target: ins.operands.first().and_then(|o| match &o.kind {
                        OperandKind::Symbol { name } => label(name),
                        _ => None,
                    }),
                    conditional,
                },
                "brx" => {
                    // `brx.idx index, tlist;` — `tlist` names a `.branchtargets` list.
                    let list = ins.operands.iter().find_map(|o| match &o.kind {
                        OperandKind::Symbol { name } => f.target_lists.get(name),
                        _ => None,
                    });
                    Flow::Indirect {
                        targets: list
                            .map(|l| l.iter().filter_map(|n| label(n)).collect())
                            .unwrap_or_default(),
                        conditional,
                    }
                }
                "ret" | "exit" | "trap" => Flow::End { conditional },
                _ => Flow::Next,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::blocks::EdgeKind;
    use crate::flow::build;
    use crate::limits::Limits;

    #[test]
    fn guarded_branch_loop_and_exit() {
        let text = ".version 7.8\n.target sm_86\n.address_size 64\n\
.visible .entry k(.param .u32 n)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n\
ld.param.u32 %r1, [n];\nmov.u32 %r2, 0;\n$L__BB0_1:\nadd.s32 %r2, %r2, 1;\n\
setp.lt.s32 %p1, %r2, %r1;\n@%p1 bra $L__BB0_1;\nret;\n}\n";
        let parsed = crate::ptx::parse(text, &Limits::default());
        assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
        let f = parsed.module.function(None).expect("kernel");
        let g = build(&super::flows(f));
        let spans: Vec<(usize, usize)> = g.blocks.iter().map(|b| (b.first, b.last)).collect();
        assert_eq!(spans, vec![(0, 1), (2, 4), (5, 5)]);
        assert_eq!(
            g.edges,
            vec![
                (0, 1, EdgeKind::Fallthrough),
                (1, 1, EdgeKind::Taken),
                (1, 2, EdgeKind::Fallthrough)
            ]
        );
        assert!(g.blocks[2].exits);
    }
}
