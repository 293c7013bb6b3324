//! The `launch` mode (issue #41 item 3): the WCET of a whole grid of a real SASS kernel on a
//! GPU — `S` SMs (a preset's, or `sms`), each holding `m` blocks at once (the occupancy of
//! `crate::kernel_occupancy`), the blocks placed by any work-conserving dispatcher — as
//! crate `launch` bounds it from one warp's isolated time `C` and issues `I` (the
//! `warp-cfg` bound under the cost model and under cost `unit`, as the `block` mode takes
//! them). With `simulate=true` the simulator runs the grid on as many SMs (`sim::Gpu`) in
//! the bound's setting under each scheduler and the report puts every run beside the bound.
//!
//! Memory contention between SMs (cost `latency` or `control`, `memory_contention`): every
//! memory access's latency in `C` grows by `launch::contention`'s `Δ`, the stated bound of
//! Huangfu's competing SMs at the GPU's DRAM bandwidth; the simulated runs model none.

use crate::mode::{Mode, ModeDetails, ModeInput, ModeOutput};
use crate::observed_loops;
use crate::report::{SimulationReport, Wcet};
use crate::views::launch_parts::LaunchDetails;
use crate::views::occupancy::Source;
use crate::warp_analysis::thread_block;
use crate::warp_analysis::{self, apply_runs, Cost, WarpCfgParams};
use crate::{kernel_occupancy, loop_inference};
use isa::{Diagnostic, Severity};
use web_time::Instant;

mod parameters;
mod runs;

use parameters::{choose_gpu, describe, LaunchParams};

/// The mode.
pub const MODE: Mode = Mode {
    name: "launch",
    aliases: &[],
    describe,
    run,
};

fn run(input: &ModeInput) -> ModeOutput {
    let mut p = match WarpCfgParams::decode(input) {
        Ok(p) => p,
        Err(d) => return ModeOutput::failed([d]),
    };
    let params = input.params;
    let lp = match LaunchParams::decode(params) {
        Ok(l) => l,
        Err(d) => return ModeOutput::failed(d),
    };
    let (threads, warps) = match thread_block::threads_and_warps(&lp.block) {
        Ok(t) => t,
        Err(d) => return ModeOutput::failed([d]),
    };
    let blocks: u64 = lp.grid.iter().map(|&d| u64::from(d)).product();
    let mut out = ModeOutput::default();
    let Some(parsed) = warp_analysis::parse_sass(input, &p, &mut out) else {
        return out;
    };
    let kernel = &parsed.sass.kernel;
    let (gpu, gpu_from) = choose_gpu(&lp, kernel.arch.as_deref(), &mut out.diagnostics);
    let sms = lp.sms.unwrap_or(gpu.sms);
    let occupancy = lp.occupancy.or_arch(gpu.arch, gpu_from_label(gpu_from));
    out.occupancy = kernel_occupancy::sass(kernel, threads, &occupancy, &mut out.diagnostics);
    let per_sm = out.occupancy.as_ref().map_or(0, |o| o.blocks_per_sm);
    if per_sm == 0 {
        out.diagnostics.push(Diagnostic::global(
            Severity::Error,
            match &out.occupancy {
                Some(o) => format!(
                    "a block of {threads} threads does not fit one SM of {} (limited by {}): \
                     the launch cannot run",
                    o.machine, o.limited_by
                ),
                None => "the launch has no occupancy (see the notes): no bound".into(),
            },
        ));
        return out;
    }
    let inference = warp_analysis::infer_sass(
        &parsed.sass,
        loop_inference::Launch::of(params).as_ref(),
        &mut p.loop_bounds,
        &mut out,
    );
    let shape = runs::Shape {
        sms,
        blocks_per_sm: per_sm,
        warps_per_block: warps as u32,
    };
    let mut sims = Vec::new();
    if let Some(run) = p.simulate.run(&mut out.diagnostics) {
        let t = Instant::now();
        let run = run.watching(observed_loops::watch(&parsed.sass));
        sims = runs::simulate_launch(
            &parsed,
            &run,
            &p,
            shape,
            &lp.scheduler,
            input.progress,
            &mut out,
        );
        out.time("simulate", t);
    }
    let Some(loops) = apply_runs(&parsed.sass, &sims, &inference, input, &mut p, &mut out) else {
        return out;
    };
    // The runs above are the simulator's machine, without contention between SMs; the
    // bound's C takes every memory access's share of the other SMs' traffic.
    let contention = contention(lp.contention_sectors, &mut p.cost, blocks, sms, gpu);
    let t = Instant::now();
    let warp = warp_analysis::bound_with_extras(
        &parsed.sass,
        &p,
        input,
        &parsed.functions,
        &[Cost::Unit],
        &mut out,
    );
    out.time("warp_cfg+ipet", t);
    let Some((isolated, extra)) = warp else {
        return out;
    };
    let issues = extra.first().copied().unwrap_or(isolated);
    let barriers = kernel.instructions.iter().any(|i| i.opcode.name == "BAR");
    // σ: a warp's cycles blocked on its own latencies; none when every result is ready the
    // next cycle (cost `unit`), at most its isolated time otherwise (crate `launch`).
    let stall = match p.cost {
        Cost::Unit => 0,
        _ => isolated,
    };
    let warp_facts = launch::Warp {
        profile: block::WarpProfile { isolated, issues },
        stall,
        barriers,
    };
    let grid_facts = launch::Grid {
        blocks,
        warps_per_block: warps,
        sms: u64::from(sms),
        blocks_per_sm: u64::from(per_sm),
    };
    // A plain listing does not state its static shared memory (taken as 0): for a kernel that
    // accesses shared memory the occupancy may be overstated, and the bound then holds for
    // every count of resident blocks up to the estimate. (The register count a listing gives,
    // highest register + 1 + the ABI's reserve, equalled `cuobjdump -res-usage` on all 1 045
    // functions measured in docs/occupancy.md.)
    let uses_shared = kernel
        .instructions
        .iter()
        .any(|i| i.class == isa::ResourceClass::LoadStoreShared);
    let estimated = uses_shared
        && out
            .occupancy
            .as_ref()
            .is_some_and(|o| o.shared_source == Source::Listing);
    let bound = if estimated {
        let (bound, m) = launch::launch_bound_up_to(warp_facts, grid_facts);
        out.diagnostics.push(Diagnostic::global(
            Severity::Note,
            format!(
                "the kernel uses shared memory and a listing does not say how much it \
                 declares (taken as 0: {per_sm} blocks per SM may be too many): the bound is \
                 the largest for 1 to {per_sm} resident blocks per SM (reached at {m}), so \
                 it holds for the actual count too; give the whole nvdisasm dump (its \
                 .nv.shared sections) for the bound at the actual occupancy"
            ),
        ));
        bound
    } else {
        launch::launch_bound(warp_facts, grid_facts)
    };
    out.wcet = Some(Wcet {
        cycles: bound.cycles,
        cost_model: p.cost.name().into(),
        assumed_loop_bounds: Vec::new(),
    });
    let worst = sims.iter().max_by_key(|(_, s)| s.cycles);
    out.schedule = Some(runs::gantt(
        worst.map(|(_, s)| s),
        &bound,
        u64::from(per_sm),
    ));
    let launch_runs = sims
        .iter()
        .map(|(name, s)| runs::launch_run(name, s, bound.cycles))
        .collect();
    let assumptions = assumptions(barriers, &p.cost, contention.as_ref());
    if let Some((name, s)) = sims.into_iter().max_by_key(|(_, s)| s.cycles) {
        let what = format!(
            "the launch bound: {blocks} blocks of {warps} warps on {sms} SMs × {per_sm} blocks, \
             one issue per cycle per SM, the cost model's latencies{} (worst of the simulated \
             schedulers: {name}; the simulator models no memory contention between SMs)",
            contention.as_ref().map_or_else(
                || ", no memory contention between SMs".to_string(),
                |c| format!(
                    " plus {} cycles per memory access for the other SMs",
                    c.cycles_per_access
                )
            )
        );
        let mut report = SimulationReport::against(s, Some(bound.cycles), what);
        report.loop_iterations = loops;
        out.simulation = Some(report);
    }
    let warp_cfg = match std::mem::take(&mut out.details) {
        ModeDetails::WarpCfg(d) => Some(d),
        _ => None,
    };
    out.details = ModeDetails::Launch(Box::new(LaunchDetails {
        wcet: bound.cycles,
        grid: lp.grid,
        block: lp.block,
        blocks,
        threads_per_block: threads,
        warps_per_block: warps,
        gpu: gpu.name.into(),
        gpu_title: gpu.title.into(),
        gpu_source: gpu.source.into(),
        gpu_from: gpu_from.into(),
        sms: u64::from(sms),
        sms_from: if lp.sms.is_some() { "parameter" } else { "gpu" }.into(),
        blocks_per_sm: u64::from(per_sm),
        warp_wcet: isolated,
        warp_issues: issues,
        warp_stall: stall,
        barriers,
        bound: (&bound).into(),
        contention: contention.as_ref().map(Into::into),
        assumptions,
        runs: launch_runs,
        warp_cfg,
    }));
    out
}

/// The occupancy's `machine_from` for the GPU chosen for a reason (`parameters::choose_gpu`).
fn gpu_from_label(from: &str) -> &'static str {
    match from {
        "parameter" => "gpu",
        "listing" => "listing",
        "occupancy_arch" => "parameter",
        _ => "assumed",
    }
}

/// `memory_contention=round-robin` under a cost model with latencies: `Δ` of
/// `launch::contention` for this launch, added to the latency of every class that can
/// reach L2/DRAM in the cost model's table.
fn contention(
    sectors: Option<u64>,
    cost: &mut Cost,
    blocks: u64,
    sms: u32,
    gpu: &launch::gpus::GpuPreset,
) -> Option<launch::contention::Contention> {
    let table = match cost {
        Cost::Latency(t) | Cost::Control(t) => t,
        Cost::Unit | Cost::Units { .. } => return None,
    };
    let c = launch::contention::per_access(blocks, u64::from(sms), sectors?, gpu.memory);
    let delta = u32::try_from(c.cycles_per_access).unwrap_or(u32::MAX);
    for class in MEMORY_CLASSES {
        let l = table.latency.entry(class).or_insert(1);
        *l = l.saturating_add(delta);
    }
    Some(c)
}

/// The timing classes whose accesses can leave the SM for L2/DRAM (shared memory cannot).
const MEMORY_CLASSES: [cfg::TimingClass; 4] = [
    cfg::TimingClass::Global,
    cfg::TimingClass::Local,
    cfg::TimingClass::Texture,
    cfg::TimingClass::Constant,
];

/// What the bound assumes beyond the warp analysis, in words for the report.
fn assumptions(
    barriers: bool,
    cost: &Cost,
    contention: Option<&launch::contention::Contention>,
) -> Vec<String> {
    let memory = match contention {
        Some(c) => format!(
            "memory contention between SMs as Huangfu's competing SMs (thesis §5.3.3.3): the \
             memory system serves the SMs round robin, one warp access of each per turn, at \
             no less than the GPU's peak DRAM bandwidth ({} GB/s at {} MHz), so an access of \
             at most {} sectors waits for one access of each of the other {} active SMs and \
             is served within {} cycles more than the cost model's latency; an SM's own \
             earlier accesses are taken as serialised by its load/store pipeline, and the \
             simulated runs model no contention (they do not test this term)",
            c.memory.bandwidth_gb_per_s,
            c.memory.boost_clock_mhz,
            c.sectors_per_access,
            c.active_sms.saturating_sub(1),
            c.cycles_per_access
        ),
        None => "no memory contention between SMs: a global access costs the cost model's \
                 latency whatever the other SMs do (no shared L2, bus or DRAM queue is \
                 modelled; memory_contention=none or cost unit), as in the simulated launch"
            .to_string(),
    };
    let mut v = vec![
        memory,
        "any work-conserving block dispatcher (a block waits only while every SM that could \
         hold it is full) and any work-conserving warp scheduler per SM, one issue per cycle"
            .to_string(),
        "all blocks are ready at cycle 0 and alike: every warp's bounds C and I hold for any \
         block index"
            .to_string(),
    ];
    if barriers {
        v.push(
            "barriers: a block's stall share is W·σ and the final phase is serialised (the \
             per-phase rule of the block mode assumes one block's warps only)"
                .into(),
        );
    }
    if matches!(cost, Cost::Unit) {
        v.push("cost unit: every result is ready the next cycle, so no warp stalls (σ = 0)".into());
    }
    v
}
