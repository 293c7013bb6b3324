//! The wire form of the `block` crate's results: the block bound with each warp's share and
//! the rule it comes from, the barrier phases, and why barriers keep the serialised bound.
//! Owned here so a rename inside the method crate cannot change what the page reads.

use serde::Serialize;
use ts_rs::TS;

/// The block's bound and how it was made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct BlockBoundView {
    /// Cycles until the last warp finishes, at most.
    pub cycles: u64,
    /// The argument it comes from: `response_time`, `serialised`, `barrier_phases`,
    /// `unit_response_time` or `exact_makespan` (`block::Rule`).
    pub rule: &'static str,
    pub warps: Vec<WarpShareView>,
    /// The warp whose response time is the bound.
    pub critical: usize,
    /// `cycles` minus the critical warp's isolated time.
    pub contention: u64,
    /// `Σ_w C_w`: the warps one after the other.
    pub serialised: u64,
}

/// One warp's share of the block bound: its isolated time, what the others can take from
/// it, and when it has finished at the latest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct WarpShareView {
    pub warp: usize,
    pub isolated: u64,
    pub interference: u64,
    pub response: u64,
}

impl From<&block::BlockBound> for BlockBoundView {
    fn from(b: &block::BlockBound) -> Self {
        Self {
            cycles: b.cycles,
            rule: match b.rule {
                block::Rule::ResponseTime => "response_time",
                block::Rule::Serialised => "serialised",
                block::Rule::BarrierPhases => "barrier_phases",
                block::Rule::UnitResponseTime => "unit_response_time",
                block::Rule::ExactMakespan => "exact_makespan",
            },
            warps: b
                .warps
                .iter()
                .map(|w| WarpShareView {
                    warp: w.warp,
                    isolated: w.isolated,
                    interference: w.interference,
                    response: w.response,
                })
                .collect(),
            critical: b.critical,
            contention: b.contention,
            serialised: b.serialised,
        }
    }
}

/// The kernel's barriers when every warp passes them alike: `P` (the instances a warp
/// passes), the carry term `Σ_b P_b·λ_b`, and each barrier.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct BarrierPhasesView {
    pub instances: u64,
    pub carry: u64,
    pub barriers: Vec<PhaseBarrierView>,
}

/// One barrier: its address, the headers of the loops around it (outermost first), how many
/// times a warp passes it at most, and `λ_b`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct PhaseBarrierView {
    pub address: u64,
    pub loops: Vec<u64>,
    pub instances: u64,
    pub lambda: u64,
}

impl From<&block::BarrierPhases> for BarrierPhasesView {
    fn from(p: &block::BarrierPhases) -> Self {
        Self {
            instances: p.instances,
            carry: p.carry,
            barriers: p
                .barriers
                .iter()
                .map(|b| PhaseBarrierView {
                    address: b.address,
                    loops: b.loops.clone(),
                    instances: b.instances,
                    lambda: b.lambda,
                })
                .collect(),
        }
    }
}

/// Why barriers keep the serialised bound: the first premise of the barrier-phase rule that
/// fails, with the places in the listing (`kind` names the premise).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SerialisedView {
    /// Premise 1: no call or indirect jump (the one at `address`).
    Call { address: u64 },
    /// Premise 2: every barrier an unguarded `BAR.SYNC 0` (not the one at `address`).
    Form { address: u64 },
    /// Premise 3: no irreducible region (one starts at `address`).
    Irreducible { address: u64 },
    /// Premise 4: the branch at `branch` may split the block before the barrier at `barrier`.
    Split { barrier: u64, branch: u64 },
    /// Premise 4: threads may end at `exit` while others go on to the barrier at `barrier`.
    Exit { barrier: u64, exit: u64 },
    /// Premise 5: the loop at `header` around the barrier at `barrier` has no bound.
    Unbounded { barrier: u64, header: u64 },
}

impl From<&block::Serialised> for SerialisedView {
    fn from(s: &block::Serialised) -> Self {
        use block::Serialised as S;
        match *s {
            S::Call { address } => Self::Call { address },
            S::Form { address } => Self::Form { address },
            S::Irreducible { address } => Self::Irreducible { address },
            S::Split { branch, barrier } => Self::Split { barrier, branch },
            S::Exit { exit, barrier } => Self::Exit { barrier, exit },
            S::Unbounded { barrier, header } => Self::Unbounded { barrier, header },
        }
    }
}
