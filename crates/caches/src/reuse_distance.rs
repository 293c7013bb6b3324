//! Reuse distance (Huangfu §6.3, after Ding and Zhong [76]).
//!
//! The reuse distance of an access to line A is the number of *distinct* lines mapped to the
//! same cache set as A, other than A, accessed since the previous access to A; the first
//! access to a line has distance ∞ (`None`). In an LRU cache of associativity N, an access
//! hits iff its reuse distance is less than N.

use std::collections::BTreeMap;

/// Reuse distances of `lines` when all of them map to one set (Table 5's setting).
pub fn reuse_distances(lines: &[u64]) -> Vec<Option<u64>> {
    reuse_distances_in_sets(lines, 1)
}

/// Reuse distances with `sets` cache sets (line `l` maps to set `l mod sets`); only lines of
/// the same set count. O(n log n): per set, a Fenwick tree marks the position of the latest
/// access to every line, so the distinct lines between two accesses are a range count.
pub fn reuse_distances_in_sets(lines: &[u64], sets: u64) -> Vec<Option<u64>> {
    let sets = sets.max(1);
    let mut out = vec![None; lines.len()];
    // Group positions by set, preserving order.
    let mut by_set: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
    for (i, &l) in lines.iter().enumerate() {
        by_set.entry(l % sets).or_default().push(i);
    }
    for positions in by_set.values() {
        let n = positions.len();
        let mut fenwick = Fenwick::new(n);
        let mut last: BTreeMap<u64, usize> = BTreeMap::new();
        for (k, &i) in positions.iter().enumerate() {
            let line = lines[i];
            if let Some(&j) = last.get(&line) {
                // Distinct lines whose latest access lies strictly between j and k.
                out[i] = Some(fenwick.range(j + 1, k) as u64);
                fenwick.add(j, -1);
            }
            fenwick.add(k, 1);
            last.insert(line, k);
        }
    }
    out
}

/// Binary indexed tree over positions `0..n`.
struct Fenwick {
    tree: Vec<i64>,
}

impl Fenwick {
    fn new(n: usize) -> Self {
        Fenwick {
            tree: vec![0; n + 1],
        }
    }

    fn add(&mut self, i: usize, delta: i64) {
        let mut i = i + 1;
        while i < self.tree.len() {
            self.tree[i] += delta;
            i += i & i.wrapping_neg();
        }
    }

    /// Sum of positions `0..i`.
    fn prefix(&self, i: usize) -> i64 {
        let mut i = i.min(self.tree.len() - 1);
        let mut s = 0;
        while i > 0 {
            s += self.tree[i];
            i -= i & i.wrapping_neg();
        }
        s
    }

    /// Sum of positions `a..b`.
    fn range(&self, a: usize, b: usize) -> i64 {
        if b <= a {
            0
        } else {
            self.prefix(b) - self.prefix(a)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lru::{CacheGeometry, LruCache};
    use proptest::prelude::*;

    /// Table 5 (Huangfu §6.3): A B C D A C E B → ∞ ∞ ∞ ∞ 3 2 ∞ 4.
    #[test]
    fn table5_reuse_distance() {
        let (a, b, c, d, e) = (0, 1, 2, 3, 4);
        let got = reuse_distances(&[a, b, c, d, a, c, e, b]);
        assert_eq!(
            got,
            vec![None, None, None, None, Some(3), Some(2), None, Some(4)]
        );
    }

    /// Straightforward definition, for the cross-check below.
    fn naive(lines: &[u64], sets: u64) -> Vec<Option<u64>> {
        (0..lines.len())
            .map(|i| {
                let l = lines[i];
                let j = (0..i).rev().find(|&j| lines[j] == l)?;
                let mut seen: Vec<u64> = lines[j + 1..i]
                    .iter()
                    .copied()
                    .filter(|&x| x % sets == l % sets && x != l)
                    .collect();
                seen.sort_unstable();
                seen.dedup();
                Some(seen.len() as u64)
            })
            .collect()
    }

    proptest! {
        /// The Fenwick computation equals the definition, and "distance < ways" equals an
        /// LRU simulation's hit (the §6.3 hit rule) — two independent methods.
        #[test]
        fn matches_definition_and_lru(
            lines in proptest::collection::vec(0u64..12, 0..60),
            sets in 1u64..4,
            ways in 1u32..5,
        ) {
            let fast = reuse_distances_in_sets(&lines, sets);
            prop_assert_eq!(&fast, &naive(&lines, sets));
            let g = CacheGeometry { size_bytes: sets * ways as u64 * 128, line_bytes: 128, associativity: ways };
            let mut cache = LruCache::new(&g).expect("geometry");
            for (i, &l) in lines.iter().enumerate() {
                let hit = cache.access(l);
                prop_assert_eq!(hit, fast[i].is_some_and(|d| d < ways as u64));
            }
        }
    }
}
