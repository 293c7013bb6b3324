//! Automatic kernel arguments of a GCN3 kernel (issue #26 items 2 and 5, issue #37 item 5),
//! from the best of three sources ([`automatic`]):
//!
//! 1. **The code object's metadata** (`.amdgpu_metadata`, read by `isa::gcn::metadata`):
//!    every argument's offset, size and kind in the kernarg segment, the hidden ones
//!    included — a `global_buffer` is a pointer, a `by_value` a number or a struct, and
//!    each `hidden_*` argument gets the value the launch implies ([`hidden_value`]).
//! 2. **The mangled name**: a HIP kernel is a C++ function, so its symbol carries its
//!    parameter types in the Itanium C++ ABI's mangling (`_Z4Fan1PfS_ii` is
//!    `Fan1(float*, float*, int, int)`), and the AMDGPU ABI lays the explicit arguments out
//!    in order, each at its natural alignment (AMDGPU-Usage, "Kernel Argument Layout").
//!    With metadata it only says which `by_value` arguments are floats.
//! 3. **The listing's loads** ([`super::gcn_kernarg`]): which kernarg words the kernel loads,
//!    which 8-byte slots it uses as addresses (pointers) and which words as floats — for
//!    `by_value` structs and 8-byte values of unknown type, and for a listing with neither
//!    metadata nor a readable name (`extern "C"` kernels), whose segment is then
//!    `.amdhsa_kernarg_size` bytes.
//!
//! The mangling reader takes what HIP kernels of the corpus use: builtin types, `P`
//! (pointer), `K`/`V` (qualifiers), class names (behind a pointer) and substitutions (`S_`,
//! `S<n>_`; Itanium ABI §5.1.8: every pointer, qualified type and class name is a candidate,
//! builtins are not). Anything else — a class passed by value (size unknown), a template or
//! nested name, an `extern "C"` symbol without types — gives `None`.

use super::gcn_kernarg::KernargUses;
use super::kernel_args::{AUTO_FLOAT, AUTO_INTEGER, POINTER_BASE, POINTER_STRIDE};
use crate::report::{ArgumentKind, ArgumentSource, KernelArgument, KernelArguments};
use isa::gcn::metadata::{KernelArg, KernelMetadata};

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

/// The kernarg words of the automatic values of `params` laid out by [`offsets`], and the
/// report of them (the mangled-name path of [`automatic`]).
pub fn auto(params: &[Param]) -> (Vec<u32>, KernelArguments) {
    let mut placed: Vec<Placed> = params
        .iter()
        .zip(offsets(params))
        .enumerate()
        .map(|(k, (p, o))| Placed {
            name: format!("arg{k}@{o:#x}"),
            ty: p.ty.clone(),
            kind: p.kind,
            offset: u64::from(o),
            bytes: u64::from(p.bytes),
            value: if p.ty.ends_with("bool") { 1 } else { 0 },
        })
        .collect();
    let size = placed.iter().map(|p| p.offset + p.bytes).max().unwrap_or(0);
    assemble(&mut placed, size)
}

/// Where the automatic arguments came from (for the note).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Metadata,
    MangledName,
    Loads,
}

/// One argument (or, for a struct, one word or pointer of it) placed in the segment.
#[derive(Debug, Clone, PartialEq)]
struct Placed {
    name: String,
    ty: String,
    kind: ArgumentKind,
    offset: u64,
    bytes: u64,
    value: u64,
}

/// The value of hidden argument `kind` for a launch of `grid` blocks of `block` work-items
/// with `dynamic_lds` bytes of dynamic LDS (AMDGPU-Usage, "Code Object V3 Metadata" and "V5
/// Metadata", `.value_kind`): the global offsets are 0 (HIP launches without offsets), the
/// printf buffer, default queue, completion action, multigrid-sync and hostcall pointers are
/// null (none is modelled), the block counts, group sizes and dimensions are the launch's —
/// the values the dispatch packet (`sim::gcn::abi`) holds too; the remainders are 0 (a
/// launch is whole blocks). `None` for a kind this does not know.
pub fn hidden_value(kind: &str, grid: [u32; 3], block: [u32; 3], dynamic_lds: u32) -> Option<u64> {
    let dim = |s: &str| match s {
        "x" => Some(0usize),
        "y" => Some(1),
        "z" => Some(2),
        _ => None,
    };
    let dims = if grid[2] > 1 || block[2] > 1 {
        3
    } else if grid[1] > 1 || block[1] > 1 {
        2
    } else {
        1
    };
    Some(match kind {
        k if k.starts_with("hidden_block_count_") => {
            u64::from(grid[dim(&k["hidden_block_count_".len()..])?])
        }
        k if k.starts_with("hidden_group_size_") => {
            u64::from(block[dim(&k["hidden_group_size_".len()..])?])
        }
        "hidden_grid_dims" => dims,
        "hidden_dynamic_lds_size" => u64::from(dynamic_lds),
        k if k.starts_with("hidden_global_offset_") || k.starts_with("hidden_remainder_") => 0,
        "hidden_none"
        | "hidden_printf_buffer"
        | "hidden_hostcall_buffer"
        | "hidden_default_queue"
        | "hidden_completion_action"
        | "hidden_multigrid_sync_arg"
        | "hidden_heap_v1" => 0,
        _ => return None,
    })
}

/// The automatic kind of the word or slot at `offset` of `bytes` bytes with no type:
/// pointer when the listing uses it as an address, float when as a float, else integer.
fn inferred(uses: &KernargUses, offset: u64, bytes: u64) -> ArgumentKind {
    if bytes == 8 && uses.pointers.contains(&offset) {
        ArgumentKind::Pointer
    } else if bytes == 4 && uses.floats.contains(&offset) {
        ArgumentKind::Float
    } else {
        ArgumentKind::Integer
    }
}

/// The automatic arguments of a kernel (module doc): from its metadata `meta` when there is
/// one, else from its mangled name `symbol`, else from the listing's loads `uses` over a
/// segment of `kernarg_size` bytes; `None` when none of them says anything. The launch
/// (`grid`, `block`, dynamic LDS) gives the hidden arguments.
pub fn automatic(
    symbol: &str,
    meta: Option<&KernelMetadata>,
    uses: &KernargUses,
    kernarg_size: Option<u64>,
    launch: &sim::Launch,
) -> Option<(Vec<u32>, KernelArguments, Source)> {
    let sig = signature(symbol);
    let mut placed = Vec::new();
    let source = if let Some(m) = meta {
        let explicit: Vec<&KernelArg> = m.args.iter().filter(|a| !a.is_hidden()).collect();
        // The name's types, when they are one per explicit argument of the same size.
        let typed = sig.as_ref().filter(|s| {
            s.len() == explicit.len()
                && s.iter()
                    .zip(&explicit)
                    .all(|(p, a)| u64::from(p.bytes) == a.size)
        });
        let mut k = 0;
        for a in &m.args {
            if a.is_hidden() {
                let value = hidden_value(
                    &a.value_kind,
                    launch.grid,
                    launch.block,
                    launch.shared_bytes,
                )
                .unwrap_or(0);
                placed.push(Placed {
                    name: format!("{}@{:#x}", a.value_kind, a.offset),
                    ty: a.value_kind.clone(),
                    kind: ArgumentKind::Integer,
                    offset: a.offset,
                    bytes: a.size,
                    value,
                });
                continue;
            }
            let name = format!("arg{k}@{:#x}", a.offset);
            let ty = typed
                .and_then(|s| s.get(k))
                .map_or_else(|| a.value_kind.clone(), |p| p.ty.clone());
            k += 1;
            let kind = match a.value_kind.as_str() {
                "global_buffer" => ArgumentKind::Pointer,
                "by_value" if a.size > 8 => {
                    // A struct by value: each word, pointers where the listing uses them.
                    let mut o = a.offset;
                    while o < a.offset + a.size {
                        let slot = inferred(uses, o, 8);
                        let (kind, bytes) =
                            if slot == ArgumentKind::Pointer && o + 8 <= a.offset + a.size {
                                (slot, 8)
                            } else {
                                (inferred(uses, o, 4), 4.min(a.offset + a.size - o))
                            };
                        placed.push(Placed {
                            name: format!("{name}+{:#x}", o - a.offset),
                            ty: ty.clone(),
                            kind,
                            offset: o,
                            bytes,
                            value: 0,
                        });
                        o += bytes;
                    }
                    continue;
                }
                "by_value" => match typed.and_then(|s| s.get(k - 1)) {
                    Some(p) if p.kind != ArgumentKind::Pointer => p.kind,
                    _ => inferred(uses, a.offset, a.size),
                },
                // Pointers to LDS or other spaces, images, samplers, pipes, queues: not
                // modelled, null.
                _ => ArgumentKind::Bytes,
            };
            placed.push(Placed {
                name,
                ty,
                kind,
                offset: a.offset,
                bytes: a.size,
                value: 0,
            });
        }
        Source::Metadata
    } else if let Some(params) = sig.filter(|p| !p.is_empty()) {
        let (words, args) = auto(&params);
        return Some((words, args, Source::MangledName));
    } else {
        let size = kernarg_size
            .filter(|&n| n > 0)
            .or_else(|| uses.loaded.iter().next_back().map(|w| w + 4))?;
        let mut o = 0;
        while o < size {
            let slot = inferred(uses, o, 8);
            let (kind, bytes) = if slot == ArgumentKind::Pointer {
                (slot, 8)
            } else {
                (inferred(uses, o, 4), 4)
            };
            if uses.loaded.contains(&o) || kind == ArgumentKind::Pointer {
                placed.push(Placed {
                    name: format!("word@{o:#x}"),
                    ty: "?".into(),
                    kind,
                    offset: o,
                    bytes,
                    value: 0,
                });
            }
            o += bytes;
        }
        if placed.is_empty() {
            return None;
        }
        Source::Loads
    };
    let size = meta
        .and_then(|m| m.kernarg_segment_size)
        .or(kernarg_size)
        .unwrap_or(0)
        .max(placed.iter().map(|p| p.offset + p.bytes).max().unwrap_or(0));
    let (words, args) = assemble(&mut placed, size);
    Some((words, args, source))
}

/// The automatic value of a placed argument of no value of its own: pointers 1 MiB apart
/// from [`POINTER_BASE`] in order, floats [`AUTO_FLOAT`], integers [`AUTO_INTEGER`] (in
/// their width), unknown kinds (`Bytes`) 0.
fn assemble(placed: &mut [Placed], size: u64) -> (Vec<u32>, KernelArguments) {
    let mut bytes = vec![0u8; size.div_ceil(4) as usize * 4];
    let mut values = Vec::new();
    let mut pointers = 0u64;
    for p in placed.iter_mut() {
        let is_hidden = p.ty.starts_with("hidden_");
        if !is_hidden && p.value == 0 {
            p.value = match p.kind {
                ArgumentKind::Pointer => {
                    pointers += 1;
                    POINTER_BASE.saturating_add((pointers - 1).saturating_mul(POINTER_STRIDE))
                }
                ArgumentKind::Float if p.bytes == 8 => AUTO_FLOAT.to_bits(),
                ArgumentKind::Float => u64::from((AUTO_FLOAT as f32).to_bits()),
                ArgumentKind::Integer => AUTO_INTEGER as u64,
                ArgumentKind::Bytes => 0,
            };
        }
        let le = p.value.to_le_bytes();
        let (o, n) = (p.offset as usize, p.bytes.min(8) as usize);
        if let Some(dst) = bytes.get_mut(o..o + n) {
            dst.copy_from_slice(&le[..n]);
        }
        let (json, text) = match p.kind {
            ArgumentKind::Pointer => (serde_json::json!(p.value), format!("{:#x}", p.value)),
            ArgumentKind::Float => (serde_json::json!(AUTO_FLOAT), format!("{AUTO_FLOAT:.1}")),
            _ => (serde_json::json!(p.value), p.value.to_string()),
        };
        values.push(KernelArgument {
            name: p.name.clone(),
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

    /// A hand-written metadata list (the shape hipcc prints for gfx801): an int at 0, a
    /// pointer at 8, a float at 16 (the mangled name `_Z1kiPff` says so), then the code
    /// object V3 hidden arguments and, for the test, V5 block counts and group sizes.
    /// Words worked by hand: 64, pointer 0x100000 (two words), 1.0, 0 (padding), zeros for
    /// the global offsets, then grid x = 3 at 0x38, block x = 128 (u16) at 0x3c and block y
    /// = 2 at 0x3e, dims 2 (u16) at 0x40.
    #[test]
    fn metadata_arguments_and_hidden_values() {
        let meta = KernelMetadata {
            name: "_Z1kiPff".into(),
            args: [
                (0, 4, "by_value"),
                (8, 8, "global_buffer"),
                (16, 4, "by_value"),
                (24, 8, "hidden_global_offset_x"),
                (32, 8, "hidden_global_offset_y"),
                (48, 8, "hidden_none"),
                (56, 4, "hidden_block_count_x"),
                (60, 2, "hidden_group_size_x"),
                (62, 2, "hidden_group_size_y"),
                (64, 2, "hidden_grid_dims"),
            ]
            .into_iter()
            .map(|(offset, size, kind)| KernelArg {
                offset,
                size,
                value_kind: kind.into(),
                address_space: None,
                name: None,
                type_name: None,
            })
            .collect(),
            kernarg_segment_size: Some(72),
            group_segment_fixed_size: Some(0),
            vgpr_count: None,
            sgpr_count: None,
        };
        let launch = sim::Launch {
            grid: [3, 1, 1],
            block: [128, 2, 1],
            ..sim::Launch::default()
        };
        let (words, args, from) = automatic(
            "_Z1kiPff",
            Some(&meta),
            &KernargUses::default(),
            None,
            &launch,
        )
        .expect("arguments");
        assert_eq!(from, Source::Metadata);
        let one = 1.0f32.to_bits();
        let mut expected = vec![0u32; 18];
        expected[..6].copy_from_slice(&[64, 0, 0x10_0000, 0, one, 0]);
        expected[14] = 3;
        expected[15] = 128 | (2 << 16);
        expected[16] = 2;
        assert_eq!(words, expected);
        assert_eq!(args.values[1].kind, ArgumentKind::Pointer);
        assert_eq!(args.values[1].ty, "float*");
        assert_eq!(args.values[2].kind, ArgumentKind::Float);
        assert_eq!(args.values[6].name, "hidden_block_count_x@0x38");
        assert_eq!(args.values[6].text, "3");
    }

    /// Without metadata or types (`extern "C"`), the listing's loads decide: a struct by
    /// value and an unknown name are read word by word (see `gcn_kernarg`), over the
    /// descriptor's segment size.
    #[test]
    fn loads_decide_without_metadata_or_types() {
        let uses = KernargUses {
            loaded: [0, 4, 8, 12, 16].into_iter().collect(),
            pointers: [0, 8].into_iter().collect(),
            floats: [16].into_iter().collect(),
        };
        let launch = sim::Launch::default();
        let (words, args, from) =
            automatic("findK", None, &uses, Some(24), &launch).expect("arguments");
        assert_eq!(from, Source::Loads);
        // Pointers 0x100000 and 0x200000, 1.0 at 16, nothing loaded at 20.
        let one = 1.0f32.to_bits();
        assert_eq!(words, [0x10_0000, 0, 0x20_0000, 0, one, 0]);
        assert_eq!(args.values.len(), 3);
        assert!(automatic("findK", None, &KernargUses::default(), None, &launch).is_none());
        // A struct by value in the metadata: the pointer slot the listing uses at 8 inside
        // it, the other words integers.
        let meta = KernelMetadata {
            name: "_Z1k1S".into(),
            args: vec![KernelArg {
                offset: 0,
                size: 16,
                value_kind: "by_value".into(),
                address_space: None,
                name: None,
                type_name: None,
            }],
            kernarg_segment_size: Some(16),
            group_segment_fixed_size: None,
            vgpr_count: None,
            sgpr_count: None,
        };
        let uses = KernargUses {
            pointers: [8].into_iter().collect(),
            ..KernargUses::default()
        };
        let (words, _, _) = automatic("_Z1k1S", Some(&meta), &uses, None, &launch).expect("struct");
        assert_eq!(words, [64, 64, 0x10_0000, 0]);
    }
}
