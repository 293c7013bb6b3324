//! SDWA ("sub-dword addressing", `*_sdwa`): a VOP1, VOP2 or VOPC operation whose 32-bit
//! VGPR sources are first narrowed to a byte or word and whose result is written to a byte
//! or word of the destination (AMD *GCN3 ISA* manual, ch. 13 "Microcode Formats", VOP_SDWA:
//! the fields `SRC0_SEL`/`SRC1_SEL`, `SRC*_SEXT`, `SRC*_NEG`, `SRC*_ABS`, `DST_SEL`,
//! `DST_UNUSED`).
//!
//! Semantics simulated here:
//! - a source's `srcN_sel` (`BYTE_0`…`BYTE_3`, `WORD_0`, `WORD_1`, `DWORD`) selects that
//!   part of the 32-bit value, zero-extended, or sign-extended when the operand is written
//!   `sext(vN)`; `-`/`|…|` then apply to float operands as in the other encodings;
//! - the base operation runs unchanged on those 32-bit values (16-bit operations keep the
//!   simulator's convention: their 16-bit result zero-extended);
//! - the result's low bits go to the `dst_sel` part of the destination; its other bits are
//!   0 (`UNUSED_PAD`), 0 below the part and the part's sign above it (`UNUSED_SEXT`), or the
//!   destination's previous bits (`UNUSED_PRESERVE`). A comparison (VOPC) writes a lane mask
//!   and has no `dst_sel`.
//!
//! Defaults for an absent field, as LLVM prints and parses them (LLVM *Syntax of AMDGPU
//! Instruction Modifiers*, "SDWA Modifiers"): `dst_sel:DWORD`, `dst_unused:UNUSED_PRESERVE`
//! ("by default, unused bits are preserved"), `src0_sel:DWORD`, `src1_sel:DWORD`.
//!
//! Every VOP1/VOP2 operation the simulator models (one or two 32-bit sources, a 32-bit
//! result), `v_cndmask_b32` and the 32-bit comparisons have an SDWA form; anything else is
//! refused ("cannot simulate …").

use super::alu;
use super::decode::{Op, Ty};
use super::operand::{lane32, Loc, Opnd, ScalarFile, VectorFile};
use isa::gcn::GcnModifier;

/// A part of a 32-bit register (`*_sel`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sel {
    /// `BYTE_k`: bits `8k+7 : 8k`.
    Byte(u8),
    /// `WORD_k`: bits `16k+15 : 16k`.
    Word(u8),
    Dword,
}

impl Sel {
    fn parse(s: &str) -> Option<Sel> {
        Some(match s.to_ascii_uppercase().as_str() {
            "BYTE_0" => Sel::Byte(0),
            "BYTE_1" => Sel::Byte(1),
            "BYTE_2" => Sel::Byte(2),
            "BYTE_3" => Sel::Byte(3),
            "WORD_0" => Sel::Word(0),
            "WORD_1" => Sel::Word(1),
            "DWORD" => Sel::Dword,
            _ => return None,
        })
    }

    /// (lowest bit, width in bits).
    fn field(self) -> (u32, u32) {
        match self {
            Sel::Byte(k) => (8 * u32::from(k), 8),
            Sel::Word(k) => (16 * u32::from(k), 16),
            Sel::Dword => (0, 32),
        }
    }

    /// The selected part of `v` as a 32-bit value: zero-extended, or sign-extended.
    pub fn select(self, v: u32, sext: bool) -> u32 {
        let (lo, w) = self.field();
        if w == 32 {
            return v;
        }
        let x = (v >> lo) & ((1 << w) - 1);
        if sext && x >> (w - 1) & 1 == 1 {
            x | !((1 << w) - 1)
        } else {
            x
        }
    }
}

/// What becomes of the destination bits outside `dst_sel` (`dst_unused`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unused {
    Pad,
    Sext,
    Preserve,
}

/// The destination word after writing `result` to its `sel` part; `old` is its previous
/// value (for `UNUSED_PRESERVE`).
pub fn place(sel: Sel, unused: Unused, result: u32, old: u32) -> u32 {
    let (lo, w) = sel.field();
    if w == 32 {
        return result;
    }
    let field = result & ((1 << w) - 1);
    let mask = ((1u32 << w) - 1) << lo;
    let placed = field << lo;
    match unused {
        Unused::Pad => placed,
        Unused::Preserve => (old & !mask) | placed,
        Unused::Sext => {
            let negative = field >> (w - 1) & 1 == 1;
            let above = if lo + w >= 32 {
                0
            } else {
                u32::MAX << (lo + w)
            };
            placed | if negative { above } else { 0 }
        }
    }
}

/// An SDWA instruction: the base operation and its selects.
#[derive(Debug, Clone, PartialEq)]
pub struct Sdwa {
    /// `Op::VAlu`, `Op::VCndmask` or `Op::VCmp`.
    pub op: Op,
    pub dst_sel: Sel,
    pub dst_unused: Unused,
    pub src_sel: [Sel; 2],
}

/// Wraps the decoded base operation `op` of `full` (`*_sdwa`) with the instruction's SDWA
/// modifiers; `Err` is the "cannot simulate …" message.
pub fn wrap(full: &str, op: Op, modifiers: &[GcnModifier]) -> Result<Op, String> {
    let refuse = |why: &str| Err(format!("cannot simulate {full}: {why}"));
    let value = |n: &str| -> Result<Option<&str>, String> {
        match modifiers.iter().find(|m| m.name == n) {
            None => Ok(None),
            Some(m) => match m.value.as_deref() {
                Some(v) => Ok(Some(v)),
                None => Err(format!("cannot simulate {full}: `{n}` without a value")),
            },
        }
    };
    let sel = |n: &str| -> Result<Sel, String> {
        match value(n)? {
            None => Ok(Sel::Dword),
            Some(v) => {
                Sel::parse(v).ok_or_else(|| format!("cannot simulate {full}: unknown `{n}:{v}`"))
            }
        }
    };
    let dst_sel = sel("dst_sel")?;
    let src_sel = [sel("src0_sel")?, sel("src1_sel")?];
    let dst_unused = match value("dst_unused")?.map(str::to_ascii_uppercase).as_deref() {
        None | Some("UNUSED_PRESERVE") => Unused::Preserve,
        Some("UNUSED_PAD") => Unused::Pad,
        Some("UNUSED_SEXT") => Unused::Sext,
        Some(v) => return refuse(&format!("unknown `dst_unused:{v}`")),
    };
    let (sources, float): (Vec<&Opnd>, bool) = match &op {
        Op::VAlu { f, src, .. } => {
            if f.wide() || src.len() > 2 {
                return refuse(
                    "SDWA applies to VOP1/VOP2 operations with 32-bit sources and result; this one has none",
                );
            }
            (src.iter().collect(), !f.integer())
        }
        Op::VCndmask { a, b, .. } => (vec![a, b], false),
        Op::VCmp { ty, a, b, .. } => {
            if matches!(ty, Ty::I64 | Ty::U64 | Ty::F64) {
                return refuse("SDWA applies to 32-bit comparisons only");
            }
            (vec![a, b], matches!(ty, Ty::F32))
        }
        _ => return refuse("no SDWA form of this operation is simulated"),
    };
    if sources.iter().any(|s| s.sext) && float {
        return refuse("`sext` on a float operand");
    }
    Ok(Op::Sdwa(Box::new(Sdwa {
        op,
        dst_sel,
        dst_unused,
        src_sel,
    })))
}

/// The temporary VGPR holding source `k` (and [`DEST`] the destination) while the base
/// operation runs.
const DEST: u32 = 2;

fn temporary(o: &Opnd, k: u32) -> Opnd {
    Opnd {
        loc: Loc::V(k),
        count: 1,
        sext: false,
        ..*o
    }
}

/// Executes an SDWA instruction for the lanes in `active`: the selected sources are put in
/// a temporary register file, the base operation runs there (`alu::vector`, so each
/// operation has one definition), and its result is placed into the destination.
pub fn execute(
    s: &Sdwa,
    sf: &mut ScalarFile,
    vf: &mut VectorFile,
    active: u64,
) -> Result<(), String> {
    let lanes = vf.lanes;
    let mut tmp = VectorFile::new(3, lanes);
    let on = |l: usize| active >> l & 1 == 1;
    let mut load = |o: &Opnd, k: u32, sel: Sel| -> Opnd {
        for l in (0..lanes).filter(|&l| on(l)) {
            tmp.set(k, l, sel.select(lane32(sf, vf, o, l), o.sext));
        }
        temporary(o, k)
    };
    let (inner, dest) = match &s.op {
        Op::VAlu {
            f,
            d,
            src,
            carry_out,
            carry_in,
        } => {
            let src: Vec<Opnd> = src
                .iter()
                .zip(0..)
                .map(|(o, k)| load(o, k, s.src_sel[k as usize]))
                .collect();
            let op = Op::VAlu {
                f: *f,
                d: temporary(d, DEST),
                src,
                carry_out: *carry_out,
                carry_in: *carry_in,
            };
            (op, Some(*d))
        }
        Op::VCndmask { d, a, b, m } => {
            let op = Op::VCndmask {
                d: temporary(d, DEST),
                a: load(a, 0, s.src_sel[0]),
                b: load(b, 1, s.src_sel[1]),
                m: *m,
            };
            (op, Some(*d))
        }
        Op::VCmp { c, ty, d, a, b, x } => {
            let op = Op::VCmp {
                c: *c,
                ty: *ty,
                d: *d,
                a: load(a, 0, s.src_sel[0]),
                b: load(b, 1, s.src_sel[1]),
                x: *x,
            };
            (op, None)
        }
        _ => return Err("not an SDWA operation".into()),
    };
    let Some(d) = dest else {
        return alu::vector(&inner, sf, &mut tmp, active);
    };
    let Loc::V(dv) = d.loc else {
        return Err("destination is not a VGPR".into());
    };
    // The old destination: `v_mac_f32`'s accumulator and the preserved bits.
    for l in 0..lanes {
        tmp.set(DEST, l, vf.get(dv, l));
    }
    alu::vector(&inner, sf, &mut tmp, active)?;
    for l in (0..lanes).filter(|&l| on(l)) {
        let v = place(s.dst_sel, s.dst_unused, tmp.get(DEST, l), vf.get(dv, l));
        vf.set(dv, l, v);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selects() {
        let v = 0x8091_a2f3;
        assert_eq!(Sel::Byte(0).select(v, false), 0xf3);
        assert_eq!(Sel::Byte(0).select(v, true), 0xffff_fff3);
        assert_eq!(Sel::Byte(1).select(v, true), 0xffff_ffa2);
        assert_eq!(Sel::Byte(2).select(v, true), 0xffff_ff91);
        assert_eq!(Sel::Byte(3).select(v, false), 0x80);
        assert_eq!(Sel::Word(0).select(v, true), 0xffff_a2f3);
        assert_eq!(Sel::Word(1).select(v, false), 0x8091);
        assert_eq!(Sel::Dword.select(v, true), v);
        assert_eq!(Sel::Byte(2).select(0x0071_0000, true), 0x71);
    }

    #[test]
    fn placement() {
        let old = 0x1122_3344;
        assert_eq!(place(Sel::Byte(1), Unused::Pad, 0x1ff, old), 0xff00);
        assert_eq!(place(Sel::Byte(1), Unused::Sext, 0x1ff, old), 0xffff_ff00);
        assert_eq!(place(Sel::Byte(1), Unused::Sext, 0x17f, old), 0x7f00);
        assert_eq!(
            place(Sel::Byte(1), Unused::Preserve, 0xab, old),
            0x1122_ab44
        );
        assert_eq!(place(Sel::Word(1), Unused::Sext, 0x8000, old), 0x8000_0000);
        assert_eq!(
            place(Sel::Byte(3), Unused::Preserve, 0xab, old),
            0xab22_3344
        );
        assert_eq!(place(Sel::Dword, Unused::Pad, 7, old), 7);
    }
}
