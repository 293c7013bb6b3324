//! NVIDIA PTX: a typed, per-dialect representation of PTX modules with spans.
//!
//! What this module *is*: a front end for PTX ISA 7.x–8.x as nvcc 11–12 writes it, whole
//! modules: `.version`/`.target`/`.address_size`; module-scope variables with alignment,
//! vector types, arrays and initializers (constants, `{…}` lists, symbol addresses,
//! `generic(sym)`), kept with their bytes ([`VarDecl::init`]); `.extern`/`.visible`/`.weak`/
//! `.common` linkage; `.entry` and `.func` (return and parameter lists, prototypes,
//! `.noreturn`, performance directives, `.pragma`); `{ }` scopes with their own `.reg` and
//! `.param` declarations (nvcc's `{ // callseq` blocks); `call` over several lines, direct or
//! indirect through a `.callprototype` ([`Call`]); `.loc`/`.file`, `.section .debug_*`
//! bodies (skipped) and `@@DWARF` lines. Every opcode is checked against the PTX ISA 8.x
//! table ([`isa_table`]), every `%name` against the special registers (ISA chapter 10) and
//! the `.reg` declarations in scope; see `Parser::check_opcode` for the strictness rules.
//!
//! What it is *not*: an evaluator. Which instructions can be *executed* for given launch
//! values is decided by the analyzer (`roundrobin` crate) and the simulator (`sim`), which
//! report what they cannot evaluate as located diagnostics. `.func` bodies are parsed and
//! listed ([`Module::function_list`]) but not inlined into callers.
//!
//! PTX has virtual registers and typed opcodes, so it does not lower to the machine-level
//! [`crate::Kernel`]; the analysis crates read [`Function`] directly. Program counters follow
//! GPGPU-Sim (8 bytes per instruction, [`Function::pc`]), as in the thesis's analyzer output.
//!
//! Invariants: never panics, never recurses on nesting in the input, bounded by
//! [`Limits::max_input_bytes`] and [`Limits::max_instructions`]; every diagnostic has a
//! 1-based line and column inside the text.

mod call;
mod flow;
mod instruction;
pub mod isa_table;
mod lexer;
mod module;
mod parser;
pub mod semantics;
pub mod special_registers;

pub use call::{Call, CallPrototype, CallTarget, Callee};
pub use flow::flows;
pub use instruction::{
    AddressBase, Guard, Instruction, Operand, OperandKind, ScalarType, StateSpace,
};
pub use isa_table::{OpClass, OpInfo};
pub use module::{
    Directive, Function, FunctionDirective, FunctionEntry, FunctionKind, InitValue, Initializer,
    Linkage, Module, Parsed, RegDecl, VarDecl,
};

use crate::diagnostic::Diagnostic;
use crate::limits::Limits;
use crate::span::Span;
use std::collections::{BTreeMap, BTreeSet};

/// Parses a PTX module. The module is always returned (possibly partial); errors are
/// diagnostics with line and column.
pub fn parse(text: &str, limits: &Limits) -> Parsed {
    if text.len() > limits.max_input_bytes {
        return Parsed {
            module: Module::default(),
            diagnostics: vec![Diagnostic::error(
                Span::new(1, 1, 0),
                format!(
                    "input is {} bytes, over the budget of {} bytes (raise max_input_bytes)",
                    text.len(),
                    limits.max_input_bytes
                ),
            )],
        };
    }
    let (tokens, lex_errors) = lexer::tokenize(text);
    let mut p = parser::Parser::new(&tokens, limits);
    p.parse_module();
    let mut diagnostics: Vec<Diagnostic> = lex_errors
        .into_iter()
        .map(|e| Diagnostic::error(e.span, e.message))
        .collect();
    diagnostics.append(&mut p.diagnostics);
    let mut module = std::mem::take(&mut p.module);
    resolve_calls(&mut module, &mut diagnostics);
    check_labels(&module, &mut diagnostics);
    check_symbols(&module, &mut diagnostics);
    Parsed {
        module,
        diagnostics,
    }
}

/// Types every direct call by its callee: a function with a body in the module is
/// [`Callee::Defined`], one declared without a body (`.extern .func vprintf`) is
/// [`Callee::External`]; a name the module never declares is an error.
fn resolve_calls(module: &mut Module, diagnostics: &mut Vec<Diagnostic>) {
    let list: BTreeMap<String, bool> = module
        .function_list()
        .into_iter()
        .map(|e| (e.name, e.defined))
        .collect();
    for f in &mut module.functions {
        for ins in &mut f.instructions {
            let Some(call) = ins.call.as_mut() else {
                continue;
            };
            if let CallTarget::Direct { name, span } = &call.target {
                call.callee = match list.get(name) {
                    Some(true) => Callee::Defined,
                    Some(false) => Callee::External,
                    None => {
                        diagnostics.push(Diagnostic::error(
                            *span,
                            format!("call to `{name}`, which the module does not declare"),
                        ));
                        Callee::Unknown
                    }
                };
            }
        }
    }
}

/// Branch targets must name a label of the same function; `brx.idx` names a
/// `.branchtargets` list whose entries are labels.
fn check_labels(module: &Module, diagnostics: &mut Vec<Diagnostic>) {
    for f in &module.functions {
        for ins in &f.instructions {
            match ins.opcode.as_str() {
                "bra" => match ins.operands.first().map(|o| (&o.kind, o.span)) {
                    Some((OperandKind::Symbol { name }, span)) => {
                        if !f.labels.contains_key(name) {
                            diagnostics.push(Diagnostic::error(
                                span,
                                format!("branch to unknown label `{name}`"),
                            ));
                        }
                    }
                    _ => {
                        diagnostics.push(Diagnostic::error(ins.span, "`bra` needs a label operand"))
                    }
                },
                "brx" => match ins.operands.get(1).map(|o| (&o.kind, o.span)) {
                    Some((OperandKind::Symbol { name }, span)) => match f.target_lists.get(name) {
                        Some(targets) => {
                            for t in targets.iter().filter(|t| !f.labels.contains_key(*t)) {
                                diagnostics.push(Diagnostic::error(
                                    span,
                                    format!("`.branchtargets {name}` names unknown label `{t}`"),
                                ));
                            }
                        }
                        None => diagnostics.push(Diagnostic::error(
                            span,
                            format!("`brx.idx` needs a `.branchtargets` list, not `{name}`"),
                        )),
                    },
                    _ => diagnostics.push(Diagnostic::error(
                        ins.span,
                        "`brx.idx` needs an index and a `.branchtargets` label",
                    )),
                },
                _ => {}
            }
        }
    }
}

/// Every name an instruction uses — an address base (`[k_param_0]`, `[param0+0]`), an
/// operand (`mov.u64 %rd1, $str;`, a call argument) — must be declared: a parameter, a
/// variable of the function or of the module, a function, a label, a prototype or a
/// target list.
fn check_symbols(module: &Module, diagnostics: &mut Vec<Diagnostic>) {
    let mut global: BTreeSet<&str> = module.globals.iter().map(|g| g.name.as_str()).collect();
    global.extend(module.functions.iter().map(|f| f.name.as_str()));
    for f in module.functions.iter().filter(|f| f.has_body) {
        let mut local: BTreeSet<&str> = BTreeSet::new();
        local.extend(f.params.iter().map(|p| p.name.as_str()));
        local.extend(f.returns.iter().map(|p| p.name.as_str()));
        local.extend(f.vars.iter().map(|p| p.name.as_str()));
        local.extend(f.labels.keys().map(String::as_str));
        local.extend(f.prototypes.iter().map(|p| p.name.as_str()));
        local.extend(f.target_lists.keys().map(String::as_str));
        // `WARP_SZ` is PTX's one predefined identifier (ISA §4.4 "Identifiers", predefined identifiers).
        let known = |n: &str| n == "WARP_SZ" || local.contains(n) || global.contains(n);
        for ins in &f.instructions {
            if ins.opcode == "bra" {
                continue;
            }
            // A direct call's target is checked by `resolve_calls`.
            let callee = ins.call.as_ref().and_then(|c| c.callee_name());
            let mut stack: Vec<&Operand> = ins.operands.iter().collect();
            while let Some(op) = stack.pop() {
                let name = match &op.kind {
                    OperandKind::Symbol { name } => name,
                    OperandKind::Address {
                        base: Some(AddressBase::Symbol(name)),
                        ..
                    } => name,
                    OperandKind::Vector { elements } | OperandKind::List { elements } => {
                        stack.extend(elements.iter());
                        continue;
                    }
                    OperandKind::Not { inner } => {
                        stack.push(inner);
                        continue;
                    }
                    _ => continue,
                };
                if !known(name) && Some(name.as_str()) != callee {
                    diagnostics.push(Diagnostic::error(
                        op.span,
                        format!(
                            "`{name}` is not declared (no parameter, variable, function or label)"
                        ),
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = "\
.version 7.7
.target sm_52
.address_size 64
// comment
.visible .entry k(
.param .u64 k_param_0,
.param .align 8 .b8 k_param_1[16]
)
.maxntid 256, 1, 1
{
.reg .pred %p<2>;
.reg .b32 %r<5>; .reg .b64 %rd<2>; .reg .f64 %fd<2>;
.shared .align 4 .b8 buf[1024];
ld.param.u64 %rd1, [k_param_0];
ld.param.u32 %r1, [k_param_1+8];
mov.u32 %r2, %tid.x;
setp.eq.s32 %p1, %r2, -1;
@!%p1 bra $L__BB0_2;
{
.reg .b32 %temp;
mov.b64 {%temp, %r3}, %fd1;
}
st.shared.f32 [buf+4], 0f3F800000;
$L__BB0_2:
ret;
}
";

    #[test]
    fn example_module_parses() {
        let out = parse(EXAMPLE, &Limits::default());
        assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
        let m = &out.module;
        assert_eq!(m.version.as_deref(), Some("7.7"));
        assert_eq!(m.target, vec!["sm_52".to_string()]);
        assert_eq!(m.address_size, Some(64));
        let f = m.function(None).expect("function");
        assert_eq!(f.name, "k");
        assert_eq!(f.params.len(), 2);
        assert_eq!(f.params[1].size_bytes(), Some(16));
        assert_eq!(f.regs[1].count, Some(5));
        assert_eq!(f.vars[0].name, "buf");
        assert_eq!(f.instructions.len(), 8);
        assert_eq!(f.labels.get("$L__BB0_2"), Some(&7));
        let ld = &f.instructions[1];
        assert_eq!(ld.opcode, "ld");
        assert_eq!(ld.modifiers, vec!["param", "u32"]);
        assert_eq!(
            ld.operands[1].kind,
            OperandKind::Address {
                base: Some(AddressBase::Symbol("k_param_1".into())),
                offset: 8
            }
        );
        assert_eq!(
            f.instructions[2].operands[1].kind,
            OperandKind::Special {
                name: "tid".into(),
                component: Some("x".into())
            }
        );
        assert_eq!(
            f.instructions[3].operands[2].kind,
            OperandKind::Int { value: -1 }
        );
        let bra = &f.instructions[4];
        assert!(bra.guard.as_ref().is_some_and(|g| g.negated));
        assert_eq!(bra.span, Span::new(18, 1, 20));
        assert_eq!(f.instructions[5].destinations(), vec!["%temp", "%r3"]);
        assert_eq!(
            f.instructions[6].operands[1].kind,
            OperandKind::Float { value: 1.0 }
        );
    }

    #[test]
    fn errors_are_located_and_parsing_recovers() {
        let text = ".entry k()\n{\nadd.s32 %r1, %r2\nbra NOWHERE;\nret;\n}\n";
        let out = parse(text, &Limits::default());
        // `add` runs into `bra` (no `;`), then the label is unknown.
        assert!(out.has_errors());
        assert!(out.diagnostics.iter().all(|d| d.line >= 1 && d.column >= 1));
        let f = out.module.function(Some("k")).expect("k");
        assert_eq!(
            f.instructions.last().map(|i| i.opcode.as_str()),
            Some("ret")
        );
    }

    #[test]
    fn instruction_budget_is_enforced() {
        let mut text = String::from(".entry k()\n{\n");
        for _ in 0..20 {
            text.push_str("add.s32 %r1, %r1, 1;\n");
        }
        text.push('}');
        let limits = Limits {
            max_instructions: 10,
            ..Limits::default()
        };
        let out = parse(&text, &limits);
        assert!(out
            .diagnostics
            .iter()
            .any(|d| d.message.contains("max_instructions")));
    }
}
