//! Reduction of real kernels to the L/C instruction strings of the `makespan` mode (and of
//! the `block` mode's exact makespan on straight-line code).
//!
//! Why: Berezovskyi, Bletsas and Andersson (ECRTS 2012, §3) analyse "kernel instruction
//! strings": every warp executes the same sequence of instructions, each of which runs either
//! on the SM's load/store units (L) or on its CUDA cores (C). The model has no control flow
//! and no notion of a listing, so it cannot read a compiled kernel directly. This module is
//! the bridge: it reduces a kernel of any supported dialect to one such string, and says which
//! instruction became which letter (the `mapping` of the report) so that the reduction can be
//! checked against the listing.
//!
//! The rule is the same for every dialect:
//! * **the path** — the kernel's *straight-line path*: start at its first instruction and walk
//!   in program order; at an unconditional branch or jump continue at its target; at a
//!   conditional branch take the fall-through; stop at an exit, a return or the end of the
//!   program, or when an instruction would be visited a second time (a loop). This is a single
//!   path through the kernel, not a worst case over paths: the makespan model cannot express
//!   more than one.
//! * **the letters** — a memory access (load, store, atomic, texture fetch, in any state space
//!   or memory kind, as each parser's IR marks it) is `L`; every other instruction, branches
//!   included, is `C`. Labels, directives and annotations are not instructions and produce
//!   nothing.
//!
//! What each dialect's IR provides, and so what `MappedInstruction::address` holds:
//! * SASS — the listing's byte address (`/*0010*/`);
//! * PTX — GPGPU-Sim's program counter of the instruction ([`isa::ptx::Function::pc`]:
//!   8 bytes per instruction from 0), as the `rr` mode shows it;
//! * GCN3 — the instruction's index in its function (the parser records no byte offsets;
//!   for an instruction of a called function, its index in that function);
//! * Sim-D — the instruction's index in `.text`, which is its instruction-memory address.

use crate::context::Context;
use crate::kernel_text;
use crate::mode::ModeOutput;
use crate::report::MappedInstruction;
use crate::views;
use std::collections::HashSet;

use isa::gcn::{GcnControl, GcnFunction, GcnProgram, GcnUnit};
use isa::lc::LcOp;
use isa::simd::{Category, Op, Program};
use isa::{BlockGraph, Diagnostic, Dialect, Kernel, Limits, ResourceClass, Severity};

/// An L/C string and the instruction behind each of its letters.
pub type Reduction = (Vec<LcOp>, Vec<MappedInstruction>);

/// Where the straight-line path goes after an instruction.
enum Next {
    /// The next instruction in program order.
    Fall,
    /// The instruction at this index.
    Goto(usize),
    /// Nowhere: the path ends here.
    Stop,
}

/// The straight-line path over `n` instructions: indices from 0, each successor chosen by
/// `step`, ending at [`Next::Stop`], past the last instruction, or at the first revisit.
fn walk(n: usize, mut step: impl FnMut(usize) -> Next) -> Vec<usize> {
    let mut seen = vec![false; n];
    let mut path = Vec::new();
    let mut i = 0;
    while i < n && !seen[i] {
        seen[i] = true;
        path.push(i);
        i = match step(i) {
            Next::Fall => i + 1,
            Next::Goto(t) => t,
            Next::Stop => break,
        };
    }
    path
}

fn mapped(address: u64, line: u32, text: String, op: LcOp) -> MappedInstruction {
    MappedInstruction {
        address,
        line,
        text,
        unit: isa::lc::to_text(&[op]),
    }
}

fn letter(memory: bool) -> LcOp {
    if memory {
        LcOp::L
    } else {
        LcOp::C
    }
}

/// A SASS kernel's straight-line path on its thread-level block graph: from the entry, the
/// fall-through successor (else the first successor) of each block, never revisiting one.
/// Global, shared, local, constant and texture accesses are `L`.
pub fn sass(kernel: &Kernel, graph: &BlockGraph) -> Reduction {
    let edges = graph.edges();
    let mut seen = vec![false; graph.blocks.len()];
    let mut b = Some(0usize);
    let mut ops = Vec::new();
    let mut mapping = Vec::new();
    while let Some(cur) = b {
        if cur >= graph.blocks.len() || seen[cur] {
            break;
        }
        seen[cur] = true;
        let blk = &graph.blocks[cur];
        for ins in &kernel.instructions[blk.first..=blk.last] {
            let op = letter(matches!(
                ins.class,
                ResourceClass::LoadStoreGlobal
                    | ResourceClass::LoadStoreShared
                    | ResourceClass::LoadStoreLocal
                    | ResourceClass::Constant
                    | ResourceClass::Texture
            ));
            ops.push(op);
            mapping.push(mapped(ins.address, ins.span.line, ins.text.clone(), op));
        }
        let outs: Vec<_> = edges.iter().filter(|e| e.0 == cur).collect();
        b = outs
            .iter()
            .find(|e| e.2 == isa::EdgeKind::Fallthrough)
            .or(outs.first())
            .map(|e| e.1);
    }
    (ops, mapping)
}

/// A PTX function's straight-line path (`source` is the text it was parsed from, for the
/// instructions' text). An unguarded `bra` jumps to its label; any guarded instruction, a
/// predicated branch included, falls through; an unguarded `ret`, `exit` or `trap` ends the
/// path, and so does an unguarded `brx.idx` (its target is in a register). Every instruction
/// with a state space — `ld`, `st`, `ldu`, `atom`, `red`, `prefetch`, `tex`, `tld4`, `suld`,
/// `sust`, in any space including `.param` and generic addressing
/// ([`isa::ptx::Instruction::state_space`]) — is `L`.
pub fn ptx(f: &isa::ptx::Function, source: &str) -> Reduction {
    let path = walk(f.instructions.len(), |i| {
        let ins = &f.instructions[i];
        if ins.guard.is_some() {
            return Next::Fall;
        }
        match ins.opcode.as_str() {
            "bra" => match ins.operands.first().map(|o| &o.kind) {
                Some(isa::ptx::OperandKind::Symbol { name }) => {
                    f.labels.get(name).map_or(Next::Stop, |&t| Next::Goto(t))
                }
                _ => Next::Stop,
            },
            "ret" | "exit" | "trap" | "brx" => Next::Stop,
            _ => Next::Fall,
        }
    });
    let lines: Vec<&str> = source.lines().collect();
    path.into_iter()
        .map(|i| {
            let ins = &f.instructions[i];
            let op = letter(ins.state_space().is_some());
            let text = views::kernel::text_at(&lines, ins.span);
            let pc = isa::ptx::Function::pc(i);
            (op, mapped(pc, ins.span.line, text, op))
        })
        .unzip()
}

/// Deepest chain of calls the GCN3 path follows.
const GCN_MAX_CALL_DEPTH: usize = 32;
/// Longest GCN3 path through calls (a callee's code counts once per call).
const GCN_MAX_PATH: usize = 100_000;

/// A GCN3 function's straight-line path, following calls into the callees' code (a path
/// that stopped at a call would leave out the work the call does) through the function
/// linked with its callees ([`isa::gcn::link()`]). `s_branch` jumps to its label; the
/// conditional `s_cbranch_*` (scalar and execute-mask alike) fall through; `s_endpgm` ends
/// the path. A call (`s_swappc_b64` or `s_call_b64` to a function of the listing) continues
/// in the callee and a return (`s_setpc_b64 s[30:31]`) after the call — the end of the path
/// in the function itself; a tail call continues in the callee. The path stops at the first
/// revisit of an instruction with the same calls in progress (a loop). Errors, at the
/// instruction: a call to a symbol the listing does not define (an external builtin or
/// `vprintf`: its code is unknown), an `s_setpc_b64`/`s_swappc_b64` whose target is not
/// known, `s_trap`, the fork/join instructions, recursion deeper than 32 calls, a path of
/// more than 100 000 instructions. Scalar memory (`s_load_*`, `s_buffer_load_*`,
/// `s_store_*`, and what the parser groups with them), vector memory (`flat_*`,
/// `global_*`, `buffer_*`, `tbuffer_*`, `image_*`, `scratch_*`) and LDS (`ds_*`)
/// instructions are `L`, per [`GcnUnit`].
pub fn gcn(program: &GcnProgram, f: &GcnFunction) -> Result<Reduction, Diagnostic> {
    let linked = isa::gcn::link(program, f);
    let ins = &linked.function.instructions;
    let mut path = Vec::new();
    let mut calls: Vec<usize> = Vec::new();
    let mut seen: HashSet<(usize, Vec<usize>)> = HashSet::new();
    let mut i = 0;
    while i < ins.len() && seen.insert((i, calls.clone())) {
        if path.len() >= GCN_MAX_PATH {
            return Err(Diagnostic::error(
                ins[i].span,
                format!("the straight-line path through calls is longer than {GCN_MAX_PATH} instructions"),
            ));
        }
        path.push(i);
        let x = &ins[i];
        let unknown_callee = |callee: &str| {
            let why = program
                .callee(callee)
                .err()
                .unwrap_or_else(|| format!("call to `{callee}`: its code is not available"));
            Diagnostic::error(x.span, why)
        };
        i = match &x.control {
            GcnControl::Jump { target_index, .. } => match target_index {
                Some(t) => *t,
                None => break,
            },
            GcnControl::EndProgram => break,
            GcnControl::Call {
                target_index: Some(t),
                ..
            } => {
                if calls.len() >= GCN_MAX_CALL_DEPTH {
                    return Err(Diagnostic::error(
                        x.span,
                        format!("calls nested deeper than {GCN_MAX_CALL_DEPTH} (recursion?): the path cannot be followed"),
                    ));
                }
                calls.push(i + 1);
                *t
            }
            GcnControl::TailCall {
                target_index: Some(t),
                ..
            } => *t,
            GcnControl::Call { callee, .. } | GcnControl::TailCall { callee, .. } => {
                return Err(unknown_callee(callee))
            }
            GcnControl::Return => match calls.pop() {
                Some(back) => back,
                None => break,
            },
            GcnControl::Indirect => {
                return Err(Diagnostic::error(
                    x.span,
                    x.control_problem().unwrap_or_default(),
                ))
            }
            _ => i + 1,
        };
    }
    Ok(path
        .into_iter()
        .map(|i| {
            let ins = &ins[i];
            let op = letter(matches!(
                ins.unit,
                GcnUnit::ScalarMemory | GcnUnit::VectorMemory | GcnUnit::Lds
            ));
            let text = ins.text.trim().to_string();
            let index = linked.locate(i).map_or(i, |(_, local)| local);
            (op, mapped(index as u64, ins.span.line, text, op))
        })
        .unzip())
}

/// A Sim-D program's straight-line path (`.text` from its first instruction). `j` jumps to
/// its label and `sicj` (conditional) falls through. The control stack (CSTACK, Sim-D §3.1)
/// is followed along the path as the `phases` crate's control-flow analysis does (§5.2):
/// `cpush` and `bra` push their label and fall through, `call` pushes its return point and
/// jumps, and `cpop` continues at the label it pops (the path ends at a `cpop` with nothing
/// to pop). `exit` without operands ends the path; the predicated `exit pN`, `brk pN`,
/// `ret pN` and `cmask pN` only disable work-items, so the path falls through. Every
/// instruction of [`Category::LoadStore`] — DRAM (`ldg*`, `stg*`, `sldg`, `ldg2sptile`,
/// `stg2sptile`) and scratchpad (`ldsp*`, `stsp*`, `sldsp`) transfers — is `L`.
pub fn simd(program: &Program) -> Reduction {
    let mut stack: Vec<usize> = Vec::new();
    let path = walk(program.instructions.len(), |i| {
        let ins = &program.instructions[i];
        let target = ins.target_label().and_then(|l| program.label_index(l));
        match ins.op {
            Some(Op::J) => target.map_or(Next::Stop, Next::Goto),
            Some(Op::Bra | Op::CPush) => {
                stack.extend(target);
                Next::Fall
            }
            Some(Op::Call) => {
                stack.push(i + 1);
                target.map_or(Next::Stop, Next::Goto)
            }
            Some(Op::CPop) => stack.pop().map_or(Next::Stop, Next::Goto),
            Some(Op::Exit) if ins.srcs.iter().all(Option::is_none) && ins.dst.is_none() => {
                Next::Stop
            }
            _ => Next::Fall,
        }
    });
    path.into_iter()
        .map(|i| {
            let ins = &program.instructions[i];
            let op = letter(ins.category() == Some(Category::LoadStore));
            let text = ins.text.trim().to_string();
            (op, mapped(ins.index as u64, ins.span.line, text, op))
        })
        .unzip()
}

/// Parses a PTX, GCN3 or Sim-D `source` and reduces the selected kernel (`function`, else
/// the first `.entry` of a PTX module, the first function of a GCN3 listing; a Sim-D file
/// holds one program). Every parser diagnostic goes to `out`, with the instruction table of
/// the kernel as the other modes show it; `None` after an error — a parse error, no such
/// function, or no instruction on the path (an empty kernel).
pub fn from_text(
    context: &Context,
    dialect: Dialect,
    limits: &Limits,
    out: &mut ModeOutput,
) -> Option<Reduction> {
    let source = context.source();
    let diags = &mut out.diagnostics;
    let (reduction, what) = match dialect {
        Dialect::Ptx => {
            let ptx = context.ptx(diags)?;
            out.kernel = Some(ptx.view(source));
            if ptx.failed {
                return None;
            }
            let f = ptx.function();
            (self::ptx(f, source), format!("`{}`", f.name))
        }
        Dialect::Gcn => {
            let gcn = context.gcn(diags)?;
            out.kernel = Some(gcn.view());
            if gcn.failed {
                return None;
            }
            let f = gcn.function();
            match self::gcn(&gcn.program, f) {
                Ok(r) => (r, format!("`{}`", f.name)),
                Err(d) => {
                    out.diagnostics.push(d);
                    return None;
                }
            }
        }
        Dialect::Simd => {
            let (program, failed) = kernel_text::simd(source, limits, diags)?;
            out.kernel = Some(views::kernel::simd(&program));
            if failed {
                return None;
            }
            (simd(&program), "the Sim-D program".to_string())
        }
        other => {
            diags.push(Diagnostic::global(
                Severity::Error,
                format!("no L/C reduction for dialect `{}`", other.name()),
            ));
            return None;
        }
    };
    if reduction.0.is_empty() {
        out.diagnostics.push(Diagnostic::global(
            Severity::Error,
            format!(
                "no instructions on the straight-line path of {what}: there is no L/C string to analyse"
            ),
        ));
        return None;
    }
    Some(reduction)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCAL: &str = include_str!("../../isa/tests/data/gcn_call_local.s");
    const EXTERNAL: &str = include_str!("../../isa/tests/data/gcn_call_external.s");

    #[test]
    fn gcn_path_follows_both_calls_into_the_callee() {
        let p = isa::gcn::parse(LOCAL, &Limits::default());
        let f = p.function(Some("_Z5stepsPj")).expect("kernel");
        let (ops, mapping) = gcn(&p, f).unwrap_or_else(|d| panic!("{d}"));
        // 6 kernel instructions, the callee's 14 (its execz branches fall through), 6 more,
        // the callee again, the last 6: the two `s_load_dwordx2` and the store are `L`.
        assert_eq!(ops.len(), 6 + 14 + 6 + 14 + 6);
        assert_eq!(isa::lc::to_text(&ops).matches('L').count(), 3);
        // Callee instructions carry their index in the callee and their own line.
        assert_eq!((mapping[6].address, mapping[6].line), (0, 12));
        assert_eq!(mapping[19].text, "s_setpc_b64 s[30:31]");
        assert_eq!(mapping[20].address, 6);
    }

    #[test]
    fn gcn_path_stops_with_an_error_at_an_external_call() {
        let p = isa::gcn::parse(EXTERNAL, &Limits::default());
        let d = gcn(&p, &p.functions[0]).expect_err("unknown callee");
        assert_eq!(d.line, 20);
        assert!(d.message.contains("`__ocml_sin_f32`"), "{}", d.message);
    }
}
