//! The activation stack in action: Fig. 1 of Jeanmougin et al. replayed by the stepper, the
//! unit-cost cycles cross-checked against the warp-CFG + IPET bound, and located errors.

mod common;

use cfg::Tag;
use common::{array, kernel, preset, run};
use sim::{ArrayInit, Budget, Fill, Launch, Machine, MemoryInit};

/// Fig. 1 (right) of Jeanmougin et al. with 16 threads: the ten threads with `tid < 10`
/// take the branch to B, the six others run C; both SYNC and reconverge at D, which stores
/// `(B ? 1 : 2) + 16` to `out[tid]`.
const FIG1: &str = "
/*0000*/ S2R R0, SR_TID.X;
/*0008*/ ISETP.LT.U32.AND P0, PT, R0, 0xa, PT;
/*0010*/ SSY 0x40;
/*0018*/ @P0 BRA 0x30;
/*0020*/ MOV R1, 0x2;
/*0028*/ SYNC;
/*0030*/ MOV R1, 0x1;
/*0038*/ SYNC;
/*0040*/ IADD32I R1, R1, 0x10;
/*0048*/ SHL R2, R0, 0x2;
/*0050*/ STG [R2+0x100], R1;
/*0058*/ EXIT;
";

fn sixteen_lanes() -> Machine {
    Machine {
        warp_size: 16,
        cores: 16,
        ls_units: 16,
        sfu_units: 16,
        ..preset("unit-cost")
    }
}

fn fig1_memory() -> MemoryInit {
    MemoryInit {
        arrays: vec![ArrayInit {
            name: "out".into(),
            address: 0x100,
            words: 16,
            fill: Fill::Constant { value: 0 },
        }],
        open: None,
    }
}

/// Fig. 1's kernel `k` on sixteen lanes, with its memory and launch, under `budget`.
fn run_fig1(k: &isa::Kernel, budget: &Budget) -> Result<sim::Simulation, sim::SimError> {
    sim::run(k, &fig1_launch(), &sixteen_lanes(), &fig1_memory(), budget)
}

fn fig1_launch() -> Launch {
    Launch {
        block: [16, 1, 1],
        ..Launch::default()
    }
}

#[test]
fn fig1_stepper_follows_the_activation_stack() {
    let s = run(FIG1, &fig1_launch(), &sixteen_lanes(), &fig1_memory())
        .unwrap_or_else(|e| panic!("{e}"));
    let order: Vec<usize> = s.stepper.steps.iter().map(|st| st.index).collect();
    // A (0..3), B with the ten taken threads (6, 7), C with the six others (4, 5), D (8..11).
    assert_eq!(order, vec![0, 1, 2, 3, 6, 7, 4, 5, 8, 9, 10, 11]);
    let b = &s.stepper.steps[4];
    assert_eq!(b.active.bits, 0x03ff);
    // Stack at B: the SYNC entry (pc D, all threads), C's pending entry, B's executing entry.
    let view: Vec<(Tag, usize, u64)> = b.stack.iter().map(|e| (e.tag, e.pc, e.mask.bits)).collect();
    assert_eq!(
        view,
        vec![
            (Tag::Sync, 8, 0xffff),
            (Tag::Nil, 4, 0xfc00),
            (Tag::Nil, 6, 0x03ff)
        ]
    );
    let c = &s.stepper.steps[6];
    assert_eq!(c.active.bits, 0xfc00);
    assert_eq!(c.stack.len(), 2);
    let d = &s.stepper.steps[8];
    assert_eq!(d.active.bits, 0xffff);
    assert_eq!(d.stack.len(), 1);
    // Depth over time: 1, 2 after SSY, 3 after the divergent BRA, 2 after B's SYNC, 1 after
    // C's SYNC, 0 after EXIT; unit cost: instruction k issues at cycle k.
    let depth: Vec<(u64, usize)> = s.warps[0]
        .stack_depth
        .iter()
        .map(|c| (c.cycle, c.depth))
        .collect();
    assert_eq!(depth, vec![(0, 1), (3, 2), (4, 3), (6, 2), (8, 1), (12, 0)]);
    for (t, &v) in array(&s, "out").iter().enumerate() {
        assert_eq!(v, if t < 10 { 17 } else { 18 }, "out[{t}]");
    }
}

#[test]
fn fig1_unit_cost_cycles_equal_the_ipet_bound() {
    // Unit cost: 12 issued instructions, 12 cycles. The warp-CFG + IPET bound with block
    // lengths as costs is also 12: A (4) + B (2) + C (2) + D (4) on the divergent path,
    // which is the longest — the bound is tight here.
    let s = run(FIG1, &fig1_launch(), &sixteen_lanes(), &fig1_memory())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((s.cycles, s.issued), (12, 12));
    let k = kernel(FIG1);
    let g = isa::blocks::build(&k, &isa::Limits::default());
    let w = cfg::build(&k, &g, &cfg::Options::default()).unwrap_or_else(|d| panic!("{d}"));
    let costs = w
        .nodes
        .iter()
        .map(|n| n.block.map_or(0, |b| g.blocks[b].len() as u64))
        .collect();
    let ipet_cfg = ipet::Cfg {
        costs,
        edges: w.edges.iter().map(|e| (e.from, e.to)).collect(),
        entry: w.entry,
        exits: vec![w.exit],
    };
    let sol = ipet::solve(
        &ipet_cfg,
        &ipet::LoopBounds::default(),
        &ipet::Budget::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(sol.wcet, 12);
}

#[test]
fn uniform_branch_does_not_diverge() {
    // Every thread has tid < 16, so the branch is taken by all: no divergence, 10 issues
    // (A, B, D), stack depth never above 2.
    let src = FIG1.replace("0xa, PT", "0x10, PT");
    let s = run(&src, &fig1_launch(), &sixteen_lanes(), &fig1_memory())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.issued, 10);
    assert!(s.warps[0].stack_depth.iter().all(|c| c.depth <= 2));
    assert!(array(&s, "out").iter().all(|&v| v == 17));
}

#[test]
fn unsupported_instruction_is_a_located_error() {
    // rodinia_nn (sm_52) checks its MUFU.RSQ argument against `c[0x2][0x0]` at line 48
    // (address 0x158): a word of the compiler's constant table, which the listing does not
    // give, so the run stops there with the instruction's span, not with a guessed value.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpus/sass/rodinia_nn___Z6euclidP7latLongPfiff.sass"
    ))
    .unwrap_or_default();
    let out = isa::sass::parse(&text, None, &isa::Limits::default());
    let k = out.kernel.expect("kernel");
    // euclid(d_locations, d_distances, numRecords, lat, lng): 2 pointers, an int, 2 floats.
    let launch = Launch {
        params: vec![0x1000, 0, 0x2000, 0, 32, 1.5f32.to_bits(), 2.5f32.to_bits()],
        ..Launch::default()
    };
    let mem = MemoryInit {
        arrays: vec![
            ArrayInit {
                name: "locations".into(),
                address: 0x1000,
                words: 64,
                fill: Fill::Iota { start: 0, step: 1 },
            },
            ArrayInit {
                name: "distances".into(),
                address: 0x2000,
                words: 32,
                fill: Fill::Constant { value: 0 },
            },
        ],
        open: None,
    };
    let err = sim::run(&k, &launch, &preset("unit-cost"), &mem, &Budget::default())
        .expect_err("constant bank 2 is not in the listing");
    let d = &err.diagnostics[0];
    assert_eq!(d.line, 48);
    assert!(
        d.message.starts_with("cannot simulate ISETP.GT.U32.AND")
            && d.message.contains("reads constant bank 2"),
        "{}",
        d.message
    );
}

#[test]
fn out_of_bounds_store_is_a_located_error() {
    // 16 words at 0x100, but 32 threads store: thread 16 writes 0x140.
    let launch = Launch::default();
    let err = run(FIG1, &launch, &preset("unit-cost"), &fig1_memory()).expect_err("outside");
    assert_eq!(err.diagnostics[0].line, 12);
    assert!(err.message().contains("0x140"), "{}", err.message());
}

#[test]
fn budgets_name_themselves() {
    let k = kernel(FIG1);
    let cases = [(
        Budget {
            max_steps: 5,
            ..Budget::default()
        },
        "max_steps = 5",
    )];
    for (budget, names) in cases {
        let err = run_fig1(&k, &budget).expect_err("budget");
        assert!(err.message().contains(names), "{}", err.message());
    }
    // The trace budget cuts the record, not the run (issue #37): the same cycles as a
    // whole trace, three timeline entries in all, and the cut said.
    let whole = run_fig1(&k, &Budget::default()).expect("run");
    let cut = run_fig1(
        &k,
        &Budget {
            max_timeline_entries: 3,
            ..Budget::default()
        },
    )
    .expect("a cut trace still runs");
    assert!(cut.timeline_truncated && !whole.timeline_truncated);
    assert_eq!(cut.cycles, whole.cycles);
    assert_eq!(cut.warps.iter().map(|w| w.issues.len()).sum::<usize>(), 3);
    // Shared memory counts against max_memory_words (per resident block).
    let huge = Launch {
        shared_bytes: u32::MAX,
        ..fig1_launch()
    };
    let err = sim::run(
        &k,
        &huge,
        &sixteen_lanes(),
        &fig1_memory(),
        &Budget::default(),
    )
    .expect_err("budget");
    assert!(
        err.message().contains("max_memory_words"),
        "{}",
        err.message()
    );
    // An endless loop stops at max_cycles... or max_steps, whichever comes first.
    let spin = kernel("L:\nBRA L;\nEXIT;\n");
    let budget = Budget {
        max_steps: 1_000,
        ..Budget::default()
    };
    let err = sim::run(
        &spin,
        &Launch::default(),
        &preset("unit-cost"),
        &MemoryInit::default(),
        &budget,
    )
    .expect_err("spin");
    assert!(err.message().contains("max_steps"), "{}", err.message());
}

/// The stepper's budget truncates what it records, not the run: Fig. 1 issues 10
/// instructions; with room for 4 steps the run still finishes with the same cycles.
#[test]
fn the_stepper_budget_truncates_the_recording_only() {
    let k = kernel(FIG1);
    let whole = run_fig1(&k, &Budget::default()).expect("runs");
    assert!(!whole.stepper.truncated);
    let short = run_fig1(
        &k,
        &Budget {
            max_stepper_steps: 4,
            ..Budget::default()
        },
    )
    .expect("runs");
    assert!(short.stepper.truncated);
    assert_eq!(short.stepper.steps.len(), 4);
    assert_eq!(short.stepper.steps[..], whole.stepper.steps[..4]);
    assert_eq!(short.cycles, whole.cycles);
    assert!(whole.stepper.steps.len() > 4);
}
