//! Decoding of the conversions (`I2F`, `F2I`, `F2F`).

use super::*;

/// The forms of this family common to every architecture (`None`: not one of them).
pub(super) fn common(c: &Ctx, name: &str, m: &mut Mods) -> DecodeResult<Option<Op>> {
    let ins = c.ins;
    let o = |i: usize| ins.operands.get(i);
    Ok(Some(match name {
        "I2F" | "I2FP" => {
            operand_count(ins, 2)?;
            // The destination type comes first and is .F32 by default (sm_70+ listings
            // write `I2F.U32.RP`); `.F64`/`.F16` are not modelled.
            let f32_first = m.left.first() == Some(&"F32");
            if f32_first {
                m.take("F32");
            }
            if !(f32_first || c.volta) {
                return Err(cannot(ins, "only conversions to .F32 are modelled"));
            }
            if m.left.iter().any(|x| matches!(*x, "F64" | "F16")) {
                return Err(cannot(ins, "only conversions to .F32 are modelled"));
            }
            let (signed, src_bits) = m
                .take_any(|t| {
                    Some(match t {
                        "U32" => (false, 32),
                        "S32" => (true, 32),
                        "U16" => (false, 16),
                        "S16" => (true, 16),
                        "U8" => (false, 8),
                        "S8" => (true, 8),
                        _ => return None,
                    })
                })
                .unwrap_or((true, 32));
            let round = rounding(m);
            Op::I2F {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                signed,
                src_bits,
                round,
            }
        }
        "F2I" => {
            operand_count(ins, 2)?;
            let signed = if m.take("U32") {
                false
            } else {
                m.take("S32");
                true
            };
            m.take("F32");
            let ftz = m.take("FTZ");
            // `.NTZ` (sm_70+): no documented effect on the value.
            m.take("NTZ");
            let round = if m.take("TRUNC") {
                Round::Zero
            } else if m.take("FLOOR") {
                Round::Down
            } else if m.take("CEIL") {
                Round::Up
            } else {
                m.take("ROUND");
                Round::Nearest
            };
            Op::F2I {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                signed,
                round,
                ftz,
            }
        }
        "F2F" => {
            operand_count(ins, 2)?;
            let first = m.take_any(|x| match x {
                "F32" => Some(false),
                "F64" => Some(true),
                _ => None,
            });
            let second = m.take_any(|x| match x {
                "F32" => Some(false),
                "F64" => Some(true),
                _ => None,
            });
            let (Some(to_double), Some(from_double)) = (first, second) else {
                return Err(cannot(
                    ins,
                    "expected .F32/.F64 destination and source types",
                ));
            };
            m.take("RN");
            Op::F2F {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                to_double,
                from_double,
                ftz: m.take("FTZ"),
            }
        }
        _ => return Ok(None),
    }))
}
