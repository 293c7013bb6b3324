//! What one PTX instruction does to one thread's registers — `UpdateRegisterValue` of
//! Alg. 4 line 11 (Huangfu §5.3.3.1), for the arithmetic, logic, conversion, comparison and
//! parameter-load instructions kernels use to compute addresses and branch conditions.
//!
//! Values are raw bit patterns (`u64`, zero-extended from the instruction's type width) or
//! *unknown* (`None`): loads from global/shared memory, textures, clocks and instructions
//! without modelled semantics produce unknown values, which propagate. The analyzer only
//! fails when an unknown value decides an address or a branch (§4.4.6.1: kernels with
//! input-dependent branches or references cannot be analysed).
//!
//! The instructions come resolved ([`crate::decoded`]): this module only computes values,
//! so a thread's step is arithmetic on its registers, without text or allocation.

use crate::decoded::{Address, BoolOp, Cmp, Decoded, Op, Round, Special, Src};
use isa::ptx::ScalarType;
use std::collections::BTreeMap;

pub(crate) type Val = Option<u64>;

pub(crate) fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

pub(crate) fn sext(v: u64, bits: u32) -> i64 {
    if bits == 0 || bits >= 64 {
        return v as i64;
    }
    let shift = 64 - bits;
    ((v << shift) as i64) >> shift
}

fn to_f(v: u64, ty: ScalarType) -> Option<f64> {
    match ty {
        ScalarType::F32 => Some(f32::from_bits(v as u32) as f64),
        ScalarType::F64 => Some(f64::from_bits(v)),
        _ => None,
    }
}

fn from_f(x: f64, ty: ScalarType) -> Val {
    match ty {
        ScalarType::F32 => Some((x as f32).to_bits() as u64),
        ScalarType::F64 => Some(x.to_bits()),
        _ => None,
    }
}

/// The per-thread values of the special registers.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ThreadContext {
    pub tid: [u32; 3],
    pub ntid: [u32; 3],
    pub ctaid: [u32; 3],
    pub nctaid: [u32; 3],
    pub lane: u32,
    pub warp: u32,
    pub sm: u32,
    pub nsm: u32,
}

impl ThreadContext {
    fn special(&self, s: Special) -> Val {
        match s {
            Special::Tid(c) => Some(self.tid[c] as u64),
            Special::Ntid(c) => Some(self.ntid[c] as u64),
            Special::Ctaid(c) => Some(self.ctaid[c] as u64),
            Special::Nctaid(c) => Some(self.nctaid[c] as u64),
            Special::Lane => Some(self.lane as u64),
            Special::Warp => Some(self.warp as u64),
            Special::Sm => Some(self.sm as u64),
            Special::Nsm => Some(self.nsm as u64),
            Special::LanemaskEq => Some(1u64 << self.lane),
            Special::LanemaskLt => Some((1u64 << self.lane) - 1),
            Special::LanemaskLe => Some((1u64 << (self.lane + 1)) - 1),
            Special::Unknown => None,
        }
    }
}

/// Kernel parameter memory: each parameter's bytes at its name.
#[derive(Debug, Clone, Default)]
pub(crate) struct ParamMemory {
    pub bytes: BTreeMap<String, Vec<u8>>,
}

impl ParamMemory {
    pub(crate) fn read(&self, name: &str, offset: i64, size: u32) -> Val {
        let b = self.bytes.get(name)?;
        let start = usize::try_from(offset).ok()?;
        let end = start.checked_add(size as usize)?;
        let slice = b.get(start..end)?;
        let mut v = 0u64;
        for (i, &x) in slice.iter().enumerate().take(8) {
            v |= (x as u64) << (8 * i);
        }
        Some(v)
    }
}

/// One thread's view while executing: its registers and context.
pub(crate) struct Lane<'a> {
    pub regs: &'a [Val],
    pub ctx: &'a ThreadContext,
}

impl Lane<'_> {
    /// The value of operand `k` of `d` read with type `ty`.
    #[inline]
    pub fn operand(&self, d: &Decoded, k: usize, ty: ScalarType) -> Val {
        match d.srcs.get(k)? {
            // Most operands are registers: read them here, without a call.
            Src::Reg(id) => Some((*self.regs.get(*id)?)? & mask(ty.bits())),
            src => self.value(src, ty),
        }
    }

    fn value(&self, src: &Src, ty: ScalarType) -> Val {
        match src {
            Src::Reg(id) => {
                let v = (*self.regs.get(*id)?)?;
                Some(v & mask(ty.bits()))
            }
            Src::Special(s) => self.ctx.special(*s).map(|v| v & mask(ty.bits())),
            Src::Int(value) => {
                if ty.is_float() {
                    from_f(*value as f64, ty)
                } else {
                    Some((*value as u64) & mask(ty.bits()))
                }
            }
            Src::Float(value) => {
                if ty.is_float() {
                    from_f(*value, ty)
                } else {
                    Some((*value as i64 as u64) & mask(ty.bits()))
                }
            }
            Src::Not(inner) => self.value(inner, ty).map(|v| (v == 0) as u64),
            Src::Unknown => None,
        }
    }

    /// The address of a global access (`None`: one the analyzer cannot name, `[var]`;
    /// `Some(None)`: a register base whose value is unknown).
    #[inline]
    pub fn address(&self, a: Address) -> Option<Val> {
        match a {
            Address::Register(id, offset) => {
                let v = id.and_then(|id| self.regs.get(id).copied().flatten());
                Some(v.map(|v| v.wrapping_add(offset as u64)))
            }
            Address::Fixed(offset) => Some(Some(offset as u64)),
            Address::Named => None,
        }
    }
}

fn cmp(op: Cmp, a: u64, b: u64, ty: ScalarType) -> Option<bool> {
    if ty.is_float() {
        let (x, y) = (to_f(a, ty)?, to_f(b, ty)?);
        let unordered = x.is_nan() || y.is_nan();
        let ordered = |r: bool| !unordered && r;
        let unord = |r: bool| unordered || r;
        return Some(match op {
            Cmp::Eq => ordered(x == y),
            Cmp::Ne => ordered(x != y),
            Cmp::Lt => ordered(x < y),
            Cmp::Le => ordered(x <= y),
            Cmp::Gt => ordered(x > y),
            Cmp::Ge => ordered(x >= y),
            Cmp::Equ => unord(x == y),
            Cmp::Neu => unord(x != y),
            Cmp::Ltu => unord(x < y),
            Cmp::Leu => unord(x <= y),
            Cmp::Gtu => unord(x > y),
            Cmp::Geu => unord(x >= y),
            Cmp::Num => !unordered,
            Cmp::Nan => unordered,
            Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs => return None,
        });
    }
    let bits = ty.bits();
    let (sa, sb) = (sext(a, bits), sext(b, bits));
    let signed = ty.is_signed();
    Some(match op {
        Cmp::Eq => a == b,
        Cmp::Ne => a != b,
        Cmp::Lt if signed => sa < sb,
        Cmp::Le if signed => sa <= sb,
        Cmp::Gt if signed => sa > sb,
        Cmp::Ge if signed => sa >= sb,
        Cmp::Lt | Cmp::Lo => a < b,
        Cmp::Le | Cmp::Ls => a <= b,
        Cmp::Gt | Cmp::Hi => a > b,
        Cmp::Ge | Cmp::Hs => a >= b,
        _ => return None,
    })
}

/// Executes `d` for one thread and appends its register writes to `out` (in the order they
/// apply). Never fails: what cannot be computed is written as unknown.
pub(crate) fn execute(d: &Decoded, lane: &Lane, out: &mut Vec<(usize, Val)>) {
    match &d.op {
        Op::Nothing => {}
        Op::Constant(writes) => out.extend_from_slice(writes),
        Op::Unknown => out.extend(d.dests.iter().map(|&id| (id, None))),
        Op::Unpack { elements, width } => {
            // `mov.b64 {lo, hi}, %fd`.
            let (w, src) = (*width, lane.operand(d, 1, d.ty));
            out.extend(
                elements
                    .iter()
                    .map(|&(k, id)| (id, src.map(|s| (s >> (w * k as u32)) & mask(w)))),
            );
        }
        _ => {
            if let Some(&id) = d.dests.first() {
                out.push((id, value(d, lane)));
            }
        }
    }
}

/// The one value an operation that writes its first destination computes for one thread
/// (every [`Op`] but those [`execute`] handles itself, which give `None` here).
pub(crate) fn value(d: &Decoded, lane: &Lane) -> Val {
    let ty = d.ty;
    let bits = ty.bits();
    let m = mask(bits);
    let op = |k: usize| lane.operand(d, k, ty);
    let int2 = |f: &dyn Fn(u64, u64) -> Option<u64>| -> Val {
        let (a, b) = (op(1)?, op(2)?);
        f(a, b).map(|v| v & m)
    };
    let flt2 = |f: &dyn Fn(f64, f64) -> f64| -> Val {
        let (a, b) = (to_f(op(1)?, ty)?, to_f(op(2)?, ty)?);
        from_f(f(a, b), ty)
    };
    match &d.op {
        Op::Nothing | Op::Constant(_) | Op::Unknown | Op::Unpack { .. } => None,
        Op::Pack {
            elements,
            width,
            element_type,
        } => {
            // `mov.b64 %fd, {lo, hi}`.
            let w = *width;
            let mut acc = Some(0u64);
            for (k, e) in elements.iter().enumerate() {
                let part = lane.value(e, *element_type);
                acc = acc
                    .zip(part)
                    .map(|(a, p)| a | ((p & mask(w)) << (w * k as u32)));
            }
            acc.map(|a| a & m)
        }
        Op::Mov => op(1),
        Op::FloatAdd => flt2(&|a, b| a + b),
        Op::FloatSub => flt2(&|a, b| a - b),
        Op::FloatMul => flt2(&|a, b| a * b),
        Op::FloatDiv => flt2(&|a, b| a / b),
        Op::FloatMin => flt2(&f64::min),
        Op::FloatMax => flt2(&f64::max),
        Op::Add => int2(&|a, b| Some(a.wrapping_add(b))),
        Op::Sub => int2(&|a, b| Some(a.wrapping_sub(b))),
        Op::Mul { wide, hi, addend } => multiply(lane, d, (*wide, *hi, *addend)),
        Op::FloatMad => {
            let a = op(1).and_then(|v| to_f(v, ty));
            let b = op(2).and_then(|v| to_f(v, ty));
            let c = op(3).and_then(|v| to_f(v, ty));
            match (a, b, c) {
                (Some(a), Some(b), Some(c)) => {
                    if ty == ScalarType::F32 {
                        from_f((a as f32).mul_add(b as f32, c as f32) as f64, ty)
                    } else {
                        from_f(a.mul_add(b, c), ty)
                    }
                }
                _ => None,
            }
        }
        Op::DivRem { rem } => int2(&|a, b| {
            if b == 0 {
                return None;
            }
            if ty.is_signed() {
                let (x, y) = (sext(a, bits), sext(b, bits));
                Some(if *rem {
                    x.wrapping_rem(y)
                } else {
                    x.wrapping_div(y)
                } as u64)
            } else {
                Some(if *rem { a % b } else { a / b })
            }
        }),
        Op::MinMax { min } => int2(&|a, b| {
            let less = if ty.is_signed() {
                sext(a, bits) < sext(b, bits)
            } else {
                a < b
            };
            Some(if *min == less { a } else { b })
        }),
        Op::AbsNeg { abs } => op(1).and_then(|a| {
            if ty.is_float() {
                let x = to_f(a, ty)?;
                from_f(if *abs { x.abs() } else { -x }, ty)
            } else {
                let x = sext(a, bits);
                Some(
                    (if *abs {
                        x.wrapping_abs()
                    } else {
                        x.wrapping_neg()
                    }) as u64
                        & m,
                )
            }
        }),
        Op::And => int2(&|a, b| Some(a & b)),
        Op::Or => int2(&|a, b| Some(a | b)),
        Op::Xor => int2(&|a, b| Some(a ^ b)),
        Op::Not => op(1).map(|a| {
            if ty == ScalarType::Pred {
                (a == 0) as u64
            } else {
                !a & m
            }
        }),
        Op::Cnot => op(1).map(|a| (a == 0) as u64),
        Op::Shift { left } => {
            let a = op(1);
            let s = lane.operand(d, 2, ScalarType::U32);
            a.zip(s).map(|(a, s)| {
                let s = s as u32;
                if *left {
                    if s >= bits {
                        0
                    } else {
                        (a << s) & m
                    }
                } else if ty.is_signed() {
                    (sext(a, bits) >> s.min(bits - 1)) as u64 & m
                } else if s >= bits {
                    0
                } else {
                    a >> s
                }
            })
        }
        Op::Cvta => lane.operand(d, 1, ScalarType::U64),
        Op::Cvt { to, from, round } => convert(lane, d, (*to, *from, *round)),
        Op::Setp { cmp: c, with } => {
            let r = op(1).zip(op(2)).and_then(|(a, b)| cmp(*c, a, b, ty));
            let r = match with {
                None => r,
                Some(b) => {
                    let p = lane.operand(d, 3, ScalarType::Pred).map(|p| p != 0);
                    r.zip(p).map(|(r, p)| match b {
                        BoolOp::And => r && p,
                        BoolOp::Or => r || p,
                        BoolOp::Xor => r ^ p,
                    })
                }
            };
            r.map(u64::from)
        }
        Op::Selp => match lane.operand(d, 3, ScalarType::Pred) {
            Some(0) => op(2),
            Some(_) => op(1),
            None => None,
        },
        Op::Rcp => op(1).and_then(|a| from_f(1.0 / to_f(a, ty)?, ty)),
        Op::Sqrt => op(1).and_then(|a| from_f(to_f(a, ty)?.sqrt(), ty)),
    }
}

/// Integer `mul`/`mad` (`.lo`, `.hi`, `.wide`): the product of the operands at twice the
/// width, cut as the modifier says, plus the addend of `mad`.
fn multiply(lane: &Lane, d: &Decoded, (wide, hi, addend): (bool, bool, Option<ScalarType>)) -> Val {
    let ty = d.ty;
    let bits = ty.bits();
    let (a, b) = (lane.operand(d, 1, ty)?, lane.operand(d, 2, ty)?);
    let prod: u128 = if ty.is_signed() {
        (sext(a, bits) as i128).wrapping_mul(sext(b, bits) as i128) as u128
    } else {
        (a as u128) * (b as u128)
    };
    let (val, width) = if wide {
        (prod, bits * 2)
    } else if hi {
        (prod >> bits, bits)
    } else {
        (prod, bits)
    };
    let mut r = (val as u64) & mask(width);
    if let Some(cty) = addend {
        r = r.wrapping_add(lane.operand(d, 3, cty)?) & mask(width);
    }
    Some(r)
}

/// `cvt` between integer and float types of any width.
fn convert(lane: &Lane, d: &Decoded, (dt, st, round): (ScalarType, ScalarType, Round)) -> Val {
    let a = lane.operand(d, 1, st)?;
    match (dt.is_float(), st.is_float()) {
        (false, false) => {
            let x = if st.is_signed() {
                sext(a, st.bits()) as u64
            } else {
                a
            };
            Some(x & mask(dt.bits()))
        }
        (true, false) => {
            let x = if st.is_signed() {
                sext(a, st.bits()) as f64
            } else {
                a as f64
            };
            from_f(x, dt)
        }
        (false, true) => to_f(a, st).map(|x| {
            let r = match round {
                Round::Nearest => x.round_ties_even(),
                Round::Down => x.floor(),
                Round::Up => x.ceil(),
                Round::Zero => x.trunc(),
            };
            let v = if dt.is_signed() {
                r as i64 as u64
            } else {
                r as u64
            };
            v & mask(dt.bits())
        }),
        (true, true) => to_f(a, st).and_then(|x| from_f(x, dt)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decoded::{decode, RegIndex};
    use isa::{ptx, Limits};

    /// Runs straight-line code for one thread with tid.x = 5 and returns register `r`.
    fn run(body: &str, r: &str) -> Val {
        let text = format!(".entry k(.param .u64 p)\n{{ .reg .pred %p<16>; .reg .b32 %r<32>; .reg .b64 %rd<32>; .reg .f32 %f<16>;\n{body}\nret;\n}}\n");
        let out = ptx::parse(&text, &Limits::default());
        assert!(!out.has_errors(), "{:?}", out.diagnostics);
        let f = out.module.function(None).expect("k");
        let ri = RegIndex::of(f);
        let mut params = ParamMemory::default();
        params
            .bytes
            .insert("p".into(), 0x1000u64.to_le_bytes().to_vec());
        let dec = decode(f, &ri, &params);
        let mut regs: Vec<Val> = vec![None; ri.len()];
        let ctx = ThreadContext {
            tid: [5, 0, 0],
            ntid: [32, 1, 1],
            ctaid: [1, 0, 0],
            nctaid: [2, 1, 1],
            lane: 5,
            warp: 0,
            sm: 1,
            nsm: 15,
        };
        let mut w = Vec::new();
        for d in &dec {
            w.clear();
            execute(
                d,
                &Lane {
                    regs: &regs,
                    ctx: &ctx,
                },
                &mut w,
            );
            for &(id, v) in &w {
                regs[id] = v;
            }
        }
        regs[ri.id(r).expect("register")]
    }

    #[test]
    fn address_arithmetic() {
        // 0x1000 + (ctaid.x * ntid.x + tid.x) * 4 = 4096 + 37 * 4 = 4244
        let v = run(
            "ld.param.u64 %rd1, [p];\nmov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %ntid.x;\n\
             mov.u32 %r3, %tid.x;\nmad.lo.s32 %r4, %r1, %r2, %r3;\n\
             mul.wide.s32 %rd2, %r4, 4;\nadd.s64 %rd3, %rd1, %rd2;",
            "%rd3",
        );
        assert_eq!(v, Some(4244));
    }

    #[test]
    fn signed_and_unsigned_semantics() {
        assert_eq!(
            run("mov.u32 %r1, -3;\nshr.s32 %r2, %r1, 1;", "%r2"),
            Some(0xFFFF_FFFE)
        );
        assert_eq!(
            run("mov.u32 %r1, -3;\nshr.u32 %r2, %r1, 1;", "%r2"),
            Some(0x7FFF_FFFE)
        );
        // mul.wide.s32 of -3 × 4 is the 64-bit -12.
        assert_eq!(
            run("mov.u32 %r1, -3;\nmul.wide.s32 %rd1, %r1, 4;", "%rd1"),
            Some((-12i64) as u64)
        );
        // setp.lt.s32 -3 < 2 is true, setp.lt.u32 is false.
        assert_eq!(
            run("mov.u32 %r1, -3;\nsetp.lt.s32 %p1, %r1, 2;", "%p1"),
            Some(1)
        );
        assert_eq!(
            run("mov.u32 %r1, -3;\nsetp.lt.u32 %p1, %r1, 2;", "%p1"),
            Some(0)
        );
        assert_eq!(
            run(
                "mov.u32 %r1, 7;\nsetp.gt.s32 %p1, %r1, 2;\nselp.b32 %r2, 10, 20, %p1;",
                "%r2"
            ),
            Some(10)
        );
        assert_eq!(
            run(
                "mov.u32 %r1, 7;\ncvt.rn.f32.s32 %f1, %r1;\ncvt.rzi.s32.f32 %r2, %f1;",
                "%r2"
            ),
            Some(7)
        );
    }

    #[test]
    fn memory_loads_are_unknown() {
        assert_eq!(
            run("ld.global.u32 %r1, [%rd1];\nadd.s32 %r2, %r1, 1;", "%r2"),
            None
        );
    }
}
