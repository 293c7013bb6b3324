//! Integer arithmetic, shifts, logic and selects (see the readings in the parent module).

use super::*;

/// PTX `prmt.b32` (default mode): byte `i` of the result is the byte of `b:a` named by
/// nibble `i` of `sel` (bits 0–2), or its sign replicated when bit 3 is set.
fn prmt(a: u32, sel: u32, b: u32) -> u32 {
    let bytes = u64::from(b) << 32 | u64::from(a);
    let mut r = 0u32;
    for i in 0..4 {
        let nib = sel >> (4 * i) & 0xf;
        let mut byte = (bytes >> (8 * (nib & 7))) as u32 & 0xff;
        if nib & 8 != 0 {
            byte = if byte & 0x80 != 0 { 0xff } else { 0 };
        }
        r |= byte << (8 * i);
    }
    r
}

/// `SHF`: the funnel shift of `c:a` by `s` (see the module doc).
fn shf(a: u32, s: u32, c: u32, left: bool, hi: bool, signed: bool, wide: bool) -> u32 {
    let v = u64::from(c) << 32 | u64::from(a);
    let s = s.min(if wide { 64 } else { 32 });
    let r = if left {
        v.checked_shl(s).unwrap_or(0)
    } else if signed {
        ((v as i64) >> s.min(63)) as u64
    } else {
        v.checked_shr(s).unwrap_or(0)
    };
    if hi {
        (r >> 32) as u32
    } else {
        r as u32
    }
}

/// `FLO` (PTX `bfind`): the position of the most significant 1 (for a negative signed value,
/// of the most significant 0), `.SH`: 31 minus it; `0xffffffff` when there is none.
fn flo(v: u32, signed: bool, sh: bool) -> u32 {
    let x = if signed && (v as i32) < 0 { !v } else { v };
    if x == 0 {
        return u32::MAX;
    }
    let pos = 31 - x.leading_zeros();
    if sh {
        31 - pos
    } else {
        pos
    }
}

/// The integer operations of the common path ([`execute_alu`]'s contract), inlined there.
#[inline(always)]
pub(super) fn execute(op: &Op, ex: Exec<'_>) -> Result<(), String> {
    match *op {
        Op::IAdd { d, a, b, c, x, cc } => {
            let Exec(regs, ids, mask, [a_v, b_v, c_v, r_v]) = ex;
            let ws = regs.ws;
            let (ta, tb, tc) = (a.term(x), b.term(x), c.term(x));
            if !x && !cc {
                // No carry in or out (the common case): a plain loop over the operands in
                // place.
                let (av, bv, cv) = (
                    a.view(regs, ids, a_v),
                    b.view(regs, ids, b_v),
                    c.view(regs, ids, c_v),
                );
                for l in 0..ws {
                    r_v[l] = (ta.apply(av[l]) + tb.apply(bv[l]) + tc.apply(cv[l])) as u32;
                }
                regs.write(d, mask, r_v);
                return Ok(());
            }
            a.fetch_all(regs, ids, a_v);
            b.fetch_all(regs, ids, b_v);
            c.fetch_all(regs, ids, c_v);
            let mut carry = 0u64;
            for l in 0..ws {
                let cin = u64::from(x && regs.cc >> l & 1 == 1);
                let s = ta.apply(a_v[l]) + tb.apply(b_v[l]) + tc.apply(c_v[l]) + cin;
                r_v[l] = s as u32;
                carry |= u64::from(s >> 32 != 0) << l;
            }
            regs.write_with_carry(d, mask, r_v, cc.then_some(carry));
        }
        Op::IScAdd { d, a, b, shift, cc } => {
            let Exec(regs, ids, mask, [a_v, b_v, _, r_v]) = ex;
            let ws = regs.ws;
            let tb = b.term(false);
            if !cc {
                let (ax, bx) = (a.int_view(regs, ids, a_v), b.view(regs, ids, b_v));
                for l in 0..ws {
                    r_v[l] = (u64::from(ax[l] << shift) + tb.apply(bx[l])) as u32;
                }
                regs.write(d, mask, r_v);
                return Ok(());
            }
            a.ints(regs, ids, a_v);
            b.fetch_all(regs, ids, b_v);
            let mut carry = 0u64;
            for l in 0..ws {
                let s = u64::from(a_v[l] << shift) + tb.apply(b_v[l]);
                r_v[l] = s as u32;
                carry |= u64::from(s >> 32 != 0) << l;
            }
            regs.write_with_carry(d, mask, r_v, cc.then_some(carry));
        }
        Op::IMad {
            d,
            a,
            b,
            c,
            hi,
            signed,
            x,
            cc,
        } => {
            let Exec(regs, ids, mask, [a_v, b_v, c_v, r_v]) = ex;
            let ws = regs.ws;
            let tc = c.term(x);
            if !x && !cc && !hi {
                // The low word of the product plus c: wrapping 32-bit arithmetic, signed or not.
                let (ax, bx, cx) = (
                    a.int_view(regs, ids, a_v),
                    b.int_view(regs, ids, b_v),
                    c.view(regs, ids, c_v),
                );
                for l in 0..ws {
                    r_v[l] = ax[l]
                        .wrapping_mul(bx[l])
                        .wrapping_add(tc.apply(cx[l]) as u32);
                }
                regs.write(d, mask, r_v);
                return Ok(());
            }
            a.ints(regs, ids, a_v);
            b.ints(regs, ids, b_v);
            c.fetch_all(regs, ids, c_v);
            let mut carry = 0u64;
            for l in 0..ws {
                let (av, bv) = (a_v[l], b_v[l]);
                let prod = if signed {
                    (i64::from(av as i32) * i64::from(bv as i32)) as u64
                } else {
                    u64::from(av) * u64::from(bv)
                };
                let part = if hi { prod >> 32 } else { prod & 0xffff_ffff };
                let cin = u64::from(x && regs.cc >> l & 1 == 1);
                let s = part + tc.apply(c_v[l]) + cin;
                r_v[l] = s as u32;
                carry |= u64::from(s >> 32 != 0) << l;
            }
            regs.write_with_carry(d, mask, r_v, cc.then_some(carry));
        }
        Op::XMad {
            d,
            a,
            b,
            c,
            mrg,
            psl,
            cbcc,
            chi,
            clo,
            a_signed,
            b_signed,
        } => {
            // `a` with its half selected; `b` raw (its half is applied here); `c` as integer.
            let Exec(regs, ids, mask, [a_v, b_v, c_v, r_v]) = ex;
            a.fetch_all(regs, ids, a_v);
            let b_raw = Src {
                half: Half::Whole,
                ..b
            };
            b_raw.fetch_all(regs, ids, b_v);
            c.ints(regs, ids, c_v);
            for l in 0..regs.ws {
                let braw = b_v[l];
                let bsel = if b.half == Half::H1 {
                    braw >> 16
                } else {
                    braw & 0xffff
                };
                let half = |v: u32, signed: bool| {
                    if signed {
                        v as u16 as i16 as i32 as u32
                    } else {
                        v & 0xffff
                    }
                };
                let mut prod = half(a_v[l], a_signed).wrapping_mul(half(bsel, b_signed));
                if psl {
                    prod <<= 16;
                }
                let mut cv = c_v[l];
                if chi {
                    cv >>= 16;
                } else if clo {
                    cv &= 0xffff;
                }
                if cbcc {
                    cv = cv.wrapping_add(braw << 16);
                }
                let mut r = prod.wrapping_add(cv);
                if mrg {
                    r = (r & 0xffff) | (braw << 16);
                }
                r_v[l] = r;
            }
            regs.write(d, mask, r_v);
        }
        Op::Shift {
            d,
            a,
            b,
            left,
            signed,
            wrap,
        } => ex.ints(d, [a, b], |_, [av, s]| {
            let s = if wrap { s & 31 } else { s };
            if left {
                if s >= 32 {
                    0
                } else {
                    av << s
                }
            } else if signed {
                ((av as i32) >> s.min(31)) as u32
            } else if s >= 32 {
                0
            } else {
                av >> s
            }
        }),
        Op::Lop { d, a, b, op, p } => {
            let Exec(regs, ids, mask, [a_v, b_v, _, r_v]) = ex;
            let (ax, bx) = (a.int_view(regs, ids, a_v), b.int_view(regs, ids, b_v));
            for l in 0..regs.ws {
                let (av, bv) = (ax[l], bx[l]);
                r_v[l] = match op {
                    LopKind::And => av & bv,
                    LopKind::Or => av | bv,
                    LopKind::Xor => av ^ bv,
                    LopKind::PassB => bv,
                };
            }
            regs.write(d, mask, r_v);
            regs.set_pred_nonzero(p, mask, r_v);
        }
        Op::Lop3 { d, a, b, c, lut, p } => {
            let mask = ex.2;
            // LUT bit i is the result for (a, b, c) = (bit 2, bit 1, bit 0 of i), bit by bit.
            let (regs, r_v) = ex.ints_kept(d, [a, b, c], |_, [x, y, z]| {
                lut3(lut, x.into(), y.into(), z.into()) as u32
            });
            regs.set_pred_nonzero(p, mask, r_v);
        }
        Op::Sel { d, a, b, p } => {
            let pm = ex.0.pred_mask(p, ex.2);
            ex.ints(d, [a, b], |l, [x, y]| if pm >> l & 1 == 1 { x } else { y });
        }
        Op::IMnMx { d, a, b, p, signed } => {
            let pm = ex.0.pred_mask(p, ex.2);
            ex.ints(d, [a, b], |l, [x, y]| {
                let less = if signed {
                    (x as i32) < (y as i32)
                } else {
                    x < y
                };
                let min = pm >> l & 1 == 1;
                if less == min {
                    x
                } else {
                    y
                }
            });
        }
        _ => return Err("not a integer operation".into()),
    }
    Ok(())
}

/// The rarer integer operations (sm_70+ forms; [`execute_alu`]'s contract), kept out of the
/// common path.
#[inline(never)]
pub(super) fn execute_rare(op: &Op, ex: Exec<'_>) -> Result<(), String> {
    match *op {
        Op::VImad {
            d,
            a,
            b,
            c,
            part,
            signed,
            cin,
            cout,
        } => {
            let Exec(regs, ids, mask, [a_v, b_v, c_v, r_v]) = ex;
            a.ints(regs, ids, a_v);
            b.ints(regs, ids, b_v);
            let cin_mask = cin.map_or(0, |p| regs.pred_mask(p, u64::MAX));
            match part {
                MadPart::Lo => {
                    let tc = c.term(cin.is_some());
                    c.fetch_all(regs, ids, c_v);
                    for l in 0..regs.ws {
                        let s = u64::from(a_v[l].wrapping_mul(b_v[l]))
                            + tc.apply(c_v[l])
                            + (cin_mask >> l & 1);
                        r_v[l] = s as u32;
                    }
                    regs.write(d, mask, r_v);
                }
                MadPart::Hi | MadPart::Wide => {
                    let mut carry = 0u64;
                    for l in lanes(mask) {
                        let (x, y) = (a_v[l], b_v[l]);
                        let prod = if signed {
                            (i64::from(x as i32) * i64::from(y as i32)) as u64
                        } else {
                            u64::from(x) * u64::from(y)
                        };
                        let (sum, out) = prod.overflowing_add(c.pair(regs, l)?);
                        carry |= u64::from(out) << l;
                        if part == MadPart::Hi {
                            regs.set(d, l, (sum >> 32) as u32);
                        } else {
                            regs.set_pair(d, l, sum);
                        }
                    }
                    if let Some(p) = cout {
                        regs.set_pred(p, mask, carry);
                    }
                }
            }
        }
        Op::VIAdd3 {
            d,
            a,
            b,
            c,
            cin,
            cout,
            cout2,
        } => {
            let Exec(regs, ids, mask, [a_v, b_v, c_v, r_v]) = ex;
            let x = cin.is_some();
            let (ta, tb, tc) = (a.term(x), b.term(x), c.term(x));
            let (c0, c1) = match cin {
                Some([p, q]) => (regs.pred_mask(p, u64::MAX), regs.pred_mask(q, u64::MAX)),
                None => (0, 0),
            };
            let (av, bv, cv) = (
                a.view(regs, ids, a_v),
                b.view(regs, ids, b_v),
                c.view(regs, ids, c_v),
            );
            let (mut carry, mut carry2) = (0u64, 0u64);
            for l in 0..regs.ws {
                let s = ta.apply(av[l])
                    + tb.apply(bv[l])
                    + tc.apply(cv[l])
                    + (c0 >> l & 1)
                    + (c1 >> l & 1);
                r_v[l] = s as u32;
                carry |= u64::from(s >> 32 != 0) << l;
                carry2 |= u64::from(s >> 32 >= 2) << l;
            }
            regs.write(d, mask, r_v);
            if let Some(p) = cout {
                regs.set_pred(p, mask, carry);
            }
            if let Some(p) = cout2 {
                regs.set_pred(p, mask, carry2);
            }
        }
        Op::Lea {
            d,
            a,
            b,
            hi_src,
            shift,
            hi,
            sx32,
            cin,
            cout,
            cc_in,
            cc,
        } => {
            let Exec(regs, ids, mask, [a_v, b_v, c_v, r_v]) = ex;
            a.ints(regs, ids, a_v);
            b.fetch_all(regs, ids, b_v);
            hi_src.ints(regs, ids, c_v);
            let tb = b.term(cin.is_some() || cc_in);
            let cin_mask = if cc_in {
                regs.cc
            } else {
                cin.map_or(0, |p| regs.pred_mask(p, u64::MAX))
            };
            let mut carry = 0u64;
            for l in 0..regs.ws {
                let shifted = if hi {
                    let h = if sx32 {
                        ((a_v[l] as i32) >> 31) as u32
                    } else {
                        c_v[l]
                    };
                    ((u64::from(h) << 32 | u64::from(a_v[l])) << shift >> 32) as u32
                } else {
                    a_v[l] << shift
                };
                let s = u64::from(shifted) + tb.apply(b_v[l]) + (cin_mask >> l & 1);
                r_v[l] = s as u32;
                carry |= u64::from(s >> 32 != 0) << l;
            }
            regs.write(d, mask, r_v);
            if let Some(p) = cout {
                regs.set_pred(p, mask, carry);
            }
            if cc {
                regs.set_flags(mask, carry, r_v);
            }
        }
        Op::Shf {
            d,
            a,
            s,
            c,
            left,
            hi,
            signed,
            wide,
        } => ex.ints(d, [a, s, c], |_, [a, s, c]| {
            shf(a, s, c, left, hi, signed, wide)
        }),
        Op::Prmt { d, a, sel, b } => ex.ints(d, [a, sel, b], |_, [a, sel, b]| prmt(a, sel, b)),
        Op::IAbs { d, a } => ex.ints(d, [a], |_, [a]| (a as i32).wrapping_abs() as u32),
        Op::Bits { d, a, kind } => ex.ints(d, [a], |_, [v]| match kind {
            BitsKind::Popc => v.count_ones(),
            BitsKind::Brev => v.reverse_bits(),
            BitsKind::Flo { signed, sh } => flo(v, signed, sh),
        }),
        _ => return Err("not a integer operation".into()),
    }
    Ok(())
}
