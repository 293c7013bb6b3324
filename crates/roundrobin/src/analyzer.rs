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

use crate::coalescing::{coalesce, Segment};
use crate::config::Config;
use crate::control_flow::ControlFlow;
use crate::launch::{Launch, ParamValue};
use crate::semantics::{
    decode, execute, register_address, Decoded, Lane, ParamMemory, RegIndex, ThreadContext, Val,
};
use caches::AccessKind;
use isa::ptx::{Function, Instruction, ScalarType, StateSpace};
use isa::{Diagnostic, Severity, Span};
use serde::{Deserialize, Serialize};

/// One executed warp instruction: its index and the mask of threads that reached it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceStep {
    pub inst: usize,
    pub mask: u32,
}

/// One entry of Alg. 4's `WarpExecutionOrder`: a basic block and the threads running it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockVisit {
    pub block: usize,
    pub mask: u32,
}

/// One global load or store executed by a warp (Alg. 4 lines 13–17).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
    /// The coalesced 128-byte segments (Alg. 5).
    pub segments: Vec<Segment>,
}

/// Everything the analyzer found for one warp.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KernelAnalysis {
    pub pc_address: Vec<u64>,
    pub warps: Vec<WarpTrace>,
    /// Non-fatal remarks (e.g. generic addresses treated as global).
    pub notes: Vec<Diagnostic>,
}

const EXIT: usize = usize::MAX;

#[derive(Debug, Clone, Copy)]
struct StackEntry {
    block: usize,
    /// Reconvergence block; `None` = the virtual exit.
    rpc: Option<usize>,
    mask: u32,
}

/// Which global accesses the analyzer records: `ld`/`st`/`atom`/`red` in the global space
/// (or with a generic address, treated as global).
fn global_access(ins: &Instruction) -> Option<(AccessKind, usize)> {
    let space = ins.state_space()?;
    if !matches!(space, StateSpace::Global | StateSpace::Generic) {
        return None;
    }
    match ins.opcode.as_str() {
        "ld" | "ldu" => Some((AccessKind::Load, 1)),
        "st" => Some((AccessKind::Store, 0)),
        "atom" => Some((AccessKind::Store, 1)),
        "red" => Some((AccessKind::Store, 0)),
        _ => None,
    }
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
    let decoded = decode(f, &ri);
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
    let mut steps_left = config.budgets.max_warp_steps;
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
                &ri,
                &decoded,
                &params,
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
                &mut steps_left,
            )?;
            warps.push(trace);
        }
    }
    Ok(KernelAnalysis {
        pc_address,
        warps,
        notes,
    })
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

fn unknown_guard(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(
        span,
        format!(
            "cannot evaluate the guard of this {what}: it depends on a value the analyzer \
             does not know (loaded from memory or computed by an unmodelled instruction); \
             only input-independent branches can be analysed (Huangfu §4.4.6.1)"
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
    ri: &RegIndex,
    decoded: &[Decoded],
    params: &ParamMemory,
    place: WarpPlace,
    config: &Config,
    steps_left: &mut u64,
) -> Result<WarpTrace, Diagnostic> {
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
    let mut regs: Vec<Vec<Val>> = vec![vec![None; ri.len()]; lanes];
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
    let mut alive = full;
    let mut stack = vec![StackEntry {
        block: 0,
        rpc: None,
        mask: full,
    }];
    while let Some(&top) = stack.last() {
        let mut m = top.mask & alive;
        if m == 0 || top.block == EXIT || Some(top.block) == top.rpc {
            stack.pop();
            continue;
        }
        let b = top.block;
        let bb = &cf.blocks[b];
        trace.basic_blocks.push(BlockVisit { block: b, mask: m });
        let mut taken_mask = 0u32;
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
            let step = trace.steps.len();
            trace.steps.push(TraceStep { inst: i, mask: m });
            let ins = &f.instructions[i];
            let dec = &decoded[i];
            // Per-lane guard: Some(true/false), or None when unknown.
            let mut eff = 0u32;
            let mut unknown = 0u32;
            for l in 0..lanes {
                if m & (1 << l) == 0 {
                    continue;
                }
                let g = match &ins.guard {
                    None => Some(true),
                    Some(g) => dec
                        .guard
                        .and_then(|id| regs[l][id])
                        .map(|v| (v != 0) != g.negated),
                };
                match g {
                    Some(true) => eff |= 1 << l,
                    Some(false) => {}
                    None => unknown |= 1 << l,
                }
            }
            let control = matches!(ins.opcode.as_str(), "bra" | "ret" | "exit");
            let access = global_access(ins);
            if unknown != 0 && (control || access.is_some()) {
                let span = ins.guard.as_ref().map(|g| g.span).unwrap_or(ins.span);
                let what = if control { "branch" } else { "memory access" };
                return Err(unknown_guard(span, what));
            }
            match ins.opcode.as_str() {
                "bra" => taken_mask = eff,
                "ret" | "exit" => {
                    alive &= !eff;
                    m &= !eff;
                }
                _ => {
                    if let Some((kind, k)) = access {
                        if eff != 0 {
                            let types = ins.types();
                            let elem = types.last().map(|t| t.bytes()).unwrap_or(4);
                            let size = elem * ins.vector_width();
                            let mut addrs = Vec::with_capacity(lanes);
                            for (l, lane_regs) in regs.iter().enumerate() {
                                if eff & (1 << l) == 0 {
                                    continue;
                                }
                                let lane = Lane {
                                    regs: lane_regs,
                                    ctx: &ctxs[l],
                                };
                                let op_span =
                                    ins.operands.get(k).map(|o| o.span).unwrap_or(ins.span);
                                match register_address(&lane, ins, k, ri) {
                                    Some(Some(a)) => addrs.push((a, size)),
                                    Some(None) => {
                                        return Err(Diagnostic::error(
                                            op_span,
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
                                            op_span,
                                            "global access through a named variable: its \
                                             address is not known to the analyzer",
                                        ))
                                    }
                                }
                            }
                            trace.accesses.push(GlobalAccess {
                                step,
                                inst: i,
                                pc: Function::pc(i),
                                line: ins.span.line,
                                kind,
                                bytes_per_thread: size,
                                threads: eff.count_ones(),
                                segments: coalesce(&addrs, config.segment_bytes),
                            });
                        }
                    }
                    // Register effects (loads write unknown values). Each thread reads
                    // and writes only its own registers, so writes apply in place.
                    for l in 0..lanes {
                        let bit = 1 << l;
                        let writes = if eff & bit != 0 {
                            let lane = Lane {
                                regs: &regs[l],
                                ctx: &ctxs[l],
                            };
                            execute(ins, dec, &lane, ri, params)
                        } else if unknown & bit != 0 {
                            dec.dests.iter().map(|&id| (id, None)).collect()
                        } else {
                            continue;
                        };
                        for (id, v) in writes {
                            if let Some(slot) = regs[l].get_mut(id) {
                                *slot = v;
                            }
                        }
                    }
                }
            }
        }
        // End of the block: choose what runs next (Alg. 4 lines 19–36).
        let last = &f.instructions[bb.end - 1];
        let taken = bb.taken.unwrap_or(EXIT);
        let fall = bb.fallthrough.unwrap_or(EXIT);
        let next = if last.opcode == "bra" {
            if last.guard.is_none() {
                taken
            } else {
                let t = taken_mask & m;
                let nt = m & !taken_mask;
                if t != 0 && nt != 0 {
                    let ipd = cf.ipdom[b];
                    if let Some(e) = stack.last_mut() {
                        e.block = ipd.unwrap_or(EXIT);
                    }
                    stack.push(StackEntry {
                        block: fall,
                        rpc: ipd,
                        mask: nt,
                    });
                    stack.push(StackEntry {
                        block: taken,
                        rpc: ipd,
                        mask: t,
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
    Ok(trace)
}
