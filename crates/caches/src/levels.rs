//! Memory levels an access is served from, and their latencies (Huangfu §6.5).
//!
//! "in the memory system with L1 and L2 data caches, the value of LE_inst_Memory can be set
//! to the latency of a L1 hit, a L2 hit or a L2 miss" (§6.5). The thesis obtains these
//! latencies by profiling (§6.6.1.3); here they are configuration values.

/// Where a warp instruction's data comes from; ordered from fastest to slowest so that the
/// level of a multi-line access is the maximum over its lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MemoryLevel {
    L1Hit,
    L2Hit,
    L2Miss,
}

/// Longest latencies of the three levels, in cycles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LevelLatencies {
    pub l1_hit: u64,
    pub l2_hit: u64,
    pub l2_miss: u64,
}

impl LevelLatencies {
    pub fn of(&self, level: MemoryLevel) -> u64 {
        match level {
            MemoryLevel::L1Hit => self.l1_hit,
            MemoryLevel::L2Hit => self.l2_hit,
            MemoryLevel::L2Miss => self.l2_miss,
        }
    }
}

/// The level of an access whose lines were classified individually: an L1 hit on every
/// line is an L1 hit; otherwise the slowest L2 outcome among the L1-missing lines.
pub fn access_level(lines: impl IntoIterator<Item = (bool, Option<bool>)>) -> MemoryLevel {
    let mut level = MemoryLevel::L1Hit;
    for (l1_hit, l2_hit) in lines {
        if l1_hit {
            continue;
        }
        let l = if l2_hit == Some(true) {
            MemoryLevel::L2Hit
        } else {
            MemoryLevel::L2Miss
        };
        level = level.max(l);
    }
    level
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slowest_line_decides() {
        assert_eq!(
            access_level([(true, None), (true, None)]),
            MemoryLevel::L1Hit
        );
        assert_eq!(
            access_level([(true, None), (false, Some(true))]),
            MemoryLevel::L2Hit
        );
        assert_eq!(
            access_level([(false, Some(true)), (false, Some(false))]),
            MemoryLevel::L2Miss
        );
        // An L1 miss whose L2 outcome is unknown counts as an L2 miss (safe).
        assert_eq!(access_level([(false, None)]), MemoryLevel::L2Miss);
    }
}
