//! Decoding of the GCN3 vector memory instructions: `flat_*` and `global_*` (AMD GCN3 ISA
//! chapter 9 "Flat Memory Instructions") and `ds_*` on the work-group's LDS (chapter 10 "Data
//! Share Operations").

use super::{err, Mem, Op, VMem};
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
) -> Result<Op, String> {
    let (store, size) = if let Some(s) = r.strip_prefix("load_") {
        (false, s)
    } else if let Some(s) = r.strip_prefix("store_") {
        (true, s)
    } else {
        return err(full, "atomics are not simulated");
    };
    let (bytes, sign) = match size {
        "ubyte" | "byte" => (1, false),
        "sbyte" => (1, true),
        "ushort" | "short" => (2, false),
        "sshort" => (2, true),
        "dword" => (4, false),
        "dwordx2" => (8, false),
        "dwordx4" => (16, false),
        _ => return err(full, format!("access size `{size}` is not simulated")),
    };
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
        return err(
            full,
            "LDS atomics and other DS operations are not simulated",
        );
    }
    let two = r.starts_with("read2") || r.starts_with("write2");
    let st64 = r.contains("st64");
    let size = r.rsplit('_').next().unwrap_or("");
    let (bytes, sign) = match size {
        "b32" => (4, false),
        "b64" => (8, false),
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
