//! The path a work-group takes through the kernel (§4.4: work-groups may take different
//! paths and exit early), as a source→sink walk of the unrolled DAG of §5.4 — or a prefix of
//! one, for a work-group whose work-items all exit early.
//!
//! Every source→sink path of that DAG is a path of the CFG with each loop run at most its
//! `#bound` iterations (the unrolling only offers a loop's exit where its annotations allow
//! one), so a walk never exceeds a loop bound.
//!
//! **From the launch** ([`PathChoice::FromLaunch`], the default of the `simd` mode): the walk
//! runs the functional interpreter ([`super::interpret`]) along the blocks it visits, for the
//! work-group's own id and the launch. At a node with several out-edges the interpreter says
//! which CFG edge the work-group takes when the deciding value is known — a `sicj` whose
//! scalar is known (computed from immediates, `sc.wg_off_x/y`, `sc.dim_*`, `bufquery`), a
//! `cmask`/`brk`/`exit`/`bra` after which the enabled mask is known for every lane (with the
//! `cpop`s the decoder injects, §3.1) — and the walk takes the out-edge to that block. When
//! every work-item has exited (an all-0 mask with an empty CSTACK) the work-group ends there,
//! and its phases are the prefix up to that node (§4.4's early exit).
//!
//! At a node with one out-edge the interpreter is checked, not asked: a decided edge equal to
//! the DAG's is counted as *confirmed* (a loop counter agreeing with its `#bound`: §5.4
//! unrolls a `branchcycle`-annotated loop exactly its annotated count, so the DAG offers no
//! other).
//!
//! What falls back to [`Fallback`] — and why: a condition that depends on data (everything
//! loaded from DRAM or the scratchpad is unknown: no input files are read), on lanes whose
//! state is not known, or on an operation the interpreter does not model; several out-edges
//! to the same block; and a decided edge the DAG does not offer (a loop counted past or short
//! of its `#bound`, a branch its `branchcycle` forbids in that iteration, an exit inside an
//! if-block, whose injected `cpop` the CFG of §5.2 has no edge for). The last is *capped*:
//! the walk never leaves the DAG, so loop counts stay within their bounds, and the
//! interpreter, no longer following the program, decides nothing more for that work-group.
//! An undecidable early exit continues (the DAG never offers one). [`Decisions`] counts each
//! kind.
//!
//! Budget: the interpreter runs at most [`STEPS_PER_PHASE`] instructions per phase instance
//! of `max_sim_phases`, an error naming it; a walk visits each DAG node at most once.

use super::interpret::{Context, Machine, Next, Steps};
use crate::dag::Dag;
use crate::error::Error;

/// How each work-group's path is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathChoice {
    /// Every work-group takes the critical path of §5.5 (the policy's; the scratchpad-as-access
    /// one for the unconstrained and pairwise schedulers): the longest path, as the WCET
    /// assumes.
    Worst,
    /// Every work-group walks the DAG from its source, taking each out-edge with equal
    /// probability (a deterministic generator seeded by `seed` and the work-group id, so a run
    /// is reproducible): at a branch either way, at an unrolled loop's exit point leave or
    /// continue — loop counts at or below their bounds.
    Random { seed: u64 },
    /// Every work-group takes the path its branch conditions select, decided from its id and
    /// the launch by the interpreter where they can be, `fallback` elsewhere (module doc).
    FromLaunch { fallback: Fallback },
}

/// The choice at a node whose edge the interpreter cannot decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    /// The critical path's edge if the node lies on the critical path (§5.5), else the
    /// out-edge starting the longest remaining path to the sink (edge weights plus access
    /// costs).
    Worst,
    /// An out-edge at random, as [`PathChoice::Random`] (seeded by `seed` and the
    /// work-group id).
    Random { seed: u64 },
}

/// How the path=launch walks chose their edges, summed over the work-groups.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Decisions {
    /// Choices the interpreter decided (at nodes with several out-edges, and early exits).
    pub decided: u64,
    /// Choices made by the fallback (including `capped`).
    pub fallback: u64,
    /// Of `fallback`: decided edges the DAG does not offer (a loop counted past its bound).
    pub capped: u64,
    /// Nodes with a single out-edge, ending in a block that could go more than one way (a
    /// conditional branch, `cmask`, `brk`, `exit`), where the interpreter decided that edge
    /// too: a check of the annotations (a known loop counter agreeing with its `#bound`, a
    /// bounds test that exits no work-group).
    pub confirmed: u64,
    /// Work-groups that ended before the end of the program (every work-item exited).
    pub early_exits: u64,
    /// Work-groups with no fallback choice.
    pub work_groups_all_decided: u64,
    /// Per work-group, for the first `shown_work_groups`: (decided, fallback).
    pub shown: Vec<(u64, u64)>,
}

/// One work-group's counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct WgDecisions {
    pub(crate) decided: u64,
    pub(crate) fallback: u64,
    pub(crate) capped: u64,
    pub(crate) confirmed: u64,
    pub(crate) early_exit: bool,
}

impl Decisions {
    pub(crate) fn add(&mut self, w: WgDecisions, shown: bool) {
        self.decided += w.decided;
        self.fallback += w.fallback;
        self.capped += w.capped;
        self.confirmed += w.confirmed;
        self.early_exits += u64::from(w.early_exit);
        self.work_groups_all_decided += u64::from(w.fallback == 0);
        if shown {
            self.shown.push((w.decided, w.fallback));
        }
    }
}
/// SplitMix64 (Steele, Lea, Flood 2014): small, deterministic, good enough for picking edges.
pub(crate) struct SplitMix(u64);

impl SplitMix {
    pub(crate) fn new(seed: u64) -> Self {
        SplitMix(seed)
    }
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The DAG nodes work-group `g` visits under `choice`; `critical` is the worst path's nodes.
pub(crate) fn nodes_for(
    dag: &Dag,
    choice: PathChoice,
    critical: &[usize],
    g: u64,
) -> Result<Vec<usize>, Error> {
    let seed = match choice {
        PathChoice::Worst => return Ok(critical.to_vec()),
        PathChoice::Random { seed } => seed,
        PathChoice::FromLaunch { .. } => {
            return Err(Error::request(
                "internal: path=launch walks with the interpreter (path::Walker)",
            ))
        }
    };
    let (Some(source), Some(sink)) = (dag.source, dag.sink) else {
        return Err(Error::request("internal: DAG without source or sink"));
    };
    let mut rng = SplitMix::new(seed ^ g.wrapping_mul(0xd1b5_4a32_d192_ed03));
    let mut at = source;
    let mut nodes = vec![at];
    while at != sink {
        let out = &dag.nodes[at].out;
        if out.is_empty() || nodes.len() > dag.nodes.len() {
            return Err(Error::request(
                "a random walk of the timing DAG ended before the end of the program (check the branch annotations)",
            ));
        }
        at = out[(rng.next() % out.len() as u64) as usize].1;
        nodes.push(at);
    }
    Ok(nodes)
}

/// Interpreted instructions allowed per phase instance of `max_sim_phases`.
pub const STEPS_PER_PHASE: u64 = 256;

/// The path=launch walk: the interpreter's shared context and the fallback's tables.
pub(crate) struct Walker<'p> {
    cx: Context<'p>,
    fallback: Fallback,
    /// Node → its successor on the critical path (for nodes on it).
    critical_next: Vec<Option<usize>>,
    /// Node → cost of the longest path from it to the sink (`None`: sink unreachable).
    remaining: Vec<Option<u64>>,
    sp_as_compute: bool,
    steps: Steps,
}

/// What a node costs on a path, as §5.5 weighs it plus the access itself: the access cost
/// (`access`), and the scratchpad cost under scratchpad-as-compute (`folded`, added to the
/// node's out-edges instead).
fn node_costs(dag: &Dag, u: usize, sp_as_compute: bool) -> (u64, u64) {
    match dag.nodes[u].access {
        Some(a) if sp_as_compute && a.resource == crate::access::Resource::Scratchpad => {
            (0, a.cycles)
        }
        Some(a) => (a.cycles, 0),
        None => (0, 0),
    }
}

impl<'p> Walker<'p> {
    pub(crate) fn new(
        cx: Context<'p>,
        dag: &Dag,
        fallback: Fallback,
        critical: &[usize],
        sp_as_compute: bool,
        max_phases: u64,
    ) -> Result<Self, Error> {
        let n = dag.nodes.len();
        let mut critical_next = vec![None; n];
        for w in critical.windows(2) {
            if let Some(c) = critical_next.get_mut(w[0]) {
                *c = Some(w[1]);
            }
        }
        // Longest remaining path, in reverse topological order (Kahn).
        let mut indegree = vec![0u32; n];
        for node in &dag.nodes {
            for &(_, t) in &node.out {
                indegree[t] += 1;
            }
        }
        let mut order: Vec<usize> = (0..n).filter(|&u| indegree[u] == 0).collect();
        let mut i = 0;
        while let Some(&u) = order.get(i) {
            i += 1;
            for &(_, t) in &dag.nodes[u].out {
                indegree[t] -= 1;
                if indegree[t] == 0 {
                    order.push(t);
                }
            }
        }
        if order.len() != n {
            return Err(Error::request("internal: cycle in the timing DAG"));
        }
        let mut remaining: Vec<Option<u64>> = vec![None; n];
        if let Some(sink) = dag.sink {
            remaining[sink] = Some(0);
        }
        for &u in order.iter().rev() {
            if Some(u) == dag.sink {
                continue;
            }
            let (_, folded) = node_costs(dag, u, sp_as_compute);
            remaining[u] = dag.nodes[u]
                .out
                .iter()
                .filter_map(|&(w, t)| {
                    let (access, _) = node_costs(dag, t, sp_as_compute);
                    remaining[t].map(|r| {
                        r.saturating_add(w)
                            .saturating_add(folded)
                            .saturating_add(access)
                    })
                })
                .max();
        }
        let limit = max_phases.saturating_mul(STEPS_PER_PHASE);
        Ok(Walker {
            cx,
            fallback,
            critical_next,
            remaining,
            sp_as_compute,
            steps: Steps { left: limit, limit },
        })
    }

    /// The fallback's choice among out-edges `candidates` (indices into `at`'s out-edges).
    fn choose(&self, dag: &Dag, at: usize, candidates: &[usize], rng: &mut SplitMix) -> usize {
        let out = &dag.nodes[at].out;
        match self.fallback {
            Fallback::Random { .. } => {
                candidates[(rng.next() % candidates.len().max(1) as u64) as usize]
            }
            Fallback::Worst => {
                if let Some(c) = self.critical_next[at] {
                    if let Some(&i) = candidates.iter().find(|&&i| out[i].1 == c) {
                        return i;
                    }
                }
                let (_, folded) = node_costs(dag, at, self.sp_as_compute);
                let mut best: Option<(u64, usize)> = None;
                for &i in candidates {
                    let (w, t) = out[i];
                    let (access, _) = node_costs(dag, t, self.sp_as_compute);
                    if let Some(r) = self.remaining[t] {
                        let c = r
                            .saturating_add(w)
                            .saturating_add(folded)
                            .saturating_add(access);
                        if best.is_none_or(|(b, _)| c > b) {
                            best = Some((c, i));
                        }
                    }
                }
                best.map_or(candidates[0], |(_, i)| i)
            }
        }
    }

    /// Work-group `g`'s nodes (from the source to the sink, or to the node where all its
    /// work-items exit) and its decision counts.
    pub(crate) fn walk(&mut self, dag: &Dag, g: u64) -> Result<(Vec<usize>, WgDecisions), Error> {
        let (Some(source), Some(sink)) = (dag.source, dag.sink) else {
            return Err(Error::request("internal: DAG without source or sink"));
        };
        let seed = match self.fallback {
            Fallback::Random { seed } => seed,
            Fallback::Worst => 0,
        };
        let mut rng = SplitMix::new(seed ^ g.wrapping_mul(0xd1b5_4a32_d192_ed03));
        let cx = &self.cx;
        let mut m = Machine::new(cx, g);
        let mut d = WgDecisions::default();
        let mut at = source;
        let mut nodes = vec![at];
        loop {
            let block = dag.nodes[at].block;
            let next = m.run_block(block, &mut self.steps)?;
            if at == sink {
                break;
            }
            let out = &dag.nodes[at].out;
            if out.is_empty() {
                return Err(Error::request(
                    "a walk of the timing DAG ended before the end of the program (check the branch annotations)",
                ));
            }
            let distinct = |idx: &[usize]| {
                let mut t: Vec<usize> = idx.iter().map(|&i| out[i].1).collect();
                t.sort_unstable();
                t.dedup();
                t.len()
            };
            let all: Vec<usize> = (0..out.len()).collect();
            let several = distinct(&all) > 1;
            let chosen = match next {
                Next::End => {
                    d.decided += 1;
                    d.early_exit = true;
                    break;
                }
                Next::Block { block: t, pops } => {
                    let matching: Vec<usize> = all
                        .iter()
                        .copied()
                        .filter(|&i| dag.nodes[out[i].1].block == t)
                        .collect();
                    if matching.is_empty() {
                        d.fallback += 1;
                        d.capped += 1;
                        m.lost = true;
                        self.choose(dag, at, &all, &mut rng)
                    } else if distinct(&matching) == 1 {
                        d.decided += u64::from(several);
                        d.confirmed += u64::from(!several && self.cx.branches(block));
                        m.apply(pops);
                        matching[0]
                    } else {
                        d.fallback += 1;
                        m.apply(pops);
                        self.choose(dag, at, &matching, &mut rng)
                    }
                }
                Next::Unknown => {
                    let i = if several {
                        d.fallback += 1;
                        self.choose(dag, at, &all, &mut rng)
                    } else {
                        0
                    };
                    m.follow(block, dag.nodes[out[i].1].block);
                    i
                }
            };
            at = out[chosen].1;
            nodes.push(at);
            if nodes.len() > dag.nodes.len() {
                return Err(Error::request("internal: cycle in the timing DAG"));
            }
        }
        Ok((nodes, d))
    }
}
