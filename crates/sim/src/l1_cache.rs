//! A set-associative LRU cache of line tags (the optional L1 of the timing model).

use crate::machine::L1Config;

/// Tags only: the data lives in the simulated memory.
#[derive(Debug, Clone)]
pub struct L1Cache {
    sets: u64,
    ways: usize,
    line: u64,
    /// Per set: line numbers, most recently used last.
    lines: Vec<Vec<u64>>,
}

impl L1Cache {
    pub fn new(c: &L1Config) -> Self {
        L1Cache {
            sets: u64::from(c.sets.max(1)),
            ways: c.ways.max(1) as usize,
            line: u64::from(c.line_bytes.max(1)),
            lines: vec![Vec::new(); c.sets.max(1) as usize],
        }
    }

    /// Looks `addr` up and makes its line the most recently used (allocating on a miss,
    /// evicting the least recently used line of a full set). Returns whether it hit.
    pub fn access(&mut self, addr: u64) -> bool {
        let line = addr / self.line;
        let set = &mut self.lines[(line % self.sets) as usize];
        if let Some(p) = set.iter().position(|&l| l == line) {
            set.remove(p);
            set.push(line);
            true
        } else {
            if set.len() == self.ways {
                set.remove(0);
            }
            set.push(line);
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lru_eviction_in_a_two_way_set() {
        // One set, two ways, 128-byte lines: A B A C → C evicts B (least recently used),
        // so A hits again and B misses.
        let mut c = L1Cache::new(&L1Config {
            sets: 1,
            ways: 2,
            line_bytes: 128,
            hit_latency: 1,
        });
        let (a, b, cc) = (0u64, 128u64, 256u64);
        assert!(!c.access(a));
        assert!(!c.access(b));
        assert!(c.access(a + 4));
        assert!(!c.access(cc));
        assert!(c.access(a));
        assert!(!c.access(b));
    }
}
