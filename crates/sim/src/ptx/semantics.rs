//! Per-lane functional semantics of the decoded PTX operations: each operation's value is
//! the PTX semantics' ([`isa::ptx::semantics`], which the round-robin analyzer computes with
//! too, and which writes down the readings the ISA leaves open); this module reads the
//! sources of every lane into rows and writes the results, and decides what the simulator
//! does where the semantics give no value:
//! - integer division or remainder by zero has an unspecified result in PTX, so it stops the
//!   run ("cannot simulate … division by zero") rather than guess;
//! - a `cvt` rounding the semantics do not model (other than `.rn` from an integer to a
//!   float, or from `f64` to `f32`) stops the run.

use super::program::{Cmp, IntOp, Op, Special, Src};
pub(crate) use crate::lane_set::full_mask;
pub(crate) use crate::lane_set::lanes;
use isa::ptx::semantics::{
    bfe, bfi, compare, convert, f32_directed_op, float_op, int_op, int_op_of_width, integer_key,
    mask_bits, vector_element, with_vector_element,
};
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
            // Never decoded (`decode` refuses them).
            Special::SmId
            | Special::NsmId
            | Special::LanemaskEq
            | Special::LanemaskLt
            | Special::LanemaskLe => 0,
        }),
    }
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

/// The integer operations whose result is the wrapping 64-bit one cut to the type's width,
/// with the operation chosen once per instruction rather than per lane: each arm's loop runs
/// [`int_op`] with its operation as a constant (a closure of its own, so that the operation
/// folds away), so the loop over the lanes holds only that operation's arithmetic. `false`
/// (nothing done) for the others.
fn int_fast(op: IntOp, ty: ScalarType, d: u32, rows: &Rows, regs: &mut Regs, exec: u64) -> bool {
    let (a, b, c) = (&rows.a, &rows.b, &rows.c);
    let width = (ty.bits(), ty.is_signed());
    // No division among these operations: `int_op` always has a value.
    macro_rules! lanes {
        ($op:expr) => {
            write_lanes(regs, d, exec, |l| {
                int_op_of_width($op, width, a[l], b[l], c[l]).unwrap_or_default()
            })
        };
    }
    match op {
        IntOp::Add => lanes!(IntOp::Add),
        IntOp::Sub => lanes!(IntOp::Sub),
        IntOp::MulLo => lanes!(IntOp::MulLo),
        IntOp::MadLo => lanes!(IntOp::MadLo),
        IntOp::And => lanes!(IntOp::And),
        IntOp::Or => lanes!(IntOp::Or),
        IntOp::Xor => lanes!(IntOp::Xor),
        IntOp::Shl => lanes!(IntOp::Shl),
        _ => return false,
    }
    true
}

/// An integer `setp` without a combining predicate, with the comparison chosen once per
/// instruction: both operands map to keys that compare as unsigned 64-bit numbers
/// ([`integer_key`], which is [`compare`]'s integer order), and each arm's loop compares the
/// keys with its comparison as a constant (as in [`int_fast`]).
fn int_setp(cmp: Cmp, ty: ScalarType, d: u32, a: &[u64], b: &[u64], regs: &mut Regs, exec: u64) {
    let (w, signed) = (ty.bits(), ty.is_signed());
    let key = move |x: u64| integer_key(signed, w, x);
    macro_rules! lanes {
        ($cmp:expr) => {
            write_lanes(regs, d, exec, |l| {
                u64::from($cmp.holds_for_keys(key(a[l]), key(b[l])))
            })
        };
    }
    match cmp {
        Cmp::Eq | Cmp::Equ => lanes!(Cmp::Eq),
        Cmp::Ne | Cmp::Neu => lanes!(Cmp::Ne),
        Cmp::Lt | Cmp::Ltu => lanes!(Cmp::Lt),
        Cmp::Le | Cmp::Leu => lanes!(Cmp::Le),
        Cmp::Gt | Cmp::Gtu => lanes!(Cmp::Gt),
        Cmp::Ge | Cmp::Geu => lanes!(Cmp::Ge),
        Cmp::Num => lanes!(Cmp::Num),
        Cmp::Nan => lanes!(Cmp::Nan),
    }
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
        Op::Float { round: Some(_), .. } | Op::Bfe { .. } | Op::Bfi { .. } => {
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
                    let k = k as u32;
                    write_lanes(regs, d, exec, |l| vector_element(a[l], k, bits));
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
                for (acc, &x) in rows.p.iter_mut().zip(&rows.a) {
                    *acc = with_vector_element(*acc, k as u32, *part_bits, x);
                }
            }
            let p = &rows.p;
            write_lanes(regs, *d, exec, |l| p[l]);
        }
        &Op::Int { op, ty, d, a, b, c } => {
            fill_rows(rows, &[a, b, c][..op.sources()], regs, ids);
            if !int_fast(op, ty, d, rows, regs, exec) {
                let (a, b, c) = (&rows.a, &rows.b, &rows.c);
                try_write_lanes(regs, d, exec, |l| {
                    int_op(op, ty, a[l], b[l], c[l])
                        .ok_or_else(|| "division by zero (the result is unspecified in PTX)".into())
                })?;
            }
        }
        &Op::Float {
            op,
            double,
            round: None,
            ftz,
            sat,
            d,
            a,
            b,
            c,
        } => {
            fill_rows(rows, &[a, b, c][..op.sources()], regs, ids);
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
            try_write_lanes(regs, d, exec, |l| convert(how, a[l]))?;
        }
    }
    Ok(())
}

/// The operations no hot loop of the corpus runs (directed rounding, bit fields): apart, so
/// that [`execute`]'s common arms stay as they were.
#[inline(never)]
fn rare(op: &Op, regs: &mut Regs, ids: &Ids, exec: u64, rows: &mut Rows) -> Result<(), String> {
    match *op {
        Op::Float {
            op,
            double: _,
            round: Some(round),
            ftz,
            sat,
            d,
            a,
            b,
            c,
        } => {
            fill_rows(rows, &[a, b, c], regs, ids);
            let (a, b, c) = (&rows.a, &rows.b, &rows.c);
            try_write_lanes(regs, d, exec, |l| {
                f32_directed_op(op, round, ftz, sat, (a[l], b[l], c[l]))
                    .ok_or_else(|| "directed rounding of this operation".into())
            })?;
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
                bfe(signed, bits, mask_bits(a[l], bits), p[l], n[l])
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
                let v = bfi(bits, a[l], mask_bits(b[l], bits), p[l], n[l]);
                mask_bits(v, bits)
            });
        }
        _ => {}
    }
    Ok(())
}
