//! The kernel argument lists of a listing's `.amdgpu_metadata` block: the code object's
//! metadata (LLVM AMDGPU Usage, "Code Object V3 Metadata", `amdhsa.kernels`), which the
//! compiler prints as a YAML document between `.amdgpu_metadata` and
//! `.end_amdgpu_metadata`. For each kernel it gives `.name`, `.kernarg_segment_size`,
//! `.group_segment_fixed_size` and `.args`: each argument's `.offset` and `.size` in the
//! kernarg segment and its `.value_kind` (`global_buffer` for a pointer, `by_value`, the
//! `hidden_*` arguments the runtime fills, …), with `.address_space` for pointers.
//!
//! What this is: a reader of the block-style YAML subset the compiler writes (nested
//! mappings and sequences by indentation, `- key: value` items, plain scalars). What it is
//! not: a YAML parser — flow collections, quoting rules, anchors and multi-line scalars
//! are read as plain text, which none of the keys read here needs. The parser
//! ([`super::parse`]) skips the block; this reads it from the source text on demand.

use std::collections::BTreeMap;

/// One kernel argument of the metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelArg {
    pub offset: u64,
    pub size: u64,
    /// `.value_kind`: `global_buffer`, `by_value`, `dynamic_shared_pointer`,
    /// `hidden_global_offset_x`, `hidden_none`, `hidden_block_count_x`, …
    pub value_kind: String,
    /// `.address_space` of a pointer (`global`, `constant`, `local`, …).
    pub address_space: Option<String>,
    /// `.name` and `.type_name`, when the compiler gives them.
    pub name: Option<String>,
    pub type_name: Option<String>,
}

impl KernelArg {
    /// The runtime fills it (`hidden_*`); the kernel's source does not declare it.
    pub fn is_hidden(&self) -> bool {
        self.value_kind.starts_with("hidden_")
    }
}

/// One kernel of `amdhsa.kernels`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelMetadata {
    /// `.name` (the kernel's symbol).
    pub name: String,
    pub args: Vec<KernelArg>,
    pub kernarg_segment_size: Option<u64>,
    pub group_segment_fixed_size: Option<u64>,
    /// `.vgpr_count`: VGPRs per work-item the kernel needs (what limits occupancy; LLVM
    /// AMDGPU Usage, "Code Object V3 Metadata").
    pub vgpr_count: Option<u64>,
    /// `.sgpr_count`: SGPRs per wavefront, VCC, FLAT_SCRATCH and XNACK_MASK included on
    /// GFX8–GFX9 (the same table).
    pub sgpr_count: Option<u64>,
}

/// A YAML node of the subset read here.
#[derive(Debug, Clone, PartialEq)]
enum Node {
    Scalar(String),
    Map(Vec<(String, Node)>),
    Seq(Vec<Node>),
}

impl Node {
    fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Map(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn text(&self, key: &str) -> Option<&str> {
        match self.get(key)? {
            Node::Scalar(s) => Some(s.as_str()),
            _ => None,
        }
    }

    fn number(&self, key: &str) -> Option<u64> {
        crate::number::parse_uint(self.text(key)?)
    }
}

/// A line of the block: its indentation and text (comment and trailing blanks removed).
#[derive(Debug, Clone)]
struct Line {
    indent: usize,
    text: String,
}

/// Reads the block at `lines[*i..]` whose lines are indented exactly `indent`.
fn block(lines: &mut Vec<Line>, i: &mut usize, indent: usize) -> Node {
    let Some(first) = lines.get(*i) else {
        return Node::Scalar(String::new());
    };
    if first.text == "-" || first.text.starts_with("- ") {
        let mut items = Vec::new();
        while let Some(l) = lines.get(*i) {
            if l.indent != indent || !(l.text == "-" || l.text.starts_with("- ")) {
                break;
            }
            let rest = l.text[1..].trim_start().to_string();
            let inner = indent + (l.text.len() - rest.len());
            if rest.is_empty() {
                *i += 1;
                let deeper = lines.get(*i).map_or(0, |n| n.indent);
                items.push(if deeper > indent {
                    block(lines, i, deeper)
                } else {
                    Node::Scalar(String::new())
                });
            } else if rest.contains(':') && !rest.starts_with(['"', '\'']) {
                // `- key: value`: a mapping whose first key sits after the dash.
                lines[*i] = Line {
                    indent: inner,
                    text: rest,
                };
                items.push(block(lines, i, inner));
            } else {
                *i += 1;
                items.push(Node::Scalar(rest));
            }
        }
        return Node::Seq(items);
    }
    let mut map = Vec::new();
    while let Some(l) = lines.get(*i) {
        if l.indent != indent || l.text.starts_with('-') {
            break;
        }
        let (key, value) = match l.text.split_once(':') {
            Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
            None => (l.text.trim().to_string(), String::new()),
        };
        *i += 1;
        if value.is_empty() {
            let next = lines.get(*i).map(|n| (n.indent, n.text.starts_with('-')));
            let node = match next {
                Some((d, _)) if d > indent => block(lines, i, d),
                Some((d, true)) if d == indent => block(lines, i, d),
                _ => Node::Scalar(String::new()),
            };
            map.push((key, node));
        } else {
            map.push((key, Node::Scalar(value)));
        }
    }
    Node::Map(map)
}

/// The `.amdgpu_metadata` blocks of `source`, as YAML lines.
fn metadata_lines(source: &str) -> Vec<Line> {
    let mut out = Vec::new();
    let mut inside = false;
    for raw in source.lines() {
        let t = raw.trim();
        if t.starts_with(".amdgpu_metadata") {
            inside = true;
            continue;
        }
        if t.starts_with(".end_amdgpu_metadata") {
            inside = false;
            continue;
        }
        if !inside || t.is_empty() || t == "---" || t == "..." || t.starts_with('#') {
            continue;
        }
        let text = raw.split(" #").next().unwrap_or(raw).trim_end();
        let indent = text.len() - text.trim_start().len();
        out.push(Line {
            indent,
            text: text.trim_start().to_string(),
        });
    }
    out
}

/// Every kernel the metadata of `source` describes, by name (empty without metadata).
pub fn kernels(source: &str) -> BTreeMap<String, KernelMetadata> {
    let mut lines = metadata_lines(source);
    let mut out = BTreeMap::new();
    let mut i = 0;
    while i < lines.len() {
        let indent = lines[i].indent;
        let before = i;
        let doc = block(&mut lines, &mut i, indent);
        if i == before {
            i += 1;
        }
        let Some(Node::Seq(list)) = doc.get("amdhsa.kernels") else {
            continue;
        };
        for k in list {
            let Some(name) = k.text(".name") else {
                continue;
            };
            let args = match k.get(".args") {
                Some(Node::Seq(a)) => a
                    .iter()
                    .filter_map(|a| {
                        Some(KernelArg {
                            offset: a.number(".offset")?,
                            size: a.number(".size")?,
                            value_kind: a.text(".value_kind")?.to_string(),
                            address_space: a.text(".address_space").map(str::to_string),
                            name: a.text(".name").map(str::to_string),
                            type_name: a.text(".type_name").map(str::to_string),
                        })
                    })
                    .collect(),
                _ => Vec::new(),
            };
            out.insert(
                name.to_string(),
                KernelMetadata {
                    name: name.to_string(),
                    args,
                    kernarg_segment_size: k.number(".kernarg_segment_size"),
                    group_segment_fixed_size: k.number(".group_segment_fixed_size"),
                    vgpr_count: k.number(".vgpr_count"),
                    sgpr_count: k.number(".sgpr_count"),
                },
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shape the compiler prints (hipcc for gfx801): two kernels, an item whose first
    /// key is `.address_space`, hidden arguments, a nested list of numbers.
    #[test]
    fn reads_two_kernels() {
        let src = "
k1:
  s_endpgm
	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .offset:         0
        .size:           4
        .value_kind:     by_value
      - .address_space:  global
        .offset:         8
        .size:           8
        .value_kind:     global_buffer
      - .offset:         16
        .size:           8
        .value_kind:     hidden_global_offset_x
    .group_segment_fixed_size: 8160
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .language_version:
      - 2
      - 0
    .name:           k1
    .sgpr_count:     15
    .symbol:         k1.kd
    .vgpr_count:     23
  - .args:           []
    .kernarg_segment_size: 0
    .name:           k2
amdhsa.target:   amdgcn-amd-amdhsa--gfx801
amdhsa.version:
  - 1
  - 1
...

	.end_amdgpu_metadata
";
        let k = kernels(src);
        assert_eq!(k.len(), 2);
        let k1 = &k["k1"];
        assert_eq!(k1.kernarg_segment_size, Some(24));
        assert_eq!(k1.group_segment_fixed_size, Some(8160));
        assert_eq!((k1.vgpr_count, k1.sgpr_count), (Some(23), Some(15)));
        assert_eq!((k["k2"].vgpr_count, k["k2"].sgpr_count), (None, None));
        let shape: Vec<(u64, u64, &str, Option<&str>)> = k1
            .args
            .iter()
            .map(|a| {
                (
                    a.offset,
                    a.size,
                    a.value_kind.as_str(),
                    a.address_space.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            shape,
            [
                (0, 4, "by_value", None),
                (8, 8, "global_buffer", Some("global")),
                (16, 8, "hidden_global_offset_x", None)
            ]
        );
        assert!(k1.args[2].is_hidden());
        assert!(k["k2"].args.is_empty());
        assert!(kernels("k:\n s_endpgm\n").is_empty());
    }
}
