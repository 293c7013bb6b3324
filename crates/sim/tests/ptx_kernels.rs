//! PTX kernels end to end: the Huangfu §4.4.4 example, every corpus kernel on a small
//! launch, and located "cannot simulate" diagnostics.

use isa::Limits;
use sim::{ArrayInit, Budget, Fill, Launch, Machine, MemoryInit, Simulation};

fn preset(name: &str) -> Machine {
    sim::presets()
        .into_iter()
        .find(|p| p.name == name)
        .map(|p| p.machine)
        .expect("preset")
}

fn function(src: &str) -> isa::ptx::Function {
    let parsed = isa::ptx::parse(src, &Limits::default());
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    parsed.module.function(None).expect("function").clone()
}

/// The example kernel of Huangfu §4.4.4 (as in the page's `rr-4-4-4` example).
const HUANGFU_4_4_4: &str = include_str!("../../../www/examples/huangfu-4-4-4.ptx");

fn huangfu() -> Simulation {
    let f = function(HUANGFU_4_4_4);
    let launch = Launch {
        grid: [1, 2, 1],
        block: [16, 4, 1],
        params: vec![0, 0],
        ..Launch::default()
    };
    let memory = MemoryInit {
        arrays: vec![ArrayInit {
            name: "input".into(),
            address: 0,
            words: 1024,
            fill: Fill::Iota { start: 1, step: 1 },
        }],
        open: None,
    };
    sim::run_ptx(
        &f,
        &launch,
        &preset("gpgpusim-like"),
        &memory,
        &Budget::default(),
    )
    .expect("runs")
}

#[test]
fn huangfu_4_4_4_segments_of_every_warp() {
    // Thesis §4.4.4: with <<<(1,2,1), (16,4,1)>>> the two warps of block y = 0 load from
    // tid.x·32 + 4 (tid.x = 0..15): segments 0, 128, 256, 384; the two warps of block
    // y = 1 store to tid.x·32 + 2048: segments 2048, 2176, 2304, 2432.
    let s = huangfu();
    let mut seen: Vec<(u32, bool, Vec<u64>)> = s
        .transactions
        .iter()
        .map(|t| (t.warp, t.store, t.segments.clone()))
        .collect();
    seen.sort();
    let loads = vec![0, 128, 256, 384];
    let stores = vec![2048, 2176, 2304, 2432];
    assert_eq!(
        seen,
        vec![
            (0, false, loads.clone()),
            (1, false, loads),
            (2, true, stores.clone()),
            (3, true, stores)
        ]
    );
    // Every lane of a warp is active (16 × 2 threads): the stores wrote %f2 = 0.0 to
    // words 512 + 8·i; the word after each is untouched (iota: value = index + 1).
    let words = &s.memory[0].words;
    for i in 0..16 {
        assert_eq!(words[512 + 8 * i], 0, "word {}", 512 + 8 * i);
        assert_eq!(words[513 + 8 * i], (514 + 8 * i) as u32);
    }
    assert_eq!(words[1], 2);
}

/// A small launch for any kernel: one block of 32 threads. Parameters are laid out as the
/// simulator documents (declaration order, natural or `.align` alignment, little-endian):
/// a `.u64` is a pointer to its own array of 16 Ki words (all 0) unless its index is in
/// `ints` (then it is the count 32); a 32-bit integer is 4, a float 1.0; a `.b8` aggregate
/// (thrust's functor) holds a pointer to an array of its own in each 8 bytes.
fn corpus_run(f: &isa::ptx::Function, ints: &[usize]) -> Result<Simulation, sim::SimError> {
    let mut bytes: Vec<u8> = Vec::new();
    let mut arrays = Vec::new();
    for (k, p) in f.params.iter().enumerate() {
        let size = p.size_bytes().unwrap_or(0) as usize;
        let align = p.align.map_or(size.clamp(1, 8), |a| (a as usize).max(1));
        while !bytes.len().is_multiple_of(align) {
            bytes.push(0);
        }
        let address = 0x10_0000 * (k as u64 + 1);
        let mut array = || {
            arrays.push(ArrayInit {
                name: p.name.clone(),
                address,
                words: 16 * 1024,
                fill: Fill::Constant { value: 0 },
            })
        };
        let value: Vec<u8> = match p.ty.as_str() {
            "u64" | "b64" | "s64" if ints.contains(&k) => 32u64.to_le_bytes().to_vec(),
            "u64" | "b64" | "s64" => {
                array();
                address.to_le_bytes().to_vec()
            }
            "f32" => 1f32.to_le_bytes().to_vec(),
            "f64" => 1f64.to_le_bytes().to_vec(),
            "b8" => {
                let mut v = Vec::new();
                for j in 0..size.div_ceil(8) as u64 {
                    let a = address + j * 0x4_0000;
                    arrays.push(ArrayInit {
                        name: format!("{}[{j}]", p.name),
                        address: a,
                        words: 16 * 1024,
                        fill: Fill::Constant { value: 0 },
                    });
                    v.extend(a.to_le_bytes());
                }
                v.truncate(size);
                v
            }
            _ => 4u32.to_le_bytes().to_vec(),
        };
        bytes.extend(value);
    }
    while !bytes.len().is_multiple_of(4) {
        bytes.push(0);
    }
    let params = bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let launch = Launch {
        block: [32, 1, 1],
        params,
        trace: false,
        ..Launch::default()
    };
    sim::run_ptx(
        f,
        &launch,
        &preset("gpgpusim-like"),
        &MemoryInit { arrays, open: None },
        &Budget::default(),
    )
}

#[test]
fn corpus_kernels_on_a_small_launch() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/ptx");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    names.sort();
    let mut outcomes = Vec::new();
    for path in names {
        let text = std::fs::read_to_string(&path).expect("read");
        let parsed = isa::ptx::parse(&text, &Limits::default());
        let f = parsed.module.function(None).expect("function");
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        // Integer `.u64` parameters: streamcluster's `long num`, thrust's element count.
        let ints: &[usize] = if name.starts_with("streamcluster") {
            &[2]
        } else if name.starts_with("celer_memset") {
            &[1]
        } else {
            &[]
        };
        let r = corpus_run(f, ints);
        if name.starts_with("celer_memset-zero_thrust__thrust_parallel_for_fill") {
            // thrust::fill of n = 32 ints with the functor's value (bytes 8..12 of param_0:
            // here the low word of its second pointer, 0x14_0000): block 0 takes the
            // partial-tile path (min(32 - 0, 512) != 512) and threads 0..31 store.
            let s = r.as_ref().expect("fill runs");
            let a = &s.memory[0];
            assert_eq!(a.address, 0x10_0000);
            assert!(a.words[..32].iter().all(|&w| w == 0x14_0000));
            assert!(a.words[32..].iter().all(|&w| w == 0));
        }
        outcomes.push((name, r.map(|_| ()).map_err(|e| e.diagnostics)));
    }
    assert_eq!(outcomes.len(), 18);
    // 17 of the 18 corpus kernels run end to end. kmeansPoint reads the module-level
    // `.const` array `c_clusters` (and textures), which the simulator does not model: it
    // stops at the first such instruction, line 61, with a located diagnostic.
    for (name, r) in &outcomes {
        if name.starts_with("kmeans___Z11kmeansPoint") {
            let d = &r.as_ref().expect_err("kmeansPoint is refused")[0];
            assert_eq!((d.line, d.column), (61, 1));
            assert!(d
                .message
                .starts_with("cannot simulate mov.u64: `c_clusters`"));
        } else {
            assert!(r.is_ok(), "{name}: {r:?}");
        }
    }
}

#[test]
fn instructions_without_semantics_stop_the_run_at_their_span() {
    let src = ".entry k(.param .u64 p)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\nld.param.u64 %rd1, [p];\n  prmt.b32 %r1, %r2, 0, 291;\nret;\n}\n";
    let f = function(src);
    let launch = Launch {
        block: [1, 1, 1],
        params: vec![0x100, 0],
        ..Launch::default()
    };
    let e = sim::run_ptx(
        &f,
        &launch,
        &preset("unit-cost"),
        &MemoryInit::default(),
        &Budget::default(),
    )
    .expect_err("prmt has no semantics");
    let d = &e.diagnostics[0];
    assert_eq!((d.line, d.column), (6, 3));
    assert!(
        d.message.starts_with("cannot simulate prmt.b32:"),
        "{}",
        d.message
    );
    // A missing parameter word is a located error too.
    let e = sim::run_ptx(
        &f,
        &Launch {
            params: vec![],
            ..launch
        },
        &preset("unit-cost"),
        &MemoryInit::default(),
        &Budget::default(),
    )
    .expect_err("no parameters");
    assert_eq!(e.diagnostics[0].line, 5);
    assert!(e.message().contains("parameter bytes 0..8"));
}

#[test]
fn integer_and_float_semantics_end_to_end() {
    // One thread computes into out[0..8] (hand-derived values in the comments).
    let src = ".entry k(.param .u64 out, .param .f32 x)
{
.reg .pred %p<3>;
.reg .b32 %r<10>;
.reg .f32 %f<6>;
.reg .b64 %rd<6>;
.reg .f64 %fd<3>;
ld.param.u64 %rd1, [out];
cvta.to.global.u64 %rd2, %rd1;
ld.param.f32 %f1, [x];
mov.u32 %r1, -7;
rem.s32 %r2, %r1, 3;
st.global.u32 [%rd2], %r2;
mul.hi.u32 %r3, %r1, 16;
st.global.u32 [%rd2+4], %r3;
fma.rn.f32 %f2, %f1, %f1, 0f3F800000;
st.global.f32 [%rd2+8], %f2;
cvt.rzi.s32.f32 %r4, %f2;
setp.gt.s32 %p1, %r4, 5;
setp.lt.and.s32 %p2, %r4, 100, %p1;
selp.u32 %r5, 1, 2, %p2;
st.global.u32 [%rd2+12], %r5;
cvt.f64.f32 %fd1, %f1;
sqrt.rn.f64 %fd2, %fd1;
st.global.f64 [%rd2+16], %fd2;
mov.b64 {%r6, %r7}, %fd2;
xor.b32 %r8, %r6, %r7;
st.global.u32 [%rd2+24], %r8;
shr.s32 %r9, %r1, 1;
st.global.u32 [%rd2+28], %r9;
ret;
}
";
    let f = function(src);
    let x = 6.25f32;
    let launch = Launch {
        block: [1, 1, 1],
        params: vec![0x100, 0, x.to_bits()],
        ..Launch::default()
    };
    let memory = MemoryInit {
        arrays: vec![ArrayInit {
            name: "out".into(),
            address: 0x100,
            words: 8,
            fill: Fill::Constant { value: 0 },
        }],
        open: None,
    };
    let s = sim::run_ptx(
        &f,
        &launch,
        &preset("gpgpusim-like"),
        &memory,
        &Budget::default(),
    )
    .expect("runs");
    let w = &s.memory[0].words;
    // rem.s32 -7 % 3 = -1 (the sign of the dividend).
    assert_eq!(w[0] as i32, -1);
    // mul.hi.u32 0xffff_fff9 · 16 = 0xf_ffff_ff90 → high word 0xf.
    assert_eq!(w[1], 0xf);
    // fma 6.25 · 6.25 + 1 = 40.0625 (exact in f32).
    assert_eq!(f32::from_bits(w[2]), 40.0625);
    // cvt.rzi → 40; 40 > 5 and 40 < 100 → selp picks 1.
    assert_eq!(w[3], 1);
    // sqrt(6.25) = 2.5 exactly; its bits 0x4004_0000_0000_0000 (low word 0).
    let d = f64::from_bits(u64::from(w[4]) | u64::from(w[5]) << 32);
    assert_eq!(d, 2.5);
    assert_eq!(w[6], 0x4004_0000);
    // shr.s32 -7 >> 1 = -4 (arithmetic).
    assert_eq!(w[7] as i32, -4);
}

#[test]
fn an_infinite_loop_ends_with_the_budget_named() {
    let src = ".entry k()\n{\n.reg .b32 %r<2>;\n$L:\nadd.s32 %r1, %r1, 1;\nbra $L;\n}\n";
    let f = function(src);
    let budget = Budget {
        max_steps: 1000,
        ..Budget::default()
    };
    let e = sim::run_ptx(
        &f,
        &Launch::default(),
        &preset("unit-cost"),
        &MemoryInit::default(),
        &budget,
    )
    .expect_err("never ends");
    assert!(e.message().contains("max_steps = 1000"), "{}", e.message());
}

mod hostile {
    use super::*;
    use proptest::prelude::*;

    fn corpus_texts() -> Vec<String> {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/ptx");
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .expect("corpus")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        paths.sort();
        paths
            .iter()
            .map(|p| std::fs::read_to_string(p).expect("read"))
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        /// Corpus kernels with lines deleted, duplicated and swapped (branches to nowhere,
        /// registers never written, loops without exit, misaligned addresses) never panic
        /// the simulator: every run ends with a result or a diagnostic, within budget.
        #[test]
        fn mangled_corpus_kernels_never_panic(file in 0usize..18, seed in any::<u64>()) {
            let texts = corpus_texts();
            let text = &texts[file % texts.len()];
            let mut lines: Vec<&str> = text.lines().collect();
            let mut rng = sim::SplitMix64::new(seed);
            for _ in 0..1 + rng.next_u64() % 6 {
                let n = lines.len().max(1) as u64;
                let i = (rng.next_u64() % n) as usize;
                let j = (rng.next_u64() % n) as usize;
                match rng.next_u64() % 3 {
                    0 if i < lines.len() => {
                        lines.remove(i);
                    }
                    1 if i < lines.len() => {
                        let l = lines[i];
                        lines.insert(j.min(lines.len()), l);
                    }
                    _ if i < lines.len() && j < lines.len() => lines.swap(i, j),
                    _ => {}
                }
            }
            let mangled = lines.join("\n");
            let parsed = isa::ptx::parse(&mangled, &Limits::default());
            if let Some(f) = parsed.module.function(None) {
                let launch = Launch { block: [40, 1, 1], params: vec![0x10_0000, 0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4], trace: true, ..Launch::default() };
                let memory = MemoryInit { arrays: vec![ArrayInit { name: "a".into(), address: 0x10_0000, words: 4096, fill: Fill::Constant { value: 1 } }], open: None };
                let budget = Budget { max_steps: 20_000, max_cycles: 200_000, ..Budget::default() };
                let r = sim::run_ptx(f, &launch, &preset("gpgpusim-like"), &memory, &budget);
                if let Err(e) = r {
                    prop_assert!(!e.diagnostics.is_empty());
                }
            }
        }
    }
}

#[test]
fn shared_reverse_across_warps_with_bar_sync() {
    // 64 threads (2 warps): s[tid] = tid; bar.sync; out[tid] = s[63 - tid] · 2 + pad, where
    // `pad` is the shared address of the second variable (laid out after `s`: 256 bytes of
    // `s` at alignment 4 → `t` at 256). Without the barrier warp 0 would read warp 1's
    // half before it is written; with it out[i] = 2·(63 − i) + 256.
    let src = ".entry rev(.param .u64 out)
{
.reg .b32 %r<8>;
.reg .b64 %rd<4>;
.shared .align 4 .b8 s[256];
.shared .align 8 .b8 t[8];
ld.param.u64 %rd1, [out];
cvta.to.global.u64 %rd1, %rd1;
mov.u32 %r1, %tid.x;
shl.b32 %r2, %r1, 2;
mov.u32 %r3, s;
add.s32 %r4, %r3, %r2;
st.shared.u32 [%r4], %r1;
bar.sync 0;
sub.s32 %r5, 63, %r1;
shl.b32 %r5, %r5, 2;
ld.shared.u32 %r6, [s+0];
add.s32 %r5, %r3, %r5;
ld.shared.u32 %r6, [%r5];
mov.u32 %r7, t;
mad.lo.s32 %r6, %r6, 2, %r7;
mul.wide.u32 %rd2, %r1, 4;
add.s64 %rd3, %rd1, %rd2;
st.global.u32 [%rd3], %r6;
ret;
}
";
    let f = function(src);
    let launch = Launch {
        block: [64, 1, 1],
        params: vec![0x4000, 0],
        ..Launch::default()
    };
    let memory = MemoryInit {
        arrays: vec![ArrayInit {
            name: "out".into(),
            address: 0x4000,
            words: 64,
            fill: Fill::Constant { value: 0 },
        }],
        open: None,
    };
    for name in ["unit-cost", "gpgpusim-like"] {
        let s =
            sim::run_ptx(&f, &launch, &preset(name), &memory, &Budget::default()).expect("runs");
        let expected: Vec<u32> = (0..64).map(|i| 2 * (63 - i) + 256).collect();
        assert_eq!(s.memory[0].words, expected, "{name}");
        // Both warps wait at the barrier: warp 1 issues its bar.sync (index 7) before
        // warp 0 issues anything after it.
        let bar_issue = |w: usize| {
            s.warps[w]
                .issues
                .iter()
                .find(|i| i.index == 7)
                .map(|i| i.issue)
                .expect("bar")
        };
        let after = |w: usize| {
            s.warps[w]
                .issues
                .iter()
                .find(|i| i.index == 8)
                .map(|i| i.issue)
                .expect("after bar")
        };
        assert!(after(0) > bar_issue(1) && after(1) > bar_issue(0), "{name}");
    }
}
