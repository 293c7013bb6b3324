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
//!   other float rounding modes stop the run;
//! - a NaN result is the canonical quiet NaN of its width ([`crate::canonical_nan`]).

use super::program::{Cmp, Conversion, FloatOp, IntOp, Op, Round, Special, Src};
use crate::canonical_nan::{f32_bits, f64_bits};
pub(crate) use crate::lane_set::full_mask;
pub(crate) use crate::lane_set::lanes;
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
        let at = r as usize * self.ws;
        let Some(row) = self.values.get(at..at + self.ws.min(64)) else {
            return if neg { mask } else { 0 };
        };
        // Every lane's predicate bit, then the mask.
        let mut bits = 0u64;
        for (lane, &v) in row.iter().enumerate() {
            bits |= (v & 1) << lane;
        }
        if neg {
            bits = !bits;
        }
        bits & mask
    }
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
        IntOp::Clz => super::bit_fields::clz(w, ua),
        IntOp::Popc => u64::from(ua.count_ones()),
        IntOp::Brev => super::bit_fields::brev(w, ua),
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

/// Operand rows reused by every instruction: one value per lane of up to three sources,
/// and a row for a predicate or a partial result. Filling a row once per instruction and then
/// running one loop per operation (operation-major) is what makes a warp-instruction cheap:
/// a per-lane `match` over the operand kinds cost most of a run before.
#[derive(Debug, Default)]
pub(crate) struct Rows {
    a: Vec<u64>,
    b: Vec<u64>,
    c: Vec<u64>,
    p: Vec<u64>,
}

impl Rows {
    /// The values of `s` in every lane (in row `a`).
    pub(crate) fn row_of(&mut self, s: Src, regs: &Regs, ids: &Ids) -> &[u64] {
        self.fit(regs.ws);
        fill_row(&mut self.a, s, regs, ids);
        &self.a
    }

    fn fit(&mut self, ws: usize) {
        if self.a.len() != ws {
            for r in [&mut self.a, &mut self.b, &mut self.c, &mut self.p] {
                r.clear();
                r.resize(ws, 0);
            }
        }
    }
}

/// `row[l]` = the value of `s` in lane `l`, for every lane.
fn fill_row(row: &mut [u64], s: Src, regs: &Regs, ids: &Ids) {
    match s {
        Src::Reg(r) => {
            let base = r as usize * regs.ws;
            match regs.values.get(base..base + row.len()) {
                Some(x) => row.copy_from_slice(x),
                None => row.fill(0),
            }
        }
        Src::Imm(x) => row.fill(x),
        Src::Special(_) => {
            for (lane, x) in row.iter_mut().enumerate() {
                *x = read(s, regs, ids, lane);
            }
        }
    }
}

/// Rows `a`, `b`, `c` := the values of `srcs` (as many as given).
fn fill_rows(rows: &mut Rows, srcs: &[Src], regs: &Regs, ids: &Ids) {
    for (row, &s) in [&mut rows.a, &mut rows.b, &mut rows.c]
        .into_iter()
        .zip(srcs)
    {
        fill_row(row, s, regs, ids);
    }
}

/// Register `d` of every lane of `exec` := `f(lane)`. A fully active warp runs one
/// straight loop over the register's row.
#[inline(always)]
fn write_lanes(regs: &mut Regs, d: u32, exec: u64, f: impl Fn(usize) -> u64) {
    let ws = regs.ws;
    let base = d as usize * ws;
    let Some(row) = regs.values.get_mut(base..base + ws) else {
        return;
    };
    if ws <= 64 && exec == full_mask(ws) {
        for (lane, x) in row.iter_mut().enumerate() {
            *x = f(lane);
        }
    } else {
        for lane in lanes(exec) {
            if let Some(x) = row.get_mut(lane) {
                *x = f(lane);
            }
        }
    }
}

/// [`write_lanes`] for an operation that can fail: stops at the first failing lane (lanes
/// before it keep their new values; the run stops anyway).
#[inline(always)]
fn try_write_lanes(
    regs: &mut Regs,
    d: u32,
    exec: u64,
    f: impl Fn(usize) -> Result<u64, String>,
) -> Result<(), String> {
    let ws = regs.ws;
    let base = d as usize * ws;
    let Some(row) = regs.values.get_mut(base..base + ws) else {
        return Ok(());
    };
    for lane in lanes(exec) {
        if let Some(x) = row.get_mut(lane) {
            *x = f(lane)?;
        }
    }
    Ok(())
}

/// The integer operations whose result is the wrapping 64-bit one cut to the type's width
/// (exactly [`int_op`]'s), with the operation chosen once per instruction rather than per
/// lane. `false` (nothing done) for the others.
fn int_fast(op: IntOp, w: u32, d: u32, rows: &Rows, regs: &mut Regs, exec: u64) -> bool {
    let (a, b, c) = (&rows.a, &rows.b, &rows.c);
    let m = |v: u64| mask_bits(v, w);
    match op {
        IntOp::Add => write_lanes(regs, d, exec, |l| m(a[l].wrapping_add(b[l]))),
        IntOp::Sub => write_lanes(regs, d, exec, |l| m(a[l].wrapping_sub(b[l]))),
        IntOp::MulLo => write_lanes(regs, d, exec, |l| m(a[l].wrapping_mul(b[l]))),
        IntOp::MadLo => write_lanes(regs, d, exec, |l| {
            m(a[l].wrapping_mul(b[l]).wrapping_add(c[l]))
        }),
        IntOp::And => write_lanes(regs, d, exec, |l| m(a[l] & b[l])),
        IntOp::Or => write_lanes(regs, d, exec, |l| m(a[l] | b[l])),
        IntOp::Xor => write_lanes(regs, d, exec, |l| m(a[l] ^ b[l])),
        IntOp::Shl => write_lanes(regs, d, exec, |l| {
            let n = mask_bits(b[l], 32);
            if n >= u64::from(w) {
                0
            } else {
                m(a[l] << n)
            }
        }),
        _ => return false,
    }
    true
}

/// `op` applied to `x`, `y`, `z` of one float width (`f32` or `f64`, whichever they are).
macro_rules! float_op {
    ($op:expr, $x:ident, $y:ident, $z:ident) => {
        match $op {
            FloatOp::Add => $x + $y,
            FloatOp::Sub => $x - $y,
            FloatOp::Mul => $x * $y,
            FloatOp::Div => $x / $y,
            FloatOp::Fma => $x.mul_add($y, $z),
            FloatOp::Min => $x.min($y),
            FloatOp::Max => $x.max($y),
            FloatOp::Neg => -$x,
            FloatOp::Abs => $x.abs(),
            FloatOp::Sqrt => $x.sqrt(),
            FloatOp::Rcp => 1.0 / $x,
            FloatOp::Rsqrt => 1.0 / $x.sqrt(),
            FloatOp::Lg2 => $x.log2(),
            FloatOp::Ex2 => $x.exp2(),
            FloatOp::Sin => $x.sin(),
            FloatOp::Cos => $x.cos(),
        }
    };
}

fn float_op(op: FloatOp, double: bool, ftz: bool, sat: bool, a: u64, b: u64, c: u64) -> u64 {
    let f = |x: f64, y: f64, z: f64| -> f64 { float_op!(op, x, y, z) };
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
        f64_bits(clamp(f(x, y, z)))
    } else {
        let (x, y, z) = (f32_of(a, ftz), f32_of(b, ftz), f32_of(c, ftz));
        // Every f32 operation is computed in f32 so that rounding is single precision
        // (an f64 evaluation of `x * y + z` would round differently).
        let r: f32 = float_op!(op, x, y, z);
        let r = if sat { clamp(f64::from(r)) as f32 } else { r };
        u64::from(f32_bits(f32_of(u64::from(r.to_bits()), ftz)))
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

/// An integer `setp` without a combining predicate, with the comparison chosen once per
/// instruction: both operands map to keys that compare as unsigned 64-bit numbers (the
/// width's bits, or for signed types the sign-extended value with its sign bit flipped),
/// which is [`compare`]'s integer order.
fn int_setp(cmp: Cmp, ty: ScalarType, d: u32, a: &[u64], b: &[u64], regs: &mut Regs, exec: u64) {
    let (w, signed) = (ty.bits(), ty.is_signed());
    let key = move |x: u64| {
        if signed {
            (sext(x, w) as u64) ^ (1 << 63)
        } else {
            mask_bits(x, w)
        }
    };
    #[inline(always)]
    fn with(
        regs: &mut Regs,
        d: u32,
        exec: u64,
        (a, b): (&[u64], &[u64]),
        key: impl Fn(u64) -> u64,
        f: impl Fn(u64, u64) -> bool,
    ) {
        write_lanes(regs, d, exec, |l| u64::from(f(key(a[l]), key(b[l]))));
    }
    match cmp {
        Cmp::Eq | Cmp::Equ => with(regs, d, exec, (a, b), key, |x, y| x == y),
        Cmp::Ne | Cmp::Neu => with(regs, d, exec, (a, b), key, |x, y| x != y),
        Cmp::Lt | Cmp::Ltu => with(regs, d, exec, (a, b), key, |x, y| x < y),
        Cmp::Le | Cmp::Leu => with(regs, d, exec, (a, b), key, |x, y| x <= y),
        Cmp::Gt | Cmp::Gtu => with(regs, d, exec, (a, b), key, |x, y| x > y),
        Cmp::Ge | Cmp::Geu => with(regs, d, exec, (a, b), key, |x, y| x >= y),
        Cmp::Num => with(regs, d, exec, (a, b), key, |_, _| true),
        Cmp::Nan => with(regs, d, exec, (a, b), key, |_, _| false),
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
                f64_bits(x)
            } else {
                if st == ScalarType::F64 && !integral {
                    rn_only("f64 → f32")?;
                }
                u64::from(f32_bits(f32_of(u64::from((x as f32).to_bits()), ftz)))
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

/// Executes a non-memory operation for the lanes of `exec`: the sources' rows first (so a
/// destination that is also a source reads its old value), then one loop per operation.
pub(crate) fn execute(
    op: &Op,
    regs: &mut Regs,
    ids: &Ids,
    exec: u64,
    rows: &mut Rows,
) -> Result<(), String> {
    if exec == 0 {
        return Ok(());
    }
    rows.fit(regs.ws);
    match op {
        Op::Nop
        | Op::Barrier
        | Op::Load { .. }
        | Op::Store { .. }
        | Op::Tex { .. }
        | Op::Atom { .. } => {}
        Op::FloatDirected { .. } | Op::Bfe { .. } | Op::Bfi { .. } => {
            return rare(op, regs, ids, exec, rows)
        }
        &Op::Mov { d, a, bits } => {
            fill_rows(rows, &[a], regs, ids);
            let a = &rows.a;
            write_lanes(regs, d, exec, |l| mask_bits(a[l], bits));
        }
        Op::Unpack { ds, a, part_bits } => {
            fill_rows(rows, &[*a], regs, ids);
            let (a, bits) = (&rows.a, *part_bits);
            for (k, d) in ds.iter().enumerate() {
                if let Some(d) = *d {
                    let shift = (k as u32 * bits).min(63);
                    write_lanes(regs, d, exec, |l| mask_bits(a[l] >> shift, bits));
                }
            }
        }
        Op::Pack {
            d,
            parts,
            part_bits,
        } => {
            rows.p.fill(0);
            for (k, &part) in parts.iter().enumerate() {
                fill_row(&mut rows.a, part, regs, ids);
                let shift = (k as u32 * part_bits).min(63);
                for (acc, &x) in rows.p.iter_mut().zip(&rows.a) {
                    *acc |= mask_bits(x, *part_bits) << shift;
                }
            }
            let p = &rows.p;
            write_lanes(regs, *d, exec, |l| p[l]);
        }
        &Op::Int { op, ty, d, a, b, c } => {
            let used = match op {
                IntOp::MadLo | IntOp::MadHi | IntOp::MadWide => 3,
                IntOp::Not | IntOp::Neg | IntOp::Abs | IntOp::Clz | IntOp::Popc | IntOp::Brev => 1,
                _ => 2,
            };
            fill_rows(rows, &[a, b, c][..used], regs, ids);
            if !int_fast(op, ty.bits(), d, rows, regs, exec) {
                let (a, b, c) = (&rows.a, &rows.b, &rows.c);
                try_write_lanes(regs, d, exec, |l| int_op(op, ty, a[l], b[l], c[l]))?;
            }
        }
        &Op::Float {
            op,
            double,
            ftz,
            sat,
            d,
            a,
            b,
            c,
        } => {
            let used = match op {
                FloatOp::Fma => 3,
                FloatOp::Neg
                | FloatOp::Abs
                | FloatOp::Sqrt
                | FloatOp::Rcp
                | FloatOp::Rsqrt
                | FloatOp::Lg2
                | FloatOp::Ex2
                | FloatOp::Sin
                | FloatOp::Cos => 1,
                _ => 2,
            };
            fill_rows(rows, &[a, b, c][..used], regs, ids);
            let (a, b, c) = (&rows.a, &rows.b, &rows.c);
            write_lanes(regs, d, exec, |l| {
                float_op(op, double, ftz, sat, a[l], b[l], c[l])
            });
        }
        &Op::Setp {
            cmp,
            ty,
            d,
            a,
            b,
            combine,
        } => {
            fill_rows(rows, &[a, b], regs, ids);
            let (a, b) = (&rows.a, &rows.b);
            match combine {
                None if !ty.is_float() => int_setp(cmp, ty, d, a, b, regs, exec),
                None => write_lanes(regs, d, exec, |l| u64::from(compare(cmp, ty, a[l], b[l]))),
                Some((bop, p, neg)) => {
                    fill_row(&mut rows.p, Src::Reg(p), regs, ids);
                    let q = &rows.p;
                    write_lanes(regs, d, exec, |l| {
                        let t = compare(cmp, ty, a[l], b[l]);
                        let q = (q[l] & 1 == 1) != neg;
                        u64::from(bop.apply(t, q))
                    });
                }
            }
        }
        &Op::Selp {
            bits,
            d,
            a,
            b,
            p,
            neg,
        } => {
            fill_rows(rows, &[a, b], regs, ids);
            fill_row(&mut rows.p, Src::Reg(p), regs, ids);
            let (a, b, q) = (&rows.a, &rows.b, &rows.p);
            write_lanes(regs, d, exec, |l| {
                let take_a = (q[l] & 1 == 1) != neg;
                mask_bits(if take_a { a[l] } else { b[l] }, bits)
            });
        }
        &Op::Cvt { how, d, a } => {
            fill_rows(rows, &[a], regs, ids);
            let a = &rows.a;
            let Conversion {
                dt,
                st,
                round,
                integral,
                ftz,
                sat,
            } = how;
            try_write_lanes(regs, d, exec, |l| {
                convert(dt, st, round, integral, ftz, sat, a[l])
            })?;
        }
    }
    Ok(())
}

/// The operations no hot loop of the corpus runs (directed rounding, bit fields): apart, so
/// that [`execute`]'s common arms stay as they were.
#[inline(never)]
fn rare(op: &Op, regs: &mut Regs, ids: &Ids, exec: u64, rows: &mut Rows) -> Result<(), String> {
    match *op {
        Op::FloatDirected {
            op,
            round,
            ftz,
            sat,
            d,
            a,
            b,
            c,
        } => {
            use crate::rounding::{f32_directed, F32Op};
            let f = match op {
                FloatOp::Add => F32Op::Add,
                FloatOp::Sub => F32Op::Sub,
                FloatOp::Mul => F32Op::Mul,
                FloatOp::Fma => F32Op::Fma,
                _ => return Err("directed rounding of this operation".into()),
            };
            fill_rows(rows, &[a, b, c], regs, ids);
            let (a, b, c) = (&rows.a, &rows.b, &rows.c);
            write_lanes(regs, d, exec, |l| {
                let x = |v: u64| f32_of(v, ftz);
                let r = f32_directed(f, x(a[l]), x(b[l]), x(c[l]), round);
                let r = if sat {
                    if r.is_nan() {
                        0.0
                    } else {
                        r.clamp(0.0, 1.0)
                    }
                } else {
                    r
                };
                u64::from(f32_bits(f32_of(u64::from(r.to_bits()), ftz)))
            });
        }
        Op::Bfe {
            signed,
            bits,
            d,
            a,
            pos,
            len,
        } => {
            fill_rows(rows, &[a, pos, len], regs, ids);
            let (a, p, n) = (&rows.a, &rows.b, &rows.c);
            write_lanes(regs, d, exec, |l| {
                super::bit_fields::bfe(signed, bits, mask_bits(a[l], bits), p[l], n[l])
            });
        }
        Op::Bfi {
            bits,
            d,
            a,
            b,
            pos,
            len,
        } => {
            fill_rows(rows, &[a, b, pos], regs, ids);
            fill_row(&mut rows.p, len, regs, ids);
            let (a, b, p, n) = (&rows.a, &rows.b, &rows.c, &rows.p);
            write_lanes(regs, d, exec, |l| {
                let v = super::bit_fields::bfi(bits, a[l], mask_bits(b[l], bits), p[l], n[l]);
                mask_bits(v, bits)
            });
        }
        _ => {}
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
