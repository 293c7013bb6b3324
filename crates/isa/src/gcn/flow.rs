//! Thread-level control flow of a GCN3 function ([`crate::flow`]): the wavefront's single
//! program counter (AMD GCN3 ISA §4.4, "Branching"; PWS §4.2).

use super::{GcnControl, GcnFunction};
use crate::flow::Flow;

/// One [`Flow`] per instruction of `f`: scalar and exec branches are conditional jumps,
/// `s_branch` an unconditional one, `s_endpgm`, returns and tail calls leave the function,
/// and statically unknown targets (`control_problem`) end it too — the front end reported
/// them. Calls, `split` and `merge` continue at the next instruction.
pub fn flows(f: &GcnFunction) -> Vec<Flow> {
    f.instructions
        .iter()
        .map(|ins| match &ins.control {
            GcnControl::ScalarBranch { target_index, .. }
            | GcnControl::ExecBranch { target_index, .. } => Flow::Branch {
                target: *target_index,
                conditional: true,
            },
            GcnControl::Jump { target_index, .. } => Flow::Branch {
                target: *target_index,
                conditional: false,
            },
            GcnControl::EndProgram
            | GcnControl::Return
            | GcnControl::TailCall { .. }
            | GcnControl::Indirect => Flow::End { conditional: false },
            GcnControl::Fallthrough
            | GcnControl::Split
            | GcnControl::Merge
            | GcnControl::Call { .. } => Flow::Next,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::blocks::EdgeKind;
    use crate::flow::build;
    use crate::limits::Limits;

    #[test]
    fn exec_skip_and_end() {
        let text = "k:\n  v_cmp_gt_u32_e32 vcc, 4, v0\n  s_and_saveexec_b64 s[0:1], vcc\n\
  s_cbranch_execz BB0_2\n  v_mov_b32_e32 v1, 1\nBB0_2:\n  s_or_b64 exec, exec, s[0:1]\n  s_endpgm\n";
        let p = crate::gcn::parse(text, &Limits::default());
        assert!(!p.has_errors(), "{:?}", p.diagnostics);
        let f = p.function(None).expect("k");
        let g = build(&super::flows(f));
        let spans: Vec<(usize, usize)> = g.blocks.iter().map(|b| (b.first, b.last)).collect();
        assert_eq!(spans, vec![(0, 2), (3, 3), (4, 5)]);
        assert_eq!(
            g.edges,
            vec![
                (0, 1, EdgeKind::Fallthrough),
                (0, 2, EdgeKind::Taken),
                (1, 2, EdgeKind::Fallthrough)
            ]
        );
        assert!(g.blocks[2].exits);
    }
}
