//! Immediate post-dominators of a control-flow graph with a virtual exit: where the PDOM
//! stack of GPGPU-Sim (Fung et al., MICRO 2007; Huangfu thesis §4.4.4 uses the same
//! reconvergence rule) joins the two sides of a divergent branch.
//!
//! Node `n` (one past the last instruction) is the virtual exit every `ret`/`exit` (and a
//! fall-off-the-end) leads to. A node post-dominates `v` when every path from `v` to the exit
//! passes through it; the immediate post-dominator is the closest strict one. Nodes from
//! which the exit is unreachable (an infinite loop) get `None`: their threads never
//! reconverge before exit. The computation is the workspace's one dominance implementation,
//! [`isa::dominance`] (Cooper, Harvey and Kennedy's algorithm by way of `petgraph`); this
//! module names the reconvergence rule the simulator applies and keeps its examples.

/// `ipdom[v]` for every node `0..succ.len()`; `Some(succ.len())` is the virtual exit.
/// `succ[v]` lists `v`'s successors; a successor `>= succ.len()` means the exit.
pub use isa::dominance::immediate_post_dominators;

#[cfg(test)]
mod tests {
    use super::*;

    // The diamond (a branch reconverging at its join) is `isa::dominance`'s own test,
    // `diamond_reconverges_at_the_join`; these are the PDOM stack's other cases.

    #[test]
    fn loop_exit_and_infinite_loop() {
        // 0 → 1; 1 → {1, 2}; 2 → exit(3): ipdom(1) = 2.
        let ip = immediate_post_dominators(&[vec![1], vec![1, 2], vec![3]]);
        assert_eq!(ip, vec![Some(1), Some(2), Some(3)]);
        // 0 → {1, 2}; 1 → 1 (never exits); 2 → exit: 1 has none, 0's is 2.
        let ip = immediate_post_dominators(&[vec![1, 2], vec![1], vec![3]]);
        assert_eq!(ip, vec![Some(2), None, Some(3)]);
    }

    #[test]
    fn early_return_reconverges_at_exit() {
        // 0: @p bra 2 ; 1: ret ; 2: ret → both sides end: ipdom(0) = exit 3.
        let ip = immediate_post_dominators(&[vec![1, 2], vec![3], vec![3]]);
        assert_eq!(ip[0], Some(3));
    }
}
