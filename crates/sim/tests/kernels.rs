//! Functional results of whole kernels: what the kernel computed, checked against the
//! same computation done in Rust.

mod common;

use common::{array, preset, run};
use sim::{ArrayInit, Fill, Launch, MemoryInit, SplitMix64};

/// `c[i] = a[i] + b[i]` for `i < n`, `i = blockIdx.x * blockDim.x + threadIdx.x`, with
/// 64-bit addresses built by the carry chain `IADD.CC` / `IADD.X` (Maxwell style).
pub const VECTOR_ADD: &str = "
MOV R1, c[0x0][0x20];
S2R R0, SR_CTAID.X;
S2R R2, SR_TID.X;
IMAD R0, R0, c[0x0][0x8], R2;
ISETP.GE.AND P0, PT, R0, c[0x0][0x158], PT;
@P0 EXIT;
SHL R6, R0, 0x2;
SHR R7, R0, 0x1e;
IADD R2.CC, R6, c[0x0][0x140];
IADD.X R3, R7, c[0x0][0x144];
IADD R4.CC, R6, c[0x0][0x148];
IADD.X R5, R7, c[0x0][0x14c];
LDG.E R2, [R2];
LDG.E R4, [R4];
IADD R8.CC, R6, c[0x0][0x150];
IADD.X R9, R7, c[0x0][0x154];
IADD R2, R2, R4;
STG.E [R8], R2;
EXIT;
";

/// `VECTOR_ADD` on `n` elements on preset `preset`.
fn vector_add(n: u32, preset_name: &str) -> Result<sim::Simulation, sim::SimError> {
    run(
        VECTOR_ADD,
        &vector_add_launch(n),
        &preset(preset_name),
        &vector_add_memory(n),
    )
}

fn vector_add_memory(n: u32) -> MemoryInit {
    MemoryInit {
        arrays: vec![
            ArrayInit {
                name: "a".into(),
                address: 0x1_0000_1000,
                words: n,
                fill: Fill::Iota { start: 0, step: 1 },
            },
            ArrayInit {
                name: "b".into(),
                address: 0x1_0000_2000,
                words: n,
                fill: Fill::Random {
                    seed: 42,
                    below: 1000,
                },
            },
            ArrayInit {
                name: "c".into(),
                address: 0x1_0000_3000,
                words: 128,
                fill: Fill::Constant { value: 0xdead },
            },
        ],
        open: None,
    }
}

fn vector_add_launch(n: u32) -> Launch {
    Launch {
        grid: [2, 1, 1],
        block: [64, 1, 1],
        // Pointers above 4 GiB, so the high words and the carry chain matter.
        params: vec![0x1000, 1, 0x2000, 1, 0x3000, 1, n],
        ..Launch::default()
    }
}

#[test]
fn vector_add_computes_the_sum_on_every_preset() {
    let n = 100;
    let mut rng = SplitMix64::new(42);
    let b: Vec<u32> = (0..n)
        .map(|_| ((rng.next_u64() >> 32) as u32) % 1000)
        .collect();
    for name in ["unit-cost", "makespan", "gpgpusim-like"] {
        let s = vector_add(n, name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let c = array(&s, "c");
        for i in 0..128usize {
            let want = if i < n as usize {
                i as u32 + b[i]
            } else {
                0xdead
            };
            assert_eq!(c[i], want, "{name}: c[{i}]");
        }
        // 4 warps; the 28 threads past n exit at the guarded EXIT.
        assert_eq!(s.warps.len(), 4, "{name}");
    }
}

#[test]
fn vector_add_transactions_are_coalesced() {
    // Each full warp loads 32 consecutive words from a 128-byte aligned address: one
    // segment per LDG. Warp 3 has lanes 96..99 only (n = 100): also one segment.
    let n = 100;
    let s = vector_add(n, "gpgpusim-like").unwrap_or_else(|e| panic!("{e}"));
    let loads: Vec<_> = s.transactions.iter().filter(|t| !t.store).collect();
    assert_eq!(loads.len(), 8);
    assert!(loads.iter().all(|t| t.segments.len() == 1));
    let last = loads.iter().filter(|t| t.warp == 3).count();
    assert_eq!(last, 2);
    let w3 = loads
        .iter()
        .find(|t| t.warp == 3)
        .map(|t| t.lane_addresses().len());
    assert_eq!(w3, Some(4));
    // First load of warp 0: lane 0 reads a[0] at 0x1_0000_1000.
    assert_eq!(loads[0].segments, vec![0x1_0000_1000]);
}

/// `y[i] = a * x[i] + y[i]` in single precision (FFMA with a constant-bank operand).
const SAXPY: &str = "
S2R R0, SR_TID.X;
SHL R2, R0, 0x2;
IADD R4, R2, c[0x0][0x140];
IADD R6, R2, c[0x0][0x144];
LDG R3, [R4];
LDG R5, [R6];
FFMA R5, R3, c[0x0][0x148], R5;
STG [R6], R5;
EXIT;
";

#[test]
fn saxpy_in_single_precision() {
    let x: Vec<f32> = (0..32).map(|i| i as f32 * 0.25 - 3.0).collect();
    let y: Vec<f32> = (0..32).map(|i| 100.0 / (i as f32 + 1.0)).collect();
    let a = 2.5f32;
    let mem = MemoryInit {
        arrays: vec![
            ArrayInit {
                name: "x".into(),
                address: 0x100,
                words: 32,
                fill: Fill::Floats { values: x.clone() },
            },
            ArrayInit {
                name: "y".into(),
                address: 0x200,
                words: 32,
                fill: Fill::Floats { values: y.clone() },
            },
        ],
        open: None,
    };
    let launch = Launch {
        params: vec![0x100, 0x200, a.to_bits()],
        ..Launch::default()
    };
    let s = run(SAXPY, &launch, &preset("gpgpusim-like"), &mem).unwrap_or_else(|e| panic!("{e}"));
    let out = array(&s, "y");
    for i in 0..32 {
        assert_eq!(f32::from_bits(out[i]), a.mul_add(x[i], y[i]), "y[{i}]");
    }
}

#[test]
fn a_run_without_the_trace_keeps_cycles_and_memory() {
    // (The JSON the report writes of a run is the facade's: `warpbound::views::sim_parts`.)
    let n = 40;
    let s = vector_add(n, "gpgpusim-like").unwrap_or_else(|e| panic!("{e}"));
    // Without the trace: the same cycles and memory, no per-instruction data.
    let quiet = run(
        VECTOR_ADD,
        &Launch {
            trace: false,
            ..vector_add_launch(n)
        },
        &preset("gpgpusim-like"),
        &vector_add_memory(n),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((quiet.cycles, quiet.issued), (s.cycles, s.issued));
    assert_eq!(quiet.memory, s.memory);
    assert!(quiet.transactions.is_empty() && quiet.stepper.steps.is_empty());
    assert!(quiet.warps.iter().all(|w| w.issues.is_empty()));
}

#[test]
fn scattered_addresses_are_listed() {
    // Lane t loads word (t * 7) % 32: not affine, so every lane's address is listed.
    let src = "S2R R0, SR_TID.X;\nIMUL R1, R0, 0x7;\nLOP32I.AND R1, R1, 0x1f;\nSHL R1, R1, 0x2;\nLDG R2, [R1+0x100];\nEXIT;\n";
    let mem = MemoryInit {
        arrays: vec![ArrayInit {
            name: "a".into(),
            address: 0x100,
            words: 32,
            fill: Fill::Iota { start: 0, step: 1 },
        }],
        open: None,
    };
    let s = run(src, &Launch::default(), &preset("gpgpusim-like"), &mem)
        .unwrap_or_else(|e| panic!("{e}"));
    let t = &s.transactions[0];
    assert_eq!(t.stride, None);
    let want: Vec<u64> = (0..32u64).map(|l| 0x100 + 4 * ((l * 7) % 32)).collect();
    assert_eq!(t.addresses, want);
    assert_eq!(t.lane_addresses(), want);
    assert_eq!(t.segments, vec![0x100]);
}
