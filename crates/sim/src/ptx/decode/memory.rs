//! Decoding of the memory instructions: `ld`/`st`, `atom`/`red` and `tex` (PTX ISA,
//! "Data Movement", "Parallel Synchronization" and "Texture" instructions), `tex` under the
//! texture model of [`crate::texture`].

use super::{check_modifiers, text, the_type, Ctx, R};
use crate::ptx::program::{AtomOp, Ctl, Op, Space, Src, TexHandle};
use isa::ptx::{OperandKind, ScalarType, StateSpace};

/// `ld`/`st` of the global (generic), shared, constant, local and parameter spaces, scalar
/// or vector.
pub(super) fn load_store(c: &Ctx) -> R<(Op, Ctl)> {
    let ins = c.ins;
    let opc = ins.opcode.as_str();
    check_modifiers(
        c,
        &["global", "shared", "param", "const", "local", "v2", "v4"],
    )?;
    let space = match ins.state_space() {
        Some(StateSpace::Global | StateSpace::Generic) => Space::Global,
        Some(StateSpace::Shared) => Space::Shared,
        Some(StateSpace::Const) if opc == "ld" => Space::Const,
        Some(StateSpace::Local) => Space::Local,
        // A call sequence's `.param` variable lives in the thread's local window (see
        // `layout`); the kernel's parameters are the launch's words.
        Some(StateSpace::Param)
            if param_variable(c).is_some_and(|v| c.layout.local.contains_key(v)) =>
        {
            Space::Local
        }
        Some(StateSpace::Param) if opc == "ld" => Space::Param,
        Some(s) => {
            return Err(c.no(format!("the {s:?} state space is not simulated")));
        }
        None => return Err(c.no("no state space")),
    };
    let ty = the_type(c)?;
    if ty == ScalarType::F16 || ty == ScalarType::Pred {
        return Err(c.no("this access type is not simulated"));
    }
    Ok(if opc == "ld" {
        let ds = c.regs_of_vector(c.op(0)?)?;
        if ds.len() as u32 != ins.vector_width() {
            return Err(c.no("vector width and operand count differ"));
        }
        (
            Op::Load {
                space,
                ty,
                ds,
                addr: c.addr(1, space)?,
            },
            Ctl::Next,
        )
    } else {
        let v = c.op(1)?;
        let vs = match &v.kind {
            OperandKind::Vector { elements } => elements
                .iter()
                .map(|e| c.src_of(e, ty))
                .collect::<R<Vec<_>>>()?,
            _ => vec![c.src(1, ty)?],
        };
        if vs.len() as u32 != ins.vector_width() {
            return Err(c.no("vector width and operand count differ"));
        }
        (
            Op::Store {
                space,
                ty,
                vs,
                addr: c.addr(0, space)?,
            },
            Ctl::Next,
        )
    })
}

/// The variable a `ld.param`/`st.param` addresses (`[param0+8]`).
fn param_variable<'a>(c: &'a Ctx) -> Option<&'a str> {
    c.ins.operands.iter().find_map(|o| match &o.kind {
        OperandKind::Address {
            base: Some(isa::ptx::AddressBase::Symbol(s)),
            ..
        } => Some(s.as_str()),
        _ => None,
    })
}

/// `atom{.space}.op.type d, [a], b{, c}` and `red{.space}.op.type [a], b`: global
/// (generic) and shared memory, 32- and 64-bit integers and `add.f32`/`add.f64`, the
/// operations of [`AtomOp`]; scopes and orderings (`.gpu`, `.relaxed`, …) change nothing in
/// a simulator that runs one access at a time. Vector and 16-bit forms are refused.
pub(super) fn atomic(c: &Ctx) -> R<(Op, Ctl)> {
    let ins = c.ins;
    let red = ins.opcode == "red";
    check_modifiers(
        c,
        &[
            "global", "shared", "gpu", "cta", "sys", "acquire", "release", "acq_rel", "and", "or",
            "xor", "exch", "cas", "add", "inc", "dec", "min", "max", "noftz",
        ],
    )?;
    let space = match ins.state_space() {
        Some(StateSpace::Global | StateSpace::Generic) | None => Space::Global,
        Some(StateSpace::Shared) => Space::Shared,
        Some(s) => return Err(c.no(format!("atomics in the {s:?} state space"))),
    };
    let m = |s: &str| ins.has_modifier(s);
    let op = [
        ("and", AtomOp::And),
        ("or", AtomOp::Or),
        ("xor", AtomOp::Xor),
        ("exch", AtomOp::Exch),
        ("cas", AtomOp::Cas),
        ("add", AtomOp::Add),
        ("inc", AtomOp::Inc),
        ("dec", AtomOp::Dec),
        ("min", AtomOp::Min),
        ("max", AtomOp::Max),
    ]
    .into_iter()
    .find(|(n, _)| m(n))
    .map(|(_, o)| o)
    .ok_or_else(|| c.no("no atomic operation"))?;
    let ty = the_type(c)?;
    let ok = match ty.bits() {
        32 | 64 => match op {
            AtomOp::Add => true,
            AtomOp::Inc | AtomOp::Dec => ty == ScalarType::U32,
            _ => !ty.is_float(),
        },
        _ => false,
    };
    if !ok {
        return Err(c.no(format!(
            "`{}` of this type is not simulated",
            ins.mnemonic()
        )));
    }
    let (d, first) = if red {
        (None, 0)
    } else {
        (Some(c.dest(0)?), 1)
    };
    let addr = c.addr(first, space)?;
    let b = c.src(first + 1, ty)?;
    let cc = if op == AtomOp::Cas {
        c.src(first + 2, ty)?
    } else {
        Src::Imm(0)
    };
    Ok((
        Op::Atom {
            space,
            op,
            ty,
            d,
            addr,
            b,
            c: cc,
        },
        Ctl::Next,
    ))
}

/// Decodes `tex` under the texture model of [`crate::texture`]: a 1D or 2D fetch through a
/// texture object held in a register (`[%rd4, {%f3, %f1}]`, which the parser keeps as
/// text) or through a texture reference (a `.texref` variable's name as the handle, whose
/// handle is the variable's address, [`crate::ptx::layout`]). Other shapes, explicit levels
/// and gradients are refused by name.
pub(super) fn texture_fetch(c: &Ctx) -> R<Op> {
    let ins = c.ins;
    check_modifiers(c, &["1d", "2d", "v4"])?;
    let dims = if ins.has_modifier("2d") {
        2
    } else if ins.has_modifier("1d") {
        1
    } else {
        return Err(c.no("only .1d and .2d fetches are modelled (sim::texture)"));
    };
    let float_coords = match ins.types().last() {
        Some(ScalarType::F32) => true,
        Some(ScalarType::S32) => false,
        _ => return Err(c.no("the coordinate type must be .f32 or .s32")),
    };
    let ds = c.regs_of_vector(c.op(0)?)?;
    if ds.len() != 4 || ins.operands.len() != 2 {
        return Err(c.no("expected a four-register destination and `[handle, {coordinates}]`"));
    }
    let op = c.op(1)?;
    let text = text(op);
    let inner = text
        .trim()
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| c.no(format!("`{text}` is not `[handle, {{coordinates}}]`")))?;
    let (handle, coords) = inner
        .split_once(',')
        .ok_or_else(|| c.no(format!("`{text}` is not `[handle, {{coordinates}}]`")))?;
    let handle = handle.trim();
    let handle = if handle.starts_with('%') {
        TexHandle::Reg(c.reg_name(handle)?)
    } else {
        match c.layout.globals.get(handle) {
            Some(&a) if c.layout.texrefs.contains(handle) => TexHandle::Reference(a),
            _ => {
                return Err(c.no(format!(
                    "`{handle}` is neither a register nor a texture reference of the module"
                )))
            }
        }
    };
    let coords = coords
        .trim()
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .ok_or_else(|| {
            c.no(format!(
                "`{text}`: the coordinates must be a vector `{{x, y}}`"
            ))
        })?
        .split(',')
        .map(|r| c.reg_name(r.trim()))
        .collect::<R<Vec<u32>>>()?;
    if coords.len() != dims {
        return Err(c.no(format!("a .{dims}d fetch takes {dims} coordinate(s)")));
    }
    Ok(Op::Tex {
        ds,
        handle,
        coords,
        float_coords,
    })
}
