//! The pure round-robin schedule of code segments (Huangfu §5.3.1, Eq. 5.1–5.3, Fig. 22).
//!
//! T_ij is when the scheduler may start issuing segment j of warp i:
//!
//! - Eq. 5.1: T_00 = 0; T_i0 = T_(i−1)0 + LI_(i−1)0.
//! - Eq. 5.2: T_ij = max(T_i'k + LI_i'k, T_ij' + LI_ij' + LE_ij'), where i'k is the segment
//!   issued just before in round-robin order (warp i − 1, or warp N − 1 of the previous
//!   round for i = 0) and j' = j − 1.
//! - Eq. 5.3: T_i(end) = T_i,last + LI_i,last + LE_i,last; WCET = max_i T_i(end).
//!
//! Warps execute different numbers of segments when their traces differ; the recurrence is
//! evaluated as the scheduler runs it: the "segment issued just before" is the previous
//! issue in round-robin order, skipping warps that have finished and warps waiting at a
//! barrier (§5.3.1: "as long as the current warp is not waiting at a synchronization
//! barrier"; §5.4). A warp that issued `bar.sync` resumes once every warp of its block has
//! issued its barrier (or finished), no earlier than the latest of their barrier
//! completions. With equal segment counts and no barriers this is exactly Eq. 5.1–5.2.

use isa::{Diagnostic, Severity};
use std::collections::BTreeMap;

/// One execution of a code segment by a warp, with its LI and LE (Eq. 5.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SegmentInstance {
    pub segment: usize,
    pub li: u64,
    pub le: u64,
    pub barrier: bool,
}

/// A warp's segments in execution order; `group` is its block (barrier scope).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarpProgram {
    pub group: u32,
    pub instances: Vec<SegmentInstance>,
}

/// Gantt data of one segment instance: issue in [start, issue_end), execution latency in
/// [issue_end, end).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interval {
    pub segment: usize,
    /// T_ij.
    pub start: u64,
    /// T_ij + LI_ij.
    pub issue_end: u64,
    /// T_ij + LI_ij + LE_ij.
    pub end: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarpSchedule {
    pub intervals: Vec<Interval>,
    /// T_i(end) (Eq. 5.3); the start time for a warp with no segment.
    pub end: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    pub warps: Vec<WarpSchedule>,
    /// max_i T_i(end) (Eq. 5.3).
    pub makespan: u64,
}

/// Evaluates Eq. 5.1–5.3 for `programs` (warp i = `programs[i]`), starting at `start`.
pub fn schedule(programs: &[WarpProgram], start: u64) -> Result<Schedule, Diagnostic> {
    let n = programs.len();
    let mut next = vec![0usize; n];
    let mut ready = vec![start; n];
    let mut blocked = vec![false; n];
    let mut warps: Vec<WarpSchedule> = programs
        .iter()
        .map(|p| WarpSchedule {
            intervals: Vec::with_capacity(p.instances.len()),
            end: start,
        })
        .collect();
    // Latest barrier completion per block, for the warps currently waiting.
    let mut release: BTreeMap<u32, u64> = BTreeMap::new();
    let mut cursor = start;
    let mut last: Option<usize> = None;
    let finished = |next: &[usize], i: usize| next[i] >= programs[i].instances.len();
    loop {
        let begin = last.map_or(0, |l| l + 1);
        let pick = (0..n)
            .map(|k| (begin + k) % n.max(1))
            .find(|&i| !finished(&next, i) && !blocked[i]);
        let Some(i) = pick else {
            if (0..n).all(|i| finished(&next, i)) {
                break;
            }
            // Everyone left is waiting at a barrier whose block cannot complete.
            return Err(Diagnostic::global(
                Severity::Error,
                "barrier deadlock: warps wait at bar.sync while others of their block \
                 can never reach it",
            ));
        };
        let inst = programs[i].instances[next[i]];
        let t = cursor.max(ready[i]);
        let issue_end = t.saturating_add(inst.li);
        let end = issue_end.saturating_add(inst.le);
        warps[i].intervals.push(Interval {
            segment: inst.segment,
            start: t,
            issue_end,
            end,
        });
        warps[i].end = end;
        cursor = issue_end;
        ready[i] = end;
        next[i] += 1;
        last = Some(i);
        let group = programs[i].group;
        if inst.barrier {
            blocked[i] = true;
            let r = release.entry(group).or_insert(0);
            *r = (*r).max(end);
        }
        // Release the block once all its warps are at the barrier or done.
        let members = || (0..n).filter(|&k| programs[k].group == group);
        if members().any(|k| blocked[k]) && members().all(|k| blocked[k] || finished(&next, k)) {
            let r = release.remove(&group).unwrap_or(0);
            for k in members() {
                if blocked[k] {
                    blocked[k] = false;
                    ready[k] = ready[k].max(r);
                }
            }
        }
    }
    let makespan = warps.iter().map(|w| w.end).max().unwrap_or(start);
    Ok(Schedule { warps, makespan })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// With equal segment counts and no barriers, the scheduler equals a literal
        /// evaluation of Eq. 5.1 and Eq. 5.2 with their index rules (i' and k).
        #[test]
        #[allow(clippy::needless_range_loop)]
        fn equals_literal_eq_5_1_and_5_2(
            n in 1usize..6,
            m in 1usize..6,
            lat in proptest::collection::vec((0u64..10, 0u64..40), 36),
        ) {
            let li = |i: usize, j: usize| lat[(i * 6 + j) % 36].0;
            let le = |i: usize, j: usize| lat[(i * 6 + j) % 36].1;
            let programs: Vec<WarpProgram> = (0..n)
                .map(|i| WarpProgram {
                    group: 0,
                    instances: (0..m)
                        .map(|j| SegmentInstance { segment: j, li: li(i, j), le: le(i, j), barrier: false })
                        .collect(),
                })
                .collect();
            let mut t = vec![vec![0u64; m]; n];
            for i in 1..n {
                t[i][0] = t[i - 1][0] + li(i - 1, 0); // Eq. 5.1
            }
            for j in 1..m {
                for i in 0..n {
                    let (ip, k) = if i == 0 { (n - 1, j - 1) } else { (i - 1, j) };
                    t[i][j] = (t[ip][k] + li(ip, k)).max(t[i][j - 1] + li(i, j - 1) + le(i, j - 1)); // Eq. 5.2
                }
            }
            let s = schedule(&programs, 0).expect("schedule");
            for i in 0..n {
                let got: Vec<u64> = s.warps[i].intervals.iter().map(|x| x.start).collect();
                prop_assert_eq!(&got, &t[i]);
            }
            let wcet = (0..n).map(|i| t[i][m - 1] + li(i, m - 1) + le(i, m - 1)).max().unwrap_or(0); // Eq. 5.3
            prop_assert_eq!(s.makespan, wcet);
        }
    }

    fn seg(li: u64, le: u64) -> SegmentInstance {
        SegmentInstance {
            segment: 0,
            li,
            le,
            barrier: false,
        }
    }

    fn prog(segs: &[(u64, u64)]) -> WarpProgram {
        WarpProgram {
            group: 0,
            instances: segs.iter().map(|&(a, b)| seg(a, b)).collect(),
        }
    }

    /// Hand evaluation of Eq. 5.1–5.3 for the shape of Fig. 23 (its latency values did not
    /// survive extraction): W0 has three segments, W1–W3 two.
    ///
    /// W0 = (2,10) (3,1) (1,5); W1 = (1,20) (2,2); W2 = (1,1) (1,1); W3 = (2,3) (1,1).
    /// Round 0 (Eq. 5.1): T00 = 0, T10 = 2, T20 = 3, T30 = 4 (cursor 6).
    /// Round 1 (Eq. 5.2): T01 = max(6, 0+2+10) = 12 → cursor 15; T11 = max(15, 2+1+20) = 23
    /// → 25; T21 = max(25, 3+1+1) = 25 → 26; T31 = max(26, 4+2+3) = 26 → 27.
    /// Round 2: T02 = max(27, 12+3+1) = 27 → end 27+1+5 = 33.
    /// Ends: W0 33, W1 23+2+2 = 27, W2 25+1+1 = 27, W3 26+1+1 = 28 → WCET 33.
    #[test]
    fn fig23_shape_hand_evaluation() {
        let p = vec![
            prog(&[(2, 10), (3, 1), (1, 5)]),
            prog(&[(1, 20), (2, 2)]),
            prog(&[(1, 1), (1, 1)]),
            prog(&[(2, 3), (1, 1)]),
        ];
        let s = schedule(&p, 0).expect("schedule");
        let t: Vec<Vec<u64>> = s
            .warps
            .iter()
            .map(|w| w.intervals.iter().map(|i| i.start).collect())
            .collect();
        assert_eq!(
            t,
            vec![vec![0, 12, 27], vec![2, 23], vec![3, 25], vec![4, 26]]
        );
        let ends: Vec<u64> = s.warps.iter().map(|w| w.end).collect();
        assert_eq!(ends, vec![33, 27, 27, 28]);
        assert_eq!(s.makespan, 33);
    }

    /// Fig. 22's remark: the second segment of W0 starts at T'01 = LI00 + ... when LE00 is
    /// shorter than the other warps' issue, i.e. the round-robin term wins.
    #[test]
    fn round_robin_term_dominates_short_latencies() {
        let p = vec![prog(&[(2, 1), (2, 1)]), prog(&[(5, 1), (1, 1)])];
        let s = schedule(&p, 0).expect("schedule");
        // T01 = max(T10 + LI10 = 2 + 5, T00 + 2 + 1) = 7.
        assert_eq!(s.warps[0].intervals[1].start, 7);
    }

    /// A barrier holds the early warp until the whole block arrived.
    #[test]
    fn barrier_waits_for_the_block() {
        let bar = SegmentInstance {
            segment: 1,
            li: 1,
            le: 2,
            barrier: true,
        };
        let p = vec![
            WarpProgram {
                group: 0,
                instances: vec![bar, seg(1, 0)],
            },
            WarpProgram {
                group: 0,
                instances: vec![seg(1, 50), bar, seg(1, 0)],
            },
        ];
        let s = schedule(&p, 0).expect("schedule");
        // W0 bar at 0 (ends 3); W1 seg at 1 (ready 52); W0 blocked → W1 bar at 52, ends 55;
        // release at 55: W0 resumes at 55, W1 at max(56, 55) = 56.
        assert_eq!(s.warps[1].intervals[1].start, 52);
        assert_eq!(s.warps[0].intervals[1].start, 55);
        assert_eq!(s.warps[1].intervals[2].start, 56);
        assert_eq!(s.makespan, 57);
    }
}
