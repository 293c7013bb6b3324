//! Loop structure for DAG construction (§5.4): every back edge (to a block at or before its
//! source) defines a loop from its target to its source. Loops must be properly nested;
//! several back edges to the same entry are analysed as nested loops, the innermost ending
//! first (§5.4: "Multiple jump instructions with the same loop (re-)entry target are analysed
//! as if they are multiple nested loops").

use crate::basic_blocks::BasicBlock;
use crate::control_flow::ControlFlow;
use crate::error::Error;
use isa::simd::Program;

/// A loop: blocks `start..=end`, entered at `start`, repeated by a back edge from `end`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loop {
    pub start: usize,
    pub end: usize,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
}

/// All loops, and the outermost ones in the order the DAG construction processes them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LoopForest {
    pub loops: Vec<Loop>,
    pub roots: Vec<usize>,
}

/// Finds loops by scanning blocks from last to first (the reference tool's order). A self
/// loop (a block branching to itself) is a one-block loop; the reference tool ignores back
/// edges to the same block, which would leave a cycle in its DAG.
pub fn find(
    program: &Program,
    blocks: &[BasicBlock],
    cf: &ControlFlow,
) -> Result<LoopForest, Error> {
    let mut forest = LoopForest::default();
    let mut cur: Option<usize> = None;
    for b in blocks.iter().rev() {
        for &e in &cf.out[b.id] {
            let to = cf.edges[e].to;
            if to <= b.id {
                let id = forest.loops.len();
                if let Some(p) = cur {
                    let parent = &forest.loops[p];
                    if to < parent.start || b.id >= parent.end {
                        let span = program.instructions[b.last()].span;
                        return Err(Error::at(
                            span,
                            format!(
                                "loop from block {to} to block {} is not properly nested in the loop from block {} to block {} (§5.4)",
                                b.id, parent.start, parent.end
                            ),
                        ));
                    }
                    forest.loops[p].children.push(id);
                } else {
                    forest.roots.push(id);
                }
                forest.loops.push(Loop {
                    start: to,
                    end: b.id,
                    parent: cur,
                    children: Vec::new(),
                });
                cur = Some(id);
            }
            while let Some(c) = cur {
                if forest.loops[c].start >= b.id {
                    cur = forest.loops[c].parent;
                } else {
                    break;
                }
            }
        }
    }
    Ok(forest)
}
