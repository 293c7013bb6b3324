//! Lane masks as sets: the lanes of a 64-bit mask in ascending order, and the mask of a
//! whole warp. Shared by the three engines' semantics (an active or executed mask is the
//! set of lanes an instruction touches).

/// The set lanes of `mask`, ascending.
#[inline]
pub(crate) fn lanes(mask: u64) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(l)
        }
    })
}

/// Every lane of a warp of `ws` lanes (all 64 bits from 64 lanes up).
#[inline]
pub(crate) fn full_mask(ws: usize) -> u64 {
    if ws >= 64 {
        u64::MAX
    } else {
        (1u64 << ws) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_of_masks() {
        assert_eq!(lanes(0b1010_0001).collect::<Vec<_>>(), vec![0, 5, 7]);
        assert_eq!(lanes(1 << 63).collect::<Vec<_>>(), vec![63]);
        assert_eq!(lanes(0).count(), 0);
        assert_eq!(full_mask(32), 0xffff_ffff);
        assert_eq!(full_mask(64), u64::MAX);
        assert_eq!(full_mask(1), 1);
    }
}
