//! The thread-group relations domain (§3.2) lifted with per-group agreement (§3.3).
//!
//! Groups are numbered by *slot*: slot 0 is `active` (the threads executing), slot `i + 1` is
//! the mask of pending stack entry `i`. The domain stores, for each ordered pair of slots, the
//! constraints known to hold: `A ⊆ B` (stored by the paper as `A ∩ ¬B = ∅`) and `A ∩ B = ∅`.
//! Conjunction is exact; the join of two states keeps the constraints both know.
//!
//! Concretely, every slot denotes a non-empty set of threads: an entry whose mask becomes
//! empty is popped (§2), and a state without active threads is immediately popped.

use crate::consts::Consts;
use crate::regset::RegSet;

/// `A ⊆ B` is known.
pub const SUB: u8 = 1;
/// `A ∩ B = ∅` is known.
pub const DISJ: u8 = 2;

/// Relations and agreement of all groups of one abstract state.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Groups {
    /// `rel[a][b]`: constraints known between slot a and slot b.
    rel: Vec<Vec<u8>>,
    /// Registers each group agrees on.
    agree: Vec<RegSet>,
    /// Registers each group holds a known value in ([`crate::consts`]).
    consts: Vec<Consts>,
    /// For the slot of a reconvergence entry: the constants every group that halted into it
    /// held when it halted (`None`: no group has halted into it yet). Registers are private
    /// to threads, so these are the values the entry's threads resume with
    /// ([`Groups::resume_with_arrivals`]).
    arrived: Vec<Option<Consts>>,
    /// Ablation "no group fine analysis": relations are never recorded.
    blind: bool,
}

/// What removing a halting group does to an entry's mask (the `filter♯` parameter, §3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// The mask certainly keeps threads and loses none.
    Keep,
    /// The mask certainly becomes empty: the entry is popped.
    Drop,
    /// Either may happen.
    Any,
}

impl Groups {
    /// Only `active`, agreeing on `agree`.
    pub fn new(agree: RegSet, blind: bool) -> Self {
        Groups {
            rel: vec![vec![SUB]],
            agree: vec![agree],
            consts: vec![Consts::EMPTY],
            arrived: vec![None],
            blind,
        }
    }

    pub fn len(&self) -> usize {
        self.agree.len()
    }

    pub fn is_empty(&self) -> bool {
        self.agree.is_empty()
    }

    pub fn agree(&self, slot: usize) -> &RegSet {
        &self.agree[slot]
    }

    pub fn agree_mut(&mut self, slot: usize) -> &mut RegSet {
        &mut self.agree[slot]
    }

    /// The registers group `slot` holds a known value in.
    pub fn consts(&self, slot: usize) -> &Consts {
        &self.consts[slot]
    }

    pub fn consts_mut(&mut self, slot: usize) -> &mut Consts {
        &mut self.consts[slot]
    }

    /// The group `from` halts into the reconvergence entry whose slot is `entry`: the
    /// entry's arrivals keep only the constants `from` shares.
    pub fn record_arrival(&mut self, entry: usize, from: usize) {
        let c = &self.consts[from];
        let joined = match &self.arrived[entry] {
            None => c.clone(),
            Some(m) => m.meet(c),
        };
        self.arrived[entry] = Some(joined);
    }

    /// Threads may have halted into `slot` without being recorded (a cycle of the stack
    /// graph, an unknown stack): its arrivals say nothing any more.
    pub fn forget_arrivals(&mut self, slot: usize) {
        self.arrived[slot] = Some(Consts::EMPTY);
    }

    /// Copies the arrivals of slot `from` to slot `to` (a copy of a cyclic entry resumes).
    pub fn copy_arrivals(&mut self, from: usize, to: usize) {
        self.arrived[to] = self.arrived[from].clone();
    }

    /// Slot `slot` resumes as a reconvergence entry whose threads all halted into it (every
    /// thread of its mask either halted there, exited or left it): what every arrival held
    /// holds for the resumed group, which therefore agrees on those registers.
    pub fn resume_with_arrivals(&mut self, slot: usize) {
        if let Some(m) = self.arrived[slot].take() {
            self.agree[slot] = self.agree[slot].union(&m.agreed());
            self.consts[slot].absorb(&m);
        }
    }

    /// Forgets the arrivals of `slot` (it resumes as something that is not a reconvergence
    /// entry, or became active).
    pub fn clear_arrivals(&mut self, slot: usize) {
        self.arrived[slot] = None;
    }

    /// Whether some group may have halted into the entry whose slot is `slot` (a halt was
    /// recorded, or one may have gone unrecorded).
    pub fn has_arrivals(&self, slot: usize) -> bool {
        self.arrived[slot].is_some()
    }

    /// Forgets every constant of `slot` and what arrivals held (the agreement ablations);
    /// whether any group halted into it stays known.
    pub(crate) fn forget_consts(&mut self, slot: usize) {
        self.consts[slot] = Consts::EMPTY;
        if self.arrived[slot].is_some() {
            self.arrived[slot] = Some(Consts::EMPTY);
        }
    }

    pub fn subset(&self, a: usize, b: usize) -> bool {
        a == b || self.rel[a][b] & SUB != 0
    }

    pub fn disjoint(&self, a: usize, b: usize) -> bool {
        a != b && self.rel[a][b] & DISJ != 0
    }

    fn set(&mut self, a: usize, b: usize, flags: u8) {
        if !self.blind || a == b {
            self.rel[a][b] = flags;
        }
    }

    /// Whether relations are ignored (the "no group analysis" ablation).
    pub fn is_blind(&self) -> bool {
        self.blind
    }

    /// Appends a slot with no known relations (but to itself), returning its index.
    pub fn add_unrelated(&mut self, agree: RegSet) -> usize {
        let n = self.len();
        for row in &mut self.rel {
            row.push(0);
        }
        let mut row = vec![0; n + 1];
        row[n] = SUB;
        self.rel.push(row);
        self.agree.push(agree);
        self.consts.push(Consts::EMPTY);
        self.arrived.push(None);
        n
    }

    /// Appends a slot holding a subset of slot `of`: it inherits every upper bound and every
    /// disjointness of `of` (if `of ⊆ X` then `new ⊆ X`; if `of ∩ X = ∅` then `new ∩ X = ∅`).
    pub fn add_subset_of(&mut self, of: usize) -> usize {
        let agree = self.agree[of];
        let new = self.add_unrelated(agree);
        self.consts[new] = self.consts[of].clone();
        for x in 0..new {
            let mut f = self.rel[of][x];
            if x == of {
                f = SUB;
            }
            self.set(new, x, f & (SUB | DISJ));
            // Disjointness is symmetric; nothing is known to be inside the new group.
            let back = if self.rel[x][of] & DISJ != 0 { DISJ } else { 0 };
            self.set(x, new, back);
        }
        new
    }

    /// Appends a slot equal to slot `of` (SSY/PBK/CAL copy the active mask, §2).
    pub fn add_copy_of(&mut self, of: usize) -> usize {
        let new = self.add_subset_of(of);
        for x in 0..new {
            let f = self.rel[x][of];
            self.set(x, new, f);
        }
        self.set(of, new, SUB);
        new
    }

    /// Records `a ∩ b = ∅` (both ways).
    pub fn make_disjoint(&mut self, a: usize, b: usize) {
        let fa = self.rel[a][b] | DISJ;
        let fb = self.rel[b][a] | DISJ;
        self.set(a, b, fa);
        self.set(b, a, fb);
    }

    /// Slot `slot` loses the threads of `halted` (mask := mask \ halted): upper bounds and
    /// disjointness survive, being inside it no longer does, and it becomes disjoint from
    /// `halted`.
    pub fn remove_threads(&mut self, slot: usize, halted: usize) {
        for x in 0..self.len() {
            if x != slot {
                let f = self.rel[x][slot] & DISJ;
                self.set(x, slot, f);
            }
        }
        self.make_disjoint(slot, halted);
    }

    /// What happens to the mask of `slot` when the threads of `halted` are removed.
    pub fn fate(&self, slot: usize, halted: usize) -> Fate {
        if self.subset(slot, halted) {
            Fate::Drop
        } else if self.disjoint(slot, halted) {
            Fate::Keep
        } else {
            Fate::Any
        }
    }

    /// Removes slot `slot` (its entry was popped or its mask became empty).
    pub fn remove_slot(&mut self, slot: usize) {
        self.rel.remove(slot);
        for row in &mut self.rel {
            row.remove(slot);
        }
        self.agree.remove(slot);
        self.consts.remove(slot);
        self.arrived.remove(slot);
    }

    /// Moves slot `from` to position `to` (used to make a resumed entry slot 0).
    pub fn move_slot(&mut self, from: usize, to: usize) {
        let row = self.rel.remove(from);
        self.rel.insert(to, row);
        for row in &mut self.rel {
            let v = row.remove(from);
            row.insert(to, v);
        }
        let a = self.agree.remove(from);
        self.agree.insert(to, a);
        let c = self.consts.remove(from);
        self.consts.insert(to, c);
        let r = self.arrived.remove(from);
        self.arrived.insert(to, r);
    }

    /// Merges slot `b` into slot `a` as their union (a repeated stack entry: a cycle in the
    /// stack graph, whose group is an upper bound of all its copies, §3.2). Slot `b` is removed.
    pub fn merge_union(&mut self, a: usize, b: usize) {
        let n = self.len();
        for x in 0..n {
            if x == a || x == b {
                continue;
            }
            let up = self.rel[a][x] & self.rel[b][x];
            let down_sub = (self.rel[x][a] | self.rel[x][b]) & SUB;
            let down_disj = self.rel[x][a] & self.rel[x][b] & DISJ;
            self.set(a, x, up);
            self.set(x, a, down_sub | down_disj);
        }
        self.agree[a] = self.agree[a].intersect(&self.agree[b]);
        self.consts[a] = self.consts[a].meet(&self.consts[b]);
        self.arrived[a] = join_arrivals(&self.arrived[a], &self.arrived[b]);
        self.remove_slot(b);
    }

    /// Join: keep the relations and agreements both states know (same number of slots).
    pub fn join(&self, other: &Groups) -> Groups {
        let mut out = self.clone();
        for (ra, rb) in out.rel.iter_mut().zip(other.rel.iter()) {
            for (x, y) in ra.iter_mut().zip(rb.iter()) {
                *x &= y;
            }
        }
        for (a, b) in out.agree.iter_mut().zip(other.agree.iter()) {
            *a = a.intersect(b);
        }
        for (a, b) in out.consts.iter_mut().zip(other.consts.iter()) {
            *a = a.meet(b);
        }
        for (a, b) in out.arrived.iter_mut().zip(other.arrived.iter()) {
            *a = join_arrivals(a, b);
        }
        out
    }

    /// Whether `self` is at least as general as `other` (nothing known here that is not known
    /// there): the fixpoint test.
    pub fn covers(&self, other: &Groups) -> bool {
        self.rel
            .iter()
            .zip(other.rel.iter())
            .all(|(ra, rb)| ra.iter().zip(rb.iter()).all(|(x, y)| x & !y == 0))
            && self
                .agree
                .iter()
                .zip(other.agree.iter())
                .all(|(a, b)| a.is_subset(b))
            && self
                .consts
                .iter()
                .zip(other.consts.iter())
                .all(|(a, b)| a.is_subset(b))
            && self
                .arrived
                .iter()
                .zip(other.arrived.iter())
                .all(|(a, b)| match (a, b) {
                    (_, None) => true,
                    (None, Some(_)) => false,
                    (Some(a), Some(b)) => a.is_subset(b),
                })
    }
}

/// Join of arrivals: no arrival yet is the bottom ("every arrival held m" is vacuous then).
fn join_arrivals(a: &Option<Consts>, b: &Option<Consts>) -> Option<Consts> {
    match (a, b) {
        (None, x) | (x, None) => x.clone(),
        (Some(a), Some(b)) => Some(a.meet(b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_groups_are_disjoint_and_inside_the_copy() {
        // SSY: entry 1 is a copy of active. A divergent branch splits active into taken
        // (new active) and skip.
        let mut g = Groups::new(RegSet::EMPTY, false);
        let sync = g.add_copy_of(0);
        let skip = g.add_subset_of(0);
        let taken = g.add_subset_of(0);
        g.make_disjoint(skip, taken);
        g.remove_slot(0);
        // Slots are now: sync=0, skip=1, taken=2.
        let (sync, skip, taken) = (sync - 1, skip - 1, taken - 1);
        assert!(g.subset(skip, sync) && g.subset(taken, sync));
        assert!(g.disjoint(skip, taken));
        assert_eq!(g.fate(skip, taken), Fate::Keep);
        assert_eq!(g.fate(sync, taken), Fate::Any);
        assert_eq!(g.fate(taken, taken), Fate::Drop);
    }

    #[test]
    fn blind_groups_know_nothing() {
        let mut g = Groups::new(RegSet::EMPTY, true);
        let c = g.add_copy_of(0);
        assert_eq!(g.fate(c, 0), Fate::Any);
    }

    #[test]
    fn union_keeps_common_bounds() {
        let mut g = Groups::new(RegSet::EMPTY, false);
        let sync = g.add_copy_of(0);
        let a = g.add_subset_of(0);
        let b = g.add_subset_of(0);
        g.make_disjoint(a, b);
        g.merge_union(a, b);
        assert!(g.subset(a, sync));
        assert!(!g.subset(a, 0) || g.subset(a, 0));
        assert_eq!(g.len(), 3);
    }
}
