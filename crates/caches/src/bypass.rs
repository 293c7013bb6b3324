//! The L1 bypass heuristic of Huangfu Ch. 3: bypass a line A when U × (1 + R) < 1 (Eq. 3.1).
//!
//! U is A's load utilisation rate (useful bytes / bytes transferred, §3.3.1, Fig. 4) and R
//! its reuse time in the L1 (§3.3.2). 1 + R is how often A is read from the L1 per 128-byte
//! fill; if that times U is below 1, caching A moves more bytes from global memory than
//! bypassing it would (§3.3.3).
//!
//! The thesis measures U and R by profiling in GPGPU-Sim; here they come from the static
//! address trace of the kernel analyzer, run through an LRU model of one SM's L1:
//! U = Σ useful bytes / (line size × loads of A), R = L1 hits on A / fills of A (the mean
//! number of reuses per residency). Without a cache geometry every line stays resident
//! (one fill, R = loads − 1). The list of bypassed lines is per SM, as in §3.3.3.

use crate::lru::{CacheGeometry, LruCache};
use isa::Diagnostic;
use std::collections::BTreeMap;

/// Eq. 3.1: true when a line with utilisation `u` and reuse time `r` should bypass the L1.
pub fn should_bypass(u: f64, r: f64) -> bool {
    u * (1.0 + r) < 1.0
}

/// One coalesced load transaction: the line it fetches and how many of the line's bytes
/// the threads actually use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoadTransaction {
    pub line: u64,
    pub used_bytes: u32,
}

/// U, R and the decision for one line.
#[derive(Debug, Clone, PartialEq)]
pub struct LineUse {
    /// Byte address of the line.
    pub address: u64,
    pub loads: u64,
    pub fills: u64,
    /// U (§3.3.1).
    pub utilization: f64,
    /// R (§3.3.2).
    pub reuse: f64,
    /// U × (1 + R).
    pub product: f64,
    pub bypass: bool,
}

/// Eq. 3.1 on one SM's load trace.
#[derive(Debug, Clone, PartialEq)]
pub struct SmBypass {
    pub sm: u32,
    pub lines: Vec<LineUse>,
    /// Byte addresses of the lines to bypass, ascending.
    pub bypassed: Vec<u64>,
}

/// Applies Eq. 3.1 to every line of `loads` (one SM's loads in L1 access order).
pub fn analyze_sm(
    sm: u32,
    loads: &[LoadTransaction],
    line_bytes: u64,
    l1: Option<&CacheGeometry>,
) -> Result<SmBypass, Diagnostic> {
    let mut cache = l1.map(LruCache::new).transpose()?;
    #[derive(Default)]
    struct Acc {
        loads: u64,
        fills: u64,
        used: u64,
    }
    let mut per: BTreeMap<u64, Acc> = BTreeMap::new();
    for t in loads {
        let hit = match cache.as_mut() {
            Some(c) => c.access(t.line),
            None => per.contains_key(&t.line),
        };
        let a = per.entry(t.line).or_default();
        a.loads += 1;
        a.used += t.used_bytes as u64;
        if !hit {
            a.fills += 1;
        }
    }
    let line_bytes = line_bytes.max(1);
    let mut lines = Vec::new();
    let mut bypassed = Vec::new();
    for (line, a) in per {
        let utilization = a.used as f64 / (line_bytes as f64 * a.loads as f64);
        let fills = a.fills.max(1);
        let reuse = (a.loads - a.fills.min(a.loads)) as f64 / fills as f64;
        let bypass = should_bypass(utilization, reuse);
        let address = line.saturating_mul(line_bytes);
        if bypass {
            bypassed.push(address);
        }
        lines.push(LineUse {
            address,
            loads: a.loads,
            fills: a.fills,
            utilization,
            reuse,
            product: utilization * (1.0 + reuse),
            bypass,
        });
    }
    Ok(SmBypass {
        sm,
        lines,
        bypassed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fig. 4 (b)/(c) and the §3.3.3 reading of it: 32 threads × 4 bytes at 96..223 touch
    /// line 0 (32 useful bytes, U = 25 %) and line 1 (96 bytes, U = 75 %). The 25 % line must
    /// be reused at least 3 times to stay cached, the 75 % line at least once.
    #[test]
    fn fig4_bypass_thresholds() {
        assert!(should_bypass(0.25, 2.0));
        assert!(!should_bypass(0.25, 3.0));
        assert!(should_bypass(0.75, 0.0));
        assert!(!should_bypass(0.75, 1.0));
        assert!(!should_bypass(1.0, 0.0));

        // The same warp load issued 3 times (R = 2 on both lines, no eviction).
        let warp = [
            LoadTransaction {
                line: 0,
                used_bytes: 32,
            },
            LoadTransaction {
                line: 1,
                used_bytes: 96,
            },
        ];
        let trace: Vec<_> = warp.iter().cycle().take(6).copied().collect();
        let r = analyze_sm(0, &trace, 128, None).expect("analysis");
        assert_eq!(r.lines[0].utilization, 0.25);
        assert_eq!(r.lines[0].reuse, 2.0);
        assert_eq!(r.lines[1].utilization, 0.75);
        // 0.25 × 3 = 0.75 < 1 → bypass line 0; 0.75 × 3 = 2.25 → keep line 1.
        assert_eq!(r.bypassed, vec![0]);
    }

    /// With an LRU cache too small to keep a line, every load refills it: R = 0.
    #[test]
    fn evictions_lower_the_reuse_time() {
        // One set, one way: lines 0 and 1 evict each other.
        let g = CacheGeometry {
            size_bytes: 128,
            line_bytes: 128,
            associativity: 1,
        };
        let t = |line| LoadTransaction {
            line,
            used_bytes: 64,
        };
        let r = analyze_sm(3, &[t(0), t(1), t(0), t(1)], 128, Some(&g)).expect("analysis");
        assert_eq!(r.lines[0].fills, 2);
        assert_eq!(r.lines[0].reuse, 0.0);
        assert_eq!(r.bypassed, vec![0, 128]);
        // Without the cache model both lines are reused once: 0.5 × 2 = 1, not bypassed.
        let r = analyze_sm(3, &[t(0), t(1), t(0), t(1)], 128, None).expect("analysis");
        assert!(r.bypassed.is_empty());
    }
}
