//! The worst-case dispatch timeline of Fig. 9b (PWS §5): `DS` rounds of `G_parallel`
//! workgroups, each suffering the initialisation delay `d` and then the wavefront WCET,
//! drawn as lanes × `[start, end)` intervals. Under PWS the wavefront's split wavefronts
//! are drawn on their SpSIMD lanes (the worst-case path of the pruned CFG); under DWS the
//! `S` split wavefronts run serialised after the wavefront (Lemma 5.7).

use std::collections::BTreeSet;

use crate::graph::WavefrontCfg;
use crate::kernel::KernelBound;
use crate::structure::{contexts_needed, Item};

/// What an interval stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntervalKind {
    /// The initialisation delay `d`.
    Init,
    /// Execution of a wavefront (or of one block of it).
    Wavefront,
    /// Execution by a split wavefront on an SpSIMD.
    SplitWavefront,
    /// A split wavefront serialised on the wavefront's own SIMD (DWS).
    Serialized,
    /// The split and merge delays `|SB| · (e_s + e_m)` of Lemma 5.1.
    SplitMerge,
}

/// One bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interval {
    pub lane: usize,
    pub start: u64,
    pub end: u64,
    pub label: String,
    pub kind: IntervalKind,
}

/// Lanes and bars; `truncated` when workgroup slots or intervals were left out.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Timeline {
    pub lanes: Vec<String>,
    pub intervals: Vec<Interval>,
    pub end: u64,
    pub truncated: bool,
}

/// Workgroup slots drawn at most (the others behave identically in the worst case).
const MAX_SLOTS: u64 = 4;

/// How the wavefront part of a round is drawn.
pub(crate) enum WavefrontShape<'a> {
    /// One bar of length `E_WF`.
    Single,
    /// `S + 1` serialised bars of length `E_WF^DWS` each (Lemma 5.7).
    Serialized { s: u32 },
    /// The worst-case path with its split wavefronts on SpSIMD lanes, then the split/merge
    /// delays, within `E_WF^PWS`.
    Split {
        cfg: &'a WavefrontCfg,
        tree: &'a [Item],
        splits: &'a BTreeSet<usize>,
        split_cost: u64,
    },
}

pub(crate) fn kernel_timeline(
    bound: &KernelBound,
    d: u64,
    e_wf: u64,
    workgroups: u64,
    shape: &WavefrontShape<'_>,
    max_intervals: usize,
) -> Timeline {
    let mut tl = Timeline::default();
    let slots = bound.g_parallel.min(workgroups).min(MAX_SLOTS);
    tl.truncated = bound.g_parallel.min(workgroups) > slots;
    let extra_lanes = match shape {
        WavefrontShape::Split { tree, splits, .. } => {
            contexts_needed(tree, &|b| splits.contains(&b)) as usize
        }
        _ => 0,
    };
    let per_slot = 1 + extra_lanes;
    for j in 0..slots {
        tl.lanes.push(format!("WG slot {j} · SIMD"));
        for k in 1..=extra_lanes {
            tl.lanes.push(format!("WG slot {j} · SpSIMD {k}"));
        }
    }
    'rounds: for r in 0..bound.dispatches {
        let t0 = r.saturating_mul(bound.round);
        for j in 0..slots {
            let w = r.saturating_mul(bound.g_parallel).saturating_add(j);
            if w >= workgroups {
                break;
            }
            let base = usize::try_from(j).unwrap_or(0) * per_slot;
            let push = |tl: &mut Timeline, lane: usize, s: u64, e: u64, label: String, kind| {
                if tl.intervals.len() >= max_intervals {
                    tl.truncated = true;
                    return false;
                }
                tl.intervals.push(Interval {
                    lane: base + lane,
                    start: t0.saturating_add(s),
                    end: t0.saturating_add(e),
                    label,
                    kind,
                });
                true
            };
            if d > 0
                && !push(
                    &mut tl,
                    0,
                    0,
                    d,
                    format!("WG {w}: init d"),
                    IntervalKind::Init,
                )
            {
                break 'rounds;
            }
            match shape {
                WavefrontShape::Single => {
                    if !push(
                        &mut tl,
                        0,
                        d,
                        d.saturating_add(e_wf),
                        format!("WG {w}: WF"),
                        IntervalKind::Wavefront,
                    ) {
                        break 'rounds;
                    }
                }
                WavefrontShape::Serialized { s } => {
                    for k in 0..=u64::from(*s) {
                        let st = d.saturating_add(k.saturating_mul(e_wf));
                        let (label, kind) = if k == 0 {
                            (format!("WG {w}: WF"), IntervalKind::Wavefront)
                        } else {
                            (
                                format!("WG {w}: SWF {k} (serialised)"),
                                IntervalKind::Serialized,
                            )
                        };
                        if !push(&mut tl, 0, st, st.saturating_add(e_wf), label, kind) {
                            break 'rounds;
                        }
                    }
                }
                WavefrontShape::Split {
                    cfg,
                    tree,
                    splits,
                    split_cost,
                } => {
                    let mut bars = Vec::new();
                    let end = schedule(cfg, tree, splits, 0, 1, d, &mut bars);
                    for (lane, s, e, label, kind) in bars {
                        if !push(&mut tl, lane, s, e, format!("WG {w}: {label}"), kind) {
                            break 'rounds;
                        }
                    }
                    let sm = (splits.len() as u64).saturating_mul(*split_cost);
                    if sm > 0
                        && !push(
                            &mut tl,
                            0,
                            end,
                            end.saturating_add(sm),
                            format!("WG {w}: split/merge ×{}", splits.len()),
                            IntervalKind::SplitMerge,
                        )
                    {
                        break 'rounds;
                    }
                }
            }
        }
    }
    tl.end = bound.e_kernel;
    tl
}

type Bar = (usize, u64, u64, String, IntervalKind);

/// Draws the worst-case execution of `items` from time `t` on `lane`, with SpSIMD lanes
/// from `free` on for split wavefronts; returns the end time.
fn schedule(
    cfg: &WavefrontCfg,
    items: &[Item],
    splits: &BTreeSet<usize>,
    lane: usize,
    free: usize,
    mut t: u64,
    bars: &mut Vec<Bar>,
) -> u64 {
    let kind = if lane == 0 {
        IntervalKind::Wavefront
    } else {
        IntervalKind::SplitWavefront
    };
    let block = |bars: &mut Vec<Bar>, u: usize, t: u64| -> u64 {
        let (label, c) = cfg
            .nodes
            .get(u)
            .map_or((String::new(), 0), |n| (n.label.clone(), n.cost));
        let e = t.saturating_add(c);
        if c > 0 {
            bars.push((lane, t, e, label, kind));
        }
        e
    };
    for it in items {
        match it {
            Item::Node { node } => t = block(bars, *node, t),
            Item::Choice { node, arms } => {
                t = block(bars, *node, t);
                let worst = arms
                    .iter()
                    .max_by_key(|a| path_time(cfg, a, splits))
                    .map_or(&[][..], Vec::as_slice);
                t = schedule(cfg, worst, splits, lane, free, t, bars);
            }
            Item::Split(split) => {
                for b in split.blocks() {
                    t = block(bars, b, t);
                }
                let (path1, path2) = (&split.path1, &split.path2);
                if splits.contains(&split.branch) {
                    let n1 = contexts_needed(path1, &|b| splits.contains(&b)) as usize;
                    let e1 = schedule(cfg, path1, splits, lane, free + 1, t, bars);
                    let e2 = schedule(cfg, path2, splits, free, free + 1 + n1, t, bars);
                    t = e1.max(e2);
                } else {
                    t = schedule(cfg, path1, splits, lane, free, t, bars);
                    t = schedule(cfg, path2, splits, lane, free, t, bars);
                }
            }
        }
    }
    t
}

/// Worst-case time of a path of the branch tree under a split set: sums along the path,
/// the worst arm of a choice, both paths of an unsplit branch, the longer path of a split
/// one (plus the branch and BSB blocks). On graphs made by a compiler this equals the
/// longest path of the pruned graph (checked in the tests).
pub fn path_time(cfg: &WavefrontCfg, items: &[Item], splits: &BTreeSet<usize>) -> u64 {
    let cost = |u: usize| cfg.nodes.get(u).map_or(0, |n| n.cost);
    items.iter().fold(0u64, |acc, it| {
        let t = match it {
            Item::Node { node } => cost(*node),
            Item::Choice { node, arms } => cost(*node).saturating_add(
                arms.iter()
                    .map(|a| path_time(cfg, a, splits))
                    .max()
                    .unwrap_or(0),
            ),
            Item::Split(split) => {
                let base = split.blocks().map(cost).fold(0u64, u64::saturating_add);
                let (a, b) = (
                    path_time(cfg, &split.path1, splits),
                    path_time(cfg, &split.path2, splits),
                );
                base.saturating_add(if splits.contains(&split.branch) {
                    a.max(b)
                } else {
                    a.saturating_add(b)
                })
            }
        };
        acc.saturating_add(t)
    })
}
