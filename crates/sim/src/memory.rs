//! Global memory: named arrays placed at addresses, initialised from the request (issue #7
//! item 2), and returned after the run so a test can check what the kernel computed.
//!
//! Only the bytes of the declared arrays exist: an access outside every array stops the run
//! with a located error (a real GPU would fault), so a wrong address never goes unnoticed.

use serde::{Deserialize, Serialize};

/// How an array's 32-bit words are initialised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Fill {
    /// Explicit words; the array is zero-padded (or the list cut) to its length.
    Words { values: Vec<u32> },
    /// Explicit single-precision floats (stored as their IEEE-754 bits).
    Floats { values: Vec<f32> },
    /// Every word the same.
    Constant { value: u32 },
    /// `start, start + step, start + 2·step, ...` (wrapping).
    Iota { start: u32, step: u32 },
    /// SplitMix64 from `seed`; each word is the high half of a draw, reduced modulo `below`
    /// when `below > 0`.
    Random { seed: u64, below: u32 },
}

/// One named array of global memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArrayInit {
    pub name: String,
    /// Byte address of the first word (a multiple of 4).
    pub address: u64,
    /// Length in 32-bit words.
    pub words: u32,
    pub fill: Fill,
}

/// The initial contents of global memory.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct MemoryInit {
    pub arrays: Vec<ArrayInit>,
}

/// An array after the run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalArray {
    pub name: String,
    pub address: u64,
    pub words: Vec<u32>,
}

/// SplitMix64 (Steele, Lea, Flood, *Fast splittable pseudorandom number generators*,
/// OOPSLA 2014): a 64-bit counter advanced by the golden-ratio increment, then mixed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[derive(Debug, Clone)]
struct Region {
    name: String,
    start: u64,
    end: u64,
    data: Vec<u32>,
}

/// The simulated global memory: disjoint regions, searched by address.
#[derive(Debug, Clone)]
pub struct GlobalMemory {
    regions: Vec<Region>,
    last: usize,
}

impl GlobalMemory {
    /// Builds the arrays. Errors name the offending array (misaligned, overlapping, or more
    /// words in all than `max_words`, the budget `max_memory_words`).
    pub fn new(init: &MemoryInit, max_words: u64) -> Result<Self, String> {
        let total: u64 = init.arrays.iter().map(|a| u64::from(a.words)).sum();
        if total > max_words {
            return Err(format!(
                "the arrays hold {total} words, over the budget max_memory_words = {max_words} (raise max_memory_words)"
            ));
        }
        let mut regions: Vec<Region> = Vec::with_capacity(init.arrays.len());
        for a in &init.arrays {
            if a.address % 4 != 0 {
                return Err(format!(
                    "array `{}` starts at {:#x}, which is not a multiple of 4",
                    a.name, a.address
                ));
            }
            let end = a
                .address
                .checked_add(u64::from(a.words) * 4)
                .ok_or_else(|| format!("array `{}` ends beyond the address space", a.name))?;
            let n = a.words as usize;
            let data: Vec<u32> = match &a.fill {
                Fill::Words { values } => (0..n)
                    .map(|i| values.get(i).copied().unwrap_or(0))
                    .collect(),
                Fill::Floats { values } => (0..n)
                    .map(|i| values.get(i).map_or(0, |f| f.to_bits()))
                    .collect(),
                Fill::Constant { value } => vec![*value; n],
                Fill::Iota { start, step } => (0..n as u32)
                    .map(|i| start.wrapping_add(step.wrapping_mul(i)))
                    .collect(),
                Fill::Random { seed, below } => {
                    let mut rng = SplitMix64::new(*seed);
                    (0..n)
                        .map(|_| {
                            let v = (rng.next_u64() >> 32) as u32;
                            if *below > 0 {
                                v % below
                            } else {
                                v
                            }
                        })
                        .collect()
                }
            };
            regions.push(Region {
                name: a.name.clone(),
                start: a.address,
                end,
                data,
            });
        }
        let mut order: Vec<usize> = (0..regions.len()).collect();
        order.sort_by_key(|&i| regions[i].start);
        for w in order.windows(2) {
            let (a, b) = (&regions[w[0]], &regions[w[1]]);
            if a.end > b.start && a.start < a.end && b.start < b.end {
                return Err(format!("arrays `{}` and `{}` overlap", a.name, b.name));
            }
        }
        Ok(GlobalMemory { regions, last: 0 })
    }

    fn locate(&mut self, addr: u64, bytes: u64) -> Option<(usize, usize)> {
        let end = addr.checked_add(bytes)?;
        let hit = |r: &Region| r.start <= addr && end <= r.end;
        let idx = if self.regions.get(self.last).is_some_and(hit) {
            self.last
        } else {
            let i = self.regions.iter().position(hit)?;
            self.last = i;
            i
        };
        Some((idx, ((addr - self.regions[idx].start) / 4) as usize))
    }

    /// Reads `bytes` (1, 2, 4, 8 or 16, naturally aligned) at `addr` into `out` words (the
    /// low bytes of `out[0]` for sub-word sizes, zero-extended).
    pub fn read(&mut self, addr: u64, bytes: u64, out: &mut [u32]) -> Result<(), String> {
        check_alignment(addr, bytes)?;
        let (r, w) = self
            .locate(addr, bytes)
            .ok_or_else(|| outside(addr, bytes))?;
        let data = &self.regions[r].data;
        if bytes < 4 {
            let shift = (addr % 4) * 8;
            let mask = if bytes == 1 { 0xff } else { 0xffff };
            out[0] = (data[w] >> shift) & mask;
        } else {
            let n = (bytes / 4) as usize;
            out[..n].copy_from_slice(&data[w..w + n]);
        }
        Ok(())
    }

    /// Writes `bytes` at `addr` from `values` (see [`GlobalMemory::read`]).
    pub fn write(&mut self, addr: u64, bytes: u64, values: &[u32]) -> Result<(), String> {
        check_alignment(addr, bytes)?;
        let (r, w) = self
            .locate(addr, bytes)
            .ok_or_else(|| outside(addr, bytes))?;
        let data = &mut self.regions[r].data;
        if bytes < 4 {
            let shift = (addr % 4) * 8;
            let mask: u32 = if bytes == 1 { 0xff } else { 0xffff };
            data[w] = (data[w] & !(mask << shift)) | ((values[0] & mask) << shift);
        } else {
            let n = (bytes / 4) as usize;
            data[w..w + n].copy_from_slice(&values[..n]);
        }
        Ok(())
    }

    /// The words of the one array holding every byte of `addrs`' accesses of `bytes` bytes,
    /// with the array's start address: the fast path of a warp's access, which then indexes
    /// the words directly instead of searching per lane. `None` when the accesses are
    /// misaligned or not all inside one array (the per-lane path reports which).
    pub(crate) fn window(
        &mut self,
        addrs: &[(usize, u64)],
        bytes: u64,
    ) -> Option<(u64, &mut [u32])> {
        let (lo, end) = span_of(addrs, bytes)?;
        let (r, _) = self.locate(lo, end - lo)?;
        let region = &mut self.regions[r];
        Some((region.start, &mut region.data))
    }

    /// The arrays in request order.
    pub fn finish(self) -> Vec<FinalArray> {
        self.regions
            .into_iter()
            .map(|r| FinalArray {
                name: r.name,
                address: r.start,
                words: r.data,
            })
            .collect()
    }
}

/// The lowest address and the end of the highest access of `bytes` bytes at `addrs`, when
/// every address is aligned to `bytes` (a power of two) and there is at least one.
pub(crate) fn span_of(addrs: &[(usize, u64)], bytes: u64) -> Option<(u64, u64)> {
    let mask = bytes.max(1) - 1;
    let (mut lo, mut hi, mut bits) = (u64::MAX, 0u64, 0u64);
    for &(_, a) in addrs {
        lo = lo.min(a);
        hi = hi.max(a);
        bits |= a;
    }
    if addrs.is_empty() || bits & mask != 0 {
        return None;
    }
    Some((lo, hi.checked_add(bytes)?))
}

#[inline]
pub(crate) fn check_alignment(addr: u64, bytes: u64) -> Result<(), String> {
    // Sizes are powers of two (1, 2, 4, 8, 16).
    if addr & (bytes.max(1) - 1) != 0 {
        return Err(format!(
            "misaligned {bytes}-byte access at address {addr:#x}"
        ));
    }
    Ok(())
}

fn outside(addr: u64, bytes: u64) -> String {
    format!("{bytes}-byte access at address {addr:#x} {OUTSIDE}")
}

const OUTSIDE: &str = "is outside every array of the request";

/// The address of the access a run stopped at because it was outside every array, read back
/// from the error's message (the one this module writes); `None` for any other message. An
/// automatic launch grows its buffers by it.
pub fn outside_address(message: &str) -> Option<u64> {
    let rest = message.strip_suffix(OUTSIDE)?.trim_end();
    let hex = rest.rsplit(' ').next()?.strip_prefix("0x")?;
    u64::from_str_radix(hex, 16).ok()
}

/// One block's shared memory: `shared_bytes` zero-initialised bytes from address 0.
#[derive(Debug, Clone)]
pub struct SharedMemory {
    pub(crate) words: Vec<u32>,
}

impl SharedMemory {
    pub fn new(bytes: u32) -> Self {
        SharedMemory {
            words: vec![0; bytes.div_ceil(4) as usize],
        }
    }

    /// As [`GlobalMemory::window`], for the block's shared memory (which starts at 0).
    pub(crate) fn window(
        &mut self,
        addrs: &[(usize, u64)],
        bytes: u64,
    ) -> Option<(u64, &mut [u32])> {
        let (_, end) = span_of(addrs, bytes)?;
        (end <= self.words.len() as u64 * 4).then_some((0, &mut self.words[..]))
    }

    pub fn read(&self, addr: u64, bytes: u64, out: &mut [u32]) -> Result<(), String> {
        check_alignment(addr, bytes)?;
        let w = (addr / 4) as usize;
        let n = (bytes / 4).max(1) as usize;
        let slice = self.words.get(w..w + n).ok_or_else(|| {
            format!(
                "shared-memory access at {addr:#x} is beyond the block's {} bytes (raise shared_bytes in the launch)",
                self.words.len() * 4
            )
        })?;
        if bytes < 4 {
            let shift = (addr % 4) * 8;
            let mask = if bytes == 1 { 0xff } else { 0xffff };
            out[0] = (slice[0] >> shift) & mask;
        } else {
            out[..n].copy_from_slice(slice);
        }
        Ok(())
    }

    pub fn write(&mut self, addr: u64, bytes: u64, values: &[u32]) -> Result<(), String> {
        check_alignment(addr, bytes)?;
        let w = (addr / 4) as usize;
        let n = (bytes / 4).max(1) as usize;
        let len = self.words.len();
        let slice = self.words.get_mut(w..w + n).ok_or_else(|| {
            format!(
                "shared-memory access at {addr:#x} is beyond the block's {} bytes (raise shared_bytes in the launch)",
                len * 4
            )
        })?;
        if bytes < 4 {
            let shift = (addr % 4) * 8;
            let mask: u32 = if bytes == 1 { 0xff } else { 0xffff };
            slice[0] = (slice[0] & !(mask << shift)) | ((values[0] & mask) << shift);
        } else {
            slice.copy_from_slice(&values[..n]);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_access_outside_reads_back_its_address() {
        assert_eq!(outside_address(&outside(0x10_2000, 4)), Some(0x10_2000));
        assert_eq!(
            outside_address("misaligned 4-byte access at address 0x3"),
            None
        );
    }

    #[test]
    fn splitmix64_reference_values() {
        // First outputs of SplitMix64 seeded with 0, as published with the algorithm
        // (Vigna's reference implementation splitmix64.c).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn fills_and_bounds() {
        let init = MemoryInit {
            arrays: vec![
                ArrayInit {
                    name: "a".into(),
                    address: 0x100,
                    words: 4,
                    fill: Fill::Iota { start: 3, step: 2 },
                },
                ArrayInit {
                    name: "b".into(),
                    address: 0x200,
                    words: 2,
                    fill: Fill::Words { values: vec![7] },
                },
            ],
        };
        let mut m = GlobalMemory::new(&init, 100).unwrap_or_else(|e| panic!("{e}"));
        let mut w = [0u32; 4];
        // Iota 3, 5, 7, 9: the 8-byte word at 0x108 is (7, 9).
        assert!(m.read(0x108, 8, &mut w).is_ok());
        assert_eq!(&w[..2], &[7, 9]);
        assert!(m
            .read(0x104, 8, &mut w)
            .is_err_and(|e| e.contains("misaligned")));
        assert!(m
            .read(0x110, 4, &mut w)
            .is_err_and(|e| e.contains("outside")));
        assert!(m
            .read(0x102, 4, &mut w)
            .is_err_and(|e| e.contains("misaligned")));
        assert!(m.write(0x201, 1, &[0xab]).is_ok());
        let out = m.finish();
        assert_eq!(out[1].words, vec![0xab07, 0]);
        assert!(GlobalMemory::new(&init, 5).is_err_and(|e| e.contains("max_memory_words")));
    }
}
