//! Soundness of the warp-level CFG against the concrete SIMT executor: on random structured
//! kernels and random per-thread data (the seed decides every comparison), every path the
//! concrete warp takes is a path of the warp-level CFG, entry to exit.

mod common;
#[path = "common/listing.rs"]
mod listing;

use cfg::concrete::{self, Outcome};
use cfg::{Options, Tag};
use common::check_kernel;
use listing::Listing;
use proptest::prelude::*;

/// A tiny structured-program generator emitting SASS text with labels.
struct Gen {
    listing: Listing,
    subs: usize,
}

listing::deref_to_listing!(Gen);

impl Gen {
    fn reg(&mut self) -> u64 {
        self.next(6)
    }

    fn data(&mut self) {
        match self.next(6) {
            0 => {
                let r = self.reg();
                self.emit(format!("S2R R{r}, SR_TID.X ;"));
            }
            1 => {
                let r = self.reg();
                self.emit(format!("S2R R{r}, SR_CTAID.X ;"));
            }
            2 => {
                let (p, a, b) = (self.next(3), self.reg(), self.reg());
                self.emit(format!("ISETP.GE.AND P{p}, PT, R{a}, R{b}, PT ;"));
            }
            3 => {
                let (p, a, b) = (self.next(3), self.reg(), self.reg());
                self.emit(format!("@P{p} IADD R{a}, R{a}, R{b} ;"));
            }
            _ => {
                let (a, b, c) = (self.reg(), self.reg(), self.reg());
                self.emit(format!("IADD R{a}, R{b}, R{c} ;"));
            }
        }
    }

    fn body(&mut self, depth: u32, in_loop: bool) {
        let n = 1 + self.next(3);
        for _ in 0..n {
            let pick = if depth == 0 { 0 } else { self.next(9) };
            match pick {
                1 => {
                    // if-then-else
                    let (els, end) = (self.fresh(), self.fresh());
                    let c = self.cond();
                    self.emit(format!("SSY {end} ;"));
                    self.emit(format!("{c} BRA {els} ;"));
                    self.body(depth - 1, in_loop);
                    self.emit("SYNC ;");
                    self.emit(format!("{els}:"));
                    self.body(depth - 1, in_loop);
                    self.emit("SYNC ;");
                    self.emit(format!("{end}:"));
                }
                2 => {
                    // then-only with a predicated SYNC
                    let end = self.fresh();
                    let c = self.cond();
                    self.emit(format!("SSY {end} ;"));
                    self.emit(format!("{c} SYNC ;"));
                    self.body(depth - 1, in_loop);
                    self.emit("SYNC ;");
                    self.emit(format!("{end}:"));
                }
                3 => {
                    // PBK/BRK loop with a divergent break
                    let (head, exit) = (self.fresh(), self.fresh());
                    self.emit(format!("PBK {exit} ;"));
                    self.emit(format!("{head}:"));
                    self.body(depth - 1, true);
                    self.emit("IADD R5, R5, 0x1 ;");
                    let p = self.next(3);
                    self.emit(format!("ISETP.GT.AND P{p}, PT, R5, R4, PT ;"));
                    self.emit(format!("@P{p} BRK ;"));
                    self.emit(format!("BRA {head} ;"));
                    self.emit(format!("{exit}:"));
                }
                4 => {
                    // loop whose back edge may diverge, inside SSY/SYNC
                    let (head, after) = (self.fresh(), self.fresh());
                    self.emit(format!("SSY {after} ;"));
                    self.emit(format!("{head}:"));
                    self.body(depth - 1, in_loop);
                    self.emit("IADD R4, R4, 0x1 ;");
                    let p = self.next(3);
                    self.emit(format!("ISETP.LT.AND P{p}, PT, R4, R3, PT ;"));
                    self.emit(format!("@P{p} BRA {head} ;"));
                    self.emit("SYNC ;");
                    self.emit(format!("{after}:"));
                }
                5 if !in_loop => {
                    let c = self.cond();
                    self.emit(format!("{c} EXIT ;"));
                }
                6 if self.subs > 0 => {
                    let subs = self.subs as u64;
                    let s = self.next(subs);
                    self.emit(format!("CAL sub{s} ;"));
                }
                7 if in_loop => {
                    let c = self.cond();
                    self.emit(format!("{c} BRK ;"));
                }
                _ => self.data(),
            }
        }
    }

    fn kernel(seed: u64) -> String {
        let mut g = Gen {
            listing: Listing::new(seed ^ 0x2545_F491_4F6C_DD1D),
            subs: 0,
        };
        g.subs = g.next(3) as usize;
        g.emit("S2R R0, SR_TID.X ;");
        g.emit("S2R R3, SR_TID.X ;");
        g.body(2, false);
        g.emit("EXIT ;");
        for s in 0..g.subs {
            g.emit(format!("sub{s}:"));
            let saved = g.subs;
            g.subs = 0;
            g.body(1, true); // no EXIT inside subroutines
            g.subs = saved;
            g.emit("RET ;");
        }
        g.text()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn concrete_paths_are_warp_cfg_paths(kernel_seed in any::<u64>(), data in prop::collection::vec(any::<u64>(), 3)) {
        let src = Gen::kernel(kernel_seed);
        if let Err(e) = check_kernel(&src, &data, &Options::default()) {
            prop_assert!(false, "{e}\n--- kernel ---\n{src}");
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn ablations_are_sound_too(kernel_seed in any::<u64>(), data in prop::collection::vec(any::<u64>(), 2)) {
        let src = Gen::kernel(kernel_seed);
        let ablations = [
            Options { agreement: false, ..Options::default() },
            Options { pending_agreement: false, ..Options::default() },
            Options { groups: false, ..Options::default() },
            Options { cyclic_stacks: false, ..Options::default() },
        ];
        for o in &ablations {
            if let Err(e) = check_kernel(&src, &data, o) {
                prop_assert!(false, "{o:?}: {e}\n--- kernel ---\n{src}");
            }
        }
    }
}

#[test]
fn the_generator_produces_divergent_paths_that_get_checked() {
    // Guard against a vacuous property: the executor must actually diverge and finish.
    let mut diverged = 0;
    let mut checked = 0;
    for seed in 0..40u64 {
        let src = Gen::kernel(seed);
        let (k, g) = common::kernel(&src);
        let t = concrete::run(&k, &g, 8, seed, 20_000);
        if t.outcome == Outcome::Finished {
            checked += 1;
            if t.visits
                .iter()
                .any(|v| v.pending.iter().any(|e| e.tag == Tag::Nil))
            {
                diverged += 1;
            }
        }
    }
    assert!(checked >= 30, "only {checked} runs finished");
    assert!(diverged >= 5, "only {diverged} runs diverged");
}

#[test]
fn nested_loops_with_divergent_back_edges_fold_into_stack_cycles() {
    // Both back edges depend on the thread index: every iteration of either loop can leave
    // threads pending at its exit, so pending entries alternate (outer exit, inner exit, ...)
    // and only a cycle of the stack graph keeps the state space finite.
    let src = "
        S2R R0, SR_TID.X ;
        MOV R1, RZ ;
    outer:
        MOV R2, RZ ;
    inner:
        IADD R2, R2, 0x1 ;
        ISETP.LT.AND P0, PT, R2, R0, PT ;
        @P0 BRA inner ;
        IADD R1, R1, 0x1 ;
        ISETP.LT.AND P1, PT, R1, R0, PT ;
        @P1 BRA outer ;
        EXIT ;
    ";
    let (k, g) = common::kernel(src);
    let w = cfg::build(&k, &g, &Options::default()).expect("analysis");
    assert!(w.nodes.len() < 100, "{} states", w.nodes.len());
    assert!(w
        .nodes
        .iter()
        .any(|n| n.stack.iter().any(|e| e.points.len() > 1)));
    let checked = check_kernel(src, &[1, 2, 3, 4, 5], &Options::default()).expect("sound");
    assert!(checked >= 10);
}
