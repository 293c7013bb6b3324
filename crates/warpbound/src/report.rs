//! What comes back: the report and its views.
//!
//! Every mode fills the same [`Report`]: diagnostics, the parsed kernel, a control-flow graph
//! with its drawing, the parameters it ran with (and where each value came from), and for
//! bounding modes `wcet.cycles` plus details under a key named after the mode. Views are
//! flat, JSON-friendly copies of the analysis results; the page renders them and computes
//! nothing of its own — verdicts such as "the observed run stays within the bound"
//! ([`SimulationReport::holds`]) are decided here.

use crate::dialect::Dialect;
use crate::views::diagnostics::Diagnostic;
use crate::views::dialect_marks::{DialectGuess, SourceMark};
use crate::views::drawing::Layout;
use crate::views::instruction_parts::{ControlBits, FunctionResources, ResourceClass};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use ts_rs::TS;

pub use crate::views::sim_parts::{SimBound, SimulationReport};

/// The result of one request.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct Report {
    pub schema_version: u32,
    /// The mode that ran, by its current name (a request may use a former name).
    pub mode: String,
    pub dialect: Dialect,
    /// The hardware preset the parameters started from: the request's, or the mode's default
    /// for the dialect (see `ModeInfo::default_presets`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// Every parameter of the mode with the value the analysis used and where it came from,
    /// in the catalogue's order (empty when the mode is unknown).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<ResolvedParam>,
    /// Sorted by line, then column; request-level diagnostics (line 0) first.
    pub diagnostics: Vec<Diagnostic>,
    /// When the text did not parse in the requested dialect but looks like another one: that
    /// dialect and the mark that shows it (`isa::dialect_guess`), so the page can offer the
    /// switch and the CLI can name the `--dialect` to pass.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub dialect_hint: Option<DialectGuess>,
    /// When the text did not parse and is CUDA C++ source (`isa::dialect_guess::cuda_source`):
    /// the mark that shows it. Its parse errors are replaced by one error saying how to get
    /// SASS or PTX from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub cuda_source: Option<SourceMark>,
    pub kernel: Option<KernelView>,
    pub cfg: Option<CfgView>,
    /// The main bound of a bounding mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wcet: Option<Wcet>,
    /// A schedule to draw as a Gantt chart (modes that produce one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<ScheduleView>,
    /// Line charts (modes that produce them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plots: Vec<PlotView>,
    /// The kernel's arguments (PTX launch parameters) the analysis used, each with where it
    /// came from: the request's `params`, or chosen automatically (`params=auto`) — `rr`,
    /// and `simulate` on PTX.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<KernelArguments>,
    /// A simulator run (`simulate` mode, or `simulate=true` next to a bound): the `sim`
    /// crate's result — `cycles`, `issued`, per-warp timelines, unit occupancy, memory
    /// transactions, the final memory and the stepper's steps — with the bound it is checked
    /// against and the verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub simulation: Option<SimulationReport>,
    /// The program's loops and the bound each was analysed with, where it came from and why
    /// (bounding modes: `warp-cfg`, `block`, `pws`, `rr`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub loop_bounds: Vec<LoopBoundRow>,
    /// The kernel's occupancy at the block size analysed: resident blocks and warps per SM,
    /// the limit that binds, what gives one more block (modes that take a block: `block`,
    /// `pws` on GCN3; issue #41).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub occupancy: Option<crate::views::occupancy::OccupancyView>,
    /// Wall-clock time of each stage, in milliseconds (`parse`, `cfg`, `layout`, `total`).
    pub timings_ms: BTreeMap<String, f64>,
    /// What only the mode that ran reports, under the mode's name (`details.pws`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<Details>,
}

/// The details of one mode: an object with one key, the mode's name, so a reader finds every
/// mode's own part in one place and a report holds at most one (schema version 2; version 1
/// had one top-level key per mode). Tagged outside the details, not by a field inside them:
/// `pws` details have a `mode` of their own (the splitting mode).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum Details {
    /// `warp-cfg`: the warp-level CFG's size, its loops, the IPET solution's cost terms.
    WarpCfg(Box<WarpCfgDetails>),
    /// `block`: the bound of one thread block, with the warp-level details of its warps.
    Block(Box<BlockDetails>),
    /// `makespan` (Berezovskyi et al.).
    Makespan(Box<MakespanDetails>),
    /// `simd` (Sim-D, Spliet & Mullins).
    Simd(Box<SimdDetails>),
    /// `pws` (Klashtorny et al.).
    Pws(Box<crate::views::pws_parts::PwsView>),
    /// `rr` (Huangfu).
    Rr(Box<crate::views::rr_parts::RrView>),
    /// `launch`: the bound of a whole grid on a GPU's SMs.
    Launch(Box<crate::views::launch_parts::LaunchDetails>),
}

/// `simd` details: the phase analysis and, with `simulate=true`, an execution of the launch.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct SimdDetails {
    /// The phase analysis (Sim-D §5), its fields at the top level of `details.simd`.
    #[serde(flatten)]
    #[ts(flatten)]
    pub analysis: crate::views::simd_parts::SimdAnalysis,
    /// `simulate=true`: an execution under the chosen scheduler (`phases::execution`,
    /// Sim-D §4, Fig. 4, Fig. 7), with its Gantt chart on the worst case's time axis.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution: Option<SimdExecutionReport>,
}

impl Report {
    /// The `warp-cfg` details: the mode's own, or those of the warps of a `block` run.
    pub fn warp_cfg(&self) -> Option<&WarpCfgDetails> {
        match self.details.as_ref()? {
            Details::WarpCfg(d) => Some(d.as_ref()),
            Details::Block(b) => b.warp_cfg.as_deref(),
            Details::Launch(l) => l.warp_cfg.as_deref(),
            _ => None,
        }
    }

    /// The `block` details.
    pub fn block(&self) -> Option<&BlockDetails> {
        match self.details.as_ref()? {
            Details::Block(d) => Some(d.as_ref()),
            _ => None,
        }
    }

    /// The `launch` details.
    pub fn launch(&self) -> Option<&crate::views::launch_parts::LaunchDetails> {
        match self.details.as_ref()? {
            Details::Launch(d) => Some(d.as_ref()),
            _ => None,
        }
    }

    /// The `makespan` details.
    pub fn makespan(&self) -> Option<&MakespanDetails> {
        match self.details.as_ref()? {
            Details::Makespan(d) => Some(d.as_ref()),
            _ => None,
        }
    }

    /// The `simd` details.
    pub fn simd(&self) -> Option<&SimdDetails> {
        match self.details.as_ref()? {
            Details::Simd(d) => Some(d.as_ref()),
            _ => None,
        }
    }

    /// The `pws` details.
    pub fn pws(&self) -> Option<&crate::views::pws_parts::PwsView> {
        match self.details.as_ref()? {
            Details::Pws(d) => Some(d.as_ref()),
            _ => None,
        }
    }

    /// The `rr` details.
    pub fn rr(&self) -> Option<&crate::views::rr_parts::RrView> {
        match self.details.as_ref()? {
            Details::Rr(d) => Some(d.as_ref()),
            _ => None,
        }
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Adds diagnostics found before the request existed (the CLI's decoding of a file that is
    /// not UTF-8, [`isa::source_text::decode`]) in the report's order: by line and column.
    pub fn add_diagnostics(&mut self, more: impl IntoIterator<Item = isa::Diagnostic>) {
        self.diagnostics
            .extend(more.into_iter().map(Diagnostic::from));
        self.diagnostics
            .sort_by_key(|d| (d.line, d.column, d.severity));
        self.diagnostics.dedup();
    }
}

/// Where a parameter's value came from: what the page marks next to each field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ParamSource {
    /// The request set it (`params`, `--set`).
    Request,
    /// The preset set it (the request's, or the mode's default for the dialect).
    Preset,
    /// The catalogue default.
    Default,
}

/// One parameter as the analysis used it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ResolvedParam {
    pub name: String,
    /// A number, `true`/`false`, or text (choices and text parameters).
    pub value: serde_json::Value,
    pub source: ParamSource,
}

/// Where a kernel argument's value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ArgumentSource {
    /// The request's `params`.
    Request,
    /// Chosen automatically (`params=auto`, the request gave none).
    Auto,
}

/// What a kernel argument is, which decides its automatic value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ArgumentKind {
    /// A 64-bit parameter the kernel uses as an address.
    Pointer,
    Integer,
    Float,
    /// A by-value struct (`.b8 p[16]`).
    Bytes,
}

/// One kernel argument as the analysis used it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct KernelArgument {
    /// The parameter's name in the PTX.
    pub name: String,
    /// Its PTX type as declared, e.g. `.u64`, `.f32`, `.b8[16]`.
    #[serde(rename = "type")]
    pub ty: String,
    pub kind: ArgumentKind,
    /// The value: a number (a pointer is its byte address), or a struct's bytes.
    pub value: serde_json::Value,
    /// The value as the `params` text writes it (pointers in hex).
    pub text: String,
    pub source: ArgumentSource,
}

/// The kernel's arguments and the `params` text that gives them (what the page copies into
/// its `params` field to edit them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct KernelArguments {
    pub values: Vec<KernelArgument>,
    pub params: String,
    /// With automatic memory (`params` and `memory` both left empty): the `memory` text of
    /// the buffers made for the pointers, at the sizes the run needed (they grow on demand),
    /// so the page can copy it into its `memory` field to edit it. Empty otherwise.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub memory: String,
    /// With automatic parameters and no `textures` given: the `textures` text binding each
    /// texture or surface parameter (`sim::texture`'s model), for the page to copy into its
    /// `textures` field. Empty otherwise.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub textures: String,
    /// With automatic memory: the instructions whose accesses fell outside every pointer's
    /// array (`crate::auto_memory`), where real data would be needed. Empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outside: Vec<OutsideAccess>,
}

/// One instruction's accesses outside every array of an automatic launch's memory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OutsideAccess {
    /// Its source line and address (GCN3: its instruction index).
    pub line: u32,
    pub instruction_address: u64,
    /// Lowest address and end (one past the highest byte) of its accesses there.
    pub lowest: u64,
    pub end: u64,
    /// Lane accesses, of `bytes` bytes each.
    pub count: u64,
    pub bytes: u64,
    /// Some were stores.
    pub write: bool,
    /// Some were misaligned (served at the aligned address).
    pub misaligned: bool,
}

/// The parsed kernel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct KernelView {
    pub function: String,
    /// All functions found in the text (the request may name any of them).
    pub functions: Vec<String>,
    pub arch: Option<String>,
    pub instructions: Vec<InstructionView>,
    /// What the cubin declares for the function (registers, static shared memory, constant
    /// bank 0, stack), when the text is a whole `nvdisasm` dump (SASS only): shown with the
    /// table so an occupancy estimate can start from it; no bound uses it yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub resources: Option<FunctionResources>,
}

/// One instruction, flattened for tables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct InstructionView {
    pub index: usize,
    pub address: u64,
    pub line: u32,
    pub column: u32,
    /// Instruction text as written (guard, opcode, operands).
    pub text: String,
    pub guard: Option<String>,
    /// Full mnemonic with modifiers, e.g. `ISETP.GE.AND`.
    pub opcode: String,
    pub operands: Vec<String>,
    pub reads: Vec<String>,
    pub writes: Vec<String>,
    /// Control-flow kind: `fallthrough`, `branch`, `ssy`, `pbk`, `sync`, `brk`, `exit`, ...
    pub control: String,
    pub target: Option<u64>,
    pub class: ResourceClass,
    /// Block of the CFG holding the instruction (absent when no CFG was built).
    pub block: Option<usize>,
    /// SASS scheduling control bits (Maxwell to Hopper: stall, yield hint, barriers, wait
    /// mask, reuse flags), when the listing carries the encoding or a CuAssembler code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub control_bits: Option<ControlBits>,
}

/// One instruction of a kernel as the makespan model sees it: its letter in the L/C string
/// it was reduced to. `address` is the listing's byte address for SASS, GPGPU-Sim's program
/// counter (8 bytes per instruction) for PTX, and the instruction's index for GCN3 (within
/// its function) and Sim-D (in `.text`); `line` is 1-based.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct MappedInstruction {
    pub address: u64,
    pub line: u32,
    pub text: String,
    pub unit: String,
}

/// What the mode reports under `makespan`.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct MakespanDetails {
    pub warps: u32,
    pub ls_units: u32,
    pub cores: u32,
    pub warp_size: u32,
    /// The string as given (or reduced from SASS) and after the sigma transformation (§3).
    pub original: String,
    pub transformed: String,
    pub sigma_l: u32,
    pub sigma_c: u32,
    /// Eq. 5–7.
    pub pessimistic: u64,
    /// A bound that holds for every σ (`makespan::safe_bound`): equal to Eq. 5–7 when
    /// σ_L = σ_C = 1; `wcet.cycles` when there is no exact value.
    pub safe_bound: u64,
    /// Exact worst case over all work-conserving schedules, when computed.
    pub exact: Option<u64>,
    /// How `exact` was computed: `search` (state search) or `ilp-short`/`ilp-long` (Fig. 3).
    pub method: String,
    /// T(W, x) of Eq. 42–43, when asked for (`estimate_x` > 0).
    pub estimate: Option<crate::views::makespan_parts::EstimateView>,
    /// The witness schedule of `exact`.
    pub schedule: Vec<crate::views::makespan_parts::SlotView>,
    /// For kernel input (SASS, PTX, GCN3, Sim-D): which instruction of the straight-line
    /// path became which unit, in path order. Empty for an L/C string.
    pub mapping: Vec<MappedInstruction>,
    /// The paper's ILP (Fig. 3) as a CPLEX LP file, when asked for (`ilp_export`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ilp: Option<IlpExport>,
    /// What solving the ILP took, when `method` is `ilp-short` or `ilp-long`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ilp_solve: Option<crate::views::makespan_parts::IlpSolveView>,
}

/// The ILP of Fig. 3 for this instance, written for an external MILP solver.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct IlpExport {
    /// `short` (Eq. 34/37) or `long` (Eq. 33/36) work-conserving constraints.
    pub variant: String,
    pub variables: usize,
    pub constraints: usize,
    /// The model in CPLEX LP format (`makespan::IlpModel::lp_text`).
    pub lp: String,
}

/// Lanes × cycles: what the page's Gantt chart draws.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ScheduleView {
    pub cycles: u64,
    /// Lane names, e.g. `L0`, `C0`, `C1`.
    pub lanes: Vec<String>,
    pub items: Vec<ScheduleItem>,
    /// What `group` numbers (e.g. `warp`).
    pub group_name: String,
    /// A name per group number when groups are categories rather than warps.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub group_labels: Vec<String>,
}

/// One box of the Gantt chart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ScheduleItem {
    pub lane: usize,
    pub start: u64,
    pub length: u64,
    pub group: u32,
    pub label: String,
}

/// A line chart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct PlotView {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Series>,
}

/// One line of a chart; `style` is `line` or `dashed`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct Series {
    pub name: String,
    pub style: String,
    pub points: Vec<[f64; 2]>,
}

/// A WCET bound.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct Wcet {
    /// The bound, in cycles of the cost model.
    pub cycles: u64,
    pub cost_model: String,
    /// The loops whose bound the WCET rests on without the code or the request giving it:
    /// `default_loop_bound` (an assumption) or `loop_bounds=observed` (one run's count).
    /// Empty (and absent from the JSON) when every loop bound is inferred or given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assumed_loop_bounds: Vec<AssumedLoopBound>,
}

impl Wcet {
    /// A bound with no assumed loop bound (the facade adds those from the mode's loops).
    pub fn new(cycles: u64, cost_model: impl Into<String>) -> Self {
        Wcet {
            cycles,
            cost_model: cost_model.into(),
            assumed_loop_bounds: Vec::new(),
        }
    }
}

/// A loop bound the WCET assumes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct AssumedLoopBound {
    /// The header's key (`0x100`, `$L__BB0_3`, `BB0_7`).
    pub header: String,
    pub line: u32,
    pub bound: u64,
    /// `default` or `observed`.
    pub from: String,
}

/// One loop of the program (the thread-level CFG) and the bound the mode analysed it with:
/// the report's loop table for every bounding mode (`warp-cfg`, `block`, `pws`, `rr`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct LoopBoundRow {
    /// The header's key, as `loop_bounds` takes it (`0x100`, `$L__BB0_3`, `BB0_7`).
    pub header: String,
    pub line: u32,
    /// The bound applied (header runs per thread and per entry); absent when the loop has
    /// none (no inferred or given bound and `default_loop_bound` 0: an error).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<u64>,
    /// `inferred` (from the code), `given` (the request's `loop_bounds`), `observed`
    /// (`loop_bounds=observed`) or `default` (`default_loop_bound`, an assumption).
    pub bound_from: String,
    /// Why: the inferred bound's induction variable and exit, or why the code gives none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The bound the code gives, also when a smaller given bound is used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inferred: Option<u64>,
    /// The inferred count as a formula of the parameters and launch dimensions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formula: Option<String>,
}

/// One loop of the analysed graph, with the bound applied.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct LoopView {
    /// Graph node of the header.
    pub header: usize,
    /// Address and source line of the header block: what `loop_bounds` keys on.
    pub address: u64,
    pub line: u32,
    /// The header's label (PTX), which `loop_bounds` also accepts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    pub bound: u64,
    /// `inferred` (from the code), `given` (from `loop_bounds`), `observed`
    /// (`loop_bounds=observed`) or `default` (`default_loop_bound`, an assumption).
    pub bound_from: String,
    /// Why: the inferred bound's induction variable and exit, or why the code gives none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub irreducible: bool,
    pub depth: usize,
    pub nodes: Vec<usize>,
}

/// One term of the WCET: a node's worst-case count times its cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct CostTerm {
    pub node: usize,
    pub address: u64,
    pub count: u64,
    pub cost: u64,
    pub total: u64,
}

/// What the `block` mode found: the thread block's bound and its parts (crate `block`).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct BlockDetails {
    /// The block's bound (= `wcet.cycles`).
    pub wcet: u64,
    /// Warps in the block: threads / warp size, rounded up.
    pub warps: usize,
    pub threads: u64,
    /// One warp's warp-CFG bound under the cost model (its time in isolation).
    pub warp_wcet: u64,
    /// One warp's warp-CFG bound under cost `unit`: the warp-instructions it issues at most.
    pub warp_issues: u64,
    /// Whether the kernel synchronises at barriers (then the bound is the serialised one,
    /// unless every warp passes them alike: `barrier_phases`).
    pub barriers: bool,
    /// When every warp passes the barriers the same number of times, in the same order:
    /// each barrier with the loops around it and `P`, the instances a warp passes at most
    /// (`block::barrier_phases`; the bound is per phase when that is below serialising).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub barrier_phases: Option<crate::views::block_parts::BarrierPhasesView>,
    /// When the barriers keep the serialised bound because a premise of the per-phase rule
    /// fails: the first that does (`block::Serialised`, its place in the listing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serialised_because: Option<crate::views::block_parts::SerialisedView>,
    /// The response-time bound, per warp, the critical warp and the contention term.
    pub bound: crate::views::block_parts::BlockBoundView,
    /// The schedulers the simulator ran the block under (`any`: lrr and gto).
    pub scheduler: String,
    /// The SM model: `issue-slot` (one warp-instruction per cycle, the cost model's
    /// latencies) or `makespan` (Berezovskyi et al.'s unit machine).
    pub sm: String,
    /// One entry per simulated scheduler: the observed cycles and whether the bound held.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<BlockRun>,
    /// The bound for 1, 2, … warps of this kernel, and what was observed for as many as
    /// were simulated.
    pub growth: Vec<BlockGrowth>,
    /// The one-warp analysis (warp-level CFG, loops, cost breakdown), as `warp-cfg`
    /// reports it.
    #[serde(rename = "warp-cfg", default, skip_serializing_if = "Option::is_none")]
    pub warp_cfg: Option<Box<WarpCfgDetails>>,
}

/// One simulated execution of the block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct BlockRun {
    pub scheduler: String,
    pub cycles: u64,
    /// The warp that finished last.
    pub last_warp: usize,
    pub holds: bool,
}

/// The bound (and the serialised bound, and a run when made) for `warps` warps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct BlockGrowth {
    pub warps: usize,
    pub bound: u64,
    pub serialised: u64,
    /// `sm=makespan` on straight-line code: the exact worst-case makespan (up to 8 warps).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed: Option<u64>,
}

/// What the `warp-cfg` mode found besides the bound.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct WarpCfgDetails {
    /// Abstract states (graph nodes, the exit node excluded).
    pub states: usize,
    pub divergence_edges: usize,
    pub loops: Vec<LoopView>,
    /// Nodes on the worst-case path with their contribution, largest first.
    pub breakdown: Vec<CostTerm>,
    /// The analysis components that were on (`agreement`, `pending_agreement`, `groups`,
    /// `cyclic_stacks`).
    pub components: BTreeMap<String, bool>,
    /// ILP size and effort.
    pub ilp_variables: usize,
    pub ilp_constraints: usize,
    pub branch_and_bound_nodes: usize,
    /// LP relaxation optimum (an upper bound on `wcet.cycles`).
    pub lp_bound: f64,
    /// PTX: the branches whose lanes may disagree, found by the divergence analysis (SASS
    /// leaves it empty: there the abstract interpretation decides per context).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub divergent_branches: Vec<DivergentBranch>,
    /// SASS with `its` set: one warp under independent thread scheduling next to the stack
    /// order (`cfg::interleaving`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interleaving: Option<InterleavingView>,
}

/// One warp run under independent thread scheduling, next to the stack order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct InterleavingView {
    /// `round-robin`, `newest` or `random:SEED`.
    pub scheduler: String,
    /// `finished`, or why the run stopped (a step limit, a deadlock, something not modelled).
    pub outcome: String,
    pub threads: usize,
    /// Instructions issued under ITS (each by one group of threads).
    pub issues: usize,
    /// Instructions issued in the stack order the warp-level CFG follows, same data.
    pub stack_order_issues: usize,
    /// Where the ITS run may part from the stack order (empty: the same pairs, reordered).
    pub departures: Vec<String>,
    /// The issue order (the first 2000).
    pub order: Vec<IssueView>,
}

/// One issued instruction: its address and the threads that issued it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct IssueView {
    pub address: u64,
    pub mask: u64,
}

/// A branch (or `ret`/`exit`) the divergence analysis found may split a warp, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct DivergentBranch {
    /// Index of the instruction in `kernel.instructions`, and its source line.
    pub instruction: usize,
    pub line: u32,
    /// The guard register, varying because of what `reason` says.
    pub guard: String,
    /// Where the guard's variation comes from (e.g. `%tid.x`, a load, a loop exit).
    pub reason: String,
}

/// A control-flow graph and its drawing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct CfgView {
    /// `thread` for the basic-block graph of one thread, `warp` for the warp-level CFG.
    pub kind: String,
    pub entry: usize,
    pub nodes: Vec<CfgNode>,
    pub edges: Vec<CfgEdge>,
    /// Coordinates for drawing, computed here so the page only renders.
    pub layout: Layout,
    /// The graph was too large to draw or send (`nodes`, `edges` and `layout` are then
    /// empty): its size, and the limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub omitted: Option<OmittedGraph>,
}

/// The size of a graph too large to draw (see [`CfgView::omitted`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OmittedGraph {
    pub nodes: usize,
    pub edges: usize,
    /// `views::graph::MAX_DRAWN_NODES`.
    pub limit: usize,
}

/// One node: a basic block (in the warp-level CFG: a block in one context), or the
/// virtual exit node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct CfgNode {
    pub id: usize,
    /// `block` or `exit`.
    pub kind: String,
    /// Thread-level block index (the same block may appear in several contexts).
    pub block: Option<usize>,
    /// Pending activation stack at entry, e.g. `SYNC@0x0040 NIL@0x0020`.
    pub context: String,
    /// Cost of one execution, in the cost model's cycles.
    pub cost: Option<u64>,
    /// Execution count on the worst-case path.
    pub count: Option<u64>,
    /// Address of the first and last instruction.
    pub start: u64,
    pub end: u64,
    /// Number of instructions.
    pub instructions: usize,
    /// Index of the first and last instruction in `kernel.instructions`.
    pub first: usize,
    pub last: usize,
    /// Source lines of the first and last instruction.
    pub line_start: u32,
    pub line_end: u32,
    pub reachable: bool,
    /// Text lines to show in the node.
    pub label: Vec<String>,
    /// The block's instructions as the node shows them under its label, one per line (a
    /// block longer than `views::graph::MAX_CODE_LINES` shows its first and last ones around
    /// a `⋯ N more` line; the instruction table has them all). Empty for the exit node and
    /// the graphs whose nodes are not instruction ranges.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub code: Vec<String>,
    /// Space-separated roles the page styles (PWS: `branch`, `branch-fixed`, `bsb`,
    /// `reconv`, `split`, `marked`); empty for ordinary blocks.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub role: String,
}

/// One edge. Thread-level kinds: `fallthrough`, `taken`, `sync`, `break`, `continue`,
/// `call`, `return`; warp-level kinds: `fallthrough`, `taken`, `divergence`,
/// `reconvergence`, `call`, `return`, `exit`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct CfgEdge {
    pub from: usize,
    pub to: usize,
    pub kind: String,
    /// Times the worst-case path takes the edge.
    pub count: Option<u64>,
}

/// A Sim-D execution next to the WCET (`simd` mode, `simulate=true`).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct SimdExecutionReport {
    /// The run: `cycles`, `bound`, `within_bound`, `utilisation`, `schedule` (raw intervals),
    /// refreshes, controller runs; its fields at the top level of `details.simd.execution`.
    #[serde(flatten)]
    #[ts(flatten)]
    pub run: crate::views::simd_run::SimdExecutionRun,
    /// The observed schedule of the first `schedule_work_groups` work-groups, drawn like
    /// `report.schedule`: times from the end of the program upload, as the worst-case
    /// schedule's (which leaves upload and refresh out), so both share one time axis.
    pub gantt: ScheduleView,
    /// Where the shown work-groups end in the worst-case schedule and in the run (same axis):
    /// the gap the page marks.
    pub wcet_shown_end: u64,
    pub observed_shown_end: u64,
}
