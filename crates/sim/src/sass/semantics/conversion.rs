//! Conversions between integers and floats and between float widths: `I2F`, `F2I`, `F2F`.

use super::*;

/// `x` (exact in f64: every 32-bit integer is) rounded to f32 in mode `r`: round to
/// nearest, then step one ulp toward the required direction if that overshot.
fn round_f64_to_f32(x: f64, r: Round) -> f32 {
    let n = x as f32;
    let back = f64::from(n);
    match r {
        Round::Nearest => n,
        Round::Zero if back.abs() > x.abs() => {
            if n > 0.0 {
                n.next_down()
            } else {
                n.next_up()
            }
        }
        Round::Down if back > x => n.next_down(),
        Round::Up if back < x => n.next_up(),
        _ => n,
    }
}

fn f2i(f: f32, signed: bool, r: Round) -> u32 {
    let v = integral(f64::from(f), r);
    if v.is_nan() {
        0
    } else if signed {
        (v as i32) as u32
    } else {
        v as u32
    }
}

/// The conversion operations of the common path ([`execute_alu`]'s contract), inlined there.
#[inline(always)]
pub(super) fn execute(op: &Op, ex: Exec<'_>) -> Result<(), String> {
    match *op {
        Op::I2F {
            d,
            a,
            signed,
            src_bits,
            round,
        } => {
            let unused = 32 - src_bits.min(32);
            ex.ints(d, [a], |_, [a]| {
                // The source's low `src_bits`, extended to 32 bits as its type says.
                let x = if signed {
                    f64::from((a << unused) as i32 >> unused)
                } else {
                    f64::from((a << unused) >> unused)
                };
                round_f64_to_f32(x, round).to_bits()
            });
        }
        Op::F2I { double: true, .. } | Op::F2I { wide: true, .. } => return f2i_wide(op, ex),
        Op::F2I {
            d,
            a,
            signed,
            round,
            ftz,
            ..
        } => {
            let Exec(regs, ids, mask, [.., r_v]) = ex;
            let mut fa = [0f32; 64];
            a.floats(regs, ids, ftz, &mut fa);
            for l in 0..regs.ws {
                r_v[l] = f2i(fa[l], signed, round);
            }
            regs.write(d, mask, r_v);
        }
        Op::F2F {
            to_double,
            from_double,
            ..
        } if to_double == from_double => {
            return Err("same-type F2F is decoded as a rounding (FRound)".into())
        }
        Op::F2F {
            d,
            a,
            from_double,
            ftz,
            round,
            sat,
            ..
        } => {
            let Exec(regs, ids, mask, _) = ex;
            for l in lanes(mask) {
                if from_double {
                    let f = crate::correctly_rounded::f64_to_f32(a.f64(regs, l)?, round);
                    regs.set(d, l, f32_bits(flush_saturate(f, ftz, sat)));
                } else {
                    let x = f64::from(a.f32(regs, ids, l, ftz));
                    regs.set_pair(d, l, f64_bits(if sat { saturate_f64(x) } else { x }));
                }
            }
        }
        _ => return Err("not a conversion operation".into()),
    }
    Ok(())
}

/// `x` rounded to an integral value in mode `r` (IEEE roundToIntegral: the sign of a zero
/// result is `x`'s).
fn integral(x: f64, r: Round) -> f64 {
    match r {
        Round::Nearest => x.round_ties_even(),
        Round::Zero => x.trunc(),
        Round::Down => x.floor(),
        Round::Up => x.ceil(),
    }
}

/// `F2I` from a double or into a 64-bit register pair (see [`Op::F2I`]).
#[inline(never)]
fn f2i_wide(op: &Op, Exec(regs, ids, mask, _): Exec<'_>) -> Result<(), String> {
    let Op::F2I {
        d,
        a,
        signed,
        round,
        ftz,
        double,
        wide,
    } = *op
    else {
        return Err("not an F2I".into());
    };
    for l in lanes(mask) {
        let x = if double {
            a.f64(regs, l)?
        } else {
            f64::from(a.f32(regs, ids, l, ftz))
        };
        // `as` saturates and maps NaN to 0, as PTX `cvt` does.
        let v = integral(x, round);
        let bits = match (wide, signed) {
            (true, true) => (v as i64) as u64,
            (true, false) => v as u64,
            (false, true) => u64::from((v as i32) as u32),
            (false, false) => u64::from(v as u32),
        };
        if wide {
            regs.set_pair(d, l, bits);
        } else {
            regs.set(d, l, bits as u32);
        }
    }
    Ok(())
}

/// The rarer conversions (`I2F.F64`, `FRND`, same-type `F2F`; [`execute_alu`]'s contract),
/// kept out of the common path.
#[inline(never)]
pub(super) fn execute_rare(
    op: &Op,
    Exec(regs, ids, mask, [a_v, ..]): Exec<'_>,
) -> Result<(), String> {
    match *op {
        Op::I2F64 { d, a, src, round } => {
            if src.bits < 64 {
                a.ints(regs, ids, a_v);
            }
            let unused = 32 - src.bits.min(32);
            for l in lanes(mask) {
                let v = if src.bits == 64 {
                    let bits = a.pair(regs, l)?;
                    if src.signed {
                        i128::from(bits as i64)
                    } else {
                        i128::from(bits)
                    }
                } else if src.signed {
                    i128::from((a_v[l] << unused) as i32 >> unused)
                } else {
                    i128::from((a_v[l] << unused) >> unused)
                };
                regs.set_pair(
                    d,
                    l,
                    crate::correctly_rounded::int_to_f64(v, round).to_bits(),
                );
            }
        }
        Op::FRound {
            d,
            a,
            double,
            to_int,
            ftz,
            sat,
        } => {
            for l in lanes(mask) {
                if double {
                    let mut x = a.f64(regs, l)?;
                    if let Some(r) = to_int {
                        x = integral(x, r);
                    }
                    regs.set_pair(d, l, f64_bits(if sat { saturate_f64(x) } else { x }));
                } else {
                    let mut f = a.f32(regs, ids, l, ftz);
                    if let Some(r) = to_int {
                        // Exact in f64, and the integral value is a float again.
                        f = integral(f64::from(f), r) as f32;
                    }
                    regs.set(d, l, f32_bits(flush_saturate(f, ftz, sat)));
                }
            }
        }
        _ => return Err("not a conversion operation".into()),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directed_rounding_of_i2f() {
        // 2^24 + 1 is not a float: nearest-even gives 2^24, up gives 2^24 + 2.
        let x = 16_777_217.0;
        assert_eq!(round_f64_to_f32(x, Round::Nearest), 16_777_216.0);
        assert_eq!(round_f64_to_f32(x, Round::Up), 16_777_218.0);
        assert_eq!(round_f64_to_f32(x, Round::Down), 16_777_216.0);
        assert_eq!(round_f64_to_f32(x, Round::Zero), 16_777_216.0);
        // 2^24 + 3 rounds to nearest-even 2^24 + 4; toward zero gives 2^24 + 2.
        assert_eq!(round_f64_to_f32(16_777_219.0, Round::Nearest), 16_777_220.0);
        assert_eq!(round_f64_to_f32(16_777_219.0, Round::Zero), 16_777_218.0);
        assert_eq!(round_f64_to_f32(-16_777_219.0, Round::Zero), -16_777_218.0);
    }

    #[test]
    fn f2i_saturates_and_maps_nan_to_zero() {
        assert_eq!(f2i(f32::NAN, true, Round::Zero), 0);
        assert_eq!(f2i(3e9, true, Round::Zero), i32::MAX as u32);
        assert_eq!(f2i(-1.5, false, Round::Zero), 0);
        assert_eq!(f2i(2.5, true, Round::Nearest), 2);
        assert_eq!(f2i(-2.5, true, Round::Down), (-3i32) as u32);
    }
}
