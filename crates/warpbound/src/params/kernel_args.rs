//! A PTX kernel's arguments (its launch parameters): the request's `params` text, or, when
//! it gives none for a kernel that has parameters, values chosen automatically
//! (`params=auto`), so that a kernel pasted as nvcc wrote it gets an analysis at once.
//!
//! The automatic values (documented in the catalogue and shown in the report's `arguments`):
//!
//! - a **pointer** parameter (a 64-bit integer parameter whose value the kernel uses as an
//!   address: the source of a `cvta`, or the base of a load or store address) gets a base
//!   address of its own: the k-th pointer (from 0) points at [`POINTER_BASE`] + k ·
//!   [`POINTER_STRIDE`], i.e. 1 MiB, 2 MiB, 3 MiB …: distinct, 256-byte aligned (so every
//!   array starts a 128-byte segment and a memory partition), and non-overlapping for arrays
//!   up to 1 MiB;
//! - an **integer** scalar (every other integer, predicate or untyped `.b` parameter,
//!   including 64-bit ones such as `size_t n` and function pointers) gets
//!   [`AUTO_INTEGER`] = 64 — a texture object (the handle of a `tex` fetch) is a pointer:
//!   in the simulator's texture model (`sim::texture`) it is the address of its texels;
//! - a **float** scalar gets [`AUTO_FLOAT`] = 1.0;
//! - a by-value **struct** (`.param .align 8 .b8 p[16]`) gets zero bytes.
//!
//! They are one input among many: the analysis is for that input (loop trip counts that
//! depend on a scalar follow 64), and the report says they were chosen automatically.

use crate::params::number;
use crate::report::{ArgumentKind, ArgumentSource, KernelArgument, KernelArguments};
use isa::ptx::{AddressBase, Function, OperandKind, ScalarType, VarDecl};
use isa::{Diagnostic, Severity};
use roundrobin::ParamValue;
use std::collections::{BTreeMap, BTreeSet};

/// Where the first automatic pointer points: 1 MiB.
pub const POINTER_BASE: u64 = 0x10_0000;
/// How far apart automatic pointers are: 1 MiB.
pub const POINTER_STRIDE: u64 = 0x10_0000;
/// The automatic value of an integer scalar.
pub const AUTO_INTEGER: i64 = 64;
/// The automatic value of a float scalar.
pub const AUTO_FLOAT: f64 = 1.0;

/// Whether the `params` text asks for automatic values: empty, or `auto`.
pub fn is_auto(text: &str) -> bool {
    let t = text.trim();
    t.is_empty() || t.eq_ignore_ascii_case("auto")
}

/// The parameters each register holds: loaded by `ld.param`, then copied by `mov`/`cvta` or
/// offset by `add`/`sub`.
fn param_registers(f: &Function) -> BTreeMap<String, BTreeSet<String>> {
    let mut holds: BTreeMap<String, BTreeSet<String>> = BTreeMap::new(); // register → params
    for ins in &f.instructions {
        let Some(dest) = ins.operands.first().and_then(|o| o.register()) else {
            continue;
        };
        if ins.opcode == "ld" {
            if let Some(OperandKind::Address {
                base: Some(AddressBase::Symbol(p)),
                ..
            }) = ins.operands.get(1).map(|o| &o.kind)
            {
                if f.param_index(p).is_some() {
                    holds.entry(dest.to_string()).or_default().insert(p.clone());
                }
            }
        } else if matches!(ins.opcode.as_str(), "mov" | "cvta" | "add" | "sub") {
            let from: BTreeSet<String> = ins.operands[1..]
                .iter()
                .filter_map(|o| o.register())
                .filter_map(|r| holds.get(r))
                .flatten()
                .cloned()
                .collect();
            if !from.is_empty() {
                holds.entry(dest.to_string()).or_default().extend(from);
            }
        }
    }
    holds
}

/// The handle register of a `tex` instruction (`[%rd4, {%f3, %f1}]`, which the parser keeps
/// as text).
fn texture_handle(ins: &isa::ptx::Instruction) -> Option<&str> {
    if ins.opcode != "tex" {
        return None;
    }
    match &ins.operands.get(1)?.kind {
        OperandKind::Other { text } => {
            let h = text.trim().strip_prefix('[')?.split(',').next()?.trim();
            h.starts_with('%').then_some(h)
        }
        _ => None,
    }
}

/// The parameters of `f` that are texture objects: the handle of a `tex` fetch. In the
/// simulator's texture model (`sim::texture`) a handle is the address of its texels, so
/// they are pointers too ([`pointer_params`]).
pub fn texture_params(f: &Function) -> BTreeSet<String> {
    let holds = param_registers(f);
    f.instructions
        .iter()
        .filter_map(texture_handle)
        .filter_map(|h| holds.get(h))
        .flatten()
        .cloned()
        .collect()
}

/// The parameters of `f` whose value is used as an address: a register loaded from one
/// ([`param_registers`]) is the source of a `cvta`, the base of a memory operand, or the
/// handle of a texture fetch.
fn pointer_params(f: &Function) -> BTreeSet<String> {
    let holds = param_registers(f);
    let mut out = texture_params(f);
    for ins in &f.instructions {
        if ins.opcode == "cvta" {
            if let Some(ps) = ins
                .operands
                .get(1)
                .and_then(|o| o.register())
                .and_then(|r| holds.get(r))
            {
                out.extend(ps.iter().cloned());
            }
        }
        for op in &ins.operands {
            if let OperandKind::Address {
                base: Some(AddressBase::Register(r)),
                ..
            } = &op.kind
            {
                if let Some(ps) = holds.get(r) {
                    out.extend(ps.iter().cloned());
                }
            }
        }
    }
    out
}

fn kind_of(decl: &VarDecl, pointers: &BTreeSet<String>) -> ArgumentKind {
    let ty = ScalarType::from_modifier(&decl.ty);
    if !decl.dims.is_empty() {
        return ArgumentKind::Bytes;
    }
    match ty {
        Some(t) if t.is_float() => ArgumentKind::Float,
        Some(t) if t.bytes() == 8 && pointers.contains(&decl.name) => ArgumentKind::Pointer,
        _ => ArgumentKind::Integer,
    }
}

/// The automatic values of `f`'s parameters, in declaration order.
pub fn auto(f: &Function) -> Vec<ParamValue> {
    let pointers = pointer_params(f);
    let mut next_pointer = 0u64;
    f.params
        .iter()
        .map(|decl| match kind_of(decl, &pointers) {
            ArgumentKind::Pointer => {
                let a = POINTER_BASE.saturating_add(next_pointer.saturating_mul(POINTER_STRIDE));
                next_pointer += 1;
                ParamValue::Int(a as i64)
            }
            ArgumentKind::Integer => ParamValue::Int(AUTO_INTEGER),
            ArgumentKind::Float => ParamValue::Float(AUTO_FLOAT),
            ArgumentKind::Bytes => ParamValue::Bytes(vec![
                0;
                decl.size_bytes().unwrap_or(8).min(1 << 16)
                    as usize
            ]),
        })
        .collect()
}

/// Kernel parameter values as the `rr` mode's `params` text reads them: whole numbers
/// (decimal or 0x-hex, negative allowed) or decimals, comma-separated.
pub fn parse_values(text: &str) -> Result<Vec<ParamValue>, Diagnostic> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| match (number::integer(t), number::real(t)) {
            (Some(i), _) => Ok(ParamValue::Int(i)),
            (None, Some(f)) => Ok(ParamValue::Float(f)),
            (None, None) => Err(Diagnostic::global(
                Severity::Error,
                format!("parameter `params`: `{t}` is not a number"),
            )),
        })
        .collect()
}

/// A value as the `params` text writes it (pointers in hex; a struct as 0, its bytes zero).
fn text_of(kind: ArgumentKind, v: &ParamValue) -> String {
    match (kind, v) {
        (ArgumentKind::Pointer, ParamValue::Int(i)) => format!("{:#x}", *i as u64),
        (_, ParamValue::Int(i)) => i.to_string(),
        (_, ParamValue::Float(x)) if x.fract() == 0.0 && x.abs() < 1e15 => format!("{x:.1}"),
        (_, ParamValue::Float(x)) => x.to_string(),
        (_, ParamValue::Bytes(b)) if b.iter().all(|&x| x == 0) => "0".into(),
        (_, ParamValue::Bytes(b)) => {
            let mut v = [0u8; 8];
            for (d, s) in v.iter_mut().zip(b) {
                *d = *s;
            }
            i64::from_le_bytes(v).to_string()
        }
    }
}

fn json_of(v: &ParamValue) -> serde_json::Value {
    match v {
        ParamValue::Int(i) => serde_json::json!(i),
        ParamValue::Float(x) => serde_json::json!(x),
        ParamValue::Bytes(b) => serde_json::json!(b),
    }
}

/// Kernel parameter values laid out as the PTX ABI places them (declaration order, each at
/// its alignment, little-endian), as the simulator's 32-bit parameter words.
pub fn words(f: &Function, values: &[ParamValue]) -> Vec<u32> {
    let mut bytes: Vec<u8> = Vec::new();
    for (decl, v) in f.params.iter().zip(values) {
        let size = decl.size_bytes().unwrap_or(8).min(64) as usize;
        let align = decl.align.map_or(size.max(1), |a| a.clamp(1, 64) as usize);
        bytes.resize(bytes.len().div_ceil(align) * align, 0);
        let raw: Vec<u8> = match v {
            ParamValue::Int(i) => i.to_le_bytes().to_vec(),
            ParamValue::Float(x) if size == 4 => (*x as f32).to_le_bytes().to_vec(),
            ParamValue::Float(x) => x.to_le_bytes().to_vec(),
            ParamValue::Bytes(b) => b.clone(),
        };
        bytes.extend((0..size).map(|k| raw.get(k).copied().unwrap_or(0)));
    }
    bytes
        .chunks(4)
        .map(|c| c.iter().rev().fold(0u32, |w, &b| (w << 8) | u32::from(b)))
        .collect()
}

/// Each parameter's byte offset and size in the words of [`words`] (the same layout:
/// declaration order, each at its alignment), for reading a parameter back from them.
pub fn param_offsets(f: &Function) -> Vec<(String, usize, usize)> {
    let mut at = 0usize;
    f.params
        .iter()
        .map(|decl| {
            let size = decl.size_bytes().unwrap_or(8).min(64) as usize;
            let align = decl.align.map_or(size.max(1), |a| a.clamp(1, 64) as usize);
            at = at.div_ceil(align) * align;
            let o = at;
            at += size;
            (decl.name.clone(), o, size)
        })
        .collect()
}

/// The values `words` give each parameter of `f` (the inverse of [`words`] for the
/// parameters the words cover): for the report of a `simulate` run.
pub fn from_words(f: &Function, words: &[u32]) -> Vec<ParamValue> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let pointers = pointer_params(f);
    let mut off = 0usize;
    let mut out = Vec::new();
    for decl in &f.params {
        let size = decl.size_bytes().unwrap_or(8).min(64) as usize;
        let align = decl.align.map_or(size.max(1), |a| a.clamp(1, 64) as usize);
        off = off.div_ceil(align) * align;
        let Some(raw) = bytes.get(off..off + size) else {
            break;
        };
        off += size;
        let mut v = [0u8; 8];
        for (d, s) in v.iter_mut().zip(raw) {
            *d = *s;
        }
        out.push(match kind_of(decl, &pointers) {
            ArgumentKind::Bytes => ParamValue::Bytes(raw.to_vec()),
            ArgumentKind::Float if size == 4 => {
                ParamValue::Float(f64::from(f32::from_le_bytes([v[0], v[1], v[2], v[3]])))
            }
            ArgumentKind::Float => ParamValue::Float(f64::from_le_bytes(v)),
            _ if size < 8 => {
                let bits = size as u32 * 8;
                let x = u64::from_le_bytes(v) & ((1u64 << bits) - 1);
                ParamValue::Int(x as i64)
            }
            _ => ParamValue::Int(i64::from_le_bytes(v)),
        });
    }
    out
}

/// The report's `arguments`: each parameter of `f` with its value and where it came from;
/// `params` is the text that gives exactly these values (32-bit words when `as_words`, the
/// form the `simulate` mode reads; values otherwise, the `rr` mode's).
pub fn report(
    f: &Function,
    values: &[ParamValue],
    source: ArgumentSource,
    as_words: bool,
) -> KernelArguments {
    let pointers = pointer_params(f);
    let list: Vec<KernelArgument> = f
        .params
        .iter()
        .zip(values)
        .map(|(decl, v)| {
            let kind = kind_of(decl, &pointers);
            let dims: String = decl
                .dims
                .iter()
                .map(|d| d.map_or("[]".to_string(), |n| format!("[{n}]")))
                .collect();
            KernelArgument {
                name: decl.name.clone(),
                ty: format!(".{}{dims}", decl.ty),
                kind,
                value: json_of(v),
                text: text_of(kind, v),
                source,
            }
        })
        .collect();
    let params = if as_words {
        words(f, values)
            .iter()
            .map(|w| format!("{w:#x}"))
            .collect::<Vec<_>>()
            .join(",")
    } else {
        list.iter()
            .map(|a| a.text.as_str())
            .collect::<Vec<_>>()
            .join(",")
    };
    KernelArguments {
        values: list,
        params,
        memory: String::new(),
        textures: String::new(),
        outside: Vec::new(),
    }
}

/// The note that says the values were chosen automatically, naming them.
pub fn auto_note(args: &KernelArguments, simulate: bool) -> Diagnostic {
    let shown: Vec<String> = args
        .values
        .iter()
        .map(|a| format!("{} = {}", a.name, a.text))
        .collect();
    let mut m = format!(
        "no `params` given: the kernel's parameters were chosen automatically (params=auto: \
         pointers at 0x100000, 0x200000, … (1 MiB apart), integers {AUTO_INTEGER}, floats \
         {AUTO_FLOAT:.1}): {}; they are in the report's `arguments`, and `params` sets others",
        shown.join(", ")
    );
    if simulate && !args.memory.is_empty() {
        m.push_str(&crate::auto_memory::memory_sentence(args));
    } else if simulate {
        let arrays: Vec<String> = args
            .values
            .iter()
            .filter(|a| a.kind == ArgumentKind::Pointer)
            .map(|a| format!("{}@{} 256 const 0", short(&a.name), a.text))
            .collect();
        if !arrays.is_empty() {
            m.push_str(&format!(
                "; the simulator needs memory at the pointers, e.g. memory = `{}`",
                arrays.join("; ")
            ));
        }
    }
    if simulate && !args.textures.is_empty() {
        m.push_str(&format!(
            "; each texture object is, in the simulator's texture model (sim::texture), the \
             address of a pitch-linear array of 32-bit texels, bound as textures = `{}` \
             (nearest-point fetches, clamped coordinates)",
            args.textures
        ));
    }
    Diagnostic::global(Severity::Note, m)
}

/// A short array name for a parameter (`_Z6kernelPfS_i_param_0` → `param_0`).
pub fn short(name: &str) -> &str {
    name.rfind("param_").map_or(name, |i| &name[i..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use isa::{ptx, Limits};

    const KERNEL: &str = "
.visible .entry _Z3addPfPKfif(
  .param .u64 _Z3addPfPKfif_param_0,
  .param .u64 _Z3addPfPKfif_param_1,
  .param .u32 _Z3addPfPKfif_param_2,
  .param .f32 _Z3addPfPKfif_param_3,
  .param .u64 _Z3addPfPKfif_param_4,
  .param .align 8 .b8 _Z3addPfPKfif_param_5[16]
)
{
  .reg .b32 %r<4>; .reg .f32 %f<4>; .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [_Z3addPfPKfif_param_0];
  ld.param.u64 %rd2, [_Z3addPfPKfif_param_1];
  ld.param.u64 %rd3, [_Z3addPfPKfif_param_4];
  cvta.to.global.u64 %rd4, %rd1;
  mov.u64 %rd5, %rd2;
  ld.global.f32 %f1, [%rd5];
  st.global.f32 [%rd4], %f1;
  ret;
}
";

    fn function() -> Function {
        let out = ptx::parse(KERNEL, &Limits::default());
        assert!(!out.has_errors(), "{:?}", out.diagnostics);
        out.module.function(None).expect("kernel").clone()
    }

    /// params=auto: pointers 1 MiB apart from 1 MiB, the unused 64-bit `size_t`-like
    /// parameter an integer 64, the float 1.0, the struct zero bytes.
    #[test]
    fn automatic_values_are_pinned() {
        let f = function();
        let v = auto(&f);
        assert_eq!(
            v,
            vec![
                ParamValue::Int(0x10_0000),
                ParamValue::Int(0x20_0000),
                ParamValue::Int(64),
                ParamValue::Float(1.0),
                ParamValue::Int(64),
                ParamValue::Bytes(vec![0; 16]),
            ]
        );
        let r = report(&f, &v, ArgumentSource::Auto, false);
        assert_eq!(r.params, "0x100000,0x200000,64,1.0,64,0");
        let kinds: Vec<ArgumentKind> = r.values.iter().map(|a| a.kind).collect();
        use ArgumentKind::*;
        assert_eq!(kinds, [Pointer, Pointer, Integer, Float, Integer, Bytes]);
        assert_eq!(r.values[5].ty, ".b8[16]");
        // The text reads back as the same values (the struct as 0: zero bytes).
        let back = parse_values(&r.params).expect("numbers");
        assert_eq!(back[..5], v[..5]);
        // As the simulator's words: two 64-bit pointers, the int, the float's bits, the
        // 64-bit integer, 16 zero bytes at 8-byte alignment.
        let w = words(&f, &v);
        assert_eq!(
            w,
            vec![
                0x10_0000,
                0,
                0x20_0000,
                0,
                64,
                0x3f80_0000,
                64,
                0,
                0,
                0,
                0,
                0
            ]
        );
        assert_eq!(from_words(&f, &w), v);
        assert!(is_auto("") && is_auto(" auto ") && !is_auto("0"));
    }
}
