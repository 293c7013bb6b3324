//! The instruction table of a kernel (`report.kernel`), one builder per dialect's IR: every
//! mode that reads a dialect shows the same table for it.

use super::instruction_parts::ResourceClass;
use crate::report::{InstructionView, KernelView};
use isa::gcn::GcnFunction;
use isa::ptx::Function;
use isa::simd::Program;
use isa::{ControlKind, Kernel};

fn control_name(c: ControlKind) -> &'static str {
    match c {
        ControlKind::Fallthrough => "fallthrough",
        ControlKind::Branch(_) => "branch",
        ControlKind::Ssy(_) => "ssy",
        ControlKind::Pbk(_) => "pbk",
        ControlKind::Pcnt(_) => "pcnt",
        ControlKind::Pret(_) => "pret",
        ControlKind::Sync => "sync",
        ControlKind::Brk => "brk",
        ControlKind::Cont => "cont",
        ControlKind::Exit => "exit",
        ControlKind::Call(_) => "call",
        ControlKind::Ret => "ret",
        ControlKind::Barrier => "barrier",
        ControlKind::Indirect => "indirect",
        ControlKind::Bssy { .. } => "bssy",
        ControlKind::Bsync { .. } => "bsync",
        ControlKind::Break { .. } => "break",
        ControlKind::WarpSync => "warpsync",
    }
}

/// A SASS kernel (or anything parsed into the SASS-shaped `isa::Kernel`).
pub fn sass(kernel: &Kernel, functions: Vec<String>) -> KernelView {
    let instructions = kernel
        .instructions
        .iter()
        .enumerate()
        .map(|(index, ins)| {
            let mut opcode = ins.opcode.name.clone();
            for m in &ins.opcode.modifiers {
                opcode.push('.');
                opcode.push_str(m);
            }
            InstructionView {
                index,
                address: ins.address,
                line: ins.span.line,
                column: ins.span.column,
                text: ins.text.clone(),
                guard: ins
                    .guard
                    .as_ref()
                    .map(|g| format!("@{}{}", if g.negated { "!" } else { "" }, g.reg)),
                opcode,
                operands: ins.operands.iter().map(|o| o.text.clone()).collect(),
                reads: ins.reads.iter().map(ToString::to_string).collect(),
                writes: ins.writes.iter().map(ToString::to_string).collect(),
                control: control_name(ins.control).into(),
                target: ins.control.target(),
                class: ins.class.into(),
                block: None,
                control_bits: ins.control_bits.as_ref().map(Into::into),
            }
        })
        .collect();
    KernelView {
        function: kernel.function.clone(),
        functions,
        arch: kernel.arch.clone(),
        instructions,
        resources: kernel.resources.as_ref().map(Into::into),
    }
}

/// The text a span of `lines` covers (spans count characters from column 1), without a
/// trailing `;`.
pub fn text_at(lines: &[&str], span: isa::Span) -> String {
    lines
        .get(span.line.saturating_sub(1) as usize)
        .map(|l| {
            l.chars()
                .skip(span.column.saturating_sub(1) as usize)
                .take(span.len.max(1) as usize)
                .collect::<String>()
        })
        .unwrap_or_default()
        .trim()
        .trim_end_matches(';')
        .to_string()
}

/// A PTX function (`source`: the text it was parsed from). Addresses are GPGPU-Sim's
/// program counters ([`Function::pc`]).
pub fn ptx(f: &Function, functions: Vec<String>, source: &str) -> KernelView {
    let lines: Vec<&str> = source.lines().collect();
    let instructions = rows(&f.instructions, |index, ins| InstructionView {
        index,
        address: Function::pc(index),
        line: ins.span.line,
        column: ins.span.column,
        text: text_at(&lines, ins.span),
        guard: ins.guard.as_ref().map(|g| text_at(&lines, g.span)),
        opcode: ins.mnemonic(),
        operands: ins
            .operands
            .iter()
            .map(|o| text_at(&lines, o.span))
            .collect(),
        reads: Vec::new(),
        writes: Vec::new(),
        control: if ins.opcode == "bra" {
            "branch".into()
        } else {
            "fallthrough".into()
        },
        target: None,
        class: ptx_class(ins),
        block: None,
        control_bits: None,
    });
    without_resources(f.name.clone(), functions, None, instructions)
}

/// The unit class the instruction table shows for a PTX instruction: the simulator's timing
/// class (`sim::timing_classes::ptx`, the one the opcode tooltips show), with
/// double-precision arithmetic on the ALU column as for SASS (`DADD` is `Alu` there too).
fn ptx_class(ins: &isa::ptx::Instruction) -> ResourceClass {
    use cfg::TimingClass as T;
    match sim::timing_classes::ptx(ins) {
        T::Alu | T::DoublePrecision => ResourceClass::Alu,
        T::Sfu => ResourceClass::Sfu,
        T::Shared => ResourceClass::LoadStoreShared,
        T::Global => ResourceClass::LoadStoreGlobal,
        T::Local => ResourceClass::LoadStoreLocal,
        T::Constant => ResourceClass::Constant,
        T::Texture => ResourceClass::Texture,
        T::Control => ResourceClass::Control,
    }
}

/// A GCN3 function; addresses are instruction indices (the parser records no offsets).
pub fn gcn(f: &GcnFunction, functions: Vec<String>, target: Option<String>) -> KernelView {
    let instructions = rows(&f.instructions, |index, ins| InstructionView {
        index,
        address: index as u64,
        line: ins.span.line,
        column: ins.span.column,
        text: ins.text.clone(),
        guard: None,
        opcode: ins.opcode.clone(),
        operands: operands_of(&ins.text),
        reads: ins.reads.iter().map(|r| format!("{r:?}")).collect(),
        writes: ins.writes.iter().map(|r| format!("{r:?}")).collect(),
        control: format!("{:?}", ins.exec_effect).to_lowercase(),
        target: None,
        class: match ins.unit {
            isa::gcn::GcnUnit::VectorMemory => ResourceClass::LoadStoreGlobal,
            isa::gcn::GcnUnit::Lds => ResourceClass::LoadStoreShared,
            isa::gcn::GcnUnit::ScalarMemory => ResourceClass::Constant,
            isa::gcn::GcnUnit::Branch | isa::gcn::GcnUnit::Waitcnt => ResourceClass::Control,
            _ => ResourceClass::Alu,
        },
        block: None,
        control_bits: None,
    });
    without_resources(f.name.clone(), functions, target, instructions)
}

/// The comma-separated operands after the mnemonic of an assembly line.
fn operands_of(text: &str) -> Vec<String> {
    text.split_once(char::is_whitespace)
        .map(|(_, rest)| rest.split(',').map(|o| o.trim().to_string()).collect())
        .unwrap_or_default()
}

/// A Sim-D program (one kernel per file); addresses are indices in `.text`.
pub fn simd(program: &Program) -> KernelView {
    let instructions = program
        .instructions
        .iter()
        .map(|ins| InstructionView {
            index: ins.index,
            address: ins.index as u64,
            line: ins.span.line,
            column: ins.span.column,
            text: ins.text.clone(),
            guard: None,
            operands: operands_of(&ins.text),
            opcode: match &ins.subop_text {
                Some(s) => format!("{}.{s}", ins.mnemonic),
                None => ins.mnemonic.clone(),
            },
            reads: Vec::new(),
            writes: Vec::new(),
            control: ins
                .category()
                .map_or("unknown".into(), |c| format!("{c:?}").to_lowercase()),
            target: None,
            class: ResourceClass::Alu,
            block: None,
            control_bits: None,
        })
        .collect();
    without_resources(
        "kernel".into(),
        vec!["kernel".into()],
        Some("sim-d".into()),
        instructions,
    )
}

/// An L/C string: one row per letter, all in block 0 (the string is straight-line code).
pub fn lc(program: &isa::lc::LcProgram) -> KernelView {
    let span = program.kernel_span;
    let instructions = program
        .kernel
        .iter()
        .enumerate()
        .map(|(i, op)| {
            let (letter, class, what) = match op {
                isa::lc::LcOp::L => ("L", ResourceClass::LoadStoreGlobal, "load/store unit"),
                isa::lc::LcOp::C => ("C", ResourceClass::Alu, "CUDA cores"),
            };
            InstructionView {
                index: i,
                address: i as u64,
                line: span.line,
                column: span.column + i as u32,
                text: format!("{letter} ({what})"),
                guard: None,
                opcode: letter.into(),
                operands: Vec::new(),
                reads: Vec::new(),
                writes: Vec::new(),
                control: "fallthrough".into(),
                target: None,
                class,
                block: Some(0),
                control_bits: None,
            }
        })
        .collect();
    without_resources("kernel".into(), vec!["kernel".into()], None, instructions)
}

/// The view of a text that declares no resources (PTX, GCN3, Sim-D, L/C): only a whole
/// `nvdisasm` dump says what the cubin declares.
fn without_resources(
    function: String,
    functions: Vec<String>,
    arch: Option<String>,
    instructions: Vec<InstructionView>,
) -> KernelView {
    KernelView {
        function,
        functions,
        arch,
        instructions,
        resources: None,
    }
}

/// One instruction-table row per item, numbered from 0.
fn rows<T>(items: &[T], row: impl Fn(usize, &T) -> InstructionView) -> Vec<InstructionView> {
    items.iter().enumerate().map(|(i, x)| row(i, x)).collect()
}
