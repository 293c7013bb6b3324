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
//! The instructions come resolved ([`crate::decoded`]) and what each operation computes is
//! the one PTX semantics ([`isa::ptx::semantics`], the simulator's too): this module reads
//! a thread's operands — where an unknown operand makes the result unknown — and writes the
//! result, so a thread's step is arithmetic on its registers, without text or allocation.
//! Where the semantics give no value (division by zero, a rounding they do not model) the
//! result is unknown.

use crate::decoded::{Address, Decoded, Op, Src};
use isa::ptx::semantics::{
    compare, convert, f32_directed_op, float_op, int_op_of_width, mask_bits, vector_element,
    with_vector_element,
};
use isa::ptx::special_registers::Special;
use isa::ptx::ScalarType;
use std::collections::BTreeMap;

pub(crate) type Val = Option<u64>;

/// `f32`/`f64` bits of `x` as a literal of type `ty` (`None` for other types).
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
    fn special(&self, s: Special) -> u64 {
        match s {
            Special::Tid(c) => self.tid[c] as u64,
            Special::Ntid(c) => self.ntid[c] as u64,
            Special::Ctaid(c) => self.ctaid[c] as u64,
            Special::Nctaid(c) => self.nctaid[c] as u64,
            Special::LaneId => self.lane as u64,
            Special::WarpId => self.warp as u64,
            Special::SmId => self.sm as u64,
            Special::NsmId => self.nsm as u64,
            Special::LanemaskEq => 1u64 << self.lane,
            Special::LanemaskLt => (1u64 << self.lane) - 1,
            Special::LanemaskLe => (1u64 << (self.lane + 1)) - 1,
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
            Src::Reg(id) => Some(mask_bits((*self.regs.get(*id)?)?, ty.bits())),
            src => self.value(src, ty),
        }
    }

    fn value(&self, src: &Src, ty: ScalarType) -> Val {
        match src {
            Src::Reg(id) => {
                let v = (*self.regs.get(*id)?)?;
                Some(mask_bits(v, ty.bits()))
            }
            Src::Special(s) => Some(mask_bits(self.ctx.special(*s), ty.bits())),
            Src::Int(value) => {
                if ty.is_float() {
                    from_f(*value as f64, ty)
                } else {
                    Some(mask_bits(*value as u64, ty.bits()))
                }
            }
            Src::Float(value) => {
                if ty.is_float() {
                    from_f(*value, ty)
                } else {
                    Some(mask_bits(*value as i64 as u64, ty.bits()))
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
                    .map(|&(k, id)| (id, src.map(|s| vector_element(s, k as u32, w)))),
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
    let op = |k: usize| lane.operand(d, k, ty);
    match &d.op {
        Op::Nothing | Op::Constant(_) | Op::Unknown | Op::Unpack { .. } => None,
        Op::Pack {
            elements,
            width,
            element_type,
        } => {
            // `mov.b64 %fd, {lo, hi}`.
            let mut acc = Some(0u64);
            for (k, e) in elements.iter().enumerate() {
                let part = lane.value(e, *element_type);
                acc = acc
                    .zip(part)
                    .map(|(a, p)| with_vector_element(a, k as u32, *width, p));
            }
            acc.map(|a| mask_bits(a, ty.bits()))
        }
        Op::Mov => op(1),
        &Op::Int {
            op: iop,
            width,
            reads,
        } => {
            let read = |k: usize| match reads[k] {
                Some(t) => lane.operand(d, k + 1, t),
                None => Some(0),
            };
            int_op_of_width(iop, width, read(0)?, read(1)?, read(2)?)
        }
        &Op::Float {
            op: fop,
            ftz,
            sat,
            round,
        } => {
            let (a, b, c) = sources(fop.sources(), |k| op(k + 1))?;
            match round {
                None => Some(float_op(fop, ty == ScalarType::F64, ftz, sat, a, b, c)),
                Some(r) => f32_directed_op(fop, r, ftz, sat, (a, b, c)),
            }
        }
        Op::Cvta => lane.operand(d, 1, ScalarType::U64),
        &Op::Cvt(how) => convert(how, lane.operand(d, 1, how.st)?).ok(),
        &Op::Setp { cmp, with } => {
            let r = compare(cmp, ty, op(1)?, op(2)?);
            match with {
                None => Some(u64::from(r)),
                Some(b) => {
                    let p = lane.operand(d, 3, ScalarType::Pred)? != 0;
                    Some(u64::from(b.apply(r, p)))
                }
            }
        }
        Op::Selp => match lane.operand(d, 3, ScalarType::Pred) {
            Some(0) => op(2),
            Some(_) => op(1),
            None => None,
        },
    }
}

/// The first `n` of three sources (`read(k)`, 0-based; 0 for those past `n`), or `None`
/// when one of them is unknown.
#[inline]
fn sources(n: usize, read: impl Fn(usize) -> Val) -> Option<(u64, u64, u64)> {
    let at = |k: usize| if k < n { read(k) } else { Some(0) };
    Some((at(0)?, at(1)?, at(2)?))
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
