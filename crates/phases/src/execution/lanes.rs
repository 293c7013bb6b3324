//! Three-valued per-work-item values for the functional interpreter ([`super::interpret`]):
//! every lane of a work-group (Sim-D §3.1: a vector register holds one 32-bit value per
//! work-item, a predicate register one bit) is either a known value or unknown.
//!
//! A register whose lanes all agree is stored once (`Lanes::All`), so the common cases —
//! data loaded from DRAM (unknown everywhere) and scalars broadcast into vector operands —
//! cost one step per instruction instead of one per work-item. Masks and predicates are
//! `Lanes<bool>` with Kleene's three-valued logic.

use std::rc::Rc;

/// One value per lane; `None` is unknown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Lanes<T: Copy> {
    /// Every lane holds this value.
    All(Option<T>),
    /// One value per lane (as many as the work-group has work-items), shared: copying a
    /// register is cheap.
    Each(Rc<[Option<T>]>),
}

impl<T: Copy + PartialEq> Lanes<T> {
    pub(crate) fn unknown() -> Self {
        Lanes::All(None)
    }

    /// The value of lane `l`.
    pub(crate) fn get(&self, l: usize) -> Option<T> {
        match self {
            Lanes::All(v) => *v,
            Lanes::Each(v) => v.get(l).copied().flatten(),
        }
    }

    /// Stores lanes that all agree once.
    fn compact(v: Vec<Option<T>>) -> Self {
        match v.first() {
            Some(&f) if v.iter().all(|&x| x == f) => Lanes::All(f),
            _ => Lanes::Each(v.into()),
        }
    }

    /// `f` per lane over `n` lanes; unknown stays unknown.
    pub(crate) fn map<U: Copy + PartialEq>(
        &self,
        n: usize,
        f: impl Fn(T) -> Option<U>,
    ) -> Lanes<U> {
        match self {
            Lanes::All(v) => Lanes::All(v.and_then(f)),
            Lanes::Each(v) => {
                Lanes::<U>::compact(v.iter().take(n).map(|x| x.and_then(&f)).collect())
            }
        }
    }

    /// `f` per lane of two values; unknown if either is.
    pub(crate) fn zip<U: Copy + PartialEq, V: Copy + PartialEq>(
        &self,
        other: &Lanes<U>,
        n: usize,
        f: impl Fn(T, U) -> Option<V>,
    ) -> Lanes<V> {
        match (self, other) {
            (Lanes::All(None), _) | (_, Lanes::All(None)) => Lanes::All(None),
            (Lanes::All(a), Lanes::All(b)) => Lanes::All(match (a, b) {
                (Some(a), Some(b)) => f(*a, *b),
                _ => None,
            }),
            _ => Lanes::<V>::compact(
                (0..n)
                    .map(|l| match (self.get(l), other.get(l)) {
                        (Some(a), Some(b)) => f(a, b),
                        _ => None,
                    })
                    .collect(),
            ),
        }
    }

    /// Per lane: `new` where `mask` is set, `old` where it is clear, and where the mask is
    /// unknown the value both agree on (else unknown) — a masked register write.
    pub(crate) fn select(mask: &Lanes<bool>, new: Lanes<T>, old: &Lanes<T>, n: usize) -> Self {
        match mask {
            Lanes::All(Some(true)) => new,
            Lanes::All(Some(false)) => old.clone(),
            _ if new == *old => new,
            _ => Lanes::compact(
                (0..n)
                    .map(|l| match mask.get(l) {
                        Some(true) => new.get(l),
                        Some(false) => old.get(l),
                        None => {
                            let (a, b) = (new.get(l), old.get(l));
                            if a == b {
                                a
                            } else {
                                None
                            }
                        }
                    })
                    .collect(),
            ),
        }
    }
}

impl<T: Copy> Default for Lanes<T> {
    fn default() -> Self {
        Lanes::All(None)
    }
}

impl Lanes<bool> {
    /// Kleene AND.
    pub(crate) fn and(&self, other: &Lanes<bool>, n: usize) -> Lanes<bool> {
        self.kleene(other, n, |a, b| match (a, b) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (Some(true), Some(true)) => Some(true),
            _ => None,
        })
    }

    /// Kleene OR.
    pub(crate) fn or(&self, other: &Lanes<bool>, n: usize) -> Lanes<bool> {
        self.kleene(other, n, |a, b| match (a, b) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (Some(false), Some(false)) => Some(false),
            _ => None,
        })
    }

    pub(crate) fn not(&self, n: usize) -> Lanes<bool> {
        self.map(n, |a| Some(!a))
    }

    /// A binary connective that may know its result with one operand unknown.
    fn kleene(
        &self,
        other: &Lanes<bool>,
        n: usize,
        f: impl Fn(Option<bool>, Option<bool>) -> Option<bool>,
    ) -> Lanes<bool> {
        match (self, other) {
            (Lanes::All(a), Lanes::All(b)) => Lanes::All(f(*a, *b)),
            _ => Lanes::compact((0..n).map(|l| f(self.get(l), other.get(l))).collect()),
        }
    }

    /// Is some lane set? `Some(true)` if one surely is, `Some(false)` if all surely are
    /// clear, `None` otherwise.
    pub(crate) fn any(&self, n: usize) -> Option<bool> {
        match self {
            Lanes::All(v) => *v,
            Lanes::Each(v) => {
                let mut unknown = false;
                for x in v.iter().take(n) {
                    match x {
                        Some(true) => return Some(true),
                        None => unknown = true,
                        Some(false) => {}
                    }
                }
                if unknown {
                    None
                } else {
                    Some(false)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kleene_logic_and_compaction() {
        let a = Lanes::Each(vec![Some(true), None, Some(false)].into());
        let f = Lanes::All(Some(false));
        assert_eq!(a.and(&f, 3), Lanes::All(Some(false)));
        assert_eq!(a.or(&f, 3), a);
        assert_eq!(a.any(3), Some(true));
        assert_eq!(Lanes::Each(vec![Some(false), None].into()).any(2), None);
        let v: Lanes<u32> = Lanes::Each(vec![Some(1), Some(2), Some(3)].into());
        let old = Lanes::All(Some(2));
        // Lane 0 written, lane 1 unknown mask but equal values, lane 2 kept.
        assert_eq!(
            Lanes::select(&a, v, &old, 3),
            Lanes::Each(vec![Some(1), Some(2), Some(2)].into())
        );
    }
}
