//! PTX beyond a kernel's parameters (issue #37 item 2): module variables (`.global`,
//! `.const`, module-scope `.shared`, `.texref`), the local depot, bit fields, atomics and
//! directed rounding — small hand-written kernels whose every stored value is worked out by
//! hand in the test.

use isa::Limits;
use sim::{ArrayInit, Budget, Fill, Launch, MemoryInit, Simulation};

fn machine() -> sim::Machine {
    sim::presets()
        .into_iter()
        .find(|p| p.name == "gpgpusim-like")
        .map(|p| p.machine)
        .expect("preset")
}

/// Runs the first kernel of `src` with its module's variables: one block of `threads`,
/// the parameter words `params`, the arrays `arrays` (closed memory unless `open`).
fn run(
    src: &str,
    threads: u32,
    params: Vec<u32>,
    arrays: Vec<ArrayInit>,
    open: bool,
    launch: impl FnOnce(&mut Launch),
) -> Result<Simulation, sim::SimError> {
    let parsed = isa::ptx::parse(src, &Limits::default());
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let m = &parsed.module;
    let f = m.function(None).expect("kernel");
    let mut l = Launch {
        block: [threads, 1, 1],
        params,
        ..Launch::default()
    };
    launch(&mut l);
    let memory = MemoryInit {
        arrays,
        open: open.then_some(sim::memory::OpenMemory { seed: 1, below: 64 }),
    };
    sim::run_ptx_in_module(
        m,
        f,
        &l,
        &machine(),
        &memory,
        &Budget::default(),
        &isa::progress::silent,
    )
}

fn out_array(words: u32) -> ArrayInit {
    ArrayInit {
        name: "out".into(),
        address: 0x10_0000,
        words,
        fill: Fill::Constant { value: 0 },
    }
}

/// The `out` pointer parameter: 0x100000 as two words.
fn out_param() -> Vec<u32> {
    vec![0x10_0000, 0]
}

fn words(s: &Simulation, name: &str) -> Vec<u32> {
    s.memory
        .iter()
        .find(|a| a.name == name)
        .map(|a| a.words.clone())
        .expect("array")
}

const HEADER: &str = ".version 7.0\n.target sm_61\n.address_size 64\n";

/// `.const` with an initializer reads its bytes; a `.global` without one reads zero in
/// closed memory (PTX's default) and the open memory's word at its address otherwise; a
/// kernel's stores to a `.global` variable stay in it.
#[test]
fn module_constants_and_globals() {
    let src = format!(
        "{HEADER}
.const .align 4 .b8 table[16] = {{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0}};
.global .align 4 .u32 counter;
.global .align 4 .u32 seen;
.visible .entry k(.param .u64 out)
{{
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 3;
    mul.wide.u32 %rd2, %r2, 4;
    mov.u64 %rd3, table;
    add.s64 %rd4, %rd3, %rd2;
    ld.const.u32 %r3, [%rd4];
    ld.const.u32 %r4, [table+8];
    add.s32 %r5, %r3, %r4;
    mul.wide.u32 %rd5, %r1, 4;
    add.s64 %rd6, %rd1, %rd5;
    st.global.u32 [%rd6], %r5;
    ld.global.u32 %r6, [counter];
    st.global.u32 [%rd1+128], %r6;
    st.global.u32 [seen], 77;
    ret;
}}"
    );
    let s = run(&src, 32, out_param(), vec![out_array(64)], false, |_| {}).expect("runs");
    let out = words(&s, "out");
    // Lane t: table[t % 4] + table[2] = (t % 4 + 1) + 3.
    for (t, &v) in out.iter().take(32).enumerate() {
        assert_eq!(v, (t as u32 % 4) + 1 + 3, "lane {t}");
    }
    assert_eq!(
        out[32], 0,
        "an uninitialised .global reads zero in closed memory"
    );
    assert_eq!(words(&s, "seen"), vec![77]);
    // counter is the second variable named: 0x40000100 (256-byte aligned after table).
    let open = run(&src, 32, out_param(), vec![out_array(64)], true, |_| {}).expect("runs");
    let expected = sim::memory::OpenMemory { seed: 1, below: 64 }.word(0x4000_0100);
    assert_eq!(words(&open, "out")[32], expected, "open memory's word");
    assert_eq!(words(&open, "counter"), vec![expected]);
}

/// A module-scope `extern .shared` array gets the launch's `shared_bytes` after the
/// function's own shared variables; a 32-bit shared offset that wraps (`[%r + -4]` with
/// %r = 0) reaches the top word, as the GPU's 32-bit shared addressing does — here the
/// wrap is checked against the error it gives past the block.
#[test]
fn module_shared_arrays() {
    let src = format!(
        "{HEADER}
.extern .shared .align 4 .b8 dyn[];
.visible .entry k(.param .u64 out)
{{
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    .shared .align 4 .b8 mine[8];
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, dyn;
    shl.b32 %r3, %r1, 2;
    add.s32 %r4, %r2, %r3;
    add.s32 %r5, %r1, 100;
    st.shared.u32 [%r4], %r5;
    bar.sync 0;
    xor.b32 %r6, %r3, 124;
    add.s32 %r7, %r2, %r6;
    ld.shared.u32 %r5, [%r7];
    mov.u32 %r6, mine;
    st.shared.u32 [%r6+4], %r2;
    ld.shared.u32 %r6, [%r6+4];
    add.s32 %r5, %r5, %r6;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r5;
    ret;
}}"
    );
    let s = run(&src, 32, out_param(), vec![out_array(32)], false, |l| {
        l.shared_bytes = 128
    })
    .expect("runs");
    // dyn follows mine (8 bytes): dyn = 8. Lane t reads lane 31 - t's value (t ^ 31):
    // 100 + 31 - t, plus dyn's address 8 stored in mine[1].
    let out = words(&s, "out");
    for t in 0..32u32 {
        assert_eq!(out[t as usize], 100 + 31 - t + 8, "lane {t}");
    }
    // With 64 dynamic bytes the block has 72: lane 16's store at 8 + 64 is past it.
    let e = run(&src, 32, out_param(), vec![out_array(32)], false, |l| {
        l.shared_bytes = 64
    })
    .expect_err("past the block");
    assert!(e.to_string().contains("beyond the block's 72 bytes"), "{e}");
    // A 32-bit offset wraps: 0 + -4 is 0xfffffffc, past the block (not 2^64 − 4).
    let wrap = format!(
        "{HEADER}
.visible .entry k()
{{
    .reg .b32 %r<4>;
    .shared .align 4 .b8 s[16];
    mov.u32 %r1, 0;
    ld.shared.u32 %r2, [%r1+-4];
    ret;
}}"
    );
    let e = run(&wrap, 32, vec![], vec![], false, |_| {}).expect_err("wraps");
    assert!(e.to_string().contains("0xfffffffc"), "{e}");
}

/// The local depot: each thread's own window, through `.local` addresses and through the
/// generic addresses `cvta.local` makes.
#[test]
fn local_depot_is_per_thread() {
    let src = format!(
        "{HEADER}
.visible .entry k(.param .u64 out)
{{
    .local .align 4 .b8 __local_depot0[16];
    .reg .b64 %SP;
    .reg .b64 %SPL;
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    mov.u64 %SPL, __local_depot0;
    cvta.local.u64 %SP, %SPL;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    add.u64 %rd2, %SPL, 0;
    st.local.u32 [%rd2], %r1;
    mul.lo.s32 %r2, %r1, 3;
    add.u64 %rd3, %SP, 12;
    st.u32 [%rd3], %r2;
    ld.local.u32 %r3, [%rd2+12];
    ld.u32 %r4, [%SP+0];
    add.s32 %r5, %r3, %r4;
    cvta.to.local.u64 %rd4, %rd3;
    ld.local.u32 %r6, [%rd4];
    add.s32 %r5, %r5, %r6;
    mul.wide.u32 %rd5, %r1, 4;
    add.s64 %rd6, %rd1, %rd5;
    st.global.u32 [%rd6], %r5;
    ret;
}}"
    );
    let s = run(&src, 32, out_param(), vec![out_array(32)], false, |_| {}).expect("runs");
    // Lane t: 3t (generic store read locally) + t (local store read generically) + 3t.
    let out = words(&s, "out");
    for t in 0..32u32 {
        assert_eq!(out[t as usize], 7 * t, "lane {t}");
    }
    // The local accesses are recorded as local transactions.
    assert!(s.transactions.iter().any(|t| t.space == "local"));
}

/// `bfe`, `bfi`, `clz`, `popc`, `brev`, `rsqrt` on per-lane values worked by hand.
#[test]
fn bit_fields_and_counts() {
    let src = format!(
        "{HEADER}
.visible .entry k(.param .u64 out)
{{
    .reg .b32 %r<12>;
    .reg .b64 %rd<8>;
    .reg .f32 %f<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    shl.b32 %r2, %r1, 4;
    or.b32 %r2, %r2, -2147483648;
    bfe.u32 %r3, %r2, 4, 5;
    bfe.s32 %r4, %r2, 28, 8;
    bfi.b32 %r5, %r1, 0, 8, 4;
    clz.b32 %r6, %r1;
    popc.b32 %r7, %r2;
    brev.b32 %r8, %r1;
    cvt.rn.f32.u32 %f1, %r1;
    add.f32 %f1, %f1, 1.0;
    mul.f32 %f1, %f1, %f1;
    rsqrt.approx.f32 %f2, %f1;
    mov.b32 %r9, %f2;
    mul.wide.u32 %rd2, %r1, 32;
    add.s64 %rd3, %rd1, %rd2;
    st.global.v4.u32 [%rd3], {{%r3, %r4, %r5, %r6}};
    st.global.v4.u32 [%rd3+16], {{%r7, %r8, %r9, %r9}};
    ret;
}}"
    );
    let s = run(&src, 32, out_param(), vec![out_array(256)], false, |_| {}).expect("runs");
    let out = words(&s, "out");
    for t in 0..32u32 {
        let row = &out[8 * t as usize..8 * t as usize + 8];
        // a = 0x80000000 | t << 4: bits 4..9 hold t (5 bits), bits 28..31 hold 1000.
        assert_eq!(row[0], t, "bfe.u32 lane {t}");
        assert_eq!(row[1], 0xffff_fff8, "bfe.s32 sign-extends bit 31, lane {t}");
        assert_eq!(row[2], (t & 0xf) << 8, "bfi lane {t}");
        assert_eq!(row[3], t.leading_zeros(), "clz lane {t}");
        assert_eq!(row[4], 1 + t.count_ones(), "popc lane {t}");
        assert_eq!(row[5], t.reverse_bits(), "brev lane {t}");
        // rsqrt((t + 1)^2) = 1 / (t + 1).
        let r = f32::from_bits(row[6]);
        assert_eq!(r, 1.0 / (t as f32 + 1.0), "rsqrt lane {t}");
    }
}

/// `atom`: every lane adds to one word (lane order: lane t gets 1 + 2 + … + t), `inc`
/// wraps, `cas` swaps only where the old value matches, `min.s32` and `exch`; shared too.
#[test]
fn atomics_in_lane_order() {
    let src = format!(
        "{HEADER}
.visible .entry k(.param .u64 out)
{{
    .reg .b32 %r<12>;
    .reg .b64 %rd<8>;
    .shared .align 4 .b8 s[4];
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    add.s32 %r2, %r1, 1;
    atom.global.add.u32 %r3, [%rd1+512], %r2;
    atom.global.inc.u32 %r4, [%rd1+516], 4;
    atom.global.cas.b32 %r5, [%rd1+520], %r1, 100;
    sub.s32 %r6, 10, %r1;
    atom.global.min.s32 %r7, [%rd1+524], %r6;
    atom.global.exch.b32 %r8, [%rd1+528], %r1;
    atom.shared.add.u32 %r9, [s], 2;
    red.global.or.b32 [%rd1+532], %r2;
    mul.wide.u32 %rd2, %r1, 16;
    add.s64 %rd3, %rd1, %rd2;
    st.global.v4.u32 [%rd3], {{%r3, %r4, %r5, %r9}};
    ret;
}}"
    );
    let s = run(&src, 32, out_param(), vec![out_array(256)], false, |_| {}).expect("runs");
    let out = words(&s, "out");
    for t in 0..32u32 {
        let row = &out[4 * t as usize..4 * t as usize + 4];
        assert_eq!(
            row[0],
            t * (t + 1) / 2,
            "add: the sum of lanes before, lane {t}"
        );
        assert_eq!(
            row[1],
            t % 5,
            "inc with bound 4 counts 0..4 and wraps, lane {t}"
        );
        // cas: the word is 0; lane 0 compares 0 == 0 and writes 100; later lanes see 100.
        assert_eq!(row[2], if t == 0 { 0 } else { 100 }, "cas lane {t}");
        assert_eq!(row[3], 2 * t, "shared add, lane {t}");
    }
    assert_eq!(out[128], 32 * 33 / 2, "final sum");
    assert_eq!(out[129], 32 % 5, "inc after 32 increments");
    assert_eq!(out[130], 100);
    assert_eq!(out[131] as i32, 10 - 31, "min.s32 of 10 - t and 0");
    assert_eq!(out[132], 31, "exch: the last lane's value");
    assert_eq!(out[133], 63, "red.or of 1..32");
}

/// `fma.rm.f32`/`fma.rz.f32` round down / toward zero where `.rn` rounds up: (1 + 2^-23)²
/// = 1 + 2^-22 + 2^-46 and 1 + 2^-23 + 2^-24 (a tie).
#[test]
fn directed_rounding() {
    let src = format!(
        "{HEADER}
.visible .entry k(.param .u64 out)
{{
    .reg .f32 %f<8>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.f32 %f1, 0f3F800001;
    fma.rn.f32 %f2, %f1, %f1, 0f00000000;
    fma.rm.f32 %f3, %f1, %f1, 0f00000000;
    fma.rp.f32 %f4, %f1, %f1, 0f00000000;
    mov.f32 %f5, 0f33800000;
    add.rn.f32 %f6, %f1, %f5;
    add.rz.f32 %f7, %f1, %f5;
    st.global.v4.f32 [%rd1], {{%f2, %f3, %f4, %f6}};
    st.global.f32 [%rd1+16], %f7;
    ret;
}}"
    );
    let s = run(&src, 1, out_param(), vec![out_array(8)], false, |_| {}).expect("runs");
    let out = words(&s, "out");
    assert_eq!(out[0], 0x3f80_0002, "rn: 1 + 2^-22");
    assert_eq!(out[1], 0x3f80_0002, "rm: down");
    assert_eq!(out[2], 0x3f80_0003, "rp: up");
    // 1 + 2^-23 + 2^-24 is halfway between 0x3f800001 and 0x3f800002: rn to even.
    assert_eq!(out[3], 0x3f80_0002, "rn ties to even");
    assert_eq!(out[4], 0x3f80_0001, "rz truncates");
}

/// A texture reference is a texture whose handle is the variable's address
/// (`sim::MODULE_VARIABLES_BASE` for the first variable): its texels live there, and the
/// binding `textures` gives their extent, as for texture objects.
#[test]
fn texture_references() {
    let src = format!(
        "{HEADER}
.global .texref ref;
.visible .entry k(.param .u64 out)
{{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    tex.1d.v4.s32.s32 {{%r2, %r3, %r4, %r5}}, [ref, {{%r1}}];
    mul.wide.u32 %rd2, %r1, 8;
    add.s64 %rd3, %rd1, %rd2;
    st.global.v2.u32 [%rd3], {{%r2, %r3}};
    ret;
}}"
    );
    let texels = ArrayInit {
        name: "ref".into(),
        address: sim::MODULE_VARIABLES_BASE,
        words: 16,
        fill: Fill::Iota { start: 10, step: 1 },
    };
    let s = run(
        &src,
        32,
        out_param(),
        vec![out_array(64), texels],
        false,
        |l| {
            l.textures = vec![sim::TextureBinding {
                handle: sim::MODULE_VARIABLES_BASE,
                width: 16,
                height: 1,
                texel_words: 1,
            }]
        },
    )
    .expect("runs");
    let out = words(&s, "out");
    // Lane t fetches texel min(t, 15) (clamped): 10 + min(t, 15); G is 0.
    for t in 0..32usize {
        assert_eq!(out[2 * t], 10 + t.min(15) as u32, "lane {t}");
        assert_eq!(out[2 * t + 1], 0);
    }
    let unbound = run(&src, 32, out_param(), vec![out_array(64)], false, |_| {});
    assert!(
        unbound.is_err(),
        "a reference without a binding stops the run"
    );
}

/// Device-function calls run inline: `quad_plus(a, b)` calls `twice` twice (a nested call)
/// and returns `4a + b` for `a < 16`, `4a` otherwise (a divergent return); parameters and
/// results pass through the call sequences' `.param` variables. Lane t stores
/// `quad_plus(t, 100)`.
#[test]
fn device_function_calls_run_inline() {
    let src = format!(
        "{HEADER}
.func (.param .b32 func_retval0) twice(.param .b32 twice_param_0)
{{
    .reg .b32 %r<3>;
    ld.param.u32 %r1, [twice_param_0];
    add.s32 %r2, %r1, %r1;
    st.param.b32 [func_retval0], %r2;
    ret;
}}
.func (.param .b32 func_retval0) quad_plus(.param .b32 quad_plus_param_0, .param .b32 quad_plus_param_1)
{{
    .reg .b32 %r<6>;
    .reg .pred %p<2>;
    ld.param.u32 %r1, [quad_plus_param_0];
    ld.param.u32 %r2, [quad_plus_param_1];
    {{
    .param .b32 param0;
    st.param.b32 [param0+0], %r1;
    .param .b32 retval0;
    call.uni (retval0), twice, (param0);
    ld.param.b32 %r3, [retval0+0];
    }}
    {{
    .param .b32 param0;
    st.param.b32 [param0+0], %r3;
    .param .b32 retval0;
    call.uni (retval0), twice, (param0);
    ld.param.b32 %r4, [retval0+0];
    }}
    setp.lt.u32 %p1, %r1, 16;
    @%p1 bra $L_small;
    st.param.b32 [func_retval0], %r4;
    ret;
$L_small:
    add.s32 %r5, %r4, %r2;
    st.param.b32 [func_retval0], %r5;
    ret;
}}
.visible .entry k(.param .u64 out)
{{
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    {{
    .param .b32 param0;
    st.param.b32 [param0+0], %r1;
    .param .b32 param1;
    st.param.b32 [param1+0], 100;
    .param .b32 retval0;
    call.uni (retval0), quad_plus, (param0, param1);
    ld.param.b32 %r2, [retval0+0];
    }}
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r2;
    ret;
}}"
    );
    let s = run(&src, 32, out_param(), vec![out_array(32)], false, |_| {}).expect("runs");
    let out = words(&s, "out");
    for t in 0..32u32 {
        let want = if t < 16 { 4 * t + 100 } else { 4 * t };
        assert_eq!(out[t as usize], want, "lane {t}");
    }
    // A call to a function without a body stops the run there, naming it.
    let external = format!(
        "{HEADER}
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.visible .entry k()
{{
    .reg .b32 %r<2>;
    {{
    .param .b64 param0;
    st.param.b64 [param0+0], 0;
    .param .b64 param1;
    st.param.b64 [param1+0], 0;
    .param .b32 retval0;
    call.uni (retval0), vprintf, (param0, param1);
    ld.param.b32 %r1, [retval0+0];
    }}
    ret;
}}"
    );
    let e = run(&external, 32, vec![], vec![], false, |_| {}).expect_err("external");
    assert!(
        e.to_string().contains("`vprintf`, which has no body"),
        "{e}"
    );
}
