//! The `block` mode's catalogue entry: the `warp-cfg` parameters ([`crate::warp_analysis`])
//! with the block's dimensions, and the SM, its units and the schedulers of the runs (moved
//! out of `block.rs`, which keeps the bound).

use crate::catalog::{ModeInfo, ParamInfo};
use crate::warp_analysis;
use std::collections::BTreeMap;

pub(super) fn describe() -> ModeInfo {
    let mut params: Vec<ParamInfo> = warp_analysis::params()
        .into_iter()
        .map(|mut p| {
            if p.name == "block" {
                p.meaning = "thread block dimensions X,Y,Z: the block whose WCET is bounded \
                             (warps = threads / 32, rounded up; at most 1024 threads)"
                    .into();
                p.default = serde_json::json!("128,1,1");
                p.group = String::new();
            }
            p
        })
        .collect();
    params.insert(
        0,
        ParamInfo::choice(
            "sm",
            "the SM the block shares: issue-slot = one warp-instruction issues per cycle, the \
             cost model's latencies (the warp-cfg setting); makespan = the unit machine of \
             Berezovskyi et al. §2–3 (memory instructions on ls_units load/store units, the \
             others on cores CUDA cores, σ lanes of k cycles each, one-cycle latencies, any \
             number of warps per cycle), whose exact worst case the makespan mode computes for \
             straight-line code",
            &["issue-slot", "makespan"],
            "issue-slot",
        ),
    );
    params.insert(
        1,
        ParamInfo::number(
            "ls_units",
            "sm=makespan: load/store units per SM (Fermi cc 2.0: 16)",
            "units",
            1.0,
            1024.0,
            16.0,
        ),
    );
    params.insert(
        2,
        ParamInfo::number(
            "cores",
            "sm=makespan: CUDA cores per SM (Fermi cc 2.0: 32; cc 2.1: 48)",
            "cores",
            1.0,
            1024.0,
            32.0,
        ),
    );
    params.insert(
        3,
        ParamInfo::choice(
            "scheduler",
            "warp scheduler the simulator runs the block under (simulate=true): any = loose \
             round-robin (lrr), greedy-then-oldest (gto) and two random work-conserving \
             schedulers (a random order of the ready warps every cycle, seeds 1 and 2); random = \
             four of those; the bound holds for every work-conserving scheduler",
            &["any", "lrr", "gto", "random"],
            "any",
        ),
    );
    params.extend(crate::kernel_occupancy::params(true));
    ModeInfo {
        name: String::new(),
        aliases: Vec::new(),
        title: "Thread-block WCET (response time)".into(),
        description: "Bounds a thread block of W warps of the kernel, sharing one issue slot: \
                      each warp's time alone (the warp-cfg bound) plus the issue slots the \
                      other W − 1 warps can take from it (their warp-instructions, the IPET \
                      bound under unit cost) — the worst-case response time of the block's \
                      warps, after Jeanmougin, Carle and Rochange (ECRTS 2025). Latencies of \
                      different warps overlap; only issue slots add up. Kernels with barriers \
                      get the bound per barrier phase when every warp passes them alike \
                      (outside branches that split the block, in loops whose exits are the \
                      same for the whole block), else the serialised bound (W × the warp \
                      bound)."
            .into(),
        dialects: vec!["sass".into()],
        params,
        presets: warp_analysis::presets(),
        default_presets: BTreeMap::new(),
    }
}
