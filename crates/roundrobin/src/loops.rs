//! The natural loops of a kernel's CFG, named by the label of their header: what a loop
//! bound for a loop whose exit depends on unknown data is keyed on ([`crate::both_sides`]).
//!
//! A back edge is an edge `u → h` whose target dominates its source (dominators from the
//! workspace's one implementation, [`isa::dominance`]); the loop of header `h` is `h` plus
//! every block that reaches a back-edge source without passing `h`. Back edges to the same
//! header make one loop. Cycles without a dominating header (irreducible regions) are not
//! loops here: a branch on unknown data inside one is stopped by the step budget.

use crate::control_flow::ControlFlow;
use isa::dominance::DominatorTree;
use isa::ptx::Function;
use isa::Span;

/// One natural loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loop {
    /// Header block.
    pub header: usize,
    /// The header's label (the first in name order when it has several; `B<n>` if none).
    pub label: String,
    /// Where the label is defined (the header's first instruction when it has none).
    pub span: Span,
    /// `body[b]`: block `b` belongs to the loop (the header included).
    pub body: Vec<bool>,
}

/// The loops of one function.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Loops {
    pub loops: Vec<Loop>,
    /// The loop whose header block `b` is, per block.
    pub header_of: Vec<Option<usize>>,
    /// The loops containing block `b`, per block.
    pub containing: Vec<Vec<usize>>,
}

impl Loops {
    /// Whether block `b` is in loop `l`.
    pub fn contains(&self, l: usize, b: usize) -> bool {
        self.loops
            .get(l)
            .and_then(|x| x.body.get(b))
            .copied()
            .unwrap_or(false)
    }
}

/// Finds the natural loops of `cf`.
pub fn find(f: &Function, cf: &ControlFlow) -> Loops {
    let n = cf.blocks.len();
    let mut out = Loops {
        loops: Vec::new(),
        header_of: vec![None; n],
        containing: vec![Vec::new(); n],
    };
    if n == 0 {
        return out;
    }
    let edges: Vec<(usize, usize)> = (0..n)
        .flat_map(|b| cf.successors(b).into_iter().map(move |s| (b, s)))
        .collect();
    let dom = DominatorTree::dominators(n, edges.iter().copied(), 0);
    let mut preds = vec![Vec::new(); n];
    for &(u, v) in &edges {
        preds[v].push(u);
    }
    // Back-edge sources per header, headers in block order.
    let mut sources: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(u, h) in &edges {
        if dom.dominates(h, u) {
            sources[h].push(u);
        }
    }
    for (h, srcs) in sources.iter().enumerate() {
        if srcs.is_empty() {
            continue;
        }
        let mut body = vec![false; n];
        body[h] = true;
        let mut work: Vec<usize> = srcs.clone();
        while let Some(b) = work.pop() {
            if body[b] {
                continue;
            }
            body[b] = true;
            work.extend(preds[b].iter().copied().filter(|&p| !body[p]));
        }
        let start = cf.blocks[h].start;
        let label = f
            .labels
            .iter()
            .find(|(_, &i)| i == start)
            .map(|(name, _)| name.clone());
        let span = label
            .as_ref()
            .and_then(|l| f.label_spans.get(l).copied())
            .or_else(|| f.instructions.get(start).map(|i| i.span))
            .unwrap_or(f.name_span);
        let id = out.loops.len();
        out.header_of[h] = Some(id);
        for (b, &inside) in body.iter().enumerate() {
            if inside {
                out.containing[b].push(id);
            }
        }
        out.loops.push(Loop {
            header: h,
            label: label.unwrap_or_else(|| format!("B{h}")),
            span,
            body,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control_flow;
    use isa::{ptx, Limits};

    fn loops_of(body: &str) -> Loops {
        let text = format!(".entry k()\n{{ .reg .pred %p<4>; .reg .b32 %r<8>;\n{body}\n}}\n");
        let out = ptx::parse(&text, &Limits::default());
        assert!(!out.has_errors(), "{:?}", out.diagnostics);
        let f = out.module.function(None).expect("k");
        find(f, &control_flow::build(f).expect("cfg"))
    }

    #[test]
    fn nested_loops_are_named_by_their_header_labels() {
        // B0: mov | B1 (OUTER): mov | B2 (INNER): add; setp; @p bra INNER | B3: add; setp;
        // @p bra OUTER | B4: ret
        let l = loops_of(
            "mov.u32 %r1, 0;\nOUTER:\nmov.u32 %r2, 0;\nINNER:\nadd.s32 %r2, %r2, 1;\n\
             setp.lt.s32 %p1, %r2, 4;\n@%p1 bra INNER;\nadd.s32 %r1, %r1, 1;\n\
             setp.lt.s32 %p2, %r1, 4;\n@%p2 bra OUTER;\nret;",
        );
        let names: Vec<&str> = l.loops.iter().map(|x| x.label.as_str()).collect();
        assert_eq!(names, ["OUTER", "INNER"]);
        assert_eq!(l.header_of, vec![None, Some(0), Some(1), None, None]);
        assert_eq!(
            l.containing,
            vec![vec![], vec![0], vec![0, 1], vec![0], vec![]]
        );
        assert_eq!(l.loops[1].span.line, 6);
    }
}
