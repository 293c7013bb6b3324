//! GCN3 calls in the simulator (issue #20): a kernel calling a function of its listing twice
//! (once pc-relatively, once through the GOT) computes the right values, returns through
//! `s[30:31]`, and one wavefront's observed cycles stay within the `pws` crate's `E_WF`
//! of the same listing with the callee inlined; an external callee is a located error.

#[path = "common/gcn.rs"]
mod gcn_common;
#[path = "../../pws/tests/common/gcn_kernels.rs"]
mod gcn_kernels;

use gcn_common::{out_memory, unit64};
use gcn_kernels::{call, TAIL_CALLS};
use sim::gcn;
use sim::machine::gcn3;
use sim::{Budget, Launch, Machine, MemoryInit, SimError, Simulation, SplitCosts, Splitting};

const LOCAL: &str = include_str!("../../isa/tests/data/gcn_call_local.s");
const EXTERNAL: &str = include_str!("../../isa/tests/data/gcn_call_external.s");
const OUT: u64 = 0x1000;

fn memory() -> MemoryInit {
    out_memory(OUT)
}

fn run(src: &str, kernel: &str, m: &Machine, budget: &Budget) -> Result<Simulation, SimError> {
    let launch = Launch {
        block: [64, 1, 1],
        params: vec![OUT as u32, 0],
        ..Launch::default()
    };
    gcn::run_source(src, Some(kernel), &launch, m, &memory(), budget)
}

fn step(x: u32) -> u32 {
    if x & 1 == 0 {
        x / 2
    } else {
        x.wrapping_mul(3).wrapping_add(1)
    }
}

fn e_wf(unit: bool, c: SplitCosts) -> pws::PerModel<u64> {
    let program = isa::gcn::parse(LOCAL, &isa::Limits::default());
    let f = program.function(Some("_Z5stepsPj")).expect("kernel");
    let cost = if unit {
        pws::CostModel::Unit
    } else {
        pws::CostModel::Latency {
            table: pws::LatencyTable::gem5_gcn3(),
        }
    };
    let options = pws::GcnGraphOptions {
        cost,
        loop_bounds: pws::LoopBounds::default(),
    };
    let g = pws::build_from_gcn_program(&program, f, &options, &pws::Budget::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let hw = pws::Hardware {
        s: c.s,
        e_s: c.e_s,
        e_m: c.e_m,
        ..pws::Hardware::gem5_gcn3()
    };
    pws::analyze(&g.cfg, &hw, &pws::Options::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .e_wf
}

#[test]
fn two_calls_compute_step_of_step_and_return() {
    let s = run(
        LOCAL,
        "_Z5stepsPj",
        &unit64(Splitting::None),
        &Budget::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let expected: Vec<u32> = (0..64).map(|t| step(step(t))).collect();
    assert_eq!(s.memory[0].words, expected);
    // Every instruction once per call: 18 in the kernel, 14 in each of the two calls (both
    // paths of the callee's if-else run, the work-items diverge on x & 1).
    assert_eq!(s.issued, 18 + 2 * 14);
}

#[test]
fn observed_cycles_stay_within_e_wf_with_the_callee_inlined() {
    let c = SplitCosts {
        s: 1,
        e_s: 1,
        e_m: 1,
    };
    let unit = e_wf(true, c);
    let gem5 = e_wf(false, c);
    assert_eq!(unit.no_split, 46, "hand count: 18 + 2 × 14 instructions");
    for sp in [Splitting::None, Splitting::Dws(c), Splitting::Pws(c)] {
        for (m, b) in [
            (unit64(sp), unit),
            (
                Machine {
                    splitting: sp,
                    ..gcn3()
                },
                gem5,
            ),
        ] {
            let s = run(LOCAL, "_Z5stepsPj", &m, &Budget::default())
                .unwrap_or_else(|e| panic!("{}: {e}", sp.name()));
            let bound = match sp {
                Splitting::None => b.no_split,
                Splitting::Dws(_) => b.dws,
                Splitting::Pws(_) => b.pws,
            };
            assert!(
                s.cycles <= bound,
                "{}: observed {} > E_WF {bound}",
                sp.name(),
                s.cycles
            );
        }
    }
}

#[test]
fn an_external_callee_stops_the_run_at_the_call() {
    let e = run(
        EXTERNAL,
        "_Z4sinsPf",
        &unit64(Splitting::None),
        &Budget::default(),
    )
    .expect_err("the callee's code is not in the listing");
    let d = &e.diagnostics[0];
    assert_eq!(d.line, 20, "the `s_swappc_b64`: {d:?}");
    assert!(d.message.contains("`__ocml_sin_f32`"), "{}", d.message);
}

#[test]
fn recursion_hits_the_call_depth_budget() {
    let src = format!(
        "\t.type f,@function\nf:\n{}  s_setpc_b64 s[30:31]\n",
        call("f")
    );
    let budget = Budget {
        max_stack_depth: 8,
        ..Budget::default()
    };
    let e = run(&src, "f", &unit64(Splitting::None), &budget).expect_err("unbounded recursion");
    assert!(e.to_string().contains("max_stack_depth"), "{e}");
}

/// `k` calls `g`, which tail-calls `f` (`s_setpc_b64` to a symbol), whose return goes back
/// to `k`; `h` uses GFX9's `s_call_b64`. 4 + 5 + 2 + 1 = 12 and 1 + 2 + 2 = 5 instructions.
#[test]
fn tail_calls_and_s_call_b64() {
    let src = TAIL_CALLS.to_string()
        + "\t.type h,@function
h:
  s_call_b64 s[30:31], f
  v_mov_b32_e32 v1, v0
  s_endpgm
";
    for (kernel, issued) in [("k", 12), ("h", 5)] {
        let s = run(&src, kernel, &unit64(Splitting::None), &Budget::default())
            .unwrap_or_else(|e| panic!("{kernel}: {e}"));
        assert_eq!(s.issued, issued, "{kernel}");
    }
}
