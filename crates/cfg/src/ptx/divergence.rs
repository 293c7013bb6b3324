//! Which branches of a PTX function can split a warp: a divergence (uniformity) analysis.
//!
//! PTX names no reconvergence points and says nothing about which branches diverge, so the
//! warp-level CFG needs to know, for every guarded `bra`/`ret`/`exit`, whether the lanes of
//! a warp can disagree on its guard. A value is **varying** when lanes of one warp can hold
//! different values of it at the same instruction; everything else is **uniform**. This is
//! the classic divergence analysis of SIMT compilers (Coutinho, Sampaio, Pereira, Meira,
//! "Divergence Analysis and Optimizations", PACT 2011: data dependences plus the
//! sync dependence at the join of a divergent branch), read over PTX's named registers.
//!
//! Sources of variation (everything else is uniform when its operands are):
//! - special registers that differ per lane or per moment: `%tid`, `%laneid`,
//!   `%lanemask_*`, `%clock*`, `%globaltimer*` and any not listed as uniform below; the
//!   launch geometry (`%ntid`, `%ctaid`, `%nctaid`, `%gridid`, `%warpid`, `%smid`,
//!   `%cluster*`, shared-memory sizes) is the same for every lane of a warp;
//! - loads whose address varies, and every load from `.local` or a generic address (local
//!   memory is per thread, and a generic address may point into it); a load of one uniform
//!   address from `.global`, `.shared`, `.const` or a kernel parameter gives every lane the
//!   same value (one warp instruction reads the word once: PTX ISA §8 memory consistency
//!   has no intra-instruction reordering that could split it);
//! - `.param` loads other than the kernel's own parameters (a callee's arguments, a call's
//!   return value: the callers may pass varying values);
//! - `atom` (every lane gets its own old value), `shfl`, `match`, `elect`; `vote`,
//!   `activemask`, `redux` and `bar.red` give all lanes of the warp one answer;
//! - an instruction under a varying guard (`@%p mov %r, 1`: some lanes write, some do not);
//! - **sync dependence**: a register written between a divergent branch and its immediate
//!   post-dominator `R` (the branch's *region*: blocks reachable from its successors
//!   without passing `R`) is varying wherever it is read outside that region, because the
//!   lanes that reconverge at `R` took different paths. Inside the region the active lanes
//!   all took the same path (the PDOM stack runs each side alone, see
//!   [`super::pdom`]), so a loop counter of a loop with a divergent exit stays uniform for
//!   the latch while it is varying after the loop.
//!
//! A branch is divergent when its guard is varying where it is read, unless it is written
//! `bra.uni` (the programmer's or compiler's promise that it is uniform, PTX ISA §9.7.13.4).
//! The analysis is flow-insensitive per register apart from the sync dependence (nvcc's
//! PTX writes almost every virtual register once, so this costs little precision), and is
//! iterated to a fixpoint: each round only adds varying registers or divergent branches.

use super::reads_writes::{reads, writes};
use isa::flow::FlowGraph;
use isa::ptx::{Function, FunctionKind, Instruction, OperandKind, StateSpace};
use std::collections::HashMap;

/// Special registers that every lane of a warp reads alike.
const UNIFORM_SPECIALS: &[&str] = &[
    "ntid",
    "ctaid",
    "nctaid",
    "gridid",
    "warpid",
    "nwarpid",
    "smid",
    "nsmid",
    "clusterid",
    "nclusterid",
    "cluster_ctaid",
    "cluster_nctaid",
    "cluster_ctarank",
    "cluster_nctarank",
    "is_explicit_cluster",
    "total_smem_size",
    "aggr_smem_size",
    "dynamic_smem_size",
    "reserved_smem_offset_begin",
    "reserved_smem_offset_end",
    "reserved_smem_offset_cap",
    "current_graph_exec",
];

/// The verdict for one function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// Per block of the flow graph: can the lanes of a warp disagree on the guard of the
    /// branch, `ret` or `exit` that ends it.
    pub divergent: Vec<bool>,
    /// Per block: the varying register the guard depends on, for divergent blocks.
    pub guard: Vec<Option<String>>,
    /// Registers varying by data dependence (sorted).
    pub varying: Vec<String>,
    /// Per divergent block: where the variation of its guard comes from, as a chain
    /// `%p1 ← %r4 ← %tid.x (line 12)`.
    pub reason: Vec<Option<String>>,
}

impl Divergence {
    /// Number of divergent blocks.
    pub fn count(&self) -> usize {
        self.divergent.iter().filter(|&&d| d).count()
    }
}

/// Intrinsic variation of the value `ins` writes, before looking at its register operands.
fn intrinsically_varying(f: &Function, ins: &Instruction) -> bool {
    let op = ins.opcode.as_str();
    if matches!(op, "atom" | "shfl" | "match" | "elect") {
        return true;
    }
    let special = ins.operands.iter().any(|o| match &o.kind {
        OperandKind::Special { name, .. } => !UNIFORM_SPECIALS.contains(&name.as_str()),
        _ => false,
    });
    if special {
        return true;
    }
    if matches!(op, "ld" | "ldu") {
        return match ins.state_space() {
            Some(StateSpace::Global | StateSpace::Shared | StateSpace::Const) => false,
            Some(StateSpace::Param) => !reads_kernel_parameter(f, ins),
            _ => true,
        };
    }
    false
}

/// Whether the variation of `ins`'s operands does not reach its result (warp-wide votes and
/// reductions).
fn result_uniform(ins: &Instruction) -> bool {
    match ins.opcode.as_str() {
        "vote" | "activemask" | "redux" => true,
        "bar" | "barrier" => ins.has_modifier("red"),
        _ => false,
    }
}

/// `ld.param` of one of the kernel's own parameters (the same launch value for every lane).
fn reads_kernel_parameter(f: &Function, ins: &Instruction) -> bool {
    if f.kind != FunctionKind::Entry {
        return false;
    }
    ins.operands.iter().any(|o| match &o.kind {
        OperandKind::Address {
            base: Some(isa::ptx::AddressBase::Symbol(s)),
            ..
        } => f.params.iter().any(|p| &p.name == s),
        _ => false,
    })
}

/// The registers deciding where the lanes of a control transfer ending a block go: the
/// guard of `bra` (unless `.uni`), `ret`, `exit`, `trap`, and for `brx.idx` also its index.
fn deciding_registers(ins: &Instruction) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    match ins.opcode.as_str() {
        "bra" if ins.has_modifier("uni") => return out,
        "bra" | "ret" | "exit" | "trap" => {}
        "brx" => out.extend(ins.operands.first().and_then(|o| o.register())),
        _ => return out,
    }
    out.extend(ins.guard.as_ref().map(|g| g.reg.as_str()));
    out
}

/// Blocks reachable from the successors of `from` without entering `stop` (`None`: no
/// stop, the exit), as a membership vector.
fn region(succ: &[Vec<usize>], from: usize, stop: Option<usize>) -> Vec<bool> {
    let mut seen = vec![false; succ.len()];
    let mut stack: Vec<usize> = succ[from]
        .iter()
        .copied()
        .filter(|&s| Some(s) != stop)
        .collect();
    while let Some(b) = stack.pop() {
        if seen[b] {
            continue;
        }
        seen[b] = true;
        for &s in &succ[b] {
            if Some(s) != stop && !seen[s] {
                stack.push(s);
            }
        }
    }
    seen
}

/// Runs the analysis on `f` with its flow graph and the immediate post-dominator of each
/// block (`None`: only the exit post-dominates it).
pub fn analyse(f: &Function, graph: &FlowGraph, ipdom: &[Option<usize>]) -> Divergence {
    let nb = graph.blocks.len();
    let mut succ = vec![Vec::new(); nb];
    for &(a, b, _) in &graph.edges {
        succ[a].push(b);
    }
    // Registers by number, in order of first mention (deterministic).
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut names: Vec<&str> = Vec::new();
    let mut intern = |r| {
        let n = ids.len();
        *ids.entry(r).or_insert_with(|| {
            names.push(r);
            n
        })
    };
    struct Ins {
        block: usize,
        reads: Vec<usize>,
        writes: Vec<usize>,
        guard: Option<usize>,
        intrinsic: bool,
        uniform_result: bool,
        /// Reads memory (or another lane): a varying address makes the value the load's.
        loads: bool,
    }
    let mut code: Vec<Ins> = Vec::new();
    for b in &graph.blocks {
        for ins in &f.instructions[b.first..=b.last] {
            code.push(Ins {
                block: b.id,
                reads: reads(ins).into_iter().map(&mut intern).collect(),
                writes: writes(ins).into_iter().map(&mut intern).collect(),
                guard: ins.guard.as_ref().map(|g| intern(g.reg.as_str())),
                intrinsic: intrinsically_varying(f, ins),
                uniform_result: result_uniform(ins),
                loads: matches!(
                    ins.opcode.as_str(),
                    "ld" | "ldu" | "atom" | "tex" | "tld4" | "suld" | "shfl"
                ),
            });
        }
    }
    let nr = names.len();
    let control: Vec<Vec<usize>> = graph
        .blocks
        .iter()
        .map(|b| {
            deciding_registers(&f.instructions[b.last])
                .into_iter()
                .filter_map(|r| ids.get(r).copied())
                .collect()
        })
        .collect();
    let mut varying = vec![false; nr];
    // Why each register became varying: the instruction, and the varying register it read
    // (`None`: the instruction itself varies).
    // (`true`: that register varied there only by the sync dependence).
    let mut cause: Vec<Option<(usize, Option<usize>, bool)>> = vec![None; nr];
    let mut divergent = vec![false; nb];
    // The region of each divergent branch, and for each register the regions writing it.
    let mut regions: Vec<Vec<bool>> = Vec::new();
    let mut region_branch: Vec<usize> = Vec::new();
    let mut sync_of: Vec<Vec<usize>> = vec![Vec::new(); nr];
    let varying_at = |r: usize,
                      block: usize,
                      varying: &[bool],
                      sync_of: &[Vec<usize>],
                      regions: &[Vec<bool>]| {
        varying[r] || sync_of[r].iter().any(|&k| !regions[k][block])
    };
    loop {
        let mut changed = false;
        for (i, ins) in code.iter().enumerate() {
            let at = |r: usize| varying_at(r, ins.block, &varying, &sync_of, &regions);
            let source = if let Some(g) = ins.guard.filter(|&g| at(g)) {
                Some(Some(g))
            } else if ins.uniform_result {
                None
            } else if ins.intrinsic || (ins.loads && ins.reads.iter().any(|&r| at(r))) {
                Some(None)
            } else {
                // A read varying by data first: its own cause was recorded before this one,
                // so the causes form chains that end at a root, never a cycle.
                let data = ins.reads.iter().copied().find(|&r| varying[r]);
                data.or_else(|| ins.reads.iter().copied().find(|&r| at(r)))
                    .map(Some)
            };
            if let Some(via) = source {
                for &w in &ins.writes {
                    if !varying[w] {
                        varying[w] = true;
                        let sync = via.is_some_and(|r| !varying[r]);
                        cause[w] = Some((i, via, sync));
                        changed = true;
                    }
                }
            }
        }
        for b in 0..nb {
            let varies = control[b]
                .iter()
                .any(|&g| varying_at(g, b, &varying, &sync_of, &regions));
            if divergent[b] || !varies {
                continue;
            }
            divergent[b] = true;
            changed = true;
            let opcode = f.instructions[graph.blocks[b].last].opcode.as_str();
            if opcode == "bra" || opcode == "brx" {
                let inside = region(&succ, b, ipdom[b]);
                let mut written = vec![false; nr];
                for ins in code.iter().filter(|i| inside[i.block]) {
                    for &w in &ins.writes {
                        written[w] = true;
                    }
                }
                let k = regions.len();
                for (r, _) in written.iter().enumerate().filter(|(_, &w)| w) {
                    sync_of[r].push(k);
                }
                regions.push(inside);
                region_branch.push(b);
            }
        }
        if !changed {
            break;
        }
    }
    // Register `r` read in `block` varies because a divergent branch's region writes it.
    let sync_reason = |r: usize, block: usize| -> Option<String> {
        let k = sync_of[r].iter().copied().find(|&k| !regions[k][block])?;
        let line = f.instructions[graph.blocks[region_branch[k]].last]
            .span
            .line;
        Some(format!(
            "written under the divergent branch of line {line} and read after it reconverges"
        ))
    };
    let explain = |b: usize| -> Option<String> {
        if !divergent[b] {
            return None;
        }
        let g = control[b]
            .iter()
            .copied()
            .find(|&g| varying_at(g, b, &varying, &sync_of, &regions))?;
        let mut chain = vec![names[g].to_string()];
        let (mut r, mut block) = (g, b);
        let mut seen = vec![g];
        for _ in 0..32 {
            if !varying[r] {
                // Only the sync dependence: written under a divergent branch, read after it.
                chain.push(sync_reason(r, block)?);
                break;
            }
            let (i, via, sync) = cause[r]?;
            match via {
                // Read while it varied only by the sync dependence: say so.
                Some(next) if sync => {
                    chain.push(names[next].to_string());
                    r = next;
                    block = code[i].block;
                    seen.push(next);
                    chain.push(sync_reason(r, block)?);
                    break;
                }
                Some(next) if !seen.contains(&next) => {
                    seen.push(next);
                    chain.push(names[next].to_string());
                    r = next;
                    block = code[i].block;
                }
                _ => {
                    chain.push(root_cause(&f.instructions[i]));
                    break;
                }
            }
        }
        Some(chain.join(" ← "))
    };
    let reason = (0..nb).map(explain).collect();
    let guard = (0..nb)
        .map(|b| {
            control[b]
                .iter()
                .find(|&&g| divergent[b] && varying_at(g, b, &varying, &sync_of, &regions))
                .map(|&g| names[g].to_string())
        })
        .collect();
    let mut var: Vec<String> = names
        .iter()
        .enumerate()
        .filter(|(i, _)| varying[*i])
        .map(|(_, n)| n.to_string())
        .collect();
    var.sort();
    Divergence {
        divergent,
        guard,
        varying: var,
        reason,
    }
}

/// What makes the value `ins` writes vary by itself, in words.
fn root_cause(ins: &Instruction) -> String {
    let line = ins.span.line;
    let special = ins.operands.iter().find_map(|o| match &o.kind {
        OperandKind::Special { name, component } if !UNIFORM_SPECIALS.contains(&name.as_str()) => {
            Some(match component {
                Some(c) => format!("%{name}.{c}"),
                None => format!("%{name}"),
            })
        }
        _ => None,
    });
    match special {
        Some(s) => format!("{s} (line {line})"),
        None => format!("{} (line {line})", ins.mnemonic()),
    }
}
