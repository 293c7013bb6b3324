//! A cycle-level SIMT simulator over the Warpbound IR (issue #7): it runs a SASS, PTX, GCN3
//! or L/C kernel for a launch (grid, block, parameters, global memory) on one streaming multiprocessor
//! and reports what happened — observed cycles, per-warp timelines, unit occupancy,
//! activation-stack depth, memory transactions, the final memory, and a step-by-step view of
//! one warp's divergence for teaching.
//!
//! What it is: the executions every bound of Warpbound is checked against. Its SASS control
//! semantics are those of `cfg::concrete` (Jeanmougin et al. §2): both run the one stack of
//! `cfg::activation_stack` (here with the Fermi–Pascal rules only: convergence barriers are not
//! simulated yet); its timing model is a plain-data [`Machine`] with named presets
//! ([`presets`]). Functional semantics (module `sass::semantics`, decoding in `sass::decode`) cover
//! Kepler–Pascal SASS:
//! - integer: `MOV`, `MOV32I`, `IADD` (`.X`, `.CC`), `IADD32I`, `ISUB`, `IADD3`, `ISCADD`,
//!   `ISCADD32I`, `IMAD`/`IMUL`/`IMUL32I`/`IMAD32I` (`.U32`/`.S32`, `.HI`, `.X`, `.CC`), `XMAD`
//!   (`.MRG`, `.PSL`, `.CBCC`, `.CHI`, `.H1` halves), `SHL`, `SHR` (`.U32`), `LOP`/`LOP32I`
//!   (`.AND`/`.OR`/`.XOR`/`.PASS_B`, `~` operands), `LOP3.LUT`, `SEL`, `IMNMX`;
//! - predicates: `ISETP`, `FSETP`, `DSETP` (comparison, `.AND`/`.OR`/`.XOR` with the combine
//!   predicate, two destinations), `PSETP`;
//! - floating point: `FADD`, `FMUL`, `FFMA` (and `32I` forms), `FMNMX` (`.FTZ`, `.SAT`),
//!   `DADD`, `DMUL`, `DFMA`, `DMNMX`, `I2F.F32` (`.S32`/`.U32`, `.RN`/`.RZ`/`.RM`/`.RP`),
//!   `F2I` (`.TRUNC`/`.FLOOR`/`.CEIL`), `F2F.F32.F64`/`F2F.F64.F32`;
//! - `S2R` of `SR_TID.*`, `SR_CTAID.*`, `SR_LANEID`; constant bank 0 (launch shape and
//!   parameters, see [`ConstantLayout`]);
//! - memory: `LDG`/`STG`/`LD`/`ST` (`.E` 64-bit addresses, sizes `.U8`…`.128`), `LDS`/`STS`;
//! - `NOP`, `MEMBAR`, `DEPBAR`, `BAR.SYNC`, and the control instructions `BRA` (`.U`), `SSY`,
//!   `PBK`, `PCNT`, `PRET`, `SYNC`, `BRK`, `CONT`, `EXIT`, `KIL`, `CAL`, `RET`, `.S` flags.
//!
//! - and the forms of real Kepler–Pascal listings (`sass::decode::kepler_pascal`): `LEA`,
//!   `BFE`, `BFI`, `ICMP`/`FCMP`, `ISET`/`FSET`, `I2I`, `I2F.F64`, `ISETP.X`, `IADD3.RS`,
//!   `LOP….NZ`, `SHF`, `SHFL`, `VOTE`, `MUFU`/`RRO`, `FCHK`, atomics and `RED`; sm_70+
//!   opcodes as listed in `sass::semantics`. `docs/simulator-coverage.md` has the table and
//!   the corpus numbers ([`sass_coverage`] measures them).
//! - 2D texture fetches and raw surface loads and stores (`TEXS`, `TEX`, `SULD.D`, `SUST.D`)
//!   under the documented model of [`texture`]: a handle is the address of a pitch-linear
//!   array of 32-bit texels whose size a [`TextureBinding`] gives; nearest-point, clamped.
//!
//! Anything else (an opcode, a modifier, an operand form, a constant bank other than 0, a
//! texture form outside that model) stops the run with a located "cannot simulate …" diagnostic at the instruction
//! — never a guess.
//!
//! PTX runs through [`run_ptx`] (module `ptx`: typed virtual registers, parameters from the
//! launch words, post-dominator reconvergence from [`reconvergence`], the same machine and
//! timing rules); L/C strings of the makespan paper through [`run_lc`] (module `lc`).
//!
//! GCN3 runs through [`gcn::run`] / [`gcn::run_source`] (module [`gcn`]: 64-wide wavefronts,
//! SGPRs/VGPRs and the kernel descriptor's initial state, exec-mask divergence without an
//! activation stack, the `gcn3` preset), optionally with dynamic or predictable wavefront
//! splitting ([`splitting`], selected by [`Machine::splitting`]).
//!
//! What it is not: a bound (an observed time is one execution, not the worst case), a
//! model of DRAM, L2, shared-memory bank conflicts, the texture cache or multiple SMs,
//! or a simulator of the `simd` and `pws-csv` inputs (refused with a diagnostic).
//! Like every analysis crate it does no I/O, reads no clock, and is deterministic: the same
//! request gives the same result, and every loop is bounded by a [`Budget`].

mod atomic_op;
mod bool_op;
pub mod budget;
mod canonical_nan;
pub mod coalescing;
mod comparison;
mod correctly_rounded;
mod cycle_loop;
pub mod error;
pub mod gcn;
pub mod gpu;
pub mod l1_cache;
mod lane_set;
pub mod launch;
mod lc;
pub mod loop_counts;
pub mod machine;
pub mod memory;
mod open_pages;
mod ptx;
pub mod reconvergence;
mod rounding;
mod sass;
mod scheduler;
pub mod simulation;
pub mod splitting;
mod step_cache;
pub mod texture;
pub mod thread_scheduling;
pub mod timing_classes;
mod timing_facts;

pub use budget::Budget;
pub use cycle_loop::loop_watch::WatchedLoop;
pub use error::SimError;
pub use gpu::Gpu;
use isa::progress::{self, Observer};
pub use launch::{ConstantLayout, Launch};
pub use machine::{presets, L1Config, Machine, Preset, Scheduler, Unit};
pub use memory::{ArrayInit, Fill, FinalArray, MemoryInit, SplitMix64};
pub use ptx::layout::{ModuleVariable, GENERIC_LOCAL_BASE, MODULE_VARIABLES_BASE};
pub use simulation::{
    BarrierView, Busy, CacheStats, DepthChange, GroupView, GroupsView, Issue, LaneMask,
    RegisterValues, Simulation, StackView, Step, Stepper, Transaction, UnitLane, WarpTimeline,
    MAX_STEPS_WITH_REGISTERS, MAX_STEP_REGISTERS,
};
pub use splitting::{SplitCosts, Splitting};
pub use texture::TextureBinding;
pub use thread_scheduling::ThreadScheduling;

/// Simulates `kernel` launched as `launch` on `machine`, global memory initialised from
/// `memory`, within `budget`.
///
/// # Errors
/// A [`SimError`] whose diagnostics locate the cause: an instruction without semantics
/// ("cannot simulate …", at the instruction's span), a memory access outside the arrays, a
/// warp falling off the end of the kernel, an invalid machine or launch, or an exhausted
/// budget (the message names it).
pub fn run(
    kernel: &isa::Kernel,
    launch: &Launch,
    machine: &Machine,
    memory: &MemoryInit,
    budget: &Budget,
) -> Result<Simulation, SimError> {
    run_observed(kernel, launch, machine, memory, budget, &progress::silent)
}

/// [`run`], telling `observer` every 65 536 warp-instructions how many have issued (of
/// `max_steps`) and the cycle reached, a lower bound on the run's cycles
/// ([`isa::Task::Simulation`]). The run does not depend on the observer.
///
/// # Errors
/// As [`run`].
pub fn run_observed(
    kernel: &isa::Kernel,
    launch: &Launch,
    machine: &Machine,
    memory: &MemoryInit,
    budget: &Budget,
    observer: Observer,
) -> Result<Simulation, SimError> {
    match kernel.dialect {
        // PTX and L/C do not lower to `isa::Kernel`: they run from their own typed forms.
        isa::Dialect::Ptx => Err(SimError::request(
            "a PTX kernel is simulated from its parsed function: use sim::run_ptx",
        )),
        isa::Dialect::Lc => Err(SimError::request(
            "an L/C string is simulated from its instructions: use sim::run_lc",
        )),
        _ => {
            let req = cycle_loop::Request::new(launch, machine, memory, budget, observer);
            if kernel.dialect == isa::Dialect::Gcn {
                gcn::run_kernel(kernel, &req)
            } else {
                sass::run(kernel, &req)
            }
        }
    }
}

/// The instructions of the SASS `kernel` that the simulator cannot run under `launch`, each
/// with the located "cannot simulate …" diagnostic a warp reaching it would stop with
/// (decoding is static: it needs the launch only for constant bank 0). Empty: every
/// instruction has semantics. Used to measure the simulator's coverage of real listings
/// (`tests/corpus_decode.rs`, `docs/simulator-coverage.md`); it runs nothing.
pub fn sass_coverage(kernel: &isa::Kernel, launch: &Launch) -> Vec<(isa::Span, String)> {
    sass::undecodable(kernel, launch)
}

/// Simulates the PTX kernel `function` (from [`isa::ptx::parse`]) launched as `launch`:
/// parameters are `launch.params` laid out in declaration order at their alignment (a
/// 64-bit pointer is two words, low first), `.shared` variables from shared address 0 (the
/// launch's `shared_bytes` is extra dynamic shared memory after them); divergent branches
/// reconverge at their immediate post-dominator (PDOM stack). See the `ptx` module docs.
///
/// # Errors
/// As [`run`]: "cannot simulate OPCODE: why" at the first instruction without semantics a
/// warp reaches, memory faults, missing parameters, invalid launches, exhausted budgets.
pub fn run_ptx(
    function: &isa::ptx::Function,
    launch: &Launch,
    machine: &Machine,
    memory: &MemoryInit,
    budget: &Budget,
) -> Result<Simulation, SimError> {
    run_ptx_observed(function, launch, machine, memory, budget, &progress::silent)
}

/// [`run_ptx`], telling `observer` how far the run is (as [`run_observed`]).
///
/// # Errors
/// As [`run_ptx`].
pub fn run_ptx_observed(
    function: &isa::ptx::Function,
    launch: &Launch,
    machine: &Machine,
    memory: &MemoryInit,
    budget: &Budget,
    observer: Observer,
) -> Result<Simulation, SimError> {
    let module = isa::ptx::Module {
        functions: vec![function.clone()],
        ..isa::ptx::Module::default()
    };
    run_ptx_in_module(&module, function, launch, machine, memory, budget, observer)
}

/// [`run_ptx_observed`] for `function` of `module`: calls to the module's functions run
/// inline (`ptx::inline`); the module's `.shared` variables the function names are laid out
/// with its own, and its `.global`, `.const` and `.texref` variables get addresses in global
/// memory and arrays there — or the request's array of the same name — holding their
/// initializers, or, without one, the words open memory reads (zeros in closed memory); see
/// [`ptx::layout`] and [`ptx_module_variables`].
///
/// # Errors
/// As [`run_ptx`].
pub fn run_ptx_in_module(
    module: &isa::ptx::Module,
    function: &isa::ptx::Function,
    launch: &Launch,
    machine: &Machine,
    memory: &MemoryInit,
    budget: &Budget,
    observer: Observer,
) -> Result<Simulation, SimError> {
    let req = cycle_loop::Request::new(launch, machine, memory, budget, observer);
    ptx::run(function, module, &req)
}

/// The module variables `function` (its inlined callees included) names and where a run on
/// `memory` places them ([`run_ptx_in_module`]): what a caller needs to bind texture
/// references, or to say which variables the host would have filled.
pub fn ptx_module_variables(
    module: &isa::ptx::Module,
    function: &isa::ptx::Function,
    memory: &MemoryInit,
) -> Vec<ModuleVariable> {
    let (f, _) = ptx::inline::expand(&module.functions, function);
    ptx::layout::module_variables(&module.globals, &f, memory)
}

/// Bytes of `function`'s statically sized shared variables (its own and the module-scope
/// ones it names), and whether it declares an unsized (`extern`) one, whose bytes come from
/// the launch's `shared_bytes`.
pub fn ptx_shared_bytes(module: &isa::ptx::Module, function: &isa::ptx::Function) -> (u64, bool) {
    let (f, _) = ptx::inline::expand(&module.functions, function);
    ptx::layout::shared_bytes(&module.globals, &f)
}

/// Simulates an L/C string (Berezovskyi et al. §3) written at `span`: every warp of the
/// launch runs the straight-line string, `L` on the load/store units, `C` on the cores, no
/// data effect. With [`machine::makespan`] this is the makespan paper's setting.
///
/// # Errors
/// Invalid machine or launch, or an exhausted budget.
pub fn run_lc(
    ops: &[isa::lc::LcOp],
    span: isa::Span,
    launch: &Launch,
    machine: &Machine,
    budget: &Budget,
) -> Result<Simulation, SimError> {
    lc::run(ops, span, launch, machine, budget, &progress::silent)
}

/// [`run_lc`], telling `observer` how far the run is (as [`run_observed`]).
///
/// # Errors
/// As [`run_lc`].
pub fn run_lc_observed(
    ops: &[isa::lc::LcOp],
    span: isa::Span,
    launch: &Launch,
    machine: &Machine,
    budget: &Budget,
    observer: Observer,
) -> Result<Simulation, SimError> {
    lc::run(ops, span, launch, machine, budget, observer)
}
