//! Warp scheduling policies (issue #7 item 4): the order in which a cycle's candidate warps
//! are offered an issue slot. Warps are numbered in dispatch order (block-major), so a lower
//! index is an older warp.

use crate::machine::Scheduler;

/// Appends to `out` (cleared first) the warps of `live` (ascending indices of the warps that
/// are neither finished nor waiting at a barrier) in `policy`'s order of preference.
/// `last_issued` is the warp that issued most recently; `turn` the warp whose turn it is
/// under pure round-robin.
pub(crate) fn order(
    policy: Scheduler,
    live: &[usize],
    last_issued: Option<usize>,
    turn: usize,
    out: &mut Vec<usize>,
) {
    out.clear();
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
    };
    out.extend_from_slice(&live[start..]);
    out.extend_from_slice(&live[..start]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(policy: Scheduler, live: &[usize], last: Option<usize>, turn: usize) -> Vec<usize> {
        let mut out = Vec::new();
        order(policy, live, last, turn, &mut out);
        out
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
