//! The path a work-group takes through the kernel (§4.4: work-groups may take different
//! paths and exit early), as a source→sink walk of the unrolled DAG of §5.4.
//!
//! Every source→sink path of that DAG is a path of the CFG with each loop run at most its
//! `#bound` iterations (the unrolling only offers a loop's exit where its annotations allow
//! one), so a walk never exceeds a loop bound.
//!
//! **What is not done**: choosing the path a work-group's branch conditions select from its
//! id and the launch. That needs a scalar interpreter of Sim-D programs (condition registers
//! computed from `sc.wg_off_x/y` and loaded data), which this crate does not have; the
//! choice is therefore explicit, [`PathChoice`].

use crate::dag::Dag;
use crate::error::Error;
use serde::{Deserialize, Serialize};

/// How each work-group's path is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
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
