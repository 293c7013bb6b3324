//! Sim-D executions next to the WCET: every work-group of the NDRange runs a path through
//! the kernel, its DRAM tile requests cost what the controller model gives at their actual
//! addresses, refresh happens at its real times, and the two work-group slots share the
//! resources under one of four schedulers (Spliet & Mullins §4, Fig. 4, Fig. 7).
//!
//! What this module *is*: a phase-level timing model. It reuses the crate's pieces rather
//! than copying them: the unrolled DAG and its paths ([`crate::dag`]), the phase extraction
//! of §5.6 ([`crate::phase_list::extract`]: a path's compute costs come from the pipeline
//! model of §5.3 through the DAG's edge weights), the DRAM controller model
//! ([`crate::controller`], run once per request at its address, [`requests`]), and the
//! lanes and Gantt shape of the WCET schedule ([`crate::schedule`]).
//!
//! What it is *not*: a cycle-accurate model of Sim-D (the paper's SystemC model with
//! Ramulator): phases are atomic (§4.1), a compute phase costs what the in-order pipeline
//! model says (which is exact for a given path: the pipeline has no data-dependent timing
//! besides the path), indexed transfers cost their bound ([`requests`]), and the path is
//! decided from the work-group id and the launch where a three-valued interpreter of the
//! program can ([`interpret`]), never from data (no input files are read), and chosen by a
//! documented fallback elsewhere ([`path`]).
//!
//! Schedulers ([`Scheduler`]): `unconstrained` and `pairwise` are greedy list schedulers on
//! the resource instances of §4.1 (one compute unit, one DRAM, one scratchpad per slot;
//! [`greedy`]); `sp-as-access` and `sp-as-compute` are the two policies of §4.2, which see
//! exactly two resources and therefore follow the one serialisation the WCET assumes
//! ([`lockstep`]).

pub mod alu;
pub mod greedy;
pub mod interpret;
pub mod lanes;
pub mod lockstep;
pub mod path;
pub mod refresh;
pub mod requests;

pub use path::{Decisions, Fallback, PathChoice};

use crate::access::Resource;
use crate::dag::{self, Dag};
use crate::error::Error;
use crate::phase_list::{extract, Phase};
use crate::schedule::{Interval, Schedule};
use crate::{Config, Policy, SimdResult};
use isa::progress::{self, Every, Observer, Progress, Task};
use isa::simd::Program;

/// The four work-group schedulers of the paper's evaluation (§4.2, §6.2, Fig. 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scheduler {
    /// Greedy on every resource instance; a slot takes the next work-group as soon as its
    /// previous one exits, so the slots drift apart (Fig. 4 (b)).
    Unconstrained,
    /// Greedy, plus §4.2's pairwise-work-group constraint only: an exited work-group's slot
    /// stays empty until the other slot starts its final phase (Fig. 4 (c)).
    Pairwise,
    /// §4.2 scratchpad as access: two resources, compute and access (DRAM or scratchpad).
    SpAsAccess,
    /// §4.2 scratchpad as compute: scratchpad transfers are part of the compute phase.
    SpAsCompute,
}

impl Scheduler {
    pub const ALL: [Scheduler; 4] = [
        Scheduler::Unconstrained,
        Scheduler::Pairwise,
        Scheduler::SpAsAccess,
        Scheduler::SpAsCompute,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Scheduler::Unconstrained => "unconstrained",
            Scheduler::Pairwise => "pairwise",
            Scheduler::SpAsAccess => "sp-as-access",
            Scheduler::SpAsCompute => "sp-as-compute",
        }
    }

    pub fn from_name(s: &str) -> Option<Scheduler> {
        Scheduler::ALL.into_iter().find(|x| x.name() == s)
    }

    /// The §4.2 policy whose WCET bounds this scheduler, if it is one.
    pub fn policy(self) -> Option<Policy> {
        match self {
            Scheduler::SpAsAccess => Some(Policy::SpAsAccess),
            Scheduler::SpAsCompute => Some(Policy::SpAsCompute),
            _ => None,
        }
    }
}

/// What to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    pub scheduler: Scheduler,
    pub path: PathChoice,
    /// Price DRAM tile requests at each work-group's address ([`requests`]); `false` prices
    /// them at their WCET cost (used by the tests that cross-check against the bound).
    pub actual_addresses: bool,
    /// Refresh at its real times ([`refresh`]); `false` leaves refresh out.
    pub refresh: bool,
    /// Budget: most phase instances executed (work-groups × phases).
    pub max_phases: u64,
    /// Budget: most Gantt intervals kept (the rest are still executed; `truncated` says so).
    pub max_intervals: u64,
    /// Work-groups drawn in the Gantt chart, from the start (as the WCET schedule's).
    pub shown_work_groups: u64,
    /// Budget: most DRAM controller steps over all per-address runs.
    pub max_dram_sim_steps: u64,
}

impl Options {
    /// Actual addresses and refresh on; budgets and Gantt size from `config`.
    pub fn new(scheduler: Scheduler, path: PathChoice, config: &Config) -> Self {
        Options {
            scheduler,
            path,
            actual_addresses: true,
            refresh: true,
            max_phases: DEFAULT_MAX_PHASES,
            max_intervals: config.budget.max_schedule_intervals,
            shown_work_groups: config.schedule_work_groups,
            max_dram_sim_steps: config.max_dram_sim_steps,
        }
    }
}

/// Default of [`Options::max_phases`]: 10× the largest corpus launch (cnn_convolution,
/// 3136 work-groups × 464 phases ≈ 1.5 M).
pub const DEFAULT_MAX_PHASES: u64 = 20_000_000;

/// Busy time of one lane.
#[derive(Debug, Clone, PartialEq)]
pub struct LaneUse {
    pub lane: String,
    /// Cycles the lane holds a phase (and, for `dram`, a refresh).
    pub busy: u64,
    /// `busy / cycles · 100`.
    pub percent: f64,
}

/// One execution.
#[derive(Debug, Clone, PartialEq)]
pub struct Execution {
    pub scheduler: Scheduler,
    pub path: PathChoice,
    /// Observed kernel time in compute cycles: program upload, every work-group, refresh.
    pub cycles: u64,
    /// The bound the run is checked against: the policy's WCET for `sp-as-access` and
    /// `sp-as-compute`, WCET^U otherwise (which the paper proves only for serialisations
    /// of the policies; see `unconstrained_against_the_bounds` in the tests).
    pub bound: u64,
    pub within_bound: bool,
    pub work_groups: u64,
    pub phase_instances: u64,
    pub refreshes: u64,
    pub utilisation: Vec<LaneUse>,
    /// The first `shown_work_groups` work-groups as Gantt data, the WCET schedule's shape
    /// (times include the program upload, as `cycles` does).
    pub schedule: Schedule,
    /// Refreshes within the shown part, `[start, end)` on the `dram` lane.
    pub refresh_intervals: Vec<(u64, u64)>,
    /// The program upload, `[0, end)` on the `dram` lane.
    pub upload: (u64, u64),
    /// DRAM controller runs at actual addresses (distinct command streams).
    pub controller_runs: u64,
    /// Requests that cost more at their address than their WCET cost (should be none):
    /// `(block, work_group, observed, wcet)`, at most 64.
    pub requests_above_wcet: Vec<(usize, u64, u64, u64)>,
    /// How path=launch chose the work-groups' edges (`None` for the other path choices).
    pub decisions: Option<Decisions>,
}

/// Phase lists per work-group: the path, priced.
pub(crate) struct WorkGroups<'a> {
    source: Source<'a>,
    pub(crate) count: u64,
}

enum Source<'a> {
    Dag {
        dag: &'a Dag,
        choice: PathChoice,
        critical: Vec<usize>,
        sp_as_compute: bool,
        depth: u64,
        pricer: Box<requests::Pricer>,
        worst: Option<Vec<Phase>>,
        /// path=launch: the interpreter's walk and its counts.
        walker: Option<Box<path::Walker<'a>>>,
        decisions: Decisions,
        shown: u64,
    },
    /// Given lists (tests): work-group `g` runs `lists[g % len]`.
    #[cfg(test)]
    Fixed(Vec<Vec<Phase>>),
}

impl<'a> WorkGroups<'a> {
    fn new(
        result: &SimdResult,
        dag: &'a Dag,
        program: &'a Program,
        opts: &Options,
    ) -> Result<Self, Error> {
        let sp_as_compute = opts.scheduler == Scheduler::SpAsCompute;
        let critical: Vec<usize> = dag::critical_path(dag, sp_as_compute)?
            .iter()
            .map(|s| s.node)
            .collect();
        let walker = match opts.path {
            PathChoice::FromLaunch { fallback } => Some(Box::new(path::Walker::new(
                interpret::Context::new(program, result)?,
                dag,
                fallback,
                &critical,
                sp_as_compute,
                opts.max_phases,
            )?)),
            _ => None,
        };
        Ok(WorkGroups {
            source: Source::Dag {
                dag,
                choice: opts.path,
                critical,
                sp_as_compute,
                depth: result.config.pipeline.depth(),
                pricer: Box::new(requests::Pricer::new(
                    result,
                    opts.actual_addresses,
                    opts.max_dram_sim_steps,
                )),
                worst: None,
                walker,
                decisions: Decisions::default(),
                shown: opts.shown_work_groups,
            },
            count: result.launch.work_groups,
        })
    }

    #[cfg(test)]
    pub(crate) fn fixed(lists: Vec<Vec<Phase>>, count: u64) -> Self {
        WorkGroups {
            source: Source::Fixed(lists),
            count,
        }
    }

    fn decisions(&self) -> Option<Decisions> {
        match &self.source {
            Source::Dag {
                walker: Some(_),
                decisions,
                ..
            } => Some(decisions.clone()),
            _ => None,
        }
    }

    fn pricer(&self) -> Option<&requests::Pricer> {
        match &self.source {
            Source::Dag { pricer, .. } => Some(pricer),
            #[cfg(test)]
            Source::Fixed(_) => None,
        }
    }

    /// Work-group `g`'s phases (§5.6 on its path), each DRAM tile priced at its address.
    pub(crate) fn phases(&mut self, g: u64) -> Result<Vec<Phase>, Error> {
        let (list, pricer) = match &mut self.source {
            #[cfg(test)]
            Source::Fixed(lists) => (
                lists
                    .get((g % lists.len().max(1) as u64) as usize)
                    .cloned()
                    .unwrap_or_default(),
                None,
            ),
            Source::Dag {
                dag,
                choice,
                critical,
                sp_as_compute,
                depth,
                pricer,
                worst,
                walker,
                decisions,
                shown,
            } => {
                let list = match (&worst, *choice) {
                    (Some(w), PathChoice::Worst) => w.clone(),
                    (_, PathChoice::FromLaunch { .. }) => {
                        let Some(walker) = walker else {
                            return Err(Error::request("internal: path=launch without a walker"));
                        };
                        let (nodes, d) = walker.walk(dag, g)?;
                        decisions.add(d, g < *shown);
                        let steps = dag::path_steps(dag, &nodes, *sp_as_compute)?;
                        let l = extract(&steps, *depth);
                        match (l.is_empty(), d.early_exit, nodes.last()) {
                            // Every work-item exited before the first request: the compute
                            // up to the exit is not a phase (§5.6, as the compute after any
                            // work-group's last request); one empty compute phase keeps
                            // the work-group in the schedule.
                            (true, true, Some(&last)) => vec![Phase {
                                index: 0,
                                resource: Resource::Compute,
                                cycles: 0,
                                block: dag.nodes[last].block,
                            }],
                            _ => l,
                        }
                    }
                    _ => {
                        let nodes = path::nodes_for(dag, *choice, critical, g)?;
                        let steps = dag::path_steps(dag, &nodes, *sp_as_compute)?;
                        let l = extract(&steps, *depth);
                        if *choice == PathChoice::Worst {
                            *worst = Some(l.clone());
                        }
                        l
                    }
                };
                (list, Some(pricer))
            }
        };
        let mut list = list;
        if list.is_empty() {
            return Err(Error::request(
                "a work-group's path has no DRAM or scratchpad request, so it has no phases (§4.1)",
            ));
        }
        if let Some(pricer) = pricer {
            for p in list.iter_mut().filter(|p| p.resource == Resource::Dram) {
                if let Some(c) = pricer.price(p.block, g)? {
                    p.cycles = c;
                }
            }
        }
        Ok(list)
    }
}

/// Phase instances between two progress reports.
const REPORT_EVERY: u64 = 1 << 14;

/// The Gantt and busy-time bookkeeping both engines share, and the progress reports: every
/// phase passes here, so this is where the work is counted.
pub(crate) struct Recorder<'o> {
    observer: Observer<'o>,
    every: Every,
    /// The latest end of a phase so far (reported as the cycle reached).
    latest: u64,
    shown: u64,
    max_intervals: u64,
    pub(crate) intervals: Vec<Interval>,
    pub(crate) truncated: bool,
    pub(crate) refreshes: Vec<(u64, u64)>,
    busy: std::collections::BTreeMap<&'static str, u64>,
    pub(crate) phases: u64,
    max_phases: u64,
}

impl<'o> Recorder<'o> {
    fn new(opts: &Options, observer: Observer<'o>) -> Self {
        Recorder {
            observer,
            every: Every::new(REPORT_EVERY),
            latest: 0,
            shown: opts.shown_work_groups,
            max_intervals: opts.max_intervals,
            intervals: Vec::new(),
            truncated: false,
            refreshes: Vec::new(),
            busy: Default::default(),
            phases: 0,
            max_phases: opts.max_phases,
        }
    }

    /// Records phase `p` of work-group `g` in `slot` at `[start, end)` on `lane`.
    pub(crate) fn phase(
        &mut self,
        lane: &'static str,
        p: &Phase,
        g: u64,
        slot: u8,
        start: u64,
        end: u64,
    ) -> Result<(), Error> {
        self.phases += 1;
        if self.phases > self.max_phases {
            return Err(Error::budget(
                "max_sim_phases",
                self.max_phases,
                "executing the work-groups' phases",
            ));
        }
        self.latest = self.latest.max(end);
        if self.every.tick(1) {
            (self.observer)(&Progress {
                task: Task::SimdExecution,
                done: self.phases,
                budget: self.max_phases,
                best_bound: Some(self.latest),
                upper_bound: None,
            });
        }
        *self.busy.entry(lane).or_default() += end - start;
        if g < self.shown {
            if (self.intervals.len() as u64) < self.max_intervals {
                self.intervals.push(Interval {
                    lane: lane.to_string(),
                    start,
                    end,
                    phase: p.index,
                    work_group: g,
                    slot,
                    label: format!("WG {g} Φ{} {lane}", p.index + 1),
                });
            } else {
                self.truncated = true;
            }
        }
        Ok(())
    }

    pub(crate) fn refresh(&mut self, start: u64, end: u64) {
        *self.busy.entry("dram").or_default() += end - start;
        if (self.refreshes.len() as u64) < self.max_intervals {
            self.refreshes.push((start, end));
        }
    }
}

/// The lane of a phase on `resource` in `slot` (the WCET schedule's lane names).
pub(crate) fn lane(resource: Resource, slot: u8) -> &'static str {
    match (resource, slot) {
        (Resource::Compute, _) => "compute",
        (Resource::Dram, _) => "dram",
        (Resource::Scratchpad, 0) => "sp0",
        (Resource::Scratchpad, _) => "sp1",
    }
}

/// Runs the launch of `result` under `opts` (`dag` from [`crate::analyze_with_dag`] of
/// `program`, which path=launch interprets).
pub fn execute(
    result: &SimdResult,
    dag: &Dag,
    program: &Program,
    opts: &Options,
) -> Result<Execution, Error> {
    execute_observed(result, dag, program, opts, &progress::silent)
}

/// [`execute`], telling `observer` every few thousand phase instances how many have been
/// scheduled (of `max_phases`) and the latest end of a phase so far
/// ([`Task::SimdExecution`]). The result does not depend on the observer.
pub fn execute_observed(
    result: &SimdResult,
    dag: &Dag,
    program: &Program,
    opts: &Options,
    observer: Observer,
) -> Result<Execution, Error> {
    let wgs = WorkGroups::new(result, dag, program, opts)?;
    let bound = match opts.scheduler.policy() {
        Some(Policy::SpAsAccess) => result.sp_as_access.wcet,
        Some(Policy::SpAsCompute) => result.sp_as_compute.wcet,
        None => result.wcet_upper,
    };
    let clock = refresh::RefreshClock::new(
        &result.dram.timing,
        result.config.compute_clock_mhz,
        opts.refresh,
    );
    run_work_groups(wgs, clock, result.upload.cycles, bound, opts, observer)
}

/// The engines over given work-groups, from the end of the program upload at `upload`.
pub(crate) fn run_work_groups(
    mut wgs: WorkGroups<'_>,
    mut clock: refresh::RefreshClock,
    upload: u64,
    bound: u64,
    opts: &Options,
    observer: Observer,
) -> Result<Execution, Error> {
    let mut rec = Recorder::new(opts, observer);
    let end = match opts.scheduler {
        Scheduler::Unconstrained | Scheduler::Pairwise => greedy::run(
            &mut wgs,
            &mut rec,
            &mut clock,
            upload,
            opts.scheduler == Scheduler::Pairwise,
        )?,
        Scheduler::SpAsAccess | Scheduler::SpAsCompute => {
            lockstep::run(&mut wgs, &mut rec, &mut clock, upload)?
        }
    };
    let cycles = end.max(upload);
    let mut busy = std::mem::take(&mut rec.busy);
    *busy.entry("dram").or_default() += upload;
    let mut lanes: Vec<String> = vec!["compute".into(), "dram".into()];
    if busy.contains_key("sp0") || busy.contains_key("sp1") {
        lanes.push("sp0".into());
        lanes.push("sp1".into());
    }
    let utilisation = lanes
        .iter()
        .map(|l| {
            let b = busy.get(l.as_str()).copied().unwrap_or(0);
            LaneUse {
                lane: l.clone(),
                busy: b,
                percent: if cycles == 0 {
                    0.0
                } else {
                    b as f64 * 100.0 / cycles as f64
                },
            }
        })
        .collect();
    let shown = wgs.count.min(opts.shown_work_groups);
    let makespan = rec.intervals.iter().map(|i| i.end).max().unwrap_or(upload);
    rec.refreshes.retain(|&(s, _)| s < makespan);
    rec.intervals
        .sort_by_key(|i| (i.start, i.slot, i.work_group, i.phase));
    Ok(Execution {
        scheduler: opts.scheduler,
        path: opts.path,
        cycles,
        bound,
        within_bound: cycles <= bound,
        work_groups: wgs.count,
        phase_instances: rec.phases,
        refreshes: clock.count,
        utilisation,
        schedule: Schedule {
            lanes,
            intervals: rec.intervals,
            work_groups: shown,
            truncated: rec.truncated || shown < wgs.count,
            makespan,
        },
        refresh_intervals: rec.refreshes,
        upload: (0, upload),
        controller_runs: wgs.pricer().map_or(0, |p| p.runs),
        requests_above_wcet: wgs.pricer().map_or(Vec::new(), |p| p.above_wcet.clone()),
        decisions: wgs.decisions(),
    })
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_launch;
