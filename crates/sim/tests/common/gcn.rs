//! What the GCN3 wavefront tests (`gcn_calls.rs`, `gcn_divergence.rs`, `gcn_soundness.rs`,
//! `gcn_semantics.rs`, `gcn_sdwa.rs`) share, each including this file by path: the unit-cost
//! machine of 64 lanes and a global memory holding only the `out` array.

#![allow(dead_code)]

use sim::machine::unit_cost;
use sim::{ArrayInit, Fill, Machine, MemoryInit, Splitting};

/// 64 lanes, every instruction one cycle (the `pws` crate's unit cost).
pub fn unit64(splitting: Splitting) -> Machine {
    Machine {
        warp_size: 64,
        cores: 64,
        ls_units: 64,
        sfu_units: 64,
        splitting,
        ..unit_cost()
    }
}

/// Global memory of one array, `out`: 64 zero words at `address`.
pub fn out_memory(address: u64) -> MemoryInit {
    MemoryInit {
        arrays: vec![ArrayInit {
            name: "out".into(),
            address,
            words: 64,
            fill: Fill::Constant { value: 0 },
        }],
        open: None,
    }
}

/// `kernel` run on [`unit64`] without splitting under the default budget; panics on a
/// simulator error.
pub fn run_unit64(kernel: &str, launch: &sim::Launch, memory: &MemoryInit) -> sim::Simulation {
    sim::gcn::run_source(
        kernel,
        None,
        launch,
        &unit64(Splitting::None),
        memory,
        &sim::Budget::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"))
}
