//! path=launch on hand-written Sim-D programs whose paths are derived by hand: the
//! interpreter ([`super::interpret`]) decides early exits, scalar branches, `cmask`
//! if-blocks and loop counts from the work-group id, and the fallback takes over where it
//! cannot.
//!
//! Every launch here is `-d 128,32 -w 32`: N = 32, H = 1024/32 = 32, so ⌈128/32⌉ = 4
//! work-groups in one row, work-group `g` at `sc.wg_off_x = 32·g`, its lanes at
//! `vc.tid_x = 32·g + (l mod 32)`, `vc.tid_y = l div 32` (all inside the NDRange).

use super::tests::analysed;
use super::*;
use crate::access::Resource::{Compute, Dram};
use crate::launch::Launch;

fn launch_opts(s: Scheduler, fallback: Fallback) -> Options {
    Options {
        scheduler: s,
        path: PathChoice::FromLaunch { fallback },
        actual_addresses: true,
        refresh: true,
        max_phases: 1 << 20,
        max_intervals: 1 << 20,
        shown_work_groups: u64::MAX,
        max_dram_sim_steps: 1 << 30,
    }
}

/// Per work-group: the blocks of its path and its decision counts.
type Walks = Vec<(Vec<usize>, path::WgDecisions)>;

fn walks(text: &str, fallback: Fallback) -> Walks {
    let (r, dag, program) = analysed(text, Launch::new(128, 32, 32));
    let sp_as_compute = false;
    let critical: Vec<usize> = dag::critical_path(&dag, sp_as_compute)
        .expect("critical path")
        .iter()
        .map(|s| s.node)
        .collect();
    let cx = interpret::Context::new(&program, &r).expect("context");
    let mut w =
        path::Walker::new(cx, &dag, fallback, &critical, sp_as_compute, 1 << 20).expect("walker");
    (0..r.launch.work_groups)
        .map(|g| {
            let (nodes, d) = w.walk(&dag, g).expect("walks");
            (nodes.iter().map(|&n| dag.nodes[n].block).collect(), d)
        })
        .collect()
}

fn counts(w: &Walks) -> Vec<(u64, u64, u64, bool)> {
    w.iter()
        .map(|(_, d)| (d.decided, d.fallback, d.capped, d.early_exit))
        .collect()
}

/// Work-groups whose every work-item has `tid_x ≥ 64` (g = 2, 3: tid_x 64..127) exit at
/// `exit p0`: their path is the prefix B0 (ldglin), B1 (the test), and their phases are
/// exactly the prefix's — compute, then the load (the compute up to the exit is not a
/// phase, §5.6). g = 0, 1 have every lane below 64 and run all four phases.
///
/// Mutation check (done by hand): making `itest.ge` test `> 0` instead of `≥ 0` in
/// `alu::int_test` lets lane 64 of g = 2 survive (64 − 64 = 0), so g = 2 no longer
/// exits early and this test fails (early exits [g3] instead of [g2, g3]).
const EARLY_EXIT: &str = "
.data
	0 0x0 256 32
	1 0x40000 256 32
.text
	ldglin v1, 0
	bufquery.dim_x s0, 0
	sshr s0, s0, 2
	mov v0, vc.tid_x
	isub v2, v0, s0
	itest.ge p0, v2
	exit p0
	stglin v1, 1
	exit
";

#[test]
fn all_lanes_out_of_bounds_exit_after_the_prefix() {
    let w = walks(EARLY_EXIT, Fallback::Worst);
    let paths: Vec<Vec<usize>> = w.iter().map(|(p, _)| p.clone()).collect();
    assert_eq!(
        paths,
        vec![vec![0, 1, 2, 3], vec![0, 1, 2, 3], vec![0, 1], vec![0, 1]]
    );
    assert_eq!(
        counts(&w),
        vec![
            (0, 0, 0, false),
            (0, 0, 0, false),
            (1, 0, 0, true),
            (1, 0, 0, true)
        ]
    );
    // The phase lists through the engines' own source.
    let (r, dag, program) = analysed(EARLY_EXIT, Launch::new(128, 32, 32));
    let o = launch_opts(Scheduler::SpAsAccess, Fallback::Worst);
    let mut wgs = WorkGroups::new(&r, &dag, &program, &o).expect("work-groups");
    let shape = |l: Vec<Phase>| -> Vec<Resource> { l.iter().map(|p| p.resource).collect() };
    let full = shape(wgs.phases(0).expect("phases"));
    assert_eq!(full, vec![Compute, Dram, Compute, Dram]);
    let early = wgs.phases(2).expect("phases");
    let worst: Vec<Phase> = r.sp_as_access.phases.clone();
    assert_eq!(early.len(), 2);
    // The prefix's compute phase is the WCET list's first one (same blocks, same cost).
    assert_eq!(early[0], worst[0]);
    assert_eq!(early[1].resource, Dram);
    // Executions: both policies within their WCET, two early exits counted.
    for s in Scheduler::ALL {
        let e = execute(&r, &dag, &program, &launch_opts(s, Fallback::Worst)).expect("runs");
        let d = e.decisions.expect("path=launch reports decisions");
        assert_eq!((d.decided, d.fallback, d.early_exits), (2, 0, 2));
        assert_eq!(d.work_groups_all_decided, 4);
        assert_eq!(d.shown, vec![(0, 0), (0, 0), (1, 0), (1, 0)]);
        if s.policy().is_some() {
            assert!(e.within_bound, "{}: {} > {}", s.name(), e.cycles, e.bound);
        }
    }
}

/// A scalar branch on `sc.wg_off_x − 64`: g = 0, 1 (offsets 0, 32) fall through to B2, g = 2,
/// 3 (64, 96) jump to `right` (B3); both join at B4. One decided choice per work-group.
const SCALAR_BRANCH: &str = "
.data
	0 0x0 256 32
	1 0x40000 256 32
.text
	ldglin v1, 0
	smov s0, sc.wg_off_x
	sisub s0, s0, 64
	sicj.ge right, s0
	add v1, v1, v1
	add v1, v1, v1
	add v1, v1, v1
	add v1, v1, v1
	j join
right:
	mul v1, v1, v1
join:
	stglin v1, 1
	exit
";

#[test]
fn scalar_branch_on_the_work_group_offset() {
    let w = walks(SCALAR_BRANCH, Fallback::Worst);
    let paths: Vec<Vec<usize>> = w.iter().map(|(p, _)| p.clone()).collect();
    assert_eq!(
        paths,
        vec![
            vec![0, 1, 2, 4, 5],
            vec![0, 1, 2, 4, 5],
            vec![0, 1, 3, 4, 5],
            vec![0, 1, 3, 4, 5]
        ]
    );
    assert_eq!(counts(&w), vec![(1, 0, 0, false); 4]);
}

/// The same branch on a loaded scalar (`sldg`: unknown): the fallback decides. `worst`
/// takes the critical path's edge — the four-`add` block B2 is the longer side — for every
/// work-group; `random` is reproducible for a seed.
#[test]
fn undecidable_branches_fall_back() {
    let text = SCALAR_BRANCH.replace("smov s0, sc.wg_off_x", "sldg s0, 0");
    // `sldg` ends a block: B0 ldglin, B1 sldg, B2 the test, B3 the adds, B4 right, B5 join.
    let w = walks(&text, Fallback::Worst);
    for (p, d) in &w {
        assert_eq!(p, &vec![0, 1, 2, 3, 5, 6]);
        assert_eq!((d.decided, d.fallback), (0, 1));
    }
    let a = walks(&text, Fallback::Random { seed: 7 });
    let b = walks(&text, Fallback::Random { seed: 7 });
    assert_eq!(a, b);
    assert!(a.iter().all(|(_, d)| d.fallback == 1));
}

/// An if-block (`cpush.if; cmask p0; …; cpop`) on `tid_x < 64`: g = 0, 1 have every lane
/// enabled inside (fall through to B2); g = 2, 3 have none, so the decoder injects the
/// `cpop` (§3.1) and they continue at `endif` (B3) with their mask restored.
const IF_BLOCK: &str = "
.data
	0 0x0 256 32
	1 0x40000 256 32
.text
	ldglin v1, 0
	mov v0, vc.tid_x
	isub v2, v0, 64
	cpush.if endif
	itest.l p0, v2
	cmask p0
	add v1, v1, v1
	cpop
endif:
	stglin v1, 1
	exit
";

#[test]
fn cmask_if_block_decided_per_work_group() {
    let w = walks(IF_BLOCK, Fallback::Worst);
    let paths: Vec<Vec<usize>> = w.iter().map(|(p, _)| p.clone()).collect();
    assert_eq!(
        paths,
        vec![
            vec![0, 1, 2, 3, 4],
            vec![0, 1, 2, 3, 4],
            vec![0, 1, 3, 4],
            vec![0, 1, 3, 4]
        ]
    );
    assert_eq!(counts(&w), vec![(1, 0, 0, false); 4]);
}

/// A loop counter from the work-group offset: `s0 = (wg_off_x >> 5) + 2` = g + 2 wanted
/// iterations, and `#bound branchcycle 3 1 0` unrolls exactly 4 (the DAG offers no other
/// count). g = 2 wants 4: every branch agrees with the DAG, nothing falls back. g = 0, 1
/// want 2 and 3: the exit they decide is not offered (capped, once; the interpreter then
/// decides nothing more). g = 3 wants 5: capped at the 4th, so no walk exceeds the bound.
/// Every path is the 4-iteration one (phases 2·4 + 2 = 10).
const COUNTED_LOOP: &str = "
.data
	0 0x0 256 32
	1 0x40000 256 32
.text
	smov s0, sc.wg_off_x
	sshr s0, s0, 5
	siadd s0, s0, 2
	smov s1, 0
loop:
	ldglin v1, 0
	siadd s1, s1, 1
	sisub s2, s1, s0
	#bound branchcycle 3 1 0
	sicj.l loop, s2
	stglin v1, 1
	exit
";

#[test]
fn counted_loop_is_capped_at_its_bound() {
    let w = walks(COUNTED_LOOP, Fallback::Worst);
    let four = vec![0, 1, 2, 1, 2, 1, 2, 1, 2, 3, 4];
    for (p, _) in &w {
        assert_eq!(p, &four);
    }
    assert_eq!(
        counts(&w),
        vec![
            (0, 1, 1, false),
            (0, 1, 1, false),
            (0, 0, 0, false),
            (0, 1, 1, false)
        ]
    );
}

/// The interpreter's instruction budget is an error naming `max_sim_phases`.
#[test]
fn interpreter_budget_is_named() {
    let (r, dag, program) = analysed(COUNTED_LOOP, Launch::new(128, 32, 32));
    let mut o = launch_opts(Scheduler::SpAsAccess, Fallback::Worst);
    o.max_phases = 0;
    let mut wgs = WorkGroups::new(&r, &dag, &program, &o).expect("work-groups");
    let e = wgs
        .phases(0)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(e.contains("max_sim_phases"), "{e}");
}

/// `sldg s0, 0, 3` fills s0, s1, s2 (as cnn_convolution's kernel parameters): a branch on the
/// s2 set just before falls back, while after a one-word `sldg s0, 0` it is still known
/// (s2 = 100 ≥ 0: every work-group jumps to `right`).
#[test]
fn multi_word_sldg_forgets_the_registers_it_fills() {
    let text = |load: &str| {
        SCALAR_BRANCH.replace(
            "smov s0, sc.wg_off_x\n\tsisub s0, s0, 64\n\tsicj.ge right, s0",
            &format!("smov s2, 100\n\t{load}\n\tsicj.ge right, s2"),
        )
    };
    // B0 ldglin, B1 smov + sldg, B2 the test, B3 the adds, B4 right, B5 join, B6 exit.
    let one = walks(&text("sldg s0, 0"), Fallback::Worst);
    for (p, d) in &one {
        assert_eq!(p, &vec![0, 1, 2, 4, 5, 6]);
        assert_eq!((d.decided, d.fallback), (1, 0));
    }
    let three = walks(&text("sldg s0, 0, 3"), Fallback::Worst);
    for (p, d) in &three {
        assert_eq!(p, &vec![0, 1, 2, 3, 5, 6]);
        assert_eq!((d.decided, d.fallback), (0, 1));
    }
}
