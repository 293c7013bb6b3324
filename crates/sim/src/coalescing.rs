//! Memory coalescing: the 128-byte segments one warp-instruction touches. Each distinct
//! aligned 128-byte segment is one transaction (the Fermi/Kepler L1-line granularity that
//! Huangfu's Alg. 5 also counts).

/// Segment size in bytes.
pub const SEGMENT_BYTES: u64 = 128;

/// The distinct 128-byte segments (base addresses, ascending) covered by accesses of
/// `bytes` bytes at each of `addresses`, appended to `out` (which is cleared first).
pub fn segments(addresses: impl IntoIterator<Item = u64>, bytes: u64, out: &mut Vec<u64>) {
    out.clear();
    let span = bytes.max(1) - 1;
    let mut sorted = true;
    // The segment (index) last appended: lanes usually access increasing addresses, most
    // of them in the segment of the lane before (this runs for every lane of every access).
    let mut last_added: Option<u64> = None;
    for a in addresses {
        let first = a / SEGMENT_BYTES;
        let last = a.saturating_add(span) / SEGMENT_BYTES;
        if last == first && last_added == Some(first) {
            continue;
        }
        // Usually one segment; an access may straddle two.
        let mut s = first;
        loop {
            if last_added != Some(s) {
                if let Some(l) = last_added {
                    sorted &= l < s;
                }
                out.push(s * SEGMENT_BYTES);
                last_added = Some(s);
            }
            if s >= last {
                break;
            }
            s += 1;
        }
    }
    // Only scattered patterns need the sort.
    if !sorted {
        out.sort_unstable();
        out.dedup();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_stride_words_of_a_warp_are_one_segment() {
        // 32 threads reading consecutive 4-byte words from 0x1000: 128 bytes, one segment.
        let a: Vec<u64> = (0..32).map(|t| 0x1000 + 4 * t).collect();
        let mut out = Vec::new();
        segments(a.iter().copied(), 4, &mut out);
        assert_eq!(out, vec![0x1000]);
        // Misaligned by 4 bytes: the last word spills into the next segment.
        let a: Vec<u64> = (0..32).map(|t| 0x1004 + 4 * t).collect();
        segments(a.iter().copied(), 4, &mut out);
        assert_eq!(out, vec![0x1000, 0x1080]);
        // Stride of 128 bytes: every thread its own segment.
        let a: Vec<u64> = (0..32).map(|t| 128 * t).collect();
        segments(a.iter().copied(), 4, &mut out);
        assert_eq!(out.len(), 32);
        // 8-byte accesses, unit stride: 256 bytes, two segments.
        let a: Vec<u64> = (0..32).map(|t| 8 * t).collect();
        segments(a.iter().copied(), 8, &mut out);
        assert_eq!(out, vec![0, 128]);
        // Scattered (descending, repeated) addresses: still distinct and ascending.
        let a = [0x300u64, 0x100, 0x304, 0x100, 0x0];
        segments(a.iter().copied(), 4, &mut out);
        assert_eq!(out, vec![0x0, 0x100, 0x300]);
    }

    /// Whatever the pattern (strides, repeats, straddles, descending runs, sizes), the
    /// segments are every covered segment once, ascending.
    #[test]
    fn segments_are_the_distinct_covered_segments_ascending() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut out = Vec::new();
        for case in 0..400u64 {
            let bytes = [1, 2, 4, 8, 16][(case % 5) as usize];
            let mut a: Vec<u64> = Vec::new();
            for k in 0..(case % 40) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                a.push(match case % 4 {
                    0 => 0x1000 + k * bytes,
                    1 => 0x1000 + (x % 8) * 60,
                    2 => 0x4000 - k * 36,
                    _ => x % 0x800,
                });
            }
            let mut expected: Vec<u64> = a
                .iter()
                .flat_map(|&b| (b / SEGMENT_BYTES)..=((b + bytes - 1) / SEGMENT_BYTES))
                .map(|s| s * SEGMENT_BYTES)
                .collect();
            expected.sort_unstable();
            expected.dedup();
            segments(a.iter().copied(), bytes, &mut out);
            assert_eq!(out, expected, "case {case}: {a:x?}");
        }
    }
}
