//! What one SASS instruction writes, as ops: the integer and predicate instructions counters
//! are made of, modelled exactly; every other register the instruction may write becomes
//! unknown.
//!
//! Modelled (Maxwell to Hopper spellings, and the Kepler/Fermi ones that share them):
//! `MOV`, `IMAD` (not `.HI`/`.WIDE`/`.X`), `IADD3`, `IADD`, `ISUB`, `IMUL`, `ISCADD`, `LEA`
//! (not `.HI`), `SHL`, `SHR`, `SHF` (the forms that are plain shifts), `LOP3.LUT` and `LOP`
//! (functions of at most two operands), `IMNMX`/`VIMNMX`, `IABS`, `SEL`, `S2R` of
//! `SR_TID.*`/`SR_CTAID.*`, `CS2R … SRZ`, constant-bank reads (`ULDC`, `LDC` at a constant
//! offset), `ISETP`, `PLOP3.LUT`, `PSETP`; the uniform forms (`U…`) alike.
//!
//! Which registers an instruction writes is over-approximated beyond `isa`'s list (which
//! names the first register of a pair only for `IMAD.WIDE`, `CS2R`, `ULDC.64`, matrix
//! instructions): [`dest_width`] widens each written register by the width the opcode's
//! modifiers say, and an opcode not in [`SINGLE`] is taken to write four — unless `isa`
//! already names that many registers (`LDS.U.128 R16` lists R16–R19), which are then the
//! group itself.

use super::{bitwise, is_zero, Lowering};
use crate::ir::{CmpOp, FuncOp, Input, Op, Term};
use isa::{Immediate, Instruction, Operand, OperandKind, Register};

/// Opcodes whose destination is one 32-bit register unless a size modifier says otherwise.
const SINGLE: &[&str] = &[
    "MOV",
    "MOV32I",
    "UMOV",
    "IMAD",
    "UIMAD",
    "IMUL",
    "IMUL32I",
    "XMAD",
    "IADD3",
    "UIADD3",
    "IADD",
    "IADD32I",
    "ISUB",
    "ISCADD",
    "ISCADD32I",
    "LEA",
    "ULEA",
    "SHL",
    "SHR",
    "SHF",
    "USHF",
    "LOP",
    "LOP32I",
    "LOP3",
    "ULOP3",
    "ULOP",
    "IMNMX",
    "VIMNMX",
    "UIMNMX",
    "IABS",
    "SEL",
    "USEL",
    "FSEL",
    "S2R",
    "S2UR",
    "LDC",
    "ULDC",
    "LDG",
    "LDS",
    "LDL",
    "LD",
    "ATOM",
    "ATOMS",
    "ATOMG",
    "RED",
    "FADD",
    "FMUL",
    "FFMA",
    "FMNMX",
    "FADD32I",
    "FMUL32I",
    "FFMA32I",
    "MUFU",
    "F2I",
    "I2F",
    "F2F",
    "I2I",
    "POPC",
    "FLO",
    "UFLO",
    "BREV",
    "UBREV",
    "PRMT",
    "UPRMT",
    "SHFL",
    "VOTE",
    "VOTEU",
    "P2R",
    "UP2UR",
    "BFE",
    "BFI",
    "FCHK",
    "R2UR",
    "ISETP",
    "UISETP",
    "FSETP",
    "DSETP",
    "HSETP2",
    "PLOP3",
    "UPLOP3",
    "PSETP",
    "FSET",
    "ISET",
    "DSET",
    "PSET",
    "HADD2",
    "HMUL2",
    "HFMA2",
    "HMNMX2",
    "FRND",
    "MATCH",
    "REDUX",
    "IDP",
    "LDSM",
    "I2FP",
    "F2IP",
    "FMNMX",
    "ICMP",
    "FCMP",
    "RRO",
    "DEPBAR",
    "NOP",
    "LEPC",
    "GETLMEMBASE",
    "S2UR",
    "BMSK",
    "UBMSK",
    "SGXT",
    "USGXT",
    "IMNMX",
];

/// Matrix instructions: up to eight registers.
const MATRIX: &[&str] = &[
    "HMMA", "IMMA", "DMMA", "BMMA", "HGMMA", "IGMMA", "QGMMA", "LDSM",
];

/// How many consecutive registers each written register of `ins` may stand for.
pub(crate) fn dest_width(ins: &Instruction) -> u32 {
    let name = ins.opcode.name.as_str();
    let has = |m: &str| ins.opcode.has_modifier(m);
    if MATRIX.contains(&name) {
        8
    } else if has("128") {
        4
    } else if has("64")
        || has("F64")
        || has("U64")
        || has("S64")
        || has("WIDE")
        || matches!(name, "CS2R" | "DADD" | "DMUL" | "DFMA" | "DMNMX")
    {
        2
    } else if SINGLE.contains(&name) {
        1
    } else {
        4
    }
}

/// Every register `ins` may write (the over-approximation of the module doc).
pub(crate) fn writes(ins: &Instruction) -> Vec<Register> {
    let w = dest_width(ins);
    // Where the parser already names the whole group (`LDS.U.128 R16` writes R16–R19), it is
    // the group: widening each of its registers again would clobber R20–R22 too (the loop
    // counter of sm_75's tiled `matrixMul`).
    let named = |f: fn(&Register) -> bool| ins.writes.iter().filter(|r| f(r)).count() as u32 >= w;
    let gprs = named(|r| matches!(r, Register::Gpr(_)));
    let uniforms = named(|r| matches!(r, Register::Uniform(_)));
    let mut out = Vec::new();
    for r in &ins.writes {
        match r {
            Register::Gpr(n) if !gprs => out.extend((0..w).map(|k| Register::Gpr(n + k))),
            Register::Uniform(n) if !uniforms => {
                out.extend((0..w).map(|k| Register::Uniform(n + k)))
            }
            other => out.push(other.clone()),
        }
    }
    if ins.opcode.name == "R2P" || ins.opcode.name == "UR2UP" {
        out.extend((0..7).map(Register::Pred));
        out.extend((0..7).map(Register::UniformPred));
    }
    out.sort();
    out.dedup();
    out
}

/// A 32-bit integer source operand.
pub(crate) fn int(l: &mut Lowering, o: &Operand) -> Term {
    let unknown = Term::Unknown { width: 32 };
    let plain = o.suffixes.iter().all(|s| s == "reuse");
    let mut t = match &o.kind {
        OperandKind::Register { reg } if plain => match reg {
            Register::Zero => Term::int(32, 0),
            Register::Gpr(_) | Register::Uniform(_) => match l.var(reg) {
                Some(v) => Term::Var(v),
                None => unknown,
            },
            _ => unknown,
        },
        OperandKind::Immediate {
            value: Immediate::Int(v),
        } => Term::int(32, i128::from(*v)),
        OperandKind::Constant { bank, address } if address.base.is_none() => Term::Input {
            input: Input::ConstWord {
                bank: *bank,
                offset: address.offset,
            },
            width: 32,
        },
        _ => unknown,
    };
    if o.absolute {
        t = Term::func(FuncOp::AbsS, 32, vec![t]);
    }
    if o.inverted {
        t = Term::func(FuncOp::Not, 32, vec![t]);
    }
    if o.negated {
        t = Term::neg(t);
    }
    t
}

/// The constant an operand is (an immediate, `RZ`).
pub(crate) fn constant(o: &Operand) -> Option<i128> {
    match &o.kind {
        OperandKind::Immediate {
            value: Immediate::Int(v),
        } if !o.negated && !o.inverted => Some(i128::from(*v)),
        _ if is_zero(o) => Some(0),
        _ => None,
    }
}

/// The comparison a `…SETP` modifier names.
pub(crate) fn cmp_op(ins: &Instruction) -> Option<CmpOp> {
    ins.opcode.modifiers.iter().find_map(|m| {
        Some(match m.as_str() {
            "LT" => CmpOp::Lt,
            "LE" => CmpOp::Le,
            "GT" => CmpOp::Gt,
            "GE" => CmpOp::Ge,
            "EQ" => CmpOp::Eq,
            "NE" => CmpOp::Ne,
            _ => return None,
        })
    })
}

/// `a bop b` for the `AND`/`OR`/`XOR` combine modifier at position `nth` among them.
pub(crate) fn combine(ins: &Instruction, nth: usize, a: Term, b: Term) -> Option<Term> {
    let ops: Vec<&str> = ins
        .opcode
        .modifiers
        .iter()
        .map(String::as_str)
        .filter(|m| matches!(*m, "AND" | "OR" | "XOR"))
        .collect();
    Some(match ops.get(nth).copied().unwrap_or("AND") {
        "AND" => Term::and(a, b),
        "OR" => Term::or(a, b),
        "XOR" => Term::xor(a, b),
        _ => return None,
    })
}

/// Lowers `ins` into `out`.
pub(crate) fn lower(l: &mut Lowering, ins: &Instruction, out: &mut Vec<Op>) {
    let guard = l.guard(ins);
    if guard == Some(Term::Bool(false)) {
        return;
    }
    let modelled = semantics(l, ins).unwrap_or_default();
    emit(l, ins, guard, modelled, out);
}

/// Emits the modelled writes (through temporaries when one reads another's destination)
/// and every other register `ins` may write as unknown.
pub(crate) fn emit(
    l: &mut Lowering,
    ins: &Instruction,
    guard: Option<Term>,
    modelled: Vec<(Register, Term)>,
    out: &mut Vec<Op>,
) {
    let mut pairs: Vec<(crate::ir::Var, Term)> = Vec::new();
    for (r, t) in modelled {
        if let Some(v) = l.var(&r) {
            pairs.push((v, t));
        }
    }
    let dsts: Vec<crate::ir::Var> = pairs.iter().map(|p| p.0).collect();
    let reads_dst = pairs.len() > 1 && pairs.iter().any(|(_, t)| mentions(t, &dsts));
    if reads_dst {
        let mut temps = Vec::new();
        for (i, (v, t)) in pairs.iter().enumerate() {
            let w = l.p.width(*v);
            let tmp = l.p.temp(i, w);
            out.push(Op {
                dst: tmp,
                value: t.clone(),
                guard: None,
            });
            temps.push((*v, tmp));
        }
        for (v, tmp) in temps {
            out.push(Op {
                dst: v,
                value: Term::Var(tmp),
                guard: guard.clone(),
            });
        }
    } else {
        for (v, t) in &pairs {
            out.push(Op {
                dst: *v,
                value: t.clone(),
                guard: guard.clone(),
            });
        }
    }
    for r in writes(ins) {
        let Some(v) = l.var(&r) else { continue };
        if dsts.contains(&v) {
            continue;
        }
        out.push(Op {
            dst: v,
            value: Term::Unknown {
                width: l.p.width(v),
            },
            guard: guard.clone(),
        });
    }
}

/// Whether `t` reads any of `vars`.
fn mentions(t: &Term, vars: &[crate::ir::Var]) -> bool {
    match t {
        Term::Var(v) => vars.contains(v),
        Term::Add(a, b)
        | Term::Sub(a, b)
        | Term::Mul(a, b)
        | Term::And(a, b)
        | Term::Or(a, b)
        | Term::Xor(a, b)
        | Term::Cmp { a, b, .. } => mentions(a, vars) || mentions(b, vars),
        Term::Neg(a) | Term::Not(a) => mentions(a, vars),
        Term::Trunc { term, .. } => mentions(term, vars),
        Term::Load { base, .. } => mentions(base, vars),
        Term::Func { args, .. } => args.iter().any(|a| mentions(a, vars)),
        Term::Const { .. } | Term::Bool(_) | Term::Input { .. } | Term::Unknown { .. } => false,
    }
}

/// The modelled writes of `ins` (`None`: none; everything it writes is then unknown).
/// The bitwise operation of a Maxwell–Pascal `LOP`/`LOP32I` (`.AND`, `.OR`, `.XOR`), the
/// same in its register and its predicate form; `None` for any other (`.PASS_B`).
fn lop_op(ins: &Instruction) -> Option<FuncOp> {
    let has = |m: &str| ins.opcode.has_modifier(m);
    if has("AND") {
        Some(FuncOp::And)
    } else if has("OR") {
        Some(FuncOp::Or)
    } else if has("XOR") {
        Some(FuncOp::Xor)
    } else {
        None
    }
}

fn semantics(l: &mut Lowering, ins: &Instruction) -> Option<Vec<(Register, Term)>> {
    let o = &ins.operands;
    let name = ins.opcode.name.as_str();
    let has = |m: &str| ins.opcode.has_modifier(m);
    let reg = |i: usize| o.get(i).and_then(|x| x.register()).cloned();
    let src = |l: &mut Lowering, i: usize| o.get(i).map(|x| int(l, x));
    let one = |r: Option<Register>, t: Option<Term>| Some(vec![(r?, t?)]);
    match name {
        "MOV" | "MOV32I" | "UMOV" => {
            if o.len() > 2 && o.get(2).and_then(constant) != Some(0xf) {
                return None;
            }
            let t = src(l, 1);
            one(reg(0), t)
        }
        "IMAD" | "UIMAD" => {
            if has("HI") || has("WIDE") || has("X") || o.len() != 4 {
                return None;
            }
            let (a, b, c) = (src(l, 1)?, src(l, 2)?, src(l, 3)?);
            one(reg(0), Some(Term::add(Term::mul(a, b), c)))
        }
        "IMUL" | "IMUL32I" => {
            if has("HI") || o.len() != 3 {
                return None;
            }
            let (a, b) = (src(l, 1)?, src(l, 2)?);
            one(reg(0), Some(Term::mul(a, b)))
        }
        "IADD3" | "UIADD3" => {
            if has("X") {
                return None;
            }
            let d = reg(0)?;
            let skip = 1 + o[1..]
                .iter()
                .take_while(|x| x.register().is_some_and(Register::is_predicate))
                .count();
            if o.len() != skip + 3 {
                return None;
            }
            let (a, b, c) = (src(l, skip)?, src(l, skip + 1)?, src(l, skip + 2)?);
            Some(vec![(d, Term::add(Term::add(a, b), c))])
        }
        "IADD" | "IADD32I" | "UIADD" => {
            if has("X") || has("PO") || has("SAT") || o.len() != 3 {
                return None;
            }
            let (a, b) = (src(l, 1)?, src(l, 2)?);
            one(reg(0), Some(Term::add(a, b)))
        }
        "ISUB" => {
            if o.len() != 3 {
                return None;
            }
            let (a, b) = (src(l, 1)?, src(l, 2)?);
            one(reg(0), Some(Term::sub(a, b)))
        }
        "ISCADD" | "ISCADD32I" => {
            let k = o
                .get(3)
                .and_then(constant)
                .filter(|k| (0..32).contains(k))?;
            let (a, b) = (src(l, 1)?, src(l, 2)?);
            one(
                reg(0),
                Some(Term::add(Term::mul(a, Term::int(32, 1 << k)), b)),
            )
        }
        "LEA" | "ULEA" => {
            if has("HI") || has("X") {
                return None;
            }
            let skip = 1 + o[1..]
                .iter()
                .take_while(|x| x.register().is_some_and(Register::is_predicate))
                .count();
            let k = o
                .get(skip + 2)
                .and_then(constant)
                .filter(|k| (0..32).contains(k))?;
            let (a, b) = (src(l, skip)?, src(l, skip + 1)?);
            one(
                reg(0),
                Some(Term::add(Term::mul(a, Term::int(32, 1 << k)), b)),
            )
        }
        "SHL" => {
            let k = o
                .get(2)
                .and_then(constant)
                .filter(|k| (0..32).contains(k))?;
            let a = src(l, 1)?;
            one(reg(0), Some(Term::mul(a, Term::int(32, 1 << k))))
        }
        "SHR" => {
            let k = o
                .get(2)
                .and_then(constant)
                .filter(|k| (0..32).contains(k))?;
            let a = src(l, 1)?;
            let op = if has("U32") {
                FuncOp::ShrU
            } else {
                FuncOp::ShrS
            };
            one(reg(0), Some(Term::func(op, 32, vec![a, Term::int(32, k)])))
        }
        "SHF" | "USHF" => bitwise::shf(l, ins),
        "LOP3" | "ULOP3" => bitwise::lop3(l, ins),
        "ISET" => {
            // `ISET.cmp[.U32][.BF].bop d, a, b, c`: all ones (1.0 with `.BF`) where
            // `(a cmp b) bop c` holds, else 0 (Maxwell–Pascal `ISET`).
            if o.len() != 4 || has("X") {
                return None;
            }
            let op = cmp_op(ins)?;
            let (a, b) = (src(l, 1)?, src(l, 2)?);
            let c = l.predicate(&o[3]);
            let cond = combine(ins, 0, Term::cmp(op, !has("U32"), a, b), c)?;
            let yes = if has("BF") { 0x3f80_0000 } else { -1 };
            let t = Term::func(
                FuncOp::Select,
                32,
                vec![cond, Term::int(32, yes), Term::int(32, 0)],
            );
            one(reg(0), Some(t))
        }
        "LOP" | "LOP32I"
            if o.first()
                .and_then(|x| x.register())
                .is_some_and(Register::is_predicate) =>
        {
            // `LOP.op.NZ P, d, a, b`: `P = (a op b) ≠ 0` (`.Z`: `= 0`).
            if o.len() != 4 {
                return None;
            }
            let (a, b) = (src(l, 2)?, src(l, 3)?);
            let v = Term::func(lop_op(ins)?, 32, vec![a, b]);
            let test = if has("NZ") {
                CmpOp::Ne
            } else if has("Z") {
                CmpOp::Eq
            } else {
                return None;
            };
            let mut out = Vec::new();
            if let Some(p) = reg(0).filter(|r| *r != Register::True) {
                out.push((p, Term::cmp(test, false, v.clone(), Term::int(32, 0))));
            }
            if let Some(d) = reg(1).filter(|r| *r != Register::Zero) {
                out.push((d, v));
            }
            Some(out)
        }
        "LOP" | "LOP32I" => {
            if o.len() != 3 {
                return None;
            }
            let (a, b) = (src(l, 1)?, src(l, 2)?);
            match lop_op(ins) {
                Some(op) => one(reg(0), Some(Term::func(op, 32, vec![a, b]))),
                None if has("PASS_B") => one(reg(0), Some(b)),
                None => None,
            }
        }
        "IMNMX" | "VIMNMX" | "UIMNMX" => {
            if o.len() != 4 {
                return None;
            }
            let (a, b) = (src(l, 1)?, src(l, 2)?);
            let u = has("U32");
            let (min, max) = if u {
                (FuncOp::MinU, FuncOp::MaxU)
            } else {
                (FuncOp::MinS, FuncOp::MaxS)
            };
            let p = l.predicate(&o[3]);
            let t = match p {
                Term::Bool(true) => Term::func(min, 32, vec![a, b]),
                Term::Not(x) if *x == Term::Bool(true) => Term::func(max, 32, vec![a, b]),
                p => Term::func(
                    FuncOp::Select,
                    32,
                    vec![
                        p,
                        Term::func(min, 32, vec![a.clone(), b.clone()]),
                        Term::func(max, 32, vec![a, b]),
                    ],
                ),
            };
            one(reg(0), Some(t))
        }
        "IABS" => {
            let a = src(l, 1)?;
            one(reg(0), Some(Term::func(FuncOp::AbsS, 32, vec![a])))
        }
        "SEL" | "USEL" => {
            if o.len() != 4 {
                return None;
            }
            let (a, b) = (src(l, 1)?, src(l, 2)?);
            let p = l.predicate(&o[3]);
            one(reg(0), Some(Term::func(FuncOp::Select, 32, vec![p, a, b])))
        }
        "S2R" | "S2UR" => {
            let Some(Register::Special(s)) = o.get(1).and_then(|x| x.register()) else {
                return None;
            };
            let axis = |c: &str| match c {
                "X" => Some(0u8),
                "Y" => Some(1),
                "Z" => Some(2),
                _ => None,
            };
            let input = if let Some(a) = s.strip_prefix("SR_TID.").and_then(axis) {
                Input::Tid(a)
            } else if let Some(a) = s.strip_prefix("SR_CTAID.").and_then(axis) {
                Input::Ctaid(a)
            } else {
                return None;
            };
            one(reg(0), Some(Term::Input { input, width: 32 }))
        }
        "CS2R" => {
            let d = reg(0)?;
            let zero = matches!(o.get(1).and_then(|x| x.register()), Some(Register::Special(s)) if s == "SRZ");
            if !zero {
                return None;
            }
            let Register::Gpr(n) = d else { return None };
            Some(vec![
                (Register::Gpr(n), Term::int(32, 0)),
                (Register::Gpr(n + 1), Term::int(32, 0)),
            ])
        }
        "ULDC" | "LDC" => {
            let d = reg(0)?;
            let OperandKind::Constant { bank, address } = &o.get(1)?.kind else {
                return None;
            };
            // `c[0x0][RZ]` (nvcc on sm_90 reads `blockDim.x` so) is the word at the offset.
            if address.base.as_ref().is_some_and(|b| *b != Register::Zero) {
                return None;
            }
            let word = |off: i64| Term::Input {
                input: Input::ConstWord {
                    bank: *bank,
                    offset: off,
                },
                width: 32,
            };
            let mods: Vec<&str> = ins
                .opcode
                .modifiers
                .iter()
                .map(String::as_str)
                .filter(|m| !matches!(*m, "U32" | "S32"))
                .collect();
            match (mods.as_slice(), &d) {
                ([], _) => Some(vec![(d, word(address.offset))]),
                (["64"], Register::Gpr(n)) => Some(vec![
                    (Register::Gpr(*n), word(address.offset)),
                    (Register::Gpr(n + 1), word(address.offset + 4)),
                ]),
                (["64"], Register::Uniform(n)) => Some(vec![
                    (Register::Uniform(*n), word(address.offset)),
                    (Register::Uniform(n + 1), word(address.offset + 4)),
                ]),
                _ => None,
            }
        }
        "ISETP" | "UISETP" => {
            if has("EX") || o.len() != 5 {
                return None;
            }
            let op = cmp_op(ins)?;
            let signed = !has("U32");
            let (a, b) = (src(l, 2)?, src(l, 3)?);
            let c = l.predicate(&o[4]);
            let cmp = Term::cmp(op, signed, a, b);
            let pd = combine(ins, 0, cmp.clone(), c.clone())?;
            let pe = combine(ins, 0, Term::not(cmp), c)?;
            let mut v = Vec::new();
            if let Some(r) = reg(0).filter(|r| *r != Register::True) {
                v.push((r, pd));
            }
            if let Some(r) = reg(1).filter(|r| *r != Register::True) {
                v.push((r, pe));
            }
            Some(v)
        }
        "PLOP3" | "UPLOP3" => {
            if o.len() != 7 {
                return None;
            }
            let lut = constant(&o[5])?;
            let ins3 = [l.predicate(&o[2]), l.predicate(&o[3]), l.predicate(&o[4])];
            let t = bitwise::lut_predicate(lut, &ins3);
            let mut v = Vec::new();
            if let Some(r) = reg(0).filter(|r| *r != Register::True) {
                v.push((r, t));
            }
            Some(v)
        }
        "PSETP" => {
            if o.len() != 5 {
                return None;
            }
            let (a, b, c) = (l.predicate(&o[2]), l.predicate(&o[3]), l.predicate(&o[4]));
            let ab = combine(ins, 0, a, b)?;
            let t = combine(ins, 1, ab, c)?;
            let mut v = Vec::new();
            if let Some(r) = reg(0).filter(|r| *r != Register::True) {
                v.push((r, t));
            }
            Some(v)
        }
        _ => None,
    }
}
