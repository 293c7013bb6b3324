//! Step 1 of Sim-D's WCET analysis (§5.1): the program as a list of basic blocks.
//!
//! A block ends with an instruction that performs control flow (except `cpush`, which only
//! pushes a CSTACK entry), issues a DRAM or scratchpad request, or could make the decoder
//! inject a `cpop` (`cmask`, `brk`, `ret` — all control-flow instructions). A label starts a
//! new block. Ending blocks at requests is what later lets each request be its own DAG node
//! and phase boundary (§5.4, §5.6).

use isa::simd::Program;

/// A basic block: instructions `first..end` of the program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BasicBlock {
    pub id: usize,
    pub first: usize,
    /// One past the last instruction.
    pub end: usize,
}

impl BasicBlock {
    pub fn last(&self) -> usize {
        self.end.saturating_sub(1)
    }

    pub fn len(&self) -> usize {
        self.end - self.first
    }

    pub fn is_empty(&self) -> bool {
        self.end == self.first
    }
}

/// Splits the program into basic blocks (never empty blocks).
pub fn split(program: &Program) -> Vec<BasicBlock> {
    let starts: std::collections::BTreeSet<usize> =
        program.labels.values().map(|l| l.index).collect();
    let mut blocks = Vec::new();
    let mut first = 0;
    for (i, inst) in program.instructions.iter().enumerate() {
        if starts.contains(&i) && i > first {
            blocks.push(BasicBlock {
                id: blocks.len(),
                first,
                end: i,
            });
            first = i;
        }
        if inst.ends_block() {
            blocks.push(BasicBlock {
                id: blocks.len(),
                first,
                end: i + 1,
            });
            first = i + 1;
        }
    }
    if first < program.instructions.len() {
        blocks.push(BasicBlock {
            id: blocks.len(),
            first,
            end: program.instructions.len(),
        });
    }
    blocks
}

/// The block starting at instruction `index`, if any.
pub fn block_at(blocks: &[BasicBlock], index: usize) -> Option<usize> {
    blocks.binary_search_by_key(&index, |b| b.first).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use isa::simd::parse;
    use isa::Limits;

    /// Labels start blocks; requests, control flow except cpush, end them:
    /// [mov, ldglin] [l: cpush.if, add, cmask] [add, cpop] [e: exit].
    #[test]
    fn split_at_labels_requests_and_control_flow() {
        let text = ".data\n0 0 32 32\n.text\n mov v0, 1\n ldglin v1, 0, 0, 0\nl:\n cpush.if e\n add v0, v0, v1\n cmask p0\n add v0, v0, v0\n cpop\ne:\n exit\n";
        let p = parse(text, &Limits::default()).program.unwrap_or_default();
        let b: Vec<(usize, usize)> = split(&p).iter().map(|b| (b.first, b.end)).collect();
        assert_eq!(b, vec![(0, 2), (2, 5), (5, 7), (7, 8)]);
        assert_eq!(block_at(&split(&p), 7), Some(3));
    }
}
