//! The warp-level CFG of a PTX function under the post-dominator (PDOM) reconvergence stack,
//! explored abstractly.
//!
//! **Execution model** (stated, since PTX fixes none): a divergent branch reconverges at its
//! immediate post-dominator, the stack discipline of GPGPU-Sim (Fung, Sham, Yuan, Aamodt,
//! "Dynamic Warp Formation and Scheduling for Efficient GPU Control Flow", MICRO 2007, §3)
//! that Huangfu's analyzer also assumes (thesis §4.4.4, Alg. 4) and that this workspace's
//! PTX simulator implements (`sim::ptx::pdom_stack`). Per entry `(pc, rpc, mask)`, top runs:
//! a divergent branch turns the top into a reconvergence entry waiting at the branch's ipdom
//! `R` (or replaces it when its own `rpc` is `R`), then pushes the not-taken and the taken
//! path with `rpc = R`, taken on top; an entry is popped when it reaches its `rpc` or has no
//! lane left; `ret`/`exit` removes its lanes from every entry. It is *not* the hardware of
//! Volta and later (independent thread scheduling may interleave the two paths); the bound
//! is for the PDOM order, as the thesis's.
//!
//! **Abstraction.** Lane masks are dropped; what remains is the stack's *shape*, as in
//! Jeanmougin et al. §3.1 for the Pascal stack: the running block, its `rpc`, and the waiting
//! entries below it — pending paths `(block, rpc)` and reconvergence entries `(R, rpc)`.
//! Which branches can diverge comes from [`super::divergence`]; a uniform branch has a
//! `taken` and a `fallthrough` edge, a divergent one also a `divergence` edge into the
//! pushed stack. Two refinements keep it exact and finite:
//! - a reconvergence entry records whether some lanes have **arrived** at `R`: a path that
//!   ends by `exit` pops to the next path, and when every path of a divergence exited the
//!   reconvergence entry is empty and popped unexecuted (the simulator's `mask == 0` pop),
//!   while one arrival makes it run — decided, not guessed, so no infeasible edge is added;
//! - when a pending path is pushed onto a run of paths (same `rpc`) that already holds one
//!   starting at the same block, the paths from there up merge into one **repeated** entry,
//!   "any sequence of one or more paths starting at these blocks" (Jeanmougin et al.'s
//!   cycles of the stack graph, §3.1). A loop whose divergent branch reconverges only at
//!   the exit (an `exit` inside it makes the ipdom the function's end) leaves a path
//!   behind on every iteration; concretely at most 32 (one lane each), abstractly one
//!   entry. Resuming it may leave more paths or none. A run of more than three distinct
//!   paths is folded the same way, which bounds the number of stack shapes.
//!
//! Every edge of a concrete PDOM execution is an edge here (a path of this graph), so IPET
//! over it bounds every execution whose loops respect the loop bounds.

use super::divergence::Divergence;
use crate::state::{Entry, Point, Tag};
use crate::warp_cfg::{Resumption, WarpCfg, WarpEdgeKind};
use crate::Options;
use isa::flow::FlowGraph;
use isa::progress::{self, Every, Observer, Progress, Task};
use isa::ptx::Function;
use isa::{Diagnostic, EdgeKind};
use std::collections::{BTreeSet, HashMap, VecDeque};

/// An entry waiting below the running path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Waiting {
    /// Divergent paths that have not run yet, all reconverging at `rpc`: one path starting
    /// at `blocks[0]`, or (`repeated`) any sequence of one or more paths, each starting at
    /// one of `blocks` (sorted).
    Path {
        blocks: Vec<usize>,
        rpc: Option<usize>,
        repeated: bool,
    },
    /// The warp waiting at `block` (`None`: the function's end, where lanes only leave) for
    /// the paths above it; it then runs on to its own `rpc`.
    Reconverge {
        block: Option<usize>,
        rpc: Option<usize>,
        arrived: bool,
    },
}

/// One abstract state: a block about to run, the reconvergence point of the running path,
/// and the waiting entries, bottom first.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct State {
    block: usize,
    rpc: Option<usize>,
    waiting: Vec<Waiting>,
}

/// A transition: where it leads, its kind, and whether it resumes a pending path (a new
/// group of threads starts running: see [`WarpCfg::resumptions`]).
type Step = (To, WarpEdgeKind, bool);

/// Where a transition leads.
enum To {
    State(State),
    Exit,
}

struct Ctx<'a> {
    f: &'a Function,
    graph: &'a FlowGraph,
    divergence: &'a Divergence,
    ipdom: &'a [Option<usize>],
    /// Per block: taken targets and the fallthrough block.
    taken: Vec<Vec<usize>>,
    fallthrough: Vec<Option<usize>>,
    /// Per reconvergence point: every block a divergent branch reconverging there leaves
    /// pending (its next block), sorted.
    pending: HashMap<Option<usize>, Vec<usize>>,
}

/// Builds the warp-level CFG of `f` (its flow graph `graph`, the ipdom of each block, the
/// divergence verdicts). Node 0 is the entry; the last node the virtual exit.
pub fn build(
    f: &Function,
    graph: &FlowGraph,
    ipdom: &[Option<usize>],
    divergence: &Divergence,
    options: &Options,
) -> Result<WarpCfg, Diagnostic> {
    build_observed(f, graph, ipdom, divergence, options, &progress::silent)
}

/// States explored between two progress reports.
const REPORT_EVERY: u64 = 64;

/// [`build`], telling `observer` every few dozen states explored how many abstract states
/// it has found (of `max_states`; [`Task::PtxWarpCfg`]). The result does not depend on the
/// observer.
pub fn build_observed(
    f: &Function,
    graph: &FlowGraph,
    ipdom: &[Option<usize>],
    divergence: &Divergence,
    options: &Options,
    observer: Observer,
) -> Result<WarpCfg, Diagnostic> {
    if graph.blocks.is_empty() {
        return Err(Diagnostic::error(
            f.name_span,
            format!("`{}` has no instructions", f.name),
        ));
    }
    let nb = graph.blocks.len();
    let mut taken = vec![Vec::new(); nb];
    let mut fallthrough = vec![None; nb];
    for &(a, b, kind) in &graph.edges {
        match kind {
            EdgeKind::Fallthrough => fallthrough[a] = Some(b),
            _ => taken[a].push(b),
        }
    }
    let mut pending: HashMap<Option<usize>, Vec<usize>> = HashMap::new();
    for b in (0..nb).filter(|&b| divergence.divergent[b]) {
        if let Some(n) = fallthrough[b].filter(|&n| Some(n) != ipdom[b]) {
            pending.entry(ipdom[b]).or_default().push(n);
        }
    }
    for v in pending.values_mut() {
        v.sort_unstable();
        v.dedup();
    }
    let ctx = Ctx {
        f,
        graph,
        divergence,
        ipdom,
        taken,
        fallthrough,
        pending,
    };
    let initial = State {
        block: 0,
        rpc: None,
        waiting: Vec::new(),
    };
    let mut states = vec![initial.clone()];
    let mut index: HashMap<State, usize> = HashMap::from([(initial, 0)]);
    let mut edges: BTreeSet<(usize, Option<usize>, WarpEdgeKind)> = BTreeSet::new();
    let mut resumed: BTreeSet<(usize, Option<usize>)> = BTreeSet::new();
    let mut queue = VecDeque::from([0usize]);
    let mut every = Every::new(REPORT_EVERY);
    while let Some(id) = queue.pop_front() {
        if every.tick(1) {
            observer(&Progress {
                task: Task::PtxWarpCfg,
                done: states.len() as u64,
                budget: options.max_states as u64,
                best_bound: None,
                upper_bound: None,
            });
        }
        let state = states[id].clone();
        for (to, kind, resumes) in successors(&ctx, &state)? {
            let target = match to {
                To::Exit => None,
                To::State(s) => {
                    if s.waiting.len() > options.max_stack_depth {
                        return Err(budget_error(
                            &ctx,
                            &state,
                            "max_stack_depth",
                            options.max_stack_depth,
                        ));
                    }
                    Some(match index.get(&s) {
                        Some(&j) => j,
                        None => {
                            if states.len() >= options.max_states {
                                return Err(budget_error(
                                    &ctx,
                                    &state,
                                    "max_states",
                                    options.max_states,
                                ));
                            }
                            let j = states.len();
                            index.insert(s.clone(), j);
                            states.push(s);
                            queue.push_back(j);
                            j
                        }
                    })
                }
            };
            edges.insert((id, target, kind));
            if resumes {
                resumed.insert((id, target));
            }
        }
    }
    let resumptions = edges
        .iter()
        .enumerate()
        .filter(|(_, &(from, to, kind))| {
            kind == WarpEdgeKind::Divergence && resumed.contains(&(from, to))
        })
        .map(|(edge, _)| Resumption {
            edge,
            back_edges: Vec::new(),
        })
        .collect();
    let nodes = states.iter().map(|s| (s.block, context(&ctx, s), 0));
    let built = WarpCfg::from_exploration(nodes, edges, resumptions);
    #[cfg(debug_assertions)]
    crate::verify::assert_verified(&built, graph.blocks.len());
    Ok(built)
}

fn budget_error(ctx: &Ctx, at: &State, what: &str, limit: usize) -> Diagnostic {
    let ins = &ctx.f.instructions[ctx.graph.blocks[at.block].last];
    Diagnostic::error(
        ins.span,
        format!(
            "the warp-level CFG needs more than {what} = {limit} (the PDOM stack keeps growing \
             from here); raise {what}"
        ),
    )
}

/// The first instruction of block `b`, the stack's `pc` for display.
fn first(ctx: &Ctx, b: usize) -> usize {
    ctx.graph.blocks[b].first
}

/// The waiting entries and the running path's reconvergence point as [`Entry`]s, bottom
/// first, for the report.
fn context(ctx: &Ctx, s: &State) -> Vec<Entry> {
    let mut out: Vec<Entry> = s
        .waiting
        .iter()
        .map(|w| match *w {
            Waiting::Path {
                ref blocks,
                repeated,
                ..
            } => Entry {
                points: blocks
                    .iter()
                    .map(|&b| Point {
                        pc: first(ctx, b),
                        tag: Tag::Path,
                    })
                    .collect(),
                repeated,
            },
            Waiting::Reconverge { block, arrived, .. } => Entry::single(
                block.map_or(usize::MAX, |b| first(ctx, b)),
                Tag::Ipdom { arrived },
            ),
        })
        .collect();
    if let Some(r) = s.rpc {
        out.push(Entry::single(first(ctx, r), Tag::Rpc));
    }
    out
}

/// The transitions out of `s` after its block runs.
fn successors(ctx: &Ctx, s: &State) -> Result<Vec<Step>, Diagnostic> {
    let b = s.block;
    let blk = &ctx.graph.blocks[b];
    let ins = &ctx.f.instructions[blk.last];
    let divergent = ctx.divergence.divergent[b];
    let mut out = Vec::new();
    let next = ctx.fallthrough[b];
    match ins.opcode.as_str() {
        "ret" | "exit" | "trap" => {
            out.extend(end_all(s.waiting.clone()));
            if let Some(n) = next.filter(|_| ins.guard.is_some()) {
                out.extend(go(n, s.rpc, s.waiting.clone(), WarpEdgeKind::Fallthrough));
                if divergent {
                    // Some lanes left; the others go on in the same stack shape.
                    out.extend(go(n, s.rpc, s.waiting.clone(), WarpEdgeKind::Divergence));
                }
            }
        }
        "brx" if divergent => {
            return Err(Diagnostic::error(
                ins.span,
                "`brx.idx` with an index that can differ between the lanes of a warp: a \
                 multi-way divergent jump is not supported by the warp-level CFG (it is \
                 analysed only when every lane jumps to the same target)",
            ));
        }
        _ if divergent => {
            let (Some(t), Some(n)) = (ctx.taken[b].first().copied(), next) else {
                return Err(Diagnostic::error(
                    ins.span,
                    "a divergent branch needs both a target and a next instruction",
                ));
            };
            out.extend(go(t, s.rpc, s.waiting.clone(), WarpEdgeKind::Taken));
            out.extend(go(n, s.rpc, s.waiting.clone(), WarpEdgeKind::Fallthrough));
            out.extend(diverge(ctx, s, t, n));
        }
        _ => {
            for &t in &ctx.taken[b] {
                out.extend(go(t, s.rpc, s.waiting.clone(), WarpEdgeKind::Taken));
            }
            match next {
                Some(n) if !ins.is_unconditional_jump_or_end() => {
                    out.extend(go(n, s.rpc, s.waiting.clone(), WarpEdgeKind::Fallthrough));
                }
                None if blk.exits => out.extend(end_all(s.waiting.clone())),
                _ => {}
            }
        }
    }
    Ok(out)
}

/// A divergent branch at `s.block` with taken target `t` and next block `n`.
fn diverge(ctx: &Ctx, s: &State, t: usize, n: usize) -> Vec<Step> {
    let r = ctx.ipdom[s.block];
    let mut waiting = s.waiting.clone();
    if s.rpc != r {
        waiting.push(Waiting::Reconverge {
            block: r,
            rpc: s.rpc,
            arrived: false,
        });
    }
    if Some(n) == r {
        // The not-taken lanes are already at the join.
        arrive(&mut waiting, r);
    } else {
        push_path(&mut waiting, n, r, &ctx.pending[&r]);
    }
    go(t, r, waiting, WarpEdgeKind::Divergence)
}

/// Longest run of distinct pending paths (same `rpc`) kept in order.
const MAX_RUN: usize = 3;

/// Pushes the pending path `(n, r)`. If the run of paths reconverging at `r` on top of the
/// stack already holds one starting at `n`, the paths from there up become one repeated
/// entry (Jeanmougin et al. §3.1: a strongly connected part of the stack graph is "any
/// sequence drawn from these points"), so a loop that leaves paths behind on every
/// iteration keeps a finite stack; the order among them is forgotten, which only adds
/// paths.
fn push_path(waiting: &mut Vec<Waiting>, n: usize, r: Option<usize>, all: &[usize]) {
    let run = waiting
        .iter()
        .rev()
        .take_while(|w| matches!(w, Waiting::Path { rpc, .. } if *rpc == r))
        .count();
    let start = waiting.len() - run;
    let again = waiting[start..]
        .iter()
        .position(|w| matches!(w, Waiting::Path { blocks, .. } if blocks.contains(&n)))
        // A run longer than MAX_RUN entries is folded whole: the order of many pending
        // paths matters little to the bound and much to the number of states.
        .or((run >= MAX_RUN).then_some(0));
    match again {
        Some(k) => {
            // Folded to every path a divergent branch reconverging at `r` can leave (a
            // superset of those on the stack, so "any sequence drawn from them" still
            // covers every concrete stack), one shape per `r` whatever the history.
            waiting.truncate(start + k);
            waiting.push(Waiting::Path {
                blocks: all.to_vec(),
                rpc: r,
                repeated: true,
            });
        }
        None => waiting.push(Waiting::Path {
            blocks: vec![n],
            rpc: r,
            repeated: false,
        }),
    }
}

/// Marks the reconvergence entry waiting at `r` as reached by some lanes.
fn arrive(waiting: &mut [Waiting], r: Option<usize>) {
    for w in waiting.iter_mut().rev() {
        if let Waiting::Reconverge { block, arrived, .. } = w {
            if *block == r {
                *arrived = true;
            }
            return;
        }
    }
}

/// The running path goes to block `to`; if that is its reconvergence point it ends there.
fn go(to: usize, rpc: Option<usize>, mut waiting: Vec<Waiting>, kind: WarpEdgeKind) -> Vec<Step> {
    if Some(to) != rpc {
        return vec![(
            To::State(State {
                block: to,
                rpc,
                waiting,
            }),
            kind,
            false,
        )];
    }
    arrive(&mut waiting, rpc);
    pop(waiting)
}

/// Every lane of the running path leaves.
fn end_all(waiting: Vec<Waiting>) -> Vec<Step> {
    pop(waiting)
}

/// The running entry is gone: resume what waits below it.
fn pop(mut waiting: Vec<Waiting>) -> Vec<Step> {
    loop {
        match waiting.pop() {
            None => return vec![(To::Exit, WarpEdgeKind::Exit, false)],
            Some(Waiting::Path {
                blocks,
                rpc,
                repeated,
            }) => {
                let mut out = Vec::new();
                for &block in &blocks {
                    if repeated {
                        // More of these paths may wait below the one resumed.
                        let mut more = waiting.clone();
                        more.push(Waiting::Path {
                            blocks: blocks.clone(),
                            rpc,
                            repeated: true,
                        });
                        out.push((
                            To::State(State {
                                block,
                                rpc,
                                waiting: more,
                            }),
                            WarpEdgeKind::Divergence,
                            true,
                        ));
                    }
                    out.push((
                        To::State(State {
                            block,
                            rpc,
                            waiting: waiting.clone(),
                        }),
                        WarpEdgeKind::Divergence,
                        true,
                    ));
                }
                return out;
            }
            Some(Waiting::Reconverge {
                block: Some(block),
                rpc,
                arrived: true,
            }) => {
                return vec![(
                    To::State(State {
                        block,
                        rpc,
                        waiting,
                    }),
                    WarpEdgeKind::Reconvergence,
                    false,
                )]
            }
            // No lane reached it: every lane of its paths left; it is empty.
            Some(Waiting::Reconverge { .. }) => {}
        }
    }
}
