//! Simulation speed in warp-instructions per second (issue #7 item 9: at least 5 million
//! natively). A counted loop of integer work and shared-memory traffic (2 of its 9
//! instructions are loads/stores), 8 warps of 32 threads, 72 072 warp-instructions, on the
//! unit-cost and gpgpusim-like presets, with the per-instruction trace recorded (timelines,
//! occupancy, transactions, stepper) and without it (`Launch::trace = false`). The same
//! loop in PTX and in GCN3 assembly measures the other two engines (`simulate-ptx/…`,
//! `simulate-gcn/…`; the GCN3 run includes parsing the text, as `gcn::run_source` does).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sim::{Budget, Launch, Machine, MemoryInit, Simulation};

const LOOP: &str = "
S2R R0, SR_TID.X;
SHL R1, R0, 0x2;
MOV32I R2, 0x0;
MOV R3, RZ;
L:
IADD R3, R3, R0;
LOP.XOR R4, R3, R2;
IMAD R5, R4, R0, R3;
STS [R1], R5;
LDS R6, [R1];
ISCADD R3, R6, R3, 0x1;
IADD32I R2, R2, 0x1;
ISETP.LT.U32.AND P0, PT, R2, 0x3e8, PT;
@P0 BRA L;
EXIT;
";

/// One benchmark per preset (but `makespan`) and trace setting: `run(launch, machine)` on
/// `launch` with `trace` set, throughput in issued warp-instructions.
fn group<E>(
    c: &mut Criterion,
    name: &str,
    launch: &Launch,
    run: impl Fn(&Launch, &Machine) -> Result<Simulation, E>,
) {
    let mut group = c.benchmark_group(name);
    for preset in sim::presets() {
        if preset.name == "makespan" {
            continue;
        }
        for trace in [true, false] {
            let launch = Launch {
                trace,
                ..launch.clone()
            };
            let Ok(s) = run(&launch, &preset.machine) else {
                continue;
            };
            group.throughput(Throughput::Elements(s.issued));
            group.sample_size(20);
            let id = format!(
                "{}/{}",
                preset.name,
                if trace { "trace" } else { "no-trace" }
            );
            group.bench_function(id, |b| b.iter(|| run(&launch, &preset.machine)));
        }
    }
    group.finish();
}

fn budget() -> Budget {
    Budget {
        max_timeline_entries: 1 << 20,
        ..Budget::default()
    }
}

/// The PTX and GCN3 loops store to a 256-word array at 0x1000 (parameter 0).
fn out_array() -> MemoryInit {
    MemoryInit {
        arrays: vec![sim::ArrayInit {
            name: "out".into(),
            address: 0x1000,
            words: 256,
            fill: sim::Fill::Constant { value: 0 },
        }],
        open: None,
    }
}

fn bench(c: &mut Criterion) {
    let out = isa::sass::parse(LOOP, None, &isa::Limits::default());
    let Some(kernel) = out.kernel else {
        return;
    };
    let launch = Launch {
        block: [256, 1, 1],
        shared_bytes: 1024,
        ..Launch::default()
    };
    let (memory, budget) = (MemoryInit::default(), budget());
    group(c, "simulate", &launch, |l, m| {
        sim::run(&kernel, l, m, &memory, &budget)
    });
}

/// The same loop in PTX (global memory instead of shared), for the PTX engine.
const PTX_LOOP: &str = ".version 7.0
.target sm_52
.address_size 64
.visible .entry k(.param .u64 out)
{
.reg .pred %p<3>;
.reg .b32 %r<10>;
.reg .b64 %rd<4>;
ld.param.u64 %rd1, [out];
cvta.to.global.u64 %rd2, %rd1;
mov.u32 %r1, %tid.x;
mul.wide.u32 %rd3, %r1, 4;
add.s64 %rd3, %rd2, %rd3;
mov.u32 %r2, 0;
mov.u32 %r3, 0;
L:
add.s32 %r3, %r3, %r1;
xor.b32 %r4, %r3, %r2;
mad.lo.s32 %r5, %r4, %r1, %r3;
st.global.u32 [%rd3], %r5;
ld.global.u32 %r6, [%rd3];
shl.b32 %r7, %r6, 1;
add.s32 %r3, %r7, %r3;
add.s32 %r2, %r2, 1;
setp.lt.u32 %p1, %r2, 1000;
@%p1 bra L;
ret;
}
";

fn bench_ptx(c: &mut Criterion) {
    let parsed = isa::ptx::parse(PTX_LOOP, &isa::Limits::default());
    let Some(f) = parsed.module.function(None) else {
        return;
    };
    let launch = Launch {
        block: [256, 1, 1],
        params: vec![0x1000, 0],
        ..Launch::default()
    };
    let (memory, budget) = (out_array(), budget());
    group(c, "simulate-ptx", &launch, |l, m| {
        sim::run_ptx(f, l, m, &memory, &budget)
    });
}

/// The same loop in GCN3 assembly (flat global memory, scalar loop counter), for the GCN3
/// engine.
const GCN_LOOP: &str = "k:
  s_load_dwordx2 s[0:1], s[4:5], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  v_mov_b32_e32 v3, s1
  v_add_u32_e32 v2, vcc, s0, v1
  v_addc_u32_e32 v3, vcc, 0, v3, vcc
  s_mov_b32 s6, 0
  v_mov_b32_e32 v4, 0
L:
  v_add_u32_e32 v4, vcc, v4, v0
  v_xor_b32_e32 v5, s6, v4
  v_mul_lo_u32 v6, v5, v0
  v_add_u32_e32 v6, vcc, v6, v4
  flat_store_dword v[2:3], v6
  flat_load_dword v7, v[2:3]
  s_waitcnt vmcnt(0)
  v_lshlrev_b32_e32 v7, 1, v7
  v_add_u32_e32 v4, vcc, v7, v4
  s_add_u32 s6, s6, 1
  s_cmp_lt_u32 s6, 1000
  s_cbranch_scc1 L
  s_endpgm
";

fn bench_gcn(c: &mut Criterion) {
    let launch = Launch {
        block: [256, 1, 1],
        params: vec![0x1000, 0],
        ..Launch::default()
    };
    let (memory, budget) = (out_array(), budget());
    group(c, "simulate-gcn", &launch, |l, m| {
        sim::gcn::run_source(GCN_LOOP, None, l, m, &memory, &budget)
    });
}

criterion_group!(benches, bench, bench_ptx, bench_gcn);
criterion_main!(benches);
