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

mod conversion;
mod float;
mod integer;
mod kepler_pascal;
mod lanewise;
mod moves;
mod operands;
mod predicate;
mod warp;

use lanewise::{lanes_where, one_where};
use operands::{first_lane, flush_saturate, saturate_f64};
use predicate::{cmp_int, lut3};

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

/// One value per lane.
type Lanes = [u32; 64];

/// Operand and result rows that [`execute_alu`] reuses from one instruction to the next:
/// every row is written (lanes `..ws`) before it is read, so nothing is zeroed per
/// instruction (zeroing four 256-byte rows per instruction was a tenth of a run). The rows
/// are `[a, b, c, r]`: three operands and the result.
pub(crate) struct AluScratch {
    rows: [Lanes; 4],
}

impl Default for AluScratch {
    fn default() -> Self {
        AluScratch { rows: [[0; 64]; 4] }
    }
}

/// One warp-instruction as a family module executes it: the warp's registers, its threads'
/// ids, the lanes that execute it (active, guard true) and the scratch rows `[a, b, c, r]`
/// of [`AluScratch`]. [`execute_alu`] builds it once and hands it to the family; an
/// operation either gives it to a lane-wise helper (`lanewise`) or opens the parts it uses.
pub(super) struct Exec<'a>(
    pub &'a mut WarpRegs,
    pub &'a ThreadIds,
    pub u64,
    pub &'a mut [Lanes; 4],
);

/// Executes a non-memory operation for the lanes of `mask` (the active lanes whose guard
/// holds). Errors are messages for a diagnostic at the instruction. Each family's common
/// operations are inlined here (one dispatch per instruction); the rarer ones are calls.
pub(crate) fn execute_alu(
    op: &Op,
    regs: &mut WarpRegs,
    ids: &ThreadIds,
    mask: u64,
    scratch: &mut AluScratch,
) -> Result<(), String> {
    let x = Exec(regs, ids, mask, &mut scratch.rows);
    match *op {
        Op::Nop
        | Op::Barrier
        | Op::Load { .. }
        | Op::Store { .. }
        | Op::Atomic { .. }
        | Op::TexFetch { .. }
        | Op::Surface { .. } => Ok(()),
        Op::Mov { .. } | Op::S2R { .. } => moves::execute(op, x),
        Op::IAdd { .. }
        | Op::IScAdd { .. }
        | Op::IMad { .. }
        | Op::XMad { .. }
        | Op::Shift { .. }
        | Op::Lop { .. }
        | Op::Lop3 { .. }
        | Op::Sel { .. }
        | Op::IMnMx { .. } => integer::execute(op, x),
        Op::ISetP { .. } | Op::PSetP { .. } => predicate::execute(op, x),
        Op::Float { .. } | Op::FSetP { .. } => float::execute(op, x),
        Op::I2F { .. } | Op::F2I { .. } | Op::F2F { .. } => conversion::execute(op, x),
        Op::I2F64 { .. } | Op::FRound { .. } => conversion::execute_rare(op, x),
        Op::Const64 { .. } | Op::R2Ur { .. } | Op::LdcIndexed { .. } => moves::execute_rare(op, x),
        Op::VImad { .. }
        | Op::VIAdd3 { .. }
        | Op::Lea { .. }
        | Op::Shf { .. }
        | Op::Prmt { .. }
        | Op::IAbs { .. }
        | Op::Bits { .. } => integer::execute_rare(op, x),
        Op::P2R { .. } | Op::Plop3 { .. } | Op::PSet { .. } | Op::R2P { .. } => {
            predicate::execute_rare(op, x)
        }
        Op::Mufu { .. } | Op::FChk { .. } => float::execute_rare(op, x),
        Op::MatchAny { .. } | Op::Redux { .. } | Op::Vote { .. } | Op::Shfl { .. } => {
            warp::execute(op, x)
        }
        Op::IAdd3Shift { .. }
        | Op::Bfe { .. }
        | Op::Bfi { .. }
        | Op::CmpSel { .. }
        | Op::SetReg { .. }
        | Op::I2I { .. }
        | Op::Mufu64H { .. }
        | Op::IMnMx64 { .. }
        | Op::Video3 { .. }
        | Op::PopcAnd { .. } => kepler_pascal::execute(op, x),
    }
}
