//! Whole `nvdisasm k.cubin` dumps: which lines are code, and what the other sections say
//! about each function.
//!
//! A dump prints the whole ELF file as assembler text: header directives (`.headerflags`,
//! `.elftype`), data sections (`.debug_frame`, `.nv.info`, `.nv.info.NAME`,
//! `.nv.constant0.NAME`, `.nv.shared.NAME`, `.nv.global`, `.nv.rel.action`, …) made of
//! `.byte`/`.short`/`.word`/`.dword`/`.zero` directives and local labels, and one code section
//! `.section .text.NAME,"ax",@progbits` per function (CuAssembler's `.cuasm` is the same
//! layout). Only code sections hold instructions, so every line of a data section is skipped
//! without a diagnostic, after reading the few numbers an occupancy analysis needs
//! ([`FunctionResources`]). In a code section the symbol directives (`.sectioninfo`, `.align`,
//! `.global`, `.type`, `.size`, `.other`, …) are skipped too; an unknown directive there is
//! reported as a note, since it cannot be an instruction and cannot change one.
//!
//! What this is not: an ELF reader. The numbers are the ones nvdisasm prints; a dump edited by
//! hand says whatever it says.

use crate::kernel::FunctionResources;
use std::collections::BTreeMap;

/// The `.nv.info` attribute codes read here, as nvdisasm prints them: each record starts with
/// `.byte FORMAT, CODE` under a comment naming the attribute (`//----- nvinfo :
/// EIATTR_REGCOUNT` over `.byte 0x04, 0x2f`). The code is read rather than the comment, which
/// the parser has already stripped.
const EIATTR_REGCOUNT: u64 = 0x2f;
const EIATTR_MAX_STACK_SIZE: u64 = 0x23;
const EIATTR_MIN_STACK_SIZE: u64 = 0x12;

/// Directives nvdisasm and CuAssembler write inside a code section before and between a
/// function's instructions (symbol definitions, alignment, section attributes).
const CODE_DIRECTIVES: &[&str] = &[
    ".sectioninfo",
    ".sectionflags",
    ".sectionentsize",
    ".align",
    ".global",
    ".weak",
    ".type",
    ".size",
    ".other",
    ".elftype",
    ".headerflags",
];

/// The section the current line belongs to.
#[derive(Debug, Clone, PartialEq)]
enum Section {
    /// Before any `.section`: a `cuobjdump -sass` listing, hand-written text, a dump's header.
    Outside,
    /// `.text.NAME`: the instructions of function `NAME`.
    Code(String),
    /// `.nv.info` or `.nv.info.NAME`: attribute records.
    Info,
    /// `.nv.shared.NAME`: the static shared memory of `NAME`.
    Shared(String),
    /// `.nv.constant0.NAME`: constant bank 0 of `NAME`.
    Constant0(String),
    /// Any other data section.
    Data,
}

/// An `.nv.info` record being read: its attribute code, then the symbol it is about.
#[derive(Debug, Default)]
struct Record {
    code: Option<u64>,
    symbol: Option<String>,
}

/// What one line of the text is, as far as sections go.
#[derive(Debug, PartialEq)]
pub(super) enum Step<'a> {
    /// An instruction, a label of code or a line outside every section: the caller reads it.
    Pass,
    /// Read here (a directive, or any line of a data section): nothing more to do.
    Skip,
    /// `.section .text.NAME`: function `NAME` starts.
    Function(&'a str),
    /// `.headerflags @"… EF_CUDA_SMnn …"`: the target architecture.
    Arch(String),
    /// A directive of a code section that is not one of [`CODE_DIRECTIVES`] (the directive
    /// word, a slice of the line): ignored, with a note.
    UnknownDirective(&'a str),
}

/// The section state of a parse and what the dump's sections said about each symbol.
#[derive(Debug)]
pub(super) struct Sections {
    section: Section,
    symbols: BTreeMap<String, FunctionResources>,
    /// `.sectioninfo @"SHI_REGISTERS=N"` per function, for dumps without `EIATTR_REGCOUNT`.
    section_registers: BTreeMap<String, u32>,
    /// The text has an `.nv.info` section: it is a whole dump, so a function without
    /// `.nv.shared.NAME` has no static shared memory (rather than an unknown amount).
    whole: bool,
    record: Record,
    /// Offset of the next byte of the current data section ([`lay_out`]).
    cursor: u64,
}

impl Sections {
    pub(super) fn new() -> Self {
        Sections {
            section: Section::Outside,
            symbols: BTreeMap::new(),
            section_registers: BTreeMap::new(),
            whole: false,
            record: Record::default(),
            cursor: 0,
        }
    }

    /// A `Function :` header of a `cuobjdump` listing: its lines are code, whatever came
    /// before.
    pub(super) fn leave(&mut self) {
        self.section = Section::Outside;
    }

    /// Classifies one line, `trimmed` (comments after `//` removed, not empty).
    pub(super) fn line<'a>(&mut self, trimmed: &'a str) -> Step<'a> {
        let body = after_block_comments(trimmed);
        let word = body.split_whitespace().next().unwrap_or("");
        match word {
            ".section" => return self.enter(body),
            ".headerflags" => return headerflags_arch(body).map_or(Step::Skip, Step::Arch),
            ".other" => self.other(body),
            _ => {}
        }
        match &self.section {
            Section::Outside | Section::Code(_) => {
                let label = body.ends_with(':') && !body.contains(char::is_whitespace);
                if !word.starts_with('.') || label {
                    return Step::Pass;
                }
                let Section::Code(name) = &self.section else {
                    // Outside every section a directive was always skipped (a listing's
                    // `.headerflags`, a hand-written `.target`).
                    return Step::Skip;
                };
                if word == ".sectioninfo" {
                    if let Some(n) = after_key(body, "SHI_REGISTERS=") {
                        if let Ok(n) = u32::try_from(n) {
                            self.section_registers.insert(name.clone(), n);
                        }
                    }
                }
                if CODE_DIRECTIVES.contains(&word) || word.starts_with(".__section_") {
                    Step::Skip
                } else {
                    Step::UnknownDirective(word)
                }
            }
            Section::Info => {
                self.info(body);
                Step::Skip
            }
            Section::Shared(name) | Section::Constant0(name) => {
                if let Some(end) = lay_out(&mut self.cursor, trimmed, body) {
                    let shared = matches!(self.section, Section::Shared(_));
                    let r = self.symbols.entry(name.clone()).or_default();
                    let field = if shared {
                        &mut r.shared_bytes
                    } else {
                        &mut r.constant0_bytes
                    };
                    *field = Some(field.unwrap_or(0).max(end));
                }
                Step::Skip
            }
            Section::Data => Step::Skip,
        }
    }

    /// `.section NAME,"flags",@type`.
    fn enter<'a>(&mut self, body: &'a str) -> Step<'a> {
        let rest = body.strip_prefix(".section").unwrap_or("");
        let name = rest.split(',').next().unwrap_or("").trim();
        self.record = Record::default();
        self.cursor = 0;
        if let Some(f) = name.strip_prefix(".text.").filter(|f| !f.is_empty()) {
            self.section = Section::Code(f.to_string());
            return Step::Function(f);
        }
        self.section = if name == ".text" {
            // An unnamed code section: its instructions are read as text outside sections.
            Section::Outside
        } else if name == ".nv.info" || name.starts_with(".nv.info.") {
            self.whole = true;
            Section::Info
        } else if let Some(f) = name.strip_prefix(".nv.shared.") {
            Section::Shared(f.to_string())
        } else if let Some(f) = name.strip_prefix(".nv.constant0.") {
            Section::Constant0(f.to_string())
        } else {
            Section::Data
        };
        Step::Skip
    }

    /// `.other NAME,@"STO_CUDA_ENTRY STV_DEFAULT"`: `NAME` is a kernel entry.
    fn other(&mut self, body: &str) {
        let rest = body.strip_prefix(".other").unwrap_or("");
        let Some((name, flags)) = rest.split_once(',') else {
            return;
        };
        let name = name.trim();
        if !name.is_empty() && flags.contains("STO_CUDA_ENTRY") {
            self.symbols.entry(name.to_string()).or_default().entry = true;
        }
    }

    /// One line of `.nv.info`: `.byte FORMAT, CODE` starts a record, `.word index@(NAME)`
    /// names its symbol and the next `.word VALUE` is its value.
    fn info(&mut self, body: &str) {
        let mut words = body.splitn(2, char::is_whitespace);
        let directive = words.next().unwrap_or("");
        let args = words.next().unwrap_or("").trim();
        match directive {
            ".byte" => {
                let values: Vec<Option<u64>> = args
                    .split(',')
                    .map(|v| crate::number::parse_uint(v.trim()))
                    .collect();
                self.record = match values.as_slice() {
                    [Some(_format), Some(code)] => Record {
                        code: Some(*code),
                        symbol: None,
                    },
                    _ => Record::default(),
                };
            }
            ".word" => {
                if self.record.code.is_none() {
                    return;
                }
                if let Some(sym) = args
                    .strip_prefix("index@(")
                    .and_then(|s| s.strip_suffix(')'))
                {
                    self.record.symbol = Some(sym.trim().to_string());
                    return;
                }
                let record = std::mem::take(&mut self.record);
                let (Some(code), Some(symbol), Some(value)) =
                    (record.code, record.symbol, crate::number::parse_uint(args))
                else {
                    return;
                };
                let r = self.symbols.entry(symbol).or_default();
                match code {
                    EIATTR_REGCOUNT => r.registers = u32::try_from(value).ok(),
                    EIATTR_MAX_STACK_SIZE => r.max_stack_bytes = Some(value),
                    EIATTR_MIN_STACK_SIZE => r.stack_bytes = Some(value),
                    _ => {}
                }
            }
            _ => {}
        }
    }

    /// Whether the text marked `name` as a kernel entry.
    pub(super) fn is_entry(&self, name: &str) -> bool {
        self.symbols.get(name).is_some_and(|r| r.entry)
    }

    /// What the text said about function `name`, if anything.
    pub(super) fn resources(&self, name: &str) -> Option<FunctionResources> {
        let mut r = self.symbols.get(name).cloned().unwrap_or_default();
        if r.registers.is_none() {
            r.registers = self.section_registers.get(name).copied();
        }
        if self.whole && r.shared_bytes.is_none() {
            r.shared_bytes = Some(0);
        }
        (r != FunctionResources::default()).then_some(r)
    }
}

/// `line` after its leading `/* … */` comments (a dump's `/*0004*/` offsets).
fn after_block_comments(line: &str) -> &str {
    let mut rest = line.trim_start();
    while let Some(inner) = rest.strip_prefix("/*") {
        match inner.find("*/") {
            Some(end) => rest = inner[end + 2..].trim_start(),
            None => break,
        }
    }
    rest
}

/// `EF_CUDA_SM86` in `.headerflags @"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS
/// EF_CUDA_SM86 …"` → `sm_86`.
fn headerflags_arch(body: &str) -> Option<String> {
    let digits = after_digits(body, "EF_CUDA_SM")?;
    Some(format!("sm_{digits}"))
}

/// The decimal digits right after the first `key` in `text`.
fn after_digits<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let from = text.find(key)? + key.len();
    let rest = &text[from..];
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    (end > 0).then_some(&rest[..end])
}

/// The number right after `key` (`SHI_REGISTERS=28`).
fn after_key(text: &str, key: &str) -> Option<u64> {
    crate::number::parse_digits(after_digits(text, key)?, 10)
}

/// Where one line of a data section ends: the section is at least that long. A data
/// directive starts at its `/*offset*/` comment, else where the previous one ended (after
/// `.align`), and takes `.zero N` bytes or 1, 2, 4, 8 bytes per item of `.byte`, `.short`,
/// `.word`, `.dword`. Sizes come from the data rather than from `.zero` alone because
/// nvdisasm prints a kernel's constant bank 0 as `.zero 400` followed by `.word` entries
/// for its texture references (`[20@lo(0x0)=tex]`), all part of the bank.
fn lay_out(cursor: &mut u64, trimmed: &str, body: &str) -> Option<u64> {
    let mut words = body.splitn(2, char::is_whitespace);
    let directive = words.next().unwrap_or("");
    let args = words.next().unwrap_or("").trim();
    let size = match directive {
        ".align" => {
            let a = crate::number::parse_uint(args).filter(|a| *a > 0)?;
            *cursor = cursor.checked_next_multiple_of(a).unwrap_or(*cursor);
            return None;
        }
        ".zero" => crate::number::parse_uint(args)?,
        ".byte" | ".short" | ".word" | ".dword" if !args.is_empty() => {
            let width = match directive {
                ".byte" => 1,
                ".short" => 2,
                ".word" => 4,
                _ => 8,
            };
            width * (args.matches(',').count() as u64 + 1)
        }
        _ => return None,
    };
    let start = offset_comment(trimmed).unwrap_or(*cursor);
    *cursor = start.saturating_add(size);
    Some(*cursor)
}

/// The offset nvdisasm prints before a data line, `/*0190*/`.
fn offset_comment(line: &str) -> Option<u64> {
    let inner = line.strip_prefix("/*")?;
    let end = inner.find("*/")?;
    crate::number::parse_digits(inner[..end].trim(), 16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;
    use crate::instruction::ControlKind;
    use crate::limits::Limits;

    /// A dump in nvdisasm's layout, cut down by hand: a device function in a section of its
    /// own before the kernel (as with `-rdc=true`), data sections before, between and after.
    const DUMP: &str = r#"	.headerflags	@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM86 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM86)"
	.elftype	@"ET_EXEC"

//--------------------- .debug_frame              --------------------------
	.section	.debug_frame,"",@progbits
.debug_frame:
        /*0000*/ 	.byte	0xff, 0xff, 0xff, 0xff, 0x24, 0x00, 0x00, 0x00
        /*0008*/ 	.dword	_Z1kPi
        /*0010*/ 	.dword	(_Z1kPi + $_Z1kPi$sub@srel)

//--------------------- .nv.info                  --------------------------
	.section	.nv.info,"",@"SHT_CUDA_INFO"
	.align	4

	//----- nvinfo : EIATTR_REGCOUNT
	.align		4
        /*0000*/ 	.byte	0x04, 0x2f
        /*0002*/ 	.short	(.L_2 - .L_1)
	.align		4
.L_1:
        /*0004*/ 	.word	index@(_Z1kPi)
        /*0008*/ 	.word	0x0000001e

	//----- nvinfo : EIATTR_MAX_STACK_SIZE
	.align		4
.L_2:
        /*000c*/ 	.byte	0x04, 0x23
        /*000e*/ 	.short	(.L_4 - .L_3)
	.align		4
.L_3:
        /*0010*/ 	.word	index@(_Z1kPi)
        /*0014*/ 	.word	0x00000010

	//----- nvinfo : EIATTR_FRAME_SIZE
	.align		4
.L_4:
        /*0018*/ 	.byte	0x04, 0x11
        /*001a*/ 	.short	(.L_6 - .L_5)
.L_5:
        /*001c*/ 	.word	index@(_Z1kPi)
        /*0020*/ 	.word	0x00000099

	//----- nvinfo : EIATTR_MIN_STACK_SIZE
	.align		4
.L_6:
        /*0024*/ 	.byte	0x04, 0x12
        /*0026*/ 	.short	(.L_8 - .L_7)
.L_7:
        /*0028*/ 	.word	index@(_Z1kPi)
        /*002c*/ 	.word	0x00000030
.L_8:

//--------------------- .nv.info._Z1kPi --------------------------
	.section	.nv.info._Z1kPi,"",@"SHT_CUDA_INFO"
        /*0000*/ 	.byte	0x01, 0x35
	.zero		2
        /*0004*/ 	.byte	0x04, 0x0a
        /*0008*/ 	.word	index@(.nv.constant0._Z1kPi)
        /*000c*/ 	.short	0x0160

//--------------------- .nv.constant0._Z1kPi --------------------------
	.section	.nv.constant0._Z1kPi,"a",@progbits
	.align	4
.nv.constant0._Z1kPi:
	.zero		360

//--------------------- .text._Z3devi --------------------------
	.section	.text._Z3devi,"ax",@progbits
	.sectioninfo	@"SHI_REGISTERS=12"
	.align	128
        .global         _Z3devi
        .type           _Z3devi,@function
        .size           _Z3devi,(.L_x_9 - _Z3devi)
_Z3devi:
.text._Z3devi:
        /*0000*/                   IADD3 R4, R4, 0x1, RZ ;
        /*0010*/                   RET.ABS.NODEC R20 0x0 ;
.L_x_9:

//--------------------- .text._Z1kPi --------------------------
	.section	.text._Z1kPi,"ax",@progbits
	.sectionflags	@"SHF_BARRIERS=1"
	.sectioninfo	@"SHI_REGISTERS=28"
	.align	128
        .global         _Z1kPi
        .type           _Z1kPi,@function
        .size           _Z1kPi,(.L_x_3 - _Z1kPi)
        .other          _Z1kPi,@"STO_CUDA_ENTRY STV_DEFAULT"
_Z1kPi:
.text._Z1kPi:
        /*0000*/                   IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;
        /*0010*/                   S2R R0, SR_TID.X ;
        /*0020*/                   ISETP.NE.AND P0, PT, R0, RZ, PT ;
        /*0030*/               @P0 BRA `(.L_x_0) ;
        /*0040*/                   MOV R6, 0x60 ;
        /*0050*/                   CALL.REL.NOINC `($_Z1kPi$sub) ;
.L_x_0:
        /*0060*/                   CALL.ABS.NOINC `(_Z3devi) ;
        /*0070*/                   EXIT ;
        .type           $_Z1kPi$sub,@function
        .size           $_Z1kPi$sub,(.L_x_3 - $_Z1kPi$sub)
$_Z1kPi$sub:
        /*0080*/                   MOV R2, RZ ;
        /*0090*/                   RET.REL.NODEC R6 `(_Z1kPi) ;
.L_x_1:
        /*00a0*/                   BRA `(.L_x_1);
        /*00b0*/                   NOP;
.L_x_3:

//--------------------- .nv.shared._Z1kPi --------------------------
	.section	.nv.shared._Z1kPi,"aw",@nobits
	.align	4
.nv.shared._Z1kPi:
	.zero		1024

//--------------------- .nv.global.init --------------------------
	.section	.nv.global.init,"aw",@progbits
	.align	8
        .type           ops,@object
        .size           ops,(.L_0 - ops)
ops:
.nv.global.init:
        /*0000*/ 	.dword	($_Z1kPi$sub)
.L_0:

//--------------------- SYMBOLS --------------------------
	.type		tex,@"STT_CUDA_TEXTURE"
"#;

    fn parse(text: &str, function: Option<&str>) -> crate::kernel::ParseOutput {
        super::super::parse(text, function, &Limits::default())
    }

    #[test]
    fn whole_dump_reads_code_sections_only() {
        let out = parse(DUMP, None);
        let errors: Vec<_> = out.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(out.functions, vec!["_Z3devi", "_Z1kPi"]);
        // The device function comes first; the default is the first kernel entry.
        let k = out.kernel.expect("kernel");
        assert_eq!(k.function, "_Z1kPi");
        assert_eq!(k.arch.as_deref(), Some("sm_86"));
        let addresses: Vec<u64> = k.instructions.iter().map(|i| i.address).collect();
        assert_eq!(
            addresses,
            vec![0, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x90, 0xa0, 0xb0]
        );
        // Labels: the symbol, the section, local labels and the subroutine.
        assert_eq!(k.labels.get("_Z1kPi"), Some(&0));
        assert_eq!(k.labels.get(".text._Z1kPi"), Some(&0));
        assert_eq!(k.labels.get(".L_x_0"), Some(&0x60));
        assert_eq!(k.labels.get("$_Z1kPi$sub"), Some(&0x80));
        assert_eq!(
            k.labels.get("ops"),
            None,
            "a data section's label is not code"
        );
        assert_eq!(k.instructions[3].control, ControlKind::Branch(Some(0x60)));
        assert_eq!(k.instructions[5].control, ControlKind::Call(Some(0x80)));
        // The device function in another section: an opaque call, as `CALL.ABS.NOINC 0x0`
        // in the `cuobjdump` listing of the same cubin, with the same warning.
        assert_eq!(k.instructions[6].control, ControlKind::Call(None));
        let warnings: Vec<_> = out
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .collect();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert_eq!(
            warnings[0].line,
            DUMP.lines()
                .position(|l| l.contains("/*0060*/"))
                .map_or(0, |i| i as u32 + 1)
        );
        assert!(warnings[0]
            .message
            .contains("`_Z3devi` is an unresolved relocation"));
        // No note either: every directive and data line is known.
        assert!(
            out.diagnostics.iter().all(|d| d.severity != Severity::Note),
            "{:?}",
            out.diagnostics
        );
    }

    #[test]
    fn resources_come_from_the_data_sections() {
        let k = parse(DUMP, None).kernel.expect("kernel");
        assert_eq!(
            k.resources,
            Some(FunctionResources {
                entry: true,
                // EIATTR_REGCOUNT (0x1e) wins over SHI_REGISTERS=28 (real dumps say the same
                // number twice; this one was edited to show which is read).
                registers: Some(30),
                shared_bytes: Some(1024),
                constant0_bytes: Some(360),
                stack_bytes: Some(48),
                max_stack_bytes: Some(16),
            })
        );
        // The device function: registers from its `.sectioninfo`, no entry, no shared memory
        // in a whole dump.
        let out = parse(DUMP, Some("_Z3devi"));
        let d = out.kernel.expect("device function");
        assert_eq!(d.instructions.len(), 2);
        assert_eq!(
            d.resources,
            Some(FunctionResources {
                entry: false,
                registers: Some(12),
                shared_bytes: Some(0),
                constant0_bytes: None,
                stack_bytes: None,
                max_stack_bytes: None,
            })
        );
    }

    #[test]
    fn text_without_sections_declares_nothing() {
        let out = parse("/*0000*/ MOV R1, R2 ;\n/*0010*/ EXIT ;\n", None);
        assert_eq!(out.kernel.expect("kernel").resources, None);
    }

    #[test]
    fn unknown_directive_in_code_is_a_located_note() {
        let text = ".section .text.k,\"ax\",@progbits\n  .frobnicate 3\n/*0000*/ EXIT ;\n";
        let out = parse(text, None);
        assert!(!out.has_errors(), "{:?}", out.diagnostics);
        let notes: Vec<_> = out
            .diagnostics
            .iter()
            .filter(|d| d.message.contains("`.frobnicate`"))
            .collect();
        assert_eq!(notes.len(), 1);
        assert_eq!(
            (
                notes[0].severity,
                notes[0].line,
                notes[0].column,
                notes[0].len
            ),
            (Severity::Note, 2, 3, 11)
        );
        // A data directive printed with an offset inside code is no instruction either.
        let text = ".section .text.k,\"ax\",@progbits\n/*0000*/ EXIT ;\n  /*0010*/ .word 0x1\n";
        let out = parse(text, None);
        assert!(!out.has_errors(), "{:?}", out.diagnostics);
        assert_eq!(out.kernel.expect("kernel").instructions.len(), 1);
    }

    #[test]
    fn data_sections_are_skipped_whatever_they_hold() {
        // Lines that would be errors in code (`.byte` as an opcode, a bad address, prose).
        let text = "\t.section .nv.info,\"\",@\"SHT_CUDA_INFO\"\n/*0000*/ .byte 0x04, 0x2f\n\
                    /*00g0*/ .word 0x1\nnot an instruction at all\n\
                    \t.section .text.k,\"ax\",@progbits\n/*0000*/ EXIT ;\n\
                    \t.section .nv.constant2.k,\"a\",@progbits\n/*0000*/ .word .L_x_1@srel\n";
        let out = parse(text, None);
        assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
        assert_eq!(out.functions, vec!["k"]);
        assert_eq!(out.kernel.expect("kernel").instructions.len(), 1);
    }

    #[test]
    fn section_attributes_are_not_sections() {
        // `.sectionflags` / `.sectioninfo` start with `.section`: they must not end the code.
        let mut s = Sections::new();
        assert_eq!(
            s.line(".section .text.k,\"ax\",@progbits"),
            Step::Function("k")
        );
        assert_eq!(s.line(".sectionflags @\"SHF_BARRIERS=1\""), Step::Skip);
        assert_eq!(s.line(".sectioninfo @\"SHI_REGISTERS=7\""), Step::Skip);
        assert_eq!(s.section, Section::Code("k".into()));
        assert_eq!(s.line("/*0000*/ EXIT ;"), Step::Pass);
        assert_eq!(s.line(".L_x_1:"), Step::Pass);
        assert_eq!(s.resources("k").and_then(|r| r.registers), Some(7));
    }

    #[test]
    fn headerflags_name_the_architecture() {
        let mut s = Sections::new();
        assert_eq!(
            s.line(r#".headerflags @"EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)""#),
            Step::Arch("sm_90".into())
        );
        assert_eq!(s.line(r#".headerflags @"EF_CUDA_SM""#), Step::Skip);
        let out = parse(DUMP, None);
        assert_eq!(out.kernel.and_then(|k| k.arch).as_deref(), Some("sm_86"));
    }

    #[test]
    fn malformed_records_and_sizes_are_ignored() {
        let mut s = Sections::new();
        s.line(".section .nv.info,\"\",@\"SHT_CUDA_INFO\"");
        // A value without a symbol, a symbol without an attribute, a value that is no number.
        for l in [
            "/*0000*/ .byte 0x04, 0x2f",
            "/*0004*/ .word 0x10",
            "/*0008*/ .word index@(k)",
            "/*000c*/ .byte 0x04, 0x2f",
            "/*0010*/ .word index@(k)",
            "/*0014*/ .word (.L_1 - .L_0)",
            "/*0018*/ .word 0x20",
        ] {
            assert_eq!(s.line(l), Step::Skip);
        }
        assert_eq!(s.resources("k").and_then(|r| r.registers), None);
        s.line(".section .nv.shared.k,\"aw\",@nobits");
        for l in [
            ".zero",
            ".zero x",
            ".zeros 4",
            ".zero 99999999999999999999",
            ".zero 8",
        ] {
            assert_eq!(s.line(l), Step::Skip);
        }
        assert_eq!(s.resources("k").and_then(|r| r.shared_bytes), Some(8));
    }

    /// A constant bank 0 as nvdisasm prints it for a kernel with two texture references
    /// (parameters up to 400 bytes, then one word per texture): 408 bytes, the `CONSTANT[0]`
    /// of `cuobjdump -res-usage`.
    #[test]
    fn constant_bank_size_counts_the_words_after_zero() {
        let mut s = Sections::new();
        for l in [
            ".section .nv.constant0.k,\"a\",@progbits",
            ".align 4",
            ".nv.constant0.k:",
            ".zero 400",
            ".align 4",
            "/*0190*/ .word [20@lo(0x0)=g_graph_node_ref]",
            ".align 4",
            "/*0194*/ .word [20@lo(0x0)=g_graph_edge_ref]",
            ".align 16",
        ] {
            assert_eq!(s.line(l), Step::Skip, "{l}");
        }
        assert_eq!(s.resources("k").and_then(|r| r.constant0_bytes), Some(408));
        // Without offsets the items follow each other: 3 + 2·2 + 8 bytes after 4.
        s.line(".section .nv.shared.k,\"aw\",@nobits");
        for l in [
            ".zero 4",
            ".byte 1, 2, 3",
            ".short 1, 2",
            ".align 8",
            ".dword x",
        ] {
            s.line(l);
        }
        assert_eq!(s.resources("k").and_then(|r| r.shared_bytes), Some(24));
    }

    #[test]
    fn branch_targets_naming_the_section_start_are_not_used() {
        let text = "\t.section .text.k,\"ax\",@progbits\nk:\n.text.k:\n\
                    /*0000*/ MOV R2, RZ ;\n\
                    /*0010*/ BRX R2 -0x20 (*\"BRANCH_TARGETS .text.k\"*);\n\
                    .L_x_1:\n/*0020*/ EXIT ;\n\
                    /*0030*/ BRX R2 -0x40 (*\"BRANCH_TARGETS .L_x_1,k\"*);\n";
        let out = parse(text, None);
        let k = out.kernel.expect("kernel");
        assert!(k.instructions[1].indirect_targets.is_empty());
        // Another label at 0 (the symbol) is believed: only the section label is suspect.
        assert_eq!(k.instructions[3].indirect_targets, vec![0x20, 0]);
        let w: Vec<_> = out
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .collect();
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!(w[0].line, 5);
    }
}
