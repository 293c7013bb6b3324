//! Functional semantics of the GCN3 scalar and vector ALU (AMD *GCN3 ISA* manual, chapters
//! 5 "Scalar ALU operations" and 6 "Vector ALU operations").
//!
//! Conventions taken from the manual: SCC is the carry of `s_add_u32`/`s_addc_u32`, the
//! borrow of `s_sub_u32`/`s_subb_u32`, the signed overflow of `s_add_i32`/`s_sub_i32`,
//! "result ≠ 0" for shifts, bitwise operations and `s_bfe`, and untouched by `s_mul_i32`
//! and moves; vector operations write only the active lanes (`exec`, and under splitting
//! also the split mask); a `v_cmp` writes 0 for inactive lanes of its SGPR-pair result, and
//! a carry-out is written the same way. `v_rcp_f32` is computed as the correctly rounded
//! `1/x` (the hardware's approximation is within 1 ulp; we do not model it).

use super::decode::{Cmp, Op, SFn, Ty, VFn};
use super::operand::{lane32, lane64, Loc, Opnd, ScalarFile, VectorFile};
use super::{division, float_functions};
use crate::canonical_nan::{f32_bits, f64_bits};
use std::ops::{BitAnd, BitOr, BitXor, Not};

fn w32(sf: &mut ScalarFile, d: &Opnd, v: u32) {
    if let Some(s) = d.sreg() {
        sf.set(s, v);
    }
}

fn w64(sf: &mut ScalarFile, d: &Opnd, v: u64) {
    if let Some(s) = d.sreg() {
        sf.set64(s, v);
    }
}

fn bfe(v: u64, ctl: u64, signed: bool, width_bits: u32) -> u64 {
    let off = (ctl & 0x3f) as u32 % width_bits;
    let w = ((ctl >> 16) & 0x7f) as u32;
    if w == 0 {
        return 0;
    }
    let w = w.min(width_bits - off);
    let x = v >> off;
    let mask = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
    let x = x & mask;
    if signed && w < 64 && (x >> (w - 1)) & 1 == 1 {
        let r = x | !mask;
        if width_bits == 32 {
            r & 0xffff_ffff
        } else {
            r
        }
    } else {
        x
    }
}

/// Executes a scalar ALU op.
pub fn scalar(op: &Op, sf: &mut ScalarFile) -> Result<(), String> {
    match op {
        Op::SMov { d, a, wide, cond } => {
            if *cond && !sf.scc() {
                return Ok(());
            }
            if *wide {
                let v = sf.read64(a);
                w64(sf, d, v);
            } else {
                let v = sf.read32(a);
                w32(sf, d, v);
            }
        }
        Op::SBrev { d, a, wide } => {
            if *wide {
                let v = sf.read64(a).reverse_bits();
                w64(sf, d, v);
            } else {
                let v = sf.read32(a).reverse_bits();
                w32(sf, d, v);
            }
        }
        Op::SNot { d, a, wide } => {
            if *wide {
                let v = !sf.read64(a);
                w64(sf, d, v);
                sf.set_scc(v != 0);
            } else {
                let v = !sf.read32(a);
                w32(sf, d, v);
                sf.set_scc(v != 0);
            }
        }
        Op::SBin { f, d, a, b, wide } => {
            if *wide {
                let (x, y) = (sf.read64(a), sf.read64(b));
                let (v, scc) = sbin64(*f, x, y, sf.scc());
                w64(sf, d, v);
                if let Some(c) = scc {
                    sf.set_scc(c);
                }
            } else {
                let (x, y) = (sf.read32(a), sf.read32(b));
                let (v, scc) = sbin32(*f, x, y, sf.scc());
                w32(sf, d, v);
                if let Some(c) = scc {
                    sf.set_scc(c);
                }
            }
        }
        Op::SCmp { c, ty, a, b } => {
            let r = match ty {
                Ty::U64 | Ty::I64 => compare_int(*c, sf.read64(a), sf.read64(b), *ty),
                _ => compare_int(*c, u64::from(sf.read32(a)), u64::from(sf.read32(b)), *ty),
            };
            sf.set_scc(r);
        }
        Op::SaveExec { f, d, a } => {
            let old = sf.exec();
            let x = sf.read64(a);
            let (new, _) = sbin64(*f, x, old, false);
            w64(sf, d, old);
            sf.set_exec(new);
            sf.set_scc(new != 0);
        }
        _ => return Err("not a scalar ALU operation".into()),
    }
    Ok(())
}

fn sbin32(f: SFn, x: u32, y: u32, scc: bool) -> (u32, Option<bool>) {
    let nz = |v: u32| (v, Some(v != 0));
    match f {
        SFn::AddU => {
            let (v, c) = x.overflowing_add(y);
            (v, Some(c))
        }
        SFn::SubU => {
            let (v, c) = x.overflowing_sub(y);
            (v, Some(c))
        }
        SFn::AddI => {
            let (v, o) = (x as i32).overflowing_add(y as i32);
            (v as u32, Some(o))
        }
        SFn::SubI => {
            let (v, o) = (x as i32).overflowing_sub(y as i32);
            (v as u32, Some(o))
        }
        SFn::Addc => {
            let s = u64::from(x) + u64::from(y) + u64::from(scc);
            (s as u32, Some(s >> 32 != 0))
        }
        SFn::Subb => {
            let s = i64::from(x) - i64::from(y) - i64::from(scc);
            (s as u32, Some(s < 0))
        }
        SFn::Mul => ((x as i32).wrapping_mul(y as i32) as u32, None),
        SFn::Lshl => nz(x.wrapping_shl(y & 31)),
        SFn::Lshr => nz(x.wrapping_shr(y & 31)),
        SFn::Ashr => nz(((x as i32) >> (y & 31)) as u32),
        SFn::MinI => {
            let c = (x as i32) < (y as i32);
            (if c { x } else { y }, Some(c))
        }
        SFn::MinU => (x.min(y), Some(x < y)),
        SFn::MaxI => {
            let c = (x as i32) > (y as i32);
            (if c { x } else { y }, Some(c))
        }
        SFn::MaxU => (x.max(y), Some(x > y)),
        SFn::Cselect => (if scc { x } else { y }, None),
        SFn::BfeU => nz(bfe(u64::from(x), u64::from(y), false, 32) as u32),
        SFn::BfeI => nz(bfe(u64::from(x), u64::from(y), true, 32) as u32),
        // GCN3 ISA ch. 12, S_BFM_B32: D.u = ((1 << S0.u[4:0]) − 1) << S1.u[4:0]; SCC unchanged.
        SFn::Bfm => ((((1u64 << (x & 31)) - 1) << (y & 31)) as u32, None),
        // The rest: `s_and`…`s_xnor`.
        _ => nz(bitwise(f, x, y)),
    }
}

/// The bitwise functions `s_and`…`s_xnor` at either width (`x` for any other).
fn bitwise<T>(f: SFn, x: T, y: T) -> T
where
    T: Copy + Not<Output = T> + BitAnd<Output = T> + BitOr<Output = T> + BitXor<Output = T>,
{
    match f {
        SFn::And => x & y,
        SFn::Or => x | y,
        SFn::Xor => x ^ y,
        SFn::Andn2 => x & !y,
        SFn::Orn2 => x | !y,
        SFn::Nand => !(x & y),
        SFn::Nor => !(x | y),
        SFn::Xnor => !(x ^ y),
        _ => x,
    }
}

fn sbin64(f: SFn, x: u64, y: u64, scc: bool) -> (u64, Option<bool>) {
    let nz = |v: u64| (v, Some(v != 0));
    match f {
        SFn::Lshl => nz(x.wrapping_shl((y & 63) as u32)),
        SFn::Lshr => nz(x.wrapping_shr((y & 63) as u32)),
        SFn::Ashr => nz(((x as i64) >> (y & 63)) as u64),
        f if f.is_bitwise() => nz(bitwise(f, x, y)),
        SFn::Cselect => (if scc { x } else { y }, None),
        SFn::BfeU => nz(bfe(x, y, false, 64)),
        SFn::BfeI => nz(bfe(x, y, true, 64)),
        SFn::Bfm => {
            let ones = if x & 63 == 0 {
                0
            } else {
                u64::MAX >> (64 - (x & 63))
            };
            (ones.wrapping_shl((y & 63) as u32), None)
        }
        // 32-bit-only functions never decode as wide; treat defensively as 32-bit.
        other => {
            let (v, c) = sbin32(other, x as u32, y as u32, scc);
            (u64::from(v), c)
        }
    }
}

fn compare_int(c: Cmp, x: u64, y: u64, ty: Ty) -> bool {
    use std::cmp::Ordering;
    let ord = match ty {
        Ty::I16 => (x as u16 as i16).cmp(&(y as u16 as i16)),
        Ty::U16 => (x as u16).cmp(&(y as u16)),
        Ty::I32 => (x as u32 as i32).cmp(&(y as u32 as i32)),
        Ty::U32 => (x as u32).cmp(&(y as u32)),
        Ty::I64 => (x as i64).cmp(&(y as i64)),
        _ => x.cmp(&y),
    };
    match c {
        Cmp::F => false,
        Cmp::T => true,
        Cmp::Lt | Cmp::Ltu => ord == Ordering::Less,
        Cmp::Eq | Cmp::Equ => ord == Ordering::Equal,
        Cmp::Le | Cmp::Leu => ord != Ordering::Greater,
        Cmp::Gt | Cmp::Gtu => ord == Ordering::Greater,
        Cmp::Ne | Cmp::Neu => ord != Ordering::Equal,
        Cmp::Ge | Cmp::Geu => ord != Ordering::Less,
        Cmp::Num => true,
        Cmp::Nan | Cmp::Class => false,
    }
}

/// [`class_bit`] of the float `x` (either width, in its own precision) whose quiet bit is
/// `quiet`.
macro_rules! class_bit_of {
    ($x:expr, $quiet:expr) => {{
        let x = $x;
        class_bit(
            x.is_nan(),
            $quiet,
            x.is_infinite(),
            x == 0.0,
            x.is_normal(),
            x.is_sign_negative(),
        )
    }};
}

/// The class bit for `v_cmp_class` (see [`Cmp::Class`]) of a value with these properties
/// (taken in its own precision: an `f32` denormal is a denormal).
fn class_bit(nan: bool, quiet: bool, inf: bool, zero: bool, normal: bool, neg: bool) -> u32 {
    match (nan, inf, zero, normal, neg) {
        (true, ..) => u32::from(quiet),
        (_, true, _, _, true) => 2,
        (_, true, _, _, false) => 9,
        (_, _, true, _, true) => 5,
        (_, _, true, _, false) => 6,
        (_, _, _, true, true) => 3,
        (_, _, _, true, false) => 8,
        (_, _, _, _, true) => 4,
        _ => 7,
    }
}

/// `bits` (a float whose sign is bit `sign`) with the operand's `abs` and `neg` modifiers.
fn modified(o: &Opnd, bits: u64, sign: u64) -> u64 {
    let bits = if o.abs { bits & !sign } else { bits };
    if o.neg {
        bits ^ sign
    } else {
        bits
    }
}

fn f32_of(sf: &ScalarFile, vf: &VectorFile, o: &Opnd, lane: usize) -> f32 {
    f32::from_bits(modified(o, u64::from(lane32(sf, vf, o, lane)), 1 << 31) as u32)
}

fn f64_of(sf: &ScalarFile, vf: &VectorFile, o: &Opnd, lane: usize) -> f64 {
    // Integer constants are bit patterns (GCN3 ISA §4.4.3: inline integers are used as
    // integers, not converted); LLVM prints float constants as floats (`1.0`).
    f64::from_bits(modified(o, lane64(sf, vf, o, lane), 1 << 63))
}

/// Up to 64 lanes of one 32-bit operand: the lane's VGPR, else the scalar value (as
/// [`lane32`], without float modifiers).
fn row32(sf: &ScalarFile, vf: &VectorFile, o: &Opnd, row: &mut [u32; 64]) {
    let n = vf.lanes.min(64);
    match o.loc {
        Loc::V(v) => {
            let at = v as usize * vf.lanes;
            match vf.v.get(at..at + n) {
                Some(x) => row[..n].copy_from_slice(x),
                None => row[..n].fill(0),
            }
        }
        _ => row[..n].fill(sf.read32(o)),
    }
}

/// As [`row32`], read as `f32` with the operand's `abs` and `neg` applied (as `f32_of`).
fn row_f32(sf: &ScalarFile, vf: &VectorFile, o: &Opnd, row: &mut [u32; 64]) {
    row32(sf, vf, o, row);
    if o.abs || o.neg {
        for x in row.iter_mut() {
            *x = modified(o, u64::from(*x), 1 << 31) as u32;
        }
    }
}

/// `out[l], carry bit l := f(l)` for every lane of `active` (one straight loop when every
/// lane is active); the carry bits.
#[inline(always)]
fn each_lane(out: &mut [u32], active: u64, f: impl Fn(usize) -> (u32, bool)) -> u64 {
    let mut carries = 0u64;
    let full = out.len() <= 64 && active == u64::MAX >> (64 - out.len().max(1));
    if full {
        for (l, x) in out.iter_mut().enumerate() {
            let (v, c) = f(l);
            *x = v;
            carries |= u64::from(c) << l;
        }
    } else {
        let mut m = active;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            if let Some(x) = out.get_mut(l) {
                let (v, c) = f(l);
                *x = v;
                carries |= u64::from(c) << l;
            }
        }
    }
    carries
}

/// The common 32-bit vector ALU functions with the function chosen once per instruction
/// (operation-major) over operand rows; `None` (nothing done) for the others, which take
/// the per-lane path of [`vector`]. Same results as that path.
#[allow(clippy::too_many_arguments)]
fn valu_rows(
    f: VFn,
    dv: u32,
    src: [Opnd; 3],
    given: usize,
    cin: u64,
    sf: &ScalarFile,
    vf: &mut VectorFile,
    active: u64,
) -> Option<u64> {
    let float = matches!(
        f,
        VFn::AddF | VFn::SubF | VFn::SubrevF | VFn::MulF | VFn::MacF | VFn::MadF | VFn::FmaF
    );
    let int = matches!(
        f,
        VFn::Mov
            | VFn::Add
            | VFn::Sub
            | VFn::Subrev
            | VFn::Addc
            | VFn::Subb
            | VFn::MulLo
            | VFn::MulU24
            | VFn::MadU24
            | VFn::Lshlrev
            | VFn::Lshrrev
            | VFn::Ashrrev
            | VFn::LshlAdd
            | VFn::And
            | VFn::Or
            | VFn::Xor
            | VFn::Not
            | VFn::MaxI
            | VFn::MaxU
            | VFn::MinI
            | VFn::MinU
    );
    if !float && !int {
        return None;
    }
    // Sources the instruction does not have read as the constant 0 (as in [`vector`]):
    // their rows stay zero.
    let mut rows = [[0u32; 64]; 3];
    for (row, o) in rows.iter_mut().zip(&src[..given.min(3)]) {
        if float {
            row_f32(sf, vf, o, row);
        } else {
            row32(sf, vf, o, row);
        }
    }
    let lanes = vf.lanes;
    let at = dv as usize * lanes;
    let out = vf.v.get_mut(at..at + lanes)?;
    let [a, b, c] = &rows;
    let plain = |v: u32| (v, false);
    let fl = |x: u32| f32::from_bits(x);
    let fbits = |x: f32| (f32_bits(x), false);
    let ci = |l: usize| (cin >> l & 1) as u32;
    Some(match f {
        VFn::Mov => each_lane(out, active, |l| plain(a[l])),
        VFn::Add => each_lane(out, active, |l| a[l].overflowing_add(b[l])),
        VFn::Sub => each_lane(out, active, |l| a[l].overflowing_sub(b[l])),
        VFn::Subrev => each_lane(out, active, |l| b[l].overflowing_sub(a[l])),
        VFn::Addc => each_lane(out, active, |l| {
            let t = u64::from(a[l]) + u64::from(b[l]) + u64::from(ci(l));
            (t as u32, t >> 32 != 0)
        }),
        VFn::Subb => each_lane(out, active, |l| {
            let t = i64::from(a[l]) - i64::from(b[l]) - i64::from(ci(l));
            (t as u32, t < 0)
        }),
        VFn::MulLo => each_lane(out, active, |l| plain(a[l].wrapping_mul(b[l]))),
        VFn::MulU24 => each_lane(out, active, |l| {
            plain((a[l] & 0xff_ffff).wrapping_mul(b[l] & 0xff_ffff))
        }),
        VFn::MadU24 => each_lane(out, active, |l| {
            plain(
                (a[l] & 0xff_ffff)
                    .wrapping_mul(b[l] & 0xff_ffff)
                    .wrapping_add(c[l]),
            )
        }),
        VFn::Lshlrev => each_lane(out, active, |l| plain(b[l].wrapping_shl(a[l] & 31))),
        VFn::Lshrrev => each_lane(out, active, |l| plain(b[l].wrapping_shr(a[l] & 31))),
        VFn::Ashrrev => each_lane(out, active, |l| {
            plain(((b[l] as i32) >> (a[l] & 31)) as u32)
        }),
        VFn::LshlAdd => each_lane(out, active, |l| {
            plain(a[l].wrapping_shl(b[l] & 31).wrapping_add(c[l]))
        }),
        VFn::And => each_lane(out, active, |l| plain(a[l] & b[l])),
        VFn::Or => each_lane(out, active, |l| plain(a[l] | b[l])),
        VFn::Xor => each_lane(out, active, |l| plain(a[l] ^ b[l])),
        VFn::Not => each_lane(out, active, |l| plain(!a[l])),
        VFn::MaxI => each_lane(
            out,
            active,
            |l| plain((a[l] as i32).max(b[l] as i32) as u32),
        ),
        VFn::MaxU => each_lane(out, active, |l| plain(a[l].max(b[l]))),
        VFn::MinI => each_lane(
            out,
            active,
            |l| plain((a[l] as i32).min(b[l] as i32) as u32),
        ),
        VFn::MinU => each_lane(out, active, |l| plain(a[l].min(b[l]))),
        VFn::AddF => each_lane(out, active, |l| fbits(fl(a[l]) + fl(b[l]))),
        VFn::SubF => each_lane(out, active, |l| fbits(fl(a[l]) - fl(b[l]))),
        VFn::SubrevF => each_lane(out, active, |l| fbits(fl(b[l]) - fl(a[l]))),
        VFn::MulF => each_lane(out, active, |l| fbits(fl(a[l]) * fl(b[l]))),
        VFn::MadF => each_lane(out, active, |l| fbits(fl(a[l]) * fl(b[l]) + fl(c[l]))),
        VFn::FmaF => each_lane(out, active, |l| fbits(fl(a[l]).mul_add(fl(b[l]), fl(c[l])))),
        VFn::MacF => {
            // The accumulator is the destination's old value, read before the loop writes.
            let mut acc = [0u32; 64];
            let n = out.len().min(64);
            acc[..n].copy_from_slice(&out[..n]);
            each_lane(out, active, |l| fbits(fl(a[l]) * fl(b[l]) + fl(acc[l])))
        }
        _ => return None,
    })
}

/// Executes a vector ALU op (also `v_cmp*`, `v_cndmask`, `v_readfirstlane`) for the lanes
/// in `active`.
pub fn vector(
    op: &Op,
    sf: &mut ScalarFile,
    vf: &mut VectorFile,
    active: u64,
) -> Result<(), String> {
    vector_with(op, sf, vf, active, true)
}

/// [`vector`]; `rows: false` forces the per-lane path (the reference the tests compare
/// [`valu_rows`] with).
fn vector_with(
    op: &Op,
    sf: &mut ScalarFile,
    vf: &mut VectorFile,
    active: u64,
    rows: bool,
) -> Result<(), String> {
    let lanes = vf.lanes;
    let on = |l: usize| active >> l & 1 == 1;
    match op {
        Op::Sdwa(s) => return super::sdwa::execute(s, sf, vf, active),
        Op::VCmp { c, ty, d, a, b, x } => {
            let mut r = 0u64;
            for l in (0..lanes).filter(|&l| on(l)) {
                let t = match (c, ty) {
                    (Cmp::Class, _) => {
                        let bit = if *ty == Ty::F32 {
                            let quiet = lane32(sf, vf, a, l) & 0x0040_0000 != 0;
                            class_bit_of!(f32_of(sf, vf, a, l), quiet)
                        } else {
                            let quiet = lane64(sf, vf, a, l) & 0x0008_0000_0000_0000 != 0;
                            class_bit_of!(f64_of(sf, vf, a, l), quiet)
                        };
                        lane32(sf, vf, b, l) >> bit & 1 == 1
                    }
                    (_, Ty::F32) => c.floats(
                        f64::from(f32_of(sf, vf, a, l)),
                        f64::from(f32_of(sf, vf, b, l)),
                    ),
                    (_, Ty::F64) => c.floats(f64_of(sf, vf, a, l), f64_of(sf, vf, b, l)),
                    (_, Ty::I64 | Ty::U64) => {
                        compare_int(*c, lane64(sf, vf, a, l), lane64(sf, vf, b, l), *ty)
                    }
                    _ => compare_int(
                        *c,
                        u64::from(lane32(sf, vf, a, l)),
                        u64::from(lane32(sf, vf, b, l)),
                        *ty,
                    ),
                };
                if t {
                    r |= 1 << l;
                }
            }
            if let Some(d) = d {
                w64(sf, d, r);
            }
            if *x {
                sf.set_exec(r);
            }
        }
        Op::VCndmask { d, a, b, m } => {
            let mask = sf.read64(m);
            let Loc::V(dv) = d.loc else {
                return Err("destination is not a VGPR".into());
            };
            for l in (0..lanes).filter(|&l| on(l)) {
                let v = if mask >> l & 1 == 1 {
                    lane32(sf, vf, b, l)
                } else {
                    lane32(sf, vf, a, l)
                };
                vf.set(dv, l, v);
            }
        }
        Op::VWriteLane { d, a, lane } => {
            // GCN3 ISA ch. 12, V_WRITELANE_B32: the lane is written whatever EXEC holds.
            let Loc::V(dv) = d.loc else {
                return Err("destination is not a VGPR".into());
            };
            let l = (sf.read32(lane) & 63) as usize;
            if l < lanes {
                let v = sf.read32(a);
                vf.set(dv, l, v);
            }
        }
        Op::VReadLane { d, a, lane } => {
            let l = (sf.read32(lane) & 63) as usize % lanes.max(1);
            let v = lane32(sf, vf, a, l);
            w32(sf, d, v);
        }
        Op::VReadFirstLane { d, a } => {
            let l = if active == 0 {
                0
            } else {
                active.trailing_zeros() as usize
            };
            let v = lane32(sf, vf, a, l);
            w32(sf, d, v);
        }
        Op::VAlu {
            f,
            d,
            src,
            carry_out,
            carry_in,
        } => {
            let Loc::V(dv) = d.loc else {
                return Err("destination is not a VGPR".into());
            };
            let cin = carry_in.as_ref().map_or(0, |c| sf.read64(c));
            let mut cout = 0u64;
            let s = |i: usize| {
                src.get(i).copied().unwrap_or(Opnd {
                    loc: Loc::Int(0),
                    count: 1,
                    neg: false,
                    abs: false,
                    sext: false,
                })
            };
            let (s0, s1, s2) = (s(0), s(1), s(2));
            if rows && vf.lanes <= 64 {
                if let Some(carries) =
                    valu_rows(*f, dv, [s0, s1, s2], src.len(), cin, sf, vf, active)
                {
                    if let Some(co) = carry_out {
                        w64(sf, co, carries);
                    }
                    return Ok(());
                }
            }
            for l in (0..lanes).filter(|&l| on(l)) {
                let a = lane32(sf, vf, &s0, l);
                let b = lane32(sf, vf, &s1, l);
                let c = lane32(sf, vf, &s2, l);
                let ci = (cin >> l & 1) as u32;
                let fa = || f32_of(sf, vf, &s0, l);
                let fb = || f32_of(sf, vf, &s1, l);
                let fc = || f32_of(sf, vf, &s2, l);
                let da = || f64_of(sf, vf, &s0, l);
                let db = || f64_of(sf, vf, &s1, l);
                let dc = || f64_of(sf, vf, &s2, l);
                let fbits = |x: f32| u64::from(f32_bits(x));
                let mut carry = false;
                let v: u64 = match f {
                    VFn::Mov => u64::from(a),
                    VFn::Add => {
                        let (v, c) = a.overflowing_add(b);
                        carry = c;
                        u64::from(v)
                    }
                    VFn::Sub => {
                        let (v, c) = a.overflowing_sub(b);
                        carry = c;
                        u64::from(v)
                    }
                    VFn::Subrev => {
                        let (v, c) = b.overflowing_sub(a);
                        carry = c;
                        u64::from(v)
                    }
                    VFn::Addc => {
                        let t = u64::from(a) + u64::from(b) + u64::from(ci);
                        carry = t >> 32 != 0;
                        t & 0xffff_ffff
                    }
                    VFn::Subb => {
                        let t = i64::from(a) - i64::from(b) - i64::from(ci);
                        carry = t < 0;
                        (t as u64) & 0xffff_ffff
                    }
                    VFn::Subbrev => {
                        let t = i64::from(b) - i64::from(a) - i64::from(ci);
                        carry = t < 0;
                        (t as u64) & 0xffff_ffff
                    }
                    VFn::MulLo => u64::from(a.wrapping_mul(b)),
                    VFn::MulHiU => (u64::from(a) * u64::from(b)) >> 32,
                    VFn::MulHiI => {
                        ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u64 & 0xffff_ffff
                    }
                    VFn::MulU24 => u64::from((a & 0xff_ffff).wrapping_mul(b & 0xff_ffff)),
                    VFn::MulI24 => u64::from(sext24(a).wrapping_mul(sext24(b)) as u32),
                    VFn::MadU24 => {
                        u64::from((a & 0xff_ffff).wrapping_mul(b & 0xff_ffff).wrapping_add(c))
                    }
                    VFn::MadI24 => {
                        u64::from(sext24(a).wrapping_mul(sext24(b)).wrapping_add(c as i32) as u32)
                    }
                    VFn::MadU64U32 => {
                        let c64 = lane64(sf, vf, &s2, l);
                        let (v, o) = (u64::from(a) * u64::from(b)).overflowing_add(c64);
                        carry = o;
                        v
                    }
                    VFn::MadI64I32 => {
                        let c64 = lane64(sf, vf, &s2, l) as i64;
                        let (v, o) =
                            (i64::from(a as i32) * i64::from(b as i32)).overflowing_add(c64);
                        carry = o;
                        v as u64
                    }
                    VFn::Lshlrev => u64::from(b.wrapping_shl(a & 31)),
                    VFn::Lshrrev => u64::from(b.wrapping_shr(a & 31)),
                    VFn::Ashrrev => u64::from(((b as i32) >> (a & 31)) as u32),
                    VFn::Lshlrev64 => lane64(sf, vf, &s1, l).wrapping_shl(a & 63),
                    VFn::Lshrrev64 => lane64(sf, vf, &s1, l).wrapping_shr(a & 63),
                    VFn::Ashrrev64 => ((lane64(sf, vf, &s1, l) as i64) >> (a & 63)) as u64,
                    VFn::LshlAdd => u64::from(a.wrapping_shl(b & 31).wrapping_add(c)),
                    VFn::And => u64::from(a & b),
                    VFn::Or => u64::from(a | b),
                    VFn::Xor => u64::from(a ^ b),
                    VFn::Not => u64::from(!a),
                    VFn::MaxI => u64::from((a as i32).max(b as i32) as u32),
                    VFn::MaxU => u64::from(a.max(b)),
                    VFn::MinI => u64::from((a as i32).min(b as i32) as u32),
                    VFn::MinU => u64::from(a.min(b)),
                    VFn::Max3I => u64::from((a as i32).max(b as i32).max(c as i32) as u32),
                    VFn::Max3U => u64::from(a.max(b).max(c)),
                    VFn::Min3I => u64::from((a as i32).min(b as i32).min(c as i32) as u32),
                    VFn::Min3U => u64::from(a.min(b).min(c)),
                    VFn::BfeU => bfe(
                        u64::from(a),
                        u64::from(b & 31) | (u64::from(c & 31) << 16),
                        false,
                        32,
                    ),
                    VFn::BfeI => bfe(
                        u64::from(a),
                        u64::from(b & 31) | (u64::from(c & 31) << 16),
                        true,
                        32,
                    ),
                    VFn::AddF => fbits(fa() + fb()),
                    VFn::SubF => fbits(fa() - fb()),
                    VFn::SubrevF => fbits(fb() - fa()),
                    VFn::MulF => fbits(fa() * fb()),
                    VFn::MacF => {
                        let acc = f32::from_bits(vf.get(dv, l));
                        fbits(fa() * fb() + acc)
                    }
                    VFn::MadF => fbits(fa() * fb() + fc()),
                    VFn::FmaF => fbits(fa().mul_add(fb(), fc())),
                    VFn::MinF => fbits(fa().min(fb())),
                    VFn::MaxF => fbits(fa().max(fb())),
                    VFn::Max3F => fbits(fa().max(fb()).max(fc())),
                    VFn::Min3F => fbits(fa().min(fb()).min(fc())),
                    VFn::RcpF => fbits(1.0 / fa()),
                    VFn::SqrtF => fbits(fa().sqrt()),
                    VFn::RndneF => fbits(fa().round_ties_even()),
                    VFn::FloorF => fbits(fa().floor()),
                    VFn::TruncF => fbits(fa().trunc()),
                    VFn::LdexpF => {
                        let e = (b as i32).clamp(-300, 300);
                        fbits((f64::from(fa()) * 2f64.powi(e)) as f32)
                    }
                    VFn::CvtF32U32 => fbits(a as f32),
                    VFn::CvtF32I32 => fbits(a as i32 as f32),
                    VFn::CvtU32F32 => u64::from(fa() as u32),
                    VFn::CvtI32F32 => u64::from(fa() as i32 as u32),
                    VFn::CvtF64F32 => f64_bits(f64::from(fa())),
                    VFn::CvtF32F64 => fbits(da() as f32),
                    VFn::AddF64 => f64_bits(da() + db()),
                    VFn::MulF64 => f64_bits(da() * db()),
                    VFn::FmaF64 => f64_bits(da().mul_add(db(), dc())),
                    VFn::MinF64 => f64_bits(da().min(db())),
                    VFn::MaxF64 => f64_bits(da().max(db())),
                    VFn::DivScaleF => {
                        let (d, vcc) = division::scale_f32(fa(), fb(), fc());
                        carry = vcc;
                        fbits(d)
                    }
                    VFn::DivFmasF => fbits(division::fmas_f32(fa(), fb(), fc(), ci == 1)),
                    VFn::DivFixupF => fbits(division::fixup_f32(fa(), fb(), fc())),
                    VFn::DivScaleF64 => {
                        let (d, vcc) = division::scale_f64(da(), db(), dc());
                        carry = vcc;
                        f64_bits(d)
                    }
                    VFn::DivFmasF64 => f64_bits(division::fmas_f64(da(), db(), dc(), ci == 1)),
                    VFn::DivFixupF64 => f64_bits(division::fixup_f64(da(), db(), dc())),
                    other => float_functions::lane(*other, a, b, c, fa, da, db),
                };
                vf.set(dv, l, v as u32);
                if f.wide() {
                    vf.set(dv + 1, l, (v >> 32) as u32);
                }
                if carry {
                    cout |= 1 << l;
                }
            }
            if let Some(co) = carry_out {
                w64(sf, co, cout);
            }
        }
        _ => return Err("not a vector ALU operation".into()),
    }
    Ok(())
}

fn sext24(x: u32) -> i32 {
    ((x << 8) as i32) >> 8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The operation-major path computes what the per-lane path computes: every function
    /// it handles, on random VGPR, SGPR and constant operands (float modifiers included),
    /// random carry-ins and random active masks, 64 and 32 lanes.
    #[test]
    fn operation_major_matches_per_lane() {
        use crate::memory::SplitMix64;
        let fns = [
            VFn::Mov,
            VFn::Add,
            VFn::Sub,
            VFn::Subrev,
            VFn::Addc,
            VFn::Subb,
            VFn::MulLo,
            VFn::MulU24,
            VFn::MadU24,
            VFn::Lshlrev,
            VFn::Lshrrev,
            VFn::Ashrrev,
            VFn::LshlAdd,
            VFn::And,
            VFn::Or,
            VFn::Xor,
            VFn::Not,
            VFn::MaxI,
            VFn::MaxU,
            VFn::MinI,
            VFn::MinU,
            VFn::AddF,
            VFn::SubF,
            VFn::SubrevF,
            VFn::MulF,
            VFn::MacF,
            VFn::MadF,
            VFn::FmaF,
        ];
        let mut rng = SplitMix64::new(7);
        for lanes in [64usize, 32] {
            for &f in &fns {
                for round in 0..20 {
                    let mut vf = VectorFile::new(8, lanes);
                    for x in vf.v.iter_mut() {
                        *x = rng.next_u64() as u32;
                    }
                    let mut sf = ScalarFile::new();
                    for i in 0..16 {
                        sf.set(i, rng.next_u64() as u32);
                    }
                    let mut operand = |k: u64| {
                        let r = rng.next_u64();
                        Opnd {
                            loc: match (r + k) % 4 {
                                0 => Loc::S((r >> 8) as u32 % 8),
                                1 => Loc::Int((r >> 8) as i64 % 65 - 16),
                                2 => Loc::Float(0.5),
                                _ => Loc::V(1 + (r >> 8) as u32 % 6),
                            },
                            count: 1,
                            neg: r >> 20 & 1 == 1,
                            abs: r >> 21 & 1 == 1,
                            sext: false,
                        }
                    };
                    let src = vec![operand(3), operand(3), operand(0)];
                    let d = Opnd {
                        loc: Loc::V(if round % 3 == 0 { 1 } else { 7 }),
                        count: 1,
                        neg: false,
                        abs: false,
                        sext: false,
                    };
                    let sgpr = |n: u32| Opnd {
                        loc: Loc::S(n),
                        count: 2,
                        neg: false,
                        abs: false,
                        sext: false,
                    };
                    let op = Op::VAlu {
                        f,
                        d,
                        src,
                        carry_out: Some(sgpr(10)),
                        carry_in: Some(sgpr(12)),
                    };
                    let active = match round % 4 {
                        0 => u64::MAX >> (64 - lanes),
                        _ => rng.next_u64() >> (64 - lanes),
                    };
                    let (mut sf2, mut vf2) = (sf.clone(), vf.clone());
                    let fast = vector_with(&op, &mut sf, &mut vf, active, true);
                    let slow = vector_with(&op, &mut sf2, &mut vf2, active, false);
                    assert_eq!(fast, slow);
                    assert_eq!(vf.v, vf2.v, "{f:?} on {lanes} lanes, round {round}");
                    assert_eq!(sf.get64(10), sf2.get64(10), "{f:?} carry-out");
                }
            }
        }
    }

    #[test]
    fn bfe_extracts_signed_and_unsigned_fields() {
        // s_bfe control: offset in bits 5:0, width in bits 22:16. 0xf0 >> 4, width 4 = 0xf;
        // signed: 0b1111 → −1.
        assert_eq!(bfe(0xf0, 4 | (4 << 16), false, 32), 0xf);
        assert_eq!(bfe(0xf0, 4 | (4 << 16), true, 32), 0xffff_ffff);
        assert_eq!(bfe(0x70, 4 | (4 << 16), true, 32), 7);
    }

    #[test]
    fn class_bits_follow_the_ieee_classes() {
        // 0x260 (nn euclid's mask) = −0, +0, +∞: bits 5, 6, 9.
        let bit = |x: f32| {
            class_bit(
                x.is_nan(),
                x.to_bits() & 0x0040_0000 != 0,
                x.is_infinite(),
                x == 0.0,
                x.is_normal(),
                x.is_sign_negative(),
            )
        };
        assert_eq!(bit(-0.0), 5);
        assert_eq!(bit(0.0), 6);
        assert_eq!(bit(f32::INFINITY), 9);
        assert_eq!(bit(f32::NEG_INFINITY), 2);
        assert_eq!(bit(1.5), 8);
        assert_eq!(bit(-1.5), 3);
        assert_eq!(bit(f32::from_bits(1)), 7);
        assert_eq!(bit(-f32::from_bits(1)), 4);
        assert_eq!(bit(f32::NAN), 1);
        assert_eq!(bit(f32::from_bits(0x7f80_0001)), 0);
    }

    #[test]
    fn scalar_carry_chain_adds_64_bits() {
        // s_add_u32 / s_addc_u32 as in gaussian Fan1: 0xffff_ffff + 1 carries into the high
        // word.
        let (lo, c) = sbin32(SFn::AddU, 0xffff_ffff, 1, false);
        assert_eq!((lo, c), (0, Some(true)));
        let (hi, c) = sbin32(SFn::Addc, 2, 3, true);
        assert_eq!((hi, c), (6, Some(false)));
        let (_, o) = sbin32(SFn::AddI, i32::MAX as u32, 1, false);
        assert_eq!(o, Some(true));
    }
}
