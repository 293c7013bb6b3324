//! The registers a PTX instruction reads and writes, as the warp-level analyses need them:
//! nothing the instruction touches may be missed, or a varying value could pass for a
//! uniform one.

use isa::ptx::{Instruction, OperandKind};

/// Registers `ins` writes ([`Instruction::destinations`]: the first operand, vector
/// elements, `%p|%q` pairs).
pub fn writes(ins: &Instruction) -> Vec<&str> {
    ins.destinations()
}

/// Registers `ins` reads: its guard, its source operands, and every `%name` inside an
/// operand the parser kept as text (texture coordinates `[tex, {%r1, %r2}]` and other
/// unusual syntax), so that no dependence is lost.
pub fn reads(ins: &Instruction) -> Vec<&str> {
    let mut out = ins.sources();
    let skip_first = !ins.destinations().is_empty();
    for (i, op) in ins.operands.iter().enumerate() {
        if i == 0 && skip_first {
            continue;
        }
        if let OperandKind::Other { text } = &op.kind {
            out.extend(registers_in(text));
        }
    }
    out
}

/// `%name` words of `text` that are not special registers.
fn registers_in(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '%' || c == '_' || c == '$'))
        .filter(|w| w.starts_with('%') && w.len() > 1)
        .filter(|w| !isa::ptx::special_registers::is_special(&w[1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ins(text: &str) -> Instruction {
        let src = format!(
            ".version 7.8\n.target sm_86\n.address_size 64\n.visible .entry k()\n{{\n\
             .reg .pred %p<3>;\n.reg .b32 %r<5>;\n.reg .b64 %rd<3>;\n{text}\nret;\n}}\n"
        );
        let parsed = isa::ptx::parse(&src, &isa::Limits::default());
        assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
        parsed.module.function(None).expect("kernel").instructions[0].clone()
    }

    #[test]
    fn predicate_pairs_and_guards() {
        let i = ins("@%p2 setp.lt.s32 %p1|%p0, %r2, %r1;");
        assert_eq!(writes(&i), vec!["%p1", "%p0"]);
        assert_eq!(reads(&i), vec!["%p2", "%r2", "%r1"]);
        let s = ins("shfl.sync.up.b32 %r3|%p2, %r1, 1, 0, -1;");
        assert_eq!(writes(&s), vec!["%r3", "%p2"]);
        assert_eq!(reads(&s), vec!["%r1"]);
    }

    #[test]
    fn vectors_and_addresses() {
        let v = ins("ld.global.v2.u32 {%r1, %r2}, [%rd1+8];");
        assert_eq!(writes(&v), vec!["%r1", "%r2"]);
        assert_eq!(reads(&v), vec!["%rd1"]);
        let st = ins("st.global.u32 [%rd2], %r4;");
        assert!(writes(&st).is_empty());
        assert_eq!(reads(&st), vec!["%rd2", "%r4"]);
    }
}
