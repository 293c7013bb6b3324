//! Where the PTX simulator keeps what PTX names symbolically: virtual registers, kernel
//! parameters and `.shared` variables.
//!
//! - **Registers.** Every virtual register a function mentions (`%r3`, `%rd12`, `%f1`,
//!   `%fd4`, `%p2`, `%rs1`, scoped ones like `%temp`) gets one index, in name order. Each holds
//!   a 64-bit word per lane: an instruction of type `.T` reads the low `|T|` bits (sign- or
//!   zero-extended as `.T` says) and writes the low `|T|` bits (the rest cleared), so a 64-bit
//!   register never needs a pair and the scoreboard tracks one slot per virtual register.
//!   Predicates hold 0 or 1.
//! - **Parameters.** `ld.param` reads the launch's parameter words as little-endian bytes,
//!   parameters laid out in declaration order, each at the next multiple of its alignment
//!   (`.align n` when given, else its element size): the CUDA ABI's layout of the parameter
//!   buffer. So `(float *a, int n)` is `a` at bytes 0..8 (words 0–1, low word first) and `n`
//!   at 8..12 (word 2) — the same words a SASS launch of that kernel gets.
//! - **Shared variables.** The function's `.shared` variables are placed from shared address
//!   0 in declaration order at their alignment; a variable of unknown size (`extern`
//!   `.shared .b8 s[]`) starts after them and gets the launch's `shared_bytes`, so a block
//!   has `static + launch.shared_bytes` bytes of shared memory.

use isa::ptx::{Function, ScalarType, StateSpace, VarDecl};
use std::collections::BTreeMap;

/// Byte offset and size of each parameter, and each shared variable's shared address.
#[derive(Debug, Clone, Default)]
pub(crate) struct Layout {
    pub registers: BTreeMap<String, u32>,
    pub params: BTreeMap<String, (u64, Option<u64>)>,
    pub shared: BTreeMap<String, u64>,
    /// Bytes of statically sized shared variables.
    pub shared_static: u64,
}

fn align_of(v: &VarDecl) -> u64 {
    v.align
        .or_else(|| ScalarType::from_modifier(&v.ty).map(|t| u64::from(t.bytes())))
        .unwrap_or(1)
        .max(1)
}

fn align_up(x: u64, a: u64) -> u64 {
    x.div_ceil(a).saturating_mul(a)
}

impl Layout {
    pub fn of(f: &Function) -> Layout {
        let mut registers = BTreeMap::new();
        let mut names: Vec<&str> = Vec::new();
        for ins in &f.instructions {
            if let Some(g) = &ins.guard {
                names.push(&g.reg);
            }
            for op in &ins.operands {
                names.extend(op.registers());
            }
        }
        names.sort_unstable();
        names.dedup();
        for (i, n) in names.into_iter().enumerate() {
            registers.insert(n.to_string(), i as u32);
        }
        let mut params = BTreeMap::new();
        let mut off = 0u64;
        for p in &f.params {
            off = align_up(off, align_of(p));
            let size = p.size_bytes();
            params.insert(p.name.clone(), (off, size));
            off = off.saturating_add(size.unwrap_or(0));
        }
        let mut shared = BTreeMap::new();
        let mut off = 0u64;
        let mut unsized_vars = Vec::new();
        for v in f.vars.iter().filter(|v| v.space == StateSpace::Shared) {
            match v.size_bytes() {
                Some(size) => {
                    off = align_up(off, align_of(v));
                    shared.insert(v.name.clone(), off);
                    off = off.saturating_add(size);
                }
                None => unsized_vars.push(v),
            }
        }
        let mut end = off;
        for v in unsized_vars {
            end = align_up(off, align_of(v));
            shared.insert(v.name.clone(), end);
        }
        Layout {
            registers,
            params,
            shared,
            shared_static: end,
        }
    }

    /// Reads `bytes` little-endian bytes of the parameter buffer at `offset`.
    pub fn read_param(words: &[u32], offset: u64, bytes: u64) -> Option<u64> {
        let mut v = 0u64;
        for k in 0..bytes {
            let b = offset.checked_add(k)?;
            let w = words.get(usize::try_from(b / 4).ok()?)?;
            v |= u64::from((w >> ((b % 4) * 8)) & 0xff) << (8 * k);
        }
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn param_bytes_are_little_endian_words() {
        // Words [0x1000, 0, 7]: a 64-bit pointer 0x1000 then an int 7 at byte 8.
        let w = [0x1000, 0, 7];
        assert_eq!(Layout::read_param(&w, 0, 8), Some(0x1000));
        assert_eq!(Layout::read_param(&w, 8, 4), Some(7));
        assert_eq!(Layout::read_param(&w, 9, 1), Some(0));
        assert_eq!(Layout::read_param(&w, 10, 4), None);
    }
}
