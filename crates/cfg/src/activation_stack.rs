//! The SIMT activation stack of one warp on concrete thread masks (Jeanmougin et al. §2): the
//! one stack both the concrete executor ([`crate::concrete`], the oracle of the warp-level CFG)
//! and the SASS simulator (`sim`) run, so that a simulated warp takes exactly the paths the
//! analysis predicts and the property tests check those very rules.
//!
//! The rules of §2 (Fermi–Pascal):
//! - the stack starts as one `NIL` entry: all threads, pc 0;
//! - `SSY`/`PBK`/`PCNT`/`PRET t`: the top entry's next pc becomes `t` and its type
//!   SYNC/BRK/CONT/CALL; a `NIL` entry with the same mask is pushed at pc + 1;
//! - a divergent `BRA t`: the top entry keeps the threads that fall through (next pc);
//!   a `NIL` entry with the taken threads is pushed at `t`. A uniform branch moves the top
//!   entry; `BRA.U` never diverges (threads that disagree fall through);
//! - `SYNC`/`BRK`/`CONT`/`RET` (and `EXIT`): the halting threads leave every entry from the
//!   top down to (excluding) the topmost SYNC/BRK/CONT/CALL entry below it (all entries for
//!   `EXIT` or when there is none); emptied entries are popped; guarded-off threads continue
//!   at pc + 1;
//! - `CAL t` (beyond the paper, see the crate doc): the top entry becomes a CALL entry
//!   resuming at pc + 1 and a `NIL` entry with the same mask is pushed at `t`; a predicated
//!   call first splits the callers from the others, who wait at pc + 1;
//! - whenever an entry becomes the top, its type becomes `NIL`.
//!
//! Volta and later ([`crate::barriers`], beyond the paper): `BSSY Bn` pushes like `SSY` with a
//! barrier entry, `BSYNC Bn` halts like `SYNC` (or waits for nobody when no entry of `Bn` is
//! pending), `BREAK Bn` removes threads from `Bn`'s entry, and a full-warp `WARPSYNC` rejoins
//! the warp saved at its first divergence (or releases its first arrivals apart when they
//! wait at another one). Two of these change the rules of `BRA` and so are chosen per kernel
//! ([`Rules`]); the others apply only when their instructions run, so a Pascal kernel never
//! meets them. The SASS simulator drives them for sm_70 and later listings as
//! [`crate::concrete`] does.

use crate::state::{Tag, NOT_ARRIVED};

/// One entry: type, next pc (instruction index) and thread mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StackEntry {
    pub tag: Tag,
    pub pc: usize,
    pub mask: u64,
}

/// The rules of a divergent `BRA` beyond §2, chosen per kernel (both off: Fermi–Pascal).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rules {
    /// A divergent *backward* branch runs the group that leaves the loop first, the looping
    /// group waiting below it (kernels with convergence barriers, see [`crate::barriers`],
    /// "Loops whose exit diverges").
    pub leaving_first: bool,
    /// The first divergence of a converged warp saves the whole warp in a
    /// [`Tag::WarpSync`] entry for the full-warp `WARPSYNC` that rejoins it (kernels with
    /// such a `WARPSYNC`, see [`crate::barriers`], "Full-warp WARPSYNC").
    pub warp_sync: bool,
}

impl Rules {
    /// The rules the instructions of `kernel` call for: the analysis's and the oracle's.
    pub fn of(kernel: &isa::Kernel) -> Rules {
        Rules {
            leaving_first: crate::barriers::uses_barriers(kernel),
            warp_sync: crate::barriers::uses_warp_syncs(kernel),
        }
    }
}

/// A warp's activation stack; the last entry is the executing one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActivationStack {
    entries: Vec<StackEntry>,
    rules: Rules,
}

impl ActivationStack {
    /// The stack of a warp whose threads `mask` all start at pc 0, with the rules of §2
    /// (empty when the warp has no thread).
    pub fn new(mask: u64) -> Self {
        Self::with_rules(mask, Rules::default())
    }

    /// As [`ActivationStack::new`], with `rules` for divergent branches.
    pub fn with_rules(mask: u64, rules: Rules) -> Self {
        let entries = if mask == 0 {
            Vec::new()
        } else {
            vec![StackEntry {
                tag: Tag::Nil,
                pc: 0,
                mask,
            }]
        };
        ActivationStack { entries, rules }
    }

    /// Every entry, bottom first.
    pub fn entries(&self) -> &[StackEntry] {
        &self.entries
    }

    /// The pending entries below the executing one, bottom first.
    pub fn pending(&self) -> &[StackEntry] {
        &self.entries[..self.entries.len().saturating_sub(1)]
    }

    /// The executing entry.
    #[inline]
    pub fn top(&self) -> Option<StackEntry> {
        self.entries.last().copied()
    }

    pub fn depth(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether some thread that has not exited is not executing (`BRA.DIV`/`BRA.CONV`).
    pub fn is_diverged(&self) -> bool {
        let live = self.entries.iter().fold(0, |m, e| m | e.mask);
        self.top().is_some_and(|t| t.mask != live)
    }

    /// Pops a saved warp none of whose threads reached a `WARPSYNC` once it is the top:
    /// nobody is left in it (see [`crate::barriers`], "Full-warp WARPSYNC"). Whether it did.
    pub fn pop_unarrived(&mut self) -> bool {
        let unarrived = self.top().is_some_and(|t| t.pc == NOT_ARRIVED);
        if unarrived {
            self.entries.pop();
        }
        unarrived
    }

    /// Ordinary instruction: continue at `next`.
    #[inline]
    pub fn advance(&mut self, next: usize) {
        if let Some(t) = self.entries.last_mut() {
            t.pc = next;
        }
    }

    /// `SSY`/`PBK`/`PCNT`/`PRET`/`BSSY target` (§2, second rule).
    pub fn prepare(&mut self, tag: Tag, target: usize, next: usize) {
        if let Some(t) = self.entries.last_mut() {
            let mask = t.mask;
            t.pc = target;
            t.tag = tag;
            self.entries.push(StackEntry {
                tag: Tag::Nil,
                pc: next,
                mask,
            });
        }
    }

    /// `BRA target` where `taken` threads (a subset of the top mask) take it (§2, third
    /// rule; `uniform_only`: `BRA.U`), with the [`Rules`] of the stack.
    pub fn branch(&mut self, taken: u64, target: usize, next: usize, uniform_only: bool) {
        let Some(top) = self.top() else {
            return;
        };
        let diverges = taken != top.mask && taken != 0 && !uniform_only;
        if diverges && self.rules.warp_sync && self.entries.len() == 1 {
            // The converged warp is saved for the `WARPSYNC` that rejoins it.
            self.entries[0].tag = Tag::WarpSync;
            self.entries[0].pc = NOT_ARRIVED;
            self.entries.push(top);
        }
        let top_i = self.entries.len() - 1;
        let t = &mut self.entries[top_i];
        if taken == top.mask {
            t.pc = target;
        } else if taken == 0 || uniform_only {
            t.pc = next;
        } else if self.rules.leaving_first && target <= top.pc {
            // The group leaving the loop runs first.
            t.pc = target;
            t.mask = taken;
            self.entries.push(StackEntry {
                tag: Tag::Nil,
                pc: next,
                mask: top.mask & !taken,
            });
        } else {
            t.pc = next;
            t.mask = top.mask & !taken;
            self.entries.push(StackEntry {
                tag: Tag::Nil,
                pc: target,
                mask: taken,
            });
        }
    }

    /// `SYNC`/`BRK`/`CONT`/`RET`/`BSYNC` (`tag` = the entry type it unwinds to) or `EXIT`
    /// (`tag = None`): `halted` threads leave the entries (§2, fourth and fifth rules); the
    /// others continue at `next`.
    pub fn halt(&mut self, halted: u64, tag: Option<Tag>, next: usize) {
        self.advance(next);
        if halted == 0 {
            return;
        }
        let stop = tag.and_then(|t| self.pending().iter().rposition(|e| e.tag == t));
        let from = stop.map_or(0, |s| s + 1);
        for e in &mut self.entries[from..] {
            e.mask &= !halted;
        }
        let mut k = from;
        while k < self.entries.len() {
            if self.entries[k].mask == 0 {
                self.entries.remove(k);
            } else {
                k += 1;
            }
        }
        if let Some(top) = self.entries.last_mut() {
            top.tag = Tag::Nil;
        }
    }

    /// The topmost pending entry of convergence barrier `b`.
    fn barrier_entry(&self, b: u8) -> Option<usize> {
        self.pending()
            .iter()
            .rposition(|e| e.tag == Tag::Barrier(b))
    }

    /// `BSYNC Bb` by `halted` threads: they halt as at `SYNC`, unless nobody is recorded in
    /// the barrier any more, when there is nothing to wait for and all continue at `next`.
    pub fn bsync(&mut self, b: u8, halted: u64, next: usize) {
        if self.barrier_entry(b).is_none() {
            self.advance(next);
        } else {
            self.halt(halted, Some(Tag::Barrier(b)), next);
        }
    }

    /// `BREAK Bb` by `leaving` threads: the barrier no longer waits for them (its entry goes
    /// when it held only them); everybody continues at `next`.
    pub fn break_barrier(&mut self, b: u8, leaving: u64, next: usize) {
        self.advance(next);
        if let Some(j) = self.barrier_entry(b) {
            self.entries[j].mask &= !leaving;
            if self.entries[j].mask == 0 {
                self.entries.remove(j);
            }
        }
    }

    /// `CAL target` by `calling` threads (a subset of the top mask): the others wait at the
    /// return point `next` and the callers go first, in a CALL entry resuming at `next` and a
    /// `NIL` entry at `target` above it.
    pub fn call(&mut self, calling: u64, target: usize, next: usize) {
        let Some(top) = self.top() else {
            return;
        };
        if calling == 0 {
            self.advance(next);
            return;
        }
        if calling != top.mask {
            let top_i = self.entries.len() - 1;
            self.entries[top_i].pc = next;
            self.entries[top_i].mask = top.mask & !calling;
            self.entries.push(StackEntry {
                tag: Tag::Nil,
                pc: next,
                mask: calling,
            });
        }
        self.prepare(Tag::Call, next, target);
    }

    /// A full-warp `WARPSYNC` followed by `next`: when only pending paths lie above a saved
    /// warp that waits here (or nowhere yet), the executing group halts and the saved warp
    /// resumes at `next` once all arrived. When the saved warp's first arrivals wait at
    /// another full-warp `WARPSYNC`, the two match (sm_70 and later, [`crate::barriers`],
    /// "Full-warp WARPSYNC"): the arrivals are released apart — they become a pending path
    /// at their `WARPSYNC`'s next instruction and this group runs on — and nothing rejoins
    /// any more. Otherwise the group runs on alone.
    pub fn warp_sync(&mut self, next: usize) {
        let Some(top) = self.top() else {
            return;
        };
        let top_i = self.entries.len() - 1;
        let bottom = self.entries[0];
        let saved = top_i > 0
            && bottom.tag == Tag::WarpSync
            && self.entries[1..top_i].iter().all(|e| e.tag == Tag::Nil);
        let rejoins = saved && (bottom.pc == NOT_ARRIVED || bottom.pc == next);
        self.advance(next);
        if rejoins {
            self.entries[0].pc = next;
            self.halt(top.mask, Some(Tag::WarpSync), next);
        } else if saved {
            // The running group's threads are not among the arrivals.
            let arrived = bottom.mask & !top.mask;
            self.entries[0] = StackEntry {
                tag: Tag::Nil,
                pc: bottom.pc,
                mask: arrived,
            };
            if arrived == 0 {
                self.entries.remove(0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fig. 1 (right) of Jeanmougin et al.: 16 threads, the ten rightmost take the branch
    /// to B, the six leftmost fall through to C; both SYNC and reconverge at D.
    #[test]
    fn fig1_if_then_else_reconverges() {
        let all = 0xffff;
        let taken = 0x03ff; // ten threads
        let mut s = ActivationStack::new(all);
        // 0: SSY 5 ; 1: BRA 3 ; 2: C (SYNC) ; 3: B (SYNC) ; 5: D
        s.prepare(Tag::Sync, 5, 1);
        assert_eq!(s.depth(), 2);
        s.branch(taken, 3, 2, false);
        assert_eq!(s.top().map(|t| (t.pc, t.mask)), Some((3, taken)));
        // B's threads reach SYNC: they leave the entries down to the SYNC entry.
        s.halt(taken, Some(Tag::Sync), 4);
        assert_eq!(s.top().map(|t| (t.pc, t.mask)), Some((2, all & !taken)));
        s.halt(all & !taken, Some(Tag::Sync), 3);
        assert_eq!(
            s.entries(),
            &[StackEntry {
                tag: Tag::Nil,
                pc: 5,
                mask: all
            }]
        );
        s.halt(all, None, 6);
        assert!(s.is_empty());
    }

    #[test]
    fn uniform_only_branch_never_diverges() {
        let mut s = ActivationStack::new(0b11);
        s.branch(0b01, 7, 1, true);
        assert_eq!(
            s.entries(),
            &[StackEntry {
                tag: Tag::Nil,
                pc: 1,
                mask: 0b11
            }]
        );
    }
}
