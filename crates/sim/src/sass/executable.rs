//! The executable form of a SASS instruction: what decoding ([`super::decode`]) produces
//! and the semantics ([`super::semantics`]) and front end execute — operations with
//! resolved operands, control effects, scoreboard slots.

pub(crate) use crate::bool_op::BoolOp;
pub(crate) use crate::comparison::Cmp;
pub(crate) use crate::rounding::Round;
/// Scoreboard slots: GPRs `0..256`, predicates `256..264`, the carry flag 264.
pub(crate) const PRED_SLOT: usize = 256;
pub(crate) const CC_SLOT: usize = 264;
pub(crate) const SLOTS: usize = 265;
/// Index of the always-true predicate `PT` in a warp's predicate file.
pub(crate) const PT: u8 = 7;

/// Which half of a 32-bit value a source reads (`.H0`/`.H1`, XMAD only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Half {
    Whole,
    H0,
    H1,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Special {
    Tid(usize),
    Ctaid(usize),
    LaneId,
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PredSrc {
    pub idx: u8,
    pub neg: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Space {
    Global,
    Shared,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AddrSrc {
    /// Base register (`None`: `RZ` or no register).
    pub base: Option<u16>,
    /// `.E`: the base is a 64-bit register pair.
    pub wide: bool,
    pub offset: i64,
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
        mrg: bool,
        psl: bool,
        cbcc: bool,
        chi: bool,
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
    },
    Lop {
        d: u16,
        a: Src,
        b: Src,
        op: LopKind,
    },
    Lop3 {
        d: u16,
        a: Src,
        b: Src,
        c: Src,
        lut: u8,
    },
    Sel {
        d: u16,
        a: Src,
        b: Src,
        p: PredSrc,
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
    },
    I2F {
        d: u16,
        a: Src,
        signed: bool,
        round: Round,
    },
    F2I {
        d: u16,
        a: Src,
        signed: bool,
        round: Round,
        ftz: bool,
    },
    F2F {
        d: u16,
        a: Src,
        to_double: bool,
        from_double: bool,
        ftz: bool,
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
        uniform: bool,
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
}

/// One decoded instruction.
#[derive(Debug, Clone)]
pub(crate) struct Decoded {
    pub op: Op,
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
