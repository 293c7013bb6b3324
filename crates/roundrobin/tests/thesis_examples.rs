//! The thesis's worked examples end to end, plus hand-derived numbers.

use caches::{AccessKind, MemoryLevel};
use isa::{ptx, Limits};
use roundrobin::presets::{fermi_gpgpusim, gem5_gpu_table7};
use roundrobin::{analyze, Config, Dim3, Launch, Mode, Overrides, ParamValue, RrResult};

/// The example kernel of §4.4.4, written in PTX from the thesis's listing (the extraction
/// garbled `cvt.s32.u32 %r1, %ctaid.y`; the prose fixes it: the second block stores).
const EXAMPLE_4_4_4: &str = include_str!("../../../www/examples/huangfu-4-4-4.ptx");

fn run(text: &str, launch: &Launch, config: &Config, o: &Overrides) -> RrResult {
    let out = ptx::parse(text, &Limits::default());
    assert!(!out.has_errors(), "{:?}", out.diagnostics);
    let f = out.module.function(None).expect("kernel");
    analyze(f, launch, config, o).unwrap_or_else(|d| panic!("{d}"))
}

fn example_launch() -> Launch {
    Launch {
        grid: Dim3::new(1, 2, 1),
        block: Dim3::new(16, 4, 1),
        params: vec![ParamValue::Int(0)],
    }
}

/// §4.4.4: `<<<dim3(1,2,1), dim3(16,4,1)>>>` with parameter 0 → 2 global instructions at
/// pc 64 and 80; block (0,0,0)'s two warps load [0,128,256,384]; block (0,1,0)'s two warps
/// store [2048,2176,2304,2432].
#[test]
fn section_4_4_4_analyzer_output() {
    let r = run(
        EXAMPLE_4_4_4,
        &example_launch(),
        &fermi_gpgpusim().config,
        &Overrides::default(),
    );
    assert_eq!(r.pc_address, vec![64, 80]);
    assert_eq!(r.warps_per_block, 2);
    type Row = ([u32; 3], u32, u64, AccessKind, Vec<u64>);
    let got: Vec<Row> = r
        .accesses
        .iter()
        .map(|a| (a.block_index, a.warp, a.pc, a.kind, a.segments.clone()))
        .collect();
    let load = vec![0, 128, 256, 384];
    let store = vec![2048, 2176, 2304, 2432];
    assert_eq!(
        got,
        vec![
            ([0, 0, 0], 0, 64, AccessKind::Load, load.clone()),
            ([0, 0, 0], 1, 64, AccessKind::Load, load),
            ([0, 1, 0], 0, 80, AccessKind::Store, store.clone()),
            ([0, 1, 0], 1, 80, AccessKind::Store, store),
        ]
    );
    // Each thread uses 4 of 32 bytes per 128-byte segment... 4 threads (tid.y) share each
    // address, 4 distinct addresses per segment: 16 of 128 bytes.
    assert!(r.accesses.iter().all(|a| a.used_bytes == vec![16; 4]));
    assert_eq!((r.coalescing.max, r.coalescing.avg), (4, 4));
    // Alg. 4's trace: block 0 takes the fall-through (ld) path, block 1 the branch.
    assert_eq!(r.traces[0].basic_blocks, vec![0, 1, 3]);
    assert_eq!(r.traces[2].basic_blocks, vec![0, 2, 3]);
    // Two blocks on two SMs → max competing SMs 1.
    assert_eq!(r.competing_sms.max, 1);
}

/// Hand-derived WCET of a two-warp straight-line kernel under the Fermi preset (N = 2 ≤ 8:
/// no stalls). Segments: {mov} (LI 1, LE 8+1+4 = 13) and {add, ret} (add depends on mov;
/// ret joins: LI 2, LE 13). Eq. 5.1: T00 = 0, T10 = 1. Eq. 5.2: T01 = max(0+1 + 1, 0+1+13)
/// = 14 (cursor 16), T11 = max(16, 1+1+13) = 16. Eq. 5.3: W0 ends 14+2+13 = 29, W1
/// 16+2+13 = 31 → WCET 31.
#[test]
fn wcet_two_warps_hand_derived() {
    let text = ".entry k()\n{ .reg .pred %p<16>; .reg .b32 %r<32>; .reg .b64 %rd<32>; .reg .f32 %f<16>;\nmov.u32 %r1, %tid.x;\nadd.s32 %r2, %r1, 1;\nret;\n}\n";
    let launch = Launch {
        grid: Dim3::new(1, 1, 1),
        block: Dim3::new(64, 1, 1),
        params: vec![],
    };
    let r = run(
        text,
        &launch,
        &fermi_gpgpusim().config,
        &Overrides::default(),
    );
    assert_eq!(r.segments.len(), 2);
    assert_eq!((r.segments[0].li, r.segments[0].le), (1, 13));
    assert_eq!((r.segments[1].li, r.segments[1].le), (2, 13));
    assert_eq!(r.segments[1].opcode, "add.s32 + ret");
    let t: Vec<(usize, Vec<u64>)> = r.segments[1]
        .t
        .iter()
        .map(|x| (x.warp, x.times.clone()))
        .collect();
    assert_eq!(t, vec![(0, vec![14]), (1, vec![16])]);
    assert_eq!(r.wcet.cycles, 31);
    assert!(r.wcet.safe);
    assert_eq!(r.gantt[1].end, 31);
}

/// Table 4, gsn k1 (Rodinia gaussian `Fan1`): average coalesced accesses 22, maximum 32,
/// one active SM so no competing SM. Each full warp executes a broadcast load (1 segment),
/// a load and a store with a row stride (32 segments each): mean 65/3 → 22.
#[test]
fn table4_gaussian_fan1_coalescing() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpus/ptx/gaussian___Z4Fan1PfS_ii.ptx"
    );
    let text = std::fs::read_to_string(path).expect("corpus file");
    let launch = Launch {
        grid: Dim3::new(1, 1, 1),
        block: Dim3::new(512, 1, 1),
        params: vec![
            ParamValue::Int(0x1000_0000),
            ParamValue::Int(0x2000_0000),
            ParamValue::Int(256),
            ParamValue::Int(0),
        ],
    };
    let r = run(
        &text,
        &launch,
        &fermi_gpgpusim().config,
        &Overrides::default(),
    );
    assert_eq!(r.coalescing.max, 32);
    assert_eq!(r.coalescing.avg, 22);
    assert_eq!((r.competing_sms.max, r.competing_sms.avg), (0, 0));
    // Threads 0..254 pass `setp.ge.u32 %r1, Size-1-t`: warps 0–6 full, warp 7 has 31.
    let warps_with_accesses: Vec<u32> = r
        .traces
        .iter()
        .filter(|t| t.steps.len() > 13)
        .map(|t| t.warp)
        .collect();
    assert_eq!(warps_with_accesses, (0..8).collect::<Vec<_>>());
    assert_eq!(r.accesses.len(), 8 * 3);
    assert_eq!(r.accesses[23].segments.len(), 31);
}

/// Eq. 5.5–5.6 with what-if overrides: N_coal 8, 6 competing SMs, 16 warps (Fig. 24's
/// values) give the `ld.global` segment LI_inst 56 and LE_inst 480.
#[test]
fn fig24_overrides_reach_the_segments_table() {
    let o = Overrides {
        n_coal: Some(8),
        competing_sms: Some(6),
        active_warps: Some(16),
    };
    let mut config = fermi_gpgpusim().config;
    config.segmentation = roundrobin::Segmentation::PerInstruction;
    let r = run(EXAMPLE_4_4_4, &example_launch(), &config, &o);
    let ld = r
        .segments
        .iter()
        .find(|s| s.opcode == "ld.global.f32")
        .expect("ld segment");
    assert_eq!((ld.li_inst, ld.le_inst), (56, 480));
    assert_eq!((ld.li, ld.le), (57, 480));
    let add = r
        .segments
        .iter()
        .find(|s| s.opcode == "add.u64")
        .expect("add segment");
    assert_eq!((add.li, add.le), (2, 13));
    assert!(!r.wcet.safe);
}

/// The max mode is never below the avg mode.
#[test]
fn max_mode_bounds_avg_mode() {
    let mut config = fermi_gpgpusim().config;
    let launch = Launch {
        grid: Dim3::new(4, 2, 1),
        block: Dim3::new(16, 4, 1),
        params: vec![ParamValue::Int(4096)],
    };
    let max = run(EXAMPLE_4_4_4, &launch, &config, &Overrides::default());
    config.mode = Mode::Avg;
    let avg = run(EXAMPLE_4_4_4, &launch, &config, &Overrides::default());
    assert!(avg.wcet.cycles <= max.wcet.cycles);
    assert!(avg.mode_label.contains("not a safe bound"));
    assert_eq!(max.competing_sms.max, 7);
}

/// Table 7 caches on the §4.4.4 example. Block 0 runs on SM 0, block 1 on SM 1. SM 0: W0's
/// 4 lines miss in L1 and L2; W1 re-reads them from L1. SM 1: stores are write-through:
/// W0's 4 lines miss in L2; W1's 4 stores re-touch them with nothing in between → L2 hits.
#[test]
fn table7_cache_levels() {
    let r = run(
        EXAMPLE_4_4_4,
        &example_launch(),
        &gem5_gpu_table7().config,
        &Overrides::default(),
    );
    let levels: Vec<Option<MemoryLevel>> = r.accesses.iter().map(|a| a.level).collect();
    assert_eq!(
        levels,
        vec![
            Some(MemoryLevel::L2Miss),
            Some(MemoryLevel::L1Hit),
            Some(MemoryLevel::L2Miss),
            Some(MemoryLevel::L2Hit)
        ]
    );
    let c = r.caches.expect("cache report");
    assert_eq!((c.l1[0].load_hits, c.l1[0].load_misses), (4, 4));
    assert_eq!((c.llc.accesses, c.llc.misses), (12, 8));
    // U = 16/128 and each line is reused once: 0.125 × 2 < 1 → all 4 lines bypassed.
    assert_eq!(c.bypass[0].bypassed, vec![0, 128, 256, 384]);
}

/// A warp that diverges runs the taken side first, then the other, then reconverges at the
/// immediate post-dominator (Alg. 4 lines 21–25).
#[test]
fn divergent_branch_reconverges() {
    let text = "\
.entry k(.param .u64 p)
{ .reg .pred %p<16>; .reg .b32 %r<32>; .reg .b64 %rd<32>; .reg .f32 %f<16>;
ld.param.u64 %rd1, [p];
mov.u32 %r1, %tid.x;
setp.lt.u32 %p1, %r1, 8;
@%p1 bra A;
mul.wide.u32 %rd2, %r1, 4;
add.s64 %rd3, %rd1, %rd2;
st.global.u32 [%rd3], %r1;
bra J;
A:
mul.wide.u32 %rd2, %r1, 8;
add.s64 %rd3, %rd1, %rd2;
ld.global.u32 %r2, [%rd3];
J:
ret;
}
";
    let launch = Launch {
        grid: Dim3::new(1, 1, 1),
        block: Dim3::new(32, 1, 1),
        params: vec![ParamValue::Int(1024)],
    };
    let r = run(
        text,
        &launch,
        &fermi_gpgpusim().config,
        &Overrides::default(),
    );
    assert_eq!(r.traces[0].basic_blocks, vec![0, 2, 1, 3]);
    // Taken side: 8 threads × 8-byte stride = 64 bytes → one segment at 1024, 4 bytes each.
    assert_eq!(r.accesses[0].kind, AccessKind::Load);
    assert_eq!(r.accesses[0].segments, vec![1024]);
    assert_eq!(r.accesses[0].used_bytes, vec![32]);
    // Other side: threads 8..31 × 4 bytes = 1056..1151 → one segment, 96 bytes.
    assert_eq!(r.accesses[1].kind, AccessKind::Store);
    assert_eq!(r.accesses[1].segments, vec![1024]);
    assert_eq!(r.accesses[1].used_bytes, vec![96]);
    let active_at_ret = *r.traces[0].active.last().expect("steps");
    assert_eq!(active_at_ret, 32);
}

/// A loop with a parameter-dependent trip count runs exactly that many times.
#[test]
fn loop_bound_from_parameter() {
    let text = "\
.entry k(.param .u32 n)
{ .reg .pred %p<16>; .reg .b32 %r<32>; .reg .b64 %rd<32>; .reg .f32 %f<16>;
ld.param.u32 %r1, [n];
mov.u32 %r2, 0;
L:
add.s32 %r2, %r2, 1;
setp.lt.s32 %p1, %r2, %r1;
@%p1 bra L;
ret;
}
";
    let launch = Launch {
        grid: Dim3::new(1, 1, 1),
        block: Dim3::new(32, 1, 1),
        params: vec![ParamValue::Int(5)],
    };
    let r = run(
        text,
        &launch,
        &fermi_gpgpusim().config,
        &Overrides::default(),
    );
    // 2 + 5 × 3 + 1 steps.
    assert_eq!(r.traces[0].steps.len(), 18);
    assert_eq!(r.traces[0].basic_blocks, vec![0, 1, 1, 1, 1, 1, 2]);
}

/// An address that depends on loaded data is a located error (§4.4.6.1), and an endless
/// loop hits the step budget, naming it.
#[test]
fn unanalysable_kernels_are_located_errors() {
    let text = "\
.entry k(.param .u64 p)
{ .reg .pred %p<16>; .reg .b32 %r<32>; .reg .b64 %rd<32>; .reg .f32 %f<16>;
ld.param.u64 %rd1, [p];
ld.global.u64 %rd2, [%rd1];
ld.global.u32 %r1, [%rd2+8];
ret;
}
";
    let out = ptx::parse(text, &Limits::default());
    let f = out.module.function(None).expect("k");
    let launch = Launch {
        grid: Dim3::new(1, 1, 1),
        block: Dim3::new(32, 1, 1),
        params: vec![ParamValue::Int(0)],
    };
    let err = analyze(f, &launch, &fermi_gpgpusim().config, &Overrides::default())
        .expect_err("data-dependent address");
    assert_eq!((err.line, err.column), (5, 20));

    let endless = ".entry k()\n{\nL:\nbra L;\n}\n";
    let out = ptx::parse(endless, &Limits::default());
    let f = out.module.function(None).expect("k");
    let mut config = fermi_gpgpusim().config;
    config.budgets.max_warp_steps = 1000;
    let launch = Launch {
        params: vec![],
        ..launch
    };
    let err = analyze(f, &launch, &config, &Overrides::default()).expect_err("budget");
    assert!(err.message.contains("max_warp_steps"), "{}", err.message);

    // Wrong number of parameters points at the kernel.
    let err = analyze(
        ptx::parse(EXAMPLE_4_4_4, &Limits::default())
            .module
            .function(None)
            .expect("k"),
        &launch,
        &config,
        &Overrides::default(),
    )
    .expect_err("missing parameter");
    assert_eq!(err.line, 2);
}

/// One SM holding one block at a time: the two blocks of §4.4.4 run as two waves, the
/// second starting when the first has finished, and the kernel's WCET is their sum. The L1
/// state carries over between waves (block 1's stores follow block 0's loads).
#[test]
fn waves_run_back_to_back() {
    let mut config = gem5_gpu_table7().config;
    config.sms = 1;
    config.max_blocks_per_sm = 1;
    let r = run(
        EXAMPLE_4_4_4,
        &example_launch(),
        &config,
        &Overrides::default(),
    );
    let waves: Vec<u32> = r.gantt.iter().map(|g| g.wave).collect();
    assert_eq!(waves, vec![0, 0, 1, 1]);
    let first_end = r.gantt[0].end.max(r.gantt[1].end);
    let second_start = r.gantt[2].intervals[0].start;
    assert_eq!(second_start, first_end);
    assert_eq!(r.wcet.cycles, r.gantt[2].end.max(r.gantt[3].end));
    assert_eq!(r.wcet.per_sm, vec![r.wcet.cycles]);
    // 2 warps resident (one block) → N = 2.
    assert_eq!(r.estimates.values.active_warps, 2);
    let c = r.caches.expect("caches");
    assert_eq!(c.l1.len(), 1);
    assert_eq!((c.l1[0].load_hits, c.l1[0].store_lines), (4, 8));
    assert_eq!((c.llc.accesses, c.llc.misses), (12, 8));
}
