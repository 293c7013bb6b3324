//! The `pws` mode's run on the simulator (the machine matching the block costs, the chosen
//! splitting) and the run put next to `E_WF` (moved out of `pws.rs`, which keeps the
//! analysis).

use super::parameters::{PwsParams, SimSplitting};
use crate::mode::{ModeInput, ModeOutput};
use crate::observed_loops::ObservedLoop;
use crate::report::SimulationReport;
use crate::simulator::{self, SimRun};
use isa::Dialect;

/// `simulate=true`: runs the GCN3 kernel with the machine that matches the block costs
/// (gem5's SIMD for `cost=latency`, one cycle per instruction on 64 lanes for `cost=unit`)
/// and the chosen splitting, before the analysis (its loop counts may raise default
/// bounds); [`against_bound`] then checks it. `None`: it did not run (the errors say why).
pub(super) fn simulate(
    input: &ModeInput,
    p: &PwsParams,
    run: &SimRun,
    out: &mut ModeOutput,
) -> Option<(sim::Simulation, Vec<ObservedLoop>)> {
    let hw = &p.hardware;
    let costs = sim::SplitCosts {
        s: hw.s,
        e_s: hw.e_s,
        e_m: hw.e_m,
    };
    let splitting = match p.sim_splitting {
        SimSplitting::Dws => sim::Splitting::Dws(costs),
        SimSplitting::Pws => sim::Splitting::Pws(costs),
        SimSplitting::None => sim::Splitting::None,
    };
    let machine = if p.cost_name == "unit" {
        simulator::preset_machine(Some("unit-cost")).map(|unit| sim::Machine {
            warp_size: 64,
            cores: 64,
            ls_units: 64,
            sfu_units: 64,
            ..unit
        })
    } else {
        simulator::preset_machine(Some("gcn3"))
    };
    let mut machine = machine?;
    machine.splitting = splitting;
    let s = simulator::run_text(
        &input.context,
        Dialect::Gcn,
        Ok(run),
        &machine,
        &mut out.diagnostics,
        &mut out.arguments,
        input.progress,
    )?;
    let loops = input
        .context
        .gcn(&mut Vec::new())
        .map(|gcn| gcn.function())
        .map(|f| {
            // Checked against the inferred bounds in `wavefront_graph`, which infers them.
            out.diagnostics
                .extend(sim::loop_counts::truncation_warning(&s));
            crate::observed_loops::of_gcn_run(f, &s)
        })
        .unwrap_or_default();
    Some((s, loops))
}

/// Checks run `s` against `E_WF` of the same model when the launch is a single wavefront
/// (the bound is per wavefront). The PWS bound is only comparable when the split points are
/// the kernel's own `split` instructions (`split=marked`, no extra marks), the ones the
/// simulator follows.
pub(super) fn against_bound(
    p: &PwsParams,
    s: sim::Simulation,
    loops: Vec<ObservedLoop>,
    r: &pws::PwsResult,
    out: &mut ModeOutput,
) {
    let bound = match p.sim_splitting {
        SimSplitting::Dws => Some((r.e_wf.dws, "E_WF with DWS")),
        SimSplitting::Pws => p.own_marks_only.then_some((r.e_wf.pws, "E_WF with PWS")),
        SimSplitting::None => Some((r.e_wf.no_split, "E_WF without splitting")),
    };
    out.simulation = Some(match bound {
        Some(_) if s.warps.len() != 1 => SimulationReport::against(
            s,
            None,
            "E_WF bounds one wavefront; this launch has several",
        ),
        Some((c, what)) => SimulationReport::against(s, Some(c), format!("{what} (one wavefront)")),
        None => SimulationReport::against(
            s,
            None,
            "E_WF with PWS assumes the chosen split points; the simulator splits at the kernel's own `split` instructions (use split=marked without extra marks)",
        ),
    });
    if let Some(r) = &mut out.simulation {
        r.loop_iterations = loops;
    }
}
