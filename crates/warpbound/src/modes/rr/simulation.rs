//! The `rr` mode's run on the simulator in the round-robin model's setting, and the run put
//! next to the model's WCET (moved out of `rr.rs`, which keeps the analysis).

use crate::auto_memory;
use crate::mode::ModeOutput;
use crate::params::kernel_args;
use crate::report::SimulationReport;
use crate::simulator::{self, SimRun};

/// The simulator's machine in the round-robin model's setting: pure round-robin issue of
/// one instruction per cycle, 32-wide units, each class's latency the model's execution
/// latency LE (Eq. 5.6: Length_pipeline + L_initiation + L_execution for arithmetic,
/// L_base + Length_pipeline for a global access, plus Length_pipeline per extra
/// transaction; shared memory L_shared + Length_pipeline), no L1.
fn model_machine(c: &roundrobin::Config) -> Option<sim::Machine> {
    use cfg::TimingClass as T;
    let t = &c.timing;
    let mut m = simulator::preset_machine(Some("gpgpusim-like"))?;
    m.scheduler = sim::Scheduler::PureRoundRobin;
    m.issue_width = 1;
    m.l1 = None;
    m.warp_size = c.warp_size;
    m.cores = c.warp_size;
    m.ls_units = c.warp_size;
    m.sfu_units = c.warp_size;
    m.transaction_cycles = u32::try_from(t.mem_pipeline_length).unwrap_or(u32::MAX);
    let arith = t.sp_pipeline_length + t.l_initiation + t.l_execution;
    for class in T::ALL {
        let l = match class {
            T::Global | T::Local | T::Texture => t.l_base + t.mem_pipeline_length,
            T::Shared => t.l_shared + t.mem_pipeline_length,
            T::Sfu => t.sfu_pipeline_length + t.l_initiation + t.l_execution,
            _ => arith,
        };
        m.latency
            .latency
            .insert(class, u32::try_from(l.max(1)).unwrap_or(u32::MAX));
        m.latency.interval.insert(class, 1);
    }
    Some(m)
}

/// `simulate=true` (or `loop_bounds=observed`): runs the kernel on the simulator in the
/// model's setting ([`model_machine`]) for the same launch; automatic pointers with no
/// `memory` given get automatic buffers ([`crate::auto_memory`]), and with `auto`
/// (`params` chosen automatically) the launch is completed as `crate::ptx_launch` says.
pub(super) fn run_simulator(
    k: crate::ptx_launch::PtxKernel,
    launch: &roundrobin::Launch,
    config: &roundrobin::Config,
    (run, auto): (&SimRun, bool),
    progress: isa::Observer,
    out: &mut ModeOutput,
) -> Option<sim::Simulation> {
    let d = |x: &roundrobin::Dim3| [x.x, x.y, x.z];
    let f = k.function;
    let mut sim_launch = sim::Launch {
        grid: d(&launch.grid),
        block: d(&launch.block),
        params: kernel_args::words(f, &launch.params),
        ..run.launch.clone()
    };
    let notes = crate::ptx_launch::prepare(
        k,
        &mut sim_launch,
        out.arguments.as_mut(),
        &run.memory,
        auto,
    );
    let machine = model_machine(config)?;
    let from = out.diagnostics.len();
    out.diagnostics.extend(notes);
    let result = auto_memory::run_on(&run.memory, out.arguments.as_mut(), |m| {
        crate::ptx_launch::run(k, &sim_launch, &machine, m, &run.budget, progress)
    });
    simulator::simulation_stage(&mut out.diagnostics, from);
    result
        .map_err(|d| {
            let from = out.diagnostics.len();
            out.diagnostics.extend(d);
            simulator::simulation_stage(&mut out.diagnostics, from);
        })
        .ok()
}

/// The run next to the model's WCET, compared only where the two agree on what they
/// describe: max mode, per-instruction segments (with dependency segments the model lets a
/// warp issue a whole segment back to back, which pure round-robin does not), and one block
/// (the model spreads blocks over all SMs, the simulator has one).
pub(super) fn compare(
    s: sim::Simulation,
    launch: &roundrobin::Launch,
    config: &roundrobin::Config,
    r: &roundrobin::RrResult,
    out: &mut ModeOutput,
) {
    let why_not = if !r.wcet.safe {
        Some("the model runs in avg mode: an estimate, not a bound")
    } else if config.segmentation != roundrobin::Segmentation::PerInstruction {
        Some("with segmentation=dependency the model issues a segment back to back; set segmentation=per-instruction to compare")
    } else if launch.grid.x * launch.grid.y * launch.grid.z != 1 {
        Some(
            "the model spreads blocks over all SMs, the simulator runs one; compare with one block",
        )
    } else {
        None
    };
    out.simulation = Some(match why_not {
        None => SimulationReport::against(
            s,
            Some(r.wcet.cycles),
            "the round-robin model's WCET (max mode, per-instruction segments)",
        ),
        Some(why) => SimulationReport::against(s, None, why),
    });
}
