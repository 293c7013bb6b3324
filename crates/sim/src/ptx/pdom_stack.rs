//! The post-dominator (PDOM) reconvergence stack of GPGPU-Sim (Fung et al., MICRO 2007),
//! which is also the reconvergence rule of Huangfu's analyzer (thesis §4.4.4): PTX has no
//! explicit reconvergence instructions, so a divergent branch reconverges at its immediate
//! post-dominator ([`crate::reconvergence`]).
//!
//! Each entry is `(pc, reconvergence pc, mask)`; the top entry executes. Rules:
//! - an ordinary instruction moves the top's `pc` on;
//! - a uniform branch (every active lane, or none, takes it) just moves the top's `pc`;
//! - a divergent branch with reconvergence point `r` (the branch's ipdom): the top entry
//!   waits at `r` (its `pc` becomes `r`), then the not-taken path `(next, r, not-taken)` and
//!   the taken path `(target, r, taken)` are pushed — taken on top, so it runs first (the
//!   order of the SASS stack of this crate). When `r` equals the top's own reconvergence
//!   point, the top entry is replaced instead of kept (GPGPU-Sim's `simt_stack::update` does
//!   the same), which keeps a loop with a divergent exit at a constant depth;
//! - `ret`/`exit` removes its lanes from every entry;
//! - after every update, entries that reached their reconvergence point or have no lanes
//!   are popped (the lanes of a popped path are still in the entry below).
//!
//! A warp finishes when its stack is empty.

/// One entry; `rpc = None` is "reconverge at exit" (the bottom entry, or a branch from
/// which the exit is unreachable).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PdomEntry {
    pub pc: usize,
    pub rpc: Option<usize>,
    pub mask: u64,
    /// True for an entry waiting at its `pc` for the paths pushed above it.
    pub reconvergence: bool,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct PdomStack {
    entries: Vec<PdomEntry>,
    /// The pc one past the last instruction: where an entry reconverging "at exit" waits
    /// (its lanes leave by `ret`/`exit` first, so it is popped empty, never executed).
    exit_pc: usize,
}

impl PdomStack {
    pub fn new(mask: u64, exit_pc: usize) -> Self {
        let mut s = PdomStack {
            entries: Vec::new(),
            exit_pc,
        };
        if mask != 0 {
            s.entries.push(PdomEntry {
                pc: 0,
                rpc: None,
                mask,
                reconvergence: false,
            });
        }
        s
    }

    pub fn entries(&self) -> &[PdomEntry] {
        &self.entries
    }

    pub fn top(&self) -> Option<PdomEntry> {
        self.entries.last().copied()
    }

    pub fn depth(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn settle(&mut self) {
        while let Some(t) = self.entries.last() {
            if t.mask == 0 || t.rpc == Some(t.pc) {
                self.entries.pop();
            } else {
                break;
            }
        }
        if let Some(t) = self.entries.last_mut() {
            t.reconvergence = false;
        }
    }

    /// Ordinary instruction (or a guarded `ret` none of whose lanes held): go on at `next`.
    pub fn advance(&mut self, next: usize) {
        if let Some(t) = self.entries.last_mut() {
            t.pc = next;
        }
        self.settle();
    }

    /// A branch taken by `taken` (a subset of the top's mask), reconverging at `rpc` if it
    /// diverges.
    pub fn branch(&mut self, taken: u64, target: usize, next: usize, rpc: Option<usize>) {
        let Some(t) = self.entries.last_mut() else {
            return;
        };
        let mask = t.mask;
        let not_taken = mask & !taken;
        if not_taken == 0 {
            t.pc = target;
        } else if taken == 0 {
            t.pc = next;
        } else {
            if t.rpc == rpc {
                self.entries.pop();
            } else {
                t.pc = rpc.unwrap_or(self.exit_pc);
                t.reconvergence = true;
            }
            self.entries.push(PdomEntry {
                pc: next,
                rpc,
                mask: not_taken,
                reconvergence: false,
            });
            // The not-taken entry may already be at its reconvergence point (an `if`
            // without `else`); it is popped when it reaches the top.
            if rpc == Some(next) {
                self.entries.pop();
            }
            self.entries.push(PdomEntry {
                pc: target,
                rpc,
                mask: taken,
                reconvergence: false,
            });
        }
        self.settle();
    }

    /// `ret`/`exit` by `exited` lanes; the rest of the top continue at `next`.
    pub fn exit(&mut self, exited: u64, next: usize) {
        if let Some(t) = self.entries.last_mut() {
            t.pc = next;
        }
        for e in &mut self.entries {
            e.mask &= !exited;
        }
        // Entries emptied below the top are dropped when they surface; drop them now so
        // the stepper never shows a lane-less entry.
        self.entries.retain(|e| e.mask != 0);
        self.settle();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_else_pushes_two_paths_over_the_join() {
        let mut s = PdomStack::new(0b1111, 10);
        // Branch at pc 0 taken by lanes 0,1 to 5, reconverge at 8.
        s.branch(0b0011, 5, 1, Some(8));
        let e = s.entries();
        assert_eq!(e.len(), 3);
        assert_eq!((e[0].pc, e[0].mask), (8, 0b1111));
        assert_eq!((e[1].pc, e[1].rpc, e[1].mask), (1, Some(8), 0b1100));
        assert_eq!((e[2].pc, e[2].rpc, e[2].mask), (5, Some(8), 0b0011));
        // The taken path reaches 8: popped, the not-taken path runs.
        s.advance(8);
        assert_eq!(s.top().map(|t| (t.pc, t.mask)), Some((1, 0b1100)));
        s.advance(8);
        assert_eq!(
            s.top().map(|t| (t.pc, t.mask, t.rpc)),
            Some((8, 0b1111, None))
        );
        assert_eq!(s.depth(), 1);
    }

    #[test]
    fn exit_removes_lanes_everywhere() {
        let mut s = PdomStack::new(0b11, 10);
        s.branch(0b01, 3, 1, None);
        // Taken lane 0 exits: its path and its bit in the bottom entry go.
        s.exit(0b01, 4);
        assert_eq!(s.top().map(|t| (t.pc, t.mask)), Some((1, 0b10)));
        s.exit(0b10, 2);
        assert!(s.is_empty());
    }
}
