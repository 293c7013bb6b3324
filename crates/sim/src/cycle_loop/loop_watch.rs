//! Loop iterations counted while the run goes (issue #37: a long run's loop counts must not
//! depend on its trace, which a budget cuts): per watched loop, the most times one thread
//! ran the loop's header in one entry into the loop.
//!
//! An entry is an arrival at the header from outside the body: a thread whose previous
//! instruction was outside the body starts a new count, one whose previous instruction was
//! inside (a back edge, or a path that left the body and came back in below the header —
//! a call's excursion — which can only count more) continues it. Each thread's own order of
//! instructions is the same under every interleaving of divergent paths, so the count does
//! not depend on the scheduler. Counting per thread, not per warp, is what a warp-level
//! bound needs (a warp iterates as long as its slowest thread; Jeanmougin et al. §4.1 bound
//! loops of the thread-level CFG).
//!
//! Cost: nothing when no loop is watched; else per issue one mask update per watched loop,
//! and per lane work only at headers.

/// A loop to count: its header's instruction index and the instruction indices of its body
/// (the header included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchedLoop {
    pub header: usize,
    pub body: Vec<usize>,
}

/// The watched loops of a run, indexed for the issue path.
#[derive(Debug, Default)]
pub(crate) struct LoopWatch {
    /// Per instruction index: the loops whose body holds it, as a bitset over loops.
    member: Vec<Vec<u64>>,
    /// Per instruction index: the loops it is the header of.
    headers: Vec<Vec<u32>>,
    loops: usize,
    words: usize,
    /// Per warp: per loop, the lanes whose previous instruction was inside the body.
    in_body: Vec<Vec<u64>>,
    /// Per warp: per loop and lane, the header runs of the current entry.
    runs: Vec<Vec<u32>>,
    /// Per loop: the most header runs in one entry by one thread.
    pub(crate) most: Vec<u64>,
}

impl LoopWatch {
    pub(crate) fn new(loops: &[WatchedLoop]) -> Self {
        let words = loops.len().div_ceil(64);
        let size = loops
            .iter()
            .flat_map(|l| l.body.iter().copied().chain([l.header]))
            .max()
            .map_or(0, |m| m + 1);
        let mut member = vec![Vec::new(); size];
        let mut headers = vec![Vec::new(); size];
        for (k, l) in loops.iter().enumerate() {
            for &pc in l.body.iter().chain([&l.header]) {
                let m = &mut member[pc];
                if m.is_empty() {
                    m.resize(words, 0);
                }
                m[k / 64] |= 1 << (k % 64);
            }
            headers[l.header].push(k as u32);
        }
        LoopWatch {
            member,
            headers,
            loops: loops.len(),
            words,
            in_body: Vec::new(),
            runs: Vec::new(),
            most: vec![0; loops.len()],
        }
    }

    /// Warp `w` issued instruction `pc` with the lanes `active` running it.
    #[inline]
    pub(crate) fn issue(&mut self, w: usize, pc: usize, active: u64) {
        if self.loops == 0 || active == 0 {
            return;
        }
        if w >= self.in_body.len() {
            self.in_body.resize(w + 1, Vec::new());
            self.runs.resize(w + 1, Vec::new());
        }
        if self.in_body[w].is_empty() {
            self.in_body[w] = vec![0; self.loops];
            self.runs[w] = vec![0; self.loops * 64];
        }
        if let Some(hs) = self.headers.get(pc) {
            for &k in hs {
                let k = k as usize;
                let cont = active & self.in_body[w][k];
                let runs = &mut self.runs[w][k * 64..k * 64 + 64];
                let mut lanes = active;
                let mut most = self.most[k];
                while lanes != 0 {
                    let lane = lanes.trailing_zeros() as usize;
                    lanes &= lanes - 1;
                    let n = if cont >> lane & 1 == 1 {
                        runs[lane].saturating_add(1)
                    } else {
                        1
                    };
                    runs[lane] = n;
                    most = most.max(u64::from(n));
                }
                self.most[k] = most;
            }
        }
        let member = self.member.get(pc).filter(|m| !m.is_empty());
        let in_body = &mut self.in_body[w];
        for word in 0..self.words {
            let bits = member.map_or(0, |m| m[word]);
            let top = (self.loops - word * 64).min(64);
            for b in 0..top {
                let k = word * 64 + b;
                if bits >> b & 1 == 1 {
                    in_body[k] |= active;
                } else {
                    in_body[k] &= !active;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Warps count apart (the excursion scenario itself is checked against the count from a
    /// trace in `crate::loop_counts`): lane 1 alone (0 1 2 1 3 6 1) runs header 1 (body
    /// {1, 2}) twice in one entry, then once; split between two warps (0 1 2 | 1 3 6 1),
    /// no warp runs it twice in one entry — mixing the warps would count 2.
    #[test]
    fn warps_count_apart() {
        let lane_1_alone = [0, 1, 2, 1, 3, 6, 1];
        let one_loop = [WatchedLoop {
            header: 1,
            body: vec![1, 2],
        }];
        let mut w = LoopWatch::new(&one_loop);
        for pc in lane_1_alone {
            w.issue(0, pc, 0b10);
        }
        assert_eq!(w.most, vec![2]);
        // Warp 1's first header run starts an entry of its own: warp 0's previous
        // instruction (2, in the body) is not its.
        let mut split = LoopWatch::new(&one_loop);
        for (k, pc) in lane_1_alone.into_iter().enumerate() {
            split.issue(usize::from(k >= 3), pc, 0b10);
        }
        assert_eq!(split.most, vec![1]);
    }

    /// More than 64 loops: the bitsets span words.
    #[test]
    fn many_loops() {
        let loops: Vec<WatchedLoop> = (0..70)
            .map(|k| WatchedLoop {
                header: 2 * k,
                body: vec![2 * k, 2 * k + 1],
            })
            .collect();
        let mut w = LoopWatch::new(&loops);
        // Loop 69: header 138, body {138, 139}, run 4 times in one entry.
        for _ in 0..4 {
            w.issue(0, 138, 1);
            w.issue(0, 139, 1);
        }
        w.issue(0, 200, 1);
        w.issue(0, 138, 1);
        assert_eq!(w.most[69], 4);
        assert_eq!(w.most[0], 0);
    }
}
