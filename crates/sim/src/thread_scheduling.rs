//! How a diverged SASS warp chooses which of its paths issues (issue #23 item 5): in the
//! stack order the warp-level CFG follows (the activation stack of
//! `cfg::activation_stack`, the default and the only order before Volta), or under
//! independent thread scheduling (ITS, sm_70 and later), where the warp is a set of thread
//! groups that may interleave at every instruction and reconverge only at `BSYNC` and
//! `WARPSYNC`. The ITS rules are `cfg::thread_groups` — the same ones the analysis's oracle
//! (`cfg::interleaving`) runs — so that a simulated warp and the oracle can only differ in
//! their data, never in what a schedule may do.
//!
//! The scheduler picks the group once per issue, right after the previous one: the chosen
//! group issues next even when another group's operands would be ready sooner. NVIDIA does
//! not document the hardware's choice (Volta whitepaper, §"Independent Thread Scheduling":
//! "the scheduler … can yield execution of any thread"), so every choice here is one it may
//! make: a bound that holds for the warp-level CFG's stack order is checked against them.

/// The order in which a diverged warp's paths issue.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ThreadScheduling {
    /// One path at a time, the activation stack's order (Fermi to Pascal, and the order the
    /// warp-level CFG of sm_70+ assumes).
    #[default]
    StackOrder,
    /// ITS, one instruction of each runnable group in turn (`cfg` `Scheduler::RoundRobin`).
    RoundRobin,
    /// ITS, the newest group first: depth first, close to the stack order.
    Newest,
    /// ITS, a pseudo-random runnable group at every instruction, from this seed.
    Random(u64),
}

impl ThreadScheduling {
    /// The `cfg` scheduler of an ITS order, `None` for the stack order.
    pub fn its(self) -> Option<cfg::interleaving::Scheduler> {
        use cfg::interleaving::Scheduler;
        match self {
            ThreadScheduling::StackOrder => None,
            ThreadScheduling::RoundRobin => Some(Scheduler::RoundRobin),
            ThreadScheduling::Newest => Some(Scheduler::Newest),
            ThreadScheduling::Random(seed) => Some(Scheduler::Random(seed)),
        }
    }
}
