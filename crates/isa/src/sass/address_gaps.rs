//! Gaps between instruction addresses.
//!
//! `cuobjdump` sometimes prints an instruction word without a mnemonic — only its encoding —
//! when it cannot disassemble it (sm_90 listings of CUDA 11.8 have such words). The parser
//! cannot know what the word does, so the analyses treat the code as contiguous; a warning
//! at the instruction after the gap says how much is missing.
//!
//! Consecutive instructions are expected one instruction size apart: 16 bytes from Volta on,
//! 8 bytes before, where Kepler (every 0x40 bytes) and Maxwell/Pascal (every 0x20 bytes) also
//! keep a 64-bit scheduling control word that has no address comment of its own. When the
//! architecture is unknown, the size is 16 bytes if every address is a multiple of 16 and 8
//! bytes otherwise, and a control word may sit at any multiple of 0x20.

use super::isa_table::Family;
use crate::diagnostic::Diagnostic;
use crate::instruction::Instruction;

/// Instruction size in bytes and the period of control-word slots (0: none).
fn layout(family: Option<Family>, addresses: &[u64]) -> (u64, u64) {
    match family {
        Some(Family::Fermi) => (8, 0),
        Some(Family::Kepler) => (8, 0x40),
        Some(Family::MaxwellPascal) => (8, 0x20),
        Some(f) => (f.instruction_bytes(), 0),
        None if addresses.len() > 1 && addresses.iter().all(|a| a % 16 == 0) => (16, 0),
        None => (8, 0x20),
    }
}

/// Number of multiples of `period` in `from..to`.
fn multiples_in(from: u64, to: u64, period: u64) -> u64 {
    if period == 0 || to <= from {
        return 0;
    }
    ((to - 1) / period + 1).saturating_sub(from.div_ceil(period))
}

/// Warns at every instruction that follows a gap. `explicit[i]` says whether instruction `i`
/// had an address comment; gaps are only looked for between two that did.
pub(crate) fn check(
    instrs: &[&Instruction],
    explicit: &[bool],
    family: Option<Family>,
    out: &mut Vec<Diagnostic>,
) {
    let addresses: Vec<u64> = instrs
        .iter()
        .zip(explicit)
        .filter(|(_, e)| **e)
        .map(|(i, _)| i.address)
        .collect();
    let (size, period) = layout(family, &addresses);
    for (k, pair) in instrs.windows(2).enumerate() {
        if !(explicit[k] && explicit[k + 1]) {
            continue;
        }
        let (a, b) = (pair[0].address, pair[1].address);
        let mut expected = a.saturating_add(size);
        if period != 0 && expected % period == 0 {
            expected = expected.saturating_add(size); // the control word's slot
        }
        if b <= expected {
            continue;
        }
        let bytes = b - expected;
        let words = (bytes / size).saturating_sub(multiples_in(expected, b, period));
        let what = if words == 1 {
            "1 instruction word".to_string()
        } else {
            format!("{words} instruction words")
        };
        out.push(Diagnostic::warning(
            pair[1].span,
            format!(
                "{bytes} bytes ({what}) missing between {a:#06x} and {b:#06x}: the listing has \
                 no instruction there (an encoding the disassembler did not print?); the \
                 analysis treats the code as contiguous"
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_in_a_range() {
        assert_eq!(multiples_in(0x28, 0x48, 0x20), 1);
        assert_eq!(multiples_in(0x20, 0x40, 0x20), 1);
        assert_eq!(multiples_in(0x21, 0x40, 0x20), 0);
        assert_eq!(multiples_in(0x8, 0x8, 0x20), 0);
        assert_eq!(multiples_in(0x8, 0x100, 0), 0);
    }

    #[test]
    fn layouts() {
        assert_eq!(layout(Some(Family::Hopper), &[]), (16, 0));
        assert_eq!(layout(Some(Family::Kepler), &[]), (8, 0x40));
        assert_eq!(layout(None, &[0, 0x10, 0x20]), (16, 0));
        assert_eq!(layout(None, &[0, 0x8]), (8, 0x20));
    }
}
