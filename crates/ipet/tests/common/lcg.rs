//! The tiny deterministic generator of `branch_and_bound.rs` and `cross_check.rs`, each
//! including this file by path.

/// Tiny deterministic generator (64-bit LCG, high bits).
pub struct Lcg(pub u64);

impl Lcg {
    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}
