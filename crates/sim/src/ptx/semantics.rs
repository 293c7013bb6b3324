//! Per-lane functional semantics of the decoded PTX operations (PTX ISA 7.x, chapter 9).
//!
//! Readings written down here because the ISA leaves them open or we simplify:
//! - `.approx` forms (`div.approx`, `rcp.approx`, `sqrt.approx`, `lg2.approx`, `ex2.approx`,
//!   `sin/cos.approx`) are computed as the correctly rounded IEEE operation (Rust `f32`/`f64`),
//!   i.e. the most accurate value the approximation may return;
//! - `mad.f32` without rounding is computed as `fma` (what sm_20+ does, PTX ISA §9.7.3.6);
//! - `.ftz` flushes `f32` subnormal inputs and results to a zero of the same sign; `.sat`
//!   clamps a float result to `[0, 1]` (NaN → 0);
//! - integer division or remainder by zero has an unspecified result in PTX, so it stops the
//!   run ("cannot simulate … division by zero") rather than guess;
//! - float → integer `cvt` saturates and maps NaN to 0 (PTX ISA §9.7.9.21), which is Rust's
//!   `as`; integer → float and `f64 → f32` round to nearest only (`.rn`, the default);
//!   other float rounding modes stop the run.

use super::program::{BoolOp, Cmp, FloatOp, IntOp, Op, Round, Special, Src};
use isa::ptx::ScalarType;

/// One warp's registers: `values[reg * ws + lane]`, one 64-bit word each (see `layout`).
#[derive(Debug, Clone)]
pub(crate) struct Regs {
    pub ws: usize,
    pub values: Vec<u64>,
}

/// Who a lane is.
#[derive(Debug, Clone)]
pub(crate) struct Ids {
    pub tid: Vec<[u32; 3]>,
    pub ntid: [u32; 3],
    pub ctaid: [u32; 3],
    pub nctaid: [u32; 3],
    pub warp_in_block: u32,
}

impl Regs {
    pub fn new(ws: usize, regs: usize) -> Self {
        Regs {
            ws,
            values: vec![0; ws * regs],
        }
    }

    #[inline]
    pub fn get(&self, r: u32, lane: usize) -> u64 {
        self.values
            .get(r as usize * self.ws + lane)
            .copied()
            .unwrap_or(0)
    }

    #[inline]
    pub fn set(&mut self, r: u32, lane: usize, v: u64) {
        if let Some(x) = self.values.get_mut(r as usize * self.ws + lane) {
            *x = v;
        }
    }

    /// Lanes of `mask` whose predicate `(r, neg)` holds.
    pub fn pred_mask(&self, guard: Option<(u32, bool)>, mask: u64) -> u64 {
        let Some((r, neg)) = guard else {
            return mask;
        };
        let mut out = 0;
        for lane in lanes(mask) {
            if (self.get(r, lane) & 1 == 1) != neg {
                out |= 1 << lane;
            }
        }
        out
    }
}

/// The set lanes of `mask`, ascending.
pub(crate) fn lanes(mask: u64) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        Some(l)
    })
}

#[inline]
fn mask_bits(v: u64, bits: u32) -> u64 {
    if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

#[inline]
fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

/// The value of a source for `lane`.
#[inline]
pub(crate) fn read(s: Src, regs: &Regs, ids: &Ids, lane: usize) -> u64 {
    match s {
        Src::Reg(r) => regs.get(r, lane),
        Src::Imm(v) => v,
        Src::Special(sp) => u64::from(match sp {
            Special::Tid(c) => ids.tid.get(lane).map_or(0, |t| t[c]),
            Special::Ntid(c) => ids.ntid[c],
            Special::Ctaid(c) => ids.ctaid[c],
            Special::Nctaid(c) => ids.nctaid[c],
            Special::LaneId => lane as u32,
            Special::WarpId => ids.warp_in_block,
        }),
    }
}

fn f32_of(v: u64, ftz: bool) -> f32 {
    let x = f32::from_bits(v as u32);
    if ftz && x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

fn int_op(op: IntOp, ty: ScalarType, a: u64, b: u64, c: u64) -> Result<u64, String> {
    let w = ty.bits();
    let signed = ty.is_signed();
    let (ua, ub) = (mask_bits(a, w), mask_bits(b, w));
    let (sa, sb) = (sext(a, w), sext(b, w));
    // Full products in 128 bits, signed or unsigned as the type says.
    // (A 64 × 64-bit unsigned product can exceed `i128::MAX`: wrapping keeps its low 128
    // bits, which is all `>> w` and the masks read.)
    let prod = || -> i128 {
        if signed {
            i128::from(sa).wrapping_mul(i128::from(sb))
        } else {
            u128::from(ua).wrapping_mul(u128::from(ub)) as i128
        }
    };
    let r = match op {
        IntOp::Add => a.wrapping_add(b),
        IntOp::Sub => a.wrapping_sub(b),
        IntOp::MulLo => a.wrapping_mul(b),
        IntOp::MulHi => ((prod() as u128) >> w) as u64,
        IntOp::MulWide => return Ok(mask_bits(prod() as u64, 2 * w)),
        IntOp::MadLo => a.wrapping_mul(b).wrapping_add(c),
        IntOp::MadHi => (((prod() as u128) >> w) as u64).wrapping_add(c),
        IntOp::MadWide => return Ok(mask_bits((prod() as u64).wrapping_add(c), 2 * w)),
        IntOp::Div | IntOp::Rem => {
            if ub == 0 {
                return Err("division by zero (the result is unspecified in PTX)".into());
            }
            match (op, signed) {
                (IntOp::Div, true) => sa.wrapping_div(sb) as u64,
                (IntOp::Div, false) => ua / ub,
                (_, true) => sa.wrapping_rem(sb) as u64,
                (_, false) => ua % ub,
            }
        }
        IntOp::Min | IntOp::Max => {
            let less = if signed { sa < sb } else { ua < ub };
            if less == (op == IntOp::Min) {
                a
            } else {
                b
            }
        }
        IntOp::And => a & b,
        IntOp::Or => a | b,
        IntOp::Xor => a ^ b,
        IntOp::Not => !a,
        IntOp::Neg => 0u64.wrapping_sub(a),
        IntOp::Abs => sa.unsigned_abs(),
        IntOp::Shl => {
            let n = mask_bits(b, 32);
            if n >= u64::from(w) {
                0
            } else {
                a << n
            }
        }
        IntOp::Shr => {
            let n = mask_bits(b, 32);
            if signed {
                (sa >> n.min(63)) as u64
            } else if n >= u64::from(w) {
                0
            } else {
                ua >> n
            }
        }
    };
    Ok(mask_bits(r, w))
}

/// `out[l] = f(a[l], b[l], c[l])` for every lane.
#[inline(always)]
fn lanewise(out: &mut [u64], a: &[u64], b: &[u64], c: &[u64], f: impl Fn(u64, u64, u64) -> u64) {
    for (((o, &x), &y), &z) in out.iter_mut().zip(a).zip(b).zip(c) {
        *o = f(x, y, z);
    }
}

/// The integer operations whose result is the wrapping 64-bit one cut to the type's width
/// (exactly [`int_op`]'s), run operation-major: the operands of every lane first, then one
/// loop per operation. `false` (nothing done) for the others.
fn int_fast(
    op: IntOp,
    w: u32,
    d: u32,
    srcs: [Src; 3],
    regs: &mut Regs,
    ids: &Ids,
    exec: u64,
) -> bool {
    if !matches!(
        op,
        IntOp::Add
            | IntOp::Sub
            | IntOp::MulLo
            | IntOp::MadLo
            | IntOp::And
            | IntOp::Or
            | IntOp::Xor
            | IntOp::Shl
    ) {
        return false;
    }
    let ws = regs.ws.min(64);
    let mut v = [[0u64; 64]; 3];
    for (row, &src) in v.iter_mut().zip(&srcs) {
        match src {
            Src::Reg(r) => {
                let base = r as usize * regs.ws;
                match regs.values.get(base..base + ws) {
                    Some(x) => row[..ws].copy_from_slice(x),
                    None => row[..ws].fill(0),
                }
            }
            Src::Imm(x) => row[..ws].fill(x),
            Src::Special(_) => {
                for (lane, x) in row[..ws].iter_mut().enumerate() {
                    *x = read(src, regs, ids, lane);
                }
            }
        }
    }
    let mut out = [0u64; 64];
    let each = |out: &mut [u64; 64], f: fn(u64, u64, u64, u32) -> u64| {
        let [a, b, c] = &v;
        lanewise(&mut out[..ws], &a[..ws], &b[..ws], &c[..ws], |x, y, z| {
            f(x, y, z, w)
        });
    };
    match op {
        IntOp::Add => each(&mut out, |a, b, _, _| a.wrapping_add(b)),
        IntOp::Sub => each(&mut out, |a, b, _, _| a.wrapping_sub(b)),
        IntOp::MulLo => each(&mut out, |a, b, _, _| a.wrapping_mul(b)),
        IntOp::MadLo => each(&mut out, |a, b, c, _| a.wrapping_mul(b).wrapping_add(c)),
        IntOp::And => each(&mut out, |a, b, _, _| a & b),
        IntOp::Or => each(&mut out, |a, b, _, _| a | b),
        IntOp::Xor => each(&mut out, |a, b, _, _| a ^ b),
        _ => each(&mut out, |a, b, _, w| {
            let n = mask_bits(b, 32);
            if n >= u64::from(w) {
                0
            } else {
                a << n
            }
        }),
    }
    for lane in lanes(exec) {
        regs.set(d, lane, mask_bits(out[lane], w));
    }
    true
}

fn float_op(op: FloatOp, double: bool, ftz: bool, sat: bool, a: u64, b: u64, c: u64) -> u64 {
    let f = |x: f64, y: f64, z: f64| -> f64 {
        match op {
            FloatOp::Add => x + y,
            FloatOp::Sub => x - y,
            FloatOp::Mul => x * y,
            FloatOp::Div => x / y,
            FloatOp::Fma => x.mul_add(y, z),
            FloatOp::Min => x.min(y),
            FloatOp::Max => x.max(y),
            FloatOp::Neg => -x,
            FloatOp::Abs => x.abs(),
            FloatOp::Sqrt => x.sqrt(),
            FloatOp::Rcp => 1.0 / x,
            FloatOp::Lg2 => x.log2(),
            FloatOp::Ex2 => x.exp2(),
            FloatOp::Sin => x.sin(),
            FloatOp::Cos => x.cos(),
        }
    };
    let clamp = |x: f64| -> f64 {
        if !sat {
            x
        } else if x.is_nan() {
            0.0
        } else {
            x.clamp(0.0, 1.0)
        }
    };
    if double {
        let (x, y, z) = (f64::from_bits(a), f64::from_bits(b), f64::from_bits(c));
        clamp(f(x, y, z)).to_bits()
    } else {
        let (x, y, z) = (f32_of(a, ftz), f32_of(b, ftz), f32_of(c, ftz));
        // Every f32 operation is computed in f32 so that rounding is single precision
        // (an f64 evaluation of `x * y + z` would round differently).
        let r: f32 = match op {
            FloatOp::Add => x + y,
            FloatOp::Sub => x - y,
            FloatOp::Mul => x * y,
            FloatOp::Div => x / y,
            FloatOp::Fma => x.mul_add(y, z),
            FloatOp::Min => x.min(y),
            FloatOp::Max => x.max(y),
            FloatOp::Neg => -x,
            FloatOp::Abs => x.abs(),
            FloatOp::Sqrt => x.sqrt(),
            FloatOp::Rcp => 1.0 / x,
            FloatOp::Lg2 => x.log2(),
            FloatOp::Ex2 => x.exp2(),
            FloatOp::Sin => x.sin(),
            FloatOp::Cos => x.cos(),
        };
        let r = if sat { clamp(f64::from(r)) as f32 } else { r };
        u64::from(f32_of(u64::from(r.to_bits()), ftz).to_bits())
    }
}

#[inline]
fn compare(cmp: Cmp, ty: ScalarType, a: u64, b: u64) -> bool {
    use std::cmp::Ordering;
    let w = ty.bits();
    if ty.is_float() {
        let (x, y) = if ty == ScalarType::F64 {
            (f64::from_bits(a), f64::from_bits(b))
        } else {
            (
                f64::from(f32::from_bits(a as u32)),
                f64::from(f32::from_bits(b as u32)),
            )
        };
        let unordered = x.is_nan() || y.is_nan();
        return match cmp {
            Cmp::Eq => x == y,
            Cmp::Ne => !unordered && x != y,
            Cmp::Lt => x < y,
            Cmp::Le => x <= y,
            Cmp::Gt => x > y,
            Cmp::Ge => x >= y,
            Cmp::Equ => unordered || x == y,
            Cmp::Neu => unordered || x != y,
            Cmp::Ltu => unordered || x < y,
            Cmp::Leu => unordered || x <= y,
            Cmp::Gtu => unordered || x > y,
            Cmp::Geu => unordered || x >= y,
            Cmp::Num => !unordered,
            Cmp::Nan => unordered,
        };
    }
    let ord = if ty.is_signed() {
        sext(a, w).cmp(&sext(b, w))
    } else {
        mask_bits(a, w).cmp(&mask_bits(b, w))
    };
    match cmp {
        Cmp::Eq | Cmp::Equ => ord == Ordering::Equal,
        Cmp::Ne | Cmp::Neu => ord != Ordering::Equal,
        Cmp::Lt | Cmp::Ltu => ord == Ordering::Less,
        Cmp::Le | Cmp::Leu => ord != Ordering::Greater,
        Cmp::Gt | Cmp::Gtu => ord == Ordering::Greater,
        Cmp::Ge | Cmp::Geu => ord != Ordering::Less,
        Cmp::Num => true,
        Cmp::Nan => false,
    }
}

fn round_f64(x: f64, r: Round) -> f64 {
    match r {
        Round::Nearest => x.round_ties_even(),
        Round::Zero => x.trunc(),
        Round::Down => x.floor(),
        Round::Up => x.ceil(),
    }
}

#[allow(clippy::too_many_arguments)]
fn convert(
    dt: ScalarType,
    st: ScalarType,
    round: Option<Round>,
    integral: bool,
    ftz: bool,
    sat: bool,
    a: u64,
) -> Result<u64, String> {
    let rn_only = |what: &str| -> Result<(), String> {
        match round {
            None | Some(Round::Nearest) => Ok(()),
            Some(_) => Err(format!("{what} rounding other than .rn is not simulated")),
        }
    };
    if st.is_float() {
        let x = if st == ScalarType::F64 {
            f64::from_bits(a)
        } else {
            f64::from(f32_of(a, ftz))
        };
        if dt.is_float() {
            let x = if integral {
                round_f64(x, round.unwrap_or(Round::Nearest))
            } else {
                x
            };
            let x = if sat && !x.is_nan() {
                x.clamp(0.0, 1.0)
            } else if sat {
                0.0
            } else {
                x
            };
            return Ok(if dt == ScalarType::F64 {
                x.to_bits()
            } else {
                if st == ScalarType::F64 && !integral {
                    rn_only("f64 → f32")?;
                }
                u64::from(f32_of(u64::from((x as f32).to_bits()), ftz).to_bits())
            });
        }
        // Float → integer: round as told (PTX requires an integer rounding), saturate.
        let x = round_f64(x, round.unwrap_or(Round::Zero));
        let w = dt.bits();
        let v = if dt.is_signed() {
            let (lo, hi) = (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1) - 1.0);
            if x.is_nan() {
                0
            } else {
                x.clamp(lo, hi) as i64 as u64
            }
        } else if x.is_nan() {
            0
        } else {
            x.clamp(0.0, 2f64.powi(w as i32) - 1.0) as u64
        };
        return Ok(mask_bits(v, w));
    }
    let sw = st.bits();
    if dt.is_float() {
        rn_only("integer → float")?;
        return Ok(if dt == ScalarType::F64 {
            if st.is_signed() {
                (sext(a, sw) as f64).to_bits()
            } else {
                (mask_bits(a, sw) as f64).to_bits()
            }
        } else if st.is_signed() {
            u64::from((sext(a, sw) as f32).to_bits())
        } else {
            u64::from((mask_bits(a, sw) as f32).to_bits())
        });
    }
    // Integer → integer: extend from the source width as the source type says, then
    // truncate to the destination width.
    let v = if st.is_signed() {
        sext(a, sw) as u64
    } else {
        mask_bits(a, sw)
    };
    Ok(mask_bits(v, dt.bits()))
}

/// Executes a non-memory operation for the lanes of `exec`.
pub(crate) fn execute(op: &Op, regs: &mut Regs, ids: &Ids, exec: u64) -> Result<(), String> {
    if let Op::Int { op, ty, d, a, b, c } = *op {
        if int_fast(op, ty.bits(), d, [a, b, c], regs, ids, exec) {
            return Ok(());
        }
    }
    for lane in lanes(exec) {
        let rd = |s: Src| read(s, regs, ids, lane);
        match op {
            Op::Nop | Op::Barrier | Op::Load { .. } | Op::Store { .. } => {}
            Op::Mov { d, a, bits } => {
                let v = mask_bits(rd(*a), *bits);
                regs.set(*d, lane, v);
            }
            Op::Unpack { ds, a, part_bits } => {
                let v = rd(*a);
                for (k, d) in ds.iter().enumerate() {
                    if let Some(d) = d {
                        let part = mask_bits(v >> (k as u32 * part_bits).min(63), *part_bits);
                        regs.set(*d, lane, part);
                    }
                }
            }
            Op::Pack {
                d,
                parts,
                part_bits,
            } => {
                let mut v = 0u64;
                for (k, p) in parts.iter().enumerate() {
                    v |= mask_bits(rd(*p), *part_bits) << (k as u32 * part_bits).min(63);
                }
                regs.set(*d, lane, v);
            }
            Op::Int { op, ty, d, a, b, c } => {
                let v = int_op(*op, *ty, rd(*a), rd(*b), rd(*c))?;
                regs.set(*d, lane, v);
            }
            Op::Float {
                op,
                double,
                ftz,
                sat,
                d,
                a,
                b,
                c,
            } => {
                let v = float_op(*op, *double, *ftz, *sat, rd(*a), rd(*b), rd(*c));
                regs.set(*d, lane, v);
            }
            Op::Setp {
                cmp,
                ty,
                d,
                a,
                b,
                combine,
            } => {
                let mut t = compare(*cmp, *ty, rd(*a), rd(*b));
                if let Some((bop, p, neg)) = combine {
                    let q = (regs.get(*p, lane) & 1 == 1) != *neg;
                    t = match bop {
                        BoolOp::And => t && q,
                        BoolOp::Or => t || q,
                        BoolOp::Xor => t != q,
                    };
                }
                regs.set(*d, lane, u64::from(t));
            }
            Op::Selp {
                bits,
                d,
                a,
                b,
                p,
                neg,
            } => {
                let take_a = (regs.get(*p, lane) & 1 == 1) != *neg;
                let v = mask_bits(if take_a { rd(*a) } else { rd(*b) }, *bits);
                regs.set(*d, lane, v);
            }
            Op::Cvt {
                dt,
                st,
                round,
                integral,
                ftz,
                sat,
                d,
                a,
            } => {
                let v = convert(*dt, *st, *round, *integral, *ftz, *sat, rd(*a))?;
                regs.set(*d, lane, v);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ScalarType as T;

    #[test]
    fn integer_widths_and_signs() {
        // mul.wide.s32 (-3) * 5 = -15 in 64 bits.
        let m = int_op(IntOp::MulWide, T::S32, (-3i64) as u64, 5, 0);
        assert_eq!(m, Ok((-15i64) as u64));
        // mul.hi.u32 0xffff_ffff * 2 = 0x1_ffff_fffe → high word 1.
        assert_eq!(int_op(IntOp::MulHi, T::U32, 0xffff_ffff, 2, 0), Ok(1));
        // mul.hi.u64 of (2^64 − 1)² = 2^128 − 2^65 + 1 → high half 2^64 − 2; mul.hi.s64 of
        // (−1)·(−1) = 1 → high half 0; mul.hi.s32 of −2 · 3 = −6 → high word all ones.
        assert_eq!(
            int_op(IntOp::MulHi, T::U64, u64::MAX, u64::MAX, 0),
            Ok(u64::MAX - 1)
        );
        assert_eq!(int_op(IntOp::MulHi, T::S64, u64::MAX, u64::MAX, 0), Ok(0));
        assert_eq!(
            int_op(IntOp::MulHi, T::S32, (-2i64) as u64, 3, 0),
            Ok(0xffff_ffff)
        );
        // shr.s32 of -8 by 1 = -4 (as 32 bits); shr.u32 = 0x7fff_fffc.
        assert_eq!(
            int_op(IntOp::Shr, T::S32, 0xffff_fff8, 1, 0),
            Ok(0xffff_fffc)
        );
        assert_eq!(
            int_op(IntOp::Shr, T::U32, 0xffff_fff8, 1, 0),
            Ok(0x7fff_fffc)
        );
        // shl.b32 by 32 or more is 0.
        assert_eq!(int_op(IntOp::Shl, T::B32, 1, 32, 0), Ok(0));
        // rem.s32 -7 % 3 = -1 (truncating), div.s32 = -2.
        assert_eq!(
            int_op(IntOp::Rem, T::S32, (-7i64) as u64, 3, 0),
            Ok(0xffff_ffff)
        );
        assert_eq!(
            int_op(IntOp::Div, T::S32, (-7i64) as u64, 3, 0),
            Ok(0xffff_fffe)
        );
        assert!(int_op(IntOp::Div, T::U32, 1, 0, 0).is_err());
        // min.s32 (-1, 1) = -1, min.u32 = 1.
        assert_eq!(
            int_op(IntOp::Min, T::S32, 0xffff_ffff, 1, 0),
            Ok(0xffff_ffff)
        );
        assert_eq!(int_op(IntOp::Min, T::U32, 0xffff_ffff, 1, 0), Ok(1));
    }

    #[test]
    fn conversions() {
        // cvt.s64.s32 of -1 sign-extends; cvt.u64.u32 zero-extends.
        assert_eq!(
            convert(T::S64, T::S32, None, false, false, false, 0xffff_ffff),
            Ok(u64::MAX)
        );
        assert_eq!(
            convert(T::U64, T::U32, None, false, false, false, 0xffff_ffff),
            Ok(0xffff_ffff)
        );
        // cvt.rzi.s32.f32 of -2.7 = -2; cvt.rni of 2.5 = 2 (ties to even); saturation.
        let f = |x: f32| u64::from(x.to_bits());
        assert_eq!(
            convert(
                T::S32,
                T::F32,
                Some(Round::Zero),
                true,
                false,
                false,
                f(-2.7)
            ),
            Ok(0xffff_fffe)
        );
        assert_eq!(
            convert(
                T::S32,
                T::F32,
                Some(Round::Nearest),
                true,
                false,
                false,
                f(2.5)
            ),
            Ok(2)
        );
        assert_eq!(
            convert(
                T::S32,
                T::F32,
                Some(Round::Zero),
                true,
                false,
                false,
                f(1e10)
            ),
            Ok(0x7fff_ffff)
        );
        assert_eq!(
            convert(
                T::F32,
                T::S32,
                Some(Round::Nearest),
                false,
                false,
                false,
                0xffff_fffd
            ),
            Ok(f(-3.0))
        );
        assert!(convert(T::F32, T::S32, Some(Round::Zero), false, false, false, 1).is_err());
    }

    #[test]
    fn float_comparisons_and_nan() {
        let nan = u64::from(f32::NAN.to_bits());
        let one = u64::from(1f32.to_bits());
        assert!(!compare(Cmp::Lt, T::F32, nan, one));
        assert!(compare(Cmp::Ltu, T::F32, nan, one));
        assert!(!compare(Cmp::Ne, T::F32, nan, one));
        assert!(compare(Cmp::Neu, T::F32, nan, one));
        // min with one NaN returns the other operand.
        assert_eq!(
            float_op(FloatOp::Min, false, false, false, nan, one, 0),
            one
        );
    }
}
