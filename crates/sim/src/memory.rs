//! Global memory: named arrays placed at addresses, initialised from the request (issue #7
//! item 2), and returned after the run so a test can check what the kernel computed.
//!
//! Only the bytes of the declared arrays exist: an access outside every array stops the run
//! with a located error (a real GPU would fault), so a wrong address never goes unnoticed —
//! unless the memory is *open* ([`OpenMemory`], issue #37 item 1): then every address is
//! memory, an unwritten word outside the arrays reads a value derived from its address and a
//! seed, stores there create words, and each instruction that reached outside the arrays is
//! logged ([`OutsideAccess`]) so the user can see where real data would be needed. A run on
//! open memory is still an execution of the kernel on *some* input (the one those seeded
//! words make up), so every bound must hold for it.

/// How an array's 32-bit words are initialised.
#[derive(Debug, Clone, PartialEq)]
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
    /// Each word derived from its own address, as open memory reads an unwritten word
    /// ([`OpenMemory::word`]): an array so filled holds the same values whatever its extent,
    /// so an automatic launch can size its arrays after the run without running again.
    Hashed { seed: u64, below: u32 },
}

/// One named array of global memory.
#[derive(Debug, Clone, PartialEq)]
pub struct ArrayInit {
    pub name: String,
    /// Byte address of the first word (a multiple of 4).
    pub address: u64,
    /// Length in 32-bit words.
    pub words: u32,
    pub fill: Fill,
}

/// The initial contents of global memory.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MemoryInit {
    pub arrays: Vec<ArrayInit>,
    /// Memory beyond the arrays; `None`: an access outside every array is an error.
    pub open: Option<OpenMemory>,
}

impl MemoryInit {
    /// Exactly `arrays`, closed (an access outside them is an error).
    pub fn closed(arrays: Vec<ArrayInit>) -> Self {
        MemoryInit { arrays, open: None }
    }
}

/// Every address outside the arrays is memory too (the automatic launch's model of the data
/// a listing does not carry: halo reads below a pointer, pointers and indices loaded from
/// memory). A word nobody wrote reads `SplitMix64(seed ^ word_address)`'s high half modulo
/// `below` (when `below > 0`) — the same value every time it is read, in every run with that
/// seed; a store creates the word. A misaligned access (a pointer made of such words) is
/// served at the address rounded down to the access size, and logged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenMemory {
    pub seed: u64,
    pub below: u32,
}

impl OpenMemory {
    /// The value of the unwritten word at byte address `word_address` (a multiple of 4).
    pub fn word(&self, word_address: u64) -> u32 {
        let v = (SplitMix64::new(self.seed ^ word_address).next_u64() >> 32) as u32;
        if self.below > 0 {
            v % self.below
        } else {
            v
        }
    }
}

/// One instruction's accesses outside every array of open memory: where (its source line
/// and address — GCN3: its instruction index), the first address it reached there, the
/// range of them, and how many lane accesses did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutsideAccess {
    pub line: u32,
    pub instruction_address: u64,
    pub first_address: u64,
    /// Lowest address and end (one past the highest byte) of its accesses outside.
    pub lowest: u64,
    pub end: u64,
    pub bytes: u64,
    pub write: bool,
    /// Some of them were misaligned (and served at the aligned address).
    pub misaligned: bool,
    pub count: u64,
}

/// Most instructions [`OutsideAccess`] lists (the count of the rest is kept).
pub const MAX_OUTSIDE_SITES: usize = 64;

/// What a run did outside the arrays of open memory.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OutsideLog {
    /// Per instruction, in the order they first reached outside.
    pub sites: Vec<OutsideAccess>,
    /// Lane accesses outside the arrays in all (listed sites and the rest).
    pub total: u64,
    /// Words created outside the arrays by stores.
    pub created_words: u64,
    /// Their final values, by word address (ascending): a caller that widens the arrays
    /// after the run reads them from here.
    pub written: Vec<(u64, u32)>,
}

impl OutsideLog {
    /// No access reached outside the arrays.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }
}

/// An array after the run.
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// The simulated global memory: disjoint regions, searched by address, and with open memory
/// the words written outside them.
#[derive(Debug, Clone)]
pub struct GlobalMemory {
    regions: Vec<Region>,
    last: usize,
    open: Option<OpenMemory>,
    /// Open memory: words written outside the regions (word address → value).
    outside_words: crate::open_pages::OpenPages,
    /// Words the regions hold and `outside_words` may add up to.
    max_words: u64,
    held_words: u64,
    log: OutsideLog,
    /// The instruction now accessing memory: (source line, address), for the log.
    site: (u32, u64),
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
                Fill::Hashed { seed, below } => {
                    let open = OpenMemory {
                        seed: *seed,
                        below: *below,
                    };
                    (0..n as u64)
                        .map(|i| open.word(a.address + 4 * i))
                        .collect()
                }
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
        Ok(GlobalMemory {
            regions,
            last: 0,
            open: init.open,
            outside_words: Default::default(),
            max_words,
            held_words: total,
            log: OutsideLog::default(),
            site: (0, 0),
        })
    }

    /// Names the instruction whose accesses follow (its source line and address), for the
    /// log of accesses outside the arrays. Front ends call it before an instruction's
    /// memory accesses.
    #[inline]
    pub(crate) fn set_site(&mut self, line: u32, address: u64) {
        self.site = (line, address);
    }

    /// What the run did outside the arrays (empty unless the memory is open).
    pub fn outside(&self) -> &OutsideLog {
        &self.log
    }

    /// Open memory: logs one lane access outside the arrays at the current site.
    fn note_outside(&mut self, addr: u64, bytes: u64, write: bool, misaligned: bool) {
        let (line, instruction_address) = self.site;
        self.log.total += 1;
        if let Some(s) = self
            .log
            .sites
            .iter_mut()
            .rev()
            .find(|s| s.instruction_address == instruction_address && s.line == line)
        {
            s.count += 1;
            s.misaligned |= misaligned;
            s.write |= write;
            s.lowest = s.lowest.min(addr);
            s.end = s.end.max(addr.saturating_add(bytes));
            return;
        }
        if self.log.sites.len() < MAX_OUTSIDE_SITES {
            self.log.sites.push(OutsideAccess {
                line,
                instruction_address,
                first_address: addr,
                lowest: addr,
                end: addr.saturating_add(bytes),
                bytes,
                write,
                misaligned,
                count: 1,
            });
        }
    }

    /// Open memory: the word at `word_address`, wherever it is.
    fn open_word(&mut self, open: OpenMemory, word_address: u64) -> u32 {
        if let Some((r, w)) = self.locate(word_address, 4) {
            return self.regions[r].data[w];
        }
        self.outside_words
            .get(word_address)
            .unwrap_or_else(|| open.word(word_address))
    }

    /// Open memory: writes the word at `word_address` (creating it outside the regions).
    fn set_open_word(&mut self, word_address: u64, value: u32) -> Result<(), String> {
        if let Some((r, w)) = self.locate(word_address, 4) {
            self.regions[r].data[w] = value;
            return Ok(());
        }
        if self.outside_words.overwrite(word_address, value) {
            return Ok(());
        }
        if self.held_words >= self.max_words {
            return Err(format!(
                "stores outside the arrays created more words than the budget max_memory_words = {} allows (raise max_memory_words)",
                self.max_words
            ));
        }
        self.held_words += 1;
        self.log.created_words += 1;
        self.outside_words.create(word_address, value);
        Ok(())
    }

    /// The slow path of an access with open memory: word by word, any address.
    fn read_open(&mut self, open: OpenMemory, addr: u64, bytes: u64, out: &mut [u32]) {
        let aligned = addr & !(bytes.max(1) - 1);
        let inside = self.locate(aligned, bytes).is_some();
        if !inside || aligned != addr {
            self.note_outside(addr, bytes, false, aligned != addr);
        }
        let word = aligned & !3;
        if bytes < 4 {
            let shift = (aligned % 4) * 8;
            let mask = if bytes == 1 { 0xff } else { 0xffff };
            out[0] = (self.open_word(open, word) >> shift) & mask;
        } else {
            for (k, o) in out.iter_mut().take((bytes / 4) as usize).enumerate() {
                *o = self.open_word(open, word.wrapping_add(4 * k as u64));
            }
        }
    }

    fn write_open(&mut self, addr: u64, bytes: u64, values: &[u32]) -> Result<(), String> {
        let aligned = addr & !(bytes.max(1) - 1);
        let inside = self.locate(aligned, bytes).is_some();
        if !inside || aligned != addr {
            self.note_outside(addr, bytes, true, aligned != addr);
        }
        let word = aligned & !3;
        if bytes < 4 {
            let shift = (aligned % 4) * 8;
            let mask: u32 = if bytes == 1 { 0xff } else { 0xffff };
            let open = self.open.unwrap_or(OpenMemory { seed: 0, below: 0 });
            let old = self.open_word(open, word);
            self.set_open_word(
                word,
                (old & !(mask << shift)) | ((values[0] & mask) << shift),
            )
        } else {
            for (k, v) in values.iter().take((bytes / 4) as usize).enumerate() {
                self.set_open_word(word.wrapping_add(4 * k as u64), *v)?;
            }
            Ok(())
        }
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
        let hit = if addr & (bytes.max(1) - 1) == 0 {
            self.locate(addr, bytes)
        } else {
            None
        };
        let Some((r, w)) = hit else {
            if let Some(open) = self.open {
                self.read_open(open, addr, bytes, out);
                return Ok(());
            }
            check_alignment(addr, bytes)?;
            return Err(outside(addr, bytes));
        };
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
        let hit = if addr & (bytes.max(1) - 1) == 0 {
            self.locate(addr, bytes)
        } else {
            None
        };
        let Some((r, w)) = hit else {
            if self.open.is_some() {
                return self.write_open(addr, bytes, values);
            }
            check_alignment(addr, bytes)?;
            return Err(outside(addr, bytes));
        };
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

    /// The arrays in request order, and what the run did outside them.
    pub fn finish(self) -> (Vec<FinalArray>, OutsideLog) {
        let arrays = self
            .regions
            .into_iter()
            .map(|r| FinalArray {
                name: r.name,
                address: r.start,
                words: r.data,
            })
            .collect();
        let mut log = self.log;
        log.written = self.outside_words.into_sorted();
        (arrays, log)
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
    isa::number::parse_digits(hex, 16)
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
            open: None,
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
        let (out, _) = m.finish();
        assert_eq!(out[1].words, vec![0xab07, 0]);
        assert!(GlobalMemory::new(&init, 5).is_err_and(|e| e.contains("max_memory_words")));
    }

    /// Open memory: outside the array an unwritten word reads its hashed value (the same
    /// twice), a store creates the word (and counts against the budget), a misaligned access
    /// is served at the aligned address, and every access is logged per instruction with
    /// its address range.
    #[test]
    fn open_memory_reads_hashed_words_and_logs_where() {
        let open = OpenMemory { seed: 7, below: 64 };
        let init = MemoryInit {
            arrays: vec![ArrayInit {
                name: "a".into(),
                address: 0x100,
                words: 2,
                fill: Fill::Constant { value: 5 },
            }],
            open: Some(open),
        };
        let mut m = GlobalMemory::new(&init, 4).unwrap_or_else(|e| panic!("{e}"));
        let mut w = [0u32; 4];
        m.set_site(3, 0x40);
        assert!(m.read(0x100, 4, &mut w).is_ok());
        assert_eq!(w[0], 5);
        assert!(m.outside().is_empty());
        assert!(m.read(0x2000, 4, &mut w).is_ok());
        let v = w[0];
        assert_eq!(v, open.word(0x2000));
        assert!(v < 64);
        assert!(m.read(0x2000, 4, &mut w).is_ok());
        assert_eq!(w[0], v);
        // Half inside, half outside: word by word.
        assert!(m.read(0x108, 8, &mut w).is_ok());
        assert_eq!(w[..2], [open.word(0x108), open.word(0x10c)]);
        m.set_site(4, 0x50);
        assert!(m.write(0x3000, 4, &[99]).is_ok());
        assert!(m.write(0x3001, 1, &[0xab]).is_ok());
        assert!(m.read(0x3000, 4, &mut w).is_ok());
        assert_eq!(w[0], 99 | 0xab00);
        // Misaligned: served at 0x3000.
        assert!(m.read(0x3002, 4, &mut w).is_ok());
        assert_eq!(w[0], 99 | 0xab00);
        // Two words held by the array, one created: a second new word is over the budget 4.
        assert!(m.write(0x3004, 4, &[1]).is_ok());
        assert!(m
            .write(0x3008, 4, &[1])
            .is_err_and(|e| e.contains("max_memory_words")));
        let log = m.outside();
        assert_eq!(log.created_words, 2);
        assert_eq!(log.sites.len(), 2);
        let s = &log.sites[0];
        assert_eq!((s.line, s.instruction_address, s.count), (3, 0x40, 3));
        assert_eq!(
            (s.lowest, s.end, s.write, s.misaligned),
            (0x108, 0x2004, false, false)
        );
        let s = &log.sites[1];
        assert_eq!((s.first_address, s.lowest, s.end), (0x3000, 0x3000, 0x300c));
        assert!(s.write && s.misaligned);
        assert_eq!(log.total, 3 + 6);
    }

    /// A closed memory still stops at the first access outside its arrays.
    #[test]
    fn closed_memory_still_faults() {
        let init = MemoryInit::closed(vec![]);
        let mut m = GlobalMemory::new(&init, 4).unwrap_or_else(|e| panic!("{e}"));
        let mut w = [0u32; 4];
        assert!(m
            .read(0x2000, 4, &mut w)
            .is_err_and(|e| outside_address(&e) == Some(0x2000)));
        assert!(m
            .read(0x2002, 4, &mut w)
            .is_err_and(|e| e.contains("misaligned")));
    }
}
