//! The keys of the exact search's memo: a multiset state (how many warps stand at each
//! position of the string) packed into an integer while it fits 128 bits, into 64-bit words
//! beyond. Packing is what keeps the memo small: a state of 8 warps takes 4 bits a position.

use super::{Problem, UnitMoves};
use std::hash::Hash;

/// A packed multiset state: the number of warps at each unfinished position.
pub(super) trait StateKey: Clone + Eq + Hash {
    fn encode(counts: &[u32], bits: u32) -> Self;
    fn decode(&self, bits: u32, out: &mut [u32]);
    fn is_final(&self) -> bool;

    /// Appends the successors of `self` (whose counts are `counts`) to `out`, one per
    /// (L vector, C vector) pair, L-major. The default decodes, applies and re-encodes.
    fn push_successors(
        &self,
        p: &Problem,
        counts: &[u32],
        moves: &[UnitMoves; 2],
        child: &mut [u32],
        out: &mut Vec<Self>,
    ) {
        for li in 0..moves[0].n {
            for ci in 0..moves[1].n {
                p.apply(counts, moves, li, ci, child);
                out.push(Self::encode(child, p.bits));
            }
        }
    }
}

/// Packed integer keys: moving `k` warps from position `p` to `p + 1` adds
/// `k·(2^((p+1)·bits) − 2^(p·bits))` to the key (nothing is stored for finished warps), so
/// successors are the parent key plus one precomputed delta per L vector and per C vector.
/// Wrapping arithmetic is exact here: every field of the final value is in range.
macro_rules! packed_key {
    ($t:ty) => {
        impl StateKey for $t {
            fn encode(counts: &[u32], bits: u32) -> Self {
                counts
                    .iter()
                    .enumerate()
                    .fold(0, |acc, (i, &c)| acc | (<$t>::from(c) << (i as u32 * bits)))
            }

            fn decode(&self, bits: u32, out: &mut [u32]) {
                let mask: $t = (1 << bits) - 1;
                for (i, o) in out.iter_mut().enumerate() {
                    *o = ((self >> (i as u32 * bits)) & mask) as u32;
                }
            }

            fn is_final(&self) -> bool {
                *self == 0
            }

            fn push_successors(
                &self,
                p: &Problem,
                _counts: &[u32],
                moves: &[UnitMoves; 2],
                _child: &mut [u32],
                out: &mut Vec<Self>,
            ) {
                let i_len = p.instrs.len();
                let delta = |m: &UnitMoves, j: usize| -> $t {
                    let mut d: $t = 0;
                    for (&pos, &k) in m.positions.iter().zip(m.vector(j)) {
                        let k = <$t>::from(k);
                        d = d.wrapping_sub(k << (pos as u32 * p.bits));
                        if pos + 1 < i_len {
                            d = d.wrapping_add(k << ((pos + 1) as u32 * p.bits));
                        }
                    }
                    d
                };
                for li in 0..moves[0].n {
                    let base = self.wrapping_add(delta(&moves[0], li));
                    for ci in 0..moves[1].n {
                        out.push(base.wrapping_add(delta(&moves[1], ci)));
                    }
                }
            }
        }
    };
}

packed_key!(u64);
packed_key!(u128);

/// A key of more than 128 bits: the counts packed `bits` to a field in 64-bit words (a field
/// may straddle two words), so a state of a long string takes `I · bits(W) / 64` words, as
/// [`StateKey::words`] charges it — one `u32` per position took eight times that memory for
/// 8 warps (a 968-instruction string's search held 380 MB).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Wide(Box<[u64]>);

impl StateKey for Wide {
    fn encode(counts: &[u32], bits: u32) -> Self {
        let bits = bits as usize;
        let mut words = vec![0u64; (counts.len() * bits).div_ceil(64)];
        for (i, &c) in counts.iter().enumerate() {
            let (w, off) = ((i * bits) / 64, (i * bits) % 64);
            words[w] |= u64::from(c) << off;
            if off + bits > 64 {
                words[w + 1] |= u64::from(c) >> (64 - off);
            }
        }
        Wide(words.into())
    }

    fn decode(&self, bits: u32, out: &mut [u32]) {
        let bits = bits as usize;
        let mask = (1u64 << bits) - 1;
        for (i, o) in out.iter_mut().enumerate() {
            let (w, off) = ((i * bits) / 64, (i * bits) % 64);
            let mut v = self.0[w] >> off;
            if off + bits > 64 {
                v |= self.0[w + 1] << (64 - off);
            }
            *o = (v & mask) as u32;
        }
    }

    fn is_final(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fields of 3 bits straddle the word boundary at bit 63 (position 21); every count
    /// comes back, and only the all-zero state is final.
    #[test]
    fn wide_keys_round_trip_across_word_boundaries() {
        let counts: Vec<u32> = (0..50u32).map(|i| (i * 5 + 3) % 8).collect();
        let key = Wide::encode(&counts, 3);
        assert_eq!(key.0.len(), 3, "150 bits in three words");
        let mut back = vec![0; 50];
        key.decode(3, &mut back);
        assert_eq!(back, counts);
        assert!(!key.is_final());
        assert!(Wide::encode(&[0; 50], 3).is_final());
        // Equal counts, equal keys; one count different, different keys.
        let mut other = counts.clone();
        other[21] ^= 1;
        assert_eq!(Wide::encode(&counts, 3), key);
        assert!(Wide::encode(&other, 3) != key);
        // 32-bit fields (W up to 2^32 - 1) too.
        let big = [u32::MAX, 1, 0, 7];
        let mut back = [0; 4];
        Wide::encode(&big, 32).decode(32, &mut back);
        assert_eq!(back, big);
    }
}
