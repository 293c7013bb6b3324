//! Steps 6 and 7 (§5.6, §5.7) and the bounds of §4.5: the access/compute phase list of the
//! critical path, the kernel WCET for a pair of work-group slots (Eq. 17–18), and the
//! policy-independent bounds WCET^U and WCET^L (Eq. 10–14).

use crate::access::Resource;
use crate::dag::PathStep;
use crate::dram::DramTiming;
use crate::error::Error;

/// A phase Φ_i = (ρ_i, c_i) of the program model (§4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Phase {
    /// Position in the list (0-based; the paper counts from 1).
    pub index: usize,
    /// ρ_i: the resource type.
    pub resource: Resource,
    /// c_i: worst-case cost in compute cycles.
    pub cycles: u64,
    /// The block whose request ends (compute phase) or is (access phase) this phase.
    pub block: usize,
}

impl Phase {
    /// Test phase lists: `(resource, cycles)` in order, all in block 0.
    #[cfg(test)]
    pub(crate) fn list(c: &[(Resource, u64)]) -> Vec<Phase> {
        c.iter()
            .enumerate()
            .map(|(i, &(resource, cycles))| Phase {
                index: i,
                resource,
                cycles,
                block: 0,
            })
            .collect()
    }
}

/// §5.6: walk the critical path from source to sink, accumulating edge weights into a
/// compute accumulator (starting at the pipeline depth, the warm-up before the first
/// write-back); at every node with an access emit (compute, accumulator) then (access,
/// cost) and reset. Under scratchpad-as-compute the path already has scratchpad nodes folded
/// into compute. Compute after the last access (the final `exit`) is not a phase: a
/// work-group's last phase is its DRAM store (§4.1).
pub fn extract(path: &[PathStep], pipeline_depth: u64) -> Vec<Phase> {
    let mut phases = Vec::new();
    let mut acc = pipeline_depth;
    let Some((_, body)) = path.split_last() else {
        return phases;
    };
    for step in body {
        acc = acc.saturating_add(step.weight);
        if let Some(a) = step.access {
            phases.push(Phase {
                index: phases.len(),
                resource: Resource::Compute,
                cycles: acc,
                block: step.block,
            });
            phases.push(Phase {
                index: phases.len(),
                resource: a.resource,
                cycles: a.cycles,
                block: step.block,
            });
            acc = 0;
        }
    }
    phases
}

/// The cost terms of §5.7 for one phase list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PairCost {
    /// c_1wg = Σ c_i: one work-group alone.
    pub c_1wg: u64,
    /// c_2wg = max(c_n, c_1) + Σ_{i=1}^{n−1} max(c_i, c_{i+1}): a pair of work-groups
    /// alternating resources (each step lasts as long as the longer of the two phases).
    pub c_2wg: u64,
    /// Eq. 17: min(c_1, c_n) for an even number of work-groups (the schedule's tail), c_1wg
    /// for an odd number (the last work-group runs alone).
    pub c_edge: u64,
    /// ⌊w/2⌋ · c_2wg + c_edge: Eq. 18 without the program upload.
    pub schedule: u64,
}

/// Eq. 17 and the first two terms of Eq. 18 for `w` work-groups.
pub fn pair_cost(phases: &[Phase], w: u64) -> Result<PairCost, Error> {
    let (Some(first), Some(last)) = (phases.first(), phases.last()) else {
        return Err(Error::request(
            "the critical path has no DRAM or scratchpad request, so there are no phases: a Sim-D work-group's last phase is its DRAM store (§4.1)",
        ));
    };
    let c: Vec<u64> = phases.iter().map(|p| p.cycles).collect();
    let c_1wg = c.iter().fold(0u64, |a, &x| a.saturating_add(x));
    let c_2wg = c.windows(2).fold(first.cycles.max(last.cycles), |a, p| {
        a.saturating_add(p[0].max(p[1]))
    });
    let c_edge = if w.is_multiple_of(2) {
        first.cycles.min(last.cycles)
    } else {
        c_1wg
    };
    Ok(PairCost {
        c_1wg,
        c_2wg,
        c_edge,
        schedule: (w / 2).saturating_mul(c_2wg).saturating_add(c_edge),
    })
}

/// C(K, r), Eq. 12: the summed cost of the phases on resource `r`.
pub fn resource_cost(phases: &[Phase], r: Resource) -> u64 {
    phases
        .iter()
        .filter(|p| p.resource == r)
        .fold(0u64, |a, p| a.saturating_add(p.cycles))
}

/// WCET^U and WCET^L (§4.5) of a phase list, in compute cycles, with the program upload and
/// refresh inflation applied as the reference tool applies them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// Eq. 10: serial execution, `inflate(w·Σc + upload)`.
    pub upper: u64,
    /// Eq. 11–12: `max(inflate(w·C(DRAM)), w·C(COMPUTE), w·C(SP)) + upload` (only the DRAM
    /// resource is stalled by refresh).
    pub l1: u64,
    /// Eq. 13: two work-groups in parallel with zero blocking, `inflate(⌈w/2⌉·Σc) + upload`.
    pub l2: u64,
    /// Eq. 14: `max(l1, l2)`.
    pub lower: u64,
}

pub fn bounds(
    phases: &[Phase],
    w: u64,
    upload: u64,
    dram: &DramTiming,
    compute_mhz: u64,
) -> Bounds {
    let total = phases.iter().fold(0u64, |a, p| a.saturating_add(p.cycles));
    let per = |r| resource_cost(phases, r).saturating_mul(w);
    let upper = dram.inflate_refresh(total.saturating_mul(w).saturating_add(upload), compute_mhz);
    let l1 = dram
        .inflate_refresh(per(Resource::Dram), compute_mhz)
        .max(per(Resource::Compute))
        .max(per(Resource::Scratchpad))
        .saturating_add(upload);
    let l2 = dram
        .inflate_refresh(total.saturating_mul(w.div_ceil(2)), compute_mhz)
        .saturating_add(upload);
    Bounds {
        upper,
        l1,
        l2,
        lower: l1.max(l2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Eq. 10–14 by hand for (C 10, D 30, C 20, D 5), w = 4, upload 7 cycles, DDR4-3200AA at
    /// a 1 GHz compute clock (refresh window 7450 cycles, 350 cycles per refresh):
    /// * U = inflate(4·65 + 7 = 267) = 267 + 350 = 617;
    /// * L1 = max(inflate(4·35 = 140) = 490, 4·30 = 120, 0) + 7 = 497;
    /// * L2 = inflate(2·65 = 130) + 7 = 480 + 7 = 487; L = 497.
    #[test]
    fn eq10_to_eq14_by_hand() {
        use Resource::*;
        let p = Phase::list(&[(Compute, 10), (Dram, 30), (Compute, 20), (Dram, 5)]);
        let t = crate::dram::DramPreset::Ddr4_3200aa2bg.timing();
        let b = bounds(&p, 4, 7, &t, 1000);
        assert_eq!((b.upper, b.l1, b.l2, b.lower), (617, 497, 487, 497));
    }

    /// Eq. 17–18 by hand: phases (C 10, D 30, C 20, D 5).
    /// c_1wg = 65; c_2wg = max(5,10) + max(10,30) + max(30,20) + max(20,5) = 10+30+30+20 = 90.
    /// w = 4: 2·90 + min(10, 5) = 185. w = 5: 2·90 + 65 = 245. w = 1: 0 + 65.
    #[test]
    fn eq17_eq18_by_hand() {
        use Resource::*;
        let p = Phase::list(&[(Compute, 10), (Dram, 30), (Compute, 20), (Dram, 5)]);
        let c4 = pair_cost(&p, 4).ok();
        assert_eq!(
            c4.map(|c| (c.c_1wg, c.c_2wg, c.c_edge, c.schedule)),
            Some((65, 90, 5, 185))
        );
        assert_eq!(pair_cost(&p, 5).ok().map(|c| c.schedule), Some(245));
        assert_eq!(pair_cost(&p, 1).ok().map(|c| c.schedule), Some(65));
        assert_eq!(
            (
                resource_cost(&p, Compute),
                resource_cost(&p, Dram),
                resource_cost(&p, Scratchpad)
            ),
            (30, 35, 0)
        );
        assert!(pair_cost(&[], 4).is_err());
    }

    /// §5.6 by hand: path A(edge 7) → B[DRAM 40](edge 3) → C(edge 2) → D[SP 9](edge 4) →
    /// E[DRAM 50](edge 1) → sink, pipeline depth 4. A node's out-edge (its block's compute)
    /// is accumulated before its access is emitted: compute 4+7+3 = 14, DRAM 40; compute
    /// 2+4 = 6, SP 9; compute 1, DRAM 50.
    #[test]
    fn section_5_6_phase_extraction_by_hand() {
        use crate::dag::{NodeAccess, PathStep};
        let acc = |r, c| {
            Some(NodeAccess {
                resource: r,
                cycles: c,
            })
        };
        let path = [
            PathStep {
                node: 0,
                block: 0,
                weight: 7,
                access: None,
            },
            PathStep {
                node: 1,
                block: 1,
                weight: 3,
                access: acc(Resource::Dram, 40),
            },
            PathStep {
                node: 2,
                block: 2,
                weight: 2,
                access: None,
            },
            PathStep {
                node: 3,
                block: 3,
                weight: 4,
                access: acc(Resource::Scratchpad, 9),
            },
            PathStep {
                node: 4,
                block: 4,
                weight: 1,
                access: acc(Resource::Dram, 50),
            },
            PathStep {
                node: 5,
                block: 5,
                weight: 0,
                access: None,
            },
        ];
        let got: Vec<(Resource, u64)> = extract(&path, 4)
            .iter()
            .map(|p| (p.resource, p.cycles))
            .collect();
        use Resource::*;
        assert_eq!(
            got,
            vec![
                (Compute, 14),
                (Dram, 40),
                (Compute, 6),
                (Scratchpad, 9),
                (Compute, 1),
                (Dram, 50)
            ]
        );
    }
}
