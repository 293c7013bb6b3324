//! Optimal split selection — the problem PWS §4.2 leaves open ("the choice of split points
//! in the kernel can affect the WCET and is an interesting optimization problem which we do
//! not explore"): the split set that minimises `E_WF` of Lemma 5.1,
//! `IPET(C_out) + |SB| · (e_s + e_m)`, subject to the SWF-context constraint of
//! [`contexts_needed`](crate::structure::contexts_needed) `≤ S`.
//!
//! Method: dynamic programming over the branch tree ([`Structure::tree`]). For every path
//! we keep the Pareto set of `(contexts needed, number of splits, worst-case time)`;
//! sequences add times and take the largest context need, unsplit branches and choices
//! take the worst arm, a split takes the *longer* of its two paths (the pruned SWF) and
//! needs one context more than its two paths together. The count of splits must be kept
//! because `|SB| · (e_s + e_m)` is charged globally while times combine by `max` inside a
//! split, so a cheaper-per-path option can lose overall. Exact on the branch tree; the
//! [`exhaustive`] search over all subsets cross-checks it in the tests.

use std::collections::BTreeSet;

use isa::progress::{self, Every, Observer, Progress, Task};

use crate::budget::Budget;
use crate::error::Error;
use crate::graph::WavefrontCfg;
use crate::prune::prune;
use crate::structure::{contexts_needed, Item, Structure};
use crate::wcet::longest_path;

/// The optimal split set and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptimalSplits {
    pub splits: BTreeSet<usize>,
    /// SWF contexts the set needs at once (`≤ S`).
    pub contexts: u32,
    /// Minimal `IPET(C_out) + |SB| · (e_s + e_m)` found by the dynamic programme.
    pub objective: u64,
    /// Pareto points created (work measure, bounded by `max_pareto_points`).
    pub pareto_points: usize,
}

#[derive(Debug, Clone, Copy)]
struct Point {
    need: u32,
    splits: u32,
    time: u64,
    set: Option<u32>,
}

#[derive(Debug, Clone, Copy)]
enum Cell {
    Leaf(usize),
    Join(u32, u32),
}

struct Dp<'a> {
    cfg: &'a WavefrontCfg,
    s: u32,
    arena: Vec<Cell>,
    points: usize,
    budget: &'a Budget,
    /// Told every [`REPORT_EVERY`] Pareto points how many there are.
    observer: Observer<'a>,
    every: Every,
}

/// Pareto points created between two progress reports.
const REPORT_EVERY: u64 = 1 << 14;

/// Finds the split set minimising `E_WF` (Lemma 5.1) under `S` contexts.
///
/// # Errors
/// The `max_pareto_points` budget.
pub fn optimal(
    cfg: &WavefrontCfg,
    structure: &Structure,
    s: u32,
    split_cost: u64,
    budget: &Budget,
) -> Result<OptimalSplits, Error> {
    optimal_observed(cfg, structure, s, split_cost, budget, &progress::silent)
}

/// [`optimal`], telling `observer` every few thousand Pareto points how many the dynamic
/// programme has created (of `max_pareto_points`; [`Task::PwsSplitSelection`]). The result
/// does not depend on the observer.
///
/// # Errors
/// As [`optimal`].
pub fn optimal_observed(
    cfg: &WavefrontCfg,
    structure: &Structure,
    s: u32,
    split_cost: u64,
    budget: &Budget,
    observer: Observer,
) -> Result<OptimalSplits, Error> {
    let mut dp = Dp {
        cfg,
        s,
        arena: Vec::new(),
        points: 0,
        budget,
        observer,
        every: Every::new(REPORT_EVERY),
    };
    let root = dp.seq(&structure.tree)?;
    let objective = |p: &Point| u128::from(p.time) + u128::from(p.splits) * u128::from(split_cost);
    let best = root
        .iter()
        .min_by(|a, b| {
            objective(a)
                .cmp(&objective(b))
                .then(a.splits.cmp(&b.splits))
                .then(a.need.cmp(&b.need))
        })
        .copied()
        .unwrap_or(Point {
            need: 0,
            splits: 0,
            time: 0,
            set: None,
        });
    let splits = dp.collect(best.set);
    Ok(OptimalSplits {
        splits,
        contexts: best.need,
        objective: u64::try_from(objective(&best)).unwrap_or(u64::MAX),
        pareto_points: dp.points,
    })
}

impl Dp<'_> {
    fn seq(&mut self, items: &[Item]) -> Result<Vec<Point>, Error> {
        let mut acc = vec![Point {
            need: 0,
            splits: 0,
            time: 0,
            set: None,
        }];
        for it in items {
            let pts = self.item(it)?;
            acc = self.combine(&acc, &pts, false)?;
        }
        Ok(acc)
    }

    fn item(&mut self, it: &Item) -> Result<Vec<Point>, Error> {
        match it {
            Item::Node { node } => Ok(vec![Point {
                need: 0,
                splits: 0,
                time: self.cost(*node),
                set: None,
            }]),
            Item::Choice { node, arms } => {
                let mut acc: Option<Vec<Point>> = None;
                for arm in arms {
                    let pts = self.seq(arm)?;
                    acc = Some(match acc {
                        None => pts,
                        Some(a) => self.combine(&a, &pts, true)?,
                    });
                }
                let c = self.cost(*node);
                let mut acc = acc.unwrap_or_else(|| {
                    vec![Point {
                        need: 0,
                        splits: 0,
                        time: 0,
                        set: None,
                    }]
                });
                for p in &mut acc {
                    p.time = p.time.saturating_add(c);
                }
                Ok(acc)
            }
            Item::Split(split) => {
                let a = self.seq(&split.path1)?;
                let b = self.seq(&split.path2)?;
                let base = split
                    .blocks()
                    .fold(0u64, |acc, x| acc.saturating_add(self.cost(x)));
                // Not split: both paths serialised, contexts reused one after the other.
                let mut out = self.combine(&a, &b, false)?;
                // Split: the two SWFs run in parallel, each on its own context.
                for pa in &a {
                    for pb in &b {
                        let need = 1 + pa.need + pb.need;
                        if need > self.s {
                            continue;
                        }
                        let leaf = self.push(Cell::Leaf(split.branch));
                        let inner = self.join(pa.set, pb.set);
                        let joined = self.join(Some(leaf), inner);
                        out.push(Point {
                            need,
                            splits: 1 + pa.splits + pb.splits,
                            time: pa.time.max(pb.time),
                            set: joined,
                        });
                        self.count(1)?;
                    }
                }
                for p in &mut out {
                    p.time = p.time.saturating_add(base);
                }
                Ok(pareto(out))
            }
        }
    }

    /// Cross product of two option sets: `parallel_max` combines alternatives (worst
    /// arm: max of times) else sequence (sum of times); needs combine by max either way.
    fn combine(
        &mut self,
        a: &[Point],
        b: &[Point],
        parallel_max: bool,
    ) -> Result<Vec<Point>, Error> {
        let mut out = Vec::with_capacity(a.len() * b.len());
        for pa in a {
            for pb in b {
                let need = pa.need.max(pb.need);
                if need > self.s {
                    continue;
                }
                let time = if parallel_max {
                    pa.time.max(pb.time)
                } else {
                    pa.time.saturating_add(pb.time)
                };
                let set = self.join(pa.set, pb.set);
                out.push(Point {
                    need,
                    splits: pa.splits + pb.splits,
                    time,
                    set,
                });
            }
        }
        self.count(out.len())?;
        Ok(pareto(out))
    }

    fn count(&mut self, k: usize) -> Result<(), Error> {
        self.points = self.points.saturating_add(k);
        if self.points > self.budget.max_pareto_points {
            return Err(Error::budget(
                "max_pareto_points",
                self.budget.max_pareto_points,
                "the optimal split selection needs more Pareto points",
            ));
        }
        if self.every.tick(k as u64) {
            (self.observer)(&Progress {
                task: Task::PwsSplitSelection,
                done: self.points as u64,
                budget: self.budget.max_pareto_points as u64,
                best_bound: None,
                upper_bound: None,
            });
        }
        Ok(())
    }

    fn cost(&self, u: usize) -> u64 {
        self.cfg.nodes.get(u).map_or(0, |n| n.cost)
    }

    fn push(&mut self, c: Cell) -> u32 {
        self.arena.push(c);
        u32::try_from(self.arena.len() - 1).unwrap_or(u32::MAX)
    }

    fn join(&mut self, a: Option<u32>, b: Option<u32>) -> Option<u32> {
        match (a, b) {
            (None, x) | (x, None) => x,
            (Some(x), Some(y)) => Some(self.push(Cell::Join(x, y))),
        }
    }

    fn collect(&self, root: Option<u32>) -> BTreeSet<usize> {
        let mut out = BTreeSet::new();
        let mut stack: Vec<u32> = root.into_iter().collect();
        while let Some(i) = stack.pop() {
            match self.arena.get(i as usize) {
                Some(Cell::Leaf(u)) => {
                    out.insert(*u);
                }
                Some(Cell::Join(a, b)) => {
                    stack.push(*a);
                    stack.push(*b);
                }
                None => {}
            }
        }
        out
    }
}

/// Keeps the points not dominated in (need, splits, time); deterministic order.
fn pareto(mut pts: Vec<Point>) -> Vec<Point> {
    pts.sort_by_key(|p| (p.need, p.splits, p.time));
    let mut kept: Vec<Point> = Vec::with_capacity(pts.len());
    for p in pts {
        let dominated = kept
            .iter()
            .any(|q| q.need <= p.need && q.splits <= p.splits && q.time <= p.time);
        if !dominated {
            kept.push(p);
        }
    }
    kept
}

/// Exhaustive search over every subset of splittable branches (at most `max_branches`
/// of them): for each subset within `S` contexts, Prune (Alg. 2) then the longest path of
/// the pruned graph, plus `|SB| · (e_s + e_m)`. Returns the best value and a set reaching
/// it. Independent of the dynamic programme, for cross-checks.
///
/// # Errors
/// More than `max_branches` splittable branches, or an overflow.
pub fn exhaustive(
    cfg: &WavefrontCfg,
    structure: &Structure,
    s: u32,
    split_cost: u64,
    max_branches: usize,
) -> Result<(u64, BTreeSet<usize>), Error> {
    let cands: Vec<usize> = structure.shapes.keys().copied().collect();
    if cands.len() > max_branches || cands.len() >= 31 {
        return Err(Error::budget(
            "max_branches",
            max_branches,
            format!("{} splittable branches", cands.len()),
        ));
    }
    let mut best: Option<(u64, BTreeSet<usize>)> = None;
    for mask in 0u32..(1u32 << cands.len()) {
        let set: BTreeSet<usize> = cands
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, &u)| u)
            .collect();
        if contexts_needed(&structure.tree, &|b| set.contains(&b)) > s {
            continue;
        }
        let pr = prune(cfg, structure, &set);
        let t = longest_path(cfg, structure, &pr.removed)?;
        let value = (set.len() as u64)
            .checked_mul(split_cost)
            .and_then(|x| x.checked_add(t))
            .ok_or_else(|| Error::overflow("E_WF"))?;
        if best.as_ref().is_none_or(|(b, _)| value < *b) {
            best = Some((value, set));
        }
    }
    Ok(best.unwrap_or_default())
}
