//! Opcode documentation (`warpbound::opcode_docs`): every opcode of the shared corpus has a
//! line in its dialect's table, a few entries checked by hand, and the class each entry
//! shows equals the class the analysis gives the corpus's instructions of that opcode.

#[path = "common/corpus.rs"]
mod corpus;

use isa::Limits;
use std::collections::BTreeSet;
use warpbound::opcode_docs::{opcode_doc, opcode_table, opcode_tables, OpcodeDoc};
use warpbound::Dialect;

fn doc(dialect: Dialect, mnemonic: &str) -> OpcodeDoc {
    opcode_doc(dialect, mnemonic)
        .unwrap_or_else(|| panic!("{} `{mnemonic}` has no documentation", dialect.name()))
}

fn read(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).expect("readable corpus file")
}

/// Every instruction of every SASS corpus listing (every function of each file).
fn sass_instructions() -> Vec<(String, isa::Instruction)> {
    let dirs = corpus::sass_dirs();
    let mut out = Vec::new();
    let mut files = corpus::files(&dirs, "sass");
    files.extend(corpus::files(&["sass"], "cuasm"));
    for path in files {
        let text = read(&path);
        let functions = isa::sass::parse(&text, None, &Limits::default()).functions;
        for f in functions {
            let parsed = isa::sass::parse(&text, Some(&f), &Limits::default());
            for ins in parsed.kernel.into_iter().flat_map(|k| k.instructions) {
                out.push((corpus::name(&path), ins));
            }
        }
    }
    out
}

fn sass_mnemonic(ins: &isa::Instruction) -> String {
    std::iter::once(ins.opcode.name.as_str())
        .chain(ins.opcode.modifiers.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(".")
}

fn ptx_instructions() -> Vec<(String, isa::ptx::Instruction)> {
    let mut out = Vec::new();
    for path in corpus::files(&["ptx", "ptx-modern"], "ptx") {
        let parsed = isa::ptx::parse(&read(&path), &Limits::default());
        for f in parsed.module.functions {
            for ins in f.instructions {
                out.push((corpus::name(&path), ins));
            }
        }
    }
    out
}

fn gcn_instructions() -> Vec<(String, isa::gcn::GcnInstruction)> {
    let mut out = Vec::new();
    for path in corpus::files(&["gcn"], "s") {
        let parsed = isa::gcn::parse(&read(&path), &Limits::default());
        for f in parsed.functions {
            for ins in f.instructions {
                out.push((corpus::name(&path), ins));
            }
        }
    }
    out
}

fn simd_instructions() -> Vec<(String, isa::simd::Instruction)> {
    let mut out = Vec::new();
    for path in corpus::files(&["simd"], "sas") {
        let parsed = isa::simd::parse(&read(&path), &Limits::default());
        for ins in parsed.program.into_iter().flat_map(|p| p.instructions) {
            out.push((corpus::name(&path), ins));
        }
    }
    out
}

/// Asserts that `mnemonics` (file, mnemonic as written) all have an entry, and that there
/// were at least `at_least` of them (the corpus was read).
fn assert_covered(dialect: Dialect, mnemonics: &[(String, String)], at_least: usize) {
    assert!(
        mnemonics.len() >= at_least,
        "{}: only {} instructions read from the corpus",
        dialect.name(),
        mnemonics.len()
    );
    let missing: BTreeSet<String> = mnemonics
        .iter()
        .filter(|(_, m)| opcode_doc(dialect, m).is_none())
        .map(|(file, m)| format!("{m} ({file})"))
        .collect();
    assert!(
        missing.is_empty(),
        "{}: no documentation for {missing:?}",
        dialect.name()
    );
}

#[test]
fn every_sass_corpus_opcode_is_documented() {
    let m: Vec<_> = sass_instructions()
        .iter()
        .map(|(f, i)| (f.clone(), sass_mnemonic(i)))
        .collect();
    assert_covered(Dialect::Sass, &m, 10_000);
}

#[test]
fn every_ptx_corpus_opcode_is_documented() {
    let m: Vec<_> = ptx_instructions()
        .iter()
        .map(|(f, i)| (f.clone(), i.mnemonic()))
        .collect();
    assert_covered(Dialect::Ptx, &m, 2_000);
}

#[test]
fn every_gcn_corpus_opcode_is_documented() {
    let m: Vec<_> = gcn_instructions()
        .iter()
        .map(|(f, i)| (f.clone(), i.opcode.clone()))
        .collect();
    assert_covered(Dialect::Gcn, &m, 1_000);
}

#[test]
fn every_simd_corpus_opcode_is_documented() {
    let m: Vec<_> = simd_instructions()
        .iter()
        .map(|(f, i)| {
            let written = match &i.subop_text {
                Some(s) => format!("{}.{s}", i.mnemonic),
                None => i.mnemonic.clone(),
            };
            (f.clone(), written)
        })
        .collect();
    assert_covered(Dialect::Simd, &m, 500);
}

#[test]
fn hand_checked_entries() {
    let class = |d, m| doc(d, m).latency_class;
    assert_eq!(class(Dialect::Sass, "FFMA"), "alu");
    assert_eq!(class(Dialect::Sass, "FFMA.FTZ"), "alu");
    assert_eq!(class(Dialect::Sass, "LDG.E.64.SYS"), "global");
    assert_eq!(class(Dialect::Sass, "LDS.U.128"), "shared");
    assert_eq!(class(Dialect::Sass, "LDL"), "local");
    assert_eq!(class(Dialect::Sass, "LDC"), "constant");
    assert_eq!(class(Dialect::Sass, "MUFU.RSQ"), "sfu");
    assert_eq!(class(Dialect::Sass, "DFMA"), "dp");
    assert_eq!(class(Dialect::Sass, "TEX"), "texture");
    assert_eq!(class(Dialect::Sass, "BAR.SYNC"), "control");
    assert_eq!(class(Dialect::Sass, "BRA"), "control");
    assert_eq!(class(Dialect::Sass, "isetp.ge.and"), "alu");
    let warpsync = doc(Dialect::Sass, "WARPSYNC");
    assert_eq!(warpsync.latency_class, "alu");
    assert!(
        warpsync
            .depends_on
            .as_deref()
            .is_some_and(|d| d.starts_with(".ALL → control")),
        "{warpsync:?}"
    );
    assert!(doc(Dialect::Sass, "FFMA")
        .description
        .contains("fused multiply-add"));

    let ld = doc(Dialect::Ptx, "ld");
    assert_eq!(ld.latency_class, "global");
    let depends = ld.depends_on.unwrap_or_default();
    assert!(depends.contains(".shared → shared"), "{depends}");
    assert!(depends.contains(".param → constant"), "{depends}");
    assert_eq!(class(Dialect::Ptx, "sqrt.approx.f32"), "sfu");
    assert_eq!(class(Dialect::Ptx, "bar.sync"), "control");
    assert_eq!(
        doc(Dialect::Ptx, "bar.sync").also.as_deref(),
        Some("rr: barrier")
    );
    assert_eq!(class(Dialect::Ptx, "add.s32"), "alu");
    assert!(doc(Dialect::Ptx, "add")
        .depends_on
        .is_some_and(|d| d.contains(".f64 → dp")));
    assert_eq!(doc(Dialect::Ptx, "cp.async").depends_on, None);
    // Multi-word opcodes: the longest dotted prefix.
    assert!(opcode_table(Dialect::Ptx)
        .and_then(|t| t
            .find("cp.async.ca.shared.global")
            .map(|(k, _)| k.to_string()))
        .is_some_and(|k| k == "cp.async"));

    assert_eq!(class(Dialect::Gcn, "v_add_f32_e32"), "valu");
    assert_eq!(class(Dialect::Gcn, "v_fma_f64"), "valu_f64");
    assert_eq!(class(Dialect::Gcn, "s_load_dwordx2"), "scalar_memory");
    assert_eq!(class(Dialect::Gcn, "global_load_dword"), "vector_memory");
    assert_eq!(class(Dialect::Gcn, "ds_read_b32"), "lds");
    assert_eq!(class(Dialect::Gcn, "s_cbranch_execz"), "branch");
    assert_eq!(class(Dialect::Gcn, "s_waitcnt"), "waitcnt");

    assert_eq!(class(Dialect::Simd, "ldglin.vec2"), "dram access phase");
    assert_eq!(class(Dialect::Simd, "ldsplin"), "scratchpad access phase");
    assert_eq!(class(Dialect::Simd, "rcp"), "rcp units, vector");
    assert_eq!(class(Dialect::Simd, "sidiv"), "divider, scalar");
    assert_eq!(class(Dialect::Simd, "mad.neg"), "sp pipeline, vector");

    assert_eq!(class(Dialect::Lc, "L"), "load/store unit");
    assert_eq!(class(Dialect::Lc, "C"), "CUDA core");
    assert_eq!(opcode_doc(Dialect::Lc, "l"), None);

    assert_eq!(opcode_doc(Dialect::Sass, "FROB"), None);
    assert_eq!(opcode_doc(Dialect::PwsCsv, "x"), None);
}

#[test]
fn every_entry_has_a_short_line_and_a_class() {
    let tables = opcode_tables();
    assert_eq!(tables.len(), 5);
    for t in tables {
        assert!(!t.opcodes.is_empty(), "{}", t.dialect.name());
        for (name, d) in &t.opcodes {
            assert!(
                !d.description.is_empty() && d.description.chars().count() <= 140,
                "{name}: {}",
                d.description
            );
            assert!(!d.latency_class.is_empty(), "{name}");
        }
    }
}

/// The class an entry shows is the class the analysis gives the corpus's instructions of
/// that opcode, whenever the entry does not say it depends on modifiers.
#[test]
fn shown_class_is_the_analysis_class() {
    let mut checked = 0;
    for (file, ins) in sass_instructions() {
        let d = doc(Dialect::Sass, &sass_mnemonic(&ins));
        let analysis = cfg::TimingClass::of(&ins).name();
        // A guard that is never true turns a branch into a fallthrough; a call or branch
        // through a register is control either way.
        let never = ins.guard.as_ref().is_some_and(isa::Guard::is_never_true);
        if d.depends_on.is_none() && !never {
            assert_eq!(d.latency_class, analysis, "{file}: {}", ins.text);
            checked += 1;
        }
    }
    for (file, ins) in ptx_instructions() {
        let d = doc(Dialect::Ptx, &ins.mnemonic());
        if d.depends_on.is_none() {
            assert_eq!(
                d.latency_class,
                sim::timing_classes::ptx(&ins).name(),
                "{file}: {}",
                ins.mnemonic()
            );
            use roundrobin::code_segments::InstClass as C;
            let rr = match roundrobin::code_segments::class_of(&ins) {
                C::Arithmetic => "rr: arithmetic",
                C::Sfu => "rr: sfu",
                C::GlobalMemory => "rr: global memory",
                C::SharedMemory => "rr: shared memory",
                C::Barrier => "rr: barrier",
            };
            let rr = Some(rr.to_string());
            assert_eq!(d.also, rr, "{file}: {}", ins.mnemonic());
            checked += 1;
        }
    }
    for (file, ins) in gcn_instructions() {
        let d = doc(Dialect::Gcn, &ins.opcode);
        assert_eq!(d.latency_class, ins.unit.name(), "{file}: {}", ins.opcode);
        checked += 1;
    }
    assert!(checked > 10_000, "{checked}");
}

/// The instruction table's class column for PTX is the class the simulator charges (the one
/// the tooltips show), not "alu" for everything that is not a global or shared access: hand
/// values for each kind (double precision stays on the ALU column, as `DADD` does for SASS).
#[test]
fn the_ptx_instruction_table_shows_each_instructions_unit() {
    let src = ".version 7.0
.target sm_61
.address_size 64
.visible .entry k(.param .u64 p0)
{
  .reg .f32 %f<3>; .reg .f64 %fd<3>; .reg .b64 %rd<3>; .reg .b32 %r<5>;
  ld.param.u64 %rd1, [p0];
  sqrt.rn.f32 %f2, %f1;
  ld.shared.f32 %f1, [%rd1];
  ld.local.f32 %f1, [%rd1];
  ld.global.f32 %f1, [%rd1];
  tex.2d.v4.u32.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%f1, %f1}];
  add.f64 %fd1, %fd2, %fd2;
  bar.sync 0;
  ret;
}
";
    let mut req = warpbound::Request::new(src, Dialect::Ptx);
    req.mode = Some("thread-cfg".into());
    let r = warpbound::analyze(&req);
    let classes: Vec<String> = r
        .kernel
        .as_ref()
        .map(|k| {
            k.instructions
                .iter()
                .map(|i| format!("{:?}", i.class))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(
        classes,
        [
            "Constant",
            "Sfu",
            "LoadStoreShared",
            "LoadStoreLocal",
            "LoadStoreGlobal",
            "Texture",
            "Alu",
            "Control",
            "Control"
        ]
    );
}
