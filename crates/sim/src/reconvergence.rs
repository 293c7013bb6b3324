//! Immediate post-dominators of a control-flow graph with a virtual exit: where the PDOM
//! stack of GPGPU-Sim (Fung et al., MICRO 2007; Huangfu thesis §4.4.4 uses the same
//! reconvergence rule) joins the two sides of a divergent branch.
//!
//! Node `n` (one past the last instruction) is the virtual exit every `ret`/`exit` (and a
//! fall-off-the-end) leads to. A node post-dominates `v` when every path from `v` to the exit
//! passes through it; the immediate post-dominator is the closest strict one. Computed with
//! the iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance
//! Algorithm", 2001) on the reverse graph, rooted at the exit. Nodes from which the exit is
//! unreachable (an infinite loop) get `None`: their threads never reconverge before exit.

/// `ipdom[v]` for every node `0..succ.len()`; `Some(succ.len())` is the virtual exit.
/// `succ[v]` lists `v`'s successors; a successor `>= succ.len()` means the exit.
pub fn immediate_post_dominators(succ: &[Vec<usize>]) -> Vec<Option<usize>> {
    let n = succ.len();
    let exit = n;
    // Predecessors in the reverse graph are successors in the forward graph; build the
    // reverse graph's successor lists (= forward predecessors), exit included.
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    for (v, ss) in succ.iter().enumerate() {
        for &s in ss {
            preds[s.min(exit)].push(v);
        }
    }
    // Reverse postorder of the reverse graph from the exit (iterative DFS, no recursion).
    let mut order_index = vec![usize::MAX; n + 1];
    let mut postorder = Vec::with_capacity(n + 1);
    let mut visited = vec![false; n + 1];
    let mut stack: Vec<(usize, usize)> = vec![(exit, 0)];
    visited[exit] = true;
    while let Some(top) = stack.last_mut() {
        let (v, i) = *top;
        if let Some(&p) = preds[v].get(i) {
            top.1 += 1;
            if !visited[p] {
                visited[p] = true;
                stack.push((p, 0));
            }
        } else {
            postorder.push(v);
            stack.pop();
        }
    }
    for (k, &v) in postorder.iter().enumerate() {
        order_index[v] = k;
    }
    let mut idom: Vec<Option<usize>> = vec![None; n + 1];
    idom[exit] = Some(exit);
    // Succ-of-v in the forward graph = predecessors of v in the reverse graph.
    let rsucc = |v: usize| -> Vec<usize> { succ[v].iter().map(|&s| s.min(exit)).collect() };
    let mut changed = true;
    while changed {
        changed = false;
        for &v in postorder.iter().rev() {
            if v == exit {
                continue;
            }
            let mut new: Option<usize> = None;
            for p in rsucc(v) {
                if idom[p].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(cur) => intersect(&idom, &order_index, p, cur),
                });
            }
            if new.is_some() && idom[v] != new {
                idom[v] = new;
                changed = true;
            }
        }
    }
    idom.truncate(n);
    idom
}

/// The nearest common ancestor of `a` and `b` in the partial dominator tree (CHK Fig. 3).
fn intersect(idom: &[Option<usize>], order: &[usize], mut a: usize, mut b: usize) -> usize {
    // Each step moves one finger strictly up the tree (to a larger postorder number), so
    // the loop ends within `idom.len()` steps; the guard makes that explicit.
    for _ in 0..=2 * idom.len() {
        if a == b {
            return a;
        }
        while order[a] < order[b] {
            match idom[a] {
                Some(x) if x != a => a = x,
                _ => return b,
            }
        }
        while order[b] < order[a] {
            match idom[b] {
                Some(x) if x != b => b = x,
                _ => return a,
            }
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diamond_reconverges_at_the_join() {
        // 0: @p bra 2 ; 1: bra 3 ; 2: (else) ; 3: join ; 4: ret → exit 5
        let succ = vec![vec![1, 2], vec![3], vec![3], vec![4], vec![5]];
        let ip = immediate_post_dominators(&succ);
        assert_eq!(ip, vec![Some(3), Some(3), Some(3), Some(4), Some(5)]);
    }

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
