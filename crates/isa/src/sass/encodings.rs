//! Which encoding words of a listing belong to which instruction, and the control bits
//! ([`ControlBits`]) they carry.
//!
//! `cuobjdump` and `nvdisasm` print every 64-bit word of the code as a `/* 0x… */` comment, in
//! address order, but not always on the instruction's own line: from Volta on the second word
//! of each 128-bit instruction is on the next line, on Maxwell/Pascal the group control word
//! has a line of its own before its three instructions, and a dual-issue pair `{ … }` can push
//! an instruction's word to the line after it. So the words are kept in text order per
//! function, and instruction *i* owns the word that follows the `words_before[i]` words printed
//! before its line. That is checked against the addresses: word *k* must sit at
//! `base + 8k` for one `base` for the whole function, and every instruction must be where its
//! generation puts instructions (Volta and later: every 16 bytes, two words each;
//! Maxwell/Pascal: slots 1–3 of each 0x20-byte group, slot 0 the control word). A listing
//! whose words do not line up (hand-edited, or Fermi/Kepler, whose control words differ) gets
//! no control bits rather than wrong ones.

use super::isa_table::Family;
use crate::control_bits::ControlBits;

/// Where the control field lives.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// Two words per instruction, the field in bits 41–61 of the second.
    Volta,
    /// One control word per three instructions, 21 bits each.
    MaxwellPascal,
}

/// The control bits of each instruction (`addresses[i]`, owning the word after the first
/// `words_before[i]` of `words`), or `None` when the words do not line up with the addresses
/// under the layout of `family` (both layouts are tried when the family is unknown).
pub(crate) fn control_bits(
    addresses: &[u64],
    words_before: &[usize],
    words: &[u64],
    family: Option<Family>,
) -> Option<Vec<ControlBits>> {
    if words.is_empty() || addresses.is_empty() || addresses.len() != words_before.len() {
        return None;
    }
    let layouts: &[Layout] = match family {
        Some(Family::Fermi | Family::Kepler) => &[],
        Some(Family::MaxwellPascal) => &[Layout::MaxwellPascal],
        Some(_) => &[Layout::Volta],
        None => &[Layout::Volta, Layout::MaxwellPascal],
    };
    layouts
        .iter()
        .find_map(|&l| decode(l, addresses, words_before, words))
}

fn decode(
    layout: Layout,
    addresses: &[u64],
    words_before: &[usize],
    words: &[u64],
) -> Option<Vec<ControlBits>> {
    let base = addresses[0].checked_sub(8 * words_before[0] as u64)?;
    let mut out = Vec::with_capacity(addresses.len());
    for (&a, &k) in addresses.iter().zip(words_before) {
        let offset = a.checked_sub(base)?;
        if offset != 8 * k as u64 {
            return None;
        }
        let bits = match layout {
            Layout::Volta if offset % 16 == 0 => ControlBits::from_high_word(*words.get(k + 1)?),
            Layout::MaxwellPascal => {
                let slot = (offset % 0x20 / 8) as usize;
                let group = words.get(k.checked_sub(slot)?)?;
                ControlBits::from_group_word(*group, slot.checked_sub(1)?)?
            }
            Layout::Volta => return None,
        };
        out.push(bits);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn volta_pairs() {
        // Two instructions at 0x0 and 0x10; the high words carry 0x7e2 and 0x712 at bit 41.
        let words = [1, 0x7e2 << 41, 2, 0x712 << 41];
        let bits =
            control_bits(&[0, 0x10], &[0, 2], &words, Some(Family::AmpereAda)).expect("lined up");
        assert_eq!((bits[0].stall, bits[0].write_barrier), (2, None));
        assert_eq!((bits[1].stall, bits[1].write_barrier), (2, Some(0)));
        // The same words under the unknown family: found by trying the layouts.
        assert!(control_bits(&[0, 0x10], &[0, 2], &words, None).is_some());
        // A missing second word, or an address that does not match its word: none.
        assert!(control_bits(&[0, 0x10], &[0, 2], &words[..3], None).is_none());
        assert!(control_bits(&[0, 0x20], &[0, 2], &words, None).is_none());
    }

    #[test]
    fn maxwell_groups() {
        // Control word at 0x0 with slot 0 = 6 cycles, slot 1 = 1, slot 2 = 15; instructions
        // at 0x8, 0x10, 0x18, each after the words before it.
        let ctrl = 0x7e6 | 0x7e1 << 21 | 0x7ef << 42;
        let words = [ctrl, 10, 11, 12];
        let bits = control_bits(
            &[0x8, 0x10, 0x18],
            &[1, 2, 3],
            &words,
            Some(Family::MaxwellPascal),
        )
        .expect("lined up");
        let stalls: Vec<u8> = bits.iter().map(|b| b.stall).collect();
        assert_eq!(stalls, vec![6, 1, 15]);
        // An instruction in a control word's slot does not line up.
        assert!(control_bits(&[0x0], &[0], &words, Some(Family::MaxwellPascal)).is_none());
        // Kepler's control words are another format: never read.
        assert!(control_bits(&[0x8], &[1], &words, Some(Family::Kepler)).is_none());
    }
}
