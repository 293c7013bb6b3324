//! Stride patterns (Sim-D §3.2.1, §3.3): how many DRAM bursts a 1D/2D tile request needs, and
//! how many scratchpad lines a scratchpad stride request touches.

use crate::error::Error;

/// A stride descriptor: `period_count` periods of `words` consecutive 32-bit words, each
/// period starting `period` words after the previous one, from byte address `addr`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stride {
    pub addr: u64,
    pub words: u64,
    pub period: u64,
    pub period_count: u64,
}

impl Stride {
    /// Byte address one past the last word (§3.2.1: `addr + ((count−1)·period + words)·4`).
    pub fn end(&self) -> u64 {
        let last = self
            .period_count
            .saturating_sub(1)
            .saturating_mul(self.period);
        self.addr
            .saturating_add(last.saturating_add(self.words).saturating_mul(4))
    }

    /// The start addresses of the bursts the stride sequencer generates, in order (§3.2.1:
    /// one burst request per burst-aligned block touched; a block shared by consecutive
    /// periods is requested once). `max_periods` bounds the work.
    pub fn burst_addresses(&self, burst_bytes: u64, max_periods: u64) -> Result<Vec<u64>, Error> {
        let mut out = Vec::new();
        let mut budget_left = max_periods.saturating_mul(64);
        let mut overflow = false;
        self.walk(burst_bytes, max_periods, |first, last| {
            for b in first..=last {
                if budget_left == 0 {
                    overflow = true;
                    return;
                }
                budget_left -= 1;
                out.push(b * burst_bytes.max(1));
            }
        })?;
        if overflow {
            return Err(Error::budget(
                "max_stride_periods",
                max_periods,
                "listing the bursts of a stride request",
            ));
        }
        Ok(out)
    }

    /// Number of bursts (see [`Stride::burst_addresses`]) without listing them.
    pub fn bursts(&self, burst_bytes: u64, max_periods: u64) -> Result<u64, Error> {
        let mut n = 0u64;
        self.walk(burst_bytes, max_periods, |first, last| {
            n = n.saturating_add(last - first + 1)
        })?;
        Ok(n)
    }

    /// Calls `emit(first, last)` for each run of new burst indices, period by period.
    fn walk(
        &self,
        burst_bytes: u64,
        max_periods: u64,
        mut emit: impl FnMut(u64, u64),
    ) -> Result<(), Error> {
        let bb = burst_bytes.max(1);
        if self.words == 0 || self.period_count == 0 {
            return Ok(());
        }
        if self.period_count > max_periods {
            return Err(Error::budget(
                "max_stride_periods",
                max_periods,
                format!("a stride request of {} periods", self.period_count),
            ));
        }
        let mut next_free: u64 = 0; // first burst index not yet emitted
        for k in 0..self.period_count {
            let start = self
                .addr
                .saturating_add(k.saturating_mul(self.period).saturating_mul(4));
            let last_byte = start.saturating_add(self.words.saturating_mul(4) - 1);
            let first = (start / bb).max(next_free);
            let last = last_byte / bb;
            if first > last {
                continue;
            }
            emit(first, last);
            next_free = last + 1;
        }
        Ok(())
    }

    /// The most bursts over every word alignment of the start address within a burst (the
    /// reference tool simulates every 4-byte start offset; the burst count depends on the
    /// offset modulo the burst size only). Returns (bursts, byte offset that attains them).
    pub fn worst_case_bursts(
        &self,
        burst_bytes: u64,
        max_periods: u64,
    ) -> Result<(u64, u64), Error> {
        let mut best = (0, 0);
        let mut off = 0;
        while off < burst_bytes.max(4) {
            let s = Stride { addr: off, ..*self };
            let b = s.bursts(burst_bytes, max_periods)?;
            if b > best.0 {
                best = (b, off);
            }
            off += 4;
        }
        Ok(best)
    }
}

/// Scratchpad lines read or written by a scratchpad stride request of `period_count`
/// periods of `words` words, period `period`, over a bus of `bus_words` words, starting at
/// line 0 (§3.3; the cost is this count plus one front-end cycle, §5.3).
///
/// This follows the reference tool's `spStrides`, a model of its scratchpad stride sequencer:
/// it walks the pattern word by word, counting one read at every line boundary, and at the
/// end of a line that finishes a period it skips the whole lines between periods. The skip
/// arithmetic is 32-bit unsigned as in the hardware model (a dense pattern makes the skip
/// wrap to zero, i.e. no skip). `max_words` bounds the walk.
pub fn scratchpad_lines(
    words: u64,
    period: u64,
    period_count: u64,
    bus_words: u64,
    max_words: u64,
) -> Result<u64, Error> {
    let w = bus_words.max(1);
    if words == 0 || period == 0 || period_count == 0 {
        return Ok(0);
    }
    let end = period
        .saturating_mul(period_count - 1)
        .saturating_add(words);
    if end > max_words {
        return Err(Error::budget(
            "max_sp_stride_words",
            max_words,
            format!("a scratchpad stride request spanning {end} words"),
        ));
    }
    let w32 = w as u32;
    let skip_all = (period as u32).wrapping_sub((words as u32).wrapping_add(w32).wrapping_sub(1));
    let skip_rest = skip_all & (w32 - 1);
    let skip_lines = skip_all & !(w32 - 1);
    let mut reads = 0u64;
    let mut have_skipped = false;
    let mut i = 0u64;
    while i < end {
        let pos = i % period;
        if i.is_multiple_of(w) {
            reads += 1;
        }
        if pos < words {
            have_skipped = false;
        }
        if i % w == w - 1 && !have_skipped {
            let mut skip = 0u32;
            if pos + 1 >= words {
                skip = skip_lines;
                if pos + 1 < words + u64::from(skip_rest) {
                    skip = skip.wrapping_add(w32);
                }
            }
            if skip != 0 {
                i = i.saturating_add(u64::from(skip));
                have_skipped = true;
            }
        }
        i += 1;
    }
    Ok(reads)
}

/// Lines touched by the same pattern, counted directly: the distinct `bus_words`-aligned
/// lines that contain a word of some period. An independent formula used to cross-check
/// [`scratchpad_lines`].
pub fn scratchpad_lines_touched(words: u64, period: u64, period_count: u64, bus_words: u64) -> u64 {
    let w = bus_words.max(1);
    let mut n = 0u64;
    let mut next_free = 0u64;
    for k in 0..period_count {
        if words == 0 {
            break;
        }
        let first = (k * period / w).max(next_free);
        let last = (k * period + words - 1) / w;
        if first <= last {
            n += last - first + 1;
            next_free = last + 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    /// §3.2.1 / Fig. 3: a 5×3 tile of a 7×7 buffer read from 0x8 (period 7, 5 words per
    /// period, 3 periods) ends at 8 + (2·7 + 5)·4 = 84 = 0x54 and needs two 64-byte bursts,
    /// at 0x0 and 0x40.
    #[test]
    fn fig3_stride_example_two_bursts() {
        let s = Stride {
            addr: 0x8,
            words: 5,
            period: 7,
            period_count: 3,
        };
        assert_eq!(s.end(), 0x54);
        assert_eq!(s.burst_addresses(64, 1 << 20).ok(), Some(vec![0x0, 0x40]));
    }

    /// A contiguous 1024-word transfer is 64 bursts when aligned and 65 when not; the worst
    /// case over alignments is 65 (first attained at offset 4).
    #[test]
    fn worst_alignment_of_a_linear_transfer() {
        let s = Stride {
            addr: 0,
            words: 32,
            period: 32,
            period_count: 32,
        };
        assert_eq!(s.bursts(64, 1 << 20).ok(), Some(64));
        assert_eq!(s.worst_case_bursts(64, 1 << 20).ok(), Some((65, 4)));
    }

    /// Periods of 32 words in a buffer 128 words wide: each period covers 128 B, i.e. 2
    /// bursts aligned and 3 misaligned, so 32 periods need 64 or 96 bursts.
    #[test]
    fn two_dimensional_tile_bursts_by_hand() {
        let s = Stride {
            addr: 0,
            words: 32,
            period: 128,
            period_count: 32,
        };
        assert_eq!(s.bursts(64, 1 << 20).ok(), Some(64));
        assert_eq!(s.worst_case_bursts(64, 1 << 20).ok().map(|x| x.0), Some(96));
    }

    /// Dense scratchpad pattern, 4-word bus: 1024 words = 256 lines; a 32-word-wide tile
    /// in a 38-word buffer (32 periods): direct count by hand of distinct lines.
    #[test]
    fn scratchpad_line_counts_by_hand() {
        assert_eq!(scratchpad_lines(32, 32, 32, 4, 1 << 24).ok(), Some(256));
        assert_eq!(scratchpad_lines_touched(32, 32, 32, 4), 256);
        // One 5-word period from word 0 on a 4-word bus: lines 0 and 1.
        assert_eq!(scratchpad_lines(5, 7, 1, 4, 1 << 24).ok(), Some(2));
    }

    #[test]
    fn budgets_are_named() {
        let s = Stride {
            addr: 0,
            words: 1,
            period: 1,
            period_count: 10,
        };
        let e = s
            .bursts(64, 5)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains("max_stride_periods"), "{e}");
        let e = scratchpad_lines(4, 4, 100, 4, 10)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains("max_sp_stride_words"), "{e}");
    }
}

#[cfg(test)]
mod cross_check {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The stride-sequencer walk of the reference model and a direct count of distinct
        /// lines touched agree on every pattern whose period is at least its width.
        #[test]
        fn scratchpad_walk_matches_direct_count(words in 1u64..80, gap in 0u64..80, count in 1u64..20, bus_log in 2u32..6) {
            let bus = 1u64 << bus_log;
            let period = words + gap;
            let walk = scratchpad_lines(words, period, count, bus, 1 << 24).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(walk, scratchpad_lines_touched(words, period, count, bus));
        }

        /// Burst counts: at least the words' bytes in whole bursts, at most one burst per
        /// period more than that, and the listed addresses are burst-aligned and increasing.
        #[test]
        fn stride_bursts_are_bounded(addr in 0u64..4096, words in 1u64..200, gap in 0u64..300, count in 1u64..20) {
            let s = Stride { addr: addr * 4, words, period: words + gap, period_count: count };
            let list = s.burst_addresses(64, 1 << 20).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let per_period_max = (words * 4).div_ceil(64) + 1;
            prop_assert!(list.len() as u64 <= count * per_period_max);
            prop_assert!(list.len() as u64 >= (words * 4).div_ceil(64));
            prop_assert!(list.windows(2).all(|w| w[0] < w[1]) && list.iter().all(|a| a % 64 == 0));
        }
    }
}
