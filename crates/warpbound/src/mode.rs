//! What an analysis mode is to the facade: a name, a description of itself and a function
//! from its input to its output — plain data with function pointers, so the table of modes
//! ([`crate::modes::ALL`]) is a `const` slice and adding a mode is one file plus one line.
//!
//! A mode never writes into the report: it returns a [`ModeOutput`], and `analyze` assembles
//! the report from it. That keeps each part of the report written in one place.

use crate::catalog::ModeInfo;
use crate::params::Params;
use crate::report::{
    CfgView, KernelArguments, KernelView, MakespanDetails, PlotView, ScheduleView,
    SimulationReport, WarpCfgDetails, Wcet,
};
use crate::request::Request;
use isa::{Diagnostic, Limits, Observer};
use std::collections::BTreeMap;
use web_time::Instant;

/// One analysis mode.
#[derive(Clone, Copy)]
pub struct Mode {
    /// The name requests use; also the key of the mode's own details in the report when
    /// it has any (except `simulate`, whose run is `simulation`).
    pub name: &'static str,
    /// Former names, still accepted wherever a mode is named.
    pub aliases: &'static [&'static str],
    /// The catalogue entry: title, description, dialects, parameters with meaning, unit,
    /// range and default, and presets with their sources (name and aliases are stamped on
    /// by [`Mode::info`]).
    pub describe: fn() -> ModeInfo,
    /// Runs the mode on a validated request whose parameters are resolved.
    pub run: fn(&ModeInput) -> ModeOutput,
}

impl Mode {
    /// The catalogue entry of the mode.
    pub fn info(&self) -> ModeInfo {
        let mut info = (self.describe)();
        info.name = self.name.into();
        info.aliases = self.aliases.iter().map(|a| a.to_string()).collect();
        info
    }

    /// Whether `name` names this mode, by its name or a former one.
    pub fn answers_to(&self, name: &str) -> bool {
        self.name == name || self.aliases.contains(&name)
    }
}

/// What a mode runs on: the request (text, dialect, function, loop bounds, memory), its
/// resolved parameters and the limits every mode shares.
pub struct ModeInput<'a> {
    pub request: &'a Request,
    /// The request's values over the preset's over the catalogue defaults; each mode reads
    /// them once into its own typed parameters.
    pub params: &'a Params,
    /// The preset the parameters started from (the request's, or the mode's default for the
    /// dialect): for hardware facts that are not parameters, such as a cache geometry.
    pub preset: Option<&'a str>,
    /// Parsing and graph-building budgets (`max_input_bytes`, `max_instructions`,
    /// `max_cfg_states`).
    pub limits: Limits,
    /// The request's kernel, parsed once for every part of the mode that reads it.
    pub context: crate::context::Context<'a>,
    /// Told how the long parts of the work go (searches, branch and bounds, simulations);
    /// [`isa::progress::silent`] for [`crate::analyze`]. Nothing a mode returns may depend
    /// on it.
    pub progress: Observer<'a>,
}

/// The details a mode reports under its own key (boxed: they are large and differ in size).
#[derive(Debug, Default)]
pub enum ModeDetails {
    #[default]
    None,
    /// `warp-cfg`.
    WarpCfg(Box<WarpCfgDetails>),
    /// `makespan`.
    Makespan(Box<MakespanDetails>),
    /// `simd` (the `phases` crate's result, and with `simulate=true` an execution).
    Simd(
        Box<phases::SimdResult>,
        Option<Box<crate::report::SimdExecutionReport>>,
    ),
    /// `pws` (the `pws` crate's result).
    Pws(Box<pws::PwsResult>),
    /// `rr` (the `roundrobin` crate's result).
    Rr(Box<roundrobin::RrResult>),
    /// `block`.
    Block(Box<crate::report::BlockDetails>),
    /// `launch`.
    Launch(Box<crate::views::launch_parts::LaunchDetails>),
}

/// Everything a mode produces; each field becomes the report field of the same name.
#[derive(Debug, Default)]
pub struct ModeOutput {
    pub diagnostics: Vec<Diagnostic>,
    pub kernel: Option<KernelView>,
    /// The control-flow graph with its drawing (`report.cfg`).
    pub graph: Option<CfgView>,
    pub wcet: Option<Wcet>,
    pub schedule: Option<ScheduleView>,
    pub plots: Vec<PlotView>,
    pub details: ModeDetails,
    pub simulation: Option<SimulationReport>,
    /// The kernel arguments used (`report.arguments`).
    pub arguments: Option<KernelArguments>,
    /// The program's loops with the bounds applied (`report.loop_bounds`; the facade lists
    /// the assumed ones in `wcet.assumed_loop_bounds`).
    pub loop_bounds: Vec<crate::report::LoopBoundRow>,
    /// The kernel's occupancy at the mode's block size (`report.occupancy`).
    pub occupancy: Option<crate::views::occupancy::OccupancyView>,
    /// Wall-clock time of each stage, in milliseconds.
    pub timings_ms: BTreeMap<String, f64>,
}

impl ModeOutput {
    /// An output holding only `diagnostics` (a mode that stopped before producing anything).
    pub fn failed(diagnostics: impl IntoIterator<Item = Diagnostic>) -> Self {
        ModeOutput {
            diagnostics: diagnostics.into_iter().collect(),
            ..ModeOutput::default()
        }
    }

    /// Records the time since `started` as stage `stage`.
    pub fn time(&mut self, stage: &str, started: Instant) {
        self.timings_ms
            .insert(stage.into(), started.elapsed().as_secs_f64() * 1e3);
    }

    /// Whether any diagnostic so far is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}
