//! The whole PWS analysis of one wavefront CFG: Select/Prune or the optimal split set,
//! `E_WF` (Lemma 5.1) and `E_kernel` (Lemmas 5.5, 5.7) for no splitting, DWS and PWS, the
//! per-node data and the dispatch timelines — one serialisable [`PwsResult`].

use std::collections::BTreeSet;

use isa::progress::{self, Observer};
use isa::Diagnostic;

use crate::budget::Budget;
use crate::error::Error;
use crate::graph::{LineRange, NodeKind, WavefrontCfg};
use crate::hardware::{Hardware, Launch};
use crate::kernel::{dws_kernel, no_split_kernel, pws_kernel, KernelBound};
use crate::optimal::optimal_observed;
use crate::prune::prune;
use crate::select::select;
use crate::structure::{contexts_needed, max_splits, Structure};
use crate::timeline::{kernel_timeline, Timeline, WavefrontShape};
use crate::wcet::longest_path;

/// Which split set PWS uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SplitMode {
    /// No split points (`SB = ∅`; all SpSIMDs are re-provisioned as SIMDs, Eq. 2).
    None,
    /// The programmer's marks filtered by Select (Alg. 1) — the paper's method.
    #[default]
    Marked,
    /// The split set minimising `E_WF` under `S` contexts ([`crate::optimal`]).
    Optimal,
}

/// Inputs besides the graph and the [`Hardware`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Options {
    pub mode: SplitMode,
    pub launch: Launch,
    /// Branch nodes marked for splitting by the caller, in addition to those marked in the
    /// graph ([`crate::Node::marked`], e.g. by `split` instructions).
    pub marked: Vec<usize>,
    pub budget: Budget,
}

/// A value for each of the three execution models.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerModel<T> {
    pub no_split: T,
    pub dws: T,
    pub pws: T,
}

/// The split sets side by side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitSets {
    /// `P`: branches marked by the programmer (splittable ones only).
    pub marked: Vec<usize>,
    /// `SB = Select(C, S)` (Alg. 1).
    pub select: Vec<usize>,
    /// The optimal set, when it could be computed within budget.
    pub optimal: Option<Vec<usize>>,
    /// The set PWS uses in this result (per [`Options::mode`]).
    pub chosen: Vec<usize>,
}

/// One candidate split set evaluated by Lemma 5.1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// `marked`, `select` or `optimal`.
    pub source: String,
    pub splits: Vec<usize>,
    /// SWF contexts the set needs at once.
    pub contexts: u32,
    /// `contexts ≤ S`.
    pub feasible: bool,
    /// `IPET(C_out)` with `C_out = Prune(C, splits)`.
    pub ipet: u64,
    /// `E_WF = IPET(C_out) + |splits| · (e_s + e_m)` (Lemma 5.1).
    pub e_wf: u64,
    /// `E_r`.
    pub pruned_edges: Vec<(usize, usize)>,
}

/// Per-node data for the graph view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeReport {
    pub id: usize,
    pub label: String,
    /// `plain`, `branch`, `bsb` or `reconv`.
    pub kind: NodeKind,
    /// Also a reconvergence point (a branch can be one too).
    pub reconv: bool,
    /// `e_bb`.
    pub cost: u64,
    pub lines: Option<LineRange>,
    pub successors: Vec<usize>,
    pub marked: bool,
    /// A divergent branch of a shape that can be split.
    pub splittable: bool,
    /// `Reconv(u)` for splittable branches.
    pub reconv_node: Option<usize>,
    /// `BSB(u)` for splittable branches with an `else` path.
    pub bsb_node: Option<usize>,
    /// `Parent(u)` (Def. 4.1) for splittable branches (`None`: outermost).
    pub parent: Option<usize>,
    /// In the chosen split set.
    pub split: bool,
    /// `F[u]` of Prune (Alg. 2) for the chosen split set.
    pub f: u64,
}

/// Everything the report needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PwsResult {
    pub mode: SplitMode,
    pub hardware: Hardware,
    pub launch: Launch,
    /// `E_WF` per model: no splitting `IPET(C)`; DWS `IPET(C) + N·(e_s + e_m)` (Eq. 3 with
    /// `C_out = C` and `|SB| = N`, see [`PwsResult::dws_splits`]); PWS Lemma 5.1 with the
    /// chosen set.
    pub e_wf: PerModel<u64>,
    /// `N`: the most splits DWS can make in one execution with `S` contexts
    /// ([`crate::structure::max_splits`]). The paper charges `S` (§5.1); contexts freed
    /// at merges are reused, so sequential branches can split more often than `S`.
    pub dws_splits: u64,
    /// `E_kernel` per model (Lemma 5.7 with `S = 0`, Lemma 5.7, Lemma 5.5).
    pub e_kernel: PerModel<u64>,
    /// `N_SIMD^total`, `G_parallel`, `DS` behind each kernel bound.
    pub kernel: PerModel<KernelBound>,
    pub splits: SplitSets,
    pub candidates: Vec<Candidate>,
    /// `E_r` for the chosen set.
    pub pruned_edges: Vec<(usize, usize)>,
    /// `IPET(C)`: the unpruned graph.
    pub ipet_unpruned: u64,
    /// `IPET(C_out)` for the chosen set.
    pub ipet_pruned: u64,
    pub nodes: Vec<NodeReport>,
    /// Fig. 9b per model.
    pub timeline: PerModel<Timeline>,
    pub warnings: Vec<Diagnostic>,
}

/// Runs the PWS analysis on an acyclic wavefront CFG (unroll loops first, see
/// [`crate::unroll`]).
///
/// # Errors
/// A malformed or cyclic graph, inconsistent hardware/launch parameters, an overflow, or a
/// budget (the optimal selection's budget only in [`SplitMode::Optimal`]; otherwise the
/// optimal set is left out with a warning).
pub fn analyze(
    cfg: &WavefrontCfg,
    hardware: &Hardware,
    options: &Options,
) -> Result<PwsResult, Error> {
    analyze_observed(cfg, hardware, options, &progress::silent)
}

/// [`analyze`], telling `observer` how the optimal split selection goes
/// ([`crate::optimal::optimal_observed`]). The result does not depend on the observer.
///
/// # Errors
/// As [`analyze`].
pub fn analyze_observed(
    cfg: &WavefrontCfg,
    hardware: &Hardware,
    options: &Options,
    observer: Observer,
) -> Result<PwsResult, Error> {
    let hw = *hardware;
    let structure = Structure::of(cfg, &options.budget)?;
    let mut warnings = Vec::new();
    let split_cost = hw
        .e_s
        .checked_add(hw.e_m)
        .ok_or_else(|| Error::overflow("e_s + e_m"))?;

    // P: marks from the graph and from the caller.
    let mut requested: BTreeSet<usize> = cfg
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.marked)
        .map(|(i, _)| i)
        .collect();
    requested.extend(options.marked.iter().copied());
    let mut marked = BTreeSet::new();
    for u in requested {
        if structure.shapes.contains_key(&u) {
            marked.insert(u);
        } else {
            warnings.push(Diagnostic::warning(
                cfg.nodes
                    .get(u)
                    .and_then(|n| n.lines)
                    .map_or_else(isa::Span::default, |l| isa::Span::new(l.first, 1, 0)),
                format!(
                    "node {u} is marked for splitting but is not a splittable divergent branch; ignored (PWS §4.1)"
                ),
            ));
        }
    }
    let selected = select(&structure, &marked, hw.s);
    let optimal_set =
        match optimal_observed(cfg, &structure, hw.s, split_cost, &options.budget, observer) {
            Ok(o) => Some(o.splits),
            Err(e) if options.mode != SplitMode::Optimal => {
                warnings.push(e.diagnostic);
                None
            }
            Err(e) => return Err(e),
        };
    let chosen: BTreeSet<usize> = match options.mode {
        SplitMode::None => BTreeSet::new(),
        SplitMode::Marked => selected.clone(),
        SplitMode::Optimal => optimal_set.clone().unwrap_or_default(),
    };

    let evaluate = |source: &str, set: &BTreeSet<usize>| -> Result<Candidate, Error> {
        let pr = prune(cfg, &structure, set);
        let ipet = longest_path(cfg, &structure, &pr.removed)?;
        let e_wf = (set.len() as u64)
            .checked_mul(split_cost)
            .and_then(|x| x.checked_add(ipet))
            .ok_or_else(|| Error::overflow("E_WF"))?;
        let contexts = contexts_needed(&structure.tree, &|b| set.contains(&b));
        Ok(Candidate {
            source: source.to_string(),
            splits: set.iter().copied().collect(),
            contexts,
            feasible: contexts <= hw.s,
            ipet,
            e_wf,
            pruned_edges: pr.removed,
        })
    };
    let mut candidates = vec![evaluate("marked", &marked)?, evaluate("select", &selected)?];
    if let Some(o) = &optimal_set {
        candidates.push(evaluate("optimal", o)?);
    }

    let ipet_unpruned = longest_path(cfg, &structure, &[])?;
    let pr = prune(cfg, &structure, &chosen);
    let ipet_pruned = longest_path(cfg, &structure, &pr.removed)?;
    let e_wf_pws = (chosen.len() as u64)
        .checked_mul(split_cost)
        .and_then(|x| x.checked_add(ipet_pruned))
        .ok_or_else(|| Error::overflow("E_WF^PWS"))?;
    let dws_splits = max_splits(&structure.tree, hw.s);
    let e_wf_dws = dws_splits
        .checked_mul(split_cost)
        .and_then(|x| x.checked_add(ipet_unpruned))
        .ok_or_else(|| Error::overflow("E_WF^DWS"))?;
    let launch = options.launch;
    let k_none = no_split_kernel(&hw, &launch, ipet_unpruned)?;
    let k_dws = dws_kernel(&hw, &launch, e_wf_dws)?;
    let k_pws = pws_kernel(&hw, &launch, e_wf_pws, chosen.len() as u64)?;

    let max_iv = options.budget.max_timeline_intervals;
    let timeline = PerModel {
        no_split: kernel_timeline(
            &k_none,
            hw.d,
            ipet_unpruned,
            launch.workgroups,
            &WavefrontShape::Single,
            max_iv,
        ),
        dws: kernel_timeline(
            &k_dws,
            hw.d,
            e_wf_dws,
            launch.workgroups,
            &WavefrontShape::Serialized { s: hw.s },
            max_iv,
        ),
        pws: kernel_timeline(
            &k_pws,
            hw.d,
            e_wf_pws,
            launch.workgroups,
            &WavefrontShape::Split {
                cfg,
                tree: &structure.tree,
                splits: &chosen,
                split_cost,
            },
            max_iv,
        ),
    };

    let nodes = cfg
        .nodes
        .iter()
        .enumerate()
        .map(|(id, n)| {
            let shape = structure.shapes.get(&id);
            NodeReport {
                id,
                label: n.label.clone(),
                kind: n.kind,
                reconv: n.reconv,
                cost: n.cost,
                lines: n.lines,
                successors: n.successors.clone(),
                marked: marked.contains(&id),
                splittable: shape.is_some(),
                reconv_node: shape.map(|s| s.reconv),
                bsb_node: shape.and_then(|s| s.bsb),
                parent: structure.parent.get(&id).copied().flatten(),
                split: chosen.contains(&id),
                f: pr.f.get(id).copied().unwrap_or(0),
            }
        })
        .collect();

    Ok(PwsResult {
        mode: options.mode,
        hardware: hw,
        launch,
        e_wf: PerModel {
            no_split: ipet_unpruned,
            dws: e_wf_dws,
            pws: e_wf_pws,
        },
        dws_splits,
        e_kernel: PerModel {
            no_split: k_none.e_kernel,
            dws: k_dws.e_kernel,
            pws: k_pws.e_kernel,
        },
        kernel: PerModel {
            no_split: k_none,
            dws: k_dws,
            pws: k_pws,
        },
        splits: SplitSets {
            marked: marked.iter().copied().collect(),
            select: selected.iter().copied().collect(),
            optimal: optimal_set.map(|s| s.into_iter().collect()),
            chosen: chosen.iter().copied().collect(),
        },
        candidates,
        pruned_edges: pr.removed,
        ipet_unpruned,
        ipet_pruned,
        nodes,
        timeline,
        warnings,
    })
}
