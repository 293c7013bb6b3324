//! Occupancy: how many thread blocks of a kernel one streaming multiprocessor (NVIDIA SM,
//! [`nvidia`]) or compute unit (AMD GCN3 CU, [`gcn`]) holds at once, which of its four
//! resources limits that number, and what change to the kernel or the launch gives one more
//! block (issue #41, item 1).
//!
//! The arithmetic is the occupancy calculators': NVIDIA's CUDA Occupancy Calculator
//! spreadsheet and `cudaOccupancyMaxActiveBlocksPerMultiprocessor`, and for GCN3 the wave
//! limits LLVM's AMDGPU back end uses for the `; Occupancy:` line it prints. A block is
//! resident when the SM has room for all of it at once: its warps (against the warp slots),
//! one block slot, its registers (each warp's registers rounded up to the allocation unit)
//! and its shared memory (rounded up to the allocation unit, plus what the driver reserves
//! per block). The number of resident blocks is the smallest of the four counts.
//!
//! What this crate is: plain arithmetic on numbers the caller supplies — per-architecture
//! limits as named presets, each figure cited where it is defined — with no I/O and no
//! dependency; the same input always gives the same answer. What it is not: a reader of
//! kernels (the registers and shared memory of a kernel come from `isa`, which says where
//! each figure came from), nor a model of what occupancy does to time. It knows nothing of
//! limits a launch may hit elsewhere (the stack a thread needs in local memory, the
//! per-kernel shared-memory opt-in a host program must make above 48 KiB): a figure past a
//! hard limit gives zero blocks, with the limit named.

pub mod gcn;
pub mod nvidia;
mod suggestions;

pub use gcn::CuLimits;
pub use nvidia::SmLimits;
pub use suggestions::{BlockSizeChange, CurvePoint, OneMoreBlock};

/// The four resources that bound the resident blocks, in the fixed order in which a tie is
/// reported ([`Occupancy::limited_by`] is the first binding one in this order; all of them
/// are in [`Occupancy::binding`]). The order is the issue's: warp slots, block slots,
/// registers, shared memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Limit {
    /// Warp (GCN3: wavefront) slots of the SM.
    Warps,
    /// Block (work-group) slots of the SM.
    Blocks,
    /// The register file (GCN3: VGPRs or SGPRs, whichever allows fewer work-groups).
    Registers,
    /// Shared memory (GCN3: the LDS).
    Shared,
}

impl Limit {
    /// Every limit in tie-breaking order.
    pub const ALL: [Limit; 4] = [Limit::Warps, Limit::Blocks, Limit::Registers, Limit::Shared];

    /// The name the report uses: `warps`, `blocks`, `registers`, `shared`.
    pub fn name(self) -> &'static str {
        match self {
            Limit::Warps => "warps",
            Limit::Blocks => "blocks",
            Limit::Registers => "registers",
            Limit::Shared => "shared",
        }
    }
}

/// What one block of the kernel asks of the SM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    /// Threads (work-items) per block.
    pub threads: u32,
    /// Registers per thread: NVIDIA's 32-bit registers (`EIATTR_REGCOUNT`); GCN3's VGPRs per
    /// work-item. 0 when the kernel uses none (the limit then does not apply).
    pub registers: u32,
    /// GCN3 only: SGPRs per wavefront, VCC and the other reserved ones included (the code
    /// object metadata's `.sgpr_count`). Not read on NVIDIA machines.
    pub scalar_registers: u32,
    /// Shared memory per block in bytes: static plus dynamic (GCN3: LDS per work-group).
    /// The per-block reservation of the driver is the machine's, not counted here.
    pub shared_bytes: u64,
}

/// How many blocks each resource alone allows. `None`: the kernel uses none of that
/// resource, so it sets no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerLimit {
    pub warps: u32,
    pub blocks: u32,
    /// NVIDIA: the register file; GCN3: the VGPRs.
    pub registers: Option<u32>,
    /// GCN3 only: the SGPRs (also counted as [`Limit::Registers`]).
    pub scalar_registers: Option<u32>,
    pub shared: Option<u32>,
}

impl PerLimit {
    /// The blocks `limit` allows (`None`: no limit from it).
    pub fn of(&self, limit: Limit) -> Option<u32> {
        match limit {
            Limit::Warps => Some(self.warps),
            Limit::Blocks => Some(self.blocks),
            Limit::Registers => match (self.registers, self.scalar_registers) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            Limit::Shared => self.shared,
        }
    }
}

/// The resident blocks of one kernel and launch on one SM.
#[derive(Debug, Clone, PartialEq)]
pub struct Occupancy {
    pub usage: Usage,
    /// Threads per warp (32) or wavefront (64).
    pub warp_size: u32,
    /// `ceil(threads / warp_size)`.
    pub warps_per_block: u32,
    pub blocks_per_sm: u32,
    /// `blocks_per_sm × warps_per_block`.
    pub warps_per_sm: u32,
    /// The SM's warp slots.
    pub max_warps_per_sm: u32,
    pub limits: PerLimit,
    /// Every limit that allows exactly `blocks_per_sm`, in [`Limit::ALL`] order.
    pub binding: Vec<Limit>,
    /// The first of `binding`.
    pub limited_by: Limit,
}

impl Occupancy {
    /// Resident warps over warp slots, 0 to 1.
    pub fn fraction(&self) -> f64 {
        if self.max_warps_per_sm == 0 {
            return 0.0;
        }
        f64::from(self.warps_per_sm) / f64::from(self.max_warps_per_sm)
    }

    /// The occupancy of a block of `usage` given the per-limit block counts: the smallest,
    /// and which limits reach it.
    fn from_limits(usage: Usage, warp_size: u32, max_warps: u32, limits: PerLimit) -> Self {
        let warps_per_block = usage.threads.div_ceil(warp_size);
        let blocks = Limit::ALL
            .iter()
            .filter_map(|&l| limits.of(l))
            .min()
            .unwrap_or(0);
        let binding: Vec<Limit> = Limit::ALL
            .into_iter()
            .filter(|&l| limits.of(l) == Some(blocks))
            .collect();
        Occupancy {
            usage,
            warp_size,
            warps_per_block,
            blocks_per_sm: blocks,
            warps_per_sm: blocks.saturating_mul(warps_per_block),
            max_warps_per_sm: max_warps,
            limits,
            limited_by: binding.first().copied().unwrap_or(Limit::Warps),
            binding,
        }
    }
}

/// A block the machine cannot take at all, whatever else it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsageError {
    /// No threads, or more than a block may have.
    BlockSize { threads: u32, max: u32 },
}

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UsageError::BlockSize { threads, max } => write!(
                f,
                "a block of {threads} threads: a block has 1 to {max} threads on this machine"
            ),
        }
    }
}

impl std::error::Error for UsageError {}

/// The machine a kernel runs on.
#[derive(Debug, Clone, PartialEq)]
pub enum Machine {
    Nvidia(SmLimits),
    Gcn3(CuLimits),
}

impl Machine {
    /// Threads per warp (wavefront).
    pub fn warp_size(&self) -> u32 {
        match self {
            Machine::Nvidia(m) => m.warp_size,
            Machine::Gcn3(m) => m.wave_size,
        }
    }

    /// Most threads in one block.
    pub fn max_threads_per_block(&self) -> u32 {
        match self {
            Machine::Nvidia(m) => m.max_threads_per_block,
            Machine::Gcn3(m) => m.max_threads_per_workgroup,
        }
    }

    /// The resident blocks of a block of `usage`.
    pub fn occupancy(&self, usage: &Usage) -> Result<Occupancy, UsageError> {
        let max = self.max_threads_per_block();
        if usage.threads == 0 || usage.threads > max {
            return Err(UsageError::BlockSize {
                threads: usage.threads,
                max,
            });
        }
        Ok(match self {
            Machine::Nvidia(m) => {
                Occupancy::from_limits(*usage, m.warp_size, m.max_warps_per_sm, m.per_limit(usage))
            }
            Machine::Gcn3(m) => Occupancy::from_limits(
                *usage,
                m.wave_size,
                m.max_waves_per_cu(),
                m.per_limit(usage),
            ),
        })
    }
}

/// Everything the report shows: the occupancy, what gives one more block, and the curve of
/// resident warps against block size.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    pub occupancy: Occupancy,
    pub one_more_block: OneMoreBlock,
    pub curve: Vec<CurvePoint>,
}

/// The occupancy of `usage` on `machine`, what gives one more block, and the curve.
pub fn analyse(machine: &Machine, usage: &Usage) -> Result<Analysis, UsageError> {
    let occupancy = machine.occupancy(usage)?;
    Ok(Analysis {
        one_more_block: suggestions::one_more_block(machine, &occupancy),
        curve: suggestions::curve(machine, usage),
        occupancy,
    })
}

/// `x` rounded up to a multiple of `unit` (`unit` 0: `x`), saturating.
pub(crate) fn round_up(x: u64, unit: u64) -> u64 {
    if unit == 0 {
        return x;
    }
    x.div_ceil(unit).saturating_mul(unit)
}

/// `a / b` rounded down, as a block count (`b` 0: no limit, `u32::MAX`).
pub(crate) fn count(a: u64, b: u64) -> u32 {
    a.checked_div(b)
        .map_or(u32::MAX, |q| u32::try_from(q).unwrap_or(u32::MAX))
}
