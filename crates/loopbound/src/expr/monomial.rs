//! Monomials of the store's polynomials.

use super::{AtomId, MAX_DEGREE};

/// A monomial: at most [`MAX_DEGREE`] atoms with repetition, sorted, kept inline (the
/// store makes tens of thousands of them on a large kernel; none needs the heap).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Monomial {
    len: u8,
    atoms: [AtomId; MAX_DEGREE],
}

impl Monomial {
    /// The monomial of these atoms (sorted here); `None` above [`MAX_DEGREE`].
    pub fn of(atoms: &[AtomId]) -> Option<Monomial> {
        if atoms.len() > MAX_DEGREE {
            return None;
        }
        let mut m = Monomial {
            len: atoms.len() as u8,
            atoms: [0; MAX_DEGREE],
        };
        m.atoms[..atoms.len()].copy_from_slice(atoms);
        m.atoms[..atoms.len()].sort_unstable();
        Some(m)
    }

    pub fn as_slice(&self) -> &[AtomId] {
        &self.atoms[..usize::from(self.len)]
    }

    /// The product of two monomials, `None` above [`MAX_DEGREE`].
    pub fn times(&self, o: &Monomial) -> Option<Monomial> {
        let n = usize::from(self.len) + usize::from(o.len);
        if n > MAX_DEGREE {
            return None;
        }
        let mut all = [0; MAX_DEGREE];
        all[..usize::from(self.len)].copy_from_slice(self.as_slice());
        all[usize::from(self.len)..n].copy_from_slice(o.as_slice());
        Monomial::of(&all[..n])
    }
}

impl std::ops::Deref for Monomial {
    type Target = [AtomId];

    fn deref(&self) -> &[AtomId] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a Monomial {
    type Item = &'a AtomId;
    type IntoIter = std::slice::Iter<'a, AtomId>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}
