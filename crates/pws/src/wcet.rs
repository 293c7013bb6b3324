//! Wavefront WCET: the longest path of the (pruned) acyclic CFG — what IPET computes on a
//! loop-free graph — and the IPET cross-check through the `ipet` crate.

use crate::error::Error;
use crate::graph::WavefrontCfg;
use crate::structure::Structure;

/// `IPET(C_out)` of Lemma 5.1 for an acyclic graph: the costliest path from the entry to a
/// node without (remaining) successors, skipping the edges in `removed` (sorted).
///
/// # Errors
/// The sum overflows 64 bits.
pub fn longest_path(
    cfg: &WavefrontCfg,
    structure: &Structure,
    removed: &[(usize, usize)],
) -> Result<u64, Error> {
    let mut best = vec![0u64; cfg.nodes.len()];
    for &u in structure.topo.iter().rev() {
        let node = &cfg.nodes[u];
        let next = node
            .successors
            .iter()
            .filter(|&&v| removed.binary_search(&(u, v)).is_err())
            .map(|&v| best[v])
            .max()
            .unwrap_or(0);
        best[u] = next
            .checked_add(node.cost)
            .ok_or_else(|| Error::overflow("the wavefront WCET"))?;
    }
    Ok(best.get(cfg.entry).copied().unwrap_or(0))
}

/// The same quantity computed by the generic IPET solver (`ipet::solve`), used to
/// cross-check [`longest_path`]; on an acyclic graph no loop bounds are needed.
///
/// # Errors
/// Whatever IPET reports (budget, solver trouble), or an inexact (non-integral) answer.
pub fn ipet_wcet(cfg: &WavefrontCfg, removed: &[(usize, usize)]) -> Result<u64, Error> {
    let g = cfg.to_ipet(removed);
    let sol = ipet::solve(&g, &ipet::LoopBounds::default(), &ipet::Budget::default())?;
    if !sol.integral {
        return Err(Error::global(
            crate::error::ErrorKind::Ipet,
            "IPET ran out of its branch-and-bound budget before proving the optimum",
        ));
    }
    Ok(sol.wcet)
}
