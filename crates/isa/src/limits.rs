//! Parser budgets.

/// Explicit budgets for parsing and graph building, so hostile input cannot exhaust memory or
/// time. Hitting one is an error diagnostic naming the budget and the parameter that raises it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted input text, in bytes (parameter `max_input_bytes`). The whole file
    /// counts, not the selected function: a `cuobjdump -sass` of one CUDA source holds every
    /// instantiated kernel (the cuda-samples `reduction` listing is 5.4–6.0 MB on sm_70–sm_90
    /// for 213 kernels), so the default leaves room for such listings; parsing is linear.
    pub max_input_bytes: usize,
    /// Most instructions accepted in one file (parameter `max_instructions`).
    pub max_instructions: usize,
    /// Most (block, reconvergence stack) states explored when resolving SYNC/BRK/RET
    /// targets in the thread-level CFG (parameter `max_cfg_states`). Every corpus kernel needs
    /// fewer than 500; hostile text that keeps pushing distinct entries reaches the default in
    /// about 0.1 s (found by fuzzing: 200 000 took 0.4 s natively and 3 s under ASan).
    pub max_cfg_states: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_input_bytes: 32 << 20,
            max_instructions: 100_000,
            max_cfg_states: 50_000,
        }
    }
}
