//! Whole `nvdisasm` dumps read as the `cuobjdump -sass` listings of the same cubins.
//!
//! `tests/kernels/dump/<arch>/<name>.nvdisasm` and `tests/kernels/sass/<arch>/<name>.sass` are
//! the unmodified outputs of the two tools on one cubin (`scripts/build-test-kernels.sh`,
//! CUDA 11.8). For each of the 14 course kernels on 5 architectures the dump must give the
//! listing's function, its instructions one by one (address, opcode, operands, guard, what
//! they read and write, control flow with resolved targets), the listing's `warp-cfg` bound
//! under the default parameters and under the architecture's latency preset, and the
//! per-function numbers `cuobjdump -res-usage` printed for the cubin. Only committed files
//! are read: no CUDA toolkit is needed.

#[path = "common/corpus.rs"]
mod corpus;

use corpus::ARCHS;
use isa::{ControlKind, Dialect, FunctionResources, Kernel, Limits};
use std::collections::BTreeMap;
use warpbound::{analyze, Request};

const KERNELS: [&str; 16] = [
    "assert_loop",
    "collatz_capped",
    "atomic_loop",
    "data_if_else",
    "fdiv_sqrt",
    "func_pointer",
    "grid_stride_divmod",
    "nested_divergent",
    "noinline_call",
    "printf_divergent",
    "surface_rw",
    "switch_stmt",
    "tex1d_fetch",
    "tex_fetch",
    "warp_reduce",
    "while_break",
];

/// `cuobjdump -res-usage <name>.cubin` (CUDA 11.8, V11.8.86) run on the cubins of
/// `scripts/build-test-kernels.sh` (`nvcc -ccbin clang-14 -cubin -O3 -arch=<arch>`, nvcc
/// V11.8.89), one line per kernel: `REG`, `SHARED`, `CONSTANT[0]`, `STACK`. Every kernel has
/// `SHARED:0` (none declares `__shared__` memory); `fdiv_sqrt`, `noinline_call` (sm_61) and
/// `switch_stmt` also print a `CONSTANT[2]`, not recorded.
const RES_USAGE: &[(&str, &str, u32, u64, u64, u64)] = &[
    ("sm_61", "assert_loop", 26, 0, 340, 0),
    ("sm_61", "collatz_capped", 9, 0, 336, 0),
    ("sm_61", "atomic_loop", 11, 0, 344, 0),
    ("sm_61", "data_if_else", 6, 0, 348, 0),
    ("sm_61", "fdiv_sqrt", 12, 0, 348, 0),
    ("sm_61", "func_pointer", 17, 0, 348, 0),
    ("sm_61", "grid_stride_divmod", 13, 0, 344, 0),
    ("sm_61", "nested_divergent", 29, 0, 340, 0),
    ("sm_61", "noinline_call", 7, 0, 340, 0),
    ("sm_61", "printf_divergent", 18, 0, 336, 16),
    ("sm_61", "surface_rw", 8, 0, 332, 0),
    ("sm_61", "switch_stmt", 8, 0, 348, 0),
    ("sm_61", "tex1d_fetch", 12, 0, 352, 0),
    ("sm_61", "tex_fetch", 9, 0, 340, 0),
    ("sm_61", "warp_reduce", 10, 0, 344, 0),
    ("sm_61", "while_break", 5, 0, 340, 0),
    ("sm_70", "assert_loop", 30, 0, 372, 0),
    ("sm_70", "collatz_capped", 10, 0, 368, 0),
    ("sm_70", "atomic_loop", 13, 0, 376, 0),
    ("sm_70", "data_if_else", 8, 0, 380, 0),
    ("sm_70", "fdiv_sqrt", 14, 0, 380, 0),
    ("sm_70", "func_pointer", 24, 0, 380, 0),
    ("sm_70", "grid_stride_divmod", 17, 0, 376, 0),
    ("sm_70", "nested_divergent", 30, 0, 372, 0),
    ("sm_70", "noinline_call", 10, 0, 372, 0),
    ("sm_70", "printf_divergent", 24, 0, 368, 16),
    ("sm_70", "surface_rw", 10, 0, 364, 0),
    ("sm_70", "switch_stmt", 12, 0, 380, 0),
    ("sm_70", "tex1d_fetch", 14, 0, 384, 0),
    ("sm_70", "tex_fetch", 11, 0, 372, 0),
    ("sm_70", "warp_reduce", 14, 0, 376, 0),
    ("sm_70", "while_break", 8, 0, 372, 0),
    ("sm_75", "assert_loop", 30, 0, 372, 0),
    ("sm_75", "collatz_capped", 10, 0, 368, 0),
    ("sm_75", "atomic_loop", 12, 0, 376, 0),
    ("sm_75", "data_if_else", 8, 0, 380, 0),
    ("sm_75", "fdiv_sqrt", 14, 0, 380, 0),
    ("sm_75", "func_pointer", 24, 0, 380, 0),
    ("sm_75", "grid_stride_divmod", 16, 0, 376, 0),
    ("sm_75", "nested_divergent", 43, 0, 372, 0),
    ("sm_75", "noinline_call", 10, 0, 372, 0),
    ("sm_75", "printf_divergent", 24, 0, 368, 16),
    ("sm_75", "surface_rw", 10, 0, 364, 0),
    ("sm_75", "switch_stmt", 12, 0, 380, 0),
    ("sm_75", "tex1d_fetch", 14, 0, 384, 0),
    ("sm_75", "tex_fetch", 11, 0, 372, 0),
    ("sm_75", "warp_reduce", 14, 0, 376, 0),
    ("sm_75", "while_break", 8, 0, 372, 0),
    ("sm_86", "assert_loop", 30, 0, 372, 0),
    ("sm_86", "collatz_capped", 10, 0, 368, 0),
    ("sm_86", "atomic_loop", 12, 0, 376, 0),
    ("sm_86", "data_if_else", 8, 0, 380, 0),
    ("sm_86", "fdiv_sqrt", 16, 0, 380, 0),
    ("sm_86", "func_pointer", 24, 0, 380, 0),
    ("sm_86", "grid_stride_divmod", 16, 0, 376, 0),
    ("sm_86", "nested_divergent", 38, 0, 372, 0),
    ("sm_86", "noinline_call", 10, 0, 372, 0),
    ("sm_86", "printf_divergent", 24, 0, 368, 16),
    ("sm_86", "surface_rw", 10, 0, 364, 0),
    ("sm_86", "switch_stmt", 12, 0, 380, 0),
    ("sm_86", "tex1d_fetch", 14, 0, 384, 0),
    ("sm_86", "tex_fetch", 10, 0, 372, 0),
    ("sm_86", "warp_reduce", 14, 0, 376, 0),
    ("sm_86", "while_break", 8, 0, 372, 0),
    ("sm_90", "assert_loop", 30, 0, 548, 0),
    ("sm_90", "collatz_capped", 10, 0, 544, 0),
    ("sm_90", "atomic_loop", 14, 0, 552, 0),
    ("sm_90", "data_if_else", 10, 0, 556, 0),
    ("sm_90", "fdiv_sqrt", 16, 0, 556, 0),
    ("sm_90", "func_pointer", 24, 0, 556, 0),
    ("sm_90", "grid_stride_divmod", 17, 0, 552, 0),
    ("sm_90", "nested_divergent", 31, 0, 548, 0),
    ("sm_90", "noinline_call", 10, 0, 548, 0),
    ("sm_90", "printf_divergent", 24, 0, 544, 16),
    ("sm_90", "surface_rw", 10, 0, 540, 0),
    ("sm_90", "switch_stmt", 12, 0, 556, 0),
    ("sm_90", "tex1d_fetch", 16, 0, 560, 0),
    ("sm_90", "tex_fetch", 10, 0, 548, 0),
    ("sm_90", "warp_reduce", 12, 0, 552, 0),
    ("sm_90", "while_break", 10, 0, 548, 0),
];

/// The jump tables of `switch_stmt`, read by hand from the dump's `.nv.constant2.NAME`
/// section (`.byte` lines, little-endian words): each `BRX R2 -(A+0x10)` at A jumps to the
/// word that `LDC R2, c[0x2][R4+0xc]` (four words from 0xc) or `LDC R2, c[0x2][R4]` (three
/// words from 0) loaded. On sm_86 they are exactly the targets nvdisasm annotates
/// (`BRANCH_TARGETS .L_x_7,…`), which checks the reading; on sm_90 nvdisasm names only the
/// section start, which the parser rejects, so the bound of both texts needs these.
const JUMP_TABLES: &[(&str, u64, &[u64])] = &[
    ("sm_86", 0x150, &[0x180, 0x1a0, 0x160, 0x310]),
    ("sm_86", 0x230, &[0x260, 0x240, 0x310]),
    ("sm_90", 0x180, &[0x1b0, 0x1d0, 0x190, 0x340]),
    ("sm_90", 0x260, &[0x290, 0x270, 0x340]),
];

fn read(kind: &str, arch: &str, name: &str, ext: &str) -> String {
    let path = format!(
        "{}/../../tests/kernels/{kind}/{arch}/{name}.{ext}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn parse(text: &str) -> (Kernel, Vec<String>, Vec<isa::Diagnostic>) {
    let out = isa::sass::parse(text, None, &Limits::default());
    let kernel = out
        .kernel
        .unwrap_or_else(|| panic!("{:?}", out.diagnostics));
    (kernel, out.functions, out.diagnostics)
}

/// How a word of a dump operand stands for the listing's word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Match {
    /// The same text.
    Same,
    /// nvdisasm's label (`` `(.L_x_3) ``, `` `(_Z1kPi) `` after `RET.REL.NODEC R4`) where
    /// cuobjdump prints the address it labels (or, on Pascal, the control word before it).
    Label,
    /// nvdisasm's relocation (`32@lo($str)`, or a call's `` `(vprintf) `` that labels nothing
    /// in the function) where cuobjdump prints the cubin's unrelocated 0x0.
    Relocation,
}

fn word_match(d: &str, l: &str, labels: &BTreeMap<String, u64>) -> Option<Match> {
    if d == l {
        return Some(Match::Same);
    }
    let address = isa::number::parse_uint(l);
    if let Some(name) = d.strip_prefix("`(").and_then(|r| r.strip_suffix(')')) {
        // On Maxwell/Pascal cuobjdump may name the group's control word (0x120) where
        // nvdisasm labels the instruction after it (0x128): the same target.
        let control_word = |a: u64| a % 0x20 == 8 && address == Some(a - 8);
        return match labels.get(name) {
            Some(&a) => (address == Some(a) || control_word(a)).then_some(Match::Label),
            None => (address == Some(0)).then_some(Match::Relocation),
        };
    }
    let relocation = d.split_once('@').is_some_and(|(bits, rest)| {
        bits.chars().all(|c| c.is_ascii_digit())
            && (rest.starts_with("lo(") || rest.starts_with("hi("))
    });
    (relocation && address == Some(0)).then_some(Match::Relocation)
}

/// Compares the dump's kernel with the listing's instruction by instruction; counts how the
/// operand words matched.
fn compare(what: &str, dump: &Kernel, listing: &Kernel, counts: &mut BTreeMap<Match, usize>) {
    assert_eq!(
        dump.instructions.len(),
        listing.instructions.len(),
        "{what}: instruction count"
    );
    for (d, l) in dump.instructions.iter().zip(&listing.instructions) {
        let at = format!("{what} {:#06x} `{}` / `{}`", l.address, d.text, l.text);
        assert_eq!(d.address, l.address, "{at}: address");
        assert_eq!(d.opcode.name, l.opcode.name, "{at}: opcode");
        assert_eq!(d.opcode.modifiers, l.opcode.modifiers, "{at}: modifiers");
        let guard = |i: &isa::Instruction| i.guard.as_ref().map(|g| (g.reg.clone(), g.negated));
        assert_eq!(guard(d), guard(l), "{at}: guard");
        assert_eq!(d.operands.len(), l.operands.len(), "{at}: operand count");
        for (od, ol) in d.operands.iter().zip(&l.operands) {
            // A relocation may hold blanks: `32@lo((_Z1kPi + .L_x_0@srel))`.
            if let Some(m) = word_match(&od.text, &ol.text, &dump.labels) {
                *counts.entry(m).or_default() += 1;
                continue;
            }
            let dw: Vec<&str> = od.text.split_whitespace().collect();
            let lw: Vec<&str> = ol.text.split_whitespace().collect();
            assert_eq!(dw.len(), lw.len(), "{at}: operand `{}`", od.text);
            for (a, b) in dw.iter().zip(&lw) {
                let m = word_match(a, b, &dump.labels)
                    .unwrap_or_else(|| panic!("{at}: operand word `{a}` is not `{b}`"));
                *counts.entry(m).or_default() += 1;
            }
        }
        assert_eq!(d.reads, l.reads, "{at}: reads");
        assert_eq!(d.writes, l.writes, "{at}: writes");
        assert_eq!(d.control, l.control, "{at}: control");
        assert_eq!(d.class, l.class, "{at}: class");
        assert_eq!(d.dual_issued, l.dual_issued, "{at}: dual issue");
        assert_eq!(d.sync_flag, l.sync_flag, "{at}: sync flag");
    }
}

/// The `indirect_targets` parameter for the kernel's indirect branches and calls, the same
/// for both texts: the targets nvdisasm annotates, else the jump table read by hand, else
/// (a call through a function pointer) the kernel's address-taken device functions, the
/// `$NAME$callee` labels of the dump.
fn indirect_targets(arch: &str, dump: &Kernel) -> String {
    let mut entries = Vec::new();
    for ins in &dump.instructions {
        if ins.control != ControlKind::Indirect {
            continue;
        }
        let table = JUMP_TABLES
            .iter()
            .find(|(a, at, _)| *a == arch && *at == ins.address)
            .map(|(_, _, t)| t.to_vec());
        let targets = if !ins.indirect_targets.is_empty() {
            if let Some(t) = &table {
                assert_eq!(&ins.indirect_targets, t, "{arch} {:#x}", ins.address);
            }
            ins.indirect_targets.clone()
        } else if let Some(t) = table {
            t
        } else {
            let prefix = format!("${}$", dump.function);
            let callees: Vec<u64> = dump
                .labels
                .iter()
                .filter(|(n, _)| n.starts_with(&prefix))
                .map(|(_, a)| *a)
                .collect();
            assert!(
                !callees.is_empty(),
                "{arch} {:#x}: an indirect branch without targets",
                ins.address
            );
            callees
        };
        let list: Vec<String> = targets.iter().map(|t| format!("{t:#x}")).collect();
        entries.push(format!("{:#x}={}", ins.address, list.join("|")));
    }
    entries.join(";")
}

fn bound(src: &str, preset: Option<&str>, targets: &str) -> Result<u64, String> {
    let mut req = Request::new(src, Dialect::Sass);
    req.mode = Some("warp-cfg".into());
    req.timings = false;
    if let Some(p) = preset {
        req.preset = Some(p.into());
        req.params
            .insert("cost".into(), serde_json::json!("latency"));
    }
    if !targets.is_empty() {
        req.params
            .insert("indirect_targets".into(), serde_json::json!(targets));
    }
    let r = analyze(&req);
    match (&r.wcet, r.has_errors()) {
        (Some(w), false) => Ok(w.cycles),
        _ => Err(format!(
            "{:?}",
            r.diagnostics
                .iter()
                .filter(|d| d.is_error())
                .collect::<Vec<_>>()
        )),
    }
}

#[test]
fn every_dump_reads_as_its_listing() {
    let mut counts = BTreeMap::new();
    let mut with_targets = Vec::new();
    for (arch, _) in ARCHS {
        for name in KERNELS {
            let what = format!("{arch}/{name}");
            let (dump, dump_functions, dump_diags) = parse(&read("dump", arch, name, "nvdisasm"));
            let (listing, listing_functions, listing_diags) =
                parse(&read("sass", arch, name, "sass"));
            assert_eq!(dump_functions, listing_functions, "{what}");
            assert_eq!(dump.function, listing.function, "{what}");
            assert_eq!(dump.arch, listing.arch, "{what}");
            assert!(
                !dump_diags.iter().any(|d| d.is_error()),
                "{what}: {dump_diags:?}"
            );
            assert!(!listing_diags.iter().any(|d| d.is_error()), "{what}");
            // Every directive and data line of the dump is known: nothing to note.
            assert!(
                dump_diags.iter().all(|d| d.severity != isa::Severity::Note),
                "{what}: {dump_diags:?}"
            );
            // The same warnings (address gaps, calls of runtime functions), but for the sm_90
            // jump tables whose annotation is not believed.
            let warnings = |ds: &[isa::Diagnostic]| {
                ds.iter()
                    .filter(|d| d.severity == isa::Severity::Warning)
                    .filter(|d| !d.message.contains("start of the function"))
                    .map(|d| {
                        (
                            d.message.contains("unresolved relocation"),
                            d.message.contains("missing between"),
                        )
                    })
                    .collect::<Vec<_>>()
            };
            assert_eq!(warnings(&dump_diags), warnings(&listing_diags), "{what}");
            compare(&what, &dump, &listing, &mut counts);
            if dump
                .instructions
                .iter()
                .any(|i| i.control == ControlKind::Indirect)
            {
                with_targets.push(what);
            }
        }
    }
    // Every kind of difference occurs, and words agree far more often than not.
    assert!(counts[&Match::Label] > 500, "{counts:?}");
    assert!(counts[&Match::Relocation] > 50, "{counts:?}");
    assert!(
        counts[&Match::Same] > 10 * counts[&Match::Label],
        "{counts:?}"
    );
    // Only the jump tables and the function pointers branch indirectly.
    let expected: Vec<String> = ARCHS
        .iter()
        .flat_map(|(a, _)| [format!("{a}/func_pointer"), format!("{a}/switch_stmt")])
        .collect();
    assert_eq!(with_targets, expected);
}

#[test]
fn every_dump_has_the_listing_bound() {
    let mut rows = Vec::new();
    for (arch, preset) in ARCHS {
        for name in KERNELS {
            let what = format!("{arch}/{name}");
            let dump_text = read("dump", arch, name, "nvdisasm");
            let listing_text = read("sass", arch, name, "sass");
            let (dump, _, _) = parse(&dump_text);
            let targets = indirect_targets(arch, &dump);
            for preset in [None, Some(preset)] {
                let d = bound(&dump_text, preset, &targets);
                let l = bound(&listing_text, preset, &targets);
                let d = d.unwrap_or_else(|e| panic!("{what} {preset:?}: dump: {e}"));
                let l = l.unwrap_or_else(|e| panic!("{what} {preset:?}: listing: {e}"));
                assert_eq!(d, l, "{what} {preset:?} (indirect_targets `{targets}`)");
                rows.push((what.clone(), preset, d));
            }
        }
    }
    assert_eq!(rows.len(), 2 * ARCHS.len() * KERNELS.len());
    // Latencies cost more than unit cycles, kernel by kernel.
    for pair in rows.chunks(2) {
        assert!(pair[1].2 > pair[0].2, "{pair:?}");
    }
}

/// nvdisasm's annotation is what makes a dump's `switch` bounded without parameters: the
/// listing needs the targets given, and then has the same bound (sm_61 to sm_86; sm_90's
/// annotation names the function start and is not used, so its dump needs them too).
#[test]
fn annotated_jump_tables_bound_the_dump_alone() {
    for (arch, _) in ARCHS {
        let dump_text = read("dump", arch, "switch_stmt", "nvdisasm");
        let listing_text = read("sass", arch, "switch_stmt", "sass");
        let (dump, _, _) = parse(&dump_text);
        let targets = indirect_targets(arch, &dump);
        assert!(bound(&listing_text, None, "").is_err(), "{arch}");
        let alone = bound(&dump_text, None, "");
        if arch == "sm_90" {
            assert!(alone.is_err(), "{arch}: {alone:?}");
        } else {
            assert_eq!(alone, bound(&listing_text, None, &targets), "{arch}");
        }
    }
}

#[test]
fn every_dump_declares_the_resources_cuobjdump_reports() {
    assert_eq!(RES_USAGE.len(), ARCHS.len() * KERNELS.len());
    for &(arch, name, reg, shared, constant0, stack) in RES_USAGE {
        let text = read("dump", arch, name, "nvdisasm");
        let (kernel, _, _) = parse(&text);
        let r = kernel
            .resources
            .clone()
            .unwrap_or_else(|| panic!("{arch}/{name}: no resources"));
        let expect = FunctionResources {
            entry: true,
            registers: Some(reg),
            shared_bytes: Some(shared),
            constant0_bytes: Some(constant0),
            stack_bytes: Some(stack),
            max_stack_bytes: r.max_stack_bytes,
        };
        assert_eq!(r, expect, "{arch}/{name}");
        // The listing says none of it.
        let (listing, _, _) = parse(&read("sass", arch, name, "sass"));
        assert_eq!(listing.resources, None, "{arch}/{name}");
        // The instruction table of the report carries them as parsed.
        let mut req = Request::new(&text, Dialect::Sass);
        req.timings = false;
        let report = analyze(&req);
        let view = report.kernel.expect("kernel");
        assert_eq!(view.resources, Some((&r).into()), "{arch}/{name}");
        assert_eq!(view.function, kernel.function);
    }
}

/// `nvdisasm -hex -c` (tests/kernels/dump-hex): the code sections alone with their encodings,
/// which give every instruction the listing's control bits (sm_61: one control word per
/// three instructions; sm_86: the second word of each instruction). Without `.nv.info` the
/// dump declares only the register count of its `.sectioninfo`.
#[test]
fn hex_dumps_carry_the_listing_control_bits() {
    for arch in ["sm_61", "sm_86"] {
        for name in KERNELS {
            let what = format!("{arch}/{name} -hex");
            let (hex, _, diags) = parse(&read("dump-hex", arch, name, "nvdisasm"));
            let (listing, _, _) = parse(&read("sass", arch, name, "sass"));
            assert!(!diags.iter().any(|d| d.is_error()), "{what}: {diags:?}");
            compare(&what, &hex, &listing, &mut BTreeMap::new());
            for (h, l) in hex.instructions.iter().zip(&listing.instructions) {
                assert!(l.control_bits.is_some(), "{what} {:#x}", l.address);
                assert_eq!(h.control_bits, l.control_bits, "{what} {:#x}", l.address);
            }
            let reg = RES_USAGE
                .iter()
                .find(|r| r.0 == arch && r.1 == name)
                .map(|r| r.2);
            let declared = hex.resources.expect("resources");
            assert_eq!(
                (declared.entry, declared.registers, declared.shared_bytes),
                (true, reg, None),
                "{what}"
            );
        }
    }
}

/// A data relocation (`32@lo(flag)`, `32@hi(flag)`: the halves of a global variable's
/// address, as `nvdisasm` prints them) reads as the 0 the cubin holds until the driver
/// relocates it, which `cuobjdump -sass` prints (`0x0`): the same bound, and the same run
/// (open memory at address 0 in an automatic launch; the run stopped at the relocation
/// before). Unit cost: two `MOV`s, the load, the compare and the branch, then either the two
/// `IADD3`s and `EXIT` or `EXIT` alone: 8 cycles at most; the seeded word at 0 is not 0, so
/// the run branches: 6.
#[test]
fn data_relocations_read_as_the_listing_does() {
    let dumped = "code for sm_70
/*0000*/ MOV R4, 32@lo(flag) ;
/*0010*/ MOV R5, 32@hi(flag) ;
/*0020*/ LDG.E.SYS R0, [R4] ;
/*0030*/ ISETP.NE.AND P0, PT, R0, RZ, PT ;
/*0040*/ @P0 BRA 0x70 ;
/*0050*/ IADD3 R1, R1, 0x1, RZ ;
/*0060*/ IADD3 R1, R1, 0x1, RZ ;
/*0070*/ EXIT ;
";
    let listed = dumped
        .replace("32@lo(flag)", "0x0")
        .replace("32@hi(flag)", "0x0");
    let run = |src: &str| {
        let mut req = Request::new(src, Dialect::Sass);
        req.mode = Some("warp-cfg".into());
        req.params
            .insert("simulate".into(), serde_json::json!(true));
        let r = analyze(&req);
        assert!(!r.has_errors(), "{:?}", r.diagnostics);
        let sim = r.simulation.as_ref().expect("run");
        (r.wcet.as_ref().map(|w| w.cycles), sim.run.cycles, sim.holds)
    };
    assert_eq!(run(dumped), (Some(8), 6, Some(true)));
    assert_eq!(run(&listed), run(dumped));
}
