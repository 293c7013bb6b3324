//! Semantics of the Kepler–Pascal operations added for real listings (issue #26 item 1),
//! and the `MUFU` approximations shared with sm_70+. Readings (NVIDIA documents the
//! mnemonics only; these follow the PTX instruction each one implements):
//! - `BFE`/`BFI` are PTX `bfe`/`bfi` with position and length packed in one operand
//!   (`pos | len << 8`, as the compiler builds it: `BFE.U32 R0, R2, 0x808` is byte 1);
//!   `BFE.BREV` extracts from the bit-reversed source (*uncertain*: undocumented);
//! - `ICMP`/`FCMP.cmp d, a, b, c` is PTX `slct`: `c cmp 0 ? a : b`;
//! - `ISET`/`FSET` is PTX `set`: all ones (`.BF`: 1.0) or 0;
//! - `I2I` is PTX `cvt` between integer types, `|a|`/`-a` applied to the widened source;
//! - `ISETP.X` compares the high words of a 64-bit comparison whose low words the `.CC`
//!   instruction before it subtracted: the high difference minus the borrow decides the
//!   order, equality needs the zero flag of the low difference too;
//! - `IADD3.RS` adds `c` to the 33-bit sum `a + b` shifted right by 16 (`.LS`: left), the
//!   last step of the compiler's `XMAD` multiply-high sequences (checked against a 64-bit
//!   product in `tests/semantics.rs`, `xmad_mulhi_sequence_is_the_high_word`);
//! - `MUFU`: see [`mufu`].

use super::*;
use crate::sass::decode::{BoolOp, IntType, VideoOp};

/// `MUFU.func` of `x`, computed in double precision and rounded once to single precision:
/// correctly rounded except in double-rounding ties (at most half an ulp off then), where
/// the hardware's approximations have the error bounds NVIDIA gives for the PTX
/// instructions that map to them (PTX ISA, `rcp.approx.f32`: 1 ulp; `sqrt.approx.f32`,
/// `rsqrt.approx.f32`: a relative error of about 2^-23 and 2^-22.9; `ex2.approx.f32`,
/// `lg2.approx.f32`, `sin`/`cos.approx.f32`: a few ulp, or an absolute error near 2^-22 on
/// the reduced range) — so a simulated value can differ from the hardware's by those
/// bounds. `SIN`/`COS` take their argument in turns (`x` stands for `2πx`): sm_70+
/// `sin.approx.f32` is `FMUL.RZ` by `1/(2π)` then `MUFU.SIN`, and Kepler–Pascal
/// `RRO.SINCOS` does the division (reading: the compiler's sequences; *uncertain* for the
/// hardware's fixed-point format after `RRO`).
pub(super) fn mufu(func: MufuFunc, x: f32) -> f32 {
    let x = f64::from(x);
    let r = match func {
        MufuFunc::Rcp => 1.0 / x,
        MufuFunc::Rsq => 1.0 / x.sqrt(),
        MufuFunc::Sqrt => x.sqrt(),
        MufuFunc::Ex2 => x.exp2(),
        MufuFunc::Lg2 => x.log2(),
        MufuFunc::Sin => (x * std::f64::consts::TAU).sin(),
        MufuFunc::Cos => (x * std::f64::consts::TAU).cos(),
    };
    r as f32
}

/// PTX `bfe` with `ctl = pos | len << 8`.
fn bfe(a: u32, ctl: u32, signed: bool, brev: bool) -> u32 {
    let a = if brev { a.reverse_bits() } else { a };
    let pos = ctl & 0xff;
    let len = (ctl >> 8) & 0xff;
    if len == 0 {
        return 0;
    }
    let top = (pos + len - 1).min(31);
    let sbit = signed && a >> top & 1 == 1;
    let mut d = 0u32;
    for i in 0..32 {
        let bit = if i < len && pos + i <= 31 {
            a >> (pos + i) & 1 == 1
        } else {
            sbit
        };
        d |= u32::from(bit) << i;
    }
    d
}

/// PTX `bfi`: `base` with `len` bits from `pos` replaced by the low bits of `a`.
fn bfi(a: u32, ctl: u32, base: u32) -> u32 {
    let pos = ctl & 0xff;
    let len = (ctl >> 8) & 0xff;
    let mut f = base;
    for i in 0..len {
        if pos + i > 31 {
            break;
        }
        f = (f & !(1 << (pos + i))) | ((a >> i & 1) << (pos + i));
    }
    f
}

/// The low `t.bits` of `v`, extended as `t` says.
fn extend(v: u64, t: IntType) -> i64 {
    let unused = 64 - t.bits.min(64);
    if t.signed {
        ((v << unused) as i64) >> unused
    } else {
        ((v << unused) >> unused) as i64
    }
}

/// `v` as the integer type `t` (in a 32-bit register: sign- or zero-extended), wrapped or
/// (`sat`) clamped.
fn narrow(v: i64, t: IntType, sat: bool) -> u32 {
    let bits = t.bits.min(32);
    let (lo, hi) = if t.signed {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    } else {
        (0, (1i64 << bits) - 1)
    };
    let v = if sat { v.clamp(lo, hi) } else { v };
    extend(
        v as u64,
        IntType {
            bits,
            signed: t.signed,
        },
    ) as u32
}

/// `ISETP.cmp.X` (see the module doc).
#[allow(clippy::too_many_arguments)]
pub(super) fn isetp_x(
    regs: &mut WarpRegs,
    ids: &ThreadIds,
    mask: u64,
    [p, q]: [u8; 2],
    cmp: Cmp,
    signed: bool,
    [a, b]: [Src; 2],
    bop: BoolOp,
    c: PredSrc,
) -> Result<(), String> {
    let cm = regs.pred_mask(c, mask);
    let r = compare_x(regs, ids, cmp, signed, [a, b])?;
    regs.set_pred(p, mask, bop.bits(r, cm));
    regs.set_pred(q, mask, bop.bits(!r, cm));
    Ok(())
}

/// The lanes where the 64-bit comparison `cmp` holds: `a`, `b` the high words, the low
/// words' difference in the carry and zero flags of the `.CC` instruction before (`ISETP.X`
/// and `ISET.X`, see the module doc).
pub(super) fn compare_x(
    regs: &WarpRegs,
    ids: &ThreadIds,
    cmp: Cmp,
    signed: bool,
    [a, b]: [Src; 2],
) -> Result<u64, String> {
    let (mut a_v, mut b_v) = ([0u32; 64], [0u32; 64]);
    a.ints(regs, ids, &mut a_v);
    b.ints(regs, ids, &mut b_v);
    let wide = |x: u32| {
        if signed {
            i64::from(x as i32)
        } else {
            i64::from(x)
        }
    };
    let mut r = 0u64;
    for l in 0..regs.ws {
        let borrow = i64::from(regs.cc >> l & 1 == 0);
        let diff = wide(a_v[l]) - wide(b_v[l]) - borrow;
        let eq = diff == 0 && regs.zf >> l & 1 == 1;
        let lt = diff < 0;
        let v = match cmp {
            Cmp::F => false,
            Cmp::T => true,
            Cmp::Lt => lt,
            Cmp::Le => lt || eq,
            Cmp::Gt => !lt && !eq,
            Cmp::Ge => !lt,
            Cmp::Eq => eq,
            Cmp::Ne => !eq,
            _ => return Err("an unordered comparison on integers".into()),
        };
        r |= u64::from(v) << l;
    }
    Ok(r)
}

/// The Kepler–Pascal operations of this module (contract of [`execute_alu`]).
#[inline(never)]
pub(super) fn execute(op: &Op, ex: Exec<'_>) -> Result<(), String> {
    match *op {
        Op::IAdd3Shift { d, a, b, c, right } => {
            let Exec(regs, ids, mask, [a_v, b_v, c_v, r_v]) = ex;
            let (ta, tb, tc) = (a.term(false), b.term(false), c.term(false));
            a.fetch_all(regs, ids, a_v);
            b.fetch_all(regs, ids, b_v);
            c.fetch_all(regs, ids, c_v);
            for l in 0..regs.ws {
                let s = ta.apply(a_v[l]) + tb.apply(b_v[l]);
                let s = if right { s >> 16 } else { s << 16 };
                r_v[l] = (s + tc.apply(c_v[l])) as u32;
            }
            regs.write(d, mask, r_v);
        }
        Op::IMnMx64 {
            d,
            a,
            b,
            p,
            signed,
            high,
        } => {
            let Exec(regs, ids, mask, [a_v, b_v, _, r_v]) = ex;
            let pm = regs.pred_mask(p, mask);
            a.ints(regs, ids, a_v);
            b.ints(regs, ids, b_v);
            let (mut equal, mut took_a) = (0u64, 0u64);
            for l in 0..regs.ws {
                let (x, y) = (a_v[l], b_v[l]);
                let min = pm >> l & 1 == 1;
                let pick_a = if high || regs.zf >> l & 1 == 1 {
                    let less = if signed && high {
                        (x as i32) < (y as i32)
                    } else {
                        x < y
                    };
                    equal |= u64::from(x == y) << l;
                    x == y || less == min
                } else {
                    regs.cc >> l & 1 == 1
                };
                took_a |= u64::from(pick_a && x != y) << l;
                r_v[l] = if pick_a { x } else { y };
            }
            regs.write(d, mask, r_v);
            if high {
                regs.cc = (regs.cc & !mask) | (took_a & mask);
                regs.zf = (regs.zf & !mask) | (equal & mask);
            }
        }
        Op::PopcAnd { d, a, b } => ex.ints(d, [a, b], |_, [a, b]| (a & b).count_ones()),
        Op::Video3 {
            d,
            a,
            b,
            c,
            first,
            second,
            signed,
        } => {
            let apply = |op: VideoOp, x: u32, y: u32| match op {
                VideoOp::Add => x.wrapping_add(y),
                VideoOp::Min if signed => (x as i32).min(y as i32) as u32,
                VideoOp::Max if signed => (x as i32).max(y as i32) as u32,
                VideoOp::Min => x.min(y),
                VideoOp::Max => x.max(y),
            };
            ex.ints(d, [a, b, c], |_, [a, b, c]| {
                apply(second, apply(first, a, b), c)
            });
        }
        Op::Bfe {
            d,
            a,
            ctl,
            signed,
            brev,
        } => ex.ints(d, [a, ctl], |_, [a, ctl]| bfe(a, ctl, signed, brev)),
        Op::Bfi { d, a, ctl, c } => ex.ints(d, [a, ctl, c], |_, [a, ctl, c]| bfi(a, ctl, c)),
        Op::CmpSel {
            d,
            a,
            b,
            c,
            cmp,
            signed,
            float,
            ftz,
        } => {
            if float {
                let mut fc = [0f32; 64];
                c.floats(ex.0, ex.1, ftz, &mut fc);
                let t = |l: usize| cmp.floats(f64::from(fc[l]), 0.0);
                ex.ints(d, [a, b], |l, [a, b]| if t(l) { a } else { b });
            } else {
                cmp_int(cmp, 0, 0, signed)?;
                ex.ints(d, [a, b, c], |_, [a, b, c]| {
                    let t = cmp_int(cmp, c, 0, signed).unwrap_or(false);
                    if t {
                        a
                    } else {
                        b
                    }
                });
            }
        }
        Op::SetReg {
            d,
            a,
            b,
            p,
            cmp,
            signed,
            float,
            bop,
            bf,
            ftz,
            x,
        } => {
            let Exec(regs, ids, mask, [a_v, b_v, _, r_v]) = ex;
            let pm = regs.pred_mask(p, mask);
            let holds = if float {
                let (mut fa, mut fb) = ([0f32; 64], [0f32; 64]);
                a.floats(regs, ids, ftz, &mut fa);
                b.floats(regs, ids, ftz, &mut fb);
                lanes_where(regs.ws, |l| cmp.floats(f64::from(fa[l]), f64::from(fb[l])))
            } else if x {
                compare_x(regs, ids, cmp, signed, [a, b])?
            } else {
                a.ints(regs, ids, a_v);
                b.ints(regs, ids, b_v);
                cmp_int(cmp, 0, 0, signed)?;
                lanes_where(regs.ws, |l| {
                    cmp_int(cmp, a_v[l], b_v[l], signed).unwrap_or(false)
                })
            };
            let combined = lanes_where(regs.ws, |l| {
                bop.apply(holds >> l & 1 == 1, pm >> l & 1 == 1)
            });
            one_where(combined, bf, &mut r_v[..regs.ws]);
            regs.write(d, mask, r_v);
        }
        Op::I2I {
            d,
            a,
            dst,
            src,
            sat,
        } => {
            let Exec(regs, ids, mask, [a_v, .., r_v]) = ex;
            let raw = Src {
                neg: false,
                inv: false,
                abs: false,
                ..a
            };
            raw.fetch_all(regs, ids, a_v);
            for l in 0..regs.ws {
                let mut v = extend(u64::from(a_v[l]), src);
                if a.abs {
                    v = v.abs();
                }
                if a.neg {
                    v = -v;
                }
                if a.inv {
                    v = !v;
                }
                r_v[l] = narrow(v, dst, sat);
            }
            regs.write(d, mask, r_v);
        }
        Op::Mufu64H { d, a, rsq } => ex.ints(d, [a], |_, [a]| {
            let x = f64::from_bits(u64::from(a) << 32);
            let r = if rsq { 1.0 / x.sqrt() } else { 1.0 / x };
            (r.to_bits() >> 32) as u32
        }),
        _ => return Err("not a Kepler–Pascal operation".into()),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_fields_by_hand() {
        // Byte 1 of 0x12345678 (pos 8, len 8): 0x56.
        assert_eq!(bfe(0x1234_5678, 0x808, false, false), 0x56);
        // Bits 4..8 of 0xf0 are 1111: signed, that is -1.
        assert_eq!(bfe(0xf0, 0x404, true, false), u32::MAX);
        assert_eq!(bfe(0xf0, 0x404, false, false), 0xf);
        // Zero length: 0.
        assert_eq!(bfe(0xffff_ffff, 0x0010, true, false), 0);
        // The field runs past bit 31: what remains, sign from bit 31.
        assert_eq!(bfe(0x8000_0000, 0x101f, true, false), u32::MAX);
        // Bit-reversed 0x1 is 0x80000000; its top bit (pos 31, len 1) is 1.
        assert_eq!(bfe(1, 0x11f, false, true), 1);
        // 0xffff_0000 with byte 1 replaced by 0xab: 0xffff_ab00.
        assert_eq!(bfi(0xab, 0x808, 0xffff_0000), 0xffff_ab00);
        // Inserting zeros (BFI R, RZ, 0x1010, R): clears bits 16..32.
        assert_eq!(bfi(0, 0x1010, 0xdead_beef), 0x0000_beef);
    }

    #[test]
    fn integer_conversions_by_hand() {
        let s32 = IntType {
            bits: 32,
            signed: true,
        };
        let s16 = IntType {
            bits: 16,
            signed: true,
        };
        let u8t = IntType {
            bits: 8,
            signed: false,
        };
        // 0x1234_8000 as S16 is 0x8000 = -32768, sign-extended.
        assert_eq!(narrow(extend(0x1234_8000, s32), s16, false), 0xffff_8000);
        // 300 into U8: wraps to 44, saturates to 255; -5 saturates to 0.
        assert_eq!(narrow(300, u8t, false), 44);
        assert_eq!(narrow(300, u8t, true), 255);
        assert_eq!(narrow(-5, u8t, true), 0);
    }

    #[test]
    fn mufu_values_by_hand() {
        assert_eq!(mufu(MufuFunc::Rcp, 4.0), 0.25);
        assert_eq!(mufu(MufuFunc::Rsq, 16.0), 0.25);
        assert_eq!(mufu(MufuFunc::Ex2, -3.0), 0.125);
        assert_eq!(mufu(MufuFunc::Lg2, 1024.0), 10.0);
        // A quarter turn: sin = 1, cos = 6.1e-17 rounds to that tiny float, not 0.
        assert_eq!(mufu(MufuFunc::Sin, 0.25), 1.0);
        assert!(mufu(MufuFunc::Cos, 0.25).abs() < 1e-16);
        assert!(mufu(MufuFunc::Rcp, 0.0).is_infinite());
        assert!(mufu(MufuFunc::Rsq, -1.0).is_nan());
    }
}
