//! PTX lowered to the [`Program`] of the inference: the function's thread CFG from
//! `isa::flow` (the graph the `warp-cfg` mode and the `rr` analyzer key loops on: header
//! label, or the GPGPU-Sim program counter `Function::pc`), each instruction's writes as ops.
//!
//! PTX is typed and its registers are virtual (`.reg .u32 %r<9>`): a register's width is
//! its declaration's; an instruction's operands have its type's width (PTX ISA §5.2:
//! operand types must match the instruction type), so the lowering never mixes widths
//! except through `cvt` and the `.wide` forms, which it models as extensions.
//!
//! Modelled: `mov`, `add`, `sub`, `mul.lo`, `mul.wide`, `mad.lo`, `mad.wide`, `neg`,
//! `shl`/`shr` by constants, `and`/`or`/`xor`/`not`, `min`/`max`, `abs`, `selp`, `cvt`
//! between integer types, `setp` on integers (with its `.and`/`.or`/`.xor` combine and second
//! destination), predicate logic, `ld.param` of a kernel's parameters, the special registers
//! `%tid`, `%ntid`, `%ctaid`, `%nctaid`. Everything else writes unknown values (integer
//! `.sat`/`.cc` forms, floats, loads, calls' return values). Registers are function-local,
//! so a call writes only its return registers.

use crate::flow::{lower_graph, LowerInstructions};
use crate::ir::{CmpOp, FuncOp, Input, Op, Program, Term, Var};
use isa::flow::FlowGraph;
use isa::ptx::{Function, FunctionKind, Instruction, Operand, OperandKind, ScalarType};
use isa::EdgeKind;
use std::collections::HashMap;

/// Lowers `f` with its flow graph `graph` (from `isa::flow::build(&isa::ptx::flows(f))`).
pub fn lower(f: &Function, graph: &FlowGraph) -> Program {
    let mut l = Lowering {
        p: Program::default(),
        vars: HashMap::new(),
        widths: declared_widths(f),
        kernel: f.kind == FunctionKind::Entry,
    };
    lower_graph(&mut l, graph, &f.instructions, |first| {
        f.labels
            .iter()
            .find(|(_, &i)| i == first)
            .map(|(n, _)| n.clone())
            .unwrap_or_else(|| format!("pc {:#x}", Function::pc(first)))
    });
    l.p
}

struct Lowering {
    p: Program,
    vars: HashMap<String, Var>,
    widths: HashMap<String, u32>,
    kernel: bool,
}

/// Widths of the registers `f` declares (`%r<9>` declares `%r0` … `%r8`).
fn declared_widths(f: &Function) -> HashMap<String, u32> {
    let mut out = HashMap::new();
    for d in &f.regs {
        let ty = d.ty.trim_start_matches('.');
        let w = match ScalarType::from_modifier(ty) {
            Some(t) => t.bits(),
            None => continue,
        };
        match d.count {
            Some(n) => {
                for i in 0..n.min(100_000) {
                    out.insert(format!("{}{i}", d.name), w);
                }
            }
            None => {
                out.insert(d.name.clone(), w);
            }
        }
    }
    out
}

/// The integer type of `ins`: its last type modifier, if an integer or bit type.
fn int_type(ins: &Instruction) -> Option<ScalarType> {
    let t = *ins.types().last()?;
    (!t.is_float() && t != ScalarType::Pred).then_some(t)
}

impl LowerInstructions for Lowering {
    type Instruction = Instruction;

    fn program(&mut self) -> &mut Program {
        &mut self.p
    }

    fn instruction(&mut self, ins: &Instruction, ops: &mut Vec<Op>) {
        let guard = self.guard(ins);
        let modelled = self.semantics(ins).unwrap_or_default();
        let mut dsts: Vec<String> = ins.destinations().iter().map(|d| d.to_string()).collect();
        if let Some(call) = &ins.call {
            for r in &call.returns {
                dsts.extend(r.registers().iter().map(|s| s.to_string()));
            }
        }
        let mut pairs: Vec<(Var, Term)> = Vec::new();
        for (name, t) in modelled {
            let v = self.var(&name);
            pairs.push((v, t));
        }
        let pairs = self.p.read_before_write(pairs, ops);
        let written: Vec<Var> = pairs.iter().map(|p| p.0).collect();
        for (v, t) in pairs {
            let ok = self.p.width_of(&t).ok() == Some(self.p.width(v));
            ops.push(Op {
                dst: v,
                value: if ok {
                    t
                } else {
                    Term::Unknown {
                        width: self.p.width(v),
                    }
                },
                guard: guard.clone(),
            });
        }
        for name in dsts {
            let v = self.var(&name);
            if !written.contains(&v) {
                ops.push(Op {
                    dst: v,
                    value: Term::Unknown {
                        width: self.p.width(v),
                    },
                    guard: guard.clone(),
                });
            }
        }
    }

    fn edge_condition(&mut self, last: &Instruction, kind: EdgeKind) -> Term {
        let jumps = matches!(last.opcode.as_str(), "bra" | "ret" | "exit" | "trap");
        let taken = match self.guard(last) {
            Some(g) if jumps => g,
            _ => Term::Bool(true),
        };
        match kind {
            EdgeKind::Fallthrough if jumps && last.guard.is_some() => Term::not(taken),
            EdgeKind::Fallthrough => Term::Bool(true),
            _ if last.opcode == "brx" => Term::Bool(true),
            _ => taken,
        }
    }

    /// An indirect branch's edges all get `true`.
    fn conditions_unknown(&self, last: &Instruction) -> bool {
        last.opcode == "brx"
    }

    fn line(ins: &Instruction) -> u32 {
        ins.span.line
    }
}

impl Lowering {
    fn var(&mut self, name: &str) -> Var {
        if let Some(&v) = self.vars.get(name) {
            return v;
        }
        let w = self.widths.get(name).copied().unwrap_or(32);
        let v = self.p.add_var(name, w);
        self.vars.insert(name.to_string(), v);
        v
    }

    /// Operand `o` as a `width`-bit integer.
    fn int(&mut self, o: &Operand, width: u32) -> Term {
        let unknown = Term::Unknown { width };
        match &o.kind {
            OperandKind::Register { name } => {
                let v = self.var(name);
                if self.p.width(v) == width {
                    Term::Var(v)
                } else {
                    unknown
                }
            }
            OperandKind::Int { value } => Term::int(width, i128::from(*value)),
            OperandKind::Special { name, component } => {
                let axis = match component.as_deref() {
                    Some("x") => 0,
                    Some("y") => 1,
                    Some("z") => 2,
                    _ => return unknown,
                };
                let input = match name.as_str() {
                    "tid" => Input::Tid(axis),
                    "ntid" => Input::Ntid(axis),
                    "ctaid" => Input::Ctaid(axis),
                    "nctaid" => Input::Nctaid(axis),
                    _ => return unknown,
                };
                let t = Term::Input { input, width: 32 };
                match width {
                    32 => t,
                    w if w > 32 => Term::func(FuncOp::Zext, w, vec![t]),
                    w => Term::Trunc {
                        width: w,
                        term: Box::new(t),
                    },
                }
            }
            _ => unknown,
        }
    }

    /// Operand `o` as a truth value.
    fn pred(&mut self, o: &Operand) -> Term {
        match &o.kind {
            OperandKind::Register { name } => {
                let v = self.var(name);
                if self.p.width(v) == 1 {
                    Term::Var(v)
                } else {
                    Term::Unknown { width: 1 }
                }
            }
            OperandKind::Not { inner } => Term::not(self.pred(inner)),
            OperandKind::Int { value } => Term::Bool(*value != 0),
            _ => Term::Unknown { width: 1 },
        }
    }

    fn guard(&mut self, ins: &Instruction) -> Option<Term> {
        let g = ins.guard.as_ref()?;
        let v = self.var(&g.reg);
        let t = if self.p.width(v) == 1 {
            Term::Var(v)
        } else {
            Term::Unknown { width: 1 }
        };
        Some(if g.negated { Term::not(t) } else { t })
    }

    /// The modelled writes of `ins` (destination register name, value).
    fn semantics(&mut self, ins: &Instruction) -> Option<Vec<(String, Term)>> {
        let o = &ins.operands;
        let has = |m: &str| ins.has_modifier(m);
        let dst = || o.first()?.register().map(str::to_string);
        let one = |d: Option<String>, t: Term| Some(vec![(d?, t)]);
        match ins.opcode.as_str() {
            "mov" => {
                if ins.types().first() == Some(&ScalarType::Pred) {
                    let t = self.pred(o.get(1)?);
                    return one(dst(), t);
                }
                let w = int_type(ins)?.bits();
                let t = self.int(o.get(1)?, w);
                one(dst(), t)
            }
            "add" | "sub" => {
                if has("sat") || has("cc") {
                    return None;
                }
                let w = int_type(ins)?.bits();
                let (a, b) = (self.int(o.get(1)?, w), self.int(o.get(2)?, w));
                let t = if ins.opcode == "add" {
                    Term::add(a, b)
                } else {
                    Term::sub(a, b)
                };
                one(dst(), t)
            }
            "mul" | "mad" => {
                let t = int_type(ins)?;
                let w = t.bits();
                let mad = ins.opcode == "mad";
                if has("hi") || has("sat") || has("cc") {
                    return None;
                }
                let (a, b) = if has("wide") {
                    let ext = if t.is_signed() {
                        FuncOp::Sext
                    } else {
                        FuncOp::Zext
                    };
                    let (a, b) = (self.int(o.get(1)?, w), self.int(o.get(2)?, w));
                    (
                        Term::func(ext, 2 * w, vec![a]),
                        Term::func(ext, 2 * w, vec![b]),
                    )
                } else if has("lo") || t.bits() >= 16 {
                    (self.int(o.get(1)?, w), self.int(o.get(2)?, w))
                } else {
                    return None;
                };
                let rw = if has("wide") { 2 * w } else { w };
                let mut v = Term::mul(a, b);
                if mad {
                    v = Term::add(v, self.int(o.get(3)?, rw));
                }
                one(dst(), v)
            }
            "neg" => {
                let w = int_type(ins)?.bits();
                let a = self.int(o.get(1)?, w);
                one(dst(), Term::neg(a))
            }
            "shl" | "shr" => {
                let t = int_type(ins)?;
                let w = t.bits();
                let OperandKind::Int { value: k } = o.get(2)?.kind else {
                    return None;
                };
                let k = i128::from(k);
                if !(0..i128::from(w)).contains(&k) {
                    return None;
                }
                let a = self.int(o.get(1)?, w);
                let v = if ins.opcode == "shl" {
                    Term::mul(a, Term::int(w, 1i128 << k))
                } else {
                    let op = if t.is_signed() {
                        FuncOp::ShrS
                    } else {
                        FuncOp::ShrU
                    };
                    Term::func(op, w, vec![a, Term::int(w, k)])
                };
                one(dst(), v)
            }
            "and" | "or" | "xor" | "not" => {
                if ins.types().first() == Some(&ScalarType::Pred) {
                    let a = self.pred(o.get(1)?);
                    let t = match ins.opcode.as_str() {
                        "not" => Term::not(a),
                        "and" => Term::and(a, self.pred(o.get(2)?)),
                        "or" => Term::or(a, self.pred(o.get(2)?)),
                        _ => Term::xor(a, self.pred(o.get(2)?)),
                    };
                    return one(dst(), t);
                }
                let w = int_type(ins)?.bits();
                let a = self.int(o.get(1)?, w);
                let (op, args) = match ins.opcode.as_str() {
                    "not" => (FuncOp::Not, vec![a]),
                    "and" => (FuncOp::And, vec![a, self.int(o.get(2)?, w)]),
                    "or" => (FuncOp::Or, vec![a, self.int(o.get(2)?, w)]),
                    _ => (FuncOp::Xor, vec![a, self.int(o.get(2)?, w)]),
                };
                one(dst(), Term::func(op, w, args))
            }
            "min" | "max" | "abs" => {
                let t = int_type(ins)?;
                let w = t.bits();
                let a = self.int(o.get(1)?, w);
                let v = match (ins.opcode.as_str(), t.is_signed()) {
                    ("abs", _) => Term::func(FuncOp::AbsS, w, vec![a]),
                    ("min", s) => Term::func(
                        if s { FuncOp::MinS } else { FuncOp::MinU },
                        w,
                        vec![a, self.int(o.get(2)?, w)],
                    ),
                    (_, s) => Term::func(
                        if s { FuncOp::MaxS } else { FuncOp::MaxU },
                        w,
                        vec![a, self.int(o.get(2)?, w)],
                    ),
                };
                one(dst(), v)
            }
            "selp" => {
                let w = int_type(ins)?.bits();
                let (a, b) = (self.int(o.get(1)?, w), self.int(o.get(2)?, w));
                let c = self.pred(o.get(3)?);
                one(dst(), Term::func(FuncOp::Select, w, vec![c, a, b]))
            }
            "cvt" => {
                if has("sat") || ins.modifiers.iter().any(|m| m.starts_with('r')) {
                    return None;
                }
                let ts = ins.types();
                let (d, s) = (*ts.first()?, *ts.get(1)?);
                if d.is_float() || s.is_float() || d == ScalarType::Pred {
                    return None;
                }
                let a = self.int(o.get(1)?, s.bits());
                let v = match d.bits().cmp(&s.bits()) {
                    std::cmp::Ordering::Equal => a,
                    std::cmp::Ordering::Less => Term::Trunc {
                        width: d.bits(),
                        term: Box::new(a),
                    },
                    std::cmp::Ordering::Greater => {
                        let op = if s.is_signed() {
                            FuncOp::Sext
                        } else {
                            FuncOp::Zext
                        };
                        Term::func(op, d.bits(), vec![a])
                    }
                };
                one(dst(), v)
            }
            "setp" => self.setp(ins),
            "ld" if self.kernel && has("param") => {
                let t = *ins.types().last()?;
                if t.is_float() || has("v2") || has("v4") {
                    return None;
                }
                let OperandKind::Address {
                    base: Some(isa::ptx::AddressBase::Symbol(name)),
                    offset,
                } = &o.get(1)?.kind
                else {
                    return None;
                };
                let input = Input::Param {
                    name: name.clone(),
                    offset: *offset,
                    bytes: t.bytes(),
                };
                one(
                    dst(),
                    Term::Input {
                        input,
                        width: t.bits(),
                    },
                )
            }
            _ => None,
        }
    }

    fn setp(&mut self, ins: &Instruction) -> Option<Vec<(String, Term)>> {
        let o = &ins.operands;
        let t = int_type(ins)?;
        let w = t.bits();
        let mut signed = t.is_signed();
        let op = ins.modifiers.iter().find_map(|m| {
            Some(match m.as_str() {
                "eq" => CmpOp::Eq,
                "ne" => CmpOp::Ne,
                "lt" => CmpOp::Lt,
                "le" => CmpOp::Le,
                "gt" => CmpOp::Gt,
                "ge" => CmpOp::Ge,
                "lo" => CmpOp::Lt,
                "ls" => CmpOp::Le,
                "hi" => CmpOp::Gt,
                "hs" => CmpOp::Ge,
                _ => return None,
            })
        })?;
        if ins
            .modifiers
            .iter()
            .any(|m| matches!(m.as_str(), "lo" | "ls" | "hi" | "hs"))
        {
            signed = false;
        }
        let (p, q): (String, Option<String>) = match &o.first()?.kind {
            OperandKind::Register { name } => (name.clone(), None),
            OperandKind::Other { text } if text.contains('|') => {
                let mut it = text.split('|').map(str::trim);
                (it.next()?.to_string(), Some(it.next()?.to_string()))
            }
            _ => return None,
        };
        let (a, b) = (self.int(o.get(1)?, w), self.int(o.get(2)?, w));
        let cmp = Term::cmp(op, signed, a, b);
        let combine = |x: Term, c: Term| -> Option<Term> {
            Some(if ins.has_modifier("and") {
                Term::and(x, c)
            } else if ins.has_modifier("or") {
                Term::or(x, c)
            } else if ins.has_modifier("xor") {
                Term::xor(x, c)
            } else {
                x
            })
        };
        let c = match o.get(3) {
            Some(x) => self.pred(x),
            None => Term::Bool(true),
        };
        let mut out = vec![(p, combine(cmp.clone(), c.clone())?)];
        if let Some(q) = q.filter(|q| q != "_") {
            out.push((q, combine(Term::not(cmp), c)?));
        }
        Some(out)
    }
}
