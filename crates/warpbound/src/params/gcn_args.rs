//! Automatic kernel arguments of a GCN3 kernel (issue #26 items 2 and 5): a HIP kernel is a
//! C++ function, so its symbol carries its parameter types in the Itanium C++ ABI's
//! mangling (`_Z4Fan1PfS_ii` is `Fan1(float*, float*, int, int)`), and the AMDGPU ABI lays the
//! explicit arguments out in the kernarg segment in order, each at its natural alignment
//! (AMDGPU-Usage, "Kernel Argument Layout"). A listing without the code object's metadata
//! (none of the corpus's but one has `.amdgpu_metadata`) still has its symbol.
//!
//! Only what HIP kernels of the corpus use is read: builtin types, `P` (pointer), `K`/`V`
//! (qualifiers), class names (behind a pointer) and substitutions (`S_`, `S<n>_`; Itanium
//! ABI §5.1.8: every pointer, qualified type and class name is a candidate, builtins are
//! not). Anything else — a class passed by value (size unknown), a template or nested name,
//! an `extern "C"` symbol without types — gives `None`, and the kernel runs with the
//! request's words (zeros), as before.

use super::kernel_args::{AUTO_FLOAT, AUTO_INTEGER, POINTER_BASE, POINTER_STRIDE};
use crate::report::{ArgumentKind, ArgumentSource, KernelArgument, KernelArguments};

/// One parameter: its C spelling, what it is, and its size in bytes (= its alignment).
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub ty: String,
    pub kind: ArgumentKind,
    pub bytes: u32,
}

/// The parameters of the function `symbol` names, or `None` (module doc).
pub fn signature(symbol: &str) -> Option<Vec<Param>> {
    let rest = symbol.strip_prefix("_Z")?;
    let (_, mut rest) = source_name(rest)?;
    let mut subs: Vec<(String, Option<Param>)> = Vec::new();
    let mut params = Vec::new();
    while !rest.is_empty() {
        let (ty, param, tail) = parse_type(rest, &mut subs)?;
        if ty == "void" && params.is_empty() && tail.is_empty() {
            return Some(Vec::new());
        }
        params.push(param?);
        rest = tail;
    }
    Some(params)
}

/// `<length><identifier>`: the identifier and the rest.
fn source_name(s: &str) -> Option<(&str, &str)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let len: usize = s.get(..digits)?.parse().ok()?;
    let name = s.get(digits..digits + len)?;
    Some((name, &s[digits + len..]))
}

/// One type at the start of `s`: its C spelling, the parameter it makes (`None` for a class
/// by value), and the rest; substitution candidates are added to `subs`.
fn parse_type<'a>(
    s: &'a str,
    subs: &mut Vec<(String, Option<Param>)>,
) -> Option<(String, Option<Param>, &'a str)> {
    let first = s.chars().next()?;
    let rest = &s[1..];
    let builtin = |ty: &str, kind: ArgumentKind, bytes: u32| {
        Some((
            ty.to_string(),
            Some(Param {
                ty: ty.to_string(),
                kind,
                bytes,
            }),
            rest,
        ))
    };
    use ArgumentKind::{Float, Integer};
    match first {
        'v' => Some(("void".into(), None, rest)),
        'b' => builtin("bool", Integer, 1),
        'c' => builtin("char", Integer, 1),
        'a' => builtin("signed char", Integer, 1),
        'h' => builtin("unsigned char", Integer, 1),
        's' => builtin("short", Integer, 2),
        't' => builtin("unsigned short", Integer, 2),
        'i' => builtin("int", Integer, 4),
        'j' => builtin("unsigned int", Integer, 4),
        'l' => builtin("long", Integer, 8),
        'm' => builtin("unsigned long", Integer, 8),
        'x' => builtin("long long", Integer, 8),
        'y' => builtin("unsigned long long", Integer, 8),
        'f' => builtin("float", Float, 4),
        'd' => builtin("double", Float, 8),
        'P' => {
            let (inner, _, tail) = parse_type(rest, subs)?;
            let ty = format!("{inner}*");
            let p = Param {
                ty: ty.clone(),
                kind: ArgumentKind::Pointer,
                bytes: 8,
            };
            subs.push((ty.clone(), Some(p.clone())));
            Some((ty, Some(p), tail))
        }
        'K' | 'V' => {
            let (inner, p, tail) = parse_type(rest, subs)?;
            let q = if first == 'K' { "const" } else { "volatile" };
            let ty = format!("{q} {inner}");
            let p = p.map(|p| Param {
                ty: ty.clone(),
                ..p
            });
            subs.push((ty.clone(), p.clone()));
            Some((ty, p, tail))
        }
        'S' => {
            let end = rest.find('_')?;
            if !rest[..end]
                .bytes()
                .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase())
            {
                return None;
            }
            let index = if end == 0 {
                0
            } else {
                usize::from_str_radix(&rest[..end], 36).ok()? + 1
            };
            let (ty, p) = subs.get(index)?.clone();
            Some((ty, p, &rest[end + 1..]))
        }
        '1'..='9' => {
            let (name, tail) = source_name(s)?;
            subs.push((name.to_string(), None));
            Some((name.to_string(), None, tail))
        }
        _ => None,
    }
}

/// Byte offset of each parameter in the kernarg segment (natural alignment, in order).
pub fn offsets(params: &[Param]) -> Vec<u32> {
    let mut at = 0u32;
    params
        .iter()
        .map(|p| {
            let align = p.bytes.max(1);
            at = at.div_ceil(align) * align;
            let o = at;
            at += p.bytes;
            o
        })
        .collect()
}

/// The automatic value of each parameter: pointers at [`POINTER_BASE`] + k × 1 MiB,
/// integers [`AUTO_INTEGER`] (a `bool` 1), floats [`AUTO_FLOAT`] — the PTX and SASS
/// automatic launches' values.
fn value(p: &Param, pointer: u64) -> u64 {
    match p.kind {
        ArgumentKind::Pointer => pointer,
        ArgumentKind::Float if p.bytes == 8 => AUTO_FLOAT.to_bits(),
        ArgumentKind::Float => u64::from((AUTO_FLOAT as f32).to_bits()),
        _ if p.ty.ends_with("bool") => 1,
        _ => AUTO_INTEGER as u64,
    }
}

/// The kernarg words (32-bit, little-endian) of the automatic values, and the report of
/// them.
pub fn auto(params: &[Param]) -> (Vec<u32>, KernelArguments) {
    let offsets = offsets(params);
    let end = params
        .iter()
        .zip(&offsets)
        .map(|(p, o)| o + p.bytes)
        .max()
        .unwrap_or(0);
    let mut bytes = vec![0u8; end.div_ceil(4) as usize * 4];
    let mut values = Vec::new();
    let mut pointers = 0u64;
    for (k, (p, &o)) in params.iter().zip(&offsets).enumerate() {
        let pointer = POINTER_BASE.saturating_add(pointers.saturating_mul(POINTER_STRIDE));
        pointers += u64::from(p.kind == ArgumentKind::Pointer);
        let v = value(p, pointer);
        let le = v.to_le_bytes();
        bytes[o as usize..(o + p.bytes) as usize].copy_from_slice(&le[..p.bytes as usize]);
        let (json, text) = match p.kind {
            ArgumentKind::Pointer => (serde_json::json!(v), format!("{v:#x}")),
            ArgumentKind::Float => (serde_json::json!(AUTO_FLOAT), format!("{AUTO_FLOAT:.1}")),
            _ => (serde_json::json!(v), v.to_string()),
        };
        values.push(KernelArgument {
            name: format!("arg{k}@{o:#x}"),
            ty: p.ty.clone(),
            kind: p.kind,
            value: json,
            text,
            source: ArgumentSource::Auto,
        });
    }
    let words: Vec<u32> = bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let params = words
        .iter()
        .map(|w| format!("{w:#x}"))
        .collect::<Vec<_>>()
        .join(",");
    (
        words,
        KernelArguments {
            values,
            params,
            memory: String::new(),
            textures: String::new(),
            outside: Vec::new(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn types(symbol: &str) -> Option<Vec<String>> {
        signature(symbol).map(|ps| ps.into_iter().map(|p| p.ty).collect())
    }

    /// Rodinia's BFS kernel: `Kernel(Node*, int*, bool*, bool*, bool*, int*, int)`; the
    /// substitutions S_ = Node, S0_ = Node*, S1_ = int*, S2_ = bool*.
    #[test]
    fn substitutions_name_earlier_types() {
        assert_eq!(
            types("_Z6KernelP4NodePiPbS2_S2_S1_i").expect("signature"),
            ["Node*", "int*", "bool*", "bool*", "bool*", "int*", "int"]
        );
        // S_ = const float, S0_ = const float*.
        assert_eq!(
            types("_Z15vectorset_floatPKfS0_Pf").expect("signature"),
            ["const float*", "const float*", "float*"]
        );
        assert_eq!(
            types("_Z19kernel_compute_costiilP5PointiiPfS1_PiPb").expect("signature"),
            ["int", "int", "long", "Point*", "int", "int", "float*", "float*", "int*", "bool*"]
        );
        assert_eq!(types("_Z3fooi").expect("signature"), ["int"]);
        assert_eq!(types("_Z3foov").expect("signature"), Vec::<String>::new());
    }

    /// What it does not read gives no signature: `extern "C"`, a class by value, a nested
    /// name.
    #[test]
    fn unread_symbols_give_none() {
        assert!(types("findK").is_none());
        assert!(types("_Z6euclid7latLongPfiff").is_none());
        assert!(types("_ZN2ns3fooEPf").is_none());
    }

    /// `_Z6euclidP7latLongPfiff`: pointers at 0 and 8, int at 16, floats at 20 and 24 —
    /// 7 words: 0x100000, 0, 0x200000, 0, 64, 1.0, 1.0. Alignment: a pointer after an int
    /// moves to the next 8 (`i` then `P`: 0, 8).
    #[test]
    fn the_kernarg_layout_is_natural_alignment() {
        let p = signature("_Z6euclidP7latLongPfiff").expect("signature");
        assert_eq!(offsets(&p), [0, 8, 16, 20, 24]);
        let (words, args) = auto(&p);
        let one = 1.0f32.to_bits();
        assert_eq!(words, [0x10_0000, 0, 0x20_0000, 0, 64, one, one]);
        assert_eq!(args.values[1].name, "arg1@0x8");
        assert_eq!(args.values[1].text, "0x200000");
        let p = signature("_Z14dynproc_kerneliPiS_S_iiii").expect("signature");
        assert_eq!(offsets(&p), [0, 8, 16, 24, 32, 36, 40, 44]);
    }
}
