//! The kernel analyzer (Huangfu Alg. 1–4): for every warp of every block, the execution
//! trace through the CFG under the immediate-post-dominator reconvergence stack, the
//! register values of its threads, and the coalesced global addresses of every load and
//! store.
//!
//! Alg. 4 (§5.3.3.1) works on basic blocks: at a divergent branch it pushes the immediate
//! post-dominator, the not-taken and the taken block, so the taken side runs first; a
//! uniform branch pushes only the side taken. We keep Alg. 4's stack discipline with the
//! thread masks made explicit (entries carry their reconvergence block and active mask,
//! as in the post-dominator stack of Fung et al. [56] the thesis cites): an entry is popped
//! when it reaches its reconvergence block or has no live thread left. Threads leave at
//! `ret`/`exit`. Guards on other instructions are evaluated per thread.
//!
//! With [`UnknownData::Refuse`] (the thesis's analyzer) a branch, exit, access guard or
//! global address that depends on unknown data is a located error; with
//! [`UnknownData::Pessimistic`] the warp pays for every outcome ([`crate::both_sides`]) and
//! each such place is listed as an [`Assumption`].

use crate::both_sides::Speculation;
use crate::coalescing::{coalesce, Segment};
use crate::config::{Config, UnknownData};
use crate::control_flow::ControlFlow;
use crate::decoded::{decode, global_access, Control, Decoded, RegIndex};
use crate::launch::{Launch, ParamValue};
use crate::loops::{self, Loops};
use crate::report::{Assumption, AssumptionKind, LoopBoundUse};
use crate::semantics::{execute, value, Lane, ParamMemory, ThreadContext, Val};
use caches::AccessKind;
use isa::progress::{self, Every, Observer, Progress, Task};
use isa::ptx::{Function, ScalarType, StateSpace};
use isa::{Diagnostic, Severity, Span};
use std::collections::BTreeMap;

/// One executed warp instruction: its index and the mask of threads that reached it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceStep {
    pub inst: usize,
    pub mask: u32,
}

/// One entry of Alg. 4's `WarpExecutionOrder`: a basic block and the threads running it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockVisit {
    pub block: usize,
    pub mask: u32,
}

/// One global load or store executed by a warp (Alg. 4 lines 13–17).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobalAccess {
    /// Index into the warp's `steps`.
    pub step: usize,
    pub inst: usize,
    pub pc: u64,
    pub line: u32,
    pub kind: AccessKind,
    /// Bytes each thread accesses (type width × vector width).
    pub bytes_per_thread: u32,
    /// Threads that performed the access.
    pub threads: u32,
    /// The coalesced 128-byte segments (Alg. 5) of the threads whose address is known.
    pub segments: Vec<Segment>,
    /// Transactions whose address is not known ([`UnknownData::Pessimistic`]): one per
    /// thread with an unknown address (uncoalesced), one for a module variable.
    pub unknown_transactions: u32,
}

impl GlobalAccess {
    /// Memory transactions of the access: its segments plus the unknown ones.
    pub fn transactions(&self) -> u32 {
        (self.segments.len() as u32).saturating_add(self.unknown_transactions)
    }
}

/// Everything the analyzer found for one warp.
#[derive(Debug, Clone, PartialEq)]
pub struct WarpTrace {
    pub block: [u32; 3],
    pub block_linear: u32,
    /// Warp index within its block.
    pub warp: u32,
    /// SM the block runs on (block mod SMs).
    pub sm: u32,
    /// Threads of the block in this warp (the last warp may be partial).
    pub threads: u32,
    pub basic_blocks: Vec<BlockVisit>,
    pub steps: Vec<TraceStep>,
    pub accesses: Vec<GlobalAccess>,
}

/// Alg. 1's result: the global load/store program counters (`LDSTPCList`) and every warp.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelAnalysis {
    pub pc_address: Vec<u64>,
    pub warps: Vec<WarpTrace>,
    /// Non-fatal remarks (e.g. generic addresses treated as global; with
    /// [`UnknownData::Pessimistic`], every assumption with its location).
    pub notes: Vec<Diagnostic>,
    /// The places where unknown data was paid for in the worst case, in code order.
    pub assumptions: Vec<Assumption>,
    /// The loop bounds applied to loops that exit on unknown data.
    pub loop_bounds: Vec<LoopBoundUse>,
}

/// The assumptions found while following the warps, one per instruction and kind.
#[derive(Debug, Default)]
struct Found {
    places: BTreeMap<(usize, AssumptionKind), Span>,
    bounds: BTreeMap<usize, crate::both_sides::AppliedBound>,
}

impl Found {
    fn add(&mut self, inst: usize, kind: AssumptionKind, span: Span) {
        self.places.entry((inst, kind)).or_insert(span);
    }
}

const EXIT: usize = usize::MAX;

/// Which side of a branch on unknown data an entry runs ([`crate::both_sides`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Taken,
    NotTaken,
}

#[derive(Debug, Clone, Copy)]
struct StackEntry {
    block: usize,
    /// Reconvergence block; `None` = the virtual exit.
    rpc: Option<usize>,
    mask: u32,
    /// Set for the two sides of a branch on unknown data.
    side: Option<Side>,
}

fn param_memory(f: &Function, launch: &Launch) -> Result<ParamMemory, Diagnostic> {
    if launch.params.len() != f.params.len() {
        let span = f
            .params
            .get(launch.params.len())
            .map(|p| p.span)
            .unwrap_or(f.name_span);
        return Err(Diagnostic::error(
            span,
            format!(
                "kernel `{}` declares {} parameters but {} values were given \
                 (give them in declaration order)",
                f.name,
                f.params.len(),
                launch.params.len()
            ),
        ));
    }
    let mut mem = ParamMemory::default();
    for (decl, value) in f.params.iter().zip(&launch.params) {
        let size = decl.size_bytes().unwrap_or(8).min(1 << 16) as usize;
        let ty = ScalarType::from_modifier(&decl.ty);
        let mut bytes = match value {
            ParamValue::Int(v) => match ty {
                Some(ScalarType::F32) => ((*v as f32).to_bits() as u64).to_le_bytes().to_vec(),
                Some(ScalarType::F64) => (*v as f64).to_bits().to_le_bytes().to_vec(),
                _ => v.to_le_bytes().to_vec(),
            },
            ParamValue::Float(x) => match ty {
                Some(ScalarType::F32) => ((*x as f32).to_bits() as u64).to_le_bytes().to_vec(),
                Some(ScalarType::F64) | None => x.to_bits().to_le_bytes().to_vec(),
                Some(_) => (*x as i64).to_le_bytes().to_vec(),
            },
            ParamValue::Bytes(b) => b.clone(),
        };
        bytes.resize(size, 0);
        mem.bytes.insert(decl.name.clone(), bytes);
    }
    Ok(mem)
}

fn budget_error(what: &str, limit: u64, knob: &str) -> Diagnostic {
    Diagnostic::global(
        Severity::Error,
        format!("{what} over the budget of {limit} (raise {knob})"),
    )
}

/// Runs Alg. 1: every warp of every block through Alg. 4.
pub fn analyze(
    f: &Function,
    cf: &ControlFlow,
    launch: &Launch,
    config: &Config,
) -> Result<KernelAnalysis, Diagnostic> {
    analyze_observed(f, cf, launch, config, &progress::silent)
}

/// Warp instructions between two progress reports (a few dozen milliseconds).
const REPORT_EVERY: u64 = 1 << 16;

/// What the warp loop tells its observer: the warp instructions executed so far, against
/// `max_warp_steps` ([`Task::RoundRobinAnalyzer`]).
struct Reporter<'a> {
    observer: Observer<'a>,
    every: Every,
    budget: u64,
}

impl Reporter<'_> {
    /// One more warp instruction; `left` of the budget remain.
    #[inline(always)]
    fn step(&mut self, left: u64) {
        if self.every.tick(1) {
            (self.observer)(&Progress {
                task: Task::RoundRobinAnalyzer,
                done: self.budget - left,
                budget: self.budget,
                best_bound: None,
                upper_bound: None,
            });
        }
    }
}

/// [`analyze`], telling `observer` every [`REPORT_EVERY`] warp instructions how many have
/// been executed over all warps. The result does not depend on the observer.
pub fn analyze_observed(
    f: &Function,
    cf: &ControlFlow,
    launch: &Launch,
    config: &Config,
    observer: Observer,
) -> Result<KernelAnalysis, Diagnostic> {
    let warp_size = config.warp_size.clamp(1, 32);
    let sms = config.sms.max(1);
    let threads_per_block = launch.threads_per_block();
    let blocks = launch.blocks();
    if threads_per_block == 0 || blocks == 0 {
        return Err(Diagnostic::global(
            Severity::Error,
            "grid and block dimensions must all be positive",
        ));
    }
    let warps_per_block = launch.warps_per_block(warp_size);
    let total_warps = blocks.saturating_mul(warps_per_block);
    if total_warps > config.budgets.max_warps {
        return Err(budget_error(
            &format!("the launch has {total_warps} warps,"),
            config.budgets.max_warps,
            "max_warps",
        ));
    }
    let params = param_memory(f, launch)?;
    let ri = RegIndex::of(f);
    let decoded = decode(f, &ri, &params);
    let mut notes = Vec::new();
    let mut pc_address: Vec<u64> = f
        .instructions
        .iter()
        .enumerate()
        .filter(|(_, ins)| global_access(ins).is_some())
        .map(|(i, _)| Function::pc(i))
        .collect();
    pc_address.dedup();
    if let Some(ins) = f
        .instructions
        .iter()
        .find(|ins| ins.state_space() == Some(StateSpace::Generic))
    {
        notes.push(Diagnostic::warning(
            ins.span,
            "generic-address memory instruction treated as a global access",
        ));
    }
    let loops = loops::find(f, cf);
    if config.unknown_data == UnknownData::Pessimistic {
        for label in config.loop_bounds.per_label.keys() {
            if !loops.loops.iter().any(|l| &l.label == label) {
                notes.push(Diagnostic::global(
                    Severity::Warning,
                    format!(
                        "loop bound for `{label}`: no loop of this kernel has that header label"
                    ),
                ));
            }
        }
    }
    let mut found = Found::default();
    let mut steps_left = config.budgets.max_warp_steps;
    let mut reporter = Reporter {
        observer,
        every: Every::new(REPORT_EVERY),
        budget: config.budgets.max_warp_steps,
    };
    let mut warps = Vec::with_capacity(total_warps as usize);
    for b in 0..blocks {
        let block = launch.grid.coords(b);
        for w in 0..warps_per_block {
            let first_thread = w * warp_size as u64;
            let threads = (threads_per_block - first_thread).min(warp_size as u64) as u32;
            let trace = run_warp(
                f,
                cf,
                launch,
                ri.len(),
                &decoded,
                &loops,
                &mut found,
                WarpPlace {
                    block,
                    block_linear: b as u32,
                    warp: w as u32,
                    sm: (b % sms as u64) as u32,
                    nsm: sms,
                    first_thread,
                    threads,
                },
                config,
                (&mut steps_left, &mut reporter),
            )?;
            warps.push(trace);
        }
    }
    let (assumptions, loop_bounds) = report_assumptions(&loops, found, &mut notes);
    Ok(KernelAnalysis {
        pc_address,
        warps,
        notes,
        assumptions,
        loop_bounds,
    })
}

/// The assumptions as the report lists them and as located diagnostics.
fn report_assumptions(
    loops: &Loops,
    found: Found,
    notes: &mut Vec<Diagnostic>,
) -> (Vec<Assumption>, Vec<LoopBoundUse>) {
    let mut list = Vec::new();
    for ((inst, kind), span) in found.places {
        let message = kind.message().to_string();
        notes.push(Diagnostic::note(span, message.clone()));
        list.push(Assumption {
            kind,
            inst,
            pc: Function::pc(inst),
            line: span.line,
            column: span.column,
            message,
        });
    }
    let mut uses = Vec::new();
    for (lp, applied) in found.bounds {
        let Some(l) = loops.loops.get(lp) else {
            continue;
        };
        let from = if applied.from_code {
            "inferred"
        } else if applied.from_request {
            "loop_bounds"
        } else {
            "default_loop_bound"
        };
        if applied.from_code {
            notes.push(Diagnostic::note(
                l.span,
                format!(
                    "the loop `{0}` exits on data the analyzer does not know: bounded by its \
                     code at {1} runs of the header per entry",
                    l.label, applied.bound
                ),
            ));
        } else {
            notes.push(Diagnostic::warning(
                l.span,
                format!(
                    "the loop `{0}` exits on data the analyzer does not know: assumed to run its \
                     header at most {1} times per entry ({from}), an assumption the code does not \
                     give; give its real bound with loop_bounds {{\"{0}\": N}} / --loop-bound \
                     '{0}=N', or take the simulated run's count with loop_bounds=observed",
                    l.label, applied.bound
                ),
            ));
        }
        uses.push(LoopBoundUse {
            label: l.label.clone(),
            line: l.span.line,
            bound: applied.bound,
            source: from.to_string(),
        });
    }
    (list, uses)
}

#[derive(Debug, Clone, Copy)]
struct WarpPlace {
    block: [u32; 3],
    block_linear: u32,
    warp: u32,
    sm: u32,
    nsm: u32,
    first_thread: u64,
    threads: u32,
}

/// The lanes of `mask`, lowest first.
#[inline]
fn lanes_of(mask: u32) -> impl Iterator<Item = usize> {
    let mut left = mask;
    std::iter::from_fn(move || {
        if left == 0 {
            return None;
        }
        let l = left.trailing_zeros() as usize;
        left &= left - 1;
        Some(l)
    })
}

fn unknown_guard(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(
        span,
        format!(
            "cannot evaluate the guard of this {what}: it depends on a value the analyzer \
             does not know (loaded from memory or computed by an unmodelled instruction); \
             only input-independent branches can be analysed (Huangfu §4.4.6.1; \
             unknown_data=pessimistic pays for both outcomes instead)"
        ),
    )
}

// Instruction and lane indices address several parallel arrays (instructions, decoded
// forms, registers, contexts), so index loops read better than zipped iterators here.
#[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
fn run_warp(
    f: &Function,
    cf: &ControlFlow,
    launch: &Launch,
    registers: usize,
    decoded: &[Decoded],
    loops: &Loops,
    found: &mut Found,
    place: WarpPlace,
    config: &Config,
    (steps_left, reporter): (&mut u64, &mut Reporter),
) -> Result<WarpTrace, Diagnostic> {
    let pessimistic = config.unknown_data == UnknownData::Pessimistic;
    let lanes = place.threads as usize;
    let full: u32 = if lanes >= 32 {
        u32::MAX
    } else {
        (1u32 << lanes) - 1
    };
    let ctxs: Vec<ThreadContext> = (0..lanes)
        .map(|l| {
            let t = place.first_thread + l as u64;
            ThreadContext {
                tid: launch.block.coords(t),
                ntid: [launch.block.x, launch.block.y, launch.block.z],
                ctaid: place.block,
                nctaid: [launch.grid.x, launch.grid.y, launch.grid.z],
                lane: l as u32,
                warp: place.warp,
                sm: place.sm,
                nsm: place.nsm,
            }
        })
        .collect();
    // Every thread's registers, `registers` per thread (thread `l`'s at `l * registers`).
    let mut regs: Vec<Val> = vec![None; lanes * registers];
    let thread = |l: usize| l * registers..(l + 1) * registers;
    let mut trace = WarpTrace {
        block: place.block,
        block_linear: place.block_linear,
        warp: place.warp,
        sm: place.sm,
        threads: place.threads,
        basic_blocks: Vec::new(),
        steps: Vec::new(),
        accesses: Vec::new(),
    };
    if cf.blocks.is_empty() {
        return Ok(trace);
    }
    let mut spec = Speculation::new(
        loops,
        &config.loop_bounds,
        (lanes, registers),
        config.budgets.max_fork_values,
    );
    let mut alive = full;
    // Scratch space reused by every step: a thread's register writes, an access's addresses.
    let mut writes: Vec<(usize, Val)> = Vec::new();
    let mut addrs: Vec<(u64, u32)> = Vec::with_capacity(lanes);
    let mut stack = vec![StackEntry {
        block: 0,
        rpc: None,
        mask: full,
        side: None,
    }];
    while let Some(&top) = stack.last() {
        let mut m = top.mask & alive;
        if m == 0 || top.block == EXIT || Some(top.block) == top.rpc {
            stack.pop();
            match top.side {
                Some(Side::Taken) => spec.end_taken_side(&mut regs, &mut alive),
                Some(Side::NotTaken) => spec.join(top.rpc, &mut regs, &mut alive),
                None => {}
            }
            continue;
        }
        let b = top.block;
        let bb = &cf.blocks[b];
        if pessimistic {
            // Threads whose loop iteration on unknown data exceeds the loop's bound stop
            // on this path (both_sides: the path where they leave is still to run).
            let cut = spec.enter(b, m)?;
            if cut != 0 {
                alive &= !cut;
                m &= !cut;
                if m == 0 {
                    continue;
                }
            }
        }
        trace.basic_blocks.push(BlockVisit { block: b, mask: m });
        let mut taken_mask = 0u32;
        let mut unknown_branch = 0u32;
        for i in bb.start..bb.end {
            if *steps_left == 0 {
                return Err(budget_error(
                    "the analyzer executed more warp instructions than allowed; the kernel \
                     may not terminate for these inputs:",
                    config.budgets.max_warp_steps,
                    "max_warp_steps",
                ));
            }
            *steps_left -= 1;
            reporter.step(*steps_left);
            let step = trace.steps.len();
            trace.steps.push(TraceStep { inst: i, mask: m });
            let ins = &f.instructions[i];
            let dec = &decoded[i];
            // Per-lane guard: true, false, or unknown.
            let (eff, unknown) = match &ins.guard {
                None => (m, 0),
                Some(g) => {
                    let (mut eff, mut unknown) = (0u32, 0u32);
                    for l in lanes_of(m) {
                        match dec.guard.and_then(|id| regs[l * registers + id]) {
                            Some(v) if (v != 0) != g.negated => eff |= 1 << l,
                            Some(_) => {}
                            None => unknown |= 1 << l,
                        }
                    }
                    (eff, unknown)
                }
            };
            let control = dec.control != Control::None;
            if unknown != 0 && (control || dec.access.is_some()) {
                let span = ins.guard.as_ref().map(|g| g.span).unwrap_or(ins.span);
                if !pessimistic {
                    let what = if control { "branch" } else { "memory access" };
                    return Err(unknown_guard(span, what));
                }
                match dec.control {
                    Control::Branch => {}
                    Control::Exit => found.add(i, AssumptionKind::GuardedExit, span),
                    Control::None => found.add(i, AssumptionKind::GuardedAccess, span),
                }
            }
            match dec.control {
                Control::Branch => {
                    taken_mask = eff;
                    unknown_branch = unknown;
                }
                Control::Exit => {
                    if pessimistic && ins.guard.is_some() {
                        // Threads of `unknown` may leave or not: they keep running.
                        spec.exit(b, m & !eff & !unknown, unknown);
                    }
                    alive &= !eff;
                    m &= !eff;
                }
                Control::None => {
                    if let Some(a) = dec.access {
                        // Threads whose guard is unknown are counted as accessing.
                        let active = eff | unknown;
                        if active != 0 {
                            addrs.clear();
                            let mut unknown_transactions = 0u32;
                            let mut named = false;
                            for l in lanes_of(active) {
                                let lane = Lane {
                                    regs: &regs[thread(l)],
                                    ctx: &ctxs[l],
                                };
                                match lane.address(a.address) {
                                    Some(Some(x)) => addrs.push((x, a.bytes)),
                                    Some(None) if pessimistic => unknown_transactions += 1,
                                    None if pessimistic => named = true,
                                    Some(None) => {
                                        return Err(Diagnostic::error(
                                            a.span,
                                            format!(
                                                "cannot evaluate the address of this global \
                                                 access for thread {}: it depends on a value \
                                                 the analyzer does not know (loaded from \
                                                 memory or computed by an unmodelled \
                                                 instruction; Huangfu §4.4.6.1)",
                                                ctxs[l].tid[0]
                                            ),
                                        ))
                                    }
                                    None => {
                                        return Err(Diagnostic::error(
                                            a.span,
                                            "global access through a named variable: its \
                                             address is not known to the analyzer",
                                        ))
                                    }
                                }
                            }
                            if named {
                                // `[var+offset]`: one address for every thread.
                                unknown_transactions += 1;
                            }
                            if unknown_transactions > 0 {
                                found.add(i, AssumptionKind::UncoalescedAddress, a.span);
                            }
                            trace.accesses.push(GlobalAccess {
                                step,
                                inst: i,
                                pc: Function::pc(i),
                                line: ins.span.line,
                                kind: a.kind,
                                bytes_per_thread: a.bytes,
                                threads: active.count_ones(),
                                segments: coalesce(&addrs, config.segment_bytes),
                                unknown_transactions,
                            });
                        }
                    }
                    // Register effects (loads write unknown values). Each thread reads
                    // and writes only its own registers, so writes apply in place.
                    if !dec.dests.is_empty() {
                        for l in lanes_of(eff | unknown) {
                            if unknown & (1 << l) != 0 {
                                for &id in &dec.dests {
                                    spec.write(&mut regs, l, id, None);
                                }
                                continue;
                            }
                            let lane = Lane {
                                regs: &regs[thread(l)],
                                ctx: &ctxs[l],
                            };
                            if let Some(id) = dec.single {
                                let v = value(dec, &lane);
                                spec.write(&mut regs, l, id, v);
                                continue;
                            }
                            writes.clear();
                            execute(dec, &lane, &mut writes);
                            for &(id, v) in &writes {
                                spec.write(&mut regs, l, id, v);
                            }
                        }
                    }
                    if pessimistic {
                        spec.check_budget()?;
                    }
                }
            }
        }
        // End of the block: choose what runs next (Alg. 4 lines 19–36).
        let last = &f.instructions[bb.end - 1];
        let taken = bb.taken.unwrap_or(EXIT);
        let fall = bb.fallthrough.unwrap_or(EXIT);
        let next = if decoded[bb.end - 1].control == Control::Branch {
            if last.guard.is_none() {
                taken
            } else {
                let t = taken_mask & m;
                let u = unknown_branch & m;
                let nt = m & !t & !u;
                if pessimistic {
                    spec.branch(b, (taken, fall), (t, nt, u));
                }
                if u != 0 && taken != fall {
                    // Both outcomes for the threads of `u` (both_sides): the taken side
                    // with t ∪ u, then the not-taken side with nt ∪ u.
                    let span = last.guard.as_ref().map_or(last.span, |g| g.span);
                    found.add(bb.end - 1, AssumptionKind::BothSides, span);
                    let ipd = cf.ipdom[b];
                    if let Some(e) = stack.last_mut() {
                        e.block = ipd.unwrap_or(EXIT);
                    }
                    spec.fork(b, u, &regs)?;
                    stack.push(StackEntry {
                        block: fall,
                        rpc: ipd,
                        mask: nt | u,
                        side: Some(Side::NotTaken),
                    });
                    stack.push(StackEntry {
                        block: taken,
                        rpc: ipd,
                        mask: t | u,
                        side: Some(Side::Taken),
                    });
                    continue;
                } else if u != 0 {
                    taken
                } else if t != 0 && nt != 0 {
                    let ipd = cf.ipdom[b];
                    if let Some(e) = stack.last_mut() {
                        e.block = ipd.unwrap_or(EXIT);
                    }
                    stack.push(StackEntry {
                        block: fall,
                        rpc: ipd,
                        mask: nt,
                        side: None,
                    });
                    stack.push(StackEntry {
                        block: taken,
                        rpc: ipd,
                        mask: t,
                        side: None,
                    });
                    continue;
                } else if t != 0 {
                    taken
                } else {
                    fall
                }
            }
        } else {
            fall
        };
        if let Some(e) = stack.last_mut() {
            e.block = next;
        }
    }
    found.bounds.extend(std::mem::take(&mut spec.applied));
    Ok(trace)
}
