//! Sets of registers, the carrier of the agreement domain (Jeanmougin et al. §3.3).
//!
//! Only register *names* are stored, never values: a group of threads "agrees" on a register
//! when every thread of the group holds the same value in it.

use isa::Register;

const GPRS: usize = 256;
const PREDS: usize = 8;
const CARRY: usize = GPRS + PREDS;
const BITS: usize = CARRY + 1;
const WORDS: usize = BITS.div_ceil(64);

/// A set of tracked registers: `R0..R255`, `P0..P7` and `CC`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct RegSet([u64; WORDS]);

/// Index of a tracked register, `None` for registers that are not state of a thread
/// (`RZ`, `PT`, special registers, uniform registers: see [`always_agreed`]).
fn index(r: &Register) -> Option<usize> {
    match *r {
        Register::Gpr(n) if (n as usize) < GPRS => Some(n as usize),
        Register::Pred(n) if (n as usize) < PREDS => Some(GPRS + n as usize),
        Register::CarryFlag => Some(CARRY),
        _ => None,
    }
}

/// The tracked-register index of `r` (the bit [`RegSet`] keeps for it), shared with
/// [`crate::consts::Consts`].
pub(crate) fn tracked_index(r: &Register) -> Option<usize> {
    index(r)
}

/// Special registers whose value differs between the threads of a warp (§3.3: "special
/// registers: thread-varying vs warp-uniform"). Everything else read through `S2R` — block and
/// grid coordinates, SM id, warp id — is the same for all threads of a warp.
pub fn is_thread_varying_special(name: &str) -> bool {
    let n = name.to_ascii_uppercase();
    n.starts_with("SR_TID")
        || n.starts_with("SR_LANEID")
        || n.starts_with("SR_LTMASK")
        || n.starts_with("SR_LEMASK")
        || n.starts_with("SR_GTMASK")
        || n.starts_with("SR_GEMASK")
        || n.starts_with("SR_CLOCK")
        || n.starts_with("SR_GLOBALTIMER")
        || n.starts_with("SR_EQMASK")
}

/// Registers every thread of a warp sees with the same value whatever happened before:
/// constants (`RZ`, `PT`), uniform registers and warp-uniform special registers.
pub fn always_agreed(r: &Register) -> bool {
    match r {
        Register::Zero | Register::True | Register::Uniform(_) | Register::UniformPred(_) => true,
        Register::Special(s) => !is_thread_varying_special(s),
        Register::Gpr(n) => *n as usize >= GPRS,
        Register::Pred(n) => *n as usize >= PREDS,
        Register::CarryFlag => false,
    }
}

impl RegSet {
    pub const EMPTY: RegSet = RegSet([0; WORDS]);

    /// Every tracked register.
    pub fn full() -> RegSet {
        let mut s = RegSet([u64::MAX; WORDS]);
        let extra = WORDS * 64 - BITS;
        s.0[WORDS - 1] >>= extra;
        s
    }

    /// Whether the group agrees on `r` (untracked registers follow [`always_agreed`]).
    pub fn agrees(&self, r: &Register) -> bool {
        match index(r) {
            Some(i) => self.0[i / 64] >> (i % 64) & 1 == 1,
            None => always_agreed(r),
        }
    }

    pub fn insert(&mut self, r: &Register) {
        if let Some(i) = index(r) {
            self.0[i / 64] |= 1 << (i % 64);
        }
    }

    pub fn remove(&mut self, r: &Register) {
        if let Some(i) = index(r) {
            self.0[i / 64] &= !(1 << (i % 64));
        }
    }

    /// The set of the given tracked-register indices (see [`tracked_index`]).
    pub(crate) fn from_indices(indices: impl IntoIterator<Item = usize>) -> RegSet {
        let mut s = RegSet::EMPTY;
        for i in indices.into_iter().filter(|&i| i < BITS) {
            s.0[i / 64] |= 1 << (i % 64);
        }
        s
    }

    /// Registers agreed in either (two facts about the same threads).
    pub fn union(&self, other: &RegSet) -> RegSet {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0.iter()) {
            *a |= b;
        }
        out
    }

    /// Join of the agreement domain: registers agreed in both.
    pub fn intersect(&self, other: &RegSet) -> RegSet {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0.iter()) {
            *a &= b;
        }
        out
    }

    pub fn is_subset(&self, other: &RegSet) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a & !b == 0)
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn membership_and_join() {
        let mut a = RegSet::EMPTY;
        a.insert(&Register::Gpr(3));
        a.insert(&Register::Pred(0));
        let mut b = a;
        b.remove(&Register::Gpr(3));
        assert!(a.agrees(&Register::Gpr(3)));
        assert!(!b.agrees(&Register::Gpr(3)));
        assert_eq!(a.intersect(&b).len(), 1);
        assert!(b.is_subset(&a));
        assert_eq!(RegSet::full().len(), 265);
    }

    #[test]
    fn specials() {
        assert!(!RegSet::EMPTY.agrees(&Register::Special("SR_TID.X".into())));
        assert!(RegSet::EMPTY.agrees(&Register::Special("SR_CTAID.X".into())));
        assert!(RegSet::EMPTY.agrees(&Register::Zero));
        assert!(!RegSet::EMPTY.agrees(&Register::Special("SR_LANEID".into())));
    }
}
