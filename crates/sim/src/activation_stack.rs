//! The SIMT activation stack of Fermi–Pascal (Jeanmougin et al. §2), with exactly the rules
//! of `cfg::concrete` (the oracle of the warp-CFG analysis), so that a simulated warp takes
//! the paths the analysis predicts:
//!
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
//! - `CAL t`: the top entry becomes a CALL entry resuming at pc + 1 and a `NIL` entry with
//!   the same mask is pushed at `t`;
//! - whenever an entry becomes the top, its type becomes `NIL`.

use cfg::Tag;
use serde::{Deserialize, Serialize};

/// One entry: type, next pc (instruction index) and thread mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StackEntry {
    pub tag: Tag,
    pub pc: usize,
    pub mask: u64,
}

/// A warp's activation stack; the last entry is the executing one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActivationStack {
    pub(crate) entries: Vec<StackEntry>,
}

impl ActivationStack {
    pub fn new(mask: u64) -> Self {
        let entries = if mask == 0 {
            Vec::new()
        } else {
            vec![StackEntry {
                tag: Tag::Nil,
                pc: 0,
                mask,
            }]
        };
        ActivationStack { entries }
    }

    pub fn entries(&self) -> &[StackEntry] {
        &self.entries
    }

    pub fn top(&self) -> Option<StackEntry> {
        self.entries.last().copied()
    }

    pub fn depth(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Ordinary instruction: continue at `next`.
    pub fn advance(&mut self, next: usize) {
        if let Some(t) = self.entries.last_mut() {
            t.pc = next;
        }
    }

    /// `SSY`/`PBK`/`PCNT`/`PRET target` (§2, second rule).
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

    /// `BRA target` where `taken` threads (a subset of the top mask) take it (§2, third rule).
    pub fn branch(&mut self, taken: u64, target: usize, next: usize, uniform_only: bool) {
        let Some(t) = self.entries.last_mut() else {
            return;
        };
        let mask = t.mask;
        if taken == mask {
            t.pc = target;
        } else if taken == 0 || uniform_only {
            t.pc = next;
        } else {
            t.pc = next;
            t.mask = mask & !taken;
            self.entries.push(StackEntry {
                tag: Tag::Nil,
                pc: target,
                mask: taken,
            });
        }
    }

    /// `SYNC`/`BRK`/`CONT`/`RET` (`tag` = the entry type it unwinds to) or `EXIT`
    /// (`tag = None`): `halted` threads leave the entries (§2, fourth and fifth rules).
    pub fn halt(&mut self, halted: u64, tag: Option<Tag>, next: usize) {
        self.advance(next);
        if halted == 0 {
            return;
        }
        let below = self.entries.len().saturating_sub(1);
        let stop = tag.and_then(|t| self.entries[..below].iter().rposition(|e| e.tag == t));
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

    /// `CAL target` (unpredicated): a CALL entry resuming at `next`, a NIL entry at `target`.
    pub fn call(&mut self, target: usize, next: usize) {
        self.prepare(Tag::Call, next, target);
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
