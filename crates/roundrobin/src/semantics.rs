//! What one PTX instruction does to one thread's registers — `UpdateRegisterValue` of
//! Alg. 4 line 11 (Huangfu §5.3.3.1), for the arithmetic, logic, conversion, comparison and
//! parameter-load instructions kernels use to compute addresses and branch conditions.
//!
//! Values are raw bit patterns (`u64`, zero-extended from the instruction's type width) or
//! *unknown* (`None`): loads from global/shared memory, textures, clocks and instructions
//! without modelled semantics produce unknown values, which propagate. The analyzer only
//! fails when an unknown value decides an address or a branch (§4.4.6.1: kernels with
//! input-dependent branches or references cannot be analysed).

use isa::ptx::{AddressBase, Function, Instruction, OperandKind, ScalarType};
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

/// Dense numbering of the virtual registers a function uses.
#[derive(Debug, Clone, Default)]
pub(crate) struct RegIndex {
    map: BTreeMap<String, usize>,
}

impl RegIndex {
    pub fn of(f: &Function) -> Self {
        let mut map = BTreeMap::new();
        for ins in &f.instructions {
            let names = ins
                .destinations()
                .into_iter()
                .chain(ins.sources())
                .map(str::to_string);
            for n in names {
                let k = map.len();
                map.entry(n).or_insert(k);
            }
        }
        RegIndex { map }
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn id(&self, name: &str) -> Option<usize> {
        self.map.get(name).copied()
    }
}

/// What the executor needs of an instruction, computed once per function instead of once
/// per thread and step: type modifiers, destination and operand register numbers.
#[derive(Debug, Clone)]
pub(crate) struct Decoded {
    pub types: Vec<ScalarType>,
    pub dests: Vec<usize>,
    /// Register number of each operand that is a plain register.
    pub operand_regs: Vec<Option<usize>>,
    pub guard: Option<usize>,
}

/// Decodes every instruction of `f`.
pub(crate) fn decode(f: &Function, ri: &RegIndex) -> Vec<Decoded> {
    f.instructions
        .iter()
        .map(|ins| Decoded {
            types: ins.types(),
            dests: ins.destinations().iter().filter_map(|d| ri.id(d)).collect(),
            operand_regs: ins
                .operands
                .iter()
                .map(|o| o.register().and_then(|r| ri.id(r)))
                .collect(),
            guard: ins.guard.as_ref().and_then(|g| ri.id(&g.reg)),
        })
        .collect()
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
    fn special(&self, name: &str, component: Option<&str>) -> Val {
        let pick = |v: [u32; 3]| -> Val {
            match component {
                Some("x") => Some(v[0] as u64),
                Some("y") => Some(v[1] as u64),
                Some("z") => Some(v[2] as u64),
                _ => None,
            }
        };
        match name {
            "tid" => pick(self.tid),
            "ntid" => pick(self.ntid),
            "ctaid" => pick(self.ctaid),
            "nctaid" => pick(self.nctaid),
            "laneid" => Some(self.lane as u64),
            "warpid" => Some(self.warp as u64),
            "smid" => Some(self.sm as u64),
            "nsmid" => Some(self.nsm as u64),
            "lanemask_eq" => Some(1u64 << self.lane),
            "lanemask_lt" => Some((1u64 << self.lane) - 1),
            "lanemask_le" => Some((1u64 << (self.lane + 1)) - 1),
            _ => None,
        }
    }
}

/// Kernel parameter memory: each parameter's bytes at its name.
#[derive(Debug, Clone, Default)]
pub(crate) struct ParamMemory {
    pub bytes: BTreeMap<String, Vec<u8>>,
}

impl ParamMemory {
    fn read(&self, name: &str, offset: i64, size: u32) -> Val {
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
    /// The value of operand `k` read with type `ty`.
    pub fn operand(
        &self,
        ins: &Instruction,
        d: &Decoded,
        k: usize,
        ty: ScalarType,
        ri: &RegIndex,
    ) -> Val {
        if let Some(Some(id)) = d.operand_regs.get(k) {
            return self
                .regs
                .get(*id)
                .copied()
                .flatten()
                .map(|v| v & mask(ty.bits()));
        }
        let op = ins.operands.get(k)?;
        self.value(&op.kind, ty, ri)
    }

    fn value(&self, kind: &OperandKind, ty: ScalarType, ri: &RegIndex) -> Val {
        match kind {
            OperandKind::Register { name } => {
                let v = (*self.regs.get(ri.id(name)?)?)?;
                Some(v & mask(ty.bits()))
            }
            OperandKind::Special { name, component } => self
                .ctx
                .special(name, component.as_deref())
                .map(|v| v & mask(ty.bits())),
            OperandKind::Int { value } => {
                if ty.is_float() {
                    from_f(*value as f64, ty)
                } else {
                    Some((*value as u64) & mask(ty.bits()))
                }
            }
            OperandKind::Float { value } => {
                if ty.is_float() {
                    from_f(*value, ty)
                } else {
                    Some((*value as i64 as u64) & mask(ty.bits()))
                }
            }
            OperandKind::Not { inner } => self.value(&inner.kind, ty, ri).map(|v| (v == 0) as u64),
            _ => None,
        }
    }
}

/// The address `[base+offset]` of operand `k`, when its base is a register with a known
/// value (`None` base: the bare offset).
pub(crate) fn register_address(
    lane: &Lane,
    ins: &Instruction,
    k: usize,
    ri: &RegIndex,
) -> Option<Val> {
    match &ins.operands.get(k)?.kind {
        OperandKind::Address {
            base: Some(AddressBase::Register(r)),
            offset,
        } => {
            let v = ri.id(r).and_then(|id| lane.regs.get(id).copied().flatten());
            Some(v.map(|v| v.wrapping_add(*offset as u64)))
        }
        OperandKind::Address { base: None, offset } => Some(Some(*offset as u64)),
        _ => None,
    }
}

fn cmp(op: &str, a: u64, b: u64, ty: ScalarType) -> Option<bool> {
    if ty.is_float() {
        let (x, y) = (to_f(a, ty)?, to_f(b, ty)?);
        let unordered = x.is_nan() || y.is_nan();
        let ordered = |r: bool| !unordered && r;
        let unord = |r: bool| unordered || r;
        return Some(match op {
            "eq" => ordered(x == y),
            "ne" => ordered(x != y),
            "lt" => ordered(x < y),
            "le" => ordered(x <= y),
            "gt" => ordered(x > y),
            "ge" => ordered(x >= y),
            "equ" => unord(x == y),
            "neu" => unord(x != y),
            "ltu" => unord(x < y),
            "leu" => unord(x <= y),
            "gtu" => unord(x > y),
            "geu" => unord(x >= y),
            "num" => !unordered,
            "nan" => unordered,
            _ => return None,
        });
    }
    let bits = ty.bits();
    let (sa, sb) = (sext(a, bits), sext(b, bits));
    let signed = ty.is_signed();
    Some(match op {
        "eq" => a == b,
        "ne" => a != b,
        "lt" if signed => sa < sb,
        "le" if signed => sa <= sb,
        "gt" if signed => sa > sb,
        "ge" if signed => sa >= sb,
        "lt" | "lo" => a < b,
        "le" | "ls" => a <= b,
        "gt" | "hi" => a > b,
        "ge" | "hs" => a >= b,
        _ => return None,
    })
}

fn first_of<'a>(ins: &Instruction, ops: &'a [&'a str]) -> Option<&'a str> {
    ops.iter().copied().find(|o| ins.has_modifier(o))
}

/// Executes `ins` for one thread and returns the register writes. Never fails: what cannot
/// be computed is written as unknown.
pub(crate) fn execute(
    ins: &Instruction,
    d: &Decoded,
    lane: &Lane,
    ri: &RegIndex,
    params: &ParamMemory,
) -> Vec<(usize, Val)> {
    if d.dests.is_empty() {
        return Vec::new();
    }
    let types = &d.types;
    let ty = types.last().copied().unwrap_or(ScalarType::B32);
    let bits = ty.bits();
    let m = mask(bits);
    let op = |k: usize| lane.operand(ins, d, k, ty, ri);
    let write_one = |v: Val| -> Vec<(usize, Val)> {
        d.dests.first().map(|&id| vec![(id, v)]).unwrap_or_default()
    };
    let unknown_all = || -> Vec<(usize, Val)> { d.dests.iter().map(|&id| (id, None)).collect() };
    let int2 = |f: &dyn Fn(u64, u64) -> Option<u64>| -> Val {
        let (a, b) = (op(1)?, op(2)?);
        f(a, b).map(|v| v & m)
    };
    let flt2 = |f: &dyn Fn(f64, f64) -> f64| -> Val {
        let (a, b) = (to_f(op(1)?, ty)?, to_f(op(2)?, ty)?);
        from_f(f(a, b), ty)
    };
    let v: Val = match ins.opcode.as_str() {
        "mov" => {
            // Unpack `mov.b64 {lo, hi}, %fd` / pack `mov.b64 %fd, {lo, hi}`.
            if let Some(OperandKind::Vector { elements }) = ins.operands.first().map(|o| &o.kind) {
                let n = elements.len().max(1) as u32;
                let w = bits / n;
                let src = op(1);
                return elements
                    .iter()
                    .enumerate()
                    .filter_map(|(k, e)| {
                        let id = ri.id(e.register()?)?;
                        Some((id, src.map(|s| (s >> (w * k as u32)) & mask(w))))
                    })
                    .collect();
            }
            if let Some(OperandKind::Vector { elements }) = ins.operands.get(1).map(|o| &o.kind) {
                let n = elements.len().max(1) as u32;
                let w = bits / n;
                let elem_ty = ScalarType::from_modifier(&format!("b{w}")).unwrap_or(ty);
                let mut acc = Some(0u64);
                for (k, e) in elements.iter().enumerate() {
                    let part = lane.value(&e.kind, elem_ty, ri);
                    acc = acc
                        .zip(part)
                        .map(|(a, p)| a | ((p & mask(w)) << (w * k as u32)));
                }
                return write_one(acc.map(|a| a & m));
            }
            op(1)
        }
        "add" if ty.is_float() => flt2(&|a, b| a + b),
        "sub" if ty.is_float() => flt2(&|a, b| a - b),
        "mul" if ty.is_float() => flt2(&|a, b| a * b),
        "div" if ty.is_float() => flt2(&|a, b| a / b),
        "min" if ty.is_float() => flt2(&f64::min),
        "max" if ty.is_float() => flt2(&f64::max),
        "add" => int2(&|a, b| Some(a.wrapping_add(b))),
        "sub" => int2(&|a, b| Some(a.wrapping_sub(b))),
        "mul" | "mad" if !ty.is_float() => {
            let (a, b) = match (op(1), op(2)) {
                (Some(a), Some(b)) => (a, b),
                _ => return write_one(None),
            };
            let prod: u128 = if ty.is_signed() {
                (sext(a, bits) as i128).wrapping_mul(sext(b, bits) as i128) as u128
            } else {
                (a as u128) * (b as u128)
            };
            let (val, width) = if ins.has_modifier("wide") {
                (prod, bits * 2)
            } else if ins.has_modifier("hi") {
                (prod >> bits, bits)
            } else {
                (prod, bits)
            };
            let mut r = (val as u64) & mask(width);
            if ins.opcode == "mad" {
                let cty = if ins.has_modifier("wide") {
                    ScalarType::from_modifier(&format!("b{width}")).unwrap_or(ty)
                } else {
                    ty
                };
                match lane.operand(ins, d, 3, cty, ri) {
                    Some(c) => r = r.wrapping_add(c) & mask(width),
                    None => return write_one(None),
                }
            }
            Some(r)
        }
        "mad" | "fma" if ty.is_float() => {
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
        "div" | "rem" => int2(&|a, b| {
            if b == 0 {
                return None;
            }
            let rem = ins.opcode == "rem";
            if ty.is_signed() {
                let (x, y) = (sext(a, bits), sext(b, bits));
                Some(if rem {
                    x.wrapping_rem(y)
                } else {
                    x.wrapping_div(y)
                } as u64)
            } else {
                Some(if rem { a % b } else { a / b })
            }
        }),
        "min" | "max" => int2(&|a, b| {
            let less = if ty.is_signed() {
                sext(a, bits) < sext(b, bits)
            } else {
                a < b
            };
            Some(if (ins.opcode == "min") == less { a } else { b })
        }),
        "abs" | "neg" => op(1).and_then(|a| {
            if ty.is_float() {
                let x = to_f(a, ty)?;
                from_f(if ins.opcode == "abs" { x.abs() } else { -x }, ty)
            } else {
                let x = sext(a, bits);
                Some(
                    (if ins.opcode == "abs" {
                        x.wrapping_abs()
                    } else {
                        x.wrapping_neg()
                    }) as u64
                        & m,
                )
            }
        }),
        "and" => int2(&|a, b| Some(a & b)),
        "or" => int2(&|a, b| Some(a | b)),
        "xor" => int2(&|a, b| Some(a ^ b)),
        "not" => op(1).map(|a| {
            if ty == ScalarType::Pred {
                (a == 0) as u64
            } else {
                !a & m
            }
        }),
        "cnot" => op(1).map(|a| (a == 0) as u64),
        "shl" | "shr" => {
            let a = op(1);
            let s = lane.operand(ins, d, 2, ScalarType::U32, ri);
            a.zip(s).map(|(a, s)| {
                let s = s as u32;
                if ins.opcode == "shl" {
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
        "cvta" => lane.operand(ins, d, 1, ScalarType::U64, ri),
        "cvt" => {
            let (Some(&dt), Some(&st)) = (types.first(), types.get(1)) else {
                return write_one(None);
            };
            let Some(a) = lane.operand(ins, d, 1, st, ri) else {
                return write_one(None);
            };
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
                    let r = if ins.has_modifier("rni") {
                        x.round_ties_even()
                    } else if ins.has_modifier("rmi") {
                        x.floor()
                    } else if ins.has_modifier("rpi") {
                        x.ceil()
                    } else {
                        x.trunc()
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
        "setp" => {
            let Some(c) = first_of(
                ins,
                &[
                    "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu",
                    "ltu", "leu", "gtu", "geu", "num", "nan",
                ],
            ) else {
                return write_one(None);
            };
            let r = op(1).zip(op(2)).and_then(|(a, b)| cmp(c, a, b, ty));
            let r = match first_of(ins, &["and", "or", "xor"]) {
                None => r,
                Some(b) => {
                    let p = lane
                        .operand(ins, d, 3, ScalarType::Pred, ri)
                        .map(|p| p != 0);
                    r.zip(p).map(|(r, p)| match b {
                        "and" => r && p,
                        "or" => r || p,
                        _ => r ^ p,
                    })
                }
            };
            r.map(u64::from)
        }
        "selp" => {
            let p = lane.operand(ins, d, 3, ScalarType::Pred, ri);
            match p {
                Some(0) => op(2),
                Some(_) => op(1),
                None => None,
            }
        }
        "rcp" if ty.is_float() => op(1).and_then(|a| from_f(1.0 / to_f(a, ty)?, ty)),
        "sqrt" if ty.is_float() => op(1).and_then(|a| from_f(to_f(a, ty)?.sqrt(), ty)),
        "ld" if ins.has_modifier("param") => {
            let size = ty.bytes();
            match ins.operands.get(1).map(|o| &o.kind) {
                Some(OperandKind::Address {
                    base: Some(AddressBase::Symbol(name)),
                    offset,
                }) => {
                    if let Some(OperandKind::Vector { elements }) =
                        ins.operands.first().map(|o| &o.kind)
                    {
                        return elements
                            .iter()
                            .enumerate()
                            .filter_map(|(k, e)| {
                                let id = ri.id(e.register()?)?;
                                let off = offset.checked_add((k as i64) * size as i64)?;
                                Some((id, params.read(name, off, size)))
                            })
                            .collect();
                    }
                    params.read(name, *offset, size)
                }
                _ => None,
            }
        }
        _ => return unknown_all(),
    };
    write_one(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use isa::{ptx, Limits};

    /// Runs straight-line code for one thread with tid.x = 5 and returns register `r`.
    fn run(body: &str, r: &str) -> Val {
        let text = format!(".entry k(.param .u64 p)\n{{ .reg .pred %p<16>; .reg .b32 %r<32>; .reg .b64 %rd<32>; .reg .f32 %f<16>;\n{body}\nret;\n}}\n");
        let out = ptx::parse(&text, &Limits::default());
        assert!(!out.has_errors(), "{:?}", out.diagnostics);
        let f = out.module.function(None).expect("k");
        let ri = RegIndex::of(f);
        let dec = decode(f, &ri);
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
        let mut params = ParamMemory::default();
        params
            .bytes
            .insert("p".into(), 0x1000u64.to_le_bytes().to_vec());
        for (ins, d) in f.instructions.iter().zip(&dec) {
            let w = execute(
                ins,
                d,
                &Lane {
                    regs: &regs,
                    ctx: &ctx,
                },
                &ri,
                &params,
            );
            for (id, v) in w {
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
