//! GCN3 lowered to the [`Program`] of the inference: the wavefront's control-flow graph from
//! `isa::flow` (loops keyed by their header's label, as the `pws` mode's `loop_bounds`), each
//! scalar instruction's writes as ops.
//!
//! Only *scalar* loops get bounds: a counter in SGPRs, compared by `s_cmp*` and tested by
//! `s_cbranch_scc0/1` — the loops whose trip count is the same for the whole wavefront
//! (the compiler's divergence analysis keeps uniform counters scalar; AMD GCN3 ISA §4.4,
//! "Branching"). A loop that ends when the execute mask empties (`s_cbranch_execnz`, per-lane
//! counters in VGPRs) gets none: its edge conditions are unknown here, and vector ALU writes
//! are not modelled.
//!
//! Modelled: `s_mov_b32/b64`, `s_movk_i32`, `s_add/sub_{i32,u32}`, `s_addk_i32`,
//! `s_mul_i32`, `s_mulk_i32`, `s_lshl/lshr/ashr`, `s_and/or/xor/andn2/not_b32`, `s_min/max`,
//! `s_cselect_b32`, `s_cmp(k)_*`, `s_load_dword*` (a launch input when its base is the
//! kernarg or dispatch pointer, [`crate::ir::Term::Load`]), and the initial SGPRs the kernel
//! descriptor asks for. `scc` is written by every scalar ALU instruction (the ISA's rules:
//! compares set it, shifts and logic set it to "result ≠ 0", adds to a carry, which is
//! unknown here). A call leaves every register unknown.

use crate::flow::{lower_graph, LowerInstructions};
use crate::ir::{CmpOp, FuncOp, Input, Op, Program, Term, Var};
use isa::flow::FlowGraph;
use isa::gcn::{GcnControl, GcnFunction, GcnInstruction, GcnOperand, GcnOperandKind, GcnReg};
use isa::EdgeKind;
use std::collections::HashMap;

/// What an SGPR holds when the wavefront starts (AMDGPU-Usage, "Initial Kernel Execution
/// State"; the facade reads the layout from the kernel descriptor, `sim::gcn::GcnAbi`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Init {
    KernargLo,
    KernargHi,
    DispatchLo,
    DispatchHi,
    WorkgroupId(u8),
}

/// Lowers `f` with its flow graph (from `isa::flow::build(&isa::gcn::flows(f))`); `sgprs`
/// says what the first SGPRs hold (index, content); `v0` is the work-item id x.
pub fn lower(f: &GcnFunction, graph: &FlowGraph, sgprs: &[(u32, Init)]) -> Program {
    let mut l = Lowering {
        p: Program::default(),
        vars: HashMap::new(),
    };
    // Every register the function names gets its variable first (a call clobbers them all).
    for ins in &f.instructions {
        for r in ins.reads.iter().chain(&ins.writes) {
            l.var(r);
        }
    }
    let ptr = |input: Input| Term::Input { input, width: 64 };
    for &(i, what) in sgprs {
        let v = l.var(&GcnReg::Sgpr(i));
        let t = match what {
            Init::KernargLo => Term::Trunc {
                width: 32,
                term: Box::new(ptr(Input::KernargPointer)),
            },
            Init::KernargHi => Term::func(FuncOp::Hi, 32, vec![ptr(Input::KernargPointer)]),
            Init::DispatchLo => Term::Trunc {
                width: 32,
                term: Box::new(ptr(Input::DispatchPointer)),
            },
            Init::DispatchHi => Term::func(FuncOp::Hi, 32, vec![ptr(Input::DispatchPointer)]),
            Init::WorkgroupId(a) => Term::Input {
                input: Input::Ctaid(a),
                width: 32,
            },
        };
        l.p.initial.push((v, t));
    }
    let v0 = l.var(&GcnReg::Vgpr(0));
    l.p.initial.push((
        v0,
        Term::Input {
            input: Input::Tid(0),
            width: 32,
        },
    ));
    // The first label of each instruction (a search per block was quadratic: 16 000 blocks
    // of a 92 000-line kernel).
    let mut label_at: HashMap<usize, &String> = HashMap::new();
    for (n, &i) in &f.labels {
        label_at.entry(i).or_insert(n);
    }
    lower_graph(&mut l, graph, &f.instructions, |first| {
        label_at
            .get(&first)
            .map(|n| (*n).clone())
            .or_else(|| f.block_comments.get(&first).cloned())
            .unwrap_or_else(|| format!("instruction {first}"))
    });
    l.p
}

struct Lowering {
    p: Program,
    vars: HashMap<GcnReg, Var>,
}

impl LowerInstructions for Lowering {
    type Instruction = GcnInstruction;

    fn program(&mut self) -> &mut Program {
        &mut self.p
    }

    fn instruction(&mut self, ins: &GcnInstruction, ops: &mut Vec<Op>) {
        if matches!(ins.control, GcnControl::Call { .. }) {
            let all: Vec<Var> = self.vars.values().copied().collect();
            let mut all = all;
            all.sort_unstable();
            for v in all {
                let width = self.p.width(v);
                ops.push(Op {
                    dst: v,
                    value: Term::Unknown { width },
                    guard: None,
                });
            }
            return;
        }
        let modelled = self.semantics(ins).unwrap_or_default();
        let pairs = self.p.read_before_write(modelled, ops);
        let written: Vec<Var> = pairs.iter().map(|p| p.0).collect();
        for (v, t) in pairs {
            ops.push(Op {
                dst: v,
                value: t,
                guard: None,
            });
        }
        for r in &ins.writes {
            let v = self.var(r);
            if !written.contains(&v) {
                let width = self.p.width(v);
                ops.push(Op {
                    dst: v,
                    value: Term::Unknown { width },
                    guard: None,
                });
            }
        }
    }

    fn edge_condition(&mut self, last: &GcnInstruction, kind: EdgeKind) -> Term {
        let scc = Term::Var(self.var(&GcnReg::Scc));
        let taken = match last.opcode.as_str() {
            "s_cbranch_scc1" => scc,
            "s_cbranch_scc0" => Term::not(scc),
            _ => return Term::Bool(true),
        };
        match kind {
            EdgeKind::Fallthrough => Term::not(taken),
            _ => taken,
        }
    }

    /// A branch on the execute mask or VCC: its edges get `true`.
    fn conditions_unknown(&self, last: &GcnInstruction) -> bool {
        last.opcode.starts_with("s_cbranch_")
            && !matches!(last.opcode.as_str(), "s_cbranch_scc0" | "s_cbranch_scc1")
    }

    fn line(ins: &GcnInstruction) -> u32 {
        ins.span.line
    }
}

impl Lowering {
    fn var(&mut self, r: &GcnReg) -> Var {
        if let Some(&v) = self.vars.get(r) {
            return v;
        }
        let (name, width) = match r {
            GcnReg::Sgpr(n) => (format!("s{n}"), 32),
            GcnReg::Vgpr(n) => (format!("v{n}"), 32),
            GcnReg::Scc => ("scc".to_string(), 1),
            GcnReg::Vcc => ("vcc".to_string(), 64),
            GcnReg::Exec => ("exec".to_string(), 64),
            other => (format!("{other:?}").to_lowercase(), 32),
        };
        let v = self.p.add_var(name, width);
        self.vars.insert(r.clone(), v);
        v
    }

    /// A 32-bit scalar source (an SGPR, an integer constant).
    fn int(&mut self, o: &GcnOperand) -> Term {
        if o.negated || o.absolute {
            return Term::Unknown { width: 32 };
        }
        match &o.kind {
            GcnOperandKind::Sgpr { first, count: 1 } => Term::Var(self.var(&GcnReg::Sgpr(*first))),
            GcnOperandKind::Int { value } => Term::int(32, i128::from(*value)),
            _ => Term::Unknown { width: 32 },
        }
    }

    /// A 64-bit SGPR pair `s[k:k+1]` as one value.
    fn pair(&mut self, o: &GcnOperand) -> Term {
        match &o.kind {
            GcnOperandKind::Sgpr { first, count: 2 } => {
                let lo = Term::Var(self.var(&GcnReg::Sgpr(*first)));
                let hi = Term::Var(self.var(&GcnReg::Sgpr(first + 1)));
                Term::func(FuncOp::Concat, 64, vec![hi, lo])
            }
            _ => Term::Unknown { width: 64 },
        }
    }

    fn semantics(&mut self, ins: &GcnInstruction) -> Option<Vec<(Var, Term)>> {
        let o = &ins.operands;
        let name = ins.opcode.as_str();
        let scc = self.var(&GcnReg::Scc);
        let dst = |l: &mut Self| -> Option<Var> {
            match o.first()?.kind {
                GcnOperandKind::Sgpr { first, count: 1 } => Some(l.var(&GcnReg::Sgpr(first))),
                _ => None,
            }
        };
        let nonzero = |t: &Term| Term::cmp(CmpOp::Ne, false, t.clone(), Term::int(32, 0));
        let imm16 = |o: &GcnOperand, signed: bool| -> Option<Term> {
            let GcnOperandKind::Int { value } = o.kind else {
                return None;
            };
            let v = i128::from(value) & 0xffff;
            let v = if signed && v >= 0x8000 {
                v - 0x10000
            } else {
                v
            };
            Some(Term::int(32, v))
        };
        if let Some(rest) = name.strip_prefix("s_load_dword") {
            let n = match rest {
                "" => 1,
                "x2" => 2,
                "x4" => 4,
                "x8" => 8,
                "x16" => 16,
                _ => return None,
            };
            let GcnOperandKind::Sgpr { first, count } = o.first()?.kind else {
                return None;
            };
            let GcnOperandKind::Int { value: off } = o.get(2)?.kind else {
                return None;
            };
            if count != n {
                return None;
            }
            let base = self.pair(o.get(1)?);
            let mut out = Vec::new();
            for i in 0..n {
                let v = self.var(&GcnReg::Sgpr(first + i));
                out.push((
                    v,
                    Term::Load {
                        base: Box::new(base.clone()),
                        offset: off + 4 * i64::from(i),
                        width: 32,
                    },
                ));
            }
            return Some(out);
        }
        if let Some(rest) = name.strip_prefix("s_cmpk_") {
            let (op, ty) = rest.split_once('_')?;
            let signed = ty == "i32";
            let cmp = cmp_op(op)?;
            let a = self.int(o.first()?);
            let b = imm16(o.get(1)?, signed)?;
            return Some(vec![(scc, Term::cmp(cmp, signed, a, b))]);
        }
        if let Some(rest) = name.strip_prefix("s_cmp_") {
            let (op, ty) = rest.split_once('_')?;
            if !matches!(ty, "i32" | "u32") {
                return None;
            }
            let cmp = cmp_op(op)?;
            let (a, b) = (self.int(o.first()?), self.int(o.get(1)?));
            return Some(vec![(scc, Term::cmp(cmp, ty == "i32", a, b))]);
        }
        let d = dst(self)?;
        let src = |l: &mut Self, i: usize| o.get(i).map(|x| l.int(x));
        let unknown_scc = (scc, Term::Unknown { width: 1 });
        Some(match name {
            "s_mov_b32" => vec![(d, src(self, 1)?)],
            "s_movk_i32" => vec![(d, imm16(o.get(1)?, true)?)],
            "s_add_u32" | "s_add_i32" | "s_sub_u32" | "s_sub_i32" => {
                let (a, b) = (src(self, 1)?, src(self, 2)?);
                let t = if name.starts_with("s_add") {
                    Term::add(a, b)
                } else {
                    Term::sub(a, b)
                };
                vec![(d, t), unknown_scc]
            }
            "s_addk_i32" | "s_mulk_i32" => {
                let k = imm16(o.get(1)?, true)?;
                let t = if name == "s_addk_i32" {
                    Term::add(Term::Var(d), k)
                } else {
                    Term::mul(Term::Var(d), k)
                };
                if name == "s_addk_i32" {
                    vec![(d, t), unknown_scc]
                } else {
                    vec![(d, t)]
                }
            }
            "s_mul_i32" => vec![(d, Term::mul(src(self, 1)?, src(self, 2)?))],
            "s_lshl_b32" | "s_lshr_b32" | "s_ashr_i32" => {
                let GcnOperandKind::Int { value: k } = o.get(2)?.kind else {
                    return None;
                };
                let k = i128::from(k) & 31;
                let a = src(self, 1)?;
                let t = match name {
                    "s_lshl_b32" => Term::mul(a, Term::int(32, 1i128 << k)),
                    "s_lshr_b32" => Term::func(FuncOp::ShrU, 32, vec![a, Term::int(32, k)]),
                    _ => Term::func(FuncOp::ShrS, 32, vec![a, Term::int(32, k)]),
                };
                vec![(d, t.clone()), (scc, nonzero(&t))]
            }
            "s_and_b32" | "s_or_b32" | "s_xor_b32" | "s_andn2_b32" => {
                let (a, b) = (src(self, 1)?, src(self, 2)?);
                let t = match name {
                    "s_and_b32" => Term::func(FuncOp::And, 32, vec![a, b]),
                    "s_or_b32" => Term::func(FuncOp::Or, 32, vec![a, b]),
                    "s_xor_b32" => Term::func(FuncOp::Xor, 32, vec![a, b]),
                    _ => Term::func(
                        FuncOp::And,
                        32,
                        vec![a, Term::func(FuncOp::Not, 32, vec![b])],
                    ),
                };
                vec![(d, t.clone()), (scc, nonzero(&t))]
            }
            "s_not_b32" => {
                let t = Term::func(FuncOp::Not, 32, vec![src(self, 1)?]);
                vec![(d, t.clone()), (scc, nonzero(&t))]
            }
            "s_min_i32" | "s_min_u32" | "s_max_i32" | "s_max_u32" => {
                let op = match name {
                    "s_min_i32" => FuncOp::MinS,
                    "s_min_u32" => FuncOp::MinU,
                    "s_max_i32" => FuncOp::MaxS,
                    _ => FuncOp::MaxU,
                };
                let t = Term::func(op, 32, vec![src(self, 1)?, src(self, 2)?]);
                vec![(d, t), unknown_scc]
            }
            "s_cselect_b32" => {
                let (a, b) = (src(self, 1)?, src(self, 2)?);
                vec![(
                    d,
                    Term::func(FuncOp::Select, 32, vec![Term::Var(scc), a, b]),
                )]
            }
            _ => return None,
        })
    }
}

/// The comparison of an `s_cmp` mnemonic's middle part (`lg` is ≠).
fn cmp_op(s: &str) -> Option<CmpOp> {
    Some(match s {
        "eq" => CmpOp::Eq,
        "lg" => CmpOp::Ne,
        "gt" => CmpOp::Gt,
        "ge" => CmpOp::Ge,
        "lt" => CmpOp::Lt,
        "le" => CmpOp::Le,
        _ => return None,
    })
}
