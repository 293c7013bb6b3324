//! GCN3 exec-mask divergence and wavefront splitting, on the page's `pws-if-else` example
//! (www/src/examples.js) and a checkable if-else, with hand-derived cycle counts.

#[path = "common/gcn.rs"]
mod gcn_common;
#[path = "../../pws/tests/common/gcn_kernels.rs"]
mod gcn_kernels;

use gcn_common::{out_memory, unit64};
use gcn_kernels::if_else_with_split;
use sim::gcn;
use sim::machine::gcn3;
use sim::{
    ArrayInit, Budget, Fill, Launch, Machine, MemoryInit, SimError, Simulation, SplitCosts,
    Splitting,
};

/// The page's `pws-if-else` example (`www/src/examples.js`), to the letter: work-items 0..31
/// take the then-path of six `v_mad`, the others the else-path of eight `v_mul`.
fn pws_if_else() -> String {
    if_else_with_split(
        32,
        ("v_mad_f32 v1, v1, v2, v3", 6),
        ("v_mul_f32_e32 v1, v1, v2", 8),
    )
}

const COSTS: SplitCosts = SplitCosts {
    s: 1,
    e_s: 1,
    e_m: 1,
};

fn run(
    src: &str,
    m: &Machine,
    block: u32,
    memory: &MemoryInit,
    params: Vec<u32>,
) -> Result<Simulation, SimError> {
    let launch = Launch {
        block: [block, 1, 1],
        params,
        ..Launch::default()
    };
    gcn::run_source(src, None, &launch, m, memory, &Budget::default())
}

fn ok(r: Result<Simulation, SimError>) -> Simulation {
    r.unwrap_or_else(|e| panic!("{e}"))
}

const LOW: u64 = 0x0000_0000_ffff_ffff;
const HIGH: u64 = 0xffff_ffff_0000_0000;

#[test]
fn pws_if_else_serialises_both_paths_with_unit_cost() {
    // Hand count without splitting (`split`/`merge` take no time): v_cmp, s_and_saveexec,
    // s_xor, s_cbranch_execz (not taken: lanes 0..31 are active) = 4; six v_mad = 10; the
    // BSB's three instructions = 13 (exec flips to lanes 32..63, not empty); eight v_mul =
    // 21; s_or_b64 exec and s_endpgm = 23 instructions, one per cycle.
    let s = ok(run(
        &pws_if_else(),
        &unit64(Splitting::None),
        64,
        &MemoryInit::default(),
        vec![],
    ));
    assert_eq!(s.issued, 23);
    assert_eq!(s.cycles, 23);
    let steps = &s.stepper.steps;
    assert_eq!(steps.len(), 23);
    // The stepper's lane mask is exec: the then-path runs on lanes 0..31, the else-path on
    // 32..63, everything else on all 64; there is no activation stack.
    let mad: Vec<_> = steps
        .iter()
        .filter(|x| x.text.starts_with("v_mad"))
        .collect();
    let mul: Vec<_> = steps
        .iter()
        .filter(|x| x.text.starts_with("v_mul"))
        .collect();
    assert_eq!(mad.len(), 6);
    assert_eq!(mul.len(), 8);
    assert!(mad.iter().all(|x| x.active.bits == LOW));
    assert!(mul.iter().all(|x| x.active.bits == HIGH));
    assert_eq!(steps[0].active.bits, u64::MAX);
    assert_eq!(steps[22].active.bits, u64::MAX);
    assert!(steps.iter().all(|x| x.stack.is_empty()));
}

#[test]
fn pws_if_else_skips_the_empty_else_path() {
    // A workgroup of 32: every active lane takes the then-path. The BSB flips exec to the
    // empty set, s_cbranch_execz jumps over the else-path: 4 + 6 + 3 + 2 = 15 instructions.
    let s = ok(run(
        &pws_if_else(),
        &unit64(Splitting::None),
        32,
        &MemoryInit::default(),
        vec![],
    ));
    assert_eq!(s.issued, 15);
    assert_eq!(s.cycles, 15);
    assert!(!s.stepper.steps.iter().any(|x| x.text.starts_with("v_mul")));
}

#[test]
fn pws_if_else_on_the_gcn3_preset() {
    // gcn3: a vector instruction occupies the SIMD k = 4 cycles and completes 4 − 1 + 5 = 8
    // cycles after issue; a scalar one takes 1 cycle and completes after 2. Hand schedule
    // (issue → completion): v_cmp 0 → 8 (vcc); s_and_saveexec 8 → 10 (exec); s_xor 10 → 12;
    // s_cbranch_execz 11; v_mad #1 12 → 20, each next one waits for v1: 20 → 28, ...,
    // #6 52 → 60; s_or_saveexec 56 (slot after #6) → 58; s_xor exec 58 → 60; execz 60;
    // v_mul #1 61 → 69 (v1 and exec ready at 60), then 69 → 77, ..., #8 117 → 125;
    // s_or_b64 exec 121 → 123; s_endpgm 122 → 124. Observed = last completion = 125.
    let s = ok(run(
        &pws_if_else(),
        &gcn3(),
        64,
        &MemoryInit::default(),
        vec![],
    ));
    assert_eq!(s.issued, 23);
    assert_eq!(s.cycles, 125);
    // The pws crate's gem5 table charges the same path 8 + 2 + 2 + 2 + 6·8 + 3·2 + 8·8 + 2
    // + 2 = 136 ≥ 125 (tests/gcn_soundness.rs checks this in general).
    assert!(s.cycles <= 136);
}

#[test]
fn pws_if_else_dws_runs_the_paths_in_parallel() {
    // DWS splits at s_and_saveexec (cycle 1, after v_cmp): parent lanes 0..31, child
    // 32..63, both resume at 1 + e_s = 2. Parent: s_xor 2, execz 3 (falls through), v_mad
    // 4..9, BSB 10..12 (exec ∧ SpM empty: jumps), reaches the restore at 13 and waits.
    // Child: s_xor 2, execz 3 (jumps), BSB 4..6, v_mul 7..14, restore at 15: merge at 15,
    // the parent resumes at 15 + e_m = 16: s_or_b64 16, s_endpgm 17 → done at 18.
    let s = ok(run(
        &pws_if_else(),
        &unit64(Splitting::Dws(COSTS)),
        64,
        &MemoryInit::default(),
        vec![],
    ));
    assert_eq!(s.cycles, 18);
    // Issued: parent 1 + 1 + 2 + 6 + 3 + 2 = 15, child 2 + 3 + 8 = 13.
    assert_eq!(s.issued, 28);
    let depth: Vec<(u64, usize)> = s.warps[0]
        .stack_depth
        .iter()
        .map(|d| (d.cycle, d.depth))
        .collect();
    assert_eq!(depth, vec![(0, 1), (2, 2), (16, 1), (18, 0)]);
    // While split, the stepper lists the two split-wavefronts by split mask.
    let split_step = s
        .stepper
        .steps
        .iter()
        .find(|x| x.text.starts_with("v_mul"))
        .unwrap_or_else(|| panic!("no v_mul step"));
    assert_eq!(split_step.active.bits, HIGH);
    let masks: Vec<u64> = split_step.stack.iter().map(|e| e.mask.bits).collect();
    assert_eq!(masks, vec![LOW, HIGH]);
}

#[test]
fn pws_if_else_pws_splits_at_the_marked_branch() {
    // The page example leaves s0/s1 (the split mask, PWS Fig. 3) as the ABI sets them
    // (private segment buffer, 0), which would give the parent no work-items; here the mask
    // is vcc, the then-lanes. Hand schedule: v_cmp 0, s_mov_b64 1, split at 2 (both resume
    // at 3); parent: saveexec 3, xor 4, execz 5, v_mad 6..11, BSB 12..14 (jumps), s_or 15,
    // at merge 16; child: saveexec 3, xor 4, execz 5 (jumps), BSB 6..8, v_mul 9..16, s_or
    // 17, at merge 18 → merged, parent resumes 19: s_endpgm 19 → 20.
    let src = pws_if_else().replace("  split s0, s1", "  s_mov_b64 s[0:1], vcc\n  split s0, s1");
    let s = ok(run(
        &src,
        &unit64(Splitting::Pws(COSTS)),
        64,
        &MemoryInit::default(),
        vec![],
    ));
    assert_eq!(s.cycles, 20);
    let none = ok(run(
        &src,
        &unit64(Splitting::None),
        64,
        &MemoryInit::default(),
        vec![],
    ));
    assert_eq!(none.cycles, 24);
    // S = 0: no context, the split is skipped and the run is the serial one.
    let zero = SplitCosts { s: 0, ..COSTS };
    let s0 = ok(run(
        &src,
        &unit64(Splitting::Pws(zero)),
        64,
        &MemoryInit::default(),
        vec![],
    ));
    assert_eq!(s0.cycles, 24);
}

/// A HIP-shaped if-else with memory: `out[i] = i < 32 ? in[i] << 1 : in[i] + 7`, the
/// arguments (`in`, `out` pointers) through the kernarg pointer in `s[4:5]`.
const IF_ELSE_MEMORY: &str = "k:
  s_load_dwordx4 s[0:3], s[4:5], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  v_mov_b32_e32 v3, s1
  v_add_u32_e32 v2, vcc, s0, v1
  v_addc_u32_e32 v3, vcc, 0, v3, vcc
  flat_load_dword v4, v[2:3]
  v_cmp_gt_u32_e32 vcc, 32, v0
  s_mov_b64 s[8:9], vcc
  split s8, s9
  s_waitcnt vmcnt(0)
  s_and_saveexec_b64 s[6:7], vcc
  s_xor_b64 s[6:7], exec, s[6:7]
  s_cbranch_execz BB0_2
  v_lshlrev_b32_e32 v4, 1, v4
BB0_2:
  s_or_saveexec_b64 s[6:7], s[6:7]
  s_xor_b64 exec, exec, s[6:7]
  s_cbranch_execz BB0_4
  v_add_u32_e32 v4, vcc, 7, v4
BB0_4:
  s_or_b64 exec, exec, s[6:7]
  merge
  v_mov_b32_e32 v3, s3
  v_add_u32_e32 v2, vcc, s2, v1
  v_addc_u32_e32 v3, vcc, 0, v3, vcc
  flat_store_dword v[2:3], v4
  s_endpgm
";

fn if_else_memory() -> MemoryInit {
    MemoryInit {
        arrays: vec![
            ArrayInit {
                name: "in".into(),
                address: 0x1000,
                words: 64,
                fill: Fill::Iota {
                    start: 100,
                    step: 3,
                },
            },
            ArrayInit {
                name: "out".into(),
                address: 0x2000,
                words: 64,
                fill: Fill::Constant { value: 0 },
            },
        ],
        open: None,
    }
}

#[test]
fn if_else_with_memory_computes_the_same_under_every_splitting() {
    // in[i] = 100 + 3i; out[i] = in[i] · 2 for i < 32, in[i] + 7 otherwise.
    let expected: Vec<u32> = (0..64u32)
        .map(|i| {
            let x = 100 + 3 * i;
            if i < 32 {
                x << 1
            } else {
                x + 7
            }
        })
        .collect();
    let mut cycles = Vec::new();
    for sp in [
        Splitting::None,
        Splitting::Dws(COSTS),
        Splitting::Pws(COSTS),
    ] {
        for m in [
            unit64(sp),
            Machine {
                splitting: sp,
                ..gcn3()
            },
        ] {
            let s = ok(run(
                IF_ELSE_MEMORY,
                &m,
                64,
                &if_else_memory(),
                vec![0x1000, 0, 0x2000, 0],
            ));
            assert_eq!(s.memory[1].words, expected, "{}", sp.name());
            assert_eq!(s.memory[0].words[5], 115);
            cycles.push(s.cycles);
        }
    }
    // With unit cost, splitting saves the shorter path minus the split and merge costs:
    // the then- and else-paths are one instruction each, so DWS and PWS (e_s = e_m = 1) are
    // no faster than serial execution here.
    assert!(cycles[2] >= cycles[0] && cycles[4] >= cycles[0]);
    // A global transaction per access: load and store of 64 consecutive words = 2 segments.
    let s = ok(run(
        IF_ELSE_MEMORY,
        &gcn3(),
        64,
        &if_else_memory(),
        vec![0x1000, 0, 0x2000, 0],
    ));
    let t: Vec<(bool, usize)> = s
        .transactions
        .iter()
        .map(|t| (t.store, t.segments.len()))
        .collect();
    assert_eq!(t, vec![(false, 2), (true, 2)]);
}

#[test]
fn unsupported_instruction_is_located() {
    let src = "k:\n  v_mov_b32_e32 v1, 0\n  v_sin_f32_e32 v3, v1\n  s_endpgm\n";
    let e = run(src, &gcn3(), 64, &MemoryInit::default(), vec![])
        .err()
        .unwrap_or_else(|| panic!("ran"));
    assert!(e.message().starts_with("cannot simulate v_sin_f32"), "{e}");
    assert_eq!(e.diagnostics[0].line, 3);
    // Running off the end and an access outside the arrays are located too.
    let e = run(
        "k:\n  v_mov_b32_e32 v1, 0\n",
        &gcn3(),
        64,
        &MemoryInit::default(),
        vec![],
    )
    .err()
    .unwrap_or_else(|| panic!("ran"));
    assert!(e.message().contains("fell off the end"), "{e}");
    let e = run(
        IF_ELSE_MEMORY,
        &gcn3(),
        64,
        &MemoryInit::default(),
        vec![0x1000, 0, 0x2000, 0],
    )
    .err()
    .unwrap_or_else(|| panic!("ran"));
    assert!(e.message().contains("outside every array"), "{e}");
    assert_eq!(e.diagnostics[0].line, 8);
}

/// A loop with a per-lane trip count: `acc = 0; do acc++ while (acc <= (tid & 3));
/// out[tid] = acc`, exits by narrowing exec (`s_and_b64 exec, exec, vcc` or `v_cmpx`) and
/// `s_cbranch_execnz`, the mask restored after the loop.
fn loop_kernel(cmpx: bool) -> String {
    let test = if cmpx {
        "  v_cmpx_ge_u32_e32 vcc, v1, v2\n"
    } else {
        "  v_cmp_ge_u32_e32 vcc, v1, v2\n  s_and_b64 exec, exec, vcc\n"
    };
    format!(
        "k:
  s_load_dwordx2 s[0:1], s[4:5], 0x0
  v_and_b32_e32 v1, 3, v0
  v_mov_b32_e32 v2, 0
  s_mov_b64 s[6:7], exec
BB0_1:
  v_add_u32_e32 v2, vcc, 1, v2
{test}  s_cbranch_execnz BB0_1
  s_or_b64 exec, exec, s[6:7]
  v_lshlrev_b32_e32 v3, 2, v0
  s_waitcnt lgkmcnt(0)
  v_mov_b32_e32 v5, s1
  v_add_u32_e32 v4, vcc, s0, v3
  v_addc_u32_e32 v5, vcc, 0, v5, vcc
  flat_store_dword v[4:5], v2
  s_endpgm
"
    )
}

#[test]
fn divergent_loop_narrows_exec_each_iteration() {
    // Lane tid runs (tid & 3) + 1 iterations: the wavefront runs 4, with 64, 48, 32 and 16
    // active lanes (tid & 3 ≥ 0, 1, 2, 3). Issued: 4 before the loop, 4 iterations of 4
    // (v_add, v_cmp, s_and_b64 exec, s_cbranch_execnz; 3 with v_cmpx), then 8 after it
    // (s_or_b64 exec … s_endpgm) = 28 (24).
    let memory = out_memory(0x1000);
    let expected: Vec<u32> = (0..64).map(|t| (t & 3) + 1).collect();
    for (cmpx, issued) in [(false, 28), (true, 24)] {
        let s = ok(run(
            &loop_kernel(cmpx),
            &unit64(Splitting::None),
            64,
            &memory,
            vec![0x1000, 0],
        ));
        assert_eq!(s.memory[0].words, expected, "cmpx {cmpx}");
        assert_eq!(s.issued, issued);
        let active: Vec<u32> = s
            .stepper
            .steps
            .iter()
            .filter(|x| x.text.starts_with("v_add_u32_e32 v2"))
            .map(|x| x.active.bits.count_ones())
            .collect();
        assert_eq!(active, vec![64, 48, 32, 16]);
        // The store runs on all lanes again.
        assert_eq!(s.transactions[0].lanes.bits, u64::MAX);
    }
}

#[test]
fn sim_run_dispatches_gcn_kernels() {
    // `sim::run` receives the generic IR: the GCN text is re-read and the spans are the
    // kernel's own.
    use isa::{ControlKind, Instruction, Kernel, Opcode, ResourceClass, Span};
    let texts = [
        "v_cmp_gt_u32_e32 vcc, 16, v0",
        "s_and_saveexec_b64 s[4:5], vcc",
        "s_cbranch_execz BB0_1",
        "v_mov_b32_e32 v1, 5",
        "s_or_b64 exec, exec, s[4:5]",
        "s_endpgm",
    ];
    let ins = |i: usize, t: &str| Instruction {
        address: 4 * i as u64,
        guard: None,
        opcode: Opcode {
            name: t.split_whitespace().next().unwrap_or("").into(),
            modifiers: vec![],
            span: Span::new(40 + i as u32, 3, 4),
        },
        operands: vec![],
        writes: vec![],
        reads: vec![],
        control: ControlKind::Fallthrough,
        class: ResourceClass::Alu,
        sync_flag: false,
        dual_issued: false,
        control_code: None,
        control_bits: None,
        indirect_targets: Vec::new(),
        annotation: None,
        text: t.into(),
        span: Span::new(40 + i as u32, 3, t.len() as u32),
    };
    let kernel = |texts: &[&str]| Kernel {
        dialect: isa::Dialect::Gcn,
        function: "k".into(),
        arch: None,
        instructions: texts.iter().enumerate().map(|(i, t)| ins(i, t)).collect(),
        labels: [("BB0_1".to_string(), 16u64)].into_iter().collect(),
        resources: None,
    };
    let launch = Launch {
        block: [64, 1, 1],
        ..Launch::default()
    };
    let s = ok(sim::run(
        &kernel(&texts),
        &launch,
        &unit64(Splitting::None),
        &MemoryInit::default(),
        &Budget::default(),
    ));
    assert_eq!(s.issued, 6);
    assert_eq!(s.stepper.steps[3].active.bits, 0xffff);
    assert_eq!(s.stepper.steps[3].line, 43);
    let mut bad = texts;
    bad[3] = "v_sin_f32_e32 v1, v1";
    let e = sim::run(
        &kernel(&bad),
        &launch,
        &unit64(Splitting::None),
        &MemoryInit::default(),
        &Budget::default(),
    )
    .err()
    .unwrap_or_else(|| panic!("ran"));
    assert_eq!(e.diagnostics[0].line, 43);
    assert!(e.message().starts_with("cannot simulate v_sin_f32"), "{e}");
}

/// An if-else whose else-path holds another if-else followed by more code: under DWS with
/// S = 2 the else-SWF splits again and must merge with its own child at the inner join
/// before it may merge with its parent at the outer one.
const NESTED_ELSE: &str = "k:
  s_load_dwordx2 s[0:1], s[4:5], 0x0
  v_mov_b32_e32 v4, v0
  v_cmp_gt_u32_e32 vcc, 37, v0
  s_and_saveexec_b64 s[10:11], vcc
  s_xor_b64 s[10:11], exec, s[10:11]
  s_cbranch_execz BB0_2
  v_add_u32_e32 v4, vcc, 1, v4
  v_add_u32_e32 v4, vcc, 1, v4
  v_add_u32_e32 v4, vcc, 1, v4
  v_add_u32_e32 v4, vcc, 1, v4
  v_add_u32_e32 v4, vcc, 1, v4
  v_add_u32_e32 v4, vcc, 1, v4
  v_add_u32_e32 v4, vcc, 1, v4
  v_add_u32_e32 v4, vcc, 1, v4
  v_add_u32_e32 v4, vcc, 1, v4
  v_add_u32_e32 v4, vcc, 1, v4
BB0_2:
  s_or_saveexec_b64 s[10:11], s[10:11]
  s_xor_b64 exec, exec, s[10:11]
  s_cbranch_execz BB0_1
  v_cmp_gt_u32_e32 vcc, 41, v0
  s_and_saveexec_b64 s[12:13], vcc
  s_xor_b64 s[12:13], exec, s[12:13]
  s_cbranch_execz BB0_5
  v_add_u32_e32 v4, vcc, 100, v4
BB0_5:
  s_or_saveexec_b64 s[12:13], s[12:13]
  s_xor_b64 exec, exec, s[12:13]
  s_cbranch_execz BB0_4
  v_add_u32_e32 v4, vcc, 1000, v4
  v_add_u32_e32 v4, vcc, 1000, v4
  v_add_u32_e32 v4, vcc, 1000, v4
  v_add_u32_e32 v4, vcc, 1000, v4
  v_add_u32_e32 v4, vcc, 1000, v4
  v_add_u32_e32 v4, vcc, 1000, v4
  v_add_u32_e32 v4, vcc, 1000, v4
  v_add_u32_e32 v4, vcc, 1000, v4
  v_add_u32_e32 v4, vcc, 1000, v4
  v_add_u32_e32 v4, vcc, 1000, v4
  v_add_u32_e32 v4, vcc, 1000, v4
  v_add_u32_e32 v4, vcc, 1000, v4
  v_add_u32_e32 v4, vcc, 1000, v4
  v_add_u32_e32 v4, vcc, 1000, v4
  v_add_u32_e32 v4, vcc, 1000, v4
  v_add_u32_e32 v4, vcc, 1000, v4
  v_add_u32_e32 v4, vcc, 1000, v4
  v_add_u32_e32 v4, vcc, 1000, v4
  v_add_u32_e32 v4, vcc, 1000, v4
  v_add_u32_e32 v4, vcc, 1000, v4
BB0_4:
  s_or_b64 exec, exec, s[12:13]
  v_add_u32_e32 v4, vcc, 7, v4
BB0_1:
  s_or_b64 exec, exec, s[10:11]
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  v_mov_b32_e32 v3, s1
  v_add_u32_e32 v2, vcc, s0, v1
  v_addc_u32_e32 v3, vcc, 0, v3, vcc
  flat_store_dword v[2:3], v4
  s_endpgm
";

#[test]
fn dws_nested_split_merges_inner_join_first() {
    // Lanes 0..36: tid + 10; 37..40: tid + 100 + 7; 41..63: tid + 20000 + 7. The parent
    // (then-path, 10 instructions) reaches the outer join while the else-SWF already
    // waits at the inner join for its child (20 instructions).
    let expected: Vec<u32> = (0..64u32)
        .map(|t| match t {
            0..=36 => t + 10,
            37..=40 => t + 107,
            _ => t + 20007,
        })
        .collect();
    let memory = out_memory(0x1000);
    let two = SplitCosts {
        s: 2,
        e_s: 0,
        e_m: 0,
    };
    for sp in [Splitting::None, Splitting::Dws(two), Splitting::Dws(COSTS)] {
        let s = ok(run(NESTED_ELSE, &unit64(sp), 64, &memory, vec![0x1000, 0]));
        assert_eq!(s.memory[0].words, expected, "{sp:?}");
        let deepest = s.warps[0].stack_depth.iter().map(|d| d.depth).max();
        // Three SWFs at once with S = 2 (outer split, then the else-SWF splits); two with
        // S = 1 (the nested split finds no free context); one without splitting.
        let want = match sp {
            Splitting::Dws(c) => c.s as usize + 1,
            _ => 1,
        };
        assert_eq!(deepest, Some(want), "{sp:?}");
    }
}
