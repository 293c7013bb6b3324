//! Decoding a parsed GCN3 instruction ([`isa::gcn::GcnInstruction`]) into an executable
//! [`Op`], once per instruction. Names follow the *AMD GCN3 ISA* manual (VOP2/VOP3/VOPC,
//! SOP1/SOP2/SOPC/SOPK, SMEM, FLAT, DS); the operand order is LLVM's print order. An
//! instruction outside the supported set decodes to an error "cannot simulate OPCODE: why",
//! reported at its span when (and only when) a wavefront reaches it.

use super::operand::{resolve, Opnd};
use isa::gcn::{ExecCondition, GcnControl, GcnInstruction, GcnOperandKind, ScalarCondition};

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
    /// `v_div_scale_f32 d, vcc, a, b, c` (GCN3 ISA §12.7): the first step of the
    /// compiler's IEEE single-precision division. The hardware scales `a` by 2^±64 when the
    /// operands' exponents are far apart or denormal, and says so in VCC, so that the Newton
    /// steps between stay in range; this model never scales (`d = a`, VCC 0): the steps
    /// then run on the operands themselves, and [`VFn::DivFixupF`] returns the quotient the
    /// whole sequence computes (correctly rounded), so only the intermediate registers of
    /// such extreme operands differ from the hardware's.
    DivScaleF,
    /// `v_div_fmas_f32 d, a, b, c`: `fma(a, b, c)`, scaled back by 2^±64 when VCC says
    /// `v_div_scale_f32` scaled — which this model's never does.
    DivFmasF,
    /// `v_div_fixup_f32 d, q, den, num`: the special cases of `num / den` (zeros,
    /// infinities, NaNs, overflow) and otherwise `q`; modelled as the IEEE quotient
    /// `num / den` itself, which is what the sequence computes.
    DivFixupF,
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
    VMem(VMem),
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

fn int_value(text: &str) -> Option<i64> {
    let t = text.trim();
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t),
    };
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else {
        t.parse::<i64>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// Decodes `ins`; `Err` is the "cannot simulate …" message.
pub fn decode(ins: &GcnInstruction) -> Result<Op, String> {
    let full = ins.opcode.as_str();
    let name = full
        .strip_suffix("_e32")
        .or_else(|| full.strip_suffix("_e64"))
        .unwrap_or(full);
    if name.ends_with("_sdwa") || name.ends_with("_dpp") {
        return err(full, "SDWA/DPP encodings are not simulated");
    }
    for m in &ins.modifiers {
        match m.name.as_str() {
            "offset" | "offset0" | "offset1" | "glc" | "slc" | "nv" => {}
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
    if let Some(rest) = name
        .strip_prefix("flat_")
        .map(|r| (Mem::Flat, r))
        .or_else(|| name.strip_prefix("global_").map(|r| (Mem::Global, r)))
    {
        let (mem, r) = rest;
        let (store, size) = if let Some(s) = r.strip_prefix("load_") {
            (false, s)
        } else if let Some(s) = r.strip_prefix("store_") {
            (true, s)
        } else {
            return err(full, "atomics are not simulated");
        };
        let (bytes, sign) = match size {
            "ubyte" | "byte" => (1, false),
            "sbyte" => (1, true),
            "ushort" | "short" => (2, false),
            "sshort" => (2, true),
            "dword" => (4, false),
            "dwordx2" => (8, false),
            "dwordx4" => (16, false),
            _ => return err(full, format!("access size `{size}` is not simulated")),
        };
        let (data, addr) = if store {
            (arg(1)?, arg(0)?)
        } else {
            (arg(0)?, arg(1)?)
        };
        let saddr = match ops.get(2).map(|o| &o.kind) {
            Some(GcnOperandKind::Sgpr { .. }) => Some(arg(2)?),
            _ => None,
        };
        if saddr.is_none() && addr.count < 2 {
            return err(full, "a 64-bit address needs a VGPR pair");
        }
        return Ok(Op::VMem(VMem {
            mem,
            store,
            bytes,
            sign,
            data,
            addr,
            saddr,
            offset: modifier("offset")?,
        }));
    }
    if let Some(r) = name.strip_prefix("ds_") {
        let read = r.starts_with("read");
        let write = r.starts_with("write");
        if !read && !write {
            return err(
                full,
                "LDS atomics and other DS operations are not simulated",
            );
        }
        let two = r.starts_with("read2") || r.starts_with("write2");
        let st64 = r.contains("st64");
        let size = r.rsplit('_').next().unwrap_or("");
        let (bytes, sign) = match size {
            "b32" => (4, false),
            "b64" => (8, false),
            "u8" | "b8" => (1, false),
            "i8" => (1, true),
            "u16" | "b16" => (2, false),
            "i16" => (2, true),
            _ => return err(full, format!("LDS size `{size}` is not simulated")),
        };
        let offsets = if two {
            let scale = bytes * if st64 { 64 } else { 1 };
            vec![
                (modifier("offset0")? as u64).wrapping_mul(scale),
                (modifier("offset1")? as u64).wrapping_mul(scale),
            ]
        } else {
            vec![modifier("offset")? as u64]
        };
        let (addr, data) = if read {
            (arg(1)?, vec![arg(0)?])
        } else if two {
            (arg(0)?, vec![arg(1)?, arg(2)?])
        } else {
            (arg(0)?, vec![arg(1)?])
        };
        return Ok(Op::Ds {
            store: write,
            bytes,
            sign,
            data,
            addr,
            offsets,
        });
    }
    if let Some(r) = name.strip_prefix("v_") {
        return decode_vector(full, r, &arg, nops);
    }
    err(full, "no semantics for this opcode")
}

fn decode_scalar(
    full: &str,
    r: &str,
    arg: &dyn Fn(usize) -> Result<Opnd, String>,
    nops: usize,
) -> Result<Op, String> {
    let wide = r.ends_with("64");
    if let Some(body) = r.strip_suffix("_saveexec_b64") {
        let f = match body {
            "and" => SFn::And,
            "or" => SFn::Or,
            "xor" => SFn::Xor,
            "andn2" => SFn::Andn2,
            "orn2" => SFn::Orn2,
            "nand" => SFn::Nand,
            "nor" => SFn::Nor,
            "xnor" => SFn::Xnor,
            _ => return err(full, "unknown saveexec"),
        };
        return Ok(Op::SaveExec {
            f,
            d: arg(0)?,
            a: arg(1)?,
        });
    }
    match r {
        // The address operand is materialised by the code layout (`super::code`).
        "getpc_b64" if nops == 2 => {
            return Ok(Op::SMov {
                d: arg(0)?,
                a: arg(1)?,
                wide: true,
                cond: false,
            })
        }
        "getpc_b64" => return err(full, "code addresses exist only in a linked image"),
        "mov_b32" | "mov_b64" | "movk_i32" => {
            return Ok(Op::SMov {
                d: arg(0)?,
                a: sext16_if(r == "movk_i32", arg(1)?),
                wide,
                cond: false,
            })
        }
        "cmov_b32" | "cmov_b64" | "cmovk_i32" => {
            return Ok(Op::SMov {
                d: arg(0)?,
                a: sext16_if(r == "cmovk_i32", arg(1)?),
                wide,
                cond: true,
            })
        }
        "not_b32" | "not_b64" => {
            return Ok(Op::SNot {
                d: arg(0)?,
                a: arg(1)?,
                wide,
            })
        }
        _ => {}
    }
    if let Some(c) = r.strip_prefix("cmpk_").or_else(|| r.strip_prefix("cmp_")) {
        let k = r.starts_with("cmpk_");
        let mut it = c.splitn(2, '_');
        let (cs, ts) = (it.next().unwrap_or(""), it.next().unwrap_or(""));
        let (Some(cmp), Some(ty)) = (cmp_of(cs), ty_of(ts)) else {
            return err(full, "unknown scalar comparison");
        };
        if cmp == Cmp::Class || matches!(ty, Ty::F32 | Ty::F64) {
            return err(full, "unknown scalar comparison");
        }
        let b = arg(1)?;
        let b = if k {
            // SOPK: a 16-bit immediate, sign-extended for _i32, zero-extended for _u32.
            match b.loc {
                super::operand::Loc::Int(v) if ty == Ty::I32 => Opnd {
                    loc: super::operand::Loc::Int(i64::from(v as i16)),
                    ..b
                },
                super::operand::Loc::Int(v) => Opnd {
                    loc: super::operand::Loc::Int(i64::from(v as u16)),
                    ..b
                },
                _ => b,
            }
        } else {
            b
        };
        return Ok(Op::SCmp {
            c: cmp,
            ty,
            a: arg(0)?,
            b,
        });
    }
    let (f, k) = match r {
        "add_u32" => (SFn::AddU, false),
        "sub_u32" => (SFn::SubU, false),
        "add_i32" => (SFn::AddI, false),
        "sub_i32" => (SFn::SubI, false),
        "addk_i32" => (SFn::AddI, true),
        "addc_u32" => (SFn::Addc, false),
        "subb_u32" => (SFn::Subb, false),
        "mul_i32" => (SFn::Mul, false),
        "mulk_i32" => (SFn::Mul, true),
        "lshl_b32" | "lshl_b64" => (SFn::Lshl, false),
        "lshr_b32" | "lshr_b64" => (SFn::Lshr, false),
        "ashr_i32" | "ashr_i64" => (SFn::Ashr, false),
        "and_b32" | "and_b64" => (SFn::And, false),
        "or_b32" | "or_b64" => (SFn::Or, false),
        "xor_b32" | "xor_b64" => (SFn::Xor, false),
        "andn2_b32" | "andn2_b64" => (SFn::Andn2, false),
        "orn2_b32" | "orn2_b64" => (SFn::Orn2, false),
        "nand_b32" | "nand_b64" => (SFn::Nand, false),
        "nor_b32" | "nor_b64" => (SFn::Nor, false),
        "xnor_b32" | "xnor_b64" => (SFn::Xnor, false),
        "min_i32" => (SFn::MinI, false),
        "min_u32" => (SFn::MinU, false),
        "max_i32" => (SFn::MaxI, false),
        "max_u32" => (SFn::MaxU, false),
        "cselect_b32" | "cselect_b64" => (SFn::Cselect, false),
        "bfe_u32" | "bfe_u64" => (SFn::BfeU, false),
        "bfe_i32" | "bfe_i64" => (SFn::BfeI, false),
        _ => return err(full, "no semantics for this scalar opcode"),
    };
    let d = arg(0)?;
    if k {
        // SOPK `s_addk_i32 d, simm16`: d = d + sext(simm16).
        return Ok(Op::SBin {
            f,
            d,
            a: d,
            b: sext16_if(true, arg(1)?),
            wide: false,
        });
    }
    Ok(Op::SBin {
        f,
        d,
        a: arg(1)?,
        b: arg(2)?,
        wide,
    })
}

fn sext16_if(yes: bool, o: Opnd) -> Opnd {
    match o.loc {
        super::operand::Loc::Int(v) if yes => Opnd {
            loc: super::operand::Loc::Int(i64::from(v as i16)),
            ..o
        },
        _ => o,
    }
}

fn decode_vector(
    full: &str,
    r: &str,
    arg: &dyn Fn(usize) -> Result<Opnd, String>,
    nops: usize,
) -> Result<Op, String> {
    if let Some(c) = r.strip_prefix("cmpx_").or_else(|| r.strip_prefix("cmp_")) {
        let x = r.starts_with("cmpx_");
        let mut it = c.splitn(2, '_');
        let (cs, ts) = (it.next().unwrap_or(""), it.next().unwrap_or(""));
        let (Some(cmp), Some(ty)) = (cmp_of(cs), ty_of(ts)) else {
            return err(full, "this comparison is not simulated");
        };
        if cmp == Cmp::Class && !matches!(ty, Ty::F32 | Ty::F64) {
            return err(full, "a class test needs a float type");
        }
        let (d, a, b) = if nops >= 3 {
            (Some(arg(0)?), arg(1)?, arg(2)?)
        } else {
            (None, arg(0)?, arg(1)?)
        };
        if let Some(dd) = d {
            if dd.sreg().is_none() || dd.count != 2 {
                return err(full, "a comparison writes an SGPR pair or vcc");
            }
        }
        return Ok(Op::VCmp {
            c: cmp,
            ty,
            d,
            a,
            b,
            x,
        });
    }
    match r {
        "cndmask_b32" => {
            return Ok(Op::VCndmask {
                d: arg(0)?,
                a: arg(1)?,
                b: arg(2)?,
                m: arg(3)?,
            })
        }
        "readfirstlane_b32" => {
            return Ok(Op::VReadFirstLane {
                d: arg(0)?,
                a: arg(1)?,
            })
        }
        _ => {}
    }
    use VFn::*;
    // (function, number of sources, has carry-out, has carry-in)
    let (f, n, co, ci) = match r {
        "mov_b32" => (Mov, 1, false, false),
        "add_u32" | "add_i32" | "add_co_u32" if nops == 4 => (Add, 2, true, false),
        "add_u32" | "add_nc_u32" => (Add, 2, false, false),
        "sub_u32" | "sub_i32" | "sub_co_u32" if nops == 4 => (Sub, 2, true, false),
        "sub_u32" | "sub_nc_u32" => (Sub, 2, false, false),
        "subrev_u32" | "subrev_i32" | "subrev_co_u32" if nops == 4 => (Subrev, 2, true, false),
        "subrev_u32" | "subrev_nc_u32" => (Subrev, 2, false, false),
        "addc_u32" | "addc_co_u32" => (Addc, 2, true, true),
        "subb_u32" | "subb_co_u32" => (Subb, 2, true, true),
        "subbrev_u32" | "subbrev_co_u32" => (Subbrev, 2, true, true),
        "mul_lo_u32" | "mul_lo_i32" => (MulLo, 2, false, false),
        "mul_hi_u32" => (MulHiU, 2, false, false),
        "mul_hi_i32" => (MulHiI, 2, false, false),
        "mul_u32_u24" => (MulU24, 2, false, false),
        "mul_i32_i24" => (MulI24, 2, false, false),
        "mad_u32_u24" => (MadU24, 3, false, false),
        "mad_i32_i24" => (MadI24, 3, false, false),
        "mad_u64_u32" => (MadU64U32, 3, true, false),
        "mad_i64_i32" => (MadI64I32, 3, true, false),
        "lshlrev_b32" => (Lshlrev, 2, false, false),
        "lshrrev_b32" => (Lshrrev, 2, false, false),
        "ashrrev_i32" => (Ashrrev, 2, false, false),
        "lshlrev_b64" => (Lshlrev64, 2, false, false),
        "lshrrev_b64" => (Lshrrev64, 2, false, false),
        "ashrrev_i64" => (Ashrrev64, 2, false, false),
        "lshl_add_u32" => (LshlAdd, 3, false, false),
        "and_b32" => (And, 2, false, false),
        "or_b32" => (Or, 2, false, false),
        "xor_b32" => (Xor, 2, false, false),
        "not_b32" => (Not, 1, false, false),
        "max_i32" => (MaxI, 2, false, false),
        "max_u32" => (MaxU, 2, false, false),
        "min_i32" => (MinI, 2, false, false),
        "min_u32" => (MinU, 2, false, false),
        "max3_i32" => (Max3I, 3, false, false),
        "max3_u32" => (Max3U, 3, false, false),
        "min3_i32" => (Min3I, 3, false, false),
        "min3_u32" => (Min3U, 3, false, false),
        "bfe_u32" => (BfeU, 3, false, false),
        "bfe_i32" => (BfeI, 3, false, false),
        "add_f32" => (AddF, 2, false, false),
        "sub_f32" => (SubF, 2, false, false),
        "subrev_f32" => (SubrevF, 2, false, false),
        "mul_f32" => (MulF, 2, false, false),
        "mac_f32" => (MacF, 2, false, false),
        "mad_f32" => (MadF, 3, false, false),
        "fma_f32" => (FmaF, 3, false, false),
        "min_f32" => (MinF, 2, false, false),
        "max_f32" => (MaxF, 2, false, false),
        "max3_f32" => (Max3F, 3, false, false),
        "min3_f32" => (Min3F, 3, false, false),
        "rcp_f32" | "rcp_iflag_f32" => (RcpF, 1, false, false),
        "sqrt_f32" => (SqrtF, 1, false, false),
        "rndne_f32" => (RndneF, 1, false, false),
        "floor_f32" => (FloorF, 1, false, false),
        "trunc_f32" => (TruncF, 1, false, false),
        "ldexp_f32" => (LdexpF, 2, false, false),
        "cvt_f32_u32" => (CvtF32U32, 1, false, false),
        "cvt_f32_i32" => (CvtF32I32, 1, false, false),
        "cvt_u32_f32" => (CvtU32F32, 1, false, false),
        "cvt_i32_f32" => (CvtI32F32, 1, false, false),
        "cvt_f64_f32" => (CvtF64F32, 1, false, false),
        "cvt_f32_f64" => (CvtF32F64, 1, false, false),
        "add_f64" => (AddF64, 2, false, false),
        "mul_f64" => (MulF64, 2, false, false),
        "fma_f64" => (FmaF64, 3, false, false),
        "min_f64" => (MinF64, 2, false, false),
        "max_f64" => (MaxF64, 2, false, false),
        "div_scale_f32" => (DivScaleF, 3, true, false),
        "div_fmas_f32" => (DivFmasF, 3, false, false),
        "div_fixup_f32" => (DivFixupF, 3, false, false),
        _ => return err(full, "no semantics for this vector opcode"),
    };
    let d = arg(0)?;
    let mut i = 1;
    let carry_out = if co {
        i += 1;
        Some(arg(1)?)
    } else {
        None
    };
    let mut src = Vec::with_capacity(n);
    for k in 0..n {
        src.push(arg(i + k)?);
    }
    let carry_in = if ci { Some(arg(i + n)?) } else { None };
    if d.sreg().is_some() {
        return err(full, "a vector operation writes a VGPR");
    }
    let float = matches!(
        f,
        AddF | SubF
            | SubrevF
            | MulF
            | MacF
            | MadF
            | FmaF
            | MinF
            | MaxF
            | Max3F
            | Min3F
            | RcpF
            | SqrtF
            | RndneF
            | FloorF
            | TruncF
            | LdexpF
            | CvtU32F32
            | CvtI32F32
            | CvtF64F32
            | CvtF32F64
            | AddF64
            | MulF64
            | FmaF64
            | MinF64
            | MaxF64
            | DivScaleF
            | DivFmasF
            | DivFixupF
    );
    if !float && src.iter().any(|s| s.neg || s.abs) {
        return err(full, "source modifiers on an integer operation");
    }
    Ok(Op::VAlu {
        f,
        d,
        src,
        carry_out,
        carry_in,
    })
}
