//! Decoding of the GCN3 vector memory instructions: `flat_*` and `global_*` (AMD GCN3 ISA
//! chapter 9 "Flat Memory Instructions") and `ds_*` on the work-group's LDS (chapter 10 "Data
//! Share Operations").

use super::{err, Atomic, AtomicSpace, Mem, Op, Scratch, VMem};
use crate::atomic_op::{AtomOp, Kind};
use crate::gcn::operand::Opnd;
use isa::gcn::{GcnOperand, GcnOperandKind};

/// `flat_*`/`global_*` (`r`: the mnemonic after the prefix).
pub(super) fn vector_memory(
    full: &str,
    mem: Mem,
    r: &str,
    ops: &[&GcnOperand],
    arg: &dyn Fn(usize) -> Result<Opnd, String>,
    modifier: &dyn Fn(&str) -> Result<i64, String>,
    glc: bool,
) -> Result<Op, String> {
    let (store, size) = if let Some(s) = r.strip_prefix("load_") {
        (false, s)
    } else if let Some(s) = r.strip_prefix("store_") {
        (true, s)
    } else if let Some(a) = r.strip_prefix("atomic_") {
        return vector_atomic(full, mem, a, ops, arg, modifier, glc);
    } else {
        return err(full, "no semantics for this memory operation");
    };
    let (bytes, sign) = access_size(full, size)?;
    let (data, addr) = if store {
        (arg(1)?, arg(0)?)
    } else {
        (arg(0)?, arg(1)?)
    };
    let saddr = match ops.get(2).map(|o| &o.kind) {
        Some(GcnOperandKind::Sgpr { .. }) => Some(arg(2)?),
        _ => None,
    };
    if saddr.is_none() && addr.count < 2 {
        return err(full, "a 64-bit address needs a VGPR pair");
    }
    Ok(Op::VMem(VMem {
        mem,
        store,
        bytes,
        sign,
        data,
        addr,
        saddr,
        offset: modifier("offset")?,
    }))
}

/// The bytes and signedness of a load or store named by its size suffix (`ubyte`, `sshort`,
/// `dwordx3`, …): the same suffixes for FLAT/global and buffer accesses.
fn access_size(full: &str, size: &str) -> Result<(u64, bool), String> {
    Ok(match size {
        "ubyte" | "byte" => (1, false),
        "sbyte" => (1, true),
        "ushort" | "short" => (2, false),
        "sshort" => (2, true),
        "dword" => (4, false),
        "dwordx2" => (8, false),
        "dwordx3" => (12, false),
        "dwordx4" => (16, false),
        _ => return err(full, format!("access size `{size}` is not simulated")),
    })
}

/// The operation and operand kind of a 32-bit atomic named `name` (FLAT: `add`, `sub`,
/// `swap`, `cmpswap`, `smin`, `umin`, `smax`, `umax`, `and`, `or`, `xor`, `inc`, `dec`; DS:
/// the same with `_u32`/`_i32`/`_b32` suffixes, `wrxchg` for `swap`).
fn atomic_of(name: &str) -> Option<(AtomOp, Kind)> {
    use AtomOp::*;
    use Kind::*;
    Some(match name {
        "add" | "add_u32" => (Add, Unsigned),
        "sub" | "sub_u32" => (Sub, Unsigned),
        "swap" | "wrxchg_b32" => (Exch, Unsigned),
        "cmpswap" => (Cas, Unsigned),
        "smin" | "min_i32" => (Min, Signed),
        "umin" | "min_u32" => (Min, Unsigned),
        "smax" | "max_i32" => (Max, Signed),
        "umax" | "max_u32" => (Max, Unsigned),
        "and" | "and_b32" => (And, Unsigned),
        "or" | "or_b32" => (Or, Unsigned),
        "xor" | "xor_b32" => (Xor, Unsigned),
        "inc" | "inc_u32" => (Inc, Unsigned),
        "dec" | "dec_u32" => (Dec, Unsigned),
        _ => return None,
    })
}

/// `flat_atomic_*`/`global_atomic_*` (GCN3 ISA ch. 12, FLAT opcodes): `vdst, vaddr,
/// vdata` with `glc` (the old value returned), `vaddr, vdata` without; `cmpswap`'s data is
/// a pair (new value, compared value). 64-bit (`_x2`) forms are refused.
fn vector_atomic(
    full: &str,
    mem: Mem,
    name: &str,
    ops: &[&GcnOperand],
    arg: &dyn Fn(usize) -> Result<Opnd, String>,
    modifier: &dyn Fn(&str) -> Result<i64, String>,
    glc: bool,
) -> Result<Op, String> {
    let Some((op, kind)) = atomic_of(name) else {
        return err(full, "64-bit and float atomics are not simulated");
    };
    let first = usize::from(glc);
    let ret = if glc { Some(arg(0)?) } else { None };
    let (addr, data) = (arg(first)?, arg(first + 1)?);
    let saddr = match ops.get(first + 2).map(|o| &o.kind) {
        Some(GcnOperandKind::Sgpr { .. }) if mem == Mem::Global => Some(arg(first + 2)?),
        _ => None,
    };
    if saddr.is_none() && addr.count < 2 {
        return err(full, "a 64-bit address needs a VGPR pair");
    }
    if op == AtomOp::Cas && data.count < 2 {
        return err(full, "cmpswap takes a data pair (value, compared value)");
    }
    let offset = modifier("offset")?;
    Ok(Op::Atomic(Atomic {
        op,
        kind,
        ret,
        addr,
        data,
        space: AtomicSpace::Global { saddr, offset },
    }))
}

/// `ds_<op>_b32 vaddr, vdata` and `ds_<op>_rtn_b32 vdst, vaddr, vdata` (GCN3 ISA ch. 12,
/// DS opcodes: LDS atomics on the work-group's LDS).
fn lds_atomic(
    full: &str,
    r: &str,
    arg: &dyn Fn(usize) -> Result<Opnd, String>,
    modifier: &dyn Fn(&str) -> Result<i64, String>,
) -> Result<Op, String> {
    let (returning, name) = match r.split_once("_rtn") {
        Some((head, tail)) => (true, format!("{head}{tail}")),
        None => (false, r.to_string()),
    };
    let Some((op, kind)) = atomic_of(&name) else {
        return err(full, "this DS operation is not simulated");
    };
    let first = usize::from(returning);
    Ok(Op::Atomic(Atomic {
        op,
        kind,
        ret: if returning { Some(arg(0)?) } else { None },
        addr: arg(first)?,
        data: arg(first + 1)?,
        space: AtomicSpace::Lds {
            offset: modifier("offset")? as u64,
        },
    }))
}

/// `buffer_load_*`/`buffer_store_*` (GCN3 ISA ch. 8 "Vector Memory Operations", MUBUF):
/// `vdata, vaddr|off, s[rsrc:rsrc+3], soffset [offen] [offset:N]`. HIP code for GFX8 uses
/// them only for the private segment (register spills, private arrays), through the
/// private segment buffer the ABI gives (`s[0:3]` at entry, often copied): so they are
/// read as the lane's private bytes `soffset + offset (+ vaddr with offen)`, the model of
/// the front end's scratch. Indexed (`idxen`), `addr64`, `lds` and `tfe` forms are refused.
pub(super) fn buffer(
    full: &str,
    r: &str,
    ops: &[&GcnOperand],
    arg: &dyn Fn(usize) -> Result<Opnd, String>,
    ins: &isa::gcn::GcnInstruction,
) -> Result<Op, String> {
    let has = |m: &str| ins.modifiers.iter().any(|x| x.name == m);
    for m in ["idxen", "addr64", "lds", "tfe"] {
        if has(m) {
            return err(full, format!("`{m}` buffer accesses are not simulated"));
        }
    }
    let (store, size) = if let Some(s) = r.strip_prefix("load_") {
        (false, s)
    } else if let Some(s) = r.strip_prefix("store_") {
        (true, s)
    } else {
        return err(
            full,
            "only buffer loads and stores (of the private segment) are simulated",
        );
    };
    let (bytes, sign) = access_size(full, size)?;
    let off = |i: usize| matches!(ops.get(i).map(|o| &o.kind), Some(GcnOperandKind::Expr { text }) if text == "off");
    let vaddr = if off(1) { None } else { Some(arg(1)?) };
    if has("offen") != vaddr.is_some() {
        return err(
            full,
            "a VGPR address needs `offen` (and `offen` a VGPR address)",
        );
    }
    let offset = ins
        .modifiers
        .iter()
        .find(|m| m.name == "offset")
        .and_then(|m| m.value.as_deref())
        .and_then(isa::number::parse_uint)
        .unwrap_or(0);
    Ok(Op::Scratch(Scratch {
        store,
        bytes,
        sign,
        data: arg(0)?,
        vaddr,
        soffset: arg(3)?,
        offset,
    }))
}

/// `ds_*` (`r`: the mnemonic after the prefix).
pub(super) fn lds(
    full: &str,
    r: &str,
    arg: &dyn Fn(usize) -> Result<Opnd, String>,
    modifier: &dyn Fn(&str) -> Result<i64, String>,
) -> Result<Op, String> {
    let read = r.starts_with("read");
    let write = r.starts_with("write");
    if !read && !write {
        return lds_atomic(full, r, arg, modifier);
    }
    let two = r.starts_with("read2") || r.starts_with("write2");
    let st64 = r.contains("st64");
    let size = r.rsplit('_').next().unwrap_or("");
    let (bytes, sign) = match size {
        "b32" => (4, false),
        "b64" => (8, false),
        "b96" => (12, false),
        "b128" => (16, false),
        "u8" | "b8" => (1, false),
        "i8" => (1, true),
        "u16" | "b16" => (2, false),
        "i16" => (2, true),
        _ => return err(full, format!("LDS size `{size}` is not simulated")),
    };
    let offsets = if two {
        let scale = bytes * if st64 { 64 } else { 1 };
        vec![
            (modifier("offset0")? as u64).wrapping_mul(scale),
            (modifier("offset1")? as u64).wrapping_mul(scale),
        ]
    } else {
        vec![modifier("offset")? as u64]
    };
    let (addr, data) = if read {
        (arg(1)?, vec![arg(0)?])
    } else if two {
        (arg(0)?, vec![arg(1)?, arg(2)?])
    } else {
        (arg(0)?, vec![arg(1)?])
    };
    Ok(Op::Ds {
        store: write,
        bytes,
        sign,
        data,
        addr,
        offsets,
    })
}
