//! Memory coalescing: the 128-byte segments one warp-instruction touches. Each distinct
//! aligned 128-byte segment is one transaction (the Fermi/Kepler L1-line granularity that
//! Huangfu's Alg. 5 also counts).

/// Segment size in bytes.
pub const SEGMENT_BYTES: u64 = 128;

/// The distinct 128-byte segments (base addresses, ascending) covered by accesses of
/// `bytes` bytes at each of `addresses`, appended to `out` (which is cleared first).
pub fn segments(addresses: impl IntoIterator<Item = u64>, bytes: u64, out: &mut Vec<u64>) {
    out.clear();
    let mut sorted = true;
    let mut add = |out: &mut Vec<u64>, base: u64| match out.last() {
        Some(&l) if l == base => {}
        Some(&l) => {
            sorted &= l < base;
            out.push(base);
        }
        None => out.push(base),
    };
    for a in addresses {
        let first = a / SEGMENT_BYTES;
        let last = a.saturating_add(bytes.max(1) - 1) / SEGMENT_BYTES;
        // Usually one segment; an access may straddle two.
        for s in first..=last {
            add(out, s * SEGMENT_BYTES);
        }
    }
    // Lanes usually access increasing addresses; only scattered patterns need the sort.
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
}
