//! Decoding of the conversions: `I2F` (and sm_70+'s `I2FP`), `F2I`, `F2F` and `FRND`
//! (sm_70+; Maxwell–Pascal round to an integral value with a same-type `F2F`).
//!
//! Readings (NVIDIA's instruction set reference names them "Integer To FP32 Convert",
//! "Floating Point To Integer Conversion", "Floating Point To Floating Point Conversion",
//! "Round To Integer"; each implements a PTX `cvt`, whose semantics they take):
//! - the destination type is written first and the source second (`I2F.F64.S64`,
//!   `F2I.S32.F64.TRUNC`, `F2F.F32.F64`); sm_70+ leaves out the default, `.F32` for `I2F`'s
//!   destination and `.S32` for `F2I`'s (`I2F.F64` converts an `S32`, `F2I.F64.TRUNC` gives
//!   an `S32`, `I2F.U32.RP` gives an `F32`);
//! - `.RN`/`.RZ`/`.RM`/`.RP` round the result to the destination format, `.ROUND`,
//!   `.FLOOR`, `.CEIL`, `.TRUNC` round to an integral value (PTX `.rni`, `.rmi`, `.rpi`,
//!   `.rzi`): `F2I`'s rounding, and with the same type on both sides (`F2F.F32.F32.CEIL`,
//!   `FRND.CEIL`) a float rounded to an integral float; a bare `FRND` rounds to the nearest
//!   integral value, ties to even (PTX `cvt.rni`), and a bare same-type `F2F` only applies
//!   `.FTZ`/`.SAT` (PTX `cvt.ftz.f32.f32`);
//! - `F2I` saturates to the destination's range and gives 0 for NaN (PTX `cvt` to an
//!   integer type); `.NTZ` (sm_70+) has no documented effect on the value;
//! - a byte of the source register (`I2F.F32.U8 R8, R5.B1`) is read as the source type
//!   says: byte 1 of R5, zero- or sign-extended.

use super::*;

/// Rounding to an integral value: `.ROUND` (to nearest, ties to even), `.FLOOR`, `.CEIL`,
/// `.TRUNC`.
fn integral(m: &mut Mods) -> Option<Round> {
    m.take_any(|t| {
        Some(match t {
            "ROUND" => Round::Nearest,
            "FLOOR" => Round::Down,
            "CEIL" => Round::Up,
            "TRUNC" => Round::Zero,
            _ => return None,
        })
    })
}

/// A float type modifier: whether it is `.F64` (`.F32` otherwise).
fn float_type(t: &str) -> Option<bool> {
    match t {
        "F32" => Some(false),
        "F64" => Some(true),
        _ => None,
    }
}

const S32: IntType = IntType {
    bits: 32,
    signed: true,
};

/// The forms of this family common to every architecture (`None`: not one of them).
pub(super) fn common(c: &Ctx, name: &str, m: &mut Mods) -> DecodeResult<Option<Op>> {
    let ins = c.ins;
    let o = |i: usize| ins.operands.get(i);
    if m.left.contains(&"F16") {
        if matches!(name, "I2F" | "I2FP" | "F2I" | "F2F" | "FRND") {
            return Err(cannot(ins, "half-precision conversions are not modelled"));
        }
        return Ok(None);
    }
    Ok(Some(match name {
        "I2F" | "I2FP" => {
            operand_count(ins, 2)?;
            let first = m.left.first().copied().and_then(float_type);
            if first.is_some() {
                m.left.remove(0);
            } else if !c.volta {
                // Kepler–Pascal listings always write the destination type.
                return Err(cannot(
                    ins,
                    "expected the destination type (.F32/.F64) first",
                ));
            }
            let double = first == Some(true);
            let src = m.take_any(int_type).unwrap_or(S32);
            let round = rounding(m);
            let d = c.dest(o(0))?;
            if double || src.bits == 64 {
                if src.bits == 64 && !double {
                    return Err(cannot(ins, "a 64-bit integer to .F32 is not modelled"));
                }
                let a = if src.bits == 64 {
                    c.src(o(1))?
                } else {
                    c.src_bytes(o(1))?
                };
                Op::I2F64 { d, a, src, round }
            } else {
                Op::I2F {
                    d,
                    a: c.src_bytes(o(1))?,
                    signed: src.signed,
                    src_bits: src.bits,
                    round,
                }
            }
        }
        "F2I" => {
            operand_count(ins, 2)?;
            let dst = m.take_any(int_type).unwrap_or(S32);
            if dst.bits < 32 {
                return Err(cannot(ins, "narrow integer destinations are not modelled"));
            }
            let double = m.take_any(float_type).unwrap_or(false);
            let ftz = m.take("FTZ");
            if ftz && double {
                return Err(cannot(ins, ".FTZ of a double-precision source"));
            }
            // `.NTZ` (sm_70+): no documented effect on the value.
            m.take("NTZ");
            Op::F2I {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                signed: dst.signed,
                round: integral(m).unwrap_or(Round::Nearest),
                ftz,
                double,
                wide: dst.bits == 64,
            }
        }
        "F2F" => {
            operand_count(ins, 2)?;
            let first = m.take_any(float_type);
            let second = m.take_any(float_type);
            let (Some(to_double), Some(from_double)) = (first, second) else {
                return Err(cannot(
                    ins,
                    "expected .F32/.F64 destination and source types",
                ));
            };
            let to_int = integral(m);
            let round = rounding(m);
            let ftz = m.take("FTZ");
            let sat = m.take("SAT");
            let (d, a) = (c.dest(o(0))?, c.src(o(1))?);
            if to_double == from_double {
                Op::FRound {
                    d,
                    a,
                    double: to_double,
                    to_int,
                    ftz,
                    sat,
                }
            } else if to_int.is_some() {
                return Err(cannot(
                    ins,
                    "rounding to an integral value while changing the width",
                ));
            } else {
                Op::F2F {
                    d,
                    a,
                    to_double,
                    from_double,
                    ftz,
                    round,
                    sat,
                }
            }
        }
        "FRND" => {
            operand_count(ins, 2)?;
            let double = m.take_any(float_type).unwrap_or(false);
            let to_int = integral(m).unwrap_or(Round::Nearest);
            let ftz = m.take("FTZ");
            if ftz && double {
                return Err(cannot(ins, ".FTZ of a double-precision source"));
            }
            Op::FRound {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                double,
                to_int: Some(to_int),
                ftz,
                sat: false,
            }
        }
        _ => return Ok(None),
    }))
}
