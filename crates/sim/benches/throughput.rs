//! Simulation speed in warp-instructions per second (issue #7 item 9: at least 5 million
//! natively). A counted loop of integer work and shared-memory traffic (2 of its 9
//! instructions are loads/stores), 8 warps of 32 threads, 72 072 warp-instructions, on the
//! unit-cost and gpgpusim-like presets, with the per-instruction trace recorded (timelines,
//! occupancy, transactions, stepper) and without it (`Launch::trace = false`).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sim::{Budget, Launch, MemoryInit};

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
    let budget = Budget {
        max_timeline_entries: 1 << 20,
        ..Budget::default()
    };
    let mut group = c.benchmark_group("simulate");
    for preset in sim::presets() {
        if preset.name == "makespan" {
            continue;
        }
        for trace in [true, false] {
            let launch = Launch {
                trace,
                ..launch.clone()
            };
            let Ok(s) = sim::run(
                &kernel,
                &launch,
                &preset.machine,
                &MemoryInit::default(),
                &budget,
            ) else {
                continue;
            };
            group.throughput(Throughput::Elements(s.issued));
            group.sample_size(20);
            let name = format!(
                "{}/{}",
                preset.name,
                if trace { "trace" } else { "no-trace" }
            );
            group.bench_function(name, |b| {
                b.iter(|| {
                    sim::run(
                        &kernel,
                        &launch,
                        &preset.machine,
                        &MemoryInit::default(),
                        &budget,
                    )
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
