//! Lane-wise results: an operation written once as the function of one lane's operand
//! values, applied to every lane of the warp and written to the executing ones; and the
//! write-backs every family shares (a 64-bit register pair, a predicate from lane tests).
//! One definition each, so that the sm_70+ and the Kepler–Pascal forms of an operation
//! cannot drift apart in how they read their operands or write their result.

use super::*;

impl<'a> Exec<'a> {
    /// `d = f(lane, [a, b, …])` over the integer values (`~`, then `-`) of up to three
    /// operands: every lane is computed (reading is harmless, and a straight loop is the
    /// hot path's), the lanes of the mask are written.
    #[inline(always)]
    pub(super) fn ints<const N: usize>(
        self,
        d: u16,
        srcs: [Src; N],
        f: impl Fn(usize, [u32; N]) -> u32,
    ) {
        self.ints_kept(d, srcs, f);
    }

    /// [`Exec::ints`], handing back the registers and the result row for what the
    /// operation sets besides `d` (a predicate, flags).
    #[inline(always)]
    pub(super) fn ints_kept<const N: usize>(
        self,
        d: u16,
        srcs: [Src; N],
        f: impl Fn(usize, [u32; N]) -> u32,
    ) -> (&'a mut WarpRegs, &'a Lanes) {
        const { assert!(N <= 3, "three operand rows") };
        let Exec(regs, ids, mask, [a_v, b_v, c_v, r_v]) = self;
        let mut rows = [a_v, b_v, c_v];
        for (s, row) in srcs.iter().zip(rows.iter_mut()) {
            s.ints(regs, ids, row);
        }
        for l in 0..regs.ws {
            r_v[l] = f(l, std::array::from_fn(|i| rows[i][l]));
        }
        regs.write(d, mask, r_v);
        (regs, r_v)
    }
}

impl WarpRegs {
    /// Writes the 64-bit `v` to the pair `d:d+1` of `lane`, low word first (`RZ` writes
    /// nothing, and no `RZ + 1` either).
    #[inline]
    pub(super) fn set_pair(&mut self, d: u16, lane: usize, v: u64) {
        self.set(d, lane, v as u32);
        if d != RZ_DEST {
            self.set(d + 1, lane, (v >> 32) as u32);
        }
    }

    /// `LOP….P`/`LOP3.LUT p, …`: sets `p` of the lanes of `mask` where the result `vals` is
    /// non-zero (`nz`) or zero (`!nz`); no predicate destination, nothing.
    #[inline]
    pub(super) fn set_pred_nonzero(&mut self, p: Option<(u8, bool)>, mask: u64, vals: &Lanes) {
        if let Some((p, nz)) = p {
            let hit = lanes_where(self.ws, |l| (vals[l] != 0) == nz);
            self.set_pred(p, mask, hit);
        }
    }
}

/// The mask of the lanes `0..ws` where `hit` holds.
#[inline(always)]
pub(super) fn lanes_where(ws: usize, hit: impl Fn(usize) -> bool) -> u64 {
    let mut bits = 0u64;
    for l in 0..ws {
        bits |= u64::from(hit(l)) << l;
    }
    bits
}

/// A result register that holds `one` where `holds` (the lanes' bits) and 0 elsewhere:
/// `ISET`/`FSET`/`PSET` (`one` is all ones, or 1.0 with `.BF`).
#[inline]
pub(super) fn one_where(holds: u64, bf: bool, out: &mut [u32]) {
    let one = if bf { 1.0f32.to_bits() } else { u32::MAX };
    for (l, v) in out.iter_mut().enumerate() {
        *v = if holds >> l & 1 == 1 { one } else { 0 };
    }
}
