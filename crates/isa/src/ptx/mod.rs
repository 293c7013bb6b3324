//! NVIDIA PTX: a typed, per-dialect representation of PTX modules with spans.
//!
//! What this module *is*: a front end for the PTX subset real kernels use (`.entry`,
//! `.param`, `.reg`, `.shared`, `ld.param`, special registers `%tid/%ntid/%ctaid/%nctaid`,
//! arithmetic, `mad`, `mul.wide`, shifts, logic, `cvt`, `setp`, `selp`, `@%p bra`,
//! `ld/st.global/.shared`, `bar.sync`, `ret`, `exit`), which is what Huangfu's kernel
//! analyzer reads (thesis §4.4.4 and §5.3.3). Everything else a compiler emits — `.version`,
//! `.target`, `.address_size`, `.func`, module-level `.global` variables, `{ }` scopes,
//! `.loc`/`.file`, comments, vector operands `{%r1, %r2}`, `[addr+off]`, unknown opcodes —
//! parses generically, so every file of the corpus loads.
//!
//! What it is *not*: an evaluator. Which instructions can be *executed* for given launch
//! values is decided by the analyzer (`roundrobin` crate), which reports what it cannot
//! evaluate as a located diagnostic.
//!
//! PTX has virtual registers and typed opcodes, so it does not lower to the machine-level
//! [`crate::Kernel`]; the analysis crates read [`Function`] directly. Program counters follow
//! GPGPU-Sim (8 bytes per instruction, [`Function::pc`]), as in the thesis's analyzer output.
//!
//! Invariants: never panics, never recurses on nesting in the input, bounded by
//! [`Limits::max_input_bytes`] and [`Limits::max_instructions`]; every diagnostic has a
//! 1-based line and column inside the text.

mod instruction;
mod lexer;
mod module;
mod parser;

pub use instruction::{
    AddressBase, Guard, Instruction, Operand, OperandKind, ScalarType, StateSpace,
};
pub use module::{Directive, Function, FunctionKind, Module, Parsed, RegDecl, VarDecl};

use crate::diagnostic::Diagnostic;
use crate::limits::Limits;
use crate::span::Span;

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
    let module = std::mem::take(&mut p.module);
    check_labels(&module, &mut diagnostics);
    Parsed {
        module,
        diagnostics,
    }
}

/// Branch targets must name a label of the same function.
fn check_labels(module: &Module, diagnostics: &mut Vec<Diagnostic>) {
    for f in &module.functions {
        for ins in &f.instructions {
            if ins.opcode != "bra" {
                continue;
            }
            match ins.operands.first().map(|o| (&o.kind, o.span)) {
                Some((OperandKind::Symbol { name }, span)) => {
                    if !f.labels.contains_key(name) {
                        diagnostics.push(Diagnostic::error(
                            span,
                            format!("branch to unknown label `{name}`"),
                        ));
                    }
                }
                _ => diagnostics.push(Diagnostic::error(ins.span, "`bra` needs a label operand")),
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
.reg .b32 %r<5>;
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
