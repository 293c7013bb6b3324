//! Known constants per thread group, and the folding of the few SASS integer instructions
//! whose result they decide (beyond the paper).
//!
//! # Why
//! The agreement domain (§3.3) knows whether *one* group of threads agrees on a register. When
//! groups that ran apart come back together — at a `BSYNC` or at a full-warp `WARPSYNC`
//! ([`crate::barriers`]) — the rejoined warp agrees on a register only if every group held the
//! *same* value, which agreement alone cannot say: each group agreeing internally on
//! `R4` does not make them agree with each other. The weak updates of the waiting entry (§3.3)
//! lose every register a group wrote while apart. nvcc for sm_90 writes exactly that: a
//! grid-stride loop whose exit diverges, then `IMAD.MOV.U32 R4, RZ, RZ, 0x20` and a shuffle
//! loop whose trip count is computed from `R4` before its `WARPSYNC.ALL` (`reduce7` of the CUDA
//! samples). Every group sets `R4` to `0x20` and computes the same `P0` from it, so the warp
//! that the `WARPSYNC` rejoins agrees on `P0`; without constants it looked divergent and the
//! shuffle loop was analysed as a divergent loop (2.5–5.5× the sm_86 bound).
//!
//! # What
//! [`Consts`]: registers a group is known to hold a given value in (every thread of the group,
//! the same value). It is exact for what it records: a register is recorded only when every
//! thread of the group computed it from recorded constants (immediates, `RZ`, `PT`) with an
//! instruction [`fold`] evaluates. Values: 32-bit registers zero-extended, predicates 0 or 1.
//! A group that holds `R = c` agrees on `R`; groups that each hold `R = c` agree with each
//! other. Joins keep the entries on which both sides agree (same register, same value), so
//! the domain has finite height (each register loses its entry at most once).
//!
//! # The instructions folded
//! Only the integer forms whose semantics is certain: `MOV`/`MOV32I`; `IMAD` (low 32 bits of
//! `a·b + c`, also `.MOV`, `.IADD`, `.U32`; not `.WIDE`, `.HI`, `.X`, `.SHL`); `IADD3` without
//! carries; `LEA` and `LEA.HI` without carries (`(a << s) + b`, `b + ((c:a) >> (32 − s))`);
//! `SHF.L`/`SHF.R` funnel shifts (`.U32`, `.S32`, `.U64`, `.S64`, `.HI`) by a shift below 32;
//! `ISETP` (signed unless `.U32`, combined with its predicate by `.AND`/`.OR`/`.XOR`, both
//! destinations); `SEL`; `LOP3.LUT` with a register destination and the `!PT` predicate input.
//! Anything else — loads, special registers, uniform registers, floating point, carries — has
//! no known value. The concrete executor ([`crate::concrete`]) runs the same function, so the
//! oracle and the analysis cannot disagree on a folded value.

use crate::regset;
use isa::{Instruction, Operand, OperandKind, Register};

/// Registers with a known value, sorted by tracked-register index (see [`crate::regset`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Consts(Vec<(u16, u64)>);

impl Consts {
    pub const EMPTY: Consts = Consts(Vec::new());

    /// The known value of `r`: `RZ` is 0, `PT` is 1, a tracked register its recorded value.
    pub fn get(&self, r: &Register) -> Option<u64> {
        match r {
            Register::Zero => Some(0),
            Register::True => Some(1),
            _ => {
                let i = regset::tracked_index(r)? as u16;
                self.0
                    .binary_search_by_key(&i, |&(k, _)| k)
                    .ok()
                    .map(|p| self.0[p].1)
            }
        }
    }

    /// Records `r = value` (registers that are not tracked are ignored).
    pub fn set(&mut self, r: &Register, value: u64) {
        let Some(i) = regset::tracked_index(r) else {
            return;
        };
        let i = i as u16;
        match self.0.binary_search_by_key(&i, |&(k, _)| k) {
            Ok(p) => self.0[p].1 = value,
            Err(p) => self.0.insert(p, (i, value)),
        }
    }

    /// Forgets the value of `r`.
    pub fn remove(&mut self, r: &Register) {
        if let Some(i) = regset::tracked_index(r) {
            let i = i as u16;
            self.0.retain(|&(k, _)| k != i);
        }
    }

    /// Join: the entries both know with the same value.
    pub fn meet(&self, other: &Consts) -> Consts {
        Consts(
            self.0
                .iter()
                .filter(|e| other.0.binary_search(e).is_ok())
                .copied()
                .collect(),
        )
    }

    /// Whether every entry here is also in `other` (`self` knows no more than `other`).
    pub fn is_subset(&self, other: &Consts) -> bool {
        self.0.iter().all(|e| other.0.binary_search(e).is_ok())
    }

    /// Adds the entries of `other` (both describe the same threads, so they cannot differ;
    /// `other` wins if they do).
    pub fn absorb(&mut self, other: &Consts) {
        for &(k, v) in &other.0 {
            match self.0.binary_search_by_key(&k, |&(x, _)| x) {
                Ok(p) => self.0[p].1 = v,
                Err(p) => self.0.insert(p, (k, v)),
            }
        }
    }

    /// The registers with a known value, as an agreement set.
    pub fn agreed(&self) -> regset::RegSet {
        regset::RegSet::from_indices(self.0.iter().map(|&(k, _)| k as usize))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }
}

/// The value a register holds after being written with `v`: predicates are 0 or 1, other
/// registers 32 bits wide.
pub fn normalise(r: &Register, v: u64) -> u64 {
    if r.is_predicate() {
        v & 1
    } else {
        v & 0xffff_ffff
    }
}

/// Value of a source operand given the values of registers (`read`), if known.
fn operand(op: &Operand, read: &dyn Fn(&Register) -> Option<u64>) -> Option<u64> {
    if op.absolute {
        return None;
    }
    match &op.kind {
        OperandKind::Register { reg } => {
            let v = match reg {
                Register::Zero => 0,
                Register::True => 1,
                Register::Gpr(_) | Register::Pred(_) => normalise(reg, read(reg)?),
                _ => return None,
            };
            if reg.is_predicate() {
                // `!P` is the logical negation; `~` is not written on predicates.
                Some(if op.negated || op.inverted { v ^ 1 } else { v })
            } else {
                let v = if op.inverted { !v & 0xffff_ffff } else { v };
                Some(if op.negated {
                    v.wrapping_neg() & 0xffff_ffff
                } else {
                    v
                })
            }
        }
        OperandKind::Immediate { value } if value.as_linked_int().is_some() => {
            let i = value.as_linked_int().unwrap_or(0);
            let v = (i as u64) & 0xffff_ffff;
            let v = if op.inverted { !v & 0xffff_ffff } else { v };
            Some(if op.negated {
                v.wrapping_neg() & 0xffff_ffff
            } else {
                v
            })
        }
        _ => None,
    }
}

/// Whether the operand is a storage predicate or `PT` (a carry or predicate output slot).
fn is_predicate_operand(op: &Operand) -> bool {
    op.register().is_some_and(|r| r.is_predicate())
}

/// The values `ins` writes, one per register of `ins.writes`, when every thread executing it
/// computes them from known values (`read`); `None` when any written value is unknown.
/// Guards are not applied here: the caller decides which threads execute.
pub fn fold(ins: &Instruction, read: &dyn Fn(&Register) -> Option<u64>) -> Option<Vec<u64>> {
    if ins.writes.is_empty() {
        return None;
    }
    let ops = &ins.operands;
    let name = ins.opcode.name.as_str();
    let has = |m: &str| ins.opcode.has_modifier(m);
    let val = |i: usize| ops.get(i).and_then(|o| operand(o, read));
    // (destination operand index, value) pairs.
    let results: Vec<(usize, u64)> = match name {
        "MOV" | "MOV32I" => {
            if !ins.opcode.modifiers.is_empty() {
                return None;
            }
            vec![(0, val(1)?)]
        }
        "IMAD" => {
            if ["WIDE", "HI", "X", "SHL", "HI_X"].iter().any(|m| has(m)) || ops.len() != 4 {
                return None;
            }
            let (a, b, c) = (val(1)?, val(2)?, val(3)?);
            vec![(0, a.wrapping_mul(b).wrapping_add(c) & 0xffff_ffff)]
        }
        "IADD3" => {
            if has("X") || ops.len() != 4 || ops.iter().any(is_predicate_operand) {
                return None;
            }
            let s = val(1)?.wrapping_add(val(2)?).wrapping_add(val(3)?);
            vec![(0, s & 0xffff_ffff)]
        }
        "LEA" => {
            if has("X") || ops.iter().any(is_predicate_operand) {
                return None;
            }
            let others = ins.opcode.modifiers.iter().any(|m| m != "HI" && m != "X");
            if others {
                return None;
            }
            if has("HI") {
                if ops.len() != 5 {
                    return None;
                }
                let (a, b, c, s) = (val(1)?, val(2)?, val(3)?, val(4)?);
                if s == 0 || s > 32 {
                    return None;
                }
                let wide = (c << 32) | a;
                vec![(0, b.wrapping_add(wide >> (32 - s)) & 0xffff_ffff)]
            } else {
                if ops.len() != 4 {
                    return None;
                }
                let (a, b, s) = (val(1)?, val(2)?, val(3)?);
                if s > 31 {
                    return None;
                }
                vec![(0, ((a << s).wrapping_add(b)) & 0xffff_ffff)]
            }
        }
        "SHF" => {
            if ops.len() != 4 {
                return None;
            }
            let left = has("L");
            if left == has("R") {
                return None;
            }
            let signed = has("S32") || has("S64");
            if !(has("U32") || has("S32") || has("U64") || has("S64")) {
                return None;
            }
            let known = ["L", "R", "U32", "S32", "U64", "S64", "HI"];
            if ins
                .opcode
                .modifiers
                .iter()
                .any(|m| !known.contains(&m.as_str()))
            {
                return None;
            }
            let (lo, s, hi) = (val(1)?, val(2)?, val(3)?);
            if s > 31 {
                return None;
            }
            let wide = (hi << 32) | lo;
            let shifted = if left {
                wide << s
            } else if signed {
                ((wide as i64) >> s) as u64
            } else {
                wide >> s
            };
            let v = if has("HI") { shifted >> 32 } else { shifted };
            vec![(0, v & 0xffff_ffff)]
        }
        "ISETP" => {
            if has("EX") || ops.len() != 5 {
                return None;
            }
            let (a, b, p) = (val(2)?, val(3)?, val(4)?);
            let (a, b) = if has("U32") {
                (a as i64, b as i64)
            } else {
                (a as u32 as i32 as i64, b as u32 as i32 as i64)
            };
            let r = if has("LT") {
                a < b
            } else if has("LE") {
                a <= b
            } else if has("GT") {
                a > b
            } else if has("GE") {
                a >= b
            } else if has("EQ") {
                a == b
            } else if has("NE") {
                a != b
            } else {
                return None;
            };
            let combine = |x: bool| -> Option<u64> {
                let p = p == 1;
                Some(u64::from(if has("AND") {
                    x && p
                } else if has("OR") {
                    x || p
                } else if has("XOR") {
                    x != p
                } else {
                    return None;
                }))
            };
            vec![(0, combine(r)?), (1, combine(!r)?)]
        }
        "SEL" => {
            if !ins.opcode.modifiers.is_empty() || ops.len() != 4 {
                return None;
            }
            vec![(0, if val(3)? == 1 { val(1)? } else { val(2)? })]
        }
        "LOP3" => {
            let lut_only = ins.opcode.modifiers.len() == 1 && has("LUT");
            if !lut_only || ops.len() != 6 || is_predicate_operand(&ops[0]) {
                return None;
            }
            // The predicate input must be `!PT` (the form nvcc writes for plain logic).
            if val(5)? != 0 {
                return None;
            }
            let (a, b, c, lut) = (val(1)?, val(2)?, val(3)?, val(4)?);
            let mut r = 0u64;
            for bit in 0..32 {
                let idx = ((a >> bit & 1) << 2) | ((b >> bit & 1) << 1) | (c >> bit & 1);
                r |= (lut >> idx & 1) << bit;
            }
            vec![(0, r)]
        }
        _ => return None,
    };
    // Every written register must be one of the destinations computed.
    let mut out = Vec::with_capacity(ins.writes.len());
    for w in &ins.writes {
        let v = results
            .iter()
            .find(|&&(d, _)| ops.get(d).and_then(Operand::register) == Some(w))
            .map(|&(_, v)| v)?;
        out.push(normalise(w, v));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use isa::{sass, Limits};

    /// Folds the one instruction of `line` with `regs` known, returning its written values.
    fn eval(line: &str, regs: &[(Register, u64)]) -> Option<Vec<u64>> {
        let out = sass::parse(line, None, &Limits::default());
        let kernel = out.kernel.expect("parses");
        let mut known = Consts::EMPTY;
        for (r, v) in regs {
            known.set(r, *v);
        }
        fold(&kernel.instructions[0], &|r| known.get(r))
    }

    const R4: Register = Register::Gpr(4);
    const R5: Register = Register::Gpr(5);

    #[test]
    fn the_reduce7_chain_by_hand() {
        // `IMAD.MOV.U32 R4, RZ, RZ, 0x20`: 0·0 + 0x20.
        assert_eq!(
            eval("IMAD.MOV.U32 R4, RZ, RZ, 0x20 ;", &[]),
            Some(vec![0x20])
        );
        // `LEA.HI R5, R4, R4, RZ, 0x1`: R4 + ((0:R4) >> 31), the rounding term of R4 / 2.
        assert_eq!(
            eval("LEA.HI R5, R4, R4, RZ, 0x1 ;", &[(R4, 0x20)]),
            Some(vec![0x20])
        );
        assert_eq!(
            eval("LEA.HI R5, R4, R4, RZ, 0x1 ;", &[(R4, 0xffff_fffb)]),
            Some(vec![0xffff_fffc])
        );
        // `SHF.R.S32.HI R5, RZ, 0x1, R5`: R5 >> 1, arithmetic: 0x20 → 0x10, -4 → -2.
        assert_eq!(
            eval("SHF.R.S32.HI R5, RZ, 0x1, R5 ;", &[(R5, 0x20)]),
            Some(vec![0x10])
        );
        assert_eq!(
            eval("SHF.R.S32.HI R5, RZ, 0x1, R5 ;", &[(R5, 0xffff_fffc)]),
            Some(vec![0xffff_fffe])
        );
        // `ISETP.GT.AND P0, PT, R4, 0x3, PT`: 0x20 > 3 and true.
        assert_eq!(
            eval("ISETP.GT.AND P0, PT, R4, 0x3, PT ;", &[(R4, 0x20)]),
            Some(vec![1])
        );
        assert_eq!(
            eval("ISETP.GT.AND P0, PT, R4, 0x3, PT ;", &[(R4, 2)]),
            Some(vec![0])
        );
    }

    #[test]
    fn signedness_shifts_and_logic() {
        let m1 = 0xffff_ffff;
        // -1 > 3 is false signed, true unsigned.
        assert_eq!(
            eval("ISETP.GT.AND P0, PT, R4, 0x3, PT ;", &[(R4, m1)]),
            Some(vec![0])
        );
        assert_eq!(
            eval("ISETP.GT.U32.AND P0, PT, R4, 0x3, PT ;", &[(R4, m1)]),
            Some(vec![1])
        );
        // Both destinations: P1 = ¬(4 ≥ 3) ∨ P2 with P2 false.
        assert_eq!(
            eval(
                "ISETP.GE.OR P0, P1, R4, 0x3, P2 ;",
                &[(R4, 4), (Register::Pred(2), 0)]
            ),
            Some(vec![1, 0])
        );
        // 0x3 << 4 + 0x5 = 0x35; logical right shift of 0x80000000 by 4.
        assert_eq!(eval("LEA R5, R4, 0x5, 0x4 ;", &[(R4, 3)]), Some(vec![0x35]));
        assert_eq!(
            eval("SHF.R.U32.HI R5, RZ, 0x4, R4 ;", &[(R4, 0x8000_0000)]),
            Some(vec![0x0800_0000])
        );
        assert_eq!(
            eval("SHF.L.U32 R5, R4, 0x4, RZ ;", &[(R4, 0x1234_5678)]),
            Some(vec![0x2345_6780])
        );
        // IADD3 wraps at 32 bits; IMAD is the low word of a·b + c.
        assert_eq!(eval("IADD3 R5, R4, 0x1, RZ ;", &[(R4, m1)]), Some(vec![0]));
        assert_eq!(
            eval("IMAD R5, R4, 0x3, 0x1 ;", &[(R4, 0x5555_5556)]),
            Some(vec![3])
        );
        // LOP3.LUT 0xc0 is a ∧ b, 0xfc is a ∨ b, 0x3c is a ⊕ b.
        let lop = |lut: &str| format!("LOP3.LUT R5, R4, 0xff0, RZ, {lut}, !PT ;");
        assert_eq!(eval(&lop("0xc0"), &[(R4, 0x0f0f)]), Some(vec![0x0f00]));
        assert_eq!(eval(&lop("0xfc"), &[(R4, 0x0f0f)]), Some(vec![0x0fff]));
        assert_eq!(eval(&lop("0x3c"), &[(R4, 0x0f0f)]), Some(vec![0x00ff]));
        assert_eq!(
            eval("SEL R5, R4, 0x7, P0 ;", &[(R4, 9), (Register::Pred(0), 0)]),
            Some(vec![7])
        );
        // Negated immediates and operands.
        assert_eq!(
            eval("IMAD.MOV.U32 R5, RZ, RZ, -0x20 ;", &[]),
            Some(vec![0xffff_ffe0])
        );
        assert_eq!(
            eval("IADD3 R5, -R4, 0x10, RZ ;", &[(R4, 3)]),
            Some(vec![0xd])
        );
    }

    #[test]
    fn unknown_inputs_and_unmodelled_forms_have_no_value() {
        assert_eq!(eval("IADD3 R5, R4, 0x1, RZ ;", &[]), None);
        assert_eq!(eval("S2R R5, SR_TID.X ;", &[]), None);
        assert_eq!(eval("IMAD.WIDE.U32 R4, R5, 0x4, RZ ;", &[(R5, 1)]), None);
        assert_eq!(eval("IADD3 R5, P0, R4, 0x1, RZ ;", &[(R4, 1)]), None);
        assert_eq!(eval("IADD3.X R5, R4, 0x1, RZ, P0, !PT ;", &[(R4, 1)]), None);
        assert_eq!(eval("MOV R5, c[0x0][0x160] ;", &[]), None);
        assert_eq!(eval("IADD3 R5, UR4, 0x1, RZ ;", &[]), None);
        assert_eq!(eval("FADD R5, R4, 1 ;", &[(R4, 1)]), None);
        assert_eq!(eval("SHF.R.U32.HI R5, RZ, 0x20, R4 ;", &[(R4, 1)]), None);
    }

    #[test]
    fn joins_keep_what_both_know() {
        let mut a = Consts::EMPTY;
        a.set(&R4, 1);
        a.set(&R5, 2);
        let mut b = Consts::EMPTY;
        b.set(&R4, 1);
        b.set(&R5, 3);
        let m = a.meet(&b);
        assert_eq!((m.get(&R4), m.get(&R5)), (Some(1), None));
        assert!(m.is_subset(&a) && m.is_subset(&b) && !a.is_subset(&b));
        assert!(m.agreed().agrees(&R4) && !m.agreed().agrees(&R5));
    }
}
