//! Typing `s_swappc_b64`, `s_setpc_b64` and `s_call_b64` as calls, tail calls and returns.
//!
//! LLVM writes a call as (AMDGPU-Usage, "Call Convention"; relocations `R_AMDGPU_REL32_LO/HI`,
//! `R_AMDGPU_GOTPCREL32_LO/HI`, `R_AMDGPU_ABS32_LO/HI` of the ELF section):
//!
//! ```text
//! s_getpc_b64 s[4:5]
//! s_add_u32 s4, s4, callee@rel32@lo+4
//! s_addc_u32 s5, s5, callee@rel32@hi+12
//! s_swappc_b64 s[30:31], s[4:5]
//! ```
//!
//! or loads the address from the GOT (`callee@gotpcrel32@lo+4`/`@hi+12` added to the pc,
//! then `s_load_dwordx2 s[4:5], s[4:5], 0x0`), or moves an absolute address
//! (`s_mov_b32 s4, callee@abs32@lo`). The callee returns with `s_setpc_b64 s[30:31]`.
//!
//! The scan is a simple forward pass over each block (reset at every label, after every
//! block-ending instruction and after every call, whose callee may clobber any SGPR) that
//! tracks, per SGPR, which half of which address it holds; every other write forgets the
//! register. Relocation addends are not checked against instruction sizes: they are taken
//! to make the pair the symbol's address, as LLVM emits them. A GOT slot holds its
//! symbol's address (that is what the dynamic relocation of the slot puts there).

use std::collections::HashMap;

use super::program::{GcnControl, GcnFunction, GcnInstruction, GcnOperand, GcnOperandKind};

/// Which address a register half belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Addr {
    /// The program counter `s_getpc_b64` read.
    Pc,
    /// The symbol's own address.
    Sym(String),
    /// The address of the symbol's GOT slot.
    Got(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Half {
    addr: Addr,
    hi: bool,
}

/// A relocation operand: `sym@rel32@lo+4`, `sym@gotpcrel32@hi+12`, `sym@abs32@lo`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reloc {
    /// The symbol, without LLVM's `$local` alias suffix.
    pub symbol: String,
    pub kind: RelocKind,
    pub hi: bool,
    pub addend: i64,
}

/// Which address a relocation computes (ELF `R_AMDGPU_*` relocations).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelocKind {
    /// `S + A − P`: pc-relative address of the symbol.
    Rel32,
    /// `G + A − P`: pc-relative address of the symbol's GOT slot.
    GotPcRel32,
    /// `S + A`: absolute address.
    Abs32,
}

/// Parses a relocation operand (LLVM AMDGPU expression syntax `sym@variant@lo/hi±N`);
/// `None` for any other text.
pub fn parse_reloc(text: &str) -> Option<Reloc> {
    let t = text.trim().trim_start_matches('(').trim_end_matches(')');
    let (symbol, rest) = t.split_once('@')?;
    let (kind, rest) = if let Some(r) = rest.strip_prefix("rel32@") {
        (RelocKind::Rel32, r)
    } else if let Some(r) = rest
        .strip_prefix("gotpcrel32@")
        .or_else(|| rest.strip_prefix("gotpcrel@"))
    {
        (RelocKind::GotPcRel32, r)
    } else if let Some(r) = rest.strip_prefix("abs32@") {
        (RelocKind::Abs32, r)
    } else {
        return None;
    };
    let (hi, rest) = if let Some(r) = rest.strip_prefix("lo") {
        (false, r)
    } else if let Some(r) = rest.strip_prefix("hi") {
        (true, r)
    } else {
        return None;
    };
    let addend = match rest.trim() {
        "" => 0,
        r => {
            let (neg, digits) = match (r.strip_prefix('+'), r.strip_prefix('-')) {
                (Some(d), _) => (false, d.trim()),
                (_, Some(d)) => (true, d.trim()),
                _ => return None,
            };
            let v = crate::number::parse_int(digits)?;
            if neg {
                -v
            } else {
                v
            }
        }
    };
    if symbol.is_empty() {
        return None;
    }
    let symbol = symbol.strip_suffix("$local").unwrap_or(symbol);
    Some(Reloc {
        symbol: symbol.to_string(),
        kind,
        hi,
        addend,
    })
}

/// First SGPR of an `s[a:a+1]` operand.
fn pair(op: Option<&GcnOperand>) -> Option<u32> {
    match op.map(|o| &o.kind) {
        Some(GcnOperandKind::Sgpr { first, count: 2 }) => Some(*first),
        _ => None,
    }
}

fn single(op: Option<&GcnOperand>) -> Option<u32> {
    match op.map(|o| &o.kind) {
        Some(GcnOperandKind::Sgpr { first, count: 1 }) => Some(*first),
        _ => None,
    }
}

fn reloc_of(op: Option<&GcnOperand>) -> Option<Reloc> {
    match op.map(|o| &o.kind) {
        Some(GcnOperandKind::Expr { text }) => parse_reloc(text),
        _ => None,
    }
}

/// The symbol whose address the pair starting at `p` holds.
fn symbol_in(vals: &HashMap<u32, Half>, p: u32) -> Option<String> {
    match (vals.get(&p), vals.get(&p.checked_add(1)?)) {
        (
            Some(Half {
                addr: Addr::Sym(a),
                hi: false,
            }),
            Some(Half {
                addr: Addr::Sym(b),
                hi: true,
            }),
        ) if a == b => Some(a.clone()),
        _ => None,
    }
}

/// The effect of one instruction on the tracked values.
fn step(vals: &mut HashMap<u32, Half>, ins: &GcnInstruction) {
    let ops = &ins.operands;
    let mut set: Vec<(u32, Half)> = Vec::new();
    match ins.opcode.as_str() {
        "s_getpc_b64" => {
            if let Some(d) = pair(ops.first()) {
                set.push((
                    d,
                    Half {
                        addr: Addr::Pc,
                        hi: false,
                    },
                ));
                set.push((
                    d + 1,
                    Half {
                        addr: Addr::Pc,
                        hi: true,
                    },
                ));
            }
        }
        "s_add_u32" | "s_addc_u32" => {
            let hi = ins.opcode == "s_addc_u32";
            let (reg, rel) = match (single(ops.get(1)), single(ops.get(2))) {
                (Some(r), _) => (Some(r), reloc_of(ops.get(2))),
                (_, Some(r)) => (Some(r), reloc_of(ops.get(1))),
                _ => (None, None),
            };
            let pc_half = reg
                .and_then(|r| vals.get(&r))
                .is_some_and(|h| h == &Half { addr: Addr::Pc, hi });
            if let (Some(d), Some(rel), true) = (single(ops.first()), rel, pc_half) {
                let addr = match rel.kind {
                    RelocKind::Rel32 => Some(Addr::Sym(rel.symbol)),
                    RelocKind::GotPcRel32 => Some(Addr::Got(rel.symbol)),
                    RelocKind::Abs32 => None,
                };
                if let (Some(addr), true) = (addr, rel.hi == hi) {
                    set.push((d, Half { addr, hi }));
                }
            }
        }
        "s_mov_b32" => {
            if let Some(d) = single(ops.first()) {
                if let Some(rel) = reloc_of(ops.get(1)) {
                    if rel.kind == RelocKind::Abs32 {
                        set.push((
                            d,
                            Half {
                                addr: Addr::Sym(rel.symbol),
                                hi: rel.hi,
                            },
                        ));
                    }
                } else if let Some(h) = single(ops.get(1)).and_then(|s| vals.get(&s)) {
                    set.push((d, h.clone()));
                }
            }
        }
        "s_mov_b64" => {
            if let (Some(d), Some(s)) = (pair(ops.first()), pair(ops.get(1))) {
                for i in 0..2 {
                    if let Some(h) = vals.get(&(s + i)) {
                        set.push((d + i, h.clone()));
                    }
                }
            }
        }
        "s_load_dwordx2" => {
            let zero_offset = match ops.get(2).map(|o| &o.kind) {
                None => true,
                Some(GcnOperandKind::Int { value }) => *value == 0,
                _ => false,
            };
            let slot = pair(ops.get(1)).and_then(|b| match (vals.get(&b), vals.get(&(b + 1))) {
                (
                    Some(Half {
                        addr: Addr::Got(x),
                        hi: false,
                    }),
                    Some(Half {
                        addr: Addr::Got(y),
                        hi: true,
                    }),
                ) if x == y => Some(x.clone()),
                _ => None,
            });
            if let (Some(d), Some(sym), true) = (pair(ops.first()), slot, zero_offset) {
                set.push((
                    d,
                    Half {
                        addr: Addr::Sym(sym.clone()),
                        hi: false,
                    },
                ));
                set.push((
                    d + 1,
                    Half {
                        addr: Addr::Sym(sym),
                        hi: true,
                    },
                ));
            }
        }
        _ => {}
    }
    for r in &ins.writes {
        if let super::program::GcnReg::Sgpr(n) = r {
            vals.remove(n);
        }
    }
    for (r, h) in set {
        vals.insert(r, h);
    }
}

/// Types the calls, tail calls and returns of `f` (see the module documentation).
pub(crate) fn resolve_calls(f: &mut GcnFunction) {
    let mut starts = vec![false; f.instructions.len() + 1];
    for &i in f.labels.values() {
        if let Some(s) = starts.get_mut(i) {
            *s = true;
        }
    }
    let mut vals: HashMap<u32, Half> = HashMap::new();
    for (i, ins) in f.instructions.iter_mut().enumerate() {
        if starts[i] {
            vals.clear();
        }
        let ops = &ins.operands;
        let new_control = match ins.opcode.as_str() {
            "s_swappc_b64" => match (pair(ops.first()), pair(ops.get(1))) {
                (Some(d), Some(s)) => symbol_in(&vals, s).map(|callee| GcnControl::Call {
                    callee,
                    return_pair: d,
                    target_index: None,
                }),
                _ => None,
            },
            "s_call_b64" => {
                let callee = match ops.get(1).map(|o| &o.kind) {
                    Some(GcnOperandKind::Expr { text })
                    | Some(GcnOperandKind::Label { name: text }) => {
                        Some(text.strip_suffix("$local").unwrap_or(text).to_string())
                    }
                    _ => None,
                };
                match (pair(ops.first()), callee) {
                    (Some(d), Some(callee)) => Some(GcnControl::Call {
                        callee,
                        return_pair: d,
                        target_index: None,
                    }),
                    _ => Some(GcnControl::Indirect),
                }
            }
            "s_setpc_b64" => match pair(ops.first()) {
                Some(s) => match symbol_in(&vals, s) {
                    Some(callee) => Some(GcnControl::TailCall {
                        callee,
                        target_index: None,
                    }),
                    None if s == 30 => Some(GcnControl::Return),
                    None => None,
                },
                None => None,
            },
            _ => None,
        };
        if let Some(c) = new_control {
            ins.control = c;
        }
        if ins.control.ends_block() {
            vals.clear();
        } else {
            step(&mut vals, ins);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relocations() {
        assert_eq!(
            parse_reloc("_Z3fooi@rel32@lo+4"),
            Some(Reloc {
                symbol: "_Z3fooi".into(),
                kind: RelocKind::Rel32,
                hi: false,
                addend: 4
            })
        );
        assert_eq!(
            parse_reloc("f$local@gotpcrel32@hi+12").map(|r| (r.symbol, r.kind, r.hi)),
            Some(("f".into(), RelocKind::GotPcRel32, true))
        );
        assert_eq!(
            parse_reloc("g@abs32@lo").map(|r| (r.kind, r.addend)),
            Some((RelocKind::Abs32, 0))
        );
        assert_eq!(parse_reloc("g@foo@lo"), None);
        assert_eq!(parse_reloc("plain"), None);
    }
}
