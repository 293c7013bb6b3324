//! The executable form of a SASS instruction: what decoding ([`super::decode`]) produces
//! and the semantics ([`super::semantics`]) and front end execute — operations with
//! resolved operands, control effects, scoreboard slots.

pub(crate) use crate::bool_op::BoolOp;
pub(crate) use crate::comparison::Cmp;
pub(crate) use crate::rounding::Round;
/// Scoreboard slots: GPRs `0..256`, predicates `256..264`, the carry flag 264, uniform
/// registers `265..329`, uniform predicates `329..337`.
pub(crate) const PRED_SLOT: usize = 256;
pub(crate) const CC_SLOT: usize = 264;
pub(crate) const UNIFORM_SLOT: usize = 265;
pub(crate) const UPRED_SLOT: usize = 329;
pub(crate) const SLOTS: usize = 337;
/// Index of the always-true predicate `PT` in a warp's predicate file.
pub(crate) const PT: u8 = 7;
/// Index of the uniform predicate `UP0` in a warp's predicate file (`UPn` is `UPRED + n`; a
/// uniform predicate holds the same bit in every lane).
pub(crate) const UPRED: u8 = 8;

/// Which part of a 32-bit value a source reads: `.H0`/`.H1` (`XMAD`), `.B0`–`.B3` (a byte,
/// zero-extended, of a conversion's source).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Half {
    Whole,
    H0,
    H1,
    Byte(u8),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Special {
    Tid(usize),
    Ctaid(usize),
    LaneId,
    /// `SR_LTMASK`: the lanes below this one.
    LtMask,
    /// `SR_CgaCtaId` (sm_90): the block's rank in its cluster, 0 without clusters.
    CgaCtaId,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SrcKind {
    Reg(u16),
    Zero,
    /// An immediate or a constant-bank word pair (low, high); `high` is `None` when the next
    /// constant word is not defined (only an error if read as 64 bits).
    Value(u32, Option<u32>),
    Special(Special),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Src {
    pub kind: SrcKind,
    pub neg: bool,
    pub inv: bool,
    pub abs: bool,
    pub half: Half,
    /// The immediate was written as a float (`0.5`) rather than raw bits (`0x3f000000`).
    pub float_imm: Option<f64>,
}

impl Src {
    /// Register row `r`, read whole, without modifiers.
    pub(crate) fn reg(r: u16) -> Src {
        Src {
            kind: SrcKind::Reg(r),
            neg: false,
            inv: false,
            abs: false,
            half: Half::Whole,
            float_imm: None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PredSrc {
    pub idx: u8,
    pub neg: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Space {
    Global,
    Shared,
    /// Each thread's private window (`LDL`/`STL`, [`super::local_memory`]).
    Local,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AddrSrc {
    /// Base register (`None`: `RZ` or no register).
    pub base: Option<u16>,
    /// `.E`: the base is a 64-bit register pair.
    pub wide: bool,
    /// `.X4`/`.X8`/`.X16` on the base register: it is shifted left this much (0: unscaled).
    pub scale: u8,
    /// A uniform register added to the address (`[R0.X4+UR4+0x10]`, `[UR4]`), 32-bit.
    pub uniform: Option<u16>,
    pub offset: i64,
}

/// The operations of a video instruction ([`Op::Video3`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VideoOp {
    Add,
    Min,
    Max,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FloatKind {
    Add,
    Mul,
    Fma,
    /// `FMNMX`/`DMNMX`: minimum when the predicate holds, else maximum.
    MinMax,
}

/// The executable operation of one instruction (its data effect; control is separate).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Op {
    Nop,
    Mov {
        d: u16,
        a: Src,
    },
    /// `a + b (+ c) (+ CC)`, `.CC` writes the carry out.
    IAdd {
        d: u16,
        a: Src,
        b: Src,
        c: Src,
        x: bool,
        cc: bool,
    },
    IScAdd {
        d: u16,
        a: Src,
        b: Src,
        shift: u32,
        cc: bool,
    },
    IMad {
        d: u16,
        a: Src,
        b: Src,
        c: Src,
        hi: bool,
        signed: bool,
        x: bool,
        cc: bool,
    },
    XMad {
        d: u16,
        a: Src,
        b: Src,
        c: Src,
        /// `.S16` on A (first) and B (second): the 16-bit halves are sign-extended.
        a_signed: bool,
        b_signed: bool,
        mrg: bool,
        psl: bool,
        cbcc: bool,
        chi: bool,
        /// `.CLO`: `C`'s low half.
        clo: bool,
    },
    ISetP {
        p: u8,
        q: u8,
        cmp: Cmp,
        signed: bool,
        a: Src,
        b: Src,
        bop: BoolOp,
        c: PredSrc,
        /// `.X` (Kepler–Pascal): the high words of a 64-bit comparison whose low words were
        /// subtracted by the `.CC` instruction before it (its carry and zero flags).
        x: bool,
        /// `.EX` (sm_70+): the high words of a 64-bit comparison; where they are equal the
        /// result is this predicate (the low words' comparison).
        ex: Option<PredSrc>,
    },
    FSetP {
        p: u8,
        q: u8,
        cmp: Cmp,
        ftz: bool,
        double: bool,
        a: Src,
        b: Src,
        bop: BoolOp,
        c: PredSrc,
    },
    PSetP {
        p: u8,
        q: u8,
        a: PredSrc,
        b: PredSrc,
        op1: BoolOp,
        op2: BoolOp,
        c: PredSrc,
    },
    Shift {
        d: u16,
        a: Src,
        b: Src,
        left: bool,
        signed: bool,
        /// `.W` (Fermi): the shift amount wraps modulo 32 instead of clamping.
        wrap: bool,
    },
    Lop {
        d: u16,
        a: Src,
        b: Src,
        op: LopKind,
        /// `LOP.op.NZ p, d, a, b` (`.Z`): `p` is set where the result is not zero (zero).
        p: Option<(u8, bool)>,
    },
    Lop3 {
        d: u16,
        a: Src,
        b: Src,
        c: Src,
        lut: u8,
        /// Predicate destination: set where the result is not zero (`true`; sm_70+ and
        /// Pascal `.NZ`) or zero (`false`, Pascal `.Z`), as `LOP`'s.
        p: Option<(u8, bool)>,
    },
    Sel {
        d: u16,
        a: Src,
        b: Src,
        p: PredSrc,
    },
    /// Volta+ `IMAD`: `a·b + c` (32-bit, `.HI`: the high word of `a·b + c:c+1`, `.WIDE`:
    /// 64-bit into `d:d+1` with a 64-bit `c`), plus a carry-in predicate (`.X`).
    VImad {
        d: u16,
        a: Src,
        b: Src,
        c: Src,
        part: MadPart,
        signed: bool,
        cin: Option<PredSrc>,
        /// `.WIDE` only: the carry out of the 64-bit sum.
        cout: Option<u8>,
    },
    /// Volta+ `IADD3`: `a + b + c` (`.X`: plus two carry-in predicates), with an optional
    /// carry-out predicate, or two (`IADD3 d, P0, P1, a, b, c`): the carry `k` = the sum's
    /// bits from 32 up (0..2 for three unsigned words) as `P0 = k ≥ 1`, `P1 = k ≥ 2`.
    VIAdd3 {
        d: u16,
        a: Src,
        b: Src,
        c: Src,
        cin: Option<[PredSrc; 2]>,
        cout: Option<u8>,
        cout2: Option<u8>,
    },
    /// `LEA d, a, b, s` = `(a << s) + b`; `.HI`: `(hi:a << s) >> 32` + `b`, where `hi` is
    /// the source `hi` or (`.SX32`) the sign of `a`; optional carry in and out.
    Lea {
        d: u16,
        a: Src,
        b: Src,
        hi_src: Src,
        shift: u32,
        hi: bool,
        sx32: bool,
        cin: Option<PredSrc>,
        cout: Option<u8>,
        /// Kepler–Pascal `.X`: the carry in is the carry flag (`cin` is then `None`).
        cc_in: bool,
        /// Kepler–Pascal `d.CC`: the carry out goes to the carry flag.
        cc: bool,
    },
    /// Funnel shift of the 64-bit `c:a` by `s` (`.L`/`.R`), the low or (`.HI`) high word.
    Shf {
        d: u16,
        a: Src,
        s: Src,
        c: Src,
        left: bool,
        hi: bool,
        signed: bool,
        wide: bool,
    },
    /// `PRMT d, a, sel, b`: byte `i` of `d` is byte `sel[4i..4i+3] & 7` of `b:a`, replicated
    /// sign when bit 3 of the nibble is set.
    Prmt {
        d: u16,
        a: Src,
        sel: Src,
        b: Src,
    },
    IAbs {
        d: u16,
        a: Src,
    },
    Bits {
        d: u16,
        a: Src,
        kind: BitsKind,
    },
    /// `PLOP3.LUT p, q, a, b, c, lut_p, lut_q`.
    Plop3 {
        p: u8,
        q: u8,
        a: PredSrc,
        b: PredSrc,
        c: PredSrc,
        lut_p: u8,
        lut_q: u8,
    },
    Mufu {
        d: u16,
        a: Src,
        func: MufuFunc,
    },
    /// `LDC d, c[0x0][base + offset]` with the address computed per lane: `bytes` (1, 4 or
    /// 8; a byte sign-extended when `signed`) of constant bank 0, whose words (`None`: not
    /// defined by the launch) are copied here at decoding.
    LdcIndexed {
        d: u16,
        base: u16,
        offset: i64,
        bytes: u8,
        signed: bool,
        words: Box<[Option<u32>]>,
    },
    /// A 64-bit constant into `d:d+1` (`LDC.64`, `ULDC.64`, `CS2R d, SRZ`).
    Const64 {
        d: u16,
        lo: u32,
        hi: u32,
    },
    /// `VOTE.ANY/ALL d, p, src` (`VOTEU`: `d`/`p` are uniform and every lane is written).
    Vote {
        d: u16,
        p: u8,
        src: PredSrc,
        all: bool,
        uniform: bool,
    },
    /// `R2UR d, a`: the value of the lowest executing lane, in every lane of uniform `d`.
    R2Ur {
        d: u16,
        a: Src,
    },
    Shfl {
        d: u16,
        p: u8,
        a: Src,
        b: Src,
        c: Src,
        mode: ShflMode,
    },
    IMnMx {
        d: u16,
        a: Src,
        b: Src,
        p: PredSrc,
        signed: bool,
    },
    Float {
        kind: FloatKind,
        d: u16,
        a: Src,
        b: Src,
        c: Src,
        ftz: bool,
        sat: bool,
        double: bool,
        p: PredSrc,
        /// `.RM`/`.RP`/`.RZ`; else to nearest.
        round: Round,
        /// `FMUL.D2`…`.M8`: the exact product is scaled by 2^scale before its rounding
        /// (0: none).
        scale: i8,
    },
    I2F {
        d: u16,
        a: Src,
        signed: bool,
        /// Width of the integer source (`.U8`/`.S16`…: 8 or 16; else 32).
        src_bits: u32,
        round: Round,
    },
    /// `IADD3.RS d, a, b, c` (Maxwell–Pascal): `((a + b) >> 16) + c`, the 33-bit sum of `a`
    /// and `b` shifted right by 16 (`.LS`: left by 16, `((a + b) << 16) + c`).
    IAdd3Shift {
        d: u16,
        a: Src,
        b: Src,
        c: Src,
        right: bool,
    },
    /// `BFE d, a, ctl` (PTX `bfe`): the `len` bits of `a` from bit `pos` (`ctl` = `pos |
    /// len << 8`), sign-extended when signed; `.BREV`: of `a` bit-reversed.
    Bfe {
        d: u16,
        a: Src,
        ctl: Src,
        signed: bool,
        brev: bool,
    },
    /// `BFI d, a, ctl, c` (PTX `bfi`): `c` with the field `pos, len` of `ctl` replaced by
    /// the low bits of `a`.
    Bfi {
        d: u16,
        a: Src,
        ctl: Src,
        c: Src,
    },
    /// `IMNMX.XHI d.CC, a, b, p` / `IMNMX.XLO d, a, b, p` (Maxwell–Pascal): the two
    /// halves of a 64-bit minimum (`p` true) or maximum. `.XHI` picks between the high
    /// words (signed unless `.U32`) and leaves in the flags whether they were equal (zero
    /// flag) and, if not, whether `a`'s was picked (carry flag); `.XLO` then picks the low
    /// word of the same side, comparing the low words (unsigned) only where the high words
    /// were equal. Reading: the compiler's pairs (`IMNMX.XHI R6.CC, R6, RZ, PT;
    /// IMNMX.U32.XLO R5, R5, 0x200, PT` is thrust's `min(n, 512)` on a 64-bit `n`);
    /// NVIDIA documents the mnemonic only.
    IMnMx64 {
        d: u16,
        a: Src,
        b: Src,
        p: PredSrc,
        signed: bool,
        high: bool,
    },
    /// Fermi–Kepler `POPC d, a, b`: the number of bits set in `a & b` (the compiler's
    /// `__popc(ballot & lane_mask)`; `POPC d, a, a` is `__popc(a)`). Reading: the two-source
    /// form Fermi listings print (envytools' Fermi tables name it the same way).
    PopcAnd {
        d: u16,
        a: Src,
        b: Src,
    },
    /// Fermi–Pascal video instructions with a secondary operation, PTX `vadd`/`vmax`/
    /// `vmin` `.op2 d, a, b, c`: `op2(op(a, b), c)` on whole 32-bit words (`VADD.ACC`:
    /// `a + b + c`, the compiler's three-operand add; `VMNMX.MX.MAX`: `max(max(a, b), c)`).
    Video3 {
        d: u16,
        a: Src,
        b: Src,
        c: Src,
        first: VideoOp,
        second: VideoOp,
        signed: bool,
    },
    /// `ICMP.cmp d, a, b, c` / `FCMP.cmp d, a, b, c`: `c cmp 0 ? a : b` (PTX `slct`).
    CmpSel {
        d: u16,
        a: Src,
        b: Src,
        c: Src,
        cmp: Cmp,
        signed: bool,
        float: bool,
        ftz: bool,
    },
    /// `ISET/FSET.cmp.bop d, a, b, p`: all ones (`.BF`: 1.0) where `(a cmp b) bop p`,
    /// else 0 (PTX `set`).
    SetReg {
        d: u16,
        a: Src,
        b: Src,
        p: PredSrc,
        cmp: Cmp,
        signed: bool,
        float: bool,
        bop: BoolOp,
        bf: bool,
        ftz: bool,
        /// `ISET.X`: the 64-bit comparison through the carry and zero flags (`a`, `b` the
        /// high words).
        x: bool,
    },
    /// `I2I.dst.src d, a` (PTX `cvt` between integer types): `a` read as `src` (`|a|`, `-a`
    /// applied), then truncated to `dst` (`.SAT`: clamped to its range).
    I2I {
        d: u16,
        a: Src,
        dst: IntType,
        src: IntType,
        sat: bool,
    },
    /// `I2F.F64.src d, a`: an integer (32 or 64 bits) to a double in `d:d+1` (Kepler–Pascal
    /// and sm_70+).
    I2F64 {
        d: u16,
        a: Src,
        src: IntType,
        round: Round,
    },
    /// `MUFU.RCP64H`/`MUFU.RSQ64H d, a`: the high word of `1/x` (`1/sqrt(x)`) for the double
    /// `x` whose high word is `a` and low word 0.
    Mufu64H {
        d: u16,
        a: Src,
        rsq: bool,
    },
    /// `FCHK p, a, b`: whether `a / b` needs the slow path of the division idiom.
    FChk {
        p: u8,
        a: Src,
        b: Src,
    },
    /// `F2I.dst.src d, a`: `a` rounded to an integral value in mode `round`, saturated to
    /// the destination type, NaN → 0.
    F2I {
        d: u16,
        a: Src,
        signed: bool,
        round: Round,
        ftz: bool,
        /// The source is the double `a:a+1`.
        double: bool,
        /// The destination is the 64-bit `d:d+1`.
        wide: bool,
    },
    /// `F2F.dst.src d, a` between widths: rounded in mode `round` (narrowing), then `.FTZ`,
    /// `.SAT`.
    F2F {
        d: u16,
        a: Src,
        to_double: bool,
        from_double: bool,
        ftz: bool,
        round: Round,
        sat: bool,
    },
    /// `FRND` and same-type `F2F`: `a` rounded to an integral value in mode `to_int` (none:
    /// `a` itself), then `.FTZ`, `.SAT`; `double`: the pairs `d:d+1`, `a:a+1`.
    FRound {
        d: u16,
        a: Src,
        double: bool,
        to_int: Option<Round>,
        ftz: bool,
        sat: bool,
    },
    S2R {
        d: u16,
        sr: Special,
    },
    Load {
        space: Space,
        d: u16,
        addr: AddrSrc,
        bytes: u64,
        sign_extend: bool,
    },
    Store {
        space: Space,
        v: Src,
        addr: AddrSrc,
        bytes: u64,
    },
    Barrier,
    /// A texture fetch ([`crate::texture`]): `TEXS`/`TEX` at the nearest-point, clamped
    /// float coordinates (`x`, `y`), or (`integer`) `TLDS`/`TLD` of texel `x` of row 0. The
    /// channels of `channels` (bit 0: R … bit 3: A), in order, go to `d`, `d + 1`, `d2`,
    /// `d2 + 1` (`RZ_DEST`: dropped).
    TexFetch {
        d: u16,
        d2: u16,
        channels: u8,
        x: Src,
        y: Src,
        handle: Src,
        integer: bool,
    },
    /// `SULD.D.BA.2D` / `SUST.D.BA.2D` ([`crate::texture`]): a raw access of `bytes` bytes
    /// at byte `x` of row `y` (the register pair `xy`, `xy + 1`) of the surface `handle`
    /// names; a load writes `d`, a store writes `v`.
    Surface {
        store: bool,
        d: u16,
        v: Src,
        xy: u16,
        handle: Src,
        bytes: u64,
        oob: crate::texture::OutOfBounds,
    },
    /// `PSET.op1.op2 d, a, b, c`: `d` = all ones (`.BF`: 1.0) where `(a op1 b) op2 c`, else 0.
    PSet {
        d: u16,
        a: PredSrc,
        b: PredSrc,
        c: PredSrc,
        op1: BoolOp,
        op2: BoolOp,
        bf: bool,
    },
    /// `R2P PR, a, mask`: predicate `Pi` = bit `i` of `a` for each bit `i` of `mask` (0–6).
    R2P {
        a: Src,
        mask: u8,
    },
    /// `P2R d, PR, a, mask`: `d = (a & !mask) | (P0..P6 as bits 0..6 & mask)`.
    P2R {
        d: u16,
        a: Src,
        mask: u32,
    },
    /// `MATCH.ANY d, a`: the executing lanes whose `a` equals this lane's.
    MatchAny {
        d: u16,
        a: Src,
    },
    /// `ATOM`/`ATOMG`/`ATOMS`/`RED`/`REDG`: per executing lane in lane order, `d` gets the
    /// old word at the address and the word becomes `op(old, v)` (`CAS`: `v` if old = `cmp`).
    Atomic {
        space: Space,
        op: AtomOp,
        d: u16,
        addr: AddrSrc,
        v: Src,
        cmp: Src,
    },
    /// `REDUX.op d, a` (sm_80+): `op` over the executing lanes' `a`, into uniform `d`.
    Redux {
        d: u16,
        a: Src,
        op: ReduxOp,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AtomOp {
    Add,
    /// `INC`: `old >= v ? 0 : old + 1` (PTX `atom.inc`).
    Inc,
    /// `DEC`: `old == 0 || old > v ? v : old - 1` (PTX `atom.dec`).
    Dec,
    Min {
        signed: bool,
    },
    Max {
        signed: bool,
    },
    And,
    Or,
    Xor,
    Exch,
    Cas,
}

impl AtomOp {
    /// The new word for `old`, the operand `v` and (`CAS`) the comparand `cmp`.
    pub(crate) fn apply(self, old: u32, v: u32, cmp: u32) -> u32 {
        match self {
            AtomOp::Add => old.wrapping_add(v),
            AtomOp::Inc => {
                if old >= v {
                    0
                } else {
                    old + 1
                }
            }
            AtomOp::Dec => {
                if old == 0 || old > v {
                    v
                } else {
                    old - 1
                }
            }
            AtomOp::Min { signed: true } => (old as i32).min(v as i32) as u32,
            AtomOp::Min { signed: false } => old.min(v),
            AtomOp::Max { signed: true } => (old as i32).max(v as i32) as u32,
            AtomOp::Max { signed: false } => old.max(v),
            AtomOp::And => old & v,
            AtomOp::Or => old | v,
            AtomOp::Xor => old ^ v,
            AtomOp::Exch => v,
            AtomOp::Cas => {
                if old == cmp {
                    v
                } else {
                    old
                }
            }
        }
    }
}

/// An integer type of a conversion: its width in bits and signedness.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct IntType {
    pub bits: u32,
    pub signed: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReduxOp {
    Sum,
    Min { signed: bool },
    Max { signed: bool },
    And,
    Or,
    Xor,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MadPart {
    Lo,
    Hi,
    Wide,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BitsKind {
    Popc,
    /// `FLO`: position of the most significant one (of the first bit differing from the sign
    /// when signed), `.SH`: 31 minus it; `0xffffffff` when there is none.
    Flo {
        signed: bool,
        sh: bool,
    },
    Brev,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MufuFunc {
    Rcp,
    Rsq,
    Sqrt,
    Ex2,
    Lg2,
    Sin,
    Cos,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShflMode {
    Idx,
    Up,
    Down,
    Bfly,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LopKind {
    And,
    Or,
    Xor,
    PassB,
}

/// The control effect, targets as instruction indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Control {
    Next,
    Branch {
        target: usize,
        /// `BRA P1, t`: taken only by the lanes where this predicate holds too
        /// (`isa::Instruction::branch_predicates`).
        also: Option<PredSrc>,
        uniform: bool,
        /// `BRA.DIV` (`Some(true)`) / `BRA.CONV` (`Some(false)`) without a guard: taken only
        /// when the warp is diverged (resp. converged), as `cfg::concrete` runs them.
        convergence: Option<bool>,
    },
    Prepare {
        tag: cfg::Tag,
        target: usize,
    },
    /// SYNC/BRK/CONT/RET (`Some(tag)`) or EXIT (`None`).
    Halt(Option<cfg::Tag>),
    Call {
        target: usize,
    },
    /// `BSYNC Bn`.
    Bsync(u8),
    /// `BREAK Bn` (always fused with the branch after it, `cfg::barriers::fused_break_at`).
    Break(u8),
    /// Full-warp `WARPSYNC`.
    WarpSync,
}

/// One decoded instruction.
#[derive(Debug, Clone)]
pub(crate) struct Decoded {
    pub op: Op,
    /// A uniform-datapath instruction (`U…`, `S2UR`): it writes its uniform destination in
    /// every lane when any lane executes it.
    pub uniform: bool,
    pub control: Control,
    pub guard: PredSrc,
    /// Scoreboard slots read (guard included) and written.
    pub reads: Vec<u16>,
    pub writes: Vec<u16>,
}

impl Decoded {
    /// The scoreboard slots the instruction reads or writes.
    #[inline(always)]
    pub(crate) fn slots(&self) -> impl Iterator<Item = usize> + '_ {
        self.reads
            .iter()
            .chain(&self.writes)
            .map(|&s| usize::from(s))
    }
}
