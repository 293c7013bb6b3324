//! Convergence barriers (Volta and later): hand-checked warp-level CFGs, the linear state count
//! of sequential regions, and soundness against the concrete executor on random structured
//! sm_70-style kernels (nested `BSSY`/`BSYNC`, `BREAK` out of loops, divergent back edges,
//! predicated calls, `WARPSYNC`, early `EXIT`).

#[path = "common/barrier_gen.rs"]
mod barrier_gen;
mod common;
#[path = "common/listing.rs"]
mod listing;

use barrier_gen::Gen;
use cfg::concrete::{self, Outcome};
use cfg::{Options, Tag, WarpEdgeKind};
use common::check_kernel;
use proptest::prelude::*;

/// A divergent if-then-else in one barrier region, as nvcc writes it for sm_70 and later:
/// both paths meet at `BSYNC B0`; the region continues at the instruction after it.
const IF_THEN_ELSE: &str = "
    /*0000*/ S2R R0, SR_TID.X ;
    /*0010*/ ISETP.GE.AND P0, PT, R0, 0x10, PT ;
    /*0020*/ BSSY B0, 0x80 ;
    /*0030*/ @P0 BRA 0x60 ;
    /*0040*/ IADD3 R1, R0, 0x1, RZ ;
    /*0050*/ BRA 0x70 ;
    /*0060*/ IADD3 R1, R0, 0x2, RZ ;
    /*0070*/ BSYNC B0 ;
    /*0080*/ STG.E [R2], R1 ;
    /*0090*/ EXIT ;
";

#[test]
fn if_then_else_reconverges_at_the_instruction_after_bsync() {
    let (k, g, w) = common::warp(IF_THEN_ELSE, &Options::default());
    // Divergence: the taken group (0x60) runs first, the others wait at 0x40.
    assert!(common::edges_of(&k, &g, &w, WarpEdgeKind::Divergence).contains(&(0x0, Some(0x60))));
    // The taken group's BSYNC resumes the waiting group …
    assert!(common::edges_of(&k, &g, &w, WarpEdgeKind::Divergence).contains(&(0x70, Some(0x40))));
    // … whose BSYNC releases the whole barrier at 0x80, the BSSY target.
    assert_eq!(
        common::edges_of(&k, &g, &w, WarpEdgeKind::Reconvergence),
        vec![(0x70, Some(0x80))]
    );
    // Nothing is pending once the barrier released: 0x80 is reached with an empty stack.
    let after: Vec<_> = w
        .nodes
        .iter()
        .filter(|n| {
            n.block
                .is_some_and(|b| k.instructions[g.blocks[b].first].address == 0x80)
        })
        .collect();
    assert!(!after.is_empty());
    assert!(after.iter().all(|n| n.stack.is_empty()), "{after:?}");
    assert!(w
        .nodes
        .iter()
        .any(|n| n.stack.iter().any(|e| e.has_tag(Tag::Barrier(0)))));
}

/// `k` sequential divergent regions, each `BSSY/BRA/BSYNC`.
fn sequential_regions(k: usize) -> String {
    let mut s = String::from("S2R R0, SR_TID.X ;\nISETP.GE.AND P0, PT, R0, 0x10, PT ;\n");
    for r in 0..k {
        s += &format!(
            "BSSY B0, E{r} ;\n@P0 BRA S{r} ;\nIADD3 R1, R1, 0x1, RZ ;\nS{r}:\nBSYNC B0 ;\nE{r}:\nIADD3 R2, R2, R1, RZ ;\n"
        );
    }
    s + "EXIT ;\n"
}

#[test]
fn sequential_barrier_regions_cost_linearly_many_states() {
    // Before barriers were modelled, k regions made 2^(k+2)-1 states; now each region adds
    // the same number of states.
    let count = |k| {
        common::warp(&sequential_regions(k), &Options::default())
            .2
            .nodes
            .len()
    };
    let (c1, c2, c3, c10) = (count(1), count(2), count(3), count(10));
    let per_region = c2 - c1;
    assert!(per_region > 0);
    assert_eq!(c3 - c2, per_region);
    assert_eq!(c10, c1 + 9 * per_region, "{c1} {c2} {c3} {c10}");
    assert!(c10 < 60, "{c10} states for ten regions");
}

/// A loop whose exit diverges, in barrier code: the back edge `@P0 BRA head` leaves the
/// finished threads at `BSYNC B0`.
const DIVERGENT_LOOP: &str = "
    /*0000*/ S2R R0, SR_TID.X ;
    /*0010*/ MOV R1, RZ ;
    /*0020*/ BSSY B0, 0x70 ;
    /*0030*/ IADD3 R1, R1, 0x1, RZ ;
    /*0040*/ ISETP.LT.AND P0, PT, R1, R0, PT ;
    /*0050*/ @P0 BRA 0x30 ;
    /*0060*/ BSYNC B0 ;
    /*0070*/ EXIT ;
";

#[test]
fn a_loop_whose_exit_diverges_keeps_a_bounded_stack() {
    let (k, g, w) = common::warp(DIVERGENT_LOOP, &Options::default());
    // The leaving group goes first (to BSYNC) while the looping group waits at the header,
    // so no stack entry repeats: the stack graph has no cycle.
    assert!(w.nodes.iter().all(|n| n.stack.iter().all(|e| !e.repeated)));
    assert!(w.nodes.iter().all(|n| n.stack.len() <= 2), "{w:?}");
    assert!(common::edges_of(&k, &g, &w, WarpEdgeKind::Divergence).contains(&(0x30, Some(0x60))));
    let checked = check_kernel(DIVERGENT_LOOP, &[1, 2, 3], &Options::default()).expect("sound");
    assert!(checked >= 8);
}

/// `BREAK B1` out of an inner region to the outer `BSYNC B0` (the shape of
/// `reorderDataAndFindCellStartD` on sm_86).
const BREAK_OUT: &str = "
    /*0000*/ S2R R0, SR_TID.X ;
    /*0010*/ ISETP.GE.AND P1, PT, R0, 0x8, PT ;
    /*0020*/ ISETP.GE.AND P0, PT, R0, 0x10, PT ;
    /*0030*/ BSSY B0, 0xb0 ;
    /*0040*/ BSSY B1, 0x90 ;
    /*0050*/ @!P1 BRA 0x80 ;
    /*0060*/ @!P0 BREAK B1 ;
    /*0070*/ @!P0 BRA 0xa0 ;
    /*0080*/ BSYNC B1 ;
    /*0090*/ IADD3 R1, R0, 0x1, RZ ;
    /*00a0*/ BSYNC B0 ;
    /*00b0*/ EXIT ;
";

#[test]
fn break_leaves_the_inner_barrier_and_waits_at_the_outer_one() {
    let (k, g, w) = common::warp(BREAK_OUT, &Options::default());
    // Threads 8..16 break to 0xa0; 0..8 and 16.. meet at BSYNC B1 and run 0x90 together.
    let checked = check_kernel(BREAK_OUT, &[1, 2, 3], &Options::default()).expect("sound");
    assert!(checked >= 8);
    // In the executor the comparisons are seeded functions of the thread, not of its index:
    // whichever threads break, the inner region's tail (0x90) runs without them, once, and
    // everybody leaves the outer barrier together.
    let mut broke = 0;
    for seed in 0..16 {
        let t = concrete::run(&k, &g, 32, seed, 1000);
        assert_eq!(t.outcome, Outcome::Finished);
        let visits_of = |addr: u64| {
            t.visits
                .iter()
                .enumerate()
                .filter(|(_, v)| k.instructions[g.blocks[v.block].first].address == addr)
                .map(|(i, v)| (i, v.active))
                .collect::<Vec<_>>()
        };
        let at = |addr: u64| {
            visits_of(addr)
                .into_iter()
                .map(|(_, m)| m)
                .collect::<Vec<_>>()
        };
        assert_eq!(at(0xb0), vec![0xffff_ffff], "seed {seed}");
        // The breakers reach the outer BSYNC before the inner region's tail runs.
        let tail = visits_of(0x90).first().map_or(usize::MAX, |v| v.0);
        let breakers: u64 = visits_of(0xa0)
            .into_iter()
            .filter(|(i, _)| *i < tail)
            .map(|(_, m)| m)
            .fold(0, |a, m| a | m);
        match at(0x90).as_slice() {
            [] => assert_eq!(breakers, 0xffff_ffff),
            [stayed] => {
                assert_eq!(stayed & breakers, 0, "seed {seed}");
                if *stayed != 0xffff_ffff {
                    assert_eq!(stayed | breakers, 0xffff_ffff, "seed {seed}");
                    broke += 1;
                }
            }
            more => panic!("seed {seed}: 0x90 ran {} times", more.len()),
        }
    }
    assert!(broke > 0, "no seed made a group break");
    // The breaking group's fused BREAK + BRA is one divergence edge to the outer BSYNC.
    assert!(common::edges_of(&k, &g, &w, WarpEdgeKind::Divergence).contains(&(0x60, Some(0xa0))));
}

/// [`BREAK_OUT`] with an ordinary instruction scheduled between the `BREAK` and its branch
/// (issue #37 item 4: nvcc may place one there). The breaking threads still are exactly the
/// branching ones, so the graph is the fused one: sound against the executor, and the
/// divergence edge goes to the outer `BSYNC`. An instruction between that writes the guard
/// makes them differ: a located error.
#[test]
fn a_break_separated_from_its_branch_is_still_fused() {
    let src = "
    /*0000*/ S2R R0, SR_TID.X ;
    /*0010*/ ISETP.GE.AND P1, PT, R0, 0x8, PT ;
    /*0020*/ ISETP.GE.AND P0, PT, R0, 0x10, PT ;
    /*0030*/ BSSY B0, 0xc0 ;
    /*0040*/ BSSY B1, 0xa0 ;
    /*0050*/ @!P1 BRA 0x90 ;
    /*0060*/ @!P0 BREAK B1 ;
    /*0070*/ IADD3 R2, R0, 0x2, RZ ;
    /*0080*/ @!P0 BRA 0xb0 ;
    /*0090*/ BSYNC B1 ;
    /*00a0*/ IADD3 R1, R0, 0x1, RZ ;
    /*00b0*/ BSYNC B0 ;
    /*00c0*/ EXIT ;
";
    let (k, g, w) = common::warp(src, &Options::default());
    let checked = check_kernel(src, &[1, 2, 3], &Options::default()).expect("sound");
    assert!(checked >= 8);
    assert!(common::edges_of(&k, &g, &w, WarpEdgeKind::Divergence).contains(&(0x60, Some(0xb0))));
    for seed in 0..8 {
        let t = concrete::run(&k, &g, 32, seed, 1000);
        assert_eq!(t.outcome, Outcome::Finished, "seed {seed}");
    }
    let clobbered = src.replace("IADD3 R2, R0, 0x2, RZ", "ISETP.GE.AND P0, PT, R0, 0x4, PT");
    let (k, g) = common::kernel(&clobbered);
    let e = cfg::build(&k, &g, &Options::default())
        .err()
        .map(|d| d.to_string())
        .unwrap_or_default();
    assert!(
        e.contains("not followed by a branch on the same guard"),
        "{e}"
    );
}

#[test]
fn a_predicated_call_runs_the_callers_first() {
    let src = "
        /*0000*/ S2R R0, SR_TID.X ;
        /*0010*/ ISETP.GE.AND P1, PT, R0, 0x10, PT ;
        /*0020*/ BSSY B0, 0x50 ;
        /*0030*/ @P1 CALL.REL.NOINC 0x60 ;
        /*0040*/ BSYNC B0 ;
        /*0050*/ EXIT ;
        /*0060*/ IADD3 R1, R0, 0x1, RZ ;
        /*0070*/ RET.REL.NODEC R20 0x0 ;
    ";
    let (k, g, w) = common::warp(src, &Options::default());
    assert!(common::edges_of(&k, &g, &w, WarpEdgeKind::Call).contains(&(0x0, Some(0x60))));
    let checked = check_kernel(src, &[1, 2, 3], &Options::default()).expect("sound");
    assert!(checked >= 8);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn concrete_barrier_paths_are_warp_cfg_paths(kernel_seed in any::<u64>(), data in prop::collection::vec(any::<u64>(), 3)) {
        let src = Gen::kernel(kernel_seed);
        if let Err(e) = check_kernel(&src, &data, &Options::default()) {
            prop_assert!(false, "{e}\n--- kernel ---\n{src}");
        }
    }

    #[test]
    fn ablations_are_sound_on_barrier_code_too(kernel_seed in any::<u64>(), data in prop::collection::vec(any::<u64>(), 2)) {
        let src = Gen::kernel(kernel_seed);
        for o in [
            Options { agreement: false, ..Options::default() },
            Options { groups: false, ..Options::default() },
            Options { cyclic_stacks: false, ..Options::default() },
        ] {
            if let Err(e) = check_kernel(&src, &data, &o) {
                prop_assert!(false, "{o:?}: {e}\n--- kernel ---\n{src}");
            }
        }
    }
}

#[test]
fn the_barrier_generator_breaks_diverges_and_finishes() {
    // Guard against a vacuous property: runs must finish, diverge, wait at barriers and break.
    let (mut finished, mut diverged, mut broke) = (0, 0, 0);
    for seed in 0..60u64 {
        let src = Gen::kernel(seed);
        let (k, g) = common::kernel(&src);
        let t = concrete::run(&k, &g, 8, seed, 20_000);
        if t.outcome != Outcome::Finished {
            continue;
        }
        finished += 1;
        if t.visits
            .iter()
            .any(|v| v.pending.iter().any(|e| e.tag == Tag::Nil))
        {
            diverged += 1;
        }
        if src.contains("BREAK") {
            broke += 1;
        }
    }
    assert!(finished >= 40, "only {finished} runs finished");
    assert!(diverged >= 10, "only {diverged} runs diverged");
    assert!(broke >= 5, "only {broke} kernels break");
}

/// Paths that diverge outside any region and meet at `WARPSYNC.ALL` (the shape before every
/// `BAR.SYNC` in the sm_90 listings): the warp is saved when it diverges, the taken group
/// waits at the `WARPSYNC`, the other path runs, and the saved warp leaves as one group.
const WARPSYNC_JOIN: &str = "
    /*0000*/ S2R R0, SR_TID.X ;
    /*0010*/ ISETP.GE.AND P0, PT, R0, 0x10, PT ;
    /*0020*/ @P0 BRA 0x40 ;
    /*0030*/ IADD3 R1, R0, 0x1, RZ ;
    /*0040*/ WARPSYNC.ALL ;
    /*0050*/ BAR.SYNC 0x0 ;
    /*0060*/ EXIT ;
";

#[test]
fn full_warp_warpsync_reconverges_paths_diverged_outside_regions() {
    let (k, g, w) = common::warp(WARPSYNC_JOIN, &Options::default());
    let div = common::edges_of(&k, &g, &w, WarpEdgeKind::Divergence);
    assert!(div.contains(&(0x0, Some(0x40))), "{div:?}");
    assert!(div.contains(&(0x40, Some(0x30))), "{div:?}");
    let rec = common::edges_of(&k, &g, &w, WarpEdgeKind::Reconvergence);
    assert_eq!(rec, vec![(0x40, Some(0x50))]);
    let at_bar: Vec<_> = w
        .nodes
        .iter()
        .filter(|n| {
            n.block
                .is_some_and(|b| k.instructions[g.blocks[b].first].address == 0x50)
        })
        .collect();
    assert_eq!(at_bar.len(), 1);
    assert!(at_bar[0].stack.is_empty(), "{at_bar:?}");
    let checked = check_kernel(WARPSYNC_JOIN, &[1, 2, 3], &Options::default()).expect("sound");
    assert!(checked >= 8);
    // A partial mask is an ordinary instruction: nothing reconverges there.
    let partial = WARPSYNC_JOIN.replace("WARPSYNC.ALL", "WARPSYNC 0xffff");
    let (k, g, w) = common::warp(&partial, &Options::default());
    assert!(common::edges_of(&k, &g, &w, WarpEdgeKind::Reconvergence).is_empty());
}

#[test]
fn sequential_warpsync_joins_cost_linearly_many_states() {
    // Each diverge-and-rejoin adds the same few states: the saved warp is consumed at each
    // `WARPSYNC`, so nothing accumulates on the stack.
    let region = |r: usize| {
        format!("@P0 BRA J{r} ;\nIADD3 R1, R1, 0x1, RZ ;\nJ{r}:\nWARPSYNC.ALL ;\nBAR.SYNC 0x0 ;\n")
    };
    let kernel = |k: usize| {
        let mut s = String::from("S2R R0, SR_TID.X ;\nISETP.GE.AND P0, PT, R0, 0x10, PT ;\n");
        for r in 0..k {
            s += &region(r);
        }
        s + "EXIT ;\n"
    };
    let count = |k| common::warp(&kernel(k), &Options::default()).2.nodes.len();
    let (c1, c2, c10) = (count(1), count(2), count(10));
    assert_eq!(c10 - c1, 9 * (c2 - c1), "{c1} {c2} {c10}");
    assert!(c10 < 100, "{c10}");
}

/// The shape of `reduce7` on sm_90 (`crate::consts`): two paths set `R4` to `0x20` apart,
/// compute the shuffle loop's `P0` from it before the `WARPSYNC.ALL` that rejoins them, and
/// the rejoined warp branches on `P0`.
const REJOINED_CONSTANTS: &str = "
    /*0000*/ S2R R0, SR_TID.X ;
    /*0010*/ ISETP.GE.AND P1, PT, R0, 0x10, PT ;
    /*0020*/ @P1 BRA 0x50 ;
    /*0030*/ IMAD.MOV.U32 R4, RZ, RZ, 0x20 ;
    /*0040*/ BRA 0x60 ;
    /*0050*/ MOV R4, 0x20 ;
    /*0060*/ LEA.HI R5, R4, R4, RZ, 0x1 ;
    /*0070*/ ISETP.GT.AND P0, PT, R4, 0x3, PT ;
    /*0080*/ SHF.R.S32.HI R5, RZ, 0x1, R5 ;
    /*0090*/ WARPSYNC.ALL ;
    /*00a0*/ SHFL.DOWN PT, R7, R6, R5, 0x1f ;
    /*00b0*/ IMAD.MOV.U32 R4, RZ, RZ, R5 ;
    /*00c0*/ @P0 BRA 0x60 ;
    /*00d0*/ EXIT ;
";

#[test]
fn equal_constants_set_apart_are_agreed_where_the_paths_rejoin() {
    let branch_diverges = |src: &str| {
        let (k, g, w) = common::warp(src, &Options::default());
        common::edges_of(&k, &g, &w, WarpEdgeKind::Divergence)
            .iter()
            .any(|&(from, _)| from == 0xa0)
    };
    // Both paths hold R4 = 0x20 and P0 = (0x20 > 3) at the WARPSYNC: the warp agrees on P0.
    assert!(!branch_diverges(REJOINED_CONSTANTS));
    // The same through a barrier region instead of the WARPSYNC.
    let region = REJOINED_CONSTANTS
        .replace("/*0000*/ S2R R0, SR_TID.X ;", "/*0000*/ BSSY B0, 0xa0 ;")
        .replace("/*0090*/ WARPSYNC.ALL ;", "/*0090*/ BSYNC B0 ;");
    assert!(!branch_diverges(&region), "{region}");
    // Different constants (0x2 is not > 3): P0 differs between the paths, the branch diverges.
    let different = REJOINED_CONSTANTS.replace("MOV R4, 0x20 ;", "MOV R4, 0x2 ;");
    assert!(branch_diverges(&different));
    let region_different = region.replace("MOV R4, 0x20 ;", "MOV R4, 0x2 ;");
    assert!(branch_diverges(&region_different));
    for src in [REJOINED_CONSTANTS, &region, &different, &region_different] {
        let checked = check_kernel(src, &[1, 2, 3], &Options::default()).expect("sound");
        assert!(checked >= 8);
    }
}
