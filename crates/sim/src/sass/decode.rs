//! From IR instructions to the simulator's executable form: operands resolved (constant-bank
//! words read from the launch, registers numbered), opcode and modifiers checked against
//! the semantics [`super::semantics`] implements. Anything else is a located
//! "cannot simulate" diagnostic — never a guess. Decoding happens once per run; an
//! instruction that fails to decode only stops the run if a warp reaches it.
//!
//! One module per opcode family (`integer`, `float`, `conversion`, `predicate`, `moves`,
//! `memory`, `warp`, `control`, `texture`), each with the forms common to every
//! architecture (`common`) and, where they differ, the sm_70+ forms (`volta`);
//! `kepler_pascal` holds the Kepler–Pascal forms the others do not cover, and `operands`
//! reads the operands. The families are tried in turn: an opcode belongs to one family, so
//! the order only matters within a family (a guarded form before the general one).

use crate::launch::{ConstantLayout, Launch};
use isa::{ControlKind, Immediate, Instruction, Kernel, Operand, OperandKind, Register, Span};

pub(crate) use super::executable::*;

mod control;
mod conversion;
mod float;
mod integer;
mod kepler_pascal;
mod memory;
mod moves;
mod operands;
mod predicate;
mod texture;
mod warp;

use operands::bank_refusal;

type DecodeResult<T> = Result<T, (Span, String)>;

/// A family's decoder: `Some` when `name` is one of its opcodes.
type Family = fn(&Ctx, &str, &mut Mods) -> DecodeResult<Option<Op>>;

/// The sm_70+ forms, family by family.
const VOLTA: &[Family] = &[
    integer::volta,
    predicate::volta,
    float::volta,
    moves::volta,
    warp::volta,
    control::volta,
    memory::volta,
    texture::volta,
];

/// The forms common to every architecture, family by family.
const COMMON: &[Family] = &[
    control::common,
    moves::common,
    integer::common,
    predicate::common,
    float::common,
    conversion::common,
    memory::common,
];

struct Ctx<'a> {
    ins: &'a Instruction,
    launch: &'a Launch,
    layout: ConstantLayout,
    /// Volta or later (sm_70+): the `IMAD`/`IADD3`/`LOP3`… forms with predicate carries.
    volta: bool,
    /// Row of `UR0` in the register file (uniform registers follow the general ones).
    ubase: u16,
}

/// The register file of `kernel`'s warps: the row of `UR0` (4 past the highest general
/// register, so that pairs and quads fit) and the number of rows (64 more when the kernel
/// uses uniform registers).
pub(crate) fn register_file(kernel: &Kernel) -> (u16, usize) {
    let regs = || {
        kernel
            .instructions
            .iter()
            .flat_map(|i| i.reads.iter().chain(&i.writes))
    };
    let ubase = regs()
        .filter_map(|r| match r {
            Register::Gpr(n) => Some((*n as usize).min(251) + 4),
            _ => None,
        })
        .max()
        .unwrap_or(4);
    let uniform = regs().any(|r| matches!(r, Register::Uniform(_)))
        || kernel
            .instructions
            .iter()
            .any(|i| i.operands.iter().any(|o| o.text.contains("UR")));
    (ubase as u16, ubase + if uniform { 64 } else { 0 })
}

fn cannot(ins: &Instruction, why: &str) -> (Span, String) {
    let name = if ins.opcode.modifiers.is_empty() {
        ins.opcode.name.clone()
    } else {
        format!("{}.{}", ins.opcode.name, ins.opcode.modifiers.join("."))
    };
    (ins.span, format!("cannot simulate {name}: {why}"))
}

/// Destination index meaning "discard" (`RZ`).
pub(crate) const RZ_DEST: u16 = u16::MAX;

/// An integer written like the listings do (`0x10`, `-0x4`, `16`): `isa::number`, the one
/// integer reader.
fn int_text(t: &str) -> Option<i64> {
    isa::number::parse_int(t)
}

fn zero() -> Src {
    Src {
        kind: SrcKind::Zero,
        neg: false,
        inv: false,
        abs: false,
        half: Half::Whole,
        float_imm: None,
    }
}

fn cmp_of(m: &str) -> Option<Cmp> {
    Some(match m {
        "F" => Cmp::F,
        "LT" => Cmp::Lt,
        "EQ" => Cmp::Eq,
        "LE" => Cmp::Le,
        "GT" => Cmp::Gt,
        "NE" => Cmp::Ne,
        "GE" => Cmp::Ge,
        "NUM" => Cmp::Num,
        "NAN" => Cmp::Nan,
        "LTU" => Cmp::Ltu,
        "EQU" => Cmp::Equ,
        "LEU" => Cmp::Leu,
        "GTU" => Cmp::Gtu,
        "NEU" => Cmp::Neu,
        "GEU" => Cmp::Geu,
        "T" => Cmp::T,
        _ => return None,
    })
}

fn bool_of(m: &str) -> Option<BoolOp> {
    Some(match m {
        "AND" => BoolOp::And,
        "OR" => BoolOp::Or,
        "XOR" => BoolOp::Xor,
        _ => return None,
    })
}

/// An integer type modifier (`.U8` … `.S64`) of a conversion.
fn int_type(t: &str) -> Option<IntType> {
    Some(match t {
        "U8" => IntType {
            bits: 8,
            signed: false,
        },
        "S8" => IntType {
            bits: 8,
            signed: true,
        },
        "U16" => IntType {
            bits: 16,
            signed: false,
        },
        "S16" => IntType {
            bits: 16,
            signed: true,
        },
        "U32" => IntType {
            bits: 32,
            signed: false,
        },
        "S32" => IntType {
            bits: 32,
            signed: true,
        },
        "U64" => IntType {
            bits: 64,
            signed: false,
        },
        "S64" => IntType {
            bits: 64,
            signed: true,
        },
        _ => return None,
    })
}

/// Modifier bookkeeping: every modifier must be consumed by the opcode's decoder.
/// Whether an XMAD half-type modifier is signed (`.S16`) or not (`.U16`).
fn half_type(m: &str) -> Option<bool> {
    match m {
        "S16" => Some(true),
        "U16" => Some(false),
        _ => None,
    }
}

struct Mods<'a> {
    ins: &'a Instruction,
    left: Vec<&'a str>,
}

impl<'a> Mods<'a> {
    fn new(ins: &'a Instruction) -> Self {
        let mut left: Vec<&str> = ins.opcode.modifiers.iter().map(String::as_str).collect();
        if ins.sync_flag {
            left.retain(|m| *m != "S");
        }
        Mods { ins, left }
    }

    fn take(&mut self, m: &str) -> bool {
        match self.left.iter().position(|x| *x == m) {
            Some(p) => {
                self.left.remove(p);
                true
            }
            None => false,
        }
    }

    fn take_any<T>(&mut self, f: impl Fn(&str) -> Option<T>) -> Option<T> {
        let p = self.left.iter().position(|m| f(m).is_some())?;
        let m = self.left.remove(p);
        f(m)
    }

    fn done(self) -> DecodeResult<()> {
        match self.left.first() {
            None => Ok(()),
            Some(m) => Err(cannot(self.ins, &format!("modifier .{m} is not modelled"))),
        }
    }
}

fn operand_count(ins: &Instruction, n: usize) -> DecodeResult<()> {
    if ins.operands.len() != n {
        return Err(cannot(
            ins,
            &format!("expected {n} operands, found {}", ins.operands.len()),
        ));
    }
    Ok(())
}

/// The uniform-datapath opcodes (Turing and later) that compute what their vector namesake
/// computes, on uniform operands: `UIADD3` is `IADD3`, …
const UNIFORM_TWINS: &[&str] = &[
    "UMOV", "UIADD3", "ULOP3", "USHF", "UPRMT", "UIMAD", "ULEA", "UFLO", "ULDC", "UISETP", "USEL",
    "UPOPC", "UPLOP3", "UBREV",
];

/// The opcode's name as the decoder matches it, and whether it is a uniform-datapath
/// instruction whose destination is uniform ([`Decoded::uniform`]).
fn op_name(ins: &Instruction) -> (&str, bool) {
    let name = ins.opcode.name.as_str();
    if UNIFORM_TWINS.contains(&name) {
        return (&name[1..], true);
    }
    match name {
        "S2UR" => ("S2R", true),
        _ => (name, false),
    }
}

/// The predicate `!PT` that sm_70+ `LOP3`/`PLOP3`/`IADD3.X` forms end with: required,
/// because what another predicate there would do is not modelled.
fn require_not_pt(c: &Ctx, op: Option<&Operand>) -> DecodeResult<()> {
    let p = c.pred_src(op)?;
    if p.idx == PT && p.neg {
        Ok(())
    } else {
        Err(cannot(
            c.ins,
            "only `!PT` is modelled as the trailing predicate operand",
        ))
    }
}

/// The sm_70+ forms whose operands or meaning differ from the Kepler–Pascal ones, and the
/// opcodes only Volta and later have; `None` for the others.
fn decode_volta(c: &Ctx, name: &str, m: &mut Mods) -> DecodeResult<Option<Op>> {
    for family in VOLTA {
        if let Some(op) = family(c, name, m)? {
            return Ok(Some(op));
        }
    }
    Ok(None)
}

/// Decodes the data effect of one instruction, and whether it is uniform.
fn decode_op(c: &Ctx) -> DecodeResult<(Op, bool)> {
    let ins = c.ins;
    let mut m = Mods::new(ins);
    let (name, uniform) = op_name(ins);
    if c.volta {
        if let Some(op) = decode_volta(c, name, &mut m)? {
            m.done()?;
            return Ok((op, uniform));
        }
    }
    if !c.volta {
        if let Some(op) = kepler_pascal::decode(c, name, &mut m)? {
            m.done()?;
            return Ok((op, uniform));
        }
    }
    for family in COMMON {
        if let Some(op) = family(c, name, &mut m)? {
            m.done()?;
            return Ok((op, uniform));
        }
    }
    Err(cannot(ins, &format!("no semantics for {name}")))
}

fn rounding(m: &mut Mods) -> Round {
    if m.take("RZ") {
        Round::Zero
    } else if m.take("RM") {
        Round::Down
    } else if m.take("RP") {
        Round::Up
    } else {
        m.take("RN");
        Round::Nearest
    }
}

/// Access size in bytes and whether a sub-word load sign-extends.
fn size(m: &mut Mods) -> (u64, bool) {
    for (name, bytes, signed) in [
        ("U8", 1, false),
        ("S8", 1, true),
        ("U16", 2, false),
        ("S16", 2, true),
        ("32", 4, false),
        ("64", 8, false),
        ("128", 16, false),
    ] {
        if m.take(name) {
            return (bytes, signed);
        }
    }
    (4, false)
}

fn slot(r: &Register) -> Option<u16> {
    match r {
        Register::Gpr(n) if *n < 256 => Some(*n as u16),
        Register::Pred(n) if *n < 8 => Some((PRED_SLOT + *n as usize) as u16),
        Register::Uniform(n) if *n < 64 => Some((UNIFORM_SLOT + *n as usize) as u16),
        Register::UniformPred(n) if *n < 8 => Some((UPRED_SLOT + *n as usize) as u16),
        Register::CarryFlag => Some(CC_SLOT as u16),
        _ => None,
    }
}

/// The `NN` of the kernel's `sm_NN` architecture, if it names one.
pub(crate) fn arch_number(kernel: &Kernel) -> Option<u32> {
    kernel
        .arch
        .as_deref()
        .and_then(|a| a.strip_prefix("sm_"))
        .and_then(|v| {
            v.trim_end_matches(|c: char| c.is_ascii_alphabetic())
                .parse()
                .ok()
        })
}

/// Decodes every instruction of `kernel` for `launch`: one result per instruction.
pub(crate) fn decode(kernel: &Kernel, launch: &Launch) -> Vec<Result<Decoded, (Span, String)>> {
    let layout = ConstantLayout::for_arch(kernel.arch.as_deref());
    let volta = arch_number(kernel).is_some_and(|v| v >= 70);
    let (ubase, _) = register_file(kernel);
    let mut block_at = vec![None; kernel.instructions.len()];
    for b in &isa::blocks::build(kernel, &isa::Limits::default()).blocks {
        if let Some(slot) = block_at.get_mut(b.first) {
            *slot = Some(b.id);
        }
    }
    kernel
        .instructions
        .iter()
        .enumerate()
        .map(|(i, ins)| {
            let ctx = Ctx {
                ins,
                launch,
                layout,
                volta,
                ubase,
            };
            let guard = match &ins.guard {
                None => PredSrc {
                    idx: PT,
                    neg: false,
                },
                Some(g) => match &g.reg {
                    Register::Pred(n) if *n < 7 => PredSrc {
                        idx: *n as u8,
                        neg: g.negated,
                    },
                    Register::UniformPred(n) if *n < 7 => PredSrc {
                        idx: UPRED + *n as u8,
                        neg: g.negated,
                    },
                    Register::True => PredSrc {
                        idx: PT,
                        neg: g.negated,
                    },
                    _ => return Err(cannot(ins, "guard predicate")),
                },
            };
            // `@!PT SHFL.IDX PT, RZ, RZ, RZ, RZ` (sm_70 prologues): never executes.
            let (op, uniform) = if guard.idx == PT && guard.neg {
                (Op::Nop, false)
            } else {
                decode_op(&ctx)?
            };
            let control = control::control(ins, kernel, &block_at, i)?;
            let reads = ins.reads.iter().filter_map(slot).collect();
            let writes = ins.writes.iter().filter_map(slot).collect();
            Ok(Decoded {
                op,
                uniform,
                control,
                guard,
                reads,
                writes,
            })
        })
        .collect()
}
