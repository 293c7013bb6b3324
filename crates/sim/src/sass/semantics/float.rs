//! Floating-point arithmetic and comparisons, `MUFU` and `FCHK`.

use super::*;
use crate::correctly_rounded::{add_f64, fma_f64, mul_f64};
use crate::rounding::{round_sum, two_sum};

/// `FCHK` (see the module doc): whether `a / b` needs the slow path.
fn fchk(a: f32, b: f32) -> bool {
    let exp = |x: f32| ((x.to_bits() >> 23) & 0xff) as i32;
    let hard_b = !b.is_normal();
    let hard_a = a != 0.0 && !a.is_normal();
    hard_b || hard_a || (a != 0.0 && (exp(a) - exp(b)).abs() > 125)
}

/// Single-precision `FADD`/`FMUL`/`FFMA` rounded in mode `r` (`.RM`/`.RP`/`.RZ`): the
/// product of two f32 is exact in f64, the sum's error is carried exactly. A product scaled
/// by `2^scale` (`FMUL.D2`…`.M8`) is rounded once after the scaling.
fn directed_f32(kind: FloatKind, [x, y, z]: [f32; 3], r: Round, scale: i8) -> f32 {
    if scale != 0 && kind == FloatKind::Mul {
        return crate::correctly_rounded::scaled_product_f32(x, y, i32::from(scale), r);
    }
    let (x, y, z) = (f64::from(x), f64::from(y), f64::from(z));
    let (s, err) = match kind {
        FloatKind::Add => two_sum(x, y),
        FloatKind::Mul => (x * y, 0.0),
        FloatKind::Fma => two_sum(x * y, z),
        FloatKind::MinMax => return x.min(y) as f32,
    };
    round_sum(s, err, r)
}

/// [`directed_f32`] for every lane, then `.FTZ` and `.SAT` (the result flushed, then
/// clamped to [0, 1] with NaN → 0, as in the nearest path).
#[inline(never)]
fn directed_lanes(
    kind: FloatKind,
    [fa, fb, fc]: [&[f32; 64]; 3],
    (round, scale): (Round, i8),
    ftz: bool,
    sat: bool,
    out: &mut [u32],
) {
    for (l, o) in out.iter_mut().enumerate() {
        let r = directed_f32(kind, [fa[l], fb[l], fc[l]], round, scale);
        *o = f32_bits(flush_saturate(r, ftz, sat));
    }
}

/// The float operations of the common path ([`execute_alu`]'s contract), inlined there.
#[inline(always)]
pub(super) fn execute(op: &Op, Exec(regs, ids, mask, [.., r_v]): Exec<'_>) -> Result<(), String> {
    let ws = regs.ws;
    match *op {
        Op::FSetP {
            p,
            q,
            cmp,
            ftz,
            double,
            a,
            b,
            bop,
            c,
        } => {
            let cm = regs.pred_mask(c, mask);
            let (mut pb, mut qb) = (0u64, 0u64);
            for l in lanes(mask) {
                let (x, y) = if double {
                    (a.f64(regs, l)?, b.f64(regs, l)?)
                } else {
                    (
                        f64::from(a.f32(regs, ids, l, ftz)),
                        f64::from(b.f32(regs, ids, l, ftz)),
                    )
                };
                let r = cmp.floats(x, y);
                let cv = cm >> l & 1 == 1;
                pb |= u64::from(bop.apply(r, cv)) << l;
                qb |= u64::from(bop.apply(!r, cv)) << l;
            }
            regs.set_pred(p, mask, pb);
            regs.set_pred(q, mask, qb);
        }
        Op::Float {
            kind,
            d,
            a,
            b,
            c,
            ftz,
            sat,
            double: false,
            p,
            round,
            scale,
        } => {
            let pm = regs.pred_mask(p, mask);
            let mut fa = [0f32; 64];
            let mut fb = [0f32; 64];
            let mut fc = [0f32; 64];
            a.floats(regs, ids, ftz, &mut fa);
            b.floats(regs, ids, ftz, &mut fb);
            if kind == FloatKind::Fma {
                c.floats(regs, ids, ftz, &mut fc);
            }
            if round != Round::Nearest || scale != 0 {
                // `.RZ`/`.RM`/`.RP` (sm_70+ division slow path) and `FMUL.D2`…: rare, apart.
                let operands = [&fa, &fb, &fc];
                directed_lanes(kind, operands, (round, scale), ftz, sat, &mut r_v[..ws]);
                regs.write(d, mask, r_v);
                return Ok(());
            }
            for l in 0..ws {
                let (x, y) = (fa[l], fb[l]);
                let r = match kind {
                    FloatKind::Add => x + y,
                    FloatKind::Mul => x * y,
                    FloatKind::Fma => x.mul_add(y, fc[l]),
                    FloatKind::MinMax => {
                        if pm >> l & 1 == 1 {
                            x.min(y)
                        } else {
                            x.max(y)
                        }
                    }
                };
                r_v[l] = f32_bits(flush_saturate(r, ftz, sat));
            }
            regs.write(d, mask, r_v);
        }
        Op::Float {
            kind,
            d,
            a,
            b,
            c,
            sat,
            p,
            round,
            ..
        } => {
            if sat {
                return Err("saturation of a double-precision result".into());
            }
            let pm = regs.pred_mask(p, mask);
            for l in lanes(mask) {
                let (x, y) = (a.f64(regs, l)?, b.f64(regs, l)?);
                // `.RZ`/`.RM`/`.RP`: exactly, by `correctly_rounded` (to nearest: the host's).
                let r = match kind {
                    FloatKind::Add if round != Round::Nearest => add_f64(x, y, round),
                    FloatKind::Mul if round != Round::Nearest => mul_f64(x, y, round),
                    FloatKind::Fma if round != Round::Nearest => {
                        fma_f64(x, y, c.f64(regs, l)?, round)
                    }
                    FloatKind::Add => x + y,
                    FloatKind::Mul => x * y,
                    FloatKind::Fma => x.mul_add(y, c.f64(regs, l)?),
                    FloatKind::MinMax => {
                        if pm >> l & 1 == 1 {
                            x.min(y)
                        } else {
                            x.max(y)
                        }
                    }
                };
                regs.set_pair(d, l, f64_bits(r));
            }
        }
        _ => return Err("not a float operation".into()),
    }
    Ok(())
}

/// The rarer float operations (sm_70+ forms; [`execute_alu`]'s contract), kept out of the
/// common path.
#[inline(never)]
pub(super) fn execute_rare(op: &Op, ex: Exec<'_>) -> Result<(), String> {
    let Exec(regs, ids, mask, [a_v, b_v, _, r_v]) = ex;
    match *op {
        Op::Mufu { d, a, func } => {
            let mut fa = [0f32; 64];
            a.floats(regs, ids, false, &mut fa);
            for l in 0..regs.ws {
                r_v[l] = f32_bits(kepler_pascal::mufu(func, fa[l]));
            }
            regs.write(d, mask, r_v);
        }
        Op::FChk { p, a, b } => {
            a.ints(regs, ids, a_v);
            b.ints(regs, ids, b_v);
            let slow = lanes_where(regs.ws, |l| {
                fchk(f32::from_bits(a_v[l]), f32::from_bits(b_v[l]))
            });
            regs.set_pred(p, mask, slow);
        }
        _ => return Err("not a float operation".into()),
    }
    Ok(())
}
