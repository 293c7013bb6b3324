//! `cvt` between the scalar types (PTX ISA §9.7.9.21, "Data Movement and Conversion
//! Instructions: cvt") and the rounding directions it names.

use super::float::{f32_bits, f32_of, f64_bits};
use super::integer::{mask_bits, sext};
use crate::ptx::ScalarType;

/// An IEEE-754 rounding direction (`.rn`/`.rni`, `.rz`/`.rzi`, `.rm`/`.rmi`, `.rp`/`.rpi`);
/// the simulator's SASS semantics use it for `I2F.RZ`, `F2I.FLOOR`, … too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Round {
    /// To nearest, ties to even.
    Nearest,
    Zero,
    Down,
    Up,
}

/// What a `cvt` converts: to `dt` from `st`, rounded by `round` (`.rn`… to a float, or
/// `.rni`… to an integral value when `integral`), `f32` subnormals flushed (`ftz`), a float
/// result clamped to `[0, 1]` (`sat`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Conversion {
    pub dt: ScalarType,
    pub st: ScalarType,
    pub round: Option<Round>,
    pub integral: bool,
    pub ftz: bool,
    pub sat: bool,
}

impl Conversion {
    /// The conversion to `dt` from `st` with the modifiers `has` says an instruction has
    /// (the first rounding modifier of `rn`, `rz`, `rm`, `rp`, `rni`, `rzi`, `rmi`, `rpi`).
    pub fn from_modifiers(dt: ScalarType, st: ScalarType, has: impl Fn(&str) -> bool) -> Self {
        const ROUNDINGS: [(&str, Round, bool); 8] = [
            ("rn", Round::Nearest, false),
            ("rz", Round::Zero, false),
            ("rm", Round::Down, false),
            ("rp", Round::Up, false),
            ("rni", Round::Nearest, true),
            ("rzi", Round::Zero, true),
            ("rmi", Round::Down, true),
            ("rpi", Round::Up, true),
        ];
        let (round, integral) = ROUNDINGS
            .iter()
            .find(|(m, ..)| has(m))
            .map_or((None, false), |&(_, r, i)| (Some(r), i));
        Conversion {
            dt,
            st,
            round,
            integral,
            ftz: has("ftz"),
            sat: has("sat"),
        }
    }
}

fn round_f64(x: f64, r: Round) -> f64 {
    match r {
        Round::Nearest => x.round_ties_even(),
        Round::Zero => x.trunc(),
        Round::Down => x.floor(),
        Round::Up => x.ceil(),
    }
}

/// `cvt` of the bits `a` as `how` says. `Err`: a rounding this module does not model (other
/// than `.rn` from an integer to a float, or from `f64` to `f32`).
pub fn convert(how: Conversion, a: u64) -> Result<u64, String> {
    let Conversion {
        dt,
        st,
        round,
        integral,
        ftz,
        sat,
    } = how;
    let rn_only = |what: &str| -> Result<(), String> {
        match round {
            None | Some(Round::Nearest) => Ok(()),
            Some(_) => Err(format!("{what} rounding other than .rn is not simulated")),
        }
    };
    if st.is_float() {
        let x = if st == ScalarType::F64 {
            f64::from_bits(a)
        } else {
            f64::from(f32_of(a, ftz))
        };
        if dt.is_float() {
            let x = if integral {
                round_f64(x, round.unwrap_or(Round::Nearest))
            } else {
                x
            };
            let x = if sat && !x.is_nan() {
                x.clamp(0.0, 1.0)
            } else if sat {
                0.0
            } else {
                x
            };
            return Ok(if dt == ScalarType::F64 {
                f64_bits(x)
            } else {
                if st == ScalarType::F64 && !integral {
                    rn_only("f64 → f32")?;
                }
                u64::from(f32_bits(f32_of(u64::from((x as f32).to_bits()), ftz)))
            });
        }
        // Float → integer: round as told (PTX requires an integer rounding), saturate.
        let x = round_f64(x, round.unwrap_or(Round::Zero));
        let w = dt.bits();
        let v = if dt.is_signed() {
            let (lo, hi) = (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1) - 1.0);
            if x.is_nan() {
                0
            } else {
                x.clamp(lo, hi) as i64 as u64
            }
        } else if x.is_nan() {
            0
        } else {
            x.clamp(0.0, 2f64.powi(w as i32) - 1.0) as u64
        };
        return Ok(mask_bits(v, w));
    }
    let sw = st.bits();
    if dt.is_float() {
        rn_only("integer → float")?;
        return Ok(if dt == ScalarType::F64 {
            if st.is_signed() {
                (sext(a, sw) as f64).to_bits()
            } else {
                (mask_bits(a, sw) as f64).to_bits()
            }
        } else if st.is_signed() {
            u64::from((sext(a, sw) as f32).to_bits())
        } else {
            u64::from((mask_bits(a, sw) as f32).to_bits())
        });
    }
    // Integer → integer: extend from the source width as the source type says, then
    // truncate to the destination width.
    let v = if st.is_signed() {
        sext(a, sw) as u64
    } else {
        mask_bits(a, sw)
    };
    Ok(mask_bits(v, dt.bits()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ScalarType as T;

    fn cvt(dt: T, st: T, round: Option<Round>, integral: bool, a: u64) -> Result<u64, String> {
        let how = Conversion {
            dt,
            st,
            round,
            integral,
            ftz: false,
            sat: false,
        };
        convert(how, a)
    }

    #[test]
    fn conversions() {
        // cvt.s64.s32 of -1 sign-extends; cvt.u64.u32 zero-extends.
        assert_eq!(cvt(T::S64, T::S32, None, false, 0xffff_ffff), Ok(u64::MAX));
        assert_eq!(
            cvt(T::U64, T::U32, None, false, 0xffff_ffff),
            Ok(0xffff_ffff)
        );
        // cvt.rzi.s32.f32 of -2.7 = -2; cvt.rni of 2.5 = 2 (ties to even); saturation.
        let f = |x: f32| u64::from(x.to_bits());
        let (zero, nearest) = (Some(Round::Zero), Some(Round::Nearest));
        assert_eq!(cvt(T::S32, T::F32, zero, true, f(-2.7)), Ok(0xffff_fffe));
        assert_eq!(cvt(T::S32, T::F32, nearest, true, f(2.5)), Ok(2));
        assert_eq!(cvt(T::S32, T::F32, zero, true, f(1e10)), Ok(0x7fff_ffff));
        assert_eq!(
            cvt(T::F32, T::S32, nearest, false, 0xffff_fffd),
            Ok(f(-3.0))
        );
        assert!(cvt(T::F32, T::S32, zero, false, 1).is_err());
    }

    #[test]
    fn modifiers() {
        let has = |set: &'static [&'static str]| move |m: &str| set.contains(&m);
        let c = Conversion::from_modifiers(T::S32, T::F32, has(&["rmi", "ftz"]));
        assert_eq!(
            (c.round, c.integral, c.ftz, c.sat),
            (Some(Round::Down), true, true, false)
        );
        let c = Conversion::from_modifiers(T::F32, T::F64, has(&["rn"]));
        assert_eq!((c.round, c.integral), (Some(Round::Nearest), false));
        assert_eq!(
            Conversion::from_modifiers(T::U32, T::U16, has(&[])).round,
            None
        );
    }
}
