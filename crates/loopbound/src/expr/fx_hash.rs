//! The store's hasher: its maps are looked up, never iterated, so a fast hash that is not
//! resistant to collisions chosen by an adversary is enough (and the results never depend
//! on it).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A fast, deterministic hasher for the store's interning maps (keys are small integers
/// and vectors of them; nothing iterates these maps, so the order they keep never shows):
/// the multiply-and-rotate step of Firefox's and rustc's "Fx" hash.
#[derive(Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, i: u64) {
        self.hash = (self.hash.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }

    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

/// A `HashMap` with [`FxHasher`].
pub type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

pub(super) fn fx_hash(x: &impl std::hash::Hash) -> u64 {
    let mut h = FxHasher::default();
    x.hash(&mut h);
    h.finish()
}
