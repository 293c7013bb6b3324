//! The wire form of the `pws` crate's result (Klashtorny et al.): the wavefront and kernel
//! bounds of the three execution models side by side (the paper's Table 2), the candidate
//! split sets, the pruned graph's nodes and the dispatch timelines (Fig. 9b). Owned here so a
//! rename inside the method crate cannot change what the page reads; the names of kinds and
//! modes are ours, written out below, not the Rust variants'.
//!
//! The analysis's warnings are not repeated here: the mode puts them in the report's
//! `diagnostics`.

use serde::Serialize;
use ts_rs::TS;

/// `details.pws`: what the page's PWS summary and graph show, in the order it shows them —
/// the bounds of Table 2, how the split set was chosen, the pruned graph, the timelines, then
/// the hardware and launch they were computed for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct PwsView {
    /// The split set used: `none`, `marked` (the programmer's marks through Select, Alg. 1)
    /// or `optimal`.
    pub mode: &'static str,
    /// `E_WF` per model (Lemma 5.1 for PWS) and `E_kernel` (Lemma 5.5, Lemma 5.7).
    pub e_wf: PerModel<u64>,
    pub e_kernel: PerModel<u64>,
    /// The numbers behind each `E_kernel`.
    pub kernel: PerModel<KernelBoundView>,
    /// `N`: the most splits DWS can make in one execution.
    pub dws_splits: u64,
    pub splits: SplitSetsView,
    pub candidates: Vec<CandidateView>,
    /// `IPET(C)` and `IPET(C_out)` of the chosen set, and `E_r`: the edges Prune removes,
    /// `[from, to]`.
    pub ipet_unpruned: u64,
    pub ipet_pruned: u64,
    pub pruned_edges: Vec<(usize, usize)>,
    pub nodes: Vec<PwsNodeView>,
    /// Fig. 9b per model (the report's `schedule` is the PWS one).
    pub timeline: PerModel<DispatchTimelineView>,
    pub hardware: PwsHardwareView,
    pub launch: PwsLaunchView,
}

/// One value per execution model, in the order of the page's table columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct PerModel<T> {
    pub no_split: T,
    pub dws: T,
    pub pws: T,
}

impl<T> PerModel<T> {
    fn of<U>(m: &pws::PerModel<U>, f: impl Fn(&U) -> T) -> Self {
        Self {
            no_split: f(&m.no_split),
            dws: f(&m.dws),
            pws: f(&m.pws),
        }
    }
}

/// The GPU of Table 1a as the analysis used it; every count a JSON number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct PwsHardwareView {
    pub n_cu: u64,
    pub n_simd: u64,
    pub n_wfc: u64,
    pub n_wiwf: u64,
    /// `S`: split wavefront contexts per wavefront.
    pub s: u64,
    /// The initialisation, split and merge delays.
    pub d: u64,
    pub e_s: u64,
    pub e_m: u64,
}

/// The launch: `G` workgroups of `N_WIWG` work-items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct PwsLaunchView {
    pub workgroups: u64,
    pub work_items_per_group: u64,
}

/// `N_SIMD^total` (Eq. 2), `G_parallel` (Def. 5.2), `DS` (Def. 5.3), the time between
/// dispatches and `E_kernel = DS · round`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct KernelBoundView {
    pub n_simd_total: u64,
    pub g_parallel: u64,
    pub dispatches: u64,
    pub round: u64,
    pub e_kernel: u64,
}

/// The split sets side by side: the marks, Select's set, the optimal one (absent when over
/// budget) and the one used. Node ids of `nodes`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct SplitSetsView {
    pub marked: Vec<usize>,
    pub select: Vec<usize>,
    pub optimal: Option<Vec<usize>>,
    pub chosen: Vec<usize>,
}

/// One candidate split set under Lemma 5.1 (a row of the page's "Split sets" table): which
/// set, its `E_WF = IPET(C_out) + |splits|·(e_s + e_m)` with the terms, then the contexts it
/// needs at once and whether they fit in `S`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct CandidateView {
    /// `marked`, `select` or `optimal`.
    pub source: String,
    pub e_wf: u64,
    pub ipet: u64,
    pub splits: Vec<usize>,
    pub pruned_edges: Vec<(usize, usize)>,
    pub contexts: u32,
    pub feasible: bool,
}

/// One node of the wavefront CFG with branch serialisation blocks (§4.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct PwsNodeView {
    pub id: usize,
    pub label: String,
    /// `plain`, `branch`, `bsb` or `reconv`.
    pub kind: &'static str,
    pub reconv: bool,
    /// `e_bb`.
    pub cost: u64,
    /// Source lines, first and last (GCN3 input).
    pub lines: Option<LinesView>,
    pub successors: Vec<usize>,
    /// In the chosen set, and Prune's `F[u]` for it (Alg. 2).
    pub split: bool,
    pub f: u64,
    /// Marked for splitting; a divergent branch of a shape that can be split.
    pub marked: bool,
    pub splittable: bool,
    /// `Parent(u)`, `Reconv(u)` and `BSB(u)` of a splittable branch.
    pub parent: Option<usize>,
    pub reconv_node: Option<usize>,
    pub bsb_node: Option<usize>,
}

/// Source lines, 1-based and inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct LinesView {
    pub first: u32,
    pub last: u32,
}

/// A dispatch timeline (Fig. 9b): lanes and bars; `truncated` when slots were left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct DispatchTimelineView {
    pub lanes: Vec<String>,
    pub intervals: Vec<DispatchIntervalView>,
    pub end: u64,
    pub truncated: bool,
}

/// One bar: `kind` is `init`, `wavefront`, `split_wavefront`, `serialized` or `split_merge`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct DispatchIntervalView {
    pub lane: usize,
    pub start: u64,
    pub end: u64,
    pub label: String,
    pub kind: &'static str,
}

/// The wire name of a split mode.
fn split_mode(m: pws::SplitMode) -> &'static str {
    match m {
        pws::SplitMode::None => "none",
        pws::SplitMode::Marked => "marked",
        pws::SplitMode::Optimal => "optimal",
    }
}

/// The wire name of a node's role.
fn node_kind(k: pws::NodeKind) -> &'static str {
    match k {
        pws::NodeKind::Plain => "plain",
        pws::NodeKind::Branch => "branch",
        pws::NodeKind::Bsb => "bsb",
        pws::NodeKind::Reconv => "reconv",
    }
}

/// The wire name of what a bar stands for.
fn interval_kind(k: pws::IntervalKind) -> &'static str {
    match k {
        pws::IntervalKind::Init => "init",
        pws::IntervalKind::Wavefront => "wavefront",
        pws::IntervalKind::SplitWavefront => "split_wavefront",
        pws::IntervalKind::Serialized => "serialized",
        pws::IntervalKind::SplitMerge => "split_merge",
    }
}

impl From<&pws::PwsResult> for PwsView {
    fn from(r: &pws::PwsResult) -> Self {
        let hw = &r.hardware;
        Self {
            mode: split_mode(r.mode),
            e_wf: PerModel::of(&r.e_wf, |v| *v),
            e_kernel: PerModel::of(&r.e_kernel, |v| *v),
            kernel: PerModel::of(&r.kernel, |k| KernelBoundView {
                n_simd_total: k.n_simd_total,
                g_parallel: k.g_parallel,
                dispatches: k.dispatches,
                round: k.round,
                e_kernel: k.e_kernel,
            }),
            dws_splits: r.dws_splits,
            splits: SplitSetsView {
                marked: r.splits.marked.clone(),
                select: r.splits.select.clone(),
                optimal: r.splits.optimal.clone(),
                chosen: r.splits.chosen.clone(),
            },
            candidates: r
                .candidates
                .iter()
                .map(|c| CandidateView {
                    source: c.source.clone(),
                    e_wf: c.e_wf,
                    ipet: c.ipet,
                    splits: c.splits.clone(),
                    pruned_edges: c.pruned_edges.clone(),
                    contexts: c.contexts,
                    feasible: c.feasible,
                })
                .collect(),
            ipet_unpruned: r.ipet_unpruned,
            ipet_pruned: r.ipet_pruned,
            pruned_edges: r.pruned_edges.clone(),
            nodes: r.nodes.iter().map(node).collect(),
            timeline: PerModel::of(&r.timeline, |t| DispatchTimelineView {
                lanes: t.lanes.clone(),
                intervals: t
                    .intervals
                    .iter()
                    .map(|i| DispatchIntervalView {
                        lane: i.lane,
                        start: i.start,
                        end: i.end,
                        label: i.label.clone(),
                        kind: interval_kind(i.kind),
                    })
                    .collect(),
                end: t.end,
                truncated: t.truncated,
            }),
            hardware: PwsHardwareView {
                n_cu: hw.n_cu,
                n_simd: hw.n_simd,
                n_wfc: hw.n_wfc,
                n_wiwf: hw.n_wiwf,
                s: u64::from(hw.s),
                d: hw.d,
                e_s: hw.e_s,
                e_m: hw.e_m,
            },
            launch: PwsLaunchView {
                workgroups: r.launch.workgroups,
                work_items_per_group: r.launch.work_items_per_group,
            },
        }
    }
}

fn node(n: &pws::NodeReport) -> PwsNodeView {
    PwsNodeView {
        id: n.id,
        label: n.label.clone(),
        kind: node_kind(n.kind),
        reconv: n.reconv,
        cost: n.cost,
        lines: n.lines.map(|l| LinesView {
            first: l.first,
            last: l.last,
        }),
        successors: n.successors.clone(),
        split: n.split,
        f: n.f,
        marked: n.marked,
        splittable: n.splittable,
        parent: n.parent,
        reconv_node: n.reconv_node,
        bsb_node: n.bsb_node,
    }
}
