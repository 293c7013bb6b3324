//! Algorithm 2 of PWS §4.2: Prune the CFG for the split wavefront with the largest WCET.

use std::collections::{BTreeMap, BTreeSet};

use crate::graph::WavefrontCfg;
use crate::structure::Structure;

/// What Prune returns: the removed edges `E_r` and the array `F` (worst-case time from each
/// node to the end, as Alg. 2 computes it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pruned {
    /// `E_r`, sorted.
    pub removed: Vec<(usize, usize)>,
    /// `F[u]` for every node (0 for unreachable nodes).
    pub f: Vec<u64>,
}

/// `Prune(C_BSB, SB)` (Alg. 2, PWS §4.2), in reverse topological order:
///
/// * branch `u` (line 9): `F[SuccBB(u)] ← F[SuccBB(u)] − F[BSB(u)] + F[Reconv(u)]` turns the
///   first path's value, which ran on through the BSB and the second path, into "first path
///   then the join";
/// * `u ∈ SB` (lines 10–15): `F[u] = max` of the two paths, and the edge into the shorter
///   one is removed: `u → SuccBB(u)` when the first path is shorter, else
///   `BSB(u) → SuccBB(BSB(u))`;
/// * `u ∉ SB` (line 17): `F[u]` = both paths, serialised;
/// * line 18 adds `e_u + e_BSB(u)`; a BSB itself takes its successor's value (line 22) so
///   its cost is counted once, at its branch;
/// * other nodes (line 20): `e_u` plus the successor's value. For a node with several
///   successors that is not a splittable branch (a uniform branch, or a divergent branch of
///   unusual shape) we take the largest successor value: the longest path, which in
///   `C_BSB` is the serialised worst case.
///
/// For an `if` without `else`, `BSB(u)` is taken to be `Reconv(u)` (the skip edge goes
/// there directly): line 9 changes nothing and no edge is removed, since the SWF that
/// skips the path does no work. Arithmetic is done in 128 bits and clamped at 0 and
/// `u64::MAX`, so no input can make it panic.
pub fn prune(cfg: &WavefrontCfg, structure: &Structure, sb: &BTreeSet<usize>) -> Pruned {
    let n = cfg.nodes.len();
    let mut f = vec![0i128; n];
    let mut removed = Vec::new();
    let bsb_of: BTreeMap<usize, usize> = structure
        .shapes
        .values()
        .filter_map(|s| s.bsb.map(|b| (b, s.bsb_succ.unwrap_or(s.reconv))))
        .collect();
    // Line 9 writes `F[SuccBB(u)]` back; we do so only when `u` is that block's sole
    // predecessor (always the case in compiler-made `C_BSB`), so that on an unstructured
    // graph no other predecessor can read the adjusted value.
    let mut preds = vec![0usize; n];
    for &u in &structure.topo {
        for &v in &cfg.nodes[u].successors {
            preds[v] += 1;
        }
    }
    for &u in structure.topo.iter().rev() {
        let node = &cfg.nodes[u];
        let e_u = i128::from(node.cost);
        if let Some(s) = structure.shapes.get(&u) {
            let a = s.succ_bb;
            let r = s.reconv;
            let f_bsb = s.bsb.map_or(f[r], |b| f[b]);
            let fa = f[a] - f_bsb + f[r]; // line 9
            if preds[a] == 1 {
                f[a] = fa;
            }
            let mut value = if sb.contains(&u) {
                if fa < f_bsb {
                    removed.push((u, a)); // line 13
                } else if let (Some(b), Some(c)) = (s.bsb, s.bsb_succ) {
                    removed.push((b, c)); // line 15
                }
                fa.max(f_bsb) // line 11
            } else {
                fa + f_bsb - f[r] // line 17
            };
            value += e_u + s.bsb.map_or(0, |b| i128::from(cfg.nodes[b].cost)); // line 18
            f[u] = value;
        } else if let Some(&c) = bsb_of.get(&u) {
            f[u] = f[c]; // line 22
        } else {
            let next = node.successors.iter().map(|&v| f[v]).max().unwrap_or(0);
            f[u] = next + e_u; // line 20
        }
    }
    removed.sort_unstable();
    removed.dedup();
    let f = f
        .into_iter()
        .map(|x| u64::try_from(x.max(0)).unwrap_or(u64::MAX))
        .collect();
    Pruned { removed, f }
}
