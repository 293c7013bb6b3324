//! Decoding of the floating-point arithmetic and comparison opcodes (`FADD`, `FMUL`, `FFMA`
//! and their `32I` forms, `DADD`, `DMUL`, `DFMA`, `FMNMX`, `DMNMX`, `FSETP`, `DSETP`, `FSEL`,
//! `MUFU`, `FCHK`).

use super::*;

/// The sm_70+ forms of this family (`None`: not one of them).
pub(super) fn volta(c: &Ctx, name: &str, m: &mut Mods) -> DecodeResult<Option<Op>> {
    let ins = c.ins;
    let o = |i: usize| ins.operands.get(i);
    Ok(Some(match name {
        "MUFU" if m.left.iter().any(|f| matches!(*f, "RCP64H" | "RSQ64H")) => {
            operand_count(ins, 2)?;
            let rsq = m.take("RSQ64H");
            m.take("RCP64H");
            Op::Mufu64H {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                rsq,
            }
        }
        "MUFU" => {
            operand_count(ins, 2)?;
            let func = m
                .take_any(|f| {
                    Some(match f {
                        "RCP" => MufuFunc::Rcp,
                        "RSQ" => MufuFunc::Rsq,
                        "SQRT" => MufuFunc::Sqrt,
                        "EX2" => MufuFunc::Ex2,
                        "LG2" => MufuFunc::Lg2,
                        "SIN" => MufuFunc::Sin,
                        "COS" => MufuFunc::Cos,
                        _ => return None,
                    })
                })
                .ok_or_else(|| cannot(ins, "unknown function"))?;
            Op::Mufu {
                d: c.dest(o(0))?,
                a: c.float_src(o(1))?,
                func,
            }
        }
        "FCHK" => {
            operand_count(ins, 3)?;
            // `.DIVIDE` (Pascal listings) names the only check there is.
            m.take("DIVIDE");
            Op::FChk {
                p: c.pred_dest(o(0))?,
                a: c.src(o(1))?,
                b: c.src(o(2))?,
            }
        }
        "FSEL" => {
            operand_count(ins, 4)?;
            Op::Sel {
                d: c.dest(o(0))?,
                a: c.float_src(o(1))?,
                b: c.float_src(o(2))?,
                p: c.pred_src(o(3))?,
            }
        }
        _ => return Ok(None),
    }))
}

/// The forms of this family common to every architecture (`None`: not one of them).
pub(super) fn common(c: &Ctx, name: &str, m: &mut Mods) -> DecodeResult<Option<Op>> {
    let ins = c.ins;
    let o = |i: usize| ins.operands.get(i);
    Ok(Some(match name {
        "FSETP" | "DSETP" => {
            operand_count(ins, 5)?;
            if m.left.iter().any(|t| matches!(*t, "MAX" | "MIN")) {
                // `DSETP.MAX.AND P0, P1, R20, c[0x2][0x0], PT` (sm_70+ eigenvalues): a
                // min/max whose two predicates say which operand won (and NaN?), undocumented.
                return Err(cannot(
                    ins,
                    "the `.MAX`/`.MIN` form (no comparison; which operand each predicate \
                     reports is undocumented)",
                ));
            }
            let cmp = m
                .take_any(cmp_of)
                .ok_or_else(|| cannot(ins, "missing comparison"))?;
            let bop = m.take_any(bool_of).unwrap_or(BoolOp::And);
            Op::FSetP {
                p: c.pred_dest(o(0))?,
                q: c.pred_dest(o(1))?,
                cmp,
                ftz: m.take("FTZ"),
                double: ins.opcode.name == "DSETP",
                a: c.float_src(o(2))?,
                b: c.float_src(o(3))?,
                bop,
                c: c.pred_src(o(4))?,
            }
        }
        "FADD" | "FMUL" | "FFMA" | "FADD32I" | "FMUL32I" | "FFMA32I" | "FMNMX" | "DADD"
        | "DMUL" | "DFMA" | "DMNMX" => {
            let name = ins.opcode.name.as_str();
            let kind = match name.trim_end_matches("32I") {
                "FADD" | "DADD" => FloatKind::Add,
                "FMUL" | "DMUL" => FloatKind::Mul,
                "FFMA" | "DFMA" => FloatKind::Fma,
                _ => FloatKind::MinMax,
            };
            let double = name.starts_with('D');
            let fma = kind == FloatKind::Fma;
            let mnmx = kind == FloatKind::MinMax;
            operand_count(ins, if fma || mnmx { 4 } else { 3 })?;
            let round = rounding(m);
            if round != Round::Nearest && mnmx {
                return Err(cannot(ins, "directed rounding of a minimum or maximum"));
            }
            let scale = if kind == FloatKind::Mul && !double {
                m.take_any(product_scale).unwrap_or(0)
            } else {
                0
            };
            let ftz = m.take("FTZ");
            let sat = m.take("SAT");
            if double && (ftz || sat) {
                // PTX has neither for `.f64`, and no listing shows one.
                return Err(cannot(ins, ".FTZ/.SAT on a double-precision operation"));
            }
            let (cc, p) = if mnmx {
                (zero(), c.pred_src(o(3))?)
            } else if fma {
                (
                    c.src(o(3))?,
                    PredSrc {
                        idx: PT,
                        neg: false,
                    },
                )
            } else {
                (
                    zero(),
                    PredSrc {
                        idx: PT,
                        neg: false,
                    },
                )
            };
            let raw_bits = name.ends_with("32I");
            let mut cc = cc;
            if fma && !raw_bits {
                cc = c.float_src(o(3))?;
            }
            Op::Float {
                kind: if mnmx { FloatKind::MinMax } else { kind },
                d: c.dest(o(0))?,
                a: c.float_src(o(1))?,
                b: if raw_bits {
                    c.src(o(2))?
                } else {
                    c.float_src(o(2))?
                },
                c: cc,
                ftz,
                sat,
                double,
                p,
                round,
                scale,
            }
        }
        _ => return Ok(None),
    }))
}

/// The power of two an `FMUL` modifier scales the product by: `.D2`, `.D4`, `.D8` divide it
/// by 2, 4, 8 and `.M2`, `.M4`, `.M8` multiply it (the exponent added).
///
/// Reading (NVIDIA's instruction set reference lists `FMUL` as "FP32 Multiply" and nothing
/// more; PTX has no such modifier): a 3-bit field of the Maxwell–Pascal encoding (bits
/// 41–43: `FMUL.D4 R5, R5, c[0x0][0x150]` is `0x4c68040005470505`, the plain form has
/// `0x4c680000…`), which nvcc sets where the source multiplies a product by a power of two
/// (Parboil cutcp: `(8 * i + 4) * h * BIN_INVLEN` with `BIN_INVLEN` = 1/4 becomes `FMUL.D4`
/// of the converted index and `h`). The scaling is applied to the exact product before its
/// one rounding (`correctly_rounded::scaled_product_f32`). Where the scaled result is
/// normal this is the product rounded and then scaled (scaling by a power of two is exact);
/// the two differ only when the unscaled product overflows or the scaled one is subnormal,
/// and which of them the hardware computes there is *uncertain*.
fn product_scale(m: &str) -> Option<i8> {
    Some(match m {
        "D2" => -1,
        "D4" => -2,
        "D8" => -3,
        "M2" => 1,
        "M4" => 2,
        "M8" => 3,
        _ => return None,
    })
}
