//! Sim-D phase-based WCET (Spliet & Mullins, *Sim-D: a SIMD accelerator for hard real-time
//! systems*, §4–5).
//!
//! What this crate *is*: the eight steps of the paper's WCET tool (§5) for one kernel-instance
//! of a Sim-D program — basic blocks (§5.1, [`basic_blocks`]), control-flow analysis with
//! control-stack-annotated edges (§5.2, [`control_flow`], [`loops`]), worst-case
//! performance of requests and blocks (§5.3, [`access`] with [`dram`], [`stride`] and
//! [`controller`];
//! [`pipeline`]), loop unrolling into a DAG and its critical path (§5.4–5.5, [`dag`]), the
//! phase lists of both scheduling policies (§5.6, [`phase_list`]), the kernel WCET (Eq. 17–18)
//! with refresh inflation (Eq. 19), the bounds WCET^U and WCET^L (Eq. 10–14), and the
//! worst-case two-slot schedule as Gantt data (§4.3, [`schedule`]). [`analyze`] runs them all.
//!
//! What it is *not*: no parser (that is [`isa::simd`]), no general DRAM simulator — the
//! cycle model of [`controller`] covers exactly the reference tool's memory controller for
//! one stride request at a time (tile requests are costed by sweeping it over every start
//! offset, as the reference does) — and no I/O. Pure and deterministic: same input, same
//! output; every potentially large computation has a budget ([`config::Budget`],
//! [`Config::max_dram_sim_steps`]).
//!
//! Modelling choices follow the public reference implementation where the paper is silent
//! (pipeline defaults, the DDR4-1866M timings, rounding in Eq. 19, the 3-cycle controller
//! delay); each is documented where it is made.

pub mod access;
pub mod basic_blocks;
pub mod config;
pub mod control_flow;
pub mod controller;
pub mod dag;
pub mod dram;
pub mod error;
pub mod execution;
pub mod launch;
pub mod loops;
pub mod phase_list;
pub mod pipeline;
pub mod schedule;
pub mod stride;

pub use access::{AccessCost, AccessModel, Resource, UploadCost};
pub use config::{Budget, Config, PipelineConfig};
pub use control_flow::{EdgeKind, StackEntry, StackKind};
pub use dag::PathStep;
pub use dram::{DramPreset, DramTiming};
pub use error::{Error, ErrorKind};
pub use launch::Launch;
pub use phase_list::{PairCost, Phase};
pub use schedule::{Interval, Schedule};

use isa::simd::Program;
use isa::{Diagnostic, Limits};

/// The two work-group scheduling policies of §4.2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Scratchpad transfers are access phases (they alternate with compute).
    SpAsAccess,
    /// Scratchpad transfers are part of the surrounding compute phase.
    SpAsCompute,
}

/// The launch as analysed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaunchInfo {
    pub nd_range: [u64; 2],
    pub wg_width: u64,
    pub wg_height: u64,
    /// w: number of work-groups.
    pub work_groups: u64,
}

/// The DRAM configuration used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DramInfo {
    pub preset: DramPreset,
    pub source: String,
    pub timing: DramTiming,
}

/// A basic block for the graph view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockInfo {
    pub id: usize,
    pub first_instruction: usize,
    pub instruction_count: usize,
    /// Source lines of the first and last instruction (1-based).
    pub first_line: u32,
    pub last_line: u32,
    /// The label naming the block, if any.
    pub label: Option<String>,
    /// Cold-pipeline cost in compute cycles (§5.3).
    pub cold_cycles: u64,
    /// Warm-pipeline cost (`None` for the last block).
    pub warm_cycles: Option<u64>,
    /// The DRAM or scratchpad request ending the block.
    pub access: Option<AccessCost>,
}

/// A CFG edge for the graph view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeInfo {
    pub from: usize,
    pub to: usize,
    pub kind: EdgeKind,
    /// CSTACK entries popped on this edge.
    pub cpops: u32,
    /// Stack annotation (bottom first), §5.2.
    pub stack: Vec<StackEntry>,
    /// Transition penalty in compute cycles (§5.3).
    pub cycles: u64,
}

/// Size of the unrolled DAG (§5.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DagInfo {
    pub nodes: usize,
    pub edges: usize,
}

/// The result for one scheduling policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyResult {
    pub policy: Policy,
    /// Kernel WCET in compute cycles: Eq. 18 inflated by Eq. 19.
    pub wcet: u64,
    /// Eq. 18 before refresh inflation.
    pub wcet_before_refresh: u64,
    pub phase_count: usize,
    pub phases: Vec<Phase>,
    pub pair: PairCost,
    /// The critical path through the DAG (§5.5) under this policy's weights.
    pub critical_path: Vec<PathStep>,
    /// Its length: the sum of its edge weights and accesses.
    pub critical_path_cycles: u64,
    pub schedule: Schedule,
}

/// The components of WCET^L (Eq. 14).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LowerBounds {
    /// Eq. 11: w · max over resources of C(K, r) (+ upload; the DRAM sum refresh-inflated).
    pub l1: u64,
    /// Eq. 13: ⌈w/2⌉ · Σ c_i, inflated (+ upload).
    pub l2: u64,
}

/// Everything the analysis produces (maps onto the report's `simd` object).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimdResult {
    pub launch: LaunchInfo,
    pub config: Config,
    pub dram: DramInfo,
    /// Program upload (Eq. 18's tID_R(b)).
    pub upload: UploadCost,
    pub blocks: Vec<BlockInfo>,
    pub edges: Vec<EdgeInfo>,
    pub loops: Vec<loops::Loop>,
    pub dag: DagInfo,
    pub sp_as_access: PolicyResult,
    pub sp_as_compute: PolicyResult,
    /// WCET^U (Eq. 10) from the scratchpad-as-access phase list, + upload, inflated.
    pub wcet_upper: u64,
    /// WCET^L (Eq. 14) from the scratchpad-as-access phase list.
    pub wcet_lower: u64,
    pub lower_bounds: LowerBounds,
    /// Non-fatal findings.
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses `text` and analyses it (see [`analyze`]).
pub fn analyze_text(
    text: &str,
    limits: &Limits,
    launch: &Launch,
    config: &Config,
) -> Result<SimdResult, Error> {
    let parsed = isa::simd::parse(text, limits);
    if parsed.has_errors() {
        return Err(Error::parse(parsed.diagnostics));
    }
    let Some(program) = parsed.program else {
        return Err(Error::parse(parsed.diagnostics));
    };
    let mut r = analyze(&program, launch, config)?;
    let mut diags = parsed.diagnostics;
    diags.append(&mut r.diagnostics);
    r.diagnostics = diags;
    Ok(r)
}

/// Runs the Sim-D WCET analysis (§5, steps 1–8) of one kernel-instance.
pub fn analyze(program: &Program, launch: &Launch, config: &Config) -> Result<SimdResult, Error> {
    analyze_with_dag(program, launch, config).map(|(r, _)| r)
}

/// [`analyze`], also returning the unrolled timing DAG of §5.4 (the paths a work-group can
/// take, which [`execution`] walks).
pub fn analyze_with_dag(
    program: &Program,
    launch: &Launch,
    config: &Config,
) -> Result<(SimdResult, dag::Dag), Error> {
    config.validate()?;
    launch.validate(config.work_items)?;
    let w = launch.work_groups(config.work_items);
    let dram = config.dram.timing();
    let mhz = config.compute_clock_mhz;

    // Steps 1–2.
    let blocks = basic_blocks::split(program);
    if blocks.is_empty() {
        return Err(Error::request("the program has no instructions"));
    }
    let cf = control_flow::analyse(program, &blocks)?;
    let forest = loops::find(program, &blocks, &cf)?;

    // Step 3.
    let requests = access::request_costs(program, launch, config)?;
    let upload = access::program_upload(program.instructions.len(), config);
    let cycles = pipeline::simulate(program, &blocks, config)?;
    let edge_cycles = pipeline::edge_cycles(program, &blocks, &cf, &cycles, config);
    let block_access: Vec<Option<AccessCost>> =
        blocks.iter().map(|b| requests[b.last()].clone()).collect();
    let node_access: Vec<Option<dag::NodeAccess>> = block_access
        .iter()
        .map(|a| {
            a.as_ref().map(|a| dag::NodeAccess {
                resource: a.resource,
                cycles: a.cycles,
            })
        })
        .collect();

    // Steps 4–5.
    let dag = dag::unroll(dag::Inputs {
        program,
        blocks: &blocks,
        cf: &cf,
        loops: &forest,
        cold: &cycles.cold,
        edge_cycles: &edge_cycles,
        access: &node_access,
        max_nodes: config.budget.max_dag_nodes,
    })?;

    // Steps 6–8 per policy.
    let policy = |p: Policy| -> Result<PolicyResult, Error> {
        let path = dag::critical_path(&dag, p == Policy::SpAsCompute)?;
        let phases = phase_list::extract(&path, config.pipeline.depth());
        let pair = phase_list::pair_cost(&phases, w)?;
        let before = pair.schedule.saturating_add(upload.cycles);
        let critical_path_cycles = path.iter().fold(0u64, |a, s| {
            a.saturating_add(s.weight)
                .saturating_add(s.access.map_or(0, |x| x.cycles))
        });
        Ok(PolicyResult {
            policy: p,
            wcet: dram.inflate_refresh(before, mhz),
            wcet_before_refresh: before,
            phase_count: phases.len(),
            schedule: schedule::worst_case(
                &phases,
                w,
                config.schedule_work_groups,
                config.budget.max_schedule_intervals,
            ),
            phases,
            pair,
            critical_path: path,
            critical_path_cycles,
        })
    };
    let sp_as_access = policy(Policy::SpAsAccess)?;
    let sp_as_compute = policy(Policy::SpAsCompute)?;

    // Bounds (§4.5), from the scratchpad-as-access phase list (§5.7).
    let b = phase_list::bounds(&sp_as_access.phases, w, upload.cycles, &dram, mhz);

    let labels: std::collections::BTreeMap<usize, &str> = program
        .labels
        .values()
        .map(|l| (l.index, l.name.as_str()))
        .collect();
    let block_info = blocks
        .iter()
        .zip(block_access)
        .map(|(b, access)| BlockInfo {
            id: b.id,
            first_instruction: b.first,
            instruction_count: b.len(),
            first_line: program.instructions[b.first].span.line,
            last_line: program.instructions[b.last()].span.line,
            label: labels.get(&b.first).map(|s| s.to_string()),
            cold_cycles: cycles.cold[b.id],
            warm_cycles: cycles.warm[b.id],
            access,
        })
        .collect();
    let edges = cf
        .edges
        .iter()
        .zip(&edge_cycles)
        .map(|(e, &c)| EdgeInfo {
            from: e.from,
            to: e.to,
            kind: e.kind,
            cpops: e.cpops,
            stack: e.stack.clone(),
            cycles: c,
        })
        .collect();

    let result = SimdResult {
        launch: LaunchInfo {
            nd_range: launch.nd_range,
            wg_width: launch.wg_width,
            wg_height: launch.wg_height(config.work_items),
            work_groups: w,
        },
        config: *config,
        dram: DramInfo {
            preset: config.dram,
            source: config.dram.source().to_string(),
            timing: dram,
        },
        upload,
        blocks: block_info,
        edges,
        loops: forest.loops,
        dag: DagInfo {
            nodes: dag.nodes.len(),
            edges: dag.edge_count(),
        },
        sp_as_access,
        sp_as_compute,
        wcet_upper: b.upper,
        wcet_lower: b.lower,
        lower_bounds: LowerBounds { l1: b.l1, l2: b.l2 },
        diagnostics: cf.warnings,
    };
    Ok((result, dag))
}
