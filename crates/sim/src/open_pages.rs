//! The words open memory's stores create outside the arrays, kept in 4 KiB pages.
//!
//! Why pages: a kernel that scatters into memory the automatic launch did not give it (a
//! histogram whose bins come from loaded data) writes and rereads the same few pages
//! hundreds of thousands of times. One hash-map entry per word made every access a SipHash
//! and a probe (Parboil `histo_final`'s block runs spent 55 % of their time there); a page
//! found once and remembered makes the next access an index. Pages are found by a
//! multiplicative hash, deterministic (no random state), and listed in address order at the
//! end, so a run's report does not depend on the map.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Words per page (4 KiB).
const PAGE_WORDS: usize = 1024;

/// One page: the values and which of them a store created.
#[derive(Clone)]
struct Page {
    values: Box<[u32; PAGE_WORDS]>,
    written: [u64; PAGE_WORDS / 64],
}

/// The created words, by page.
#[derive(Default, Clone)]
pub(crate) struct OpenPages {
    index: HashMap<u64, usize, BuildHasherDefault<PageHasher>>,
    pages: Vec<(u64, Page)>,
    /// The page last used: (page number, index into `pages`).
    last: Option<(u64, usize)>,
}

fn split(word_address: u64) -> (u64, usize) {
    (
        word_address >> 12,
        ((word_address >> 2) as usize) % PAGE_WORDS,
    )
}

impl OpenPages {
    fn page(&mut self, number: u64) -> Option<usize> {
        if let Some((n, i)) = self.last {
            if n == number {
                return Some(i);
            }
        }
        let i = *self.index.get(&number)?;
        self.last = Some((number, i));
        Some(i)
    }

    /// The word a store created at `word_address` (a multiple of 4), if one did.
    pub(crate) fn get(&mut self, word_address: u64) -> Option<u32> {
        let (number, w) = split(word_address);
        let i = self.page(number)?;
        let p = &self.pages[i].1;
        (p.written[w / 64] >> (w % 64) & 1 == 1).then(|| p.values[w])
    }

    /// Stores `value` at `word_address` if a store created that word before; whether it did.
    pub(crate) fn overwrite(&mut self, word_address: u64, value: u32) -> bool {
        let (number, w) = split(word_address);
        let Some(i) = self.page(number) else {
            return false;
        };
        let p = &mut self.pages[i].1;
        if p.written[w / 64] >> (w % 64) & 1 == 0 {
            return false;
        }
        p.values[w] = value;
        true
    }

    /// Creates the word at `word_address` with `value` (the caller checked it is new and
    /// within the memory budget).
    pub(crate) fn create(&mut self, word_address: u64, value: u32) {
        let (number, w) = split(word_address);
        let i = match self.page(number) {
            Some(i) => i,
            None => {
                let i = self.pages.len();
                self.pages.push((
                    number,
                    Page {
                        values: Box::new([0; PAGE_WORDS]),
                        written: [0; PAGE_WORDS / 64],
                    },
                ));
                self.index.insert(number, i);
                self.last = Some((number, i));
                i
            }
        };
        let p = &mut self.pages[i].1;
        p.written[w / 64] |= 1 << (w % 64);
        p.values[w] = value;
    }

    /// Every created word with its address, in address order.
    pub(crate) fn into_sorted(mut self) -> Vec<(u64, u32)> {
        self.pages.sort_unstable_by_key(|p| p.0);
        let mut out = Vec::new();
        for (number, p) in &self.pages {
            for w in 0..PAGE_WORDS {
                if p.written[w / 64] >> (w % 64) & 1 == 1 {
                    out.push(((number << 12) | (w as u64) << 2, p.values[w]));
                }
            }
        }
        out
    }
}

impl std::fmt::Debug for OpenPages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "OpenPages({} pages)", self.pages.len())
    }
}

/// A multiplicative hash of a page number: deterministic and one multiply.
#[derive(Default, Clone)]
pub(crate) struct PageHasher(u64);

impl Hasher for PageHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn created_words_read_back_and_list_in_address_order() {
        let mut p = OpenPages::default();
        assert_eq!(p.get(0x1000), None);
        assert!(!p.overwrite(0x1000, 1));
        p.create(0x2_0004, 7);
        p.create(0x1000, 5);
        p.create(0x1ffc, 9); // last word of the page 0x1000..0x2000
        assert_eq!(p.get(0x1000), Some(5));
        assert_eq!(p.get(0x1004), None, "same page, not created");
        assert!(p.overwrite(0x1000, 6));
        assert_eq!(p.get(0x1000), Some(6));
        assert_eq!(p.get(0x2_0004), Some(7));
        assert_eq!(
            p.into_sorted(),
            vec![(0x1000, 6), (0x1ffc, 9), (0x2_0004, 7)]
        );
    }
}
