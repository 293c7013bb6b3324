//! Warp scheduling policies (issue #7 item 4): the order in which a cycle's candidate warps
//! are offered an issue slot. Warps are numbered in dispatch order (block-major), so a lower
//! index is an older warp.

use crate::machine::Scheduler;

/// Appends to `out` (cleared first) the warps of `live` (ascending indices of the warps that
/// are neither finished nor waiting at a barrier) in `policy`'s order of preference.
/// `last_issued` is the warp that issued most recently; `turn` the warp whose turn it is
/// under pure round-robin; `cycle` the current cycle (the random order's draw).
pub(crate) fn order(
    policy: Scheduler,
    live: &[usize],
    last_issued: Option<usize>,
    turn: usize,
    cycle: u64,
    out: &mut Vec<usize>,
) {
    out.clear();
    if let Scheduler::Random(seed) = policy {
        // A fresh permutation every cycle (Fisher–Yates on a SplitMix64 stream of the seed
        // and the cycle): any work-conserving choice can come up, and the same seed gives
        // the same run.
        out.extend_from_slice(live);
        let mut state = seed ^ cycle.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for i in (1..out.len()).rev() {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            out.swap(i, (z % (i as u64 + 1)) as usize);
        }
        return;
    }
    let first_at_or_after = |w: usize| live.iter().position(|&i| i >= w).unwrap_or(0);
    // The rotation of `live` that starts at this position. (This runs every cycle: plain
    // slice copies, no iterator chains.)
    let start = match policy {
        // GPGPU-Sim `lrr`: start after the warp that issued last.
        Scheduler::LooseRoundRobin => last_issued.map_or(0, |l| first_at_or_after(l + 1)),
        // Greedy: the last warp first, then round-robin from it.
        Scheduler::GreedyThenRoundRobin => last_issued.map_or(0, first_at_or_after),
        // GPGPU-Sim `gto`: the last warp first, then the oldest (`live` holds each warp once).
        Scheduler::GreedyThenOldest => {
            match last_issued.and_then(|l| live.iter().position(|&i| i == l)) {
                Some(p) => {
                    out.push(live[p]);
                    out.extend_from_slice(&live[..p]);
                    out.extend_from_slice(&live[p + 1..]);
                }
                None => out.extend_from_slice(live),
            }
            return;
        }
        // Huangfu §5.3.1: strictly the warp whose turn it is (the engine stops at the first
        // candidate that cannot issue).
        Scheduler::PureRoundRobin => first_at_or_after(turn),
        Scheduler::Random(_) => 0,
    };
    out.extend_from_slice(&live[start..]);
    out.extend_from_slice(&live[..start]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(policy: Scheduler, live: &[usize], last: Option<usize>, turn: usize) -> Vec<usize> {
        let mut out = Vec::new();
        order(policy, live, last, turn, 0, &mut out);
        out
    }

    #[test]
    fn the_random_order_is_a_permutation_that_changes_with_the_cycle() {
        let live = [0, 2, 3, 5, 7, 9];
        let mut seen = std::collections::BTreeSet::new();
        for cycle in 0..50 {
            let mut out = Vec::new();
            order(Scheduler::Random(7), &live, Some(3), 0, cycle, &mut out);
            let mut sorted = out.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, live);
            seen.insert(out);
        }
        // 50 draws of 720 orders: at least 30 distinct (a fixed order would give 1).
        assert!(seen.len() >= 30, "{}", seen.len());
        let (mut a, mut b) = (Vec::new(), Vec::new());
        order(Scheduler::Random(7), &live, None, 0, 11, &mut a);
        order(Scheduler::Random(7), &live, None, 0, 11, &mut b);
        assert_eq!(a, b);
    }

    #[test]
    fn each_policy_orders_the_candidates() {
        let live = [0, 2, 3, 5];
        assert_eq!(
            run(Scheduler::LooseRoundRobin, &live, Some(2), 0),
            vec![3, 5, 0, 2]
        );
        assert_eq!(
            run(Scheduler::LooseRoundRobin, &live, Some(5), 0),
            vec![0, 2, 3, 5]
        );
        assert_eq!(
            run(Scheduler::GreedyThenRoundRobin, &live, Some(3), 0),
            vec![3, 5, 0, 2]
        );
        assert_eq!(
            run(Scheduler::GreedyThenOldest, &live, Some(3), 0),
            vec![3, 0, 2, 5]
        );
        // The last warp finished (not live): oldest first.
        assert_eq!(
            run(Scheduler::GreedyThenOldest, &live, Some(4), 0),
            vec![0, 2, 3, 5]
        );
        assert_eq!(
            run(Scheduler::PureRoundRobin, &live, Some(0), 1),
            vec![2, 3, 5, 0]
        );
        assert_eq!(
            run(Scheduler::PureRoundRobin, &live, None, 6),
            vec![0, 2, 3, 5]
        );
        assert!(run(Scheduler::LooseRoundRobin, &[], None, 0).is_empty());
    }
}
