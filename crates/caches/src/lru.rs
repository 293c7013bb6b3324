//! A set-associative LRU cache model: the cache every analysis of this crate assumes
//! (Table 7: "L1/L2 Cache Replacement Policy: LRU").

use isa::{Diagnostic, Severity};
use std::collections::BTreeMap;

/// Size, line size and associativity of one cache. Sets = size / (line × associativity).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheGeometry {
    pub size_bytes: u64,
    pub line_bytes: u64,
    pub associativity: u32,
}

impl CacheGeometry {
    /// Checks the geometry and returns the number of sets.
    pub fn sets(&self) -> Result<u64, Diagnostic> {
        let bad = |m: String| Diagnostic::global(Severity::Error, m);
        if self.line_bytes == 0 || self.associativity == 0 {
            return Err(bad(format!(
                "cache line size ({}) and associativity ({}) must be positive",
                self.line_bytes, self.associativity
            )));
        }
        let way_bytes = self
            .line_bytes
            .checked_mul(self.associativity as u64)
            .ok_or_else(|| bad("cache line size × associativity overflows".into()))?;
        if self.size_bytes < way_bytes || !self.size_bytes.is_multiple_of(way_bytes) {
            return Err(bad(format!(
                "cache size {} is not a positive multiple of line size × associativity ({})",
                self.size_bytes, way_bytes
            )));
        }
        Ok(self.size_bytes / way_bytes)
    }

    /// The line (block) number holding byte address `addr`.
    pub fn line_of(&self, addr: u64) -> u64 {
        addr / self.line_bytes.max(1)
    }
}

/// LRU state: per set, the resident lines from most to least recently used. Sets are
/// created lazily, so a huge geometry costs nothing until it is used.
#[derive(Debug, Clone)]
pub struct LruCache {
    sets: u64,
    ways: usize,
    state: BTreeMap<u64, Vec<u64>>,
}

impl LruCache {
    pub fn new(geometry: &CacheGeometry) -> Result<Self, Diagnostic> {
        Ok(LruCache {
            sets: geometry.sets()?,
            ways: geometry.associativity as usize,
            state: BTreeMap::new(),
        })
    }

    /// The set a line maps to (modulo placement).
    pub fn set_of(&self, line: u64) -> u64 {
        line % self.sets.max(1)
    }

    /// Accesses `line`: true on a hit. The line becomes most recently used; on a miss the
    /// least recently used line of its set is evicted if the set is full.
    pub fn access(&mut self, line: u64) -> bool {
        let ways = self.ways;
        let set = self.state.entry(line % self.sets.max(1)).or_default();
        if let Some(p) = set.iter().position(|&l| l == line) {
            set.remove(p);
            set.insert(0, line);
            true
        } else {
            set.insert(0, line);
            set.truncate(ways);
            false
        }
    }

    /// True if `line` is resident (does not change the LRU order).
    pub fn contains(&self, line: u64) -> bool {
        self.state
            .get(&(line % self.sets.max(1)))
            .is_some_and(|s| s.contains(&line))
    }

    /// Removes `line` if resident (write-evict stores).
    pub fn invalidate(&mut self, line: u64) {
        if let Some(s) = self.state.get_mut(&(line % self.sets.max(1))) {
            s.retain(|&l| l != line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_way_set_evicts_least_recently_used() {
        // 2 sets × 2 ways of 128-byte lines: lines 0, 2, 4 all map to set 0.
        let g = CacheGeometry {
            size_bytes: 512,
            line_bytes: 128,
            associativity: 2,
        };
        let mut c = LruCache::new(&g).expect("geometry");
        assert!(!c.access(0));
        assert!(!c.access(2));
        assert!(c.access(0)); // 0 becomes MRU, 2 is LRU
        assert!(!c.access(4)); // evicts 2
        assert!(c.access(0));
        assert!(!c.access(2));
        assert!(!c.access(1)); // set 1 untouched so far
    }

    #[test]
    fn bad_geometry_is_an_error() {
        let g = CacheGeometry {
            size_bytes: 100,
            line_bytes: 128,
            associativity: 4,
        };
        assert!(LruCache::new(&g).is_err());
    }
}
