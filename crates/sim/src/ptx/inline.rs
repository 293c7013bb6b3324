//! Device-function calls of a PTX kernel, run by inlining (PTX ISA 8.5, "Control Flow
//! Instructions: call", §7 "Abstracting the ABI").
//!
//! nvcc passes arguments through the parameter state space: in a call sequence the caller
//! declares `.param` variables (`param0`, `retval0`), stores the arguments into them
//! (`st.param`), calls (`call.uni (retval0), f, (param0, param1);`) and loads the result
//! (`ld.param`); the callee reads its `.param` parameters with `ld.param` and stores its
//! result into its return parameter. The simulator runs a call to a function of the module
//! by placing a copy of the callee's body after the code (one copy per call site): the call
//! becomes a branch to the copy, each `ret` of the copy a branch back to the instruction
//! after the call. In a copy, the callee's registers, labels and variables get a name of
//! their own (`%r1` → `%r1·2` for copy 2), and its parameters and return parameter *are*
//! the caller's argument and result variables — so no copying is needed, and the
//! parameter bytes live wherever the caller's `.param` variables live (each thread's local
//! window, [`super::layout`]). Reconvergence follows the post-dominators of the inlined
//! code, which is what a divergent call and return do on the PDOM stack.
//!
//! Refused by name, where the call is (a warp reaching it stops the run): calls to
//! functions without a body in the module (`vprintf`, `malloc`), indirect calls, recursion
//! (a function that calls itself, at any depth), and more than [`MAX_COPIES`] copies.

use isa::ptx::{AddressBase, CallTarget, Function, Instruction, Operand, OperandKind};
use std::collections::BTreeMap;

/// The most callee copies one kernel may get (a bound on the code a call tree makes).
pub const MAX_COPIES: usize = 256;

/// Renames registers and symbols of one copy.
struct Names<'a> {
    /// `·k` appended to the callee's own names.
    suffix: String,
    /// Callee parameter / return parameter → the caller's variable.
    params: &'a BTreeMap<String, String>,
}

impl Names<'_> {
    fn reg(&self, n: &str) -> String {
        format!("{n}{}", self.suffix)
    }

    fn sym(&self, n: &str) -> String {
        match self.params.get(n) {
            Some(v) => v.clone(),
            None => format!("{n}{}", self.suffix),
        }
    }

    fn operand(&self, op: &Operand) -> Operand {
        let kind = match &op.kind {
            OperandKind::Register { name } => OperandKind::Register {
                name: self.reg(name),
            },
            OperandKind::Symbol { name } => OperandKind::Symbol {
                name: self.sym(name),
            },
            OperandKind::Address { base, offset } => OperandKind::Address {
                base: base.as_ref().map(|b| match b {
                    AddressBase::Register(r) => AddressBase::Register(self.reg(r)),
                    AddressBase::Symbol(s) => AddressBase::Symbol(self.sym(s)),
                }),
                offset: *offset,
            },
            OperandKind::Vector { elements } => OperandKind::Vector {
                elements: elements.iter().map(|e| self.operand(e)).collect(),
            },
            OperandKind::List { elements } => OperandKind::List {
                elements: elements.iter().map(|e| self.operand(e)).collect(),
            },
            OperandKind::Not { inner } => OperandKind::Not {
                inner: Box::new(self.operand(inner)),
            },
            OperandKind::Other { text } => OperandKind::Other {
                text: self.text(text),
            },
            other => other.clone(),
        };
        Operand {
            kind,
            span: op.span,
        }
    }

    /// `%name` tokens of a text operand (`[tex, {%r1}]`) renamed.
    fn text(&self, t: &str) -> String {
        let mut out = String::new();
        let mut chars = t.chars().peekable();
        while let Some(c) = chars.next() {
            out.push(c);
            if c == '%' {
                let mut name = String::new();
                while let Some(&n) = chars.peek() {
                    if n.is_alphanumeric() || n == '_' || n == '$' {
                        name.push(n);
                        chars.next();
                    } else {
                        break;
                    }
                }
                out.push_str(&name);
                out.push_str(&self.suffix);
            }
        }
        out
    }
}

/// A branch to `label` with the guard of `ins`.
fn branch(ins: &Instruction, label: &str) -> Instruction {
    Instruction {
        guard: ins.guard.clone(),
        opcode: "bra".into(),
        modifiers: Vec::new(),
        operands: vec![Operand {
            kind: OperandKind::Symbol {
                name: label.to_string(),
            },
            span: ins.opcode_span,
        }],
        span: ins.span,
        opcode_span: ins.opcode_span,
        call: None,
    }
}

/// The name an operand of a call's argument or return list denotes (`param0`).
fn symbol_of(op: &Operand) -> Option<&str> {
    match &op.kind {
        OperandKind::Symbol { name } => Some(name),
        _ => None,
    }
}

/// `f` with every call to a function of `functions` (the module's) inlined (module doc),
/// and the calls that cannot be — left in place — with the reason, by instruction index.
pub(crate) fn expand(functions: &[Function], f: &Function) -> (Function, BTreeMap<usize, String>) {
    let mut refused = BTreeMap::new();
    if !f.instructions.iter().any(|i| i.call.is_some()) {
        return (f.clone(), refused);
    }
    let mut out = f.clone();
    // Copies to place: (index of the call in `out`, callee, suffix of the caller's names,
    // call stack of function names).
    let mut copies = 0usize;
    let mut i = 0;
    let mut stacks: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    while i < out.instructions.len() {
        let Some(call) = out.instructions[i].call.clone() else {
            i += 1;
            continue;
        };
        let ins = out.instructions[i].clone();
        let mut stack = stacks
            .get(&i)
            .cloned()
            .unwrap_or_else(|| vec![f.name.clone()]);
        let target = match &call.target {
            CallTarget::Direct { name, .. } => {
                let callee = functions.iter().find(|g| &g.name == name && g.has_body);
                match callee {
                    None => Err(format!(
                        "call to `{name}`, which has no body in this module (an external function such as `vprintf` or `malloc`): its code is not available"
                    )),
                    Some(_) if stack.contains(name) => Err(format!(
                        "call to `{name}` is recursive ({} → {name}): recursion is not simulated",
                        stack.join(" → ")
                    )),
                    Some(_) if copies >= MAX_COPIES => Err(format!(
                        "more than {MAX_COPIES} inlined calls: the call tree is too large to simulate"
                    )),
                    Some(c) => Ok(c),
                }
            }
            CallTarget::Indirect { register, .. } => Err(format!(
                "an indirect call (through `{register}`) is not simulated"
            )),
        };
        let callee = match target {
            Ok(c) => c,
            Err(why) => {
                refused.insert(i, why);
                i += 1;
                continue;
            }
        };
        let name = callee.name.clone();
        copies += 1;
        stack.push(name.clone());
        let k = copies;
        let suffix = format!("·{k}");
        // The callee's parameters are the call's argument variables, its return parameter
        // the call's result variable.
        let mut params = BTreeMap::new();
        for (p, a) in callee.params.iter().zip(&call.args) {
            if let Some(s) = symbol_of(a) {
                params.insert(p.name.clone(), s.to_string());
            }
        }
        for (p, r) in callee.returns.iter().zip(&call.returns) {
            if let Some(s) = symbol_of(r) {
                params.insert(p.name.clone(), s.to_string());
            }
        }
        let names = Names {
            suffix: suffix.clone(),
            params: &params,
        };
        let entry = format!("$entry{suffix}");
        let back = format!("$return{suffix}");
        let start = out.instructions.len();
        out.instructions[i] = branch(&ins, &entry);
        out.labels.insert(back.clone(), i + 1);
        out.label_spans.insert(back.clone(), ins.span);
        out.labels.insert(entry.clone(), start);
        out.label_spans.insert(entry, callee.name_span);
        for (n, &at) in &callee.labels {
            out.labels.insert(names.sym(n), start + at);
            if let Some(s) = callee.label_spans.get(n) {
                out.label_spans.insert(names.sym(n), *s);
            }
        }
        for v in &callee.vars {
            let mut v = v.clone();
            v.name = names.sym(&v.name);
            out.vars.push(v);
        }
        for (j, c) in callee.instructions.iter().enumerate() {
            let mut c = c.clone();
            c.guard = c.guard.map(|mut g| {
                g.reg = names.reg(&g.reg);
                g
            });
            if c.opcode == "ret" {
                c = branch(&c, &back);
            } else {
                c.operands = c.operands.iter().map(|o| names.operand(o)).collect();
                if let Some(cl) = c.call.as_mut() {
                    cl.args = cl.args.iter().map(|o| names.operand(o)).collect();
                    cl.returns = cl.returns.iter().map(|o| names.operand(o)).collect();
                    stacks.insert(start + j, stack.clone());
                }
            }
            out.instructions.push(c);
        }
        // A callee that ends without `ret` falls back to the caller.
        if callee.instructions.last().is_none_or(|l| l.opcode != "ret") {
            let mut b = branch(&ins, &back);
            b.guard = None;
            out.instructions.push(b);
        }
        i += 1;
    }
    (out, refused)
}
