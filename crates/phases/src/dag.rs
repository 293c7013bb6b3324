//! Steps 4 and 5 (§5.4, §5.5): unroll the CFG into a weighted DAG using the loop-bound
//! annotations, and find its critical path.
//!
//! **Unrolling (§5.4).** Loops are processed innermost first. A loop is expanded iteration by
//! iteration: each iteration is a breadth-first walk over the loop's blocks that never visits
//! a block twice, following only the edges the annotated branches allow in that iteration
//! (`#bound branchcycle T N P`: taken for `T` of every `T+N` executions, starting at position
//! `P`; an unannotated conditional branch may go both ways). The iteration ends at the loop's
//! last block — or early, at a block whose annotated branch leaves the loop to the block
//! after its end (an early exit). The next iteration starts if the back edge is taken
//! (after an early exit: never). The finished loop DAG is cached by its entry block and
//! copied in wherever the enclosing code reaches that block; from a copy, only the loop-exit
//! edge is followed (the fall-through of its last block, or the jump of its early-exit
//! block). Branch-cycle positions advance every time a block's terminator is passed, so
//! patterns like "taken once every tenth iteration" unroll exactly.
//!
//! Weights: a node carries its block's access cost (a DRAM or scratchpad request); an edge
//! carries the source block's cold compute cost plus the edge's transition penalty (§5.3).
//!
//! Restrictions (§5.4), reported as errors: one entry and exit per loop, proper nesting,
//! branches may not leave a loop except to the block right after it. Unrolling is bounded
//! by `max_dag_nodes`; a loop whose annotations never let it exit runs into that budget.
//!
//! **Critical path (§5.5).** Longest path by dynamic programming in topological order
//! (each node once, O(|E|)); ties keep the first path found. Under the *scratchpad as
//! compute* policy a scratchpad node's cost is added to its outgoing edges instead.

use crate::access::Resource;
use crate::basic_blocks::BasicBlock;
use crate::control_flow::{ControlFlow, EdgeKind};
use crate::error::Error;
use crate::loops::LoopForest;
use isa::simd::{Category, Op, Program};
use std::collections::{BTreeMap, VecDeque};

/// The access a node performs: its resource and cost in compute cycles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeAccess {
    pub resource: Resource,
    pub cycles: u64,
}

/// One execution of a basic block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DagNode {
    pub block: usize,
    pub access: Option<NodeAccess>,
    /// Outgoing edges: (weight, target node).
    pub out: Vec<(u64, usize)>,
    /// Copied in from a cached loop DAG.
    expanded: bool,
}

/// A weighted DAG with one source and one sink.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Dag {
    pub nodes: Vec<DagNode>,
    pub source: Option<usize>,
    pub sink: Option<usize>,
    /// Block → its current node (the reference tool's `bbnode` map).
    map: BTreeMap<usize, usize>,
    /// Loop entry block → the entry node of the loop copy appended for it. Kept apart from
    /// `map` because a loop whose exit is in its first block (a one-block loop, or an early
    /// exit from the entry block) has entry and exit nodes for the same block: edges into the
    /// loop must reach the entry copy, edges out of it leave from the exit copy. (The
    /// reference tool keeps one map and would link such a loop's entry to its exit node.)
    entry: BTreeMap<usize, usize>,
}

impl Dag {
    pub fn edge_count(&self) -> usize {
        self.nodes.iter().map(|n| n.out.len()).sum()
    }
}

/// What the unrolling reads.
pub struct Inputs<'a> {
    pub program: &'a Program,
    pub blocks: &'a [BasicBlock],
    pub cf: &'a ControlFlow,
    pub loops: &'a LoopForest,
    /// Cold compute cost per block.
    pub cold: &'a [u64],
    /// Transition penalty per CFG edge.
    pub edge_cycles: &'a [u64],
    /// Access per block (of its last instruction).
    pub access: &'a [Option<NodeAccess>],
    pub max_nodes: u64,
}

struct Builder<'a> {
    inp: Inputs<'a>,
    loop_dags: Vec<Option<Dag>>,
    expanded: BTreeMap<usize, usize>,
    /// Branch-cycle position of each block's terminator.
    position: Vec<u32>,
    made: u64,
}

impl<'a> Builder<'a> {
    fn terminator(&self, b: usize) -> &isa::simd::Instruction {
        &self.inp.program.instructions[self.inp.blocks[b].last()]
    }

    fn will_branch(&self, b: usize) -> Option<bool> {
        let t = self.terminator(b);
        t.branch_cycle.map(|c| self.position[b] < c.taken)
    }

    /// May the terminator of `b` take its branch in the current iteration?
    fn may_take_branch(&self, b: usize) -> bool {
        let t = self.terminator(b);
        match t.op {
            Some(Op::Sicj) => self.will_branch(b).unwrap_or(true),
            Some(Op::J | Op::Bra | Op::CPop | Op::Ret | Op::Brk | Op::Exit | Op::Call) => true,
            // `cpush` never ends a block; `cmask` has no branch of its own (its stack edges
            // are injected cpops, reached through the fall-through rule).
            _ => false,
        }
    }

    fn may_fall_through(&self, b: usize) -> bool {
        let t = self.terminator(b);
        match t.op {
            Some(Op::Sicj) => self.will_branch(b) != Some(true),
            Some(Op::J | Op::Call | Op::CPop) => false,
            _ => true,
        }
    }

    fn advance(&mut self, b: usize) {
        let t = self.terminator(b);
        if t.category() != Some(Category::ControlFlow) {
            return;
        }
        if let Some(c) = t.branch_cycle {
            let period = u64::from(c.taken) + u64::from(c.not_taken);
            if period > 0 {
                self.position[b] = ((u64::from(self.position[b]) + 1) % period) as u32;
            }
        }
    }

    fn new_node(
        &mut self,
        dag: &mut Dag,
        block: usize,
        access: Option<NodeAccess>,
        expanded: bool,
    ) -> Result<usize, Error> {
        self.made += 1;
        if self.made > self.inp.max_nodes {
            return Err(Error::budget(
                "max_dag_nodes",
                self.inp.max_nodes,
                "unrolling the loops of this kernel (check the #bound branchcycle annotations: a loop that never exits unrolls forever)",
            ));
        }
        dag.nodes.push(DagNode {
            block,
            access,
            out: Vec::new(),
            expanded,
        });
        Ok(dag.nodes.len() - 1)
    }

    /// Copies node `n` of `from` into `dag` (as an expanded-loop node).
    fn copy_into(&mut self, dag: &mut Dag, from: &Dag, n: usize) -> Result<usize, Error> {
        let orig = &from.nodes[n];
        let id = self.new_node(dag, orig.block, orig.access, true)?;
        if !orig.expanded {
            dag.map.insert(orig.block, id);
        }
        Ok(id)
    }

    /// Appends a copy of a cached loop DAG (reachable part, breadth first).
    fn append(&mut self, dag: &mut Dag, from: &Dag) -> Result<(), Error> {
        let (Some(src), Some(snk)) = (from.source, from.sink) else {
            return Err(Error::request(
                "internal: a loop DAG without source or sink",
            ));
        };
        let mut copy: Vec<Option<usize>> = vec![None; from.nodes.len()];
        let mut wq = VecDeque::from([src]);
        while let Some(n) = wq.pop_front() {
            let cn = match copy[n] {
                Some(c) => c,
                None => {
                    let c = self.copy_into(dag, from, n)?;
                    copy[n] = Some(c);
                    c
                }
            };
            for &(w, t) in &from.nodes[n].out {
                let ct = match copy[t] {
                    Some(c) => c,
                    None => {
                        let c = self.copy_into(dag, from, t)?;
                        copy[t] = Some(c);
                        wq.push_back(t);
                        c
                    }
                };
                dag.nodes[cn].out.push((w, ct));
            }
        }
        let (Some(cs), Some(ck)) = (copy[src], copy[snk]) else {
            return Err(Error::request("internal: loop sink unreachable in its DAG"));
        };
        dag.map.insert(from.nodes[src].block, cs);
        dag.map.insert(from.nodes[snk].block, ck);
        dag.entry.insert(from.nodes[src].block, cs);
        Ok(())
    }

    fn ensure(&mut self, dag: &mut Dag, block: usize) -> Result<usize, Error> {
        if let Some(&n) = dag.entry.get(&block).or_else(|| dag.map.get(&block)) {
            return Ok(n);
        }
        if let Some(&l) = self.expanded.get(&block) {
            let cached = self.loop_dags[l].take();
            let r = match &cached {
                Some(ld) => self.append(dag, ld),
                None => Err(Error::request("internal: loop DAG missing")),
            };
            self.loop_dags[l] = cached;
            r?;
            return dag
                .entry
                .get(&block)
                .copied()
                .ok_or_else(|| Error::request("internal: loop entry not mapped"));
        }
        let access = self.inp.access[block];
        let id = self.new_node(dag, block, access, false)?;
        dag.map.insert(block, id);
        Ok(id)
    }

    fn end_of_loop_block(&self, block: usize) -> usize {
        self.expanded
            .get(&block)
            .and_then(|&l| self.loop_dags[l].as_ref())
            .and_then(|d| d.sink.map(|s| d.nodes[s].block))
            .unwrap_or(block)
    }

    /// One pass over blocks `source..=sink` (one loop iteration, or the whole program).
    fn expand_range(&mut self, dag: &mut Dag, source: usize, sink: usize) -> Result<(), Error> {
        let cf = self.inp.cf;
        let mut sink_id = sink;
        dag.map.clear();
        dag.entry.clear();
        if let Some(dn) = dag.sink.take() {
            let dnt = self.ensure(dag, source)?;
            for &e in &cf.out[sink] {
                if cf.edges[e].to == source {
                    dag.nodes[dn]
                        .out
                        .push((self.inp.cold[sink] + self.inp.edge_cycles[e], dnt));
                }
            }
        }
        let mut wq = VecDeque::from([source]);
        while let Some(b0) = wq.pop_front() {
            let lp = self.expanded.get(&b0).copied();
            self.ensure(dag, b0)?;
            let bb = self.end_of_loop_block(b0);
            let Some(&dn) = dag.map.get(&bb) else {
                return Err(Error::request("internal: block without DAG node"));
            };
            if source == sink && bb == sink {
                // A one-block loop: its back edge is the iteration link above.
                continue;
            }
            for &e in &cf.out[bb] {
                let edge = &cf.edges[e];
                let t = edge.to;
                if edge.kind == EdgeKind::Jump && t == sink + 1 {
                    if !self.may_take_branch(bb) {
                        continue;
                    }
                    sink_id = bb;
                    break;
                } else if t < source || t > sink {
                    let span = self.terminator(bb).span;
                    return Err(Error::at(
                        span,
                        format!(
                            "control leaves blocks {source}..{sink} for block {t}: a loop may be left only to the block right after its end (§5.4: single entry and exit)"
                        ),
                    ));
                }
                if dag.nodes[dn].expanded {
                    let Some(l) = lp else {
                        return Err(Error::request("internal: expanded node outside a loop"));
                    };
                    let end = self.inp.loops.loops[l].end;
                    if (bb == end && edge.kind != EdgeKind::Fallthrough)
                        || (bb != end && edge.kind != EdgeKind::Jump)
                    {
                        continue;
                    }
                } else if (edge.kind == EdgeKind::Jump && !self.may_take_branch(bb))
                    || (edge.kind != EdgeKind::Jump && !self.may_fall_through(bb))
                {
                    continue;
                }
                let dnt = match dag.entry.get(&t).or_else(|| dag.map.get(&t)) {
                    Some(&n) => n,
                    None => {
                        let n = self.ensure(dag, t)?;
                        if t != sink {
                            wq.push_back(t);
                        }
                        n
                    }
                };
                dag.nodes[dn]
                    .out
                    .push((self.inp.cold[bb] + self.inp.edge_cycles[e], dnt));
            }
            if bb != sink_id {
                self.advance(bb);
            }
        }
        if dag.source.is_none() {
            dag.source = dag.map.get(&source).copied();
        }
        dag.sink = dag.map.get(&sink_id).copied();
        if dag.sink.is_none() {
            let span = self.terminator(sink_id).span;
            return Err(Error::at(
                span,
                "the end of this range is unreachable on the annotated paths",
            ));
        }
        Ok(())
    }

    fn next_iteration(&mut self, end: usize, at: usize) -> bool {
        let r = if at == end {
            self.may_take_branch(at)
        } else {
            self.may_fall_through(at)
        };
        self.advance(at);
        r
    }

    fn process_loops(&mut self) -> Result<(), Error> {
        // Post-order over the loop forest, iteratively (nesting depth is input-controlled).
        let forest = self.inp.loops;
        for &root in &forest.roots {
            let mut stack = vec![(root, 0usize)];
            while let Some(&mut (l, ref mut next)) = stack.last_mut() {
                if let Some(&c) = forest.loops[l].children.get(*next) {
                    *next += 1;
                    stack.push((c, 0));
                    continue;
                }
                stack.pop();
                if self.loop_dags[l].is_none() {
                    let (start, end) = (forest.loops[l].start, forest.loops[l].end);
                    let mut dag = Dag::default();
                    loop {
                        self.expand_range(&mut dag, start, end)?;
                        let at = dag.sink.map_or(end, |s| dag.nodes[s].block);
                        if !self.next_iteration(end, at) {
                            break;
                        }
                    }
                    self.loop_dags[l] = Some(dag);
                }
                self.expanded.insert(forest.loops[l].start, l);
            }
        }
        Ok(())
    }
}

/// Unrolls the CFG into the timing DAG of the whole program (§5.4).
pub fn unroll(inp: Inputs<'_>) -> Result<Dag, Error> {
    let n_blocks = inp.blocks.len();
    if n_blocks == 0 {
        return Err(Error::request("the program has no instructions"));
    }
    let position = (0..n_blocks)
        .map(|b| {
            inp.program.instructions[inp.blocks[b].last()]
                .branch_cycle
                .map_or(0, |c| c.start)
        })
        .collect();
    let mut builder = Builder {
        loop_dags: vec![None; inp.loops.loops.len()],
        expanded: BTreeMap::new(),
        position,
        made: 0,
        inp,
    };
    builder.process_loops()?;
    let mut dag = Dag::default();
    builder.expand_range(&mut dag, 0, n_blocks - 1)?;
    Ok(dag)
}

/// One step of the critical path: a DAG node and the weight of the edge to the next step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathStep {
    pub node: usize,
    pub block: usize,
    /// Weight of the edge to the next step (0 for the last), including the scratchpad cost
    /// under the scratchpad-as-compute policy.
    pub weight: u64,
    /// The access at this step as the policy sees it (scratchpad accesses are folded into
    /// compute under scratchpad-as-compute).
    pub access: Option<NodeAccess>,
}

/// Longest source→sink path (§5.5). With `sp_as_compute`, scratchpad costs move onto the
/// outgoing edges and scratchpad nodes stop being accesses.
pub fn critical_path(dag: &Dag, sp_as_compute: bool) -> Result<Vec<PathStep>, Error> {
    let (Some(source), Some(sink)) = (dag.source, dag.sink) else {
        return Err(Error::request("internal: DAG without source or sink"));
    };
    let n = dag.nodes.len();
    let mut indegree = vec![0u32; n];
    for node in &dag.nodes {
        for &(_, t) in &node.out {
            indegree[t] += 1;
        }
    }
    let folded = |node: &DagNode| match node.access {
        Some(a) if sp_as_compute && a.resource == Resource::Scratchpad => a.cycles,
        _ => 0,
    };
    let mut visited = vec![0u32; n];
    let mut best: Vec<Option<(u64, usize, u64)>> = vec![None; n];
    let mut cost = vec![0u64; n];
    let mut wq = VecDeque::from([source]);
    while let Some(u) = wq.pop_front() {
        let extra = folded(&dag.nodes[u]);
        for &(w, t) in &dag.nodes[u].out {
            let c = w.saturating_add(extra);
            let total = cost[u].saturating_add(c);
            visited[t] += 1;
            if best[t].is_none_or(|(b, _, _)| total > b) {
                best[t] = Some((total, u, c));
                cost[t] = total;
            }
            if visited[t] == indegree[t] {
                wq.push_back(t);
            }
        }
    }
    let strip = |node: &DagNode| match node.access {
        Some(a) if sp_as_compute && a.resource == Resource::Scratchpad => None,
        other => other,
    };
    let mut path = vec![PathStep {
        node: sink,
        block: dag.nodes[sink].block,
        weight: 0,
        access: strip(&dag.nodes[sink]),
    }];
    let mut at = sink;
    while at != source {
        let Some((_, pred, c)) = best[at] else {
            return Err(Error::request("the end of the program is unreachable from its start in the unrolled DAG (check the branch annotations)"));
        };
        path.push(PathStep {
            node: pred,
            block: dag.nodes[pred].block,
            weight: c,
            access: strip(&dag.nodes[pred]),
        });
        at = pred;
        if path.len() > n {
            return Err(Error::request("internal: cycle in the timing DAG"));
        }
    }
    path.reverse();
    Ok(path)
}

/// The steps of a given source→sink node sequence `nodes` (any path of the DAG, not only the
/// critical one), weighted and folded as [`critical_path`] weighs them: between consecutive
/// nodes the heaviest parallel edge, plus the scratchpad cost of the source node under
/// scratchpad-as-compute. Used by [`crate::execution`] for the path a work-group takes.
pub fn path_steps(dag: &Dag, nodes: &[usize], sp_as_compute: bool) -> Result<Vec<PathStep>, Error> {
    let mut out = Vec::with_capacity(nodes.len());
    for (i, &u) in nodes.iter().enumerate() {
        let Some(node) = dag.nodes.get(u) else {
            return Err(Error::request(format!(
                "internal: path node {u} is not in the DAG"
            )));
        };
        let weight = match nodes.get(i + 1) {
            Some(&t) => {
                let w = node
                    .out
                    .iter()
                    .filter(|&&(_, v)| v == t)
                    .map(|&(w, _)| w)
                    .max()
                    .ok_or_else(|| {
                        Error::request(format!("internal: no DAG edge {u} → {t} on a path"))
                    })?;
                let extra = match node.access {
                    Some(a) if sp_as_compute && a.resource == Resource::Scratchpad => a.cycles,
                    _ => 0,
                };
                w.saturating_add(extra)
            }
            None => 0,
        };
        out.push(PathStep {
            node: u,
            block: node.block,
            weight,
            access: match node.access {
                Some(a) if sp_as_compute && a.resource == Resource::Scratchpad => None,
                other => other,
            },
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Longest source→sink path by exhaustive enumeration (exponential; small DAGs only).
    fn brute_force(dag: &Dag, at: usize, sink: usize, sp_as_compute: bool) -> Option<u64> {
        if at == sink {
            return Some(0);
        }
        let node = &dag.nodes[at];
        let extra = match node.access {
            Some(a) if sp_as_compute && a.resource == Resource::Scratchpad => a.cycles,
            _ => 0,
        };
        node.out
            .iter()
            .filter_map(|&(w, t)| brute_force(dag, t, sink, sp_as_compute).map(|c| c + w + extra))
            .max()
    }

    proptest! {
        /// Cross-check (§5.5): the topological dynamic program finds a path whose summed
        /// weight equals the maximum over all source→sink paths enumerated exhaustively.
        #[test]
        fn critical_path_is_the_longest_path(
            n in 2usize..10,
            edges in proptest::collection::vec((0usize..10, 0usize..10, 1u64..100), 0..30),
            sp in proptest::collection::vec(0u64..50, 10),
            fold in any::<bool>(),
        ) {
            let mut dag = Dag::default();
            for (i, &c) in sp.iter().enumerate().take(n) {
                let access = (c % 3 == 0).then_some(NodeAccess { resource: Resource::Scratchpad, cycles: c });
                dag.nodes.push(DagNode { block: i, access, out: Vec::new(), expanded: false });
            }
            // Every node gets a predecessor, so all are reachable from node 0.
            for (i, &c) in sp.iter().enumerate().take(n).skip(1) {
                dag.nodes[i - 1].out.push((1 + c, i));
            }
            for (a, b, w) in edges {
                let (a, b) = (a % n, b % n);
                if a < b {
                    dag.nodes[a].out.push((w, b));
                }
            }
            dag.source = Some(0);
            dag.sink = Some(n - 1);
            let path = critical_path(&dag, fold).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let found: u64 = path.iter().map(|s| s.weight).sum();
            prop_assert_eq!(Some(found), brute_force(&dag, 0, n - 1, fold));
            prop_assert_eq!(path.first().map(|s| s.node), Some(0));
            prop_assert_eq!(path.last().map(|s| s.node), Some(n - 1));
        }
    }
}
