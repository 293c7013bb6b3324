//! Functional semantics of the decoded SASS operations, one warp-instruction at a time over
//! the lanes that execute it (issue #7 item 1).
//!
//! Readings of the instruction set written down here (NVIDIA documents the mnemonics, not
//! the bit-level behaviour; these follow the PTX ISA where an instruction mirrors a PTX one):
//! - integer adds: `-x` is two's complement, so `a + (-b)` is computed as `a + !b + 1` and its
//!   carry out (`.CC`) is "no borrow"; `.X` adds the carry flag; with `.X` a negated source
//!   is `!b` without the `+ 1` (subtract with borrow);
//! - `SHL`/`SHR` with a shift of 32 or more give 0 (or the sign for signed `SHR`): the clamp
//!   of PTX `shl`/`shr`; `SHR` without `.U32` is arithmetic;
//! - `XMAD` (Maxwell/Pascal 16×16-bit multiply-add): `A·B + C` over the selected 16-bit halves
//!   (`.H1`: high half); `.PSL` shifts the product left 16; `.CHI` takes `C`'s high half;
//!   `.CBCC` adds `B << 16` (B's whole register) to `C`; `.MRG` replaces the result's high half
//!   by `B`'s low half. The property test `xmad_triple_is_a_multiply` checks that the
//!   compiler's three-instruction sequence is a 32-bit multiply under this reading;
//! - floats: IEEE-754 single precision, round to nearest even, `fma` fused; `.FTZ` flushes
//!   subnormal inputs and results to zero; `.SAT` clamps to [0, 1] (NaN → 0); `FMNMX` with a
//!   true predicate is the minimum, else the maximum, NaN operands ignored (PTX `min`/`max`);
//!   a NaN result is the canonical quiet NaN of its width ([`crate::canonical_nan`]);
//! - `F2I` saturates to the destination range and maps NaN to 0 (PTX `cvt` to integer).
//!
//! Volta and later (sm_70+), read from NVIDIA's instruction tables (CUDA Binary Utilities,
//! "Instruction Set Reference": mnemonics only), the PTX instructions they implement, and the
//! way `nvcc` uses them in the listings of `tests/kernels/sass` and the sass-modern corpus:
//! - carries are predicates: `IADD3 d, P, a, b, c` writes the carry out of `a + b + c` to `P`
//!   (the corpus only writes one, where at most one carry can occur), `IADD3.X d, a, b, c,
//!   P, Q` adds `P` and `Q`; `IMAD.X`/`LEA.HI.X` add one carry-in predicate;
//! - `IMAD.WIDE(.U32)` is the 64-bit product plus the 64-bit `c:c+1`; `IMAD.HI` the high word
//!   of the 64-bit product plus the 64-bit `c:c+1` — the integer-division idiom sets `c` to
//!   0 and `c+1` to `x` for `x + umulhi(x, y)`; the test
//!   `volta_division_idiom_divides` checks the compiler's unsigned division sequence under
//!   this reading; `.MOV`/`.IADD`/`.SHL` only name the use;
//! - `LEA d, a, b, s` is `(a << s) + b`, `LEA.HI d, a, b, h, s` is the high word of
//!   `(h:a) << s` plus `b` (`.SX32`: `h` is `a`'s sign), `ISETP….EX` compares high words and
//!   takes the carried-in predicate where they are equal (64-bit comparisons);
//! - `SHF` funnel-shifts the 64-bit `c:a` and keeps the low or (`.HI`) high word, the shift
//!   clamped to 32 for `.U32`/`.S32` and 64 for `.U64`/`.S64` (PTX `shf.clamp`); *uncertain*:
//!   whether the 32-bit types clamp or wrap is not documented;
//! - `PRMT` is PTX `prmt.b32` in its default mode; `LOP3.LUT p, d, …, !PT` sets `p` where
//!   the result is not zero (the trailing predicate must be `!PT`); `PLOP3.LUT p, q, a, b, c,
//!   lp, lq` applies `lp` to `p` and `lq` to `q` (`PLOP3.LUT P0, PT, P0, P1, PT, 0xa8, 0x0`
//!   computes `P0 | P1`);
//! - `MUFU` is the hardware's approximation; it is computed here in double precision and
//!   rounded once (`kepler_pascal::mufu`, with the error bounds NVIDIA documents), `SIN`/`COS`
//!   taking their argument in turns;
//! - `FCHK p, a, b` (*uncertain*, undocumented): `p` holds when the fast `a / b` may lose
//!   accuracy — `b` zero, subnormal, infinite or NaN, `a` infinite, NaN or subnormal, or the
//!   exponents more than 125 apart — and the slow path then computes the same quotient;
//! - `SHFL` is PTX `shfl.sync` (`c` packs the clamp and the segment mask); a lane reading an
//!   inactive lane gets that lane's register (PTX: undefined);
//! - uniform instructions write their uniform destination in every lane (the front end runs
//!   them on the whole warp), `R2UR` takes the lowest executing lane's value;
//! - atomics (`ATOM`, `ATOMG`, `ATOMS`, `RED`, `REDG`) are PTX `atom`/`red` on 32-bit words,
//!   applied lane by lane in lane order (the order among a warp's lanes is unspecified; the
//!   final memory is the same for the commutative operations, `EXCH`/`CAS` take the last/first
//!   lane); `REDUX` is PTX `redux.sync` over the executing lanes.

use super::decode::{
    BitsKind, Cmp, FloatKind, Half, LopKind, MadPart, MufuFunc, Op, PredSrc, ReduxOp, Round,
    ShflMode, Special, Src, SrcKind, PT, RZ_DEST,
};
use crate::canonical_nan::{f32_bits, f64_bits};
use crate::lane_set::lanes;

mod kepler_pascal;

/// The architectural state of one warp: registers `[reg][lane]`, predicate masks, carry.
#[derive(Debug, Clone)]
pub(crate) struct WarpRegs {
    pub ws: usize,
    pub gpr: Vec<u32>,
    /// Lane masks of P0..P6; index 7 is PT (all ones, never written); 8..15 are UP0..UP6.
    pub pred: [u64; 16],
    /// Carry flag per lane (Kepler–Pascal `.CC`).
    pub cc: u64,
    /// Zero flag per lane: set by the `.CC` forms where their result is 0, read by
    /// `ISETP.X` (64-bit comparisons).
    pub zf: u64,
}

/// Registers R0..R255 and UR0..UR63 at most (the decoder refuses R252 and above, so pairs
/// and quads of a decoded register stay inside).
pub(crate) const MAX_GPRS: usize = 256 + 64;

impl WarpRegs {
    /// A register file of `gprs` registers (the kernel's highest register + 4, so that
    /// pairs and quads fit; reads beyond it are 0 and writes are dropped, never a panic).
    pub fn new(ws: usize, gprs: usize) -> Self {
        let mut pred = [0u64; 16];
        pred[PT as usize] = u64::MAX;
        WarpRegs {
            ws,
            gpr: vec![0; gprs.min(MAX_GPRS) * ws],
            pred,
            cc: 0,
            zf: 0,
        }
    }

    #[inline]
    pub(super) fn reg(&self, r: u16, lane: usize) -> u32 {
        self.gpr
            .get(r as usize * self.ws + lane)
            .copied()
            .unwrap_or(0)
    }

    #[inline]
    pub(super) fn set(&mut self, r: u16, lane: usize, v: u32) {
        if r == RZ_DEST {
            return;
        }
        if let Some(slot) = self.gpr.get_mut(r as usize * self.ws + lane) {
            *slot = v;
        }
    }

    /// The lanes of `mask` for which `p` holds.
    #[inline]
    pub fn pred_mask(&self, p: PredSrc, mask: u64) -> u64 {
        let v = self.pred[p.idx as usize & 15];
        (if p.neg { !v } else { v }) & mask
    }

    fn set_pred(&mut self, idx: u8, lanes: u64, bits: u64) {
        if idx == PT {
            return;
        }
        let p = &mut self.pred[idx as usize & 15];
        *p = (*p & !lanes) | (bits & lanes);
    }
}

/// Per-lane identity of a warp's threads.
#[derive(Debug, Clone)]
pub(crate) struct ThreadIds {
    /// `threadIdx` of each lane.
    pub tid: Vec<[u32; 3]>,
    pub ctaid: [u32; 3],
}

impl Src {
    /// The raw 32-bit value for `lane`, before modifiers.
    #[inline]
    fn raw(&self, regs: &WarpRegs, ids: &ThreadIds, lane: usize) -> u32 {
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
    fn f32(&self, regs: &WarpRegs, ids: &ThreadIds, lane: usize, ftz: bool) -> f32 {
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

    fn f64(&self, regs: &WarpRegs, lane: usize) -> Result<f64, String> {
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
    fn pair(&self, regs: &WarpRegs, lane: usize) -> Result<u64, String> {
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
fn first_lane(mask: u64) -> Option<usize> {
    (mask != 0).then(|| mask.trailing_zeros() as usize)
}

/// Result bits of a 3-input lookup table on whole masks (`a` = 0xF0, `b` = 0xCC, `c` = 0xAA
/// reproduce themselves, as for `LOP3`).
fn lut3(lut: u8, a: u64, b: u64, c: u64) -> u64 {
    let mut v = 0u64;
    for i in 0..8u8 {
        if lut >> i & 1 == 1 {
            let pa = if i & 4 != 0 { a } else { !a };
            let pb = if i & 2 != 0 { b } else { !b };
            let pc = if i & 1 != 0 { c } else { !c };
            v |= pa & pb & pc;
        }
    }
    v
}

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

/// `FCHK` (see the module doc): whether `a / b` needs the slow path.
fn fchk(a: f32, b: f32) -> bool {
    let exp = |x: f32| ((x.to_bits() >> 23) & 0xff) as i32;
    let hard_b = !b.is_normal();
    let hard_a = a != 0.0 && !a.is_normal();
    hard_b || hard_a || (a != 0.0 && (exp(a) - exp(b)).abs() > 125)
}

/// PTX `shfl.sync` for lane `lane` of a 32-lane warp: the source lane and whether it is in
/// range (`pval`; out of range, a lane reads itself).
fn shfl_source(mode: ShflMode, lane: u32, b: u32, c: u32) -> (u32, bool) {
    let segmask = (c >> 8) & 0x1f;
    let clamp = c & 0x1f;
    let max_lane = (lane & segmask) | (clamp & !segmask);
    let min_lane = lane & segmask;
    let b = b & 0x1f;
    let (j, ok) = match mode {
        ShflMode::Up => {
            let j = lane as i32 - b as i32;
            (j, j >= max_lane as i32)
        }
        ShflMode::Down => {
            let j = (lane + b) as i32;
            (j, j <= max_lane as i32)
        }
        ShflMode::Bfly => {
            let j = (lane ^ b) as i32;
            (j, j <= max_lane as i32)
        }
        ShflMode::Idx => {
            let j = (min_lane | (b & !segmask)) as i32;
            (j, j <= max_lane as i32)
        }
    };
    if ok {
        (j as u32, true)
    } else {
        (lane, false)
    }
}

#[inline]
fn flush(f: f32) -> f32 {
    if f.is_subnormal() {
        0.0f32.copysign(f)
    } else {
        f
    }
}

#[inline]
fn cmp_int(c: Cmp, a: u32, b: u32, signed: bool) -> Result<bool, String> {
    let o = if signed {
        (a as i32).cmp(&(b as i32))
    } else {
        a.cmp(&b)
    };
    use std::cmp::Ordering::*;
    Ok(match c {
        Cmp::F => false,
        Cmp::T => true,
        Cmp::Lt => o == Less,
        Cmp::Eq => o == Equal,
        Cmp::Le => o != Greater,
        Cmp::Gt => o == Greater,
        Cmp::Ne => o != Equal,
        Cmp::Ge => o != Less,
        _ => return Err("an unordered comparison on integers".into()),
    })
}

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

/// `s + err` (exactly, `err` the rounding error of `s`) rounded to f32 in mode `r`: the
/// nearest f32 of `s`, stepped one ulp when it lies on the wrong side of the exact value.
fn round_exact_to_f32(s: f64, err: f64, r: Round) -> f32 {
    let n = s as f32;
    if !s.is_finite() {
        return n;
    }
    // Exact: `n` is `s` rounded, so the two are within a factor of two (or `n` is infinite).
    let d = f64::from(n) - s;
    let positive = s > 0.0 || (s == 0.0 && err > 0.0);
    let down = match r {
        Round::Nearest => return n,
        Round::Down => true,
        Round::Up => false,
        Round::Zero => positive,
    };
    if down && d > err {
        n.next_down()
    } else if !down && d < err {
        n.next_up()
    } else {
        n
    }
}

/// `a + b` in f64 and its exact rounding error (Knuth's TwoSum).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// Single-precision `FADD`/`FMUL`/`FFMA` rounded in mode `r` (`.RM`/`.RP`/`.RZ`): the
/// product of two f32 is exact in f64, the sum's error is carried exactly.
fn directed_f32(kind: FloatKind, x: f32, y: f32, z: f32, r: Round) -> f32 {
    let (x, y, z) = (f64::from(x), f64::from(y), f64::from(z));
    let (s, err) = match kind {
        FloatKind::Add => two_sum(x, y),
        FloatKind::Mul => (x * y, 0.0),
        FloatKind::Fma => two_sum(x * y, z),
        FloatKind::MinMax => return x.min(y) as f32,
    };
    round_exact_to_f32(s, err, r)
}

/// [`directed_f32`] for every lane, then `.FTZ` and `.SAT`.
#[inline(never)]
fn directed_lanes(
    kind: FloatKind,
    [fa, fb, fc]: [&[f32; 64]; 3],
    round: Round,
    ftz: bool,
    sat: bool,
    out: &mut [u32],
) {
    for (l, o) in out.iter_mut().enumerate() {
        let mut r = directed_f32(kind, fa[l], fb[l], fc[l], round);
        if ftz {
            r = flush(r);
        }
        if sat {
            r = if r.is_nan() { 0.0 } else { r.clamp(0.0, 1.0) };
        }
        *o = f32_bits(r);
    }
}

fn f2i(f: f32, signed: bool, r: Round) -> u32 {
    let f = f64::from(f);
    let v = match r {
        Round::Nearest => f.round_ties_even(),
        Round::Zero => f.trunc(),
        Round::Down => f.floor(),
        Round::Up => f.ceil(),
    };
    if v.is_nan() {
        0
    } else if signed {
        (v as i32) as u32
    } else {
        v as u32
    }
}

/// An addend of carry arithmetic: `-x` is `!x + 1` (without the `+ 1` under `.X`:
/// subtract with borrow), `~x` is `!x`, so the carry out of the 64-bit sum is the
/// hardware's carry (for a subtraction: "no borrow").
#[derive(Clone, Copy)]
struct Term {
    inv: bool,
    plus: u64,
}

impl Term {
    #[inline]
    fn apply(self, x: u32) -> u64 {
        u64::from(if self.inv { !x } else { x }) + self.plus
    }
}

/// One value per lane.
type Lanes = [u32; 64];

/// Operand and result rows that [`execute_alu`] reuses from one instruction to the next:
/// every row is written (lanes `..ws`) before it is read, so nothing is zeroed per
/// instruction (zeroing four 256-byte rows per instruction was a tenth of a run).
pub(crate) struct AluScratch {
    a: Lanes,
    b: Lanes,
    c: Lanes,
    r: Lanes,
}

impl Default for AluScratch {
    fn default() -> Self {
        AluScratch {
            a: [0; 64],
            b: [0; 64],
            c: [0; 64],
            r: [0; 64],
        }
    }
}

impl Src {
    /// Raw values of every lane (inactive lanes included: reading is harmless), with the
    /// half selected. One dispatch per operand, then straight loops: the hot path.
    #[inline]
    fn fetch_all(&self, regs: &WarpRegs, ids: &ThreadIds, out: &mut Lanes) {
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
        }
    }

    /// Like [`Src::fetch_all`], but a whole register is read in place instead of copied
    /// (lanes `..ws`).
    #[inline]
    fn view<'a>(&self, regs: &'a WarpRegs, ids: &ThreadIds, buf: &'a mut Lanes) -> &'a [u32] {
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
    fn int_view<'a>(&self, regs: &'a WarpRegs, ids: &ThreadIds, buf: &'a mut Lanes) -> &'a [u32] {
        if !self.inv && !self.neg {
            return self.view(regs, ids, buf);
        }
        self.ints(regs, ids, buf);
        &buf[..regs.ws]
    }

    /// Integer operand values of every lane (`~`, then `-`).
    #[inline]
    fn ints(&self, regs: &WarpRegs, ids: &ThreadIds, out: &mut Lanes) {
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
    fn term(&self, extended: bool) -> Term {
        Term {
            inv: self.inv != self.neg,
            plus: u64::from(self.neg && !extended),
        }
    }

    /// Single-precision values of every lane (`.FTZ`, `|x|`, `-x`).
    #[inline]
    fn floats(&self, regs: &WarpRegs, ids: &ThreadIds, ftz: bool, out: &mut [f32; 64]) {
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
    fn write(&mut self, d: u16, mask: u64, vals: &Lanes) {
        if d == RZ_DEST {
            return;
        }
        let ws = self.ws;
        let base = d as usize * ws;
        if let Some(row) = self.gpr.get_mut(base..base + ws) {
            let full = if ws >= 64 { u64::MAX } else { (1u64 << ws) - 1 };
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
    fn write_with_carry(&mut self, d: u16, mask: u64, vals: &Lanes, carry: Option<u64>) {
        self.write(d, mask, vals);
        if let Some(c) = carry {
            self.set_flags(mask, c, vals);
        }
    }

    /// The carry flag of the lanes of `mask` from `carry`, their zero flag from `vals`.
    fn set_flags(&mut self, mask: u64, carry: u64, vals: &Lanes) {
        self.cc = (self.cc & !mask) | (carry & mask);
        let mut z = 0u64;
        for (l, &v) in vals[..self.ws].iter().enumerate() {
            z |= u64::from(v == 0) << l;
        }
        self.zf = (self.zf & !mask) | (z & mask);
    }
}

/// Executes a non-memory operation for the lanes of `mask` (the active lanes whose guard
/// holds). Errors are messages for a diagnostic at the instruction.
pub(crate) fn execute_alu(
    op: &Op,
    regs: &mut WarpRegs,
    ids: &ThreadIds,
    mask: u64,
    scratch: &mut AluScratch,
) -> Result<(), String> {
    let ws = regs.ws;
    let AluScratch {
        a: a_v,
        b: b_v,
        c: c_v,
        r: r_v,
    } = scratch;
    match *op {
        Op::Nop
        | Op::Barrier
        | Op::Load { .. }
        | Op::Store { .. }
        | Op::Atomic { .. }
        | Op::TexFetch { .. }
        | Op::Surface { .. } => {}
        Op::P2R { .. }
        | Op::MatchAny { .. }
        | Op::Redux { .. }
        | Op::VImad { .. }
        | Op::VIAdd3 { .. }
        | Op::Lea { .. }
        | Op::Shf { .. }
        | Op::Prmt { .. }
        | Op::IAbs { .. }
        | Op::Bits { .. }
        | Op::Plop3 { .. }
        | Op::Mufu { .. }
        | Op::FChk { .. }
        | Op::Const64 { .. }
        | Op::Vote { .. }
        | Op::R2Ur { .. }
        | Op::Shfl { .. } => return execute_sm70(op, regs, ids, mask, scratch),
        Op::IAdd3Shift { .. }
        | Op::Bfe { .. }
        | Op::Bfi { .. }
        | Op::CmpSel { .. }
        | Op::SetReg { .. }
        | Op::I2I { .. }
        | Op::I2F64 { .. }
        | Op::Mufu64H { .. }
        | Op::IMnMx64 { .. }
        | Op::Video3 { .. }
        | Op::PopcAnd { .. } => return kepler_pascal::execute(op, regs, ids, mask, scratch),
        Op::Mov { d, a } => {
            a.ints(regs, ids, a_v);
            regs.write(d, mask, a_v);
        }
        Op::IAdd { d, a, b, c, x, cc } => {
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
            a.fetch_all(regs, ids, a_v);
            let b_raw = Src {
                half: Half::Whole,
                ..b
            };
            b_raw.fetch_all(regs, ids, b_v);
            c.ints(regs, ids, c_v);
            for l in 0..ws {
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
        Op::ISetP {
            p,
            q,
            cmp,
            signed,
            a,
            b,
            bop,
            c,
            x,
            ex,
        } => {
            if x {
                return kepler_pascal::isetp_x(
                    regs,
                    ids,
                    mask,
                    [p, q],
                    cmp,
                    signed,
                    [a, b],
                    bop,
                    c,
                );
            }
            let cm = regs.pred_mask(c, mask);
            let low = ex.map(|e| regs.pred_mask(e, u64::MAX));
            let (ax, bx) = (a.int_view(regs, ids, a_v), b.int_view(regs, ids, b_v));
            // The comparison is checked once; then every lane (inactive ones are masked
            // off by `set_pred`) in a loop without early exits.
            cmp_int(cmp, 0, 0, signed)?;
            let mut r = 0u64;
            for l in 0..ws {
                let v = match low {
                    // `.EX`: equal high words leave the low words' result.
                    Some(lo) if ax[l] == bx[l] => lo >> l & 1 == 1,
                    _ => cmp_int(cmp, ax[l], bx[l], signed).unwrap_or(false),
                };
                r |= u64::from(v) << l;
            }
            let (pb, qb) = (bop.bits(r, cm), bop.bits(!r, cm));
            regs.set_pred(p, mask, pb);
            regs.set_pred(q, mask, qb);
        }
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
        Op::PSetP {
            p,
            q,
            a,
            b,
            op1,
            op2,
            c,
        } => {
            // Whole masks at once: the boolean operations are bitwise.
            let (am, bm, cm) = (
                regs.pred_mask(a, mask),
                regs.pred_mask(b, mask),
                regs.pred_mask(c, mask),
            );
            let r = op1.bits(am, bm);
            regs.set_pred(p, mask, op2.bits(r, cm));
            regs.set_pred(q, mask, op2.bits(!r & mask, cm));
        }
        Op::Shift {
            d,
            a,
            b,
            left,
            signed,
            wrap,
        } => {
            a.ints(regs, ids, a_v);
            b.ints(regs, ids, b_v);
            if wrap {
                b_v[..ws].iter_mut().for_each(|s| *s &= 31);
            }
            for l in 0..ws {
                let (av, s) = (a_v[l], b_v[l]);
                r_v[l] = if left {
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
                };
            }
            regs.write(d, mask, r_v);
        }
        Op::Lop { d, a, b, op, p } => {
            let (ax, bx) = (a.int_view(regs, ids, a_v), b.int_view(regs, ids, b_v));
            for l in 0..ws {
                let (av, bv) = (ax[l], bx[l]);
                r_v[l] = match op {
                    LopKind::And => av & bv,
                    LopKind::Or => av | bv,
                    LopKind::Xor => av ^ bv,
                    LopKind::PassB => bv,
                };
            }
            regs.write(d, mask, r_v);
            if let Some((p, nz)) = p {
                let mut bits = 0u64;
                for (l, &v) in r_v[..ws].iter().enumerate() {
                    bits |= u64::from((v != 0) == nz) << l;
                }
                regs.set_pred(p, mask, bits);
            }
        }
        Op::Lop3 { d, a, b, c, lut, p } => {
            a.ints(regs, ids, a_v);
            b.ints(regs, ids, b_v);
            c.ints(regs, ids, c_v);
            for l in 0..ws {
                let (x, y, z) = (a_v[l], b_v[l], c_v[l]);
                let mut v = 0u32;
                // LUT bit i is the result for (a, b, c) = (bit 2, bit 1, bit 0 of i): the
                // encoding where a = 0xF0, b = 0xCC, c = 0xAA reproduce themselves.
                for i in 0..8u8 {
                    if lut >> i & 1 == 1 {
                        let pa = if i & 4 != 0 { x } else { !x };
                        let pb = if i & 2 != 0 { y } else { !y };
                        let pc = if i & 1 != 0 { z } else { !z };
                        v |= pa & pb & pc;
                    }
                }
                r_v[l] = v;
            }
            regs.write(d, mask, r_v);
            if let Some((p, nonzero)) = p {
                let mut hit = 0u64;
                for (l, &v) in r_v[..ws].iter().enumerate() {
                    hit |= u64::from((v != 0) == nonzero) << l;
                }
                regs.set_pred(p, mask, hit);
            }
        }
        Op::Sel { d, a, b, p } => {
            let pm = regs.pred_mask(p, mask);
            a.ints(regs, ids, a_v);
            b.ints(regs, ids, b_v);
            for l in 0..ws {
                r_v[l] = if pm >> l & 1 == 1 { a_v[l] } else { b_v[l] };
            }
            regs.write(d, mask, r_v);
        }
        Op::IMnMx { d, a, b, p, signed } => {
            let pm = regs.pred_mask(p, mask);
            a.ints(regs, ids, a_v);
            b.ints(regs, ids, b_v);
            for l in 0..ws {
                let (x, y) = (a_v[l], b_v[l]);
                let less = if signed {
                    (x as i32) < (y as i32)
                } else {
                    x < y
                };
                let min = pm >> l & 1 == 1;
                r_v[l] = if less == min { x } else { y };
            }
            regs.write(d, mask, r_v);
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
            if round != Round::Nearest {
                // `.RZ`/`.RM`/`.RP` (sm_70+ division slow path): rare, so apart.
                let operands = [&fa, &fb, &fc];
                directed_lanes(kind, operands, round, ftz, sat, &mut r_v[..ws]);
                regs.write(d, mask, r_v);
                return Ok(());
            }
            for l in 0..ws {
                let (x, y) = (fa[l], fb[l]);
                let mut r = match kind {
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
                if ftz {
                    r = flush(r);
                }
                if sat {
                    r = if r.is_nan() { 0.0 } else { r.clamp(0.0, 1.0) };
                }
                r_v[l] = f32_bits(r);
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
            ..
        } => {
            if sat {
                return Err("saturation of a double-precision result".into());
            }
            let pm = regs.pred_mask(p, mask);
            for l in lanes(mask) {
                let (x, y) = (a.f64(regs, l)?, b.f64(regs, l)?);
                let r = match kind {
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
                let bits = f64_bits(r);
                regs.set(d, l, bits as u32);
                if d != RZ_DEST {
                    regs.set(d + 1, l, (bits >> 32) as u32);
                }
            }
        }
        Op::I2F {
            d,
            a,
            signed,
            src_bits,
            round,
        } => {
            a.ints(regs, ids, a_v);
            let unused = 32 - src_bits.min(32);
            for l in 0..ws {
                // The source's low `src_bits`, extended to 32 bits as its type says.
                let v = if signed {
                    ((a_v[l] << unused) as i32 >> unused) as u32
                } else {
                    (a_v[l] << unused) >> unused
                };
                let x = if signed {
                    f64::from(v as i32)
                } else {
                    f64::from(v)
                };
                r_v[l] = round_f64_to_f32(x, round).to_bits();
            }
            regs.write(d, mask, r_v);
        }
        Op::F2I {
            d,
            a,
            signed,
            round,
            ftz,
        } => {
            let mut fa = [0f32; 64];
            a.floats(regs, ids, ftz, &mut fa);
            for l in 0..ws {
                r_v[l] = f2i(fa[l], signed, round);
            }
            regs.write(d, mask, r_v);
        }
        Op::F2F {
            d,
            a,
            to_double,
            from_double,
            ftz,
        } => {
            if to_double == from_double {
                return Err("same-type F2F (rounding to an integer) is not modelled".into());
            }
            for l in lanes(mask) {
                if from_double {
                    let mut f = a.f64(regs, l)? as f32;
                    if ftz {
                        f = flush(f);
                    }
                    regs.set(d, l, f32_bits(f));
                } else {
                    let bits = f64_bits(f64::from(a.f32(regs, ids, l, ftz)));
                    regs.set(d, l, bits as u32);
                    if d != RZ_DEST {
                        regs.set(d + 1, l, (bits >> 32) as u32);
                    }
                }
            }
        }
        Op::S2R { d, sr } => {
            let s = Src {
                kind: SrcKind::Special(sr),
                neg: false,
                inv: false,
                abs: false,
                half: Half::Whole,
                float_imm: None,
            };
            s.fetch_all(regs, ids, r_v);
            regs.write(d, mask, r_v);
        }
    }
    Ok(())
}

/// The operations of sm_70 and later, apart from [`execute_alu`] so that the Kepler–Pascal
/// path stays as the compiler laid it out (same contract).
#[inline(never)]
fn execute_sm70(
    op: &Op,
    regs: &mut WarpRegs,
    ids: &ThreadIds,
    mask: u64,
    scratch: &mut AluScratch,
) -> Result<(), String> {
    let ws = regs.ws;
    let AluScratch {
        a: a_v,
        b: b_v,
        c: c_v,
        r: r_v,
    } = scratch;
    match *op {
        Op::P2R { d, a, mask: m } => {
            a.ints(regs, ids, a_v);
            for l in 0..ws {
                let mut pr = 0u32;
                for i in 0..7 {
                    pr |= ((regs.pred[i] >> l & 1) as u32) << i;
                }
                r_v[l] = (a_v[l] & !m) | (pr & m);
            }
            regs.write(d, mask, r_v);
        }
        Op::MatchAny { d, a } => {
            a.ints(regs, ids, a_v);
            for l in lanes(mask) {
                let mut same = 0u64;
                for j in lanes(mask) {
                    same |= u64::from(a_v[j] == a_v[l]) << j;
                }
                // A 32-bit lane mask (SASS warps have 32 lanes).
                r_v[l] = same as u32;
            }
            regs.write(d, mask, r_v);
        }
        Op::Redux { d, a, op } => {
            if mask == 0 {
                return Ok(());
            }
            a.ints(regs, ids, a_v);
            let vals = lanes(mask).map(|l| a_v[l]);
            let r = match op {
                ReduxOp::Sum => vals.fold(0u32, u32::wrapping_add),
                ReduxOp::And => vals.fold(u32::MAX, |x, y| x & y),
                ReduxOp::Or => vals.fold(0, |x, y| x | y),
                ReduxOp::Xor => vals.fold(0, |x, y| x ^ y),
                ReduxOp::Min { signed: true } => vals.map(|v| v as i32).min().unwrap_or(0) as u32,
                ReduxOp::Min { signed: false } => vals.min().unwrap_or(0),
                ReduxOp::Max { signed: true } => vals.map(|v| v as i32).max().unwrap_or(0) as u32,
                ReduxOp::Max { signed: false } => vals.max().unwrap_or(0),
            };
            // The destination is uniform: every lane.
            r_v[..ws].fill(r);
            regs.write(d, u64::MAX, r_v);
        }
        Op::VImad {
            d,
            a,
            b,
            c,
            part,
            signed,
            cin,
        } => {
            a.ints(regs, ids, a_v);
            b.ints(regs, ids, b_v);
            let cin_mask = cin.map_or(0, |p| regs.pred_mask(p, u64::MAX));
            match part {
                MadPart::Lo => {
                    let tc = c.term(cin.is_some());
                    c.fetch_all(regs, ids, c_v);
                    for l in 0..ws {
                        let s = u64::from(a_v[l].wrapping_mul(b_v[l]))
                            + tc.apply(c_v[l])
                            + (cin_mask >> l & 1);
                        r_v[l] = s as u32;
                    }
                    regs.write(d, mask, r_v);
                }
                MadPart::Hi | MadPart::Wide => {
                    for l in lanes(mask) {
                        let (x, y) = (a_v[l], b_v[l]);
                        let prod = if signed {
                            (i64::from(x as i32) * i64::from(y as i32)) as u64
                        } else {
                            u64::from(x) * u64::from(y)
                        };
                        let sum = prod.wrapping_add(c.pair(regs, l)?);
                        if part == MadPart::Hi {
                            regs.set(d, l, (sum >> 32) as u32);
                        } else {
                            regs.set(d, l, sum as u32);
                            if d != RZ_DEST {
                                regs.set(d + 1, l, (sum >> 32) as u32);
                            }
                        }
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
            for l in 0..ws {
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
            for l in 0..ws {
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
        } => {
            a.ints(regs, ids, a_v);
            s.ints(regs, ids, b_v);
            c.ints(regs, ids, c_v);
            for l in 0..ws {
                r_v[l] = shf(a_v[l], b_v[l], c_v[l], left, hi, signed, wide);
            }
            regs.write(d, mask, r_v);
        }
        Op::Prmt { d, a, sel, b } => {
            a.ints(regs, ids, a_v);
            sel.ints(regs, ids, b_v);
            b.ints(regs, ids, c_v);
            for l in 0..ws {
                r_v[l] = prmt(a_v[l], b_v[l], c_v[l]);
            }
            regs.write(d, mask, r_v);
        }
        Op::IAbs { d, a } => {
            a.ints(regs, ids, a_v);
            for l in 0..ws {
                r_v[l] = (a_v[l] as i32).wrapping_abs() as u32;
            }
            regs.write(d, mask, r_v);
        }
        Op::Bits { d, a, kind } => {
            a.ints(regs, ids, a_v);
            for l in 0..ws {
                let v = a_v[l];
                r_v[l] = match kind {
                    BitsKind::Popc => v.count_ones(),
                    BitsKind::Brev => v.reverse_bits(),
                    BitsKind::Flo { signed, sh } => flo(v, signed, sh),
                };
            }
            regs.write(d, mask, r_v);
        }
        Op::Plop3 {
            p,
            q,
            a,
            b,
            c,
            lut_p,
            lut_q,
        } => {
            let (am, bm, cm) = (
                regs.pred_mask(a, u64::MAX),
                regs.pred_mask(b, u64::MAX),
                regs.pred_mask(c, u64::MAX),
            );
            regs.set_pred(p, mask, lut3(lut_p, am, bm, cm));
            regs.set_pred(q, mask, lut3(lut_q, am, bm, cm));
        }
        Op::Mufu { d, a, func } => {
            let mut fa = [0f32; 64];
            a.floats(regs, ids, false, &mut fa);
            for l in 0..ws {
                r_v[l] = f32_bits(kepler_pascal::mufu(func, fa[l]));
            }
            regs.write(d, mask, r_v);
        }
        Op::FChk { p, a, b } => {
            a.ints(regs, ids, a_v);
            b.ints(regs, ids, b_v);
            let mut bits = 0u64;
            for l in 0..ws {
                bits |= u64::from(fchk(f32::from_bits(a_v[l]), f32::from_bits(b_v[l]))) << l;
            }
            regs.set_pred(p, mask, bits);
        }
        Op::Const64 { d, lo, hi } => {
            r_v[..ws].fill(lo);
            regs.write(d, mask, r_v);
            if d != RZ_DEST {
                r_v[..ws].fill(hi);
                regs.write(d + 1, mask, r_v);
            }
        }
        Op::Vote {
            d,
            p,
            src,
            all,
            uniform,
        } => {
            let ballot = regs.pred_mask(src, mask);
            let holds = if all { ballot == mask } else { ballot != 0 };
            // A uniform destination is the warp's: every lane is written.
            let to = if uniform && mask != 0 { u64::MAX } else { mask };
            r_v[..ws].fill(ballot as u32);
            regs.write(d, to, r_v);
            regs.set_pred(p, to, if holds { u64::MAX } else { 0 });
        }
        Op::R2Ur { d, a } => {
            if let Some(l) = first_lane(mask) {
                a.ints(regs, ids, a_v);
                r_v[..ws].fill(a_v[l]);
                regs.write(d, u64::MAX, r_v);
            }
        }
        Op::Shfl {
            d,
            p,
            a,
            b,
            c,
            mode,
        } => {
            if ws != 32 {
                return Err("SHFL is modelled for 32-lane warps only".into());
            }
            a.ints(regs, ids, a_v);
            b.ints(regs, ids, b_v);
            c.ints(regs, ids, c_v);
            let mut in_range = 0u64;
            for l in 0..ws {
                let (j, ok) = shfl_source(mode, l as u32, b_v[l], c_v[l]);
                r_v[l] = a_v[j as usize & 31];
                in_range |= u64::from(ok) << l;
            }
            regs.write(d, mask, r_v);
            regs.set_pred(p, mask, in_range);
        }
        _ => return Err("not an sm_70+ operation".into()),
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
