//! The number of competing SMs (Huangfu Alg. 6, §5.3.3.3).
//!
//! The algorithm itself did not survive the text extraction; this is our reading of the
//! prose around it:
//!
//! 1. For every global memory instruction I and every SM s, the distribution vector counts
//!    the coalesced addresses of I on s per memory partition (`MemPtnAccVector`).
//! 2. `Distance2Center(v)`: the Euclidean distance between v / mean(v) and the all-ones
//!    vector ((2, 0, 3) → (1.2, 0, 1.8) → 1.29).
//! 3. `Distance2Vector(v, w)`: the distance between v / mean(v) and w / mean(w)
//!    ((2, 0, 3) vs (2, 0, 2) → 0.42; vs (1, 3, 1) → 2.2).
//! 4. Line 9: CompetingSM(I, s) = Σ over other SMs s' executing I of
//!    1 − D2OtherSM(s, s') / MaxDistance, "if the distance is 0 ... the number of possibly
//!    competing SMs is increased by 1", with MaxDistance = (M − 1)·√2 for M SMs as the thesis
//!    states (clamped so each term stays in [0, 1]).
//! 5. Line 11: the value of (I, s) counts toward the result when CompetingSM ≥
//!    T_CompetingSM or D2Center ≥ T_D2Center (many similar SMs, or an uneven distribution
//!    that concentrates them on few partitions); otherwise it counts as 0.
//! 6. The average over all (I, s) pairs is returned, rounded up as the coalescing average
//!    is (Table 2); the maximum is the number of active SMs − 1.
//!
//! This is a heuristic for the *average* degree of competition; only the maximum makes
//! the WCET safe (§5.3.3.3).

use std::collections::BTreeMap;

/// v / mean(v); `None` for an all-zero vector.
fn normalized(v: &[u64]) -> Option<Vec<f64>> {
    let sum: u64 = v.iter().sum();
    if sum == 0 || v.is_empty() {
        return None;
    }
    let mean = sum as f64 / v.len() as f64;
    Some(v.iter().map(|&x| x as f64 / mean).collect())
}

/// `Distance2Center` of Alg. 6.
pub fn distance_to_center(v: &[u64]) -> Option<f64> {
    let n = normalized(v)?;
    Some(n.iter().map(|x| (x - 1.0) * (x - 1.0)).sum::<f64>().sqrt())
}

/// `Distance2Vector` of Alg. 6; `None` if either vector is all zero or lengths differ.
pub fn distance_to_vector(a: &[u64], b: &[u64]) -> Option<f64> {
    if a.len() != b.len() {
        return None;
    }
    let (x, y) = (normalized(a)?, normalized(b)?);
    Some(
        x.iter()
            .zip(&y)
            .map(|(p, q)| (p - q) * (p - q))
            .sum::<f64>()
            .sqrt(),
    )
}

/// The memory partition of `address`: (address / interleave) mod partitions.
pub fn partition_of(address: u64, interleave_bytes: u64, partitions: u32) -> usize {
    ((address / interleave_bytes.max(1)) % partitions.max(1) as u64) as usize
}

/// One (instruction, SM) pair of Alg. 6.
#[derive(Debug, Clone, PartialEq)]
pub struct InstructionCompetition {
    pub pc: u64,
    pub sm: u32,
    pub distribution: Vec<u64>,
    pub d2center: f64,
    pub competing: f64,
    /// Whether the thresholds let it count (line 11).
    pub counted: bool,
}

/// Alg. 6's result.
#[derive(Debug, Clone, PartialEq)]
pub struct CompetingStats {
    /// Active SMs − 1.
    pub max: u32,
    /// The average rounded up.
    pub avg: u32,
    /// The exact average.
    pub mean: f64,
    pub active_sms: u32,
    pub instructions: Vec<InstructionCompetition>,
}

/// Runs Alg. 6 on distribution vectors keyed by instruction pc and SM.
pub fn estimate(
    vectors: &BTreeMap<u64, BTreeMap<u32, Vec<u64>>>,
    active_sms: u32,
    total_sms: u32,
    t_competing_sm: f64,
    t_d2center: f64,
) -> CompetingStats {
    let max_distance = (total_sms.max(2) - 1) as f64 * std::f64::consts::SQRT_2;
    let mut instructions = Vec::new();
    let mut sum = 0.0;
    for (&pc, per_sm) in vectors {
        for (&sm, v) in per_sm {
            let Some(d2c) = distance_to_center(v) else {
                continue;
            };
            let mut competing = 0.0;
            for (&other, w) in per_sm {
                if other == sm {
                    continue;
                }
                if let Some(d) = distance_to_vector(v, w) {
                    competing += (1.0 - d / max_distance).clamp(0.0, 1.0);
                }
            }
            let counted = competing >= t_competing_sm || d2c >= t_d2center;
            if counted {
                sum += competing;
            }
            instructions.push(InstructionCompetition {
                pc,
                sm,
                distribution: v.clone(),
                d2center: d2c,
                competing,
                counted,
            });
        }
    }
    let mean = if instructions.is_empty() {
        0.0
    } else {
        sum / instructions.len() as f64
    };
    let max = active_sms.saturating_sub(1);
    CompetingStats {
        max,
        // Rounded up, never above the maximum (guards float noise).
        avg: (mean - 1e-9).ceil().max(0.0).min(max as f64) as u32,
        mean,
        active_sms,
        instructions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// §5.3.3.3 and Table 3: Distance2Center((2,0,3)) = 1.29, Distance2Vector with SM1's
    /// (2,0,2) = 0.42 and with SM2's (1,3,1) = 2.2 (the thesis truncates to 2 and 1 digits;
    /// exact values √1.68 = 1.296, √0.18 = 0.424, √5.04 = 2.245).
    #[test]
    fn section_5_3_3_3_distances() {
        let d = distance_to_center(&[2, 0, 3]).expect("non-zero");
        assert!((d - 1.68f64.sqrt()).abs() < 1e-12);
        assert!((d - 1.29).abs() < 0.01);
        let d1 = distance_to_vector(&[2, 0, 3], &[2, 0, 2]).expect("non-zero");
        assert!((d1 - 0.18f64.sqrt()).abs() < 1e-12);
        assert!((d1 - 0.42).abs() < 0.01);
        let d2 = distance_to_vector(&[2, 0, 3], &[1, 3, 1]).expect("non-zero");
        assert!((d2 - 5.04f64.sqrt()).abs() < 1e-12);
        assert!((d2 - 2.2).abs() < 0.05);
        // Identical distributions (up to scale) are at distance 0.
        assert_eq!(distance_to_vector(&[1, 2, 3], &[2, 4, 6]), Some(0.0));
        assert_eq!(distance_to_center(&[0, 0, 0]), None);
    }

    /// Table 3's three SMs running one instruction I0 with 3 SMs in total:
    /// MaxDistance = 2√2. For SM0: 1 − 0.424/2.828 + 1 − 2.245/2.828 = 1.056.
    #[test]
    fn table3_competing_sms() {
        let mut v = BTreeMap::new();
        let mut per = BTreeMap::new();
        per.insert(0, vec![2, 0, 3]);
        per.insert(1, vec![2, 0, 2]);
        per.insert(2, vec![1, 3, 1]);
        v.insert(64, per);
        let s = estimate(&v, 3, 3, 13.0, 0.5);
        assert_eq!(s.max, 2);
        let m = 2.0 * std::f64::consts::SQRT_2;
        let sm0 = 2.0 - 0.18f64.sqrt() / m - 5.04f64.sqrt() / m;
        assert!((s.instructions[0].competing - sm0).abs() < 1e-12);
        // All three are uneven (D2Center ≥ 0.5), so all count.
        assert!(s.instructions.iter().all(|i| i.counted));
        let mean = s.instructions.iter().map(|i| i.competing).sum::<f64>() / 3.0;
        assert!((s.mean - mean).abs() < 1e-12);
        assert_eq!(s.avg, 1);
        // An even distribution on few similar SMs does not count (D2Center 0 < 0.5 and
        // competing 1 < 13).
        let mut even = BTreeMap::new();
        even.insert(0, vec![1, 1, 1]);
        even.insert(1, vec![2, 2, 2]);
        let mut v2 = BTreeMap::new();
        v2.insert(8, even);
        let s2 = estimate(&v2, 2, 15, 13.0, 0.5);
        assert!(s2.instructions.iter().all(|i| !i.counted));
        assert_eq!((s2.avg, s2.max), (0, 1));
    }

    #[test]
    fn partition_mapping_interleaves() {
        assert_eq!(partition_of(0, 256, 12), 0);
        assert_eq!(partition_of(255, 256, 12), 0);
        assert_eq!(partition_of(256, 256, 12), 1);
        assert_eq!(partition_of(12 * 256, 256, 12), 0);
    }
}
