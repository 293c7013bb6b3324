//! Decoding a parsed GCN3 instruction ([`isa::gcn::GcnInstruction`]) into an executable
//! [`Op`], once per instruction. Names follow the *AMD GCN3 ISA* manual (VOP2/VOP3/VOPC,
//! SOP1/SOP2/SOPC/SOPK, SMEM, FLAT, DS); the operand order is LLVM's print order. An
//! instruction outside the supported set decodes to an error "cannot simulate OPCODE: why",
//! reported at its span when (and only when) a wavefront reaches it.

mod memory;
mod scalar;
mod vector;

use super::operand::{resolve, Opnd};
pub use crate::atomic_op::{AtomOp, Kind};
use isa::gcn::{ExecCondition, GcnControl, GcnInstruction, GcnOperandKind, ScalarCondition};
use scalar::decode_scalar;
use vector::decode_vector;

/// Comparison of `s_cmp*`/`v_cmp*`.
pub use crate::comparison::Cmp;

/// Operand type of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

/// Scalar two-operand functions (SOP2/SOPK) and the `*_saveexec` combiners.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SFn {
    AddU,
    SubU,
    AddI,
    SubI,
    Addc,
    Subb,
    Mul,
    Lshl,
    Lshr,
    Ashr,
    And,
    Or,
    Xor,
    Andn2,
    Orn2,
    Nand,
    Nor,
    Xnor,
    MinI,
    MinU,
    MaxI,
    MaxU,
    Cselect,
    BfeU,
    BfeI,
    /// `s_bfm_b32`/`_b64 d, s0, s1`: `((1 << s0) − 1) << s1` (5/6-bit fields; SCC unchanged).
    Bfm,
}

/// A vector memory access (`flat_*`, `global_*`).
#[derive(Debug, Clone, PartialEq)]
pub struct VMem {
    pub mem: Mem,
    pub store: bool,
    pub bytes: u64,
    pub sign: bool,
    /// Loaded-into or stored-from VGPRs.
    pub data: Opnd,
    pub addr: Opnd,
    pub saddr: Option<Opnd>,
    pub offset: i64,
}

/// An atomic (`flat_atomic_*`/`global_atomic_*`, `ds_*` atomics): per active lane in lane
/// order, the dword at the lane's address := `op(old, data)`, the old value to `ret` when
/// the instruction returns it. One type for both spaces: they differ in their addresses only.
#[derive(Debug, Clone, PartialEq)]
pub struct Atomic {
    pub op: AtomOp,
    pub kind: Kind,
    pub ret: Option<Opnd>,
    pub addr: Opnd,
    /// The operand VGPR (`cmpswap`: the pair new value, compared value).
    pub data: Opnd,
    pub space: AtomicSpace,
}

/// Where an atomic's addresses are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AtomicSpace {
    /// Global memory: a 64-bit VGPR pair, or the 32-bit VGPR plus the SGPR-pair base `saddr`
    /// (`global_*` only), plus `offset`.
    Global { saddr: Option<Opnd>, offset: i64 },
    /// The work-group's LDS: the 32-bit VGPR plus `offset`, in 32 bits.
    Lds { offset: u64 },
}

/// A `buffer_load_*`/`buffer_store_*` on the private segment (scratch): the lane's private
/// byte `soffset + offset (+ vaddr with offen)` (`super::front_end` scratch).
#[derive(Debug, Clone, PartialEq)]
pub struct Scratch {
    pub store: bool,
    pub bytes: u64,
    pub sign: bool,
    pub data: Opnd,
    pub vaddr: Option<Opnd>,
    pub soffset: Opnd,
    pub offset: u64,
}

impl SFn {
    /// `s_and`…`s_xnor`: a bitwise function (either width).
    pub fn is_bitwise(self) -> bool {
        matches!(
            self,
            SFn::And
                | SFn::Or
                | SFn::Xor
                | SFn::Andn2
                | SFn::Orn2
                | SFn::Nand
                | SFn::Nor
                | SFn::Xnor
        )
    }
}

/// Vector ALU functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VFn {
    Mov,
    Add,
    Sub,
    Subrev,
    Addc,
    Subb,
    Subbrev,
    MulLo,
    MulHiU,
    MulHiI,
    MulU24,
    MulI24,
    MadU24,
    MadI24,
    MadU64U32,
    MadI64I32,
    Lshlrev,
    Lshrrev,
    Ashrrev,
    Lshlrev64,
    Lshrrev64,
    Ashrrev64,
    LshlAdd,
    And,
    Or,
    Xor,
    Not,
    MaxI,
    MaxU,
    MinI,
    MinU,
    Max3I,
    Max3U,
    Min3I,
    Min3U,
    BfeU,
    BfeI,
    AddF,
    SubF,
    SubrevF,
    MulF,
    MacF,
    MadF,
    FmaF,
    MinF,
    MaxF,
    Max3F,
    Min3F,
    RcpF,
    SqrtF,
    RndneF,
    FloorF,
    TruncF,
    LdexpF,
    CvtF32U32,
    CvtF32I32,
    CvtU32F32,
    CvtI32F32,
    CvtF64F32,
    CvtF32F64,
    AddF64,
    MulF64,
    FmaF64,
    MinF64,
    MaxF64,
    /// `v_div_scale_f32 d, vcc, s0, s1, s2`: the first step of the compiler's IEEE
    /// division ([`super::division`]: the AMD references' pseudo-code).
    DivScaleF,
    /// `v_div_fmas_f32 d, s0, s1, s2`: `fma` scaled back when VCC says the scale step
    /// scaled the quotient ([`super::division`]).
    DivFmasF,
    /// `v_div_fixup_f32 d, q, den, num`: the special cases of `num / den`, else `±|q|`.
    DivFixupF,
    /// The f64 twins of the three division steps.
    DivScaleF64,
    DivFmasF64,
    DivFixupF64,
    /// `v_exp_f32`: `2^x`; `v_log_f32`: `log2 x`; `v_rsq_f32`: `1/sqrt(x)` — computed in
    /// f64 and rounded once (the hardware's results are within 1 ulp, GCN3 ISA ch. 12).
    ExpF,
    LogF,
    RsqF,
    /// `v_fract_f32`: `x − floor(x)`; `v_ceil_f32`.
    FractF,
    CeilF,
    /// `v_frexp_mant_f32`: the mantissa of `x` in `[0.5, 1)` (±∞ and NaN as they are);
    /// `v_frexp_exp_i32_f32`: its exponent (0 for ±∞, NaN and zero).
    FrexpMantF,
    FrexpExpF,
    /// `v_cvt_f32_ubyte{0,1,2,3}`: byte `k` of the source as a float.
    CvtF32Ubyte(u8),
    /// f64: `v_rcp_f64`, `v_rsq_f64`, `v_sqrt_f64` (correctly rounded `1/x`, `1/sqrt(x)`
    /// rounded once from the exact square root, `sqrt`), `v_ldexp_f64`, conversions from and
    /// to 32-bit integers (to integers: truncation, saturating, NaN to 0, GCN3 ISA ch. 12),
    /// rounding (`rndne`, `fract`, `ceil`, `floor`, `trunc`), `frexp`.
    RcpF64,
    RsqF64,
    SqrtF64,
    LdexpF64,
    CvtF64I32,
    CvtF64U32,
    CvtI32F64,
    CvtU32F64,
    RndneF64,
    FractF64,
    CeilF64,
    FloorF64,
    TruncF64,
    FrexpMantF64,
    FrexpExpF64,
    /// `v_add_u16`, `v_sub_u16`, `v_subrev_u16`, `v_mul_lo_u16`: the low 16 bits of each
    /// source, the result's 16 bits zero-extended into the VGPR (GFX8 writes no upper bits
    /// of its own; *uncertain*: what they hold on the GPU).
    AddU16,
    SubU16,
    SubrevU16,
    MulLoU16,
    /// `v_lshlrev_b16`, `v_lshrrev_b16`, `v_ashrrev_i16 d, s0, s1`: `s1[15:0]` shifted by
    /// `s0[3:0]` (GCN3 ISA §12.7, VOP2), zero-extended as the other 16-bit operations.
    LshlrevB16,
    LshrrevB16,
    AshrrevI16,
    /// `v_alignbit_b32 d, s0, s1, s2`: `({s0, s1} >> s2[4:0])[31:0]`.
    Alignbit,
    /// `v_alignbyte_b32`: as `alignbit` by `8 · s2[1:0]` bits.
    Alignbyte,
    /// `v_bfi_b32 d, s0, s1, s2`: `(s0 & s1) | (!s0 & s2)`.
    Bfi,
    /// `v_bfm_b32 d, s0, s1`: `((1 << s0[4:0]) − 1) << s1[4:0]`.
    Bfm,
    /// `v_bfrev_b32`: the bits reversed.
    Bfrev,
    /// `v_bcnt_u32_b32 d, s0, s1`: `popcount(s0) + s1`.
    Bcnt,
}

impl VFn {
    /// The result is 64 bits wide (a VGPR pair).
    pub fn wide(self) -> bool {
        matches!(
            self,
            VFn::MadU64U32
                | VFn::MadI64I32
                | VFn::Lshlrev64
                | VFn::Lshrrev64
                | VFn::Ashrrev64
                | VFn::CvtF64F32
                | VFn::AddF64
                | VFn::MulF64
                | VFn::FmaF64
                | VFn::MinF64
                | VFn::MaxF64
                | VFn::DivScaleF64
                | VFn::DivFmasF64
                | VFn::DivFixupF64
                | VFn::RcpF64
                | VFn::RsqF64
                | VFn::SqrtF64
                | VFn::LdexpF64
                | VFn::CvtF64I32
                | VFn::CvtF64U32
                | VFn::RndneF64
                | VFn::FractF64
                | VFn::CeilF64
                | VFn::FloorF64
                | VFn::TruncF64
                | VFn::FrexpMantF64
        )
    }

    /// The sources are integers: no float modifiers (`-x`, `|x|`) apply.
    pub fn integer(self) -> bool {
        use VFn::*;
        matches!(
            self,
            Mov | Add
                | Sub
                | Subrev
                | Addc
                | Subb
                | Subbrev
                | MulLo
                | MulHiU
                | MulHiI
                | MulU24
                | MulI24
                | MadU24
                | MadI24
                | MadU64U32
                | MadI64I32
                | Lshlrev
                | Lshrrev
                | Ashrrev
                | Lshlrev64
                | Lshrrev64
                | Ashrrev64
                | LshlAdd
                | And
                | Or
                | Xor
                | Not
                | MaxI
                | MaxU
                | MinI
                | MinU
                | Max3I
                | Max3U
                | Min3I
                | Min3U
                | BfeU
                | BfeI
                | CvtF32U32
                | CvtF32I32
                | CvtF64I32
                | CvtF64U32
                | CvtF32Ubyte(_)
                | AddU16
                | SubU16
                | SubrevU16
                | MulLoU16
                | LshlrevB16
                | LshrrevB16
                | AshrrevI16
                | Alignbit
                | Alignbyte
                | Bfi
                | Bfm
                | Bfrev
                | Bcnt
        )
    }
}

/// Memory space of a vector memory instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mem {
    /// `flat_*`: a 64-bit address in a VGPR pair (global memory only is simulated).
    Flat,
    /// `global_*`: VGPR pair, or 32-bit VGPR offset plus an SGPR-pair base (`saddr`).
    Global,
}

/// An executable instruction.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    SMov {
        d: Opnd,
        a: Opnd,
        wide: bool,
        /// `s_cmov`: only when SCC is set.
        cond: bool,
    },
    SNot {
        d: Opnd,
        a: Opnd,
        wide: bool,
    },
    SBin {
        f: SFn,
        d: Opnd,
        a: Opnd,
        b: Opnd,
        wide: bool,
    },
    SCmp {
        c: Cmp,
        ty: Ty,
        a: Opnd,
        b: Opnd,
    },
    /// `s_<f>_saveexec_b64 d, a`: `d = exec; exec = a <f> exec; scc = exec != 0`.
    SaveExec {
        f: SFn,
        d: Opnd,
        a: Opnd,
    },
    SLoad {
        d: Opnd,
        base: Opnd,
        offset: Opnd,
        dwords: u32,
    },
    VAlu {
        f: VFn,
        d: Opnd,
        src: Vec<Opnd>,
        carry_out: Option<Opnd>,
        carry_in: Option<Opnd>,
    },
    VCmp {
        c: Cmp,
        ty: Ty,
        d: Option<Opnd>,
        a: Opnd,
        b: Opnd,
        x: bool,
    },
    VCndmask {
        d: Opnd,
        a: Opnd,
        b: Opnd,
        m: Opnd,
    },
    VReadFirstLane {
        d: Opnd,
        a: Opnd,
    },
    /// `v_writelane_b32 vD, sA, lane`: lane `lane[5:0]` of vD := sA, whatever EXEC holds.
    VWriteLane {
        d: Opnd,
        a: Opnd,
        lane: Opnd,
    },
    /// `v_readlane_b32 sD, vA, lane`: sD := lane `lane[5:0]` of vA.
    VReadLane {
        d: Opnd,
        a: Opnd,
        lane: Opnd,
    },
    /// `s_brev_b32`/`_b64`: the bits reversed (SCC unchanged).
    SBrev {
        d: Opnd,
        a: Opnd,
        wide: bool,
    },
    VMem(VMem),
    /// `flat_atomic_*`/`global_atomic_*` and the `ds_*` atomics.
    Atomic(Atomic),
    /// `buffer_load_*`/`buffer_store_*` on the private segment (scratch).
    Scratch(Scratch),
    Ds {
        store: bool,
        bytes: u64,
        sign: bool,
        /// Destination (reads) or the one or two data operands (writes).
        data: Vec<Opnd>,
        addr: Opnd,
        /// One byte offset, or the two of `read2`/`write2` (already scaled).
        offsets: Vec<u64>,
    },
    Waitcnt {
        vm: Option<u32>,
        lgkm: Option<u32>,
    },
    Barrier,
    Nop,
    End,
    Jump(usize),
    /// `s_swappc_b64 d, s` / `s_call_b64 d, sym` resolved to the callee's first instruction
    /// in the linked image: `d` = return address, push it, continue at `target`.
    Call {
        target: usize,
        d: Opnd,
    },
    /// `s_setpc_b64 s[30:31]`: continue at the popped return address (the end of the
    /// wavefront when the entry function returns).
    Return,
    ScalarBranch(ScalarCondition, usize),
    ExecBranch(ExecCondition, usize),
    /// PWS `split sA, sB` (§4.1, Fig. 3).
    Split {
        a: Opnd,
        b: Opnd,
    },
    /// PWS `merge`.
    Merge,
    /// The SDWA form (`*_sdwa`) of a VOP1/VOP2/VOPC operation ([`super::sdwa`]).
    Sdwa(Box<super::sdwa::Sdwa>),
}

fn err<T>(name: &str, why: impl Into<String>) -> Result<T, String> {
    Err(format!("cannot simulate {name}: {}", why.into()))
}

fn cmp_of(s: &str) -> Option<Cmp> {
    Some(match s {
        "f" => Cmp::F,
        "lt" => Cmp::Lt,
        "eq" => Cmp::Eq,
        "le" => Cmp::Le,
        "gt" => Cmp::Gt,
        "lg" | "ne" => Cmp::Ne,
        "ge" => Cmp::Ge,
        "t" | "tru" => Cmp::T,
        "o" => Cmp::Num,
        "u" => Cmp::Nan,
        "nge" => Cmp::Ltu,
        "nlg" => Cmp::Equ,
        "ngt" => Cmp::Leu,
        "nle" => Cmp::Gtu,
        "neq" => Cmp::Neu,
        "nlt" => Cmp::Geu,
        "class" => Cmp::Class,
        _ => return None,
    })
}

fn ty_of(s: &str) -> Option<Ty> {
    Some(match s {
        "i16" => Ty::I16,
        "u16" => Ty::U16,
        "i32" => Ty::I32,
        "u32" => Ty::U32,
        "i64" => Ty::I64,
        "u64" => Ty::U64,
        "f32" => Ty::F32,
        "f64" => Ty::F64,
        _ => return None,
    })
}

/// An integer operand (`isa::number`, the one integer reader).
fn int_value(text: &str) -> Option<i64> {
    isa::number::parse_int(text.trim())
}

/// Decodes `ins`; `Err` is the "cannot simulate …" message.
pub fn decode(ins: &GcnInstruction) -> Result<Op, String> {
    let full = ins.opcode.as_str();
    let name = full
        .strip_suffix("_e32")
        .or_else(|| full.strip_suffix("_e64"))
        .unwrap_or(full);
    if name.ends_with("_dpp") {
        return err(
            full,
            "DPP (data-parallel primitives, cross-lane) encodings are not simulated",
        );
    }
    if let Some(base) = name.strip_suffix("_sdwa") {
        return decode_sdwa(ins, full, base);
    }
    decode_named(ins, full, name)
}

/// An SDWA instruction: its base operation ([`decode_named`] of `base`) wrapped with the
/// selects ([`super::sdwa`]).
fn decode_sdwa(ins: &GcnInstruction, full: &str, base: &str) -> Result<Op, String> {
    if !base.starts_with("v_") {
        return err(full, "SDWA applies to vector ALU operations only");
    }
    let mut plain = ins.clone();
    plain.modifiers.retain(|m| {
        !matches!(
            m.name.as_str(),
            "dst_sel" | "dst_unused" | "src0_sel" | "src1_sel"
        )
    });
    let op = decode_named(&plain, full, base)?;
    super::sdwa::wrap(full, op, &ins.modifiers)
}

/// [`decode`] of `ins` under the opcode `name` (its encoding suffix removed).
fn decode_named(ins: &GcnInstruction, full: &str, name: &str) -> Result<Op, String> {
    for m in &ins.modifiers {
        match m.name.as_str() {
            "offset" | "offset0" | "offset1" | "glc" | "slc" | "nv" | "offen" | "idxen"
            | "addr64" | "lds" | "tfe" => {}
            other => return err(full, format!("modifier `{other}` is not simulated")),
        }
    }
    let mut ops = Vec::with_capacity(ins.operands.len());
    for o in &ins.operands {
        ops.push(o);
    }
    let arg = |i: usize| -> Result<Opnd, String> {
        match ops.get(i) {
            Some(o) => resolve(o).map_err(|m| format!("cannot simulate {full}: {m}")),
            None => err(full, format!("expected an operand {}", i + 1)),
        }
    };
    let nops = ops.len();
    let modifier = |n: &str| -> Result<i64, String> {
        match ins.modifiers.iter().find(|m| m.name == n) {
            None => Ok(0),
            Some(m) => m
                .value
                .as_deref()
                .and_then(int_value)
                .map_or_else(|| err(full, format!("bad `{n}` value")), Ok),
        }
    };
    // Control.
    match &ins.control {
        GcnControl::EndProgram => return Ok(Op::End),
        GcnControl::Split => {
            return Ok(Op::Split {
                a: arg(0)?,
                b: arg(1)?,
            })
        }
        GcnControl::Merge => return Ok(Op::Merge),
        GcnControl::Indirect => {
            return Err(format!(
                "cannot simulate {full}: {}",
                ins.control_problem()
                    .unwrap_or_else(|| "indirect branches are not simulated".into())
            ))
        }
        GcnControl::Call {
            target_index: Some(t),
            ..
        } => {
            return Ok(Op::Call {
                target: *t,
                d: arg(0)?,
            })
        }
        GcnControl::TailCall {
            target_index: Some(t),
            ..
        } => return Ok(Op::Jump(*t)),
        GcnControl::Call { callee, .. } | GcnControl::TailCall { callee, .. } => {
            return err(
                full,
                format!("call to `{callee}`, which is not a function of this listing (an external function, e.g. a device-library builtin or `vprintf`): its code is not available"),
            )
        }
        GcnControl::Return => return Ok(Op::Return),
        GcnControl::Jump { target_index, .. } => {
            return target_index
                .map(Op::Jump)
                .map_or_else(|| err(full, "unresolved branch target"), Ok)
        }
        GcnControl::ScalarBranch {
            condition,
            target_index,
            ..
        } => {
            if *condition == ScalarCondition::Other {
                return err(full, "this branch condition is not simulated");
            }
            return target_index.map_or_else(
                || err(full, "unresolved branch target"),
                |t| Ok(Op::ScalarBranch(*condition, t)),
            );
        }
        GcnControl::ExecBranch {
            condition,
            target_index,
            ..
        } => {
            return target_index.map_or_else(
                || err(full, "unresolved branch target"),
                |t| Ok(Op::ExecBranch(*condition, t)),
            )
        }
        GcnControl::Fallthrough => {}
    }
    match name {
        "s_nop" | "s_setprio" | "s_sleep" | "s_dcache_wb" | "s_dcache_inv" => return Ok(Op::Nop),
        "s_barrier" => return Ok(Op::Barrier),
        "s_waitcnt" => {
            return match ops.first().map(|o| &o.kind) {
                Some(GcnOperandKind::Waitcnt { vmcnt, lgkmcnt, .. }) => Ok(Op::Waitcnt {
                    vm: *vmcnt,
                    lgkm: *lgkmcnt,
                }),
                Some(GcnOperandKind::Int { value }) => {
                    // The raw GCN3 encoding: vmcnt in bits 3:0, lgkmcnt in bits 11:8.
                    let v = *value as u32;
                    Ok(Op::Waitcnt {
                        vm: Some(v & 0xf),
                        lgkm: Some((v >> 8) & 0xf),
                    })
                }
                _ => Ok(Op::Waitcnt {
                    vm: Some(0),
                    lgkm: Some(0),
                }),
            };
        }
        _ => {}
    }
    if let Some(rest) = name.strip_prefix("s_load_dword") {
        let dwords = match rest {
            "" => 1,
            "x2" => 2,
            "x4" => 4,
            "x8" => 8,
            "x16" => 16,
            _ => return err(full, "unknown scalar load size"),
        };
        return Ok(Op::SLoad {
            d: arg(0)?,
            base: arg(1)?,
            offset: arg(2)?,
            dwords,
        });
    }
    if let Some(rest) = name.strip_prefix("s_") {
        return decode_scalar(full, rest, &arg, nops);
    }
    if let Some((mem, r)) = name
        .strip_prefix("flat_")
        .map(|r| (Mem::Flat, r))
        .or_else(|| name.strip_prefix("global_").map(|r| (Mem::Global, r)))
    {
        let glc = ins.modifiers.iter().any(|m| m.name == "glc");
        return memory::vector_memory(full, mem, r, &ops, &arg, &modifier, glc);
    }
    if let Some(r) = name.strip_prefix("ds_") {
        return memory::lds(full, r, &arg, &modifier);
    }
    if let Some(r) = name.strip_prefix("v_") {
        return decode_vector(full, r, &arg, nops);
    }
    if let Some(r) = name.strip_prefix("buffer_") {
        return memory::buffer(full, r, &ops, &arg, ins);
    }
    err(full, "no semantics for this opcode")
}
