//! Corpus GCN3 kernels (HIP/LLVM, gfx801/gfx900; /work/shared/corpus/gcn, MANIFEST.md (b))
//! run end to end; final memory checked against Rust reference computations.

use sim::gcn;
use sim::machine::gcn3;
use sim::{ArrayInit, Budget, Fill, Launch, MemoryInit, SimError, Simulation, Splitting};

fn corpus(name: &str) -> String {
    let path = format!(
        "{}/../../../shared/corpus/gcn/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn run(src: &str, launch: &Launch, memory: &MemoryInit) -> Result<Simulation, SimError> {
    gcn::run_source(src, None, launch, &gcn3(), memory, &Budget::default())
}

fn ok(r: Result<Simulation, SimError>) -> Simulation {
    r.unwrap_or_else(|e| panic!("{e}"))
}

fn array(name: &str, address: u64, fill: Fill, words: u32) -> ArrayInit {
    ArrayInit {
        name: name.into(),
        address,
        words,
        fill,
    }
}

/// The names of the `.s` files in `dir`, sorted.
fn corpus_names(dir: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".s"))
        .collect();
    names.sort();
    names
}

#[test]
fn vectoradd_gfx900_two_dimensional_block() {
    // `vectorset_float`: i = threadIdx.y · 64 + threadIdx.x (v_lshl_add_u32 v0, v1, 6, v0:
    // the descriptor enables v1 = work-item id y); c = a + b; out[i] = i < 32 ? c : c + c.
    // global_load/store with an SGPR-pair base (`saddr`) and a VGPR byte offset.
    let src = corpus("hipexamples_vectoradd___Z15vectorset_floatPKfS0_Pf__gfx900.s");
    let a: Vec<f32> = (0..128).map(|i| i as f32 * 0.25).collect();
    let b: Vec<f32> = (0..128).map(|i| 3.0 - i as f32).collect();
    let memory = MemoryInit {
        arrays: vec![
            array("a", 0x1000, Fill::Floats { values: a.clone() }, 128),
            array("b", 0x2000, Fill::Floats { values: b.clone() }, 128),
            array("out", 0x3000, Fill::Constant { value: 0 }, 128),
        ],
        open: None,
    };
    let launch = Launch {
        block: [64, 2, 1],
        params: vec![0x1000, 0, 0x2000, 0, 0x3000, 0],
        ..Launch::default()
    };
    let s = ok(run(&src, &launch, &memory));
    let expected: Vec<u32> = (0..128)
        .map(|i| {
            let c = a[i] + b[i];
            if i < 32 {
                c.to_bits()
            } else {
                (c + c).to_bits()
            }
        })
        .collect();
    assert_eq!(s.memory[2].words, expected);
    // Two wavefronts of 15 instructions each.
    assert_eq!(s.warps.len(), 2);
    assert!(s.warps.iter().all(|w| w.issues.len() == 15));
}

fn pack_bytes(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u32, |acc, (k, &b)| acc | (u32::from(b) << (8 * k)))
        })
        .collect()
}

#[test]
fn bfs_kernel2_updates_the_frontier() {
    // Rodinia bfs Kernel2: tid = blockIdx.x · 512 + threadIdx.x; if tid < n and
    // updating[tid]: mask[tid] = visited[tid] = *over = true, updating[tid] = false. Bytes
    // (flat_load_ubyte, flat_store_byte, v_cmp_ne_u16) and a nested exec narrowing
    // (s_and_saveexec then s_and_b64 exec) with two s_cbranch_execz.
    let src = corpus("bfs___Z7Kernel2PbS_S_S_i.s");
    let n = 300usize;
    let updating: Vec<u8> = (0..512)
        .map(|i| u8::from(i % 3 == 0 || i % 7 == 1))
        .collect();
    let visited: Vec<u8> = (0..512).map(|i| u8::from(i % 5 == 0)).collect();
    let words = |v: &[u8]| Fill::Words {
        values: pack_bytes(v),
    };
    let memory = MemoryInit {
        arrays: vec![
            array("mask", 0x1000, words(&[0; 512]), 128),
            array("updating", 0x2000, words(&updating), 128),
            array("visited", 0x3000, words(&visited), 128),
            array("over", 0x4000, Fill::Constant { value: 0 }, 1),
        ],
        open: None,
    };
    let launch = Launch {
        block: [512, 1, 1],
        params: vec![0x1000, 0, 0x2000, 0, 0x3000, 0, 0x4000, 0, n as u32],
        ..Launch::default()
    };
    let s = ok(run(&src, &launch, &memory));
    let mut mask = vec![0u8; 512];
    let mut upd = updating.clone();
    let mut vis = visited.clone();
    let mut over = 0u8;
    for tid in 0..n {
        if updating[tid] != 0 {
            mask[tid] = 1;
            vis[tid] = 1;
            over = 1;
            upd[tid] = 0;
        }
    }
    assert_eq!(s.memory[0].words, pack_bytes(&mask));
    assert_eq!(s.memory[1].words, pack_bytes(&upd));
    assert_eq!(s.memory[2].words, pack_bytes(&vis));
    assert_eq!(s.memory[3].words, vec![u32::from(over)]);
    assert_eq!(s.warps.len(), 8);
    // Wavefronts 5..7 (tids 320..511) have no work-item below n: they skip the body at the
    // first s_cbranch_execz (8 instructions: s_load, s_mov, s_lshl, v_or, s_waitcnt, v_cmp,
    // s_and_saveexec, s_cbranch_execz) and end (s_endpgm): 9 issued.
    assert!(s.warps[5..].iter().all(|w| w.issues.len() == 9));
}

#[test]
fn lud_internal_lds_barrier_and_scalar_loop() {
    // Rodinia lud_internal with 16×16 work-groups: both strips go through LDS
    // (ds_write2st64_b32, s_barrier), then a 16-iteration scalar loop (s_cmp_lg_u32 +
    // s_cbranch_scc1) accumulates with v_fma_f32; m[(row+ty)·dim + col+tx] -= sum.
    let src = corpus("lud___Z12lud_internalPfii.s");
    let dim = 48usize;
    let offset = 0usize;
    let m: Vec<f32> = (0..dim * dim)
        .map(|i| ((i * 7 + 3) % 11) as f32 - 5.0)
        .collect();
    let memory = MemoryInit {
        arrays: vec![array(
            "m",
            0x1_0000,
            Fill::Floats { values: m.clone() },
            (dim * dim) as u32,
        )],
        open: None,
    };
    let launch = Launch {
        grid: [2, 2, 1],
        block: [16, 16, 1],
        params: vec![0x1_0000, 0, dim as u32, offset as u32],
        ..Launch::default()
    };
    let s = ok(run(&src, &launch, &memory));
    // Reference (the CUDA source): small integers, so every sum is exact in any order.
    let mut r = m.clone();
    for by in 0..2 {
        for bx in 0..2 {
            let grow = offset + (by + 1) * 16;
            let gcol = offset + (bx + 1) * 16;
            for ty in 0..16 {
                for tx in 0..16 {
                    let mut sum = 0f32;
                    for i in 0..16 {
                        let col = m[(grow + ty) * dim + offset + i];
                        let row = m[(offset + i) * dim + gcol + tx];
                        sum = col.mul_add(row, sum);
                    }
                    r[(grow + ty) * dim + gcol + tx] = m[(grow + ty) * dim + gcol + tx] - sum;
                }
            }
        }
    }
    let expected: Vec<u32> = r.iter().map(|x| x.to_bits()).collect();
    assert_eq!(s.memory[0].words, expected);
    // 4 work-groups of 4 wavefronts; LDS traffic is recorded as shared transactions.
    assert_eq!(s.warps.len(), 16);
    assert!(s
        .transactions
        .iter()
        .any(|t| t.space == "shared" && t.store));
}

#[test]
fn every_corpus_kernel_runs_or_stops_with_a_located_diagnostic() {
    // Without arrays every global access is outside memory; whatever stops a run must be a
    // located diagnostic (never a panic), under each splitting model.
    let dir = format!("{}/../../../shared/corpus/gcn", env!("CARGO_MANIFEST_DIR"));
    let names = corpus_names(&dir);
    assert_eq!(names.len(), 20);
    for name in &names {
        let src = corpus(name);
        for sp in [
            Splitting::None,
            Splitting::Dws(sim::SplitCosts {
                s: 2,
                e_s: 3,
                e_m: 3,
            }),
        ] {
            let m = sim::Machine {
                splitting: sp,
                ..gcn3()
            };
            let launch = Launch {
                block: [64, 1, 1],
                params: vec![0; 16],
                ..Launch::default()
            };
            match gcn::run_source(
                &src,
                None,
                &launch,
                &m,
                &MemoryInit::default(),
                &Budget::default(),
            ) {
                Ok(s) => assert!(s.cycles > 0, "{name}"),
                // Located at an instruction, or an exhausted budget naming itself.
                Err(e) => assert!(
                    e.diagnostics
                        .iter()
                        .all(|d| d.line > 0 || d.message.contains("(raise ")),
                    "{name}: unlocated {e}"
                ),
            }
        }
    }
}

#[test]
fn nn_euclid_division_by_reciprocal_and_corrected_sqrt() {
    // Rodinia nn euclid: globalId = blockDim.x · (gridDim.x · blockIdx.y + blockIdx.x) +
    // threadIdx.x, with gridDim.x = grid_size_x / workgroup_size_x computed from the
    // dispatch packet by the reciprocal-and-correct integer division (v_rcp_iflag_f32,
    // v_mul_hi_u32, …); then d[id] = sqrt((lat − x)² + (lng − y)²) for id < n, through
    // LLVM's correctly rounded sqrt expansion (v_sqrt_f32, ±1 ulp fma corrections,
    // v_cmp_class_f32 for 0 and ∞). With a correctly rounded v_sqrt the corrections keep
    // it, so the result is Rust's `sqrt` of `fma(dx, dx, dy·dy)`.
    let src = corpus("nn___Z6euclidP7latLongPfiff.s");
    let locs: Vec<f32> = (0..256)
        .map(|i| ((i * 37) % 101) as f32 * 0.75 - 20.0)
        .collect();
    let (lat, lng) = (3.25f32, -7.5f32);
    let n = 100usize;
    let memory = MemoryInit {
        arrays: vec![
            array(
                "locations",
                0x1000,
                Fill::Floats {
                    values: locs.clone(),
                },
                256,
            ),
            array("distances", 0x2000, Fill::Constant { value: 0xdead }, 128),
        ],
        open: None,
    };
    let launch = Launch {
        grid: [2, 1, 1],
        block: [64, 1, 1],
        params: vec![0x1000, 0, 0x2000, 0, n as u32, lat.to_bits(), lng.to_bits()],
        ..Launch::default()
    };
    let s = ok(run(&src, &launch, &memory));
    let expected: Vec<u32> = (0..128)
        .map(|i| {
            if i < n {
                let dx = lat - locs[2 * i];
                let dy = lng - locs[2 * i + 1];
                dx.mul_add(dx, dy * dy).sqrt().to_bits()
            } else {
                0xdead
            }
        })
        .collect();
    assert_eq!(s.memory[1].words, expected);
}

#[test]
fn every_corpus_instruction_decodes() {
    // Every instruction of the 20 corpus kernels decodes, the f32 division sequence
    // (v_div_scale/v_div_fmas/v_div_fixup: gaussian, hotspot, lud) included: modelled
    // without the hardware's 2^±64 scaling, whose rules we do not have from a primary source
    // (`sim::gcn::decode::VFn::DivScaleF`; the quotient is still the IEEE one).
    let dir = format!("{}/../../../shared/corpus/gcn", env!("CARGO_MANIFEST_DIR"));
    let mut missing = std::collections::BTreeMap::new();
    let mut decoded = 0usize;
    let names = corpus_names(&dir);
    for n in &names {
        let p = isa::gcn::parse(&corpus(n), &isa::Limits::default());
        for f in &p.functions {
            for i in &f.instructions {
                match gcn::decode::decode(i) {
                    Ok(_) => decoded += 1,
                    Err(m) => {
                        assert!(
                            m.starts_with(&format!("cannot simulate {}", i.opcode)),
                            "{m}"
                        );
                        *missing.entry(i.opcode.clone()).or_insert(0usize) += 1;
                    }
                }
            }
        }
    }
    let missing: Vec<(String, usize)> = missing.into_iter().collect();
    assert_eq!(missing, vec![]);
    // 2605 instruction lines in the 20 files (lines starting with a tab and a letter,
    // `grep -cP '^\t[a-z]'`), 28 of them the division steps.
    assert_eq!(decoded, 2605);
}

#[test]
fn gaussian_fan1_divides_as_ieee_single_precision() {
    // Rodinia gaussian `Fan1(m, a, Size, t)`: for xid < Size - 1 - t,
    // m[Size·(xid + t + 1) + t] = a[Size·(xid + t + 1) + t] / a[Size·t + t], compiled to the
    // v_div_scale / v_rcp / v_fma ×5 / v_div_fmas / v_div_fixup sequence. Size 16, t 2: 13
    // quotients, each the correctly rounded f32 quotient (inexact ones: a[k] = 1 + k/3).
    let src = corpus("gaussian___Z4Fan1PfS_ii.s");
    let (size, t) = (16usize, 2usize);
    let a: Vec<f32> = (0..256).map(|k| 1.0 + k as f32 / 3.0).collect();
    let memory = MemoryInit {
        arrays: vec![
            array("m", 0x1000, Fill::Constant { value: 0 }, 256),
            array("a", 0x2000, Fill::Floats { values: a.clone() }, 256),
        ],
        open: None,
    };
    let launch = Launch {
        block: [64, 1, 1],
        params: vec![0x1000, 0, 0x2000, 0, size as u32, t as u32],
        ..Launch::default()
    };
    let s = ok(run(&src, &launch, &memory));
    let mut expected = vec![0u32; 256];
    for xid in 0..size - 1 - t {
        let k = size * (xid + t + 1) + t;
        expected[k] = (a[k] / a[size * t + t]).to_bits();
    }
    assert_eq!(s.memory[0].words, expected);
    // One of them by hand: a[50] / a[34] = (1 + 50/3) / (1 + 34/3) ≈ 53/37 = 1.43243…
    assert!((f32::from_bits(s.memory[0].words[50]) - 53.0 / 37.0).abs() < 1e-6);
}
