// The request and report of `analyze`, generated from the Rust types by
// crates/warpbound/src/typescript.rs (ts-rs). Do not edit: change the Rust types and run
// WARPBOUND_BLESS=1 cargo test -p warpbound --test typescript

/**
 * One analysis request: the kernel text, which function of it, which analysis mode with
 * which hardware preset and parameter overrides. The page and `warpbound analyze --request`
 * send exactly this JSON.
 */
export type Request = { 
/**
 * Absent: the current version (so TypeScript declares it optional).
 */
schema_version?: number, 
/**
 * The pasted kernel text.
 */
source: string, 
/**
 * Absent: SASS.
 */
dialect?: Dialect, 
/**
 * Function to analyse when the text holds several; default the first.
 */
function?: string | null, 
/**
 * Analysis mode (see [`crate::catalog`]); absent means `cfg`: parse and build the
 * thread-level control-flow graph.
 */
mode?: string | null, 
/**
 * Named hardware preset of the mode.
 */
preset?: string | null, 
/**
 * Parameter overrides, `name → value` (numbers or strings).
 */
params?: { [key in string]: JsonValue }, 
/**
 * Loop bounds by loop-header address (`"0x18"` or `"24"`): the header executes at most
 * N times per entry into the loop.
 */
loop_bounds?: { [key in string]: number }, 
/**
 * Global memory for the simulator (`simulate` mode, or `simulate=true`): named arrays
 * with their fill; when absent, the `memory` text parameter is used.
 */
memory?: MemoryInit, 
/**
 * Record wall-clock timings in `report.timings_ms` (default). Without them the report is
 * a pure function of the request: byte-identical natively and in wasm.
 */
timings?: boolean,
};

/**
 * The result of one request.
 */
export type Report = { schema_version: number, 
/**
 * The mode that ran, by its current name (a request may use a former name).
 */
mode: string, dialect: Dialect, 
/**
 * The hardware preset the parameters started from: the request's, or the mode's default
 * for the dialect (see `ModeInfo::default_presets`).
 */
preset?: string | null, 
/**
 * Every parameter of the mode with the value the analysis used and where it came from,
 * in the catalogue's order (empty when the mode is unknown).
 */
params?: Array<ResolvedParam>, 
/**
 * Sorted by line, then column; request-level diagnostics (line 0) first.
 */
diagnostics: Array<Diagnostic>, 
/**
 * When the text did not parse in the requested dialect but looks like another one: that
 * dialect and the mark that shows it (`isa::dialect_guess`), so the page can offer the
 * switch and the CLI can name the `--dialect` to pass.
 */
dialect_hint?: DialectGuess, 
/**
 * When the text did not parse and is CUDA C++ source (`isa::dialect_guess::cuda_source`):
 * the mark that shows it. Its parse errors are replaced by one error saying how to get
 * SASS or PTX from it.
 */
cuda_source?: SourceMark, kernel: KernelView | null, cfg: CfgView | null, 
/**
 * The main bound of a bounding mode.
 */
wcet?: Wcet | null, 
/**
 * A schedule to draw as a Gantt chart (modes that produce one).
 */
schedule?: ScheduleView | null, 
/**
 * Line charts (modes that produce them).
 */
plots?: Array<PlotView>, 
/**
 * The kernel's arguments (PTX launch parameters) the analysis used, each with where it
 * came from: the request's `params`, or chosen automatically (`params=auto`) — `rr`,
 * and `simulate` on PTX.
 */
arguments?: KernelArguments | null, 
/**
 * A simulator run (`simulate` mode, or `simulate=true` next to a bound): the `sim`
 * crate's result — `cycles`, `issued`, per-warp timelines, unit occupancy, memory
 * transactions, the final memory and the stepper's steps — with the bound it is checked
 * against and the verdict.
 */
simulation?: SimulationReport | null, 
/**
 * The program's loops and the bound each was analysed with, where it came from and why
 * (bounding modes: `warp-cfg`, `block`, `pws`, `rr`).
 */
loop_bounds?: Array<LoopBoundRow>, 
/**
 * The kernel's occupancy at the block size analysed: resident blocks and warps per SM,
 * the limit that binds, what gives one more block (modes that take a block: `block`,
 * `pws` on GCN3; issue #41).
 */
occupancy?: OccupancyView | null, 
/**
 * Wall-clock time of each stage, in milliseconds (`parse`, `cfg`, `layout`, `total`).
 */
timings_ms: { [key in string]: number }, 
/**
 * What only the mode that ran reports, under the mode's name (`details.pws`, …).
 */
details?: Details | null, };

/**
 * One global warp instruction instance with its coalesced 128-byte segments (§4.4.4).
 */
export type AccessView = { block_index: [number, number, number], pc: number, line: number, 
/**
 * `L` (load) or `S` (store), the thesis's letters.
 */
kind: string, 
/**
 * Segment base addresses in first-touch order, and the bytes used in each.
 */
segments: Array<number>, used_bytes: Array<number>, 
/**
 * Load utilisation (§3.3.1).
 */
utilization: number, 
/**
 * With caches: `l1_hit`, `l2_hit` or `l2_miss`.
 */
level: string | null, 
/**
 * Transactions at addresses the analyzer does not know, one per thread.
 */
unknown_transactions?: number, block: number, warp: number, sm: number, };

/**
 * What a kernel argument is, which decides its automatic value.
 */
export type ArgumentKind = "pointer" | "integer" | "float" | "bytes";

/**
 * Where a kernel argument's value came from.
 */
export type ArgumentSource = "request" | "auto";

/**
 * One named array of global memory (`sim::ArrayInit`).
 */
export type ArrayInit = { name: string, 
/**
 * Byte address of the first word (a multiple of 4).
 */
address: number, 
/**
 * Length in 32-bit words.
 */
words: number, fill: MemoryFill, };

/**
 * A loop bound the WCET assumes.
 */
export type AssumedLoopBound = { 
/**
 * The header's key (`0x100`, `$L__BB0_3`, `BB0_7`).
 */
header: string, line: number, bound: number, 
/**
 * `default` or `observed`.
 */
from: string,
};

/**
 * One place where unknown data was paid for: `both_sides`, `guarded_exit`,
 * `guarded_access` or `uncoalesced_address`, at instruction `inst`.
 */
export type AssumptionView = { kind: string, inst: number, pc: number, line: number, column: number, message: string, };

/**
 * The kernel's barriers when every warp passes them alike: `P` (the instances a warp
 * passes), the carry term `Σ_b P_b·λ_b`, and each barrier.
 */
export type BarrierPhasesView = { instances: number, carry: number, barriers: Array<PhaseBarrierView>, };

/**
 * A convergence-barrier register `Bn` and the threads it records.
 */
export type BarrierRegisterView = { barrier: number, mask: Lanes, };

/**
 * The block's bound and how it was made.
 */
export type BlockBoundView = { 
/**
 * Cycles until the last warp finishes, at most.
 */
cycles: number, 
/**
 * The argument it comes from: `response_time`, `serialised`, `barrier_phases`,
 * `unit_response_time` or `exact_makespan` (`block::Rule`).
 */
rule: string, warps: Array<WarpShareView>, 
/**
 * The warp whose response time is the bound.
 */
critical: number, 
/**
 * `cycles` minus the critical warp's isolated time.
 */
contention: number, 
/**
 * `Σ_w C_w`: the warps one after the other.
 */
serialised: number,
};

/**
 * What the `block` mode found: the thread block's bound and its parts (crate `block`).
 */
export type BlockDetails = { 
/**
 * The block's bound (= `wcet.cycles`).
 */
wcet: number, 
/**
 * Warps in the block: threads / warp size, rounded up.
 */
warps: number, threads: number, 
/**
 * One warp's warp-CFG bound under the cost model (its time in isolation).
 */
warp_wcet: number, 
/**
 * One warp's warp-CFG bound under cost `unit`: the warp-instructions it issues at most.
 */
warp_issues: number, 
/**
 * Whether the kernel synchronises at barriers (then the bound is the serialised one,
 * unless every warp passes them alike: `barrier_phases`).
 */
barriers: boolean, 
/**
 * When every warp passes the barriers the same number of times, in the same order:
 * each barrier with the loops around it and `P`, the instances a warp passes at most
 * (`block::barrier_phases`; the bound is per phase when that is below serialising).
 */
barrier_phases?: BarrierPhasesView | null, 
/**
 * When the barriers keep the serialised bound because a premise of the per-phase rule
 * fails: the first that does (`block::Serialised`, its place in the listing).
 */
serialised_because?: SerialisedView | null, 
/**
 * The response-time bound, per warp, the critical warp and the contention term.
 */
bound: BlockBoundView, 
/**
 * The schedulers the simulator ran the block under (`any`: lrr and gto).
 */
scheduler: string, 
/**
 * The SM model: `issue-slot` (one warp-instruction per cycle, the cost model's
 * latencies) or `makespan` (Berezovskyi et al.'s unit machine).
 */
sm: string, 
/**
 * One entry per simulated scheduler: the observed cycles and whether the bound held.
 */
runs?: Array<BlockRun>, 
/**
 * The bound for 1, 2, … warps of this kernel, and what was observed for as many as
 * were simulated.
 */
growth: Array<BlockGrowth>, 
/**
 * The one-warp analysis (warp-level CFG, loops, cost breakdown), as `warp-cfg`
 * reports it.
 */
"warp-cfg"?: WarpCfgDetails | null,
};

/**
 * The bound (and the serialised bound, and a run when made) for `warps` warps.
 */
export type BlockGrowth = { warps: number, bound: number, serialised: number, 
/**
 * `sm=makespan` on straight-line code: the exact worst-case makespan (up to 8 warps).
 */
exact?: number | null, observed?: number | null, };

/**
 * One simulated execution of the block.
 */
export type BlockRun = { scheduler: string, cycles: number, 
/**
 * The warp that finished last.
 */
last_warp: number, holds: boolean, };

export type BlockSizeView = { threads: number, blocks_per_sm: number, warps_per_sm: number, limited_by: string, };

/**
 * Cycles `start..end` of one unit lane.
 */
export type BusyView = { start: number, end: number, };

/**
 * The bypass heuristic on one SM: each line's U, R and U × (1 + R), and the lines it
 * bypasses.
 */
export type BypassView = { sm: number, lines: Array<LineUseView>, bypassed: Array<number>, };

/**
 * L1 statistics over the run.
 */
export type CacheStatsView = { hits: number, misses: number, };

/**
 * What the cache models found: accesses per level, each SM's L1, the shared LLC and the
 * bypass heuristic (Eq. 3.1) per SM.
 */
export type CachesView = { l1_hit_accesses: number, l2_hit_accesses: number, l2_miss_accesses: number, l1: Array<L1View>, llc: LlcView, bypass: Array<BypassView>, };

/**
 * One candidate split set under Lemma 5.1 (a row of the page's "Split sets" table): which
 * set, its `E_WF = IPET(C_out) + |splits|·(e_s + e_m)` with the terms, then the contexts it
 * needs at once and whether they fit in `S`.
 */
export type CandidateView = { 
/**
 * `marked`, `select` or `optimal`.
 */
source: string, e_wf: number, ipet: number, splits: Array<number>, pruned_edges: Array<[number, number]>, contexts: number, feasible: boolean,
};

/**
 * One edge. Thread-level kinds: `fallthrough`, `taken`, `sync`, `break`, `continue`,
 * `call`, `return`; warp-level kinds: `fallthrough`, `taken`, `divergence`,
 * `reconvergence`, `call`, `return`, `exit`.
 */
export type CfgEdge = { from: number, to: number, kind: string, 
/**
 * Times the worst-case path takes the edge.
 */
count: number | null, };

/**
 * One node: a basic block (in the warp-level CFG: a block in one context), or the
 * virtual exit node.
 */
export type CfgNode = { id: number, 
/**
 * `block` or `exit`.
 */
kind: string, 
/**
 * Thread-level block index (the same block may appear in several contexts).
 */
block: number | null, 
/**
 * Pending activation stack at entry, e.g. `SYNC@0x0040 NIL@0x0020`.
 */
context: string, 
/**
 * Cost of one execution, in the cost model's cycles.
 */
cost: number | null, 
/**
 * Execution count on the worst-case path.
 */
count: number | null, 
/**
 * Address of the first and last instruction.
 */
start: number, end: number, 
/**
 * Number of instructions.
 */
instructions: number, 
/**
 * Index of the first and last instruction in `kernel.instructions`.
 */
first: number, last: number, 
/**
 * Source lines of the first and last instruction.
 */
line_start: number, line_end: number, reachable: boolean, 
/**
 * Text lines to show in the node.
 */
label: Array<string>, 
/**
 * The block's instructions as the node shows them under its label, one per line (a
 * block longer than `views::graph::MAX_CODE_LINES` shows its first and last ones around
 * a `⋯ N more` line; the instruction table has them all). Empty for the exit node and
 * the graphs whose nodes are not instruction ranges.
 */
code?: Array<string>, 
/**
 * Space-separated roles the page styles (PWS: `branch`, `branch-fixed`, `bsb`,
 * `reconv`, `split`, `marked`); empty for ordinary blocks.
 */
role?: string, };

/**
 * A control-flow graph and its drawing.
 */
export type CfgView = { 
/**
 * `thread` for the basic-block graph of one thread, `warp` for the warp-level CFG.
 */
kind: string, entry: number, nodes: Array<CfgNode>, edges: Array<CfgEdge>, 
/**
 * Coordinates for drawing, computed here so the page only renders.
 */
layout: Layout, 
/**
 * The graph was too large to draw or send (`nodes`, `edges` and `layout` are then
 * empty): its size, and the limit.
 */
omitted?: OmittedGraph | null,
};

/**
 * Alg. 5: transactions per global warp instruction — the largest, the mean rounded up,
 * the exact mean, and how many instructions were counted.
 */
export type CoalescingView = { max: number, avg: number, mean: number, count: number, };

/**
 * Alg. 6: competing SMs (active SMs − 1 at most; the heuristic average) and each
 * instruction's distribution.
 */
export type CompetingView = { max: number, avg: number, mean: number, active_sms: number, instructions: Array<CompetitionView>, };

/**
 * One instruction on one SM in Alg. 6, the verdict first: whether the thresholds let it
 * count, the competing SMs it counts for, then what they come from (`Distance2Center` and
 * the accesses per partition).
 */
export type CompetitionView = { pc: number, sm: number, counted: boolean, competing: number, d2center: number, distribution: Array<number>, };

/**
 * The contention term `Δ = ⌈A·k·32 B / (B/f)⌉` (Huangfu's competing SMs at the DRAM's
 * peak bandwidth, `launch::contention`) and its parts.
 */
export type ContentionView = { 
/**
 * `Δ`: cycles added to the latency of every global, local, texture and constant access.
 */
cycles_per_access: number, 
/**
 * `A`: SMs holding blocks of the launch (`min(S, n)`).
 */
active_sms: number, 
/**
 * `k`: sectors of 32 bytes one warp access touches at most (`sectors_per_access`).
 */
sectors_per_access: number, 
/**
 * The GPU's peak DRAM bandwidth (GB/s) and SM boost clock (MHz), and their source.
 */
bandwidth_gb_per_s: number, boost_clock_mhz: number, source: string,
};

/**
 * The decoded SASS scheduling control field of one instruction (`isa::ControlBits`,
 * Maxwell to Hopper), when the listing carries the encoding or a CuAssembler code.
 */
export type ControlBits = { 
/**
 * Cycles the warp waits before issuing its next instruction (0–15).
 */
stall: number, 
/**
 * The yield hint as CuAssembler and turingas print it (`Y`): the raw bit is clear.
 */
yield_hint: boolean, 
/**
 * Scoreboard barrier (0–5) this instruction sets until its result is written.
 */
write_barrier: number | null, 
/**
 * Scoreboard barrier (0–5) this instruction sets until its source registers are read.
 */
read_barrier: number | null, 
/**
 * Barriers (bit *b* for barrier *b*) that must be clear before this instruction issues.
 */
wait_mask: number, 
/**
 * Operand-reuse cache flags (bit *k* for source operand slot *k*).
 */
reuse: number,
};

/**
 * One term of the WCET: a node's worst-case count times its cost.
 */
export type CostTerm = { node: number, address: number, count: number, cost: number, total: number, };

export type CurvePointView = { threads: number, blocks_per_sm: number, warps_per_sm: number, occupancy: number, limited_by: string, };

/**
 * The activation stack depth of a warp from `cycle` on.
 */
export type DepthView = { cycle: number, depth: number, };

/**
 * The details of one mode: an object with one key, the mode's name, so a reader finds every
 * mode's own part in one place and a report holds at most one (schema version 2; version 1
 * had one top-level key per mode). Tagged outside the details, not by a field inside them:
 * `pws` details have a `mode` of their own (the splitting mode).
 */
export type Details = { "warp-cfg": WarpCfgDetails } | { "block": BlockDetails } | { "makespan": MakespanDetails } | { "simd": SimdDetails } | { "pws": PwsView } | { "rr": RrView } | { "launch": LaunchDetails };

/**
 * A message tied to a place in the input (`isa::Diagnostic`): what the page lists and
 * underlines. Line and column are 1-based; a diagnostic about the request as a whole uses
 * line 0, column 0.
 */
export type Diagnostic = { severity: Severity, line: number, column: number, 
/**
 * Length of the offending text in characters (0 when it is a point).
 */
len: number, message: string, 
/**
 * The step it comes from; absent where no one said.
 */
stage?: Stage, };

/**
 * The language of the pasted text: what the page's dialect menu and the CLI's `--dialect`
 * choose (`isa::Dialect`).
 */
export type Dialect = "sass" | "gcn" | "ptx" | "simd" | "lc" | "pws-csv";

/**
 * A dialect and the mark that decided it (`isa::dialect_guess::DialectGuess`).
 */
export type DialectGuess = { dialect: Dialect, 
/**
 * 1-based line of the mark (0 for a file name).
 */
line: number, 
/**
 * The mark, as written (or the file extension).
 */
evidence: string, };

/**
 * `dim3(x, y, z)`.
 */
export type Dim3View = { x: number, y: number, z: number, };

/**
 * One bar: `kind` is `init`, `wavefront`, `split_wavefront`, `serialized` or `split_merge`.
 */
export type DispatchIntervalView = { lane: number, start: number, end: number, label: string, kind: string, };

/**
 * A dispatch timeline (Fig. 9b): lanes and bars; `truncated` when slots were left out.
 */
export type DispatchTimelineView = { lanes: Array<string>, intervals: Array<DispatchIntervalView>, end: number, truncated: boolean, };

/**
 * A branch (or `ret`/`exit`) the divergence analysis found may split a warp, and why.
 */
export type DivergentBranch = { 
/**
 * Index of the instruction in `kernel.instructions`, and its source line.
 */
instruction: number, line: number, 
/**
 * The guard register, varying because of what `reason` says.
 */
guard: string, 
/**
 * Where the guard's variation comes from (e.g. `%tid.x`, a load, a loop exit).
 */
reason: string,
};

/**
 * The estimate `T(W, x) = min over y of ⌈W/y⌉·T(y)` (Eq. 42) and its terms.
 */
export type EstimateView = { 
/**
 * The largest group size allowed.
 */
x: number, 
/**
 * `T(W, x)`.
 */
value: number, 
/**
 * The group size that attains it.
 */
best_y: number, 
/**
 * `[y, T(y), ⌈W/y⌉·T(y)]` for each group size tried.
 */
terms: Array<[number, number, number]>,
};

/**
 * Each estimate with whether the request overrode it (the page marks "(overridden)").
 */
export type EstimatesView = { active_warps: number, active_warps_overridden: boolean, n_coal: number, n_coal_overridden: boolean, competing_sms: number, competing_sms_overridden: boolean, };

/**
 * One array of global memory after the run: its words from `address` on.
 */
export type FinalArrayView = { name: string, address: number, words: Array<number>, };

/**
 * What a whole `nvdisasm` dump declares for the function (`isa::FunctionResources`):
 * registers, static shared memory, constant bank 0, stack, shown with the instruction
 * table. Each is absent when the text does not say it.
 */
export type FunctionResources = { 
/**
 * A kernel entry, not a device function: only entries are launched.
 */
entry: boolean, 
/**
 * Registers per thread (`EIATTR_REGCOUNT`, else `SHI_REGISTERS`).
 */
registers?: number, 
/**
 * Static shared memory per block, in bytes (`.nv.shared.NAME`).
 */
shared_bytes?: number, 
/**
 * Size of constant bank 0 (launch configuration and parameters), in bytes.
 */
constant0_bytes?: number, 
/**
 * Per-thread stack, in bytes (`EIATTR_MIN_STACK_SIZE`).
 */
stack_bytes?: number, 
/**
 * `EIATTR_MAX_STACK_SIZE`, in bytes, as printed (not the stack a thread needs: that is
 * `stack_bytes`).
 */
max_stack_bytes?: number,
};

/**
 * One warp's segment instances as `[start, issue_end, end)`, and its end.
 */
export type GanttRowView = { 
/**
 * Which set of co-resident blocks on the SM the warp ran in.
 */
wave: number, intervals: Array<SegmentRunView>, end: number, block: number, warp: number, sm: number,
};

/**
 * The ILP of Fig. 3 for this instance, written for an external MILP solver.
 */
export type IlpExport = { 
/**
 * `short` (Eq. 34/37) or `long` (Eq. 33/36) work-conserving constraints.
 */
variant: string, variables: number, constraints: number, 
/**
 * The model in CPLEX LP format (`makespan::IlpModel::lp_text`).
 */
lp: string,
};

/**
 * What solving the binary ILP of Fig. 3 took: the branch and bound used (`"propagation"`
 * or `"lp-branch-and-bound"`), its nodes and cache hits, the root LP bound and the model's
 * size.
 */
export type IlpSolveView = { solver: string, nodes: number, cache_hits: number, lp_bound: number | null, variables: number, constraints: number, };

/**
 * One instruction, flattened for tables.
 */
export type InstructionView = { index: number, address: number, line: number, column: number, 
/**
 * Instruction text as written (guard, opcode, operands).
 */
text: string, guard: string | null, 
/**
 * Full mnemonic with modifiers, e.g. `ISETP.GE.AND`.
 */
opcode: string, operands: Array<string>, reads: Array<string>, writes: Array<string>, 
/**
 * Control-flow kind: `fallthrough`, `branch`, `ssy`, `pbk`, `sync`, `brk`, `exit`, ...
 */
control: string, target: number | null, class: ResourceClass, 
/**
 * Block of the CFG holding the instruction (absent when no CFG was built).
 */
block: number | null, 
/**
 * SASS scheduling control bits (Maxwell to Hopper: stall, yield hint, barriers, wait
 * mask, reuse flags), when the listing carries the encoding or a CuAssembler code.
 */
control_bits?: ControlBits, };

/**
 * One warp run under independent thread scheduling, next to the stack order.
 */
export type InterleavingView = { 
/**
 * `round-robin`, `newest` or `random:SEED`.
 */
scheduler: string, 
/**
 * `finished`, or why the run stopped (a step limit, a deadlock, something not modelled).
 */
outcome: string, threads: number, 
/**
 * Instructions issued under ITS (each by one group of threads).
 */
issues: number, 
/**
 * Instructions issued in the stack order the warp-level CFG follows, same data.
 */
stack_order_issues: number, 
/**
 * Where the ITS run may part from the stack order (empty: the same pairs, reordered).
 */
departures: Array<string>, 
/**
 * The issue order (the first 2000).
 */
order: Array<IssueView>,
};

/**
 * The issue times of one segment by one warp.
 */
export type IssueTimesView = { warp: number, times: Array<number>, };

/**
 * One issued instruction: its address and the threads that issued it.
 */
export type IssueView = { address: number, mask: number, };

export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null;

/**
 * One kernel argument as the analysis used it.
 */
export type KernelArgument = { 
/**
 * The parameter's name in the PTX.
 */
name: string, 
/**
 * Its PTX type as declared, e.g. `.u64`, `.f32`, `.b8[16]`.
 */
type: string, kind: ArgumentKind, 
/**
 * The value: a number (a pointer is its byte address), or a struct's bytes.
 */
value: JsonValue, 
/**
 * The value as the `params` text writes it (pointers in hex).
 */
text: string, source: ArgumentSource,
};

/**
 * The kernel's arguments and the `params` text that gives them (what the page copies into
 * its `params` field to edit them).
 */
export type KernelArguments = { values: Array<KernelArgument>, params: string, 
/**
 * With automatic memory (`params` and `memory` both left empty): the `memory` text of
 * the buffers made for the pointers, at the sizes the run needed (they grow on demand),
 * so the page can copy it into its `memory` field to edit it. Empty otherwise.
 */
memory?: string, 
/**
 * With automatic parameters and no `textures` given: the `textures` text binding each
 * texture or surface parameter (`sim::texture`'s model), for the page to copy into its
 * `textures` field. Empty otherwise.
 */
textures?: string, 
/**
 * With automatic memory: the instructions whose accesses fell outside every pointer's
 * array (`crate::auto_memory`), where real data would be needed. Empty otherwise.
 */
outside?: Array<OutsideAccess>, };

/**
 * `N_SIMD^total` (Eq. 2), `G_parallel` (Def. 5.2), `DS` (Def. 5.3), the time between
 * dispatches and `E_kernel = DS · round`.
 */
export type KernelBoundView = { n_simd_total: number, g_parallel: number, dispatches: number, round: number, e_kernel: number, };

/**
 * The parsed kernel.
 */
export type KernelView = { function: string, 
/**
 * All functions found in the text (the request may name any of them).
 */
functions: Array<string>, arch: string | null, instructions: Array<InstructionView>, 
/**
 * What the cubin declares for the function (registers, static shared memory, constant
 * bank 0, stack), when the text is a whole `nvdisasm` dump (SASS only): shown with the
 * table so an occupancy estimate can start from it; no bound uses it yet.
 */
resources?: FunctionResources, };

/**
 * The L1 data cache: geometry and hit latency.
 */
export type L1CacheView = { sets: number, ways: number, line_bytes: number, hit_latency: number, };

/**
 * One SM's L1 (§4.4.6).
 */
export type L1View = { sm: number, load_lines: number, load_hits: number, load_misses: number, load_miss_rate: number, store_lines: number, };

/**
 * A set of lanes of a warp, written as one character per lane, lane 0 first (`"1101"`:
 * lanes 0, 1 and 3): a 64-lane mask does not fit a JavaScript number exactly.
 */
export type Lanes = string;

/**
 * Latency and issue interval of each timing class, in cycles.
 */
export type LatencyView = { latency: { [key in string]: number }, interval: { [key in string]: number }, };

/**
 * The bound and its breakdown (`launch::LaunchBound`).
 */
export type LaunchBoundView = { cycles: number, 
/**
 * `S·m`.
 */
slots: number, 
/**
 * `⌈n / (S·m)⌉`.
 */
waves: number, 
/**
 * `q = ⌊(n − 1)/S⌋` (0 with one wave).
 */
blocks_before_last: number, 
/**
 * `q·W·I`.
 */
dispatch_issues: number, 
/**
 * `⌊q/m⌋·σ_β`.
 */
dispatch_stalls: number, 
/**
 * `σ_β`.
 */
block_stall: number, 
/**
 * The bound on the last block's dispatch: `dispatch_issues + dispatch_stalls`.
 */
last_dispatch: number, 
/**
 * `r = min(m, n)`.
 */
final_blocks: number, 
/**
 * `C_r` and the block crate's rule for it.
 */
final_phase: number, final_rule: string, };

/**
 * What the `launch` mode found (`details.launch`).
 */
export type LaunchDetails = { 
/**
 * The launch's bound (= `wcet.cycles`).
 */
wcet: number, grid: [number, number, number], block: [number, number, number], 
/**
 * Blocks in the grid (`n`).
 */
blocks: number, threads_per_block: number, 
/**
 * `W`.
 */
warps_per_block: number, 
/**
 * The GPU preset (`gpu` parameter or the listing's architecture) and its SM count's
 * source.
 */
gpu: string, gpu_title: string, gpu_source: string, 
/**
 * Why this GPU: `parameter`, `listing` (its architecture) or `assumed`.
 */
gpu_from: string, 
/**
 * `S`, and whether it is the preset's or the `sms` parameter's.
 */
sms: number, sms_from: string, 
/**
 * `m`: blocks one SM holds (the occupancy, `report.occupancy`).
 */
blocks_per_sm: number, 
/**
 * `C`: one warp's warp-CFG bound under the cost model.
 */
warp_wcet: number, 
/**
 * `I`: one warp's warp-instructions at most.
 */
warp_issues: number, 
/**
 * `σ`: one warp's cycles blocked on its own latencies at most (0 under cost `unit`).
 */
warp_stall: number, barriers: boolean, bound: LaunchBoundView, 
/**
 * Memory contention between SMs, when the bound accounts for it (cost `latency` or
 * `control` with `memory_contention=round-robin`): what every memory access's latency
 * in `C` was grown by (crate `launch::contention`).
 */
contention?: ContentionView | null, 
/**
 * What the bound assumes beyond the warp analysis (memory between SMs, schedulers).
 */
assumptions: Array<string>, 
/**
 * One entry per simulated scheduler (`simulate=true`).
 */
runs?: Array<LaunchRun>, 
/**
 * The one-warp analysis, as `warp-cfg` reports it.
 */
"warp-cfg"?: WarpCfgDetails | null,
};

/**
 * One simulated launch on the GPU's SMs.
 */
export type LaunchRun = { scheduler: string, cycles: number, 
/**
 * SMs that ran at least one block.
 */
sms_used: number, 
/**
 * The most blocks one SM ran one after another or side by side.
 */
most_blocks_on_one_sm: number, holds: boolean, };

/**
 * A complete drawing of a graph (`layout::Layout`): the page strokes it as it is.
 */
export type Layout = { 
/**
 * Width of the canvas; every coordinate lies in `[0, width]`.
 */
width: number, 
/**
 * Height of the canvas; every coordinate lies in `[0, height]`.
 */
height: number, 
/**
 * One entry per node, in id order.
 */
nodes: Array<PlacedNode>, 
/**
 * One entry per drawn edge, in the graph's edge order.
 */
edges: Array<RoutedEdge>,
};

/**
 * The blocks each resource allows alone (`null`: the kernel uses none of it).
 */
export type LimitsView = { warps: number, blocks: number, registers: number | null, scalar_registers?: number | null, shared: number | null, };

/**
 * One cache line's use (§3.3), the score first: `product` = U × (1 + R), the bypass
 * heuristic's ranking, then U, R and the counts they come from.
 */
export type LineUseView = { address: number, product: number, utilization: number, reuse: number, loads: number, fills: number, };

/**
 * Source lines, 1-based and inclusive.
 */
export type LinesView = { first: number, last: number, };

/**
 * The shared LLC (§6.4): `simple`, or `access_interval` with its quota.
 */
export type LlcView = { method: string, quota?: number | null, accesses: number, misses: number, miss_rate: number, };

/**
 * One loop of the program (the thread-level CFG) and the bound the mode analysed it with:
 * the report's loop table for every bounding mode (`warp-cfg`, `block`, `pws`, `rr`).
 */
export type LoopBoundRow = { 
/**
 * The header's key, as `loop_bounds` takes it (`0x100`, `$L__BB0_3`, `BB0_7`).
 */
header: string, line: number, 
/**
 * The bound applied (header runs per thread and per entry); absent when the loop has
 * none (no inferred or given bound and `default_loop_bound` 0: an error).
 */
bound?: number | null, 
/**
 * `inferred` (from the code), `given` (the request's `loop_bounds`), `observed`
 * (`loop_bounds=observed`) or `default` (`default_loop_bound`, an assumption).
 */
bound_from: string, 
/**
 * Why: the inferred bound's induction variable and exit, or why the code gives none.
 */
reason?: string | null, 
/**
 * The bound the code gives, also when a smaller given bound is used.
 */
inferred?: number | null, 
/**
 * The inferred count as a formula of the parameters and launch dimensions.
 */
formula?: string | null,
};

/**
 * One loop of the analysed graph, with the bound applied.
 */
export type LoopView = { 
/**
 * Graph node of the header.
 */
header: number, 
/**
 * Address and source line of the header block: what `loop_bounds` keys on.
 */
address: number, line: number, 
/**
 * The header's label (PTX), which `loop_bounds` also accepts.
 */
label?: string | null, bound: number, 
/**
 * `inferred` (from the code), `given` (from `loop_bounds`), `observed`
 * (`loop_bounds=observed`) or `default` (`default_loop_bound`, an assumption).
 */
bound_from: string, 
/**
 * Why: the inferred bound's induction variable and exit, or why the code gives none.
 */
reason?: string | null, irreducible: boolean, depth: number, nodes: Array<number>,
};

/**
 * One SM as the simulator modelled it.
 */
export type MachineView = { 
/**
 * Threads per warp, and warps resident at once.
 */
warp_size: number, warps_per_sm: number, 
/**
 * Which ready warp issues next, and the order a diverged warp's paths issue in.
 */
scheduler: SchedulerView, thread_scheduling: ThreadSchedulingView, 
/**
 * Warp-instructions issued per cycle.
 */
issue_width: number, 
/**
 * Stall counts and scoreboard barriers taken from the SASS control bits.
 */
control_bits: boolean, 
/**
 * Lanes of each unit kind, and the unit each timing class runs on.
 */
cores: number, ls_units: number, sfu_units: number, unit_of: { [key in string]: UnitName }, 
/**
 * Cycles per timing class: until a result is ready, and between two issues.
 */
latency: LatencyView, 
/**
 * Extra cycles per memory transaction beyond the first.
 */
transaction_cycles: number, l1: L1CacheView | null, 
/**
 * GCN3 wavefront splitting (PWS §3, §4.1).
 */
splitting: SplittingView,
};

/**
 * What the mode reports under `makespan`.
 */
export type MakespanDetails = { warps: number, ls_units: number, cores: number, warp_size: number, 
/**
 * The string as given (or reduced from SASS) and after the sigma transformation (§3).
 */
original: string, transformed: string, sigma_l: number, sigma_c: number, 
/**
 * Eq. 5–7.
 */
pessimistic: number, 
/**
 * A bound that holds for every σ (`makespan::safe_bound`): equal to Eq. 5–7 when
 * σ_L = σ_C = 1; `wcet.cycles` when there is no exact value.
 */
safe_bound: number, 
/**
 * Exact worst case over all work-conserving schedules, when computed.
 */
exact: number | null, 
/**
 * How `exact` was computed: `search` (state search) or `ilp-short`/`ilp-long` (Fig. 3).
 */
method: string, 
/**
 * T(W, x) of Eq. 42–43, when asked for (`estimate_x` > 0).
 */
estimate: EstimateView | null, 
/**
 * The witness schedule of `exact`.
 */
schedule: Array<SlotView>, 
/**
 * For kernel input (SASS, PTX, GCN3, Sim-D): which instruction of the straight-line
 * path became which unit, in path order. Empty for an L/C string.
 */
mapping: Array<MappedInstruction>, 
/**
 * The paper's ILP (Fig. 3) as a CPLEX LP file, when asked for (`ilp_export`).
 */
ilp?: IlpExport | null, 
/**
 * What solving the ILP took, when `method` is `ilp-short` or `ilp-long`.
 */
ilp_solve?: IlpSolveView | null, };

/**
 * One instruction of a kernel as the makespan model sees it: its letter in the L/C string
 * it was reduced to. `address` is the listing's byte address for SASS, GPGPU-Sim's program
 * counter (8 bytes per instruction) for PTX, and the instruction's index for GCN3 (within
 * its function) and Sim-D (in `.text`); `line` is 1-based.
 */
export type MappedInstruction = { address: number, line: number, text: string, unit: string, };

/**
 * How an array's 32-bit words are initialised (`sim::Fill`).
 */
export type MemoryFill = { "kind": "words", values: Array<number>, } | { "kind": "floats", values: Array<number>, } | { "kind": "constant", value: number, } | { "kind": "iota", start: number, step: number, } | { "kind": "random", seed: number, below: number, } | { "kind": "hashed", seed: number, below: number, };

/**
 * Global memory for the simulator (`simulate` mode, or `simulate=true`): named arrays with
 * their fill, and optionally every other address too (`sim::MemoryInit`).
 */
export type MemoryInit = { arrays: Array<ArrayInit>, 
/**
 * Memory beyond the arrays; absent: an access outside every array is an error.
 */
open?: OpenMemory, };

/**
 * One loop and how often its header ran.
 */
export type ObservedLoop = { 
/**
 * The header's address (as `loop_bounds` keys it, `0x…`).
 */
header: string, 
/**
 * The header's source line.
 */
line: number, 
/**
 * The most times one thread ran the header in one entry into the loop; 0: no thread
 * entered it.
 */
iterations: number,
};

/**
 * The occupancy of the kernel at the request's block size on one SM (GCN3: one CU).
 */
export type OccupancyView = { 
/**
 * The preset the limits come from (`sm_86`, `gfx8`).
 */
machine: string, 
/**
 * Why that preset: `listing` (the listing's architecture), `parameter`
 * (`occupancy_arch`), `assumed` (the listing names none; a note says which).
 */
machine_from: string, threads_per_block: number, warps_per_block: number, blocks_per_sm: number, warps_per_sm: number, max_warps_per_sm: number, 
/**
 * `warps_per_sm / max_warps_per_sm`.
 */
occupancy: number, 
/**
 * Registers per thread (GCN3: VGPRs per work-item).
 */
registers: number, registers_source: Source, 
/**
 * GCN3: SGPRs per wavefront.
 */
scalar_registers?: number | null, scalar_registers_source?: Source | null, 
/**
 * Shared memory per block (GCN3: LDS per work-group), static plus dynamic, in bytes (the
 * SM's per-block reservation not included, except where a dump's static figure holds it:
 * sm_90).
 */
shared_bytes: number, static_shared_bytes: number, 
/**
 * The request's `shared_bytes`.
 */
dynamic_shared_bytes: number, 
/**
 * Where the static part came from.
 */
shared_source: Source, 
/**
 * `warps`, `blocks`, `registers` or `shared`: the first binding limit in that order.
 */
limited_by: string, 
/**
 * Every limit that allows exactly `blocks_per_sm`.
 */
binding: Array<string>, limits: LimitsView, one_more_block: OneMoreBlockView, 
/**
 * Resident warps for each block size, a warp at a time up to the largest block.
 */
curve: Array<CurvePointView>,
};

/**
 * The size of a graph too large to draw (see [`CfgView::omitted`]).
 */
export type OmittedGraph = { nodes: number, edges: number, 
/**
 * `views::graph::MAX_DRAWN_NODES`.
 */
limit: number, };

/**
 * What, changed alone, gives one more resident block.
 */
export type OneMoreBlockView = { blocks_per_sm: number, registers_at_most: number | null, 
/**
 * Static plus dynamic bytes per block.
 */
shared_bytes_at_most: number | null, smaller_block: BlockSizeView | null, larger_block: BlockSizeView | null, };

/**
 * Every address outside the arrays is memory too: a word nobody wrote reads a value derived
 * from its address and `seed`, modulo `below` when `below > 0` (`sim::memory::OpenMemory`).
 */
export type OpenMemory = { seed: number, below: number, };

/**
 * One instruction's accesses outside every array of an automatic launch's memory.
 */
export type OutsideAccess = { 
/**
 * Its source line and address (GCN3: its instruction index).
 */
line: number, instruction_address: number, 
/**
 * Lowest address and end (one past the highest byte) of its accesses there.
 */
lowest: number, end: number, 
/**
 * Lane accesses, of `bytes` bytes each.
 */
count: number, bytes: number, 
/**
 * Some were stores.
 */
write: boolean, 
/**
 * Some were misaligned (served at the aligned address).
 */
misaligned: boolean,
};

/**
 * What the run did outside every array of open memory: the instructions that reached
 * there (at most `sim::MAX_OUTSIDE_SITES`), all such accesses, and the words stores made.
 */
export type OutsideLogView = { sites: Array<OutsideSiteView>, total: number, created_words: number, };

/**
 * One instruction's accesses outside the arrays, as the automatic launch reports them,
 * with the first address it reached there.
 */
export type OutsideSiteView = { first_address: number, 
/**
 * Its source line and address (GCN3: its instruction index).
 */
line: number, instruction_address: number, 
/**
 * Lowest address and end (one past the highest byte) of its accesses there.
 */
lowest: number, end: number, 
/**
 * Lane accesses, of `bytes` bytes each.
 */
count: number, bytes: number, 
/**
 * Some were stores.
 */
write: boolean, 
/**
 * Some were misaligned (served at the aligned address).
 */
misaligned: boolean, };

/**
 * Where a parameter's value came from: what the page marks next to each field.
 */
export type ParamSource = "request" | "preset" | "default";

/**
 * One value per execution model, in the order of the page's table columns.
 */
export type PerModel<T> = { no_split: T, dws: T, pws: T, };

/**
 * One barrier: its address, the headers of the loops around it (outermost first), how many
 * times a warp passes it at most, and `λ_b`.
 */
export type PhaseBarrierView = { address: number, loops: Array<number>, instances: number, lambda: number, };

/**
 * Where one node's box is drawn (`layout::PlacedNode`).
 */
export type PlacedNode = { 
/**
 * The node's id in the graph (`CfgNode::id`).
 */
id: number, 
/**
 * Layer (row) of the node, 0 at the top.
 */
layer: number, 
/**
 * Left edge of the box.
 */
x: number, 
/**
 * Top edge of the box.
 */
y: number, width: number, height: number,
};

/**
 * A line chart.
 */
export type PlotView = { title: string, x_label: string, y_label: string, series: Array<Series>, };

/**
 * The GPU of Table 1a as the analysis used it; every count a JSON number.
 */
export type PwsHardwareView = { n_cu: number, n_simd: number, n_wfc: number, n_wiwf: number, 
/**
 * `S`: split wavefront contexts per wavefront.
 */
s: number, 
/**
 * The initialisation, split and merge delays.
 */
d: number, e_s: number, e_m: number, };

/**
 * The launch: `G` workgroups of `N_WIWG` work-items.
 */
export type PwsLaunchView = { workgroups: number, work_items_per_group: number, };

/**
 * One node of the wavefront CFG with branch serialisation blocks (§4.2).
 */
export type PwsNodeView = { id: number, label: string, 
/**
 * `plain`, `branch`, `bsb` or `reconv`.
 */
kind: string, reconv: boolean, 
/**
 * `e_bb`.
 */
cost: number, 
/**
 * Source lines, first and last (GCN3 input).
 */
lines: LinesView | null, successors: Array<number>, 
/**
 * In the chosen set, and Prune's `F[u]` for it (Alg. 2).
 */
split: boolean, f: number, 
/**
 * Marked for splitting; a divergent branch of a shape that can be split.
 */
marked: boolean, splittable: boolean, 
/**
 * `Parent(u)`, `Reconv(u)` and `BSB(u)` of a splittable branch.
 */
parent: number | null, reconv_node: number | null, bsb_node: number | null, };

/**
 * `details.pws`: what the page's PWS summary and graph show, in the order it shows them —
 * the bounds of Table 2, how the split set was chosen, the pruned graph, the timelines, then
 * the hardware and launch they were computed for.
 */
export type PwsView = { 
/**
 * The split set used: `none`, `marked` (the programmer's marks through Select, Alg. 1)
 * or `optimal`.
 */
mode: string, 
/**
 * `E_WF` per model (Lemma 5.1 for PWS) and `E_kernel` (Lemma 5.5, Lemma 5.7).
 */
e_wf: PerModel<number>, e_kernel: PerModel<number>, 
/**
 * The numbers behind each `E_kernel`.
 */
kernel: PerModel<KernelBoundView>, 
/**
 * `N`: the most splits DWS can make in one execution.
 */
dws_splits: number, splits: SplitSetsView, candidates: Array<CandidateView>, 
/**
 * `IPET(C)` and `IPET(C_out)` of the chosen set, and `E_r`: the edges Prune removes,
 * `[from, to]`.
 */
ipet_unpruned: number, ipet_pruned: number, pruned_edges: Array<[number, number]>, nodes: Array<PwsNodeView>, 
/**
 * Fig. 9b per model (the report's `schedule` is the PWS one).
 */
timeline: PerModel<DispatchTimelineView>, hardware: PwsHardwareView, launch: PwsLaunchView,
};

/**
 * One register in every lane of the stepper's warp: as the listing names it (`R4`, `P0`,
 * `UR6`, `CC`), its value after the instruction when `written`, else before; lane 0 first.
 */
export type RegisterView = { name: string, written: boolean, values: Array<number>, };

/**
 * One parameter as the analysis used it.
 */
export type ResolvedParam = { name: string, 
/**
 * A number, `true`/`false`, or text (choices and text parameters).
 */
value: JsonValue, source: ParamSource, };

/**
 * The functional unit an instruction occupies, which is what timing models charge for
 * (`isa::ResourceClass`): the table's class column.
 */
export type ResourceClass = "alu" | "sfu" | "load_store_global" | "load_store_shared" | "load_store_local" | "constant" | "texture" | "control";

/**
 * The drawn path of one edge (`layout::RoutedEdge`): a polyline around the node boxes,
 * the arrow head at its last point.
 */
export type RoutedEdge = { 
/**
 * Position of the edge in the graph's `edges`.
 */
index: number, 
/**
 * Source and target node ids.
 */
from: number, to: number, 
/**
 * Whether the edge closes a cycle (a loop's back edge); self loops are not.
 */
back: boolean, 
/**
 * At least two points, from the border of `from` to the border of `to`.
 */
points: Array<[number, number]>,
};

/**
 * A bound applied to a loop exiting on unknown data: its header label, line, the bound and
 * where it came from (`loop_bounds`, `default_loop_bound` or `inferred`).
 */
export type RrLoopBoundView = { label: string, line: number, bound: number, source: string, };

/**
 * `details.rr`: what the page's round-robin summary shows.
 */
export type RrView = { 
/**
 * `max` (the safe bound) or `avg` (an estimate), and the label shown next to the WCET.
 */
mode: string, mode_label: string, grid: Dim3View, block: Dim3View, warps_per_block: number, wcet: RrWcetView, 
/**
 * N, N_coal and N_CompetingSM as Eq. 5.4–5.6 used them.
 */
estimates: EstimatesView, coalescing: CoalescingView, competing_sms: CompetingView, segments: Array<SegmentView>, 
/**
 * `LDSTPCList` (Alg. 1): program counters of the global loads and stores.
 */
pc_address: Array<number>, accesses: Array<AccessView>, 
/**
 * With `caches=true`: the L1, the shared LLC and the bypass heuristic.
 */
caches: CachesView | null, gantt: Array<GanttRowView>, traces: Array<TraceView>, 
/**
 * Where unknown data was paid for in the worst case (`unknown_data=pessimistic`).
 */
assumptions?: Array<AssumptionView>, 
/**
 * The bounds of the loops that exit on unknown data, which the page lets the user edit.
 */
loop_bounds?: Array<RrLoopBoundView>,
};

/**
 * The model's bound: the last SM to finish, each SM's finish, whether it is safe (`max`
 * without overrides) and what it does not guarantee.
 */
export type RrWcetView = { cycles: number, per_sm: Array<number>, safe: boolean, caveat?: string | null, };

/**
 * One box of the Gantt chart.
 */
export type ScheduleItem = { lane: number, start: number, length: number, group: number, label: string, };

/**
 * Lanes × cycles: what the page's Gantt chart draws.
 */
export type ScheduleView = { cycles: number, 
/**
 * Lane names, e.g. `L0`, `C0`, `C1`.
 */
lanes: Array<string>, items: Array<ScheduleItem>, 
/**
 * What `group` numbers (e.g. `warp`).
 */
group_name: string, 
/**
 * A name per group number when groups are categories rather than warps.
 */
group_labels?: Array<string>, };

/**
 * Which ready warp issues next (`{"random": seed}` for the seeded random choice).
 */
export type SchedulerView = "loose_round_robin" | "greedy_then_oldest" | "pure_round_robin" | "greedy_then_round_robin" | { "random": number };

/**
 * One execution of a segment: issued from `start` to `issue_end`, done at `end`.
 */
export type SegmentRunView = { segment: number, start: number, issue_end: number, end: number, };

/**
 * One code segment (instructions `start..end`) with its classes, LI and LE (Eq. 5.4–5.7)
 * and the issue times `T` of its executions per warp (`t[].warp` indexes `gantt`).
 */
export type SegmentView = { id: number, opcode: string, line: number, start: number, end: number, 
/**
 * `arithmetic`, `sfu`, `global_memory`, `shared_memory` or `barrier`.
 */
classes: Array<string>, li_inst: number, le_inst: number, li: number, le: number, t: Array<IssueTimesView>, };

/**
 * Why barriers keep the serialised bound: the first premise of the barrier-phase rule that
 * fails, with the places in the listing (`kind` names the premise).
 */
export type SerialisedView = { "kind": "call", address: number, } | { "kind": "form", address: number, } | { "kind": "irreducible", address: number, } | { "kind": "split", barrier: number, branch: number, } | { "kind": "exit", barrier: number, exit: number, } | { "kind": "unbounded", barrier: number, header: number, };

/**
 * One line of a chart; `style` is `line` or `dashed`.
 */
export type Series = { name: string, style: string, points: Array<[number, number]>, };

/**
 * How bad a diagnostic is (`isa::Severity`). `error` means the requested result could not
 * be produced (the CLI exits 1); warnings and notes accompany a result. Ordered as the
 * report sorts: errors first.
 */
export type Severity = "error" | "warning" | "note";

/**
 * What a simulation is checked against.
 */
export type SimBound = { 
/**
 * The bound in cycles, or `null` when this run has no comparable bound.
 */
cycles: number | null, 
/**
 * What the bound is (e.g. `E_WF without splitting (one wavefront)`), or why there is none.
 */
what: string,
};

/**
 * Which bound of §5.3 priced a request, with its inputs (tagged by `model`).
 */
export type SimdAccessModel = { "model": "tiled", stride: SimdStrideView, bursts: number, worst_offset: number, write: boolean, simulated: SimdSimulatedLidView, } | { "model": "single", stride: SimdStrideView, bursts: number, simulated: SimdSimulatedLidView, } | { "model": "block_indexed", buffer_words: number, bursts: number, write: boolean, } | { "model": "index_iterative", buffer_words: number, rows: number, write: boolean, } | { "model": "scratchpad", words: number, lines: number, };

/**
 * The worst-case cost of one request (§5.3): which bound was applied, with its inputs, and
 * the longest issue delay (LID) it gives.
 */
export type SimdAccessView = { 
/**
 * Instruction index of the request.
 */
instruction: number, 
/**
 * The request's op, its mnemonic's parts joined by underscores: `ldg_lin`, `stg_lin`,
 * `ldg_c_idx`, `stg_c_idx`, `ldg2_sp_tile`, `stg2_sp_tile`, `sldg`, `ldg_b_idx`,
 * `stg_b_idx`, `ldg_idx_it`, `stg_idx_it`, `ldsp_b_idx`, `stsp_b_idx`, `sldsp`,
 * `ldsp_lin`, `stsp_lin` (the only ops that end a block with a request).
 */
op: string, resource: SimdResource, model: SimdAccessModel, 
/**
 * LID in DRAM clock cycles (the scratchpad runs at the DRAM clock).
 */
dram_cycles: number, 
/**
 * The same in compute cycles (rounded up): the phase cost.
 */
cycles: number,
};

/**
 * A basic block (§5.1) for the graph view: its instructions and source lines, its cold and
 * warm pipeline costs (§5.3) and the request ending it.
 */
export type SimdBlockView = { id: number, first_instruction: number, instruction_count: number, 
/**
 * Source lines of the first and last instruction (1-based).
 */
first_line: number, last_line: number, 
/**
 * The label naming the block, if any.
 */
label: string | null, 
/**
 * Cold-pipeline cost in compute cycles (§5.3).
 */
cold_cycles: number, 
/**
 * Warm-pipeline cost (`null` for the last block).
 */
warm_cycles: number | null, 
/**
 * The DRAM or scratchpad request ending the block.
 */
access: SimdAccessView | null, };

/**
 * The budgets that keep the analysis bounded (the mode's `max_…` parameters).
 */
export type SimdBudgetView = { 
/**
 * Most DAG nodes created while unrolling loops (§5.4), over all loop DAGs.
 */
max_dag_nodes: number, 
/**
 * Most simulated pipeline cycles (cold and warm runs together, §5.3).
 */
max_pipeline_cycles: number, 
/**
 * Most periods of one DRAM stride request examined (§3.2.1).
 */
max_stride_periods: number, 
/**
 * Most words walked for one scratchpad stride request (§3.3).
 */
max_sp_stride_words: number, 
/**
 * Most intervals in the schedule (Gantt) data.
 */
max_schedule_intervals: number,
};

/**
 * Everything the equations used besides the program and the launch: the hardware of
 * Table 3 and the analysis's budgets.
 */
export type SimdConfigView = { 
/**
 * DRAM configuration (Table 1 / Table 3).
 */
dram: SimdDramPreset, pipeline: SimdPipelineView, 
/**
 * Compute clock in MHz (Table 3: 1 GHz). Converts DRAM cycles to compute cycles.
 */
compute_clock_mhz: number, 
/**
 * Work-items per work-group (§3: 1024).
 */
work_items: number, 
/**
 * SP-units (Table 3: 128): a vector instruction is issued work_items / sp_units times,
 * once per sub-vector (§5.3).
 */
sp_units: number, 
/**
 * RCP-units (Table 3: 32, one per four SP-units, §5.3).
 */
rcp_units: number, 
/**
 * Scratchpad bus width in 32-bit words per cycle (Table 3: 4–32; the reference build
 * uses 4).
 */
sp_bus_words: number, 
/**
 * Latency of the non-pipelined radix-16 scalar integer divider, in cycles (§3.1: 8).
 */
divider_cycles: number, 
/**
 * DRAM controller pipeline delay added to a closed-form LID, in DRAM cycles (the
 * reference tool: 3).
 */
dram_pipeline_cycles: number, 
/**
 * How many work-groups the schedule (Gantt) shows, from the start of the kernel.
 */
schedule_work_groups: number, budget: SimdBudgetView, 
/**
 * Budget: most DRAM controller steps simulated for one stride request over all its
 * start offsets.
 */
max_dram_sim_steps: number,
};

/**
 * Size of the unrolled DAG (§5.4; the page's "unrolled DAG" row).
 */
export type SimdDagView = { nodes: number, edges: number, };

/**
 * How the path=launch walks chose their edges, summed over the work-groups.
 */
export type SimdDecisionsView = { 
/**
 * Choices the interpreter decided (at nodes with several out-edges, and early exits).
 */
decided: number, 
/**
 * Choices made by the fallback (including `capped`).
 */
fallback: number, 
/**
 * Of `fallback`: decided edges the DAG does not offer (a loop counted past its bound).
 */
capped: number, 
/**
 * Nodes with a single out-edge out of a block that could go more than one way, where
 * the interpreter decided that edge too: a check of the annotations.
 */
confirmed: number, 
/**
 * Work-groups that ended before the end of the program (every work-item exited).
 */
early_exits: number, 
/**
 * Work-groups with no fallback choice.
 */
work_groups_all_decided: number, 
/**
 * Per work-group, for the first `schedule_work_groups`: `[decided, fallback]`.
 */
shown: Array<[number, number]>,
};

/**
 * `simd` details: the phase analysis and, with `simulate=true`, an execution of the launch.
 */
export type SimdDetails = { 
/**
 * `simulate=true`: an execution under the chosen scheduler (`phases::execution`,
 * Sim-D §4, Fig. 4, Fig. 7), with its Gantt chart on the worst case's time axis.
 */
execution?: SimdExecutionReport | null, launch: SimdLaunchView, config: SimdConfigView, dram: SimdDramView, 
/**
 * Program upload (§5.7, Eq. 18's tID_R(b)).
 */
upload: SimdUploadView, 
/**
 * The basic blocks of §5.1 with their costs (§5.3).
 */
blocks: Array<SimdBlockView>, 
/**
 * The CFG edges of §5.2 with their stack annotations and penalties (§5.3).
 */
edges: Array<SimdEdgeView>, 
/**
 * The loops unrolled into the DAG (§5.4).
 */
loops: Array<SimdLoopView>, dag: SimdDagView, 
/**
 * The two scheduling policies of §4.2.
 */
sp_as_access: SimdPolicyView, sp_as_compute: SimdPolicyView, 
/**
 * WCET^U (Eq. 10) from the scratchpad-as-access phase list, + upload, inflated (Eq. 19).
 */
wcet_upper: number, 
/**
 * WCET^L (Eq. 14) from the scratchpad-as-access phase list.
 */
wcet_lower: number, lower_bounds: SimdLowerBoundsView, 
/**
 * The analysis's non-fatal findings (also in the report's `diagnostics`).
 */
diagnostics: Array<Diagnostic>,
};

/**
 * The DRAM configurations of the paper (Table 1 and Table 3), by the names the `dram`
 * parameter takes.
 */
export type SimdDramPreset = "ddr4-3200aa-2bg" | "ddr4-3200aa-4bg" | "ddr4-1866m";

/**
 * One DDR4 configuration: organisation and the timing parameters of Table 1, in DRAM clock
 * cycles (`tCK`).
 */
export type SimdDramTimingView = { 
/**
 * nB: banks per rank.
 */
banks: number, 
/**
 * nBG: bank groups per rank.
 */
bank_groups: number, 
/**
 * nR: rows per bank.
 */
rows: number, 
/**
 * nC: columns per row.
 */
columns: number, 
/**
 * nBW: 32-bit words per burst.
 */
words_per_burst: number, 
/**
 * Effective data-bus width in bytes.
 */
bus_bytes: number, 
/**
 * DRAM command clock in MHz.
 */
clock_mhz: number, 
/**
 * nRCD: row-activate to CAS delay.
 */
n_rcd: number, 
/**
 * nCAS: read to first burst.
 */
n_cas: number, 
/**
 * nCWD: write to first burst.
 */
n_cwd: number, 
/**
 * nRP: row precharge.
 */
n_rp: number, 
/**
 * nBURST: cycles per burst.
 */
n_burst: number, 
/**
 * nRAS: row activate strobe.
 */
n_ras: number, 
/**
 * nRTP: read to precharge.
 */
n_rtp: number, 
/**
 * nWR: write recovery.
 */
n_wr: number, 
/**
 * nRFC: refresh cycle time (Eq. 19).
 */
n_rfc: number, 
/**
 * nREFI: refresh interval (Eq. 19).
 */
n_refi: number, 
/**
 * nCCD_S: column to column, different bank group.
 */
n_ccd_s: number, 
/**
 * nCCD_L: column to column, same bank group.
 */
n_ccd_l: number, 
/**
 * nRRD_S: activate to activate, different bank group.
 */
n_rrd_s: number, 
/**
 * nRRD_L: activate to activate, same bank group.
 */
n_rrd_l: number, 
/**
 * nFAW: four-activate window (not in Table 1: the reference tool's and Ramulator's).
 */
n_faw: number, 
/**
 * nWTR_S / nWTR_L: write-to-read turnaround, other / same bank group (Ramulator's).
 */
n_wtr_s: number, n_wtr_l: number,
};

/**
 * The DRAM configuration used (the page's "DRAM" row): its preset, where its numbers come
 * from, and the timing of Table 1.
 */
export type SimdDramView = { preset: SimdDramPreset, source: string, timing: SimdDramTimingView, };

/**
 * Edge classes, which §5.3 prices differently.
 */
export type SimdEdgeKind = "fallthrough" | "jump" | "cpop_injected";

/**
 * A CFG edge (§5.2) for the graph view, with its stack annotation and its transition
 * penalty (§5.3).
 */
export type SimdEdgeView = { from: number, to: number, kind: SimdEdgeKind, 
/**
 * CSTACK entries popped on this edge.
 */
cpops: number, 
/**
 * Stack annotation (bottom first), §5.2.
 */
stack: Array<SimdStackEntryView>, 
/**
 * Transition penalty in compute cycles (§5.3).
 */
cycles: number, };

/**
 * A Sim-D execution next to the WCET (`simd` mode, `simulate=true`).
 */
export type SimdExecutionReport = { 
/**
 * The observed schedule of the first `schedule_work_groups` work-groups, drawn like
 * `report.schedule`: times from the end of the program upload, as the worst-case
 * schedule's (which leaves upload and refresh out), so both share one time axis.
 */
gantt: ScheduleView, 
/**
 * Where the shown work-groups end in the worst-case schedule and in the run (same axis):
 * the gap the page marks.
 */
wcet_shown_end: number, observed_shown_end: number, scheduler: SimdScheduler, path: SimdPathChoice, 
/**
 * Observed kernel time in compute cycles: program upload, every work-group, refresh.
 */
cycles: number, 
/**
 * The bound the run is checked against: the policy's WCET for `sp-as-access` and
 * `sp-as-compute`, WCET^U (Eq. 10) otherwise (which the paper proves only for
 * serialisations of the policies).
 */
bound: number, within_bound: boolean, work_groups: number, phase_instances: number, refreshes: number, utilisation: Array<SimdLaneUseView>, 
/**
 * The first `schedule_work_groups` work-groups as Gantt data, the WCET schedule's shape
 * (times include the program upload, as `cycles` does).
 */
schedule: SimdScheduleView, 
/**
 * Refreshes within the shown part, `[start, end)` on the `dram` lane.
 */
refresh_intervals: Array<[number, number]>, 
/**
 * The program upload, `[0, end)` on the `dram` lane.
 */
upload: [number, number], 
/**
 * DRAM controller runs at actual addresses (distinct command streams).
 */
controller_runs: number, 
/**
 * Requests that cost more at their address than their WCET cost (should be none):
 * `[block, work_group, observed, wcet]`, at most 64.
 */
requests_above_wcet: Array<[number, number, number, number]>, 
/**
 * How path=launch chose the work-groups' edges (`null` for the other path choices).
 */
decisions: SimdDecisionsView | null,
};

/**
 * The choice at a node whose edge the interpreter cannot decide (the `fallback`
 * parameter; tagged by `kind`).
 */
export type SimdFallback = { "kind": "worst" } | { "kind": "random", seed: number, };

/**
 * One reservation σ = (φ, w, r, z, [start, end)) (§4.3), half-open, in compute cycles.
 */
export type SimdIntervalView = { 
/**
 * Lane (resource instance): `compute`, `dram`, `sp0`, `sp1`.
 */
lane: string, start: number, end: number, 
/**
 * Phase index in the phase list.
 */
phase: number, work_group: number, 
/**
 * Work-group slot z ∈ {0, 1}.
 */
slot: number, label: string,
};

/**
 * Busy time of one lane (a row of the page's utilisation table).
 */
export type SimdLaneUseView = { lane: string, 
/**
 * Cycles the lane holds a phase (and, for `dram`, a refresh).
 */
busy: number, 
/**
 * `busy / cycles · 100`.
 */
percent: number, };

/**
 * The launch as analysed (§3): the NDRange, the work-group's width and height, and `w`, the
 * number of work-groups.
 */
export type SimdLaunchView = { nd_range: [number, number], wg_width: number, wg_height: number, 
/**
 * w: number of work-groups.
 */
work_groups: number, };

/**
 * A loop (§5.4): blocks `start..=end`, entered at `start`, repeated by a back edge from
 * `end`; `parent` and `children` are indices into `loops`.
 */
export type SimdLoopView = { start: number, end: number, parent: number | null, children: Array<number>, };

/**
 * The components of WCET^L (Eq. 14).
 */
export type SimdLowerBoundsView = { 
/**
 * Eq. 11: w · max over resources of C(K, r) (+ upload; the DRAM sum refresh-inflated).
 */
l1: number, 
/**
 * Eq. 13: ⌈w/2⌉ · Σ c_i, inflated (+ upload).
 */
l2: number,
};

/**
 * The access a DAG node performs: its resource and cost in compute cycles.
 */
export type SimdNodeAccessView = { resource: SimdResource, cycles: number, };

/**
 * The cost terms of §5.7 for one phase list (the page's c_1wg, c_2wg, c_edge columns).
 */
export type SimdPairCostView = { 
/**
 * c_1wg = Σ c_i: one work-group alone.
 */
c_1wg: number, 
/**
 * c_2wg: a pair of work-groups alternating resources.
 */
c_2wg: number, 
/**
 * Eq. 17: min(c_1, c_n) for an even number of work-groups, c_1wg for an odd number.
 */
c_edge: number, 
/**
 * ⌊w/2⌋ · c_2wg + c_edge: Eq. 18 without the program upload.
 */
schedule: number,
};

/**
 * How each work-group's path was chosen (the `path` parameter; tagged by `kind`).
 */
export type SimdPathChoice = { "kind": "worst" } | { "kind": "random", seed: number, } | { "kind": "from_launch", fallback: SimdFallback, };

/**
 * One step of the critical path (§5.5): a DAG node and the weight of the edge to the next.
 */
export type SimdPathStepView = { node: number, block: number, 
/**
 * Weight of the edge to the next step (0 for the last), including the scratchpad cost
 * under the scratchpad-as-compute policy.
 */
weight: number, 
/**
 * The access at this step as the policy sees it.
 */
access: SimdNodeAccessView | null, };

/**
 * A phase Φ_i = (ρ_i, c_i) of the program model (§4.1; a row of the page's phase list).
 */
export type SimdPhaseView = { 
/**
 * Position in the list (0-based; the paper counts from 1).
 */
index: number, 
/**
 * ρ_i: the resource type.
 */
resource: SimdResource, 
/**
 * c_i: worst-case cost in compute cycles.
 */
cycles: number, 
/**
 * The block whose request ends (compute phase) or is (access phase) this phase.
 */
block: number,
};

/**
 * The in-order compute pipeline of §3.1 (the page's "pipeline" row).
 */
export type SimdPipelineView = { 
/**
 * Decode/operand-fetch stages: 1 (reference implementation), or 3 (§3.1).
 */
decode_stages: number, 
/**
 * Execute stages: 3 (reference implementation) or 5 (§3.1).
 */
execute_stages: number,
};

/**
 * The two work-group scheduling policies of §4.2.
 */
export type SimdPolicy = "sp_as_access" | "sp_as_compute";

/**
 * The result for one scheduling policy (a row of the page's policy table, and its phase
 * list): the kernel WCET (Eq. 17–19), the phases of §5.6, the critical path of §5.5 and the
 * worst-case schedule of §4.3.
 */
export type SimdPolicyView = { policy: SimdPolicy, 
/**
 * Kernel WCET in compute cycles: Eq. 18 inflated by Eq. 19.
 */
wcet: number, 
/**
 * Eq. 18 before refresh inflation.
 */
wcet_before_refresh: number, phase_count: number, phases: Array<SimdPhaseView>, pair: SimdPairCostView, 
/**
 * The critical path through the DAG (§5.5) under this policy's weights.
 */
critical_path: Array<SimdPathStepView>, 
/**
 * Its length: the sum of its edge weights and accesses.
 */
critical_path_cycles: number, schedule: SimdScheduleView, };

/**
 * The resource a phase occupies (§4.1: COMPUTE, DRAM, SP).
 */
export type SimdResource = "compute" | "dram" | "scratchpad";

/**
 * A schedule of the two work-group slots as Gantt data (§4.2–4.3): lanes × intervals. The
 * report's `schedule` draws the better policy's; this is the raw form.
 */
export type SimdScheduleView = { 
/**
 * The resource instances of §4.1: `compute`, `dram`, `sp0`, `sp1`.
 */
lanes: Array<string>, intervals: Array<SimdIntervalView>, 
/**
 * Work-groups shown (from the start of the kernel).
 */
work_groups: number, 
/**
 * Whether the kernel has more work-groups than shown, or the interval budget cut the
 * schedule short.
 */
truncated: boolean, 
/**
 * t_end of the schedule shown (Definition 1).
 */
makespan: number,
};

/**
 * The four work-group schedulers of the paper's evaluation (§4.2, §6.2, Fig. 7), by the
 * names the `scheduler` parameter takes.
 */
export type SimdScheduler = "unconstrained" | "pairwise" | "sp-as-access" | "sp-as-compute";

/**
 * The DRAM controller simulation of one request over its start offsets (the reference
 * tool's, §5.3).
 */
export type SimdSimulatedLidView = { 
/**
 * The largest LID in DRAM cycles (includes the front-end delay).
 */
lid: number, 
/**
 * Byte address of a start that attains it.
 */
worst_addr: number, 
/**
 * Burst requests issued at that start.
 */
bursts: number, 
/**
 * Start offsets simulated and how many distinct command streams they produced.
 */
offsets: number, distinct_streams: number, 
/**
 * Work charged to the `max_dram_sim_steps` budget.
 */
steps: number,
};

/**
 * One entry of an edge's stack annotation (§5.2): the block it returns to and its kind.
 */
export type SimdStackEntryView = { target: number, kind: SimdStackKind, };

/**
 * Type of a CSTACK entry (the `cpush` sub-operation, §5.2).
 */
export type SimdStackKind = "run" | "break" | "return";

/**
 * A stride descriptor (§3.2.1): `period_count` periods of `words` consecutive 32-bit words,
 * each period starting `period` words after the previous one, from byte address `addr`.
 */
export type SimdStrideView = { addr: number, words: number, period: number, period_count: number, };

/**
 * Program upload time (§5.7, Eq. 18's tID_R(b)): the binary, 8 bytes per instruction, read
 * as one burst-aligned request (the page's "program upload" row).
 */
export type SimdUploadView = { instructions: number, bytes: number, bursts: number, dram_cycles: number, 
/**
 * In compute cycles.
 */
cycles: number, };

/**
 * A simulator run as the report carries it: the run itself (its fields at the top level,
 * as before this was typed), the bound it is compared with, and whether it stayed within.
 */
export type SimulationReport = { 
/**
 * The bound the mode checks this run against, or why there is none to compare with;
 * absent for a plain `simulate` run, which has no bound.
 */
bound?: SimBound | null, 
/**
 * `run.cycles <= bound.cycles`: whether the bound holds for this execution; absent when
 * there is no bound to compare with. A `false` is a soundness bug to report.
 */
holds?: boolean | null, 
/**
 * Traced runs (SASS, PTX, GCN3): per loop header, the most iterations one thread made per
 * entry ([`crate::observed_loops`]); what `loop_bounds=observed` bounds with, and what
 * every inferred bound is checked against.
 */
loop_iterations?: Array<ObservedLoop>, 
/**
 * Observed cycles: the latest completion of any issued instruction.
 */
cycles: number, 
/**
 * Warp-instructions issued over all warps.
 */
issued: number, 
/**
 * The trace (timelines, occupancy, memory transactions) stopped at the budget
 * `max_timeline_entries`; the run itself went on to its end.
 */
timeline_truncated?: boolean, machine: MachineView, 
/**
 * L1 hits and misses over the run (`null` without an L1).
 */
l1: CacheStatsView | null, warps: Array<WarpView>, 
/**
 * Each lane of each unit kind with its busy intervals.
 */
occupancy: Array<UnitLaneView>, transactions: Array<TransactionView>, 
/**
 * Every array of global memory as the run left it.
 */
memory: Array<FinalArrayView>, 
/**
 * Accesses outside every array of open memory (absent when the memory is closed).
 */
outside?: OutsideLogView | null, stepper: StepperView, 
/**
 * A run on several SMs (the `launch` mode): per block, in block order, the SM it ran
 * on; absent on one SM.
 */
block_sms?: Array<number>,
};

/**
 * One cell of the witness schedule's Gantt chart: warp `warp` runs instruction `instr` of
 * the transformed string on lane `lane` of unit `unit` (`"L"` or `"C"`) in cycle `cycle`
 * (from 1, as in the ILP's `t = 1..T`, §5).
 */
export type SlotView = { cycle: number, unit: string, lane: number, warp: number, instr: number, };

/**
 * Where a figure of the kernel came from, as the report spells it.
 */
export type Source = "from dump" | "estimated from listing" | "parameter" | "from metadata" | "from descriptor";

/**
 * A mark of CUDA C++ source: where it is and what it is
 * (`isa::dialect_guess::SourceMark`).
 */
export type SourceMark = { 
/**
 * 1-based line of the mark.
 */
line: number, 
/**
 * The mark, as written.
 */
evidence: string,
};

/**
 * `S` (split contexts per wavefront), `e_s` and `e_m` (cycles of a split and of a merge).
 */
export type SplitCostsView = { s: number, e_s: number, e_m: number, };

/**
 * The split sets side by side: the marks, Select's set, the optimal one (absent when over
 * budget) and the one used. Node ids of `nodes`.
 */
export type SplitSetsView = { marked: Array<number>, select: Array<number>, optimal: Array<number> | null, chosen: Array<number>, };

/**
 * Wavefront splitting: none, or DWS/PWS with their costs (`{"kind": "pws", "s": 2, …}`).
 */
export type SplittingView = { "kind": "none" } | { "kind": "dws" } & SplitCostsView | { "kind": "pws" } & SplitCostsView;

/**
 * One entry of the activation stack.
 */
export type StackEntryView = { tag: TagView, 
/**
 * Its next instruction: index and address (0 past the end of the kernel).
 */
pc: number, address: number, 
/**
 * PTX: where the entry is popped (its immediate post-dominator), unless that is the exit.
 */
reconverges_at?: number | null, mask: Lanes, };

/**
 * Which step of the request a diagnostic comes from (`isa::Stage`), so a user can tell "my
 * kernel does not parse" from "the analysis cannot bound it" from "the simulator cannot
 * run it".
 */
export type Stage = "request" | "parse" | "analysis" | "simulation";

/**
 * The warp before one instruction executes.
 */
export type StepView = { cycle: number, 
/**
 * The instruction: its index, address, source line and text.
 */
index: number, address: number, line: number, text: string, 
/**
 * Each lane's active bit (the executing entry's mask), and the active lanes whose
 * guard holds.
 */
active: Lanes, executed: Lanes, 
/**
 * The activation stack, bottom first; the last entry executes. Empty under
 * independent thread scheduling, which has `groups` instead.
 */
stack: Array<StackEntryView>, groups?: ThreadGroupsView | null, 
/**
 * SASS, the first steps of a run: each lane's value of the registers the instruction
 * reads (before it) and writes (after it).
 */
registers?: Array<RegisterView>, };

/**
 * The steps of one warp; forward and back are indices into `steps`.
 */
export type StepperView = { warp: number, steps: Array<StepView>, 
/**
 * The warp issued more than `max_stepper_steps` instructions: `steps` holds the first.
 */
truncated?: boolean, };

/**
 * What pushed a stack entry (`"sync"`, `{"barrier": 0}`, `{"ipdom": {"arrived": true}}`),
 * grouped by the stack that has it.
 */
export type TagView = "path" | { "ipdom": { arrived: boolean, } } | "rpc" | "sync" | "brk" | "cont" | "call" | "nil" | { "barrier": number } | "warp_sync" | "any";

/**
 * One thread group: its threads, its next instruction (or the one it waits at) and what
 * it waits for (`BSYNC B0`, `WARPSYNC`; absent when it can run).
 */
export type ThreadGroupView = { mask: Lanes, pc: number, address: number, waiting?: string | null, 
/**
 * The scheduler chose it for this step.
 */
issuing: boolean, };

/**
 * Under independent thread scheduling: the thread groups that issue independently (oldest
 * first, exactly one `issuing`) and the convergence-barrier registers that record threads.
 */
export type ThreadGroupsView = { groups: Array<ThreadGroupView>, barriers: Array<BarrierRegisterView>, };

/**
 * The order a diverged warp's paths issue in: the activation stack's, or one of the
 * independent-thread-scheduling choices (`{"random": seed}`).
 */
export type ThreadSchedulingView = "stack_order" | "round_robin" | "newest" | { "random": number };

/**
 * Alg. 4's trace of one warp: basic blocks in execution order, the instruction of every
 * step and the threads active at it.
 */
export type TraceView = { block_index: [number, number, number], threads: number, basic_blocks: Array<number>, steps: Array<number>, active: Array<number>, block: number, warp: number, sm: number, };

/**
 * The memory side of one warp-instruction: who accessed what, at which lane addresses,
 * and the 128-byte segments (transactions) they coalesce into.
 */
export type TransactionView = { 
/**
 * The cycle it issued, the warp, and the instruction's index.
 */
cycle: number, warp: number, index: number, 
/**
 * `global`, `shared`, `local` or `texture` (a texture fetch or surface access), a load
 * or a store, of `bytes` per lane.
 */
space: string, store: boolean, bytes: number, 
/**
 * What it cost: the base addresses of the distinct segments of a global access (empty
 * for shared memory), and how many hit in the L1 (loads with an L1 configured).
 */
segments: Array<number>, l1_hits: number | null, 
/**
 * The executing lanes and their addresses: the first lane's, and when the `k`-th
 * executing lane accesses `first + k·stride`, the stride (`addresses` then empty);
 * otherwise `null` and each executing lane's address.
 */
lanes: Lanes, first: number, stride: number | null, addresses: Array<number>,
};

/**
 * One lane of a unit kind and the cycles `start..end` it was busy (back-to-back
 * warp-instructions merged).
 */
export type UnitLaneView = { unit: UnitName, lane: number, busy: Array<BusyView>, };

/**
 * A kind of functional unit, as the occupancy and each issue name it.
 */
export type UnitName = "core" | "load_store" | "sfu";

/**
 * What the `warp-cfg` mode found besides the bound.
 */
export type WarpCfgDetails = { 
/**
 * Abstract states (graph nodes, the exit node excluded).
 */
states: number, divergence_edges: number, loops: Array<LoopView>, 
/**
 * Nodes on the worst-case path with their contribution, largest first.
 */
breakdown: Array<CostTerm>, 
/**
 * The analysis components that were on (`agreement`, `pending_agreement`, `groups`,
 * `cyclic_stacks`).
 */
components: { [key in string]: boolean }, 
/**
 * ILP size and effort.
 */
ilp_variables: number, ilp_constraints: number, branch_and_bound_nodes: number, 
/**
 * LP relaxation optimum (an upper bound on `wcet.cycles`).
 */
lp_bound: number, 
/**
 * PTX: the branches whose lanes may disagree, found by the divergence analysis (SASS
 * leaves it empty: there the abstract interpretation decides per context).
 */
divergent_branches?: Array<DivergentBranch>, 
/**
 * SASS with `its` set: one warp under independent thread scheduling next to the stack
 * order (`cfg::interleaving`).
 */
interleaving?: InterleavingView | null,
};

/**
 * One issued warp-instruction: which, when, by which lanes, on which unit lane.
 */
export type WarpIssueView = { 
/**
 * Instruction index in the kernel, and its source line.
 */
index: number, line: number, 
/**
 * Cycle it issued (from 0) and cycle its result is available.
 */
issue: number, complete: number, 
/**
 * Lanes of the executing stack entry, and those of them whose guard held.
 */
active: Lanes, executed: Lanes, 
/**
 * The unit and the lane of it the instruction occupied.
 */
unit: UnitName, lane: number,
};

/**
 * One warp's share of the block bound: its isolated time, what the others can take from
 * it, and when it has finished at the latest.
 */
export type WarpShareView = { warp: number, isolated: number, interference: number, response: number, };

/**
 * Everything one warp did: when its block came and it finished, each instruction it
 * issued, and its activation stack's depth over time.
 */
export type WarpView = { 
/**
 * Global warp id: block-major (blocks in x, y, z order), then warp within the block.
 */
warp: number, block: number, warp_in_block: number, 
/**
 * Cycle its block was dispatched to the SM, and completion of its last instruction.
 */
dispatched: number, finished: number, issues: Array<WarpIssueView>, 
/**
 * The stack depth from each `cycle` on.
 */
stack_depth: Array<DepthView>,
};

/**
 * A WCET bound.
 */
export type Wcet = { 
/**
 * The bound, in cycles of the cost model.
 */
cycles: number, cost_model: string, 
/**
 * The loops whose bound the WCET rests on without the code or the request giving it:
 * `default_loop_bound` (an assumption) or `loop_bounds=observed` (one run's count).
 * Empty (and absent from the JSON) when every loop bound is inferred or given.
 */
assumed_loop_bounds?: Array<AssumedLoopBound>,
};

