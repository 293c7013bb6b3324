//! PTX ISA 7.x–8.x constructs as nvcc 11–12 writes them, one hand-written snippet each, and
//! the strictness rules for misspellings. Data-driven: a snippet and the diagnostics it must
//! produce (severity, line, column, a piece of the message); an empty list means "parses
//! clean". Structural expectations (what the module holds) follow in their own tests.

use isa::ptx::{self, CallTarget, Callee, FunctionKind, InitValue, Linkage, OpClass};
use isa::{Limits, Severity};

/// A kernel whose body starts on line 10, with registers declared.
fn body(code: &str) -> String {
    format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 k_p)\n{{\n\
         .reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n.reg .f32 %f<8>;\n{code}\nL:\nret;\n}}\n"
    )
}

type Expect = &'static [(Severity, u32, u32, &'static str)];

const E: Severity = Severity::Error;
const W: Severity = Severity::Warning;

fn check(name: &str, text: &str, expect: Expect) {
    let out = ptx::parse(text, &Limits::default());
    let got: Vec<(Severity, u32, u32, &str)> = out
        .diagnostics
        .iter()
        .map(|d| (d.severity, d.line, d.column, d.message.as_str()))
        .collect();
    assert_eq!(
        got.len(),
        expect.len(),
        "{name}: expected {expect:#?}\ngot {got:#?}"
    );
    for (g, e) in got.iter().zip(expect.iter()) {
        assert!(
            g.0 == e.0 && g.1 == e.1 && g.2 == e.2 && g.3.contains(e.3),
            "{name}: expected {e:?}\ngot {g:?}"
        );
    }
}

/// Instructions of PTX ISA 8.x that must parse without any diagnostic.
#[test]
fn instructions_of_ptx_8_parse_clean() {
    let cases: &[(&str, &str)] = &[
        ("shfl.sync", "shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;"),
        ("shfl.sync idx", "shfl.sync.idx.b32 %r1, %r2, 0, 31, -1;"),
        ("vote.sync", "vote.sync.ballot.b32 %r1, %p1, -1;"),
        ("vote.sync any", "vote.sync.any.pred %p2, %p1, -1;"),
        ("match.sync", "match.any.sync.b32 %r1, %r2, -1;"),
        ("redux.sync", "redux.sync.add.u32 %r1, %r2, -1;"),
        ("bar.warp.sync", "bar.warp.sync -1;"),
        ("barrier.sync", "barrier.sync.aligned 0;"),
        ("bar.sync", "bar.sync 0;"),
        ("bar.red", "bar.red.popc.u32 %r1, 0, %p1;"),
        ("bar.arrive", "bar.arrive 1, 64;"),
        ("barrier.cluster", "barrier.cluster.arrive.release.aligned;"),
        ("activemask", "activemask.b32 %r1;"),
        ("elect.sync", "elect.sync %r1|%p1, -1;"),
        (
            "mma",
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f0};",
        ),
        (
            "wmma.load",
            "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1], 16;",
        ),
        ("ldmatrix", "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [%rd1];"),
        ("stmatrix", "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%rd1], {%r1, %r2, %r3, %r4};"),
        ("cp.async", "cp.async.ca.shared.global [%rd1], [%rd2], 16;"),
        ("cp.async.cg L2", "cp.async.cg.shared.global.L2::128B [%rd1], [%rd2], 16;"),
        ("cp.async.commit_group", "cp.async.commit_group;"),
        ("cp.async.wait_group", "cp.async.wait_group 0;"),
        (
            "cp.async.bulk.tensor",
            "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%rd1], [%rd2, {%r1, %r2}], [%rd3];",
        ),
        ("mbarrier.init", "mbarrier.init.shared.b64 [%rd1], %r1;"),
        ("mbarrier.try_wait", "mbarrier.try_wait.parity.shared::cta.b64 %p1, [%rd1], %r1;"),
        ("mbarrier.arrive", "mbarrier.arrive.shared.b64 %rd2, [%rd1];"),
        ("fence.proxy", "fence.proxy.async.shared::cta;"),
        ("fence.acq_rel", "fence.acq_rel.gpu;"),
        ("membar", "membar.gl;"),
        ("atom", "atom.global.add.u32 %r1, [%rd1], 1;"),
        ("atom.cas", "atom.shared.cas.b32 %r1, [%rd1], %r2, %r3;"),
        ("atom sem", "atom.release.gpu.global.inc.u32 %r1, [%rd1], 7;"),
        ("red", "red.global.add.u32 [%rd1], 1;"),
        ("prefetch", "prefetch.global.L2 [%rd1];"),
        ("isspacep", "isspacep.global %p1, %rd1;"),
        ("cvta", "cvta.to.global.u64 %rd2, %rd1;"),
        ("ld L1 hint", "ld.global.nc.L1::evict_last.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];"),
        ("ld.relaxed", "ld.relaxed.gpu.global.u32 %r1, [%rd1+-8];"),
        ("ld.volatile", "ld.volatile.shared.u32 %r1, [%rd1];"),
        ("st vector sink", "st.global.v2.u32 [%rd1+8], {%r1, %r2};"),
        ("mov vector sink", "mov.b64 {%r1, _}, %rd1;"),
        ("tex", "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [k_p, {%f5, %f6}];"),
        ("suld", "suld.b.2d.v4.b32.trap {%r1, %r2, %r3, %r4}, [k_p, {%r5, %r6}];"),
        ("sust", "sust.b.1d.b32.clamp [k_p, {%r1}], {%r2};"),
        ("nanosleep", "nanosleep.u32 100;"),
        ("griddepcontrol", "griddepcontrol.wait;"),
        ("setmaxnreg", "setmaxnreg.inc.sync.aligned.u32 240;"),
        ("st.async", "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%rd1], %r1, [%rd2];"),
        ("specials", "mov.u32 %r1, %laneid;\nmov.u32 %r2, %warpid;\nmov.u32 %r3, %lanemask_lt;\nmov.u64 %rd1, %clock64;\nmov.u64 %rd2, %globaltimer;\nmov.u32 %r4, %dynamic_smem_size;\nmov.u32 %r5, %envreg3;\nmov.u32 %r6, %nctaid.z;"),
        ("guards", "@%p1 bra L;\n@!%p1 bra.uni L;"),
        ("control", "@%p1 exit;\n@%p2 trap;\n@%p3 brkpt;\n@%p1 ret.uni;"),
        ("labels", "$L__BB0_1:\nadd.s32 %r1, %r1, 1;\n@%p1 bra $L__BB0_1;"),
        ("setp pair", "setp.lt.and.s32 %p1|%p2, %r1, %r2, %p3;"),
        ("cvt", "cvt.rn.satfinite.e4m3x2.f32 %r1, %f1, %f2;"),
        ("lop3", "lop3.b32 %r1, %r2, %r3, %r4, 0x96;"),
        ("prmt", "prmt.b32.f4e %r1, %r2, %r3, %r4;"),
        ("dp4a", "dp4a.u32.s32 %r1, %r2, %r3, %r4;"),
        ("pragma", ".pragma \"nounroll\";\nadd.s32 %r1, %r1, 1;"),
        ("loc", ".loc 1 23 4\nadd.s32 %r1, %r1, 1;"),
        ("scope", "{\n.reg .b32 %t;\nmov.u32 %t, 1;\n}"),
        ("WARP_SZ", "mov.u32 %r1, WARP_SZ;"),
    ];
    for (name, code) in cases {
        check(name, &body(code), &[]);
    }
}

/// Module-scope and header constructs that must parse clean.
#[test]
fn module_constructs_parse_clean() {
    let cases: &[(&str, &str)] = &[
        ("target debug", ".version 7.8\n.target sm_86, debug\n.address_size 64\n"),
        ("texmode", ".version 7.0\n.target sm_52, texmode_independent\n.address_size 32\n"),
        (
            "globals",
            ".global .align 4 .b8 x[16] = {3, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0};\n\
             .global .align 1 .b8 $str[4] = {104, 105, 10, 0};\n\
             .const .align 4 .f32 c[] = {1.0, 0f40000000, -2.5};\n\
             .global .s16 m[2][2] = {{1, -2}, {3, 4}};\n\
             .global .v2 .u32 v = {1, 2};\n\
             .global .u32 g = 7;\n\
             .global .align 8 .u64 p = generic(g)+4;\n\
             .visible .global .align 8 .u64 q = x;\n\
             .common .global .u32 cm;\n\
             .weak .global .u32 wk = 1;\n\
             .extern .global .u32 ex;\n\
             .extern .shared .align 16 .b8 dyn[];\n\
             .shared .u32 s1, s2[4];\n",
        ),
        (
            "extern func",
            ".extern .func (.param .b32 func_retval0) vprintf\n(\n.param .b64 vprintf_param_0,\n.param .b64 vprintf_param_1\n)\n;\n",
        ),
        (
            "func with return",
            ".func (.param .b32 func_retval0) f(\n.param .b32 f_param_0\n)\n.noreturn\n{\n.reg .b32 %r<2>;\nld.param.u32 %r1, [f_param_0];\nst.param.b32 [func_retval0+0], %r1;\nret;\n}\n",
        ),
        (
            "perf directives",
            ".visible .entry k()\n.maxntid 256, 1, 1\n.minnctapersm 2\n.maxnreg 32\n{\nret;\n}\n",
        ),
        (
            "reqntid",
            ".entry k()\n.reqntid 128\n.explicitcluster\n.reqnctapercluster 2, 1, 1\n{\nexit;\n}\n",
        ),
        (
            "debug sections",
            ".file 1 \"/tmp/a.cu\"\n.section .debug_abbrev\n{\n.b8 1\n.b8 17\n}\n.section .debug_info\n{\n.b32 99\n.b64 $L__func_begin0\n}\n@@DWARF .byte 0x1\n",
        ),
        ("module pragma", ".pragma \"nounroll\";\n"),
    ];
    for (name, text) in cases {
        check(name, text, &[]);
    }
}

/// Misspellings and undeclared names: each a located diagnostic; errors where a misreading
/// could change control flow, divergence, agreement or the accessed memory.
#[test]
fn strictness_rules() {
    let cases: &[(&str, &str, Expect)] = &[
        // `bra.uni` written `bar.uni`: `bar` exists, `.uni` is not one of its modifiers.
        (
            "bar.uni",
            "bar.uni L;",
            &[(E, 10, 1, "did you mean `bra.uni`?")],
        ),
        (
            "shfl.snyc",
            "shfl.snyc.down.b32 %r1, %r2, 1, 31, -1;",
            &[(E, 10, 1, "did you mean `.sync`?")],
        ),
        (
            "vote.syncc",
            "vote.syncc.any.pred %p1, %p2, -1;",
            &[(E, 10, 1, "`.syncc` is not a modifier of `vote`")],
        ),
        (
            "shlf",
            "shlf.sync.down.b32 %r1, %r2, 1, 31, -1;",
            &[(E, 10, 1, "did you mean `shfl`?")],
        ),
        (
            "brx typo",
            "brxx.idx %r1, L;",
            &[(E, 10, 1, "did you mean `brx.idx`?")],
        ),
        ("ret typo", "rett;", &[(E, 10, 1, "did you mean `ret`?")]),
        (
            "barrier typo",
            "barier.sync 0;",
            &[(E, 10, 1, "did you mean `barrier`?")],
        ),
        (
            "%tidx",
            "mov.u32 %r1, %tidx;",
            &[(
                E,
                10,
                14,
                "unknown special register `%tidx` (did you mean `%tid.x`?)",
            )],
        ),
        (
            "%tid.w",
            "mov.u32 %r1, %tid.w;",
            &[(E, 10, 14, "`%tid` has components .x, .y and .z, not `.w`")],
        ),
        (
            "%ctaid.q",
            "mov.u32 %r1, %ctaid.q;",
            &[(E, 10, 14, "not `.q`")],
        ),
        (
            "%laneidd",
            "mov.u32 %r1, %laneidd;",
            &[(E, 10, 14, "did you mean `%laneid`?")],
        ),
        (
            "%laneid.x",
            "mov.u32 %r1, %laneid.x;",
            &[(E, 10, 14, "`%laneid` has no components")],
        ),
        (
            "%ntid bare",
            "mov.u32 %r1, %ntid;",
            &[(E, 10, 14, "needs a component")],
        ),
        // A misspelt state space is an error: the space decides which memory is read.
        (
            "ld.globl",
            "ld.globl.u32 %r1, [%rd1];",
            &[(E, 10, 1, "did you mean `.global`?")],
        ),
        (
            "st.shraed",
            "st.shraed.u32 [%rd1], %r1;",
            &[(E, 10, 1, "state space")],
        ),
        // Other unknown modifiers are warnings: ignored, the rest of the instruction stands.
        (
            "add.rnn",
            "add.rnn.f32 %f1, %f2, %f3;",
            &[(W, 10, 1, "did you mean `.rn`?")],
        ),
        (
            "frobnicate",
            "frobnicate.u32 %r1, %r2;",
            &[(
                W,
                10,
                1,
                "read generically (first operand written, the rest read)",
            )],
        ),
        (
            "addd",
            "addd.s32 %r1, %r2, 1;",
            &[(W, 10, 1, "did you mean `add`?")],
        ),
        (
            "unknown writes pred",
            "frob.u32 %p1, %r2;",
            &[(E, 10, 1, "writes a predicate")],
        ),
        (
            "undeclared",
            "mov.u32 %r99, 1;",
            &[(E, 10, 9, "register `%r99` is not declared")],
        ),
        (
            "undeclared family",
            "mov.u32 %q1, 1;",
            &[(E, 10, 9, "`%q1` is not declared")],
        ),
        (
            "out of scope",
            "{\n.reg .b32 %t;\nmov.u32 %t, 1;\n}\nmov.u32 %t, 2;",
            &[(E, 14, 9, "`%t` is not declared")],
        ),
        (
            "guard not pred",
            "@%r1 bra L;",
            &[(E, 10, 2, "not a `.pred` register")],
        ),
        (
            "unknown label",
            "bra NOWHERE;",
            &[(E, 10, 5, "unknown label `NOWHERE`")],
        ),
        (
            "unknown symbol",
            "ld.param.u32 %r1, [nosuch];",
            &[(E, 10, 19, "`nosuch` is not declared")],
        ),
        (
            "unknown callee",
            "call.uni nothere, (k_p);",
            &[(E, 10, 10, "does not declare")],
        ),
        (
            "missing semicolon",
            "add.s32 %r1, %r2, 1\nadd.s32 %r1, %r2, 1;",
            &[(E, 10, 20, "missing `;` after `add.s32`")],
        ),
    ];
    for (name, code, expect) in cases {
        check(name, &body(code), expect);
    }
    let module_cases: &[(&str, &str, Expect)] = &[
        (
            "unknown directive",
            ".frob 1;\n",
            &[(E, 1, 1, "unknown module directive `.frob`")],
        ),
        (
            "address size",
            ".address_size 48\n",
            &[(E, 1, 1, "bad .address_size")],
        ),
        (
            "too many values",
            ".global .u8 b[2] = {1, 2, 3};\n",
            &[(E, 1, 18, "3 values for `b`, which holds 2")],
        ),
        (
            "bad initializer",
            ".global .u32 a = %r1;\n",
            &[(E, 1, 18, "expected a number, a symbol")],
        ),
        // Regression (found by the mutation property test): a `;` inside an unclosed `{`
        // used to loop until a token budget ran out, one diagnostic per round.
        (
            "unclosed initializer",
            ".global .b8 x[4] = {1, %r;\n.global .u32 y = 2;\n",
            &[
                (E, 1, 24, "expected a number"),
                (E, 1, 18, "not closed by `}`"),
            ],
        ),
        (
            "unclosed section",
            ".section .debug_info\n{\n.b8 1\n",
            &[(E, 1, 1, "not closed")],
        ),
        (
            "bad header directive",
            ".entry k()\n.maxthreads 4\n{\nret;\n}\n",
            &[(E, 2, 1, "unknown function directive `.maxthreads`")],
        ),
    ];
    for (name, text, expect) in module_cases {
        check(name, text, expect);
    }
}

#[test]
fn module_data_values_and_bytes() {
    let text = ".global .s16 m[2][2] = {{1, -2}, {3, 4}};\n\
                .const .align 4 .f32 c[] = {1.0, 0f40000000};\n\
                .global .v2 .u32 v = {1, 2};\n\
                .global .u32 g = 7;\n\
                .global .align 8 .u64 p = generic(g)+4;\n\
                .global .u8 z[4] = {9};\n\
                .common .global .u32 cm;\n";
    let out = ptx::parse(text, &Limits::default());
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    let m = &out.module;
    let bytes = |n: &str| {
        m.global(n)
            .and_then(|g| g.init.as_ref())
            .and_then(|i| i.bytes.clone())
    };
    assert_eq!(bytes("m"), Some(vec![1, 0, 0xfe, 0xff, 3, 0, 4, 0]));
    let c = m.global("c").expect("c");
    assert_eq!(c.dims, vec![Some(2)]);
    assert_eq!(
        bytes("c"),
        Some([1.0f32.to_le_bytes(), 2.0f32.to_le_bytes()].concat())
    );
    assert_eq!(
        m.global("v").map(|v| (v.vector, v.size_bytes())),
        Some((2, Some(8)))
    );
    assert_eq!(bytes("v"), Some(vec![1, 0, 0, 0, 2, 0, 0, 0]));
    assert_eq!(bytes("g"), Some(vec![7, 0, 0, 0]));
    // Missing values are zero (PTX ISA §5.4.4).
    assert_eq!(bytes("z"), Some(vec![9, 0, 0, 0]));
    let p = m.global("p").and_then(|g| g.init.as_ref()).expect("p");
    assert_eq!(p.bytes, None);
    assert_eq!(
        p.values,
        vec![InitValue::Address {
            symbol: "g".into(),
            offset: 4,
            generic: true
        }]
    );
    assert_eq!(m.global("cm").map(|g| g.linkage), Some(Linkage::Common));
}

#[test]
fn functions_headers_and_the_function_list() {
    let text = ".extern .func (.param .b32 func_retval0) vprintf\n(\n.param .b64 a,\n.param .b64 b\n)\n;\n\
                .func (.param .b32 r) helper(.param .b32 x) .noreturn;\n\
                .visible .entry k1()\n.maxntid 256, 1, 1\n.minnctapersm 2\n{\n.pragma \"nounroll\";\nret;\n}\n\
                .func (.param .b32 r) helper(.param .b32 x)\n.noreturn\n{\n.reg .b32 %r<2>;\nld.param.u32 %r1, [x];\nst.param.b32 [r+0], %r1;\nret;\n}\n\
                .entry k2()\n{\nexit;\n}\n";
    let out = ptx::parse(text, &Limits::default());
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    let m = &out.module;
    let list = m.function_list();
    let names: Vec<(&str, FunctionKind, bool, bool)> = list
        .iter()
        .map(|e| (e.name.as_str(), e.kind, e.defined, e.external))
        .collect();
    assert_eq!(
        names,
        vec![
            ("vprintf", FunctionKind::Func, false, true),
            ("helper", FunctionKind::Func, true, false),
            ("k1", FunctionKind::Entry, true, false),
            ("k2", FunctionKind::Entry, true, false),
        ]
    );
    assert_eq!(m.function_names(), vec!["helper", "k1", "k2"]);
    assert_eq!(list[0].linkage, Linkage::Extern);
    let vp = &m.functions[0];
    assert_eq!(
        (vp.returns.len(), vp.params.len(), vp.has_body),
        (1, 2, false)
    );
    let k1 = m.function(Some("k1")).expect("k1");
    let d: Vec<(&str, Vec<u64>)> = k1
        .directives
        .iter()
        .map(|d| (d.name.as_str(), d.values.clone()))
        .collect();
    assert_eq!(
        d,
        vec![
            ("maxntid", vec![256, 1, 1]),
            ("minnctapersm", vec![2]),
            ("pragma", vec![])
        ]
    );
    assert_eq!(k1.directives[2].text.as_deref(), Some("nounroll"));
    assert!(m.function(Some("helper")).expect("helper").is_noreturn());
    // The first entry is still the default kernel.
    assert_eq!(m.function(None).map(|f| f.name.as_str()), Some("k1"));
}

/// nvcc's callseq block: `.param` declarations in a nested scope, `call.uni` over several
/// lines with a return list; and an indirect call through a `.callprototype`.
#[test]
fn calls_over_several_lines_and_indirect_calls() {
    let text = ".extern .func (.param .b32 func_retval0) vprintf\n(\n.param .b64 vprintf_param_0,\n.param .b64 vprintf_param_1\n)\n;\n\
                .global .align 1 .b8 $str[3] = {104, 105, 0};\n\
                .visible .entry k()\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n\
                mov.u64 %rd1, $str;\ncvta.global.u64 %rd2, %rd1;\n\
                { // callseq 0, 0\n.reg .b32 temp_param_reg;\n.param .b64 param0;\nst.param.b64 [param0+0], %rd2;\n.param .b64 param1;\nst.param.b64 [param1+0], %rd1;\n.param .b32 retval0;\n\
                call.uni (retval0), \nvprintf, \n(\nparam0, \nparam1\n);\nld.param.b32 %r1, [retval0+0];\n} // callseq 0\n\
                { // callseq 1, 0\n.param .b32 param0;\nst.param.b32 [param0+0], %r1;\n.param .b32 retval0;\n\
                prototype_1 : .callprototype (.param .b32 _) _ (.param .b32 _);\n\
                call (retval0), \n%rd3, \n(\nparam0\n)\n, prototype_1;\nld.param.b32 %r2, [retval0+0];\n}\n\
                ret;\n}\n";
    let out = ptx::parse(text, &Limits::default());
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    let f = out.module.function(Some("k")).expect("k");
    let calls: Vec<_> = f
        .instructions
        .iter()
        .filter_map(|i| i.call.as_ref())
        .collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].callee_name(), Some("vprintf"));
    assert_eq!(calls[0].callee, Callee::External);
    assert!(calls[0].uni);
    assert_eq!((calls[0].returns.len(), calls[0].args.len()), (1, 2));
    match &calls[1].target {
        CallTarget::Indirect { register, via, .. } => {
            assert_eq!(
                (register.as_str(), via.as_deref()),
                ("%rd3", Some("prototype_1"))
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(calls[1].callee, Callee::Indirect);
    assert_eq!(f.prototypes.len(), 1);
    assert_eq!(
        (f.prototypes[0].returns.len(), f.prototypes[0].params.len()),
        (1, 1)
    );
    // The call is one instruction spanning from `call.uni` (line 21).
    let call_ins = f
        .instructions
        .iter()
        .find(|i| i.call.is_some())
        .expect("call");
    assert_eq!((call_ins.span.line, call_ins.span.column), (21, 1));
    assert_eq!(call_ins.class(), Some(OpClass::Control));
    assert!(call_ins.is_external_call());
}

#[test]
fn brx_idx_with_branch_targets() {
    let code = "ts: .branchtargets L, M;\nbrx.idx %r1, ts;\nM:\nadd.s32 %r1, %r1, 1;";
    let out = ptx::parse(&body(code), &Limits::default());
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    let f = out.module.function(None).expect("k");
    assert_eq!(
        f.target_lists.get("ts"),
        Some(&vec!["L".to_string(), "M".to_string()])
    );
    let bad = "ts: .branchtargets L, NOPE;\nbrx.idx %r1, ts;";
    check(
        "brx bad target",
        &body(bad),
        &[(E, 11, 14, "names unknown label `NOPE`")],
    );
}

#[test]
fn every_opcode_has_a_class_and_a_summary() {
    for o in ptx::isa_table::OPCODES {
        assert!(!o.summary.is_empty() && !o.section.is_empty(), "{}", o.name);
    }
    assert!(ptx::isa_table::OPCODES.len() > 150);
    let ins = |code: &str| {
        let out = ptx::parse(&body(code), &Limits::default());
        out.module.function(None).expect("k").instructions[0].clone()
    };
    assert_eq!(
        ins("shfl.sync.down.b32 %r1, %r2, 1, 31, -1;").class(),
        Some(OpClass::WarpCollective)
    );
    assert_eq!(
        ins("bar.warp.sync -1;").info().map(|o| o.name),
        Some("bar.warp.sync")
    );
    assert_eq!(
        ins("cp.async.ca.shared.global [%rd1], [%rd2], 16;").class(),
        Some(OpClass::Async)
    );
    assert_eq!(
        ins("ld.global.f32 %f1, [%rd1];").class(),
        Some(OpClass::Memory)
    );
    assert_eq!(ins("frobnicate %r1;").class(), None);
}
