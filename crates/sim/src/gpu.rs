//! Several streaming multiprocessors (issue #41 item 2): how many SMs a launch runs on and
//! how many of its blocks one SM holds at once.
//!
//! Why: a launch's time is that of its blocks spread over the GPU's SMs in waves, which the
//! `launch` bound claims to cover; this is the run it is checked against. What it is not: a
//! model of the memory system between the SMs. Global memory is one array every SM reads
//! and writes (a store is visible to every later access, in cycle order, then SM order
//! within a cycle), but an access's latency does not depend on what the other SMs do: no
//! shared bus, L2 or DRAM queue (each SM keeps its own L1, when the machine has one). The
//! bound makes the same assumption and says so.
//!
//! **The dispatcher.** At the start of every cycle, while blocks wait, the next block (in
//! block order) goes to an SM where it fits — its warps within `Machine::warps_per_sm` and
//! its blocks within [`Gpu::blocks_per_sm`] —, the one holding the fewest blocks, ties to
//! the lowest index (breadth first, as the hardware's work distributor spreads a grid; any
//! such choice is work-conserving: no SM that could take the waiting block is left without
//! it). A block's slot is freed when its last warp issues its last instruction, and the
//! next block is placed at the next cycle. Deterministic: the same launch, the same run.

/// The SMs a launch runs on (the one SM of every run before issue #41 by default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gpu {
    /// Streaming multiprocessors, each with the machine's warps, units, scheduler and L1
    /// (1 ..= [`Gpu::MAX_SMS`]).
    pub sms: u32,
    /// Most blocks resident on one SM at once (the occupancy calculators' answer, which the
    /// caller supplies so that `sim` needs no occupancy arithmetic); 0: only the warps limit
    /// (`Machine::warps_per_sm`).
    pub blocks_per_sm: u32,
}

impl Default for Gpu {
    fn default() -> Self {
        Gpu {
            sms: 1,
            blocks_per_sm: 0,
        }
    }
}

impl Gpu {
    /// Most SMs simulated (the largest GPUs of 2024 have 132–144).
    pub const MAX_SMS: u32 = 1024;

    /// One SM, no block limit: the setting of a plain run (not serialised, so that such a
    /// run's launch reads as it did before the field existed).
    pub fn is_one(&self) -> bool {
        *self == Gpu::default()
    }

    /// Checks the SM count; the message names the parameter.
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=Self::MAX_SMS).contains(&self.sms) {
            return Err(format!(
                "sms is {}: it must be between 1 and {}",
                self.sms,
                Self::MAX_SMS
            ));
        }
        Ok(())
    }

    /// Blocks of `warps_per_block` warps one SM holds at once on a machine of
    /// `warps_per_sm` warp slots.
    pub fn resident_per_sm(&self, warps_per_sm: u64, warps_per_block: u64) -> u64 {
        let by_warps = warps_per_sm / warps_per_block.max(1);
        match self.blocks_per_sm {
            0 => by_warps,
            b => by_warps.min(u64::from(b)),
        }
    }
}
