//! Automatic launches and observed loop bounds (issue #26 items 2 and 3): a SASS kernel
//! pasted without `params` or `memory` runs with parameters inferred from its listing and
//! buffers that grow as the run needs; a run's loop counts become `loop_bounds=observed`.
//! Values derived by hand in each test's comment.

#[path = "common/report.rs"]
mod report;

use isa::Dialect;
use report::{analyze_sass as request, array};
use warpbound::report::ArgumentKind;
use warpbound::{analyze, Request};

/// `data_if_else(const float *x, float *y, float lo, float hi, int n)` (tests/kernels/src)
/// on sm_61, sm_86 and sm_90: x and y are pointers, lo and hi floats (1.0), n an integer
/// (64). x holds integers below 64, as floats denormals far below lo = 1, so every thread
/// takes `v = lo + (lo - v) * 0.5 = 1.5` and stores `y[i] = v * v = 2.25` for its i < 32.
#[test]
fn data_if_else_runs_with_inferred_parameters_and_buffers() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/kernels/sass");
    for (arch, base) in [("sm_61", 0x140), ("sm_86", 0x160), ("sm_90", 0x210)] {
        let Ok(src) = std::fs::read_to_string(format!("{root}/{arch}/data_if_else.sass")) else {
            panic!("{arch}: listing missing");
        };
        let r = request(&src, "simulate", &[]);
        assert!(!r.has_errors(), "{arch}: {:?}", r.diagnostics);
        let args = r.arguments.as_ref().expect("arguments");
        let names: Vec<String> = args.values.iter().map(|a| a.name.clone()).collect();
        let expect: Vec<String> = [0, 8, 0x10, 0x14, 0x18]
            .iter()
            .map(|o| format!("p{:#x}", base + o))
            .collect();
        assert_eq!(names, expect, "{arch}");
        let kinds: Vec<ArgumentKind> = args.values.iter().map(|a| a.kind).collect();
        use ArgumentKind::*;
        assert_eq!(kinds, [Pointer, Pointer, Float, Float, Integer], "{arch}");
        assert_eq!(
            args.memory,
            format!(
                "p{:#x}@0x100000 1024 hash 1 64; p{:#x}@0x200000 1024 hash 1 64; * hash 1 64",
                base,
                base + 8
            ),
            "{arch}"
        );
        let y = array(&r, &format!("p{:#x}", base + 8));
        assert!(
            y[..32].iter().all(|&w| f32::from_bits(w) == 2.25),
            "{arch}: {:?}",
            &y[..32]
        );
        assert!(r
            .diagnostics
            .iter()
            .any(|d| d.message.contains("inferred from the constant-bank words")));
    }
}

/// `y[1000 i] = x[1000 i]` for the 32 threads: the last access is word 31 000, so after the
/// run each array covers words 0 … 31 000 (31 001 words), and every value read is the word
/// its address hashes to (seed 1, below 64), whatever the array's extent.
#[test]
fn buffers_grow_to_the_accesses_the_run_makes() {
    let src = "code for sm_86
/*0000*/ S2R R0, SR_TID.X ;
/*0010*/ IMAD R0, R0, 0x3e8, RZ ;
/*0020*/ IMAD.MOV.U32 R3, RZ, RZ, 0x4 ;
/*0030*/ IMAD.WIDE R4, R0, R3, c[0x0][0x160] ;
/*0040*/ LDG.E R8, [R4.64] ;
/*0050*/ IMAD.WIDE R6, R0, R3, c[0x0][0x168] ;
/*0060*/ STG.E [R6.64], R8 ;
/*0070*/ EXIT ;
";
    let r = request(src, "simulate", &[]);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    assert_eq!(
        r.arguments.as_ref().expect("arguments").memory,
        "p0x160@0x100000 31001 hash 1 64; p0x168@0x200000 31001 hash 1 64; * hash 1 64"
    );
    assert!(r.arguments.as_ref().expect("arguments").outside.is_empty());
    let (x, y) = (array(&r, "p0x160"), array(&r, "p0x168"));
    let open = warpbound::auto_memory::open();
    for i in 0..32 {
        assert_eq!(y[1000 * i], x[1000 * i], "thread {i}");
        assert_eq!(
            x[1000 * i],
            open.word(0x10_0000 + 4000 * i as u64),
            "thread {i}"
        );
    }
    // Given parameters and memory are used as given: no inference, no growth.
    let r = request(
        src,
        "simulate",
        &[
            ("params", serde_json::json!("0x1000,0,0x2000,0")),
            (
                "memory",
                serde_json::json!("x@0x1000 8 const 1; y@0x2000 8 const 0"),
            ),
        ],
    );
    assert!(r.arguments.is_none());
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.message.contains("outside every array")));
}

/// `for (r = 1; r < tid; r++)` in a `BSSY` region: thread t runs the header at 0x30
/// max(1, t) times, so the run observes 31. Unit cost, stack order: 3 instructions before
/// the loop, 31 iterations of 3, one `BSYNC` per group that leaves (lanes 0–1 after the
/// first iteration, then one lane per iteration: 31 groups), and `EXIT`: 3 + 93 + 31 + 1 =
/// 128 cycles, which is also the bound with the observed loop bound 31.
#[test]
fn observed_loop_counts_become_the_bounds() {
    let src = "code for sm_86
/*0000*/ S2R R0, SR_TID.X ;
/*0010*/ MOV R1, RZ ;
/*0020*/ BSSY B0, 0x70 ;
/*0030*/ IADD3 R1, R1, 0x1, RZ ;
/*0040*/ ISETP.GE.U32.AND P0, PT, R1, R0, PT ;
/*0050*/ @!P0 BRA 0x30 ;
/*0060*/ BSYNC B0 ;
/*0070*/ EXIT ;
";
    let r = request(
        src,
        "warp-cfg",
        &[("loop_bounds", serde_json::json!("observed"))],
    );
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let sim = r
        .simulation
        .as_ref()
        .expect("simulation (made with simulate off)");
    assert_eq!(sim.loop_iterations.len(), 1);
    assert_eq!(sim.loop_iterations[0].header, "0x30");
    assert_eq!(sim.loop_iterations[0].iterations, 31);
    assert_eq!(sim.run.cycles, 128);
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(128));
    assert_eq!(sim.holds, Some(true));
    // The code bounds the loop too (R1 += 1 from 0 while R1 + 1 < tid, tid ≤ 31: 31 runs),
    // so a request's bound above that is replaced by it, with a note (issue #38).
    let mut req = Request::new(src, Dialect::Sass);
    req.mode = Some("warp-cfg".into());
    req.params
        .insert("loop_bounds".into(), serde_json::json!("observed"));
    req.loop_bounds.insert("0x30".into(), 40);
    let r = analyze(&req);
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(128), "{:?}", r.wcet);
    assert!(
        r.diagnostics.iter().any(|d| d
            .message
            .contains("given bound 40 is more than the code allows")),
        "{:?}",
        r.diagnostics
    );
    // A request's bound below the code's is the user's call: used, and the run exceeds it.
    let mut req = Request::new(src, Dialect::Sass);
    req.mode = Some("warp-cfg".into());
    req.params
        .insert("simulate".into(), serde_json::json!(true));
    req.loop_bounds.insert("0x30".into(), 10);
    let r = analyze(&req);
    assert_eq!(r.loop_bounds[0].bound_from, "given");
    assert_eq!(r.loop_bounds[0].inferred, Some(31));
    assert_eq!(r.simulation.as_ref().and_then(|s| s.holds), Some(false));
    // Without a bound of the request's the inferred one applies, and the run is within it.
    let r = request(src, "warp-cfg", &[("simulate", serde_json::json!(true))]);
    assert_eq!(
        r.simulation
            .as_ref()
            .map(|s| s.loop_iterations[0].iterations),
        Some(31)
    );
    assert_eq!(r.loop_bounds[0].bound_from, "inferred");
    assert_eq!(r.simulation.as_ref().and_then(|s| s.holds), Some(true));
}

/// PTX: the automatic pointers (1 MiB apart) get buffers too, and `y[i] = x[i] + 1`
/// holds for the 32 threads.
#[test]
fn ptx_pointers_get_buffers() {
    let src = "
.version 7.8
.target sm_52
.address_size 64
.visible .entry inc(.param .u64 inc_param_0, .param .u64 inc_param_1)
{
  .reg .b32 %r<4>; .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [inc_param_0];
  ld.param.u64 %rd2, [inc_param_1];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd3, %rd5;
  ld.global.u32 %r2, [%rd6];
  add.s32 %r3, %r2, 1;
  add.s64 %rd7, %rd4, %rd5;
  st.global.u32 [%rd7], %r3;
  ret;
}
";
    let mut req = Request::new(src, Dialect::Ptx);
    req.mode = Some("simulate".into());
    let r = analyze(&req);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    assert_eq!(
        r.arguments.as_ref().expect("arguments").memory,
        "param_0@0x100000 1024 hash 1 64; param_1@0x200000 1024 hash 1 64; * hash 1 64"
    );
    let (x, y) = (array(&r, "param_0"), array(&r, "param_1"));
    for i in 0..32 {
        assert_eq!(y[i], x[i] + 1, "thread {i}");
    }
    assert!(x[..32].iter().all(|&v| v < 64));
}

/// A kernel whose warps wait for each other: warp 0 spins on the shared word 0 until
/// another warp stores 7 there, then stores it to the pointer parameter. One warp spins
/// until a budget stops it; the automatic launch then runs 256 threads (8 warps), and
/// `out[0] = 7`. A `block` the request sets is kept (the run stops at the budget).
#[test]
fn warps_that_wait_for_each_other_get_a_block() {
    let src = "code for sm_61
/*0000*/ S2R R0, SR_TID.X ;
/*0008*/ ISETP.GE.AND P0, PT, R0, 0x20, PT ;
/*0010*/ @P0 BRA 0x58 ;
/*0018*/ LDS R1, [0x0] ;
/*0020*/ ISETP.EQ.AND P1, PT, R1, RZ, PT ;
/*0028*/ @P1 BRA 0x18 ;
/*0030*/ MOV R2, c[0x0][0x140] ;
/*0038*/ MOV R3, c[0x0][0x144] ;
/*0040*/ STG.E [R2], R1 ;
/*0048*/ EXIT ;
/*0050*/ NOP ;
/*0058*/ MOV32I R4, 0x7 ;
/*0060*/ STS [0x0], R4 ;
/*0068*/ EXIT ;
";
    let r = request(src, "simulate", &[]);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let sim = r.simulation.as_ref().expect("simulation");
    assert_eq!(sim.run.warps.len(), 8);
    assert_eq!(array(&r, "p0x140")[0], 7);
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.message.contains("block of 256 threads")),
        "{:?}",
        r.diagnostics
    );
    // warp-cfg: loop counts over the 8 warps (warp 0 spun), the run not compared with the
    // one-warp bound.
    let r = request(
        src,
        "warp-cfg",
        &[("loop_bounds", serde_json::json!("observed"))],
    );
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let sim = r.simulation.as_ref().expect("simulation");
    assert_eq!(sim.run.warps.len(), 8);
    assert_eq!(sim.holds, None);
    assert!(sim.loop_iterations[0].iterations >= 1);
    let r = request(src, "simulate", &[("block", serde_json::json!("32,1,1"))]);
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.message.contains("exceeds the budget")),
        "{:?}",
        r.diagnostics
    );
}

/// Every address is memory (issue #37 item 1). `y[i] = x[i - 1] + t[x[i]]` — a read just
/// below the pointer (`x[-1]` for thread 0) and a read through an index loaded from memory
/// into the table `t` at 0x10: the first widens `x`'s array down to 0xfff00 (the 256-byte
/// boundary below 0xffffc); the second lands in no pointer's window and is listed with its
/// line and address. The run is the one the `memory` text describes: the same request with
/// that text gives the same stores.
#[test]
fn every_address_is_memory_and_the_strays_are_listed() {
    let src = "code for sm_86
/*0000*/ S2R R0, SR_TID.X ;
/*0010*/ IMAD.MOV.U32 R3, RZ, RZ, 0x4 ;
/*0020*/ IMAD.WIDE R4, R0, R3, c[0x0][0x160] ;
/*0030*/ LDG.E R8, [R4.64+-0x4] ;
/*0040*/ LDG.E R9, [R4.64] ;
/*0050*/ IMAD.WIDE.U32 R10, R9, R3, 0x10 ;
/*0060*/ LDG.E R12, [R10.64] ;
/*0070*/ IADD3 R8, R8, R12, RZ ;
/*0080*/ IMAD.WIDE R6, R0, R3, c[0x0][0x168] ;
/*0090*/ STG.E [R6.64], R8 ;
/*00a0*/ EXIT ;
";
    let r = request(src, "simulate", &[]);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    let args = r.arguments.as_ref().expect("arguments");
    assert_eq!(
        args.memory,
        "p0x160@0xfff00 1088 hash 1 64; p0x168@0x200000 1024 hash 1 64; * hash 1 64"
    );
    let open = warpbound::auto_memory::open();
    let y = array(&r, "p0x168");
    for i in 0..32u64 {
        let x = |k: u64| open.word(0x10_0000 + 4 * k);
        let below = open.word(0x10_0000 + 4 * i - 4);
        let t = open.word(0x10 + 4 * u64::from(x(i)));
        assert_eq!(y[i as usize], below + t, "thread {i}");
    }
    assert_eq!(args.outside.len(), 1, "{:?}", args.outside);
    let o = &args.outside[0];
    assert_eq!((o.line, o.instruction_address, o.count), (8, 0x60, 32));
    assert!(o.lowest >= 0x10 && o.end <= 0x10 + 4 * 64);
    assert!(r.diagnostics.iter().any(|d| d
        .message
        .contains("32 accesses fell outside every pointer's array")
        && d.message.contains("line 8 (0x0060)")));
    // The memory text reproduces the run.
    let again = request(
        src,
        "simulate",
        &[("memory", serde_json::Value::String(args.memory.clone()))],
    );
    assert!(!again.has_errors(), "{:?}", again.diagnostics);
    assert_eq!(array(&again, "p0x168")[..32], y[..32]);
}

/// A run longer than its trace budget goes on to its end (issue #37): the timeline stops at
/// `max_timeline_entries`, the cycles, and the loop counts the simulator makes as it runs,
/// are those of the whole run. The loop of `observed_loop_counts_become_the_bounds` with
/// room for 20 timeline entries: still 128 cycles, 31 iterations, and the bound that the
/// observed count gives holds.
#[test]
fn a_cut_trace_keeps_the_whole_run_and_its_loop_counts() {
    let src = "code for sm_86
/*0000*/ S2R R0, SR_TID.X ;
/*0010*/ MOV R1, RZ ;
/*0020*/ BSSY B0, 0x70 ;
/*0030*/ IADD3 R1, R1, 0x1, RZ ;
/*0040*/ ISETP.GE.U32.AND P0, PT, R1, R0, PT ;
/*0050*/ @!P0 BRA 0x30 ;
/*0060*/ BSYNC B0 ;
/*0070*/ EXIT ;
";
    for mode in ["simulate", "warp-cfg"] {
        let r = request(
            src,
            mode,
            &[
                ("loop_bounds", serde_json::json!("observed")),
                ("max_timeline_entries", serde_json::json!(20)),
            ]
            .into_iter()
            .filter(|(k, _)| mode == "warp-cfg" || *k != "loop_bounds")
            .collect::<Vec<_>>(),
        );
        assert!(!r.has_errors(), "{mode}: {:?}", r.diagnostics);
        let sim = r.simulation.as_ref().expect("simulation");
        assert!(sim.run.timeline_truncated, "{mode}");
        assert_eq!(sim.run.warps[0].issues.len(), 20, "{mode}");
        assert_eq!(sim.run.cycles, 128, "{mode}");
        assert_eq!(sim.loop_iterations[0].iterations, 31, "{mode}");
        if mode == "warp-cfg" {
            assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(128));
            assert_eq!(sim.holds, Some(true));
        }
    }
}
