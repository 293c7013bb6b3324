//! The scheduling control bits of a Maxwell-to-Hopper SASS instruction: stall count, yield
//! hint, dependency (scoreboard) barriers and operand-reuse flags.
//!
//! What this is: the decoded 21-bit control field, the same six fields on every generation
//! from Maxwell (sm_50) to Hopper (sm_90), read from the encoding a listing prints or from a
//! CuAssembler control code. What it is not: a timing model — no analysis reads these bits
//! yet; they are kept so that reports can show them and a later cost model can use them.
//!
//! # Layout of the 21-bit field (least significant bit first)
//!
//! | bits  | width | field                                                        |
//! |-------|-------|--------------------------------------------------------------|
//! | 0–3   | 4     | stall cycles before the next instruction issues              |
//! | 4     | 1     | yield bit (inverted: clear = the scheduler may switch warps) |
//! | 5–7   | 3     | write-barrier index (7 = none)                               |
//! | 8–10  | 3     | read-barrier index (7 = none)                                |
//! | 11–16 | 6     | wait-barrier mask (bit *b*: wait for barrier *b*)            |
//! | 17–20 | 4     | reuse flags (bit *k*: keep source operand slot *k* cached)   |
//!
//! Where the field sits:
//! - **Volta and later** (sm_70–sm_90): every instruction is 128 bits; the field is bits
//!   105–125, i.e. bits 41–61 of the second 64-bit word `cuobjdump` prints (Jia, Maggioni,
//!   Staiger, Scarpazza, *Dissecting the NVIDIA Volta GPU Architecture via
//!   Microbenchmarking*, arXiv:1804.06826, 2018, ch. 2 on the instruction encoding: the
//!   control information of each 128-bit word is one 21-bit section, widths 4, 6, 3, 3, 1, 4
//!   from the most significant end — reuse, wait mask, read barrier, write barrier, yield,
//!   stall; turingas `tools/disasm.py` `parseCtrl` reads the same fields at `enc >> 41`,
//!   `>> 45`, `>> 46`, `>> 49`, `>> 52` of the second word).
//! - **Maxwell and Pascal** (sm_50–sm_62): one 64-bit control word precedes each group of three
//!   instructions (at every multiple of 0x20 bytes); instruction *k* of the group (0, 1, 2) has
//!   bits `21k .. 21k+20` of it (maxas wiki, "Control Codes"; CuAssembler `CuAsm/common.py`
//!   `decodeCtrlCodes`, which decodes the 21-bit field with the masks of the table above and
//!   cites maxas and Jia et al. 2019 (arXiv:1903.07486) for it).
//!
//! The yield bit is stored inverted: CuAssembler (`c_yield = int(s_yield != 'Y')`) and
//! turingas (`'Y' if yld == 0`) both print the yield hint `Y` when the bit is *clear*, and
//! ptxas's ubiquitous "no hint" code `0x7e0 | stall` has it set. [`ControlBits::yield_hint`]
//! is the hint as those tools print it.
//!
//! Checked against the corpus by hand (tests in `crates/isa/tests/sass_control_bits.rs`): a
//! variable-latency instruction's write barrier is the barrier its consumer's wait mask
//! names, and a reuse flag is set exactly where the listing prints `.reuse`.

/// The decoded control field of one instruction (module doc for the layout and sources).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ControlBits {
    /// Cycles the warp waits before issuing its next instruction (0–15).
    pub stall: u8,
    /// The yield hint as CuAssembler and turingas print it (`Y`): the raw bit is clear.
    pub yield_hint: bool,
    /// Scoreboard barrier (0–5) this instruction sets until its result is written.
    pub write_barrier: Option<u8>,
    /// Scoreboard barrier (0–5) this instruction sets until its source registers are read.
    pub read_barrier: Option<u8>,
    /// Barriers (bit *b* for barrier *b*) that must be clear before this instruction issues.
    pub wait_mask: u8,
    /// Operand-reuse cache flags (bit *k* for source operand slot *k*).
    pub reuse: u8,
}

impl ControlBits {
    /// Decodes a 21-bit control field (the higher bits of `field` are ignored).
    pub fn from_field(field: u32) -> ControlBits {
        let barrier = |v: u32| (v != 7).then_some(v as u8);
        ControlBits {
            stall: (field & 0xf) as u8,
            yield_hint: (field >> 4) & 1 == 0,
            write_barrier: barrier((field >> 5) & 7),
            read_barrier: barrier((field >> 8) & 7),
            wait_mask: ((field >> 11) & 0x3f) as u8,
            reuse: ((field >> 17) & 0xf) as u8,
        }
    }

    /// The field of a Volta-and-later instruction from the second (high) 64-bit word of its
    /// encoding: bits 105–125 of the 128-bit instruction.
    pub fn from_high_word(high: u64) -> ControlBits {
        ControlBits::from_field(((high >> 41) & 0x1f_ffff) as u32)
    }

    /// The field of instruction `slot` (0, 1 or 2) of a Maxwell/Pascal group from the group's
    /// 64-bit control word; `None` for another slot.
    pub fn from_group_word(word: u64, slot: usize) -> Option<ControlBits> {
        (slot < 3).then(|| ControlBits::from_field(((word >> (21 * slot)) & 0x1f_ffff) as u32))
    }

    /// Reads a CuAssembler control code: `[B------:R-:W-:-:S06]`, optionally with the reuse
    /// flags first (`[R---:B0----5:R0:W5:Y:S05]`, CuAssembler's older form, slot 0 leftmost).
    /// Fields: wait mask (`B` and a digit or `-` for barriers 0–5), read barrier, write barrier,
    /// yield (`Y` or `-`), stall (`S` and two digits). `None` when the text is not one.
    pub fn from_cuasm(code: &str) -> Option<ControlBits> {
        let inner = code.trim().strip_prefix('[')?.strip_suffix(']')?;
        let mut fields: Vec<&str> = inner.split(':').collect();
        let reuse = match fields.len() {
            5 => 0,
            6 => {
                let flags = fields.remove(0);
                if flags.len() != 4 {
                    return None;
                }
                let mut r = 0u8;
                for (k, c) in flags.chars().enumerate() {
                    match c {
                        'R' => r |= 1 << k,
                        '-' => {}
                        _ => return None,
                    }
                }
                r
            }
            _ => return None,
        };
        let wait = fields[0].strip_prefix('B')?;
        if wait.chars().count() != 6 {
            return None;
        }
        let mut wait_mask = 0u8;
        for (b, c) in wait.chars().enumerate() {
            if c == '-' {
                continue;
            }
            if c.to_digit(10) != Some(b as u32) {
                return None;
            }
            wait_mask |= 1 << b;
        }
        let barrier = |text: &str, letter: char| -> Option<Option<u8>> {
            let v = text.strip_prefix(letter)?;
            match v {
                "-" => Some(None),
                _ => v.parse::<u8>().ok().filter(|b| *b <= 5).map(Some),
            }
        };
        let read_barrier = barrier(fields[1], 'R')?;
        let write_barrier = barrier(fields[2], 'W')?;
        let yield_hint = match fields[3] {
            "Y" => true,
            "-" => false,
            _ => return None,
        };
        let stall = fields[4]
            .strip_prefix('S')
            .filter(|s| s.len() == 2)?
            .parse::<u8>()
            .ok()
            .filter(|s| *s <= 15)?;
        Some(ControlBits {
            stall,
            yield_hint,
            write_barrier,
            read_barrier,
            wait_mask,
            reuse,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_layout() {
        // 0x7e2 = 0b0111_1110_0010: stall 0b0010 = 2, bit 4 clear (yield), write 0b111 and
        // read 0b111 (none), wait 0, reuse 0.
        let c = ControlBits::from_field(0x7e2);
        assert_eq!(
            c,
            ControlBits {
                stall: 2,
                yield_hint: true,
                write_barrier: None,
                read_barrier: None,
                wait_mask: 0,
                reuse: 0
            }
        );
        // Every field at its extreme: stall 15, bit 4 set, write 5, read 4, wait 0b100001,
        // reuse 0b1010.
        let field = 0xf | 1 << 4 | 5 << 5 | 4 << 8 | 0b10_0001 << 11 | 0b1010 << 17;
        let c = ControlBits::from_field(field);
        assert_eq!(
            (c.stall, c.yield_hint, c.write_barrier, c.read_barrier),
            (15, false, Some(5), Some(4))
        );
        assert_eq!((c.wait_mask, c.reuse), (0b10_0001, 0b1010));
        assert_eq!(
            ControlBits::from_group_word(u64::from(field) << 42, 2),
            Some(c)
        );
        assert_eq!(ControlBits::from_group_word(0, 3), None);
        assert_eq!(ControlBits::from_high_word(u64::from(field) << 41), c);
    }

    #[test]
    fn cuasm_codes() {
        let c = ControlBits::from_cuasm("[B01---5:R0:W1:Y:S13]").expect("a code");
        assert_eq!(c.wait_mask, 0b10_0011);
        assert_eq!((c.read_barrier, c.write_barrier), (Some(0), Some(1)));
        assert!(c.yield_hint);
        assert_eq!((c.stall, c.reuse), (13, 0));
        let c = ControlBits::from_cuasm("[R-R-:B------:R-:W-:-:S01]").expect("a code");
        assert_eq!((c.reuse, c.wait_mask, c.stall), (0b0101, 0, 1));
        assert_eq!((c.read_barrier, c.write_barrier), (None, None));
        for bad in [
            "[B------:R-:W-:-]",
            "[B-----:R-:W-:-:S01]",
            "[B1-----:R-:W-:-:S01]",
            "[B------:R6:W-:-:S01]",
            "[B------:R-:W-:Q:S01]",
            "[B------:R-:W-:-:S16]",
            "B------:R-:W-:-:S01",
        ] {
            assert_eq!(ControlBits::from_cuasm(bad), None, "{bad}");
        }
    }
}
