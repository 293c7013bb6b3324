//! Decoding of the GCN3 vector ALU instructions (AMD GCN3 ISA chapter 6 "Vector ALU
//! Operations": VOP1, VOP2, VOP3, VOPC).

use super::{cmp_of, err, ty_of, Cmp, Op, Ty, VFn};
use crate::gcn::operand::Opnd;

pub(super) fn decode_vector(
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
        "writelane_b32" => {
            return Ok(Op::VWriteLane {
                d: arg(0)?,
                a: arg(1)?,
                lane: arg(2)?,
            })
        }
        "readlane_b32" => {
            return Ok(Op::VReadLane {
                d: arg(0)?,
                a: arg(1)?,
                lane: arg(2)?,
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
        "div_scale_f64" => (DivScaleF64, 3, true, false),
        "div_fmas_f64" => (DivFmasF64, 3, false, false),
        "div_fixup_f64" => (DivFixupF64, 3, false, false),
        "exp_f32" => (ExpF, 1, false, false),
        "log_f32" => (LogF, 1, false, false),
        "rsq_f32" => (RsqF, 1, false, false),
        "fract_f32" => (FractF, 1, false, false),
        "ceil_f32" => (CeilF, 1, false, false),
        "frexp_mant_f32" => (FrexpMantF, 1, false, false),
        "frexp_exp_i32_f32" => (FrexpExpF, 1, false, false),
        "cvt_f32_ubyte0" => (CvtF32Ubyte(0), 1, false, false),
        "cvt_f32_ubyte1" => (CvtF32Ubyte(1), 1, false, false),
        "cvt_f32_ubyte2" => (CvtF32Ubyte(2), 1, false, false),
        "cvt_f32_ubyte3" => (CvtF32Ubyte(3), 1, false, false),
        "rcp_f64" => (RcpF64, 1, false, false),
        "rsq_f64" => (RsqF64, 1, false, false),
        "sqrt_f64" => (SqrtF64, 1, false, false),
        "ldexp_f64" => (LdexpF64, 2, false, false),
        "cvt_f64_i32" => (CvtF64I32, 1, false, false),
        "cvt_f64_u32" => (CvtF64U32, 1, false, false),
        "cvt_i32_f64" => (CvtI32F64, 1, false, false),
        "cvt_u32_f64" => (CvtU32F64, 1, false, false),
        "rndne_f64" => (RndneF64, 1, false, false),
        "fract_f64" => (FractF64, 1, false, false),
        "ceil_f64" => (CeilF64, 1, false, false),
        "floor_f64" => (FloorF64, 1, false, false),
        "trunc_f64" => (TruncF64, 1, false, false),
        "frexp_mant_f64" => (FrexpMantF64, 1, false, false),
        "frexp_exp_i32_f64" => (FrexpExpF64, 1, false, false),
        "add_u16" => (AddU16, 2, false, false),
        "sub_u16" => (SubU16, 2, false, false),
        "subrev_u16" => (SubrevU16, 2, false, false),
        "mul_lo_u16" => (MulLoU16, 2, false, false),
        "lshlrev_b16" => (LshlrevB16, 2, false, false),
        "lshrrev_b16" => (LshrrevB16, 2, false, false),
        "ashrrev_i16" => (AshrrevI16, 2, false, false),
        "alignbit_b32" => (Alignbit, 3, false, false),
        "alignbyte_b32" => (Alignbyte, 3, false, false),
        "bfi_b32" => (Bfi, 3, false, false),
        "bfm_b32" => (Bfm, 2, false, false),
        "bfrev_b32" => (Bfrev, 1, false, false),
        "bcnt_u32_b32" => (Bcnt, 2, false, false),
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
    let carry_in = if ci {
        Some(arg(i + n)?)
    } else if matches!(f, DivFmasF | DivFmasF64) {
        // VCC, implicitly: the scale step's flag (GCN3 ISA ch. 12, V_DIV_FMAS).
        Some(Opnd {
            loc: crate::gcn::operand::Loc::S(crate::gcn::operand::VCC_LO),
            count: 2,
            neg: false,
            abs: false,
            sext: false,
        })
    } else {
        None
    };
    if d.sreg().is_some() {
        return err(full, "a vector operation writes a VGPR");
    }
    if f.integer() && src.iter().any(|s| s.neg || s.abs) {
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
