//! The fixpoint: explore abstract states from the kernel entry until no new state or
//! information appears (§3: "until a fixpoint is reached"), joining states that reach the
//! same block with the same stack shape.

use crate::groups::Groups;
use crate::options::Options;
use crate::regset::RegSet;
use crate::state::{Key, State, Tag};
use crate::transfer::{run_block, sanitize, Ctx, Target};
use crate::warp_cfg::{Resumption, WarpCfg};
use isa::progress::{self, Every, Observer, Progress, Task};
use isa::{BlockGraph, Diagnostic, Kernel, Severity};
use std::collections::{BTreeSet, HashMap, VecDeque};

/// Builds the warp-level CFG of `kernel` (whose thread-level blocks are `blocks`). Debug
/// builds check it with [`crate::verify::verify`] and panic on a broken invariant.
pub fn build(
    kernel: &Kernel,
    blocks: &BlockGraph,
    options: &Options,
) -> Result<WarpCfg, Diagnostic> {
    build_observed(kernel, blocks, options, &progress::silent)
}

/// Blocks run between two progress reports.
const REPORT_EVERY: u64 = 64;

/// [`build`], telling `observer` every few dozen blocks run how many abstract states the
/// fixpoint holds (of `max_states`; [`Task::WarpCfg`]: the most so far, when the fixpoint is
/// rerun for the acyclic-stack ablation). The result does not depend on the observer.
pub fn build_observed(
    kernel: &Kernel,
    blocks: &BlockGraph,
    options: &Options,
    observer: Observer,
) -> Result<WarpCfg, Diagnostic> {
    if kernel.instructions.is_empty() || blocks.blocks.is_empty() {
        return Err(Diagnostic::global(
            Severity::Error,
            "the kernel has no instructions",
        ));
    }
    let mut block_at = vec![None; kernel.instructions.len()];
    for b in &blocks.blocks {
        block_at[b.first] = Some(b.id);
    }
    let mut pushed: BTreeSet<(usize, Tag)> = BTreeSet::new();
    let known_guards = crate::spin::known_guards(kernel, blocks);
    let mut report = Reporter {
        observer,
        every: Every::new(REPORT_EVERY),
        most: 0,
        budget: options.max_states as u64,
    };
    // With acyclic stacks, pops from "any stack" depend on every activation point pushed;
    // rerun until that set is stable (it only grows, and is finite).
    loop {
        let ctx = Ctx {
            kernel,
            blocks,
            block_at: block_at.clone(),
            options,
            pushed: &pushed,
            barriers: crate::barriers::uses_barriers(kernel),
            warp_syncs: crate::barriers::uses_warp_syncs(kernel),
            known_guards: &known_guards,
        };
        let (cfg, seen) = explore(&ctx, &mut report)?;
        if seen.is_subset(&pushed) {
            #[cfg(debug_assertions)]
            crate::verify::assert_verified(&cfg, blocks.blocks.len());
            return Ok(cfg);
        }
        pushed.extend(seen);
    }
}

/// What [`build_observed`] tells its observer.
struct Reporter<'a> {
    observer: Observer<'a>,
    every: Every,
    /// The most states any round of the fixpoint has held so far (reports never fall).
    most: u64,
    budget: u64,
}

impl Reporter<'_> {
    #[inline]
    fn block_run(&mut self, states: usize) {
        if self.every.tick(1) {
            self.most = self.most.max(states as u64);
            (self.observer)(&Progress {
                task: Task::WarpCfg,
                done: self.most,
                budget: self.budget,
                best_bound: None,
                upper_bound: None,
            });
        }
    }
}

fn explore(
    ctx: &Ctx,
    report: &mut Reporter,
) -> Result<(WarpCfg, BTreeSet<(usize, Tag)>), Diagnostic> {
    let mut groups = Groups::new(RegSet::EMPTY, !ctx.options.groups);
    sanitize(&mut groups, ctx.options);
    let initial = State {
        block: 0,
        stack: Vec::new(),
        groups,
    };
    let mut states: Vec<State> = vec![initial.clone()];
    let mut index: HashMap<Key, usize> = HashMap::new();
    index.insert(initial.key(), 0);
    let mut edges: BTreeSet<(usize, Option<usize>, crate::warp_cfg::WarpEdgeKind)> =
        BTreeSet::new();
    let mut resumed: BTreeSet<(usize, Option<usize>, crate::warp_cfg::WarpEdgeKind)> =
        BTreeSet::new();
    let mut queue = VecDeque::from([0usize]);
    let mut queued = vec![true];
    let mut seen_points = BTreeSet::new();
    while let Some(id) = queue.pop_front() {
        queued[id] = false;
        report.block_run(states.len());
        let state = states[id].clone();
        for t in run_block(&state, ctx)? {
            let to = match t.target {
                Target::Exit => None,
                Target::State(s) => {
                    for p in s.stack.iter().flat_map(|e| e.points.iter()) {
                        if p.tag != Tag::Any {
                            seen_points.insert((p.pc, p.tag));
                        }
                    }
                    let key = s.key();
                    let target = match index.get(&key) {
                        Some(&j) => {
                            if !states[j].groups.covers(&s.groups) {
                                states[j].groups = states[j].groups.join(&s.groups);
                                if !queued[j] {
                                    queued[j] = true;
                                    queue.push_back(j);
                                }
                            }
                            j
                        }
                        None => {
                            let j = states.len();
                            if j >= ctx.options.max_states {
                                return Err(Diagnostic::global(
                                    Severity::Error,
                                    format!(
                                        "warp-level CFG: more than {} abstract states (raise max_states)",
                                        ctx.options.max_states
                                    ),
                                ));
                            }
                            index.insert(key, j);
                            states.push(s);
                            queued.push(true);
                            queue.push_back(j);
                            j
                        }
                    };
                    Some(target)
                }
            };
            edges.insert((id, to, t.kind));
            if t.resumed.is_some() {
                resumed.insert((id, to, t.kind));
            }
        }
    }
    let resumptions = resumptions(ctx, &states, &edges, &resumed);
    let nodes = states
        .iter()
        .map(|s| (s.block, s.stack.clone(), s.groups.agree(0).len()));
    Ok((
        WarpCfg::from_exploration(nodes, edges, resumptions),
        seen_points,
    ))
}

/// The edges (indices in `edges`' order) on which a pending divergent path resumes, each with
/// the back edges that alone can have left it waiting ([`Resumption::back_edges`]).
fn resumptions(
    ctx: &Ctx,
    states: &[State],
    edges: &BTreeSet<(usize, Option<usize>, crate::warp_cfg::WarpEdgeKind)>,
    resumed: &BTreeSet<(usize, Option<usize>, crate::warp_cfg::WarpEdgeKind)>,
) -> Vec<Resumption> {
    edges
        .iter()
        .enumerate()
        .filter(|(_, e)| resumed.contains(e))
        .filter_map(|(edge, &(_, to, _))| {
            let block = states[to?].block;
            Some(Resumption {
                edge,
                back_edges: crate::barriers::waits_only_after_back_edges(ctx, block),
            })
        })
        .collect()
}
