//! PTX instructions decoded into the simulator's executable form ([`super::program::Op`]):
//! operands resolved to register indices, immediates (as the bits of the instruction's type),
//! special registers, parameter offsets and shared addresses; the opcode checked against the
//! semantics of [`super::semantics`]. Anything else decodes to a "cannot simulate OPCODE: why"
//! message, which stops the run only if a warp reaches the instruction. Control and moves are
//! here; the other families in [`arithmetic`] and [`memory`].

mod arithmetic;
mod memory;

use super::layout::Layout;
use super::program::{operand_text, Addr, Ctl, IntOp, Op, Space, Special, Src};
use isa::ptx::{AddressBase, Instruction, Operand, OperandKind, ScalarType};

pub(crate) type R<T> = Result<T, String>;

pub(crate) struct Ctx<'a> {
    pub(crate) ins: &'a Instruction,
    pub(crate) layout: &'a Layout,
    pub(crate) labels: &'a std::collections::BTreeMap<String, usize>,
}

impl Ctx<'_> {
    fn no(&self, why: impl std::fmt::Display) -> String {
        format!("cannot simulate {}: {why}", self.ins.mnemonic())
    }

    fn op(&self, i: usize) -> R<&Operand> {
        self.ins
            .operands
            .get(i)
            .ok_or_else(|| self.no(format!("missing operand {}", i + 1)))
    }

    pub(crate) fn reg_name(&self, name: &str) -> R<u32> {
        self.layout
            .registers
            .get(name)
            .copied()
            .ok_or_else(|| self.no(format!("unknown register `{name}`")))
    }

    fn dest(&self, i: usize) -> R<u32> {
        let op = self.op(i)?;
        match &op.kind {
            OperandKind::Register { name } => self.reg_name(name),
            _ => Err(self.no(format!("destination `{}` is not a register", text(op)))),
        }
    }

    /// A source; immediates become the bits of type `ty`.
    fn src(&self, i: usize, ty: ScalarType) -> R<Src> {
        let op = self.op(i)?;
        self.src_of(op, ty)
    }

    fn src_of(&self, op: &Operand, ty: ScalarType) -> R<Src> {
        Ok(match &op.kind {
            OperandKind::Register { name } => Src::Reg(self.reg_name(name)?),
            OperandKind::Int { value } => Src::Imm(if ty.is_float() {
                float_bits(*value as f64, ty)
            } else {
                *value as u64
            }),
            OperandKind::Float { value } => {
                if ty.is_float() {
                    Src::Imm(float_bits(*value, ty))
                } else {
                    return Err(self.no("a float literal as an integer operand"));
                }
            }
            OperandKind::Special { name, component } => {
                match Special::of(name, component.as_deref()) {
                    Some(
                        sp @ (Special::Tid(_)
                        | Special::Ntid(_)
                        | Special::Ctaid(_)
                        | Special::Nctaid(_)
                        | Special::LaneId
                        | Special::WarpId),
                    ) => Src::Special(sp),
                    _ => {
                        return Err(
                            self.no(format!("special register `{}` is not simulated", text(op)))
                        )
                    }
                }
            }
            OperandKind::Symbol { name } => Src::Imm(self.symbol(name)?),
            _ => return Err(self.no(format!("operand `{}` is not supported", text(op)))),
        })
    }

    /// The address of variable `name` in its own space (`mov.u64 %rd, var`): a shared
    /// offset, a module variable's global address, or a local offset ([`Layout`]).
    fn symbol(&self, name: &str) -> R<u64> {
        let l = self.layout;
        l.shared
            .get(name)
            .or_else(|| l.globals.get(name))
            .or_else(|| l.local.get(name))
            .copied()
            .ok_or_else(|| {
                self.no(format!(
                    "`{name}` is not a variable of this kernel or of its module (shared, local, global, constant or texture reference)"
                ))
            })
    }

    fn pred(&self, i: usize) -> R<(u32, bool)> {
        let op = self.op(i)?;
        match &op.kind {
            OperandKind::Register { name } => Ok((self.reg_name(name)?, false)),
            OperandKind::Not { inner } => match &inner.kind {
                OperandKind::Register { name } => Ok((self.reg_name(name)?, true)),
                _ => Err(self.no("`!` of a non-register")),
            },
            _ => Err(self.no(format!("`{}` is not a predicate", text(op)))),
        }
    }

    fn regs_of_vector(&self, op: &Operand) -> R<Vec<Option<u32>>> {
        match &op.kind {
            OperandKind::Vector { elements } => elements
                .iter()
                .map(|e| match &e.kind {
                    OperandKind::Register { name } => self.reg_name(name).map(Some),
                    OperandKind::Sink => Ok(None),
                    _ => Err(self.no("vector element is not a register")),
                })
                .collect(),
            OperandKind::Register { name } => Ok(vec![Some(self.reg_name(name)?)]),
            _ => Err(self.no(format!("`{}` is not a register or vector", text(op)))),
        }
    }

    fn addr(&self, i: usize, space: Space) -> R<Addr> {
        let op = self.op(i)?;
        let OperandKind::Address { base, offset } = &op.kind else {
            return Err(self.no(format!("`{}` is not an address", text(op))));
        };
        Ok(match base {
            Some(AddressBase::Register(r)) if space != Space::Param => {
                Addr::Reg(self.reg_name(r)?, *offset)
            }
            Some(AddressBase::Symbol(s)) => {
                let l = self.layout;
                let base = match space {
                    Space::Param => l.params.get(s).map(|p| p.0),
                    Space::Shared => l.shared.get(s).copied(),
                    Space::Global | Space::Const => l.globals.get(s).copied(),
                    Space::Local => l.local.get(s).copied(),
                };
                let Some(b) = base else {
                    return Err(self.no(format!(
                        "`{s}` is not a {} variable of this kernel or its module",
                        match space {
                            Space::Param => "parameter",
                            Space::Shared => "shared",
                            Space::Global => "global",
                            Space::Const => "constant",
                            Space::Local => "local",
                        }
                    )));
                };
                Addr::Abs(b.wrapping_add_signed(*offset))
            }
            None => Addr::Abs(*offset as u64),
            Some(AddressBase::Register(_)) => {
                return Err(self.no("a register address into the parameter space"))
            }
        })
    }
}

fn text(op: &Operand) -> String {
    operand_text(op)
}

fn float_bits(v: f64, ty: ScalarType) -> u64 {
    if ty == ScalarType::F64 {
        v.to_bits()
    } else {
        u64::from((v as f32).to_bits())
    }
}

/// The single type of an arithmetic instruction (the last type modifier).
fn the_type(c: &Ctx) -> R<ScalarType> {
    c.ins
        .types()
        .last()
        .copied()
        .ok_or_else(|| c.no("no type modifier"))
}

const IGNORED: [&str; 11] = [
    "ca", "cg", "cs", "lu", "cv", "nc", "wb", "wt", "volatile", "relaxed", "weak",
];

fn check_modifiers(c: &Ctx, allowed: &[&str]) -> R<()> {
    for m in &c.ins.modifiers {
        if ScalarType::from_modifier(m).is_none()
            && !allowed.contains(&m.as_str())
            && !IGNORED.contains(&m.as_str())
        {
            return Err(c.no(format!("modifier `.{m}` is not simulated")));
        }
    }
    Ok(())
}

pub(crate) fn decode_one(c: &Ctx) -> R<(Op, Ctl, Vec<u32>)> {
    let ins = c.ins;
    let m = |s: &str| ins.has_modifier(s);
    let opc = ins.opcode.as_str();
    let (op, ctl) = match opc {
        "bra" => {
            check_modifiers(c, &["uni"])?;
            let target = match c.op(0)?.kind {
                OperandKind::Symbol { ref name } => c
                    .labels
                    .get(name)
                    .copied()
                    .ok_or_else(|| c.no(format!("unknown label `{name}`")))?,
                _ => return Err(c.no("the target is not a label")),
            };
            (
                Op::Nop,
                Ctl::Branch {
                    target,
                    uniform: m("uni"),
                },
            )
        }
        "ret" | "exit" => {
            check_modifiers(c, &["uni"])?;
            (Op::Nop, Ctl::Exit)
        }
        "bar" | "barrier" => {
            check_modifiers(c, &["sync", "cta", "aligned"])?;
            if !(m("sync") || opc == "barrier") {
                return Err(c.no("only bar.sync is simulated"));
            }
            if ins.operands.len() > 1 {
                return Err(c.no("barriers with a thread count are not simulated"));
            }
            match ins.operands.first().map(|o| &o.kind) {
                None | Some(OperandKind::Int { value: 0 }) => {}
                _ => return Err(c.no("only barrier 0 is simulated")),
            }
            (Op::Barrier, Ctl::Next)
        }
        "membar" | "fence" => (Op::Nop, Ctl::Next),
        "mov" => {
            check_modifiers(c, &[])?;
            let ty = the_type(c)?;
            let bits = ty.bits();
            match (&c.op(0)?.kind, &c.op(1)?.kind) {
                (OperandKind::Vector { elements }, _) => {
                    let ds = c.regs_of_vector(c.op(0)?)?;
                    let a = c.src(1, ty)?;
                    if elements.is_empty() || bits % elements.len() as u32 != 0 {
                        return Err(c.no("vector width does not divide the type"));
                    }
                    let part_bits = bits / elements.len() as u32;
                    (Op::Unpack { ds, a, part_bits }, Ctl::Next)
                }
                (_, OperandKind::Vector { elements }) => {
                    let d = c.dest(0)?;
                    if elements.is_empty() || bits % elements.len() as u32 != 0 {
                        return Err(c.no("vector width does not divide the type"));
                    }
                    let part_bits = bits / elements.len() as u32;
                    let pty = match part_bits {
                        8 => ScalarType::B8,
                        16 => ScalarType::B16,
                        32 => ScalarType::B32,
                        _ => ScalarType::B64,
                    };
                    let parts = elements
                        .iter()
                        .map(|e| c.src_of(e, pty))
                        .collect::<R<Vec<_>>>()?;
                    (
                        Op::Pack {
                            d,
                            parts,
                            part_bits,
                        },
                        Ctl::Next,
                    )
                }
                _ => (
                    Op::Mov {
                        d: c.dest(0)?,
                        a: c.src(1, ty)?,
                        bits,
                    },
                    Ctl::Next,
                ),
            }
        }
        "cvta" => {
            // PTX ISA, "Data Movement and Conversion Instructions: cvta": `cvta.space` converts a state-space address to a generic
            // one, `cvta.to.space` back. Global and constant addresses are generic ones
            // here (one flat space); local ones are offset by the generic local base.
            check_modifiers(c, &["to", "global", "const", "local"])?;
            let bits = the_type(c)?.bits();
            let (d, a) = (c.dest(0)?, c.src(1, ScalarType::U64)?);
            let op = if m("local") {
                let base = super::layout::GENERIC_LOCAL_BASE;
                Op::Int {
                    op: if m("to") { IntOp::Sub } else { IntOp::Add },
                    ty: if bits == 64 {
                        ScalarType::U64
                    } else {
                        ScalarType::U32
                    },
                    d,
                    a,
                    b: Src::Imm(base),
                    c: Src::Imm(0),
                }
            } else if m("global") || m("const") {
                Op::Mov { d, a, bits }
            } else {
                return Err(c.no(
                    "only global, constant and local addresses are simulated; generic shared addresses are not",
                ));
            };
            (op, Ctl::Next)
        }
        "add" | "sub" | "mul" | "mad" | "fma" | "div" | "rem" | "min" | "max" | "and" | "or"
        | "xor" | "shl" | "shr" | "neg" | "abs" | "not" | "sqrt" | "rsqrt" | "rcp" | "lg2"
        | "ex2" | "sin" | "cos" | "clz" | "popc" | "brev" => arithmetic::arithmetic(c)?,
        "bfe" => arithmetic::bfe(c)?,
        "bfi" => arithmetic::bfi(c)?,
        "atom" | "red" => memory::atomic(c)?,
        "setp" => arithmetic::setp(c)?,
        "selp" => arithmetic::selp(c)?,
        "cvt" => arithmetic::cvt(c)?,
        "ld" | "st" => memory::load_store(c)?,
        "tex" => (memory::texture_fetch(c)?, Ctl::Next),
        other => {
            return Err(c.no(format!(
                "`{other}` has no semantics in the simulator (supported: mov, arithmetic, logic, bfe, bfi, clz, popc, brev, setp, selp, cvt, cvta, ld/st .global/.shared/.const/.local/.param, atom, red, tex.1d/.2d, bra, ret, exit, bar.sync)"
            )))
        }
    };
    let writes = match &op {
        Op::Mov { d, .. }
        | Op::Pack { d, .. }
        | Op::Int { d, .. }
        | Op::Float { d, .. }
        | Op::Setp { d, .. }
        | Op::Selp { d, .. }
        | Op::Cvt { d, .. }
        | Op::Bfe { d, .. }
        | Op::Bfi { d, .. } => vec![*d],
        Op::Atom { d, .. } => d.iter().copied().collect(),
        Op::Unpack { ds, .. } | Op::Load { ds, .. } | Op::Tex { ds, .. } => {
            ds.iter().flatten().copied().collect()
        }
        _ => Vec::new(),
    };
    Ok((op, ctl, writes))
}
