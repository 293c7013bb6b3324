//! Decoding of the GCN3 scalar ALU instructions (AMD GCN3 ISA chapter 5 "Scalar ALU
//! Operations": SOP1, SOP2, SOPC, SOPK).

use super::{cmp_of, err, ty_of, Cmp, Op, SFn, Ty};
use crate::gcn::operand::{Loc, Opnd};

pub(super) fn decode_scalar(
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
        "brev_b32" | "brev_b64" => {
            return Ok(Op::SBrev {
                d: arg(0)?,
                a: arg(1)?,
                wide,
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
                Loc::Int(v) if ty == Ty::I32 => Opnd {
                    loc: Loc::Int(i64::from(v as i16)),
                    ..b
                },
                Loc::Int(v) => Opnd {
                    loc: Loc::Int(i64::from(v as u16)),
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
        "bfm_b32" | "bfm_b64" => (SFn::Bfm, false),
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
        Loc::Int(v) if yes => Opnd {
            loc: Loc::Int(i64::from(v as i16)),
            ..o
        },
        _ => o,
    }
}
