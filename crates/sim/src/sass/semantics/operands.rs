//! Operand values of every lane (registers, immediates, constant words, special registers,
//! with their modifiers) and register writes.

use super::*;

impl Src {
    /// The raw 32-bit value for `lane`, before modifiers.
    #[inline]
    pub(super) fn raw(&self, regs: &WarpRegs, ids: &ThreadIds, lane: usize) -> u32 {
        match self.kind {
            SrcKind::Reg(r) => regs.reg(r, lane),
            SrcKind::Zero => 0,
            SrcKind::Value(v, _) => v,
            SrcKind::Special(s) => match s {
                Special::Tid(a) => ids.tid.get(lane).map_or(0, |t| t[a]),
                Special::Ctaid(a) => ids.ctaid[a],
                Special::LaneId => lane as u32,
                Special::LtMask => ((1u64 << lane) - 1) as u32,
                Special::CgaCtaId => 0,
            },
        }
    }

    #[inline]
    pub(super) fn f32(&self, regs: &WarpRegs, ids: &ThreadIds, lane: usize, ftz: bool) -> f32 {
        let mut f = f32::from_bits(self.raw(regs, ids, lane));
        if ftz {
            f = flush(f);
        }
        if self.abs {
            f = f.abs();
        }
        if self.neg {
            -f
        } else {
            f
        }
    }

    pub(super) fn f64(&self, regs: &WarpRegs, lane: usize) -> Result<f64, String> {
        let mut f = match (self.kind, self.float_imm) {
            (_, Some(v)) => v,
            (SrcKind::Reg(r), _) => {
                let lo = u64::from(regs.reg(r, lane));
                let hi = u64::from(regs.reg(r.saturating_add(1), lane));
                f64::from_bits(lo | hi << 32)
            }
            (SrcKind::Zero, _) => 0.0,
            (SrcKind::Value(lo, Some(hi)), _) => {
                f64::from_bits(u64::from(lo) | u64::from(hi) << 32)
            }
            _ => return Err("a 64-bit operand whose high word is not defined".into()),
        };
        if self.abs {
            f = f.abs();
        }
        Ok(if self.neg { -f } else { f })
    }
}

impl Src {
    /// The 64-bit value of a register pair `r:r+1` (or a constant pair) for `lane`, with `~`
    /// and `-` applied to the whole.
    #[inline]
    pub(super) fn pair(&self, regs: &WarpRegs, lane: usize) -> Result<u64, String> {
        let v = match self.kind {
            SrcKind::Reg(r) => {
                u64::from(regs.reg(r, lane)) | u64::from(regs.reg(r.saturating_add(1), lane)) << 32
            }
            SrcKind::Zero => 0,
            SrcKind::Value(lo, Some(hi)) => u64::from(lo) | u64::from(hi) << 32,
            _ => return Err("a 64-bit operand whose high word is not defined".into()),
        };
        let v = if self.inv { !v } else { v };
        Ok(if self.neg { v.wrapping_neg() } else { v })
    }
}

/// The lowest lane of `mask`.
#[inline]
pub(super) fn first_lane(mask: u64) -> Option<usize> {
    (mask != 0).then(|| mask.trailing_zeros() as usize)
}

/// `.FTZ`: a subnormal flushed to the zero of its sign.
#[inline]
pub(super) fn flush(f: f32) -> f32 {
    if f.is_subnormal() {
        0.0f32.copysign(f)
    } else {
        f
    }
}

/// `.SAT`: clamped to [0, 1], NaN → 0 (PTX `.sat`); a single-precision value is exact in
/// f64 and comes back unchanged, so one definition serves both widths.
#[inline]
pub(super) fn saturate_f64(x: f64) -> f64 {
    if x.is_nan() {
        0.0
    } else {
        x.clamp(0.0, 1.0)
    }
}

/// A single-precision result under `.FTZ` (flushed) and then `.SAT` (saturated).
#[inline(always)]
pub(super) fn flush_saturate(f: f32, ftz: bool, sat: bool) -> f32 {
    let f = if ftz { flush(f) } else { f };
    if sat {
        saturate_f64(f64::from(f)) as f32
    } else {
        f
    }
}

/// An addend of carry arithmetic: `-x` is `!x + 1` (without the `+ 1` under `.X`:
/// subtract with borrow), `~x` is `!x`, so the carry out of the 64-bit sum is the
/// hardware's carry (for a subtraction: "no borrow").
#[derive(Clone, Copy)]
pub(super) struct Term {
    inv: bool,
    plus: u64,
}

impl Term {
    #[inline]
    pub(super) fn apply(self, x: u32) -> u64 {
        u64::from(if self.inv { !x } else { x }) + self.plus
    }
}

impl Src {
    /// Raw values of every lane (inactive lanes included: reading is harmless), with the
    /// half selected. One dispatch per operand, then straight loops: the hot path.
    #[inline]
    pub(super) fn fetch_all(&self, regs: &WarpRegs, ids: &ThreadIds, out: &mut Lanes) {
        let ws = regs.ws;
        match self.kind {
            SrcKind::Reg(r) => {
                let base = r as usize * ws;
                match regs.gpr.get(base..base + ws) {
                    Some(row) => out[..ws].copy_from_slice(row),
                    None => out[..ws].fill(0),
                }
            }
            SrcKind::Zero => out[..ws].fill(0),
            SrcKind::Value(v, _) => out[..ws].fill(v),
            SrcKind::Special(_) => {
                for (l, o) in out[..ws].iter_mut().enumerate() {
                    *o = self.raw(regs, ids, l);
                }
            }
        }
        match self.half {
            Half::Whole => {}
            Half::H0 => out[..ws].iter_mut().for_each(|x| *x &= 0xffff),
            Half::H1 => out[..ws].iter_mut().for_each(|x| *x >>= 16),
            Half::Byte(b) => out[..ws]
                .iter_mut()
                .for_each(|x| *x = (*x >> (8 * u32::from(b & 3))) & 0xff),
        }
    }

    /// Like [`Src::fetch_all`], but a whole register is read in place instead of copied
    /// (lanes `..ws`).
    #[inline]
    pub(super) fn view<'a>(
        &self,
        regs: &'a WarpRegs,
        ids: &ThreadIds,
        buf: &'a mut Lanes,
    ) -> &'a [u32] {
        if let (SrcKind::Reg(r), Half::Whole) = (self.kind, self.half) {
            let base = r as usize * regs.ws;
            if let Some(row) = regs.gpr.get(base..base + regs.ws) {
                return row;
            }
        }
        self.fetch_all(regs, ids, buf);
        &buf[..regs.ws]
    }

    /// Like [`Src::ints`], in place when no `~` or `-` applies.
    #[inline]
    pub(super) fn int_view<'a>(
        &self,
        regs: &'a WarpRegs,
        ids: &ThreadIds,
        buf: &'a mut Lanes,
    ) -> &'a [u32] {
        if !self.inv && !self.neg {
            return self.view(regs, ids, buf);
        }
        self.ints(regs, ids, buf);
        &buf[..regs.ws]
    }

    /// Integer operand values of every lane (`~`, then `-`).
    #[inline]
    pub(super) fn ints(&self, regs: &WarpRegs, ids: &ThreadIds, out: &mut Lanes) {
        self.fetch_all(regs, ids, out);
        let ws = regs.ws;
        if self.inv {
            out[..ws].iter_mut().for_each(|x| *x = !*x);
        }
        if self.neg {
            out[..ws].iter_mut().for_each(|x| *x = x.wrapping_neg());
        }
    }

    /// How this operand enters carry arithmetic (see [`Term`]).
    #[inline]
    pub(super) fn term(&self, extended: bool) -> Term {
        Term {
            inv: self.inv != self.neg,
            plus: u64::from(self.neg && !extended),
        }
    }

    /// Single-precision values of every lane (`.FTZ`, `|x|`, `-x`).
    #[inline]
    pub(super) fn floats(&self, regs: &WarpRegs, ids: &ThreadIds, ftz: bool, out: &mut [f32; 64]) {
        let mut v = [0u32; 64];
        self.fetch_all(regs, ids, &mut v);
        let ws = regs.ws;
        for (o, &x) in out[..ws].iter_mut().zip(&v[..ws]) {
            let mut f = f32::from_bits(x);
            if ftz {
                f = flush(f);
            }
            if self.abs {
                f = f.abs();
            }
            *o = if self.neg { -f } else { f };
        }
    }
}

impl WarpRegs {
    /// Writes `vals` to register `d` for the lanes of `mask`.
    #[inline]
    pub(super) fn write(&mut self, d: u16, mask: u64, vals: &Lanes) {
        if d == RZ_DEST {
            return;
        }
        let ws = self.ws;
        let base = d as usize * ws;
        if let Some(row) = self.gpr.get_mut(base..base + ws) {
            let full = crate::lane_set::full_mask(ws);
            if mask & full == full {
                row.copy_from_slice(&vals[..ws]);
                return;
            }
            for (l, (r, &v)) in row.iter_mut().zip(&vals[..ws]).enumerate() {
                if mask >> l & 1 == 1 {
                    *r = v;
                }
            }
        }
    }

    /// Writes `vals` like [`WarpRegs::write`] and, for `.CC` forms (`carry` is `Some`), sets
    /// the carry flag of the lanes of `mask` from the carry-out bits.
    #[inline]
    pub(super) fn write_with_carry(&mut self, d: u16, mask: u64, vals: &Lanes, carry: Option<u64>) {
        self.write(d, mask, vals);
        if let Some(c) = carry {
            self.set_flags(mask, c, vals);
        }
    }

    /// The carry flag of the lanes of `mask` from `carry`, their zero flag from `vals`.
    pub(super) fn set_flags(&mut self, mask: u64, carry: u64, vals: &Lanes) {
        self.cc = (self.cc & !mask) | (carry & mask);
        let mut z = 0u64;
        for (l, &v) in vals[..self.ws].iter().enumerate() {
            z |= u64::from(v == 0) << l;
        }
        self.zf = (self.zf & !mask) | (z & mask);
    }
}
