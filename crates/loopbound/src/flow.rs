//! What the PTX and GCN3 lowerings share: both read the thread-level graph of `isa::flow`,
//! so both turn its blocks into [`Block`]s (each instruction's writes as ops) and its edges
//! into [`Edge`]s (with the condition a thread takes them under) the same way; only the
//! instructions' meaning differs, which each dialect supplies through [`LowerInstructions`].

use crate::ir::{Block, Edge, Op, Program, Term};
use isa::flow::FlowGraph;
use isa::EdgeKind;

/// One dialect's lowering of single instructions (a trait because two real ones exist,
/// `crate::ptx` and `crate::gcn`).
pub(crate) trait LowerInstructions {
    type Instruction;
    /// The program being built (its variables are the lowering's).
    fn program(&mut self) -> &mut Program;
    /// `ins`'s writes, appended to `ops`.
    fn instruction(&mut self, ins: &Self::Instruction, ops: &mut Vec<Op>);
    /// The condition under which a thread takes the `kind` edge out of a block ending in
    /// `last`.
    fn edge_condition(&mut self, last: &Self::Instruction, kind: EdgeKind) -> Term;
    /// Whether the edges out of a block ending in `last` all got `true` because the lowering
    /// cannot state the condition ([`Block::unknown_conditions`]).
    fn conditions_unknown(&self, last: &Self::Instruction) -> bool;
    /// The source line of `ins`.
    fn line(ins: &Self::Instruction) -> u32;
}

/// Lowers every block and edge of `graph` over `instructions` into `l`'s program, block `b`
/// keyed `key(b.first)` (what `loop_bounds` names a loop header by); block 0 is the root.
pub(crate) fn lower_graph<L: LowerInstructions>(
    l: &mut L,
    graph: &FlowGraph,
    instructions: &[L::Instruction],
    mut key: impl FnMut(usize) -> String,
) {
    for b in &graph.blocks {
        let mut block = Block {
            key: key(b.first),
            line: instructions.get(b.first).map_or(0, L::line),
            first: b.first,
            ..Block::default()
        };
        for ins in &instructions[b.first..=b.last] {
            l.instruction(ins, &mut block.ops);
        }
        l.program().blocks.push(block);
    }
    for &(from, to, kind) in &graph.edges {
        let last = &instructions[graph.blocks[from].last];
        let when = l.edge_condition(last, kind);
        let unknown = l.conditions_unknown(last);
        let block = &mut l.program().blocks[from];
        block.unknown_conditions |= unknown;
        block.edges.push(Edge { to, when });
    }
    if !graph.blocks.is_empty() {
        l.program().roots = vec![0];
    }
}
